//! The mate guard: the root's candidates checked for a forced mate by
//! checks.
//!
//! A depth-5 search sees a mate against it only when it lands on a ply
//! the search tries: a quiet mate in the fourth ply (a capture ply) or a
//! mate in three moves is past its horizon, and walking into such mates
//! was how most games on a clock were lost (`docs/strength.md`). Mates
//! made of checks alone are cheap to find, since the attacker's checks and
//! the defender's answers to them are few: after each root candidate that
//! is still searched once the root cut is made (and after the root's
//! probe), the opponent's checks are tried [`GUARD_MOVES`] moves deep, and
//! a candidate after which every answer to some check is mated again by
//! checks scores no more than being mated then ([`guarded_score`]).
//! The guard only lowers a candidate's score, and only by a mate that
//! exists, so the root cut's bounds stay bounds. This module owns that
//! test; it does not generate moves or test for check itself (`movegen`,
//! `rules::specials`) and does not touch the nodes below the root.

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::movegen::{legal_moves_for, Options, MOVE_VAR};
use crate::rules::specials::{Mover, Stage, CHECK_VAR};
use crate::search::{board_only, push_if_any, push_if_legal_move};
use crate::vocabulary::{mated_at, SCORE};

/// How many moves of the opponent's, each a check, the guard looks
/// ahead: 2 finds a mate delivered by the opponent's second move, at the
/// root's fourth ply, where depth 5 tries only captures.
pub const GUARD_MOVES: u32 = 2;

/// The score a guarded candidate gets at most: being mated by the last
/// move the guard looks at (the mate may come sooner; the guard does not
/// say when).
pub fn guarded_score() -> u32 {
    mated_at(2 * GUARD_MOVES)
}

/// Each active thread is a root candidate (`us` just moved; the board and
/// its [`SCORE`], an empty stack): where the opponent mates by checks
/// within [`GUARD_MOVES`] moves, the score becomes at most
/// [`guarded_score`].
pub(crate) fn guard_root_candidates(m: &mut Machine, us: Color) {
    mates_by_checks(m, !us, GUARD_MOVES);
    m.if_stack_empty(
        |_| {},
        |m| {
            m.discard_top();
            let bound = guarded_score();
            m.if_(m.get(SCORE).gt(bound), |m| m.set(SCORE, bound));
        },
    );
}

/// Pushes `T` onto each active thread's (empty) stack where `attacker`,
/// to move, mates within `moves` moves, each of them a check.
fn mates_by_checks(m: &mut Machine, attacker: Color, moves: u32) {
    push_if_any(m, |m| {
        if moves == 1 {
            // The position after the last check is only tested for mate,
            // as a leaf's is (`leaves::pairs`): no name, no clean-up.
            legal_moves_for(m, attacker, Options::LEAF);
            board_only(m);
        } else {
            legal_moves_for(m, attacker, Options::QUIET);
            m.delete(MOVE_VAR);
            m.delete(TURN_VAR);
        }
        m.special(Arc::new(Stage::InCheck(!attacker)), &[], &[]);
        m.if_(m.get(CHECK_VAR).ne("T"), |m| m.destroy_active());
        m.delete(CHECK_VAR);
        // Each thread is a check: it mates when no answer escapes.
        if moves == 1 {
            push_if_legal_move(m, !attacker, &Mover::ALL);
        } else {
            escapes(m, !attacker, moves - 1);
        }
        m.if_stack_empty(|_| {}, |m| m.destroy_active());
    });
}

/// Pushes `T` onto each active thread's (empty) stack where `defender`,
/// to move, has a legal move after which the other side does not mate by
/// checks within `moves` moves.
fn escapes(m: &mut Machine, defender: Color, moves: u32) {
    push_if_any(m, |m| {
        legal_moves_for(m, defender, Options::QUIET);
        m.delete(MOVE_VAR);
        m.delete(TURN_VAR);
        mates_by_checks(m, !defender, moves);
        m.if_stack_empty(|_| {}, |m| m.destroy_active());
    });
}
