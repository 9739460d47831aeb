//! `regex-chess match`: our engine against any UCI engine, to measure
//! strength.
//!
//! This module owns the match: the openings (a built-in handful of short
//! well-known lines, or a file), the alternation of colours, the game loop,
//! the time each move takes (measured around the move: for the opponent,
//! from sending `position` to reading `bestmove`, process and pipes
//! included), the PGN and the summary (W/D/L, score, Elo, allowed
//! mates-in-one, time). Its parts: `adjudicate` (when a game ends, by
//! shakmaty's rules and a repetition count, and whether our move allowed
//! an avoidable mate-in-one), `clock` (`--tc`'s clocks, flags, and the
//! statistics of our time), `elo` (the score as an Elo difference and
//! margin), `openings` (where games start), `opponent` (the UCI engine's
//! process), `record` (a game as played, its moves' notes and its PGN).
//! It never decides a
//! move: ours comes from the regex program (`engine_move`: on a clock or
//! a movetime through `chess::search::clock` and `chess::think`, as `uci` plays),
//! the opponent's from its process, and both are checked for legality
//! here.

mod adjudicate;
mod clock;
mod elo;
mod openings;
mod opponent;
mod record;
mod sprt;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use chess::reference::Leaves;
use chess::search::deepen::Ended;
use chess::vocabulary::Plan;

use adjudicate::{adjudicate, allowed_mate, AllowedMate, Ending, Repetitions};
use clock::{Clocks, TimeControl, TimeStats, Unanswered};
use elo::elo;
use openings::{built_in_openings, legal_move, read_openings, start_position};
use opponent::Opponent;
use record::{engine_note, game_pgn, seconds, Game, Played};

use crate::pgn;

/// Arguments of `match`.
#[derive(clap::Args, Debug)]
pub(crate) struct MatchArgs {
    /// The opponent: a UCI engine's command (program and arguments, split
    /// at whitespace), e.g. `/usr/games/stockfish`.
    #[arg(long, value_name = "CMD")]
    pub opponent: String,
    /// A UCI option for the opponent, sent as `setoption`; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// Games to play; colours alternate, each opening is played from both
    /// sides.
    #[arg(long, value_name = "N", default_value = "10")]
    pub games: String,
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
    /// `threats-see` or `static` (docs/strength.md says what each adds); to
    /// measure a search idea before its regexes exist. With `--tc` it plays
    /// its fixed plan on the clock, timed and charged but not stopped: how
    /// a search of that strength fares against an opponent on a clock.
    #[arg(long, value_name = "LEAVES")]
    pub native: Option<String>,
    /// With `--native`: search FULL full-width plies, then capture plies
    /// (each side free to stand pat, every move when in check) up to PLIES
    /// in all, instead of `--depth`'s plan; e.g. `3,5`, deeper than the
    /// regex program can afford.
    #[arg(long, value_name = "FULL,PLIES")]
    pub plan: Option<String>,
}

/// The numbers of `MatchArgs`, parsed here rather than by clap so that an
/// error quotes at most 100 characters of what was typed.
struct Settings {
    games: u32,
    movetime: u64,
    /// Both engines' clocks (`--tc`).
    tc: Option<TimeControl>,
    /// Our time a move (`--our-movetime`).
    our_movetime: Option<u64>,
    depth: chess::Depth,
    max_plies: u32,
    /// Our side in every game, `None` for alternating colours.
    ours: Option<Color>,
    /// The native reference's leaves, `None` for the regex program.
    native: Option<Leaves>,
    /// The native reference's plan (`--plan`, else `--depth`'s).
    plan: Plan,
}

impl Settings {
    fn of(args: &MatchArgs) -> Result<Settings> {
        fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T> {
            text.trim()
                .parse()
                .map_err(|_| anyhow!("{flag} {}: not a whole number in range", quote(text)))
        }
        let timed = args.tc.is_some() || args.our_movetime.is_some();
        let depth = match &args.depth {
            Some(text) => {
                let plies: u32 = number("--depth", text)?;
                chess::Depth::new(plies).map_err(|_| unknown_depth(plies))?
            }
            None => chess::search::deepen::unasked_depth(timed && args.native.is_none()),
        };
        let mut settings = Settings {
            games: number("--games", &args.games)?,
            movetime: match &args.movetime {
                Some(text) => number("--movetime", text)?,
                None => DEFAULT_MOVETIME,
            },
            tc: args.tc.as_deref().map(TimeControl::parse).transpose()?,
            our_movetime: args
                .our_movetime
                .as_deref()
                .map(|text| number("--our-movetime", text))
                .transpose()?,
            depth,
            plan: depth.plan(),
            max_plies: number("--max-plies", &args.max_plies)?,
            ours: match args.ours.trim() {
                "both" => None,
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                other => bail!("--ours {}: use both, white or black", quote(other)),
            },
            native: args
                .native
                .as_deref()
                .map(|text| text.trim().parse::<Leaves>())
                .transpose()
                .map_err(|e| anyhow!("--native: {e}"))?,
        };
        if let Some(text) = &args.plan {
            if settings.native.is_none() {
                bail!("--plan: only the native reference (--native) searches other plans");
            }
            settings.plan = native_plan(text)?;
        }
        if settings.games == 0 {
            bail!("--games 0: nothing to play");
        }
        if settings.tc.is_some() && args.movetime.is_some() {
            bail!("--tc puts both engines on a clock: --movetime does not go with it");
        }
        if settings.tc.is_some() && settings.our_movetime.is_some() {
            bail!("--tc puts both engines on a clock: --our-movetime does not go with it");
        }
        if settings.native.is_some() && settings.our_movetime.is_some() {
            bail!("--native searches a fixed plan: --our-movetime times the regex program");
        }
        Ok(settings)
    }
}

/// The plan `FULL,PLIES` of `--plan`: at least one full-width ply, at
/// least two plies in all, at most [`MAX_NATIVE_PLIES`].
fn native_plan(text: &str) -> Result<Plan> {
    let bad = || {
        anyhow!(
            "--plan {}: use FULL,PLIES with 1 <= FULL <= PLIES, 2 <= PLIES <= {MAX_NATIVE_PLIES} (e.g. 3,5)",
            quote(text)
        )
    };
    let (full, plies) = text.split_once(',').ok_or_else(bad)?;
    let (full, plies): (u32, u32) = (
        full.trim().parse().map_err(|_| bad())?,
        plies.trim().parse().map_err(|_| bad())?,
    );
    if full == 0 || full > plies || !(2..=MAX_NATIVE_PLIES).contains(&plies) {
        return Err(bad());
    }
    Ok(Plan { full, plies })
}

/// The opponent's time a move without `--movetime` or `--tc`.
const DEFAULT_MOVETIME: u64 = 100;

/// The deepest plan `--plan` takes: the native search has no alpha-beta
/// above its leaves, so each ply multiplies its time.
const MAX_NATIVE_PLIES: u32 = 8;

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

fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("{} is not NAME=VALUE", quote(text))),
    }
}

/// What [`engine_move`] gives: the move (UCI) and its score, `None` when
/// there is none; the depth that answered; on a clock, the rung that ran
/// without answering, if one did.
struct OurMove {
    best: Option<(String, u32)>,
    depth: chess::Depth,
    unfinished: Option<Unanswered>,
}

/// Our engine's move (UCI) and its score in `fen`, `None` when it has
/// none, and the depth that answered; `history` (the game's position keys since the last
/// capture or pawn move) lets it score a move back into one of them as a
/// draw. With `clock` it thinks as `uci`'s `go` does with the same limits
/// (`chess::search::clock::budget`, then `chess::think` up the ladder to `depth`,
/// timed from `start`); without, it searches `depth` plies. Last, on a
/// clock, the rung that ran without answering, if one did.
///
/// # Errors
///
/// A failure of the regex program.
fn engine_move(
    fen: &str,
    history: &[String],
    depth: chess::Depth,
    clock: Option<&chess::search::clock::Clock>,
    start: Instant,
) -> Result<OurMove> {
    let context = || format!("our engine on {}", quote(fen));
    let Some(clock) = clock else {
        let searched = chess::search(fen, history, depth).with_context(context)?;
        return Ok(OurMove {
            best: searched.best,
            depth: searched.depth,
            unfinished: None,
        });
    };
    let limits = chess::search::deepen::Limits {
        start,
        budget: chess::search::clock::budget(clock),
        flag: None,
        rungs: chess::search::deepen::rungs_to(depth),
    };
    let thought = chess::think(fen, history, &limits, |_| {}).with_context(context)?;
    let answer = thought.answer();
    // A rung that ran without answering: from the answer's end to the
    // climb's.
    let lost = thought.elapsed.saturating_sub(answer.at);
    let unfinished = match thought.ended {
        Ended::Stopped { .. } => Some(Unanswered {
            stopped: true,
            time: lost,
        }),
        Ended::TooLarge { .. } => Some(Unanswered {
            stopped: false,
            time: lost,
        }),
        Ended::Top | Ended::Settled | Ended::NotStarted { .. } => None,
    };
    Ok(OurMove {
        best: answer.answer.clone(),
        depth: answer.depth,
        unfinished,
    })
}

/// The native reference's move (UCI) and its score in `pos` with
/// `leaves`, `None` when it has none; `history` as for [`engine_move`].
/// Of equal best moves, the one whose piece stands first in the board line
/// (rank 8 first, file a first), as the regex program's tournament keeps
/// the earliest thread and makes them in that order.
fn native_move(
    pos: &Chess,
    history: &[String],
    plan: Plan,
    leaves: Leaves,
) -> Option<(String, u32)> {
    let keys: String = history.iter().map(|k| format!(" {k}")).collect();
    let (best, score) = chess::reference::best_moves_planned(pos, plan, &keys, leaves)?;
    best.iter()
        .min_by_key(|m| {
            m.from()
                .map(|sq| (7 - u32::from(sq.rank()), u32::from(sq.file())))
        })
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), score))
}

fn unknown_depth(depth: u32) -> anyhow::Error {
    let offered: Vec<String> = chess::Depth::all().map(|d| d.to_string()).collect();
    anyhow!(
        "--depth {depth}: our engine offers only depth {}",
        offered.join(", ")
    )
}

/// A path as errors show it.
fn shown(path: &Path) -> String {
    quote(&path.display().to_string())
}

/// What the match has so far.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    endings: Vec<(String, u32)>,
    /// Moves our engine chose (the openings' moves are not counted).
    engine_moves: u32,
    /// Mates-in-one those moves allowed when another move avoided them.
    allowed: u32,
    /// The first few of them: game, FEN before our move, our move (SAN).
    examples: Vec<(u32, String, String, AllowedMate)>,
    /// Our moves' time and depth, the flags.
    times: TimeStats,
}

impl Tally {
    fn add(&mut self, game: &Game, ending: Ending) {
        match ending.winner() {
            Some(winner) if winner == game.ours => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
        if let Ending::Time { winner } = ending {
            if winner == game.ours {
                self.times.their_flags += 1;
            } else {
                self.times.our_flags += 1;
            }
        }
        let name = ending.to_string();
        match self.endings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => self.endings.push((name, 1)),
        }
    }

    fn summary(&self, engine: &str, opponent: &str, clocked: bool) -> String {
        let n = self.wins + self.draws + self.losses;
        let points = f64::from(self.wins) + 0.5 * f64::from(self.draws);
        let mut out = format!("games: {n} ({engine} vs {opponent})\n");
        out.push_str(&format!(
            "W/D/L: {}/{}/{} (for {engine})\n",
            self.wins, self.draws, self.losses
        ));
        if n > 0 {
            out.push_str(&format!(
                "score: {points}/{n} ({:.1}%)\n",
                100.0 * points / f64::from(n)
            ));
        }
        if let Some(e) = elo(self.wins, self.draws, self.losses) {
            out.push_str(&format!("elo: {e}\n"));
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        out.push_str(&format!("endings: {}\n", endings.join(", ")));
        out.push_str(&format!(
            "allowed mates-in-one: {} (in {} moves of our engine)\n",
            self.allowed, self.engine_moves
        ));
        for (round, fen, played, a) in &self.examples {
            out.push_str(&format!(
                "  game {round}: {fen}: {played} allowed {}, {} avoided it\n",
                a.mate, a.avoidable_by
            ));
        }
        out.push_str(&self.times.summary(clocked));
        out
    }
}

/// Runs the match.
///
/// # Errors
///
/// Bad arguments or openings, an opponent that cannot be started, crashes
/// or plays an illegal move (the error names the game; the PGN keeps every
/// game so far), a failure of our engine.
pub(crate) fn run(args: MatchArgs) -> Result<()> {
    let settings = Settings::of(&args)?;
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => built_in_openings(),
    };
    let mut pgn = match &args.pgn {
        Some(path) => {
            Some(File::create(path).with_context(|| format!("creating {}", shown(path)))?)
        }
        None => None,
    };
    let engine = match settings.native {
        None => {
            // Built before the clocks run.
            chess::move_pass().context("building the move program")?;
            chess::build_passes(&chess::search::deepen::rungs_to(settings.depth), false)
                .context("building the reply programs")?;
            match (settings.tc, settings.our_movetime) {
                (Some(tc), _) => format!("regex-chess (up to depth {}, {tc})", settings.depth),
                (None, Some(ms)) => format!(
                    "regex-chess (up to depth {}, movetime {ms} ms)",
                    settings.depth
                ),
                (None, None) => format!("regex-chess (depth {})", settings.depth),
            }
        }
        Some(leaves) if args.plan.is_some() => format!(
            "native reference ({} full-width plies, {} capture plies, {leaves:?})",
            settings.plan.full,
            settings.plan.plies - settings.plan.full
        ),
        Some(leaves) => format!("native reference (depth {}, {leaves:?})", settings.depth),
    };
    let engine = match settings.tc {
        Some(tc) if settings.native.is_some() => format!("{engine}, {tc}"),
        _ => engine,
    };
    let mut opponent = Opponent::start(&args.opponent, &args.options)?;
    let bar = ProgressBar::new(u64::from(settings.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let date = pgn::today();
    let mut tally = Tally::default();
    for round in 1..=settings.games {
        let index = (round - 1) as usize;
        let (ours, opening) = match settings.ours {
            Some(side) => (side, index % openings.len()),
            None if index.is_multiple_of(2) => (Color::White, (index / 2) % openings.len()),
            None => (Color::Black, (index / 2) % openings.len()),
        };
        let mut game = Game {
            round,
            ours,
            opening: openings[opening].clone(),
            moves: Vec::new(),
            ending: None,
            abandoned: None,
        };
        let played = play(&mut game, &mut opponent, &settings, &mut tally);
        if let Err(e) = &played {
            game.abandoned = Some(format!("{e:#}"));
        }
        if let Some(file) = pgn.as_mut() {
            let text = game_pgn(&game, &engine, &opponent.name, &date, settings.tc);
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .context("writing the PGN")?;
        }
        if let Err(e) = played {
            bar.finish_and_clear();
            // The game's error is the one to tell, even if stdout is closed.
            let _ = write!(
                crate::textio::stdout(),
                "{}",
                tally.summary(&engine, &opponent.name, settings.tc.is_some())
            );
            return Err(e.context(format!(
                "game {round} ({engine} {}, opening {})",
                if game.ours == Color::White {
                    "white"
                } else {
                    "black"
                },
                game.opening.name
            )));
        }
        if let Some(ending) = game.ending {
            tally.add(&game, ending);
        }
        bar.set_message(format!(
            "+{} ={} -{}  mates allowed {}",
            tally.wins, tally.draws, tally.losses, tally.allowed
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    write!(
        crate::textio::stdout(),
        "{}",
        tally.summary(&engine, &opponent.name, settings.tc.is_some())
    )
}

/// Plays one game to its end, recording it in `game`.
fn play(
    game: &mut Game,
    opponent: &mut Opponent,
    settings: &Settings,
    tally: &mut Tally,
) -> Result<()> {
    opponent.new_game()?;
    let mut pos = start_position(game.opening.fen.as_deref())?;
    let mut repetitions = Repetitions::default();
    let mut occurrences = repetitions.add(&pos);
    let mut history = vec![history_key(&pos)];
    let mut uci_moves: Vec<String> = Vec::new();
    let mut book = game.opening.moves.clone().into_iter();
    let mut clocks = settings.tc.map(Clocks::new);
    loop {
        let plies = uci_moves.len() as u32;
        if let Some(ending) = adjudicate(&pos, occurrences, plies, settings.max_plies) {
            game.ending = Some(ending);
            return Ok(());
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let side = pos.turn();
        let start = Instant::now();
        let (text, ours, note) = if let Some(m) = book.next() {
            (m, false, "book".to_string())
        } else if side == game.ours {
            let (m, plies) = match settings.native {
                None => {
                    let clock = our_clock(settings, clocks.as_ref(), side);
                    let our = engine_move(&fen, &history, settings.depth, clock.as_ref(), start)?;
                    if clock.is_some() {
                        tally.times.climb(our.unfinished);
                    }
                    (our.best, our.depth.plies())
                }
                // A fixed plan: on a clock it is timed and charged, but
                // not limited.
                Some(leaves) => (
                    native_move(&pos, &history, settings.plan, leaves),
                    settings.plan.plies,
                ),
            };
            let took = start.elapsed();
            tally.times.ours(took, plies);
            if settings.native.is_none()
                && settings
                    .our_movetime
                    .is_some_and(|ms| took > Duration::from_millis(ms))
            {
                tally.times.over_movetime += 1;
            }
            let (m, score) =
                m.ok_or_else(|| anyhow!("our engine found no move in {}", quote(&fen)))?;
            (m, true, engine_note(score, plies, took))
        } else {
            let (limits, expected) = match &clocks {
                Some(c) => (
                    format!(
                        "wtime {} btime {} winc {} binc {}",
                        c.left(Color::White).as_millis(),
                        c.left(Color::Black).as_millis(),
                        c.increment().as_millis(),
                        c.increment().as_millis()
                    ),
                    c.left(side),
                ),
                None => (
                    format!("movetime {}", settings.movetime),
                    Duration::from_millis(settings.movetime),
                ),
            };
            let m =
                opponent.best_move(game.opening.fen.as_deref(), &uci_moves, &limits, expected)?;
            let took = start.elapsed();
            tally.times.theirs.push(took);
            (m, false, seconds(took))
        };
        // The book's moves take no time; every other move is charged
        // with its time, measured around it.
        if let Some(c) = clocks
            .as_mut()
            .filter(|_| game.moves.len() >= game.opening.moves.len())
        {
            if c.charge(side, start.elapsed()).is_err() {
                game.ending = Some(Ending::Time { winner: !side });
                return Ok(());
            }
        }
        let Some(m) = legal_move(&pos, &text) else {
            let who = if ours { "our engine" } else { "the opponent" };
            bail!(
                "{who} played the illegal move {} in {}",
                quote(&text),
                quote(&fen)
            );
        };
        let allowed = if ours { allowed_mate(&pos, &m) } else { None };
        tally.engine_moves += u32::from(ours);
        if let Some(a) = &allowed {
            tally.allowed += 1;
            if tally.examples.len() < 10 {
                tally.examples.push((
                    game.round,
                    fen.clone(),
                    SanPlus::from_move(pos.clone(), m).to_string(),
                    a.clone(),
                ));
            }
        }
        uci_moves.push(m.to_uci(CastlingMode::Standard).to_string());
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        game.moves.push(Played {
            san: san.to_string(),
            note,
            allowed,
        });
        occurrences = repetitions.add(&pos);
        if pos.halfmoves() == 0 {
            history.clear();
        }
        history.push(history_key(&pos));
    }
}

/// What our engine's time rule is given for a move of `side`: the game's
/// clock (`--tc`), else `--our-movetime`, else nothing (a fixed depth).
fn our_clock(
    settings: &Settings,
    clocks: Option<&Clocks>,
    side: Color,
) -> Option<chess::search::clock::Clock> {
    match (clocks, settings.our_movetime) {
        (Some(c), _) => Some(chess::search::clock::Clock {
            remaining: Some(c.left(side)),
            increment: c.increment(),
            ..chess::search::clock::Clock::default()
        }),
        (None, Some(ms)) => Some(chess::search::clock::Clock {
            movetime: Some(Duration::from_millis(ms)),
            ..chess::search::clock::Clock::default()
        }),
        (None, None) => None,
    }
}

/// The key of `pos` in our engine's history of the game.
fn history_key(pos: &Chess) -> String {
    chess::ending::position_key(&chess::codec::encode(pos).board, pos.turn())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `--depth`, our engine searches the playing commands'
    /// default depth.
    #[test]
    fn the_default_depth_is_the_engines() {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            args: MatchArgs,
        }
        let parsed =
            <Command as clap::Parser>::try_parse_from(["match", "--opponent", "sf"]).unwrap();
        let settings = Settings::of(&parsed.args).unwrap();
        assert_eq!(settings.depth, chess::Depth::DEFAULT);
        assert_eq!(settings.plan, chess::Depth::DEFAULT.plan());
        for timed in [["--tc", "60+0.6"], ["--our-movetime", "1000"]] {
            let parsed = <Command as clap::Parser>::try_parse_from(
                ["match", "--opponent", "sf"].into_iter().chain(timed),
            )
            .unwrap();
            let settings = Settings::of(&parsed.args).unwrap();
            assert_eq!(settings.depth, chess::search::deepen::TIMED_TOP);
        }
    }

    #[test]
    fn native_plans_parse_and_bad_ones_are_refused() {
        assert_eq!(native_plan("3,5").unwrap(), Plan { full: 3, plies: 5 });
        assert_eq!(native_plan(" 2 , 2 ").unwrap(), chess::Depth::MIN.plan());
        for bad in [
            "", "3", "3,", ",5", "0,2", "4,3", "1,1", "3,9", "a,b", "3,5,7",
        ] {
            let e = native_plan(bad).unwrap_err().to_string();
            assert!(e.starts_with("--plan `"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_capture_ply_after_three_full_plies_sees_a_discovered_attack() {
        // From a lost match game: at depth 3 the search plays Nxf6+, whose
        // line gxf6 Nxd4 uncovers the bishop's attack on the queen (Bxd1),
        // a capture past its leaves; one capture ply more sees it.
        let fen = "1r1qkb1r/2p3pp/p4p2/4p3/P2nN1bP/3P1N2/1PP2PP1/R1BQ1RK1 w k - 4 13";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = |plan| {
            let (best, _) =
                chess::reference::best_moves_planned(&pos, plan, "", Leaves::Threats).unwrap();
            best.iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(Plan { full: 3, plies: 3 }), ["e4f6"]);
        let deeper = moves(Plan { full: 3, plies: 4 });
        assert!(!deeper.contains(&"e4f6".to_string()), "{deeper:?}");
    }

    #[test]
    fn errors_quote_at_most_100_characters() {
        let long = "x".repeat(500);
        let q = quote(&long);
        assert_eq!(q.chars().filter(|&c| c == 'x').count(), 100);
        assert!(q.ends_with("…`"));
        assert_eq!(quote("a\nb"), "`a\\nb`");
        let e = parse_option(&long).unwrap_err();
        assert!(e.len() < 200, "{e}");
        assert_eq!(
            parse_option("Skill Level=0"),
            Ok(("Skill Level".to_string(), "0".to_string()))
        );
    }
}
