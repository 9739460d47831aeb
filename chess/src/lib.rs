//! regex-chess-program: chess written in the regex-asm DSL.
//!
//! Folders, bottom to top (each imports only those before it):
//!
//! - [`vocabulary`]: the search's terms ([`Depth`] and the plan it stands
//!   for, the score scale, mate arithmetic), imported by the evaluation,
//!   the search and the front ends;
//! - `board`: the one-line mailbox board the regexes work on, and
//!   [`codec`] (FEN <-> position threads);
//! - `rules`: special instructions, each with its own reference meaning
//!   (fork rules, the attack test, the move-making steps, small specials,
//!   and [`ending`]: the draws besides stalemate);
//! - `eval`: the evaluation and the terms at the search's leaves (the
//!   lone-king term, capture quiescence, threats, good captures, standing
//!   pat);
//! - [`movegen`]: the legal-move program in the DSL;
//! - [`search`]: the engine's reply (minimax, the best thread of each run,
//!   the probe cut, draw sense from the game's history) and thinking on a
//!   clock ([`search::clock`], [`search::deepen`]);
//! - `game`: [`turn`], one turn of a game as one pass (with the SAN and
//!   the score in words it writes), and [`screen`], the screen between
//!   turns;
//! - [`successors`]: the stand-alone FEN-to-successors program;
//! - [`reference`](mod@reference): the same search and evaluation on shakmaty;
//! - [`games`]: random games and mirrored positions for tests, fuzzing and
//!   benchmarks.
//!
//! [`legal_moves`] runs the legal-move program on the regex VM;
//! [`search`] runs the reply program at a fixed depth, [`play_turn`] the
//! turn program. [`think`] and [`play_turn_within`] run them on a clock:
//! [`search::clock`] says how long a move may take, [`search::deepen`]
//! climbs the ladder of depths until that time is up.
//!
//! The crate's surface: the entry points at the root (and [`Depth`],
//! [`EVEN`] and [`MATE`]), and the modules other crates build on: `codec`,
//! `screen`, `ending`, `movegen`, `search` (with `search::clock` and
//! `search::deepen`), `turn` (the programs' DSL for listings and
//! differential tests), `vocabulary`, `successors`, `reference` and
//! `games`. The special instructions, the evaluation, the probe cut and the
//! board layout are private stages.

#![forbid(unsafe_code)]

mod board;
pub mod book;
mod error;
mod eval;
mod game;
pub mod games;
pub mod movegen;
mod passes;
pub mod reference;
mod rules;
pub mod search;
pub mod successors;
pub mod vocabulary;

pub use board::codec;
pub use eval::values;
pub use game::{screen, turn};
pub use rules::ending;

use regex_vm::state::State;
use regex_vm::{ExecError, Stats, Stop};

use search::deepen::{self, Climb, Limits, Rung};

pub use codec::FenError;
pub use error::{BuildError, Error};
pub use passes::{
    build_passes, build_passes_with, config_for, move_pass, reply_pass, reply_pass_built,
    reply_pass_built_with, reply_pass_with, turn_pass, turn_pass_with, Pass,
};
pub use search::{UseBook, Variant};
pub use vocabulary::{Depth, DepthError, EVEN, MATE};

/// Runs the move pass over a state; returns the new state and statistics.
///
/// # Errors
///
/// [`Error::Exec`] if the VM stops.
pub fn run_move_pass(state: &str) -> Result<(String, Stats), Error> {
    let pass = move_pass()?;
    let mut s = state.to_string();
    let stats = pass.executor.run(&mut s)?;
    Ok((s, stats))
}

/// The legal moves of a position and the FEN after each, computed by the
/// regex program, sorted by move.
///
/// # Errors
///
/// [`Error::Fen`] for an invalid FEN; the others for failures of the VM.
pub fn legal_moves(fen: &str) -> Result<Vec<(String, String)>, Error> {
    let start = codec::encode_fen(fen)?;
    let state = State {
        prefix: String::new(),
        threads: vec![codec::thread_of(&start)],
    };
    let (out, _) = run_move_pass(&state.render())?;
    let mut moves = successors(&out)?;
    moves.sort();
    Ok(moves)
}

/// Threads per VM run in [`perft`]: bounds the state size.
pub const PERFT_BATCH: usize = 256;

/// The number of leaf positions `depth` plies from `fen`, every node's moves
/// computed by the regex program.
///
/// # Errors
///
/// As [`legal_moves`].
pub fn perft(fen: &str, depth: u32) -> Result<u64, Error> {
    Ok(perft_batched(fen, depth, PERFT_BATCH, &mut |_| {})?.leaves)
}

/// What [`perft_batched`] counted and held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerftReport {
    /// Leaf positions.
    pub leaves: u64,
    /// The most positions (threads) held in memory at once.
    pub peak_held: usize,
}

/// [`perft`] with `batch` threads per VM run, calling `progress` with the
/// number of leaves counted so far after every VM run of the last ply.
///
/// The tree is walked depth-first over batches: a batch of at most `batch`
/// threads is expanded by one VM run, and its children are counted (at the
/// last ply, from the run's thread count, without parsing) or expanded in
/// turn, batch by batch, before the next batch of the same ply is touched.
/// Only one batch's children are held per ply, so the positions held stay
/// under `depth x batch x` the widest branching, whatever the tree's size.
///
/// # Errors
///
/// As [`legal_moves`].
pub fn perft_batched(
    fen: &str,
    depth: u32,
    batch: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<PerftReport, Error> {
    let start = codec::encode_fen(fen)?;
    let mut walk = PerftWalk {
        batch: batch.max(1),
        leaves: 0,
        held: 1,
        peak_held: 1,
        progress,
    };
    if depth == 0 {
        return Ok(PerftReport {
            leaves: 1,
            peak_held: 1,
        });
    }
    walk.expand(&[codec::thread_of(&start)], depth)?;
    Ok(PerftReport {
        leaves: walk.leaves,
        peak_held: walk.peak_held,
    })
}

/// The state of a [`perft_batched`] walk.
struct PerftWalk<'a> {
    batch: usize,
    leaves: u64,
    held: usize,
    peak_held: usize,
    progress: &'a mut dyn FnMut(u64),
}

impl PerftWalk<'_> {
    /// Adds the leaves `depth` (at least 1) plies below each of `threads`
    /// (at most one batch).
    fn expand(&mut self, threads: &[regex_vm::state::Thread], depth: u32) -> Result<(), Error> {
        let state = State {
            prefix: String::new(),
            threads: threads.to_vec(),
        };
        let (out, stats) = run_move_pass(&state.render())?;
        if depth == 1 {
            self.leaves += (stats.active_threads + stats.paused_threads) as u64;
            (self.progress)(self.leaves);
            return Ok(());
        }
        let children = State::parse(&out).map_err(Error::BadState)?.threads;
        drop(out);
        self.held += children.len();
        self.peak_held = self.peak_held.max(self.held);
        for batch in children.chunks(self.batch) {
            self.expand(batch, depth - 1)?;
        }
        self.held -= children.len();
        Ok(())
    }
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Searched {
    /// The move (UCI) and its score, `None` when there is no legal move.
    pub best: Option<(String, u32)>,
    /// The VM's counts for the run that answered.
    pub stats: Stats,
    /// The depth that answered: the one asked for, or less (see
    /// [`search`]).
    pub depth: Depth,
}

/// The engine's reply to `fen`, computed by the regex program searching
/// `depth` plies, in a game whose positions so far (since the last capture
/// or pawn move) have the keys `history` (as [`ending::position_key`]
/// writes them, in any order; empty outside a game): a move into one of
/// them scores as a draw (`repetition`). The history goes before the
/// thread as the turn keeps it, a `Positions:` line. A search deeper than
/// [`Depth::MIN`] whose state outgrows its cap ([`config_for`]) is run
/// again at the ladder's next depth below it ([`deepen::rung_below`]: 5
/// then 3, never the weaker 4), so that memory stays bounded whatever the
/// position; [`Searched::depth`] says which depth answered. On a clock,
/// [`think`] climbs the depths instead.
///
/// # Errors
///
/// [`Error::Fen`] for an invalid FEN, [`Error::History`] for a key that is
/// not a side and 64 squares; the others for failures of the VM.
pub fn search(fen: &str, history: &[String], depth: Depth) -> Result<Searched, Error> {
    search_with(fen, history, depth, reply_pass)
}

/// [`search`] by the reply programs of `variant` ([`reply_pass_with`]):
/// with the book, a book position answers the book's move and score at
/// any depth.
///
/// # Errors
///
/// As [`search`].
pub fn search_variant(
    fen: &str,
    history: &[String],
    depth: Depth,
    variant: Variant,
) -> Result<Searched, Error> {
    search_with(fen, history, depth, |d| reply_pass_with(d, variant))
}

/// As [`search`], with `probe` (a move's name, `e2e4`) as the root's
/// probe hint ([`search::hint`]): the root searches that move beside the
/// one its 2-ply look chooses, and the better score of the two decides
/// how many of the others are dropped unsearched. The
/// move and score are those of [`search`] whatever the hint (a move that
/// is not legal here is no hint); a good one only makes the search
/// faster. [`think`] gives each rung the answer of the rung below.
///
/// # Errors
///
/// As [`search`]; [`Error::Hint`] when `probe` is not a move's name.
pub fn search_hinted(
    fen: &str,
    history: &[String],
    depth: Depth,
    probe: &str,
) -> Result<Searched, Error> {
    search_hinted_variant(fen, history, depth, probe, Variant::default())
}

/// [`search_hinted`] by the reply programs of `variant`.
///
/// # Errors
///
/// As [`search_hinted`].
pub fn search_hinted_variant(
    fen: &str,
    history: &[String],
    depth: Depth,
    probe: &str,
    variant: Variant,
) -> Result<Searched, Error> {
    let line = search::hint::hint_line(probe).ok_or_else(|| Error::Hint(codec::excerpt(probe)))?;
    search_from(&start_state(fen, history, &line)?, depth, |d| {
        reply_pass_with(d, variant)
    })
}

/// As [`search`], with the reply pass of each depth given by `pass` (tests
/// use it to lower the state cap).
///
/// # Errors
///
/// As [`search`].
pub fn search_with<'a>(
    fen: &str,
    history: &[String],
    depth: Depth,
    pass: impl Fn(Depth) -> Result<&'a Pass, Error>,
) -> Result<Searched, Error> {
    search_from(&start_state(fen, history, "")?, depth, pass)
}

/// The search of [`search_with`] from a reply state already made.
fn search_from<'a>(
    start: &str,
    depth: Depth,
    pass: impl Fn(Depth) -> Result<&'a Pass, Error>,
) -> Result<Searched, Error> {
    let (result, depth) =
        shallower_on_overflow(depth, |d| search_once(pass(d)?, start, &Stop::never()))?;
    let (best, stats) = result;
    Ok(Searched { best, stats, depth })
}

/// Runs `run(depth)`; while it fails because the state outgrew its cap and
/// the ladder has a depth below (`deepen::rung_below`), runs it again
/// there. Returns the result and the depth that gave it.
fn shallower_on_overflow<T>(
    mut depth: Depth,
    mut run: impl FnMut(Depth) -> Result<T, Error>,
) -> Result<(T, Depth), Error> {
    loop {
        let result = run(depth);
        if let Err(Error::Exec(ExecError::StateTooLarge { .. })) = &result {
            if let Some(below) = deepen::rung_below(depth) {
                depth = below;
                continue;
            }
        }
        return result.map(|t| (t, depth));
    }
}

/// What [`think`] found: the finished rungs, each with its move and
/// score (`None` without a legal move); the last one answers.
pub type Thought = Climb<Option<(String, u32)>>;

/// The engine's reply on a clock: the reply programs of `limits.rungs`
/// run in turn (see [`deepen`]), the deepest one that finished answers;
/// each rung after the first searches the answer of the one below first,
/// as its root's probe hint ([`search_hinted`]).
/// The first rung always finishes (each rung's program is built on first
/// use, see [`reply_pass_built`] to leave out those not built). A mate
/// with the first move, a position with a single legal move, or (with
/// `limits.book` on) a book position, whose every rung answers from the
/// book, ends the climb. `on_rung` hears of each finished
/// rung as it finishes. `history` as for [`search`].
///
/// # Errors
///
/// As [`search`], for the first rung or a deeper one's failure
/// other than its stop or its state cap (those end the climb).
pub fn think(
    fen: &str,
    history: &[String],
    limits: &Limits,
    on_rung: impl FnMut(&Rung<Option<(String, u32)>>),
) -> Result<Thought, Error> {
    let single = legal_move_count(fen)? <= 1;
    // A book position: every rung's program answers from the book (the
    // search skipped), so the first rung's answer is the climb's.
    let in_book =
        limits.book == UseBook::On && book::book().probe(&codec::parse_fen(fen)?).is_some();
    // Each rung's root searches the rung below's answer beside its own
    // probe (`search::hint`): the same answer, sooner.
    let mut hint = String::new();
    deepen::climb(
        limits,
        |depth, stop| {
            let start = start_state(fen, history, &hint)?;
            let found = search_once(reply_pass_with(depth, limits.variant())?, &start, stop)?;
            if let Some(line) = found
                .0
                .as_ref()
                .and_then(|(mv, _)| search::hint::hint_line(mv))
            {
                hint = line;
            }
            Ok(found)
        },
        |best| single || in_book || deepen::mates_at_once(best),
        on_rung,
    )
}

/// The number of legal moves in `fen`, counted by the move program.
fn legal_move_count(fen: &str) -> Result<usize, Error> {
    let start = codec::encode_fen(fen)?;
    let state = State {
        prefix: String::new(),
        threads: vec![codec::thread_of(&start)],
    };
    let (_, stats) = run_move_pass(&state.render())?;
    Ok(stats.active_threads + stats.paused_threads)
}

/// The reply program's input: the history line (if any), `hint_line` (a
/// [`search::hint::hint_line`], or empty) and the position's thread.
fn start_state(fen: &str, history: &[String], hint_line: &str) -> Result<String, Error> {
    let start = codec::encode_fen(fen)?;
    let mut prefix = String::new();
    if !history.is_empty() {
        prefix.push_str(ending::HISTORY_PREFIX);
        for key in history {
            let squares = key.get(1..).unwrap_or_default();
            let well_formed = (key.starts_with('w') || key.starts_with('b'))
                && squares.len() == 64
                && squares.bytes().all(|b| b"PNBRQKpnbrqkTt.,".contains(&b));
            if !well_formed {
                return Err(Error::History(codec::excerpt(key)));
            }
            prefix.push(' ');
            prefix.push_str(key);
        }
        prefix.push('\n');
    }
    prefix.push_str(hint_line);
    let state = State {
        prefix,
        threads: vec![codec::thread_of(&start)],
    };
    Ok(state.render())
}

/// One run of a reply pass on a start state, given up when `stop` says so.
fn search_once(
    pass: &Pass,
    start: &str,
    stop: &Stop,
) -> Result<(Option<(String, u32)>, Stats), Error> {
    let mut s = start.to_string();
    let stats = pass.executor.run_until(&mut s, stop)?;
    let parsed = State::parse(&s).map_err(Error::BadState)?;
    let t = parsed
        .threads
        .first()
        .ok_or(Error::BadOutput("no thread"))?;
    let mv = t.var(vocabulary::BEST).unwrap_or_default();
    if mv.is_empty() {
        return Ok((None, stats));
    }
    let score = t
        .var(vocabulary::SCORE)
        .and_then(|v| v.parse().ok())
        .ok_or(Error::BadOutput("a score that is not a number"))?;
    Ok((Some((mv.to_string(), score)), stats))
}

/// Plays one turn: appends `line` and a newline to the screen in `state`
/// (nothing when `None`: an empty state boots, an engine to move moves) and
/// runs the turn program once, the engine searching `depth` plies; a turn
/// whose deeper search outgrows its state cap is played again at the
/// ladder's depth below ([`deepen::rung_below`]), from the same input (as
/// [`search`] does).
///
/// # Errors
///
/// [`Error::Exec`] if the VM stops, `state` then as the VM left it.
pub fn play_turn(state: &mut String, line: Option<&str>, depth: Depth) -> Result<Stats, Error> {
    play_turn_with(state, line, depth, Variant::default())
}

/// [`play_turn`] by the turn programs of `variant` (the book's stage
/// first, late-move pruning).
///
/// # Errors
///
/// As [`play_turn`].
pub fn play_turn_with(
    state: &mut String,
    line: Option<&str>,
    depth: Depth,
    variant: Variant,
) -> Result<Stats, Error> {
    if let Some(line) = line {
        state.push_str(line);
        state.push('\n');
    }
    // Kept for a shallower run if the deeper one outgrows its cap.
    let input = state.clone();
    let (stats, _) = shallower_on_overflow(depth, |d| {
        state.clone_from(&input);
        Ok(turn_pass_with(d, variant)?.executor.run(state)?)
    })?;
    Ok(stats)
}

/// As [`play_turn`] on a clock: the turn programs of `limits.rungs` run
/// in turn on the same input (see [`deepen`]), each after the first with
/// the move the one below played as its hint line (`search::hint`, as
/// [`think`] gives it), and `state` becomes the screen of the deepest one
/// that finished. The climb goes past the first
/// rung only when the engine moved in it (the screen's last-moves line
/// says [`turn::ENGINE_PLAYED`]); a deeper rung whose state outgrows its
/// cap, or that is stopped, leaves the screen of the one before. The
/// first rung always finishes.
///
/// # Errors
///
/// [`Error::Exec`] if the first rung's VM run fails, `state` then as the
/// VM left it.
pub fn play_turn_within(
    state: &mut String,
    line: Option<&str>,
    limits: &Limits,
) -> Result<Climb<bool>, Error> {
    if let Some(line) = line {
        state.push_str(line);
        state.push('\n');
    }
    let input = state.clone();
    let before = screen::parse_screen(&input).map(|s| s.info);
    let mut first = true;
    // Each rung after the first starts with the rung below's move as its
    // hint line (as `think` gives its rungs).
    let mut hint = String::new();
    let climb = deepen::climb(
        limits,
        |depth, stop| {
            let mut out = format!("{hint}{input}");
            let run = turn_pass_with(depth, limits.variant())?
                .executor
                .run_until(&mut out, stop);
            // The first rung's failure leaves the state as the VM left it.
            if first || run.is_ok() {
                state.clone_from(&out);
            }
            first = false;
            let stats = run?;
            let info = screen::parse_screen(&out).map(|s| s.info);
            let replied = info
                .as_deref()
                .is_some_and(|i| i.contains(turn::ENGINE_PLAYED))
                && info != before;
            if replied {
                hint = info
                    .as_deref()
                    .and_then(turn::engine_move)
                    .and_then(search::hint::hint_line)
                    .unwrap_or_default();
            }
            Ok((replied, stats))
        },
        |replied| !replied,
        |_| {},
    )?;
    Ok(climb)
}

/// The (move, FEN) pairs of every thread of a state left by the move pass.
///
/// # Errors
///
/// [`Error::BadState`] if the state is not one, [`Error::BadOutput`] if a
/// thread lacks a move, [`Error::Fen`] if it lacks a position.
pub fn successors(state: &str) -> Result<Vec<(String, String)>, Error> {
    let parsed = State::parse(state).map_err(Error::BadState)?;
    parsed
        .threads
        .iter()
        .map(|t| {
            let mv = t
                .var(movegen::MOVE_VAR)
                .ok_or(Error::BadOutput("a thread with no move"))?;
            let pos = codec::from_thread(t)?;
            Ok((mv.to_string(), codec::decode(&pos)?))
        })
        .collect()
}
