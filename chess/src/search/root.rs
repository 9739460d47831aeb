//! The probed root: the root searched without searching every
//! candidate, and depth 6's ply more.
//!
//! The root first searches its own probe ([`probed_root`]: the candidate a
//! 2-ply look scores best, given a hint (`hint`: the rung below's answer)
//! that move too, the better score taken); then every other candidate gets
//! its own probe (`probe`'s, one ply down), the least its node can score
//! for the opponent, and a candidate whose probe already leaves it strictly
//! below the root's probe is dropped before its next ply is made (at depth
//! 5, a candidate its own probe keeps is then bounded by the reply that
//! refutes the root's probe's move as well, [`probe_refutation`]), keeping
//! every candidate that could tie with the best, so that the root chooses
//! the same move; the candidate that is the root's probe's move takes the
//! probe's score instead of being searched a second time. The root's
//! probe's score also goes down to the third ply (the root's side to move,
//! the last full-width ply at depth 5), through the root candidates' own
//! probes and searches alike, where a candidate standing strictly below it
//! is dropped as well: every root move through it scores below the root's
//! probe, whose move the root plays instead (a root move that repeats the
//! game's position is a draw whatever it scores, but for a mate, so it gets
//! no such bound). Depth 3, which has no capture plies, cuts its root the
//! same way: a candidate's own probe is then its best reply's whole score.
//!
//! Depth 6 ([`deepens_root`]) first searches the root's probe's move a
//! ply deeper ([`deep_probe`]); each other kept candidate is searched as
//! depth 5 searches it, and only those whose depth-5 score is within
//! [`DEEP_WINDOW`] of the root's probe's are searched a ply deeper, their
//! replies bounded by the deep probe's score: a reply search whose own
//! probe already leaves the candidate strictly below it ends there, and
//! two plies below the reply (the root's side to move) a candidate whose
//! own probe leaves it strictly below it is dropped. That reply search's
//! probe also searches, as its hint, the best reply the candidate's
//! depth-5 search found (`probe::cut_candidates` names it), so it ends
//! at its probe more often; a hint changes no score.
//!
//! This module owns the root's cut and depth 6's window; it must not
//! change the move or score the root chooses (the cut changes only how
//! much is searched; depth 6's window chooses which moves get the ply
//! more), and it leaves the nodes below the root to `probe` and `search`.

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::movegen::{legal_moves_for, Options, MOVE_VAR};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::probe::{cut_candidates, probe, probe_picking, probes, refutes, strip, Pick};
use crate::search::reduce::Better;
use crate::search::repetition;
use crate::search::vars::{
    DEEP_PROBE_SCORE, DEEP_ROOT_BOUND, HINT_MOVE, NODE_PROBE_MOVE, NO_MOVE, OWN_PROBE_SCORE,
    PROBE_MOVE, PROBE_SCORE, REFUTATION_MOVE, REFUTATION_SCORE, REPEATS, REPLY_BOUND, ROOT_BOUND,
};
use crate::search::RootCut;
use crate::search::{
    guard, keep_best, no_reply_score, node, pop_reply_score, take_reply_score, take_reply_value,
};
use crate::vocabulary::{Plan, BEST, EVEN, SCORE};

/// At depth 6, how far below the root's probe's score (in the
/// evaluation's units, 10 centipawns: a pawn) a kept root candidate's
/// depth-5 score may be and still be searched a ply deeper.
pub const DEEP_WINDOW: u32 = 10;

/// Whether `search::node` searches the root (ply 1, `depth` plies) as
/// [`probed_root`]: when its candidates' nodes are probed ones, so each
/// candidate's own probe is at hand, and at depth 3 without capture
/// plies, where a candidate's own probe is one reply with the last ply
/// below it.
pub(crate) fn probes_root(plan: Plan, depth: u32) -> bool {
    deepens_root(plan) || probes(plan, depth - 1, 2) || (depth == 3 && !plan.captures_at(depth))
}

/// Depth 5's plan: what a root that [`deepens_root`] cuts by, and what
/// it searches each kept candidate's reply with.
const BELOW_DEEP_ROOT: Plan = Plan { full: 3, plies: 5 };

/// Whether `plan` is depth 5's with a full-width ply more (depth 6),
/// searched as depth 5's root is, probes, cut and kept candidates'
/// searches alike, except that each kept candidate whose depth-5 score
/// is within [`DEEP_WINDOW`] of the root's probe's is then searched by
/// depth 5 for the opponent (its own root cut and mate guard included)
/// instead of by depth 4. So depth 6 costs about a depth-5 search, and
/// one more per move in that window.
pub(crate) fn deepens_root(plan: Plan) -> bool {
    plan.full == BELOW_DEEP_ROOT.full + 1 && plan.plies == BELOW_DEEP_ROOT.plies + 1
}

/// The root (`us` to move, `depth` plies), searched as `search::node`
/// searches it, with the cut of the ply below moved up one ply: first
/// the root's own probe is searched (its candidate a 2-ply look scores
/// best, scored as the root scores it, repetitions included); then every
/// candidate gets its own probe, the least its node can score for the
/// opponent, and a candidate whose probe leaves it *strictly* below the
/// root's probe is dropped before its next ply is made. Every candidate
/// that could score the best or tie with it is searched, so the root
/// chooses exactly the move and score of searching them all. A candidate
/// that repeats a position of the game scores a draw whatever its probe
/// says, so it is never dropped. Leaves `[em, v]` on each active thread's
/// stack, or nothing when it has no legal move.
///
/// At depth 6 ([`deepens_root`]) with `cut` on, the root's probe's move is
/// first searched as the kept candidates in the window are
/// ([`deep_probe`]), and its score bounds the others' replies
/// ([`REPLY_BOUND`], [`DEEP_ROOT_BOUND`]): the same move and score, less
/// searched. With `cut` off the candidates are still chosen by depth 5's
/// root cut and the window (depth 6 has no uncut form), without those
/// bounds.
pub(crate) fn probed_root(m: &mut Machine, us: Color, plan: Plan, depth: u32, cut: RootCut) {
    let deeper = deepens_root(plan);
    let bounded = deeper && cut == RootCut::On;
    let (plan, depth) = if deeper {
        (BELOW_DEEP_ROOT, BELOW_DEEP_ROOT.plies)
    } else {
        (plan, depth)
    };
    let root_kind = RootKind {
        plan,
        depth,
        deeper,
        bounded,
    };
    m.scope(|m| probed_root_copy(m, us, root_kind));
}

/// [`probed_root`] on its copy of each active thread.
fn probed_root_copy(m: &mut Machine, us: Color, root_kind: RootKind) {
    let RootKind {
        plan,
        depth,
        deeper,
        bounded,
    } = root_kind;
    strip(m, 1, &[HINT_MOVE, REPLY_BOUND, DEEP_ROOT_BOUND]);
    probe(m, us, plan, depth, 1, true);
    if m.is_set(HINT_MOVE) {
        m.delete(HINT_MOVE);
    }
    // The opponent's best reply to the probe's move, where the probe names
    // it (`probe::refutes`): the hint of every root candidate's own probe,
    // and at depth 6 of the deep probe's reply search. Depth 6's own
    // candidates do without it: the cut of its root (depth 5's) also
    // chooses which moves within the window get the ply more, and a
    // sharper one would choose fewer, so depth 6 answers as before.
    let refuting = refutes(plan, depth);
    m.if_stack_empty(
        |_| {},
        |m| {
            m.pop_into(&[PROBE_SCORE, PROBE_MOVE]);
            if refuting {
                m.pop_into(&[HINT_MOVE]);
            }
            if bounded {
                deep_probe(m, us, plan, depth);
            }
            if refuting && deeper {
                m.delete(HINT_MOVE);
            }
            if m.is_set(REPLY_BOUND) {
                // A depth-6 root candidate's reply: when the probe's reply
                // already leaves that candidate strictly below the root's
                // deep probe, its score is no matter (the root plays
                // another move), and the probe's is handed up as a bound.
                m.if_else(
                    m.get(PROBE_SCORE).gt(m.get(REPLY_BOUND)),
                    |m| {
                        m.push(m.get(PROBE_SCORE));
                        m.push(NO_MOVE);
                    },
                    |m| {
                        m.delete(REPLY_BOUND);
                        cut_root_candidates(m, us, root_kind);
                    },
                );
            } else {
                cut_root_candidates(m, us, root_kind);
            }
            if refuting && !deeper {
                m.delete(HINT_MOVE);
            }
        },
    );
}

/// How a probed root searches its candidates: with `plan` and `depth`
/// (depth 5's at depth 6), each kept candidate by its node below and,
/// within the window (`deeper`, depth 6), again by a whole `depth`-ply
/// search for the opponent, with the deep probe's bounds (`bounded`,
/// depth 6 with its cut on).
#[derive(Debug, Clone, Copy)]
struct RootKind {
    plan: Plan,
    depth: u32,
    deeper: bool,
    bounded: bool,
}

/// The root's candidates, each active thread holding the root's probe's
/// score in `PROBE_SCORE` and its move in [`PROBE_MOVE`]: the probe's
/// move takes the probe's score (at depth 6 the deep probe's); every
/// other candidate gets its own probe, is dropped when that leaves it
/// strictly below the root's probe, and is searched otherwise
/// (`deeper`: then, within [`DEEP_WINDOW`] of the root's probe, by a
/// whole `depth`-ply search for the opponent, a ply more than the probes
/// see; `bounded`: with [`DEEP_PROBE_SCORE`]'s bounds); leaves `[em, v]` of the
/// best on each thread's stack.
fn cut_root_candidates(m: &mut Machine, us: Color, root_kind: RootKind) {
    m.scope(|m| cut_root_candidates_copy(m, us, root_kind));
}

/// [`cut_root_candidates`] on its copy of each active thread.
fn cut_root_candidates_copy(m: &mut Machine, us: Color, root_kind: RootKind) {
    let RootKind { plan, depth, .. } = root_kind;
    // Where the third ply is the last full-width one, its nodes also drop
    // the candidates that stand below the root's probe (`cut_candidates`),
    // in each candidate's own probe as in its search.
    let alpha = probes(plan, depth - 2, 3);
    legal_moves_for(m, us, Options::QUIET);
    m.set(BEST, m.get(MOVE_VAR));
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    repetition::mark_candidates(m, !us, 1);
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if alpha {
        // A candidate's own probe then scores exactly where the candidate
        // can reach the root's probe, and below it where it cannot, so
        // the cut below drops the same candidates. At depth 6 the bound is
        // the window's floor: depth 5's score must be exact down to it.
        if root_kind.deeper {
            m.if_else(
                m.get(PROBE_SCORE).gt(DEEP_WINDOW),
                |m| m.set(ROOT_BOUND, m.get(PROBE_SCORE) - Expr::from(DEEP_WINDOW)),
                |m| m.set(ROOT_BOUND, 0u32),
            );
        } else {
            m.set(ROOT_BOUND, m.get(PROBE_SCORE));
        }
        if m.is_set(REPEATS) {
            // A repeating candidate scores a draw unless its search finds
            // a mate, which a score below the bound need not tell
            // truly: its nodes get no bound (0 never binds).
            m.if_(m.get(REPEATS).eq("T"), |m| m.set(ROOT_BOUND, 0u32));
        }
    }
    // The root's probe's move was searched before the candidates were
    // made (at depth 6 by the deep probe), scored as a candidate here
    // would be, the repetition rule and the mate guard included: its
    // candidate takes that score instead of being searched again. Without
    // the deep probe, depth 6 has only the probe's depth-5 score, so it
    // searches every kept candidate, the probe's move in the window too.
    if !root_kind.deeper || root_kind.bounded {
        let known = if root_kind.bounded {
            DEEP_PROBE_SCORE
        } else {
            PROBE_SCORE
        };
        m.if_else(
            m.get(BEST).eq(m.get(PROBE_MOVE)),
            |m| {
                m.set(SCORE, m.get(known));
                m.delete(CHECK_VAR);
            },
            |m| search_root_candidate(m, us, root_kind),
        );
    } else {
        search_root_candidate(m, us, root_kind);
    }
    m.delete(PROBE_MOVE);
    if root_kind.bounded {
        m.delete(DEEP_PROBE_SCORE);
    }
    if alpha {
        m.delete(ROOT_BOUND);
    }
    keep_best(m, SCORE, Better::Max);
    m.push(m.get(SCORE));
    m.push(m.get(BEST));
}

/// One root candidate (each active thread, `us` just moved, holding the
/// root's probe's score in `PROBE_SCORE`), as [`cut_root_candidates`]
/// searches it: its own probe, dropped when that leaves it strictly below
/// the root's probe, searched otherwise; leaves its [`SCORE`], the
/// repetition rule and the mate guard applied. At depth 6 that search is
/// depth 5's, and a candidate it leaves in the window is searched again
/// a ply deeper ([`deepen_in_window`]).
fn search_root_candidate(m: &mut Machine, us: Color, root_kind: RootKind) {
    let RootKind { plan, depth, .. } = root_kind;
    // Where the node below is a probed one, it skips its probe's move.
    let named = probes(plan, depth - 1, 2);
    debug_assert!(named || !root_kind.deeper, "depth 5's nodes are probed");
    probe(m, !us, plan, depth - 1, 2, named);
    m.if_stack_empty(
        |m| no_reply_score(m, 1),
        |m| {
            m.pop_into(&[OWN_PROBE_SCORE]);
            if named {
                m.pop_into(&[NODE_PROBE_MOVE]);
            }
            // The candidate scores at most `2 * EVEN - OWN_PROBE_SCORE`.
            let below = (m.get(PROBE_SCORE) + m.get(OWN_PROBE_SCORE)).gt(2 * EVEN);
            drop_unless_repeating(m, below);
            if m.is_set(HINT_MOVE) {
                // Where the look chose the refutation, its probe searched
                // it already: the placeholder names no move.
                m.if_(m.get(HINT_MOVE).eq(m.get(NODE_PROBE_MOVE)), |m| {
                    m.set(HINT_MOVE, NO_MOVE);
                });
                probe_refutation(m, us, plan, depth);
            }
            m.set(PROBE_SCORE, m.get(OWN_PROBE_SCORE));
            m.delete(OWN_PROBE_SCORE);
            m.delete(CHECK_VAR);
            if named {
                // The node below sees only the board and its probe.
                m.scope(|m| {
                    strip(
                        m,
                        2,
                        &[PROBE_SCORE, ROOT_BOUND, DEEP_ROOT_BOUND, NODE_PROBE_MOVE],
                    );
                    cut_candidates(m, !us, plan, depth - 1, 2, root_kind.deeper);
                });
            } else {
                // Depth 3: its replies are the last two plies, searched
                // whole (each reply's own probe would be its whole score)
                // by `node`, which takes its own copy.
                node(m, !us, plan, depth - 1, 2);
            }
            if root_kind.deeper {
                // The node names its best reply: the hint of the
                // candidate's ply more, whose probe searches it beside
                // the look's choice (`deep_reply`).
                m.pop_into(&[HINT_MOVE]);
                take_reply_value(m);
                deepen_in_window(m, us, root_kind);
            } else {
                pop_reply_score(m);
            }
        },
    );
    repetition::repeats_are_even(m, 1);
    guard::guard_root_candidates(m, us);
}

/// A root candidate its own probe did not drop (each active thread,
/// holding the root's probe's score in `PROBE_SCORE`, its own probe's in
/// [`OWN_PROBE_SCORE`] and that probe's move in [`NODE_PROBE_MOVE`]), when the
/// root's probe named the reply that refutes its move ([`HINT_MOVE`],
/// `probe::refutes`): that reply is searched as the own probe searches
/// its choice, and bounds the candidate the same way, so a candidate it
/// leaves strictly below the root's probe is dropped too. Where its score
/// is the better for the opponent, it becomes the candidate's own probe
/// (the node below searches every other reply, and scores at least it).
/// Only candidates the look's choice did not drop search it: it is one
/// reply search more for each.
fn probe_refutation(m: &mut Machine, us: Color, plan: Plan, depth: u32) {
    probe_picking(m, !us, plan, depth - 1, 2, true, Pick::Refutation);
    m.delete(HINT_MOVE);
    m.if_stack_empty(
        |_| {},
        |m| {
            m.pop_into(&[REFUTATION_SCORE, REFUTATION_MOVE]);
            let below = (m.get(PROBE_SCORE) + m.get(REFUTATION_SCORE)).gt(2 * EVEN);
            drop_unless_repeating(m, below);
            m.if_(m.get(REFUTATION_SCORE).gt(m.get(OWN_PROBE_SCORE)), |m| {
                m.set(OWN_PROBE_SCORE, m.get(REFUTATION_SCORE));
                m.set(NODE_PROBE_MOVE, m.get(REFUTATION_MOVE));
            });
            m.delete(REFUTATION_SCORE);
            m.delete(REFUTATION_MOVE);
        },
    );
}

/// Deletes each active thread (a root candidate) where `drop` holds,
/// unless it repeats a position of the game (a draw whatever its bound
/// says, so never dropped).
fn drop_unless_repeating(m: &mut Machine, drop: Expr) {
    if m.is_set(REPEATS) {
        let repeats = m.get(REPEATS).eq("T");
        m.if_(drop & !repeats, |m| m.destroy_active());
    } else {
        m.if_(drop, |m| m.destroy_active());
    }
}

/// Depth 6: each active thread a root candidate holding its depth-5
/// [`SCORE`] (exact where it is at least the window's floor in
/// `ROOT_BOUND`, [`DEEP_WINDOW`] below the root's probe's score) is
/// dropped when it scores below the floor, unless it repeats a position
/// of the game; the others are searched by a whole depth-5 search for
/// the opponent (with the deep probe's bounds when `bounded`), whose
/// score replaces [`SCORE`].
fn deepen_in_window(m: &mut Machine, us: Color, root_kind: RootKind) {
    let RootKind { plan, depth, .. } = root_kind;
    let outside = m.get(SCORE).lt(m.get(ROOT_BOUND));
    drop_unless_repeating(m, outside);
    m.delete(SCORE);
    if root_kind.bounded {
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
        deep_reply(m, us, plan, depth);
        m.delete(REPLY_BOUND);
        m.delete(DEEP_ROOT_BOUND);
    } else {
        deep_reply(m, us, plan, depth);
    }
    m.delete(HINT_MOVE);
    pop_reply_score(m);
}

/// Depth 6, once the root's probe has its score and its move (each
/// active thread a root holding [`PROBE_MOVE`]): that move is made and
/// searched as [`cut_root_candidates`] searches a kept candidate, the
/// repetition rule and the mate guard applied, and its score is set in
/// [`DEEP_PROBE_SCORE`] (0, which binds nothing, if the move is not found).
/// Every kept candidate can then be cut against a score the root reaches.
fn deep_probe(m: &mut Machine, us: Color, plan: Plan, depth: u32) {
    m.scope(|m| deep_probe_copy(m, us, plan, depth));
    m.if_stack_empty(
        |m| m.set(DEEP_PROBE_SCORE, 0u32),
        |m| m.pop_into(&[DEEP_PROBE_SCORE]),
    );
}

/// [`deep_probe`] on its copy of each active thread: pushes the probe's
/// move's score, nothing where the move is not found.
fn deep_probe_copy(m: &mut Machine, us: Color, plan: Plan, depth: u32) {
    legal_moves_for(m, us, Options::QUIET);
    m.if_(m.get(MOVE_VAR).ne(m.get(PROBE_MOVE)), |m| {
        m.destroy_active()
    });
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    m.delete(PROBE_MOVE);
    m.delete(PROBE_SCORE);
    repetition::mark_candidates(m, !us, 1);
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    deep_reply(m, us, plan, depth);
    take_reply_score(m, 1);
    m.delete(CHECK_VAR);
    repetition::repeats_are_even(m, 1);
    guard::guard_root_candidates(m, us);
    m.push(m.get(SCORE));
}

/// Depth 6: pushes `[em, v]` of the opponent's whole depth-5 search after
/// each active thread's root candidate (`us` just moved), or nothing when
/// the opponent has no legal move. The reply is searched as depth 5's
/// root is, from the board alone (a repetition below the root is not
/// looked for, as at any depth), with [`REPLY_BOUND`] when the candidate
/// holds it, and with its [`HINT_MOVE`] as the root's probe hint when it
/// holds one (a kept candidate's: the best reply its depth-5 search
/// found, searched beside the look's choice; the deep probe's move has
/// none).
fn deep_reply(m: &mut Machine, us: Color, plan: Plan, depth: u32) {
    m.scope(|m| {
        strip(m, 2, &[REPLY_BOUND, DEEP_ROOT_BOUND, HINT_MOVE]);
        probed_root(m, !us, plan, depth, RootCut::On);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::{self, POSITION_VARS};
    use crate::search::probe::probed_node_naming;
    use crate::search::store_result;
    use crate::vocabulary::Depth;
    use regex_vm::state::State;
    use regex_vm::{Config, Executor};
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    /// A depth-6 root candidate's node, alone: the position's side to
    /// move is the candidate's opponent, searched as a probed node with
    /// depth 5's plan at ply 2 (as `search_root_candidate` searches it at
    /// depth 6, but for the root's bound), its move and score stored as
    /// a reply's.
    fn named_node(m: &mut Machine, us: Color) {
        let plan = BELOW_DEEP_ROOT;
        probed_node_naming(m, us, plan, plan.plies - 1, 2, true);
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
            let (best, value) = crate::reference::best_moves_at(&pos, four).expect("moves");
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
