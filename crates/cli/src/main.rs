//! `regex-chess`: the command line.
//!
//! One subcommand per use: `moves` lists the legal moves the regex program
//! computes for a position, `perft` counts leaf nodes with it. The binary
//! owns argument parsing and printing only; all chess is computed by the
//! regex program in `regex-chess-program`.

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
    command: Command,
}

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
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
        }
    }
    Ok(())
}
