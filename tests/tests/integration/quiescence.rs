//! The capture quiescence at the leaves (`chess::quiesce`): positions,
//! found by the code, where the search without it expects its line to end
//! with a capture of a defended piece by a more valuable one (a "free"
//! pawn that is not free, at depth 3; a reply that takes a defended piece
//! and is never recaptured, at depth 2), and the search with it does not;
//! the regex program's choice there has the reference's score.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::reference::bench_leaves::exchange_worth;
use chess::reference::{principal_line, Leaves};
use regex_chess_tests::depth;
use regex_chess_tests::positions::{positions_where, regex_reply_matches_reference};
use shakmaty::{Chess, Move, Position};

/// Whether the last move of `line` (from `pos`) takes a piece that its
/// side defends with a piece worth more than it.
fn ends_in_losing_capture(pos: &Chess, line: &[Move]) -> bool {
    let Some((last, before)) = line.split_last() else {
        return false;
    };
    let mut here = pos.clone();
    for m in before {
        here.play_unchecked(*m);
    }
    let Some(victim) = last.capture() else {
        return false;
    };
    here.play_unchecked(*last);
    let board = here.board();
    let defended = board
        .attacks_to(last.to(), here.turn(), board.occupied())
        .any();
    defended && exchange_worth(last.role()) > exchange_worth(victim)
}

/// `want` positions from random games where the line without quiescence
/// ends in a losing capture and the line with it does not.
fn horizon_positions(plies: u32, want: usize, max_moves: usize) -> Vec<String> {
    let depth = regex_chess_tests::depth(plies);
    let found = positions_where(7000, want, max_moves, |pos| {
        let old = principal_line(pos, depth, Leaves::Static);
        let new = principal_line(pos, depth, Leaves::Quiescent);
        ends_in_losing_capture(pos, &old) && !ends_in_losing_capture(pos, &new)
    });
    assert_eq!(found.len(), want, "depth {depth}: found only {found:?}");
    found
}

#[test]
fn depth_2_sees_the_recapture_after_a_reply_that_takes() {
    for fen in horizon_positions(2, 4, 40) {
        regex_reply_matches_reference(&fen, depth(2)).unwrap();
    }
}

#[test]
fn depth_3_does_not_count_a_defended_piece_as_won() {
    for fen in horizon_positions(3, 2, 25) {
        regex_reply_matches_reference(&fen, depth(3)).unwrap();
    }
}
