//! `regex-chess bench --engine N`: the Python engine against CPython's
//! `re` on generated patterns of the shapes it exists for (see
//! [`patterns`]), each timed on the same subject by both in one sitting.
//!
//! Every case is loaded as `run` loads a one-entry program
//! (`regex_vm::python::load`) and timed through the executor as `run`
//! runs it (`run::file_config`, on one core as CPython runs), the subject
//! copied and rewritten again and again until a few milliseconds have
//! passed; CPython times `compiled.sub(replacement, subject)` the same
//! way (`crates/cli/scripts/time_subs.py`). Both count the thread's CPU
//! time, not the wall's, so that other processes on a loaded machine
//! disturb the figures less. The two alternate `--runs` times and each
//! keeps its fastest time per call. The first round also
//! compares the results: a case whose bytes differ stops the command. It
//! prints each case's ratio (CPython's time over ours) with the path our
//! executor takes, then the median and the worst ratio per shape and
//! over all. It measures; it changes no engine.

pub(crate) mod patterns;

use anyhow::{bail, Context, Result};
use regex_vm::Executor;

use crate::bench::median;
use patterns::{Case, Shape};

/// The script CPython runs.
const SCRIPT: &str = include_str!("../scripts/time_subs.py");

/// Each engine repeats a case for at least this long per round.
const MIN_MS: f64 = 4.0;

/// What `bench --engine N` is asked to do.
pub(crate) struct Job {
    /// Cases per shape.
    pub per_shape: usize,
    /// The generator's seed.
    pub seed: u64,
    /// Rounds, the engines alternated; each case's fastest is kept.
    pub runs: usize,
    /// JSON instead of tables.
    pub json: bool,
    /// Write each case into this directory as a program file
    /// (`caseN.json`: a boot pass writing the subject, then the rewrite),
    /// for `run`, `bench --program` and `bench --profile`.
    pub write: Option<std::path::PathBuf>,
}

/// One case's figures.
struct Timed {
    case: Case,
    /// How our executor runs it.
    path: &'static str,
    /// Time per call, ms: ours, CPython's.
    ours: f64,
    theirs: f64,
}

impl Timed {
    fn ratio(&self) -> f64 {
        self.theirs / self.ours
    }
}

/// The path our executor takes for a case, in a few words: the
/// executor's own choice for its one rewrite, named for this table.
fn path_of(exec: &Executor, case: &Case) -> &'static str {
    match exec.path(0) {
        Some("python engine; on ASCII states the regex crate") if case.subject.is_ascii() => {
            "ascii form"
        }
        Some(p) if p.starts_with("python engine") => "python engine",
        Some(_) => "portable",
        None => "refused",
    }
}

/// This thread's CPU time so far, in ms.
fn cpu_ms() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// Our time per call of each case (ms), and the results when asked.
fn time_ours(
    executors: &[Executor],
    cases: &[Case],
    outputs: bool,
) -> Result<(Vec<f64>, Vec<String>)> {
    let mut times = Vec::with_capacity(cases.len());
    let mut out = Vec::new();
    for (i, (exec, case)) in executors.iter().zip(cases).enumerate() {
        let mut calls = 0u32;
        let t0 = cpu_ms();
        let mut last;
        let elapsed = loop {
            last = case.subject.clone();
            exec.run(&mut last)
                .with_context(|| format!("case {i}: pattern {:?}", case.pattern))?;
            calls += 1;
            let elapsed = cpu_ms() - t0;
            if elapsed >= MIN_MS {
                break elapsed;
            }
        };
        times.push(elapsed / f64::from(calls));
        if outputs {
            out.push(last);
        }
    }
    Ok((times, out))
}

/// CPython's time per call of each case (ms), and the results when asked.
fn time_cpython(cases: &[Case], outputs: bool) -> Result<(Vec<f64>, Vec<String>)> {
    let list: Vec<[&str; 3]> = cases
        .iter()
        .map(|c| {
            [
                c.pattern.as_str(),
                c.replacement.as_str(),
                c.subject.as_str(),
            ]
        })
        .collect();
    let job = serde_json::json!({ "cases": list, "min_ms": MIN_MS, "outputs": outputs });
    let mut value = crate::bench::script_job("python3", &["-I", "-c", SCRIPT], &job)?;
    let bad = |name: &str| format!("reading python3's {name:?}");
    let times: Vec<f64> =
        serde_json::from_value(value["times"].take()).with_context(|| bad("times"))?;
    let outs: Vec<String> =
        serde_json::from_value(value["outputs"].take()).with_context(|| bad("outputs"))?;
    if times.len() != cases.len() {
        bail!("python3 timed {} cases of {}", times.len(), cases.len());
    }
    Ok((times, outs))
}

/// Runs `bench --engine N`.
///
/// # Errors
///
/// A case we refuse or fail on, CPython failing, or a case whose bytes
/// differ.
pub(crate) fn run(job: &Job) -> Result<()> {
    let cases = patterns::generate(job.seed, job.per_shape);
    if let Some(dir) = &job.write {
        write_cases(dir, &cases)?;
    }
    let config = regex_vm::Config {
        parallel: false,
        ..crate::run::file_config(256 << 20)
    };
    let executors = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let pairs = [(c.pattern.clone(), c.replacement.clone())];
            let program = regex_vm::python::load(&pairs)
                .with_context(|| format!("case {i}: loading {:?}", c.pattern))?;
            Executor::new(&program, config.clone())
                .with_context(|| format!("case {i}: compiling {:?}", c.pattern))
        })
        .collect::<Result<Vec<Executor>>>()?;
    let n = cases.len();
    let (mut ours, mut theirs) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
    for round in 0..job.runs.max(1) {
        let first = round == 0;
        let (mine, my_out) = time_ours(&executors, &cases, first)?;
        let (cpy, cpy_out) = time_cpython(&cases, first)?;
        if first {
            for (i, (a, b)) in my_out.iter().zip(&cpy_out).enumerate() {
                if a != b {
                    bail!(
                        "case {i} ({}): pattern {:?} gives other bytes than CPython's",
                        cases[i].shape.name(),
                        cases[i].pattern
                    );
                }
            }
        }
        for i in 0..n {
            ours[i] = ours[i].min(mine[i]);
            theirs[i] = theirs[i].min(cpy[i]);
        }
    }
    let timed: Vec<Timed> = cases
        .into_iter()
        .enumerate()
        .map(|(i, case)| Timed {
            path: path_of(&executors[i], &case),
            case,
            ours: ours[i],
            theirs: theirs[i],
        })
        .collect();
    if job.json {
        print_json(&timed, job)
    } else {
        print_table(&timed, job)
    }
}

/// Each case as a program file in `dir`: `^$` writes the subject (its
/// backslashes doubled, the only escape a replacement has that a subject
/// can hold), then the case's rewrite.
fn write_cases(dir: &std::path::Path, cases: &[Case]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (i, c) in cases.iter().enumerate() {
        let boot = c.subject.replace('\\', r"\\");
        let program = serde_json::json!([["^$", boot], [c.pattern, c.replacement]]);
        let path = dir.join(format!("case{i}.json"));
        std::fs::write(&path, format!("{program}\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The median and the worst (lowest) ratio of some cases, with the
/// worst's index.
fn summary<'a>(cases: impl Iterator<Item = (usize, &'a Timed)>) -> (usize, f64, f64, usize) {
    let list: Vec<(usize, f64)> = cases.map(|(i, t)| (i, t.ratio())).collect();
    let ratios: Vec<f64> = list.iter().map(|&(_, r)| r).collect();
    let (worst_at, worst) = list
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, f64::NAN));
    (list.len(), median(&ratios), worst, worst_at)
}

fn excerpt(pattern: &str, n: usize) -> String {
    let mut s: String = pattern.chars().take(n).collect();
    if pattern.chars().count() > n {
        s.push_str("...");
    }
    s.replace('\n', r"\n")
}

fn print_table(timed: &[Timed], job: &Job) -> Result<()> {
    let mut out = crate::textio::stdout();
    writeln!(
        out,
        "{} generated cases ({} a shape, seed {}), fastest of {} rounds, ours and CPython alternated, thread CPU time, one core; ratio: CPython's time / ours",
        timed.len(),
        job.per_shape,
        job.seed,
        job.runs.max(1)
    )?;
    writeln!(
        out,
        "{:>3} {:<15} {:<14} {:>8} {:>10} {:>10} {:>7}  pattern",
        "#", "shape", "ours runs on", "KB", "ours us", "CPython us", "ratio"
    )?;
    for (i, t) in timed.iter().enumerate() {
        writeln!(
            out,
            "{i:>3} {:<15} {:<14} {:>8.1} {:>10.1} {:>10.1} {:>6.2}x  {}",
            t.case.shape.name(),
            t.path,
            t.case.subject.len() as f64 / 1000.0,
            t.ours * 1e3,
            t.theirs * 1e3,
            t.ratio(),
            excerpt(&t.case.pattern, 70)
        )?;
    }
    writeln!(
        out,
        "{:<15} {:>6} {:>8} {:>8}  worst case",
        "shape", "cases", "median", "worst"
    )?;
    for shape in Shape::ALL {
        let (count, med, worst, at) = summary(
            timed
                .iter()
                .enumerate()
                .filter(|(_, t)| t.case.shape == shape),
        );
        writeln!(
            out,
            "{:<15} {count:>6} {med:>7.2}x {worst:>7.2}x  {at}",
            shape.name()
        )?;
    }
    let (count, med, worst, at) = summary(timed.iter().enumerate());
    let slower = timed.iter().filter(|t| t.ratio() < 1.0).count();
    writeln!(
        out,
        "{:<15} {count:>6} {med:>7.2}x {worst:>7.2}x  {at}; {slower} slower than CPython",
        "all"
    )?;
    Ok(())
}

fn print_json(timed: &[Timed], job: &Job) -> Result<()> {
    let shape_row = |name: &str, (count, med, worst, at): (usize, f64, f64, usize)| serde_json::json!({ "shape": name, "cases": count, "median": med, "worst": worst, "worst_case": at });
    let mut shapes: Vec<serde_json::Value> = Shape::ALL
        .iter()
        .map(|&shape| {
            shape_row(
                shape.name(),
                summary(
                    timed
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.case.shape == shape),
                ),
            )
        })
        .collect();
    shapes.push(shape_row("all", summary(timed.iter().enumerate())));
    let cases: Vec<serde_json::Value> = timed
        .iter()
        .map(|t| {
            serde_json::json!({
                "shape": t.case.shape.name(),
                "path": t.path,
                "pattern": t.case.pattern,
                "subject_bytes": t.case.subject.len(),
                "ours_ms": t.ours,
                "cpython_ms": t.theirs,
                "ratio": t.ratio(),
            })
        })
        .collect();
    let report = serde_json::json!({
        "seed": job.seed,
        "per_shape": job.per_shape,
        "runs": job.runs.max(1),
        "cases": cases,
        "shapes": shapes,
    });
    let mut out = crate::textio::stdout();
    writeln!(out, "{report}")?;
    Ok(())
}
