//! `regex-chess fuzz`: differential fuzzing of the regex programs against
//! shakmaty and the native reference search.
//!
//! The fuzzer plays random games with shakmaty and, at every position
//! reached, asks the regex programs what they make of it:
//!
//! 1. [`Kind::Movegen`], every position: the regex program's (move, FEN
//!    after) list equals shakmaty's exactly;
//! 2. [`Kind::Verdict`], every `--verdict-every`-th ply: the turn program,
//!    on a two-player screen of the position carrying the game's history,
//!    announces at once a position that is over (mate, stalemate,
//!    insufficient material, fifty moves); else it accepts each of up to
//!    `--verdict-moves` legal moves (showing shakmaty's position after it
//!    and the game's end when the move ends it: shakmaty's mate, stalemate
//!    and insufficient material, the halfmove clock, and a repetition count
//!    the fuzzer keeps by Zobrist hash since the last capture or pawn move)
//!    and refuses up to three illegal well-formed moves (showing the same
//!    position and the refusal);
//! 3. [`Kind::Reply`], every `--reply-every`-th ply: the reply program at
//!    `--depth` (`chess::search`) plays a legal move that reaches the
//!    reference's best score at that depth, and claims that score; no legal
//!    move gives no reply;
//! 4. [`Kind::Screen`], every position: the turn program renders it and
//!    reading the screen back gives the same FEN.
//!
//! Game `i` draws its moves from stream `i` of a ChaCha8 generator seeded
//! with the campaign seed (`games::Rng::for_game`), so a game is the same
//! whatever `--jobs` is, and
//! starts alternately from the standard position and from the positions of
//! `tests/data/perft.epd` (as given, then colour-flipped) and a few long
//! endings (K+R v K, K+Q v K, K+B+N v K with the halfmove clock at 70, so
//! that random play reaches the fifty-move rule).
//!
//! The first disagreement of each kind is printed as a reproducer (kind,
//! FEN, move, both answers, seed, game) and written to
//! `<out>/<kind>-<seed>-<game>.txt`; the out directory is created and
//! checked for writing before the campaign starts, so a finding is never
//! lost to a bad `--out`. The run ends with a plain-text summary on stdout, one `key: value`
//! per line. Exit code: 1 if anything disagreed, else 130 if Ctrl-C stopped
//! the run, else 0.
//!
//! This module owns the campaign: the arguments, the start positions, the
//! random games, the shared counters and the summary. The checks at each
//! position are `fuzz::checks`, the reproducers `fuzz::findings`. None of
//! them computes chess itself: the regex side comes from
//! `chess::{legal_moves, reply, play_turn}`, the other side from shakmaty
//! and `chess::reference`.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use chess::codec::{fen_of, parse_fen};
use chess::games::{flip_fen, Rng};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use shakmaty::{Move, Position};

mod checks;
mod findings;

use checks::{check, hash, Ply};
use findings::{prepare_out, quiet_when_closed, record};

use crate::START_FEN;

/// Endings random play seldom finishes, started late in their fifty moves:
/// their games reach the fifty-move rule, and repeat positions (half their
/// moves take back the side's previous move when they can).
const LONG_ENDINGS: [&str; 3] = [
    "8/8/3k4/8/8/8/8/R3K3 w - - 70 60",
    "8/2k5/8/8/8/5Q2/8/4K3 b - - 70 60",
    "8/8/4k3/8/8/8/8/2B1KN2 w - - 70 60",
];

/// The draw verdicts counted in the summary, in `draws_checked` order.
const DRAWS: [&str; 3] = ["threefold", "fifty-move", "insufficient-material"];

/// Arguments of `fuzz`.
///
/// The hidden option `--inject-fault <KIND>` corrupts the regex side on
/// purpose so that the fuzzer can be seen to fail: `drop-move` removes the
/// first move of the regex program's list before it is compared (a
/// movegen disagreement at every position with a legal move), `wrong-score`
/// adds 1 to the score `chess::search` claims (a reply disagreement at every
/// sampled position with a legal move), `wrong-verdict` inverts the turn
/// program's verdict on the first move tried at a sampled position.
/// Reproducers name the fault.
#[derive(clap::Args, Debug)]
pub(crate) struct FuzzArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// Campaign seed (default: from the clock; the summary prints it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Plies per game at most (a game also ends at mate, stalemate or
    /// insufficient material).
    #[arg(long, default_value_t = 100)]
    pub max_plies: u32,
    /// Worker threads (default: the number of CPUs).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for reproducer files, made and checked before the campaign.
    #[arg(long, default_value = "fuzz-out")]
    pub out: PathBuf,
    /// Check the engine's reply every K-th ply of each game (its start
    /// included); 0 disables the reply check.
    #[arg(long, default_value_t = 8)]
    pub reply_every: u32,
    /// Plies of the search whose replies are checked.
    #[arg(long, default_value_t = chess::Depth::FAST)]
    pub depth: chess::Depth,
    /// Check the turn program's verdict on moves (legal ones accepted,
    /// illegal well-formed ones refused) every K-th ply; 0 disables it.
    #[arg(long, default_value_t = 4)]
    pub verdict_every: u32,
    /// Legal moves tried per verdict check (all of them when fewer), plus
    /// up to three illegal ones.
    #[arg(long, default_value_t = 8)]
    pub verdict_moves: usize,
    /// Corrupt the regex side on purpose (see the type's documentation).
    #[arg(long, hide = true, value_enum)]
    pub inject_fault: Option<Fault>,
}

/// A deliberate corruption of the regex side, to test the fuzzer itself.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Drop the first move of the regex program's move list.
    DropMove,
    /// Add 1 to the score the regex reply claims.
    WrongScore,
    /// Report the turn program's verdict on the first move tried the wrong
    /// way round.
    WrongVerdict,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::DropMove => "drop-move",
            Fault::WrongScore => "wrong-score",
            Fault::WrongVerdict => "wrong-verdict",
        })
    }
}

/// The kinds of check, numbered as in the fuzzing plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// 1. The legal moves and the FEN after each.
    Movegen,
    /// 2. The game's verdict (mate, stalemate, draw), from the turn program.
    Verdict,
    /// 3. The engine's reply against the reference search, at `--depth`.
    Reply,
    /// 4. The rendered screen, from the turn program.
    Screen,
}

impl Kind {
    /// Every kind, in summary order.
    const ALL: [Kind; 4] = [Kind::Movegen, Kind::Verdict, Kind::Reply, Kind::Screen];

    /// The kinds [`check`] runs.
    const CHECKED: [Kind; 4] = Kind::ALL;

    fn name(self) -> &'static str {
        match self {
            Kind::Movegen => "movegen",
            Kind::Verdict => "verdict",
            Kind::Reply => "reply",
            Kind::Screen => "screen",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    fn is_checked(self) -> bool {
        Kind::CHECKED.contains(&self)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fixed settings of a campaign.
struct Settings {
    seed: u64,
    max_plies: u32,
    reply_every: u32,
    depth: chess::Depth,
    verdict_every: u32,
    verdict_moves: usize,
    fault: Option<Fault>,
    out: PathBuf,
    /// Start FENs, game `i` uses `starts[i % len]`.
    starts: Vec<String>,
}

/// Counters shared by the workers.
#[derive(Default)]
struct Counters {
    games: AtomicU64,
    plies: AtomicU64,
    positions: AtomicU64,
    moves_compared: AtomicU64,
    replies_checked: AtomicU64,
    verdicts_checked: AtomicU64,
    screens_checked: AtomicU64,
    /// Verdicts checked that were draws: threefold, fifty moves,
    /// insufficient material.
    draws_checked: [AtomicU64; 3],
    disagreements: [AtomicU64; 4],
    /// Whether the first disagreement of each kind was reported.
    reported: [AtomicBool; 4],
}

/// Everything a worker needs.
struct Campaign {
    settings: Settings,
    counters: Counters,
    stop: Arc<AtomicBool>,
    bar: ProgressBar,
    started: Instant,
}

/// A snapshot of the counters, printed at the end.
struct Summary {
    seed: u64,
    games: u64,
    plies: u64,
    positions: u64,
    moves_compared: u64,
    replies_checked: u64,
    verdicts_checked: u64,
    screens_checked: u64,
    draws_checked: [u64; 3],
    disagreements: [u64; 4],
    interrupted: bool,
    elapsed: Duration,
}

impl Summary {
    fn total_disagreements(&self) -> u64 {
        self.disagreements.iter().sum()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        writeln!(f, "seed: {}", self.seed)?;
        writeln!(f, "games: {}", self.games)?;
        writeln!(f, "plies: {}", self.plies)?;
        writeln!(f, "positions: {}", self.positions)?;
        writeln!(f, "moves compared: {}", self.moves_compared)?;
        writeln!(f, "replies checked: {}", self.replies_checked)?;
        writeln!(f, "verdicts checked: {}", self.verdicts_checked)?;
        writeln!(f, "screens checked: {}", self.screens_checked)?;
        for (name, n) in DRAWS.iter().zip(self.draws_checked) {
            writeln!(f, "{name} draws checked: {n}")?;
        }
        writeln!(f, "disagreements: {}", self.total_disagreements())?;
        for kind in Kind::ALL {
            write!(
                f,
                "{kind} disagreements: {}",
                self.disagreements[kind.index()]
            )?;
            if !kind.is_checked() {
                write!(f, " (not checked)")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "interrupted: {}",
            if self.interrupted { "yes" } else { "no" }
        )?;
        writeln!(f, "time: {secs:.2} s")?;
        let rate = if secs > 0.0 {
            self.positions as f64 / secs
        } else {
            0.0
        };
        writeln!(f, "positions per second: {rate:.1}")
    }
}

/// Runs the fuzzer.
///
/// # Errors
///
/// Bad arguments, a chess program that does not build, a reproducer file
/// that cannot be written. Disagreements are not errors: they set the exit
/// code.
pub(crate) fn run(args: FuzzArgs) -> Result<ExitCode> {
    let stop = Arc::new(AtomicBool::new(false));
    install_interrupt_handler(&stop);

    let jobs = match args.jobs {
        Some(0) => anyhow::bail!("--jobs must be at least 1"),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    prepare_out(&args.out)?;
    let settings = Settings {
        seed,
        max_plies: args.max_plies,
        reply_every: args.reply_every,
        depth: args.depth,
        verdict_every: args.verdict_every,
        verdict_moves: args.verdict_moves,
        fault: args.inject_fault,
        out: args.out,
        starts: start_positions()?,
    };

    // Build the programs before the clock starts, and fail early if they
    // cannot be built.
    chess::move_pass().context("building the move program")?;
    if settings.reply_every > 0 {
        chess::reply_pass(settings.depth).context("building the reply program")?;
    }
    chess::turn_pass(chess::Depth::FAST).context("building the turn program")?;

    let replies = match settings.reply_every {
        0 => "reply check off".to_string(),
        k => format!("reply check every {k} plies at depth {}", settings.depth),
    };
    let fault = settings
        .fault
        .map(|f| format!(", injected fault {f}"))
        .unwrap_or_default();
    eprintln!(
        "fuzz: games {}, seed {seed}, max plies {}, {replies}, jobs {jobs}{fault}",
        args.games, settings.max_plies,
    );

    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games, {msg}")
            .context("progress bar template")?,
    );
    bar.enable_steady_tick(Duration::from_millis(250));

    let campaign = Campaign {
        settings,
        counters: Counters::default(),
        stop,
        bar,
        started: Instant::now(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("starting the worker threads")?;
    pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .try_for_each(|game| play_game(&campaign, game))
    })?;
    campaign.bar.finish_and_clear();

    let c = &campaign.counters;
    let summary = Summary {
        seed,
        games: c.games.load(Ordering::Relaxed),
        plies: c.plies.load(Ordering::Relaxed),
        positions: c.positions.load(Ordering::Relaxed),
        moves_compared: c.moves_compared.load(Ordering::Relaxed),
        replies_checked: c.replies_checked.load(Ordering::Relaxed),
        verdicts_checked: c.verdicts_checked.load(Ordering::Relaxed),
        draws_checked: c
            .draws_checked
            .each_ref()
            .map(|n| n.load(Ordering::Relaxed)),
        screens_checked: c.screens_checked.load(Ordering::Relaxed),
        disagreements: c
            .disagreements
            .each_ref()
            .map(|d| d.load(Ordering::Relaxed)),
        interrupted: campaign.stop.load(Ordering::Relaxed),
        elapsed: campaign.started.elapsed(),
    };
    if summary.interrupted {
        eprintln!("interrupted: the summary covers the plies played so far");
    }
    // A closed standard output (`fuzz | head -1`) loses only the summary:
    // the exit status still tells whether the campaign found anything.
    quiet_when_closed(write!(crate::textio::stdout(), "{summary}"))?;
    Ok(if summary.total_disagreements() > 0 {
        ExitCode::from(1)
    } else if summary.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// Ctrl-C sets `stop` (workers finish their current ply); a second Ctrl-C
/// exits at once.
fn install_interrupt_handler(stop: &Arc<AtomicBool>) {
    let stop = Arc::clone(stop);
    let presses = AtomicUsize::new(0);
    let installed = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(130);
        }
        stop.store(true, Ordering::SeqCst);
    });
    if let Err(e) = installed {
        eprintln!("warning: Ctrl-C will not stop the fuzzer cleanly: {e}");
    }
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// The start positions in game order: the standard start, then each
/// perft position, alternating; the perft positions as given come first,
/// then colour-flipped.
fn start_positions() -> Result<Vec<String>> {
    let perft: Vec<String> = chess::games::perft_positions()
        .into_iter()
        .map(|p| p.fen)
        .collect();
    let mut starts = Vec::new();
    let mut fens = perft.clone();
    for f in &perft {
        fens.push(flip_fen(f).with_context(|| format!("mirroring start position {f:?}"))?);
    }
    for fen in fens {
        parse_fen(&fen).with_context(|| format!("start position {fen:?}"))?;
        starts.push(START_FEN.to_string());
        starts.push(fen);
    }
    if starts.is_empty() {
        starts.push(START_FEN.to_string());
    }
    for ending in LONG_ENDINGS {
        starts.push(START_FEN.to_string());
        starts.push(ending.to_string());
    }
    Ok(starts)
}

/// Plays game `game`, checking every position it reaches.
fn play_game(c: &Campaign, game: u64) -> Result<()> {
    let s = &c.settings;
    let start = &s.starts[(game % s.starts.len() as u64) as usize];
    let mut pos = parse_fen(start).with_context(|| format!("start position {start:?}"))?;
    let mut rng = Rng::for_game(s.seed, game);
    let mut index = 0u32;
    // What repetition needs: the keys the game's screen would carry and the
    // fuzzer's own count of each position, both since the last capture or
    // pawn move.
    let mut history = String::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let (mut last, mut earlier): (Option<Move>, Option<Move>) = (None, None);
    loop {
        if c.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let fen = fen_of(&pos);
        let encoded = chess::codec::encode(&pos);
        history = format!(
            " {}{history}",
            chess::ending::position_key(&encoded.board, encoded.turn)
        );
        *seen.entry(hash(&pos)).or_insert(0) += 1;
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let ply = Ply {
            index,
            pos: &pos,
            fen: &fen,
            legal: &legal,
            history: &history,
            seen: &seen,
        };
        for kind in Kind::CHECKED {
            let outcome = check(kind, &ply, s)?;
            let n = &c.counters;
            for (counter, add) in [
                (&n.moves_compared, outcome.moves_compared),
                (&n.replies_checked, outcome.replies_checked),
                (&n.verdicts_checked, outcome.verdicts_checked),
                (&n.screens_checked, outcome.screens_checked),
            ] {
                counter.fetch_add(add, Ordering::Relaxed);
            }
            for (counter, add) in n.draws_checked.iter().zip(outcome.draws_checked) {
                counter.fetch_add(add, Ordering::Relaxed);
            }
            if let Some(found) = outcome.found {
                record(c, kind, game, start, &ply, &found)?;
            }
        }
        c.counters.positions.fetch_add(1, Ordering::Relaxed);
        update_bar(c);

        if legal.is_empty() || pos.is_insufficient_material() || index >= s.max_plies {
            break;
        }
        let mut m = legal[rng.below(legal.len())];
        // In the long endings, half the time a piece goes back where it
        // came from two plies ago, so that positions come back.
        if LONG_ENDINGS.contains(&start.as_str()) && rng.below(2) == 0 {
            if let Some(back) = earlier.and_then(|e: Move| {
                legal
                    .iter()
                    .find(|l| l.from() == Some(e.to()) && l.to() == e.from().unwrap_or(e.to()))
            }) {
                m = *back;
            }
        }
        earlier = last;
        last = Some(m);
        if m.is_zeroing() {
            history.clear();
            seen.clear();
        }
        pos.play_unchecked(m);
        index += 1;
        c.counters.plies.fetch_add(1, Ordering::Relaxed);
    }
    c.counters.games.fetch_add(1, Ordering::Relaxed);
    c.bar.inc(1);
    Ok(())
}

fn update_bar(c: &Campaign) {
    let n = &c.counters;
    let positions = n.positions.load(Ordering::Relaxed);
    let secs = c.started.elapsed().as_secs_f64().max(1e-9);
    let wrong: u64 = n
        .disagreements
        .iter()
        .map(|d| d.load(Ordering::Relaxed))
        .sum();
    c.bar.set_message(format!(
        "{} plies, {:.0} positions/s, {wrong} disagreements",
        n.plies.load(Ordering::Relaxed),
        positions as f64 / secs
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_alternate_with_the_standard_position() {
        let starts = start_positions().unwrap();
        // Each perft position as written and mirrored, then each long
        // ending, every one after the standard position.
        let perft = chess::games::perft_positions().len();
        assert!(perft > 0);
        assert_eq!(starts.len(), 2 * (2 * perft + LONG_ENDINGS.len()));
        assert!(starts.iter().step_by(2).all(|f| f == START_FEN));
        assert!(starts.ends_with(&[START_FEN.to_string(), LONG_ENDINGS[2].to_string()]));
        assert!(starts[3].starts_with("r3k2r/p1ppqpb1/"));
        assert!(starts[17].starts_with("r3k2r/pppbbppp/"), "{}", starts[17]);
    }
}
