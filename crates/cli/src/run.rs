//! `regex-chess run PROGRAM`: any program file run as the README's Python
//! loop runs it, fast.
//!
//! It owns the loop and its I/O: read a program in the original project's
//! JSON shape (or a `.js` dump, read back into the same pairs by
//! `regex_vm::format::js`), read every entry as CPython's `re` reads it
//! and refuse the program at load where CPython would raise (or an entry
//! passes a limit of ours), naming the entry (`regex_vm::python`), then
//! from the empty state run one pass, print the state as
//! `print(state, end="")` would, and for each line of standard input
//! append the line and `\n`, run a pass and print; stop at the end of
//! input or once the state contains `--until`. No backtracking budget
//! applies (a pattern that needs long searches takes long, as in Python),
//! but `--timeout` (all passes) and `--pass-timeout` (each) end a run
//! that takes too long with an error naming the pass and the rewrite. It knows nothing of chess.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use regex_vm::{format, Config, ExecError, Executor, Program, Stop};

/// The default cap on the state (and an input line), in bytes.
pub(crate) const DEFAULT_MAX_STATE_BYTES: usize = 256 << 20;

/// Arguments of `regex-chess run`.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// The program: a JSON array of [pattern, replacement] pairs, the
    /// replacements in Python `re.sub` syntax, or a `.js`/`.mjs` module as
    /// `dump --format js` writes it.
    pub program: PathBuf,
    /// Stop after the pass whose state contains this text.
    #[arg(long)]
    pub until: Option<String>,
    /// Print each pass's time, rewrites run and skipped, and peak state
    /// size to standard error.
    #[arg(long)]
    pub stats: bool,
    /// Stop with an error when the state (or an input line) grows past
    /// this many bytes; the Python engine's backtracking stack may hold
    /// as many bytes (and at least a million entries).
    #[arg(long, default_value_t = DEFAULT_MAX_STATE_BYTES)]
    pub max_state_bytes: usize,
    /// Stop with an error, naming the pass and the rewrite, when the
    /// passes together take longer than this many seconds (a pattern that
    /// backtracks for ever, as CPython would).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// The same for each pass alone.
    #[arg(long, value_name = "SECS")]
    pub pass_timeout: Option<f64>,
}

/// A number of seconds as a duration.
fn seconds(name: &str, secs: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("--{name} wants a positive number of seconds, not {secs}"))
}

/// The `[pattern, replacement]` pairs in a file: the JSON shape, or a
/// `.js`/`.mjs` module as `dump --format js` writes it (read back into
/// the same pairs).
pub(crate) fn read_pairs(path: &Path) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path)?;
    if format::is_js_path(path) {
        Ok(format::pairs_from_js(&text)?)
    } else {
        Ok(format::pairs_from_json(&text)?)
    }
}

/// Reads a program file and makes it the program CPython's `re` would run
/// (`regex_vm::python::load`), or refuses it naming the entry.
///
/// # Errors
///
/// An unreadable or malformed file, or an entry CPython would refuse (or
/// that passes a limit of ours).
pub(crate) fn load_exact(path: &Path) -> Result<Program> {
    let pairs = read_pairs(path).with_context(|| format!("reading {}", path.display()))?;
    regex_vm::python::load(&pairs).with_context(|| format!("refusing {}", path.display()))
}

/// The executor's settings for a program read from a file: the state cap,
/// and no backtracking budget (a long search takes long, as in Python).
pub(crate) fn file_config(max_state_bytes: usize) -> Config {
    Config {
        max_state_bytes,
        fancy_backtrack_limit: usize::MAX,
        ..Config::default()
    }
}

/// Runs the loop.
pub(crate) fn run(args: RunArgs) -> Result<()> {
    let start = Instant::now();
    let total = args.timeout.map(|t| seconds("timeout", t)).transpose()?;
    let per_pass = args
        .pass_timeout
        .map(|t| seconds("pass-timeout", t))
        .transpose()?;
    let program = load_exact(&args.program)?;
    let exec = Executor::new(&program, file_config(args.max_state_bytes))
        .with_context(|| format!("compiling {}", args.program.display()))?;
    if args.stats {
        eprintln!(
            "loaded {}: {} rewrites, {} distinct patterns, in {:.1} ms",
            args.program.display(),
            program.len(),
            program.distinct_patterns(),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    let mut out = crate::textio::stdout();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut state = String::new();
    let mut line = Vec::new();
    let all_passes = total.map(|t| Stop::at(Instant::now() + t));
    for pass in 1.. {
        let mut stop = all_passes.clone().unwrap_or_default();
        if let Some(t) = per_pass {
            stop = stop.with_deadline(Instant::now() + t);
        }
        let stats = exec.run_until(&mut state, &stop).map_err(|e| {
            let what = match &e {
                ExecError::Stopped { rewrite, .. } => format!(
                    "pass {pass}, rewrite {rewrite} (pattern {:?}), with --timeout {} and --pass-timeout {}",
                    regex_vm::excerpt(&program.rewrites()[*rewrite].pattern),
                    shown(args.timeout),
                    shown(args.pass_timeout),
                ),
                _ => format!("pass {pass}"),
            };
            anyhow::Error::new(e).context(what)
        })?;
        out.write_bytes(state.as_bytes())?;
        out.flush_out()?;
        if args.stats {
            eprintln!(
                "pass {pass}: {:.2} ms, {} rewrites run, {} skipped, peak {} bytes, {} threads",
                stats.elapsed.as_secs_f64() * 1e3,
                stats.executed,
                stats.skipped,
                stats.peak_state_bytes,
                stats.peak_threads
            );
        }
        if args.until.as_deref().is_some_and(|t| state.contains(t)) {
            break;
        }
        line.clear();
        let limit = args.max_state_bytes.saturating_add(1) as u64;
        let n = (&mut input)
            .take(limit)
            .read_until(b'\n', &mut line)
            .context("reading standard input")?;
        if n == 0 {
            break;
        }
        if line.len() > args.max_state_bytes {
            bail!(
                "input line {pass} is longer than the state cap of {} bytes",
                args.max_state_bytes
            );
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let text = std::str::from_utf8(&line)
            .with_context(|| format!("input line {pass} is not UTF-8"))?;
        state.push_str(text);
        state.push('\n');
    }
    // The process ends here: the compiled program is not taken apart
    // piece by piece (about 8% of loading fours' instructions).
    std::mem::forget(exec);
    std::mem::forget(program);
    Ok(())
}

/// An option's seconds, or "none".
fn shown(secs: Option<f64>) -> String {
    secs.map_or("none".to_string(), |s| format!("{s} s"))
}
