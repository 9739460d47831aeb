//! How games end, through the binary (`regex-chess play`, with its PGN) and
//! through the dumped turn program under CPython (the README's loop): each
//! draw rule with its exact lines, a mate on the 100th halfmove, a position
//! that is over at once, check on the status line and SAN echoes, the clock
//! bounds, and the lenient and refused FENs with their messages.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use chess::codec::START_FEN;
use chess::screen::start_screen;
use shakmaty::Color;

use crate::common::{bin, needs, run_with};

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    // The fast mode: these tests are about the rules, not the search.
    run_with(&[&["play", "--depth", "2"], args].concat(), input)
}

/// Plays `moves` (two people) from `fen` through the binary with a PGN;
/// returns the output and the PGN's result tag.
fn play_two(fen: &str, moves: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    let (ok, out, err) = play(
        &[
            "--ascii",
            "--engine-color",
            "none",
            "--fen",
            fen,
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        &input,
    );
    assert!(ok, "{err}");
    assert!(!out.contains('%') && !out.contains("#stack"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .and_then(|r| r.strip_suffix("\"]"))
        .unwrap()
        .to_string();
    (out, result)
}

/// The README's loop, reading its first state from a file instead of
/// starting empty (`""` is the standard game against the engine).
const README_LOOP: &str = r#"
import json, re, sys

rewrites = [(re.compile(p), r) for p, r in json.load(open(sys.argv[1]))]
state = open(sys.argv[2]).read()
while True:
    for pattern, replacement in rewrites:
        state = pattern.sub(replacement, state)
    print(state, end="", flush=True)
    line = sys.stdin.readline()
    if state.endswith("Game over.") or not line:
        break
    state += line
"#;

/// The dumped turn program (written once per test run).
fn dumped() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = bin()
            .arg("dump")
            .arg(dir.path().join("turn.json"))
            .output()
            .unwrap();
        assert!(out.status.success());
        std::fs::write(dir.path().join("loop.py"), README_LOOP).unwrap();
        dir
    });
    dir.path()
}

/// Runs the game from `screen` with `moves` under CPython, and the same
/// turns on our VM; both transcripts must be the same bytes. Returns the
/// last screen. Without python3 the CPython half is skipped, except under
/// CI, where it fails.
fn both_ways(screen: &str, moves: &[&str]) -> String {
    let mut state = screen.to_string();
    chess::play_turn(&mut state, None, chess::Depth::FAST).unwrap();
    let mut transcript = state.clone();
    for mv in moves {
        if state.ends_with("Game over.") {
            break;
        }
        chess::play_turn(&mut state, Some(mv), chess::Depth::FAST).unwrap();
        transcript.push_str(&state);
    }
    if !needs("python3", "the CPython half of this test") {
        return state;
    }
    let dir = dumped();
    let start = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(start.path(), screen).unwrap();
    let mut child = Command::new("python3")
        .arg(dir.join("loop.py"))
        .arg(dir.join("turn.json"))
        .arg(start.path())
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        transcript,
        "CPython and our VM play the same game"
    );
    state
}

/// The last lines of a screen: status, players, last moves, message, and
/// the prompt (the history line left out).
fn tail(screen: &str) -> Vec<&str> {
    let lines: Vec<&str> = screen.split('\n').collect();
    let mut out = lines[10..14].to_vec();
    assert!(lines[14].starts_with("Positions:"), "{screen}");
    out.push(lines[15]);
    out
}

const KNIGHTS: [&str; 8] = [
    "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
];

#[test]
fn threefold_repetition_is_a_draw_both_ways() {
    let end = both_ways(&start_screen(START_FEN, None).unwrap(), &KNIGHTS);
    assert_eq!(
        tail(&end),
        [
            "White to move. Castling: KQkq. En passant: -. Halfmove clock: 8. Move: 5.",
            "Two players, no engine.",
            "You played f6g8 (Ng8).",
            "Draw by threefold repetition.",
            "Game over.",
        ]
    );
    // Two occurrences are not enough: one move earlier the game goes on.
    let before = both_ways(&start_screen(START_FEN, None).unwrap(), &KNIGHTS[..7]);
    assert!(before.ends_with("Your move: "), "{before}");
    let (out, result) = play_two(START_FEN, &KNIGHTS);
    assert!(
        out.contains("Draw by threefold repetition.\nGame over."),
        "{out}"
    );
    assert!(
        !out.contains("Positions:"),
        "the front end hides the history"
    );
    assert_eq!(result, "1/2-1/2");
}

#[test]
fn fifty_move_rule_is_a_draw_unless_the_move_mates() {
    let fen = "8/8/8/4k3/8/8/8/4K2R w K - 99 80";
    let end = both_ways(&start_screen(fen, None).unwrap(), &["h1h2", "e5e4"]);
    assert_eq!(
        tail(&end),
        [
            "Black to move. Castling: -. En passant: -. Halfmove clock: 100. Move: 80.",
            "Two players, no engine.",
            "You played h1h2 (Rh2).",
            "Draw by the fifty-move rule.",
            "Game over.",
        ]
    );
    let (out, result) = play_two(fen, &["h1h2"]);
    assert!(
        out.contains("Draw by the fifty-move rule.\nGame over."),
        "{out}"
    );
    assert_eq!(result, "1/2-1/2");
    // A mate delivered on the 100th halfmove is a mate.
    let mate = "7k/8/6K1/8/8/8/8/R7 w - - 99 80";
    let end = both_ways(&start_screen(mate, None).unwrap(), &["a1a8"]);
    assert_eq!(
        tail(&end),
        [
            "Black to move, in check. Castling: -. En passant: -. Halfmove clock: 100. Move: 80.",
            "Two players, no engine.",
            "You played a1a8 (Ra8#).",
            "Checkmate: white wins.",
            "Game over.",
        ]
    );
    let (_, result) = play_two(mate, &["a1a8"]);
    assert_eq!(result, "1-0");
    // Against the engine too.
    let end = both_ways(&start_screen(mate, Some(Color::Black)).unwrap(), &["a1a8"]);
    assert_eq!(
        tail(&end)[2..],
        [
            "You played a1a8 (Ra8#).",
            "Checkmate: you win.",
            "Game over."
        ]
    );
}

#[test]
fn insufficient_material_is_a_draw() {
    let end = both_ways(
        &start_screen("7k/8/8/8/8/8/3r4/4K3 w - - 0 1", None).unwrap(),
        &["e1d2"],
    );
    assert_eq!(
        tail(&end)[2..],
        [
            "You played e1d2 (Kxd2).",
            "Draw by insufficient material.",
            "Game over.",
        ]
    );
    let (out, result) = play_two("7k/8/8/8/8/8/3r4/4K3 w - - 0 1", &["e1d2", "h8g8"]);
    assert!(
        out.contains("Draw by insufficient material.\nGame over."),
        "{out}"
    );
    assert_eq!(result, "1/2-1/2");
    // K+B v K, K+N v K, same-coloured bishops: over at once; opposite
    // bishops and K+N v K+N play on.
    for (fen, over) in [
        ("8/8/8/4k3/8/8/8/3BK3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/3NK3 b - - 0 1", true),
        ("8/8/8/3bk3/8/8/8/3BK3 w - - 0 1", true),
        ("8/8/8/2b1k3/8/8/8/3BK3 w - - 0 1", false),
        ("8/8/8/3nk3/8/8/8/3NK3 w - - 0 1", false),
    ] {
        let (out, result) = play_two(fen, &[]);
        assert_eq!(
            out.contains("Draw by insufficient material."),
            over,
            "{fen}\n{out}"
        );
        assert_eq!(result, if over { "1/2-1/2" } else { "*" }, "{fen}");
    }
}

#[test]
fn a_finished_position_is_announced_at_once() {
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let end = both_ways(&start_screen(mated, Some(Color::Black)).unwrap(), &[]);
    assert_eq!(
        tail(&end)[3..],
        ["Checkmate: the engine wins.", "Game over."]
    );
    assert!(end.contains("White to move, in check."), "{end}");
    let (out, result) = play_two(mated, &[]);
    assert!(out.contains("Checkmate: black wins.\nGame over."), "{out}");
    assert_eq!(result, "0-1");
    let stalemate = "7k/5Q2/8/8/8/8/8/6K1 b - - 0 1";
    let (out, result) = play_two(stalemate, &[]);
    assert!(out.contains("Stalemate: draw.\nGame over."), "{out}");
    assert_eq!(result, "1/2-1/2");
    let fifty = "8/8/8/4k3/8/8/8/4K2R w K - 150 80";
    let (out, _) = play_two(fifty, &[]);
    assert!(
        out.contains("Draw by the fifty-move rule.\nGame over."),
        "{out}"
    );
    // The engine to move does not move in a finished position.
    let (ok, out, _) = play(
        &[
            "--ascii",
            "--engine-color",
            "white",
            "--fen",
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        ],
        "",
    );
    assert!(ok);
    assert!(!out.contains("The engine played"), "{out}");
    assert!(
        out.contains("Draw by insufficient material.\nGame over."),
        "{out}"
    );
}

#[test]
fn check_is_shown_and_both_moves_are_echoed_in_san() {
    // Two people: a check, then a mate.
    let end = both_ways(
        &start_screen(START_FEN, None).unwrap(),
        &["e2e4", "d7d6", "f1b5"],
    );
    assert_eq!(
        tail(&end)[..3],
        [
            "Black to move, in check. Castling: KQkq. En passant: -. Halfmove clock: 1. Move: 2.",
            "Two players, no engine.",
            "You played f1b5 (Bb5+).",
        ]
    );
    let end = both_ways(
        &start_screen(START_FEN, None).unwrap(),
        &["f2f3", "e7e5", "g2g4", "d8h4"],
    );
    assert_eq!(
        tail(&end),
        [
            "White to move, in check. Castling: KQkq. En passant: -. Halfmove clock: 1. Move: 3.",
            "Two players, no engine.",
            "You played d8h4 (Qh4#).",
            "Checkmate: black wins.",
            "Game over.",
        ]
    );
    // Against the engine: the person's check and the engine's reply, each
    // with coordinates and SAN; the engine's score says whose and in what.
    let end = both_ways(
        &start_screen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Some(Color::Black)).unwrap(),
        &["a1a8"],
    );
    let info = tail(&end)[2];
    assert!(
        info.starts_with("You played a1a8 (Ra8+). The engine played e8"),
        "{info}"
    );
    assert!(info.contains(" for black (pawns)."), "{info}");
    // The engine's check shows on the person's status line (its reply
    // mates: with the threat term it no longer prefers the plain check
    // Rb1+ to Ra8, which attacks the pawn, when f2 is free).
    let end = both_ways(
        &start_screen("1r4k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1", Some(Color::Black)).unwrap(),
        &["a2a3"],
    );
    assert!(
        tail(&end)[0].starts_with("White to move, in check.")
            || tail(&end)[3].starts_with("Checkmate"),
        "{end}"
    );
    assert!(tail(&end)[2].contains("(Rb1"), "{end}");
}

#[test]
fn clocks_up_to_two_to_the_32_minus_one_work() {
    // The largest fullmove number plays on and counts past it.
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 4294967295";
    let (out, _) = play_two(fen, &["e1d1", "e8d8"]);
    assert!(
        out.contains("Halfmove clock: 2. Move: 4294967296."),
        "{out}"
    );
    // The largest halfmove clock: the fifty-move rule, at once.
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 1";
    let (out, result) = play_two(fen, &[]);
    assert!(
        out.contains("Halfmove clock: 4294967295. Move: 1."),
        "{out}"
    );
    assert!(out.contains("Draw by the fifty-move rule."), "{out}");
    assert_eq!(result, "1/2-1/2");
    // 10^8 as the move number, against the engine: a normal game.
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 100000000";
    let (ok, out, _) = play(&["--ascii", "--fen", fen], "e1d1\n");
    assert!(ok);
    assert!(
        out.contains("You played e1d1 (Kd1). The engine played "),
        "{out}"
    );
    assert!(out.contains(". Move: 100000001."), "{out}");
    assert!(!out.contains('%') && !out.contains("#stack"), "{out}");
    // 2^32 is refused at the start, in either field.
    for (fen, field) in [
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 4294967296 1",
            "halfmove clock \"4294967296\"",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 4294967296",
            "fullmove number \"4294967296\"",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w K - -1 1", "halfmove clock \"-1\""),
    ] {
        let (ok, out, err) = play(&["--fen", fen], "");
        assert!(!ok, "{fen}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(
            err.trim_end(),
            format!("error: the --fen position: invalid FEN \"{fen}\": the {field} is not a number from 0 to 4294967295"),
        );
    }
}

#[test]
fn fen_is_read_leniently_and_illegal_positions_are_one_clear_error() {
    let cases = [
        (
            "r3k2r/8/8/8/8/8/8/R3K2r w KQkq - 0 1",
            "castling rights without their king and rook dropped (kept: Qkq)",
            "Castling: Qkq.",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K e6 0 1",
            "en passant square e6 dropped: no double push can have made it",
            "En passant: -.",
        ),
        ("8/8/8/8/8/8/8/KN5k w", "", "Halfmove clock: 0. Move: 1."),
        ("8/8/8/8/8/8/8/KN5k", "", "White to move."),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            "",
            "Castling: KQkq.",
        ),
    ];
    for (fen, warning, shown) in cases {
        let (ok, out, err) = play(&["--ascii", "--engine-color", "none", "--fen", fen], "");
        assert!(ok, "{fen}: {err}");
        assert!(out.contains(shown), "{fen}\n{out}");
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
        if warning.is_empty() {
            assert!(warnings.is_empty(), "{fen}: {err}");
        } else {
            assert_eq!(
                warnings,
                [format!("regex-chess: warning: {warning}")],
                "{fen}"
            );
        }
    }
    let long = format!("4k3/8/8/8/8/8/8/4K2R w K - 0 1 {}", "x".repeat(200));
    let refused = [
        (
            "8/8/8/8/8/8/8/8 w - - 0 1".to_string(),
            "error: the --fen position: illegal position \"8/8/8/8/8/8/8/8 w - - 0 1\": illegal position: empty board, missing king".to_string(),
        ),
        (
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1".to_string(),
            "error: the --fen position: illegal position \"P3k3/8/8/8/8/8/8/4K3 w - - 0 1\": illegal position: pawns on backrank".to_string(),
        ),
        (
            long.clone(),
            format!(
                "error: the --fen position: invalid FEN \"{}...\": invalid fen",
                &long[..100]
            ),
        ),
    ];
    for (fen, message) in refused {
        let (ok, out, err) = play(&["--fen", &fen], "");
        assert!(!ok, "{fen}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.trim_end(), message);
    }
}
