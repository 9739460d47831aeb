//! `regex-chess trace --program FILE [--input FILE]`: one pass of any
//! program file, phase by phase, a phase being a range of the program's
//! rewrites (`--phases N` equal ranges, or `--cuts I,J,..`).
//!
//! The passes before the traced one (`--pass`, the last by default) run
//! untraced on one executor of the whole program, as `run` runs them;
//! the traced pass runs each phase on its own executor ([`Tracer`]), one
//! after the other on the same state, so it ends where `run` ends. It
//! prints a row per phase (rewrites run, skipped and changed, the state's
//! bytes and threads after it, its peaks, its time) and with `--out` writes
//! the state after each phase, the plot and the page ([`crate::report`]).
//! It reads the state's threads as the state grammar counts them (`%%`
//! active, `%tag` paused): a program without threads shows none.

use std::io::Write;
use std::ops::Range;
use std::path::Path;

use anyhow::{bail, Context, Result};
use regex_vm::{Executor, Program};

use crate::phases::{file_name, Phase, PhaseRun, Tracer};
use crate::report::Subject;
use crate::trace_turn::TraceArgs;

/// How many characters of a phase's first pattern its row shows.
const OPENER_CHARS: usize = 40;

/// The phases of a program of `len` rewrites: `count` ranges of equal
/// size (the last ones a rewrite shorter), or the ranges between `cuts`.
///
/// # Errors
///
/// No phase, a cut past the end, or cuts out of order.
fn ranges(len: usize, count: usize, cuts: &[usize]) -> Result<Vec<Range<usize>>> {
    let mut bounds = vec![0];
    if cuts.is_empty() {
        if count == 0 {
            bail!("--phases must be at least 1");
        }
        let count = count.min(len.max(1));
        bounds.extend((1..count).map(|k| k * len / count));
    } else {
        if let Some(&c) = cuts.iter().find(|&&c| c == 0 || c >= len) {
            bail!("--cuts: {c} is not inside the program's {len} rewrites");
        }
        if cuts.windows(2).any(|w| w[0] >= w[1]) {
            bail!("--cuts must be increasing");
        }
        bounds.extend_from_slice(cuts);
    }
    bounds.push(len);
    Ok(bounds.windows(2).map(|w| w[0]..w[1]).collect())
}

/// The phases, named by their rewrite ranges.
fn phases(program: &Program, ranges: Vec<Range<usize>>) -> Vec<Phase> {
    ranges
        .into_iter()
        .map(|r| Phase {
            name: format!("rewrites {}..{}", r.start, r.end),
            opener: program
                .rewrites()
                .get(r.start)
                .map(|w| w.pattern.chars().take(OPENER_CHARS).collect())
                .unwrap_or_default(),
            instrs: r.clone(),
            rewrites: r,
        })
        .collect()
}

fn header(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>3}  {:<22} {:>6} {:>6} {:>7} {:>9} {:>9} {:>7} {:>7} {:>7} {:>9}",
        "#",
        "phase",
        "run",
        "skip",
        "changed",
        "bytes",
        "peak",
        "active",
        "paused",
        "peak th",
        "ms"
    )
}

fn row(out: &mut impl Write, i: usize, p: &Phase, r: &PhaseRun) -> std::io::Result<()> {
    writeln!(
        out,
        "{i:>3}  {:<22} {:>6} {:>6} {:>7} {:>9} {:>9} {:>7} {:>7} {:>7} {:>9.3}",
        p.name,
        r.executed,
        r.skipped,
        r.changed,
        r.bytes,
        r.peak_bytes,
        r.active,
        r.paused,
        r.peak_threads,
        r.time.as_secs_f64() * 1e3
    )
}

/// Runs `trace --program`.
///
/// # Errors
///
/// An unreadable or refused program or input, a pass that does not exist,
/// bad cuts, a failing pass, or an unwritable `--out`.
pub(crate) fn run(args: &TraceArgs, program_path: &Path) -> Result<()> {
    let program = crate::run::load_exact(program_path)?;
    let lines = match &args.input {
        Some(p) => crate::bench_program::read_lines(p)?,
        None => Vec::new(),
    };
    let passes = lines.len() + 1;
    let pass = args.pass.unwrap_or(passes);
    if !(1..=passes).contains(&pass) {
        bail!("--pass {pass}: the input gives passes 1 to {passes}");
    }
    let config = crate::run::file_config(crate::run::DEFAULT_MAX_STATE_BYTES);
    let ranges = ranges(program.len(), args.phases, &args.cuts)?;
    let tracer = Tracer::with_phases(&program, phases(&program, ranges), &config)?;
    let whole = Executor::new(&program, config)
        .with_context(|| format!("compiling {}", program_path.display()))?;
    let mut state = String::new();
    for (k, line) in lines.iter().take(pass - 1).enumerate() {
        whole
            .run(&mut state)
            .with_context(|| format!("pass {}", k + 1))?;
        state.push_str(line);
        state.push('\n');
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("start.txt");
        std::fs::write(&path, &state).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut out = std::io::BufWriter::new(crate::textio::stdout());
    writeln!(
        out,
        "program {}: {} rewrites, pass {pass} of {passes} in {} phases; the state starts at {} bytes",
        program_path.display(),
        program.len(),
        tracer.phases.len(),
        state.len()
    )?;
    header(&mut out)?;
    let runs = tracer.run(&mut state, |i, r, s| {
        let p = &tracer.phases[i];
        row(&mut out, i, p, r)?;
        if let Some(dir) = &args.out {
            let path = dir.join(file_name(i, p));
            std::fs::write(&path, s).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    })?;
    let sum = |f: fn(&PhaseRun) -> usize| runs.iter().map(f).sum::<usize>();
    writeln!(
        out,
        "total: {} run, {} skipped, {} changed, {:.3} ms; peak {} bytes, {} threads; the state ends at {} bytes",
        sum(|r| r.executed),
        sum(|r| r.skipped),
        sum(|r| r.changed),
        runs.iter().map(|r| r.time.as_secs_f64()).sum::<f64>() * 1e3,
        runs.iter().map(|r| r.peak_bytes).max().unwrap_or(0),
        runs.iter().map(|r| r.peak_threads).max().unwrap_or(0),
        state.len()
    )?;
    out.flush()?;
    if let Some(dir) = &args.out {
        let file = program_path.display().to_string();
        let subject = Subject::Program { file: &file, pass };
        crate::report::write(dir, subject, &tracer.phases, &runs)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_program_once_in_order() {
        assert_eq!(ranges(10, 3, &[]).expect("ok"), [0..3, 3..6, 6..10]);
        assert_eq!(ranges(2, 5, &[]).expect("ok"), [0..1, 1..2]);
        assert_eq!(ranges(10, 1, &[4, 7]).expect("ok"), [0..4, 4..7, 7..10]);
        assert!(ranges(10, 0, &[]).is_err());
        assert!(ranges(10, 1, &[7, 4]).is_err());
        assert!(ranges(10, 1, &[10]).is_err());
    }
}
