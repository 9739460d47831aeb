//! The probe cut below the root: the two full-width plies above the
//! capture plies, searched without searching every candidate.
//!
//! Below a candidate of the last full-width ply the opponent may stand pat
//! (unless the candidate gives check), so the candidate can score no more
//! than its own position as it stands. So each node of that ply first
//! searches one candidate, the *probe* (the one a 2-ply look scores best,
//! as depth 3 scores its leaves); then every candidate is made, and those
//! that neither give check nor stand above the probe's score are dropped;
//! below the root's kept moves each one left then has one of the
//! opponent's answers searched (its best capture as it stands, or
//! evasion), which bounds it the same way, and is dropped when that
//! answer already holds it to the probe's score.
//! The capture plies run below the rest (the probe's own move among them
//! is dropped too: the probe searched it). One ply higher, a
//! candidate's own probe is the least its node can score for the
//! opponent, so a candidate whose probe already leaves it no better than
//! the node's probe is dropped before its next ply is made. The root
//! above them is cut the same way by `root`, which runs these nodes (with
//! the bounds it hands down: [`ROOT_BOUND`], [`DEEP_ROOT_BOUND`]) and the
//! probes ([`probe`]) of its own candidates; at depth 5 the root's probe
//! also names the opponent's best reply to its move ([`refutes`]), which
//! each root candidate its own probe keeps then searches too
//! ([`probe_picking`] with [`Pick::Refutation`]). A node's score is the best
//! of its probe's and the others': exactly the score of searching them
//! all, whichever the probe. This module owns those nodes, the probe and
//! [`Cuttable`]; it must not change what a node scores (the probe changes
//! only how much is searched), and it does not generate moves, evaluate
//! positions or choose the root's move itself.

use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_asm::{Expr, Machine};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::board::{pieces, BOARD_VAR};
use crate::eval::quiesce::LeafDelta;
use crate::eval::threats::Threats;
use crate::eval::{Eval, DELTA_VAR, EVAL_VAR};
use crate::movegen::{
    leaf_moves_with_recaptures, legal_captures_for, legal_moves_for, Options, MOVE_VAR,
};
use crate::rules::specials::{Stage, CHECK_VAR, FROM, PROMOTION, TO};
use crate::search::hint;
use crate::search::reduce::Better;
use crate::search::repetition;
use crate::search::vars::{
    ANSWER_MOVE, ANSWER_SCORE, BEST_REPLY_MOVE, BOTH_SIDES, CANDIDATE_NAME, DEEP_ROOT_BOUND,
    HINT_MOVE, NODE_PROBE_MOVE, NO_MOVE, OWN_PROBE_SCORE, PROBE_MOVE, PROBE_SCORE, REFUTATION_MOVE,
    REPEATS, ROOT_BOUND, SIDES_WITH_MEN,
};
use crate::search::{
    carry_down, carry_over_own, guard, keep_best, leaf_pairs, no_reply_score, node,
    pop_reply_score, score_below, take_reply_value, KeepOnly,
};
use crate::vocabulary::{Plan, BEST, EVEN, SCORE};

/// Whether `search::node` searches the node at `ply` with `depth` plies
/// left as [`probed_node`]: below the root, the last full-width ply above
/// the capture plies (whose candidates are cut by what they stand at) and
/// the ply above it (whose candidates are cut by their own probes).
pub(crate) fn probes(plan: Plan, depth: u32, ply: u32) -> bool {
    ply > 1
        && ((depth == 3 && plan.captures_at(ply + 1))
            || (depth == 4 && plan.captures_at(ply + 2) && !plan.captures_at(ply + 1)))
}

/// A node that [`probes`], searched as `search::node` searches it: every
/// active thread is a position with `us` to move; each gets `[em, v]` on
/// its stack, `em` a placeholder (no caller reads a move below the root),
/// or nothing when it has no legal move.
pub(crate) fn probed_node(m: &mut Machine, us: Color, plan: Plan, depth: u32, ply: u32) {
    probed_node_naming(m, us, plan, depth, ply, false);
}

/// [`probed_node`], its best candidate's move named on the stack instead
/// of a placeholder when `names_best` ([`cut_candidates`]).
pub(super) fn probed_node_naming(
    m: &mut Machine,
    us: Color,
    plan: Plan,
    depth: u32,
    ply: u32,
    names_best: bool,
) {
    m.scope(|m| {
        strip(m, ply, &[ROOT_BOUND]);
        probe(m, us, plan, depth, ply, true);
        m.if_stack_empty(
            |_| {},
            |m| {
                m.pop_into(&[PROBE_SCORE, NODE_PROBE_MOVE]);
                cut_candidates(m, us, plan, depth, ply, names_best);
            },
        );
    });
}

/// Deletes every variable of the active threads (at `ply`) but the
/// board, those in `also`, and at the root the game's history
/// (`repetition::root_keeps`).
pub(super) fn strip(m: &mut Machine, ply: u32, also: &[&str]) {
    for v in m.defined_vars() {
        if v != BOARD_VAR && !also.contains(&v.as_str()) && !repetition::root_keeps(m, &v, ply) {
            m.delete(&v);
        }
    }
}

/// Pushes the probe's score onto each active thread's stack (nothing when
/// it has no legal move): its candidates scored as depth 3's leaves are
/// (`quiesce::LeafDelta` with the threat term, for the side that moved
/// into the position), the best for `us` searched as `search::node`
/// searches a candidate (`search::score_below`). At the root (`ply` 1)
/// the game's history is kept, and the probe is scored as the root scores
/// its candidates: a repetition of the game a draw; with a hint
/// (`hint`), the hint's move is searched beside the look's choice (once
/// when they are the same) and the better score is pushed. Where
/// [`refutes`], the root's probe also pushes, under its move, the
/// opponent's best reply to it (a placeholder when it has none).
pub(super) fn probe(m: &mut Machine, us: Color, plan: Plan, depth: u32, ply: u32, named: bool) {
    probe_picking(m, us, plan, depth, ply, named, Pick::Look);
}

/// Which candidate a [`probe`] searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// The one its look ranks best (and at the root the hint's as well).
    Look,
    /// The one that plays [`HINT_MOVE`] (none when it is not a legal
    /// move): at a root candidate, the reply that refutes the root's
    /// probe ([`refutes`]).
    Refutation,
}

/// [`probe`], searching the candidate `pick` chooses.
pub(super) fn probe_picking(
    m: &mut Machine,
    us: Color,
    plan: Plan,
    depth: u32,
    ply: u32,
    named: bool,
    pick: Pick,
) {
    m.scope(|m| probe_copy(m, us, plan, depth, ply, named, pick));
}

/// [`probe_picking`] on its copy of each active thread.
fn probe_copy(
    m: &mut Machine,
    us: Color,
    plan: Plan,
    depth: u32,
    ply: u32,
    named: bool,
    pick: Pick,
) {
    let refuting = ply == 1 && refutes(plan, depth);
    // A root candidate's own probe (ply 2) keeps the root's probe's score
    // for the node below it.
    let also: &[&str] = if ply == 2 {
        &[HINT_MOVE, ROOT_BOUND]
    } else {
        &[HINT_MOVE]
    };
    strip(m, ply, also);
    // With a hint (at the root), a second run beside the first searches
    // the hint's move, and the probe scores the better of the two; the
    // refutation's probe searches the hint's move alone.
    let refutation = pick == Pick::Refutation;
    let hinted = (ply == 1 && !refutation && m.is_set(HINT_MOVE)).then(|| hint::split(m));
    let two_runs = hinted.is_some();
    m.special(Arc::new(Threats(us)), &[], &[]);
    leaf_moves_with_recaptures(m, us);
    repetition::mark_candidates(m, !us, ply);
    m.special(Arc::new(LeafDelta(!us)), &[], &[]);
    if two_runs {
        hint::keep_hint(m);
    }
    if refutation {
        hint::keep_only_hint(m);
    }
    if ply == 1 || m.is_set(ROOT_BOUND) {
        // A few dozen threads (a few thousand at the root candidates' own
        // probes, which keep the root's probe's score for the node
        // below): one deletion per variable will do.
        let kept = [BOARD_VAR, DELTA_VAR, REPEATS, CANDIDATE_NAME, ROOT_BOUND];
        for v in m.defined_vars() {
            let name = named && [FROM, TO, PROMOTION].contains(&v.as_str());
            if !kept.contains(&v.as_str()) && !name {
                m.delete(&v);
            }
        }
    } else {
        // In the order the move generation leaves them.
        let kept: &'static [&'static str] = if named {
            &[BOARD_VAR, FROM, PROMOTION, TO, DELTA_VAR]
        } else {
            &[BOARD_VAR, DELTA_VAR]
        };
        m.special(Arc::new(KeepOnly(kept)), &[], &[]);
    }
    keep_best(m, DELTA_VAR, Better::Min);
    m.delete(DELTA_VAR);
    if named {
        // Named once the look has chosen: one thread a node (two at a
        // hinted root).
        m.set(PROBE_MOVE, hint::candidate_name(m));
        for v in [FROM, TO, PROMOTION] {
            m.delete(v);
        }
    }
    if let Some(separator) = hinted {
        hint::join(m, separator);
    }
    if depth == 2 {
        // The candidate and its replies are the last two plies (depth 3's
        // root cut): scored as `search::node` scores them there.
        debug_assert!(!plan.captures_at(ply + 1), "no capture plies at depth 3");
        leaf_pairs(m, us, false, ply, false);
    } else {
        if stands_below(plan, ply) {
            m.special(Arc::new(Eval(!us)), &[], &[]);
        }
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        if refuting {
            // The opponent's best reply to the root's probe, named by its
            // node, for the root candidates' own probes.
            probed_node_naming(m, !us, plan, depth - 1, ply + 1, true);
            m.if_stack_empty(
                |m| {
                    no_reply_score(m, ply);
                    m.set(REFUTATION_MOVE, NO_MOVE);
                },
                |m| {
                    m.pop_into(&[REFUTATION_MOVE]);
                    take_reply_value(m);
                },
            );
        } else {
            score_below(m, us, plan, depth, ply);
        }
    }
    repetition::repeats_are_even(m, ply);
    if ply == 1 {
        guard::guard_root_candidates(m, us);
    }
    if two_runs {
        keep_best(m, SCORE, Better::Max);
    }
    if refuting {
        m.push(m.get(REFUTATION_MOVE));
    }
    if named {
        debug_assert!(m.is_set(PROBE_MOVE), "the probe's move is kept");
        m.push(m.get(PROBE_MOVE));
    }
    m.push(m.get(SCORE));
}

/// Whether the root's probe of a `depth`-ply search names the opponent's
/// best reply to its move (pushed under the move and the score, see
/// [`probe`]), which each root candidate's own probe then searches too
/// (after its look's choice, where that did not drop it,
/// `root::search_root_candidate`): where the node
/// below the root is probed and its candidates are not cut by standing
/// (depth 5, and depth 6's root and reply searches, which search as depth
/// 5 does), so it can name its best (`cut_candidates` with `names_best`).
/// A reply that refutes the root's best-looking move often refutes other
/// moves too (a threat, a capture their look does not rank first); any
/// reply's score bounds a candidate, so the cut stays exact.
pub(super) fn refutes(plan: Plan, depth: u32) -> bool {
    probes(plan, depth - 1, 2) && !stands_below(plan, 2)
}

/// Whether the candidates of a node at `ply` lead to a capture ply (where
/// the opponent may stand pat).
fn stands_below(plan: Plan, ply: u32) -> bool {
    plan.captures_at(ply + 1)
}

/// Pushes onto each active thread's stack (a position at a capture ply
/// `ply`, `us` to move, holding `ck`, its evaluation for `us` and the
/// node's threshold [`PROBE_SCORE`]) the move and, on top, the score for
/// `us` of one of its candidates, searched as `search::node` searches a
/// capture ply's candidate: among its good captures (every legal move in
/// check), the one that stands best for `us`. The node scores at least
/// that for `us`, whichever candidate is chosen; the choice decides only
/// how often the bound cuts ([`cut_candidates`]). Nothing when it has
/// none, or when the chosen one stands below the threshold: the other
/// side may then stand pat below it, so it scores below the threshold
/// too (unless it gives check: then its search is simply not worth its
/// cost).
fn probe_capture_ply(m: &mut Machine, us: Color, plan: Plan, ply: u32) {
    m.scope(|m| probe_capture_ply_copy(m, us, plan, ply));
}

/// [`probe_capture_ply`] on its copy of each active thread.
fn probe_capture_ply_copy(m: &mut Machine, us: Color, plan: Plan, ply: u32) {
    strip(m, ply, &[CHECK_VAR, EVAL_VAR, PROBE_SCORE]);
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
    // Not a null candidate: `leaf_pairs` gives those the null reply alone.
    m.set(BEST, m.get(MOVE_VAR));
    m.delete(MOVE_VAR);
    leaf_pairs(m, us, plan.captures_at(ply + 1), ply, true);
    m.push(m.get(BEST));
    m.push(m.get(SCORE));
}

/// Every candidate of each active thread (a position holding
/// `PROBE_SCORE`) made and cut, the rest searched; leaves `[em, v]` on each
/// thread's stack, `v` the best of theirs and the probe's. `em` is a
/// placeholder, unless `names_best` (a depth-6 root candidate's node,
/// whose full-width candidates are not cut by standing): then it is the
/// move of the best (the probe's, [`NODE_PROBE_MOVE`], where the probe
/// scores better or every candidate was cut), which the candidate's ply
/// more probes beside its look's choice.
pub(super) fn cut_candidates(
    m: &mut Machine,
    us: Color,
    plan: Plan,
    depth: u32,
    ply: u32,
    names_best: bool,
) {
    m.scope(|m| cut_candidates_copy(m, us, plan, depth, ply, names_best));
    combine_with_probe(m, names_best);
}

/// [`cut_candidates`] on its copy of each active thread: leaves `[em?,
/// v]` of the best candidate it searched (none where all were cut).
fn cut_candidates_copy(
    m: &mut Machine,
    us: Color,
    plan: Plan,
    depth: u32,
    ply: u32,
    names_best: bool,
) {
    if m.is_set(BEST_REPLY_MOVE) {
        // The node above names its best candidate; this one's do not.
        m.delete(BEST_REPLY_MOVE);
    }
    if stands_below(plan, ply) {
        debug_assert!(!names_best, "a standing node names no best move");
        m.special(Arc::new(Cuttable), &[], &[]);
        // As `search::node` makes them: evaluated for the side that moves
        // next, as the capture node needs it.
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
            // A node of the third ply (the root's side to move): a
            // candidate standing strictly below the root's probe scores
            // below it, and so does any node it could be the best of;
            // every line through that node then scores below the root's
            // probe too, whose move the root plays instead, so dropping
            // the candidate changes no score the root can choose. It
            // stands below when `EVAL_VAR > 2 * EVEN - ROOT_BOUND`: the
            // smaller of the two bounds becomes the one test.
            m.set(ROOT_BOUND, Expr::from(2 * EVEN + 1) - m.get(ROOT_BOUND));
            m.if_(m.get(ROOT_BOUND).lt(m.get(PROBE_SCORE)), |m| {
                m.set(PROBE_SCORE, m.get(ROOT_BOUND));
            });
            m.delete(ROOT_BOUND);
        }
        carry_down(m, |m| {
            legal_moves_for(m, us, Options::quiet_with_delta(!us))
        });
        drop_probe_move(m);
        m.delete(MOVE_VAR);
        m.delete(TURN_VAR);
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        m.if_(
            m.get(SIDES_WITH_MEN).eq(BOTH_SIDES)
                & m.get(CHECK_VAR).eq("F")
                & m.get(EVAL_VAR).ge(m.get(PROBE_SCORE)),
            |m| m.destroy_active(),
        );
        m.delete(SIDES_WITH_MEN);
        // Standing pat is one of the opponent's answers, and any other
        // bounds the candidate as well: the one `probe_capture_ply`
        // searches (its best capture as it stands, or evasion when the
        // candidate gives check) drops each candidate it already holds
        // to the same test, before its capture plies are made: a quiet
        // move that leaves a piece to be taken, a check whose checker is
        // taken. The answer's score is what the capture plies would give
        // it (mop-up term included), so no lone-king guard is needed. A
        // candidate that mates leaves the opponent no answer and stays.
        // Only below the root's kept moves (the nodes with its bound),
        // where most of depth 5's capture plies run: below the root's own
        // probe too, they did not pay for their rewrites when measured
        // (docs/experiments.md).
        if bounded {
            probe_capture_ply(m, !us, plan, ply + 1);
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
            // The node below does not search the answer again
            // (`search::node` drops its `ANSWER_MOVE`), and scores the
            // better of its others and the answer's score; searched, the
            // answer is a legal move, so a node left with no other has
            // its score, not a mate's or a stalemate's.
            node(m, !us, plan, depth - 1, ply + 1);
            m.if_stack_empty(
                |m| {
                    m.if_else(
                        m.get(ANSWER_SCORE).eq(0u32),
                        |m| no_reply_score(m, ply),
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
        } else {
            m.delete(PROBE_SCORE);
            score_below(m, us, plan, depth, ply);
        }
    } else {
        legal_moves_for(m, us, Options::QUIET);
        drop_probe_move(m);
        if names_best {
            m.set(BEST_REPLY_MOVE, m.get(MOVE_VAR));
        }
        m.delete(MOVE_VAR);
        m.delete(TURN_VAR);
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        // Each candidate's own probe is the least its node scores for the
        // opponent (and names its move for the node below).
        probe(m, !us, plan, depth - 1, ply + 1, true);
        m.if_stack_empty(
            |m| no_reply_score(m, ply),
            |m| {
                m.pop_into(&[OWN_PROBE_SCORE, NODE_PROBE_MOVE]);
                let no_better = (m.get(PROBE_SCORE) + m.get(OWN_PROBE_SCORE)).ge(2 * EVEN);
                if m.is_set(DEEP_ROOT_BOUND) {
                    // Two plies below a depth-6 root candidate's reply: a
                    // candidate strictly below the root's deep probe
                    // leaves this node below it, or no better than its
                    // probe, so the root's candidate is refuted either way
                    // or scores what it would with the candidate searched.
                    let below = (m.get(DEEP_ROOT_BOUND) + m.get(OWN_PROBE_SCORE)).gt(2 * EVEN);
                    m.if_(no_better | below, |m| m.destroy_active());
                    m.delete(DEEP_ROOT_BOUND);
                } else {
                    m.if_(no_better, |m| m.destroy_active());
                }
                m.set(PROBE_SCORE, m.get(OWN_PROBE_SCORE));
                m.delete(OWN_PROBE_SCORE);
                m.delete(CHECK_VAR);
                cut_candidates(m, !us, plan, depth - 1, ply + 1, false);
                pop_reply_score(m);
            },
        );
    }
    keep_best(m, SCORE, Better::Max);
    if names_best {
        m.push(m.get(BEST_REPLY_MOVE));
    }
    m.push(m.get(SCORE));
}

/// After [`cut_candidates_copy`], each active thread holding its probe's
/// score and move: pushes `[em, v]`, the better of the probe's and the
/// searched candidates' best.
fn combine_with_probe(m: &mut Machine, names_best: bool) {
    // The best of the others, or the probe's when it is better or all
    // were cut.
    let probes_best = |m: &mut Machine| {
        m.set(SCORE, m.get(PROBE_SCORE));
        if names_best {
            m.set(BEST_REPLY_MOVE, m.get(NODE_PROBE_MOVE));
        }
    };
    m.if_stack_empty(probes_best, |m| {
        m.pop_into(&[SCORE]);
        if names_best {
            m.pop_into(&[BEST_REPLY_MOVE]);
        }
        m.if_(m.get(SCORE).lt(m.get(PROBE_SCORE)), probes_best);
    });
    m.push(m.get(SCORE));
    if names_best {
        m.push(m.get(BEST_REPLY_MOVE));
    } else {
        m.push(NO_MOVE);
    }
}

/// Drops, among a probed node's candidates (each active thread, its move
/// in `MOVE_VAR`), the node's probe's move ([`NODE_PROBE_MOVE`]): the probe
/// searched it already, and the node scores the best of the probe's score
/// and the others'.
fn drop_probe_move(m: &mut Machine) {
    drop_searched_move(m, NODE_PROBE_MOVE);
}

/// Drops, among a node's candidates (each active thread, its move in
/// `MOVE_VAR`), the one whose move is in `searched`, and deletes
/// `searched`: whoever named it has its score already.
pub(crate) fn drop_searched_move(m: &mut Machine, searched: &str) {
    m.if_(m.get(MOVE_VAR).eq(m.get(searched)), |m| m.destroy_active());
    m.delete(searched);
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
    use crate::search::store_result;
    use crate::vocabulary::{Depth, MATE};
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
    /// ([`probe_capture_ply`]) and by `al`. It scores what the reference's
    /// search of one full-width ply and two capture plies scores wherever
    /// that is at least `al`, and below `al` elsewhere. With `al` 0 (no
    /// bound but the node's probe) the scores are equal everywhere.
    #[test]
    fn the_node_above_the_capture_plies_scores_as_the_whole_search() {
        let plan = Depth::DEFAULT.plan();
        let program = regex_asm::assemble(|m| {
            m.assume_set(&POSITION_VARS);
            m.assume_set(&[ROOT_BOUND]);
            m.if_else(
                m.get(TURN_VAR).eq("w"),
                |m| probed_node(m, Color::White, plan, 3, 3),
                |m| probed_node(m, Color::Black, plan, 3, 3),
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
