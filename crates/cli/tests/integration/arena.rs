//! `regex-chess match` through the binary: a two-game smoke match against
//! Stockfish whose PGN is read back with shakmaty and checked against the
//! summary, and the errors a user can meet (bad command, a crashing or
//! cheating opponent, a missing option, a bad openings file, a depth that
//! does not exist).
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use chess::codec::START_FEN;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::common::{missing, stockfish};

mod self_play;

fn run(args: &[&str]) -> (bool, String, String) {
    crate::common::run(&[&["match"], args].concat())
}

/// Runs `match` with `args`, checks that it fails, and gives its stderr.
fn refused(args: &[&str]) -> String {
    let (ok, _, err) = run(args);
    assert!(!ok, "accepted: {args:?}");
    err
}

/// One game read back from the PGN.
struct Game {
    tags: HashMap<String, String>,
    /// Comments in the movetext.
    comments: Vec<String>,
    /// Per move, the first comment after it, if any.
    notes: Vec<Option<String>>,
    /// The position after the last move.
    end: Chess,
    plies: usize,
    result: String,
}

/// Reads a PGN as `match` writes it, playing every SAN move with shakmaty
/// (panicking on an illegal one).
fn read_pgn(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut lines = text.lines().peekable();
    while lines.peek().is_some() {
        let mut tags = HashMap::new();
        while let Some(line) = lines.next_if(|l| l.starts_with('[')) {
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (key, value) = inner.split_once(' ').expect("a tag has a value");
            tags.insert(key.to_string(), value.trim_matches('"').to_string());
        }
        let mut movetext = String::new();
        for line in lines.by_ref() {
            if line.is_empty() && !movetext.is_empty() {
                break;
            }
            movetext.push_str(line);
            movetext.push(' ');
        }
        while lines.next_if(|l| l.is_empty()).is_some() {}
        if tags.is_empty() {
            continue;
        }
        let mut pos: Chess = match tags.get("FEN") {
            Some(fen) => fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap(),
            None => Chess::default(),
        };
        let mut comments = Vec::new();
        let mut notes: Vec<Option<String>> = Vec::new();
        let mut rest = movetext.as_str();
        let mut plies = 0;
        let mut result = String::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix('{') {
                let (comment, tail) = after.split_once('}').expect("a closed comment");
                comments.push(comment.to_string());
                if let Some(note @ None) = notes.last_mut() {
                    *note = Some(comment.to_string());
                }
                rest = tail;
                continue;
            }
            let (token, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            rest = tail;
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                result = token.to_string();
            } else if token.ends_with('.') {
                assert!(
                    token.trim_end_matches('.').parse::<u32>().is_ok(),
                    "{token}"
                );
            } else {
                let san: SanPlus = token.parse().unwrap_or_else(|_| panic!("SAN {token}"));
                let m = san
                    .san
                    .to_move(&pos)
                    .unwrap_or_else(|e| panic!("{token} is illegal: {e}"));
                let played = SanPlus::from_move_and_play_unchecked(&mut pos, m);
                assert_eq!(played.to_string(), token, "check marks agree");
                plies += 1;
                notes.push(None);
            }
        }
        games.push(Game {
            tags,
            comments,
            notes,
            end: pos,
            plies,
            result,
        });
    }
    games
}

/// `1.234s`: seconds with three decimals.
fn is_seconds(text: &str) -> bool {
    text.strip_suffix('s')
        .and_then(|t| t.split_once('.'))
        .is_some_and(|(s, ms)| {
            !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && ms.len() == 3
                && ms.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Our engine's note at `depth` (`+0.35/2 0.012s`, `-M2/2 0.003s`), up
/// to the allowed-mate comment that may follow it.
fn is_engine_note(text: &str, depth: u32) -> bool {
    let text = text.split(';').next().unwrap_or_default();
    let Some((score, rest)) = text.split_once('/') else {
        return false;
    };
    let Some((plies, time)) = rest.split_once(' ') else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let score_ok = match score.strip_prefix(['+', '-']) {
        Some(mate) if mate.starts_with('M') => digits(&mate[1..]),
        Some(pawns) => pawns
            .split_once('.')
            .is_some_and(|(p, c)| digits(p) && c.len() == 2 && digits(c)),
        None => false,
    };
    score_ok && plies == depth.to_string() && is_seconds(time)
}

/// The number after `label` on the summary line starting with it.
fn summary_line<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} line in {out}"))
        .trim()
}

#[test]
fn two_games_against_stockfish_agree_with_their_pgn() {
    let Some(stockfish) = stockfish() else {
        missing(
            "stockfish",
            "the match against it (apt-get install stockfish)",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--opponent",
        stockfish.to_str().unwrap(),
        "--option",
        "Skill Level=0",
        // The fast mode: this checks the match, not the strength.
        "--depth",
        "2",
        "--games",
        "2",
        "--movetime",
        "10",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(summary_line(&out, "games:").starts_with("2 (regex-chess (depth 2) vs Stockfish"));
    let wdl: Vec<u32> = summary_line(&out, "W/D/L:")
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(wdl.len(), 3);
    assert_eq!(wdl.iter().sum::<u32>(), 2, "{out}");
    let points = f64::from(wdl[0]) + 0.5 * f64::from(wdl[1]);
    assert!(
        summary_line(&out, "score:").starts_with(&format!("{points}/2 (")),
        "{out}"
    );
    assert!(summary_line(&out, "elo:").ends_with("(95%)"), "{out}");
    let allowed_line = summary_line(&out, "allowed mates-in-one:");
    let allowed: usize = allowed_line.split(' ').next().unwrap().parse().unwrap();

    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 2);
    let mut tally = [0u32; 3];
    let mut allowed_in_pgn = 0;
    for (i, game) in games.iter().enumerate() {
        let ours = if i == 0 { Color::White } else { Color::Black };
        let (us, them) = if ours == Color::White {
            ("White", "Black")
        } else {
            ("Black", "White")
        };
        assert_eq!(game.tags["Round"], (i + 1).to_string());
        assert_eq!(game.tags[us], "regex-chess (depth 2)");
        assert!(game.tags[them].starts_with("Stockfish"));
        assert_eq!(game.tags["Result"], game.result);
        assert_eq!(game.tags["PlyCount"], game.plies.to_string());
        // The result is what the final position says.
        match game.result.as_str() {
            "1-0" | "0-1" => {
                assert!(game.end.is_checkmate(), "game {}", i + 1);
                let winner = !game.end.turn();
                assert_eq!(game.result == "1-0", winner == Color::White);
                tally[if winner == ours { 0 } else { 2 }] += 1;
            }
            "1/2-1/2" => {
                assert!(!game.end.is_checkmate());
                tally[1] += 1;
            }
            other => panic!("game {} has result {other}", i + 1),
        }
        allowed_in_pgn += game
            .comments
            .iter()
            .filter(|c| c.contains("; allows mate in one: "))
            .count();
        // Every move has its note: the book's three moves a side, then
        // our engine's score, depth and time, the opponent's time.
        for (ply, note) in game.notes.iter().enumerate() {
            let note = note
                .as_deref()
                .unwrap_or_else(|| panic!("ply {ply} has no note"));
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if ply < 6 {
                assert_eq!(note, "book");
            } else if mover == ours {
                assert!(is_engine_note(note, 2), "ply {ply}: {note:?}");
            } else {
                assert!(is_seconds(note), "ply {ply}: {note:?}");
            }
        }
    }
    assert_eq!(tally.to_vec(), wdl, "{out}");
    assert_eq!(allowed_in_pgn, allowed, "{out}");
    // Both games open with the Ruy Lopez, three moves a side from the book.
    assert!(games.iter().all(|g| g.tags["Opening"] == "Ruy Lopez"));
    let engine_moves = games[0].plies.div_ceil(2) - 3 + games[1].plies / 2 - 3;
    assert!(
        allowed_line.ends_with(&format!("(in {engine_moves} moves of our engine)")),
        "{out}"
    );
}

/// Writes a fake UCI engine: a shell script that answers the handshake and
/// does `on_go` when asked to move.
fn fake_engine(dir: &Path, on_go: &str) -> String {
    let path = dir.join("fake-engine");
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name fake'; echo uciok;;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    assert!(status.success());
    path.to_str().unwrap().to_string()
}

/// Game 1 (ours white) ends at the ply cap after our one move; in game 2
/// the opponent must move first and misbehaves.
fn match_with_a_faulty_opponent(on_go: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), on_go);
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, format!("# the start position\n{START_FEN}\n")).unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--opponent",
        &engine,
        "--depth",
        "2",
        "--games",
        "4",
        "--max-plies",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}\n{err}");
    (out, err, std::fs::read_to_string(&pgn).unwrap())
}

#[test]
fn an_opponents_illegal_move_names_the_game_and_keeps_the_pgn() {
    let junk = "z".repeat(300);
    let (out, err, pgn) = match_with_a_faulty_opponent(&format!("echo 'bestmove e2e5{junk}'"));
    assert!(err.contains("game 2 (regex-chess (depth 2) black"), "{err}");
    assert!(
        err.contains("the opponent played the illegal move `e2e5zz"),
        "{err}"
    );
    assert!(!err.contains(&"z".repeat(101)), "quotes are cut: {err}");
    assert!(out.contains("W/D/L: 0/1/0"), "game 1 counted: {out}");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2, "{pgn}");
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(games[0].plies, 1);
    assert_eq!(games[0].tags["Termination"], "adjudication");
    assert_eq!(games[1].result, "*");
    assert_eq!(games[1].tags["Termination"], "abandoned");
    assert!(
        games[1].comments[0].starts_with("abandoned: the opponent played the illegal move"),
        "{pgn}"
    );
}

#[test]
fn an_opponent_that_crashes_names_the_game_and_keeps_the_pgn() {
    let (_, err, pgn) = match_with_a_faulty_opponent("echo 'out of luck' >&2; exit 3");
    assert!(err.contains("game 2 (regex-chess (depth 2) black"), "{err}");
    assert!(err.contains("the opponent `fake`"), "{err}");
    assert!(err.contains("exit status: 3"), "{err}");
    assert!(err.contains("out of luck"), "{err}");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2, "{pgn}");
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(games[1].result, "*");
}

#[test]
fn a_bad_opponent_command_is_a_clear_error() {
    let err = refused(&["--opponent", "/nonexistent/engine --flag", "--games", "1"]);
    assert!(
        err.contains("cannot start the opponent `/nonexistent/engine --flag`"),
        "{err}"
    );
    let long = format!("/nonexistent/{}", "y".repeat(400));
    let err = refused(&["--opponent", &long, "--games", "1"]);
    assert!(err.contains("cannot start the opponent"), "{err}");
    assert!(!err.contains(&"y".repeat(101)), "{err}");
}

#[test]
fn an_option_the_opponent_lacks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "echo 'bestmove 0000'");
    let err = refused(&["--opponent", &engine, "--option", "Skill Levl=0"]);
    assert!(
        err.contains("the opponent `fake` offers no option `Skill Levl`"),
        "{err}"
    );
    let err = refused(&["--opponent", &engine, "--option", "no-equals"]);
    assert!(err.contains("`no-equals` is not NAME=VALUE"), "{err}");
}

#[test]
fn a_bad_openings_file_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "e2e4 e7e5\n\ne2e4 e2e4\n").unwrap();
    let err = refused(&[
        "--opponent",
        "/nonexistent/engine",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(err.contains("openings.txt` line 3: `e2e4 e2e4`"), "{err}");
    assert!(err.contains("illegal move `e2e4`"), "{err}");
}

#[test]
fn a_depth_the_engine_lacks_is_refused() {
    let err = refused(&["--opponent", "/nonexistent/engine", "--depth", "7"]);
    assert!(
        err.contains("--depth 7: our engine offers only depth 2, 3, 4, 5, 6"),
        "{err}"
    );
}

#[test]
fn a_bad_number_is_quoted_short() {
    let junk = "9".repeat(400);
    let err = refused(&["--opponent", "/nonexistent/engine", "--games", &junk]);
    assert!(err.contains("--games `999"), "{err}");
    assert!(err.contains("not a whole number in range"), "{err}");
    assert!(!err.contains(&"9".repeat(101)), "{err}");
    let err = refused(&["--opponent", "/nonexistent/engine", "--games", "0"]);
    assert!(err.contains("--games 0: nothing to play"), "{err}");
}

#[test]
fn an_unknown_side_is_refused() {
    let err = refused(&["--opponent", "/nonexistent/engine", "--ours", "green"]);
    assert!(
        err.contains("--ours `green`: use both, white or black"),
        "{err}"
    );
}

#[test]
fn unknown_native_leaves_are_refused_with_the_names_to_use() {
    let err = refused(&["--opponent", "/nonexistent/engine", "--native", "green"]);
    assert!(
        err.contains(
            "--native: no leaves named \"green\": use quiescent, threats, threats-on-quiet, \
             full, two-captures, capture-line, leaf-threats, leaf-see, threats-see, tuned or static"
        ),
        "{err}"
    );
}

#[test]
fn a_plan_is_for_the_native_reference_only_and_must_be_whole() {
    let err = refused(&["--opponent", "/nonexistent/engine", "--plan", "3,5"]);
    assert!(
        err.contains("--plan: only the native reference (--native) searches other plans"),
        "{err}"
    );
    let err = refused(&[
        "--opponent",
        "/nonexistent/engine",
        "--native",
        "threats",
        "--plan",
        "5,3",
    ]);
    assert!(err.contains("--plan `5,3`: use FULL,PLIES"), "{err}");
}

/// `--tc`: an opponent that thinks longer than its clock loses on time,
/// in both colours; the summary and the PGN say so. Our side is the native
/// reference timed by the regex program's cost model (`--regex-time`): its
/// time is the model's, so its own flag cannot fall however loaded the
/// machine (the regex program's move would be timed by the wall clock).
#[test]
fn a_flag_that_falls_loses_the_game() {
    let dir = tempfile::tempdir().unwrap();
    // Half a second a move on a 0.3 s clock; e7e5 is legal for black after
    // any first move of white (as white, the flag falls before it counts).
    let engine = fake_engine(dir.path(), "sleep 0.5; echo 'bestmove e7e5'");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, format!("{START_FEN}\n")).unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--opponent",
        &engine,
        "--native",
        "threats",
        "--regex-time",
        "--tc",
        "0.3+0",
        "--depth",
        "2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        summary_line(&out, "games:").starts_with(
            "2 (native reference (up to 2 plies, Threats, 0.3+0 at the regex program's modeled time) vs fake"
        ),
        "{out}"
    );
    assert_eq!(
        summary_line(&out, "W/D/L:"),
        "2/0/0 (for native reference (up to 2 plies, Threats, 0.3+0 at the regex program's modeled time))"
    );
    assert_eq!(summary_line(&out, "endings:"), "loss on time 2", "{out}");
    assert_eq!(
        summary_line(&out, "time losses:"),
        "ours 0, the opponent's 2",
        "{out}"
    );
    assert!(
        summary_line(&out, "our time a move:").ends_with("(1 moves)"),
        "{out}"
    );
    assert_eq!(
        summary_line(&out, "depth reached:"),
        "2: 1 (100.0%)",
        "{out}"
    );
    // A ladder of one rung: nothing to stop.
    let unfinished = summary_line(&out, "time in rungs that did not finish:");
    assert!(
        unfinished.starts_with("0.0 s of ")
            && unfinished
                .ends_with("(0.0%); 0 stopped at the limit, 0 over the state cap (1 timed moves)"),
        "{out}"
    );
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[1].result, "0-1");
    for game in &games {
        assert_eq!(game.tags["Termination"], "time forfeit");
        assert_eq!(game.tags["TimeControl"], "0.3+0");
    }
    // Our one move (game 1) and none of theirs.
    assert_eq!((games[0].plies, games[1].plies), (1, 0));
}

#[test]
fn clocks_and_movetimes_are_checked() {
    let e = "/nonexistent/engine";
    for (args, says) in [
        (
            &["--tc", "fast"][..],
            "--tc `fast`: use BASE+INC in seconds",
        ),
        (&["--tc", "0+1"][..], "--tc `0+1`: use BASE+INC"),
        (
            &["--tc", "60+0.6", "--movetime", "50"][..],
            "--movetime does not go with it",
        ),
        (
            &["--tc", "60+0.6", "--our-movetime", "50"][..],
            "--our-movetime does not go with it",
        ),
        (
            &["--our-movetime", "soon"][..],
            "--our-movetime `soon`: not a whole number",
        ),
        (
            &["--our-movetime", "1000", "--native", "threats"][..],
            "--native searches a fixed plan",
        ),
    ] {
        let mut all = vec!["--opponent", e];
        all.extend_from_slice(args);
        let err = refused(&all);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `--sprt` with `--concurrency 2`: every game is drawn at the ply cap,
/// so every pair scores 1 point, and H0 of [0, 200] is accepted after the
/// 6 pairs the test needs (LLR -3.05; 5 pairs give -2.54, computed apart
/// from the published formulas); each pair is one opening from both
/// sides, each game is in the PGN once, games under way at the decision
/// included.
#[test]
fn a_sequential_test_decides_on_pairs_played_two_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "echo 'bestmove e2e4'");
    let openings = dir.path().join("openings.txt");
    // Two starts where the fake engine's e2e4 is legal for white.
    let after_nf3_e5 = "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2";
    std::fs::write(
        &openings,
        format!("# two starts\n{START_FEN}\n{after_nf3_e5}\n"),
    )
    .unwrap();
    let pgn = dir.path().join("games.pgn");
    let (ok, out, err) = run(&[
        "--opponent",
        &engine,
        "--depth",
        "2",
        "--max-plies",
        "1",
        "--sprt",
        "0,200",
        "--concurrency",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        summary_line(&out, "sprt:").starts_with(
            "H0 accepted after 6 pairs: LLR -3.05 (-2.94, 2.94) [0, 200] alpha 0.05 beta 0.05; pairs 6 (0, 1/2, 1, 3/2, 2 points): 0 0 6 0 0"
        ),
        "{out}"
    );
    assert!(
        summary_line(&out, "concurrency:").starts_with("2 games at a time on "),
        "{out}"
    );
    // The test's line after every pair, on stderr (pairs finish in any
    // order).
    for pair in 1..=6 {
        assert!(err.contains(&format!("pair {pair} done: LLR ")), "{err}");
    }
    assert!(
        err.contains("LLR -2.54 (-2.94, 2.94) [0, 200] alpha 0.05 beta 0.05; pairs 5 ("),
        "{err}"
    );
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert!((12..=14).contains(&games.len()), "{}", games.len());
    let mut rounds: Vec<usize> = games
        .iter()
        .map(|g| g.tags["Round"].parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=games.len()).collect::<Vec<_>>());
    for game in &games {
        let round: usize = game.tags["Round"].parse().unwrap();
        // Pair k is rounds 2k - 1 (ours white) and 2k, on the k-th
        // opening (the list taken round and round).
        assert_eq!(
            game.tags["White"].starts_with("regex-chess"),
            round % 2 == 1,
            "round {round}"
        );
        let line = if ((round - 1) / 2).is_multiple_of(2) {
            2
        } else {
            3
        };
        assert_eq!(
            game.tags["Opening"],
            format!("openings.txt line {line}"),
            "round {round}"
        );
        assert_eq!(game.result, "1/2-1/2");
    }
}

/// `--native --regex-time`: the native reference thinks on the regex
/// program's modeled time and says so.
#[test]
fn the_native_reference_plays_at_the_regex_programs_modeled_time() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "echo 'bestmove e2e4'");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, format!("{START_FEN}\n")).unwrap();
    let (ok, out, err) = run(&[
        "--opponent",
        &engine,
        "--native",
        "threats",
        "--regex-time",
        "--our-movetime",
        "300",
        "--games",
        "2",
        "--max-plies",
        "1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        summary_line(&out, "games:").starts_with(
            "2 (native reference (up to 6 plies, Threats, movetime 300 ms at the regex program's modeled time) vs fake"
        ),
        "{out}"
    );
    // Our one move (game 1), on the modeled clock: depth 2 always fits,
    // depth 6 never in 300 ms.
    let depth = summary_line(&out, "depth reached:");
    assert!(
        ["2: 1", "3: 1", "5: 1"]
            .iter()
            .any(|d| depth.starts_with(d)),
        "{out}"
    );
    assert!(
        summary_line(&out, "our time a move:").ends_with("(1 moves)"),
        "{out}"
    );
}

#[test]
fn sequential_tests_and_concurrency_are_checked() {
    let e = "/nonexistent/engine";
    for (args, says) in [
        (&["--sprt", "5,0"][..], "--sprt `5,0`: use ELO0,ELO1"),
        (
            &["--sprt", "0,5,0.05"][..],
            "--sprt `0,5,0.05`: use ELO0,ELO1",
        ),
        (
            &["--sprt", "0,5", "--ours", "white"][..],
            "--sprt counts pairs of games, one opening from both sides: it needs --ours both",
        ),
        (
            &["--sprt", "0,5", "--games", "7"][..],
            "--games must be even",
        ),
        (&["--concurrency", "0"][..], "--concurrency: from 1 to 64"),
        (
            &["--regex-time"][..],
            "--regex-time times the native reference (--native)",
        ),
    ] {
        let mut all = vec!["--opponent", e];
        all.extend_from_slice(args);
        let err = refused(&all);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
