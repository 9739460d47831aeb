//! Time management: how long one move may think, from the limits a GUI
//! sends (`go movetime`, or the clocks with their increment and
//! `movestogo`).
//!
//! This module owns one pure function, [`budget`], from a [`Clock`] to a
//! [`Budget`] (a time the move aims at and a time it must never pass), and
//! the rule that says whether a deeper search is worth starting
//! ([`Budget::worth_starting`]). It reads no clock of its own and runs no
//! search: `deepen` measures the time and stops the search, the front ends
//! (`uci`, `match`, `play`) build the [`Clock`].
//!
//! The rule, as engines commonly do it:
//! - `movetime M`: the whole of it but a safety margin ([`OVERHEAD`]), at
//!   least half of it; nothing is saved for later moves, so the move aims
//!   at its limit.
//! - a clock of `T` left with increment `I`: the move aims at a share of
//!   what is left after the margin, `(T - OVERHEAD) / n`, plus three
//!   quarters of the increment, where `n` is `movestogo` (the moves until
//!   the clock is refilled) or [`HORIZON`] moves when the GUI does not say,
//!   at most [`HORIZON`]; it may run to [`STRETCH_LIMIT`] times that, but
//!   never past two fifths of what is left (four fifths on the last move
//!   before a refill).
//!
//! The margin covers what the GUI counts and the search does not: the
//! search gives up between two rewrites, so up to one rewrite late (at
//! most 10 ms after the limit over `bench.epd`'s positions at `go
//! movetime 1000`, with three processes sharing the 2 cores, since the
//! attack patterns were split; up to about 200 ms before), and the
//! process and its pipes.

use std::time::Duration;

/// What every move keeps back for the search's stop latency (it gives up
/// between rewrites: at most 10 ms late, measured with three processes
/// sharing the 2 cores), the process and the GUI.
pub const OVERHEAD: Duration = Duration::from_millis(100);

/// The moves a clock without `movestogo` is shared over, and the most
/// `movestogo` is taken at.
pub const HORIZON: u32 = 30;

/// How many times its target a move may run before it is stopped.
pub const STRETCH_LIMIT: u32 = 4;

/// How far past its target a move may expect to finish when it starts a
/// deeper search ([`Budget::worth_starting`]): each depth costs many
/// times the one below it, so a move whose next depth would end a little
/// past the target starts it (the time not used is banked, and the next
/// moves' targets grow with it).
pub const STRETCH_START: u32 = 3;

/// The limits of one move as a GUI sends them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// `movetime`: exactly this long for the move.
    pub movetime: Option<Duration>,
    /// The mover's time left (`wtime` or `btime`).
    pub remaining: Option<Duration>,
    /// The mover's increment per move (`winc` or `binc`).
    pub increment: Duration,
    /// `movestogo`: moves until the clock is refilled.
    pub moves_to_go: Option<u32>,
}

/// How long one move thinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The time the move aims at.
    pub target: Duration,
    /// The time it never passes: a search still running then is stopped.
    pub limit: Duration,
    /// Whether time the move does not use is kept for later moves (a
    /// clock), rather than lost (`movetime`).
    pub banked: bool,
}

/// The budget of a move, `None` when the clock sets no limit (no
/// `movetime` and no time left given: think until told to stop).
pub fn budget(clock: &Clock) -> Option<Budget> {
    if let Some(movetime) = clock.movetime {
        let limit = movetime.saturating_sub(OVERHEAD).max(movetime / 2);
        return Some(Budget {
            target: limit,
            limit,
            banked: false,
        });
    }
    let remaining = clock.remaining?;
    let usable = remaining.saturating_sub(OVERHEAD);
    let moves = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, HORIZON);
    let share = usable / moves + clock.increment * 3 / 4;
    let cap = if moves == 1 {
        usable * 4 / 5
    } else {
        usable * 2 / 5
    };
    let limit = (share * STRETCH_LIMIT).min(cap);
    Some(Budget {
        target: share.min(limit),
        limit,
        banked: true,
    })
}

impl Budget {
    /// Whether a search expected to take `expected` is worth starting
    /// `elapsed` into the move. On a clock, when it is expected to end
    /// within [`STRETCH_START`] times the target and before the limit: one
    /// that is not would most likely be stopped at the limit, its time
    /// lost to the clock. Time that is not banked is lost anyway: any
    /// search started before the limit is worth its chance.
    pub fn worth_starting(&self, elapsed: Duration, expected: Duration) -> bool {
        if !self.banked {
            return elapsed < self.limit;
        }
        let end = elapsed.saturating_add(expected);
        end <= self.target.saturating_mul(STRETCH_START) && end <= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            remaining: Some(ms(remaining)),
            increment: ms(increment),
            moves_to_go,
            ..Clock::default()
        }
    }

    #[test]
    fn movetime_is_used_whole_but_the_margin_and_never_exceeded() {
        let of = |t| {
            budget(&Clock {
                movetime: Some(ms(t)),
                ..Clock::default()
            })
            .unwrap()
        };
        assert_eq!(
            of(1000),
            Budget {
                target: ms(900),
                limit: ms(900),
                banked: false
            }
        );
        assert_eq!(of(200).limit, ms(100));
        // Short movetimes keep half.
        assert_eq!(of(50).limit, ms(25));
        assert_eq!(of(0).limit, ms(0));
        for t in [0, 1, 10, 99, 100, 101, 200, 1000, 60_000] {
            let b = of(t);
            assert!(b.limit <= ms(t) && b.target <= b.limit, "{t}: {b:?}");
        }
        // A movetime wins over the clocks.
        let both = Clock {
            movetime: Some(ms(500)),
            ..clock(1_000_000, 0, None)
        };
        assert_eq!(budget(&both).unwrap().limit, ms(400));
    }

    #[test]
    fn no_limit_without_a_movetime_or_a_clock() {
        assert_eq!(budget(&Clock::default()), None);
        let only_increment = Clock {
            increment: ms(1000),
            ..Clock::default()
        };
        assert_eq!(budget(&only_increment), None);
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_to_go_plus_most_of_the_increment() {
        // 60 s + 0.6 s: (60000 - 100) / 30 + 450.
        let b = budget(&clock(60_000, 600, None)).unwrap();
        assert_eq!(b.target, ms(1996) + ms(450) + Duration::from_nanos(666_666));
        assert_eq!(b.limit, b.target * STRETCH_LIMIT);
        // 10 s + 0.1 s.
        let b = budget(&clock(10_000, 100, None)).unwrap();
        assert_eq!(b.target, ms(330) + ms(75));
        // movestogo 10: a tenth.
        let b = budget(&clock(10_100, 0, Some(10))).unwrap();
        assert_eq!(b.target, ms(1000));
        // movestogo above the horizon counts as the horizon.
        assert_eq!(
            budget(&clock(60_000, 0, Some(200))),
            budget(&clock(60_000, 0, None))
        );
        // The last move before a refill may use most of what is left.
        let b = budget(&clock(5_100, 0, Some(1))).unwrap();
        assert_eq!(b.target, ms(4000));
        assert_eq!(b.limit, ms(4000));
    }

    #[test]
    fn a_clock_is_never_spent_in_one_move() {
        for remaining in [0, 1, 50, 100, 101, 150, 300, 1_000, 3_000, 10_000, 60_000] {
            for increment in [0, 100, 600, 5_000] {
                for moves_to_go in [None, Some(0), Some(1), Some(2), Some(40)] {
                    let b = budget(&clock(remaining, increment, moves_to_go)).unwrap();
                    let usable = ms(remaining).saturating_sub(OVERHEAD);
                    assert!(b.target <= b.limit, "{remaining} {increment}: {b:?}");
                    assert!(
                        b.limit <= usable * 4 / 5,
                        "{remaining} {increment} {moves_to_go:?}: {b:?}"
                    );
                    if moves_to_go != Some(1) && moves_to_go != Some(0) {
                        assert!(b.limit <= usable * 2 / 5, "{remaining}: {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_deeper_search_starts_only_when_it_is_expected_to_fit() {
        let b = Budget {
            target: ms(1000),
            limit: ms(4000),
            banked: true,
        };
        assert!(b.worth_starting(ms(100), ms(1500)));
        assert!(b.worth_starting(ms(500), ms(1500)));
        assert!(b.worth_starting(ms(1500), ms(1500)));
        assert!(!b.worth_starting(ms(1600), ms(1500)));
        // Never past the limit, whatever the target.
        let tight = Budget {
            target: ms(1000),
            limit: ms(1200),
            banked: true,
        };
        assert!(!tight.worth_starting(ms(100), ms(1500)));
        assert!(tight.worth_starting(ms(100), ms(1100)));
        // A movetime's time is lost if not used: anything before the
        // limit is worth starting.
        let movetime = Budget {
            banked: false,
            ..tight
        };
        assert!(movetime.worth_starting(ms(100), ms(5000)));
        assert!(!movetime.worth_starting(ms(1200), ms(1)));
    }
}
