//! A program cut into phases, each run on an executor of its own: the
//! phases (consecutive ranges of instructions and rewrites, named), what
//! each did on one run, and the file each one's state is written to.
//! `trace_turn` cuts the turn program by its marker instructions,
//! `trace_program` any program file by rewrite index; `report` draws the
//! figures. It decides no cut and prints nothing.

use std::ops::Range;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use regex_vm::{Config, Executor, Program};

/// A named stretch of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Phase {
    /// What it does (`parse`, `ply 1 (white)`, `keep-best`, ...).
    pub name: String,
    /// The name of its first instruction.
    pub opener: String,
    /// Its instructions.
    pub instrs: Range<usize>,
    /// Its rewrites.
    pub rewrites: Range<usize>,
}

/// What one phase did on one turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PhaseRun {
    /// Rewrites a regex engine ran.
    pub executed: usize,
    /// Rewrites skipped as provable no-ops.
    pub skipped: usize,
    /// Rewrites that changed the state.
    pub changed: usize,
    /// State bytes after the phase.
    pub bytes: usize,
    /// Largest state during the phase.
    pub peak_bytes: usize,
    /// Active threads after the phase.
    pub active: usize,
    /// Paused threads after the phase.
    pub paused: usize,
    /// Most threads during the phase.
    pub peak_threads: usize,
    /// Wall time of the phase.
    pub time: Duration,
}

/// A program cut into phases, each with its executor.
pub(crate) struct Tracer {
    /// The phases, in order.
    pub phases: Vec<Phase>,
    executors: Vec<Executor>,
}

impl Tracer {
    /// Compiles one executor per phase of `program`, cut as `phases` say
    /// (consecutive ranges of its rewrites).
    ///
    /// # Errors
    ///
    /// When a pattern does not compile.
    pub(crate) fn with_phases(
        program: &Program,
        phases: Vec<Phase>,
        config: &Config,
    ) -> Result<Tracer> {
        let executors = phases
            .iter()
            .map(|p| {
                let part = Program::new(program.rewrites()[p.rewrites.clone()].to_vec());
                Executor::new(&part, config.clone())
                    .with_context(|| format!("compiling phase {}", p.name))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Tracer { phases, executors })
    }

    /// Runs every phase on `state`, in order, calling `after` with each
    /// phase's index, figures and the state it left.
    ///
    /// # Errors
    ///
    /// When the VM stops (`state` is then as it left it) or `after` fails.
    pub(crate) fn run(
        &self,
        state: &mut String,
        mut after: impl FnMut(usize, &PhaseRun, &str) -> Result<()>,
    ) -> Result<Vec<PhaseRun>> {
        let mut runs = Vec::with_capacity(self.phases.len());
        for (i, (phase, exec)) in self.phases.iter().zip(&self.executors).enumerate() {
            let t0 = Instant::now();
            let stats = exec
                .run(state)
                .with_context(|| format!("phase {i} ({})", phase.name))?;
            let run = PhaseRun {
                executed: stats.executed,
                skipped: stats.skipped,
                changed: stats.changed,
                bytes: state.len(),
                peak_bytes: stats.peak_state_bytes,
                active: stats.active_threads,
                paused: stats.paused_threads,
                peak_threads: stats.peak_threads,
                time: t0.elapsed(),
            };
            after(i, &run, state)?;
            runs.push(run);
        }
        Ok(runs)
    }
}

/// A file name for phase `i`: `07-ply-1-white.txt`.
pub(crate) fn file_name(i: usize, phase: &Phase) -> String {
    let slug: String = phase
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    format!("{i:02}-{slug}.txt")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_plain() {
        let p = Phase {
            name: "ply 1 (white)".into(),
            opener: "select_w".into(),
            instrs: 0..1,
            rewrites: 0..1,
        };
        assert_eq!(file_name(7, &p), "07-ply-1-white.txt");
    }
}
