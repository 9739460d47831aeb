//! The native search on a clock at the regex program's time: the ladder
//! of plans climbed as `search::deepen` climbs the regex programs, each
//! rung searched by `reference::metered` and timed by the cost model
//! (`cost`) instead of a clock, so that a search idea plays natively with
//! the time it would have in regexes (`match --native .. --regex-time`).
//!
//! The first rung always finishes; each deeper one starts only where the
//! move's budget expects it to fit (the last rung's modeled time times
//! `deepen::growth`, `Budget::worth_starting`), and is stopped once its
//! modeled time reaches the move's limit (a meter with that budget). The
//! answer is the deepest rung that finished; the move's time is every
//! rung's modeled time, the stopped one's included, as the regex
//! program's clock would be charged. It reads no clock.

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::cost::{time_of, work_in, Meter};
use super::{best_moves_selective, Leaves, Select};
use crate::search::clock::Budget;
use crate::search::deepen::growth;
use crate::vocabulary::{mate_at, Depth, Plan};

/// What a climb gives: the deepest finished rung's moves and score, its
/// plan, and the modeled time of the whole climb.
#[derive(Debug, Clone)]
pub struct Climbed {
    /// The best moves and score (`None` without a legal move).
    pub best: Option<(Vec<Move>, u32)>,
    /// The plan that answered.
    pub plan: Plan,
    /// The regex program's time for every rung run, the stopped one's
    /// included.
    pub time: Duration,
    /// The modeled time of the rung stopped at the move's limit, if one
    /// was (part of [`Climbed::time`]).
    pub stopped: Option<Duration>,
}

/// The rungs of a climb to `top`: the regex program's ladder below it
/// (`deepen::rungs_to`), as plans, then `top` (any plan, as `--plan`
/// gives).
pub fn rungs_to(top: Plan) -> Vec<Plan> {
    let mut rungs: Vec<Plan> = crate::search::deepen::LADDER
        .iter()
        .map(|d| d.plan())
        .filter(|p| p.plies < top.plies)
        .collect();
    rungs.push(top);
    rungs
}

/// Climbs `rungs` in `pos` (a game with `history`, see
/// `best_moves_in_game`) with `leaves`, within `budget` of the regex
/// program's modeled time (`None`: every rung).
///
/// # Panics
///
/// When `rungs` is empty.
pub fn climb(
    pos: &Chess,
    history: &str,
    leaves: Leaves,
    rungs: &[Plan],
    budget: Option<Budget>,
) -> Climbed {
    climb_selective(pos, history, leaves, Select::NONE, rungs, budget)
}

/// [`climb`] with the selective rules of `select` on every rung
/// (`best_moves_selective`).
///
/// # Panics
///
/// When `rungs` is empty.
pub fn climb_selective(
    pos: &Chess,
    history: &str,
    leaves: Leaves,
    select: Select,
    rungs: &[Plan],
    budget: Option<Budget>,
) -> Climbed {
    let Some((&first, deeper)) = rungs.split_first() else {
        panic!("climb: no rung to climb");
    };
    let mut meter = Meter::unlimited();
    let best = match best_moves_selective(pos, first, history, leaves, select, &mut meter) {
        Ok(best) => best,
        Err(_) => unreachable!("an unlimited meter stops nothing"),
    };
    let mut climbed = Climbed {
        best,
        plan: first,
        time: meter.time(),
        stopped: None,
    };
    let mut last = climbed.time;
    for &plan in deeper {
        if settled(pos, climbed.best.as_ref()) {
            break;
        }
        let mut meter = match budget {
            None => Meter::unlimited(),
            Some(b) => {
                let expected = last.saturating_mul(growth_of(plan));
                if !b.worth_starting(climbed.time, expected) {
                    break;
                }
                Meter::with_budget(work_in(b.limit.saturating_sub(climbed.time)))
            }
        };
        match best_moves_selective(pos, plan, history, leaves, select, &mut meter) {
            Ok(best) => {
                last = meter.time();
                climbed.time += last;
                climbed.best = best;
                climbed.plan = plan;
            }
            Err(over) => {
                let lost = time_of(over.budget);
                climbed.time += lost;
                climbed.stopped = Some(lost);
                break;
            }
        }
    }
    climbed
}

/// How many times the last rung's time the rung of `plan` is expected to
/// take: the regex program's ladder's figure for its depth
/// (`deepen::growth`), 2 for a plan off the ladder.
fn growth_of(plan: Plan) -> u32 {
    Depth::all().find(|d| d.plan() == plan).map_or(2, growth)
}

/// Whether a deeper rung cannot better `best`: one legal move, or a mate
/// on the first move (as `search::deepen` stops).
fn settled(pos: &Chess, best: Option<&(Vec<Move>, u32)>) -> bool {
    pos.legal_moves().len() <= 1 || best.is_some_and(|(_, score)| *score >= mate_at(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::SEARCHED;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("a FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("a legal position")
    }

    #[test]
    fn the_rungs_are_the_ladders_below_the_top() {
        let plies = |rungs: Vec<Plan>| rungs.iter().map(|p| p.plies).collect::<Vec<_>>();
        assert_eq!(plies(rungs_to(Depth::exactly(6).plan())), [2, 3, 5, 6]);
        assert_eq!(plies(rungs_to(Plan { full: 3, plies: 4 })), [2, 3, 4]);
        assert_eq!(plies(rungs_to(Depth::MIN.plan())), [2]);
    }

    #[test]
    fn a_small_budget_answers_from_a_shallower_rung_and_is_charged_its_limit() {
        let pos =
            position("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 b - - 0 10");
        let rungs = rungs_to(Depth::DEFAULT.plan());
        let all = climb(&pos, "", SEARCHED, &rungs, None);
        assert_eq!(all.plan, Depth::DEFAULT.plan());
        assert_eq!(all.stopped, None);
        // A movetime (not banked) of a tenth of the whole climb's time:
        // depth 2 fits, a deeper rung starts and is stopped at the limit.
        let limit = all.time / 10;
        let short = Budget {
            target: limit,
            limit,
            banked: false,
        };
        let cut = climb(&pos, "", SEARCHED, &rungs, Some(short));
        assert!(cut.stopped.is_some());
        assert!(cut.plan.plies < 5, "{:?}", cut.plan);
        let slack = time_of(crate::reference::cost::BYTES_PER[1]);
        assert!(
            cut.time + Duration::from_micros(1) >= limit && cut.time <= limit + slack,
            "{:?} {limit:?}",
            cut.time
        );
        // Every rung answers as the reference does.
        let reference = crate::reference::best_moves_planned(&pos, cut.plan, "", SEARCHED);
        assert_eq!(cut.best, reference);
    }

    #[test]
    fn one_legal_move_needs_no_deeper_rung() {
        // Black is in check; its king has one move, Kg8.
        let pos = position("7k/8/6KQ/8/8/8/8/8 b - - 0 1");
        assert_eq!(pos.legal_moves().len(), 1);
        let got = climb(&pos, "", SEARCHED, &rungs_to(Depth::DEFAULT.plan()), None);
        assert_eq!(got.plan, Depth::MIN.plan());
    }
}
