//! Two-halves stretches: a stretch of thread-confined rewrites run on the
//! two halves of a big state at once, on two cores, with the bytes,
//! changes and peaks of the one-at-a-time loop.
//!
//! It owns the cut, the per-half records and their sums; it must not
//! decide which rewrites are confined (that is `prepare`, from `analysis`),
//! and gives the stretch back, state untouched, whenever it cannot vouch
//! for the result.

use super::cache::HalfSpace;
use super::gate::Found;
use super::step::{Did, LoopState};
use super::{ExecError, Executor, Stats};
use crate::state;
use crate::stop::Stop;

/// What one rewrite did to one half.
pub(super) struct HalfStep {
    pub(super) ran: bool,
    pub(super) changed: bool,
    /// The half's length after it.
    pub(super) len: usize,
    /// The half's threads after it, for a rewrite that can add threads.
    pub(super) heads: usize,
}

impl Executor {
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
    /// its cap, the stop fell due): the caller then runs the stretch one
    /// rewrite at a time, which reports the error or the stop.
    pub(super) fn run_halves(
        &self,
        steps: std::ops::Range<usize>,
        state: &mut String,
        lane: &LoopState<'_>,
        stats: &mut Stats,
        spaces: &mut [HalfSpace; 2],
    ) -> Result<bool, ExecError> {
        let Some(cut) = middle_thread_start(state) else {
            return Ok(false);
        };
        let [a, b] = spaces;
        a.text.clear();
        a.text.push_str(&state[..cut]);
        b.text.clear();
        b.text.push_str(&state[cut..]);
        let (ascii, stop) = (lane.ascii, lane.stop);
        let (x, y) = rayon::join(
            || self.run_half(steps.clone(), a, ascii, false, stop),
            || self.run_half(steps.clone(), b, ascii, true, stop),
        );
        let (Some(x), Some(y)) = (x, y) else {
            return Ok(false);
        };
        // The whole state's figures after each rewrite are the sums of
        // the halves'. Over the cap, the one-at-a-time loop reports the
        // exact error and the state at that point.
        let steps_done = x.iter().zip(&y);
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
            );
        }
        state.clear();
        state.push_str(&a.text);
        state.push_str(&b.text);
        Ok(true)
    }

    /// One half of [`Executor::run_halves`], on `space.text`: what each
    /// rewrite of the stretch did; `None` when it cannot vouch for its
    /// result (`keeps_head`: the text must stay empty or start with a
    /// thread head).
    fn run_half(
        &self,
        steps: std::ops::Range<usize>,
        space: &mut HalfSpace,
        ascii: bool,
        keeps_head: bool,
        stop: &Stop,
    ) -> Option<Vec<HalfStep>> {
        let HalfSpace { text, pad } = space;
        let mut lane = LoopState {
            ascii,
            stop,
            found: Found::new(self.probes.len()),
            pad,
        };
        let mut record = Vec::with_capacity(steps.len());
        // Threads in `text`, counted when a thread-adding rewrite asks
        // and the text changed since the last count.
        let mut counted = None;
        for index in steps {
            if stop.is_due() {
                return None;
            }
            let did = self.step(index, text, &mut lane).ok()?;
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
                *counted.get_or_insert_with(|| state::count_heads(text))
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
        Some(record)
    }
}

/// By default, states at least this long run stretches of thread-confined
/// rewrites as two halves on two cores (see [`Executor::run_halves`]).
/// Measured on the bench suite: 4 to 8 KiB best, 48 KiB a fifth slower,
/// 2 KiB slower again (each half pays every rewrite's fixed costs).
pub(super) const SPLIT_BYTES: usize = 8 << 10;

/// A thread start near the middle of the state (a `%` not preceded by
/// `%`), if there is one past the first byte.
fn middle_thread_start(state: &str) -> Option<usize> {
    let b = state.as_bytes();
    let mid = b.len() / 2;
    memchr::memchr_iter(b'%', &b[mid..])
        .map(|i| mid + i)
        .find(|&i| i > 0 && b[i - 1] != b'%')
}
