//! `regex-chess corpus bench`: every corpus program timed on our
//! executor, CPython and Node, two ways, printed as a table.
//!
//! Whole process: `regex-chess run NAME.json`, CPython's README loop
//! (`crates/cli/scripts/run_loop.py`) and Node's (`run_loop.cjs`, on the
//! program's JavaScript module, when it has one and `node` is installed),
//! each fed the program's input, loading included, `--runs` times with
//! the engines alternated; the median wall time, and the printed bytes
//! must be the same. Per pass: `bench --program`'s measurement
//! ([`crate::bench_program::measure`]: the passes alone, each pass's
//! median, the engines' final bytes checked), summed, with the worst
//! pass (the lowest ratio to ours) and the heaviest (CPython's longest)
//! named. Ratios are their time over ours. It measures; it changes no
//! program.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::bench::median;
use crate::bench_program::{self, Timed};

use super::Entry;

/// The README's loop under CPython.
const PYTHON_LOOP: &str = include_str!("../../scripts/run_loop.py");
/// The same loop under Node.
const NODE_LOOP: &str = include_str!("../../scripts/run_loop.cjs");

/// Arguments of `corpus bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    /// Runs of each engine, whole processes and passes alike (the median
    /// is reported).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Only these programs (repeat the option for more).
    #[arg(long)]
    only: Vec<String>,
    /// Print JSON instead of the tables.
    #[arg(long)]
    json: bool,
    /// Write the programs into this directory (and keep them there)
    /// instead of a temporary one.
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// One program's figures.
struct Row {
    name: &'static str,
    rewrites: usize,
    passes: usize,
    /// The largest state and the most threads of any pass.
    peak_bytes: usize,
    peak_threads: usize,
    /// Median whole-process ms: ours, CPython, Node.
    whole: [Option<f64>; 3],
    /// Summed per-pass medians: ours, CPython, Node.
    passes_ms: [Option<f64>; 3],
    /// The pass with the lowest CPython/ours ratio: (pass, ratio).
    worst: (usize, f64),
    /// The pass CPython took longest on: (pass, ratio).
    heaviest: (usize, f64),
    node_note: String,
}

/// Runs `command` with `input` on its standard input; its wall time in
/// ms and what it printed.
fn timed(mut command: Command, input: &Path) -> Result<(f64, Vec<u8>)> {
    let stdin =
        std::fs::File::open(input).with_context(|| format!("reading {}", input.display()))?;
    let t0 = Instant::now();
    let out = command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("starting {command:?}"))?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    if !out.status.success() {
        bail!("{command:?} failed ({})", out.status);
    }
    Ok((ms, out.stdout))
}

/// The three whole-process commands (Node's when it can run).
fn commands(program: &Path, module: Option<&Path>) -> Result<Vec<Command>> {
    let mut ours = Command::new(std::env::current_exe().context("finding regex-chess")?);
    ours.arg("run").arg(program);
    let mut python = Command::new("python3");
    python
        .env("PYTHONIOENCODING", "utf-8")
        .args(["-I", "-c", PYTHON_LOOP])
        .arg(program);
    let mut list = vec![ours, python];
    if let Some(module) = module {
        let mut node = Command::new("node");
        node.args(["-e", NODE_LOOP]).arg(module);
        list.push(node);
    }
    Ok(list)
}

/// Whole-process medians, the engines alternated run by run.
fn whole(
    entry: &Entry,
    written: &super::Written,
    node: bool,
    runs: usize,
) -> Result<[Option<f64>; 3]> {
    let module = written.module.as_ref().ok().filter(|_| node);
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let mut printed: Vec<Option<Vec<u8>>> = vec![None; 3];
    for _ in 0..runs {
        for (k, command) in commands(&written.program, module.map(PathBuf::as_path))?
            .into_iter()
            .enumerate()
        {
            let (ms, out) = timed(command, &written.input)?;
            times[k].push(ms);
            printed[k] = Some(out);
        }
    }
    let ours = printed[0].as_deref().unwrap_or_default();
    for (k, name) in [(1, "CPython"), (2, "Node")] {
        if printed[k].as_deref().is_some_and(|theirs| theirs != ours) {
            bail!(
                "{}: {name}'s whole process printed other bytes than ours",
                entry.name
            );
        }
    }
    let mut out = [None; 3];
    for (k, t) in times.iter().enumerate() {
        if !t.is_empty() {
            out[k] = Some(median(t));
        }
    }
    Ok(out)
}

/// The per-pass measurement of one program.
fn passes(written: &super::Written, runs: usize) -> Result<bench_program::Measured> {
    bench_program::measure(&bench_program::Job {
        program: &written.program,
        input: Some(&written.input),
        runs,
        json: false,
        config: crate::run::file_config(crate::run::DEFAULT_MAX_STATE_BYTES),
    })
}

/// The largest state and the most threads of any pass, from one
/// untimed run on our executor.
fn peaks(written: &super::Written) -> Result<(usize, usize)> {
    let program = crate::run::load_exact(&written.program)?;
    let exec = regex_vm::Executor::new(
        &program,
        crate::run::file_config(crate::run::DEFAULT_MAX_STATE_BYTES),
    )?;
    let lines = bench_program::read_lines(&written.input)?;
    let (mut state, mut bytes, mut threads) = (String::new(), 0, 0);
    for line in std::iter::once(None).chain(lines.iter().map(Some)) {
        if let Some(line) = line {
            state.push_str(line);
            state.push('\n');
        }
        let stats = exec.run(&mut state)?;
        bytes = bytes.max(stats.peak_state_bytes);
        threads = threads.max(stats.peak_threads);
    }
    Ok((bytes, threads))
}

fn row(entry: &Entry, dir: &Path, node: bool, runs: usize) -> Result<Row> {
    let written = super::write(entry, dir)?;
    let (peak_bytes, peak_threads) = peaks(&written)?;
    let whole = whole(entry, &written, node, runs)?;
    let measured = passes(&written, runs)?;
    let by_name = |name: &str| measured.engines.iter().find(|e| e.name == name);
    let ours: &Timed = by_name("ours").context("our engine's figures")?;
    let python = by_name("CPython").context("CPython's figures")?;
    let (ours_pass, python_pass) = (ours.per_pass(), python.per_pass());
    let ratio = |p: usize| python_pass[p] / ours_pass[p].max(1e-9);
    let all: Vec<usize> = (0..ours_pass.len()).collect();
    let worst = all
        .iter()
        .copied()
        .min_by(|&a, &b| ratio(a).total_cmp(&ratio(b)))
        .unwrap_or(0);
    let heaviest = all
        .iter()
        .copied()
        .max_by(|&a, &b| python_pass[a].total_cmp(&python_pass[b]))
        .unwrap_or(0);
    let node_note = match (&written.module, node) {
        (Err(why), _) => format!("no JavaScript form: {why}"),
        (Ok(_), false) => "node is not installed".to_string(),
        (Ok(_), true) => String::new(),
    };
    Ok(Row {
        name: entry.name,
        rewrites: entry.pairs.len(),
        passes: ours_pass.len(),
        peak_bytes,
        peak_threads,
        whole,
        passes_ms: [
            Some(ours.total()),
            Some(python.total()),
            by_name("Node").map(Timed::total),
        ],
        worst: (worst + 1, ratio(worst)),
        heaviest: (heaviest + 1, ratio(heaviest)),
        node_note,
    })
}

/// `their / ours` as `12.3x`, or `-`.
fn ratio(theirs: Option<f64>, ours: Option<f64>) -> String {
    match (theirs, ours) {
        (Some(t), Some(o)) if o > 0.0 => format!("{:.2}x", t / o),
        _ => "-".to_string(),
    }
}

fn ms(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.1}"))
}

fn print_table(rows: &[Row], runs: usize) -> Result<()> {
    let mut out = crate::textio::stdout();
    writeln!(
        out,
        "whole process (median of {runs}, loading included; ratio: their time / ours)"
    )?;
    writeln!(
        out,
        "{:<10} {:>8} {:>6} {:>8} {:>7} {:>9} {:>11} {:>9} {:>9} {:>9}",
        "program",
        "rewrites",
        "passes",
        "peak KB",
        "threads",
        "ours ms",
        "CPython ms",
        "Node ms",
        "CPython",
        "Node"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<10} {:>8} {:>6} {:>8.0} {:>7} {:>9} {:>11} {:>9} {:>9} {:>9}",
            r.name,
            r.rewrites,
            r.passes,
            r.peak_bytes as f64 / 1000.0,
            r.peak_threads,
            ms(r.whole[0]),
            ms(r.whole[1]),
            ms(r.whole[2]),
            ratio(r.whole[1], r.whole[0]),
            ratio(r.whole[2], r.whole[0]),
        )?;
    }
    writeln!(
        out,
        "passes (sum of each pass's median of {runs}); worst: the pass with the lowest CPython ratio; heaviest: CPython's longest pass"
    )?;
    writeln!(
        out,
        "{:<10} {:>9} {:>11} {:>9} {:>9} {:>9} {:>15} {:>15}",
        "program",
        "ours ms",
        "CPython ms",
        "Node ms",
        "CPython",
        "Node",
        "worst pass",
        "heaviest pass"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<10} {:>9} {:>11} {:>9} {:>9} {:>9} {:>15} {:>15}",
            r.name,
            ms(r.passes_ms[0]),
            ms(r.passes_ms[1]),
            ms(r.passes_ms[2]),
            ratio(r.passes_ms[1], r.passes_ms[0]),
            ratio(r.passes_ms[2], r.passes_ms[0]),
            format!("{}: {:.2}x", r.worst.0, r.worst.1),
            format!("{}: {:.2}x", r.heaviest.0, r.heaviest.1),
        )?;
    }
    for r in rows.iter().filter(|r| !r.node_note.is_empty()) {
        writeln!(out, "{}: Node not run: {}", r.name, r.node_note)?;
    }
    Ok(())
}

fn print_json(rows: &[Row], runs: usize) -> Result<()> {
    let list: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "program": r.name,
                "rewrites": r.rewrites,
                "passes": r.passes,
                "peak_state_bytes": r.peak_bytes,
                "peak_threads": r.peak_threads,
                "whole_ms": {"ours": r.whole[0], "cpython": r.whole[1], "node": r.whole[2]},
                "passes_ms": {"ours": r.passes_ms[0], "cpython": r.passes_ms[1], "node": r.passes_ms[2]},
                "worst_pass": {"pass": r.worst.0, "cpython_ratio": r.worst.1},
                "heaviest_pass": {"pass": r.heaviest.0, "cpython_ratio": r.heaviest.1},
                "node_note": r.node_note,
            })
        })
        .collect();
    let value = serde_json::json!({ "runs": runs, "programs": list });
    crate::textio::println(format_args!("{value:#}"))
}

/// Runs `corpus bench`.
///
/// # Errors
///
/// A program that does not build or write, an engine that fails or is
/// missing (python3), or engines that print other bytes.
pub(crate) fn run(args: &BenchArgs) -> Result<()> {
    let runs = args.runs.max(1);
    let temp;
    let dir = match &args.dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
            d.as_path()
        }
        None => {
            temp = tempfile::tempdir().context("temporary directory")?;
            temp.path()
        }
    };
    let node = bench_program::node_installed();
    let mut rows = Vec::new();
    for entry in super::select(&args.only)? {
        eprintln!("measuring {} ({} rewrites)", entry.name, entry.pairs.len());
        rows.push(
            row(&entry, dir, node, runs).with_context(|| format!("measuring {}", entry.name))?,
        );
    }
    if args.json {
        print_json(&rows, runs)
    } else {
        print_table(&rows, runs)
    }
}
