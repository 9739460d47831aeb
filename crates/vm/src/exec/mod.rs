//! The executor: runs a [`Program`] over a state string.
//!
//! It owns compilation (each distinct pattern once, on `regex` or, only for
//! back-references, `fancy-regex`, and on our own matcher, [`backtrack`],
//! where that applies), the replace-all loop, the state-size cap and the
//! statistics. Its contract is the plain loop
//! `for (p, r) in rewrites { state = re.sub(p, r, state) }`: every fast path
//! it takes must leave exactly the bytes that loop would leave, and
//! [`Config::naive`] turns all of them off so tests can compare the two. It
//! knows the thread markers of the state grammar (see `state`) only to skip
//! work; it knows nothing of instructions or chess.
//!
//! Four modules: this one is the public surface ([`Executor`], [`Config`],
//! [`Stats`], the errors) and the two loops, naive and fast, with the step
//! that runs one rewrite; [`compile`] builds an executor from a program
//! (each pattern's engine and path, each rewrite's step and gate, from the
//! facts `analysis` proves); [`gate`] keeps the probes that skip rewrites;
//! [`halves`] runs stretches of thread-confined rewrites on two halves of
//! the state. Replace-all itself is `replace`.

pub mod analysis;
pub mod backtrack;
mod deferred;
mod gate;
mod halves;
mod plan;
pub(crate) mod reading;
mod replace;
mod strategy;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use crate::program::Program;
use crate::ranks::ByteRanks;
use crate::state;
use crate::stop::{Stop, StopReason};
pub(crate) use deferred::SIZE_LIMIT as REGEX_SIZE_LIMIT;
use gate::{Found, Gate};
use halves::{MIN_STRETCH, SPLIT_BYTES};
use plan::Step;
use replace::recycle;
use strategy::{At, Strategy};

/// Limits and switches of one executor.
#[derive(Debug, Clone)]
pub struct Config {
    /// The run stops with [`ExecError::StateTooLarge`] as soon as the state
    /// exceeds this many bytes.
    pub max_state_bytes: usize,
    /// Plain loop, no fast path (for differential tests).
    pub naive: bool,
    /// Backtracking budget per `fancy-regex` search (not our own
    /// matcher's: that one's budget is fixed and, spent, hands the search
    /// to an engine).
    pub fancy_backtrack_limit: usize,
    /// Run stretches of thread-confined rewrites on two halves of the
    /// state at once, on two cores (see [`Executor::run`]).
    pub parallel: bool,
    /// States shorter than this many bytes are not split.
    pub split_bytes: usize,
    /// Record the wall time of every rewrite in [`Stats::per_rewrite`].
    pub profile: bool,
    /// Let our own matcher (see [`backtrack`]) run the patterns it
    /// handles; off, the `regex` crate (`fancy-regex` for back-references)
    /// runs them, to measure what ours gives.
    pub own_matcher: bool,
    /// How common each byte is in the states the program makes, to tune
    /// substring searches and our matcher's hints (the bytes of a run are
    /// the same whatever the table): by default the state grammar's
    /// (see [`ByteRanks`]); a program that knows its states better gives
    /// a table measured on one ([`ByteRanks::measure`]).
    pub byte_ranks: ByteRanks,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_state_bytes: 16 << 20,
            naive: false,
            fancy_backtrack_limit: 1_000_000,
            parallel: true,
            split_bytes: SPLIT_BYTES,
            profile: false,
            own_matcher: true,
            byte_ranks: ByteRanks::grammar(),
        }
    }
}

/// A pattern that failed to compile.
#[derive(Debug, thiserror::Error)]
#[error(
    "rewrite {index}: pattern {:?} does not compile",
    crate::excerpt(pattern)
)]
pub struct CompileError {
    /// Index of the first rewrite using the pattern.
    pub index: usize,
    /// The pattern.
    pub pattern: String,
    /// What the engine said.
    #[source]
    pub source: EngineError,
}

/// A regex engine's own error, kept as it reported it.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// From the `regex` crate (plain patterns).
    #[error(transparent)]
    Regex(#[from] regex::Error),
    /// From `fancy-regex` (patterns with back-references).
    #[error(transparent)]
    Fancy(#[from] fancy_regex::Error),
    /// From our Python engine (`pyre`): CPython would refuse it too.
    #[error(transparent)]
    Python(#[from] crate::pyre::PatternError),
}

/// A run that stopped. The state passed to [`Executor::run`] holds the state
/// at the point of failure.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The state grew past [`Config::max_state_bytes`].
    #[error("state grew to {len} bytes after rewrite {rewrite}, over the limit of {limit}")]
    StateTooLarge {
        /// Index of the rewrite that made it grow.
        rewrite: usize,
        /// State length after it.
        len: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The run was told to stop (its deadline passed or its flag was
    /// raised, see [`Stop`]) before rewrite `rewrite` ran, or while it
    /// ran on the Python engine (which asks the stop during long
    /// searches); every rewrite before it ran in full, and it left the
    /// state as it was.
    #[error("stopped at rewrite {rewrite}: {reason}")]
    Stopped {
        /// Index of the first rewrite that did not run.
        rewrite: usize,
        /// Why.
        reason: StopReason,
    },
    /// Our Python engine's search outgrew its backtracking stack (as
    /// many bytes as [`Config::max_state_bytes`]).
    #[error("rewrite {rewrite}: the Python engine's search failed")]
    Python {
        /// Index of the rewrite.
        rewrite: usize,
        /// What the engine said.
        #[source]
        source: crate::pyre::MatchError,
    },
    /// A pattern's automaton, built when the rewrite first ran, passed the
    /// `regex` crate's size limit (its syntax was read at load).
    #[error("rewrite {rewrite}: its pattern is too large for the regex crate")]
    TooLarge {
        /// Index of the rewrite.
        rewrite: usize,
        /// What the engine said.
        #[source]
        source: regex::Error,
    },
    /// `fancy-regex` gave up (e.g. its backtrack limit,
    /// [`Config::fancy_backtrack_limit`], was exceeded).
    #[error("rewrite {rewrite}: the back-reference engine failed")]
    FancyRegex {
        /// Index of the rewrite.
        rewrite: usize,
        /// What the engine said.
        #[source]
        source: fancy_regex::Error,
    },
}

/// What one run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Rewrites in the program.
    pub rewrites: usize,
    /// Rewrites actually run by a regex engine.
    pub executed: usize,
    /// Rewrites skipped by a fast path (provably no-ops).
    pub skipped: usize,
    /// Rewrites that changed the state.
    pub changed: usize,
    /// Largest state length seen, in bytes.
    pub peak_state_bytes: usize,
    /// The work of the run in bytes: the sum, over the rewrites run (not
    /// those a gate skipped), of the state's length after each. Every
    /// rewrite run scans the state, so this counts what a run costs
    /// without a clock; `chess::reference::cost` models it.
    pub scanned_bytes: u64,
    /// Largest number of threads seen: at the start and after every
    /// rewrite that changed the state (the fast loop counts only after a
    /// change by a rewrite that can add a thread, which gives the same
    /// peak).
    pub peak_threads: usize,
    /// Active threads at the end.
    pub active_threads: usize,
    /// Paused threads at the end.
    pub paused_threads: usize,
    /// Total wall time.
    pub elapsed: Duration,
    /// Wall time of each rewrite, skipped ones included, when
    /// [`Config::profile`] is on (empty otherwise).
    pub per_rewrite: Vec<Duration>,
}

/// What [`Executor::step`] did.
#[derive(Debug, Default, Clone, Copy)]
struct Did {
    /// The gate let the rewrite run.
    ran: bool,
    /// It changed the text.
    changed: bool,
}

/// A compiled program, ready to run any number of times.
pub struct Executor {
    steps: Vec<Step>,
    /// Per step, the end of the stretch of thread-confined steps it starts
    /// (the first step after it that is not, or the program's end): such
    /// a stretch can run on two halves of the state at once.
    stretch_end: Vec<usize>,
    /// One per step.
    gates: Vec<Gate>,
    /// The distinct texts of all steps' probes.
    probes: Vec<memchr::memmem::Finder<'static>>,
    /// Every template's text is ASCII.
    ascii_templates: bool,
    /// One per distinct pattern.
    strategies: Vec<Strategy>,
    config: Config,
    /// The program compiled, for the listing `Debug` writes.
    program: Program,
}

/// The program's listing (as `Program`'s `Display` writes it), each rewrite
/// followed by how this executor runs it: the engine and fast path it
/// chose and where the analysis put its matches.
impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Executor: {} rewrites, {} compiled patterns, {:?}",
            self.steps.len(),
            self.strategies.len(),
            self.config
        )?;
        self.program.write_listing(f, |i| {
            let step = &self.steps[i];
            format!(
                "{}; reach {:?}",
                self.strategies[step.strategy].path(),
                step.reach
            )
        })
    }
}

impl Executor {
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Applies every rewrite once, in order, to `state`.
    ///
    /// With [`Config::parallel`], a stretch of rewrites whose matches all
    /// provably lie inside single threads runs on the two halves of a big
    /// enough state at once (see [`Executor::run_halves`]); the bytes, the
    /// changes counted and the peaks are those of the one-at-a-time loop.
    ///
    /// # Errors
    ///
    /// [`ExecError`] when the state outgrows the cap or the back-reference
    /// engine gives up; `state` then holds the state at that point.
    pub fn run(&self, state: &mut String) -> Result<Stats, ExecError> {
        self.run_until(state, &Stop::never())
    }

    /// [`Executor::run`], giving up when `stop` says so. The stop is
    /// asked between rewrites (and between the rewrites of each half of
    /// a two-halves stretch), so a run gives up within one rewrite's time
    /// of its deadline; a run that finishes is the same run `run` makes.
    ///
    /// # Errors
    ///
    /// As [`Executor::run`], and [`ExecError::Stopped`] when the stop is
    /// due before the last rewrite ran; `state` then holds the state
    /// after the rewrites that ran, which is of no use to a caller that
    /// wants the program's answer.
    pub fn run_until(&self, state: &mut String, stop: &Stop) -> Result<Stats, ExecError> {
        if self.config.naive {
            self.run_naive(state, stop)
        } else {
            self.run_fast(state, stop)
        }
    }

    fn new_stats(&self, state: &str) -> Stats {
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

    /// The plain loop: every rewrite on the whole string.
    fn run_naive(&self, state: &mut String, stop: &Stop) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let mut stats = self.new_stats(state);
        for index in 0..self.steps.len() {
            check_stop(stop, index)?;
            let t0 = Instant::now();
            let changed = match self.apply(index, state, false, 0, stop)? {
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

    fn check_size(&self, rewrite: usize, len: usize) -> Result<(), ExecError> {
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
    /// and stretches of thread-confined rewrites on big enough states run
    /// on two halves at once (see [`Executor::run_halves`]). Profiling runs
    /// every rewrite here, one at a time, so that each has its own time.
    ///
    /// (A version that held the state as one piece per thread and ran each
    /// rewrite only on the pieces it could touch, in parallel, was measured
    /// and dropped: the regex crate's own literal prefilter already jumps
    /// over paused threads, and per-piece calls cost more than they saved;
    /// see docs/experiments.md, "Executor: dropped".)
    fn run_fast(&self, state: &mut String, stop: &Stop) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let mut stats = self.new_stats(state);
        // Replacements insert template text and pieces of the state only,
        // so an ASCII state stays ASCII under ASCII templates.
        let ascii = self.ascii_templates && state.is_ascii();
        let mut found = Found::new(self.probes.len());
        // No stretch is tried again before this step after one fell back.
        let mut sequential_until = 0;
        let mut index = 0;
        while index < self.steps.len() {
            check_stop(stop, index)?;
            if self.config.parallel
                && !self.config.profile
                && index >= sequential_until
                && state.len() >= self.config.split_bytes
                && self.stretch_end[index] - index >= MIN_STRETCH
            {
                let end = self.stretch_end[index];
                if self.run_halves(index..end, state, ascii, stop, &mut stats)? {
                    found.version += 1;
                    index = end;
                    continue;
                }
                sequential_until = end;
            }
            let t0 = self.config.profile.then(Instant::now);
            let did = self.step(index, state, ascii, &mut found, stop)?;
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
    fn count(
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

    /// One rewrite on `text`, skipped when its gate says it cannot match.
    fn step(
        &self,
        index: usize,
        text: &mut String,
        ascii: bool,
        found: &mut Found,
        stop: &Stop,
    ) -> Result<Did, ExecError> {
        let Some(from) = self.first_place(self.gates[index], text, found) else {
            return Ok(Did::default());
        };
        let changed = match self.apply(index, text, ascii, from, stop)? {
            Some(next) => {
                recycle(std::mem::replace(text, next));
                found.version += 1;
                true
            }
            None => false,
        };
        Ok(Did { ran: true, changed })
    }

    /// One replace-all of step `index` on `text`; `None` when nothing
    /// matched. `ascii` says the text is ASCII, which our own matcher
    /// needs; no match starts before `from`.
    fn apply(
        &self,
        index: usize,
        text: &str,
        ascii: bool,
        from: usize,
        stop: &Stop,
    ) -> Result<Option<String>, ExecError> {
        let step = &self.steps[index];
        let at = At {
            rewrite: index,
            from,
            ascii,
            stop,
        };
        self.strategies[step.strategy].apply(&step.edit, text, at)
    }
}

/// [`ExecError::Stopped`] before rewrite `rewrite` when `stop` is due.
fn check_stop(stop: &Stop, rewrite: usize) -> Result<(), ExecError> {
    match stop.due() {
        Some(reason) => Err(ExecError::Stopped { rewrite, reason }),
        None => Ok(()),
    }
}
