//! The search's vocabulary: the score scale and mate arithmetic, the
//! thread variables a search leaves its answer in, and the depths a search
//! can be built for with the plan each stands for. Every part of the
//! evaluation and the search (and the front ends that show a score) takes
//! these terms from here rather than from each other. This module builds no
//! program and knows no board.

use std::fmt;
use std::str::FromStr;

/// The score of an even position.
pub const EVEN: u32 = 5000;
/// The score of a position where the side to move is checkmated, from the
/// other side's point of view.
pub const MATE: u32 = 9000;

/// The chosen move (UCI).
pub const BEST: &str = "em";
/// The chosen move's score, for the side to move, from a search of
/// whatever depth the program was built for.
pub const SCORE: &str = "v";

/// A depth a search program can be built for, in plies: [`Depth::MIN`]
/// to [`Depth::MAX`]. Made only by [`Depth::new`] (or `FromStr`,
/// `TryFrom<u32>`), which refuse any other number, so a program is never
/// built for a depth it does not support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Depth(u32);

/// A depth no search program is built for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DepthError {
    /// A number outside the supported range.
    #[error(
        "search depth {0} is not supported (use {min} to {max})",
        min = Depth::MIN.0,
        max = Depth::MAX.0
    )]
    Unsupported(u32),
    /// Text that is not a number.
    #[error("not a search depth: {0} (use {min} to {max})", min = Depth::MIN.0, max = Depth::MAX.0)]
    NotANumber(String),
}

impl Depth {
    /// The shallowest search: two full-width plies.
    pub const MIN: Depth = Depth(2);
    /// The deepest search the programs can be built for.
    pub const MAX: Depth = Depth(6);
    /// The depth the commands search when given neither a depth nor a time
    /// (`play`, `reply`, `match`, `bench`; `uci`'s `Depth` option defaults
    /// to `search::deepen::TIMED_TOP` instead): the playing strength.
    pub const DEFAULT: Depth = Depth(5);
    /// The fast mode's depth: the library's functions without a depth
    /// (`play_turn`, ...), and the commands whose programs run elsewhere or
    /// many times (`dump`, `fuzz`, `trace`, `listing`).
    pub const FAST: Depth = Depth(2);

    /// `plies` as a depth.
    ///
    /// # Errors
    ///
    /// [`DepthError::Unsupported`] outside [`Depth::MIN`]..=[`Depth::MAX`].
    pub fn new(plies: u32) -> Result<Depth, DepthError> {
        if (Depth::MIN.0..=Depth::MAX.0).contains(&plies) {
            Ok(Depth(plies))
        } else {
            Err(DepthError::Unsupported(plies))
        }
    }

    /// The supported depth nearest to `plies`, for protocols where any
    /// number may come and the nearest is the documented answer (UCI's
    /// `go depth N`).
    pub fn nearest(plies: u32) -> Depth {
        Depth(plies.clamp(Depth::MIN.0, Depth::MAX.0))
    }

    /// `plies` as a depth in a constant: a number out of range does not
    /// compile (for the crate's own tables, such as the ladder).
    pub(crate) const fn exactly(plies: u32) -> Depth {
        assert!(plies >= Depth::MIN.0 && plies <= Depth::MAX.0);
        Depth(plies)
    }

    /// The plies searched.
    pub const fn plies(self) -> u32 {
        self.0
    }

    /// Every depth, shallowest first.
    pub fn all() -> impl Iterator<Item = Depth> {
        (Depth::MIN.0..=Depth::MAX.0).map(Depth)
    }

    /// Its place among [`Depth::all`] (0 for [`Depth::MIN`]).
    pub(crate) fn index(self) -> usize {
        (self.0 - Depth::MIN.0) as usize
    }

    /// How the search spends its plies: depths 2 and 3 are full width;
    /// depth 4 is 2 full-width plies and 2 capture plies, depth 5 three and
    /// two (searched with probes, `search::probed`); depth 6 four and two, where
    /// only the root's candidates that depth 5's root cut keeps get the
    /// ply more (`search::deep_root`). Which node kind searches each
    /// ply is the search's plan (`search::plan::NodePlan::of`).
    pub fn plan(self) -> Plan {
        match self.0 {
            2 => Plan { full: 2, plies: 2 },
            3 => Plan { full: 3, plies: 3 },
            4 => Plan { full: 2, plies: 4 },
            5 => Plan { full: 3, plies: 5 },
            _ => Plan { full: 4, plies: 6 },
        }
    }
}

impl TryFrom<u32> for Depth {
    type Error = DepthError;

    fn try_from(plies: u32) -> Result<Depth, DepthError> {
        Depth::new(plies)
    }
}

impl FromStr for Depth {
    type Err = DepthError;

    fn from_str(text: &str) -> Result<Depth, DepthError> {
        let plies = text
            .trim()
            .parse()
            .map_err(|_| DepthError::NotANumber(regex_vm::excerpt(text)))?;
        Depth::new(plies)
    }
}

/// A depth equals its number of plies (`depth == 5`).
impl PartialEq<u32> for Depth {
    fn eq(&self, plies: &u32) -> bool {
        self.0 == *plies
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How a search spends its plies: every move for the first `full` plies,
/// then captures only (and every move where the side to move is in check,
/// each side free to stand pat otherwise) up to `plies`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The full-width plies.
    pub full: u32,
    /// All plies, capture plies included (at most two more than `full`).
    pub plies: u32,
}

impl Plan {
    /// Whether the moves made at `ply` are captures only.
    pub(crate) fn captures_at(self, ply: u32) -> bool {
        ply > self.full
    }
}

/// The latest ply a mate score counts from, at any depth: depth 6's ply
/// more is searched as depth 5 from each reply (`search::deep_root`),
/// whose mates count from that reply's ply, so no score is a mate later
/// than ply 5.
pub const LATEST_MATE_PLY: u32 = 5;

/// The score of delivering mate with the move at ply `ply` (1 = the
/// searching side's own move), for the side that mates: [`MATE`] at ply 1,
/// one less for each ply later, so that a nearer mate scores more.
pub fn mate_at(ply: u32) -> u32 {
    MATE + 1 - ply
}

/// The score of being mated by the move at ply `ply`, for the mated side.
pub fn mated_at(ply: u32) -> u32 {
    2 * EVEN - mate_at(ply)
}

/// The mate a search score promises, in moves of the side that mates:
/// `Some(n)` when the side to move mates with its `n`th move, `Some(-n)`
/// when it is mated by the opponent's `n`th move, `None` for any other
/// score. Mate scores are [`mate_at`] / [`mated_at`] of a ply, and no
/// search is deeper than [`Depth::MAX`] plies. Every front end that shows a
/// score as mate (UCI, `reply`, the play screen) reads it from here.
pub fn mate_in(score: u32) -> Option<i32> {
    let moves = |ply: u32| i32::try_from(ply).ok();
    if (mate_at(Depth::MAX.0)..=MATE).contains(&score) {
        moves((MATE + 1 - score).div_ceil(2))
    } else if (mated_at(1)..=mated_at(Depth::MAX.0)).contains(&score) {
        moves((MATE + 1 - (2 * EVEN - score)) / 2).map(|n| -n)
    } else {
        None
    }
}

/// Whether `name` has a move's shape in UCI text: two squares, then
/// optionally the piece a pawn promotes to (`e2e4`, `e7e8q`).
pub(crate) fn is_move_name(name: &str) -> bool {
    let b = name.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"qrbn".contains(&b[4]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_is_made_only_within_the_supported_range() {
        assert_eq!(Depth::new(1), Err(DepthError::Unsupported(1)));
        assert_eq!(Depth::new(7), Err(DepthError::Unsupported(7)));
        assert_eq!(Depth::new(3).map(Depth::plies), Ok(3));
        assert_eq!(" 4 ".parse::<Depth>().map(Depth::plies), Ok(4));
        assert!(matches!(
            "four".parse::<Depth>(),
            Err(DepthError::NotANumber(_))
        ));
        assert_eq!("0".parse::<Depth>(), Err(DepthError::Unsupported(0)));
        let all: Vec<u32> = Depth::all().map(Depth::plies).collect();
        assert_eq!(all, [2, 3, 4, 5, 6]);
        assert_eq!(Depth::MAX.index(), 4);
    }

    #[test]
    fn each_depth_stands_for_its_plan() {
        let plans: Vec<(u32, u32)> = Depth::all()
            .map(|d| (d.plan().full, d.plan().plies))
            .collect();
        assert_eq!(plans, [(2, 2), (3, 3), (2, 4), (3, 5), (4, 6)]);
    }

    #[test]
    fn mate_scores_read_back_as_moves() {
        assert_eq!(mate_in(mate_at(1)), Some(1));
        assert_eq!(mate_in(mate_at(3)), Some(2));
        assert_eq!(mate_in(mated_at(2)), Some(-1));
        assert_eq!(mate_in(mated_at(4)), Some(-2));
        assert_eq!(mate_in(EVEN), None);
        assert_eq!(mate_in(mate_at(Depth::MAX.plies() + 1)), None);
    }
}
