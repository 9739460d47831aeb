//! The executor: runs a [`Program`] over a state string.
//!
//! It owns compilation (each distinct pattern once, on `regex` or, only for
//! back-references, `fancy-regex`, on our own matcher, [`backtrack`],
//! where that applies, or on our Python engine, `pyre`), the replace-all
//! loop, the state-size cap and the statistics. Its contract is the plain
//! loop `for (p, r) in rewrites { state = re.sub(p, r, state) }`: every
//! fast path it takes must leave exactly the bytes that loop would leave,
//! and [`Config::naive`] builds the plain loop itself (every pattern on
//! its plain strategy) so tests can compare the two. It knows the thread
//! markers of the state grammar (see `state`) only to skip work; it knows
//! nothing of instructions or chess.
//!
//! The modules, in the order a program flows through them:
//! - `reading` reads a pattern once (its parsed forms), and [`analysis`]
//!   derives every fact from that reading;
//! - `prepare` builds an [`Executor`]: each distinct pattern's `Strategy`,
//!   chosen once from its facts, each rewrite's step and gate;
//! - `strategy` holds the strategies (a type each) and runs one rewrite
//!   by its pattern's strategy, on the replace-alls of `replace` (and on
//!   [`backtrack`], our matcher; `deferred` builds a `regex` automaton when
//!   it first runs);
//! - `loops` runs the rewrites in order (the plain loop and the fast one),
//!   each one `step`, `gate` skips those that cannot match, `threads` runs stretches of
//!   rewrites that stay in their threads on the state as a table of
//!   threads (each rewrite on the threads it can match in), `halves` runs
//!   stretches of thread-confined rewrites on two halves of the state;
//! - `cache` holds what a run keeps between rewrites and runs, owned by
//!   the executor and passed explicitly to the loops.
//!
//! This file is the public surface: [`Executor`], [`Config`], [`Stats`],
//! the errors.

pub mod analysis;
pub mod backtrack;
mod cache;
mod deferred;
mod gate;
mod halves;
mod loops;
mod prepare;
pub(crate) mod reading;
mod replace;
mod step;
mod strategy;
#[cfg(test)]
mod tests;
mod threads;

use std::time::Duration;

use crate::program::Program;
use crate::ranks::ByteRanks;
use crate::stop::{Stop, StopReason};
use cache::Pool;
pub(crate) use deferred::SIZE_LIMIT as REGEX_SIZE_LIMIT;
use gate::Gate;
use halves::SPLIT_BYTES;
use prepare::Step;
use strategy::Strategy;

/// Limits and switches of one executor.
#[derive(Debug, Clone)]
pub struct Config {
    /// The run stops with [`ExecError::StateTooLarge`] as soon as the state
    /// exceeds this many bytes.
    pub max_state_bytes: usize,
    /// The plain loop, no fast path (for differential tests): every
    /// pattern on its plain strategy, chosen when the executor is built.
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
    /// Run stretches of thread-confined rewrites on the state as a table
    /// of threads, each rewrite only on the threads it can match in (see
    /// [`Executor::run`]).
    pub thread_table: bool,
    /// States shorter than this many bytes run their stretches on the
    /// whole state.
    pub table_bytes: usize,
    /// A rewrite runs on the table when the threads it would visit, each
    /// priced as this many bytes of the state, come to no more than the
    /// state's length (or [`Config::table_bytes`]); otherwise on the
    /// whole state. 0: always on the table.
    pub visit_bytes: usize,
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
            thread_table: true,
            table_bytes: threads::TABLE_BYTES,
            visit_bytes: threads::VISIT_BYTES,
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
    crate::quote::excerpt(pattern)
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
    /// Rewrites actually run by a regex engine. On the table of threads
    /// a rewrite counts as run when a thread of its kind is there, on the
    /// whole state when its gate lets it through; so this count (and
    /// `skipped`) depends on where a stretch begins, while the state's
    /// bytes and `changed` do not.
    pub executed: usize,
    /// Rewrites skipped by a fast path (provably no-ops).
    pub skipped: usize,
    /// Rewrites run on the table of threads: on the threads they can
    /// match in, not on the whole state (see [`Config::thread_table`]).
    pub on_table: usize,
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

/// A compiled program, ready to run any number of times.
pub struct Executor {
    steps: Vec<Step>,
    /// Per step, the end of the stretch of thread-confined steps it starts
    /// (the first step after it that is not, or the program's end): such
    /// a stretch can run on two halves of the state at once.
    stretch_end: Vec<usize>,
    /// Per step, the end of the stretch of steps that can run on the
    /// table of threads it starts (see `threads`).
    table_end: Vec<usize>,
    /// One per step.
    gates: Vec<Gate>,
    /// The distinct texts of all steps' probes.
    probes: Vec<memchr::memmem::Finder<'static>>,
    /// Every template's text is ASCII.
    ascii_templates: bool,
    /// One per distinct pattern.
    strategies: Vec<Strategy>,
    config: Config,
    /// The buffers and scratch space of runs that finished, for the next
    /// ones (one per run at a time).
    caches: Pool,
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
            let table = match step.on_table {
                Some(_) => "; on the table",
                None => "",
            };
            format!(
                "{}; reach {:?}{table}",
                self.strategies[step.strategy].path(),
                step.reach
            )
        })
    }
}

impl Executor {
    /// How rewrite `index`'s pattern runs, in a few words (as the
    /// listing `Debug` writes says it); `None` past the program's end.
    pub fn path(&self, index: usize) -> Option<&'static str> {
        let step = self.steps.get(index)?;
        Some(self.strategies[step.strategy].path())
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Applies every rewrite once, in order, to `state`.
    ///
    /// With [`Config::thread_table`], a stretch of rewrites whose matches
    /// provably stay inside single threads runs on the state as a table
    /// of threads, each rewrite only on the threads it can match in (see
    /// [`Executor::run_table`]); with [`Config::parallel`], such a stretch
    /// with too many threads to visit runs on the two halves of a big
    /// enough state at once (see [`Executor::run_halves`]). The bytes, the
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
        let mut cache = self.caches.take();
        let stats = if self.config.naive {
            self.run_naive(state, stop, &mut cache.pad)
        } else {
            self.run_fast(state, stop, &mut cache)
        };
        self.caches.keep(cache);
        stats
    }
}
