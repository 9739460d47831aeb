//! Gates: the texts every match of a rewrite needs in the state (its
//! thread head, the literal it starts with, a literal it contains), asked
//! once per state version, so a run of rewrites that change nothing
//! searches each text once.
//!
//! It owns the probes' answers and where a rewrite's first match can
//! start; it must not run a rewrite or change the state.

use super::Executor;

/// What a rewrite needs in the state to do anything, kept apart from the
/// rest of its step so that the loop over skipped rewrites reads a small,
/// dense array.
#[derive(Clone, Copy)]
pub(super) struct Gate {
    /// Texts every match needs in the state (a thread head of its kind,
    /// the text it starts with, a literal it contains), as indexes into
    /// the executor's probes, `NO_PROBE` for none: the rewrite is skipped
    /// when one is absent.
    pub(super) probes: [usize; 3],
    /// The probe of a text every match starts with, or `NO_PROBE`: no
    /// match starts before its first occurrence.
    pub(super) lead: usize,
}

/// An empty slot of a [`Gate`].
pub(super) const NO_PROBE: usize = usize::MAX;

/// The answers of the probes on one run's states.
pub(super) struct Found {
    /// The state's version: one more after each change.
    pub(super) version: u64,
    /// Per probe: the version it was last asked on, and its answer then
    /// (where it first occurs).
    pub(super) answers: Vec<(u64, Option<usize>)>,
}

impl Found {
    pub(super) fn new(probes: usize) -> Found {
        Found {
            version: 1,
            answers: vec![(0, None); probes],
        }
    }
}

impl Executor {
    /// Where the first match can start at the earliest; `None` when the
    /// rewrite cannot match: no thread of the kind its pattern starts with,
    /// or a literal every match starts with or contains is absent. `found`
    /// remembers each probe's answer on this state.
    pub(super) fn first_place(&self, gate: Gate, state: &str, found: &mut Found) -> Option<usize> {
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
}
