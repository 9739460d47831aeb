//! `match --versus-native` through the binary: two native searches
//! playing each other in the match's process at the regex program's
//! modeled time, their PGN replayed with shakmaty, and the combinations
//! self-play refuses. It shares `arena`'s helpers (running `match`,
//! reading its PGN and summary).

use super::{is_engine_note, read_pgn, refused, run, summary_line};

/// `--versus-native`: two native searches play each other in the match's
/// process, both on one clock at the regex program's modeled time, in
/// pairs, two games at a time, until the test decides. Every move of both
/// sides is legal (the PGN is replayed with shakmaty) and carries its
/// engine's note; the sides are named apart.
#[test]
fn native_self_play_plays_legal_moves_on_both_sides_and_decides() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--native",
        "threats",
        "--versus-native",
        "quiescent",
        "--regex-time",
        "--tc",
        "10+0.1",
        "--depth",
        "3",
        "--max-plies",
        "24",
        "--sprt",
        "0,200",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    let ours =
        "native reference (up to 3 plies, Threats, 10+0.1 at the regex program's modeled time)";
    let theirs =
        "native reference (up to 3 plies, Quiescent, 10+0.1 at the regex program's modeled time)";
    assert!(
        summary_line(&out, "games:").starts_with(&format!("8 ({ours} vs {theirs})")),
        "{out}"
    );
    assert!(summary_line(&out, "sprt:").contains("[0, 200]"), "{out}");
    assert!(
        summary_line(&out, "pairs:").starts_with("4 (0, 1/2, 1, 3/2, 2 points:"),
        "{out}"
    );
    assert_eq!(
        summary_line(&out, "time losses:"),
        "ours 0, the opponent's 0"
    );
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 8);
    for game in &games {
        let round: usize = game.tags["Round"].parse().unwrap();
        let (white, black) = if round % 2 == 1 {
            (ours, theirs)
        } else {
            (theirs, ours)
        };
        assert_eq!((&*game.tags["White"], &*game.tags["Black"]), (white, black));
        assert_eq!(game.tags["TimeControl"], "10+0.1");
        assert!(game.plies > 8, "round {round}: {} plies", game.plies);
        // After the book, each side's every move has its score, depth and
        // modeled time.
        let thought: Vec<&Option<String>> = game
            .notes
            .iter()
            .filter(|n| n.as_deref() != Some("book"))
            .collect();
        assert!(!thought.is_empty());
        for note in thought {
            let note = note.as_deref().unwrap_or_default();
            assert!(
                (2..=3).any(|d| is_engine_note(note, d)),
                "round {round}: {note}"
            );
        }
    }
}

/// `--select`: our native search with a selective rule against the
/// exact one, both named with their rules, at a fixed depth (no clock).
#[test]
fn a_selective_search_plays_the_exact_one() {
    let (ok, out, err) = run(&[
        "--native",
        "threats",
        "--select",
        "lmp:3,probcut:5",
        "--versus-native",
        "threats",
        "--depth",
        "3",
        "--max-plies",
        "16",
        "--games",
        "2",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        summary_line(&out, "games:").starts_with(
            "2 (native reference (depth 3, Threats, select probcut:5,lmp:3) vs native reference (depth 3, Threats))"
        ),
        "{out}"
    );
}

#[test]
fn native_self_play_is_checked() {
    for (args, says) in [
        (
            &["--versus-native", "threats"][..],
            "--versus-native plays the native reference against itself: give our engine with --native",
        ),
        (
            &["--native", "threats", "--versus-native", "threats"][..],
            "--native threats --versus-native threats: the same search on both sides",
        ),
        (
            &["--native", "threats", "--versus-native", "green"][..],
            "--versus-native: no leaves named \"green\"",
        ),
        (
            &[
                "--native",
                "threats",
                "--versus-native",
                "static",
                "--movetime",
                "50",
            ][..],
            "--movetime does not go with it",
        ),
        (
            &[
                "--native",
                "threats",
                "--versus-native",
                "static",
                "--option",
                "Hash=1",
            ][..],
            "--option sets a UCI opponent's option",
        ),
        (
            &[
                "--native",
                "threats",
                "--versus-native",
                "static",
                "--opponent",
                "/nonexistent/engine",
            ][..],
            "--opponent and --versus-native both name the opponent",
        ),
        (
            &["--native", "threats"][..],
            "no opponent: give --opponent CMD (a UCI engine) or --versus-native LEAVES",
        ),
        (
            &["--native", "threats", "--versus-native", "static", "--select", "lmp:0"][..],
            "--select: no selective rule \"lmp:0\": use RULE:N",
        ),
        (
            &["--native", "threats", "--versus-native", "static", "--versus-select", "fast:1"][..],
            "--versus-select: no selective rule \"fast:1\"",
        ),
        (
            &["--opponent", "/nonexistent/engine", "--select", "probcut:5"][..],
            "the regex program has lmp:K only",
        ),
        (
            &[
                "--native",
                "threats",
                "--select",
                "lmp:6",
                "--versus-native",
                "threats",
                "--versus-select",
                "lmp:6",
            ][..],
            "the same search on both sides",
        ),
    ] {
        let err = refused(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `--book`: the native side answers a book position from the book (no
/// ply searched: `depth reached` counts it at 0, its note says `/0`) and
/// is named with it; `--versus-book` needs a native opponent.
#[test]
fn a_native_side_with_the_book_answers_its_first_moves_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "e2e4 e7e5\n").unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--native",
        "threats",
        "--book",
        "--versus-native",
        "threats",
        "--regex-time",
        "--tc",
        "10+0.1",
        "--depth",
        "3",
        "--max-plies",
        "12",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        summary_line(&out, "games:").contains("Threats, book, 10+0.1"),
        "{out}"
    );
    assert!(
        summary_line(&out, "depth reached:").starts_with("0: "),
        "{out}"
    );
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    // Round 1: ours is white, its first move is the book's after 1. e4 e5.
    let first = games[0].notes.iter().flatten().find(|n| *n != "book");
    assert!(
        first.is_some_and(|n| n.contains("/0 ")),
        "{:?}",
        games[0].notes
    );
    let err = refused(&["--opponent", "sf", "--versus-book"]);
    assert!(err.contains("--versus-book"), "{err}");
}
