//! The executor's caches: what a run keeps from one rewrite to the next
//! and from one run to the next, so that a rewrite allocates nothing it
//! can reuse (a state of megabytes is fresh pages the system must map and
//! zero each time it is allocated anew).
//!
//! It owns buffers and scratch space only, never a decision: a run leaves
//! the same bytes whatever its cache held before. The executor owns a
//! [`Pool`] of caches, one per run at a time; a run takes one, passes it
//! explicitly to its loop (and each half of a two-halves stretch its own
//! part), and gives it back when it ends.

use std::sync::{Mutex, PoisonError};

use super::replace::Scratchpad;
use super::threads::Table;

/// What one run uses.
#[derive(Default)]
pub(super) struct Cache {
    /// The one-at-a-time loop's.
    pub(super) pad: Scratchpad,
    /// The two halves' of a two-halves stretch (see `halves`).
    pub(super) halves: [HalfSpace; 2],
    /// The table of threads of a stretch run on it (see `threads`).
    pub(super) table: Table,
}

/// What one half of a two-halves stretch keeps between stretches: the
/// buffer the half is copied into and its loop's scratchpad.
#[derive(Default)]
pub(super) struct HalfSpace {
    pub(super) text: String,
    pub(super) pad: Scratchpad,
}

/// The caches of the runs that ended, for the next ones.
#[derive(Default)]
pub(super) struct Pool {
    kept: Mutex<Vec<Cache>>,
}

impl Pool {
    /// A cache a run that ended gave back, or a new one.
    pub(super) fn take(&self) -> Cache {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default()
    }

    /// Gives `cache` back for the next run.
    pub(super) fn keep(&self, cache: Cache) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(cache);
    }
}
