//! The two loops over the rewrites: the plain loop, every rewrite on the
//! whole state by its pattern's strategy, and the fast loop, which skips
//! the rewrites a gate proves cannot match and hands stretches of
//! rewrites that stay in their threads to `threads` (the table of
//! threads) or `halves` (two cores); each rewrite a `step`, and what it
//! did counted here ([`Stats`]).
//!
//! It owns the order of the rewrites, the stop's checks between them, the
//! state-size cap and the statistics; it must not choose how a pattern
//! runs (that is each step's strategy, chosen by `prepare`) nor keep
//! anything between runs (a run's buffers come in its `Cache`).

use std::time::{Duration, Instant};

use super::cache::Cache;
use super::gate::Found;
use super::replace::Scratchpad;
use super::step::{check_stop, Did, LoopState};
use super::strategy::At;
use super::{ExecError, Executor, Stats};
use crate::state;
use crate::stop::Stop;

/// Stretches shorter than this many rewrites run one rewrite at a time.
pub(super) const MIN_STRETCH: usize = 8;

impl Executor {
    pub(super) fn new_stats(&self, state: &str) -> Stats {
        Stats {
            rewrites: self.steps.len(),
            peak_state_bytes: state.len(),
            peak_threads: state::count_threads(state).total(),
            ..Stats::default()
        }
    }

    fn finish(mut stats: Stats, state: &str, start: Instant) -> Stats {
        let counts = state::count_threads(state);
        stats.active_threads = counts.active;
        stats.paused_threads = counts.paused;
        stats.elapsed = start.elapsed();
        stats
    }

    /// The plain loop: every rewrite on the whole string (each by its
    /// pattern's strategy, which naive mode chose plain).
    pub(super) fn run_naive(
        &self,
        state: &mut String,
        stop: &Stop,
        pad: &mut Scratchpad,
    ) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let mut stats = self.new_stats(state);
        for index in 0..self.steps.len() {
            check_stop(stop, index)?;
            let t0 = Instant::now();
            let at = At {
                rewrite: index,
                from: 0,
                ascii: false,
                stop,
            };
            let changed = match self.apply(state, at, pad)? {
                Some(next) => {
                    *state = next;
                    true
                }
                None => false,
            };
            if self.config.profile {
                stats.per_rewrite.push(t0.elapsed());
            }
            stats.executed += 1;
            stats.scanned_bytes += state.len() as u64;
            if changed {
                stats.changed += 1;
                stats.peak_state_bytes = stats.peak_state_bytes.max(state.len());
                stats.peak_threads = stats.peak_threads.max(state::count_threads(state).total());
                self.check_size(index, state.len())?;
            }
        }
        Ok(Self::finish(stats, state, start))
    }

    pub(super) fn check_size(&self, rewrite: usize, len: usize) -> Result<(), ExecError> {
        if len > self.config.max_state_bytes {
            return Err(ExecError::StateTooLarge {
                rewrite,
                len,
                limit: self.config.max_state_bytes,
            });
        }
        Ok(())
    }

    /// The fast loop: the plain loop, minus the rewrites that provably
    /// change nothing: those whose pattern needs a kind of thread the state
    /// does not have (see `analysis`), or a literal it does not contain;
    /// stretches of rewrites that stay in their threads run on the table
    /// of threads when it has few threads to visit for the state's length
    /// (see [`Executor::run_table`]), and otherwise, on big enough states,
    /// on two halves at once (see [`Executor::run_halves`]). Profiling
    /// runs every rewrite one at a time (on the table or the whole
    /// state), so that each has its own time.
    ///
    /// (Holding every state as one piece per thread, each rewrite on
    /// rayon over its pieces, was measured slower on the chess program,
    /// whose rewrites visit most threads: docs/log.md, "One piece per
    /// thread". The table is taken only where a rewrite visits few.)
    pub(super) fn run_fast(
        &self,
        state: &mut String,
        stop: &Stop,
        cache: &mut Cache,
    ) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let mut stats = self.new_stats(state);
        let Cache { pad, halves, table } = cache;
        let mut lane = LoopState {
            ascii: self.ascii_templates && state.is_ascii(),
            stop,
            found: Found::new(self.probes.len()),
            pad,
        };
        // No stretch is tried again before this step after one fell back.
        let mut sequential_until = 0;
        // Nor on the table, after the table declined one.
        let mut whole_until = 0;
        let mut index = 0;
        while index < self.steps.len() {
            check_stop(stop, index)?;
            let end = self.table_end[index];
            if self.config.thread_table
                && index >= whole_until
                && end - index >= MIN_STRETCH
                && state.len() >= self.config.table_bytes
            {
                if self.run_table(index..end, state, &mut lane, &mut stats, table)? {
                    index = end;
                    continue;
                }
                whole_until = end;
            }
            let end = self.stretch_end[index];
            if index >= sequential_until
                && end - index >= MIN_STRETCH
                && self.config.parallel
                && !self.config.profile
                && state.len() >= self.config.split_bytes
            {
                if self.run_halves(index..end, state, &lane, &mut stats, halves)? {
                    lane.found.version += 1;
                    index = end;
                    continue;
                }
                sequential_until = end;
            }
            let t0 = self.config.profile.then(Instant::now);
            let did = self.step(index, state, &mut lane)?;
            if self.config.profile {
                stats
                    .per_rewrite
                    .push(t0.map_or(Duration::ZERO, |t| t.elapsed()));
            }
            self.count(
                index,
                did,
                state.len(),
                || state::count_heads(state),
                &mut stats,
            );
            if did.changed {
                self.check_size(index, state.len())?;
            }
            index += 1;
        }
        Ok(Self::finish(stats, state, start))
    }

    /// Counts what rewrite `index` did to the state: run or skipped, and,
    /// when it changed it, the state's length and (for a rewrite that can
    /// add threads) its thread count, asked of `threads` only then.
    pub(super) fn count(
        &self,
        index: usize,
        did: Did,
        len: usize,
        threads: impl FnOnce() -> usize,
        stats: &mut Stats,
    ) {
        let step = &self.steps[index];
        if did.ran {
            stats.executed += 1;
            stats.scanned_bytes += len as u64;
        } else {
            stats.skipped += 1;
        }
        if did.changed {
            stats.changed += 1;
            stats.peak_state_bytes = stats.peak_state_bytes.max(len);
            if step.adds_threads {
                stats.peak_threads = stats.peak_threads.max(threads());
            }
        }
    }
}
