//! `regex-chess`: the command line.
//!
//! One subcommand per use: `play` (the default) plays a game in the
//! terminal, `moves` lists the legal moves the regex program computes for a
//! position, `perft` counts leaf nodes with it, `reply` prints the engine's
//! choice, `dump` writes the turn program to a file, `fuzz` compares the
//! program with shakmaty on random games, `uci` speaks the UCI protocol,
//! `run` runs any program file as the README's Python loop does.
//! The binary owns argument parsing, terminal I/O and printing; all chess
//! is computed by the regex programs of `regex-chess-program`.

mod bench;
mod fuzz;
mod play;
mod record;
mod run;
mod uci;

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
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

pub(crate) const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (the default).
    Play(play::PlayArgs),
    /// Write the turn program: .json (the original project's shape) or .js.
    Dump {
        /// The file to write.
        file: std::path::PathBuf,
    },
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
    },
    /// Print the engine's move (UCI) and its 2-ply score for a position.
    Reply {
        /// The position (FEN); the side to move is the engine.
        #[arg(long, default_value = START_FEN)]
        fen: String,
    },
    /// Play random games and compare every ply with shakmaty.
    Fuzz(fuzz::FuzzArgs),
    /// Speak the UCI protocol on standard input and output.
    Uci,
    /// Time full turns of the turn program (and, with --python, CPython's).
    Bench(bench::BenchArgs),
    /// Run any program file as the README's Python loop does.
    Run(run::RunArgs),
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let command = cli
        .command
        .unwrap_or(Command::Play(play::PlayArgs::default()));
    match command {
        Command::Play(args) => return play::run(args),
        Command::Dump { file } => {
            let program = &chess::turn_pass()
                .context("building the turn program")?
                .program;
            regex_vm::format::write_file(program, &file)
                .with_context(|| format!("writing {}", file.display()))?;
            let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            println!(
                "wrote {}: {} rewrites, {} distinct patterns, {} bytes",
                file.display(),
                program.len(),
                program.distinct_patterns(),
                bytes
            );
        }
        Command::Moves { fen, with_fen } => {
            let moves = chess::legal_moves(&fen).with_context(|| format!("position {fen:?}"))?;
            for (uci, after) in moves {
                if with_fen {
                    println!("{uci} {after}");
                } else {
                    println!("{uci}");
                }
            }
        }
        Command::Perft { fen, depth, runs } => {
            // Build and compile the program first so the time is the search's.
            chess::move_pass().context("building the move program")?;
            let mut times = Vec::new();
            let mut n = 0;
            for _ in 0..runs.max(1) {
                let start = Instant::now();
                n = chess::perft(&fen, depth).with_context(|| format!("position {fen:?}"))?;
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
            times.sort_by(f64::total_cmp);
            println!("perft({depth}) = {n}");
            if times.len() > 1 {
                println!(
                    "time: {:.2} ms (median of {}, min {:.2}, max {:.2})",
                    times[times.len() / 2],
                    times.len(),
                    times[0],
                    times[times.len() - 1]
                );
            } else {
                println!("time: {:.2} ms", times[0]);
            }
            let program = &chess::move_pass()?.program;
            println!(
                "move program: {} rewrites, {} distinct patterns",
                program.len(),
                program.distinct_patterns()
            );
        }
        Command::Reply { fen } => {
            chess::reply_pass().context("building the reply program")?;
            let start = Instant::now();
            let (reply, stats) = chess::reply(&fen).with_context(|| format!("position {fen:?}"))?;
            match reply {
                Some((uci, score)) => println!("{uci} {score}"),
                None => println!("none (no legal move)"),
            }
            eprintln!(
                "time: {:.1} ms, {} rewrites applied",
                start.elapsed().as_secs_f64() * 1e3,
                stats.executed
            );
        }
        Command::Fuzz(args) => return fuzz::run(args),
        Command::Uci => uci::run()?,
        Command::Bench(args) => bench::run(args)?,
        Command::Run(args) => run::run(args)?,
    }
    Ok(ExitCode::SUCCESS)
}
