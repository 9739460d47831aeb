//! The binary as a user runs it.

use chess::codec::START_FEN;
use std::process::Command;

use crate::common::{bin, run, BIN};

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

/// Runs the binary with its stdout on `stdout`; (success, stderr).
fn run_into(args: &[&str], stdout: std::process::Stdio) -> (Option<i32>, String) {
    let out = bin()
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_ends_quietly() {
    // `regex-chess moves | head -1`: the reader goes away after a line.
    let mut child = bin()
        .args(["moves", "--with-fen"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waits");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    // Through a shell pipe as a person types it.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' moves | head -1", BIN))
        .output()
        .expect("sh runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn full_stdout_is_an_error_not_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let (code, err) = run_into(&["moves"], full.into());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("error: writing standard output: No space left"),
        "{err}"
    );
}

#[test]
fn perft_divide_lists_each_move() {
    let (ok, out, _) = run(&["perft", "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "a2a3: 20");
    assert!(lines.contains(&"g1f3: 20"), "{out}");
    assert_eq!(lines[20], "perft(2) = 400", "{out}");
    let (ok, out, _) = run(&[
        "perft",
        "--depth",
        "2",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(ok);
    assert!(out.starts_with("perft(2) = 2039\n"), "{out}");
}

#[test]
fn reply_scores_from_the_movers_view() {
    let (ok, out, _) = run(&["reply"]);
    assert!(ok);
    let words: Vec<&str> = out.split_whitespace().collect();
    assert!(
        matches!(words[..], [_, "cp", n] if n.parse::<i64>().is_ok()),
        "{out}"
    );
    // White mates in one.
    let (_, out, _) = run(&[
        "reply",
        "--depth",
        "2",
        "--fen",
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
    ]);
    assert_eq!(out, "h5f7 mate 1\n");
    let (ok, out, _) = run(&[
        "reply",
        "--fen",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ]);
    assert!(ok);
    assert_eq!(out, "none: checkmate\n");
    let (_, out, _) = run(&["reply", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(out, "none: stalemate\n");
}

#[test]
fn dump_refuses_an_unknown_extension() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("program.txt");
    let (ok, _, err) = run(&["dump", txt.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("unknown extension"), "{err}");
    assert!(!txt.exists());
}

#[test]
fn errors_quote_little_of_a_huge_input_and_escape_controls() {
    let fen = format!("\u{1}{}", "x".repeat(100_000));
    let (ok, _, err) = run(&["moves", "--fen", &fen]);
    assert!(!ok);
    assert!(err.len() < 600, "{} bytes: {}", err.len(), &err[..600]);
    assert!(err.contains("\\u{1}xxx") && err.contains("...\""), "{err}");
    assert!(!err.contains('\u{1}'));
}

#[test]
fn bench_refuses_a_turn_that_is_not_a_proper_move() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.epd");
    std::fs::write(&suite, format!("{START_FEN} ;move e2e5 ;id bad\n")).unwrap();
    let (ok, out, err) = run(&[
        "bench",
        "--runs",
        "1",
        "--positions",
        suite.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("turn bad: \"e2e5\" is not a legal move of its position"),
        "{err}"
    );
}

/// The `held: at most N positions` figure of a perft run.
fn perft_held(args: &[&str]) -> (u64, usize) {
    let mut all = vec!["perft"];
    all.extend(args);
    let (ok, out, err) = run(&all);
    assert!(ok, "{err}");
    let count = out
        .lines()
        .find_map(|l| l.strip_prefix("perft(")?.split(" = ").nth(1)?.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    let held = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("held: at most ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("{out}"));
    (count, held)
}

#[test]
fn perft_holds_a_bounded_number_of_positions() {
    // One position per VM run: the walk holds at most the children of one
    // position per ply (20 + 20 + the root at depth 3), where a walk ply by
    // ply would hold the 400 positions of ply 2. Same count either way.
    let (count, held) = perft_held(&["--depth", "3", "--batch", "1"]);
    assert_eq!(count, 8902);
    assert!(held <= 1 + 20 + 30, "held {held}");
    let (count, held) = perft_held(&["--depth", "3", "--batch", "1", "--divide"]);
    assert_eq!(count, 8902);
    assert!(held <= 20 + 30, "held {held}");
    // The default batch holds at most one batch's children per ply.
    let (count, held) = perft_held(&["--depth", "2"]);
    assert_eq!((count, held), (400, 21));
}

/// Runs the binary with `args` twice with its reader gone: once with its
/// standard output closed before it writes anything (a broken pipe for
/// certain), once as `| head -1` in a shell; both must end with status 0
/// and no panic.
fn ends_quietly_when_stdout_closes(args: &[&str]) {
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waits");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("error"), "{args:?}: {err}");
    let quoted: Vec<String> = std::iter::once(BIN)
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{} | head -1; exit ${{PIPESTATUS[0]}}",
            quoted.join(" ")
        ))
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?} | head -1: {err}");
    assert!(!err.contains("panicked"), "{args:?} | head -1: {err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}

#[test]
fn bench_ends_quietly_when_stdout_closes() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.epd");
    std::fs::write(&suite, format!("{START_FEN} ;move e2e4 ;id one\n")).unwrap();
    let suite = suite.to_str().unwrap();
    let table = ["bench", "--runs", "1", "--depth", "2", "--positions", suite];
    ends_quietly_when_stdout_closes(&table);
    let json = [
        "bench",
        "--runs",
        "1",
        "--depth",
        "2",
        "--json",
        "--positions",
        suite,
    ];
    ends_quietly_when_stdout_closes(&json);
}

#[test]
fn fuzz_ends_quietly_when_stdout_closes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = [
        "fuzz",
        "--games",
        "1",
        "--max-plies",
        "6",
        "--reply-every",
        "0",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    ends_quietly_when_stdout_closes(&args);
}

/// `book` writes a book that `chess::book` reads: the start position
/// first, then the first moves' positions, each with a legal move; a
/// FEN other than the start's is refused as an opening.
#[test]
fn book_writes_a_book_that_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("book.txt");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, format!("{START_FEN}\ne2e4 e7e5\n")).unwrap();
    let (ok, out, err) = run(&[
        "book",
        "--plan",
        "2,3",
        "--deep-plies",
        "0",
        "--later-plan",
        "2,2",
        "--line",
        "0",
        "--max",
        "3",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("3 positions"), "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    let book = chess::book::Book::parse(&text).unwrap();
    assert_eq!(book.entries.len(), 3);
    assert!(book.entries[0].moves.is_empty());
    assert_eq!(book.entries[1].moves.len(), 1);
    std::fs::write(&openings, "8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap();
    let (ok, _, err) = run(&[
        "book",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("moves from the start position"),
        "{err}"
    );
}

/// `--late-moves K` takes 0 to 64 and only our style of the turn
/// program; at depth 4 with `lmp:1` `reply` answers what the reply
/// program of that variant answers (`chess::search_variant`), a position
/// where the rule changes depth 4's score.
#[test]
fn late_moves_is_checked_and_reaches_the_search() {
    let (ok, _, err) = run(&["reply", "--late-moves", "65"]);
    assert!(!ok);
    assert!(err.contains("0 (off) to 64"), "{err}");
    let (ok, _, err) = run(&["dump", "x.json", "--style", "stack", "--late-moves", "8"]);
    assert!(!ok);
    assert!(err.contains("--late-moves is the turn program's"), "{err}");
    let fen = "rnb1k2r/p2p2pp/4pq1n/2p1b3/2p4P/4P3/PPPPKPP1/RNB3NR w kq - 0 11";
    let variant = chess::Variant::of_late(Some(1));
    let (mv, score) = chess::search_variant(fen, &[], chess::Depth::new(4).unwrap(), variant)
        .unwrap()
        .best
        .unwrap();
    let (ok, out, err) = run(&["reply", "--depth", "4", "--late-moves", "1", "--fen", fen]);
    assert!(ok, "{err}");
    let said = out.split_whitespace().collect::<Vec<_>>();
    assert_eq!(said.first(), Some(&mv.as_str()), "{out}");
    assert_eq!(said.get(1), Some(&"cp"), "{out}");
    let exact = chess::search(fen, &[], chess::Depth::new(4).unwrap())
        .unwrap()
        .best
        .unwrap();
    assert_ne!(exact.1, score, "lmp:1 changes depth 4's score here");
}
