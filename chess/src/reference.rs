//! The native reference: the same search and evaluation on shakmaty.
//!
//! Tests compare the regex engine's choice with it: the move the regex
//! program plays must reach [`best_score`]. It mirrors `search` exactly
//! (which positions are tested for mate, which are evaluated, the mate
//! scores by ply, the capture quiescence at the leaves) and shares with the
//! regex program the evaluation (`eval::leaf_value`) and the rule that
//! turns attackers into a capture's gain (`quiesce::gain`), and nothing
//! else: it finds the attackers with shakmaty. Given a game's history (the
//! `_in_game` functions), a root candidate that repeats one of its
//! positions scores `EVEN`, as `repetition` makes the regex search do.

use shakmaty::{Chess, Move, Position, Role, Square};

use crate::board::codec::encode;
use crate::eval::leaf_value;
use crate::eval::quiesce::{gain, least};
use crate::vocabulary::{mate_at, mated_at, Depth, Plan, EVEN};

/// What the leaves add to the evaluation. The regex program's leaves are
/// [`SEARCHED`]; tests also run the search with the others, to find where
/// a term changes the line, and `match --native` plays with any of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// The evaluation plus the recapture gain on the reply's square.
    Quiescent,
    /// The evaluation alone (the search before quiescence).
    Static,
    /// [`Leaves::Quiescent`], or the taker's best threat (`threats`)
    /// when that gains more.
    Threats,
    /// [`Leaves::Threats`] for replies that capture nothing, else
    /// [`Leaves::Quiescent`] (an experiment: a capture may take the
    /// attacker).
    ThreatsOnQuiet,
    /// A full capture search at the leaf (stand pat or any capture, each
    /// side in turn, with alpha-beta): what the regex program's one-square
    /// terms approximate, kept to measure how much they miss.
    Full,
    /// [`Leaves::Full`] cut after two captures (the taker's, then the
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
    /// valuable taker), so one capture per ply where [`Leaves::Full`]
    /// tries every one: a search with no branching, the shape a regex
    /// program could run inside each leaf's thread.
    CaptureLine,
}

/// The leaves of the search the regex program mirrors.
pub const SEARCHED: Leaves = Leaves::Threats;

/// The taker's threats in a position where the replier is to move: the
/// best capture gain on any of the replier's non-king pieces (`g1`, on
/// square `x1`) and the best on any other square (`g2`), each a one-square
/// exchange judged on this board (`quiesce::gain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Threats {
    /// The best gain.
    pub g1: u32,
    /// Its square (`None` when nothing is threatened).
    pub x1: Option<Square>,
    /// The best gain on a square other than `x1`.
    pub g2: u32,
}

impl Threats {
    /// The threats in `pos` against its side to move (the first of equal
    /// best squares in shakmaty's square order).
    pub fn of(pos: &Chess) -> Threats {
        Threats::against(pos, pos.turn())
    }

    /// The threats in `pos` against the pieces of `replier`.
    pub fn against(pos: &Chess, replier: shakmaty::Color) -> Threats {
        let board = pos.board();
        let occupied = board.occupied();
        let mut t = Threats::default();
        for x in board.by_color(replier) & !board.kings() {
            let Some(role) = board.role_at(x) else {
                continue;
            };
            let takers: Vec<char> = board
                .attacks_to(x, !replier, occupied)
                .into_iter()
                .filter_map(|sq| board.role_at(sq).map(Role::upper_char))
                .collect();
            let defended = board.attacks_to(x, replier, occupied).any();
            let g = gain(role.upper_char(), least(&takers), defended);
            if g > t.g1 {
                t.g2 = t.g1;
                t.g1 = g;
                t.x1 = Some(x);
            } else if g > t.g2 {
                t.g2 = g;
            }
        }
        t
    }

    /// The gain still threatened after a reply from `from`: `g2` if it
    /// moves the piece on `x1`, else `g1`.
    pub fn after(&self, from: Option<Square>) -> u32 {
        if from.is_some() && from == self.x1 {
            self.g2
        } else {
            self.g1
        }
    }
}

/// The value, for the side that moves at ply `ply`, of having played into
/// `after`, searched `depth` plies from the position before that move
/// (`plan`: which plies are captures only, see `Depth::plan`).
fn candidate_value(after: &Chess, plan: Plan, depth: u32, ply: u32, leaves: Leaves) -> u32 {
    // In a capture ply the replier may stand pat unless it is in check;
    // its moves are then its good captures.
    let stands = ply + 1 > plan.full && !after.is_check();
    let replies = if stands {
        let mut captures = after.capture_moves();
        captures.retain(|c| good_capture(after, c));
        captures
    } else {
        after.legal_moves()
    };
    if replies.is_empty() && !stands {
        return if after.is_check() { mate_at(ply) } else { EVEN };
    }
    // Standing pat leaves the position as it is (`standpat`).
    let us = !after.turn();
    let stand = || leaf_value(&encode(after).board, us);
    if depth > 2 {
        // The opponent's best, seen from the other side.
        let best = replies
            .into_iter()
            .map(|r| {
                let mut next = after.clone();
                next.play_unchecked(r);
                candidate_value(&next, plan, depth - 1, ply + 1, leaves)
            })
            .chain(stands.then(|| 2 * EVEN - stand()))
            .max()
            .unwrap_or(EVEN);
        return 2 * EVEN - best;
    }
    // A capture ply's leaves have no threat term.
    let leaves = if ply + 1 > plan.full {
        Leaves::Quiescent
    } else {
        leaves
    };
    let threats = match leaves {
        Leaves::Threats | Leaves::ThreatsOnQuiet => Threats::of(after),
        Leaves::ThreatsSee => {
            let (g1, x1, g2) = best_exchange_against(after, after.turn());
            Threats { g1, x1, g2 }
        }
        _ => Threats::default(),
    };
    replies
        .into_iter()
        .map(|r| leaf_score(after, r, ply, leaves, &threats))
        .chain(stands.then(stand))
        .min()
        .unwrap_or(EVEN)
}

/// The value of the leaf reached by the reply `r` (at ply `ply + 1`) from
/// `after`, for the side that moved into `after` (`threats`: those of
/// `after`, with [`Leaves::Threats`]).
fn leaf_score(after: &Chess, r: Move, ply: u32, leaves: Leaves, threats: &Threats) -> u32 {
    let us = !after.turn();
    let mut leaf = after.clone();
    leaf.play_unchecked(r);
    if leaf.is_check() && leaf.legal_moves().is_empty() {
        return mated_at(ply + 1);
    }
    if leaves == Leaves::Full {
        return capture_search(&leaf, 0, 2 * EVEN, u32::MAX);
    }
    if leaves == Leaves::TwoCaptures {
        return capture_search(&leaf, 0, 2 * EVEN, 2);
    }
    if leaves == Leaves::CaptureLine {
        return capture_line(&leaf);
    }
    let gain = match leaves {
        Leaves::Full | Leaves::TwoCaptures | Leaves::CaptureLine => 0,
        Leaves::LeafThreats => Threats::against(&leaf, !leaf.turn()).g1,
        Leaves::LeafSee => best_exchange(&leaf),
        Leaves::ThreatsSee => recapture_exchange(&leaf, &r).max(threats.after(r.from())),
        Leaves::Quiescent => recapture_gain(&leaf, &r),
        Leaves::Static => 0,
        Leaves::Threats => recapture_gain(&leaf, &r).max(threats.after(r.from())),
        Leaves::ThreatsOnQuiet if r.is_capture() => recapture_gain(&leaf, &r),
        Leaves::ThreatsOnQuiet => recapture_gain(&leaf, &r).max(threats.after(r.from())),
    };
    leaf_value(&encode(&leaf).board, us) + 10 * gain
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

/// Whether the capture `m` in `pos` is one the capture plies try
/// (`good_captures`): its victim worth at least its taker, or not
/// defended (direct attacks, the taker lifted from its square).
pub fn good_capture(pos: &Chess, m: &Move) -> bool {
    let Some(victim) = m.capture() else {
        return true;
    };
    let board = pos.board();
    let Some(from) = m.from() else {
        return true;
    };
    let lifted = board.occupied().without(from);
    let defended = board.attacks_to(m.to(), !pos.turn(), lifted).any();
    crate::eval::good_captures::is_good(m.role().upper_char(), victim.upper_char(), defended)
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

/// The line the search expects at `depth`: its best move, the opponent's
/// best reply to it, and so on to the leaf's move (the first of equal
/// moves in shakmaty's order each time). For the full-width depths only
/// (2 and 3): the line does not stop where a side stands pat.
pub fn principal_line(pos: &Chess, depth: Depth, leaves: Leaves) -> Vec<Move> {
    let mut line = Vec::new();
    let mut here = pos.clone();
    let plan = depth.plan();
    let (mut depth, mut ply) = (plan.plies, 1);
    loop {
        let scored = here.legal_moves().into_iter().map(|m| {
            let mut after = here.clone();
            after.play_unchecked(m);
            (m, candidate_value(&after, plan, depth, ply, leaves))
        });
        // The first of the best: `max_by_key` would keep the last.
        let Some((m, _)) = scored.fold(None, |best: Option<(Move, u32)>, (m, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((m, v)),
        }) else {
            return line;
        };
        line.push(m);
        here.play_unchecked(m);
        if depth == 2 {
            let threats = match leaves {
                Leaves::Threats | Leaves::ThreatsOnQuiet => Threats::of(&here),
                _ => Threats::default(),
            };
            let reply =
                here.legal_moves()
                    .into_iter()
                    .fold(None, |best: Option<(Move, u32)>, r| {
                        let v = leaf_score(&here, r, ply, leaves, &threats);
                        match best {
                            Some((_, b)) if b <= v => best,
                            _ => Some((r, v)),
                        }
                    });
            line.extend(reply.map(|(r, _)| r));
            return line;
        }
        depth -= 1;
        ply += 1;
    }
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

/// The quiescence at a leaf (`quiesce`): the gain, in tens of units, of
/// the side to move in `leaf` capturing on the square `reply` just moved
/// to, from shakmaty's attack tables.
pub fn recapture_gain(leaf: &Chess, reply: &Move) -> u32 {
    if reply.is_castle() {
        return 0;
    }
    let to = reply.to();
    let victim = reply.promotion().unwrap_or(reply.role());
    let board = leaf.board();
    let occupied = board.occupied();
    let taker = leaf.turn();
    let role_letter = |r: Role| r.upper_char();
    let takers: Vec<char> = board
        .attacks_to(to, taker, occupied)
        .into_iter()
        .filter_map(|sq| board.role_at(sq).map(role_letter))
        .collect();
    let defended = board.attacks_to(to, !taker, occupied).any();
    gain(role_letter(victim), least(&takers), defended)
}

/// The `depth`-ply value of playing `m` in `pos`, for the side to move
/// (depth clamped as the regex program's is).
pub fn move_score_at(pos: &Chess, m: Move, depth: Depth) -> u32 {
    move_score_with(pos, m, depth, SEARCHED)
}

/// [`move_score_at`] with the given leaves.
pub fn move_score_with(pos: &Chess, m: Move, depth: Depth, leaves: Leaves) -> u32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    root_value(&after, depth.plan(), leaves)
}

/// The value of the root move that led to `after`, searched by `plan`.
fn root_value(after: &Chess, plan: Plan, leaves: Leaves) -> u32 {
    candidate_value(after, plan, plan.plies, 1, leaves)
}

/// [`move_score_at`] the fast depth ([`Depth::FAST`]).
pub fn move_score(pos: &Chess, m: Move) -> u32 {
    move_score_at(pos, m, Depth::FAST)
}

/// The best `depth`-ply score of the side to move, `None` without a legal
/// move.
pub fn best_score_at(pos: &Chess, depth: Depth) -> Option<u32> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_score_at(pos, m, depth))
        .max()
}

/// [`best_score_at`] the fast depth ([`Depth::FAST`]).
pub fn best_score(pos: &Chess) -> Option<u32> {
    best_score_at(pos, Depth::FAST)
}

/// Every move reaching the best `depth`-ply score, and the score.
pub fn best_moves_at(pos: &Chess, depth: Depth) -> Option<(Vec<Move>, u32)> {
    best_moves_in_game(pos, depth, "")
}

/// [`best_moves_at`] the fast depth ([`Depth::FAST`]).
pub fn best_moves(pos: &Chess) -> Option<(Vec<Move>, u32)> {
    best_moves_at(pos, Depth::FAST)
}

/// [`move_score_at`] in a game whose positions so far have the keys
/// `history` (each after a space, as the `Positions:` line holds them):
/// a move into one of them is a draw, [`EVEN`], unless it scores as a mate
/// (`repetition::repeated_score`).
pub fn move_score_in_game(pos: &Chess, m: Move, depth: Depth, history: &str) -> u32 {
    move_score_in_game_with(pos, m, depth, history, SEARCHED)
}

/// [`move_score_in_game`] with the given leaves.
pub fn move_score_in_game_with(
    pos: &Chess,
    m: Move,
    depth: Depth,
    history: &str,
    leaves: Leaves,
) -> u32 {
    move_score_planned(pos, m, depth.plan(), history, leaves)
}

/// [`move_score_in_game_with`] searching `plan` (any number of full-width
/// and capture plies, at least two in all; the regex program offers the
/// plans of [`plan`]).
fn move_score_planned(pos: &Chess, m: Move, plan: Plan, history: &str, leaves: Leaves) -> u32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    let score = root_value(&after, plan, leaves);
    if crate::search::repetition::repeats(&encode(&after).board, after.turn(), history) {
        return crate::search::repetition::repeated_score(score);
    }
    score
}

/// [`best_moves_at`] in a game with `history` (see
/// [`move_score_in_game`]; an empty history repeats nothing).
pub fn best_moves_in_game(pos: &Chess, depth: Depth, history: &str) -> Option<(Vec<Move>, u32)> {
    best_moves_in_game_with(pos, depth, history, SEARCHED)
}

/// [`best_moves_in_game`] with the given leaves (`match --native` plays
/// the first of them).
pub fn best_moves_in_game_with(
    pos: &Chess,
    depth: Depth,
    history: &str,
    leaves: Leaves,
) -> Option<(Vec<Move>, u32)> {
    best_moves_planned(pos, depth.plan(), history, leaves)
}

/// [`best_moves_in_game_with`] searching `plan` (see
/// [`move_score_planned`]): `match --native --plan` measures deeper plans
/// than the regex program can afford.
pub fn best_moves_planned(
    pos: &Chess,
    plan: Plan,
    history: &str,
    leaves: Leaves,
) -> Option<(Vec<Move>, u32)> {
    let scored: Vec<(Move, u32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m, move_score_planned(pos, m, plan, history, leaves)))
        .collect();
    let best = scored.iter().map(|(_, s)| *s).max()?;
    Some((
        scored
            .into_iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m)
            .collect(),
        best,
    ))
}

#[cfg(test)]
mod tests {
    use super::{capture_line, capture_search, exchange, leaf_value};
    use crate::board::codec::encode;
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
}
