//! The native cost model: what the regex program would spend on the nodes
//! a native search visits, counted in the regex program's own unit of
//! work, so that a search idea can be played natively at the cost it
//! would have in regexes before any regex is written.
//!
//! The unit is the scanned byte (`regex_vm::Stats::scanned_bytes`): every
//! rewrite that runs scans the whole state, so a pass's work is the sum of
//! the state's length over the rewrites it runs, and its time follows
//! that sum ([`NANOS_PER_KILOBYTE`]). The regex search is breadth-first: a
//! node's move generation makes all its children as threads at once
//! (whatever a cut drops afterwards), and a thread's bytes are scanned by
//! every rewrite that runs while it is in the state. So a search's work
//! is, to a first approximation, a price per thread made, by what made it
//! ([`Kind`]), plus a price per ply of its plan (the rewrites that run
//! whatever the threads): [`Meter::charge`] counts them,
//! [`Meter::scanned_bytes`] prices them at [`BYTES_PER`]. A search that a
//! [`Meter`] with a budget meters stops with [`OverBudget`] as soon as the
//! count passes it, as a regex rung stops at its deadline.
//!
//! The counts come from `reference::metered`, the reference's search in
//! the regex program's shape (its probes and cuts); the prices were fitted
//! (least squares of the relative error, no price below zero) to the
//! regex program's measured work on the bench positions
//! (`tests/data/bench.epd`: the position after each line's move, the
//! engine to move) at depths 2 to 5. On them the measured work lies
//! within [`FACTOR`] of the model's (`tests/tests/integration/cost_model.rs`;
//! `regex-chess bench --cost-model` prints each position's figures and
//! the time per scanned byte). A finer model (a price per kind of
//! generation, one for the evaluation of the last two plies' candidates)
//! fitted no better: the thread counts of those kinds move together on
//! these positions.
//!
//! This module prices; it searches nothing and must not change what any
//! search returns.

use std::time::Duration;

/// What made a thread, and so what the regex program does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A thread made by a move generation: a node's candidate (full-width
    /// or a capture ply's, standing pat included) or a leaf (a reply of
    /// the last ply).
    Made,
    /// A thread made by a probe's look: a candidate scored as a leaf (its
    /// move's delta, the recapture and threat gains) to choose the probe.
    Look,
    /// One ply of the plan: the rewrites that run whatever the threads.
    Ply,
    /// A look's thread ranked for late-move pruning (`search::late`): its
    /// entry, joined into its node's thread, through the ranking's rounds
    /// (no thread is made; not counted by ply).
    Rank,
}

impl Kind {
    /// Every kind, in [`BYTES_PER`]'s order.
    pub const ALL: [Kind; 4] = [Kind::Made, Kind::Look, Kind::Ply, Kind::Rank];

    fn index(self) -> usize {
        match self {
            Kind::Made => 0,
            Kind::Look => 1,
            Kind::Ply => 2,
            Kind::Rank => 3,
        }
    }
}

/// The scanned bytes of one thread (or ply) of each kind, in
/// [`Kind::ALL`]'s order: fitted as the module doc says (2026-12-08, the
/// regex program of this commit's parent); [`Kind::Rank`]'s on the bench
/// positions at depth 5 with `lmp:8` against the same without the rule,
/// the other prices kept (`bench --cost-model --late-moves 8`).
pub const BYTES_PER: [u64; 4] = [43_800, 122_700, 1_040_600, RANK_BYTES];

/// [`Kind::Rank`]'s price (see [`BYTES_PER`]): the geometric mean of
/// measured over modeled work on the bench at depth 5 with `lmp:8` made
/// that of the same without the rule (1.20; 1.32 uncharged), its range
/// 0.59 to 2.42 (2026-12-07, loaded machine; scanned bytes do not
/// depend on the load).
const RANK_BYTES: u64 = 16_500;

/// What a book hit costs (`chess::book`, `match --native .. --book`):
/// on a clock the climb ends at its first rung, depth 2's pass, whose
/// search is skipped, so its price is the passes' own of two plies
/// ([`Kind::Ply`]) and no thread: 1.3 ms at [`NANOS_PER_KILOBYTE`], where
/// `regex-chess reply --book --depth 2` measured 0.8 ms on a book
/// position (2026-12-07, the machine loaded).
pub const BOOK_HIT_BYTES: u64 = 2 * BYTES_PER[2];

/// How far the model may be off: on every bench position at depths 2 to
/// 5, the regex program's measured work divided by the model's lies
/// between `1 / FACTOR` and `FACTOR` (measured: 0.48 to 3.0).
pub const FACTOR: f64 = 3.2;

/// The regex program's time per thousand scanned bytes: the bench
/// positions' searches at depths 2 to 5, their time summed over their
/// work summed (each search's own 0.33 to 1.23 ns a byte), measured on
/// this project's 2-core machine while other builds ran
/// (`regex-chess bench --cost-model` measures it again).
pub const NANOS_PER_KILOBYTE: u64 = 610;

/// The time `scanned_bytes` of work take at [`NANOS_PER_KILOBYTE`].
pub fn time_of(scanned_bytes: u64) -> Duration {
    Duration::from_nanos(scanned_bytes.saturating_mul(NANOS_PER_KILOBYTE) / 1000)
}

/// The work [`time_of`] gives `time` to.
pub fn work_in(time: Duration) -> u64 {
    let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
    nanos.saturating_mul(1000) / NANOS_PER_KILOBYTE
}

/// A search went past its meter's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search passed its budget of {budget} scanned bytes")]
pub struct OverBudget {
    /// The budget, in scanned bytes.
    pub budget: u64,
}

/// The threads a search made, by kind and by ply, priced in scanned bytes,
/// and the budget it may spend.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    counts: [u64; 4],
    /// Threads made at each ply (index: ply; the root is ply 0).
    by_ply: Vec<u64>,
    budget: Option<u64>,
}

impl Meter {
    /// A meter without a budget: it only counts.
    pub fn unlimited() -> Meter {
        Meter::default()
    }

    /// A meter that stops the search once the work passes `scanned_bytes`.
    pub fn with_budget(scanned_bytes: u64) -> Meter {
        Meter {
            budget: Some(scanned_bytes),
            ..Meter::default()
        }
    }

    /// Counts `n` threads (or plies) of `kind` made at `ply`.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when the work so far passes the budget (the threads
    /// are counted first).
    pub fn charge(&mut self, kind: Kind, ply: u32, n: usize) -> Result<(), OverBudget> {
        let n = n as u64;
        self.counts[kind.index()] += n;
        if kind != Kind::Ply && kind != Kind::Rank {
            let ply = ply as usize;
            if self.by_ply.len() <= ply {
                self.by_ply.resize(ply + 1, 0);
            }
            self.by_ply[ply] += n;
        }
        match self.budget {
            Some(budget) if self.scanned_bytes() > budget => Err(OverBudget { budget }),
            _ => Ok(()),
        }
    }

    /// How many threads (or plies) of `kind` were counted.
    pub fn count(&self, kind: Kind) -> u64 {
        self.counts[kind.index()]
    }

    /// The threads made at each ply (index: ply).
    pub fn threads_by_ply(&self) -> &[u64] {
        &self.by_ply
    }

    /// The work the regex program would do for what was counted, in
    /// scanned bytes.
    pub fn scanned_bytes(&self) -> u64 {
        self.counts
            .iter()
            .zip(BYTES_PER)
            .map(|(n, price)| n.saturating_mul(price))
            .fold(0, u64::saturating_add)
    }

    /// The time the regex program would take for what was counted
    /// ([`time_of`]).
    pub fn time(&self) -> Duration {
        time_of(self.scanned_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_prices_its_counts_and_stops_past_its_budget() {
        let mut m = Meter::unlimited();
        m.charge(Kind::Ply, 0, 3).unwrap();
        m.charge(Kind::Made, 1, 20).unwrap();
        m.charge(Kind::Look, 2, 30).unwrap();
        m.charge(Kind::Made, 2, 400).unwrap();
        assert_eq!(m.threads_by_ply(), [0, 20, 430]);
        assert_eq!(
            m.scanned_bytes(),
            3 * BYTES_PER[2] + 420 * BYTES_PER[0] + 30 * BYTES_PER[1]
        );
        let mut b = Meter::with_budget(10 * BYTES_PER[0]);
        assert_eq!(b.charge(Kind::Made, 1, 10), Ok(()));
        assert_eq!(
            b.charge(Kind::Made, 1, 1),
            Err(OverBudget {
                budget: 10 * BYTES_PER[0]
            })
        );
        assert_eq!(b.count(Kind::Made), 11);
    }

    #[test]
    fn time_and_work_convert_both_ways() {
        let second = Duration::from_secs(1);
        assert_eq!(work_in(second), 1_000_000_000_000 / NANOS_PER_KILOBYTE);
        let back = time_of(work_in(second));
        assert!(second - back < Duration::from_micros(1), "{back:?}");
    }
}
