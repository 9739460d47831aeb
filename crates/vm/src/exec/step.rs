//! One rewrite's step: the rewrite run on one text by its pattern's
//! strategy, or skipped when its gate proves it cannot match
//! ([`Executor::step`], which says what it [`Did`]); what a loop carries
//! from step to step ([`LoopState`]); and the stop's check before a step
//! ([`check_stop`]).
//!
//! The loops that order the steps (`loops`, and for stretches `threads`
//! and `halves`) use it; it counts nothing, keeps no buffer of its own
//! and chooses no strategy (`prepare` did).

use super::gate::Found;
use super::replace::Scratchpad;
use super::strategy::At;
use super::{ExecError, Executor};
use crate::stop::Stop;

/// What [`Executor::step`] did.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Did {
    /// The gate let the rewrite run.
    pub(super) ran: bool,
    /// It changed the text.
    pub(super) changed: bool,
}

/// What one loop over one text carries from rewrite to rewrite.
pub(super) struct LoopState<'r> {
    /// The text is ASCII, and stays so: replacements insert template text
    /// and pieces of the text only, and every template is ASCII.
    pub(super) ascii: bool,
    pub(super) stop: &'r Stop,
    /// The gates' probe answers on this text.
    pub(super) found: Found,
    /// Replace-all's buffer and scratch.
    pub(super) pad: &'r mut Scratchpad,
}

impl Executor {
    /// One rewrite on `text`, skipped when its gate says it cannot match.
    pub(super) fn step(
        &self,
        index: usize,
        text: &mut String,
        lane: &mut LoopState<'_>,
    ) -> Result<Did, ExecError> {
        let Some(from) = self.first_place(self.gates[index], text, &mut lane.found) else {
            return Ok(Did::default());
        };
        let at = At {
            rewrite: index,
            from,
            ascii: lane.ascii,
            stop: lane.stop,
        };
        let changed = match self.apply(text, at, lane.pad)? {
            Some(next) => {
                lane.pad.spare.recycle(std::mem::replace(text, next));
                lane.found.version += 1;
                true
            }
            None => false,
        };
        Ok(Did { ran: true, changed })
    }

    /// One replace-all of rewrite `at.rewrite` on `text` by its
    /// pattern's strategy; `None` when nothing matched.
    pub(super) fn apply(
        &self,
        text: &str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Option<String>, ExecError> {
        let step = &self.steps[at.rewrite];
        self.strategies[step.strategy].apply(&step.edit, text, at, pad)
    }
}

/// [`ExecError::Stopped`] before rewrite `rewrite` when `stop` is due.
pub(super) fn check_stop(stop: &Stop, rewrite: usize) -> Result<(), ExecError> {
    match stop.due() {
        Some(reason) => Err(ExecError::Stopped { rewrite, reason }),
        None => Ok(()),
    }
}
