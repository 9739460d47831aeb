//! Scripted games through the binary: `printf '...' | regex-chess play`.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
        let out = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
            .arg("dump")
            .arg(&path)
            .output()
            .unwrap();
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
