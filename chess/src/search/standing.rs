//! The standing node ([`Probed::Standing`](crate::search::plan::Probed::Standing)):
//! the last full-width ply above the capture plies, its candidates cut by
//! what they stand at.
//!
//! Below a candidate of this ply the opponent may stand pat (unless the
//! candidate gives check), so the candidate can score no more than its
//! own position as it stands. Given its probe (`probed`), the node makes
//! every candidate and drops those that neither give check nor stand
//! above the probe's score; where the root handed its probe's score down
//! ([`ROOT_BOUND`], the third ply of depth 5), those standing strictly
//! below it are dropped too, and each one left has one of the opponent's
//! answers searched (its best capture as it stands, or evasion,
//! [`probe_answer`]), which bounds it the same way and drops it when it
//! already holds it to the probe's score; the capture plies run below the
//! rest. This module owns that cut and [`Cuttable`]; it must not change
//! what the node scores.

use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_asm::{Expr, Machine};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::board::{pieces, BOARD_VAR};
use crate::eval::{Eval, EVAL_VAR};
use crate::movegen::{legal_captures_for, legal_moves_for, Options, MOVE_VAR};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::answer::{keep_best, no_reply_score, score_below};
use crate::search::captures::{carry_down, carry_over_own};
use crate::search::late;
use crate::search::leaves::{pairs, Moves};
use crate::search::plan::At;
use crate::search::probed::drop_probe_move;
use crate::search::reduce::Better;
use crate::search::vars::{
    ANSWER_MOVE, ANSWER_SCORE, BOTH_SIDES, NO_MOVE, PROBE_SCORE, ROOT_BOUND, SIDES_WITH_MEN,
};
use crate::search::{node, strip};
use crate::vocabulary::{BEST, EVEN, SCORE};

/// The candidates of the node at `at` given its probe (each active thread
/// a position, `us` to move, holding [`PROBE_SCORE`]): made, cut, and the
/// rest searched, each left with its [`SCORE`].
pub(crate) fn candidates(m: &mut Machine, us: Color, at: At) {
    m.special(Arc::new(Cuttable), &[], &[]);
    // As the capture node needs them: evaluated for the side that moves
    // next.
    m.special(Arc::new(Eval(!us)), &[], &[]);
    // Standing pat, the opponent would leave us `2 * EVEN - EVAL_VAR`,
    // which is no better than the probe (`PROBE_SCORE + EVAL_VAR >= 2 *
    // EVEN`) when `EVAL_VAR >= 2 * EVEN - PROBE_SCORE`: the right-hand
    // side once per node, before its candidates are made (0 when the
    // probe passes `2 * EVEN`, where both tests hold for any
    // evaluation), the test once per candidate.
    m.set(PROBE_SCORE, Expr::from(2 * EVEN) - m.get(PROBE_SCORE));
    let bounded = m.is_set(ROOT_BOUND);
    if bounded {
        take_root_bound(m);
    }
    carry_down(m, |m| {
        legal_moves_for(m, us, Options::quiet_with_delta(!us))
    });
    drop_probe_move(m);
    let late = at.late().is_some();
    if late {
        late::test_late(m);
    }
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if late {
        late::drop_late(m);
    }
    m.if_(
        m.get(SIDES_WITH_MEN).eq(BOTH_SIDES)
            & m.get(CHECK_VAR).eq("F")
            & m.get(EVAL_VAR).ge(m.get(PROBE_SCORE)),
        |m| m.destroy_active(),
    );
    m.delete(SIDES_WITH_MEN);
    if bounded {
        cut_by_answers(m, us, at);
    } else {
        m.delete(PROBE_SCORE);
        score_below(m, us, at);
    }
}

/// A node of the third ply (the root's side to move, holding
/// [`ROOT_BOUND`]): a candidate standing strictly below the root's probe
/// scores below it, and so does any node it could be the best of; every
/// line through that node then scores below the root's probe too, whose
/// move the root plays instead, so dropping the candidate changes no
/// score the root can choose. It stands below when `EVAL_VAR > 2 * EVEN
/// - ROOT_BOUND`: the smaller of the two bounds becomes the one test, in
/// [`PROBE_SCORE`].
fn take_root_bound(m: &mut Machine) {
    m.set(ROOT_BOUND, Expr::from(2 * EVEN + 1) - m.get(ROOT_BOUND));
    m.if_(m.get(ROOT_BOUND).lt(m.get(PROBE_SCORE)), |m| {
        m.set(PROBE_SCORE, m.get(ROOT_BOUND));
    });
    m.delete(ROOT_BOUND);
}

/// Standing pat is one of the opponent's answers, and any other bounds
/// the candidate as well: the one [`probe_answer`] searches (its best
/// capture as it stands, or evasion when the candidate gives check)
/// drops each candidate (each active thread) it already holds to the
/// same test, before its capture plies are made: a quiet move that
/// leaves a piece to be taken, a check whose checker is taken. The
/// answer's score is what the capture plies would give it (mop-up term
/// included), so no lone-king guard is needed. A candidate that mates
/// leaves the opponent no answer and stays. Only below the root's kept
/// moves (the nodes with its bound), where most of depth 5's capture
/// plies run: below the root's own probe too, they did not pay for their
/// rewrites when measured (docs/log.md, "One answer below each third-ply
/// candidate"). The rest are searched by the node below, each left with
/// its [`SCORE`].
fn cut_by_answers(m: &mut Machine, us: Color, at: At) {
    probe_answer(m, !us, at.next());
    m.if_stack_empty(
        |m| {
            // No answer searched: the node below searches them all.
            m.set(ANSWER_SCORE, 0u32);
            m.set(ANSWER_MOVE, NO_MOVE);
        },
        |m| {
            m.pop_into(&[ANSWER_SCORE, ANSWER_MOVE]);
            m.if_(m.get(ANSWER_SCORE).ge(m.get(PROBE_SCORE)), |m| {
                m.destroy_active()
            });
        },
    );
    m.delete(PROBE_SCORE);
    // The node below does not search the answer again (`captures::node`
    // drops its `ANSWER_MOVE`), and scores the better of its others and
    // the answer's score; searched, the answer is a legal move, so a node
    // left with no other has its score, not a mate's or a stalemate's.
    node(m, !us, at.next());
    m.if_stack_empty(
        |m| {
            m.if_else(
                m.get(ANSWER_SCORE).eq(0u32),
                |m| no_reply_score(m, at.ply()),
                |m| m.set(SCORE, Expr::from(2 * EVEN) - m.get(ANSWER_SCORE)),
            );
        },
        |m| {
            m.discard_top();
            m.pop_into(&[SCORE]);
            m.if_(m.get(SCORE).lt(m.get(ANSWER_SCORE)), |m| {
                m.set(SCORE, m.get(ANSWER_SCORE));
            });
            m.set(SCORE, Expr::from(2 * EVEN) - m.get(SCORE));
        },
    );
    m.delete(ANSWER_SCORE);
    m.delete(ANSWER_MOVE);
}

/// Pushes onto each active thread's stack (a position of the capture ply
/// `at`, `us` to move, holding `ck`, its evaluation for `us` and the
/// node's threshold [`PROBE_SCORE`]) the move and, on top, the score for
/// `us` of one of its candidates, searched as `captures::node` searches
/// one: among its good captures (every legal move in check), the one that
/// stands best for `us`. The node scores at least that for `us`,
/// whichever candidate is chosen; the choice decides only how often the
/// bound cuts. Nothing when it has none, or when the chosen one stands
/// below the threshold: the other side may then stand pat below it, so it
/// scores below the threshold too (unless it gives check: then its search
/// is simply not worth its cost).
fn probe_answer(m: &mut Machine, us: Color, at: At) {
    m.scope(|m| {
        strip(m, at.ply(), &[CHECK_VAR, EVAL_VAR, PROBE_SCORE]);
        carry_over_own(m, |m| {
            m.if_else(
                m.get(CHECK_VAR).eq("T"),
                |m| {
                    m.delete(CHECK_VAR);
                    legal_moves_for(m, us, Options::quiet_with_delta(!us));
                },
                |m| {
                    m.delete(CHECK_VAR);
                    legal_captures_for(m, us, Options::quiet_with_delta(!us));
                },
            );
        });
        m.delete(TURN_VAR);
        keep_best(m, EVAL_VAR, Better::Max);
        m.if_(m.get(EVAL_VAR).lt(m.get(PROBE_SCORE)), |m| {
            m.destroy_active()
        });
        m.delete(PROBE_SCORE);
        // Not a null candidate: `leaves` gives those the null reply alone.
        m.set(BEST, m.get(MOVE_VAR));
        m.delete(MOVE_VAR);
        pairs(m, us, at.ply(), Moves::Captures);
        m.push(m.get(BEST));
        m.push(m.get(SCORE));
    });
}

/// Appends [`SIDES_WITH_MEN`] to each active thread (a position): `W` when White has two pieces besides its king, then
/// `B` when Black has. Where both have, no candidate leaves a lone king,
/// so no position the capture plies stand pat in has a mop-up term, and a
/// candidate's standing position is its evaluation alone.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cuttable;

/// The letters of `c`'s pieces besides its king.
fn men(c: Color) -> String {
    pieces(c).chars().filter(|p| !"Kk".contains(*p)).collect()
}

impl Special for Cuttable {
    fn name(&self) -> String {
        "cuttable".into()
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let board = crate::rules::board_of(&self.name(), &t)?;
        let mut value = String::new();
        for (c, mark) in [(Color::White, 'W'), (Color::Black, 'B')] {
            let men = men(c);
            if board.chars().filter(|p| men.contains(*p)).count() >= 2 {
                value.push(mark);
            }
        }
        crate::rules::append_var(&self.name(), &mut t, SIDES_WITH_MEN, value)?;
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let z = BOARD_VAR;
        let cu = SIDES_WITH_MEN;
        let mut out = Vec::new();
        out.push(
            Rewrite::new(
                format!(r"(%%\n#stack:\n[^%]*?#{z}:[^%]*)"),
                Template::new().group(1).text(&format!("#{cu}:\n")),
            )
            .with_scope(Scope::ActiveThread),
        );
        for (c, mark) in [(Color::White, "W"), (Color::Black, "B")] {
            let men = men(c);
            out.push(
                Rewrite::new(
                    format!(
                        r"(%%\n#stack:\n[^%]*?#{z}:(?:[^\n{men}]*[{men}]){{2}}[^%]*#{cu}:[WB]*)\n"
                    ),
                    Template::new().group(1).text(&format!("{mark}\n")),
                )
                .with_scope(Scope::ActiveThread),
            );
        }
        out
    }

    fn defines(&self) -> Vec<String> {
        vec![SIDES_WITH_MEN.into()]
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::{self, POSITION_VARS};
    use crate::games::{random_game, Rng};
    use crate::reference::{best_moves_planned, SEARCHED};
    use crate::search::plan::{NodePlan, Probed, RootCut};
    use crate::search::{probed, store_result};
    use crate::vocabulary::{Depth, Plan, MATE};
    use regex_vm::state::{State, VarName};
    use regex_vm::{Config, Executor};
    use shakmaty::fen::Fen;
    use shakmaty::{Chess, EnPassantMode, Position};

    /// Middlegames and endings from games, lone kings among them (where
    /// the standing cut is not made but the answer's cut is).
    const FENS: [&str; 14] = [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "r4rk1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 0 10",
        "1rb2rk1/ppppqppp/2nb1n2/6N1/2PPNP2/1P1Q2P1/P3P1BP/1RB2RK1 b - - 2 13",
        "2R2b1r/pp1nkp1p/6p1/3n4/3Nq3/4Bp2/P2Q2PP/4R1K1 b - - 6 23",
        "r3k2r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R3K2R b KQkq - 0 1",
        "r3kb2/2pb2p1/p1p5/P2p3r/1P2Ppnq/2N5/1BP1PPB1/R2Q1RK1 w q - 0 16",
        "rnbq1rk1/1p3ppp/p3p3/2p1NP1n/P1Np3b/8/1PPPP1P1/R1BQKB1R w KQ - 0 11",
        "r2k3r/pb1n3p/5pp1/1q1p4/1p1PPbPB/3N4/PPP1RPBP/RN3K2 w - - 0 29",
        "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
        "3q3r/5pk1/3P1Bp1/5b1p/p6P/8/PP3PP1/R1R3K1 b - - 0 33",
        "8/k4r2/8/8/8/8/2P2N1p/K7 w - - 0 63",
        "8/8/4k3/3n4/8/2K5/3R4/8 w - - 0 1",
        "2k5/7K/3R4/8/8/8/6N1/8 w - - 0 1",
        "Q7/7k/8/8/8/8/6K1/8 b - - 0 1",
    ];

    /// How many random games' positions the test adds.
    const RANDOM: u64 = 150;

    /// A score of the reference's search from ply 1 as the node searched
    /// at ply 3 scores it: mates two plies later, so two less for the
    /// mating side.
    fn at_ply_three(value: u32) -> u32 {
        if value > (EVEN + MATE) / 2 {
            value - 2
        } else if value < EVEN - (MATE - EVEN) / 2 {
            value + 2
        } else {
            value
        }
    }

    /// The last full-width ply's probed node alone (depth 5's third ply,
    /// the root's side to move), given the root's probe's score `al`:
    /// candidates are cut by standing, by the answer each gets
    /// ([`probe_answer`]) and by `al`. It scores what the reference's
    /// search of one full-width ply and two capture plies scores wherever
    /// that is at least `al`, and below `al` elsewhere. With `al` 0 (no
    /// bound but the node's probe) the scores are equal everywhere.
    #[test]
    fn the_node_above_the_capture_plies_scores_as_the_whole_search() {
        let at = At::new(NodePlan::of(Depth::DEFAULT, RootCut::On), 3);
        let standing = |m: &mut Machine, us| probed::node(m, us, at, Probed::Standing, false);
        let program = regex_asm::assemble(|m| {
            m.assume_set(&POSITION_VARS);
            m.assume_set(&[ROOT_BOUND]);
            m.if_else(
                m.get(TURN_VAR).eq("w"),
                |m| standing(m, Color::White),
                |m| standing(m, Color::Black),
            );
            store_result(m);
        })
        .expect("assembles");
        let exec = Executor::new(&program, Config::default()).expect("compiles");
        let score_with = |fen: &str, alpha: u32| -> u32 {
            let start = codec::encode_fen(fen).expect("encodes");
            let mut thread = codec::thread_of(&start);
            thread
                .vars
                .push((VarName::must(ROOT_BOUND), alpha.to_string()));
            let mut s = State {
                prefix: String::new(),
                threads: vec![thread],
            }
            .render();
            exec.run(&mut s).expect("runs");
            let out = State::parse(&s).expect("a state");
            let thread = out.threads.first().expect("a thread");
            thread
                .var(SCORE)
                .expect("a score")
                .parse()
                .expect("a number")
        };
        let below = Plan { full: 1, plies: 3 };
        let mut fens: Vec<String> = FENS.iter().map(|f| f.to_string()).collect();
        // And random games' positions, where pieces hang everywhere.
        for seed in 0..RANDOM {
            let mut rng = Rng::new(seed);
            let plies = 10 + rng.below(50);
            let pos = random_game(&Chess::default(), &mut rng, plies);
            if !pos.legal_moves().is_empty() {
                fens.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
            }
        }
        assert!(fens.len() > FENS.len() + RANDOM as usize / 2);
        for fen in &fens {
            let pos = codec::parse_fen(fen).expect("a legal position");
            let (_, value) = best_moves_planned(&pos, below, "", SEARCHED).expect("moves");
            let exact = at_ply_three(value);
            for alpha in [0, exact] {
                let score = score_with(fen, alpha);
                assert_eq!(score, exact, "{fen} with al {alpha}");
            }
            let score = score_with(fen, exact + 1);
            assert!(
                score <= exact,
                "{fen}: {score} above {exact} with al one above"
            );
        }
    }
}
