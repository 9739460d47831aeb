//! `regex-chess corpus`: programs this project did not shape for its
//! executor, each with its input, generated here; written to files, or
//! measured on our executor, CPython and Node.
//!
//! The corpus: the turn program in the stack and hand styles (foreign
//! lowerings of the same instructions, `regex_asm::lower_stack` and
//! `regex_asm::lower_hand`); `fours`, a game written in the manner of the
//! original Python project's chess program ([`fours`], on its own stack
//! machine [`stack_machine`]); and programs that are not chess and not
//! written by any assembler, each written as a person writes regexes for
//! Python: a Brainfuck interpreter running a Brainfuck program
//! ([`brainfuck`]), Conway's Life ([`life`]), Fibonacci numbers of a
//! hundred digits by chained look-aheads and back-references
//! ([`bignum`]), and word counting and sorting over a few hundred records
//! ([`words`]). A program is `[pattern, replacement]` pairs in Python's
//! syntax, run as `regex-chess run` and the README's loop run it: one
//! pass from the empty state, then one per input line. This module owns
//! the list and the files; [`measure`] owns the timing. It changes
//! nothing in the chess program or the executor.

mod bignum;
mod brainfuck;
mod fours;
mod life;
pub(crate) mod measure;
mod stack_machine;
mod words;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// One program of the corpus.
pub(crate) struct Entry {
    /// Its name (its files are `NAME.json`, `NAME.txt`, `NAME.mjs`).
    pub name: &'static str,
    /// What it is, in a line.
    pub about: &'static str,
    /// Its rewrites, in Python's syntax.
    pub pairs: Vec<(String, String)>,
    /// Its input: one line per pass after the first.
    pub input: String,
}

/// The corpus's programs, in order.
pub(crate) const NAMES: [&str; 7] = [
    "hand",
    "stack",
    "fours",
    "brainfuck",
    "life",
    "bignum",
    "words",
];

/// The turn program's pairs in a foreign style, at the fast depth.
fn turn_in(
    style: fn(chess::Depth) -> Result<regex_vm::Program, regex_asm::AsmError>,
) -> Result<Vec<(String, String)>> {
    let program = style(chess::Depth::FAST).context("building the turn program")?;
    Ok(regex_vm::format::pairs_from_json(
        &regex_vm::format::to_json(&program),
    )?)
}

/// Builds one program of the corpus.
///
/// # Errors
///
/// A name not in [`NAMES`], or a turn program that does not build.
pub(crate) fn build(name: &str) -> Result<Entry> {
    let (name, about, pairs, input): (&'static str, &'static str, _, String) = match name {
        "hand" => (
            "hand",
            "the turn program (depth 2) as a person writes regexes for Python: one move",
            turn_in(chess::turn::turn_hand_program)?,
            "e2e4\n".into(),
        ),
        "stack" => (
            "stack",
            "the turn program (depth 2) in the stack style: variables found by back-reference",
            turn_in(chess::turn::turn_stack_program)?,
            "e2e4\n".into(),
        ),
        "fours" => (
            "fours",
            "four in a row, two plies, in the manner of the original project's program",
            fours::program(),
            fours::INPUT.into(),
        ),
        "brainfuck" => (
            "brainfuck",
            "a Brainfuck interpreter running a Brainfuck program on an input line",
            brainfuck::program(),
            brainfuck::input(),
        ),
        "life" => (
            "life",
            "Conway's Life on a 40x30 grid, by look-around counts of the neighbours",
            life::program(),
            life::INPUT.into(),
        ),
        "bignum" => (
            "bignum",
            "Fibonacci numbers to a hundred digits by chained look-aheads and back-references",
            bignum::program(),
            bignum::INPUT.into(),
        ),
        "words" => (
            "words",
            "word counting and sorting over records, by a 26-way alternation with back-references",
            words::program(),
            words::input(),
        ),
        other => bail!(
            "no corpus program {}; the corpus: {}",
            crate::textio::quote(other),
            NAMES.join(", ")
        ),
    };
    Ok(Entry {
        name,
        about,
        pairs,
        input,
    })
}

/// The programs `only` names (all when empty), built.
///
/// # Errors
///
/// As [`build`].
pub(crate) fn select(only: &[String]) -> Result<Vec<Entry>> {
    if only.is_empty() {
        NAMES.iter().map(|n| build(n)).collect()
    } else {
        only.iter().map(|n| build(n)).collect()
    }
}

/// The pairs as a JSON program file, one entry per line.
fn json(pairs: &[(String, String)]) -> String {
    let lines: Vec<String> = pairs
        .iter()
        .map(|(p, r)| serde_json::json!([p, r]).to_string())
        .collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// What [`write`] wrote for one program.
pub(crate) struct Written {
    /// The JSON program.
    pub program: PathBuf,
    /// The input.
    pub input: PathBuf,
    /// The JavaScript module, or why the program has none.
    pub module: std::result::Result<PathBuf, String>,
}

/// Writes `entry` into `dir`: `NAME.json`, `NAME.txt` and, when every
/// pattern has a JavaScript form with its meaning, `NAME.mjs`.
///
/// # Errors
///
/// A program CPython would refuse (a bug of its generator), or a file
/// that cannot be written.
pub(crate) fn write(entry: &Entry, dir: &Path) -> Result<Written> {
    let program = dir.join(format!("{}.json", entry.name));
    std::fs::write(&program, json(&entry.pairs))
        .with_context(|| format!("writing {}", program.display()))?;
    let input = dir.join(format!("{}.txt", entry.name));
    std::fs::write(&input, &entry.input).with_context(|| format!("writing {}", input.display()))?;
    let loaded = regex_vm::python::load(&entry.pairs)
        .with_context(|| format!("the corpus program {}", entry.name))?;
    let module = match regex_vm::format::to_js(&loaded) {
        Ok(text) => {
            let path = dir.join(format!("{}.mjs", entry.name));
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            Ok(path)
        }
        Err(e) => Err(crate::textio::chain(&e)),
    };
    Ok(Written {
        program,
        input,
        module,
    })
}

/// Arguments of `corpus`.
#[derive(clap::Args, Debug)]
pub(crate) struct CorpusArgs {
    #[command(subcommand)]
    command: CorpusCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CorpusCommand {
    /// List the programs: rewrites, distinct patterns, input lines.
    List,
    /// Write each program (NAME.json), its input (NAME.txt) and, when it
    /// has one, its JavaScript module (NAME.mjs) into DIR.
    Write {
        /// The directory (made if missing).
        dir: PathBuf,
        /// Only these programs (repeat the option for more).
        #[arg(long)]
        only: Vec<String>,
    },
    /// Time every program on our executor, CPython and Node (when it can
    /// run it): whole processes (`regex-chess run`, the README's loop,
    /// Node's loop) and each pass.
    Bench(measure::BenchArgs),
}

/// Runs `corpus`.
///
/// # Errors
///
/// As [`build`], [`write`] and [`measure::run`].
pub(crate) fn run(args: CorpusArgs) -> Result<()> {
    match args.command {
        CorpusCommand::List => {
            for entry in select(&[])? {
                let distinct: std::collections::HashSet<&str> =
                    entry.pairs.iter().map(|(p, _)| p.as_str()).collect();
                crate::textio::println(format_args!(
                    "{:<10} {:>7} rewrites {:>6} distinct patterns {:>4} input lines  {}",
                    entry.name,
                    entry.pairs.len(),
                    distinct.len(),
                    entry.input.lines().count(),
                    entry.about
                ))?;
            }
            Ok(())
        }
        CorpusCommand::Write { dir, only } => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            for entry in select(&only)? {
                let written = write(&entry, &dir)?;
                let module = match &written.module {
                    Ok(path) => path.display().to_string(),
                    Err(why) => format!("no JavaScript module: {why}"),
                };
                crate::textio::println(format_args!(
                    "{} ({} rewrites), {}, {}",
                    written.program.display(),
                    entry.pairs.len(),
                    written.input.display(),
                    module
                ))?;
            }
            Ok(())
        }
        CorpusCommand::Bench(args) => measure::run(&args),
    }
}
