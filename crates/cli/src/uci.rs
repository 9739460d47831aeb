//! `regex-chess uci`: the UCI protocol on standard input and output.
//!
//! One line in, zero or more lines out, and perhaps a search: [`handle`]
//! maps a command and the [`Session`] it acts on to the lines to print and
//! the [`Job`] of a `go`, and [`serve`] is the loop around it. The loop
//! reads input on a thread of its own and runs each search on another, so
//! that `stop`, `isready` and `quit` are answered while a search runs
//! (`stop` and `quit` stop it: it answers at once with the deepest depth
//! that finished; other commands wait for the search to end, as UCI says a
//! GUI sends none then). All chess is the regex programs': `position ...
//! moves` plays each move by finding it among `chess::legal_moves` of the
//! current position and taking the FEN the program computed after it, and
//! `go` runs `chess::think`, the search deepened over the ladder of depths
//! (`chess::search::deepen`), given the keys of the game's positions since the
//! last capture or pawn move (draw sense). shakmaty only validates FEN
//! text.
//!
//! The limits of a `go`: `depth N` searches N plies (clamped to the depths the
//! engine has; the first rung of the ladder runs before it, so that a `stop`
//! has an answer); `movetime` or the mover's clock (`wtime`/`btime`, the
//! increments, `movestogo`) give a time budget (`chess::search::clock`) and the
//! search climbs the ladder up to the `Depth` option (by default the ladder's
//! top, `deepen::TIMED_TOP`) within it; `infinite` and `ponder` climb to the
//! `Depth` option without a time limit; a bare `go` searches the `Depth`
//! option's depth; `nodes`, `mate` and `searchmoves` are reported as not
//! supported and searched without. Under `go infinite` and `go ponder` the
//! protocol forbids `bestmove` before `stop` (or `ponderhit`, which this engine
//! treats as `stop`), so a finished answer is held back until then, or until
//! `quit` or the end of the input: every `go` gets exactly one `bestmove`. Each
//! finished depth prints its `info` line as it finishes. A command that cannot
//! be carried out (a malformed line, an invalid FEN) is reported as `info
//! string ...` and changes nothing; an illegal or malformed move in `position
//! ... moves` is reported and the moves before it are played, as Stockfish
//! does. Lines over [`MAX_LINE`] bytes are refused in bounded memory. Unknown
//! commands are ignored as UCI asks.
//!
//! The programs (seconds to build, the deepest most of it) are built on a
//! thread of their own from `uci` (or the first `go`) on, in the order a
//! game needs them: the move program and the ladder's first rung alone,
//! then the other rungs, shallowest first, on every core. `isready` waits
//! for the first two only (what any search needs to answer). A search on
//! a clock waits only for them too: a deeper rung whose program is still
//! being built is skipped and said so (`info string depth N skipped:
//! ...`), so that a `go` sent right after launch, or right after the
//! `readyok` a GUI waits for before its first `go`, answers within its
//! time. A search without a clock waits for its programs.
//!
//! This module owns the session and what each line means; the loop and
//! its threads are `uci::serve`, the parsing of `position` and `go`
//! `uci::commands`, the lines written about a search `uci::output`.

use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, Once, OnceLock, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chess::search::clock::{budget, Clock};
use chess::search::deepen::{every_program, rungs_at, rungs_to, Limits, LADDER, TIMED_TOP};
use chess::Depth;
use chess::{UseBook, Variant};

use crate::textio::{self, quote};

mod commands;
mod output;
mod serve;

pub(crate) use commands::{parse_go, parse_position, GoCmd, PositionCmd};
pub(crate) use output::{bestmove_line, centipawns, info_line, info_string, score_text};

use output::{ended_line, failure_lines, skipped_line};
pub(crate) use serve::serve;

/// The longest input line read (1 MB); a longer one is refused.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// The `option` lines of the `uci` answer: every option the engine has.
pub(crate) fn options() -> Vec<String> {
    vec![
        format!(
            "option name Depth type spin default {} min {} max {}",
            TIMED_TOP,
            Depth::MIN,
            Depth::MAX
        ),
        format!("option name LateMoves type spin default {LATE_MOVES} min 0 max {MOST_LATE}"),
        format!(
            "option name OwnBook type check default {}",
            OWN_BOOK == UseBook::On
        ),
    ]
}

/// The `LateMoves` option's most: late-move pruning keeping that many
/// best-looking candidates (`chess::Variant::late`); 0 is off.
const MOST_LATE: u32 = crate::MOST_LATE_MOVES;

/// Late-move pruning before any `setoption`: the engine's default.
const OWN_LATE: Option<u32> = crate::late_moves(LATE_MOVES);

/// The programs the process's session searches with (its `OwnBook` and
/// `LateMoves`), which the clock's check of a built program reads
/// ([`reply_built`]): one session a process.
static VARIANT: Mutex<Variant> = Mutex::new(Variant {
    book: OWN_BOOK,
    late: OWN_LATE,
});

/// The session's programs, as [`VARIANT`] holds them.
fn session_variant() -> Variant {
    *VARIANT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The `OwnBook` option's default: whether a search answers from the
/// opening book first (`chess::book`).
pub(crate) const OWN_BOOK: UseBook = UseBook::Off;

/// The time rule's view of a `go`: its `movetime`, or the mover's clock.
pub(crate) fn clock_of(go: &GoCmd, white_to_move: bool) -> Clock {
    let (remaining, increment) = if white_to_move {
        (go.wtime, go.winc)
    } else {
        (go.btime, go.binc)
    };
    Clock {
        movetime: go.movetime.map(Duration::from_millis),
        remaining: remaining.map(Duration::from_millis),
        increment: Duration::from_millis(increment.unwrap_or(0)),
        moves_to_go: go.movestogo,
    }
}

/// How far a `go` searches (see the module's doc): `depth N` exactly; a
/// time limit, the ladder up to the `Depth` option within its budget,
/// skipping the rungs whose programs are not built yet; `infinite`/`ponder`,
/// the ladder without a limit; else the `Depth` option's depth. The time
/// counts from `start`; `flag` stops it.
pub(crate) fn limits_of(
    go: &GoCmd,
    white_to_move: bool,
    option: Depth,
    start: Instant,
    flag: Arc<AtomicBool>,
) -> Limits {
    let budget = budget(&clock_of(go, white_to_move));
    let (rungs, budget) = match (go.depth, budget) {
        (Some(d), _) => (rungs_at(Depth::nearest(d)), None),
        (None, Some(b)) => (rungs_to(option), Some(b)),
        (None, None) if go.wait => (rungs_to(option), None),
        (None, None) => (rungs_at(option), None),
    };
    Limits {
        start,
        budget,
        flag: Some(flag),
        rungs,
        // On a clock, a program still being built is skipped rather than
        // waited for.
        built: if budget.is_some() {
            reply_built
        } else {
            every_program
        },
        ..Limits::to_depth(option)
    }
}

/// Whether the reply program of `depth` is built (a rung on a clock
/// runs only then).
fn reply_built(depth: Depth) -> bool {
    chess::reply_pass_built_with(depth, session_variant()).is_some()
}

/// The position of `position startpos`.
use crate::{LATE_MOVES, START_FEN};

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

/// The command a line carries, if any (see [`COMMANDS`]).
pub(crate) fn command_of(line: &str) -> Option<&str> {
    line.split_whitespace().find(|t| COMMANDS.contains(t))
}

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
    /// The `Depth` option: the deepest search.
    depth: Depth,
    /// The `LateMoves` option: late-move pruning keeping that many, `None`
    /// for 0 (off).
    late: Option<u32>,
    /// The `OwnBook` option.
    book: UseBook,
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
            depth: TIMED_TOP,
            late: OWN_LATE,
            book: OWN_BOOK,
        }
    }

    /// The programs its searches run (the `OwnBook` and `LateMoves`
    /// options).
    fn variant(&self) -> Variant {
        Variant {
            book: self.book,
            late: self.late,
        }
    }

    /// The current position (FEN).
    pub(crate) fn fen(&self) -> &str {
        &self.fen
    }

    /// Whether `quit` was received.
    pub(crate) fn quitting(&self) -> bool {
        self.quit
    }

    /// Marks `quit` as received.
    pub(crate) fn set_quitting(&mut self) {
        self.quit = true;
    }

    /// Holds back a `bestmove` line until `stop`.
    pub(crate) fn hold(&mut self, bestmove: String) {
        self.pending = Some(bestmove);
    }

    /// The `bestmove` line held back, if any.
    pub(crate) fn take_pending(&mut self) -> Option<String> {
        self.pending.take()
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

/// One `go` to carry out: the position, its history and how far to
/// search.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    fen: String,
    history: Vec<String>,
    limits: Limits,
    /// Hold `bestmove` back until `stop` (`infinite`, `ponder`).
    pub(crate) wait: bool,
}

impl Job {
    /// The flag that stops the search.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        self.limits
            .flag
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false)))
    }

    /// Runs the search: `emit` gets each `info` line as it is ready (one
    /// per finished depth, then why no deeper one answered); returns the
    /// `bestmove` line.
    pub(crate) fn run(&self, emit: &mut dyn FnMut(String)) -> String {
        let thought = chess::think(&self.fen, &self.history, &self.limits, |rung| {
            emit(info_line(rung.depth, &rung.answer, rung.at, &rung.stats));
        });
        match thought {
            Ok(thought) => {
                for &depth in &thought.skipped {
                    emit(skipped_line(depth));
                }
                if let Some(line) = ended_line(&thought.ended) {
                    emit(line);
                }
                bestmove_line(&thought.answer().answer)
            }
            Err(e) => {
                let mut lines = failure_lines(&textio::chain(&e));
                let best = lines.pop().unwrap_or_default();
                for line in lines {
                    emit(line);
                }
                best
            }
        }
    }
}

/// Starts building the move program and the ladder's reply programs on a
/// thread of their own (once per process): the move program and the first
/// rung alone (all a first move waits for), then the other rungs,
/// shallowest first.
fn start_warm_up() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        thread::spawn(|| {
            let (first, rest) = LADDER.split_at(1);
            let _ = FIRST_BUILT.set(build(first, session_variant()));
            let _ = ALL_BUILT.set(build(rest, session_variant()));
        });
    });
}

/// What the warm-up said once the move program and the first rung were
/// built.
static FIRST_BUILT: OnceLock<Vec<String>> = OnceLock::new();
/// What it said once the other rungs were.
static ALL_BUILT: OnceLock<Vec<String>> = OnceLock::new();

/// Waits for what any search needs to answer (the move program and the
/// first rung), not for the deeper rungs, which a search on a clock skips
/// while they are built and a search without one waits for; the failures
/// known so far as `info string` lines.
fn wait_ready() -> Vec<String> {
    start_warm_up();
    let mut out = FIRST_BUILT.wait().clone();
    out.extend(ALL_BUILT.get().into_iter().flatten().cloned());
    out
}

/// Builds the move program and the reply programs of `depths` (the move
/// program beside the first of them).
fn build(depths: &[Depth], variant: Variant) -> Vec<String> {
    let built = thread::scope(|scope| {
        let moves = scope.spawn(|| chess::move_pass().map(|_| ()));
        let replies = chess::build_passes_with(depths, false, variant);
        moves
            .join()
            .unwrap_or(Err(chess::Error::BadOutput("a build that panicked")))
            .and(replies)
    });
    match built {
        Ok(()) => Vec::new(),
        Err(e) => vec![info_string(&format!(
            "building the programs failed: {}",
            textio::chain(&e)
        ))],
    }
}

/// What one line asks for: lines to print at once, and a search to run.
#[derive(Debug, Default)]
pub(crate) struct Handled {
    /// Lines to print now.
    pub lines: Vec<String>,
    /// A `go`'s search, which prints its own lines when it ends.
    pub job: Option<Job>,
}

impl From<Vec<String>> for Handled {
    fn from(lines: Vec<String>) -> Handled {
        Handled { lines, job: None }
    }
}

/// Carries out one line of input that arrived at `at`: the lines to print,
/// and for `go` the search to run.
pub(crate) fn handle(line: &str, session: &mut Session, at: Instant) -> Handled {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(at_command) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Handled::default();
    };
    let (command, args) = (tokens[at_command], &tokens[at_command + 1..]);
    match command {
        "uci" => {
            start_warm_up();
            let mut out = vec![
                format!("id name regex-chess {}", env!("CARGO_PKG_VERSION")),
                "id author the regex-chess developers".into(),
            ];
            out.extend(options());
            out.push("uciok".into());
            out.into()
        }
        "isready" => {
            let mut out = wait_ready();
            out.push("readyok".into());
            out.into()
        }
        "ucinewgame" => {
            session.base = START_FEN.to_string();
            session.moves.clear();
            session.fen = START_FEN.to_string();
            session.history = history_after(Vec::new(), START_FEN);
            Handled::default()
        }
        "position" => {
            let parsed = match parse_position(args) {
                Ok(cmd) => cmd,
                Err(message) => {
                    return vec![info_string(&format!(
                        "position rejected, keeping the previous one: {message}"
                    ))]
                    .into()
                }
            };
            match session.set_position(parsed) {
                Ok(()) => Handled::default(),
                Err(message) => vec![info_string(&format!("position: {message}"))].into(),
            }
        }
        "go" => {
            start_warm_up();
            let go = parse_go(args);
            let mut lines: Vec<String> = go.warnings.iter().map(|w| info_string(w)).collect();
            // A search still waiting for `stop` is answered first: every
            // `go` gets exactly one `bestmove`.
            lines.extend(session.pending.take());
            let white_to_move = session.fen.split(' ').nth(1) != Some("b");
            let flag = Arc::new(AtomicBool::new(false));
            let mut limits = limits_of(&go, white_to_move, session.depth, at, flag);
            // The `OwnBook` option: the programs with the book's stage
            // (on a clock, a rung runs once its own program is built).
            limits.book = session.book;
            limits.late = session.late;
            Handled {
                lines,
                job: Some(Job {
                    fen: session.fen().to_string(),
                    history: session.history.clone(),
                    limits,
                    wait: go.wait,
                }),
            }
        }
        "stop" | "ponderhit" => session
            .pending
            .take()
            .into_iter()
            .collect::<Vec<_>>()
            .into(),
        "quit" => {
            session.quit = true;
            // A search waiting for `stop` still answers.
            session
                .pending
                .take()
                .into_iter()
                .collect::<Vec<_>>()
                .into()
        }
        "setoption" => set_option(args, session)
            .into_iter()
            .collect::<Vec<_>>()
            .into(),
        // `debug`, `register`.
        _ => Handled::default(),
    }
}

/// The answer to `setoption`: nothing for an accepted value, a message
/// otherwise.
fn set_option(args: &[&str], session: &mut Session) -> Option<String> {
    let text = args.join(" ");
    let rest = text.strip_prefix("name ")?;
    let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
    if name.trim().eq_ignore_ascii_case("LateMoves") {
        return set_late_moves(value, session);
    }
    if name.trim().eq_ignore_ascii_case("OwnBook") {
        return set_own_book(value, session);
    }
    if !name.trim().eq_ignore_ascii_case("Depth") {
        return Some(info_string(&format!(
            "no option named {}; see the option lines of `uci`",
            quote(name.trim())
        )));
    }
    match value.parse::<Depth>() {
        Ok(depth) => {
            session.depth = depth;
            // A depth off the ladder is built beside it, so that a search
            // on a clock finds it built once it is.
            if !LADDER.contains(&depth) {
                let variant = session.variant();
                thread::spawn(move || build(&[depth], variant));
            }
            None
        }
        Err(_) => Some(info_string(&format!(
            "Depth {} refused: the search looks {} to {} plies ahead",
            quote(value.trim()),
            Depth::MIN,
            Depth::MAX
        ))),
    }
}

/// `setoption name LateMoves value K`: late-move pruning keeping `K`
/// (0 off); the ladder's programs with it are built on a thread of their
/// own, so that a search on a clock finds them built once they are.
fn set_late_moves(value: &str, session: &mut Session) -> Option<String> {
    match value.trim().parse::<u32>() {
        Ok(keep) if keep <= MOST_LATE => {
            let late = Some(keep).filter(|&k| k > 0);
            if late != session.late {
                session.late = late;
                build_variant(session);
            }
            None
        }
        _ => Some(info_string(&format!(
            "LateMoves {} refused: 0 (off) to {MOST_LATE}",
            quote(value.trim())
        ))),
    }
}

/// `setoption name OwnBook value true|false`: the book first or not; the
/// ladder's programs for that choice are built in the background (as a
/// `Depth` off the ladder is) when it is not the default.
fn set_own_book(value: &str, session: &mut Session) -> Option<String> {
    let book = match value.trim().to_ascii_lowercase().as_str() {
        "true" => UseBook::On,
        "false" => UseBook::Off,
        _ => {
            return Some(info_string(&format!(
                "OwnBook {} refused: give true or false",
                quote(value.trim())
            )))
        }
    };
    if book != session.book {
        session.book = book;
        build_variant(session);
    }
    None
}

/// After an option that changes the session's programs: the process's
/// [`VARIANT`] follows it, and the ladder's programs of the new variant
/// (and the `Depth` option's, if off the ladder) are built in the
/// background, so that a search on a clock finds them built once they
/// are (those built already, by the warm-up or an earlier choice, are
/// found at once).
fn build_variant(session: &Session) {
    let variant = session.variant();
    *VARIANT.lock().unwrap_or_else(PoisonError::into_inner) = variant;
    let mut depths = LADDER.to_vec();
    if !depths.contains(&session.depth) {
        depths.push(session.depth);
    }
    thread::spawn(move || build(&depths, variant));
}

/// Runs the protocol loop on stdin/stdout.
///
/// # Errors
///
/// Writing stdout failed.
pub(crate) fn run() -> Result<()> {
    serve(io::BufReader::new(io::stdin()), textio::stdout()).context("the UCI loop")
}

#[cfg(test)]
mod tests;
