//! Which games `match` plays and in what order: each game's slot (its
//! round, the pair it belongs to, our side, its opening), handed out one
//! at a time (to a worker whose last game was recorded), until the games
//! asked for are played or the match is stopped (a decision of `--sprt`,
//! an error); and
//! the pairs' results ([`Pairs`]) as their games finish, in any order.
//!
//! With our side alternating (`--ours both`), games come in pairs: rounds
//! `2k - 1` and `2k` are pair `k`, the same opening (the `k`th, the list
//! taken round and round) with our engine white in the first and black in
//! the second. With one side throughout, each game has the next opening
//! and no pair. It plays nothing and knows no engine.

use std::collections::HashMap;

use shakmaty::Color;

use super::sprt::Pentanomial;

/// One game to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot {
    /// The game's number, from 1.
    pub round: u32,
    /// Its pair, from 1 (`None` when our side does not alternate).
    pub pair: Option<u32>,
    /// Our engine's side.
    pub ours: Color,
    /// Its opening's index in the list.
    pub opening: usize,
}

/// The games still to hand out.
#[derive(Debug)]
pub(super) struct Schedule {
    next_round: u32,
    /// The most games to play; `None`: until stopped.
    games: Option<u32>,
    /// Our side in every game; `None`: alternating, in pairs.
    ours: Option<Color>,
    openings: usize,
    stopped: bool,
}

impl Schedule {
    /// The schedule of up to `games` games (`None`: until stopped) over
    /// `openings` openings (at least one).
    pub(super) fn new(games: Option<u32>, ours: Option<Color>, openings: usize) -> Schedule {
        Schedule {
            next_round: 1,
            games,
            ours,
            openings: openings.max(1),
            stopped: false,
        }
    }

    /// The next game to play, `None` once every game was handed out or
    /// the schedule was stopped.
    pub(super) fn next_slot(&mut self) -> Option<Slot> {
        if self.stopped || self.games.is_some_and(|n| self.next_round > n) {
            return None;
        }
        let round = self.next_round;
        self.next_round += 1;
        let index = round - 1;
        Some(match self.ours {
            None => Slot {
                round,
                pair: Some(index / 2 + 1),
                ours: if index.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                },
                opening: (index / 2) as usize % self.openings,
            },
            Some(side) => Slot {
                round,
                pair: None,
                ours: side,
                opening: index as usize % self.openings,
            },
        })
    }

    /// Hands out no more games.
    pub(super) fn stop(&mut self) {
        self.stopped = true;
    }
}

/// The pairs so far: the finished ones counted by our points, and the
/// games whose partner is still being played.
#[derive(Debug, Default)]
pub(super) struct Pairs {
    /// Our half points in each pair's game that finished first.
    waiting: HashMap<u32, u32>,
    /// The finished pairs.
    pub counts: Pentanomial,
}

impl Pairs {
    /// Notes that a game of pair `pair` gave us `half_points` (0, 1 or 2);
    /// `true` when that finished the pair.
    pub(super) fn finished(&mut self, pair: u32, half_points: u32) -> bool {
        match self.waiting.remove(&pair) {
            Some(first) => {
                self.counts.add(first + half_points);
                true
            }
            None => {
                self.waiting.insert(pair, half_points);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_one_opening_from_both_sides() {
        let mut s = Schedule::new(Some(5), None, 2);
        let slots: Vec<Slot> = std::iter::from_fn(|| s.next_slot()).collect();
        let got: Vec<(u32, Option<u32>, Color, usize)> = slots
            .iter()
            .map(|s| (s.round, s.pair, s.ours, s.opening))
            .collect();
        assert_eq!(
            got,
            [
                (1, Some(1), Color::White, 0),
                (2, Some(1), Color::Black, 0),
                (3, Some(2), Color::White, 1),
                (4, Some(2), Color::Black, 1),
                // The list comes round again.
                (5, Some(3), Color::White, 0),
            ]
        );
    }

    #[test]
    fn one_side_throughout_plays_each_opening_in_turn_unpaired() {
        let mut s = Schedule::new(Some(3), Some(Color::Black), 2);
        let got: Vec<(Option<u32>, Color, usize)> = std::iter::from_fn(|| s.next_slot())
            .map(|s| (s.pair, s.ours, s.opening))
            .collect();
        assert_eq!(
            got,
            [
                (None, Color::Black, 0),
                (None, Color::Black, 1),
                (None, Color::Black, 0)
            ]
        );
    }

    #[test]
    fn a_stopped_or_unbounded_schedule() {
        let mut s = Schedule::new(None, None, 8);
        for _ in 0..1000 {
            assert!(s.next_slot().is_some());
        }
        s.stop();
        assert_eq!(s.next_slot(), None);
    }

    #[test]
    fn pairs_finish_in_any_order() {
        let mut p = Pairs::default();
        assert!(!p.finished(2, 2));
        assert!(!p.finished(1, 1));
        assert!(p.finished(2, 0));
        assert!(!p.finished(3, 2));
        assert!(p.finished(1, 2));
        assert!(p.finished(3, 2));
        // Pair 2: 1 point (2 + 0 half points), pair 1: 1½, pair 3: 2.
        assert_eq!(p.counts.counts, [0, 0, 1, 1, 1]);
    }
}
