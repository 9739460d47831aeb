//! The reference search in the regex program's shape, metered in its cost
//! (`cost`): the search a search idea is written into to be measured
//! natively at the cost it would have in regexes.
//!
//! It returns what the reference returns ([`best_moves_metered`] gives
//! the moves and score of `best_moves_planned`: the same tree, leaves,
//! repetition rule and mate guard), and it cuts where the regex program
//! cuts, by the same kind of bound, so that it visits the nodes the regex
//! program makes threads for. A node is either full (every candidate
//! searched) or probed, as the regex program's plan says
//! (`search::plan::NodePlan`: [`probes`], [`probes_root`]): below the
//! root, the last full-width ply above the capture plies and the ply
//! above it; the root from depth 3 on. A probed node looks at its
//! candidates (each scored as a leaf, with the recapture and threat
//! gains), searches the best-looking one, the probe, and then drops every
//! other candidate that a bound shows cannot beat it: the position as it
//! stands, where the opponent may stand pat (the next ply captures only
//! and the candidate gives no check), or the candidate's own probe (the
//! opponent's best-looking reply, searched), where the node below is a
//! probed one, which then takes that reply as its probe; the root drops
//! only candidates strictly below (ties are kept) and never one that
//! repeats the game. The regex program's finer bounds (the root's bound
//! passed down to the third ply, the probe's refutation tried on every
//! root candidate, depth 6's window and bounds on the deep searches) are
//! left out: they cut a little more there.
//!
//! Every thread the regex program would make for a node is charged to a
//! [`Meter`] ([`Kind`]): the candidates a node makes (all of them, cut or
//! not), the ones a look makes, and all the replies of a candidate of the
//! last two plies.
//!
//! It reads the reference's tree (`replies`, `leaf_terms`, `leaf_score`,
//! `in_game`) and changes none of it.

use shakmaty::{Chess, Move, MoveList, Position};

use super::cost::{Kind, Meter, OverBudget};
use super::select::{look_order, Select};
use super::{in_game, leaf_score, leaf_terms, repeats_in, replies, Leaves, Threats, SEARCHED};
use crate::board::codec::encode;
use crate::eval::leaf_value;
use crate::eval::values::with_values;
use crate::search::plan::{regex_root, Kind as NodeKind, NodePlan, RootCut};
use crate::vocabulary::{mate_at, Depth, Plan, EVEN};

/// The top of the score scale: a value `v` for one side is `TOP - v` for
/// the other.
const TOP: u32 = 2 * EVEN;

/// The moves reaching the best score of the side to move in `pos`, and the
/// score, as [`super::best_moves_planned`] gives them (`None` without a
/// legal move), every thread the regex program would make charged to
/// `meter`.
///
/// # Errors
///
/// [`OverBudget`] when the meter's budget is spent before the search ends.
pub fn best_moves_metered(
    pos: &Chess,
    plan: Plan,
    history: &str,
    leaves: Leaves,
    meter: &mut Meter,
) -> Result<Option<(Vec<Move>, u32)>, OverBudget> {
    best_moves_selective(pos, plan, history, leaves, Select::NONE, meter)
}

/// [`best_moves_metered`] with the selective rules of `select` (`select`:
/// inexact, so it no longer returns the reference's moves and score;
/// with [`Select::NONE`] it does).
///
/// # Errors
///
/// [`OverBudget`] when the meter's budget is spent before the search ends.
pub fn best_moves_selective(
    pos: &Chess,
    plan: Plan,
    history: &str,
    leaves: Leaves,
    select: Select,
    meter: &mut Meter,
) -> Result<Option<(Vec<Move>, u32)>, OverBudget> {
    meter.charge(Kind::Ply, 0, plan.plies as usize)?;
    let (leaves, values) = leaves.split();
    let mut search = Search {
        plan,
        leaves,
        select,
        base: 0,
        meter,
    };
    with_values(values, || search.root(pos, history, None))
}

/// The regex program's node kinds for `plan` (`search::plan`), where a
/// depth has that plan.
fn regex_plan(plan: Plan) -> Option<NodePlan> {
    Depth::all()
        .find(|d| d.plan() == plan)
        .map(|d| NodePlan::of(d, RootCut::On))
}

/// Whether the node at `ply` with `depth` plies left (its candidates made
/// at `ply`) is a probed one: as the regex program's plan says
/// (`search::plan`), and for a plan no depth has, where the regex
/// program would put them: below the root, the last full-width ply
/// before a capture ply, and the ply above it.
fn probes(plan: Plan, depth: u32, ply: u32) -> bool {
    if let Some(nodes) = regex_plan(plan) {
        return matches!(nodes.kind(ply), NodeKind::Probed(_));
    }
    let captures_at = |p: u32| p > plan.full;
    ply > 1
        && ((depth == 3 && captures_at(ply + 1))
            || (depth == 4 && captures_at(ply + 2) && !captures_at(ply + 1)))
}

/// Whether the root of `plan` is a probed one: as the regex program's
/// plan says, and for a plan no depth has, where the node below it is.
fn probes_root(plan: Plan) -> bool {
    match regex_plan(plan) {
        Some(nodes) => matches!(
            nodes.kind(1),
            NodeKind::ProbedRoot | NodeKind::DeepRoot { .. }
        ),
        None => plan.plies > 2 && probes(plan, plan.plies - 1, 2),
    }
}

/// Whether `plan` is depth 6's: each root move scored by the opponent's
/// whole depth-5 search (the reference's `root_value`).
fn deepens(plan: Plan) -> bool {
    regex_root(plan).1
}

/// A candidate's own probe, found by the node above: the reply it looked
/// best and that reply's value for its mover, so that the candidate's
/// node, a probed one, takes it as its probe.
#[derive(Clone, Copy)]
struct Probe {
    reply: Move,
    value: u32,
}

/// One search of a plan; `base`: the ply its root stands at below the
/// real root (1 for depth 6's searches of the opponent's answer), for the
/// meter only (mates count from the search's own root, as the
/// reference's do).
struct Search<'m> {
    plan: Plan,
    leaves: Leaves,
    /// The selective rules (`select`), [`Select::NONE`] for the regex
    /// program's search.
    select: Select,
    base: u32,
    meter: &'m mut Meter,
}

impl Search<'_> {
    /// Counts `n` threads of `kind` at `ply` of this search.
    fn charge(&mut self, kind: Kind, ply: u32, n: usize) -> Result<(), OverBudget> {
        self.meter.charge(kind, self.base + ply, n)
    }

    /// The best moves (every one reaching the best score) and the score of
    /// the side to move in `pos`; `probe`: the root's probe when the node
    /// above found it (depth 6's searches of the opponent's answer).
    fn root(
        &mut self,
        pos: &Chess,
        history: &str,
        probe: Option<Probe>,
    ) -> Result<Option<(Vec<Move>, u32)>, OverBudget> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(None);
        }
        let probed = probes_root(self.plan);
        let first = match (probed, probe) {
            (false, _) => None,
            (true, Some(p)) => Some(p),
            (true, None) => {
                self.charge(Kind::Look, 1, moves.len())?;
                let m = looked_best(pos, &moves, 0);
                let value = self.root_score(pos, m, history, None)?;
                Some(Probe { reply: m, value })
            }
        };
        self.charge(Kind::Made, 1, moves.len())?;
        let mut best: Option<(Vec<Move>, u32)> = first.map(|p| (vec![p.reply], p.value));
        for m in moves {
            if first.is_some_and(|p| p.reply == m) {
                continue;
            }
            let mut own = None;
            if let Some(bar) = first.map(|p| p.value) {
                let mut after = pos.clone();
                after.play_unchecked(m);
                if !repeats_in(&after, history) {
                    // Its own probe: the opponent's best-looking answer.
                    let p = self.own_probe(&after, self.plan.plies, 1)?;
                    if p.is_some_and(|p| TOP - p.value < bar) {
                        continue;
                    }
                    own = p;
                }
            }
            let score = self.root_score(pos, m, history, own)?;
            match &mut best {
                Some((found, b)) if score == *b => found.push(m),
                Some((_, b)) if score < *b => {}
                _ => best = Some((vec![m], score)),
            }
        }
        Ok(best)
    }

    /// The score of the root move `m` in `pos`, as the reference's
    /// `move_score_planned` gives it; `own`: its node's probe, found.
    fn root_score(
        &mut self,
        pos: &Chess,
        m: Move,
        history: &str,
        own: Option<Probe>,
    ) -> Result<u32, OverBudget> {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let repeats = repeats_in(&after, history);
        let value = if deepens(self.plan) {
            let mut below = Search {
                plan: Depth::exactly(5).plan(),
                leaves: self.leaves,
                select: self.select,
                base: self.base + 1,
                meter: &mut *self.meter,
            };
            match below.root(&after, "", own)? {
                Some((_, best)) => TOP - best,
                None if after.is_check() => mate_at(1),
                None => EVEN,
            }
        } else {
            self.candidate(&after, self.plan.plies, 1, own)?
        };
        Ok(in_game(&after, self.plan, repeats, value))
    }

    /// The own probe of the candidate `after` (moved into at `ply`, the
    /// search `depth` plies from before it): the opponent's best-looking
    /// reply and its value for the opponent, searched as the node below
    /// searches it (at depth 6, as the opponent's depth-5 root scores
    /// it); `None` without a reply.
    fn own_probe(
        &mut self,
        after: &Chess,
        depth: u32,
        ply: u32,
    ) -> Result<Option<Probe>, OverBudget> {
        let (replies, _) = replies(after, self.plan, ply);
        if replies.is_empty() {
            return Ok(None);
        }
        self.charge(Kind::Look, ply + 1, replies.len())?;
        let deep = ply == 1 && deepens(self.plan);
        // The node below is a probed one (but for depth 6's root
        // candidates, whose node is the opponent's root).
        let reply = if deep {
            looked_best(after, &replies, ply)
        } else {
            self.probed_look(after, &replies, ply + 1)?
        };
        let mut next = after.clone();
        next.play_unchecked(reply);
        let value = if deep {
            let below = Depth::exactly(5).plan();
            let mut search = Search {
                plan: below,
                leaves: self.leaves,
                select: self.select,
                base: self.base + 1,
                meter: &mut *self.meter,
            };
            let v = search.candidate(&next, below.plies, 1, None)?;
            in_game(&next, below, false, v)
        } else {
            self.candidate(&next, depth - 1, ply + 1, None)?
        };
        Ok(Some(Probe { reply, value }))
    }

    /// The value of `after` for the side that moved into it at `ply`,
    /// searched `depth` plies from the position before (the reference's
    /// `candidate_value`); `probe`: the node's probe when the node above
    /// found it.
    fn candidate(
        &mut self,
        after: &Chess,
        depth: u32,
        ply: u32,
        probe: Option<Probe>,
    ) -> Result<u32, OverBudget> {
        let (replies, stands) = replies(after, self.plan, ply);
        if replies.is_empty() && !stands {
            return Ok(if after.is_check() { mate_at(ply) } else { EVEN });
        }
        let stand = leaf_value(&encode(after).board, !after.turn());
        if depth == 2 {
            return self.last_two(after, ply, replies, stands.then_some(stand));
        }
        let theirs = if probes(self.plan, depth - 1, ply + 1) {
            self.probed(after, replies, depth - 1, ply + 1, probe)?
        } else {
            self.charge(Kind::Made, ply + 1, replies.len() + usize::from(stands))?;
            let mut best = stands.then(|| TOP - stand);
            for r in replies {
                let mut next = after.clone();
                next.play_unchecked(r);
                let v = self.candidate(&next, depth - 1, ply + 1, None)?;
                best = Some(best.map_or(v, |b| b.max(v)));
            }
            best.unwrap_or(EVEN)
        };
        Ok(TOP - theirs)
    }

    /// The value for the side to move in `pos` of a probed node: its
    /// `moves` made at `ply` with `depth` plies left (none of them a
    /// capture ply's), the best-looking one (or `probe`, found by the node
    /// above) searched first, every other one dropped where a bound shows
    /// it cannot beat the best so far, the rest searched.
    fn probed(
        &mut self,
        pos: &Chess,
        moves: MoveList,
        depth: u32,
        ply: u32,
        probe: Option<Probe>,
    ) -> Result<u32, OverBudget> {
        let probe = match probe {
            Some(p) => p,
            None => {
                self.charge(Kind::Look, ply, moves.len())?;
                let reply = self.probed_look(pos, &moves, ply)?;
                let mut next = pos.clone();
                next.play_unchecked(reply);
                let value = self.candidate(&next, depth, ply, None)?;
                Probe { reply, value }
            }
        };
        self.charge(Kind::Made, ply, moves.len())?;
        let stands_below = ply + 1 > self.plan.full;
        let probes_below = probes(self.plan, depth - 1, ply + 1);
        // The bar is the probe's value, as in the regex program, where
        // every candidate is tested against it at once.
        let bar = probe.value;
        let mut best = bar;
        let late = self.select.late_moves(pos, &moves, ply);
        for (i, m) in moves.into_iter().enumerate() {
            if m == probe.reply || late.as_ref().is_some_and(|dropped| dropped[i]) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            // The opponent may stand pat: the candidate scores at most
            // its position as it stands (a bound that proves it cannot
            // beat the bar, or within futility's margin).
            if stands_below && !after.is_check() {
                let stand = leaf_value(&encode(&after).board, pos.turn());
                if self.select.drops(pos, &m, &after, true, stand, bar) {
                    continue;
                }
            }
            let mut own = None;
            if probes_below {
                own = self.own_probe(&after, depth, ply)?;
                let drops = |p: Probe| {
                    self.select
                        .drops(pos, &m, &after, false, TOP - p.value, bar)
                };
                if own.is_some_and(drops) {
                    continue;
                }
            }
            let v = self.candidate(&after, depth, ply, own)?;
            best = best.max(v);
        }
        Ok(best)
    }

    /// The probe of a probed node of `pos` whose `moves` are made at
    /// `ply`: the look's best (`looked_best`), or with late-move pruning
    /// the first of its order (`select::look_order`), which breaks ties
    /// by name as the regex program's ranking does, the ranking charged
    /// ([`Kind::Rank`]).
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when the ranking passes the meter's budget.
    fn probed_look(&mut self, pos: &Chess, moves: &[Move], ply: u32) -> Result<Move, OverBudget> {
        if self.select.lmp.is_some() {
            // Ranked: charged, no thread made.
            self.charge(Kind::Rank, ply, moves.len())?;
            if let Some(&first) = look_order(pos, moves, ply).first() {
                return Ok(moves[first]);
            }
        }
        Ok(looked_best(pos, moves, ply - 1))
    }

    /// A candidate of the last two plies (`after`, moved into at `ply`):
    /// its worst reply's leaf score, or standing pat (`stand`, when the
    /// replier may), as the reference's `candidate_value` at depth 2. The
    /// regex program makes all its replies.
    fn last_two(
        &mut self,
        after: &Chess,
        ply: u32,
        replies: MoveList,
        stand: Option<u32>,
    ) -> Result<u32, OverBudget> {
        self.charge(
            Kind::Made,
            ply + 1,
            replies.len() + usize::from(stand.is_some()),
        )?;
        let (leaves, threats) = leaf_terms(after, self.plan, ply, self.leaves);
        let worst = replies
            .into_iter()
            .map(|r| leaf_score(after, r, ply, leaves, &threats))
            .chain(stand)
            .min();
        Ok(worst.unwrap_or(EVEN))
    }
}

/// The move of `moves` (the side to move in `pos`'s, made at ply `ply +
/// 1`) that looks best for it: the lowest leaf score it leaves the other
/// side (the regex program's leaves: recapture and threat gains), the
/// first of equal ones.
///
/// # Panics
///
/// When `moves` is empty.
fn looked_best(pos: &Chess, moves: &[Move], ply: u32) -> Move {
    let threats = Threats::of(pos);
    let mut best: Option<(u32, Move)> = None;
    for &m in moves {
        let v = leaf_score(pos, m, ply, SEARCHED, &threats);
        if best.is_none_or(|(b, _)| v < b) {
            best = Some((v, m));
        }
    }
    match best {
        Some((_, m)) => m,
        None => panic!("looked_best: no move to look at"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{random_game, Rng};
    use crate::reference::best_moves_planned;
    use crate::reference::{best_moves_selective, Select};
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    /// The bench positions after their lines' moves, and positions from
    /// seeded random games.
    fn positions() -> Vec<Chess> {
        let mut out: Vec<Chess> = include_str!("../../../tests/data/bench.epd")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let mut fields = line.split(';').map(str::trim);
                let fen: Fen = fields.next().unwrap().parse().unwrap();
                let mut pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
                let mv = fields.find_map(|f| f.strip_prefix("move ")).unwrap().trim();
                let m = mv.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                pos
            })
            .collect();
        for seed in 0..5 {
            let mut rng = Rng::new(700 + seed);
            out.push(random_game(
                &Chess::default(),
                &mut rng,
                6 + 8 * seed as usize,
            ));
        }
        out
    }

    /// Best moves in UCI order, to compare.
    fn sorted(best: Option<(Vec<Move>, u32)>) -> Option<(Vec<Move>, u32)> {
        best.map(|(mut moves, score)| {
            moves.sort_by_key(|m| m.to_uci(CastlingMode::Standard).to_string());
            (moves, score)
        })
    }

    /// Cut where the regex program cuts, it still finds every best move
    /// and the score of the whole tree.
    #[test]
    fn the_shaped_search_returns_the_references_moves_and_score() {
        for plies in 2..=5 {
            let plan = Depth::new(plies).unwrap().plan();
            for pos in positions() {
                let mut meter = Meter::unlimited();
                let got = best_moves_metered(&pos, plan, "", SEARCHED, &mut meter).unwrap();
                let want = best_moves_planned(&pos, plan, "", SEARCHED);
                let fen = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                assert_eq!(sorted(got), sorted(want), "depth {plies}: {fen}");
            }
        }
    }

    #[test]
    fn the_cuts_leave_threads_uncounted_and_depth_6_is_the_references() {
        // Middlegame-1 of the bench, black to move after Nd5.
        let fen: Fen = "r4rk1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 10"
            .parse()
            .unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let mut cut = Meter::unlimited();
        best_moves_metered(&pos, Depth::exactly(3).plan(), "", SEARCHED, &mut cut).unwrap();
        // Without the root's cut depth 3 makes every leaf of the tree.
        let leaves: usize = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut a = pos.clone();
                a.play_unchecked(m);
                a.legal_moves()
                    .iter()
                    .map(|&r| {
                        let mut b = a.clone();
                        b.play_unchecked(r);
                        b.legal_moves().len()
                    })
                    .sum::<usize>()
            })
            .sum();
        // With it, the root's own probes drop about half of the leaves
        // here (45,006 of 84,310 are made, as the regex program's 46,201
        // threads at its peak).
        let made = cut.threads_by_ply();
        assert_eq!(made.len(), 4, "{made:?}");
        assert!(made[3] < leaves as u64 * 3 / 4, "{made:?} of {leaves}");
        // A small endgame at depth 6, the opponent's depth 5 under each
        // root move.
        let fen: Fen = "8/8/4k3/8/2R5/4K3/8/5r2 w - - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let plan = Depth::exactly(6).plan();
        let mut meter = Meter::unlimited();
        let got = best_moves_metered(&pos, plan, "", SEARCHED, &mut meter).unwrap();
        assert_eq!(
            got.map(|b| b.1),
            best_moves_planned(&pos, plan, "", SEARCHED).map(|b| b.1)
        );
        assert!(
            meter.threads_by_ply().len() == 7,
            "{:?}",
            meter.threads_by_ply()
        );
    }

    #[test]
    fn a_repeating_root_move_scores_even_and_is_never_cut() {
        // 1. Nf3 Nf6 2. Ng1 Ng8: white's Nf3 now repeats a position of
        // the game.
        let key = |p: &Chess| {
            crate::rules::ending::position_key(&crate::board::codec::encode(p).board, p.turn())
        };
        let play = |p: &Chess, uci: &str| {
            let mut next = p.clone();
            let m = uci.parse::<UciMove>().unwrap().to_move(p).unwrap();
            next.play_unchecked(m);
            next
        };
        let mut game = vec![Chess::default()];
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let next = play(game.last().unwrap(), uci);
            game.push(next);
        }
        let pos = game.last().unwrap().clone();
        let history: String = game.iter().map(|p| format!(" {}", key(p))).collect();
        let nf3 = "g1f3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        for plies in 3..=5 {
            let depth = Depth::new(plies).unwrap();
            assert_eq!(
                crate::reference::move_score_in_game(&pos, nf3, depth, &history),
                EVEN
            );
            let mut meter = Meter::unlimited();
            let got = best_moves_metered(&pos, depth.plan(), &history, SEARCHED, &mut meter);
            let want = best_moves_planned(&pos, depth.plan(), &history, SEARCHED);
            assert_eq!(sorted(got.unwrap()), sorted(want), "{plies}");
        }
    }

    /// The rules, one at a time and all together.
    fn rules() -> Vec<(&'static str, Select)> {
        [
            "probcut:5",
            "futility:5",
            "lmp:4",
            "probcut:5,futility:5,lmp:4",
        ]
        .into_iter()
        .map(|name| (name, name.parse().unwrap()))
        .collect()
    }

    /// Each rule drops searches somewhere on the bench positions at
    /// depth 5 (the threads it saves are not charged) and saves over
    /// them all; a margin never charges more than the exact search on any
    /// one, late-move pruning may (its ranking is charged, `Kind::Rank`).
    #[test]
    fn each_selective_rule_saves_modeled_time_and_never_adds_any() {
        let plan = Depth::exactly(5).plan();
        let positions = positions();
        let exact: Vec<u64> = positions
            .iter()
            .map(|pos| {
                let mut meter = Meter::unlimited();
                best_moves_metered(pos, plan, "", SEARCHED, &mut meter).unwrap();
                meter.scanned_bytes()
            })
            .collect();
        for (name, select) in rules() {
            let (mut spent, mut ranked) = (0, 0);
            for (pos, &exact) in positions.iter().zip(&exact) {
                let mut meter = Meter::unlimited();
                best_moves_selective(pos, plan, "", SEARCHED, select, &mut meter).unwrap();
                if select.lmp.is_none() {
                    assert!(meter.scanned_bytes() <= exact, "{name}");
                }
                spent += meter.scanned_bytes();
                ranked += meter.count(Kind::Rank);
            }
            assert!(spent < exact.iter().sum(), "{name} saved nothing");
            assert_eq!(ranked > 0, select.lmp.is_some(), "{name}");
        }
    }

    /// Whether the side to move in `pos`, after `m`, can be mated at once.
    fn allows_mate_in_one(pos: &Chess, m: Move) -> bool {
        let mut after = pos.clone();
        after.play_unchecked(m);
        after.legal_moves().into_iter().any(|r| {
            let mut leaf = after.clone();
            leaf.play_unchecked(r);
            leaf.is_checkmate()
        })
    }

    /// Black threatens Re1 mate: some of white's moves allow it, and no
    /// selective search, at any depth, plays one of them (the mating
    /// reply is a check, which no rule drops).
    #[test]
    fn no_rule_walks_into_a_mate_in_one_another_move_avoids() {
        let fen: Fen = "4r1k1/5ppp/8/8/8/8/5PPP/1NB3K1 w - - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let moves = pos.legal_moves();
        let allowing = moves
            .iter()
            .filter(|&&m| allows_mate_in_one(&pos, m))
            .count();
        assert!(allowing > 0 && allowing < moves.len(), "{allowing}");
        for plies in [3, 5] {
            let plan = Depth::new(plies).unwrap().plan();
            for (name, select) in rules() {
                let mut meter = Meter::unlimited();
                let (best, _) = best_moves_selective(&pos, plan, "", SEARCHED, select, &mut meter)
                    .unwrap()
                    .unwrap();
                for m in best {
                    assert!(!allows_mate_in_one(&pos, m), "{name} depth {plies}: {m}");
                }
            }
        }
    }

    #[test]
    fn a_budget_stops_the_search() {
        let pos = positions().swap_remove(5);
        let plan = Depth::DEFAULT.plan();
        let mut all = Meter::unlimited();
        best_moves_metered(&pos, plan, "", SEARCHED, &mut all).unwrap();
        let budget = all.scanned_bytes() / 2;
        let mut half = Meter::with_budget(budget);
        let stopped = best_moves_metered(&pos, plan, "", SEARCHED, &mut half);
        assert_eq!(stopped, Err(OverBudget { budget }));
        assert!(half.scanned_bytes() > budget && half.scanned_bytes() < all.scanned_bytes());
    }
}
