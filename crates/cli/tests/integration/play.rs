//! Scripted games through the binary: `printf '...' | regex-chess play`.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{bin, feed, missing, python_chess, texts, BIN};

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    play_bytes(args, input.as_bytes())
}

fn play_bytes(args: &[&str], input: &[u8]) -> (bool, String, String) {
    // The fast mode: these tests are about the game, not the search.
    let mut all = vec!["--depth", "2"];
    all.extend_from_slice(args);
    play_as(&all, input)
}

/// `play` with exactly `args`, `input` on its standard input.
fn play_as(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut cmd = bin();
    cmd.arg("play").args(args);
    texts(&feed(cmd, input))
}

#[test]
fn scripted_game_with_quit() {
    let (ok, out, _) = play(&[], "e2e4\nquit\n");
    assert!(ok);
    assert!(out.contains("Your move: e2e4"), "{out}");
    assert!(
        out.contains("You played e2e4 (e4). The engine played "),
        "{out}"
    );
    assert!(out.contains("(engine reply: "), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
    // Unicode pieces by default, plain letters with --ascii.
    assert!(out.contains('♜'));
    let (_, out, _) = play(&["--ascii"], "quit\n");
    assert!(out.contains("8 r n b q k b n r 8"), "{out}");
}

#[test]
fn bad_lines_do_not_end_the_game() {
    let long = "y".repeat(10_000);
    let input = format!("e9e4\nhello\n\ne2e5\n{long}\n50%\n#\n`\nè\nhelp\ne2e4\nquit\n");
    let (ok, out, _) = play(&["--ascii"], &input);
    assert!(ok);
    for reason in [
        "No such square or piece",
        "Not a move.",
        "Type a move, like e2e4.",
        "e2e5 is not a legal move here.",
        "That line is too long to be a move.",
        "That line has characters no move has.",
        "Promotions add the piece",
    ] {
        assert!(out.contains(reason), "missing {reason:?} in\n{out}");
    }
    assert!(out.contains("You played e2e4 (e4)."), "{out}");
    // The board was shown unchanged after each bad line.
    assert_eq!(out.matches("8 r n b q k b n r 8").count(), 10, "{out}");
}

#[test]
fn checkmate_ends_the_game_with_the_engine_on_either_side() {
    let mate = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let (ok, out, _) = play(
        &["--fen", mate, "--engine-color", "black", "--ascii"],
        "a1a8\n",
    );
    assert!(ok);
    assert!(out.contains("Checkmate: you win."), "{out}");
    assert!(out.trim_end().ends_with("Game over."), "{out}");
    let (ok, out, _) = play(&["--fen", mate, "--engine-color", "white", "--ascii"], "");
    assert!(ok);
    assert!(out.contains("The engine played a1a8 (Ra8#)"), "{out}");
    assert!(out.contains("Checkmate: the engine wins."), "{out}");
    assert!(out.trim_end().ends_with("Game over."), "{out}");
}

#[test]
fn stalemate_and_underpromotion() {
    let (ok, out, _) = play(
        &["--fen", "7k/8/4Q3/8/8/8/8/6K1 w - - 0 1", "--ascii"],
        "e6f7\n",
    );
    assert!(ok);
    assert!(out.contains("Stalemate: draw."), "{out}");
    assert!(out.trim_end().ends_with("Game over."), "{out}");
    let (ok, out, _) = play(
        &["--fen", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "--ascii"],
        "a7a8n\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("8 N . . . . . "), "{out}");
}

#[test]
fn invalid_fen_is_an_error_not_a_panic() {
    let (ok, _, err) = play(&["--fen", "nonsense"], "");
    assert!(!ok);
    assert!(
        err.contains("error: the --fen position: invalid FEN \"nonsense\""),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn dump_writes_json_and_js() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["turn.json", "turn.js"] {
        let path = dir.path().join(name);
        let out = bin().arg("dump").arg(&path).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(" rewrites, ") && text.contains(" distinct patterns, "),
            "{text}"
        );
        let file = std::fs::read_to_string(&path).unwrap();
        if name.ends_with(".js") {
            assert!(file.starts_with("export const rewrites = ["));
        } else {
            let loaded = regex_vm::format::from_json(&file).unwrap();
            assert!(loaded.len() > 1000);
            assert_eq!(loaded.rewrites()[0].pattern, "^$");
        }
    }
}

#[test]
fn san_input_and_pgn_record() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let (ok, out, _) = play(
        &["--ascii", "--pgn", pgn.to_str().unwrap()],
        "e4\nNf3\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("You played e2e4 (e4)."), "{out}");
    assert!(out.contains("You played g1f3 (Nf3)."), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[White \"You\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.contains("\n1. e4 "), "{text}");
    assert!(text.contains(" 2. Nf3 "), "{text}");
    assert!(text.trim_end().ends_with('*'), "{text}");

    // A finished game: SAN with a mate sign, result 1-0.
    let pgn = dir.path().join("mate.pgn");
    let mate = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let (ok, out, _) = play(
        &["--ascii", "--fen", mate, "--pgn", pgn.to_str().unwrap()],
        "Ra8#\n",
    );
    assert!(ok);
    assert!(out.contains("Checkmate: you win."), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"]"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("1. Ra8# 1-0"), "{text}");
}

#[test]
fn invalid_utf8_line_asks_again_and_the_game_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let (ok, out, err) = play_bytes(
        &["--ascii", "--pgn", pgn.to_str().unwrap()],
        b"e2e4\n\xff\nd2d4\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("Not read: that line is not UTF-8 text. Type it again."),
        "{out}"
    );
    assert!(out.contains("You played d2d4 (d4)."), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("\n1. e4 ") && text.contains(" 2. d4 "),
        "{text}"
    );
}

#[test]
fn bad_pgn_paths_are_refused_before_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("old.pgn");
    std::fs::write(&existing, "[Event \"old\"]\n\n1. d4 *\n").unwrap();
    let missing_dir = dir.path().join("no/such/dir/x.pgn");
    for (path, reason) in [
        (missing_dir.to_str().unwrap(), "cannot write --pgn"),
        (dir.path().to_str().unwrap(), "is a directory"),
        ("/dev/full", "is not a regular file"),
        (existing.to_str().unwrap(), "already exists; add --append"),
    ] {
        let (ok, out, err) = play(&["--ascii", "--pgn", path], "e2e4\nquit\n");
        assert!(!ok, "{path}: {out}");
        assert!(!out.contains("You played"), "{path}: {out}");
        assert!(err.contains(reason), "{path}: {err}");
    }
    assert!(!missing_dir.exists());
    // --append adds the game after what the file held.
    let (ok, _, err) = play(
        &["--ascii", "--pgn", existing.to_str().unwrap(), "--append"],
        "e2e4\nquit\n",
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&existing).unwrap();
    assert!(
        text.starts_with("[Event \"old\"]\n\n1. d4 *\n\n[Event \"regex-chess game\"]"),
        "{text}"
    );
    assert!(text.contains("\n1. e4 "), "{text}");
}

#[test]
fn closed_stdout_ends_quietly_with_the_pgn_saved() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'e2e4\\nd2d4\\ng1f3\\n' | '{}' play --ascii --pgn '{}' | head -3",
            BIN,
            pgn.display()
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("error"),
        "{stderr}"
    );
    assert!(stderr.contains("game saved to"), "{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Result \"*\"]"), "{text}");

    // A full stdout: an error, and still the file.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let pgn = dir.path().join("full.pgn");
    let mut child = bin()
        .args([
            "play",
            "--depth",
            "2",
            "--ascii",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"e2e4\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(std::fs::read_to_string(&pgn).unwrap().contains("[Result "));
}

#[test]
fn front_end_commands() {
    let (ok, out, _) = play(
        &["--ascii"],
        "help\ne2e4\nmoves\nfen\nhint\nundo\nmoves\nundo\nflip\nnew\nresign\n",
    );
    assert!(ok);
    for word in [
        "undo", "new", "resign", "hint", "moves", "fen", "flip", "quit",
    ] {
        assert!(
            out.contains(&format!("\n  {word} ")),
            "help lacks {word}:\n{out}"
        );
    }
    let after_move = out.split("Your move: moves\n").nth(1).unwrap();
    assert!(after_move.starts_with("1. e4 "), "{after_move}");
    let fen = out.split("Your move: fen\n").nth(1).unwrap();
    assert!(
        fen.starts_with("r") && fen.lines().next().unwrap().ends_with(" w KQkq - 1 2"),
        "{fen}"
    );
    let hint = out.split("Your move: hint\n").nth(1).unwrap();
    assert!(hint.starts_with("Hint: "), "{hint}");
    assert!(out.contains("Your move: undo\nTaken back.\n"), "{out}");
    assert!(out.contains("Your move: moves\nNo moves yet.\n"), "{out}");
    assert!(
        out.contains("Your move: undo\nNothing to take back.\n"),
        "{out}"
    );
    let flipped = out.split("Your move: flip\n").nth(1).unwrap();
    assert!(
        flipped.starts_with("  h g f e d c b a\n1 R N B K Q B N R 1\n"),
        "{flipped}"
    );
    assert!(out.contains("Your move: new\nNew game.\n"), "{out}");
    assert!(
        out.contains("You resign; the engine wins.\nGame over."),
        "{out}"
    );
}

/// The screen between "Your move: {mv}" and the next prompt, without the
/// engine's time.
fn screen_after<'o>(out: &'o str, mv: &str) -> &'o str {
    let after = out.split(&format!("Your move: {mv}\n")).nth(1).unwrap();
    let screen = after.split("Your move: ").next().unwrap();
    screen.split("(engine reply: ").next().unwrap()
}

/// A mistyped move, then a legal one, then `undo`: the screen is the one
/// before the legal move (its position and last moves), without the
/// mistyped move's error line; at the start and after a move.
#[test]
fn undo_shows_the_screen_before_the_move_without_an_earlier_error() {
    let (ok, out, _) = play(&["--ascii"], "e2e5\ne2e4\nundo\nquit\n");
    assert!(ok);
    let first = out.split("Your move: e2e5\n").next().unwrap();
    let undone = screen_after(&out, "undo")
        .strip_prefix("Taken back.\n")
        .unwrap();
    assert_eq!(undone, first, "{out}");
    assert!(!undone.contains("not a legal move"), "{undone}");

    let (ok, out, _) = play(&["--ascii"], "e2e4\na1a5\nd2d4\nundo\nquit\n");
    assert!(ok);
    let after_e4 = screen_after(&out, "e2e4");
    assert!(
        after_e4.contains("You played e2e4 (e4). The engine played "),
        "{out}"
    );
    assert!(
        screen_after(&out, "a1a5").contains("a1a5 is not a legal move here."),
        "{out}"
    );
    let undone = screen_after(&out, "undo")
        .strip_prefix("Taken back.\n")
        .unwrap();
    assert_eq!(undone, after_e4, "{out}");
}

#[test]
fn board_is_drawn_from_the_persons_side() {
    // The engine (white) has moved first; black is at the bottom.
    let (_, out, _) = play(&["--ascii", "--engine-color", "white"], "quit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "  h g f e d c b a", "{out}");
    assert_eq!(lines[8], "8 r n b k q b n r 8", "{out}");
    let (_, out, _) = play(&["--ascii", "--engine-color", "white", "--flip"], "quit\n");
    assert!(
        out.starts_with("  a b c d e f g h\n8 r n b q k b n r 8\n"),
        "{out}"
    );
}

#[test]
fn lenient_moves_illegal_and_ambiguous_san() {
    let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    let (ok, out, _) = play(
        &["--ascii", "--engine-color", "none", "--fen", knights],
        "Nd2\nKd3\nNbd2\nKE7\nf3-e5\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("Nd2 is ambiguous: Nbd2, Nfd2."), "{out}");
    assert!(out.contains("Kd3 is not a legal move here."), "{out}");
    assert!(out.contains("You played b1d2 (Nbd2)."), "{out}");
    assert!(out.contains("e8e7 (Ke7)."), "{out}");
    assert!(out.contains("f3e5 (Ne5)."), "{out}");
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (_, out, _) = play(
        &["--ascii", "--engine-color", "none", "--fen", castle],
        "0-0\no-o-o\nquit\n",
    );
    assert!(
        out.contains("e1g1 (O-O") && out.contains("e8c8 (O-O-O"),
        "{out}"
    );
    let promo = "8/P6k/8/8/8/8/6K1/8 w - - 0 1";
    let (_, out, _) = play(&["--ascii", "--fen", promo], "a8\nquit\n");
    assert!(out.contains("You played a7a8q (a8=Q"), "{out}");
    let (_, out, _) = play(&["--ascii", "--fen", promo], "A7A8=N\nquit\n");
    assert!(out.contains("You played a7a8n (a8=N"), "{out}");
}

#[test]
fn play_options_without_the_word_play() {
    let mut child = bin()
        .args(["--ascii", "--engine-color", "none"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("8 r n b q k b n r 8") && text.contains("Two players"),
        "{text}"
    );
}

#[test]
fn saved_game_loads_and_fen_tag_is_normalised() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.pgn");
    let lenient = "  8/P6k/8/8/8/8/6K1/8   w - - 0 1 ";
    let (ok, _, err) = play(
        &[
            "--ascii",
            "--engine-color",
            "none",
            "--fen",
            lenient,
            "--pgn",
            first.to_str().unwrap(),
        ],
        "a8=Q\nh7h6\nquit\n",
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(
        text.contains("[FEN \"8/P6k/8/8/8/8/6K1/8 w - - 0 1\"]"),
        "{text}"
    );
    python_chess_reads(&first, "Q7/8/7k/8/8/8/6K1/8 w - - 1 2");
    let (ok, out, err) = play(
        &[
            "--ascii",
            "--engine-color",
            "none",
            "--load",
            first.to_str().unwrap(),
        ],
        "moves\nfen\nundo\nfen\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Your move: moves\n1. a8=Q Kh6\n"), "{out}");
    assert!(
        out.contains("Your move: fen\nQ7/8/7k/8/8/8/6K1/8 w - - 1 2\n"),
        "{out}"
    );
    assert!(
        out.contains("Your move: fen\nQ7/7k/8/8/8/8/6K1/8 b - - 0 1\n"),
        "{out}"
    );
}

/// python-chess reads the PGN file without errors and ends at `fen`
/// (skipped outside CI when python-chess is missing; `.ci/run` installs it).
fn python_chess_reads(pgn: &std::path::Path, fen: &str) {
    let script = "import sys, chess.pgn\n\
                  g = chess.pgn.read_game(open(sys.argv[1]))\n\
                  assert not g.errors, g.errors\n\
                  print(g.end().board().fen())\n";
    if !python_chess() {
        missing(
            "python-chess",
            "python-chess's reading of the PGN (python3 -m pip install chess)",
        );
        return;
    }
    let out = Command::new("python3")
        .args(["-I", "-c", script])
        .arg(pgn)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), fen);
}

#[test]
fn input_that_keeps_failing_ends_the_game_with_it_saved() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    // A directory as standard input: every read fails.
    let out = bin()
        .args([
            "play",
            "--depth",
            "2",
            "--ascii",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches("Type it again.").count(), 2, "{stdout}");
    assert!(stdout.trim_end().ends_with("Stopping."), "{stdout}");
    assert!(std::fs::read_to_string(&pgn)
        .unwrap()
        .contains("[Result \"*\"]"));
}

/// `play` at a terminal: `play_pty.py` runs the binary under a
/// pseudo-terminal (python3's standard `pty` module), types a move with a
/// line-editing key, sees the engine's reply, takes it back with `undo`
/// and ends with `quit`. Skipped when python3 is missing outside CI; under
/// `CI=true` a missing python3 fails.
#[test]
fn terminal_play_edits_lines_undoes_and_quits() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/play_pty.py");
    let out = match Command::new("python3")
        .arg("-I")
        .arg(script)
        .arg(BIN)
        .current_dir(std::env::temp_dir())
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            missing("python3", &format!("the terminal session ({e})"));
            return;
        }
    };
    let transcript = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{transcript}\n{err}");
    // The order of these is checked by the driver; here, that they came
    // from the terminal session.
    for text in [
        "You played e2e4 (e4). The engine played ",
        "Taken back.",
        "Nothing to take back.",
        "Bye.",
    ] {
        assert!(transcript.contains(text), "{text:?} in\n{transcript}");
    }
}

/// The screen the engine left after `e2e4` (the lines from the board
/// after the move up to the next prompt) and its time line.
fn reply_to_e4(args: &[&str]) -> (String, String) {
    let mut all = vec!["--ascii"];
    all.extend_from_slice(args);
    let (ok, text, err) = play_as(&all, b"e2e4\nquit\n");
    assert!(ok, "{err}");
    let after = text.split("Your move: e2e4\n").nth(1).unwrap();
    let (screen, rest) = after.split_once("\n(engine reply: ").unwrap();
    let time = rest.lines().next().unwrap().to_string();
    (screen.to_string(), time)
}

/// `--movetime`: the engine deepens within the time and shows the screen
/// of a depth that finished, the one a fixed search of that depth shows.
#[test]
fn movetime_answers_in_time_with_a_finished_depth() {
    let (screen, time) = reply_to_e4(&["--movetime", "300"]);
    // "N ms, depth D)"
    let (ms, depth) = time
        .strip_suffix(')')
        .and_then(|t| t.split_once(" ms, depth "))
        .unwrap_or_else(|| panic!("{time}"));
    let ms: u64 = ms.parse().unwrap();
    // The stop comes between rewrites: a generous margin for a test
    // build on a busy machine.
    assert!(ms < 300 + 500, "{time}");
    assert!(["2", "3", "5"].contains(&depth), "{time}");
    let (fixed, _) = reply_to_e4(&["--depth", depth]);
    assert_eq!(screen, fixed, "depth {depth}");
}
