//! A node's answer: what it hands up on each position's stack, and how
//! the node above takes it.
//!
//! A node leaves `[em, v]` on each position's stack (`em` on top: its
//! best candidate's move, or a placeholder below the root; `v` its score
//! for the side to move there), or nothing when that side has no legal
//! move. The node above takes it as the score of the candidate that led
//! there, turned to the view of the side that moved into the position
//! (`2 * EVEN - v`), and scores a candidate the opponent has no answer to
//! as a mate or a stalemate. This module owns those layouts and turns; it
//! makes no moves and chooses no node.

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use shakmaty::Color;

use crate::rules::specials::CHECK_VAR;
use crate::search::plan::At;
use crate::search::reduce::{Better, KeepBest};
use crate::search::{guard, node, repetition};
use crate::vocabulary::{mate_at, BEST, EVEN, SCORE};

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

/// The end of a node at `at` whose candidates (`us` just moved) hold their
/// [`SCORE`] and [`BEST`]: at the root, the repetition rule and, where
/// the plan has it, the mate guard; then the best candidate's `[em, v]`
/// is pushed onto its stack, for the scope to hand up.
pub(crate) fn hand_up_best(m: &mut Machine, us: Color, at: At) {
    repetition::repeats_are_even(m, at.ply());
    if at.is_root() && at.plan().guards_root() {
        guard::guard_root_candidates(m, us);
    }
    keep_best(m, SCORE, Better::Max);
    m.push(m.get(SCORE));
    m.push(m.get(BEST));
}

/// The opponent's search below each active candidate of the node at `at`
/// (a position with `!us` to move, holding `ck` and, where the node below
/// needs it, its evaluation for `!us`): its best score for them is the
/// candidate's worst for `us`, left in [`SCORE`].
pub(crate) fn score_below(m: &mut Machine, us: Color, at: At) {
    node(m, !us, at.next());
    take_reply_score(m, at.ply());
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

/// The score of a candidate (played at `ply`) that leaves the opponent no
/// legal move: mate if it gives check, stalemate otherwise.
pub(crate) fn no_reply_score(m: &mut Machine, ply: u32) {
    m.if_else(
        m.get(CHECK_VAR).eq("T"),
        |m| m.set(SCORE, mate_at(ply)),
        |m| m.set(SCORE, EVEN),
    );
}
