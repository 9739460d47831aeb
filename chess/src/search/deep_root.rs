//! Depth 6's root ([`Kind::DeepRoot`](crate::search::plan::Kind::DeepRoot)):
//! depth 5's root, with a ply more for the moves within a window.
//!
//! The root is searched as the rest of its plan's root is (depth 5's,
//! `probed_root`: its probe, its cut, each kept candidate's depth-5
//! search), and each kept candidate whose depth-5 score is within
//! [`DEEP_WINDOW`] of the root's probe's is then searched by a whole
//! depth-5 search for the opponent ([`Window`]), its score replacing the
//! depth-5 one. So depth 6 costs about a depth-5 search, and one more per
//! move in that window. With the root cut on (`bounded`), the root's
//! probe's move is first searched a ply deeper ([`deep_probe`]) and its
//! score bounds the others' replies: a reply search whose own probe
//! already leaves the candidate strictly below it ends there
//! (`vars::REPLY_BOUND`), and two plies below the reply (the root's side
//! to move) a candidate whose own probe leaves it strictly below it is
//! dropped (`vars::DEEP_ROOT_BOUND`). That reply search's probe also
//! searches, as its hint, the best reply the candidate's depth-5 search
//! found (`probed::given_probe` names it), so it ends at its probe more
//! often; a hint changes no score. Depth 6's own candidates do without
//! the refutation probe: the cut of its root (depth 5's) also chooses
//! which moves within the window get the ply more, and a sharper one
//! would choose fewer.
//!
//! This module owns depth 6's window; it must not change the move or
//! score the window chooses (the deep probe's bounds change only how much
//! is searched).

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::movegen::{legal_moves_for, Options, MOVE_VAR};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::answer::{pop_reply_score, take_reply_score, take_reply_value};
use crate::search::plan::At;
use crate::search::probed_root::{
    cut_candidates, drop_unless_repeating, pop_probe, take_probe, RootRule,
};
use crate::search::vars::{
    DEEP_PROBE_SCORE, DEEP_ROOT_BOUND, HINT_MOVE, PROBE_MOVE, PROBE_SCORE, REPEATS, REPLY_BOUND,
    ROOT_BOUND,
};
use crate::search::{self, guard, repetition, strip};
use crate::vocabulary::{EVEN, SCORE};

/// At depth 6, how far below the root's probe's score (in the
/// evaluation's units, 10 centipawns: a pawn) a kept root candidate's
/// depth-5 score may be and still be searched a ply deeper.
pub const DEEP_WINDOW: u32 = 10;

/// The root at `at`, as `search::node` searches it: each active thread (a
/// position, `us` to move) gets `[em, v]` of its best candidate, or
/// nothing when it has no legal move; `bounded`: with the deep probe's
/// bounds.
pub(crate) fn node(m: &mut Machine, us: Color, at: At, bounded: bool) {
    let root = At::root(at.plan().rest());
    let refutes = root.plan().root_probe_names_refutation();
    m.scope(|m| {
        take_probe(m, us, root);
        m.if_stack_empty(
            |_| {},
            |m| {
                pop_probe(m, refutes);
                if bounded {
                    deep_probe(m, us, root);
                }
                if refutes {
                    // The refutation is the deep probe's reply search's
                    // hint; the candidates do without it.
                    m.delete(HINT_MOVE);
                }
                debug_assert!(!m.is_set(REPLY_BOUND), "depth 6 is no reply search");
                cut_candidates(m, us, root, &Window { bounded });
            },
        );
    });
}

/// Depth 6's rule for the root's candidates: exact down to the window's
/// floor, and searched a ply deeper within it.
struct Window {
    /// With the deep probe's score and bounds.
    bounded: bool,
}

impl RootRule for Window {
    /// The window's floor, [`DEEP_WINDOW`] below the root's probe's score
    /// (0 below that): depth 5's score must be exact down to it.
    fn set_root_bound(&self, m: &mut Machine) {
        m.if_else(
            m.get(PROBE_SCORE).gt(DEEP_WINDOW),
            |m| m.set(ROOT_BOUND, m.get(PROBE_SCORE) - Expr::from(DEEP_WINDOW)),
            |m| m.set(ROOT_BOUND, 0u32),
        );
    }

    /// The deep probe's score, where there is one: without it depth 6
    /// has only the probe's depth-5 score, so it searches every kept
    /// candidate, the probe's move in the window too.
    fn probe_move_score(&self) -> Option<&'static str> {
        self.bounded.then_some(DEEP_PROBE_SCORE)
    }

    /// The node names its best reply: the hint of the candidate's ply
    /// more, whose probe searches it beside the look's choice
    /// ([`deep_reply`]).
    fn names_best_reply(&self) -> bool {
        true
    }

    fn take_score(&self, m: &mut Machine, us: Color, root: At) {
        m.pop_into(&[HINT_MOVE]);
        take_reply_value(m);
        deepen_in_window(m, us, root, self.bounded);
    }

    fn forget(&self, m: &mut Machine) {
        if self.bounded {
            m.delete(DEEP_PROBE_SCORE);
        }
    }
}

/// Each active thread a root candidate holding its depth-5 [`SCORE`]
/// (exact where it is at least the window's floor in [`ROOT_BOUND`]) is
/// dropped when it scores below the floor, unless it repeats a position
/// of the game; the others are searched by a whole depth-5 search for
/// the opponent (with the deep probe's bounds when `bounded`), whose
/// score replaces [`SCORE`].
fn deepen_in_window(m: &mut Machine, us: Color, root: At, bounded: bool) {
    let outside = m.get(SCORE).lt(m.get(ROOT_BOUND));
    drop_unless_repeating(m, outside);
    m.delete(SCORE);
    if bounded {
        // The replies are searched with the bound: a reply search ends at
        // its probe when that leaves the candidate strictly below the
        // deep probe. A repeating candidate gets none, as above.
        m.set(REPLY_BOUND, Expr::from(2 * EVEN) - m.get(DEEP_PROBE_SCORE));
        m.set(DEEP_ROOT_BOUND, m.get(DEEP_PROBE_SCORE));
        if m.is_set(REPEATS) {
            m.if_(m.get(REPEATS).eq("T"), |m| {
                m.set(REPLY_BOUND, 2 * EVEN);
                m.set(DEEP_ROOT_BOUND, 0u32);
            });
        }
        deep_reply(m, us, root);
        m.delete(REPLY_BOUND);
        m.delete(DEEP_ROOT_BOUND);
    } else {
        deep_reply(m, us, root);
    }
    m.delete(HINT_MOVE);
    pop_reply_score(m);
}

/// Once the root's probe has its score and its move (each active thread
/// a root holding [`PROBE_MOVE`]): that move is made and searched as a
/// kept candidate in the window is, the repetition rule and the mate
/// guard applied, and its score is set in [`DEEP_PROBE_SCORE`] (0, which
/// binds nothing, if the move is not found). Every kept candidate can
/// then be cut against a score the root reaches.
fn deep_probe(m: &mut Machine, us: Color, root: At) {
    m.scope(|m| {
        legal_moves_for(m, us, Options::QUIET);
        m.if_(m.get(MOVE_VAR).ne(m.get(PROBE_MOVE)), |m| {
            m.destroy_active()
        });
        m.delete(MOVE_VAR);
        m.delete(TURN_VAR);
        m.delete(PROBE_MOVE);
        m.delete(PROBE_SCORE);
        repetition::mark_candidates(m, !us, root.ply());
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        deep_reply(m, us, root);
        take_reply_score(m, root.ply());
        m.delete(CHECK_VAR);
        repetition::repeats_are_even(m, root.ply());
        if root.plan().guards_root() {
            guard::guard_root_candidates(m, us);
        }
        m.push(m.get(SCORE));
    });
    m.if_stack_empty(
        |m| m.set(DEEP_PROBE_SCORE, 0u32),
        |m| m.pop_into(&[DEEP_PROBE_SCORE]),
    );
}

/// Pushes `[em, v]` of the opponent's whole search by the plan of `root`
/// (depth 5's) after each active thread's root candidate (`us` just
/// moved), or nothing when the opponent has no legal move. The reply is
/// searched as that plan's root is, from the board alone (a repetition
/// below the root is not looked for, as at any depth), with
/// [`REPLY_BOUND`] when the candidate holds it, and with its
/// [`HINT_MOVE`] as the root's probe hint when it holds one (a kept
/// candidate's: the best reply its depth-5 search found, searched beside
/// the look's choice; the deep probe's move has none).
fn deep_reply(m: &mut Machine, us: Color, root: At) {
    m.scope(|m| {
        strip(
            m,
            root.next().ply(),
            &[REPLY_BOUND, DEEP_ROOT_BOUND, HINT_MOVE],
        );
        search::node(m, !us, root);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::{self, POSITION_VARS};
    use crate::search::plan::{NodePlan, Probed, RootCut};
    use crate::search::{probed, store_result};
    use crate::vocabulary::{Depth, BEST};
    use regex_vm::state::State;
    use regex_vm::{Config, Executor};
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    /// A depth-6 root candidate's node, alone: the position's side to
    /// move is the candidate's opponent, searched as a probed node with
    /// depth 5's plan at ply 2 (as `probed_root::search_candidate` searches it at
    /// depth 6, but for the root's bound), its move and score stored as
    /// a reply's.
    fn named_node(m: &mut Machine, us: Color) {
        let at = At::new(NodePlan::of(Depth::exactly(5), RootCut::On), 2);
        probed::node(m, us, at, Probed::OwnProbes, true);
    }

    /// The move a depth-6 root candidate's node names for its ply more
    /// (the hint of `deep_reply`) is a best reply: one of the reference's
    /// best moves at depth 4 (the node's two full-width plies and two
    /// capture plies), scored as the reference scores it. Middlegames and
    /// endings where the node's own probe is and is not the best.
    #[test]
    fn a_deep_candidates_node_names_its_best_reply() {
        let program = regex_asm::assemble(|m| {
            m.assume_set(&POSITION_VARS);
            m.if_else(
                m.get(TURN_VAR).eq("w"),
                |m| named_node(m, Color::White),
                |m| named_node(m, Color::Black),
            );
            store_result(m);
        })
        .expect("assembles");
        let exec = Executor::new(&program, Config::default()).expect("compiles");
        let fens = [
            "r1bqk2r/pp2ppbp/n2p1np1/2pP4/2P1P3/2NB3P/PP3PP1/R1BQK1NR b KQkq - 0 7",
            "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
            "2R2b1r/pp1nkp1p/6p1/3n4/3Nq3/4Bp2/P2Q2PP/4R1K1 b - - 6 23",
            "r1bqkbnr/ppppp1pp/3n1p2/8/5P2/N1P1P3/PPQP2PP/R1B1KBNR b KQkq - 0 6",
            "8/8/4k3/3n4/8/2K5/3R4/8 w - - 0 1",
        ];
        for fen in fens {
            let pos = codec::parse_fen(fen).expect("a legal position");
            let start = codec::encode_fen(fen).expect("encodes");
            let mut s = State {
                prefix: String::new(),
                threads: vec![codec::thread_of(&start)],
            }
            .render();
            exec.run(&mut s).expect("runs");
            let out = State::parse(&s).expect("a state");
            let thread = out.threads.first().expect("a thread");
            let named = thread.var(BEST).expect("a move");
            let score: u32 = thread
                .var(SCORE)
                .expect("a score")
                .parse()
                .expect("a number");
            let mv = UciMove::from_ascii(named.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .unwrap_or_else(|| panic!("{fen}: {named} is not a legal move"));
            let four = Depth::exactly(4);
            let (best, value) = crate::reference::best_moves(&pos, four).expect("moves");
            assert_eq!(score, value, "{fen}: the node scores {score}");
            assert!(
                best.contains(&mv),
                "{fen}: names {named}, not one of {:?}",
                best.iter()
                    .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                    .collect::<Vec<_>>()
            );
        }
    }
}
