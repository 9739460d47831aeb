//! When a run must give up: a deadline, a flag another thread raises, or
//! both; and the time a deadline is read against ([`Time`]: the system's
//! clock, or for tests a clock that moves only when it is read).
//!
//! It owns the question "is it time to stop?" and its answer's wording; it
//! must not decide where a run asks it (the loops in `exec` ask between
//! rewrites, the Python engine `pyre` during long searches) nor what a
//! caller does with a run that stopped (a search answers with the last one
//! that finished). It imports nothing of the crate, so both the executor
//! and the engines it runs can import it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a run gives up: never (the default), at a deadline, when a shared
/// flag is raised, or at whichever comes first.
///
/// Cloning shares the flag, so one clone can be handed to the thread that
/// runs the program and the other raised from the thread that reads
/// `stop` from a GUI.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
    time: Time,
}

/// Where time is read: the system's monotonic clock (the default), or a
/// clock that moves by a fixed tick each time it is read ([`Time::ticking`]),
/// so that a test's deadline falls after a number of questions, the same
/// on any machine at any load.
///
/// Cloning shares a ticking clock.
#[derive(Debug, Clone, Default)]
pub enum Time {
    /// [`Instant::now`].
    #[default]
    System,
    /// A clock that moves only when read.
    Ticking(Arc<Ticks>),
}

/// The state of a [`Time::Ticking`] clock.
#[derive(Debug)]
pub struct Ticks {
    origin: Instant,
    tick: Duration,
    read: AtomicU64,
}

impl Time {
    /// A clock that starts now and moves `tick` on each time it is read:
    /// its `n`th reading (from 0) is `n` ticks after its first.
    pub fn ticking(tick: Duration) -> Time {
        Time::Ticking(Arc::new(Ticks {
            origin: Instant::now(),
            tick,
            read: AtomicU64::new(0),
        }))
    }

    /// The time now (for a ticking clock, which then moves a tick on).
    pub fn now(&self) -> Instant {
        match self {
            Time::System => Instant::now(),
            Time::Ticking(t) => {
                let n = t.read.fetch_add(1, Ordering::Relaxed);
                let nanos = u64::try_from(t.tick.as_nanos())
                    .unwrap_or(u64::MAX)
                    .saturating_mul(n);
                t.origin + Duration::from_nanos(nanos)
            }
        }
    }
}

/// Why a run gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// Its deadline passed.
    #[error("the deadline passed")]
    Deadline,
    /// Its flag was raised.
    #[error("it was told to stop")]
    Flag,
}

impl Stop {
    /// A stop that never falls due.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A stop due at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            deadline: Some(deadline),
            ..Stop::default()
        }
    }

    /// A stop due when `flag` is raised (set to `true`).
    pub fn on_flag(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            flag: Some(flag),
            ..Stop::default()
        }
    }

    /// This stop, also due at `deadline` (the earlier one wins).
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Stop {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// This stop, its deadline read against `time` instead of the
    /// system's clock.
    #[must_use]
    pub fn with_time(mut self, time: Time) -> Stop {
        self.time = time;
        self
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Why the stop is due now, if it is. The flag is asked first: it is
    /// one load, the clock a system call on some machines.
    pub fn due(&self) -> Option<StopReason> {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some(StopReason::Flag);
        }
        if self.deadline.is_some_and(|d| self.time.now() >= d) {
            return Some(StopReason::Deadline);
        }
        None
    }

    /// Whether the stop is due now.
    pub fn is_due(&self) -> bool {
        self.due().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stop_falls_due_at_its_deadline_or_its_flag() {
        assert_eq!(Stop::never().due(), None);
        let past = Instant::now();
        assert_eq!(Stop::at(past).due(), Some(StopReason::Deadline));
        let later = Instant::now() + Duration::from_secs(3600);
        assert_eq!(Stop::at(later).due(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop::on_flag(flag.clone()).with_deadline(later);
        assert_eq!(stop.due(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(stop.due(), Some(StopReason::Flag));
        // The earlier deadline wins.
        assert_eq!(Stop::at(later).with_deadline(past).deadline(), Some(past));
        assert_eq!(Stop::at(past).with_deadline(later).deadline(), Some(past));
    }

    #[test]
    fn a_ticking_clock_moves_only_when_read() {
        let time = Time::ticking(Duration::from_millis(10));
        let first = time.now();
        assert_eq!(time.now() - first, Duration::from_millis(10));
        assert_eq!(time.clone().now() - first, Duration::from_millis(20));
        // A deadline three ticks after the first reading falls due at the
        // third question, not before.
        let time = Time::ticking(Duration::from_millis(10));
        let stop = Stop::at(time.now() + Duration::from_millis(30)).with_time(time);
        assert_eq!(stop.due(), None);
        assert_eq!(stop.due(), None);
        assert_eq!(stop.due(), Some(StopReason::Deadline));
        // No deadline: the clock is not read.
        let time = Time::ticking(Duration::from_millis(10));
        let first = time.now();
        let never = Stop::never().with_time(time.clone());
        assert_eq!(never.due(), None);
        assert_eq!(time.now() - first, Duration::from_millis(10));
    }
}
