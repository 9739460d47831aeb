//! The last two plies ([`Kind::LastTwo`](crate::search::plan::Kind::LastTwo),
//! and the capture plies' in `captures`): a node's candidates scored by
//! their replies, the leaves.
//!
//! Each candidate (`us` just moved) is evaluated in full once (unless it
//! arrives evaluated); its replies by how they change that
//! (`eval::ReplyDelta`, three table lookups instead of a whole board)
//! plus what we gain by capturing on the reply's square (`quiesce`), with
//! the threat term where the replies are full width; its score is its
//! worst reply's, [`mated_at`] the next ply where a reply mates, a mate
//! or a stalemate where it has none (`answer::no_reply_score`). This
//! module owns those leaves and the full-width node above them; it must
//! not search deeper than the replies.

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::eval::quiesce::LeafDelta;
use crate::eval::standpat::{with_null_move, NullReply, NULL_MOVE};
use crate::eval::threats::{Threats, THREAT_VAR};
use crate::eval::{Eval, DELTA_OFFSET, DELTA_VAR, EVAL_VAR};
use crate::movegen::{
    leaf_captures_with_recaptures, leaf_moves_with_recaptures, legal_moves_for, Options,
};
use crate::rules::specials::{Mover, Stage, CHECK_VAR};
use crate::search::answer::{hand_up_best, keep_best, no_reply_score};
use crate::search::plan::At;
use crate::search::reduce::Better;
use crate::search::{name_candidates, push_if_legal_move, strip, KeepOnly};
use crate::vocabulary::{mated_at, BEST, SCORE};

/// Which moves the last two plies make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Moves {
    /// Every legal move; the candidates arrive unevaluated.
    All,
    /// The capture plies' (`captures`); the candidates arrive evaluated.
    Captures,
}

/// The node at `at` ([`Kind::LastTwo`](crate::search::plan::Kind::LastTwo)),
/// as `search::node` searches it: each active thread (a position, `us` to
/// move) gets `[em, v]` of its best candidate.
pub(crate) fn node(m: &mut Machine, us: Color, at: At) {
    m.scope(|m| {
        strip(m, at.ply(), &[]);
        legal_moves_for(m, us, Options::QUIET);
        name_candidates(m, !us, at.ply());
        pairs(m, us, at.ply(), Moves::All);
        hand_up_best(m, us, at);
    });
}

/// Each active thread is a candidate (`us` just moved, at ply `ply`),
/// evaluated (with `EVAL_VAR` for `us`) where its `moves` are the capture
/// plies'; it gets its [`SCORE`], the worst of its replies' for `us`.
/// The capture plies' replies are the opponent's captures and its null
/// reply (every reply where the candidate gives check; the null reply
/// alone after a null candidate), scored without the threat term.
pub(crate) fn pairs(m: &mut Machine, us: Color, ply: u32, moves: Moves) {
    let captures = moves == Moves::Captures;
    // Each candidate is evaluated in full once; its replies only by how
    // they change that.
    if !captures {
        m.special(Arc::new(Eval(us)), &[], &[]);
    }
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if !captures {
        // What we threaten in the candidate, once for all its replies.
        m.special(Arc::new(Threats(!us)), &[], &[]);
    }
    m.scope(|m| worst_reply(m, us, moves));
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

/// [`pairs`] on its copy of each candidate: pushes the delta of its worst
/// reply for `us` (0 for a reply that mates `us`), nothing when it has
/// none.
fn worst_reply(m: &mut Machine, us: Color, moves: Moves) {
    // The opponent's legal replies, evaluated for us (with our best
    // capture on the reply's square, `quiesce`); the worst one.
    match moves {
        Moves::Captures => capture_replies(m, us),
        Moves::All => {
            m.delete(CHECK_VAR);
            leaf_moves_with_recaptures(m, !us);
        }
    }
    m.special(Arc::new(LeafDelta(us)), &[], &[]);
    mate_marks_zero(m, us);
    // The tournament below copies whole threads around: only the score is
    // still needed.
    m.special(Arc::new(KeepOnly(&[DELTA_VAR])), &[], &[]);
    keep_best(m, DELTA_VAR, Better::Min);
    m.push(m.get(DELTA_VAR));
}

/// The opponent's replies at the capture plies, each active thread a
/// candidate holding `ck`: the null reply alone after a null candidate,
/// every legal reply where the candidate gives check, its captures and
/// its null reply otherwise.
fn capture_replies(m: &mut Machine, us: Color) {
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
