//! Selective rules for the native search in the regex program's shape
//! (`metered`): inexact cuts, each screened natively by SPRT at the regex
//! program's modeled cost (`match --native .. --select ..`) before any
//! regex is written for it.
//!
//! A [`Select`] names the rules a search applies, each with its
//! parameter; [`Select::NONE`] (the default) applies none, and then
//! `metered` stays the exact mirror of the regex program. Every rule acts
//! at a probed node below the root (`metered`'s `probed`), whose
//! candidates the regex program has already made and looked at (each
//! scored as a leaf), and only drops candidates before their searches:
//! the threads the regex program would still make (the candidates, the
//! look) are charged as before, the dropped searches are not. None drops
//! a move that gives check, captures or promotes, nor any move of a side
//! in check, so a mating reply is always searched.
//!
//! - **ProbCut** (`probcut:M`): where a candidate is bounded by its own
//!   probe (the opponent's best-looking reply, searched), drop it when
//!   that bound is within `M` (tens of centipawns) of not beating the
//!   node's probe, not only when it proves it cannot.
//! - **Futility** (`futility:M`): at the last full-width ply, where the
//!   opponent may stand pat, the same with the bound of the position as
//!   it stands.
//! - **Late-move pruning** (`lmp:K`): search only the `K` best-looking
//!   candidates (the look's order), besides the probe and the forcing
//!   moves.
//!
//! This module decides which candidates a rule drops; it searches nothing
//! and charges nothing (`metered` does both).

use std::fmt;
use std::str::FromStr;

use shakmaty::{CastlingMode, Chess, Move, Position};

use super::{leaf_score, Threats, SEARCHED};

/// The selective rules a search applies, with their parameters; `None`:
/// the rule is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Select {
    /// ProbCut's margin at the nodes cut by own probes.
    pub probcut: Option<u32>,
    /// Futility's margin at the nodes cut by standing.
    pub futility: Option<u32>,
    /// Late-move pruning: how many best-looking quiet candidates a node
    /// searches.
    pub lmp: Option<u32>,
}

impl Select {
    /// No rule: the regex program's search, exactly.
    pub const NONE: Select = Select {
        probcut: None,
        futility: None,
        lmp: None,
    };

    /// Whether no rule is on.
    pub fn is_none(&self) -> bool {
        *self == Select::NONE
    }

    /// Whether a probed node whose probe scores `bar` (for the side to
    /// move) drops `m` (played from `pos` into `after`) by a bound on its
    /// value of `bound`: always when the bound proves it cannot beat the
    /// probe, and within the rule's margin (`probcut` at own probes,
    /// `futility` at standing, by `standing`) when `m` is quiet.
    pub fn drops(
        &self,
        pos: &Chess,
        m: &Move,
        after: &Chess,
        standing: bool,
        bound: u32,
        bar: u32,
    ) -> bool {
        let margin = if standing {
            self.futility
        } else {
            self.probcut
        };
        let margin = match margin {
            Some(margin) if quiet(pos, m, after) => margin,
            _ => 0,
        };
        bound <= bar.saturating_add(margin)
    }

    /// Late-move pruning at a probed node of `pos` whose `moves` are made
    /// at `ply`: which of them (by index) are dropped, `None` where the
    /// rule is off or drops nothing. The look's order is [`look_order`]'s.
    pub fn late_moves(&self, pos: &Chess, moves: &[Move], ply: u32) -> Option<Vec<bool>> {
        let keep = self.lmp? as usize;
        if pos.is_check() || moves.len() <= keep {
            return None;
        }
        let order = look_order(pos, moves, ply);
        let mut dropped = vec![false; moves.len()];
        for &i in &order[keep..] {
            let mut after = pos.clone();
            after.play_unchecked(moves[i]);
            dropped[i] = quiet(pos, &moves[i], &after);
        }
        Some(dropped)
    }
}

/// The indices of `moves` (the side to move in `pos`'s, made at `ply`)
/// in the order of a look with late-move pruning: lowest leaf score for
/// the opponent first (the look's, as `metered`'s `looked_best`
/// scores), equal ones by their UCI text (`e2e4` before `e7e8q`), as the
/// regex program ranks them (`search::late`), whatever order the moves
/// were made in.
pub(crate) fn look_order(pos: &Chess, moves: &[Move], ply: u32) -> Vec<usize> {
    let threats = Threats::of(pos);
    let mut order: Vec<(u32, String, usize)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let score = leaf_score(pos, m, ply - 1, SEARCHED, &threats);
            (score, m.to_uci(CastlingMode::Standard).to_string(), i)
        })
        .collect();
    order.sort_unstable();
    order.into_iter().map(|(_, _, i)| i).collect()
}

/// Whether `m` (from `pos` into `after`) is one a rule may drop: no
/// capture, no promotion, no check, its side not in check.
fn quiet(pos: &Chess, m: &Move, after: &Chess) -> bool {
    !pos.is_check() && !m.is_capture() && !m.is_promotion() && !after.is_check()
}

impl fmt::Display for Select {
    /// `probcut:M,futility:M,lmp:K` for the rules on, `none` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules: Vec<String> = [
            ("probcut", self.probcut),
            ("futility", self.futility),
            ("lmp", self.lmp),
        ]
        .into_iter()
        .filter_map(|(name, n)| n.map(|n| format!("{name}:{n}")))
        .collect();
        if rules.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&rules.join(","))
        }
    }
}

/// A `--select` text that names no rule or a bad parameter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no selective rule {0:?}: use RULE:N[,RULE:N..] with the rules probcut:MARGIN, futility:MARGIN (tens of centipawns) and lmp:KEEP (at least 1), or none")]
pub struct UnknownRule(String);

impl FromStr for Select {
    type Err = UnknownRule;

    /// Rules as [`Select`]'s `Display` writes them (`lmp:6,probcut:5`),
    /// each at most once; `none` for no rule.
    fn from_str(text: &str) -> Result<Select, UnknownRule> {
        let mut select = Select::NONE;
        if text.trim() == "none" {
            return Ok(select);
        }
        for rule in text.split(',') {
            let bad = || UnknownRule(rule.chars().take(40).collect());
            let (name, n) = rule.trim().split_once(':').ok_or_else(bad)?;
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            let slot = match name.trim() {
                "probcut" => &mut select.probcut,
                "futility" => &mut select.futility,
                "lmp" if n >= 1 => &mut select.lmp,
                _ => return Err(bad()),
            };
            if slot.replace(n).is_some() {
                return Err(bad());
            }
        }
        Ok(select)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn position(fen: &str) -> Chess {
        crate::board::codec::parse_fen(fen).expect("a legal position")
    }

    fn play(pos: &Chess, uci: &str) -> (Move, Chess) {
        let m = uci
            .parse::<UciMove>()
            .expect("UCI")
            .to_move(pos)
            .expect("legal");
        let mut after = pos.clone();
        after.play_unchecked(m);
        (m, after)
    }

    #[test]
    fn rules_parse_and_print_back() {
        let s: Select = "lmp:6,probcut:5".parse().unwrap();
        assert_eq!(
            s,
            Select {
                probcut: Some(5),
                futility: None,
                lmp: Some(6)
            }
        );
        assert_eq!(s.to_string(), "probcut:5,lmp:6");
        assert_eq!("none".parse::<Select>(), Ok(Select::NONE));
        assert_eq!(Select::NONE.to_string(), "none");
        for bad in ["", "lmp", "lmp:0", "lmp:x", "green:3", "lmp:2,lmp:3"] {
            assert!(bad.parse::<Select>().is_err(), "{bad}");
        }
    }

    /// A quiet move whose bound is just under the margin is dropped; a
    /// check, a capture and a promotion with the same bound are kept,
    /// and without the rule only a bound that proves it is a drop.
    #[test]
    fn margins_drop_quiet_moves_only() {
        let probcut = Select {
            probcut: Some(5),
            ..Select::NONE
        };
        // Qxd7+ captures with check, Qh5+ checks.
        let pos = position("4k3/3p4/8/8/4P3/8/8/1N1QK3 w - - 0 1");
        let (quiet_move, after) = play(&pos, "b1c3");
        let (bar, bound) = (5000, 5003);
        assert!(probcut.drops(&pos, &quiet_move, &after, false, bound, bar));
        assert!(!probcut.drops(&pos, &quiet_move, &after, false, bound + 3, bar));
        // Futility is its own rule: off here.
        assert!(!probcut.drops(&pos, &quiet_move, &after, true, bound, bar));
        assert!(!Select::NONE.drops(&pos, &quiet_move, &after, false, bound, bar));
        assert!(Select::NONE.drops(&pos, &quiet_move, &after, false, bar, bar));
        for forcing in ["d1d7", "d1h5"] {
            let (m, after) = play(&pos, forcing);
            assert!(after.is_check() || m.is_capture(), "{forcing}");
            assert!(
                !probcut.drops(&pos, &m, &after, false, bound, bar),
                "{forcing}"
            );
        }
        let promoting = position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let (m, after) = play(&promoting, "b7b8q");
        assert!(!probcut.drops(&promoting, &m, &after, false, bound, bar));
        // In check, nothing is quiet.
        let checked = position("4k3/8/8/8/8/8/8/K3r3 w - - 0 1");
        let (m, after) = play(&checked, "a1b2");
        assert!(!probcut.drops(&checked, &m, &after, false, bound, bar));
    }

    /// `lmp:2` keeps the two best-looking moves and every forcing one:
    /// the capture of a queen and a checking move survive however late
    /// the look puts them; quiet late moves are dropped; in check
    /// nothing is.
    #[test]
    fn late_moves_keep_the_best_looking_and_the_forcing() {
        let lmp = Select {
            lmp: Some(2),
            ..Select::NONE
        };
        let pos = position("r3k3/8/8/8/3q4/8/4N3/R3K3 w - - 0 1");
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let dropped = lmp.late_moves(&pos, &moves, 3).unwrap();
        let kept: Vec<String> = moves
            .iter()
            .zip(&dropped)
            .filter(|(_, d)| !**d)
            .map(|(m, _)| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        // Nxd4 wins the queen; Rxa8+ is a capture with check.
        assert!(kept.contains(&"e2d4".to_string()), "{kept:?}");
        assert!(kept.contains(&"a1a8".to_string()), "{kept:?}");
        assert!(dropped.iter().any(|d| *d), "{kept:?}");
        let forcing = moves
            .iter()
            .filter(|m| {
                let mut after = pos.clone();
                after.play_unchecked(**m);
                !quiet(&pos, m, &after)
            })
            .count();
        assert!(kept.len() <= 2 + forcing, "{kept:?}");
        assert_eq!(Select::NONE.late_moves(&pos, &moves, 3), None);
        let checked = position("4k3/8/8/8/8/8/1Q6/K3r3 w - - 0 1");
        let moves: Vec<Move> = checked.legal_moves().into_iter().collect();
        assert_eq!(lmp.late_moves(&checked, &moves, 3), None);
    }
}
