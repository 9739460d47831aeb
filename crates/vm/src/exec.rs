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

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use crate::analysis::{self, Reach};
use crate::backtrack::{self, Matcher};
use crate::program::{Engine, Piece, Program, Template};
use crate::replace::{
    anchored_replace_all, backtrack_replace_all, fancy_replace_all, from_place,
    literal_replace_all, recycle, Expand, Places,
};
use crate::state;

/// Limits and switches of one executor.
#[derive(Debug, Clone)]
pub struct Config {
    /// The run stops with [`ExecError::StateTooLarge`] as soon as the state
    /// exceeds this many bytes.
    pub max_state_bytes: usize,
    /// Plain loop, no fast path (for differential tests).
    pub naive: bool,
    /// Backtracking budget per `fancy-regex` search.
    pub backtrack_limit: usize,
    /// Run stretches of thread-confined rewrites on two halves of the
    /// state at once, on two cores (see [`Executor::run`]).
    pub parallel: bool,
    /// States shorter than this many bytes are not split.
    pub split_bytes: usize,
    /// Record the wall time of every rewrite in [`Stats::per_rewrite`].
    pub profile: bool,
    /// Let our own matcher (see [`backtrack`]) run the patterns it
    /// handles; off, the `regex` crate runs them, to measure what it gives.
    pub backtrack: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_state_bytes: 16 << 20,
            naive: false,
            backtrack_limit: 1_000_000,
            parallel: true,
            split_bytes: SPLIT_BYTES,
            profile: false,
            backtrack: true,
        }
    }
}

/// A pattern that failed to compile.
#[derive(Debug, thiserror::Error)]
#[error("rewrite {index}: pattern {pattern:?} does not compile: {message}")]
pub struct CompileError {
    /// Index of the first rewrite using the pattern.
    pub index: usize,
    /// The pattern.
    pub pattern: String,
    /// The engine's message.
    pub message: String,
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
    /// `fancy-regex` gave up (e.g. its backtrack limit was exceeded).
    #[error("rewrite {rewrite}: the back-reference engine failed: {message}")]
    Backtrack {
        /// Index of the rewrite.
        rewrite: usize,
        /// The engine's message.
        message: String,
    },
}

/// Time and counts for one instruction kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KindStats {
    /// Rewrites of this kind executed (not skipped).
    pub executed: usize,
    /// Wall time spent in them (the fast loop measures it only when
    /// [`Config::profile`] is on: reading the clock twice per rewrite
    /// costs a few percent of a turn).
    pub time: Duration,
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
    /// Largest number of threads seen (counted after each global rewrite).
    pub peak_threads: usize,
    /// Active threads at the end.
    pub active_threads: usize,
    /// Paused threads at the end.
    pub paused_threads: usize,
    /// Total wall time.
    pub elapsed: Duration,
    /// Per instruction name (rewrites without an origin count as `?`).
    pub per_kind: BTreeMap<String, KindStats>,
    /// Wall time of each rewrite, skipped ones included, when
    /// [`Config::profile`] is on (empty otherwise).
    pub per_rewrite: Vec<Duration>,
}

enum Compiled {
    /// A plain pattern; with its required prefix and the same pattern
    /// anchored at the start, when every match begins with a literal (see
    /// [`anchored_replace_all`]).
    Plain(regex::Regex, Option<Box<PlainFast>>),
    /// A back-reference pattern; with its required prefix and the same
    /// pattern anchored at the start, when every match begins with a
    /// literal (see [`fancy_replace_all`]).
    Fancy(
        Box<fancy_regex::Regex>,
        Option<Box<Anchored>>,
        Option<Box<Own>>,
    ),
}

/// A back-reference pattern our own matcher runs (see [`backtrack`]),
/// tried only where `prefix` occurs, on ASCII states; if it gives up,
/// fancy-regex runs the rewrite.
struct Own {
    prefix: memchr::memmem::Finder<'static>,
    matcher: Matcher,
}

/// A faster way to run a plain pattern, proven from its text.
enum PlainFast {
    /// The pattern is this literal text: `memmem` finds every match.
    Literal(memchr::memmem::Finder<'static>),
    /// Every match starts with `prefix` (a thread head): `^(?:pattern)`,
    /// tried only where the prefix occurs.
    Anchored {
        prefix: memchr::memmem::Finder<'static>,
        regex: regex::Regex,
    },
    /// Every match starts with `prefix`: our own backtracking matcher,
    /// tried only where the prefix occurs, on ASCII states (see
    /// [`backtrack`]). If it gives up, the `regex` crate runs the rewrite.
    Backtrack {
        prefix: memchr::memmem::Finder<'static>,
        matcher: Matcher,
    },
}

/// A back-reference pattern every match of which starts with `prefix`:
/// `^(?:pattern)`, tried only where the prefix occurs.
struct Anchored {
    prefix: memchr::memmem::Finder<'static>,
    regex: fancy_regex::Regex,
}

struct Step {
    compiled: usize,
    template: Template,
    /// The replacement when it has no group reference.
    literal: Option<String>,
    /// Where matches can lie, proven from the pattern.
    reach: Reach,
    /// A literal every match contains past its start, when matches stay
    /// in one piece: places whose piece lacks it are passed over (see
    /// [`replace_at_prefixes`]).
    skip: Option<memchr::memmem::Finder<'static>>,
    /// Index into the executor's kind names.
    kind: usize,
    /// The replacement can add a thread (a fork): it writes two thread
    /// heads, or one not at its start, or copies a group that can hold one.
    /// Others leave the count as it was or lower it.
    adds_threads: bool,
}

/// What a rewrite needs in the state to do anything, kept apart from the
/// rest of its step so that the loop over skipped rewrites reads a small,
/// dense array.
#[derive(Clone, Copy)]
struct Gate {
    /// Texts every match needs in the state (a thread head of its kind,
    /// the text it starts with, a literal it contains), as indexes into
    /// the executor's probes, `NO_PROBE` for none: the rewrite is skipped
    /// when one is absent.
    probes: [usize; 3],
    /// The probe of a text every match starts with, or `NO_PROBE`: no
    /// match starts before its first occurrence.
    lead: usize,
}

/// An empty slot of a [`Gate`].
const NO_PROBE: usize = usize::MAX;

/// What [`Executor::step`] did.
#[derive(Debug, Default, Clone, Copy)]
struct Did {
    /// The gate let the rewrite run.
    ran: bool,
    /// It changed the text.
    changed: bool,
}

/// One half of the state after a stretch (see [`Executor::run_halves`]).
struct Half {
    text: String,
    /// Per rewrite of the stretch.
    record: Vec<HalfStep>,
}

/// What one rewrite did to one half.
struct HalfStep {
    ran: bool,
    changed: bool,
    /// The half's length after it.
    len: usize,
    /// The half's threads after it, for a rewrite that can add threads.
    heads: usize,
}

/// The answers of the probes on one run's states.
struct Found {
    /// The state's version: one more after each change.
    version: u64,
    /// Per probe: the version it was last asked on, and its answer then
    /// (where it first occurs).
    answers: Vec<(u64, Option<usize>)>,
}

impl Found {
    fn new(probes: usize) -> Found {
        Found {
            version: 1,
            answers: vec![(0, None); probes],
        }
    }
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
    compiled: Vec<Compiled>,
    kinds: Vec<String>,
    config: Config,
}

impl Executor {
    /// Compiles every distinct pattern of `program` once.
    ///
    /// # Errors
    ///
    /// [`CompileError`] naming the first rewrite whose pattern does not
    /// compile.
    pub fn new(program: &Program, config: Config) -> Result<Executor, CompileError> {
        // Distinct patterns first, in order of first use, compiled on all
        // cores; the first failure (by rewrite index) is the error.
        // A pattern that is one group around everything is compiled
        // without it (see `whole_match_group`), outside the plain loop.
        let mut by_pattern: HashMap<(&str, Engine), usize> = HashMap::new();
        let mut distinct: Vec<(usize, &str, Engine, Option<&str>)> = Vec::new();
        for (index, r) in program.rewrites().iter().enumerate() {
            by_pattern
                .entry((r.pattern.as_str(), r.engine))
                .or_insert_with(|| {
                    let stripped = match r.engine {
                        Engine::Plain if !config.naive => analysis::whole_match_group(&r.pattern),
                        _ => None,
                    };
                    distinct.push((index, r.pattern.as_str(), r.engine, stripped));
                    distinct.len() - 1
                });
        }
        let compiled: Vec<Compiled> = {
            use rayon::prelude::*;
            let results: Vec<Result<Compiled, CompileError>> = distinct
                .par_iter()
                .map(|&(index, pattern, engine, stripped)| {
                    let source = stripped.unwrap_or(pattern);
                    compile(source, engine, &config).map_err(|message| CompileError {
                        index,
                        pattern: pattern.to_string(),
                        message,
                    })
                })
                .collect();
            results.into_iter().collect::<Result<_, _>>()?
        };
        let mut kind_ids: HashMap<String, usize> = HashMap::new();
        let mut analyses: HashMap<&str, analysis::Analysis> = HashMap::new();
        let mut percent_groups: HashMap<&str, Option<Vec<bool>>> = HashMap::new();
        let mut kinds = Vec::new();
        let mut steps = Vec::with_capacity(program.len());
        let mut gates = Vec::with_capacity(program.len());
        let mut looks = Vec::with_capacity(program.len());
        let mut probe_ids: HashMap<String, usize> = HashMap::new();
        let mut probes = Vec::new();
        let mut probe = |text: String| {
            *probe_ids.entry(text).or_insert_with_key(|t| {
                probes.push(state::finder(t.as_bytes()));
                probes.len() - 1
            })
        };
        for r in program.rewrites() {
            let id = by_pattern[&(r.pattern.as_str(), r.engine)];
            let literal = if !r.replacement.has_groups() {
                Some(
                    r.replacement
                        .pieces()
                        .iter()
                        .map(|p| match p {
                            Piece::Literal(s) => s.as_str(),
                            Piece::Group(_) => "",
                        })
                        .collect(),
                )
            } else {
                None
            };
            let name = r
                .origin
                .as_ref()
                .map_or_else(|| "?".to_string(), |o| o.name.clone());
            let kind = *kind_ids.entry(name.clone()).or_insert_with(|| {
                kinds.push(name);
                kinds.len() - 1
            });
            let analysis = analyses
                .entry(r.pattern.as_str())
                .or_insert_with(|| analysis::analyse(&r.pattern))
                .clone();
            looks.push(analysis.looks);
            let stripped = distinct[id].3;
            let template = match stripped {
                Some(_) => group_one_as_whole_match(&r.replacement),
                None => r.replacement.clone(),
            };
            // Texts every match starts with: its thread head, and its
            // literal prefix (the longer).
            let head = match &analysis.reach {
                Reach::Active => Some("%%".to_string()),
                Reach::Marked => Some("%`".to_string()),
                Reach::Tagged(tag) => Some(format!("%{tag}\n")),
                Reach::Global | Reach::AnyPiece => None,
            };
            let required = Some(analysis::required_prefix(stripped.unwrap_or(&r.pattern)))
                .filter(|t| !t.is_empty());
            let mut probes = [NO_PROBE; 3];
            for (slot, text) in probes
                .iter_mut()
                .zip([&head, &required, &analysis.needle].into_iter().flatten())
            {
                *slot = probe(text.clone());
            }
            gates.push(Gate {
                probes,
                lead: required
                    .as_ref()
                    .or(head.as_ref())
                    .filter(|_| !analysis.looks)
                    .map_or(NO_PROBE, |t| probe(t.clone())),
            });
            steps.push(Step {
                compiled: id,
                template,
                literal,
                skip: analysis
                    .needle
                    .as_deref()
                    .filter(|n| {
                        !analysis.needle_leads
                            && analysis.reach != Reach::Global
                            && !n.contains('%')
                    })
                    .map(|n| state::finder(n.as_bytes())),
                reach: analysis.reach.clone(),
                kind,
                adds_threads: adds_threads(
                    percent_groups
                        .entry(r.pattern.as_str())
                        .or_insert_with(|| analysis::groups_with_percent(&r.pattern)),
                    &r.replacement,
                    &analysis.reach,
                ),
            });
        }
        let ascii_templates = program.rewrites().iter().all(|r| {
            r.replacement.pieces().iter().all(|p| {
                matches!(p, Piece::Literal(s) if s.is_ascii()) || matches!(p, Piece::Group(_))
            })
        });
        // A step is thread-confined when its matches provably lie inside
        // one piece and nothing before a place changes what matches there.
        let mut stretch_end = vec![steps.len(); steps.len()];
        for i in (0..steps.len()).rev() {
            let confined = steps[i].reach != Reach::Global && !looks[i];
            stretch_end[i] = match (confined, stretch_end.get(i + 1)) {
                (false, _) => i,
                (true, Some(&end)) => end,
                (true, None) => steps.len(),
            };
        }
        Ok(Executor {
            stretch_end,
            steps,
            gates,
            probes,
            ascii_templates,
            compiled,
            kinds,
            config,
        })
    }

    /// Number of distinct compiled patterns.
    pub fn compiled_patterns(&self) -> usize {
        self.compiled.len()
    }

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
        if self.config.naive {
            self.run_naive(state)
        } else {
            self.run_fast(state)
        }
    }

    fn new_stats(&self, state: &str) -> (Stats, Vec<KindStats>) {
        (
            Stats {
                rewrites: self.steps.len(),
                peak_state_bytes: state.len(),
                peak_threads: state::count_threads(state).total(),
                ..Stats::default()
            },
            vec![KindStats::default(); self.kinds.len()],
        )
    }

    fn finish(
        &self,
        mut stats: Stats,
        kinds: Vec<KindStats>,
        state: &str,
        start: Instant,
    ) -> Stats {
        let counts = state::count_threads(state);
        stats.active_threads = counts.active;
        stats.paused_threads = counts.paused;
        stats.elapsed = start.elapsed();
        for (name, k) in self.kinds.iter().zip(kinds) {
            if k.executed > 0 {
                stats.per_kind.insert(name.clone(), k);
            }
        }
        stats
    }

    /// The plain loop: every rewrite on the whole string.
    fn run_naive(&self, state: &mut String) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let (mut stats, mut kinds) = self.new_stats(state);
        for (index, step) in self.steps.iter().enumerate() {
            let t0 = Instant::now();
            let changed = match self.apply(index, step, state, false, 0)? {
                Some(next) => {
                    *state = next;
                    true
                }
                None => false,
            };
            kinds[step.kind].executed += 1;
            kinds[step.kind].time += t0.elapsed();
            if self.config.profile {
                stats.per_rewrite.push(t0.elapsed());
            }
            stats.executed += 1;
            if changed {
                stats.changed += 1;
                stats.peak_state_bytes = stats.peak_state_bytes.max(state.len());
                stats.peak_threads = stats.peak_threads.max(state::count_threads(state).total());
                self.check_size(index, state.len())?;
            }
        }
        Ok(self.finish(stats, kinds, state, start))
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
    /// see the README's performance notes.)
    fn run_fast(&self, state: &mut String) -> Result<Stats, ExecError> {
        let start = Instant::now();
        let (mut stats, mut kinds) = self.new_stats(state);
        // Replacements insert template text and pieces of the state only,
        // so an ASCII state stays ASCII under ASCII templates.
        let ascii = self.ascii_templates && state.is_ascii();
        let mut found = Found::new(self.probes.len());
        // No stretch is tried again before this step after one fell back.
        let mut sequential_until = 0;
        let mut index = 0;
        while index < self.steps.len() {
            if self.config.parallel
                && !self.config.profile
                && index >= sequential_until
                && state.len() >= self.config.split_bytes
                && self.stretch_end[index] - index >= MIN_STRETCH
            {
                let end = self.stretch_end[index];
                if self.run_halves(index..end, state, ascii, &mut stats, &mut kinds)? {
                    found.version += 1;
                    index = end;
                    continue;
                }
                sequential_until = end;
            }
            let step = &self.steps[index];
            let t0 = self.config.profile.then(Instant::now);
            let did = self.step(index, state, ascii, &mut found)?;
            if self.config.profile {
                let spent = t0.map_or(Duration::ZERO, |t| t.elapsed());
                stats.per_rewrite.push(spent);
                if did.ran {
                    kinds[step.kind].time += spent;
                }
            }
            self.count(
                index,
                did,
                state.len(),
                || state::count_heads(state),
                &mut stats,
                &mut kinds,
            );
            if did.changed {
                self.check_size(index, state.len())?;
            }
            index += 1;
        }
        Ok(self.finish(stats, kinds, state, start))
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
        kinds: &mut [KindStats],
    ) {
        let step = &self.steps[index];
        if did.ran {
            stats.executed += 1;
            kinds[step.kind].executed += 1;
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
    ) -> Result<Did, ExecError> {
        let Some(from) = self.first_place(self.gates[index], text, found) else {
            return Ok(Did::default());
        };
        let changed = match self.apply(index, &self.steps[index], text, ascii, from)? {
            Some(next) => {
                recycle(std::mem::replace(text, next));
                found.version += 1;
                true
            }
            None => false,
        };
        Ok(Did { ran: true, changed })
    }

    /// Runs the stretch `steps` of thread-confined rewrites on the two
    /// halves of the state, cut at a thread start, on two cores. Exact: a
    /// rewrite whose matches lie inside single pieces gives the same bytes
    /// on the halves as on the whole, as long as the second half still
    /// starts with a thread head, which is checked after each change.
    /// Changes and peaks are counted as on the whole state (its length and
    /// threads after a rewrite are the sums of the halves'); a rewrite
    /// counts as run when it ran on either half. Returns
    /// `false`, with the state untouched, when the halves could not show
    /// that (a half lost its head, an engine failed, the state outgrew
    /// its cap): the caller then runs the stretch one rewrite at a time.
    fn run_halves(
        &self,
        steps: std::ops::Range<usize>,
        state: &mut String,
        ascii: bool,
        stats: &mut Stats,
        kinds: &mut [KindStats],
    ) -> Result<bool, ExecError> {
        let Some(cut) = middle_thread_start(state) else {
            return Ok(false);
        };
        let (a, b) = (state[..cut].to_string(), state[cut..].to_string());
        let (a, b) = rayon::join(
            || self.run_half(steps.clone(), a, ascii, false),
            || self.run_half(steps.clone(), b, ascii, true),
        );
        let (Some(a), Some(b)) = (a, b) else {
            return Ok(false);
        };
        // The whole state's figures after each rewrite are the sums of
        // the halves'. Over the cap, the one-at-a-time loop reports the
        // exact error and the state at that point.
        let steps_done = a.record.iter().zip(&b.record);
        if steps_done
            .clone()
            .any(|(x, y)| x.len + y.len > self.config.max_state_bytes)
        {
            return Ok(false);
        }
        for (k, (x, y)) in steps_done.enumerate() {
            let did = Did {
                ran: x.ran || y.ran,
                changed: x.changed || y.changed,
            };
            self.count(
                steps.start + k,
                did,
                x.len + y.len,
                || x.heads + y.heads,
                stats,
                kinds,
            );
        }
        state.clear();
        state.push_str(&a.text);
        state.push_str(&b.text);
        Ok(true)
    }

    /// One half of [`Executor::run_halves`]; `None` when it cannot vouch
    /// for its result (`keeps_head`: the text must stay empty or start
    /// with a thread head).
    fn run_half(
        &self,
        steps: std::ops::Range<usize>,
        mut text: String,
        ascii: bool,
        keeps_head: bool,
    ) -> Option<Half> {
        let mut found = Found::new(self.probes.len());
        let mut record = Vec::with_capacity(steps.len());
        // Threads in `text`, counted when a thread-adding rewrite asks
        // and the text changed since the last count.
        let mut counted = None;
        for index in steps {
            let did = self.step(index, &mut text, ascii, &mut found).ok()?;
            if did.changed {
                counted = None;
                if keeps_head && !text.is_empty() && !text.starts_with('%') {
                    return None;
                }
                if text.len() > self.config.max_state_bytes {
                    return None;
                }
            }
            let heads = if self.steps[index].adds_threads {
                *counted.get_or_insert_with(|| state::count_heads(&text))
            } else {
                0
            };
            record.push(HalfStep {
                ran: did.ran,
                changed: did.changed,
                len: text.len(),
                heads,
            });
        }
        Some(Half { text, record })
    }

    /// Where the first match can start at the earliest; `None` when the
    /// rewrite cannot match: no thread of the kind its pattern starts with,
    /// or a literal every match starts with or contains is absent. `found`
    /// remembers each probe's answer on this state.
    fn first_place(&self, gate: Gate, state: &str, found: &mut Found) -> Option<usize> {
        let mut first = |id: usize| {
            let (version, at) = &mut found.answers[id];
            if *version != found.version {
                *version = found.version;
                *at = self.probes[id].find(state.as_bytes());
            }
            *at
        };
        for id in gate.probes {
            if id != NO_PROBE {
                first(id)?;
            }
        }
        Some(match gate.lead {
            NO_PROBE => 0,
            id => first(id).unwrap_or(0),
        })
    }

    /// One replace-all on `text`; `None` when nothing matched. `ascii`
    /// says the text is ASCII, which our own matcher needs; no match
    /// starts before `from`.
    fn apply(
        &self,
        index: usize,
        step: &Step,
        text: &str,
        ascii: bool,
        from: usize,
    ) -> Result<Option<String>, ExecError> {
        let places = |prefix| Places {
            prefix,
            skip: step.skip.as_ref(),
            from,
        };
        let next = match &self.compiled[step.compiled] {
            Compiled::Plain(re, fast) => {
                let by_regex = || {
                    from_place(text, from, |rest| match &step.literal {
                        Some(lit) => re.replace_all(rest, regex::NoExpand(lit)),
                        None => re.replace_all(rest, Expand(&step.template)),
                    })
                };
                match (
                    fast.as_deref().filter(|_| !self.config.naive),
                    &step.literal,
                ) {
                    (Some(PlainFast::Literal(finder)), _) => {
                        literal_replace_all(finder, text, &step.template, from)
                    }
                    (Some(PlainFast::Anchored { prefix, regex }), literal) => anchored_replace_all(
                        places(prefix),
                        regex,
                        text,
                        literal.as_deref(),
                        &step.template,
                    ),
                    (Some(PlainFast::Backtrack { prefix, matcher }), _) if ascii => {
                        backtrack_replace_all(places(prefix), matcher, text, &step.template)
                            .unwrap_or_else(|backtrack::GaveUp| by_regex())
                    }
                    _ => by_regex(),
                }
            }
            Compiled::Fancy(re, anchored, own) => {
                if let Some(own) = own.as_deref().filter(|_| ascii && !self.config.naive) {
                    if let Ok(next) = backtrack_replace_all(
                        places(&own.prefix),
                        &own.matcher,
                        text,
                        &step.template,
                    ) {
                        return Ok(match next {
                            Cow::Borrowed(_) => None,
                            Cow::Owned(s) => Some(s),
                        });
                    }
                }
                let anchored = anchored.as_deref().filter(|_| !self.config.naive);
                let anchored = anchored.map(|a| (&a.regex, places(&a.prefix)));
                fancy_replace_all(re, anchored, text, &step.template, from).map_err(|e| {
                    ExecError::Backtrack {
                        rewrite: index,
                        message: e.to_string(),
                    }
                })?
            }
        };
        Ok(match next {
            Cow::Borrowed(_) => None,
            Cow::Owned(s) => Some(s),
        })
    }
}

fn compile(pattern: &str, engine: Engine, config: &Config) -> Result<Compiled, String> {
    match engine {
        Engine::Plain => {
            let build = |p: &str| {
                regex::RegexBuilder::new(p)
                    .size_limit(64 << 20)
                    .build()
                    .map_err(|e| e.to_string())
            };
            let re = build(pattern)?;
            let prefix = analysis::required_prefix(pattern);
            let fast = if pattern.starts_with('^') || crate::portable::check(pattern).is_err() {
                None
            } else if let Some(text) = analysis::literal_text(pattern) {
                Some(Box::new(PlainFast::Literal(crate::state::finder(
                    text.as_bytes(),
                ))))
            } else if let Some((matcher, start)) = config
                .backtrack
                .then(|| Matcher::new(pattern))
                .flatten()
                .map(|m| {
                    let start = m.prefix();
                    (m, start)
                })
                .filter(|(_, start)| {
                    start.len() >= BACKTRACK_PREFIX || start.first() == Some(&b'`')
                })
            {
                Some(Box::new(PlainFast::Backtrack {
                    prefix: crate::state::finder(&start),
                    matcher,
                }))
            } else if prefix.starts_with('%') && prefix.len() >= 2 {
                Some(Box::new(PlainFast::Anchored {
                    prefix: crate::state::finder(prefix.as_bytes()),
                    regex: build(&format!("^(?:{pattern})"))?,
                }))
            } else {
                None
            };
            Ok(Compiled::Plain(re, fast))
        }
        Engine::Backref => {
            let build = |p: &str| {
                fancy_regex::RegexBuilder::new(p)
                    .backtrack_limit(config.backtrack_limit)
                    .build()
                    .map_err(|e| e.to_string())
            };
            let re = build(pattern)?;
            let prefix = analysis::required_prefix(pattern);
            // Anchored at a place, a pattern must not look at the text
            // before it: only portable patterns are run that way.
            let portable = !pattern.starts_with('^') && crate::portable::check(pattern).is_ok();
            let anchored = if prefix.is_empty() || !portable {
                None
            } else {
                Some(Box::new(Anchored {
                    prefix: crate::state::finder(prefix.as_bytes()),
                    regex: build(&format!("^(?:{pattern})"))?,
                }))
            };
            let own = config
                .backtrack
                .then_some(())
                .filter(|()| portable)
                .and_then(|()| Matcher::new(pattern))
                .and_then(|matcher| {
                    let start = matcher.prefix();
                    (start.len() >= BACKTRACK_PREFIX || start.first() == Some(&b'`')).then(|| {
                        Box::new(Own {
                            prefix: crate::state::finder(&start),
                            matcher,
                        })
                    })
                });
            Ok(Compiled::Fancy(Box::new(re), anchored, own))
        }
    }
}

/// Whether a rewrite can raise the thread count (see [`Step::adds_threads`]):
/// one head written at the start of the replacement only replaces the head
/// every match starts with, when the pattern starts with one.
/// `groups` is [`analysis::groups_with_percent`] of the pattern.
fn adds_threads(groups: &Option<Vec<bool>>, template: &Template, reach: &Reach) -> bool {
    let Some(groups) = groups else {
        return true;
    };
    let mut heads = 0;
    for (i, piece) in template.pieces().iter().enumerate() {
        match piece {
            Piece::Literal(s) => {
                let b = s.as_bytes();
                for j in (0..b.len()).filter(|&j| b[j] == b'%' && (j == 0 || b[j - 1] != b'%')) {
                    if i > 0 || j > 0 {
                        return true;
                    }
                    heads += 1;
                }
            }
            Piece::Group(n) => {
                if groups.get(*n).copied().unwrap_or(true) {
                    return true;
                }
            }
        }
    }
    heads > 1 || (heads == 1 && matches!(reach, Reach::Global | Reach::AnyPiece))
}

/// The template with group 1 read as the whole match (see
/// [`analysis::whole_match_group`]).
fn group_one_as_whole_match(template: &Template) -> Template {
    template
        .pieces()
        .iter()
        .fold(Template::new(), |t, p| match p {
            Piece::Literal(s) => t.text(s),
            Piece::Group(1) => t.group(0),
            Piece::Group(n) => t.group(*n),
        })
}

/// By default, states at least this long run stretches of thread-confined
/// rewrites as two halves on two cores (see [`Executor::run_halves`]).
/// Measured on the bench suite: 4 to 8 KiB best, 48 KiB a fifth slower,
/// 2 KiB slower again (each half pays every rewrite's fixed costs).
const SPLIT_BYTES: usize = 8 << 10;

/// Stretches shorter than this many rewrites run one rewrite at a time.
const MIN_STRETCH: usize = 8;

/// Our own matcher runs a pattern only when every match starts with a
/// literal at least this long (one rare byte, `` ` ``, measured no
/// better).
const BACKTRACK_PREFIX: usize = 2;

/// A thread start near the middle of the state (a `%` not preceded by
/// `%`), if there is one past the first byte.
fn middle_thread_start(state: &str) -> Option<usize> {
    let b = state.as_bytes();
    let mid = b.len() / 2;
    memchr::memchr_iter(b'%', &b[mid..])
        .map(|i| mid + i)
        .find(|&i| i > 0 && b[i - 1] != b'%')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Rewrite;

    fn run(program: &Program, state: &str, naive: bool) -> String {
        let exec = Executor::new(
            program,
            Config {
                naive,
                ..Config::default()
            },
        )
        .unwrap();
        let mut s = state.to_string();
        exec.run(&mut s).unwrap();
        s
    }

    #[test]
    fn applies_rewrites_in_order_with_replace_all() {
        let p = Program::new(vec![
            Rewrite::new("a", Template::literal("b")),
            Rewrite::new("(b)(b)", Template::new().group(2).text("c").group(1)),
            Rewrite::new(r"(c)\1*", Template::literal("<").group(1).text(">")),
        ]);
        // a->b: "bbbxb"; (b)(b)->"bcb": "bcbbxb"; (c)\1* -> "<c>".
        assert_eq!(run(&p, "aaaxa", false), "b<c>bbxb");
        assert_eq!(run(&p, "aaaxa", false), run(&p, "aaaxa", true));
    }

    #[test]
    fn a_group_around_the_whole_pattern_is_the_whole_match() {
        use analysis::whole_match_group;
        assert_eq!(whole_match_group(r"(a[)]b\))"), Some(r"a[)]b\)"));
        assert_eq!(whole_match_group(r"(%%\n[^%]*)"), Some(r"%%\n[^%]*"));
        // A class that starts with `]` holds the `)(`.
        assert_eq!(whole_match_group(r"([])(])"), Some(r"[])(]"));
        for p in [
            r"(a)(b)", r"(a)|(b)", r"(a(b))", r"(?:ab)", r"a(b)", r"(a)b",
        ] {
            assert_eq!(whole_match_group(p), None, "{p}");
        }
        let p = Program::new(vec![Rewrite::new(
            r"(x+)",
            Template::literal("<").group(1).text(">"),
        )]);
        assert_eq!(run(&p, "axxbx", false), "a<xx>b<x>");
        assert_eq!(run(&p, "axxbx", true), "a<xx>b<x>");
    }

    #[test]
    fn back_references_tried_only_where_the_prefix_is() {
        let p = Program::new(vec![Rewrite::new(
            r"%%\n#stack:\n([^#%\n]*)\n\1\n",
            Template::literal("%%\n#stack:\nT\n"),
        )]);
        let state = "x\n%%\n#stack:\nab\nab\n#v:1\n%%\n#stack:\nab\nabc\n\
                     %%\n#stack:\n\n\n%t\n#stack:\nq\nq\n%%\n#stack:\nq\nq\n";
        let fast = run(&p, state, false);
        assert_eq!(fast, run(&p, state, true));
        assert_eq!(
            fast,
            "x\n%%\n#stack:\nT\n#v:1\n%%\n#stack:\nab\nabc\n\
             %%\n#stack:\nT\n%t\n#stack:\nq\nq\n%%\n#stack:\nT\n"
        );
    }

    #[test]
    fn state_cap_is_a_typed_error() {
        let p = Program::new(vec![
            Rewrite::new("x", Template::literal("xxxxxxxx")),
            Rewrite::new("x", Template::literal("xxxxxxxx")),
        ]);
        let exec = Executor::new(
            &p,
            Config {
                max_state_bytes: 20,
                ..Config::default()
            },
        )
        .unwrap();
        let mut s = "xx".to_string();
        match exec.run(&mut s) {
            Err(ExecError::StateTooLarge {
                rewrite,
                len,
                limit,
            }) => {
                assert_eq!((rewrite, len, limit), (1, 128, 20));
            }
            other => panic!("expected StateTooLarge, got {other:?}"),
        }
    }

    /// An executor that splits every state of a few bytes or more.
    fn splitting(program: &Program, max_state_bytes: usize) -> Executor {
        Executor::new(
            program,
            Config {
                split_bytes: 16,
                max_state_bytes,
                ..Config::default()
            },
        )
        .unwrap()
    }

    /// A state of `n` active threads, each holding `#a:1`.
    fn threads(n: usize) -> String {
        "screen\n".to_string() + &"%%\n#stack:\n#a:1\n".repeat(n)
    }

    /// Runs the whole program of `exec` as one stretch on two halves.
    fn halves(exec: &Executor, state: &mut String) -> (bool, Stats) {
        let (mut stats, mut kinds) = exec.new_stats(state);
        let ascii = state.is_ascii();
        let ran = exec
            .run_halves(0..exec.steps.len(), state, ascii, &mut stats, &mut kinds)
            .unwrap();
        (ran, stats)
    }

    #[test]
    fn halves_give_the_bytes_of_the_whole() {
        // Forks, edits and deletions, all inside one thread each.
        let mut rewrites = vec![
            Rewrite::new(
                r"%%\n#stack:\n([^%]*)",
                Template::literal("%%\n#stack:\n")
                    .group(1)
                    .text("%%\n#stack:\n")
                    .group(1),
            ),
            Rewrite::new(r"#a:1\n", Template::literal("#a:2\n")),
        ];
        for i in 0..MIN_STRETCH {
            rewrites.push(Rewrite::new(
                format!("#a:{}\n", i + 2),
                Template::literal(&format!("#a:{}\n#b:{i}\n", i + 3)),
            ));
        }
        rewrites.push(Rewrite::new(r"%%\n#stack:\n#a:5\n[^%]*", Template::new()));
        let p = Program::new(rewrites);
        let exec = splitting(&p, 1 << 20);
        assert_eq!(exec.stretch_end[0], p.len(), "one stretch");
        let mut whole = threads(40);
        let mut split = whole.clone();
        let sw = Executor::new(
            &p,
            Config {
                naive: true,
                ..Config::default()
            },
        )
        .unwrap()
        .run(&mut whole)
        .unwrap();
        let (ran, sh) = halves(&exec, &mut split);
        assert!(ran, "the stretch ran on two halves");
        assert_eq!(split, whole);
        assert_eq!(
            (sh.changed, sh.peak_state_bytes, sh.peak_threads),
            (sw.changed, sw.peak_state_bytes, sw.peak_threads)
        );
    }

    #[test]
    fn a_half_that_loses_its_head_falls_back_to_the_whole() {
        // The first rewrite turns every thread head into plain text: the
        // second half no longer starts a thread, and the next rewrites
        // pair lines across the cut (13 threads before it, 12 after).
        let mut rewrites = vec![Rewrite::new(
            r"%%\n#stack:\n#a:1\n",
            Template::literal("#a:1\n"),
        )];
        for _ in 0..MIN_STRETCH {
            rewrites.push(Rewrite::new(r"#a:1\n#a:1\n", Template::literal("#a:2\n")));
        }
        let p = Program::new(rewrites);
        let exec = splitting(&p, 1 << 20);
        let mut split = threads(25);
        let (ran, _) = halves(&exec, &mut split);
        assert!(!ran, "the halves could not vouch for the result");
        assert_eq!(split, threads(25), "and left the state as it was");
        let mut state = threads(25);
        exec.run(&mut state).unwrap();
        assert_eq!(state, run(&p, &threads(25), true));
    }

    #[test]
    fn a_stretch_over_the_cap_stops_where_the_whole_would() {
        let mut rewrites = Vec::new();
        for _ in 0..MIN_STRETCH {
            rewrites.push(Rewrite::new(
                r"%%\n#stack:\n([^%]*)",
                Template::literal("%%\n#stack:\n")
                    .group(1)
                    .text("%%\n#stack:\n")
                    .group(1),
            ));
        }
        let p = Program::new(rewrites);
        let cap = 3000;
        let (mut a, mut b) = (threads(8), threads(8));
        let whole = Executor::new(
            &p,
            Config {
                parallel: false,
                max_state_bytes: cap,
                ..Config::default()
            },
        )
        .unwrap()
        .run(&mut a);
        let halves = splitting(&p, cap).run(&mut b);
        let rewrite = |r: Result<Stats, ExecError>| match r {
            Err(ExecError::StateTooLarge { rewrite, .. }) => rewrite,
            other => panic!("expected StateTooLarge, got {other:?}"),
        };
        assert_eq!(rewrite(halves), rewrite(whole));
        assert_eq!(b, a);
    }

    #[test]
    fn bad_pattern_is_a_compile_error() {
        let p = Program::new(vec![
            Rewrite::new("a", Template::new()),
            Rewrite::new("(", Template::new()),
        ]);
        let err = Executor::new(&p, Config::default()).err().unwrap();
        assert_eq!(err.index, 1);
    }

    #[test]
    fn backtrack_limit_is_a_typed_error() {
        let p = Program::new(vec![Rewrite::new(r"(a*)*\1b", Template::new())]);
        let exec = Executor::new(
            &p,
            Config {
                backtrack_limit: 1000,
                ..Config::default()
            },
        )
        .unwrap();
        // The `b` every match needs is present, so the search really runs.
        let mut s = "a".repeat(40) + "cb";
        assert!(matches!(
            exec.run(&mut s),
            Err(ExecError::Backtrack { rewrite: 0, .. })
        ));
    }
}
