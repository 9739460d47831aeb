//! The UCI session's unit tests: each command's lines, the options, and
//! `serve` on a script; the engine spoken to as a process is
//! `tests/integration/uci.rs`.

use super::*;

// The program always writes the en passant square after a double step.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

/// What `serve` prints for one line, the search (if any) run to its
/// end on this thread.
fn lines(session: &mut Session, input: &str) -> Vec<String> {
    let handled = handle(input, session, Instant::now());
    let mut out = handled.lines;
    if let Some(job) = handled.job {
        let best = job.run(&mut |line| out.push(line));
        if job.wait {
            session.pending = Some(best);
        } else {
            out.push(best);
        }
    }
    out
}

#[test]
fn uci_identifies_and_ends_with_uciok() {
    let out = lines(&mut Session::new(), "uci");
    assert!(out[0].starts_with("id name regex-chess "), "{out:?}");
    assert!(out[1].starts_with("id author "), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("uciok"));
    assert_eq!(lines(&mut Session::new(), "isready\r\n"), ["readyok"]);
}

#[test]
fn position_plays_moves_with_the_regex_program() {
    let mut s = Session::new();
    assert!(lines(&mut s, "position startpos moves e2e4").is_empty());
    assert_eq!(s.fen(), AFTER_E4);
    // Extending the list plays only the new move.
    assert!(lines(&mut s, "position startpos moves e2e4 e7e5 g1f3").is_empty());
    assert_eq!(
        s.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // A different list starts again from the base.
    assert!(lines(&mut s, "position startpos moves d2d4").is_empty());
    assert!(s.fen().starts_with("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/"));
    assert!(lines(&mut s, &format!("position fen {AFTER_E4}")).is_empty());
    assert_eq!(s.fen(), AFTER_E4);
}

#[test]
fn the_history_follows_the_moves_and_go_avoids_repeating_when_ahead() {
    let start = "3k4/8/8/8/8/8/8/Q3K3 w - - 0 1";
    let best = chess::search(start, &[], Depth::MIN).unwrap().best;
    let (first, _) = best.unwrap();
    let after = |fen: &str, mv: &str| {
        chess::legal_moves(fen)
            .unwrap()
            .into_iter()
            .find(|(m, _)| m == mv)
            .map(|(_, f)| f)
    };
    let undo = |mv: &str| format!("{}{}", &mv[2..4], &mv[0..2]);
    let placement = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
    // The queen's move, a king move, both taken back: the start again.
    let p1 = after(start, &first).unwrap();
    let cycle = chess::legal_moves(&p1)
        .unwrap()
        .into_iter()
        .find_map(|(answer, p2)| {
            let p3 = after(&p2, &undo(&first))?;
            let p4 = after(&p3, &undo(&answer))?;
            (placement(&p4) == placement(start)).then_some(answer)
        })
        .expect("a reversible answer");
    let mut s = Session::new();
    let moves = format!("{first} {cycle} {} {}", undo(&first), undo(&cycle));
    assert!(lines(&mut s, &format!("position fen {start} moves {moves}")).is_empty());
    assert_eq!(s.history.len(), 5);
    assert_eq!(s.history[0], s.history[4]);
    let out = lines(&mut s, "go depth 2");
    let played = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_ne!(played, first, "{out:?}");
    // A fresh game from the same position plays it again.
    let mut s = Session::new();
    lines(&mut s, &format!("position fen {start}"));
    assert_eq!(s.history.len(), 1);
    let out = lines(&mut s, "go depth 2");
    assert_eq!(out.last().unwrap(), &format!("bestmove {first}"));
}

#[test]
fn illegal_move_is_reported_and_the_moves_before_it_played() {
    let mut s = Session::new();
    let out = lines(&mut s, "position startpos moves e2e4 e7e5 e1e3 d2d4");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string position: illegal move \"e1e3\" (move 3 of the list)")
            && out[0].ends_with("playing the 2 moves before it"),
        "{out:?}"
    );
    assert_eq!(
        s.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    // Malformed moves too; the list so far stays the base of the next.
    lines(&mut s, "position startpos moves e2e4");
    let out = lines(&mut s, "position startpos moves e2e4 junk");
    assert!(out[0].contains("illegal move \"junk\""), "{out:?}");
    assert_eq!(s.fen(), AFTER_E4);
}

#[test]
fn unusable_position_lines_change_nothing() {
    let mut s = Session::new();
    lines(&mut s, "position startpos moves e2e4");
    let before = s.clone();
    for bad in [
        "position fen not a fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position",
        "position startpos e2e4",
    ] {
        let out = lines(&mut s, bad);
        assert!(
            out.len() == 1 && out[0].starts_with("info string "),
            "{bad}: {out:?}"
        );
        assert_eq!(s, before, "{bad}");
    }
}

#[test]
fn go_prints_info_then_a_legal_bestmove() {
    let mut s = Session::new();
    lines(&mut s, "position startpos moves e2e4");
    assert_eq!(lines(&mut s, "isready"), ["readyok"]);
    // Depth 3 built: a search on a clock skips a program not built
    // yet, and `isready` waits only for the first rung's.
    chess::reply_pass(Depth::new(3).unwrap()).unwrap();
    // A 1 s clock leaves a move about 30 ms: depth 2 answers, and
    // depth 3 is not started.
    let out = lines(&mut s, "go wtime 1000 btime 1000");
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("info depth 2 score cp "), "{out:?}");
    assert!(out[0].ends_with(" rewrites"), "{out:?}");
    assert!(
        out[1].starts_with("info string depth 3 not started"),
        "{out:?}"
    );
    let mv = out[2].strip_prefix("bestmove ").expect("bestmove");
    let legal = chess::legal_moves(AFTER_E4).unwrap();
    assert!(legal.iter().any(|(uci, _)| uci == mv), "{mv}");
}

#[test]
fn go_finds_mate_in_one() {
    let mut s = Session::new();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    lines(&mut s, &format!("position fen {fen}"));
    let out = lines(&mut s, "go movetime 10");
    assert!(out[0].starts_with("info depth 2 score mate 1 "), "{out:?}");
    assert_eq!(out[1], "bestmove h5f7");
}

#[test]
fn no_legal_move_is_bestmove_0000() {
    let mut s = Session::new();
    // Fool's mate: white is checkmated.
    lines(&mut s, "position startpos moves f2f3 e7e5 g2g4 d8h4");
    let out = lines(&mut s, "go");
    assert_eq!(out.last().unwrap(), "bestmove 0000", "{out:?}");
}

#[test]
fn infinite_waits_for_stop() {
    let mut s = Session::new();
    // Climbing only to depth 3 keeps the test short.
    assert!(lines(&mut s, "setoption name Depth value 3").is_empty());
    let out = lines(&mut s, "go infinite");
    assert!(out[0].starts_with("info depth 2 "), "{out:?}");
    assert!(out[1].starts_with("info depth 3 "), "{out:?}");
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    assert_eq!(lines(&mut s, "isready"), ["readyok"]);
    let out = lines(&mut s, "stop");
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("bestmove "), "{out:?}");
    assert!(lines(&mut s, "stop").is_empty());
    lines(&mut s, "go ponder");
    assert!(lines(&mut s, "ponderhit")[0].starts_with("bestmove "));
    // `quit` during `go infinite` still answers it.
    lines(&mut s, "go infinite");
    let out = lines(&mut s, "quit");
    assert!(out.len() == 1 && out[0].starts_with("bestmove "), "{out:?}");
}

#[test]
fn go_sets_the_depths_and_the_time_from_its_limits() {
    let go = |args: &str| parse_go(&args.split_whitespace().collect::<Vec<_>>());
    let start = Instant::now();
    let flag = || Arc::new(AtomicBool::new(false));
    let of = |args: &str, white: bool, option: u32| {
        let option = Depth::new(option).unwrap();
        let l = limits_of(&go(args), white, option, start, flag());
        (
            l.rungs.iter().map(|d| d.plies()).collect::<Vec<_>>(),
            l.budget
                .map(|b| (b.target.as_millis(), b.limit.as_millis())),
        )
    };
    // An explicit depth, clamped to what the engine has, after the
    // first rung; no time limit.
    assert_eq!(of("depth 1", true, 5), (vec![2], None));
    assert_eq!(of("depth 3", true, 2), (vec![2, 3], None));
    assert_eq!(of("depth 9", true, 2), (vec![2, Depth::MAX.plies()], None));
    assert_eq!(of("depth 4", true, 3), (vec![2, 4], None));
    // A time limit climbs the ladder up to the Depth option, by
    // default its top.
    assert_eq!(
        of("movetime 1000", true, TIMED_TOP.plies()),
        (vec![2, 3, 5, 6], Some((900, 900)))
    );
    assert_eq!(
        limits_of(
            &go("movetime 1000"),
            true,
            Session::new().depth,
            start,
            flag()
        )
        .rungs,
        LADDER
    );
    assert_eq!(
        of("movetime 1000", true, 5),
        (vec![2, 3, 5], Some((900, 900)))
    );
    assert_eq!(of("movetime 1000", true, 3), (vec![2, 3], Some((900, 900))));
    assert_eq!(
        of("movetime 1000", true, 4),
        (vec![2, 3, 4], Some((900, 900)))
    );
    // The mover's clock: (time - 100 ms) / 30 plus three quarters of
    // the increment, up to four times that.
    let clocks = "wtime 60100 btime 3100 winc 600 binc 0";
    assert_eq!(of(clocks, true, 5).1, Some((2450, 9800)));
    assert_eq!(of(clocks, false, 5).1, Some((100, 400)));
    assert_eq!(
        of("wtime 10100 btime 10100 movestogo 5", false, 5).1,
        Some((2000, 4000))
    );
    // No limit: infinite climbs the ladder, a bare `go` searches the
    // Depth option's depth.
    assert_eq!(of("infinite", true, 5), (vec![2, 3, 5], None));
    assert_eq!(of("", true, 5), (vec![2, 5], None));
    assert_eq!(of("", true, 3), (vec![2, 3], None));
}

#[test]
fn options_are_advertised_and_checked() {
    let out = lines(&mut Session::new(), "uci");
    assert!(
        out.contains(&"option name Depth type spin default 6 min 2 max 6".to_string()),
        "{out:?}"
    );
    let mut s = Session::new();
    assert!(lines(&mut s, "setoption name Depth value 3").is_empty());
    assert_eq!(s.depth.plies(), 3);
    assert!(lines(&mut s, "setoption name Depth value 2").is_empty());
    assert_eq!(s.depth.plies(), 2);
    let out = lines(&mut s, "setoption name Depth value 7");
    assert!(
        out[0].starts_with("info string Depth \"7\" refused"),
        "{out:?}"
    );
    let out = lines(&mut s, "setoption name Hash value 16");
    assert!(out[0].contains("no option named \"Hash\""), "{out:?}");
    // LateMoves: 0 is off; past the most, or not a number, refused
    // (a value from 1 builds the ladder's programs with the rule).
    let late = format!(
        "option name LateMoves type spin default {} min 0 max 64",
        crate::LATE_MOVES
    );
    assert!(lines(&mut Session::new(), "uci").contains(&late));
    assert!(lines(&mut s, "setoption name LateMoves value 0").is_empty());
    assert_eq!(s.late, None);
    for bad in ["65", "x", "-1"] {
        let out = lines(&mut s, &format!("setoption name LateMoves value {bad}"));
        assert!(
            out[0].contains("LateMoves") && out[0].contains("refused"),
            "{out:?}"
        );
        assert_eq!(s.late, None);
    }
}

/// `OwnBook` is advertised and switches the book: on, the start
/// position answers the book's move at depth 2 and a book position
/// ends the climb there; a value other than true or false is refused.
#[test]
fn own_book_is_advertised_and_switches_the_book() {
    let out = lines(&mut Session::new(), "uci");
    assert!(
        out.contains(&"option name OwnBook type check default false".to_string()),
        "{out:?}"
    );
    let mut s = Session::new();
    let out = lines(&mut s, "setoption name OwnBook value maybe");
    assert!(out[0].starts_with("info string OwnBook"), "{out:?}");
    assert_eq!(s.book, UseBook::Off);
    assert!(lines(&mut s, "setoption name OwnBook value true").is_empty());
    assert_eq!(s.book, UseBook::On);
    let (answer, _) = chess::book::book()
        .probe(&shakmaty::Chess::default())
        .expect("the start is in the book");
    let out = lines(&mut s, "go depth 3");
    assert_eq!(out.last(), Some(&format!("bestmove {answer}")), "{out:?}");
    assert!(lines(&mut s, "setoption name OwnBook value false").is_empty());
    assert_eq!(s.book, UseBook::Off);
}

#[test]
fn serve_answers_a_waiting_search_at_the_end_of_input_and_bounds_lines() {
    let mut input = b"go infinite\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
    input.extend(b"\n\xff\nisready\n");
    let mut output = Vec::new();
    serve(std::io::Cursor::new(input), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    // The lines behind the search are answered while it runs, in
    // their order; the end of the input stops it, and it answers.
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("info depth") && !l.starts_with("info string depth"))
        .collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert!(
        answers[0].starts_with("info string ignoring a line of 1048586 bytes"),
        "{text}"
    );
    assert_eq!(answers[1], "info string ignoring a line that is not UTF-8");
    assert_eq!(answers[2], "readyok", "{text}");
    assert!(answers[3].starts_with("bestmove "), "{text}");
    assert!(text.ends_with(&format!("{}\n", answers[3])), "{text}");
}

#[test]
fn unknown_and_ignored_commands() {
    let mut s = Session::new();
    let before = s.clone();
    let same_depth = format!("setoption name Depth value {}", TIMED_TOP);
    for line in [
        "",
        "   ",
        "xyzzy",
        "debug on",
        same_depth.as_str(),
        "register later",
        "ponderhit",
        "stop",
    ] {
        assert!(lines(&mut s, line).is_empty(), "{line}");
    }
    assert_eq!(s, before);
    // Unknown tokens before a command are skipped.
    assert_eq!(lines(&mut s, "joho isready"), ["readyok"]);
    lines(&mut s, "position startpos moves e2e4");
    lines(&mut s, "ucinewgame");
    assert_eq!(s.fen(), START_FEN);
    lines(&mut s, "quit");
    assert!(s.quitting());
}

#[test]
fn serve_stops_at_quit_and_flushes_answers() {
    let input = b"uci\nisready\nposition startpos\ngo\nquit\nisready\n";
    let mut output = Vec::new();
    serve(std::io::Cursor::new(input), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    // `go` searches the default depth after the first rung; `quit`,
    // right behind it, stops it: the first rung answers.
    assert!(text.contains("uciok\nreadyok\ninfo depth 2 "), "{text}");
    assert!(
        text.contains(&format!("info string depth {} stopped\n", TIMED_TOP)),
        "{text}"
    );
    assert!(text.ends_with('\n') && text.lines().last().unwrap().starts_with("bestmove "));
    assert_eq!(text.matches("readyok").count(), 1, "{text}");
}
