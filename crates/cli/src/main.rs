//! `regex-chess`: the command line.
//!
//! One subcommand per use: `play` (the default) plays a game in the
//! terminal, `moves` lists the legal moves the regex program computes for a
//! position, `perft` counts leaf nodes with it, `reply` prints the engine's
//! choice, `dump` writes the turn program to a file, `fuzz` compares the
//! program with shakmaty on random games, `uci` speaks the UCI protocol,
//! `listing` shows a program instruction by instruction, `trace` runs
//! one turn phase by phase, `web` writes the game as a static web site and
//! `match` plays a UCI engine to measure strength; `run` runs any program
//! file as the README's Python loop does; `successors` prints the FEN of
//! every position one legal move away (`dump --program successors` writes
//! that rewrite list).
//! The binary owns argument parsing, terminal I/O and printing; the game's
//! chess (moves, legality, search, game end) is computed by the regex
//! programs of `regex-chess-program`. What it computes with shakmaty is
//! bookkeeping and judging around them: SAN, PGN, FEN checks, `match`'s
//! adjudication and move checks, `fuzz`'s oracle, and `match --native`,
//! which plays the native reference search instead of a regex program.

#![forbid(unsafe_code)]

mod arena;
mod bench;
mod bench_cost;
mod bench_program;
mod book;
mod corpus;
mod engine_bench;
mod fuzz;
mod listing;
mod move_text;
mod pgn;
mod phases;
mod play;
mod play_record;
mod profile_program;
mod report;
mod rewrite_shape;
mod run;
mod successors;
mod texel;
mod textio;
mod trace_program;
mod trace_turn;
mod uci;
mod web;

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "regex-chess",
    version,
    about = "Chess computed by regex find-and-replace"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand, `play`'s options: `regex-chess --ascii` is
    /// `regex-chess play --ascii`.
    #[command(flatten)]
    play: play::PlayArgs,
}

pub(crate) use chess::codec::START_FEN;

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (the default).
    Play(play::PlayArgs),
    /// Write the turn program (or the successors list): .json (the
    /// original project's shape) or .js.
    Dump {
        /// The file to write.
        file: std::path::PathBuf,
        /// The format, when the file's extension does not say it.
        #[arg(long, value_enum)]
        format: Option<DumpFormat>,
        /// The program: the turn program `play` runs, or the successors
        /// list (one FEN line in, the FEN after every legal move out).
        #[arg(long, value_enum, default_value_t = DumpProgram::Turn)]
        program: DumpProgram,
        /// The successors list's promotions: all four, or to a queen only.
        #[arg(long, value_enum)]
        promotions: Option<successors::PromotionsArg>,
        /// Search depth of the dumped turn program (plies; 4 is two
        /// full-width plies and two capture plies, 5 the engine's default
        /// strength). The fast mode, 2, by default: the dump runs under
        /// CPython and in browsers, about 20 times slower at depth 3.
        #[arg(long)]
        depth: Option<chess::Depth>,
        /// The turn program with the opening book's stage before its
        /// search (`chess::book`); without it the dump is the program
        /// without a book.
        #[arg(long)]
        book: bool,
        /// Late-move pruning keeping the K best-looking candidates at the
        /// probed nodes below the root (`chess::Variant::late`; acts at
        /// depths 4 to 6); 0 is off.
        #[arg(long, value_name = "K", default_value_t = LATE_MOVES, value_parser = late_moves_arg)]
        late_moves: u32,
        /// How the instructions become rewrites: `ours` (the program `play`
        /// runs), `stack` (the same screens in a foreign style: variables
        /// named on the stack and found by back-reference, no scope hints;
        /// a benchmark for `run`) or `hand` (the same screens as a person
        /// writes them for Python's `re`: `\d`, `(?m)`, look-ahead,
        /// back-references; another benchmark; as `.js`, each pattern
        /// translated to a JavaScript regex with its meaning).
        #[arg(long, value_enum, default_value_t = DumpStyle::Ours)]
        style: DumpStyle,
    },
    /// Print the FEN of every position one legal move away, one per line,
    /// in the order of the moves' UCI text, computed by the successors list.
    Successors(successors::SuccessorsArgs),
    /// Print the legal moves of a position, one UCI move per line, sorted.
    Moves {
        /// The position (FEN).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print the FEN after each move too.
        #[arg(long)]
        with_fen: bool,
    },
    /// Count the positions DEPTH plies ahead, every move from the regex program.
    Perft {
        /// The position (FEN).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Plies.
        #[arg(long, default_value_t = 1)]
        depth: u32,
        /// Repeat the count this many times and report the median time.
        #[arg(long, default_value_t = 1)]
        runs: u32,
        /// Also print the count below each legal move of the position.
        #[arg(long)]
        divide: bool,
        /// Positions per VM run (1 to 512): fewer holds less memory.
        #[arg(long, default_value_t = chess::PERFT_BATCH)]
        batch: usize,
    },
    /// Print the engine's move (UCI) and its score from the mover's view
    /// (`cp N` or `mate N`, as UCI writes it).
    Reply {
        /// The position (FEN); the side to move is the engine.
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Search depth (plies; 4 is two full-width plies and two capture plies,
        /// 5 three and two, 6 depth 5's kept root moves a ply deeper; default 5);
        /// with --movetime, the deepest it climbs to (default 6).
        #[arg(long)]
        depth: Option<chess::Depth>,
        /// Think this many milliseconds, deepening (depth 2, 3, 5, then 6) as
        /// `uci`'s `go movetime` does, instead of searching a fixed depth.
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// At a fixed depth, search this move (`e2e4`) first as the root's
        /// probe, as each rung of --movetime searches the answer of the rung
        /// below: the same answer, only the time changes (at depth 6 the
        /// probe's score also chooses which moves are searched a ply
        /// deeper, so there the answer can change).
        #[arg(long, value_name = "MOVE", conflicts_with = "movetime")]
        probe: Option<String>,
        /// Answer from the opening book first (`chess::book`): a book
        /// position answers the book's move and score without a search.
        #[arg(long, conflicts_with = "probe")]
        book: bool,
        /// Late-move pruning keeping the K best-looking candidates at the
        /// probed nodes below the root (`chess::Variant::late`; acts at
        /// depths 4 to 6); 0 is off.
        #[arg(long, value_name = "K", default_value_t = LATE_MOVES, value_parser = late_moves_arg)]
        late_moves: u32,
    },
    /// Play random games and compare every ply with shakmaty.
    Fuzz(fuzz::FuzzArgs),
    /// Speak the UCI protocol on standard input and output.
    Uci,
    /// Time full turns of the turn program (and, with --python, CPython's),
    /// or with --program any program file on ours, CPython and Node.
    Bench(bench::BenchArgs),
    /// List a program: its instructions, their rewrites, a summary per kind.
    Listing(listing::ListingArgs),
    /// Run one turn phase by phase: rewrites run, state size, threads, time
    /// (or with --program, one pass of any program file).
    Trace(trace_turn::TraceArgs),
    /// Write the game as a static web site into DIR (the regex program runs in the browser).
    Web(web::WebArgs),
    /// Play a match against a UCI engine and report the score and Elo.
    Match(Box<arena::MatchArgs>),
    /// Run any program file as the README's Python loop does.
    Run(run::RunArgs),
    /// Play the native reference against itself and write its quiet
    /// positions with each game's result (for `tune`).
    Selfplay(texel::SelfplayArgs),
    /// Tune the piece-square values on `selfplay`'s positions (Texel's
    /// method) and print (or write) the table.
    Tune(texel::TuneArgs),
    /// Write the opening book (chess/book.txt) from the native reference's
    /// deeper searches of the first plies.
    Book(book::BookArgs),
    /// The corpus of programs not shaped for our executor: list, write,
    /// or time them on our executor, CPython and Node.
    Corpus(corpus::CorpusArgs),
}

/// The formats `dump` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DumpFormat {
    /// The original project's JSON shape.
    Json,
    /// A JavaScript module.
    Js,
}

/// The programs `dump` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DumpProgram {
    /// The turn program `play` runs.
    Turn,
    /// The successors list (`regex-chess successors`).
    Successors,
}

/// The lowerings `dump` can write the turn program with.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DumpStyle {
    /// Ours: the program `play` runs.
    Ours,
    /// The stack style (`regex_asm::lower_stack`).
    Stack,
    /// The hand-written style (`regex_asm::lower_hand`), in Python's
    /// pattern language (translated for a `.js` dump).
    Hand,
}

impl DumpFormat {
    /// The format a file name asks for: `.json`, `.js` or `.mjs`.
    fn of(file: &std::path::Path) -> Option<DumpFormat> {
        match file.extension().and_then(|e| e.to_str()) {
            Some("json") => Some(DumpFormat::Json),
            Some("js" | "mjs") => Some(DumpFormat::Js),
            _ => None,
        }
    }
}

/// The engine's late-move pruning when none is asked for (`--late-moves`,
/// UCI's `LateMoves`): the K of `chess::Variant::late`, 0 off.
pub(crate) const LATE_MOVES: u32 = 0;

/// The most `--late-moves` and UCI's `LateMoves` take.
pub(crate) const MOST_LATE_MOVES: u32 = 64;

/// A `--late-moves` value: 0 (off) to [`MOST_LATE_MOVES`].
pub(crate) fn late_moves_arg(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(k) if k <= MOST_LATE_MOVES => Ok(k),
        _ => Err(format!("0 (off) to {MOST_LATE_MOVES}")),
    }
}

/// The variant's setting of a `--late-moves` value: `None` for 0.
pub(crate) const fn late_moves(keep: u32) -> Option<u32> {
    if keep == 0 {
        None
    } else {
        Some(keep)
    }
}

/// The book's setting of a `--book` flag.
pub(crate) fn use_book(on: bool) -> chess::UseBook {
    if on {
        chess::UseBook::On
    } else {
        chess::UseBook::Off
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        // The reader of standard output went away (`| head`): nothing is
        // left to tell it.
        Err(e) if textio::is_closed(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let command = cli.command.unwrap_or(Command::Play(cli.play));
    match command {
        Command::Play(args) => return play::run(args),
        Command::Dump {
            file,
            format,
            program,
            promotions,
            depth,
            style,
            book,
            late_moves: late,
        } => {
            let Some(format) = format.or_else(|| DumpFormat::of(&file)) else {
                anyhow::bail!(
                    "{}: unknown extension; name the file .json, .js or .mjs, or pass --format json|js",
                    textio::quote(&file.to_string_lossy())
                );
            };
            let stack;
            if book && (program != DumpProgram::Turn || style != DumpStyle::Ours) {
                anyhow::bail!("--book is the turn program's, in our style (--style ours)");
            }
            let variant = chess::Variant {
                book: use_book(book),
                late: late_moves(late),
            };
            if variant.late.is_some() && (program != DumpProgram::Turn || style != DumpStyle::Ours)
            {
                anyhow::bail!("--late-moves is the turn program's, in our style (--style ours)");
            }
            let program_kind = program;
            let program = match (program, style) {
                (DumpProgram::Successors, DumpStyle::Ours) if depth.is_none() => {
                    successors::program(promotions.unwrap_or_default())?
                }
                (DumpProgram::Successors, _) => {
                    anyhow::bail!("--depth and --style are the turn program's; the successors list has neither")
                }
                (DumpProgram::Turn, _) if promotions.is_some() => {
                    anyhow::bail!("--promotions is the successors list's (--program successors)")
                }
                (DumpProgram::Turn, DumpStyle::Ours) => {
                    &chess::turn_pass_with(depth.unwrap_or(chess::Depth::FAST), variant)
                        .context("building the turn program")?
                        .program
                }
                (DumpProgram::Turn, DumpStyle::Stack) => {
                    let depth = depth.unwrap_or(chess::Depth::FAST);
                    stack = chess::turn::turn_stack_program(depth)
                        .context("building the stack-style turn program")?;
                    &stack
                }
                (DumpProgram::Turn, DumpStyle::Hand) => {
                    let depth = depth.unwrap_or(chess::Depth::FAST);
                    stack = chess::turn::turn_hand_program(depth)
                        .context("building the hand-style turn program")?;
                    &stack
                }
            };
            let text = match format {
                DumpFormat::Json => format!("{}\n", regex_vm::format::to_json(program)),
                // The hand style's patterns are Python's: each is
                // translated, or the entry is refused with the reason.
                DumpFormat::Js => {
                    regex_vm::format::to_js(program).context("writing the program as JavaScript")?
                }
            };
            std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
            let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            let what = match program_kind {
                DumpProgram::Successors => "the successors list".to_string(),
                DumpProgram::Turn => {
                    let depth = depth.unwrap_or(chess::Depth::FAST);
                    let which = if depth == chess::Depth::DEFAULT {
                        "the engine's default".to_string()
                    } else {
                        format!(
                            "--depth {} writes the engine's default",
                            chess::Depth::DEFAULT
                        )
                    };
                    let with_book = if book { ", with the opening book" } else { "" };
                    let with_late = match variant.late {
                        Some(k) => format!(", late-move pruning keeping {k}"),
                        None => String::new(),
                    };
                    format!("the turn program at depth {depth}{with_book}{with_late} ({which})")
                }
            };
            textio::println(format_args!(
                "wrote {}: {what}, {} rewrites, {} distinct patterns, {} bytes",
                file.display(),
                program.len(),
                program.distinct_patterns(),
                bytes
            ))?;
        }
        Command::Successors(args) => successors::run(args)?,
        Command::Book(args) => book::run(args)?,
        Command::Moves { fen, with_fen } => {
            let moves = chess::legal_moves(&fen).context("the --fen position")?;
            for (uci, after) in moves {
                if with_fen {
                    textio::println(format_args!("{uci} {after}"))?;
                } else {
                    textio::println(&uci)?;
                }
            }
        }
        Command::Perft {
            fen,
            depth,
            runs,
            divide,
            batch,
        } => perft(&fen, depth, runs, divide, batch)?,
        Command::Reply {
            fen,
            depth,
            movetime,
            probe,
            book,
            late_moves: late,
        } => {
            let depth = depth.unwrap_or(chess::search::deepen::unasked_depth(movetime.is_some()));
            let variant = chess::Variant {
                book: use_book(book),
                late: late_moves(late),
            };
            reply(&fen, depth, movetime, probe.as_deref(), variant)?
        }
        Command::Fuzz(args) => return fuzz::run(args),
        Command::Uci => uci::run()?,
        Command::Bench(args) => match (&args.program, args.profile) {
            _ if args.engine.is_some() => engine_bench::run(&engine_bench::Job {
                per_shape: args.engine.unwrap_or_default(),
                seed: args.seed,
                runs: args.runs,
                json: args.json,
                write: args.write.clone(),
            })?,
            (None, _) if args.cost_model => {
                let late = late_moves(args.late_moves);
                bench_cost::run(&bench::suite(&args)?, (args.depth, late), args.runs.max(1))?
            }
            (None, _) => bench::run(args)?,
            (Some(program), None) => bench_program::run(&bench_program::Job {
                program,
                input: args.input.as_deref(),
                runs: args.runs.max(1),
                json: args.json,
                config: bench::program_config(&args),
            })?,
            (Some(program), Some(top)) => profile_program::run(&profile_program::Job {
                program,
                input: args.input.as_deref(),
                runs: args.runs.max(1),
                top,
                json: args.json,
                config: bench::program_config(&args),
            })?,
        },
        Command::Listing(args) => listing::run(args)?,
        Command::Trace(args) => match args.program.clone() {
            Some(program) => trace_program::run(&args, &program)?,
            None => trace_turn::run(args)?,
        },
        Command::Web(args) => web::run(args)?,
        Command::Match(args) => arena::run(*args)?,
        Command::Run(args) => run::run(args)?,
        Command::Selfplay(args) => texel::run_selfplay(args)?,
        Command::Tune(args) => texel::run_tune(args)?,
        Command::Corpus(args) => corpus::run(args)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr (drawn only on a terminal) for runs that may
/// be long: `total` steps, or a spinner counting leaves when `None`.
fn progress_bar(total: Option<u64>, long: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !long {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let style = match total {
        Some(_) => ProgressStyle::with_template("{bar:30} {pos}/{len} root moves, {elapsed}"),
        None => ProgressStyle::with_template("{spinner} {pos} leaves, {elapsed}"),
    };
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

/// `perft`: the count (and with `divide`, the count below each move), the
/// time, the most positions held at once, the program's size.
fn perft(fen: &str, depth: u32, runs: u32, divide: bool, batch: usize) -> Result<()> {
    if !(1..=512).contains(&batch) {
        anyhow::bail!("--batch must be 1 to 512: a VM run holds the children of a whole batch");
    }
    // Build and compile the program first so the time is the search's.
    chess::move_pass().context("building the move program")?;
    chess::codec::parse_fen(fen).context("the --fen position")?;
    let long = depth >= 4;
    let mut times = Vec::new();
    let mut n = 0;
    let mut held = 0;
    let mut below = Vec::new();
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        if divide && depth > 0 {
            let moves = chess::legal_moves(fen).context("the --fen position")?;
            let bar = progress_bar(Some(moves.len() as u64), long);
            below.clear();
            held = moves.len();
            let roots = moves.len();
            for (uci, after) in moves {
                let report = chess::perft_batched(&after, depth - 1, batch, &mut |_| {})?;
                held = held.max(roots + report.peak_held);
                below.push((uci, report.leaves));
                bar.inc(1);
            }
            bar.finish_and_clear();
            n = below.iter().map(|(_, c)| c).sum();
        } else {
            let bar = progress_bar(None, long);
            let report =
                chess::perft_batched(fen, depth, batch, &mut |leaves| bar.set_position(leaves))
                    .context("the --fen position")?;
            bar.finish_and_clear();
            n = report.leaves;
            held = report.peak_held;
        }
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    for (uci, count) in &below {
        textio::println(format_args!("{uci}: {count}"))?;
    }
    times.sort_by(f64::total_cmp);
    textio::println(format_args!("perft({depth}) = {n}"))?;
    if times.len() > 1 {
        textio::println(format_args!(
            "time: {:.2} ms (median of {}, min {:.2}, max {:.2})",
            times[times.len() / 2],
            times.len(),
            times[0],
            times[times.len() - 1]
        ))?;
    } else {
        textio::println(format_args!("time: {:.2} ms", times[0]))?;
    }
    textio::println(format_args!(
        "held: at most {held} positions at once ({} per VM run)",
        batch.max(1)
    ))?;
    let program = &chess::move_pass()?.program;
    textio::println(format_args!(
        "move program: {} rewrites, {} distinct patterns",
        program.len(),
        program.distinct_patterns()
    ))
}

/// `reply`: `MOVE cp N` / `MOVE mate N` from the mover's view, or why
/// there is no move.
fn reply(
    fen: &str,
    depth: chess::Depth,
    movetime: Option<u64>,
    probe: Option<&str>,
    variant: chess::Variant,
) -> Result<()> {
    use shakmaty::Position;
    let position = chess::codec::parse_fen(fen).context("the --fen position")?;
    let (best, stats, start) = match movetime {
        None => {
            chess::reply_pass_with(depth, variant).context("building the reply program")?;
            let start = Instant::now();
            let searched = match probe {
                None => chess::search_variant(fen, &[], depth, variant),
                Some(mv) => chess::search_hinted_variant(fen, &[], depth, mv, variant),
            }
            .context("the --fen position and --probe")?;
            if searched.depth != depth {
                eprintln!(
                    "note: the depth {depth} search outgrew its memory cap; this is the depth {} answer",
                    searched.depth
                );
            }
            (searched.best, searched.stats, start)
        }
        Some(ms) => {
            let rungs = chess::search::deepen::rungs_to(depth);
            chess::build_passes_with(&rungs, false, variant)
                .context("building the reply programs")?;
            let limits = chess::search::deepen::Limits {
                book: variant.book,
                late: variant.late,
                budget: chess::search::clock::budget(&chess::search::clock::Clock {
                    movetime: Some(std::time::Duration::from_millis(ms)),
                    ..chess::search::clock::Clock::default()
                }),
                ..chess::search::deepen::Limits::to_depth(depth)
            };
            let start = limits.start;
            let thought = chess::think(fen, &[], &limits, |_| {}).context("the --fen position")?;
            let answer = thought.answer();
            eprintln!("depth {} answered", answer.depth);
            (answer.answer.clone(), answer.stats.clone(), start)
        }
    };
    match best {
        Some((uci, score)) => textio::println(format_args!("{uci} {}", uci::score_text(score)))?,
        None if position.is_check() => textio::println("none: checkmate")?,
        None => textio::println("none: stalemate")?,
    }
    eprintln!(
        "time: {:.1} ms, {} rewrites applied",
        start.elapsed().as_secs_f64() * 1e3,
        stats.executed
    );
    Ok(())
}
