//! The native reference: the same 2-ply search and evaluation on shakmaty.
//!
//! Tests compare the regex engine's choice with it: the move the regex
//! program plays must reach [`best_score`]. It shares the evaluation table
//! with the regex program (`eval`) and nothing else.

use shakmaty::{Chess, Move, Position};

use crate::codec::encode;
use crate::eval::{evaluate, EVEN, MATE};

/// The 2-ply value of playing `m` in `pos`, for the side to move: the
/// worst evaluation over the opponent's legal replies, or [`MATE`] /
/// [`EVEN`] when it has none (checkmate / stalemate).
pub fn move_score(pos: &Chess, m: Move) -> u32 {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let replies = after.legal_moves();
    if replies.is_empty() {
        return if after.is_check() { MATE } else { EVEN };
    }
    replies
        .into_iter()
        .map(|r| {
            let mut leaf = after.clone();
            leaf.play_unchecked(r);
            evaluate(&encode(&leaf).board, us)
        })
        .min()
        .unwrap_or(EVEN)
}

/// The best 2-ply score of the side to move, `None` without a legal move.
pub fn best_score(pos: &Chess) -> Option<u32> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_score(pos, m))
        .max()
}

/// Every move reaching the best score, and the score.
pub fn best_moves(pos: &Chess) -> Option<(Vec<Move>, u32)> {
    let scored: Vec<(Move, u32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m, move_score(pos, m)))
        .collect();
    let best = scored.iter().map(|(_, s)| *s).max()?;
    Some((
        scored
            .into_iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m)
            .collect(),
        best,
    ))
}
