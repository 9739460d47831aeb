//! `regex-chess bench --program FILE --input FILE`: any program file timed
//! on our executor, CPython's `re` and Node side by side.
//!
//! Each engine runs the passes `regex-chess run` runs (one from the empty
//! state, then one per input line appended with `\n`) `--runs` times;
//! only the passes are timed (loading, compiling and appending are not).
//! Our executor runs the program as `run` loads it
//! ([`crate::run::load_exact`]); CPython runs the file itself with a plain
//! loop over pre-compiled patterns (the loop of `bench --python`, through
//! [`crate::bench::script_job`]); Node imports the program as `dump
//! --format js` writes it ([`regex_vm::format::to_js`]). The three must
//! end every pass with states of the same size and the last pass with the
//! same bytes, or the benchmark fails. It reports per engine the total
//! time (the sum over passes of each pass's median over runs), the median
//! pass, and the ratios to ours. Node is skipped, and said so, when it is
//! not installed or the program has a pattern with no JavaScript form with
//! CPython's meaning (`regex_vm::format::to_js` says which and why). This
//! module measures; it knows nothing of chess.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use regex_vm::Executor;

use crate::bench::{median, script_job};
use crate::run::{load_exact, DEFAULT_MAX_STATE_BYTES};

/// What `bench --program` is asked to do.
pub(crate) struct Job<'a> {
    /// The program file (the original project's JSON shape).
    pub program: &'a Path,
    /// The input lines' file, if any.
    pub input: Option<&'a Path>,
    /// Runs of the whole pass sequence per engine.
    pub runs: usize,
    /// JSON instead of a table.
    pub json: bool,
    /// Our executor's settings (`run`'s, or with `--naive`,
    /// `--sequential`, `--no-own-matcher`, `--no-thread-table`).
    pub config: regex_vm::Config,
}

/// One engine's measurements.
pub(crate) struct Timed {
    /// The engine's name in the report.
    pub name: &'static str,
    /// `times[run][pass]`, in ms.
    times: Vec<Vec<f64>>,
    /// The state's size in UTF-8 bytes after each pass.
    sizes: Vec<usize>,
    /// The state after the last pass.
    state: String,
}

impl Timed {
    /// Each pass's median over the runs, in ms.
    pub(crate) fn per_pass(&self) -> Vec<f64> {
        let passes = self.times.first().map_or(0, Vec::len);
        (0..passes)
            .map(|p| {
                let at: Vec<f64> = self
                    .times
                    .iter()
                    .filter_map(|r| r.get(p).copied())
                    .collect();
                median(&at)
            })
            .collect()
    }

    /// The sum of the per-pass medians, in ms.
    pub(crate) fn total(&self) -> f64 {
        self.per_pass().iter().sum()
    }

    /// The median of the per-pass medians, in ms.
    fn median_pass(&self) -> f64 {
        median(&self.per_pass())
    }
}

/// CPython's loop: the `bench --python` loop over every pass of a session.
const PYTHON_PASSES: &str = r#"
import json, re, sys, time
job = json.load(sys.stdin)
rewrites = [(re.compile(p), r) for p, r in json.load(open(job["program"], encoding="utf-8"))]
runs = []
for _ in range(job["runs"]):
    state = ""
    times = []
    sizes = []
    for line in [None] + job["lines"]:
        if line is not None:
            state += line + "\n"
        t0 = time.perf_counter()
        for pattern, replacement in rewrites:
            state = pattern.sub(replacement, state)
        times.append((time.perf_counter() - t0) * 1000.0)
        sizes.append(len(state.encode("utf-8")))
    runs.append(times)
json.dump({"times": runs, "sizes": sizes, "state": state}, sys.stdout)
"#;

/// Node's loop over the module `dump --format js` writes.
const NODE_PASSES: &str = r#"
const fs = require("fs");
const { pathToFileURL } = require("url");
const job = JSON.parse(fs.readFileSync(0, "utf8"));
(async () => {
  const { rewrites } = await import(pathToFileURL(job.module).href);
  const runs = [];
  let state = "";
  let sizes = [];
  for (let run = 0; run < job.runs; run++) {
    state = "";
    sizes = [];
    const times = [];
    for (const line of [null, ...job.lines]) {
      if (line !== null) state += line + "\n";
      const t0 = process.hrtime.bigint();
      for (const [re, r] of rewrites) state = state.replace(re, r);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      sizes.push(Buffer.byteLength(state, "utf8"));
    }
    runs.push(times);
  }
  process.stdout.write(JSON.stringify({ times: runs, sizes, state }));
})().catch((e) => { console.error(e); process.exit(1); });
"#;

/// Reads the input lines: split at `\n` (a last line needs none), each
/// UTF-8, the file no larger than `run`'s state cap.
pub(crate) fn read_lines(path: &Path) -> Result<Vec<String>> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    if size > DEFAULT_MAX_STATE_BYTES as u64 {
        bail!(
            "{}: {size} bytes is more than the state cap of {DEFAULT_MAX_STATE_BYTES}",
            path.display()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{}: not UTF-8 ({e})", path.display()))?;
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Ok(lines)
}

/// Our executor on the passes.
fn ours(program: &regex_vm::Program, job: &Job<'_>, lines: &[String]) -> Result<Timed> {
    let exec = Executor::new(program, job.config.clone())
        .with_context(|| format!("compiling {}", job.program.display()))?;
    let mut times = Vec::with_capacity(job.runs);
    let mut sizes = Vec::new();
    let mut state = String::new();
    for _ in 0..job.runs {
        state.clear();
        sizes.clear();
        let mut run = Vec::with_capacity(lines.len() + 1);
        for (pass, line) in std::iter::once(None)
            .chain(lines.iter().map(Some))
            .enumerate()
        {
            if let Some(line) = line {
                state.push_str(line);
                state.push('\n');
            }
            let t0 = Instant::now();
            exec.run(&mut state)
                .with_context(|| format!("pass {}", pass + 1))?;
            run.push(t0.elapsed().as_secs_f64() * 1e3);
            sizes.push(state.len());
        }
        times.push(run);
    }
    Ok(Timed {
        name: "ours",
        times,
        sizes,
        state,
    })
}

/// A script engine's answer (`{times, sizes, state}`).
fn answer(name: &'static str, value: serde_json::Value) -> Result<Timed> {
    let bad = || anyhow::anyhow!("{name}'s answer is not {{times, sizes, state}}");
    let times = value["times"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|run| {
            run.as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|t| t.as_f64().ok_or_else(bad))
                .collect()
        })
        .collect::<Result<_>>()?;
    let sizes = value["sizes"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|s| s.as_u64().map(|n| n as usize).ok_or_else(bad))
        .collect::<Result<_>>()?;
    let state = value["state"].as_str().ok_or_else(bad)?.to_string();
    Ok(Timed {
        name,
        times,
        sizes,
        state,
    })
}

/// Whether `node` can be started.
pub(crate) fn node_installed() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Fails unless `theirs` ends every pass at our sizes and the last pass in
/// our bytes.
fn same_bytes(ours: &Timed, theirs: &Timed) -> Result<()> {
    if let Some(pass) = (0..ours.sizes.len().max(theirs.sizes.len()))
        .find(|&p| ours.sizes.get(p) != theirs.sizes.get(p))
    {
        bail!(
            "{} and ours differ after pass {}: {:?} bytes against our {:?}",
            theirs.name,
            pass + 1,
            theirs.sizes.get(pass),
            ours.sizes.get(pass)
        );
    }
    if theirs.state != ours.state {
        let at = ours
            .state
            .bytes()
            .zip(theirs.state.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(ours.state.len().min(theirs.state.len()));
        bail!(
            "{} ends in other bytes than ours (first difference at byte {at})",
            theirs.name
        );
    }
    Ok(())
}

/// The engines' measurements of one program: ours first, then CPython,
/// then Node when it ran.
pub(crate) struct Measured {
    /// The program as `run` loads it.
    pub program: regex_vm::Program,
    /// Ours, CPython, and Node when it ran.
    pub engines: Vec<Timed>,
    /// Why Node did not run, when it did not.
    pub node_note: String,
}

/// Runs `bench --program`.
///
/// # Errors
///
/// As [`measure`].
pub(crate) fn run(job: &Job<'_>) -> Result<()> {
    let measured = measure(job)?;
    let engines: Vec<&Timed> = measured.engines.iter().collect();
    if job.json {
        print_json(job, &measured.program, &engines)
    } else {
        print_table(job, &measured.program, &engines, &measured.node_note)
    }
}

/// Times the program's passes on the three engines.
///
/// # Errors
///
/// An unreadable or refused program or input, a failing pass, CPython
/// missing or failing, or an engine that ends in other bytes.
pub(crate) fn measure(job: &Job<'_>) -> Result<Measured> {
    // The scripts run in another directory: give them the absolute path.
    let path: PathBuf = std::path::absolute(job.program)
        .with_context(|| format!("reading {}", job.program.display()))?;
    let program = load_exact(&path)?;
    let lines = match job.input {
        Some(p) => read_lines(p)?,
        None => Vec::new(),
    };
    let ours = ours(&program, job, &lines)?;
    let script = serde_json::json!({
        "program": path,
        "runs": job.runs,
        "lines": lines,
    });
    let python = answer(
        "CPython",
        script_job("python3", &["-I", "-c", PYTHON_PASSES], &script)?,
    )?;
    same_bytes(&ours, &python)?;
    // Node runs the JavaScript dump, whose patterns outside the portable
    // subset are translated: a program with one that has no JavaScript
    // form with its meaning is not run there.
    let module = regex_vm::format::to_js(&program);
    let node = match (&module, node_installed()) {
        (Ok(module), true) => {
            let dir = tempfile::tempdir().context("temporary directory")?;
            let path = dir.path().join("program.mjs");
            std::fs::write(&path, module).with_context(|| format!("writing {}", path.display()))?;
            let mut script = script;
            script["module"] = serde_json::json!(path);
            let node = answer("Node", script_job("node", &["-e", NODE_PASSES], &script)?)?;
            same_bytes(&ours, &node)?;
            Some(node)
        }
        _ => None,
    };
    let node_note = match module {
        Err(e) => format!("not run ({})", crate::textio::chain(&e)),
        Ok(_) => "not run (no `node` on PATH)".to_string(),
    };
    let engines = [Some(ours), Some(python), node]
        .into_iter()
        .flatten()
        .collect();
    Ok(Measured {
        program,
        engines,
        node_note,
    })
}

fn print_table(
    job: &Job<'_>,
    program: &regex_vm::Program,
    engines: &[&Timed],
    node_note: &str,
) -> Result<()> {
    let mut out = crate::textio::stdout();
    let ours = engines[0];
    writeln!(
        out,
        "program {}: {} rewrites, {} distinct patterns; {} passes, {} runs each",
        job.program.display(),
        program.len(),
        program.distinct_patterns(),
        ours.sizes.len(),
        job.runs
    )?;
    writeln!(
        out,
        "{:<8} {:>11} {:>14} {:>12} {:>12}",
        "engine", "total ms", "median pass ms", "total ratio", "pass ratio"
    )?;
    for e in engines {
        writeln!(
            out,
            "{:<8} {:>11.1} {:>14.3} {:>11.1}x {:>11.1}x",
            e.name,
            e.total(),
            e.median_pass(),
            e.total() / ours.total(),
            e.median_pass() / ours.median_pass()
        )?;
    }
    if engines.len() < 3 {
        writeln!(out, "Node: {node_note}")?;
    }
    writeln!(
        out,
        "final state: {} bytes, the same in {} engines (ratios: their time / ours)",
        ours.state.len(),
        engines.len()
    )
}

fn print_json(job: &Job<'_>, program: &regex_vm::Program, engines: &[&Timed]) -> Result<()> {
    let ours = engines[0];
    let list: Vec<serde_json::Value> = engines
        .iter()
        .map(|e| {
            serde_json::json!({
                "engine": e.name,
                "total_ms": e.total(),
                "median_pass_ms": e.median_pass(),
                "pass_ms": e.per_pass(),
                "total_ratio": e.total() / ours.total(),
                "median_pass_ratio": e.median_pass() / ours.median_pass(),
            })
        })
        .collect();
    let report = serde_json::json!({
        "program": job.program,
        "rewrites": program.len(),
        "distinct_patterns": program.distinct_patterns(),
        "passes": ours.sizes.len(),
        "runs": job.runs,
        "final_state_bytes": ours.state.len(),
        "same_bytes": engines.iter().map(|e| e.name).collect::<Vec<_>>(),
        "engines": list,
    });
    writeln!(crate::textio::stdout(), "{report:#}")
}
