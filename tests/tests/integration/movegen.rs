//! The regex program's legal moves against shakmaty's: every move and the
//! full FEN after it, on the standard perft positions (as given and
//! colour-flipped), on positions from random games, and on one hand-made
//! position per rule.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::START_FEN;
use chess::codec::{fen_of, parse_fen};
use proptest::prelude::*;
use regex_chess_tests::positions::{flip_fen, random_game, Rng};
use regex_chess_tests::proptest_config;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// shakmaty's (move, FEN after) pairs, sorted.
fn reference(fen: &str) -> Vec<(String, String)> {
    let pos = parse_fen(fen).unwrap();
    let mut out: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let uci = UciMove::from_move(m, CastlingMode::Standard).to_string();
            let mut after = pos.clone();
            after.play_unchecked(m);
            (uci, fen_of(&after))
        })
        .collect();
    out.sort();
    out
}

/// Compares, and explains the difference on failure.
fn diff(fen: &str) -> Result<usize, String> {
    let got = chess::legal_moves(fen).map_err(|e| format!("{fen}: {e}"))?;
    let want = reference(fen);
    if got == want {
        return Ok(got.len());
    }
    let extra: Vec<_> = got.iter().filter(|m| !want.contains(m)).collect();
    let missing: Vec<_> = want.iter().filter(|m| !got.contains(m)).collect();
    Err(format!(
        "{fen}\nregex only: {extra:#?}\nshakmaty only: {missing:#?}"
    ))
}

fn check(fen: &str) -> usize {
    diff(fen).unwrap_or_else(|e| panic!("{e}"))
}

/// (fen, [(depth, count)]) from the perft suite.
fn perft_suite() -> Vec<(String, Vec<(u32, u64)>)> {
    chess::games::perft_positions()
        .into_iter()
        .map(|p| (p.fen, p.counts))
        .collect()
}

#[test]
fn vm_legal_moves_match_shakmaty_on_perft_positions() {
    let suite = perft_suite();
    assert!(!suite.is_empty(), "no positions read from perft.epd");
    for (fen, counts) in &suite {
        for f in [fen.clone(), flip_fen(fen).unwrap()] {
            let n = check(&f);
            assert_eq!(Some(&(1, n as u64)), counts.first(), "{f}");
        }
    }
}

#[test]
fn vm_perft_two_matches_listed_counts() {
    for (fen, counts) in perft_suite() {
        let d2 = counts.iter().find(|(d, _)| *d == 2).unwrap().1;
        assert_eq!(chess::perft(&fen, 2).unwrap(), d2, "{fen}");
        assert_eq!(
            chess::perft(&flip_fen(&fen).unwrap(), 2).unwrap(),
            d2,
            "flipped {fen}"
        );
    }
}

proptest! {
    #![proptest_config(proptest_config(200))]

    /// Positions reached by random legal games, both colours to move.
    #[test]
    fn vm_legal_moves_match_shakmaty_on_random_games(seed in any::<u64>(), plies in 0usize..120) {
        let mut rng = Rng::new(seed);
        let pos = random_game(&Chess::default(), &mut rng, plies);
        let fen = fen_of(&pos);
        prop_assert!(diff(&fen).is_ok(), "{}", diff(&fen).unwrap_err());
    }
}

/// One position per rule, each listed with what it exercises. Every one is
/// compared move by move and FEN by FEN; the counts are shakmaty's too.
const RULES: &[(&str, &str)] = &[
    // Castling both sides, both colours, all rights.
    (
        "castling all",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "castling all, black",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    ),
    // Not out of check (rook gives check on the e-file).
    (
        "no castling out of check",
        "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
    ),
    // Not through check (f1 and d1 attacked by rooks).
    (
        "no castling through check",
        "r3k2r/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1",
    ),
    // Not into check (g1 attacked by a bishop; b1 attacked does not matter).
    (
        "no castling into check",
        "r3k2r/8/8/8/8/7b/8/R3K2R w KQ - 0 1",
    ),
    (
        "queen side: b1 attacked is fine",
        "r3k2r/8/8/8/8/8/1r6/R3K2R w Q - 0 1",
    ),
    // Squares between must be empty.
    ("castling blocked", "r3k2r/8/8/8/8/8/8/RN2K1NR w KQ - 0 1"),
    // Rights lost when the rook is captured on its home square.
    (
        "capture a castling rook",
        "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1",
    ),
    // Rights from FEN only: rooks and king home, but no rights.
    ("no rights in FEN", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"),
    // En passant, both sides of the pawn.
    ("en passant", "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1"),
    ("en passant black", "4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1"),
    // En passant that would expose the king along the rank.
    (
        "en passant horizontal pin",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    ),
    // En passant that removes the checking pawn.
    (
        "en passant out of check",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    ),
    // Promotion to each piece, with and without capture.
    ("promotion", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
    ("promotion black", "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"),
    // Pins: the pinned piece moves only along the pin line.
    ("pinned rook", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"),
    ("pinned bishop", "4k3/8/8/8/7b/8/5B2/4K3 w - - 0 1"),
    ("pinned knight", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"),
    // Check: block, capture or move the king.
    ("check", "4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1"),
    // Double check: only king moves.
    ("double check", "4k3/8/8/8/8/5n2/8/r3K2R w - - 0 1"),
    // Checkmate and stalemate: no move at all.
    (
        "checkmate",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ),
    ("stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    // Clocks: halfmove reset by pawn moves and captures, fullmove after black.
    ("clocks", "4k3/8/8/3p4/8/2N5/4P3/4K3 b - - 17 42"),
    // A rook that may still castle attacks like any rook.
    ("check by a castling rook", "r3k3/8/8/8/8/8/8/K7 w q - 0 1"),
    ("pin by a castling rook", "4k2r/8/8/8/8/8/7N/7K w k - 0 1"),
    // Kings may not touch.
    ("kings apart", "8/8/8/3k4/8/3K4/8/8 w - - 0 1"),
];

#[test]
fn vm_legal_moves_match_shakmaty_on_each_rule() {
    for (name, fen) in RULES {
        let n = diff(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.starts_with("checkmate") || name.starts_with("stalemate") {
            assert_eq!(n, 0, "{name}");
        } else {
            assert!(n > 0, "{name}");
        }
    }
}

/// The position of the rule named `name` in [`RULES`].
fn rule(name: &str) -> &'static str {
    RULES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no rule named {name:?}"))
        .1
}

#[test]
fn each_rule_position_shows_what_it_claims() {
    let moves = |fen: &str| -> Vec<String> {
        chess::legal_moves(fen)
            .unwrap()
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    };
    let all = moves(rule("castling all"));
    assert!(all.contains(&"e1g1".into()) && all.contains(&"e1c1".into()));
    assert!(!moves(rule("no castling out of check")).contains(&"e1g1".into()));
    let through = moves(rule("no castling through check"));
    assert!(!through.contains(&"e1g1".into()) && !through.contains(&"e1c1".into()));
    assert!(!moves(rule("no castling into check")).contains(&"e1g1".into()));
    assert!(moves(rule("queen side: b1 attacked is fine")).contains(&"e1c1".into()));
    let ep = moves(rule("en passant"));
    assert!(ep.contains(&"c5d6".into()) && ep.contains(&"e5d6".into()));
    assert!(!moves(rule("en passant horizontal pin")).contains(&"b5c6".into()));
    assert!(moves(rule("en passant out of check")).contains(&"e4d3".into()));
    let promo = moves(rule("promotion"));
    for p in ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8n"] {
        assert!(promo.contains(&p.to_string()), "{p}");
    }
    let double = moves(rule("double check"));
    assert!(double.iter().all(|m| m.starts_with("e1")), "{double:?}");
    let after = chess::legal_moves(rule("clocks")).unwrap();
    let fen_after = |m: &str| after.iter().find(|(x, _)| x == m).unwrap().1.clone();
    assert!(fen_after("d5d4").ends_with("w - - 0 43"));
    assert!(fen_after("e8d7").ends_with("w - - 18 43"));
}

#[test]
fn perft_three_on_start_position() {
    assert_eq!(chess::perft(START_FEN, 3).unwrap(), 8902);
}

#[test]
fn invalid_fens_are_errors() {
    for bad in [
        "",
        "hello",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 4294967296 1",
    ] {
        assert!(
            matches!(chess::legal_moves(bad), Err(chess::Error::Fen(_))),
            "{bad:?}"
        );
    }
    // A castling right without its rook is dropped (python-chess and
    // Stockfish read it so): the king castles short only.
    let moves = chess::legal_moves("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1").unwrap();
    assert!(moves.iter().any(|(m, _)| m == "e1g1"));
    assert!(!moves.iter().any(|(m, _)| m == "e1c1"));
}
