//! The clocks of `match --tc BASE+INC` and what the match reports about
//! time: the time control read from its text, each side's clock charged
//! with the time a move took (measured by the arena around the move,
//! process and pipes included) and its flag, and the statistics of our
//! moves (time per move, depth reached, moves over their time, time in
//! rungs that were stopped or outgrew the state cap).
//!
//! Clocks only: it measures nothing itself (the arena times each move),
//! chooses no move and decides no other ending.

use std::fmt;
use std::time::Duration;

use anyhow::{anyhow, Result};
use shakmaty::Color;

use super::quote;

/// A Fischer time control: `base` for the game, `increment` added after
/// each move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

/// The longest base a time control may give (a day).
const MAX_BASE: Duration = Duration::from_secs(24 * 3600);

impl TimeControl {
    /// Reads `BASE+INC` in seconds (decimals allowed: `60+0.6`, `10+0.1`),
    /// or `BASE` alone for no increment.
    ///
    /// # Errors
    ///
    /// Text that is not that, a base of 0 or over a day, an increment over
    /// the base's limit.
    pub(super) fn parse(text: &str) -> Result<TimeControl> {
        let bad = || {
            anyhow!(
                "--tc {}: use BASE+INC in seconds, e.g. 60+0.6 or 10+0.1 (BASE over 0, at most a day)",
                quote(text)
            )
        };
        let (base, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let seconds = |t: &str| -> Result<Duration> {
            let t = t.trim();
            let value: f64 = t.parse().map_err(|_| bad())?;
            if !value.is_finite() || value < 0.0 || t.contains(['e', 'E']) {
                return Err(bad());
            }
            let d = Duration::try_from_secs_f64(value).map_err(|_| bad())?;
            if d > MAX_BASE {
                return Err(bad());
            }
            Ok(d)
        };
        let tc = TimeControl {
            base: seconds(base)?,
            increment: seconds(increment)?,
        };
        if tc.base.is_zero() {
            return Err(bad());
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// As PGN's `TimeControl` tag writes it: seconds, `+` the increment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Both sides' time left in a game.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clocks {
    white: Duration,
    black: Duration,
    increment: Duration,
}

/// A side ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Flag;

impl Clocks {
    /// The clocks at the start of a game.
    pub(super) fn new(tc: TimeControl) -> Clocks {
        Clocks {
            white: tc.base,
            black: tc.base,
            increment: tc.increment,
        }
    }

    /// `side`'s time left.
    pub(super) fn left(&self, side: Color) -> Duration {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The increment.
    pub(super) fn increment(&self) -> Duration {
        self.increment
    }

    /// Charges `side` with a move that took `took`: [`Flag`] if it had
    /// less time left than that, else the time is taken and the increment
    /// added.
    pub(super) fn charge(&mut self, side: Color, took: Duration) -> Result<(), Flag> {
        let clock = match side {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        };
        if took > *clock {
            *clock = Duration::ZERO;
            return Err(Flag);
        }
        *clock = *clock - took + self.increment;
        Ok(())
    }
}

/// What the match keeps about our moves' time.
#[derive(Debug, Default)]
pub(super) struct TimeStats {
    /// How long each of our moves took.
    pub ours: Vec<Duration>,
    /// How often each depth answered (index: depth).
    pub depths: Vec<u32>,
    /// Our moves that took longer than their `--our-movetime`.
    pub over_movetime: u32,
    /// Games we lost on time.
    pub our_flags: u32,
    /// Games the opponent lost on time.
    pub their_flags: u32,
    /// How long each of the opponent's moves took.
    pub theirs: Vec<Duration>,
    /// Our moves chosen by a climb with a time limit (`--tc`,
    /// `--our-movetime`): the only ones whose deepest rung can be stopped.
    pub climbed: u32,
    /// Those moves' rungs that did not finish, and the time they took.
    pub unfinished: Unfinished,
}

/// The rung of one of our timed moves that ran but did not answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unanswered {
    /// Stopped at the move's limit (else: over the state cap).
    pub stopped: bool,
    /// From the answering rung's end to the move's end.
    pub time: Duration,
}

/// The rungs of our timed moves that ran but did not answer: the time
/// from the answering rung's end to the move's end, spent for nothing.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unfinished {
    /// Rungs stopped at the move's limit.
    pub stopped: u32,
    /// Rungs that outgrew the state cap.
    pub too_large: u32,
    /// The time all of them took.
    pub time: Duration,
}

impl TimeStats {
    /// Notes one of our moves: its time and the depth that answered.
    pub(super) fn ours(&mut self, took: Duration, depth: u32) {
        self.ours.push(took);
        let depth = depth as usize;
        if self.depths.len() <= depth {
            self.depths.resize(depth + 1, 0);
        }
        self.depths[depth] += 1;
    }

    /// Adds another game's figures to these.
    pub(super) fn merge(&mut self, other: TimeStats) {
        self.ours.extend(other.ours);
        if self.depths.len() < other.depths.len() {
            self.depths.resize(other.depths.len(), 0);
        }
        for (mine, theirs) in self.depths.iter_mut().zip(other.depths) {
            *mine += theirs;
        }
        self.over_movetime += other.over_movetime;
        self.our_flags += other.our_flags;
        self.their_flags += other.their_flags;
        self.theirs.extend(other.theirs);
        self.climbed += other.climbed;
        self.unfinished.stopped += other.unfinished.stopped;
        self.unfinished.too_large += other.unfinished.too_large;
        self.unfinished.time += other.unfinished.time;
    }

    /// Notes one of our timed moves' climb, with the rung that ran
    /// without answering, if one did.
    pub(super) fn climb(&mut self, unanswered: Option<Unanswered>) {
        self.climbed += 1;
        if let Some(u) = unanswered {
            if u.stopped {
                self.unfinished.stopped += 1;
            } else {
                self.unfinished.too_large += 1;
            }
            self.unfinished.time += u.time;
        }
    }

    /// The summary lines: time losses, our time per move, the depths, the
    /// time our timed moves spent in rungs that did not finish.
    pub(super) fn summary(&self, clocked: bool) -> String {
        let mut out = String::new();
        if clocked {
            out.push_str(&format!(
                "time losses: ours {}, the opponent's {}\n",
                self.our_flags, self.their_flags
            ));
        }
        if let (Some(median), Some(max)) = (median(&self.ours), self.ours.iter().max()) {
            out.push_str(&format!(
                "our time a move: median {} ms, max {} ms ({} moves)\n",
                median.as_millis(),
                max.as_millis(),
                self.ours.len()
            ));
        }
        if let (Some(median), Some(max)) = (median(&self.theirs), self.theirs.iter().max()) {
            out.push_str(&format!(
                "the opponent's time a move: median {} ms, max {} ms\n",
                median.as_millis(),
                max.as_millis()
            ));
        }
        let total: u32 = self.depths.iter().sum();
        if total > 0 {
            let shares: Vec<String> = self
                .depths
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, n)| {
                    format!(
                        "{d}: {n} ({:.1}%)",
                        100.0 * f64::from(*n) / f64::from(total)
                    )
                })
                .collect();
            out.push_str(&format!("depth reached: {}\n", shares.join(", ")));
        }
        if self.climbed > 0 {
            let all: Duration = self.ours.iter().sum();
            let u = self.unfinished;
            let share = if all.is_zero() {
                0.0
            } else {
                100.0 * u.time.as_secs_f64() / all.as_secs_f64()
            };
            out.push_str(&format!(
                "time in rungs that did not finish: {:.1} s of {:.1} s ({share:.1}%); {} stopped at the limit, {} over the state cap ({} timed moves)\n",
                u.time.as_secs_f64(),
                all.as_secs_f64(),
                u.stopped,
                u.too_large,
                self.climbed
            ));
        }
        if self.over_movetime > 0 {
            out.push_str(&format!(
                "moves over --our-movetime: {}\n",
                self.over_movetime
            ));
        }
        out
    }
}

/// The middle value (the lower of the two middle ones for an even count).
fn median(times: &[Duration]) -> Option<Duration> {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len().checked_sub(1)? / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_read_seconds_with_decimals() {
        assert_eq!(
            TimeControl::parse("60+0.6").unwrap(),
            TimeControl {
                base: ms(60_000),
                increment: ms(600)
            }
        );
        assert_eq!(
            TimeControl::parse(" 10 + 0.1 ").unwrap(),
            TimeControl {
                base: ms(10_000),
                increment: ms(100)
            }
        );
        assert_eq!(TimeControl::parse("300").unwrap().increment, ms(0));
        assert_eq!(TimeControl::parse("60+0.6").unwrap().to_string(), "60+0.6");
        for bad in [
            "", "+1", "0+1", "-5+1", "a+b", "60+x", "1e3+0", "inf+0", "100000+0", "60+1+2",
        ] {
            let e = TimeControl::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--tc `"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_clock_is_charged_then_given_the_increment_and_falls_past_zero() {
        let mut c = Clocks::new(TimeControl::parse("1+0.1").unwrap());
        assert_eq!(c.charge(Color::White, ms(400)), Ok(()));
        assert_eq!(c.left(Color::White), ms(700));
        assert_eq!(c.left(Color::Black), ms(1000));
        assert_eq!(c.charge(Color::White, ms(650)), Ok(()));
        assert_eq!(c.left(Color::White), ms(150));
        assert_eq!(c.charge(Color::White, ms(151)), Err(Flag));
        assert_eq!(c.left(Color::White), ms(0));
        // Exactly the time left is still in time.
        assert_eq!(c.charge(Color::Black, ms(1000)), Ok(()));
        assert_eq!(c.left(Color::Black), ms(100));
    }

    #[test]
    fn the_summary_counts_times_and_depths() {
        let mut t = TimeStats::default();
        for (took, depth) in [(100, 5), (300, 3), (200, 5), (900, 5)] {
            t.ours(ms(took), depth);
        }
        t.our_flags = 1;
        let text = t.summary(true);
        assert!(
            text.contains("time losses: ours 1, the opponent's 0\n"),
            "{text}"
        );
        assert!(
            text.contains("our time a move: median 200 ms, max 900 ms (4 moves)\n"),
            "{text}"
        );
        assert!(
            text.contains("depth reached: 3: 1 (25.0%), 5: 3 (75.0%)\n"),
            "{text}"
        );
        assert!(!t.summary(false).contains("time losses"));
        assert!(!text.contains("did not finish"), "{text}");
        // Three of the four were timed climbs: one's depth 5 was stopped
        // after 400 ms, one's outgrew the cap after 100 ms, one finished.
        t.climb(Some(Unanswered {
            stopped: true,
            time: ms(400),
        }));
        t.climb(Some(Unanswered {
            stopped: false,
            time: ms(100),
        }));
        t.climb(None);
        assert!(
            t.summary(true).contains(
                "time in rungs that did not finish: 0.5 s of 1.5 s (33.3%); 1 stopped at the limit, 1 over the state cap (3 timed moves)\n"
            ),
            "{}",
            t.summary(true)
        );
        assert_eq!(median(&[]), None);
    }
}
