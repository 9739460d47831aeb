//! `regex-chess bench`: the benchmark anyone can rerun.
//!
//! For each turn of a suite (a position and the move the person plays; the
//! default suite is `tests/data/bench.epd`), runs the whole turn program
//! (validate the move, reply, render) `--runs` times from the same screen
//! and reports the median, min and max time, the rewrites applied and
//! skipped, the peak state size and thread count; then the median over all
//! turns. `--python` runs the same dumped program with CPython's `re` (a
//! plain loop over pre-compiled patterns) on the same screens, checks that
//! it ends in the same bytes, and prints the time ratio. With `--program
//! FILE` `main` hands the arguments to [`crate::bench_program`] (any
//! program on three engines) or, with `--profile`, to
//! [`crate::profile_program`]; both reuse this module's script driver
//! ([`script_job`]); with `--cost-model`, the suite to
//! [`crate::bench_cost`]. This module measures; it computes no chess.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chess::codec::parse_fen;
use chess::screen::{parse_screen, start_screen};
use regex_vm::{format, Stats};
use shakmaty::Position;

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    /// Turn suite: lines `FEN ;move m ;id name` (default: the built-in
    /// copy of `tests/data/bench.epd`).
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Runs per turn.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also run the dumped program under CPython's `re`, side by side.
    #[arg(long)]
    pub python: bool,
    /// Use the executor's plain loop (no fast path), to measure what the
    /// fast paths give.
    #[arg(long)]
    pub naive: bool,
    /// Keep the fast paths but use one core, to measure what the second
    /// core gives.
    #[arg(long)]
    pub sequential: bool,
    /// Keep the fast paths but leave every pattern to the `regex` crate
    /// (no backtracking matcher of our own), to measure what ours gives.
    #[arg(long, alias = "no-backtrack")]
    pub no_own_matcher: bool,
    /// Keep the fast paths but run every stretch of thread-local
    /// rewrites on the whole state (no table of threads), to measure
    /// what the table gives.
    #[arg(long)]
    pub no_thread_table: bool,
    /// Instead of the table, list the N rewrites that took longest over
    /// the whole suite (fastest of the runs, summed over turns), and the
    /// time per instruction name; with `--python`, CPython's time for the
    /// same rewrites beside ours. Each rewrite is timed on its own. With
    /// `--program`: that program's N costliest rewrites and patterns, and
    /// its time by state size, pattern shape and construct, ours beside
    /// CPython's.
    #[arg(long, value_name = "N")]
    pub profile: Option<usize>,
    /// Search depth (plies; 4 is two full-width plies and two capture plies,
    /// 5 three and two).
    #[arg(long, default_value_t = chess::Depth::DEFAULT)]
    pub depth: chess::Depth,
    /// The turn program with the opening book's stage before its search
    /// (`chess::book`): the suite's book positions are answered without
    /// a search.
    #[arg(long)]
    pub book: bool,
    /// Split states of at least this many bytes into two halves run on two
    /// cores (the executor's default when not given), to measure where the
    /// second core pays.
    #[arg(long, value_name = "BYTES")]
    pub split_bytes: Option<usize>,
    /// Instead of the turn suite, time this program (JSON in the original
    /// project's shape, as `run` reads it) on our executor, CPython's `re`
    /// and Node (when installed), side by side, checking that they end in
    /// the same bytes.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["positions", "python"]
    )]
    pub program: Option<PathBuf>,
    /// With `--program`: the input, one line per pass after the first (as
    /// `run` reads standard input).
    #[arg(long, value_name = "FILE", requires = "program")]
    pub input: Option<PathBuf>,
    /// Instead of the table, compare the native cost model
    /// (`chess::reference::cost`) with the regex program on each turn's
    /// position after its move: the regex reply search's work (scanned
    /// bytes: the state's length summed over the rewrites run) and time
    /// (fastest of `--runs`), the model's work, their ratio and the time
    /// per scanned byte, the figures the model is calibrated on.
    #[arg(long, conflicts_with_all = ["python", "profile", "json"])]
    pub cost_model: bool,
    /// Late-move pruning keeping the K best-looking candidates in the
    /// turn program's search (`chess::Variant::late`; acts at depths 4 to
    /// 6), and with `--cost-model` in the regex search and the model's
    /// (`lmp:K`); 0, the default, is off: the bench's work stays the
    /// exact program's, comparable across builds whatever `play` plays.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = crate::late_moves_arg)]
    pub late_moves: u32,
    /// Instead of the turn suite, time our Python engine against CPython's
    /// `re` on N generated patterns of each shape it exists for
    /// (back-reference, look-around, alternation, possessive, lazy), each
    /// on the same subject in one sitting, and print the ratios per case
    /// and shape with their median and worst.
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["positions", "python", "profile", "program", "cost_model"]
    )]
    pub engine: Option<usize>,
    /// With `--engine`: the generator's seed.
    #[arg(long, default_value_t = 1, requires = "engine")]
    pub seed: u64,
    /// With `--engine`: also write each case into DIR as a program file
    /// (`caseN.json`: a boot pass writing the subject, then the rewrite).
    #[arg(long, value_name = "DIR", requires = "engine")]
    pub write: Option<PathBuf>,
}

const DEFAULT_SUITE: &str = include_str!("../../../tests/data/bench.epd");

/// One benchmark turn.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    /// Its name.
    pub id: String,
    /// The position.
    pub fen: String,
    /// The person's move.
    pub mv: String,
}

/// Parses a suite.
///
/// # Errors
///
/// A line without a FEN, a move or an id.
pub(crate) fn parse_suite(text: &str) -> Result<Vec<Turn>> {
    let mut turns = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default().to_string();
        let (mut mv, mut id) = (None, None);
        for f in fields {
            if let Some(m) = f.strip_prefix("move ") {
                mv = Some(m.trim().to_string());
            } else if let Some(i) = f.strip_prefix("id ") {
                id = Some(i.trim().to_string());
            }
        }
        match (mv, id) {
            (Some(mv), Some(id)) if !fen.is_empty() => turns.push(Turn { id, fen, mv }),
            _ => bail!("line {}: expected `FEN ;move m ;id name`", n + 1),
        }
    }
    if turns.is_empty() {
        bail!("the suite has no turn");
    }
    Ok(turns)
}

/// The screen a turn starts from: the person to move, the engine on the
/// other side, the move appended.
pub(crate) fn turn_state(t: &Turn) -> Result<String> {
    let pos = parse_fen(&t.fen).with_context(|| format!("turn {}", t.id))?;
    let screen = start_screen(&t.fen, Some(!pos.turn()))?;
    if parse_screen(&screen).is_none() {
        bail!("turn {}: its start is not a proper screen", t.id);
    }
    let legal = chess::legal_moves(&t.fen).with_context(|| format!("turn {}", t.id))?;
    if !legal.iter().any(|(uci, _)| *uci == t.mv) {
        bail!(
            "turn {}: {} is not a legal move of its position, so the turn would time a refusal",
            t.id,
            crate::textio::quote(&t.mv)
        );
    }
    Ok(format!("{screen}{}\n", t.mv))
}

struct Measured {
    id: String,
    times: Vec<f64>,
    stats: Stats,
    state: String,
    python: Option<Vec<f64>>,
}

/// The middle value; for an even count, the mean of the two middle ones.
pub(crate) fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        })
}

const PYTHON_BENCH: &str = r#"
import json, re, sys, time
job = json.load(sys.stdin)
rewrites = [(re.compile(p), r) for p, r in json.load(open(job["program"]))]
out = []
for t in job["turns"]:
    times = []
    for _ in range(job["runs"]):
        state = t["state"]
        t0 = time.perf_counter()
        for pattern, replacement in rewrites:
            state = pattern.sub(replacement, state)
        times.append((time.perf_counter() - t0) * 1000.0)
    out.append({"id": t["id"], "times": times, "state": state})
json.dump(out, sys.stdout)
"#;

/// Runs a CPython script on the dumped turn program and the turns'
/// screens (a JSON job on its standard input) and returns its JSON answer.
fn python_job(
    program: &regex_vm::Program,
    script: &str,
    turns: &[Turn],
    states: &[String],
    runs: usize,
) -> Result<serde_json::Value> {
    let dir = tempfile::tempdir().context("temporary directory")?;
    let json = dir.path().join("turn.json");
    format::write_file(program, &json).context("dumping the program")?;
    let job = serde_json::json!({
        "program": json,
        "runs": runs,
        "turns": turns.iter().zip(states).map(|(t, s)| serde_json::json!({"id": t.id, "state": s})).collect::<Vec<_>>(),
    });
    script_job("python3", &["-I", "-c", script], &job)
}

/// Runs `command args` (a script interpreter: `python3`, `node`) with
/// `job` as JSON on its standard input and returns the JSON it prints; its
/// standard error passes through.
///
/// # Errors
///
/// The command cannot start, fails, or prints no JSON.
pub(crate) fn script_job(
    command: &str,
    args: &[&str],
    job: &serde_json::Value,
) -> Result<serde_json::Value> {
    let mut child = Command::new(command)
        .args(args)
        // Scripts read no file relative to the working directory; `-I`
        // and this keep the repository's `chess/` off Python's path.
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {command}"))?;
    let written = child
        .stdin
        .take()
        .with_context(|| format!("{command}'s input"))?
        .write_all(job.to_string().as_bytes());
    let out = child
        .wait_with_output()
        .with_context(|| format!("running {command}"))?;
    if !out.status.success() {
        bail!("{command} failed ({})", out.status);
    }
    written.with_context(|| format!("writing to {command}"))?;
    serde_json::from_slice(&out.stdout).with_context(|| format!("reading {command}'s answer"))
}

fn run_python(
    program: &regex_vm::Program,
    turns: &[Turn],
    states: &[String],
    runs: usize,
) -> Result<Vec<(Vec<f64>, String)>> {
    let value = python_job(program, PYTHON_BENCH, turns, states, runs)?;
    let list = value.as_array().context("python3's answer is not a list")?;
    list.iter()
        .map(|item| {
            let times = item["times"]
                .as_array()
                .context("times")?
                .iter()
                .filter_map(serde_json::Value::as_f64)
                .collect();
            let state = item["state"].as_str().context("state")?.to_string();
            Ok((times, state))
        })
        .collect()
}

/// Our executor's settings for `--program` (`run`'s, with `--naive`,
/// `--sequential`, `--no-own-matcher` and `--no-thread-table` applied).
pub(crate) fn program_config(args: &BenchArgs) -> regex_vm::Config {
    regex_vm::Config {
        naive: args.naive,
        parallel: !args.sequential,
        own_matcher: !args.no_own_matcher,
        thread_table: !args.no_thread_table,
        ..crate::run::file_config(crate::run::DEFAULT_MAX_STATE_BYTES)
    }
}

/// The turn suite `--positions` names, or the built-in one.
///
/// # Errors
///
/// An unreadable file, or a line without a FEN, a move or an id.
pub(crate) fn suite(args: &BenchArgs) -> Result<Vec<Turn>> {
    let text = match &args.positions {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None => DEFAULT_SUITE.to_string(),
    };
    parse_suite(&text)
}

/// Runs the benchmark of the turn suite (`--program` and `--cost-model`
/// are `main`'s to hand to [`crate::bench_program`],
/// [`crate::profile_program`] or [`crate::bench_cost`]).
///
/// # Errors
///
/// An unreadable suite, a program that does not build, a failing run, or a
/// CPython run that ends in different bytes.
pub(crate) fn run(args: BenchArgs) -> Result<()> {
    let turns = suite(&args)?;
    let runs = args.runs.max(1);
    let t0 = Instant::now();
    let variant = chess::Variant {
        book: crate::use_book(args.book),
        late: crate::late_moves(args.late_moves),
    };
    let pass = chess::turn_pass_with(args.depth, variant).context("building the turn program")?;
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let other;
    if let Some(top) = args.profile {
        return profile(
            &pass.program,
            &turns,
            runs,
            top,
            args.python,
            regex_vm::Config {
                profile: true,
                parallel: !args.sequential,
                own_matcher: !args.no_own_matcher,
                thread_table: !args.no_thread_table,
                ..chess::config_for(args.depth)
            },
        );
    }
    let executor = if args.naive
        || args.sequential
        || args.no_own_matcher
        || args.no_thread_table
        || args.split_bytes.is_some()
    {
        let config = chess::config_for(args.depth);
        other = regex_vm::Executor::new(
            &pass.program,
            regex_vm::Config {
                naive: args.naive,
                parallel: !args.sequential,
                own_matcher: !args.no_own_matcher,
                thread_table: !args.no_thread_table,
                split_bytes: args.split_bytes.unwrap_or(config.split_bytes),
                ..config
            },
        )?;
        &other
    } else {
        &pass.executor
    };
    let states: Vec<String> = turns.iter().map(turn_state).collect::<Result<_>>()?;
    let mut results = Vec::new();
    // Drawn on a terminal only; a pipe gets the table alone.
    let bar = indicatif::ProgressBar::with_draw_target(
        Some((turns.len() * runs) as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed}")
    {
        bar.set_style(style);
    }
    for (t, start) in turns.iter().zip(&states) {
        let mut times = Vec::with_capacity(runs);
        let mut last = None;
        for _ in 0..runs {
            let mut s = start.clone();
            let t1 = Instant::now();
            let stats = executor
                .run(&mut s)
                .with_context(|| format!("turn {}", t.id))?;
            times.push(t1.elapsed().as_secs_f64() * 1e3);
            bar.inc(1);
            last = Some((stats, s));
        }
        let (stats, state) = last.context("at least one run")?;
        if parse_screen(&state).is_none() {
            bail!(
                "turn {}: the turn program did not end in a proper screen:\n{state}",
                t.id
            );
        }
        if !state.contains("You played ") {
            bail!(
                "turn {}: the move {} was not accepted:\n{state}",
                t.id,
                t.mv
            );
        }
        results.push(Measured {
            id: t.id.clone(),
            times,
            stats,
            state,
            python: None,
        });
    }
    bar.finish_and_clear();
    if args.python {
        let py = run_python(&pass.program, &turns, &states, runs)?;
        for (r, (times, state)) in results.iter_mut().zip(py) {
            if state != r.state {
                bail!("turn {}: CPython ended in other bytes than the VM", r.id);
            }
            r.python = Some(times);
        }
    }
    if args.json {
        print_json(&results, build_ms, &pass.program)
    } else {
        print_table(&results, build_ms, &pass.program)
    }
}

const PYTHON_PROFILE: &str = r#"
import json, re, sys, time
job = json.load(sys.stdin)
rewrites = [(re.compile(p), r) for p, r in json.load(open(job["program"]))]
total = [0.0] * len(rewrites)
for t in job["turns"]:
    best = None
    for _ in range(job["runs"]):
        state = t["state"]
        times = []
        for pattern, replacement in rewrites:
            t0 = time.perf_counter()
            state = pattern.sub(replacement, state)
            times.append((time.perf_counter() - t0) * 1000.0)
        best = times if best is None else [min(a, b) for a, b in zip(best, times)]
    total = [a + b for a, b in zip(total, best)]
json.dump(total, sys.stdout)
"#;

/// Per-rewrite times of CPython's loop: the fastest run of each turn,
/// summed over the turns, in ms.
fn python_profile(
    program: &regex_vm::Program,
    turns: &[Turn],
    states: &[String],
    runs: usize,
) -> Result<Vec<f64>> {
    let value = python_job(program, PYTHON_PROFILE, turns, states, runs)?;
    serde_json::from_value(value).context("reading python3's answer")
}

/// `bench --profile N`.
fn profile(
    program: &regex_vm::Program,
    turns: &[Turn],
    runs: usize,
    top: usize,
    python: bool,
    config: regex_vm::Config,
) -> Result<()> {
    let executor = regex_vm::Executor::new(program, config)?;
    let states: Vec<String> = turns.iter().map(turn_state).collect::<Result<_>>()?;
    let mut ours = vec![0.0; program.len()];
    for (t, start) in turns.iter().zip(&states) {
        let mut best: Option<Vec<f64>> = None;
        for _ in 0..runs {
            let mut s = start.clone();
            let stats = executor
                .run(&mut s)
                .with_context(|| format!("turn {}", t.id))?;
            let times: Vec<f64> = stats
                .per_rewrite
                .iter()
                .map(|d| d.as_secs_f64() * 1e3)
                .collect();
            best = Some(match best {
                None => times,
                Some(b) => b.iter().zip(&times).map(|(a, b)| a.min(*b)).collect(),
            });
        }
        for (o, b) in ours.iter_mut().zip(best.unwrap_or_default()) {
            *o += b;
        }
    }
    let theirs = if python {
        Some(python_profile(program, turns, &states, runs)?)
    } else {
        None
    };
    let kind_of = |i: usize| {
        program.rewrites()[i]
            .origin
            .as_ref()
            .map_or_else(|| "?".to_string(), |o| o.name.clone())
    };
    let total: f64 = ours.iter().sum();
    let mut out = crate::textio::stdout();
    write!(
        out,
        "{} turns, fastest of {runs} runs each: ours {total:.1} ms",
        turns.len()
    )?;
    if let Some(p) = &theirs {
        let pt: f64 = p.iter().sum();
        write!(out, ", CPython {pt:.1} ms, ratio {:.1}x", pt / total)?;
    }
    writeln!(out)?;
    let mut kinds: BTreeMap<String, (f64, f64, usize)> = BTreeMap::new();
    for i in 0..ours.len() {
        let e = kinds.entry(kind_of(i)).or_default();
        e.0 += ours[i];
        e.1 += theirs.as_ref().map_or(0.0, |p| p[i]);
        e.2 += 1;
    }
    let mut kinds: Vec<_> = kinds.into_iter().collect();
    kinds.sort_by(|a, b| (b.1 .0 + b.1 .1).total_cmp(&(a.1 .0 + a.1 .1)));
    writeln!(
        out,
        "{:<18} {:>9} {:>10} {:>9}",
        "instruction", "ours ms", "CPython ms", "rewrites"
    )?;
    for (name, (o, p, n)) in kinds.iter().take(top) {
        writeln!(out, "{name:<18} {o:>9.2} {p:>10.2} {n:>9}")?;
    }
    let mut order: Vec<usize> = (0..ours.len()).collect();
    order.sort_by(|&a, &b| ours[b].total_cmp(&ours[a]));
    writeln!(
        out,
        "{:>6} {:<16} {:>9} {:>10}  pattern",
        "index", "instruction", "ours ms", "CPython ms"
    )?;
    for &i in order.iter().take(top) {
        let pattern: String = program.rewrites()[i].pattern.chars().take(90).collect();
        writeln!(
            out,
            "{i:>6} {:<16} {:>9.3} {:>10}  {pattern}",
            kind_of(i),
            ours[i],
            theirs
                .as_ref()
                .map_or("-".to_string(), |p| format!("{:.3}", p[i]))
        )?;
    }
    Ok(())
}

fn print_table(results: &[Measured], build_ms: f64, program: &regex_vm::Program) -> Result<()> {
    let mut out = crate::textio::stdout();
    writeln!(
        out,
        "turn program: {} rewrites, {} distinct patterns; built and compiled in {build_ms:.0} ms",
        program.len(),
        program.distinct_patterns()
    )?;
    let python = results.iter().all(|r| r.python.is_some());
    write!(
        out,
        "{:<16} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "turn", "median ms", "min ms", "max ms", "applied", "skipped", "peak KB", "threads"
    )?;
    if python {
        write!(out, " {:>10} {:>7}", "python ms", "ratio")?;
    }
    writeln!(out)?;
    for r in results {
        let (lo, hi) = min_max(&r.times);
        write!(
            out,
            "{:<16} {:>9.1} {:>9.1} {:>9.1} {:>9} {:>9} {:>9.0} {:>8}",
            r.id,
            median(&r.times),
            lo,
            hi,
            r.stats.executed,
            r.stats.skipped,
            r.stats.peak_state_bytes as f64 / 1024.0,
            r.stats.peak_threads
        )?;
        if let Some(p) = &r.python {
            write!(
                out,
                " {:>10.1} {:>6.1}x",
                median(p),
                median(p) / median(&r.times)
            )?;
        }
        writeln!(out)?;
    }
    let medians: Vec<f64> = results.iter().map(|r| median(&r.times)).collect();
    write!(out, "median over turns: {:.1} ms", median(&medians))?;
    if python {
        let py: Vec<f64> = results
            .iter()
            .filter_map(|r| r.python.as_deref().map(median))
            .collect();
        let ratios: Vec<f64> = results
            .iter()
            .filter_map(|r| r.python.as_deref().map(|p| median(p) / median(&r.times)))
            .collect();
        write!(
            out,
            "; CPython {:.1} ms; ratio (median of per-turn ratios) {:.1}x",
            median(&py),
            median(&ratios)
        )?;
    }
    writeln!(out)?;
    Ok(())
}

fn print_json(results: &[Measured], build_ms: f64, program: &regex_vm::Program) -> Result<()> {
    let turns: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let (lo, hi) = min_max(&r.times);
            serde_json::json!({
                "id": r.id,
                "median_ms": median(&r.times),
                "min_ms": lo,
                "max_ms": hi,
                "rewrites_applied": r.stats.executed,
                "rewrites_skipped": r.stats.skipped,
                "peak_state_bytes": r.stats.peak_state_bytes,
                "peak_threads": r.stats.peak_threads,
                "python_median_ms": r.python.as_deref().map(median),
            })
        })
        .collect();
    let medians: Vec<f64> = results.iter().map(|r| median(&r.times)).collect();
    let report = serde_json::json!({
        "rewrites": program.len(),
        "distinct_patterns": program.distinct_patterns(),
        "build_ms": build_ms,
        "median_ms": median(&medians),
        "turns": turns,
    });
    writeln!(crate::textio::stdout(), "{report:#}")
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }
}
