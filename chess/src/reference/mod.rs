//! The native reference, the oracle the tests compare the regex program
//! with: the same search and evaluation on shakmaty.
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
//! Its evaluation reads the regex program's values unless the leaves
//! choose others (`Leaves::split`: `match --native tuned`).
//!
//! This file owns the search and the leaves the tests use ([`SEARCHED`],
//! the one the regex program mirrors, and the two before it); the leaves
//! that only `match --native` measures, and the names it knows all leaves
//! by, are the bench's (`bench_leaves`). Nothing here may change what the regex
//! program is compared against for the sake of an experiment.

use shakmaty::{Chess, Move, Position, Role, Square};

use crate::board::codec::encode;
use crate::eval::leaf_value;
use crate::eval::quiesce::{gain, least};
use crate::eval::values::with_values;
use crate::search::guard::{guarded_score, GUARD_MOVES};
use crate::vocabulary::{mate_at, mated_at, Depth, Plan, EVEN};

pub mod bench_leaves;
pub mod clocked;
pub mod cost;
mod metered;
pub mod select;

use bench_leaves::Experiment;
pub use metered::{best_moves_metered, best_moves_selective};
pub use select::Select;

/// What the leaves add to the evaluation. The regex program's leaves are
/// [`SEARCHED`]; tests also run the search with the others, to find where
/// a term changes the line, and `match --native` plays with any of them
/// (by their names, [`Leaves::name`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// The evaluation plus the recapture gain on the reply's square.
    Quiescent,
    /// The evaluation alone (the search before quiescence).
    Static,
    /// [`Leaves::Quiescent`], or the taker's best threat (`threats`)
    /// when that gains more.
    Threats,
    /// An experiment of the bench, mirrored by no regex program.
    Bench(Experiment),
}

/// The leaves of the search the regex program mirrors.
pub const SEARCHED: Leaves = Leaves::Threats;

impl std::fmt::Debug for Leaves {
    /// The variant's name, an experiment's without `Bench(..)` around it:
    /// `match --native` names its engine with it (`ThreatsOnQuiet`), as it
    /// did before the experiments had an enum of their own.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Leaves::Quiescent => f.write_str("Quiescent"),
            Leaves::Static => f.write_str("Static"),
            Leaves::Threats => f.write_str("Threats"),
            Leaves::Bench(e) => std::fmt::Debug::fmt(e, f),
        }
    }
}

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
    let (replies, stands) = replies(after, plan, ply);
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
    let (leaves, threats) = leaf_terms(after, plan, ply, leaves);
    replies
        .into_iter()
        .map(|r| leaf_score(after, r, ply, leaves, &threats))
        .chain(stands.then(stand))
        .min()
        .unwrap_or(EVEN)
}

/// The leaves the replies of `after` (made at ply `ply + 1`, the last)
/// are scored with, and the threats in `after` they weigh: a capture
/// ply's leaves have no threat term.
fn leaf_terms(after: &Chess, plan: Plan, ply: u32, leaves: Leaves) -> (Leaves, Threats) {
    let leaves = if plan.captures_at(ply + 1) {
        Leaves::Quiescent
    } else {
        leaves
    };
    let threats = match leaves {
        Leaves::Threats => Threats::of(after),
        Leaves::Bench(e) => e.threats(after),
        Leaves::Quiescent | Leaves::Static => Threats::default(),
    };
    (leaves, threats)
}

/// The replies the search makes in `after` (the replier to move at ply
/// `ply + 1`), and whether the replier may also stand pat: in a capture
/// ply, unless it is in check, its good captures and standing pat; else
/// every legal move.
fn replies(after: &Chess, plan: Plan, ply: u32) -> (shakmaty::MoveList, bool) {
    let stands = plan.captures_at(ply + 1) && !after.is_check();
    let replies = if stands {
        let mut captures = after.capture_moves();
        captures.retain(|c| good_capture(after, c));
        captures
    } else {
        after.legal_moves()
    };
    (replies, stands)
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
    let gain = match leaves {
        Leaves::Quiescent => recapture_gain(&leaf, &r),
        Leaves::Static => 0,
        Leaves::Threats => recapture_gain(&leaf, &r).max(threats.after(r.from())),
        Leaves::Bench(e) => return e.leaf_score(&leaf, &r, threats, us),
    };
    gained(&leaf, us, gain)
}

/// The value of `leaf` for `us`, the side that moved into the position
/// before it, with `gain` (in tens of units) added.
fn gained(leaf: &Chess, us: shakmaty::Color, gain: u32) -> u32 {
    leaf_value(&encode(leaf).board, us) + 10 * gain
}

/// The value of the board `board` (as `codec::encode` writes it) for
/// `us`, as the search's leaves see it before any capture gain: the
/// evaluation plus the mop-up term, with this thread's values
/// (`values::Values::active`).
pub fn leaf_evaluation(board: &str, us: shakmaty::Color) -> u32 {
    leaf_value(board, us)
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

/// The line the search expects at `depth`: its best move, the opponent's
/// best reply to it, and so on to the leaf's move (the first of equal
/// moves in shakmaty's order each time). For the full-width depths only
/// (2 and 3): the line does not stop where a side stands pat.
pub fn principal_line(pos: &Chess, depth: Depth, leaves: Leaves) -> Vec<Move> {
    let (leaves, values) = leaves.split();
    with_values(values, || line_of(pos, depth, leaves))
}

/// [`principal_line`] with the values already chosen.
fn line_of(pos: &Chess, depth: Depth, leaves: Leaves) -> Vec<Move> {
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
                Leaves::Threats | Leaves::Bench(Experiment::ThreatsOnQuiet) => Threats::of(&here),
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
pub fn move_score(pos: &Chess, m: Move, depth: Depth) -> u32 {
    move_score_with(pos, m, depth, SEARCHED)
}

/// [`move_score`] with the given leaves.
pub fn move_score_with(pos: &Chess, m: Move, depth: Depth, leaves: Leaves) -> u32 {
    let (leaves, values) = leaves.split();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let plan = depth.plan();
    with_values(values, || {
        guarded(&after, plan, root_value(&after, plan, leaves))
    })
}

/// [`move_score`] without the mate guard (`search::guard`): what the
/// search would score `m` if the guard did not look; tests use it to find
/// positions where the guard decides the move.
pub fn move_score_unguarded(pos: &Chess, m: Move, depth: Depth) -> u32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    root_value(&after, depth.plan(), SEARCHED)
}

/// `score`, the value of the root move that led to `after`, lowered by
/// the mate guard (`search::guard`) where the regex program has it.
fn guarded(after: &Chess, plan: Plan, score: u32) -> u32 {
    let (guards, _) = crate::search::plan::regex_root(plan);
    if guards && mates_by_checks(after, GUARD_MOVES) {
        score.min(guarded_score())
    } else {
        score
    }
}

/// The value of the root move that led to `after`, searched by `plan`.
/// Depth 6's ply more (`search::deep_root`) is the opponent's
/// whole depth-5 answer from `after`, mate guard included, its mates
/// counted from that answer's ply; this reference scores every root move
/// so, where the regex program searches only those depth 5's root cut
/// keeps.
fn root_value(after: &Chess, plan: Plan, leaves: Leaves) -> u32 {
    let (_, deepens) = crate::search::plan::regex_root(plan);
    if deepens {
        let below = Depth::exactly(5).plan();
        return match best_moves_planned(after, below, "", leaves) {
            Some((_, best)) => 2 * EVEN - best,
            None if after.is_check() => mate_at(1),
            None => EVEN,
        };
    }
    candidate_value(after, plan, plan.plies, 1, leaves)
}

/// The best `depth`-ply score of the side to move, `None` without a legal
/// move.
pub fn best_score(pos: &Chess, depth: Depth) -> Option<u32> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_score(pos, m, depth))
        .max()
}

/// Every move reaching the best `depth`-ply score, and the score.
pub fn best_moves(pos: &Chess, depth: Depth) -> Option<(Vec<Move>, u32)> {
    best_moves_in_game(pos, depth, "")
}

/// [`move_score`] in a game whose positions so far have the keys
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
    let (leaves, values) = leaves.split();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let repeats = repeats_in(&after, history);
    with_values(values, || {
        in_game(&after, plan, repeats, root_value(&after, plan, leaves))
    })
}

/// Whether `after` is one of the positions of `history` (see
/// [`move_score_in_game`]).
fn repeats_in(after: &Chess, history: &str) -> bool {
    crate::search::repetition::repeats(&encode(after).board, after.turn(), history)
}

/// `score`, the value of the root move that led to `after`, as the game
/// makes it: even where the move `repeats` a position of the game (unless
/// a mate), lowered by the mate guard.
fn in_game(after: &Chess, plan: Plan, repeats: bool, score: u32) -> u32 {
    let score = if repeats {
        crate::search::repetition::repeated_score(score)
    } else {
        score
    };
    guarded(after, plan, score)
}

/// Whether the side to move in `pos` mates within `moves` moves, each of
/// them a check, whatever the other side answers (`search::guard`'s test).
pub fn mates_by_checks(pos: &Chess, moves: u32) -> bool {
    pos.legal_moves().into_iter().any(|check| {
        let mut after = pos.clone();
        after.play_unchecked(check);
        if !after.is_check() {
            return false;
        }
        let answers = after.legal_moves();
        answers.is_empty()
            || (moves > 1
                && answers.into_iter().all(|answer| {
                    let mut next = after.clone();
                    next.play_unchecked(answer);
                    mates_by_checks(&next, moves - 1)
                }))
    })
}

/// [`best_moves`] in a game with `history` (see
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
    let (leaves, values) = leaves.split();
    let scored: Vec<(Move, u32)> = with_values(values, || {
        pos.legal_moves()
            .into_iter()
            .map(|m| (m, move_score_planned(pos, m, plan, history, leaves)))
            .collect()
    });
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
