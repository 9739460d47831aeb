//! The successors list (`chess::successors`) on our VM against shakmaty:
//! for every position, the text the list leaves is the FEN after each
//! legal move (en passant square only when a legal capture exists, as
//! `EnPassantMode::Legal` and python-chess write it), sorted by the move's
//! UCI text, joined by `\n`, for both promotion rules. Positions: the
//! perft suite (as given and colour-flipped), random games from the start
//! and from each perft position, one hand-made position per rule, and
//! clocks of up to thousands of digits. (The same list under CPython, Node
//! and `regex-chess run` is `crates/cli/tests/integration/successors.rs`.)
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{fen_of, parse_fen, START_FEN};
use chess::successors::{input_line, run, Promotions};
use regex_chess_tests::positions::{flip_fen, random_game, Rng};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Role};

/// `n + 1` for a decimal of any length.
fn plus_one(n: &str) -> String {
    let mut digits = n.as_bytes().to_vec();
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return String::from_utf8(digits).unwrap();
        }
    }
    digits.insert(0, b'1');
    String::from_utf8(digits).unwrap()
}

/// shakmaty's successors of `line` (a FEN whose clocks may be any
/// decimals), as the list should write them.
fn reference(line: &str, promotions: Promotions) -> String {
    let fields: Vec<&str> = line.split(' ').collect();
    let (halfmove, fullmove) = (fields[4], fields[5]);
    let pos = parse_fen(&fields[..4].join(" ")).unwrap();
    let mut out: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            promotions == Promotions::All || matches!(m.promotion(), None | Some(Role::Queen))
        })
        .map(|m| {
            let uci = UciMove::from_move(m, CastlingMode::Standard).to_string();
            let zeroing = m.is_zeroing();
            let mut after = pos.clone();
            after.play_unchecked(m);
            let board = Fen::from_position(&after, EnPassantMode::Legal).to_string();
            let board: Vec<&str> = board.split(' ').take(4).collect();
            let h = if zeroing {
                "0".to_string()
            } else {
                plus_one(halfmove)
            };
            let n = if pos.turn().is_black() {
                plus_one(fullmove)
            } else {
                fullmove.to_string()
            };
            (uci, format!("{} {h} {n}", board.join(" ")))
        })
        .collect();
    out.sort();
    out.into_iter()
        .map(|(_, fen)| fen)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the list on `fen` (as python-chess would write it) under both
/// promotion rules; the first difference is the error.
fn check(fen: &str) -> Result<(), String> {
    let line = input_line(fen).map_err(|e| format!("{fen}: {e}"))?;
    for promotions in [Promotions::All, Promotions::Queen] {
        for text in [line.clone(), format!("{line}\n")] {
            let got = run(&text, promotions).map_err(|e| format!("{line}: {e}"))?;
            let want = reference(&line, promotions);
            if got != want {
                return Err(format!(
                    "{line:?} ({promotions:?}):\nlist:\n{got}\nshakmaty:\n{want}"
                ));
            }
        }
    }
    Ok(())
}

fn perft_fens() -> Vec<String> {
    chess::games::perft_positions()
        .into_iter()
        .map(|p| p.fen)
        .collect()
}

#[test]
fn vm_successors_match_shakmaty_on_perft_positions_and_random_games() {
    let mut starts: Vec<String> = vec![START_FEN.to_string()];
    for fen in perft_fens() {
        starts.push(flip_fen(&fen).unwrap());
        starts.push(fen);
    }
    let mut checked = 0;
    for (k, start) in starts.iter().enumerate() {
        let start = parse_fen(start).unwrap();
        check(&fen_of(&start)).unwrap_or_else(|e| panic!("{e}"));
        for seed in 0..20u64 {
            let mut rng = Rng::new(seed * 100 + k as u64);
            let plies = rng.below(80);
            let pos: Chess = random_game(&start, &mut rng, plies);
            check(&fen_of(&pos)).unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert!(checked >= 300, "{checked}");
}

/// One position per rule, with what it exercises.
const RULES: &[(&str, &str)] = &[
    (
        "castling both sides",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "castling, black",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    ),
    // Rooks taken on their corners by promotions, rights of both sides.
    (
        "promotion takes a rook",
        "r3k2r/1P6/8/8/8/8/1p6/R3K2R b KQkq - 99 12345",
    ),
    (
        "promotion takes a rook, white",
        "r3k2r/1P6/8/8/8/8/1p6/R3K2R w KQkq - 7 30",
    ),
    // The pawn that could take en passant is pinned along the rank.
    (
        "en passant opens the rank",
        "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1",
    ),
    // The pawn that could take is pinned on a diagonal.
    (
        "en passant pinned on a diagonal",
        "4k3/3p4/8/4P3/8/8/8/K6b w - - 0 1",
    ),
    (
        "en passant pinned, black to take",
        "k6B/8/8/8/4p3/8/3P4/4K3 w - - 0 1",
    ),
    // Two pawns can take; and one double push gives check.
    ("two takers", "4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1"),
    ("the push gives check", "8/8/8/8/2p5/8/3P4/2k1K3 w - - 0 1"),
    (
        "en passant square given",
        "4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 1",
    ),
    (
        "en passant square given, black",
        "8/8/3k4/8/3pP3/8/8/3RK3 b - e3 0 1",
    ),
    (
        "in check, block or take",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ),
    ("checkmate: nothing", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
    ("stalemate: nothing", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    ("bare kings", "7k/8/8/8/8/8/8/K7 w - - 0 1"),
];

#[test]
fn vm_successors_match_shakmaty_on_each_rule() {
    for (what, fen) in RULES {
        check(fen).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&flip_fen(fen).unwrap()).unwrap_or_else(|e| panic!("{what}, flipped: {e}"));
    }
}

/// Clocks of any length: runs of nines across the list's blocks of 1,024,
/// other digits before them, both sides to move.
#[test]
fn vm_successors_count_clocks_of_any_length() {
    let nines = |k: usize| "9".repeat(k);
    let clocks = [
        ("0".to_string(), "1".to_string()),
        (nines(12), nines(11)),
        (format!("1{}", nines(1030)), format!("8{}", nines(1025))),
        (nines(2049), format!("19{}", nines(3000))),
        (
            "12345678901234567890".to_string(),
            "98765432109876543210".to_string(),
        ),
    ];
    for board in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq -",
    ] {
        for (h, n) in &clocks {
            check(&format!("{board} {h} {n}")).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn text_that_is_not_a_fen_line_and_the_empty_state_give_nothing() {
    for text in [
        "",
        "\n",
        "hello",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmore",
    ] {
        assert_eq!(run(text, Promotions::All).unwrap(), "", "{text:?}");
    }
}
