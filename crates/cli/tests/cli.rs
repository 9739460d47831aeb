//! The binary as a user runs it.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn moves_lists_sorted_uci_moves() {
    let (ok, out, _) = run(&["moves"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"e2e4") && lines.contains(&"g1f3"));
}

#[test]
fn moves_with_fen_and_promotions() {
    let (ok, out, _) = run(&[
        "moves",
        "--fen",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "--with-fen",
    ]);
    assert!(ok);
    assert!(
        out.contains("a7a8q Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"),
        "{out}"
    );
    assert!(
        out.contains("a7a8n N3k3/8/8/8/8/8/8/4K3 b - - 0 1"),
        "{out}"
    );
}

#[test]
fn perft_prints_the_count() {
    let (ok, out, _) = run(&["perft", "--depth", "2"]);
    assert!(ok);
    assert!(out.starts_with("perft(2) = 400\n"), "{out}");
    assert!(out.contains("time:"));
}

#[test]
fn invalid_fen_is_a_clear_error() {
    let (ok, out, err) = run(&["moves", "--fen", "not a fen"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(
        err.starts_with("error: the --fen position: invalid FEN \"not a fen\""),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}
