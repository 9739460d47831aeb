//! The native reference: the same search and evaluation on shakmaty.
//!
//! Tests compare the regex engine's choice with it: the move the regex
//! program plays must reach [`best_score`]. It mirrors `search` exactly
//! (which positions are tested for mate, which are evaluated, the mate
//! scores by ply) and shares the evaluation with the regex program
//! (`eval::leaf_value`) and nothing else. Given a game's history (the
//! `_in_game` functions), a root candidate that repeats one of its
//! positions scores `EVEN`, as `repetition` makes the regex search do.

use shakmaty::{Chess, Move, Position};

use crate::codec::encode;
use crate::eval::{leaf_value, EVEN};
use crate::search::{mate_at, mated_at, DEFAULT_DEPTH, MAX_DEPTH, MIN_DEPTH};

/// The value, for the side that moves at ply `ply`, of having played into
/// `after`, searched `depth` plies from the position before that move.
fn candidate_value(after: &Chess, depth: u32, ply: u32) -> u32 {
    let replies = after.legal_moves();
    if replies.is_empty() {
        return if after.is_check() { mate_at(ply) } else { EVEN };
    }
    if depth > 2 {
        // The opponent's best, seen from the other side.
        let best = replies
            .into_iter()
            .map(|r| {
                let mut next = after.clone();
                next.play_unchecked(r);
                candidate_value(&next, depth - 1, ply + 1)
            })
            .max()
            .unwrap_or(EVEN);
        return 2 * EVEN - best;
    }
    let us = !after.turn();
    replies
        .into_iter()
        .map(|r| {
            let mut leaf = after.clone();
            leaf.play_unchecked(r);
            if leaf.is_check() && leaf.legal_moves().is_empty() {
                mated_at(ply + 1)
            } else {
                leaf_value(&encode(&leaf).board, us)
            }
        })
        .min()
        .unwrap_or(EVEN)
}

/// The `depth`-ply value of playing `m` in `pos`, for the side to move
/// (depth clamped as the regex program's is).
pub fn move_score_at(pos: &Chess, m: Move, depth: u32) -> u32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    candidate_value(&after, depth.clamp(MIN_DEPTH, MAX_DEPTH), 1)
}

/// [`move_score_at`] the default depth.
pub fn move_score(pos: &Chess, m: Move) -> u32 {
    move_score_at(pos, m, DEFAULT_DEPTH)
}

/// The best `depth`-ply score of the side to move, `None` without a legal
/// move.
pub fn best_score_at(pos: &Chess, depth: u32) -> Option<u32> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_score_at(pos, m, depth))
        .max()
}

/// [`best_score_at`] the default depth.
pub fn best_score(pos: &Chess) -> Option<u32> {
    best_score_at(pos, DEFAULT_DEPTH)
}

/// Every move reaching the best `depth`-ply score, and the score.
pub fn best_moves_at(pos: &Chess, depth: u32) -> Option<(Vec<Move>, u32)> {
    let scored: Vec<(Move, u32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m, move_score_at(pos, m, depth)))
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

/// [`best_moves_at`] the default depth.
pub fn best_moves(pos: &Chess) -> Option<(Vec<Move>, u32)> {
    best_moves_at(pos, DEFAULT_DEPTH)
}

/// [`move_score_at`] in a game whose positions so far have the keys
/// `history` (each after a space, as the `Positions:` line holds them):
/// a move into one of them is a draw, [`EVEN`].
pub fn move_score_in_game(pos: &Chess, m: Move, depth: u32, history: &str) -> u32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    if crate::repetition::repeats(&encode(&after).board, after.turn(), history) {
        return EVEN;
    }
    candidate_value(&after, depth.clamp(MIN_DEPTH, MAX_DEPTH), 1)
}

/// [`best_moves_at`] in a game with `history` (see
/// [`move_score_in_game`]).
pub fn best_moves_in_game(pos: &Chess, depth: u32, history: &str) -> Option<(Vec<Move>, u32)> {
    let scored: Vec<(Move, u32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m, move_score_in_game(pos, m, depth, history)))
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
