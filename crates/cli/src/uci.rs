//! `regex-chess uci`: the UCI protocol on standard input and output.
//!
//! One line in, zero or more lines out: [`handle`] maps a command and the
//! [`Session`] it acts on to the lines to print, and [`serve`] is the loop
//! around it (read a line, print the answer, flush, stop at `quit` or end of
//! input). All chess is the regex programs': `position ... moves` plays each
//! move by finding it among `chess::legal_moves` of the current position
//! and taking the FEN the program computed after it, and `go` runs
//! `chess::reply_with_history`, the search at a depth of 2 to 5 plies,
//! given the keys of the game's positions since the last capture or pawn
//! move (draw sense). shakmaty only
//! validates FEN text.
//!
//! Searches are synchronous, so `go` answers when the search is done. The
//! depth is `go depth N` (clamped to the depths the engine has), else the
//! deepest program up to the `Depth` option whose expected time fits
//! `movetime` or the clock ([`choose_depth`]), else the `Depth` option. Under `go infinite` and `go ponder`
//! the protocol forbids `bestmove` before `stop` (or `ponderhit`), so the
//! finished answer is held back until then, or until `quit` or the end of
//! the input: every `go` gets exactly one `bestmove`. A command that cannot
//! be carried out (a malformed line, an invalid FEN) is reported as
//! `info string ...` and changes nothing; an illegal or malformed move in
//! `position ... moves` is reported and the moves before it are played, as
//! Stockfish does. Lines over [`MAX_LINE`] bytes are refused in bounded
//! memory. Unknown commands are ignored as UCI asks.
//!
//! This module owns the session and the loop; the parsing of `position`
//! and `go` is `uci::parse`, the lines written about a search
//! `uci::answer`.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use anyhow::{Context, Result};
use chess::search::{DEFAULT_DEPTH, MAX_DEPTH, MIN_DEPTH};

use crate::textio::{self, quote, Line};

mod answer;
mod parse;

pub(crate) use answer::{info_string, report, score_text, Outcome};
pub(crate) use parse::{parse_go, parse_position, GoCmd, PositionCmd};

/// The longest input line read (1 MB); a longer one is refused.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// The `option` lines of the `uci` answer: every option the engine has.
pub(crate) fn options() -> Vec<String> {
    vec![format!(
        "option name Depth type spin default {DEFAULT_DEPTH} min {MIN_DEPTH} max {MAX_DEPTH}"
    )]
}

/// A guess of a search's time at `depth` before any was measured, in
/// milliseconds (release build, the middle of the benchmark turns, rounded
/// up): what [`choose_depth`] starts from.
fn first_guess_ms(depth: u32) -> u64 {
    match depth {
        0..=2 => 50,
        4 => 500,
        _ => 2_000,
    }
}

/// The depth of a `go`: `go depth N` clamped to the engine's depths; else,
/// with a time limit (`movetime`, or the mover's clock: a thirtieth of it
/// plus half the increment), the deepest depth up to the `Depth` option
/// whose expected time (`expected_ms`, the last measured or a first
/// guess) fits it; else the `Depth` option. The option is the ceiling
/// (by default 5, the strongest; below it, depth 4 costs less than 3 and
/// plays about as well, see the README).
pub(crate) fn choose_depth(
    go: &GoCmd,
    white_to_move: bool,
    option: u32,
    expected_ms: impl Fn(u32) -> u64,
) -> u32 {
    if let Some(d) = go.depth {
        return d.clamp(MIN_DEPTH, MAX_DEPTH);
    }
    let clock = if white_to_move {
        go.wtime.map(|t| (t, go.winc.unwrap_or(0)))
    } else {
        go.btime.map(|t| (t, go.binc.unwrap_or(0)))
    };
    let budget = match (go.movetime, clock) {
        (Some(ms), _) => ms,
        (None, Some((time, inc))) => time / 30 + inc / 2,
        (None, None) => return option,
    };
    (MIN_DEPTH..=option.clamp(MIN_DEPTH, MAX_DEPTH))
        .rev()
        .find(|&d| expected_ms(d) <= budget)
        .unwrap_or(MIN_DEPTH)
}

/// The position of `position startpos`.
use crate::START_FEN;

/// The commands of the protocol (GUI to engine). A line is parsed from its
/// first token that is one of these: UCI says unknown tokens before a
/// command are skipped.
const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// The engine's state between commands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Session {
    /// The FEN the last accepted `position` started from.
    base: String,
    /// The moves it played from there (lowercase UCI).
    moves: Vec<String>,
    /// The current position (the regex program's FEN after `moves`).
    fen: String,
    /// The keys of the positions since the last capture or pawn move,
    /// the current one included (the search's draw sense).
    history: Vec<String>,
    /// A `bestmove` line held back until `stop` or `ponderhit`.
    pending: Option<String>,
    /// `quit` was received.
    quit: bool,
    /// The `Depth` option.
    depth: u32,
    /// The last measured search time at each depth, in milliseconds
    /// (index: depth - MIN_DEPTH).
    measured_ms: Vec<Option<u64>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session at the start position.
    pub(crate) fn new() -> Session {
        Session {
            base: START_FEN.to_string(),
            moves: Vec::new(),
            fen: START_FEN.to_string(),
            history: history_after(Vec::new(), START_FEN),
            pending: None,
            quit: false,
            depth: DEFAULT_DEPTH,
            measured_ms: vec![None; (MAX_DEPTH - MIN_DEPTH + 1) as usize],
        }
    }

    /// The search time expected at `depth`: the last measured, or a guess.
    fn expected_ms(&self, depth: u32) -> u64 {
        self.measured_ms
            .get((depth - MIN_DEPTH) as usize)
            .copied()
            .flatten()
            .unwrap_or_else(|| first_guess_ms(depth))
    }

    /// The current position (FEN).
    pub(crate) fn fen(&self) -> &str {
        &self.fen
    }

    /// Whether `quit` was received.
    pub(crate) fn quitting(&self) -> bool {
        self.quit
    }

    /// Sets up a position by playing its moves with the regex program.
    /// When the new command extends the current one (same start, the old
    /// moves a prefix of the new ones, as a GUI sends during a game) only
    /// the new moves are played.
    ///
    /// # Errors
    ///
    /// A one-line message. An invalid FEN leaves the session unchanged; an
    /// illegal or malformed move leaves the position after the moves
    /// before it.
    fn set_position(&mut self, mut cmd: PositionCmd) -> Result<(), String> {
        let (mut fen, done, mut history) =
            if cmd.base == self.base && cmd.moves.starts_with(&self.moves) {
                (self.fen.clone(), self.moves.len(), self.history.clone())
            } else {
                chess::codec::parse_fen(&cmd.base).map_err(|e| textio::chain(&e))?;
                (cmd.base.clone(), 0, history_after(Vec::new(), &cmd.base))
            };
        let mut refused = None;
        for (i, mv) in cmd.moves.iter().enumerate().skip(done) {
            let after = chess::legal_moves(&fen)
                .map_err(|e| textio::chain(&e))?
                .into_iter()
                .find(|(uci, _)| uci == mv)
                .map(|(_, after)| after);
            match after {
                Some(after) => {
                    history = history_after(history, &after);
                    fen = after;
                }
                None => {
                    refused = Some(format!(
                        "illegal move {} (move {} of the list) in {fen}; \
                         playing the {i} moves before it",
                        quote(mv),
                        i + 1
                    ));
                    cmd.moves.truncate(i);
                    break;
                }
            }
        }
        self.base = cmd.base;
        self.moves = cmd.moves;
        self.fen = fen;
        self.history = history;
        refused.map_or(Ok(()), Err)
    }
}

/// `history` with the position `fen` added (emptied first when its halfmove
/// clock is 0: nothing before a capture or pawn move comes back).
fn history_after(mut history: Vec<String>, fen: &str) -> Vec<String> {
    if let Ok(e) = chess::codec::encode_fen(fen) {
        if e.halfmoves == 0 {
            history.clear();
        }
        history.push(chess::ending::position_key(&e.board, e.turn));
    }
    history
}

/// Runs the regex search on a position, `depth` plies deep, a move back
/// into one of `history`'s positions scoring as a draw.
fn search(fen: &str, history: &[String], depth: u32) -> Result<Outcome, String> {
    let start = Instant::now();
    let searched = chess::search_in_game(fen, history, depth).map_err(|e| textio::chain(&e))?;
    Ok(Outcome {
        best: searched.best,
        depth: searched.depth,
        nodes: searched.stats.peak_threads,
        rewrites: searched.stats.executed,
        elapsed: start.elapsed(),
    })
}

/// Builds both regex programs so that `go` and `position` do not pay for it.
fn warm_up() -> Vec<String> {
    match chess::move_pass().and_then(|_| chess::reply_pass()) {
        Ok(_) => Vec::new(),
        Err(e) => vec![info_string(&format!(
            "building the programs failed: {}",
            textio::chain(&e)
        ))],
    }
}

/// Carries out one line of input and returns the lines to print.
pub(crate) fn handle(line: &str, session: &mut Session) -> Vec<String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Vec::new();
    };
    let (command, args) = (tokens[at], &tokens[at + 1..]);
    match command {
        "uci" => {
            let mut out = vec![
                format!("id name regex-chess {}", env!("CARGO_PKG_VERSION")),
                "id author the regex-chess developers".into(),
            ];
            out.extend(options());
            out.extend(warm_up());
            out.push("uciok".into());
            out
        }
        "isready" => {
            let mut out = warm_up();
            out.push("readyok".into());
            out
        }
        "ucinewgame" => {
            session.base = START_FEN.to_string();
            session.moves.clear();
            session.fen = START_FEN.to_string();
            Vec::new()
        }
        "position" => {
            let parsed = match parse_position(args) {
                Ok(cmd) => cmd,
                Err(message) => {
                    return vec![info_string(&format!(
                        "position rejected, keeping the previous one: {message}"
                    ))]
                }
            };
            match session.set_position(parsed) {
                Ok(()) => Vec::new(),
                Err(message) => vec![info_string(&format!("position: {message}"))],
            }
        }
        "go" => {
            let go = parse_go(args);
            let mut out: Vec<String> = go.warnings.iter().map(|w| info_string(w)).collect();
            // A search still waiting for `stop` is answered first: every
            // `go` gets exactly one `bestmove`.
            out.extend(session.pending.take());
            let white_to_move = session.fen.split(' ').nth(1) != Some("b");
            let depth = choose_depth(&go, white_to_move, session.depth, |d| {
                session.expected_ms(d)
            });
            let outcome = search(session.fen(), &session.history, depth);
            if let Ok(found) = &outcome {
                let ms = u64::try_from(found.elapsed.as_millis()).unwrap_or(u64::MAX);
                session.measured_ms[(depth - MIN_DEPTH) as usize] = Some(ms);
            }
            let mut lines = report(&outcome);
            if go.wait {
                session.pending = lines.pop();
            }
            out.extend(lines);
            out
        }
        "stop" | "ponderhit" => session.pending.take().into_iter().collect(),
        "quit" => {
            session.quit = true;
            // A search waiting for `stop` still answers.
            session.pending.take().into_iter().collect()
        }
        "setoption" => set_option(args, session).into_iter().collect(),
        // `debug`, `register`.
        _ => Vec::new(),
    }
}

/// The answer to `setoption`: nothing for an accepted value, a message
/// otherwise.
fn set_option(args: &[&str], session: &mut Session) -> Option<String> {
    let text = args.join(" ");
    let rest = text.strip_prefix("name ")?;
    let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
    if !name.trim().eq_ignore_ascii_case("Depth") {
        return Some(info_string(&format!(
            "no option named {}; see the option lines of `uci`",
            quote(name.trim())
        )));
    }
    match value.trim().parse::<u32>() {
        Ok(v) if (MIN_DEPTH..=MAX_DEPTH).contains(&v) => {
            session.depth = v;
            None
        }
        _ => Some(info_string(&format!(
            "Depth {} refused: the search looks {MIN_DEPTH} to {MAX_DEPTH} plies ahead",
            quote(value.trim())
        ))),
    }
}

/// Runs the protocol over any input and output until `quit` or the end of
/// the input, flushing after each answer. At the end of the input a search
/// waiting for `stop` is answered.
///
/// # Errors
///
/// Reading or writing failed ([`textio::Closed`] when the reader of the
/// output went away).
pub(crate) fn serve(mut input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut session = Session::new();
    loop {
        let answer =
            match textio::read_line(&mut input, MAX_LINE).context("reading standard input")? {
                None => {
                    let pending: Vec<String> = session.pending.take().into_iter().collect();
                    write_lines(&mut output, &pending)?;
                    return Ok(());
                }
                Some(Line::Text(line)) => handle(&line, &mut session),
                Some(Line::NotUtf8) => vec![info_string("ignoring a line that is not UTF-8")],
                Some(Line::TooLong(n)) => vec![info_string(&format!(
                    "ignoring a line of {n} bytes (the limit is {MAX_LINE})"
                ))],
            };
        write_lines(&mut output, &answer)?;
        if session.quitting() {
            return Ok(());
        }
    }
}

/// Prints lines and flushes.
fn write_lines(output: &mut impl Write, lines: &[String]) -> Result<()> {
    for line in lines {
        writeln!(output, "{line}").map_err(textio::write_error)?;
    }
    output.flush().map_err(textio::write_error)
}

/// Runs the protocol loop on stdin/stdout.
///
/// # Errors
///
/// Reading stdin or writing stdout failed.
pub(crate) fn run() -> Result<()> {
    serve(io::stdin().lock(), textio::stdout())
}

#[cfg(test)]
mod tests {
    use super::*;

    // The program always writes the en passant square after a double step.
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

    fn lines(session: &mut Session, input: &str) -> Vec<String> {
        handle(input, session)
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
        let (best, _) = chess::reply_at(start, 2).unwrap();
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
        let out = lines(&mut s, "go wtime 1000 btime 1000");
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("info depth 2 score cp "), "{out:?}");
        assert!(out[0].ends_with(" rewrites"), "{out:?}");
        let mv = out[1].strip_prefix("bestmove ").expect("bestmove");
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
        let out = lines(&mut s, "go infinite");
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
    fn go_chooses_the_depth_from_its_limits() {
        let go = |args: &str| parse_go(&args.split_whitespace().collect::<Vec<_>>());
        let guess = |d: u32| first_guess_ms(d);
        // An explicit depth, clamped to what the engine has.
        assert_eq!(choose_depth(&go("depth 1"), true, 2, guess), 2);
        assert_eq!(choose_depth(&go("depth 3"), true, 2, guess), 3);
        assert_eq!(choose_depth(&go("depth 9"), true, 2, guess), MAX_DEPTH);
        assert_eq!(choose_depth(&go("depth 4"), true, 3, guess), 4);
        // A time limit picks the deepest depth expected to fit, up to the
        // Depth option.
        assert_eq!(choose_depth(&go("movetime 100"), true, 3, guess), 2);
        assert_eq!(choose_depth(&go("movetime 5000"), true, 3, guess), 3);
        assert_eq!(choose_depth(&go("movetime 5000"), true, 2, guess), 2);
        assert_eq!(choose_depth(&go("movetime 5000"), true, 4, guess), 4);
        assert_eq!(choose_depth(&go("movetime 5000"), true, 5, guess), 5);
        // Depth 4 is expected to cost less than 3.
        assert_eq!(choose_depth(&go("movetime 1000"), true, 5, guess), 4);
        assert_eq!(choose_depth(&go("movetime 5000"), true, 3, |_| 9_000), 2);
        assert_eq!(
            choose_depth(&go("movetime 5000"), true, 4, |d| if d == 4 {
                9_000
            } else {
                50
            }),
            3
        );
        // The mover's clock: a thirtieth of it plus half the increment.
        let clocks = go("wtime 600000 btime 3000 winc 0 binc 0");
        assert_eq!(choose_depth(&clocks, true, 3, guess), 3);
        assert_eq!(choose_depth(&clocks, false, 3, guess), 2);
        // No limit: the Depth option.
        assert_eq!(choose_depth(&go("infinite"), true, 3, guess), 3);
    }

    #[test]
    fn options_are_advertised_and_checked() {
        let out = lines(&mut Session::new(), "uci");
        assert!(
            out.contains(&"option name Depth type spin default 5 min 2 max 5".to_string()),
            "{out:?}"
        );
        let mut s = Session::new();
        assert!(lines(&mut s, "setoption name Depth value 3").is_empty());
        assert_eq!(s.depth, 3);
        assert!(lines(&mut s, "setoption name Depth value 2").is_empty());
        assert_eq!(s.depth, 2);
        let out = lines(&mut s, "setoption name Depth value 7");
        assert!(
            out[0].starts_with("info string Depth \"7\" refused"),
            "{out:?}"
        );
        let out = lines(&mut s, "setoption name Hash value 16");
        assert!(out[0].contains("no option named \"Hash\""), "{out:?}");
    }

    #[test]
    fn serve_answers_a_waiting_search_at_the_end_of_input_and_bounds_lines() {
        let mut input = b"go infinite\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\n\xff\nisready\n");
        let mut output = Vec::new();
        serve(&input[..], &mut output).unwrap();
        let text = String::from_utf8(output).unwrap();
        let last: Vec<&str> = text.lines().rev().take(4).collect();
        assert!(last[0].starts_with("bestmove "), "{text}");
        assert_eq!(last[1], "readyok", "{text}");
        assert_eq!(last[2], "info string ignoring a line that is not UTF-8");
        assert!(last[3].starts_with("info string ignoring a line of 1048586 bytes"));
        assert_eq!(text.matches("bestmove").count(), 1, "{text}");
    }

    #[test]
    fn unknown_and_ignored_commands() {
        let mut s = Session::new();
        let before = s.clone();
        let same_depth = format!("setoption name Depth value {DEFAULT_DEPTH}");
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
        serve(&input[..], &mut output).unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(
            text.contains(&format!("uciok\nreadyok\ninfo depth {DEFAULT_DEPTH} ")),
            "{text}"
        );
        assert!(text.ends_with('\n') && text.lines().last().unwrap().starts_with("bestmove "));
        assert_eq!(text.matches("readyok").count(), 1, "{text}");
    }
}
