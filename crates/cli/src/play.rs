//! `regex-chess play`: a game in the terminal.
//!
//! The screen the regex turn program produces is the state; this module
//! only shows it (with Unicode pieces unless `--ascii`), reads the person's
//! line (line editing and history on a terminal, plain lines from a pipe),
//! hands `help` and `quit` locally, and appends every other line to the
//! state before the next pass. It decides nothing about chess.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use chess::screen::{start_screen, GAME_OVER};

use crate::record::{normalize, today, Record};
use shakmaty::Color;

/// Who the engine plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineColor {
    /// The engine plays white (and moves first from the start position).
    White,
    /// The engine plays black.
    Black,
    /// No engine: two people take turns at the same terminal.
    None,
}

/// Arguments of `play`.
#[derive(clap::Args, Debug, Default)]
pub struct PlayArgs {
    /// Start from this position (FEN) instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// The engine's colour.
    #[arg(long, value_enum)]
    pub engine_color: Option<EngineColor>,
    /// Plain letters instead of Unicode chess symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Write the game as PGN to this file when it ends or on `quit`.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Plies the engine searches (default: the engine's default depth).
    #[arg(long)]
    pub depth: Option<u32>,
}

const HELP: &str = "\
Type a move as its from and to squares: e2e4, g1f3, e1g1 (castling),
or in algebraic notation: e4, Nf3, exd5, O-O, e8=Q.
Promotions add the piece: e7e8q, e7e8r, e7e8b, e7e8n (e7e8 alone is a queen).
Commands: help (this text), quit (leave the game).";

/// Unicode symbol of a piece letter.
fn glyph(c: char) -> char {
    match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        c => c,
    }
}

/// The screen as shown: board rows in Unicode unless `ascii`.
pub fn display(screen: &str, ascii: bool) -> String {
    screen
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            if ascii || !(1..=8).contains(&i) {
                line.to_string()
            } else {
                line.chars().map(glyph).collect()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

enum Input {
    Editor(Box<rustyline::DefaultEditor>),
    Pipe(std::io::StdinLock<'static>),
}

impl Input {
    fn new() -> Result<Input> {
        if std::io::stdin().is_terminal() {
            let editor = rustyline::DefaultEditor::new().context("starting line editing")?;
            Ok(Input::Editor(Box::new(editor)))
        } else {
            Ok(Input::Pipe(std::io::stdin().lock()))
        }
    }

    /// One line, or `None` at the end of input.
    fn read(&mut self, prompt: &str) -> Result<Option<String>> {
        match self {
            Input::Editor(ed) => match ed.readline(prompt) {
                Ok(line) => {
                    let _ = ed.add_history_entry(line.as_str());
                    Ok(Some(line))
                }
                Err(rustyline::error::ReadlineError::Eof)
                | Err(rustyline::error::ReadlineError::Interrupted) => Ok(None),
                Err(e) => Err(e).context("reading the terminal"),
            },
            Input::Pipe(lock) => {
                print!("{prompt}");
                std::io::stdout().flush().ok();
                let mut line = String::new();
                if lock
                    .read_line(&mut line)
                    .context("reading standard input")?
                    == 0
                {
                    println!();
                    return Ok(None);
                }
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                println!("{line}");
                Ok(Some(line))
            }
        }
    }
}

fn info_line(screen: &str) -> &str {
    screen.split('\n').nth(12).unwrap_or("")
}

/// Plays a game on standard input and output.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let engine = match args.engine_color.unwrap_or(EngineColor::Black) {
        EngineColor::White => Some(Color::White),
        EngineColor::Black => Some(Color::Black),
        EngineColor::None => None,
    };
    let t0 = Instant::now();
    let depth = args.depth.unwrap_or(chess::search::DEFAULT_DEPTH);
    chess::turn_pass_at(depth).context("building the turn program")?;
    let build = t0.elapsed();
    let mut state = match (&args.fen, engine) {
        (None, Some(Color::Black)) => String::new(),
        (fen, _) => {
            let fen = fen.as_deref().unwrap_or(crate::START_FEN);
            start_screen(fen, engine).with_context(|| format!("position {fen:?}"))?
        }
    };
    eprintln!(
        "regex-chess: turn program of {} rewrites ready in {} ms",
        chess::turn_pass_at(depth)?.program.len(),
        build.as_millis()
    );
    let start_fen = args.fen.as_deref().unwrap_or(crate::START_FEN).to_string();
    let mut record = Record::new(&start_fen, engine)?;
    let save = |record: &Record| -> Result<()> {
        if let Some(path) = &args.pgn {
            std::fs::write(path, record.pgn(&today()))
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("regex-chess: game saved to {}", path.display());
        }
        Ok(())
    };
    // First pass: boots the empty state, or lets an engine to move play.
    let before = info_line(&state).to_string();
    let mut stats =
        chess::play_turn_at(&mut state, None, depth).context("running the turn program")?;
    record.note_turn(&before, &state);
    let mut engine_moved = info_line(&state).contains("The engine played");
    let mut input = Input::new()?;
    loop {
        let (body, prompt) = match state.rsplit_once('\n') {
            Some((b, p)) => (b.to_string(), p.to_string()),
            None => (String::new(), state.clone()),
        };
        println!("{}", display(&body, args.ascii));
        if engine_moved {
            println!(
                "(engine reply: {:.0} ms)",
                stats.elapsed.as_secs_f64() * 1e3
            );
        }
        if prompt == GAME_OVER {
            println!("{prompt}");
            save(&record)?;
            return Ok(ExitCode::SUCCESS);
        }
        let line = loop {
            match input.read(&prompt)? {
                None => {
                    save(&record)?;
                    return Ok(ExitCode::SUCCESS);
                }
                Some(l) if l.trim() == "help" => println!("{HELP}"),
                Some(l) if l.trim() == "quit" => {
                    println!("Bye.");
                    save(&record)?;
                    return Ok(ExitCode::SUCCESS);
                }
                Some(l) => break l,
            }
        };
        let line = normalize(&state, &line);
        let before = info_line(&state).to_string();
        stats = chess::play_turn_at(&mut state, Some(&line), depth)
            .context("running the turn program")?;
        record.note_turn(&before, &state);
        // Only a new engine move gets its time printed.
        engine_moved =
            info_line(&state) != before && info_line(&state).contains("The engine played");
    }
}
