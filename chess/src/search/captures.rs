//! The capture plies ([`Kind::Captures`](crate::search::plan::Kind::Captures)):
//! the last two plies, where a side not in check makes a good capture
//! (`good_captures`) or stands pat (a null move, `standpat`), and a side
//! in check every evasion.
//!
//! Their positions are evaluated by carrying the evaluation of the node
//! above down the moves (`eval::MoveDelta`: [`carry_down`] from the node
//! above, [`carry_over_own`] for a capture ply's own moves), not each in
//! full. This module owns those plies' candidates and the carrying; the
//! replies at the leaves are `leaves`'.

use regex_asm::Machine;
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::eval::standpat::{with_null_move, NULL_MOVE};
use crate::eval::{DELTA_OFFSET, DELTA_VAR, EVAL_VAR};
use crate::movegen::{legal_captures_for, legal_moves_for, side_letter, Options, MOVE_VAR};
use crate::rules::specials::CHECK_VAR;
use crate::search::answer::hand_up_best;
use crate::search::leaves::{pairs, Moves};
use crate::search::plan::At;
use crate::search::vars::ANSWER_MOVE;
use crate::search::{drop_searched_move, name_candidates, strip};

/// The node at `at`, as `search::node` searches it: each active thread (a
/// position, `us` to move, holding `ck` and its evaluation for `us`) gets
/// `[em, v]` of its best candidate. A node below a standing one may
/// arrive with one candidate's move ([`ANSWER_MOVE`]) whose score the
/// node above already has: that candidate is not searched again.
pub(crate) fn node(m: &mut Machine, us: Color, at: At) {
    m.scope(|m| {
        let answered = m.is_set(ANSWER_MOVE);
        let also: &[&str] = if answered {
            &[CHECK_VAR, EVAL_VAR, ANSWER_MOVE]
        } else {
            &[CHECK_VAR, EVAL_VAR]
        };
        strip(m, at.ply(), also);
        candidates(m, us);
        if answered {
            drop_searched_move(m, ANSWER_MOVE);
        }
        name_candidates(m, !us, at.ply());
        pairs(m, us, at.ply(), Moves::Captures);
        hand_up_best(m, us, at);
    });
}

/// The candidates of a capture ply, from threads holding the board, `ck`
/// (is `us` in check?) and their evaluation for `us` (`EVAL_VAR`): in
/// check, every evasion; otherwise the good captures (`good_captures`)
/// and a null candidate (standing pat), which `leaves` scores as the
/// position itself. Each gets its move in `m`, the side to move flipped,
/// as the move pass does, and its evaluation carried over the move.
fn candidates(m: &mut Machine, us: Color) {
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
