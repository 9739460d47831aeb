//! Iterative deepening over the regex programs: the search that stops on
//! time.
//!
//! A move is thought about rung by rung up a [`LADDER`] of search depths,
//! each rung a whole run of that depth's program (the reply program for
//! [`crate::think`], the turn program for [`crate::play_turn_within`]).
//! The first rung always runs to its end, so there is always an answer;
//! each deeper rung runs only if the [`Budget`] expects it to fit
//! ([`Budget::worth_starting`], from the last rung's time and
//! [`growth`]), and gives up when the move's limit passes or its flag is
//! raised (the executor's [`Stop`], asked between rewrites). A rung after
//! the first whose program is not built yet ([`Limits::built`]: a front
//! end that builds its programs while the clock runs) is skipped, as one
//! not expected to fit is not started, and the climb goes on to the next
//! one. The answer is the deepest rung that finished: never a run that
//! was cut short.
//!
//! This module owns the ladder, the order of the rungs and when to stop
//! climbing; it must not look inside a rung's run (what a program computes
//! is `search`'s and `turn`'s) nor decide a move's time (`clock` does).
//!
//! What a shallower rung gives a deeper one is its answer, as the deeper
//! root's probe hint (`search::hint`, given by [`crate::think`]): the
//! deeper root searches that move beside the one its 2-ply look chooses,
//! and the better score drops more candidates unsearched. It never changes
//! the deeper rung's move or score, only its time. Choosing which moves a
//! deeper rung searches by a shallower rung's order, which would change
//! them, lost strength when measured (docs/strength.md, "Deeper plans,
//! measured natively": 30.8% against 52.5%). Depth 6 does choose the moves
//! it searches a ply deeper by depth 5, but inside its own program, by
//! depth 5's root cut (`deep_root`). A rung's answer also stops
//! the climb: a mate on the first move cannot be bettered, and a position
//! with one legal move needs no search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use regex_vm::{ExecError, Stats, Stop, StopReason, Time};

use crate::search::clock::Budget;
use crate::search::{UseBook, Variant};
use crate::vocabulary::{mate_at, Depth};
use crate::Error;

/// The depths deepening climbs, shallowest first. Each plays at least as
/// well as the one before it, measured (docs/strength.md);
/// depth 4, which plays worse than 3, is not on it. The last, depth 6
/// ([`TIMED_TOP`]), is climbed to only with a time limit: it costs
/// several times depth 5 and can outgrow the state cap, where the
/// limit and the cap give the answer back to depth 5.
pub const LADDER: [Depth; 4] = [Depth::MIN, Depth::exactly(3), Depth::DEFAULT, TIMED_TOP];

/// The deepest rung a search with a time limit climbs to (a clock or a
/// time a move, in every front end) when no depth is asked for; without
/// a time limit the engine plays [`Depth::DEFAULT`].
pub const TIMED_TOP: Depth = Depth::exactly(6);

/// The depth a front end searches when none is asked for: [`TIMED_TOP`]
/// with a time limit (`timed`), else [`Depth::DEFAULT`].
pub fn unasked_depth(timed: bool) -> Depth {
    if timed {
        TIMED_TOP
    } else {
        Depth::DEFAULT
    }
}

/// How many times the last rung's time a rung at `depth` is expected to
/// take. Since depth 3 has its root cut too, over `bench.epd`
/// (`bench --depth 2`, `--depth 3` and `--depth 5`, one sitting,
/// 2026-12-02): depth 3 takes 4.5-22 times depth 2 (mean 8, the most in
/// the middlegames with many captures), and depth 5 1.3-2.9 times depth 3
/// (median 2). Depth 6 (`bench --depth 6`, 2026-12-03) takes 3.3-14
/// times depth 5 (median 4.4; the most where depth 5's root cut keeps
/// many candidates). The rare long ones are stopped at the move's limit.
pub fn growth(depth: Depth) -> u32 {
    match depth.plies() {
        3 => 8,
        6 => 5,
        _ => 2,
    }
}

/// The rungs of a move whose deepest search is `top`: the ladder's depths
/// below it, then `top` (which may be off the ladder, as `--depth 4` is).
pub fn rungs_to(top: Depth) -> Vec<Depth> {
    let mut rungs: Vec<Depth> = LADDER.iter().copied().filter(|&d| d < top).collect();
    rungs.push(top);
    rungs
}

/// The rungs of a search of exactly `depth`: the ladder's first rung, so
/// that a stop finds an answer in hand, then `depth` itself.
pub fn rungs_at(depth: Depth) -> Vec<Depth> {
    if depth <= LADDER[0] {
        vec![depth]
    } else {
        vec![LADDER[0], depth]
    }
}

/// The ladder's deepest depth below `depth`: what answers when a search of
/// `depth` outgrows its state cap.
pub fn rung_below(depth: Depth) -> Option<Depth> {
    LADDER.iter().copied().filter(|&d| d < depth).max()
}

/// What bounds one move's thinking.
#[derive(Debug, Clone)]
pub struct Limits {
    /// When the move's time began (a GUI's `go` arriving): the budget is
    /// counted from here.
    pub start: Instant,
    /// The move's time, `None` for no time limit.
    pub budget: Option<Budget>,
    /// Raised by another thread to stop at once (UCI's `stop`).
    pub flag: Option<Arc<AtomicBool>>,
    /// The rungs, shallowest first (see [`rungs_to`]).
    pub rungs: Vec<Depth>,
    /// Whether the program of a rung is built. A rung after the first
    /// whose program is not is skipped rather than waited for (see
    /// [`Climb::skipped`]); the first is always run, its program built or
    /// waited for on first use. [`every_program`] by default.
    pub built: fn(Depth) -> bool,
    /// Where the move's time is read (the system's clock; in tests, a
    /// clock that moves only when read: see [`Time`]).
    pub time: Time,
    /// Whether each rung's program answers from the book first
    /// (`chess::book`); off by default.
    pub book: UseBook,
    /// Late-move pruning in each rung's program, keeping that many
    /// best-looking candidates (`search::late`); off (`None`) by default.
    pub late: Option<u32>,
}

/// Every rung's program counts as built: each is built on first use, and
/// a rung waits for its own (the default of [`Limits::built`]).
pub fn every_program(_: Depth) -> bool {
    true
}

impl Limits {
    /// Climbing to `top` with no time limit and no flag, from now.
    pub fn to_depth(top: Depth) -> Limits {
        Limits {
            start: Instant::now(),
            budget: None,
            flag: None,
            rungs: rungs_to(top),
            built: every_program,
            time: Time::System,
            book: UseBook::Off,
            late: None,
        }
    }

    /// The programs the rungs run: the book's stage and late-move pruning
    /// as these limits say.
    pub fn variant(&self) -> Variant {
        Variant {
            book: self.book,
            late: self.late,
        }
    }

    /// Climbing to [`TIMED_TOP`] within `budget`, from now.
    pub fn within(budget: Budget) -> Limits {
        Limits {
            budget: Some(budget),
            ..Limits::to_depth(TIMED_TOP)
        }
    }

    /// Time since [`Limits::start`], read from [`Limits::time`].
    pub fn elapsed(&self) -> Duration {
        self.time.now().saturating_duration_since(self.start)
    }

    /// The stop of a rung after the first: the flag and the move's limit.
    fn stop(&self) -> Stop {
        let stop = match &self.flag {
            Some(flag) => Stop::on_flag(Arc::clone(flag)),
            None => Stop::never(),
        };
        let stop = stop.with_time(self.time.clone());
        match self.budget {
            Some(b) => stop.with_deadline(self.start + b.limit),
            None => stop,
        }
    }

    fn flag_raised(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// One rung that finished.
#[derive(Debug, Clone)]
pub struct Rung<T> {
    /// Its depth.
    pub depth: Depth,
    /// What it answered.
    pub answer: T,
    /// The VM's counts.
    pub stats: Stats,
    /// Its own run's time.
    pub took: Duration,
    /// Time from the move's start to its end.
    pub at: Duration,
}

/// Why the climb ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The top rung finished.
    Top,
    /// A rung's answer cannot be bettered by a deeper one (a mate on the
    /// first move, a single legal move).
    Settled,
    /// The rung at `depth` was stopped (its deadline or its flag), or not
    /// started because the flag was raised.
    Stopped {
        /// The rung that did not finish.
        depth: Depth,
        /// Why.
        reason: StopReason,
    },
    /// The rung at `depth` was not started: expected to take `expected`,
    /// it would not fit the budget.
    NotStarted {
        /// The rung not run.
        depth: Depth,
        /// Its expected time.
        expected: Duration,
    },
    /// The rung at `depth` outgrew its state cap.
    TooLarge {
        /// The rung that did not finish.
        depth: Depth,
    },
    /// The top rung, `depth`, was skipped: its program was not built yet
    /// (see [`Climb::skipped`]).
    NotBuilt {
        /// The top rung.
        depth: Depth,
    },
}

/// What a climb found: every rung that finished, the last one answering.
#[derive(Debug, Clone)]
pub struct Climb<T> {
    /// The finished rungs, shallowest first (never empty).
    pub rungs: Vec<Rung<T>>,
    /// The rungs skipped because their programs were not built yet
    /// ([`Limits::built`]), shallowest first.
    pub skipped: Vec<Depth>,
    /// Why no deeper rung answered.
    pub ended: Ended,
    /// Time from the move's start to the climb's end (a rung stopped or
    /// cut short included).
    pub elapsed: Duration,
}

impl<T> Climb<T> {
    /// The deepest finished rung: the answer.
    ///
    /// # Panics
    ///
    /// Never: a climb holds at least its first rung.
    #[allow(clippy::missing_panics_doc)]
    pub fn answer(&self) -> &Rung<T> {
        self.rungs.last().expect("a climb has its first rung")
    }
}

/// Climbs `limits.rungs`: `run(depth, stop)` runs one rung (the first with
/// a stop that never falls due), `settled` says whether a rung's answer
/// ends the climb, `on_rung` hears of each finished rung.
///
/// # Errors
///
/// The first rung's error, or a deeper rung's that is neither a stop nor
/// the state cap.
pub(crate) fn climb<T>(
    limits: &Limits,
    mut run: impl FnMut(Depth, &Stop) -> Result<(T, Stats), Error>,
    settled: impl Fn(&T) -> bool,
    mut on_rung: impl FnMut(&Rung<T>),
) -> Result<Climb<T>, Error> {
    let mut climb = Climb {
        rungs: Vec::new(),
        skipped: Vec::new(),
        ended: Ended::Top,
        elapsed: Duration::ZERO,
    };
    let stop = limits.stop();
    // How many times the last finished rung's time the next rung is
    // expected to take (the rungs skipped since included).
    let mut growing = 1u32;
    for (i, &depth) in limits.rungs.iter().enumerate() {
        if let Some(last) = climb.rungs.last() {
            growing = growing.saturating_mul(growth(depth));
            match next_rung(limits, last, depth, growing, &settled) {
                Next::Run => {}
                Next::Skip => {
                    climb.skipped.push(depth);
                    continue;
                }
                Next::End(ended) => return Ok(climb.ending(ended, limits)),
            }
        }
        let this_stop = if i == 0 { Stop::never() } else { stop.clone() };
        let began = limits.time.now();
        match run(depth, &this_stop) {
            Ok((answer, stats)) => {
                let rung = Rung {
                    depth,
                    answer,
                    stats,
                    took: limits.time.now().saturating_duration_since(began),
                    at: limits.elapsed(),
                };
                on_rung(&rung);
                climb.rungs.push(rung);
                growing = 1;
            }
            Err(Error::Exec(ExecError::Stopped { reason, .. })) if i > 0 => {
                return Ok(climb.ending(Ended::Stopped { depth, reason }, limits))
            }
            Err(Error::Exec(ExecError::StateTooLarge { .. })) if i > 0 => {
                return Ok(climb.ending(Ended::TooLarge { depth }, limits))
            }
            Err(e) => return Err(e),
        }
    }
    let ended = match (climb.skipped.last(), limits.rungs.last()) {
        (Some(&skipped), Some(&top)) if skipped == top => Ended::NotBuilt { depth: top },
        _ => Ended::Top,
    };
    Ok(climb.ending(ended, limits))
}

/// What the climb does at a rung after the first.
enum Next {
    /// Runs it.
    Run,
    /// Skips it: its program is not built yet.
    Skip,
    /// Ends the climb.
    End(Ended),
}

/// What the climb does at the rung of `depth`, after `last` finished:
/// `growing` is how many times `last`'s time the rung is expected to take.
fn next_rung<T>(
    limits: &Limits,
    last: &Rung<T>,
    depth: Depth,
    growing: u32,
    settled: impl Fn(&T) -> bool,
) -> Next {
    if settled(&last.answer) {
        return Next::End(Ended::Settled);
    }
    if limits.flag_raised() {
        return Next::End(Ended::Stopped {
            depth,
            reason: StopReason::Flag,
        });
    }
    if !(limits.built)(depth) {
        return Next::Skip;
    }
    let expected = last.took.saturating_mul(growing);
    let fits = limits
        .budget
        .is_none_or(|b| b.worth_starting(limits.elapsed(), expected));
    if fits {
        Next::Run
    } else {
        Next::End(Ended::NotStarted { depth, expected })
    }
}

impl<T> Climb<T> {
    /// The climb ended for `ended`, now.
    fn ending(mut self, ended: Ended, limits: &Limits) -> Climb<T> {
        self.ended = ended;
        self.elapsed = limits.elapsed();
        self
    }
}

/// Whether a search's answer cannot be bettered by searching deeper: a
/// mate with the first move.
pub(crate) fn mates_at_once(best: &Option<(String, u32)>) -> bool {
    matches!(best, Some((_, score)) if *score == mate_at(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(plies: u32) -> Depth {
        Depth::new(plies).unwrap()
    }

    fn plies(depths: &[Depth]) -> Vec<u32> {
        depths.iter().map(|d| d.plies()).collect()
    }

    #[test]
    fn the_ladder_climbs_and_skips_depth_four() {
        assert_eq!(plies(&LADDER), [2, 3, 5, 6]);
        assert!(LADDER.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(LADDER.last(), Some(&TIMED_TOP));
        assert_eq!(plies(&rungs_to(d(6))), [2, 3, 5, 6]);
        assert_eq!(plies(&rungs_to(d(5))), [2, 3, 5]);
        assert_eq!(plies(&rungs_to(d(4))), [2, 3, 4]);
        assert_eq!(plies(&rungs_to(d(3))), [2, 3]);
        assert_eq!(plies(&rungs_to(d(2))), [2]);
        assert_eq!(plies(&rungs_at(d(5))), [2, 5]);
        assert_eq!(plies(&rungs_at(d(2))), [2]);
        assert_eq!(rung_below(d(6)).map(Depth::plies), Some(5));
        assert_eq!(rung_below(d(5)).map(Depth::plies), Some(3));
        assert_eq!(rung_below(d(4)).map(Depth::plies), Some(3));
        assert_eq!(rung_below(d(3)).map(Depth::plies), Some(2));
        assert_eq!(rung_below(d(2)).map(Depth::plies), None);
    }

    /// A tick of the test clock: one millisecond.
    const TICK: Duration = Duration::from_millis(1);

    /// `limits` on a clock that moves a [`TICK`] each time it is read, and
    /// with the rungs whose programs are `built`.
    fn ticking(limits: Limits, built: fn(Depth) -> bool) -> Limits {
        let time = Time::ticking(TICK);
        Limits {
            start: time.now(),
            time,
            built,
            ..limits
        }
    }

    /// A climb over fake rungs that each take `cost(depth)` milliseconds
    /// of a ticking clock (see [`ticking`]: the same on any machine at any
    /// load) and answer their depth.
    fn fake(limits: &Limits, cost: impl Fn(u32) -> u64) -> Climb<u32> {
        let time = &limits.time;
        climb(
            limits,
            |depth, stop| {
                let end = time.now() + Duration::from_millis(cost(depth.plies()));
                loop {
                    if let Some(reason) = stop.due() {
                        return Err(Error::Exec(ExecError::Stopped { rewrite: 0, reason }));
                    }
                    if time.now() >= end {
                        return Ok((depth.plies(), Stats::default()));
                    }
                }
            },
            |_| false,
            |_| {},
        )
        .unwrap()
    }

    /// A budget of `target` and `limit` milliseconds, banked (on a clock).
    fn budget(target: u64, limit: u64) -> Option<Budget> {
        Some(Budget {
            target: Duration::from_millis(target),
            limit: Duration::from_millis(limit),
            banked: true,
        })
    }

    #[test]
    fn a_deadline_in_the_past_answers_with_the_first_rung() {
        let limits = Limits {
            budget: budget(0, 0),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, every_program), |_| 5);
        assert_eq!(climb.rungs.len(), 1);
        assert_eq!(climb.answer().answer, 2);
        assert!(matches!(climb.ended, Ended::NotStarted { depth, .. } if depth == d(3)));
    }

    #[test]
    fn a_rung_cut_short_never_answers() {
        // The third rung is expected to fit but takes far longer: it is
        // stopped at the limit, and the second answers.
        let limits = Limits {
            budget: budget(400, 400),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, every_program), |d| match d {
            2 => 2,
            3 => 20,
            _ => 5_000,
        });
        assert_eq!(
            climb.ended,
            Ended::Stopped {
                depth: d(5),
                reason: StopReason::Deadline
            }
        );
        assert_eq!(climb.answer().answer, 3);
        assert!(climb.answer().at < Duration::from_millis(400));
        // The stop fell due at the limit, within a question of it.
        assert!(climb.elapsed >= Duration::from_millis(400));
        assert!(climb.elapsed <= Duration::from_millis(400) + 2 * TICK);
    }

    #[test]
    fn a_raised_flag_stops_the_climb_but_not_the_first_rung() {
        let flag = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            flag: Some(flag),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, every_program), |_| 20);
        assert_eq!(climb.rungs.len(), 1);
        assert_eq!(climb.answer().answer, 2);
        assert_eq!(
            climb.ended,
            Ended::Stopped {
                depth: d(3),
                reason: StopReason::Flag
            }
        );
        // Without a limit, every rung runs.
        let climb = fake(&ticking(Limits::to_depth(d(5)), every_program), |_| 1);
        assert_eq!(climb.rungs.len(), 3);
        assert_eq!(climb.ended, Ended::Top);
    }

    #[test]
    fn a_rung_not_expected_to_fit_is_not_started() {
        // Depth 2 takes 100 ms, so depth 3 is expected to take 800 ms:
        // it would end past three times a 200 ms target.
        let limits = Limits {
            budget: budget(200, 800),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, every_program), |_| 100);
        assert_eq!(climb.rungs.len(), 1);
        match climb.ended {
            Ended::NotStarted { depth, expected } => {
                assert_eq!(depth, d(3));
                assert!(expected >= Duration::from_millis(100) * growth(d(3)));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_rung_whose_program_is_not_built_is_skipped() {
        // Depth 3 is not built: depth 5 runs in its place, expected to
        // take what both would (2 ms, 8 then 2 times that).
        let limits = Limits {
            budget: budget(10_000, 10_000),
            ..Limits::to_depth(d(5))
        };
        let not_three: fn(Depth) -> bool = |d| d.plies() != 3;
        let climb = fake(&ticking(limits.clone(), not_three), |_| 2);
        assert_eq!(plies(&climb.skipped), [3]);
        assert_eq!(
            climb.rungs.iter().map(|r| r.answer).collect::<Vec<_>>(),
            [2, 5]
        );
        assert_eq!(climb.ended, Ended::Top);
        // On a tighter budget, the growth of the skipped rung counts: 16
        // times depth 2's 20 ms does not fit in three times 50 ms, twice
        // would.
        let tight = Limits {
            budget: budget(50, 1_000),
            ..limits
        };
        let climb = fake(&ticking(tight, not_three), |_| 20);
        assert_eq!(plies(&climb.skipped), [3]);
        match climb.ended {
            Ended::NotStarted { depth, expected } => {
                assert_eq!(depth, d(5));
                assert!(expected >= Duration::from_millis(20 * 16), "{expected:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_first_rung_runs_built_or_not_and_a_top_not_built_says_so() {
        let limits = Limits {
            budget: budget(10_000, 10_000),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, |_| false), |_| 2);
        assert_eq!(climb.rungs.len(), 1);
        assert_eq!(climb.answer().answer, 2);
        assert_eq!(plies(&climb.skipped), [3, 5]);
        assert_eq!(climb.ended, Ended::NotBuilt { depth: d(5) });
        // Every program built: nothing skipped.
        let limits = Limits {
            budget: budget(10_000, 10_000),
            ..Limits::to_depth(d(5))
        };
        let climb = fake(&ticking(limits, every_program), |_| 2);
        assert!(climb.skipped.is_empty());
        assert_eq!(climb.answer().answer, 5);
    }
}
