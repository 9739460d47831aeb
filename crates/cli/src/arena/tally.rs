//! What `match` has so far: the games' results and endings, our moves'
//! allowed mates and times (merged game by game, [`Tally::merge`]), and
//! the summary printed at the end. It plays nothing and decides nothing.

use super::adjudicate::{AllowedMate, Ending};
use super::elo::elo;
use super::record::Game;
use super::time_control::TimeStats;

/// What the match has so far.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) wins: u32,
    pub(super) draws: u32,
    pub(super) losses: u32,
    endings: Vec<(String, u32)>,
    /// Moves our engine chose (the openings' moves are not counted).
    pub(super) engine_moves: u32,
    /// Mates-in-one those moves allowed when another move avoided them.
    pub(super) allowed: u32,
    /// The first few of them ([`MAX_EXAMPLES`]): game, FEN before our
    /// move, our move (SAN).
    pub(super) examples: Vec<(u32, String, String, AllowedMate)>,
    /// Our moves' time and depth, the flags.
    pub(super) times: TimeStats,
}

impl Tally {
    /// Counts a finished game's result and ending.
    pub(super) fn add(&mut self, game: &Game, ending: Ending) {
        match ending.winner() {
            Some(winner) if winner == game.ours => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
        if let Ending::Time { winner } = ending {
            if winner == game.ours {
                self.times.their_flags += 1;
            } else {
                self.times.our_flags += 1;
            }
        }
        let name = ending.to_string();
        match self.endings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => self.endings.push((name, 1)),
        }
    }

    /// Adds the moves of one game (its own tally: its notes, allowed
    /// mates and times, no result yet) to the match's.
    pub(super) fn merge(&mut self, game: Tally) {
        self.engine_moves += game.engine_moves;
        self.allowed += game.allowed;
        let room = MAX_EXAMPLES.saturating_sub(self.examples.len());
        self.examples.extend(game.examples.into_iter().take(room));
        self.times.merge(game.times);
    }

    /// Whether another allowed mate is worth keeping as an example.
    pub(super) fn wants_example(&self) -> bool {
        self.examples.len() < MAX_EXAMPLES
    }

    /// The summary: the games, the result from our side, the score and
    /// its Elo, then `after_elo` (the match's conditions and pairs), the
    /// endings, the allowed mates and the times.
    pub(super) fn summary(
        &self,
        engine: &str,
        opponent: &str,
        clocked: bool,
        after_elo: &str,
    ) -> String {
        let n = self.wins + self.draws + self.losses;
        let points = f64::from(self.wins) + 0.5 * f64::from(self.draws);
        let mut out = format!("games: {n} ({engine} vs {opponent})\n");
        out.push_str(&format!(
            "W/D/L: {}/{}/{} (for {engine})\n",
            self.wins, self.draws, self.losses
        ));
        if n > 0 {
            out.push_str(&format!(
                "score: {points}/{n} ({:.1}%)\n",
                100.0 * points / f64::from(n)
            ));
        }
        if let Some(e) = elo(self.wins, self.draws, self.losses) {
            out.push_str(&format!("elo: {e}\n"));
        }
        out.push_str(after_elo);
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        out.push_str(&format!("endings: {}\n", endings.join(", ")));
        out.push_str(&format!(
            "allowed mates-in-one: {} (in {} moves of our engine)\n",
            self.allowed, self.engine_moves
        ));
        for (round, fen, played, a) in &self.examples {
            out.push_str(&format!(
                "  game {round}: {fen}: {played} allowed {}, {} avoided it\n",
                a.mate, a.avoidable_by
            ));
        }
        out.push_str(&self.times.summary(clocked));
        out
    }
}

/// How many allowed mates the summary lists.
const MAX_EXAMPLES: usize = 10;
