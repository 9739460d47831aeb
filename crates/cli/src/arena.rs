//! `regex-chess match`: our engine against any UCI engine (or, with
//! `--versus-native`, one native search against another in this
//! process), to measure strength, and `--sprt` to decide with the fewest
//! games.
//!
//! This module owns the match: the workers that play
//! `--concurrency` games at once (each with its own opponent process,
//! or its own native opponent),
//! the PGN (each game written as it ends, a broken one included), the
//! pairs and the sequential test, the progress and the summary. Its
//! parts: `settings` (the arguments read and checked once, and the
//! native engines), `schedule` (which games, in pairs: one opening from both sides),
//! `game` (one game's loop and our engine's move), `adjudicate` (when a
//! game ends, by shakmaty's rules and a repetition count, and whether our
//! move allowed an avoidable mate-in-one), `time_control` (`--tc`'s clocks,
//! flags, and the statistics of our time), `elo` (the score as an Elo
//! difference and margin), `sprt` (the pentanomial GSPRT), `openings`
//! (where games start), `opponent` (the UCI engine's process), `record`
//! (a game as played, its moves' notes and its PGN), `tally` (the results
//! and the summary). It never decides a move: ours comes from the regex
//! program or the native reference (`game`), the opponent's from its
//! process, and both are checked for legality there.

mod adjudicate;
mod elo;
mod game;
pub(crate) mod openings;
mod opponent;
mod record;
mod schedule;
mod settings;
mod sprt;
mod tally;
mod time_control;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

use game::Rival;
use openings::{built_in_openings, read_openings, Opening};
use opponent::Opponent;
use record::{game_pgn, Game};
use schedule::{Pairs, Schedule, Slot};
use settings::{parse_option, Native, Settings};
use sprt::{Decision, Pentanomial, Sprt};
use tally::Tally;

use crate::pgn;

/// Arguments of `match`.
#[derive(clap::Args, Debug)]
pub(crate) struct MatchArgs {
    /// The opponent: a UCI engine's command (program and arguments, split
    /// at whitespace), e.g. `/usr/games/stockfish` (or `--versus-native`).
    #[arg(long, value_name = "CMD")]
    pub opponent: Option<String>,
    /// Instead of `--opponent`: the native reference with these leaves
    /// (the names of `--native`) plays our engine, itself a native one
    /// (`--native`), in the match's process: self-play, both searches
    /// with the same plan and limits (`--depth` or `--plan`, the clocks
    /// of `--tc` or `--our-movetime`, `--regex-time`), to measure one
    /// search idea against another. With `--regex-time` both think and
    /// are charged at the regex program's modeled time, so the result
    /// does not depend on the machine's load.
    #[arg(long, value_name = "LEAVES")]
    pub versus_native: Option<String>,
    /// With `--native`: selective rules in our engine's search
    /// (`chess::reference::select`), each `RULE:N`, comma-separated:
    /// `probcut:MARGIN` and `futility:MARGIN` (tens of centipawns),
    /// `lmp:KEEP`; inexact, to be screened by SPRT against the search
    /// without them. Without `--native`: `lmp:KEEP` alone, late-move
    /// pruning in the regex program (as `uci`'s `LateMoves` option;
    /// `lmp:0` off), by default as `uci` plays. The native search's rules
    /// are off by default.
    #[arg(long, value_name = "RULE:N[,RULE:N..]")]
    pub select: Option<String>,
    /// With `--versus-native`: the native opponent's selective rules, as
    /// `--select`.
    #[arg(long, value_name = "RULE:N[,RULE:N..]")]
    pub versus_select: Option<String>,
    /// Our engine answers from the opening book first (`chess::book`):
    /// the regex program with the book's stage, or with `--native` the
    /// native search, a book hit charged the regex program's cost of it
    /// with `--regex-time` (`chess::reference::cost::BOOK_HIT_BYTES`).
    #[arg(long)]
    pub book: bool,
    /// With `--versus-native`: the native opponent answers from the
    /// opening book first, as `--book`.
    #[arg(long)]
    pub versus_book: bool,
    /// A UCI option for the opponent, sent as `setoption`; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// Games to play (default 10; with `--sprt`, the most to play, none
    /// when not given: until the test decides); colours alternate, each
    /// opening is played from both sides, a pair of games.
    #[arg(long, value_name = "N")]
    pub games: Option<String>,
    /// Decide by a sequential test instead of a number of games: the
    /// generalized SPRT over game pairs (each opening played from both
    /// sides; a pair gives our engine 0, 1/2, 1, 3/2 or 2 points), with H0
    /// "our engine is ELO0 or weaker" and H1 "ELO1 or stronger" in
    /// normalized Elo and the error rates ALPHA (accepting H1 when H0
    /// holds) and BETA (default 0.05 each), as fastchess and OpenBench
    /// compute it; the match stops when the log-likelihood ratio reaches
    /// a bound (games under way are finished and written). After each
    /// pair a line on stderr gives the ratio, its bounds, the pair counts
    /// and the Elo and normalized Elo with their 95% intervals; the
    /// summary gives the decision and the pairs it was reached on. Needs
    /// `--ours both`.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<String>,
    /// Games played at once, each with its own opponent process; the
    /// summary says how many cores they shared.
    #[arg(long, value_name = "N", default_value = "1")]
    pub concurrency: String,
    /// The opponent's time per move, in milliseconds (`go movetime`;
    /// 100 when not given; not with `--tc`).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<String>,
    /// Both engines on a clock: BASE seconds for the game plus INC seconds
    /// a move (`60+0.6`, `10+0.1`); the opponent gets `go wtime .. btime
    /// .. winc .. binc ..`, ours the same time rule as `uci`; a move's time
    /// is measured around it, and a fallen flag loses the game.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Our engine thinks this many milliseconds a move, deepening as
    /// `uci`'s `go movetime` does (not with `--tc`).
    #[arg(long, value_name = "MS")]
    pub our_movetime: Option<String>,
    /// Our engine's search depth in plies (2 to 6; 4 is two full-width plies and two capture plies,
    /// 5 three and two, 6 depth 5's kept root moves a ply deeper; default
    /// 5); with `--tc` or `--our-movetime`, the deepest it climbs to
    /// (default 6, as `uci` on a clock).
    #[arg(long, value_name = "N")]
    pub depth: Option<String>,
    /// Openings, one a line: UCI moves from the start position, or a FEN
    /// (blank lines and lines starting with `#` are skipped).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Write every game as PGN to this file (each game as it ends).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Adjudicate a game as a draw after this many plies.
    #[arg(long, value_name = "N", default_value = "400")]
    pub max_plies: String,
    /// Our engine's side: `both` (colours alternate, each opening played
    /// from both sides), or always `white` or always `black` (each game
    /// the next opening), e.g. for endgame starts where one side has the
    /// extra piece.
    #[arg(long, value_name = "SIDE", default_value = "both")]
    pub ours: String,
    /// Play the native reference search (`chess::reference`, no regexes)
    /// instead of the regex program, with these leaves: `quiescent`,
    /// `threats` (the regex program's), `threats-on-quiet`, `full`,
    /// `two-captures`, `capture-line`, `leaf-threats`, `leaf-see`,
    /// `threats-see`, `tuned` (`threats` with the tuned piece-square
    /// values, `regex-chess tune`) or `static` (docs/strength.md says what
    /// each adds); to
    /// measure a search idea before its regexes exist. With `--tc` (and
    /// no `--regex-time`) it plays its fixed plan on the clock, timed and
    /// charged but not stopped: how a search of that strength fares
    /// against an opponent on a clock.
    #[arg(long, value_name = "LEAVES")]
    pub native: Option<String>,
    /// With `--native`: search FULL full-width plies, then capture plies
    /// (each side free to stand pat, every move when in check) up to PLIES
    /// in all, instead of `--depth`'s plan; e.g. `3,5`, deeper than the
    /// regex program can afford.
    #[arg(long, value_name = "FULL,PLIES")]
    pub plan: Option<String>,
    /// With `--native`: think and be timed as the regex program would, by
    /// the native cost model (`chess::reference::cost`): each move's time
    /// is the regex program's modeled time for the threads its search
    /// would make for the nodes the native search visits (searched in the
    /// regex program's shape, probes and cuts, `chess::reference::metered`),
    /// not the native search's own time. With `--tc` or `--our-movetime`
    /// it climbs the ladder of plans (depths 2, 3, 5, then `--depth` or
    /// `--plan`, 6 by default) by the regex program's time rule within
    /// that modeled time, a rung stopped where its model passes the
    /// move's limit; the summary's times and the clocks are the model's.
    /// The model's prices were fitted to the regex program's work on the
    /// bench positions at depths 2 to 5: within a factor of 3.2 there,
    /// of 4.7 on random-game positions; at depth 6, whose window it does
    /// not model, it overestimates up to 9 times (`regex-chess bench
    /// --cost-model` measures it).
    #[arg(long)]
    pub regex_time: bool,
}

/// Text of an argument or input in an error: at most 100 characters,
/// control characters escaped, in backquotes.
pub(crate) fn quote(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(100)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(100).is_some() {
        shown.push('…');
    }
    format!("`{shown}`")
}

/// A path as errors show it.
fn shown(path: &Path) -> String {
    quote(&path.display().to_string())
}

/// Runs the match.
///
/// # Errors
///
/// Bad arguments or openings, an opponent that cannot be started, crashes
/// or plays an illegal move (the error names the game; the PGN keeps every
/// game played, the broken one included), a failure of our engine.
pub(crate) fn run(args: MatchArgs) -> Result<()> {
    let settings = Settings::of(&args)?;
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => built_in_openings(),
    };
    let pgn = match &args.pgn {
        Some(path) => {
            Some(File::create(path).with_context(|| format!("creating {}", shown(path)))?)
        }
        None => None,
    };
    let engine = engine_name(&settings, args.plan.is_some())?;
    let mut opponents = match (&args.opponent, settings.versus) {
        (Some(command), _) => (0..settings.concurrency)
            .map(|_| Opponent::start(command, &args.options).map(Rival::Uci))
            .collect::<Result<Vec<_>>>()?,
        (None, Some(native)) => (0..settings.concurrency)
            .map(|_| Rival::Native(native))
            .collect(),
        (None, None) => bail!("no opponent"),
    };
    let opponent = match &opponents[0] {
        Rival::Uci(o) => o.name.clone(),
        Rival::Native(native) => native_name(&settings, *native, args.plan.is_some()),
    };
    let bar = match settings.games {
        Some(n) => ProgressBar::new(u64::from(n)),
        None => ProgressBar::no_length(),
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if let Some(sprt) = &settings.sprt {
        bar.suspend(|| eprintln!("{}", sprt_expectation(sprt)));
    }
    let mut state = Match {
        settings: &settings,
        engine,
        opponent,
        date: pgn::today(),
        pgn,
        bar,
        tally: Tally::default(),
        pairs: Pairs::default(),
        decided: None,
        failure: None,
    };
    // The schedule is this thread's: a worker gets its next game only
    // once its last one is recorded, so that a decision stops the match
    // with at most the other workers' games under way.
    let mut schedule = Schedule::new(settings.games, settings.ours, openings.len());
    let (sender, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        let mut slots = Vec::new();
        for (id, opponent) in opponents.iter_mut().enumerate() {
            let (slot, next) = mpsc::channel();
            let sender = sender.clone();
            let (settings, openings) = (&settings, &openings);
            scope.spawn(move || worker(id, opponent, &next, settings, openings, &sender));
            slots.push(Some(slot));
        }
        drop(sender);
        for slot in &mut slots {
            hand_out(slot, &mut schedule);
        }
        for game in finished {
            let id = game.worker;
            if state.record(game) {
                schedule.stop();
            }
            hand_out(&mut slots[id], &mut schedule);
        }
    });
    state.bar.finish_and_clear();
    let summary = state.summary();
    match state.failure {
        Some(e) => {
            // The game's error is the one to tell, even if stdout is closed.
            let _ = write!(crate::textio::stdout(), "{summary}");
            Err(e)
        }
        None => write!(crate::textio::stdout(), "{summary}"),
    }
}

/// Our engine as the PGN and the summary name it; the regex program's
/// passes are built here, before any clock runs.
fn engine_name(settings: &Settings, planned: bool) -> Result<String> {
    let Some(native) = settings.native else {
        chess::move_pass().context("building the move program")?;
        chess::build_passes_with(
            &chess::search::deepen::rungs_to(settings.depth),
            false,
            settings.variant(),
        )
        .context("building the reply programs")?;
        let mut book = match settings.book {
            chess::UseBook::On => ", book".to_string(),
            chess::UseBook::Off => String::new(),
        };
        if let Some(keep) = settings.late {
            book.push_str(&format!(", lmp:{keep}"));
        }
        return Ok(match (settings.tc, settings.our_movetime) {
            (Some(tc), _) => format!("regex-chess (up to depth {}, {tc}{book})", settings.depth),
            (None, Some(ms)) => format!(
                "regex-chess (up to depth {}, movetime {ms} ms{book})",
                settings.depth
            ),
            (None, None) => format!("regex-chess (depth {}{book})", settings.depth),
        });
    };
    Ok(native_name(settings, native, planned))
}

/// The native engine `native` under the match's plan and limits, as
/// the PGN and the summary name it (`planned`: by `--plan`).
fn native_name(settings: &Settings, native: Native, planned: bool) -> String {
    let plan = settings.plan;
    match (settings.regex_time, settings.tc, settings.our_movetime) {
        (true, Some(tc), _) => format!(
            "native reference (up to {} plies, {native}, {tc} at the regex program's modeled time)",
            plan.plies
        ),
        (true, None, Some(ms)) => format!(
            "native reference (up to {} plies, {native}, movetime {ms} ms at the regex program's modeled time)",
            plan.plies
        ),
        (regex_time, tc, _) => {
            let mut name = if planned {
                format!(
                    "native reference ({} full-width plies, {} capture plies, {native})",
                    plan.full,
                    plan.plies - plan.full
                )
            } else {
                format!("native reference (depth {}, {native})", settings.depth)
            };
            if regex_time {
                name.push_str(" at the regex program's modeled time");
            } else if let Some(tc) = tc {
                name.push_str(&format!(", {tc}"));
            }
            name
        }
    }
}

/// A game a worker played (or tried to), for the match to record.
struct Finished {
    /// The worker that played it.
    worker: usize,
    slot: Slot,
    game: Game,
    /// The game's own notes and times.
    tally: Tally,
    played: Result<()>,
}

/// Gives a worker its next game through `slot`, or, when the schedule has
/// none (or the worker is gone), closes its channel, which ends it.
fn hand_out(slot: &mut Option<mpsc::Sender<Slot>>, schedule: &mut Schedule) {
    let sent = match (slot.as_ref(), schedule.next_slot()) {
        (Some(worker), Some(next)) => worker.send(next).is_ok(),
        _ => false,
    };
    if !sent {
        *slot = None;
    }
}

/// Worker `id`: plays each game `slots` gives it with `opponent` and
/// sends it back, until the channel closes; stops after a game that
/// failed (its opponent may be gone).
fn worker(
    id: usize,
    opponent: &mut Rival,
    slots: &mpsc::Receiver<Slot>,
    settings: &Settings,
    openings: &[Opening],
    sender: &mpsc::Sender<Finished>,
) {
    while let Ok(slot) = slots.recv() {
        let mut game = Game {
            round: slot.round,
            ours: slot.ours,
            opening: openings[slot.opening].clone(),
            moves: Vec::new(),
            ending: None,
            abandoned: None,
        };
        let mut tally = Tally::default();
        let played = game::play(&mut game, opponent, settings, &mut tally);
        if let Err(e) = &played {
            game.abandoned = Some(format!("{e:#}"));
        }
        let failed = played.is_err();
        let sent = sender.send(Finished {
            worker: id,
            slot,
            game,
            tally,
            played,
        });
        if failed || sent.is_err() {
            return;
        }
    }
}

/// The match as its games finish: the PGN, the tally, the pairs and the
/// test.
struct Match<'s> {
    settings: &'s Settings,
    engine: String,
    opponent: String,
    date: String,
    pgn: Option<File>,
    bar: ProgressBar,
    tally: Tally,
    pairs: Pairs,
    /// The test's decision and the pairs it was reached on.
    decided: Option<(Decision, Pentanomial)>,
    /// The first error: the match stops and reports it.
    failure: Option<anyhow::Error>,
}

impl Match<'_> {
    /// Records a finished game: its PGN, its result, its pair; `true`
    /// when the match is to hand out no more games (an error, or the test
    /// decided).
    fn record(&mut self, finished: Finished) -> bool {
        let Finished {
            slot,
            game,
            tally,
            played,
            ..
        } = finished;
        if let Some(file) = self.pgn.as_mut() {
            let text = game_pgn(
                &game,
                &self.engine,
                &self.opponent,
                &self.date,
                self.settings.tc,
            );
            let written = file.write_all(text.as_bytes()).and_then(|()| file.flush());
            if let Err(e) = written {
                self.fail(anyhow::Error::new(e).context("writing the PGN"));
            }
        }
        self.tally.merge(tally);
        if let Err(e) = played {
            let side = if game.ours == Color::White {
                "white"
            } else {
                "black"
            };
            let context = format!(
                "game {} ({} {side}, opening {})",
                game.round, self.engine, game.opening.name
            );
            self.fail(e.context(context));
        }
        if let Some(ending) = game.ending {
            self.tally.add(&game, ending);
            if let Some(pair) = slot.pair {
                let ours = match ending.winner() {
                    Some(winner) if winner == game.ours => 2,
                    Some(_) => 0,
                    None => 1,
                };
                if self.pairs.finished(pair, ours) {
                    self.pair_done(pair);
                }
            }
        }
        let t = &self.tally;
        let mut message = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
        if let Some(sprt) = &self.settings.sprt {
            message.push_str(&format!("  LLR {:.2}", sprt.llr(&self.pairs.counts)));
        }
        self.bar.set_message(message);
        self.bar.inc(1);
        self.failure.is_some() || self.decided.is_some()
    }

    /// After pair `pair` finished: the test's line, and its decision.
    fn pair_done(&mut self, pair: u32) {
        let Some(sprt) = &self.settings.sprt else {
            return;
        };
        let counts = self.pairs.counts;
        let line = sprt.line(&counts);
        self.bar.suspend(|| eprintln!("pair {pair} done: {line}"));
        if self.decided.is_none() {
            self.decided = sprt.decision(&counts).map(|d| (d, counts));
        }
    }

    fn fail(&mut self, e: anyhow::Error) {
        if self.failure.is_none() {
            self.failure = Some(e);
        }
    }

    /// The summary: the tally's, with the conditions, the pairs and the
    /// test after the Elo.
    fn summary(&self) -> String {
        let mut lines = conditions(self.settings.concurrency);
        let counts = self.pairs.counts;
        if counts.pairs() > 0 {
            let c = counts.counts;
            lines.push_str(&format!(
                "pairs: {} (0, 1/2, 1, 3/2, 2 points: {} {} {} {} {})",
                counts.pairs(),
                c[0],
                c[1],
                c[2],
                c[3],
                c[4]
            ));
            if let Some(elo) = counts.elo() {
                lines.push_str(&format!("; Elo from pairs {elo} (95%)"));
            }
            lines.push('\n');
        }
        if let Some(sprt) = &self.settings.sprt {
            lines.push_str(&sprt_verdict(sprt, self.decided, &counts));
        }
        self.tally.summary(
            &self.engine,
            &self.opponent,
            self.settings.tc.is_some(),
            &lines,
        )
    }
}

/// The line saying how many games ran at once and the cores they shared.
fn conditions(concurrency: u32) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let each = cores as f64 / f64::from(concurrency);
    format!(
        "concurrency: {concurrency} game{} at a time on {cores} core{}: the engine to move in a game had about {each:.2} core{} (engines think in turn; no pondering)\n",
        if concurrency == 1 { "" } else { "s" },
        if cores == 1 { "" } else { "s" },
        if (each - 1.0).abs() < 1e-9 { "" } else { "s" },
    )
}

/// What the test expects of itself, said before the first game.
fn sprt_expectation(sprt: &Sprt) -> String {
    let mut line = format!(
        "sprt: H0 nElo <= {}, H1 nElo >= {}, alpha {}, beta {}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    );
    let at = |elo| sprt.expected_pairs(elo).map(|n| format!("{n:.0}"));
    if let (Some(n0), Some(n1)) = (at(sprt.elo0), at(sprt.elo1)) {
        line.push_str(&format!(
            "; Wald expects about {n0} pairs at nElo {} and {n1} at {}",
            sprt.elo0, sprt.elo1
        ));
    }
    line
}

/// The test's summary lines: its decision (and the pairs it was reached
/// on), or that it had none, and the line of all the pairs played.
fn sprt_verdict(
    sprt: &Sprt,
    decided: Option<(Decision, Pentanomial)>,
    all: &Pentanomial,
) -> String {
    let mut out = match decided {
        Some((decision, at)) => format!(
            "sprt: {} accepted after {} pairs: {}\n",
            match decision {
                Decision::H0 => "H0",
                Decision::H1 => "H1",
            },
            at.pairs(),
            sprt.line(&at)
        ),
        None => format!(
            "sprt: no decision after {} pairs: {}\n",
            all.pairs(),
            sprt.line(all)
        ),
    };
    if let Some((_, at)) = decided.filter(|(_, at)| at.pairs() < all.pairs()) {
        let more = all.pairs() - at.pairs();
        out.push_str(&format!(
            "sprt: {more} more pair{} finished after the decision (games under way then): {}\n",
            if more == 1 { "" } else { "s" },
            sprt.line(all)
        ));
    }
    out
}
