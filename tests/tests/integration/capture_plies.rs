//! The capture plies (`Depth::plan`: depth 4 is two full-width plies and
//! two plies of captures, check evasions and standing pat): the regex
//! program's choice against the native reference, on positions where the
//! capture plies change the best move and on positions with captures to
//! make.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::reference::best_moves;
use regex_chess_tests::depth;
use regex_chess_tests::positions::{positions_where, regex_reply_matches_reference};
use shakmaty::{Chess, Position};

/// The depth whose plan has capture plies.
fn depth_under_test() -> chess::Depth {
    depth(4)
}

#[test]
fn depth_four_is_two_full_plies_and_two_capture_plies() {
    let p = depth_under_test().plan();
    assert_eq!((p.full, p.plies), (2, 4));
    let p = depth(2).plan();
    assert_eq!((p.full, p.plies), (2, 2));
}

/// Positions where the side to move has a capture.
fn with_captures(pos: &Chess) -> bool {
    pos.legal_moves().iter().any(|m| m.is_capture())
}

#[test]
fn capture_plies_match_the_native_search_on_random_positions() {
    let found = positions_where(100, 8, 25, with_captures);
    assert_eq!(found.len(), 8);
    for fen in found {
        regex_reply_matches_reference(&fen, depth_under_test()).unwrap();
    }
}

/// Positions where the capture plies change the choice: no move that is
/// best with two full-width plies alone is best with the capture plies
/// after them. The regex program must find the latter.
#[test]
fn capture_plies_change_the_move_as_the_reference_says() {
    let differ = |pos: &Chess| {
        if !with_captures(pos) {
            return false;
        }
        let (Some((shallow, _)), Some((deep, _))) = (
            best_moves(pos, depth(2)),
            best_moves(pos, depth_under_test()),
        ) else {
            return false;
        };
        deep.iter().all(|m| !shallow.contains(m))
    };
    let found = positions_where(500, 5, 25, differ);
    assert_eq!(found.len(), 5, "only {} positions found", found.len());
    for fen in found {
        regex_reply_matches_reference(&fen, depth_under_test()).unwrap();
    }
}
