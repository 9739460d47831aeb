//! When a run must give up: a deadline, a flag another thread raises, or
//! both.
//!
//! It owns the question "is it time to stop?" and its answer's wording; it
//! must not decide where a run asks it (the loops in `exec` ask between
//! rewrites, the Python engine `pyre` during long searches) nor what a
//! caller does with a run that stopped (a search answers with the last one
//! that finished). It imports nothing of the crate, so both the executor
//! and the engines it runs can import it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
            flag: None,
        }
    }

    /// A stop due when `flag` is raised (set to `true`).
    pub fn on_flag(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            deadline: None,
            flag: Some(flag),
        }
    }

    /// This stop, also due at `deadline` (the earlier one wins).
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Stop {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
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
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
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
}
