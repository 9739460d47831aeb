//! The regex program's legal moves against shakmaty's.

use chess::codec::{fen_of, parse_fen};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Position};

/// shakmaty's (move, FEN after) pairs, sorted.
fn reference(fen: &str) -> Vec<(String, String)> {
    let pos = parse_fen(fen).unwrap();
    let mut out: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let uci = UciMove::from_move(m.clone(), CastlingMode::Standard).to_string();
            let mut after = pos.clone();
            after.play_unchecked(m);
            (uci, fen_of(&after))
        })
        .collect();
    out.sort();
    out
}

fn check(fen: &str) {
    let got = chess::legal_moves(fen).unwrap();
    let want = reference(fen);
    if got != want {
        let extra: Vec<_> = got.iter().filter(|m| !want.contains(m)).collect();
        let missing: Vec<_> = want.iter().filter(|m| !got.contains(m)).collect();
        panic!("{fen}\nregex only: {extra:#?}\nshakmaty only: {missing:#?}");
    }
}

#[test]
fn start_position() {
    check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn perft_positions_depth_one() {
    let data = include_str!("../data/perft.epd");
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fen = line.split(';').next().unwrap().trim();
        check(fen);
    }
}
