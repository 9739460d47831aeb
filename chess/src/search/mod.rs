//! The search folder: the reply program (this file), the best thread of a
//! run (`reduce`), the probe cut (`probe`), draw sense from the game's
//! history (`repetition`), and thinking on a clock: the time rule
//! ([`clock`]) and the ladder of depths it climbs ([`deepen`]).
//!
//! The engine's reply: a negamax of 2 to 6 plies ([`plan`]), in the DSL.
//!
//! The last two plies, at 2 plies: for a position with `us` to move: one thread per legal move (the
//! engine's candidates, move kept in `em`), each evaluated (`eval::Eval`);
//! for each, one thread per *legal* reply, each scored by how it changes
//! its candidate's evaluation (`eval::ReplyDelta`, three table lookups
//! instead of a whole board) plus what we gain by capturing on the
//! reply's square (`quiesce`: the capture quiescence); the minimum over each candidate's replies
//! (`reduce::KeepBest`), added to the candidate's evaluation; a candidate without a legal
//! reply scores [`MATE`](crate::MATE) if the opponent is in check, [`EVEN`] otherwise;
//! then the maximum over candidates. Threads never leave their run: each
//! candidate's paused copy separates its replies from the next candidate's,
//! and `absorb` hands a run's result back to the paused thread before it.
//! Deeper searches run a node per candidate above those two plies
//! (`node`); the last two plies of depths 4 and 5 are capture plies, where
//! a side not in check makes a good capture (`good_captures`) or stands
//! pat (a null move, `standpat`); their positions are evaluated by
//! carrying the evaluation of the node above down the moves
//! (`eval::MoveDelta`). Below the root, the full-width nodes just above the
//! capture plies are searched with the probe cut (`probe`).
//! The score convention is `eval`'s. This module does not apply the move or
//! talk to the user.

pub mod clock;
pub mod deepen;
pub mod guard;
pub(crate) mod hint;
mod probe;
pub(crate) mod reduce;
pub(crate) mod repetition;
mod root;
pub(crate) mod vars;

pub use root::DEEP_WINDOW;

use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_asm::{AsmError, Machine};
use regex_vm::state::Thread;
use regex_vm::{Program, Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::{POSITION_VARS, TURN_VAR};
use crate::board::BOARD_VAR;
use crate::eval::quiesce::LeafDelta;
use crate::eval::standpat::{NullReply, NULL_MOVE};
use crate::eval::threats::{Threats, THREAT_VAR};
use crate::eval::{Eval, DELTA_OFFSET, DELTA_VAR, EVAL_VAR};
use crate::movegen::{
    leaf_captures_with_recaptures, leaf_moves_with_recaptures, legal_captures_for, legal_moves_for,
    moves_to_count_of, side_letter, Options, MOVE_VAR,
};
use crate::rules::specials::{Mover, Stage, CHECK_VAR};
use crate::vocabulary::{mate_at, mated_at, Depth, Plan, BEST, EVEN, SCORE};
use reduce::{Better, KeepBest};
use vars::{ANSWER_MOVE, HINT_MOVE, HISTORY};

use regex_asm::Expr;

/// Searches every active thread (a position with `us` to move) `depth`
/// plies deep. Afterwards each such thread is as before, with `[em, v]` on
/// its stack (top first) if it has a legal move and an empty stack
/// otherwise.
pub fn search_onto_stack(m: &mut Machine, us: Color, depth: Depth) {
    search_onto_stack_cut(m, us, depth, RootCut::On);
}

/// Whether the root drops candidates that cannot reach its probe's score
/// (`root::probed_root`, where the plan has probed nodes below the
/// root). It never changes the move or the score; `Off` is there for the
/// tests that check so. Depth 6 is made by depth 5's root cut and has no
/// uncut form: there `Off` leaves out only the bounds of its deep probe
/// (`root::deep_probe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootCut {
    /// Drop them (what every front end plays).
    On,
    /// Search every root candidate (at depth 6: every candidate depth 5's
    /// root cut keeps, without the deep probe's bounds).
    Off,
}

/// Whether the root of `plan` runs the mate guard (`guard`): where it is
/// searched as `root::probed_root` (depths 3 to 6), with the root cut on
/// or off alike.
pub(crate) fn guards_root(plan: Plan) -> bool {
    root::probes_root(plan, plan.plies)
}

/// Whether `plan` is depth 6's (`root::deepens_root`).
pub(crate) fn deepens_root(plan: Plan) -> bool {
    root::deepens_root(plan)
}

/// [`search_onto_stack`], with the root cut `cut`.
fn search_onto_stack_cut(m: &mut Machine, us: Color, depth: Depth, cut: RootCut) {
    let plan = depth.plan();
    // Depth 6 is made by depth 5's root cut (`root::deepens_root`): it
    // has no uncut form, and `Off` leaves out only its deep probe's bounds.
    if root::deepens_root(plan) || (cut == RootCut::On && root::probes_root(plan, plan.plies)) {
        root::probed_root(m, us, plan, plan.plies, cut);
    } else {
        node(m, us, plan, plan.plies, 1);
    }
}

/// One node of the negamax search: every active thread is a position with
/// `us` to move whose candidates are at ply `ply`; each gets `[em, v]` on
/// its stack (`v` for `us`) or nothing when it has no legal move. In a
/// capture ply (`plan`) the threads must have `ck` (is `us` in check?).
pub(crate) fn node(m: &mut Machine, us: Color, plan: Plan, depth: u32, ply: u32) {
    if probe::probes(plan, depth, ply) {
        probe::probed_node(m, us, plan, depth, ply);
        return;
    }
    m.scope(|m| node_copy(m, us, plan, depth, ply));
}

/// [`node`] on its copy of each active thread: leaves `[em, v]` of the
/// best candidate on the copy's stack.
fn node_copy(m: &mut Machine, us: Color, plan: Plan, depth: u32, ply: u32) {
    let captures = plan.captures_at(ply);
    // A node whose candidates lead to a capture node (then the leaves):
    // the positions of the two plies below are evaluated by carrying this
    // one's evaluation down, move by move, not each in full.
    let carries = depth == 3 && plan.captures_at(ply + 1);
    // A capture ply below a probed node may arrive with one candidate's
    // move whose score the node above already has (`ANSWER_MOVE`).
    let answered = captures && m.is_set(ANSWER_MOVE);
    // The search needs only the board (and that move): every other
    // variable would be copied into every one of the hundreds of threads
    // below.
    for v in m.defined_vars() {
        let keep = v == BOARD_VAR
            || (captures && (v == CHECK_VAR || v == EVAL_VAR))
            || (answered && v == ANSWER_MOVE);
        if !keep && !repetition::root_keeps(m, &v, ply) {
            m.delete(&v);
        }
    }
    // The candidates.
    if captures {
        capture_candidates(m, us);
    } else if carries {
        // For the side that moves next, as the capture node needs it.
        m.special(Arc::new(Eval(!us)), &[], &[]);
        carry_down(m, |m| {
            legal_moves_for(m, us, Options::quiet_with_delta(!us))
        });
    } else {
        legal_moves_for(m, us, Options::QUIET);
    }
    if answered {
        probe::drop_searched_move(m, ANSWER_MOVE);
    }
    m.set(BEST, m.get(MOVE_VAR));
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    repetition::mark_candidates(m, !us, ply);
    if depth <= 2 {
        // A capture node's candidates arrive evaluated.
        leaf_pairs(m, us, plan.captures_at(ply + 1), ply, captures);
    } else {
        debug_assert!(!captures, "a capture ply is one of the last two");
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        score_below(m, us, plan, depth, ply);
    }
    repetition::repeats_are_even(m, ply);
    if ply == 1 && guards_root(plan) {
        guard::guard_root_candidates(m, us);
    }
    // The best candidate goes back to the root.
    keep_best(m, SCORE, Better::Max);
    m.push(m.get(SCORE));
    m.push(m.get(BEST));
}

/// The opponent's search below each active candidate (a position with
/// `!us` to move, holding `ck` and, where a capture ply comes next, its
/// evaluation for `!us`): its best score for them is the candidate's worst
/// for `us`, left in [`SCORE`].
pub(crate) fn score_below(m: &mut Machine, us: Color, plan: Plan, depth: u32, ply: u32) {
    node(m, !us, plan, depth - 1, ply + 1);
    take_reply_score(m, ply);
}

/// Each active thread a candidate at `ply` whose replies were just
/// searched: [`SCORE`] from the `[em, v]` that search left (`v` for the
/// side that replied), or [`no_reply_score`] where it left nothing.
pub(crate) fn take_reply_score(m: &mut Machine, ply: u32) {
    m.if_stack_empty(|m| no_reply_score(m, ply), pop_reply_score);
}

/// Takes the `[em, v]` a search left on each active thread's (non-empty)
/// stack as the thread's [`SCORE`], turned to the view of the side that
/// moved into the position: `2 * EVEN - v`.
pub(crate) fn pop_reply_score(m: &mut Machine) {
    m.discard_top();
    take_reply_value(m);
}

/// Takes the `v` a search left on top of each active thread's stack (its
/// move already taken) as the thread's [`SCORE`], turned as
/// [`pop_reply_score`] turns it.
pub(crate) fn take_reply_value(m: &mut Machine) {
    m.pop_into(&[SCORE]);
    m.set(SCORE, Expr::from(2 * EVEN) - m.get(SCORE));
}

/// Keeps the thread of each run of active threads with the best `var`
/// (`Better::Max`: the highest).
pub(crate) fn keep_best(m: &mut Machine, var: &str, better: Better) {
    m.special(
        Arc::new(KeepBest {
            var: var.into(),
            better,
        }),
        &[],
        &[],
    );
}

/// The candidates of a capture ply, from threads holding the board, `ck`
/// (is `us` in check?) and their evaluation for `us` (`EVAL_VAR`): in
/// check, every evasion; otherwise the good captures (`good_captures`)
/// and a null candidate (standing pat), which `leaf_pairs` scores as the
/// position itself (so a capture ply is one of the last two). Each gets
/// its move in `m`, the side to move flipped, as the move pass does, and
/// its evaluation carried over the move.
fn capture_candidates(m: &mut Machine, us: Color) {
    m.if_else(
        m.get(CHECK_VAR).eq("T"),
        |m| {
            m.delete(CHECK_VAR);
            carry_over_own(m, |m| {
                legal_moves_for(m, us, Options::quiet_with_delta(!us))
            });
        },
        |m| {
            m.delete(CHECK_VAR);
            with_null_move(
                m,
                |m| {
                    carry_over_own(m, |m| {
                        legal_captures_for(m, us, Options::quiet_with_delta(!us))
                    })
                },
                |m| {
                    m.set(MOVE_VAR, NULL_MOVE);
                    m.set(TURN_VAR, side_letter(!us));
                },
            );
        },
    );
}

/// Makes each active thread's candidates with `moves` (a move pass that
/// gives each its change of the evaluation for the side that moves next,
/// `DELTA_VAR`, see `eval::ReplyDelta`) and carries the thread's
/// evaluation for that side (`EVAL_VAR`) down to them:
/// `EVAL_VAR + DELTA_VAR - DELTA_OFFSET`, the offset taken off the
/// thread's evaluation before its candidates are made (one subtraction
/// a node, not one a candidate). The same numbers as subtracting last:
/// an evaluation is never below the offset (the test
/// `eval::tests::evaluations_never_go_below_the_delta_offset`), so the
/// subtraction never stops at 0.
pub(crate) fn carry_down(m: &mut Machine, moves: impl FnOnce(&mut Machine)) {
    m.set(EVAL_VAR, m.get(EVAL_VAR) - DELTA_OFFSET);
    moves(m);
    m.set(EVAL_VAR, m.get(EVAL_VAR) + m.get(DELTA_VAR));
    m.delete(DELTA_VAR);
}

/// [`carry_down`] for a move of the side the evaluation is for (a capture
/// ply's): the other side's change taken away,
/// `EVAL_VAR + DELTA_OFFSET - DELTA_VAR`, the offset added before `moves`
/// makes the candidates (exact without any bound: the addition comes
/// first either way).
pub(crate) fn carry_over_own(m: &mut Machine, moves: impl FnOnce(&mut Machine)) {
    m.set(EVAL_VAR, m.get(EVAL_VAR) + DELTA_OFFSET);
    moves(m);
    m.set(EVAL_VAR, m.get(EVAL_VAR) - m.get(DELTA_VAR));
    m.delete(DELTA_VAR);
}

/// Runs `moves` on the active threads and `null` on a copy of each made
/// before (paused meanwhile), which stays right after the threads the
/// moves made: a capture ply's moves and its null move, in one run.
fn with_null_move(
    m: &mut Machine,
    moves: impl FnOnce(&mut Machine),
    null: impl FnOnce(&mut Machine),
) {
    let stand = m.fork_inactive();
    moves(m);
    let moved = m.pause();
    m.reactivate(stand);
    null(m);
    m.reactivate(moved);
}

/// The last two plies: each active thread is a candidate (`us` just moved,
/// at ply `ply`); it is evaluated in full (unless it arrives `evaluated`,
/// with `EVAL_VAR` for `us`), its replies by how they change
/// that plus our best capture on the reply's square, and its score `v` is the worst reply's value ([`mate_at`] /
/// [`EVEN`] when it has none; [`mated_at`] `ply + 1` when a reply mates).
/// With `captures`, the replies are a capture ply: the opponent's
/// captures and its null reply (every reply where the candidate gives
/// check; the null reply alone after a null candidate), scored without the
/// threat term.
pub(crate) fn leaf_pairs(m: &mut Machine, us: Color, captures: bool, ply: u32, evaluated: bool) {
    // Each candidate is evaluated in full once; its replies only by how
    // they change that.
    if !evaluated {
        m.special(Arc::new(Eval(us)), &[], &[]);
    }
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if !captures {
        // What we threaten in the candidate, once for all its replies.
        m.special(Arc::new(Threats(!us)), &[], &[]);
    }
    m.scope(|m| worst_reply(m, us, captures));
    if !captures {
        m.delete(THREAT_VAR);
    }
    m.if_stack_empty(
        |m| no_reply_score(m, ply),
        |m| {
            m.pop_into(&[SCORE]);
            m.if_else(
                m.get(SCORE).eq("0"),
                |m| m.set(SCORE, mated_at(ply + 1)),
                |m| m.set(SCORE, m.get(EVAL_VAR) + m.get(SCORE) - DELTA_OFFSET),
            );
        },
    );
}

/// [`leaf_pairs`] on its copy of each candidate: pushes the delta of
/// its worst reply for `us` (0 for a reply that mates `us`), nothing
/// when it has none.
fn worst_reply(m: &mut Machine, us: Color, captures: bool) {
    // The opponent's legal replies, evaluated for us (with our best
    // capture on the reply's square, `quiesce`); the worst one.
    if captures {
        m.if_else(
            m.get(BEST).eq(NULL_MOVE),
            |m| {
                m.delete(CHECK_VAR);
                m.special(Arc::new(NullReply(!us)), &[], &[]);
            },
            |m| {
                m.if_else(
                    m.get(CHECK_VAR).eq("T"),
                    |m| {
                        m.delete(CHECK_VAR);
                        leaf_moves_with_recaptures(m, !us);
                    },
                    |m| {
                        m.delete(CHECK_VAR);
                        with_null_move(
                            m,
                            |m| leaf_captures_with_recaptures(m, !us),
                            |m| m.special(Arc::new(NullReply(!us)), &[], &[]),
                        );
                    },
                );
            },
        );
    } else {
        m.delete(CHECK_VAR);
        leaf_moves_with_recaptures(m, !us);
    }
    m.special(Arc::new(LeafDelta(us)), &[], &[]);
    mate_marks_zero(m, us);
    // The tournament below copies whole threads around: only the score is
    // still needed.
    m.special(Arc::new(KeepOnly(&[DELTA_VAR])), &[], &[]);
    keep_best(m, DELTA_VAR, Better::Min);
    m.push(m.get(DELTA_VAR));
}

/// The score of a candidate (played at `ply`) that leaves the opponent no
/// legal move: mate if it gives check, stalemate otherwise.
pub(crate) fn no_reply_score(m: &mut Machine, ply: u32) {
    m.if_else(
        m.get(CHECK_VAR).eq("T"),
        |m| m.set(SCORE, mate_at(ply)),
        |m| m.set(SCORE, EVEN),
    );
}

/// Mate at the leaves: each active thread is a reply just made against
/// `us`; where it gives check and `us` has no legal move, `dv` becomes 0,
/// below any real delta (the tournament then picks it as the worst reply).
/// The king's moves are tried first and the other pieces' only where the
/// king has none: most checks are answered by a king move, and the threads
/// of every other piece's moves behind each checking reply are what made
/// the 3-ply search's state largest.
fn mate_marks_zero(m: &mut Machine, us: Color) {
    m.special(Arc::new(Stage::InCheck(us)), &[], &[]);
    m.if_(m.get(CHECK_VAR).eq("T"), |m| {
        push_if_legal_move(m, us, &[Mover::King]);
        m.if_stack_empty(
            |m| {
                let others = &Mover::ALL[..Mover::ALL.len() - 1];
                push_if_legal_move(m, us, others);
                m.if_stack_empty(|m| m.set(DELTA_VAR, 0u32), Machine::discard_top);
            },
            Machine::discard_top,
        );
    });
}

/// Pushes `T` onto each active thread's (empty) stack where `us` has a
/// legal move with a piece moving as one of `movers`.
pub(crate) fn push_if_legal_move(m: &mut Machine, us: Color, movers: &[Mover]) {
    push_if_any(m, |m| moves_to_count_of(m, us, movers));
}

/// Pushes `T` onto each active thread's (empty) stack where `threads`,
/// run on a copy of it stripped to its board, leaves any active thread:
/// the copies' threads are joined into one, which hands `T` back.
pub(crate) fn push_if_any(m: &mut Machine, threads: impl FnOnce(&mut Machine)) {
    m.scope(|m| {
        board_only(m);
        threads(m);
        m.join();
        m.push("T");
    });
}

/// Deletes every variable of the active threads but the board.
pub(crate) fn board_only(m: &mut Machine) {
    for v in m.defined_vars() {
        if v != BOARD_VAR {
            m.delete(&v);
        }
    }
}

/// Drops every variable of each active thread but the listed ones, which
/// must stand in that order (threads without them so are left alone).
/// The stack stays.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeepOnly(pub &'static [&'static str]);

impl Special for KeepOnly {
    fn name(&self) -> String {
        format!("keep_only_{}", self.0.join("_"))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let found: Vec<usize> = self
            .0
            .iter()
            .filter_map(|v| t.vars.iter().position(|(n, _)| n.as_str() == *v))
            .collect();
        if found.len() == self.0.len() && found.is_sorted() {
            t.vars.retain(|(n, _)| self.0.contains(&n.as_str()));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let kept: String = self
            .0
            .iter()
            .map(|v| format!(r"[^%]*?(#{v}:[^%\n]*\n)"))
            .collect();
        let mut template = Template::new().group(1);
        for k in 0..self.0.len() {
            template = template.group(k + 2);
        }
        vec![
            Rewrite::new(format!(r"(%%\n#stack:\n[^#%]*){kept}[^%]*"), template)
                .with_scope(Scope::ActiveThread),
        ]
    }

    fn requires(&self) -> Vec<String> {
        self.0.iter().map(|v| v.to_string()).collect()
    }
}

/// Searches every active position thread for its side to move, `depth`
/// plies, and stores the result in `em` and `v` (both empty when there is
/// no legal move).
pub fn reply_dsl(m: &mut Machine, depth: Depth) {
    reply_dsl_cut(m, depth, RootCut::On);
}

/// [`reply_dsl`], with the root cut `cut`.
fn reply_dsl_cut(m: &mut Machine, depth: Depth, cut: RootCut) {
    m.assume_set(&POSITION_VARS);
    m.special(Arc::new(repetition::LoadHistory), &[], &[]);
    m.special(Arc::new(hint::LoadHint), &[], &[]);
    m.if_else(
        m.get(TURN_VAR).eq("w"),
        |m| search_onto_stack_cut(m, Color::White, depth, cut),
        |m| search_onto_stack_cut(m, Color::Black, depth, cut),
    );
    m.delete(HISTORY);
    m.delete(HINT_MOVE);
    store_result(m);
}

/// Pops `[em, v]` (or nothing) into the variables.
pub fn store_result(m: &mut Machine) {
    m.if_stack_empty(
        |m| {
            m.set(BEST, "");
            m.set(SCORE, "");
        },
        |m| {
            m.pop_into(&[BEST, SCORE]);
        },
    );
}

/// The assembled reply program searching `depth` plies.
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn reply_program(depth: Depth) -> Result<Program, AsmError> {
    reply_program_cut(depth, RootCut::On)
}

/// The reply program searching `depth` plies with the root cut `cut`
/// (`reply_program`'s is `On`).
///
/// # Errors
///
/// As [`reply_program`].
pub fn reply_program_cut(depth: Depth, cut: RootCut) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| reply_dsl_cut(m, depth, cut))
}
