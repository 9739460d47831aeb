//! The threat term at the leaves (`chess::threats`): positions, found by
//! the code, where the search with it picks a move the search without it
//! (the recapture alone) does not, because at some leaf a piece that the
//! last move did not touch is left to be taken; the regex program's
//! choice there has the reference's score, at depths 2 and 3.

// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::fen_of;
use chess::reference::{best_moves_in_game_with, Leaves, Threats};
use regex_chess_tests::depth;
use regex_chess_tests::positions::{positions_where, regex_reply_matches_reference};

/// `want` positions from random games where no best move of the search
/// with threats is a best move of the search without them.
fn changed_positions(plies: u32, want: usize, max_moves: usize) -> Vec<String> {
    let depth = regex_chess_tests::depth(plies);
    let found = positions_where(9100, want, max_moves, |pos| {
        let best = |leaves| best_moves_in_game_with(pos, depth, "", leaves).map(|(ms, _)| ms);
        let (Some(with), Some(without)) = (best(Leaves::Threats), best(Leaves::Quiescent)) else {
            return false;
        };
        with.iter().all(|m| !without.contains(m))
    });
    assert_eq!(found.len(), want, "depth {depth}: found only {found:?}");
    found
}

/// Where the searches with and without the threat term have no best move
/// in common, the regex program's move is one of the search with it: the
/// program searches with threats (a program without them would play a
/// move of the other set).
#[test]
fn the_regex_program_searches_with_threats() {
    for fen in changed_positions(2, 3, 40) {
        let pos = chess::codec::parse_fen(&fen).unwrap();
        let (with, _) = best_moves_in_game_with(&pos, depth(2), "", Leaves::Threats).unwrap();
        let (without, _) = best_moves_in_game_with(&pos, depth(2), "", Leaves::Quiescent).unwrap();
        let (uci, _) = chess::search(&fen, &[], depth(2)).unwrap().best.unwrap();
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        assert!(
            with.contains(&m),
            "{fen}: {uci} is not a best move with threats"
        );
        assert!(!without.contains(&m), "{fen}: {uci}");
    }
}

#[test]
fn depth_2_sees_a_piece_left_hanging() {
    for fen in changed_positions(2, 5, 40) {
        regex_reply_matches_reference(&fen, depth(2)).unwrap();
    }
}

#[test]
fn depth_3_sees_a_piece_left_hanging() {
    for fen in changed_positions(3, 2, 25) {
        regex_reply_matches_reference(&fen, depth(3)).unwrap();
    }
}

/// A knight fork: moving the queen away still leaves the rook, and the
/// second-best threat is what the reply that saves the queen leaves.
#[test]
fn a_fork_leaves_the_second_piece() {
    let pos = chess::codec::parse_fen("4qk2/2N5/r7/8/8/8/8/7K b - - 0 1").unwrap();
    let t = Threats::of(&pos);
    assert_eq!((t.g1, t.g2), (6, 5));
    assert_eq!(t.x1, Some(shakmaty::Square::E8));
    assert_eq!(t.after(Some(shakmaty::Square::E8)), 5);
    assert_eq!(t.after(Some(shakmaty::Square::A6)), 6);
    regex_reply_matches_reference(&fen_of(&pos), depth(2)).unwrap();
}
