//! The bench of the native reference: leaves that no regex program
//! mirrors, kept to measure a search idea before its regexes exist
//! (`match --native`, docs/strength.md says what each adds): full and
//! bounded capture searches at the leaf, one line of captures, static
//! exchanges in place of one-square gains. Also the names `match --native`
//! knows every kind of leaves by ([`Leaves::name`], `FromStr` and
//! `Display`).
//!
//! The oracle (`reference`) calls in here only for [`Leaves::Bench`]; this
//! module must not change the leaves the tests compare the regex program
//! with, nor be what a test of the regex program compares against.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Move, Position, Role, Square};

use super::{gained, recapture_gain, Leaves, Threats};
use crate::board::codec::{encode, excerpt};
use crate::eval::leaf_value;
use crate::eval::values::{Values, REGEX_VALUES};
use crate::vocabulary::mated_at;
use crate::vocabulary::EVEN;

/// The leaves the bench adds to the oracle's ([`Leaves::Bench`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experiment {
    /// [`Leaves::Threats`] for replies that capture nothing, else
    /// [`Leaves::Quiescent`] (an experiment: a capture may take the
    /// attacker).
    ThreatsOnQuiet,
    /// A full capture search at the leaf (stand pat or any capture, each
    /// side in turn, with alpha-beta): what the regex program's one-square
    /// terms approximate, kept to measure how much they miss.
    Full,
    /// [`Experiment::Full`] cut after two captures (the taker's, then the
    /// replier's; static after that): the most a regex program could
    /// generate as threads.
    TwoCaptures,
    /// The taker's best static exchange (the whole sequence of captures on
    /// one square, least valuable attacker first, each side free to stop)
    /// on any of the replier's non-king pieces, on the leaf's board.
    LeafSee,
    /// [`Leaves::Threats`] with static exchanges instead of one-square
    /// gains: on the candidate's board for the threats, on the reply's
    /// square for the recapture.
    ThreatsSee,
    /// The taker's best one-square exchange on any of the replier's
    /// non-king pieces, judged on the leaf's board (after the reply).
    LeafThreats,
    /// One line of captures at the leaf: each side in turn stands pat or
    /// makes its most valuable capture (most valuable victim, then least
    /// valuable taker), so one capture per ply where [`Experiment::Full`]
    /// tries every one: a search with no branching, the shape a regex
    /// program could run inside each leaf's thread.
    CaptureLine,
    /// [`Leaves::Threats`] with the tuned piece-square values
    /// (`eval::values`, [`Values::Tuned`]) in place of the regex
    /// program's: the search entry points run it as `Threats` inside
    /// `values::with_values` ([`Leaves::split`]).
    Tuned,
}

impl Leaves {
    /// Every kind of leaves, in the order `match --native`'s help lists
    /// them.
    pub const ALL: [Leaves; 11] = [
        Leaves::Quiescent,
        Leaves::Threats,
        Leaves::Bench(Experiment::ThreatsOnQuiet),
        Leaves::Bench(Experiment::Full),
        Leaves::Bench(Experiment::TwoCaptures),
        Leaves::Bench(Experiment::CaptureLine),
        Leaves::Bench(Experiment::LeafThreats),
        Leaves::Bench(Experiment::LeafSee),
        Leaves::Bench(Experiment::ThreatsSee),
        Leaves::Bench(Experiment::Tuned),
        Leaves::Static,
    ];

    /// The name `match --native` knows the leaves by (`threats-on-quiet`).
    pub fn name(self) -> &'static str {
        match self {
            Leaves::Quiescent => "quiescent",
            Leaves::Static => "static",
            Leaves::Threats => "threats",
            Leaves::Bench(e) => match e {
                Experiment::ThreatsOnQuiet => "threats-on-quiet",
                Experiment::Full => "full",
                Experiment::TwoCaptures => "two-captures",
                Experiment::LeafSee => "leaf-see",
                Experiment::ThreatsSee => "threats-see",
                Experiment::LeafThreats => "leaf-threats",
                Experiment::CaptureLine => "capture-line",
                Experiment::Tuned => "tuned",
            },
        }
    }

    /// The leaves the search runs and the values its evaluation reads:
    /// [`Experiment::Tuned`] is [`Leaves::Threats`] with
    /// [`Values::Tuned`], every other kind itself with the regex
    /// program's values.
    pub fn split(self) -> (Leaves, Values) {
        match self {
            Leaves::Bench(Experiment::Tuned) => (Leaves::Threats, Values::Tuned),
            other => (other, REGEX_VALUES),
        }
    }
}

/// A name that no kind of leaves has (see [`Leaves::name`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no leaves named {name:?}: use {}", accepted())]
pub struct UnknownLeaves {
    /// The name given, quoted (see [`excerpt`]).
    pub name: String,
}

/// The accepted names, as `match --native`'s help lists them: `a, b or c`.
fn accepted() -> String {
    let names: Vec<&str> = Leaves::ALL.iter().map(|l| l.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

impl FromStr for Leaves {
    type Err = UnknownLeaves;

    /// The leaves named `name` (exactly, see [`Leaves::name`]).
    fn from_str(name: &str) -> Result<Leaves, UnknownLeaves> {
        Leaves::ALL
            .into_iter()
            .find(|l| l.name() == name)
            .ok_or_else(|| UnknownLeaves {
                name: excerpt(name),
            })
    }
}

impl fmt::Display for Leaves {
    /// [`Leaves::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Experiment {
    /// The threats a candidate's leaves weigh, in `after` (the replier to
    /// move), as `candidate_value` takes them.
    pub(super) fn threats(self, after: &Chess) -> Threats {
        match self {
            Experiment::ThreatsOnQuiet | Experiment::Tuned => Threats::of(after),
            Experiment::ThreatsSee => {
                let (g1, x1, g2) = best_exchange_against(after, after.turn());
                Threats { g1, x1, g2 }
            }
            _ => Threats::default(),
        }
    }

    /// The value of `leaf`, reached by the reply `r`, for `us` (the side
    /// that moved into the position before it; `threats`: that position's,
    /// see [`Experiment::threats`]). The caller has ruled out a mate.
    pub(super) fn leaf_score(
        self,
        leaf: &Chess,
        r: &Move,
        threats: &Threats,
        us: shakmaty::Color,
    ) -> u32 {
        match self {
            Experiment::Full => capture_search(leaf, 0, 2 * EVEN, u32::MAX),
            Experiment::TwoCaptures => capture_search(leaf, 0, 2 * EVEN, 2),
            Experiment::CaptureLine => capture_line(leaf),
            Experiment::LeafThreats => gained(leaf, us, Threats::against(leaf, !leaf.turn()).g1),
            Experiment::LeafSee => gained(leaf, us, best_exchange(leaf)),
            Experiment::ThreatsSee => gained(
                leaf,
                us,
                recapture_exchange(leaf, r).max(threats.after(r.from())),
            ),
            Experiment::ThreatsOnQuiet if r.is_capture() => {
                gained(leaf, us, recapture_gain(leaf, r))
            }
            Experiment::ThreatsOnQuiet | Experiment::Tuned => gained(
                leaf,
                us,
                recapture_gain(leaf, r).max(threats.after(r.from())),
            ),
        }
    }
}

/// The value of `pos` for its side to move when each side in turn may
/// stand pat or capture (alpha-beta between `alpha` and `beta`); a side in
/// check with no legal move is mated; `plies`: the captures still allowed.
fn capture_search(pos: &Chess, alpha: u32, beta: u32, plies: u32) -> u32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { mated_at(1) } else { EVEN };
    }
    let stand = leaf_value(&encode(pos).board, pos.turn());
    if stand >= beta {
        return stand;
    }
    let mut alpha = alpha.max(stand);
    if plies == 0 {
        return alpha;
    }
    let mut captures: Vec<Move> = moves.into_iter().filter(|m| m.is_capture()).collect();
    captures.sort_by_key(capture_order);
    for m in captures {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let v = 2 * EVEN - capture_search(&next, 2 * EVEN - beta, 2 * EVEN - alpha, plies - 1);
        if v >= beta {
            return v;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The order captures are tried in: most valuable victim first, then
/// least valuable taker.
fn capture_order(m: &Move) -> (std::cmp::Reverse<u32>, u32) {
    let victim = m.capture().map_or(0, |r| r as u32);
    (std::cmp::Reverse(victim), m.role() as u32)
}

/// The value of `pos` for its side to move when each side in turn may
/// stand pat or make its first capture in [`capture_order`] (one line, no
/// alpha-beta needed); a side in check with no legal move is mated.
fn capture_line(pos: &Chess) -> u32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { mated_at(1) } else { EVEN };
    }
    let stand = leaf_value(&encode(pos).board, pos.turn());
    let first = moves
        .into_iter()
        .filter(|m| m.is_capture())
        .min_by_key(capture_order);
    first.map_or(stand, |m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        stand.max(2 * EVEN - capture_line(&next))
    })
}

/// A role's worth in the static exchange, in pawns (the king's is too
/// large to give for anything).
pub fn exchange_worth(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// The side to move's best static exchange on any non-king piece of the
/// other side, in pawns: on each square, the captures alternate with each
/// side's least valuable attacker (direct attacks on the board as it
/// stands; x-rays ignored), and either side may stop.
fn best_exchange(pos: &Chess) -> u32 {
    best_exchange_against(pos, !pos.turn()).0
}

/// The static exchange on a square whose piece is worth `victim`, attacked
/// by `takers` and defended by `defenders` (worths, ascending), in pawns:
/// 0 when the taker does better not to start.
fn exchange(victim: i32, takers: &[i32], defenders: &[i32]) -> u32 {
    let Some(&first) = takers.first() else {
        return 0;
    };
    let mut gains = vec![victim];
    let (mut on_square, mut t, mut d, mut defending) = (first, 1, 0, true);
    loop {
        let next = if defending {
            defenders.get(d)
        } else {
            takers.get(t)
        };
        let Some(&a) = next else { break };
        let last = gains[gains.len() - 1];
        gains.push(on_square - last);
        on_square = a;
        if defending {
            d += 1;
        } else {
            t += 1;
        }
        defending = !defending;
    }
    for i in (1..gains.len()).rev() {
        gains[i - 1] = -(-gains[i - 1]).max(gains[i]);
    }
    u32::try_from(gains[0]).unwrap_or(0)
}

/// The best and second-best static exchanges in `pos` on `replier`'s
/// non-king pieces, with the best one's square.
fn best_exchange_against(pos: &Chess, replier: shakmaty::Color) -> (u32, Option<Square>, u32) {
    let taker = !replier;
    let board = pos.board();
    let worths = |sq: Square, by: shakmaty::Color| attacker_worths(pos, sq, by);
    let (mut best, mut at, mut second) = (0, None, 0);
    for x in board.by_color(replier) & !board.kings() {
        let Some(role) = board.role_at(x) else {
            continue;
        };
        let takers = worths(x, taker);
        let defenders = worths(x, replier);
        let gain = exchange(exchange_worth(role), &takers, &defenders);
        if gain > best {
            (second, best, at) = (best, gain, Some(x));
        } else if gain > second {
            second = gain;
        }
    }
    (best, at, second)
}

/// The static exchange on the square `reply` went to, for the side to
/// move in `leaf`.
fn recapture_exchange(leaf: &Chess, reply: &Move) -> u32 {
    if reply.is_castle() {
        return 0;
    }
    let to = reply.to();
    let victim = exchange_worth(reply.promotion().unwrap_or(reply.role()));
    let worths = |by: shakmaty::Color| attacker_worths(leaf, to, by);
    exchange(victim, &worths(leaf.turn()), &worths(!leaf.turn()))
}

/// The exchange worths of `by`'s pieces attacking `sq` directly in `pos`,
/// least first.
fn attacker_worths(pos: &Chess, sq: Square, by: shakmaty::Color) -> Vec<i32> {
    let board = pos.board();
    let mut w: Vec<i32> = board
        .attacks_to(sq, by, board.occupied())
        .into_iter()
        .filter_map(|a| board.role_at(a).map(exchange_worth))
        .collect();
    w.sort_unstable();
    w
}

#[cfg(test)]
mod tests {
    use super::{capture_line, capture_search, exchange, leaf_value, Experiment, UnknownLeaves};
    use crate::board::codec::encode;
    use crate::reference::Leaves;
    use crate::vocabulary::EVEN;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("a FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("a legal position")
    }

    /// The stand-pat value, the capture line's and the full capture
    /// search's, for the side to move.
    fn values(fen: &str) -> (u32, u32, u32) {
        let pos = position(fen);
        let stand = leaf_value(&encode(&pos).board, pos.turn());
        (
            stand,
            capture_line(&pos),
            capture_search(&pos, 0, 2 * EVEN, u32::MAX),
        )
    }

    #[test]
    fn the_capture_line_takes_what_hangs_and_sees_the_recapture() {
        // A rook hangs: both take it.
        let (stand, line, full) = values("6k1/8/8/3r4/8/8/8/3Q2K1 w - - 0 1");
        assert!(line >= stand + 45, "{stand} {line}");
        assert_eq!(line, full);
        // The queen takes a pawn defended by a pawn: the line sees the
        // recapture and stands pat, as the full search does.
        let (stand, line, full) = values("6k1/8/4p3/3p4/8/8/8/3Q2K1 w - - 0 1");
        assert_eq!((line, full), (stand, stand));
    }

    #[test]
    fn the_capture_line_misses_a_second_choice() {
        // The queen can take the defended queen (first in the order, an
        // even trade) or the undefended rook: the line tries only the
        // queen, the full search wins the rook.
        let (stand, line, full) = values("6k1/8/4p3/3q4/r7/8/8/3Q2K1 w - - 0 1");
        assert!(full >= stand + 45, "{stand} {full}");
        assert!(line + 40 <= full, "{line} {full}");
    }

    #[test]
    fn the_static_exchange_plays_out_the_whole_sequence() {
        // A rook taken by a pawn, the pawn retaken by a knight: 5 - 1.
        assert_eq!(exchange(5, &[1], &[3]), 4);
        // A pawn defended by a pawn is not worth the queen.
        assert_eq!(exchange(1, &[9], &[1]), 0);
        // A knight attacked twice and defended once: the second capture
        // wins it back, so the defender does better not to retake.
        assert_eq!(exchange(3, &[3, 5], &[3]), 3);
        // The one-square rule would say 3 - 3 = 0 here: with two rooks
        // against one defender the bishop falls.
        assert_eq!(exchange(3, &[5, 5], &[5]), 3);
        // The king takes only what no piece defends.
        assert_eq!(exchange(3, &[100], &[]), 3);
        assert_eq!(exchange(3, &[100], &[1]), 0);
        // Nothing attacks: nothing to gain.
        assert_eq!(exchange(9, &[], &[1]), 0);
    }

    #[test]
    fn every_name_reads_back_as_its_leaves() {
        let names: Vec<String> = Leaves::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "quiescent",
                "threats",
                "threats-on-quiet",
                "full",
                "two-captures",
                "capture-line",
                "leaf-threats",
                "leaf-see",
                "threats-see",
                "tuned",
                "static"
            ]
        );
        for leaves in Leaves::ALL {
            assert_eq!(leaves.name().parse(), Ok(leaves), "{leaves}");
        }
        // What `match --native` names its engine with.
        assert_eq!(format!("{:?}", Leaves::Threats), "Threats");
        assert_eq!(
            format!("{:?}", Leaves::Bench(Experiment::ThreatsOnQuiet)),
            "ThreatsOnQuiet"
        );
    }

    #[test]
    fn an_unknown_name_is_quoted_short_with_the_names_to_use() {
        let e = " threats".parse::<Leaves>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "no leaves named \" threats\": use quiescent, threats, threats-on-quiet, \
             full, two-captures, capture-line, leaf-threats, leaf-see, threats-see, tuned or static"
        );
        let long = "x".repeat(1000);
        let UnknownLeaves { name } = long.parse::<Leaves>().unwrap_err();
        assert!(name.len() < 200, "{name}");
    }
}
