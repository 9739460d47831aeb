//! `regex-chess bench --profile N --program FILE [--input FILE]`: where
//! any program file spends its time, rewrite by rewrite, on our executor
//! and on CPython's `re`, side by side.
//!
//! Both engines run the passes `regex-chess run` runs (one from the empty
//! state, then one per input line appended with `\n`) `--runs` times,
//! timing every rewrite alone and keeping its fastest run: ours with
//! [`regex_vm::Config::profile`], CPython with the script the repository
//! carries (`crates/cli/scripts/profile_rewrites.py`: `re.subn` on the
//! same states, which also gives each rewrite's matches and the state's
//! size before it). They must end in the same bytes. The report sums the
//! times over the passes by the state's size when the rewrite ran, by
//! shape and by construct ([`crate::rewrite_shape`]), names the costliest
//! rewrites and distinct patterns, and counts what matched. It measures;
//! it changes no program.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use regex_vm::Executor;

use crate::rewrite_shape::{self, Construct, Described, Shape};

/// The script CPython runs.
const SCRIPT: &str = include_str!("../scripts/profile_rewrites.py");

/// The size classes of the state a rewrite ran on: (at least, name).
const SIZES: [(usize, &str); 4] = [
    (0, "under 40 KB"),
    (40_000, "40-100 KB"),
    (100_000, "100-300 KB"),
    (300_000, "300 KB or more"),
];

/// What `bench --profile N --program FILE` is asked to do.
pub(crate) struct Job<'a> {
    /// The program file (JSON, or a `.js` dump).
    pub program: &'a Path,
    /// The input lines' file, if any.
    pub input: Option<&'a Path>,
    /// Runs; each rewrite's fastest is kept.
    pub runs: usize,
    /// How many rewrites and patterns to name.
    pub top: usize,
    /// JSON instead of tables.
    pub json: bool,
    /// Our executor's settings (with `profile` on).
    pub config: regex_vm::Config,
}

/// Per pass and rewrite, ms.
type Grid = Vec<Vec<f64>>;

/// Our executor's times and what it counted.
struct Ours {
    ms: Grid,
    state: String,
    executed: usize,
    skipped: usize,
}

/// CPython's times, the state sizes before each rewrite, the matches.
struct Theirs {
    ms: Grid,
    sizes: Vec<Vec<usize>>,
    matches: Vec<Vec<usize>>,
    state: String,
}

fn ours(program: &regex_vm::Program, job: &Job<'_>, lines: &[String]) -> Result<Ours> {
    let config = regex_vm::Config {
        profile: true,
        ..job.config.clone()
    };
    let exec = Executor::new(program, config)
        .with_context(|| format!("compiling {}", job.program.display()))?;
    let mut best: Option<Grid> = None;
    let (mut state, mut executed, mut skipped) = (String::new(), 0, 0);
    for _ in 0..job.runs {
        state.clear();
        (executed, skipped) = (0, 0);
        let mut run = Vec::with_capacity(lines.len() + 1);
        for (pass, line) in std::iter::once(None)
            .chain(lines.iter().map(Some))
            .enumerate()
        {
            if let Some(line) = line {
                state.push_str(line);
                state.push('\n');
            }
            let stats = exec
                .run(&mut state)
                .with_context(|| format!("pass {}", pass + 1))?;
            executed += stats.executed;
            skipped += stats.skipped;
            run.push(
                stats
                    .per_rewrite
                    .iter()
                    .map(|d| d.as_secs_f64() * 1e3)
                    .collect(),
            );
        }
        best = Some(fastest(best, run));
    }
    Ok(Ours {
        ms: best.unwrap_or_default(),
        state,
        executed,
        skipped,
    })
}

/// Each cell's minimum of two grids.
fn fastest(best: Option<Grid>, run: Grid) -> Grid {
    match best {
        None => run,
        Some(b) => b
            .iter()
            .zip(&run)
            .map(|(x, y)| x.iter().zip(y).map(|(a, b)| a.min(*b)).collect())
            .collect(),
    }
}

fn cpython(pairs: &[(String, String)], runs: usize, lines: &[String]) -> Result<Theirs> {
    let job = serde_json::json!({ "pairs": pairs, "runs": runs, "lines": lines });
    let value = crate::bench::script_job("python3", &["-I", "-c", SCRIPT], &job)?;
    let mut value = value;
    let bad = |name: &str| format!("reading python3's {name:?}");
    let ms: Grid = serde_json::from_value(value["times"].take()).with_context(|| bad("times"))?;
    let sizes: Vec<Vec<usize>> =
        serde_json::from_value(value["sizes"].take()).with_context(|| bad("sizes"))?;
    let matches: Vec<Vec<usize>> =
        serde_json::from_value(value["matches"].take()).with_context(|| bad("matches"))?;
    let state: String =
        serde_json::from_value(value["state"].take()).with_context(|| bad("state"))?;
    Ok(Theirs {
        ms,
        sizes,
        matches,
        state,
    })
}

/// Times summed in one row of a table.
#[derive(Debug, Clone, Default)]
struct Row {
    /// Rewrites of the list in the row.
    rewrites: usize,
    /// Times a rewrite of the row ran (rewrites times passes).
    runs: usize,
    ours_ms: f64,
    cpython_ms: f64,
}

impl Row {
    fn json(&self, name: &str) -> serde_json::Value {
        serde_json::json!({
            "name": name,
            "rewrites": self.rewrites,
            "runs": self.runs,
            "ours_ms": self.ours_ms,
            "cpython_ms": self.cpython_ms,
        })
    }

    fn add(&mut self, ours: f64, theirs: f64) {
        self.runs += 1;
        self.ours_ms += ours;
        self.cpython_ms += theirs;
    }
}

/// Everything the report says.
struct Profile {
    rewrites: usize,
    distinct_patterns: usize,
    passes: usize,
    runs: usize,
    ours_ms: f64,
    cpython_ms: f64,
    /// Rewrite runs (over all passes) that replaced at least one match,
    /// and that replaced none, as CPython counted.
    matched: usize,
    unmatched: usize,
    /// Our executor's count of rewrites it ran and skipped by its gates.
    ours_executed: usize,
    ours_skipped: usize,
    by_size: Vec<(&'static str, Row)>,
    by_shape: Vec<(&'static str, Row)>,
    by_construct: Vec<(&'static str, Row)>,
    /// The costliest rewrites by our time: (index, ours ms, CPython ms).
    costliest: Vec<(usize, f64, f64)>,
    /// The costliest distinct patterns by CPython's time: (pattern,
    /// rewrites, ours ms, CPython ms).
    patterns: Vec<(String, usize, f64, f64)>,
}

impl Profile {
    fn json(&self, pairs: &[(String, String)]) -> serde_json::Value {
        let rows = |rows: &[(&str, Row)]| -> Vec<serde_json::Value> {
            rows.iter().map(|(n, r)| r.json(n)).collect()
        };
        serde_json::json!({
            "rewrites": self.rewrites,
            "distinct_patterns": self.distinct_patterns,
            "passes": self.passes,
            "runs": self.runs,
            "ours_ms": self.ours_ms,
            "cpython_ms": self.cpython_ms,
            "matched": self.matched,
            "unmatched": self.unmatched,
            "ours_executed": self.ours_executed,
            "ours_skipped": self.ours_skipped,
            "by_size": rows(&self.by_size),
            "by_shape": rows(&self.by_shape),
            "by_construct": rows(&self.by_construct),
            "costliest": self.costliest.iter().map(|&(i, o, t)| serde_json::json!({
                "index": i, "pattern": pairs[i].0, "ours_ms": o, "cpython_ms": t,
            })).collect::<Vec<_>>(),
            "patterns": self.patterns.iter().map(|(p, k, o, t)| serde_json::json!({
                "pattern": p, "rewrites": k, "ours_ms": o, "cpython_ms": t,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Sums over the passes: each rewrite's (ours, CPython) ms, the rows by
/// the state's size, and the runs that replaced a match and that did not.
struct Sums {
    per_rewrite: Vec<(f64, f64)>,
    by_size: Vec<Row>,
    matched: usize,
    unmatched: usize,
}

fn sums(n: usize, ours: &Ours, theirs: &Theirs) -> Sums {
    let mut s = Sums {
        per_rewrite: vec![(0.0, 0.0); n],
        by_size: vec![Row::default(); SIZES.len()],
        matched: 0,
        unmatched: 0,
    };
    for (p, (o, t)) in ours.ms.iter().zip(&theirs.ms).enumerate() {
        for i in 0..n.min(o.len()).min(t.len()) {
            s.per_rewrite[i].0 += o[i];
            s.per_rewrite[i].1 += t[i];
            let size = theirs.sizes[p][i];
            let class = SIZES
                .iter()
                .rposition(|(from, _)| size >= *from)
                .unwrap_or(0);
            s.by_size[class].add(o[i], t[i]);
            if theirs.matches[p][i] > 0 {
                s.matched += 1;
            } else {
                s.unmatched += 1;
            }
        }
    }
    s
}

fn profile(
    pairs: &[(String, String)],
    described: &[Described],
    ours: &Ours,
    theirs: &Theirs,
    job: &Job<'_>,
) -> Profile {
    let n = pairs.len();
    let Sums {
        per_rewrite,
        by_size,
        matched,
        unmatched,
    } = sums(n, ours, theirs);
    let passes = ours.ms.len();
    let mut shapes: HashMap<Shape, Row> = HashMap::new();
    let mut constructs: HashMap<Construct, Row> = HashMap::new();
    let mut patterns: HashMap<&str, (usize, f64, f64)> = HashMap::new();
    for (i, d) in described.iter().enumerate() {
        let (o, t) = per_rewrite[i];
        let add = |row: &mut Row| {
            row.rewrites += 1;
            row.runs += passes;
            row.ours_ms += o;
            row.cpython_ms += t;
        };
        add(shapes.entry(d.shape).or_default());
        for c in &d.constructs {
            add(constructs.entry(*c).or_default());
        }
        let e = patterns.entry(pairs[i].0.as_str()).or_default();
        *e = (e.0 + 1, e.1 + o, e.2 + t);
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| per_rewrite[b].0.total_cmp(&per_rewrite[a].0));
    let mut patterns: Vec<(String, usize, f64, f64)> = patterns
        .into_iter()
        .map(|(p, (k, o, t))| (p.to_string(), k, o, t))
        .collect();
    patterns.sort_by(|a, b| b.3.total_cmp(&a.3).then_with(|| a.0.cmp(&b.0)));
    patterns.truncate(job.top);
    Profile {
        rewrites: n,
        distinct_patterns: pairs
            .iter()
            .map(|(p, _)| p.as_str())
            .collect::<std::collections::HashSet<_>>()
            .len(),
        passes,
        runs: job.runs,
        ours_ms: per_rewrite.iter().map(|r| r.0).sum(),
        cpython_ms: per_rewrite.iter().map(|r| r.1).sum(),
        matched,
        unmatched,
        ours_executed: ours.executed,
        ours_skipped: ours.skipped,
        by_size: SIZES.iter().map(|s| s.1).zip(by_size).collect(),
        by_shape: Shape::ALL
            .iter()
            .map(|s| (s.name(), shapes.remove(s).unwrap_or_default()))
            .collect(),
        by_construct: Construct::ALL
            .iter()
            .map(|c| (c.name(), constructs.remove(c).unwrap_or_default()))
            .collect(),
        costliest: order
            .iter()
            .take(job.top)
            .map(|&i| (i, per_rewrite[i].0, per_rewrite[i].1))
            .collect(),
        patterns,
    }
}

/// Runs `bench --profile N --program FILE`.
///
/// # Errors
///
/// An unreadable or refused program or input, a failing pass, CPython
/// missing or failing, or CPython ending in other bytes than ours.
pub(crate) fn run(job: &Job<'_>) -> Result<()> {
    let pairs = crate::run::read_pairs(job.program)
        .with_context(|| format!("reading {}", job.program.display()))?;
    let program = crate::run::load_exact(job.program)?;
    let described: Vec<Described> = pairs
        .iter()
        .map(|(p, r)| rewrite_shape::describe(p, r))
        .collect::<Result<_>>()?;
    let lines = match job.input {
        Some(p) => crate::bench_program::read_lines(p)?,
        None => Vec::new(),
    };
    let ours = ours(&program, job, &lines)?;
    let theirs = cpython(&pairs, job.runs, &lines)?;
    if theirs.state != ours.state {
        bail!("CPython ends in other bytes than ours");
    }
    let report = profile(&pairs, &described, &ours, &theirs, job);
    let mut out = crate::textio::stdout();
    if job.json {
        let value = serde_json::json!({ "program": job.program, "profile": report.json(&pairs) });
        return Ok(writeln!(out, "{value:#}")?);
    }
    print(&mut out, job, &pairs, &described, &report)
}

fn share(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

fn table(
    out: &mut impl std::io::Write,
    title: &str,
    rows: &[(&str, Row)],
    p: &Profile,
) -> Result<()> {
    writeln!(
        out,
        "{title:<22} {:>8} {:>8} {:>10} {:>6} {:>11} {:>6} {:>7}",
        "rewrites", "runs", "ours ms", "ours%", "CPython ms", "CPy%", "ratio"
    )?;
    for (name, r) in rows {
        if r.runs == 0 {
            continue;
        }
        writeln!(
            out,
            "{name:<22} {:>8} {:>8} {:>10.2} {:>5.1}% {:>11.2} {:>5.1}% {:>6.1}x",
            r.rewrites,
            r.runs,
            r.ours_ms,
            share(r.ours_ms, p.ours_ms),
            r.cpython_ms,
            share(r.cpython_ms, p.cpython_ms),
            r.cpython_ms / r.ours_ms.max(1e-9)
        )?;
    }
    Ok(())
}

fn print(
    out: &mut impl std::io::Write,
    job: &Job<'_>,
    pairs: &[(String, String)],
    described: &[Described],
    p: &Profile,
) -> Result<()> {
    writeln!(
        out,
        "program {}: {} rewrites, {} distinct patterns; {} passes, each rewrite timed alone, the fastest of {} runs",
        job.program.display(),
        p.rewrites,
        p.distinct_patterns,
        p.passes,
        p.runs
    )?;
    writeln!(
        out,
        "ours {:.1} ms, CPython {:.1} ms, ratio {:.2}x; rewrite runs that replaced a match (CPython): {}, that replaced none: {}; ours ran {} and skipped {} by its gates",
        p.ours_ms,
        p.cpython_ms,
        p.cpython_ms / p.ours_ms.max(1e-9),
        p.matched,
        p.unmatched,
        p.ours_executed,
        p.ours_skipped
    )?;
    // The size column counts runs, not rewrites of the list.
    let sizes: Vec<(&str, Row)> = p
        .by_size
        .iter()
        .map(|(n, r)| {
            (
                *n,
                Row {
                    rewrites: r.runs,
                    ..r.clone()
                },
            )
        })
        .collect();
    table(out, "state before it", &sizes, p)?;
    table(out, "shape", &p.by_shape, p)?;
    table(out, "construct (overlap)", &p.by_construct, p)?;
    writeln!(
        out,
        "{:>6} {:<20} {:>9} {:>6} {:>10} {:>6}  pattern",
        "index", "shape", "ours ms", "ours%", "CPython ms", "CPy%"
    )?;
    for &(i, o, t) in &p.costliest {
        writeln!(
            out,
            "{i:>6} {:<20} {o:>9.3} {:>5.2}% {t:>10.3} {:>5.2}%  {}",
            described[i].shape.name(),
            share(o, p.ours_ms),
            share(t, p.cpython_ms),
            regex_vm::excerpt(&pairs[i].0)
        )?;
    }
    writeln!(
        out,
        "{:>6} {:>9} {:>6} {:>10} {:>6}  distinct pattern (by CPython's time)",
        "times", "ours ms", "ours%", "CPython ms", "CPy%"
    )?;
    for (pattern, k, o, t) in &p.patterns {
        writeln!(
            out,
            "{k:>6} {o:>9.2} {:>5.2}% {t:>10.2} {:>5.2}%  {}",
            share(*o, p.ours_ms),
            share(*t, p.cpython_ms),
            regex_vm::excerpt(pattern)
        )?;
    }
    Ok(())
}
