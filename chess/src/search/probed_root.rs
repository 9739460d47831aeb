//! The probed root ([`Kind::ProbedRoot`](crate::search::plan::Kind::ProbedRoot)):
//! the root searched without searching every candidate.
//!
//! The root first searches its own probe (`probed::probe`: the candidate a 2-ply
//! look scores best; given a hint, `hint`, the rung below's answer, that
//! move too, the better score taken); then every other candidate gets its
//! own probe (the probe of its node, one ply down), the least its node
//! can score for the opponent, and a candidate whose probe already leaves
//! it strictly below the root's probe is dropped before its next ply is
//! made. Where the plan says so, the root's probe also names the reply
//! that refutes its move, which bounds each candidate its own probe keeps
//! the same way ([`probe_refutation`]). Every candidate that could tie
//! with the best is kept, so the root chooses the move of searching them
//! all; the candidate that is the root's probe's move takes the probe's
//! score instead of being searched a second time. The root's probe's
//! score also goes down to the third ply ([`ROOT_BOUND`], where the plan
//! cuts it by standing), through the root candidates' own probes and
//! searches alike, where a candidate standing strictly below it is
//! dropped as well: every root move through it scores below the root's
//! probe, whose move the root plays instead (a root move that repeats the
//! game's position is a draw whatever it scores, but for a mate, so it
//! gets no such bound). Depth 3, which has no capture plies, cuts its
//! root the same way: a candidate's own probe is then its best reply's
//! whole score.
//!
//! Depth 6's root (`deep_root`) runs the same steps with its own
//! [`RootRule`]. This module owns the root's cut; it must not change the
//! move or score the root chooses, and it leaves the nodes below the root
//! to their kinds.

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use shakmaty::Color;

use crate::movegen::{legal_moves_for, Options};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::answer::{keep_best, no_reply_score, pop_reply_score};
use crate::search::late::{self, LATE_LIST};
use crate::search::plan::At;
use crate::search::probed::{given_probe, probe, probe_picking, Pick};
use crate::search::reduce::Better;
use crate::search::vars::{
    DEEP_ROOT_BOUND, HINT_MOVE, NODE_PROBE_MOVE, NO_MOVE, OWN_PROBE_SCORE, PROBE_MOVE, PROBE_SCORE,
    REFUTATION_MOVE, REFUTATION_SCORE, REPEATS, REPLY_BOUND, ROOT_BOUND,
};
use crate::search::{self, guard, name_candidates, repetition, strip};
use crate::vocabulary::{BEST, EVEN, SCORE};

/// How a probed root treats its candidates once it has its probe: the
/// plain cut ([`Cut`]), or depth 6's window (`deep_root`).
pub(crate) trait RootRule {
    /// Sets [`ROOT_BOUND`] on each active thread (a root candidate
    /// holding the root's [`PROBE_SCORE`]): the score down to which the
    /// candidate's search must be exact.
    fn set_root_bound(&self, m: &mut Machine);

    /// The variable whose score the root's probe's move takes without a
    /// search of its own, `None` to search it as the others are.
    fn probe_move_score(&self) -> Option<&'static str>;

    /// Whether a candidate's node names its best reply (for the
    /// candidate's ply more).
    fn names_best_reply(&self) -> bool;

    /// Each active thread a candidate of `root` whose node just left its
    /// answer on the stack: takes it as the candidate's `SCORE`.
    fn take_score(&self, m: &mut Machine, us: Color, root: At);

    /// Forgets what the rule kept on the root's threads, once its
    /// candidates are searched.
    fn forget(&self, m: &mut Machine);
}

/// The plain root cut.
pub(crate) struct Cut;

impl RootRule for Cut {
    fn set_root_bound(&self, m: &mut Machine) {
        m.set(ROOT_BOUND, m.get(PROBE_SCORE));
    }

    fn probe_move_score(&self) -> Option<&'static str> {
        Some(PROBE_SCORE)
    }

    fn names_best_reply(&self) -> bool {
        false
    }

    fn take_score(&self, m: &mut Machine, _us: Color, _root: At) {
        pop_reply_score(m);
    }

    fn forget(&self, _m: &mut Machine) {}
}

/// The root at `at`, as `search::node` searches it: each active thread (a
/// position, `us` to move) gets `[em, v]` of its best candidate, or
/// nothing when it has no legal move. A depth-6 root candidate's reply
/// search (holding [`REPLY_BOUND`]) hands up its probe's score and a
/// placeholder instead where the probe already leaves that candidate
/// below the deep probe (its score is no matter then: the root plays
/// another move).
pub(crate) fn node(m: &mut Machine, us: Color, at: At) {
    m.scope(|m| {
        take_probe(m, us, at);
        let refutes = at.plan().root_probe_names_refutation();
        m.if_stack_empty(
            |_| {},
            |m| {
                pop_probe(m, refutes);
                if m.is_set(REPLY_BOUND) {
                    m.if_else(
                        m.get(PROBE_SCORE).gt(m.get(REPLY_BOUND)),
                        |m| {
                            m.push(m.get(PROBE_SCORE));
                            m.push(NO_MOVE);
                        },
                        |m| {
                            m.delete(REPLY_BOUND);
                            cut_candidates(m, us, at, &Cut);
                        },
                    );
                } else {
                    cut_candidates(m, us, at, &Cut);
                }
                if refutes {
                    m.delete(HINT_MOVE);
                }
            },
        );
    });
}

/// The root's probe, pushed onto each active thread's stack (its copy of
/// the root, stripped to the board, the game's history and what a reply
/// search of depth 6 is handed); the hint goes once the probe has used
/// it.
pub(crate) fn take_probe(m: &mut Machine, us: Color, at: At) {
    strip(m, 1, &[HINT_MOVE, REPLY_BOUND, DEEP_ROOT_BOUND]);
    probe(m, us, at, true);
    if m.is_set(HINT_MOVE) {
        m.delete(HINT_MOVE);
    }
}

/// Pops the root's probe into [`PROBE_SCORE`] and [`PROBE_MOVE`] and,
/// where it `refutes`, the opponent's best reply to its move into
/// [`HINT_MOVE`]: the hint of every root candidate's own probe (and at
/// depth 6 of the deep probe's reply search).
pub(crate) fn pop_probe(m: &mut Machine, refutes: bool) {
    m.pop_into(&[PROBE_SCORE, PROBE_MOVE]);
    if refutes {
        m.pop_into(&[HINT_MOVE]);
    }
}

/// The root's candidates, each active thread holding the root's probe's
/// score in [`PROBE_SCORE`] and its move in [`PROBE_MOVE`]: the probe's
/// move takes the score `rule` says; every other candidate gets its own
/// probe, is dropped when that leaves it strictly below the root's probe,
/// and is searched otherwise ([`search_candidate`]); leaves `[em, v]` of
/// the best on each thread's stack.
pub(crate) fn cut_candidates(m: &mut Machine, us: Color, at: At, rule: &dyn RootRule) {
    m.scope(|m| {
        // Where the third ply cuts by standing, its nodes also drop the
        // candidates that stand below the root's probe, in each
        // candidate's own probe as in its search.
        let bound = at.plan().bounds_third_ply();
        legal_moves_for(m, us, Options::QUIET);
        name_candidates(m, !us, at.ply());
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        if bound {
            // A candidate's own probe then scores exactly where the
            // candidate can reach the bound, and below it where it
            // cannot, so the cut below drops the same candidates.
            rule.set_root_bound(m);
            if m.is_set(REPEATS) {
                // A repeating candidate scores a draw unless its search
                // finds a mate, which a score below the bound need not
                // tell truly: its nodes get no bound (0 never binds).
                m.if_(m.get(REPEATS).eq("T"), |m| m.set(ROOT_BOUND, 0u32));
            }
        }
        // The root's probe's move was searched before the candidates were
        // made, scored as a candidate here would be, the repetition rule
        // and the mate guard included: where the rule has that score, its
        // candidate takes it instead of being searched again.
        match rule.probe_move_score() {
            Some(known) => m.if_else(
                m.get(BEST).eq(m.get(PROBE_MOVE)),
                |m| {
                    m.set(SCORE, m.get(known));
                    m.delete(CHECK_VAR);
                },
                |m| search_candidate(m, us, at, rule),
            ),
            None => search_candidate(m, us, at, rule),
        }
        m.delete(PROBE_MOVE);
        rule.forget(m);
        if bound {
            m.delete(ROOT_BOUND);
        }
        keep_best(m, SCORE, Better::Max);
        m.push(m.get(SCORE));
        m.push(m.get(BEST));
    });
}

/// One root candidate (each active thread, `us` just moved, holding the
/// root's probe's score in [`PROBE_SCORE`]), as [`cut_candidates`]
/// searches it: its own probe, dropped when that leaves it strictly
/// below the root's probe, searched otherwise; leaves its [`SCORE`] as
/// `rule` takes it, the repetition rule and the mate guard applied.
fn search_candidate(m: &mut Machine, us: Color, at: At, rule: &dyn RootRule) {
    let below = at.next();
    // Where the node below is a probed one, its own probe is its probe,
    // and it skips the probe's move.
    let probed = below.probed();
    let named = probed.is_some();
    probe(m, !us, below, named);
    m.if_stack_empty(
        |m| no_reply_score(m, at.ply()),
        |m| {
            m.pop_into(&[OWN_PROBE_SCORE]);
            if named {
                m.pop_into(&[NODE_PROBE_MOVE]);
            }
            if below.late().is_some() {
                m.pop_into(&[LATE_LIST]);
            }
            // The candidate scores at most `2 * EVEN - OWN_PROBE_SCORE`.
            let under = (m.get(PROBE_SCORE) + m.get(OWN_PROBE_SCORE)).gt(2 * EVEN);
            drop_unless_repeating(m, under);
            if m.is_set(HINT_MOVE) {
                // Where the look chose the refutation, its probe searched
                // it already: the placeholder names no move.
                m.if_(m.get(HINT_MOVE).eq(m.get(NODE_PROBE_MOVE)), |m| {
                    m.set(HINT_MOVE, NO_MOVE);
                });
                probe_refutation(m, us, at);
            }
            m.set(PROBE_SCORE, m.get(OWN_PROBE_SCORE));
            m.delete(OWN_PROBE_SCORE);
            if below.late().is_some() {
                late::keep_all_in_check(m);
            } else {
                m.delete(CHECK_VAR);
            }
            match probed {
                Some(kind) => m.scope(|m| {
                    // The node below sees only the board and its probe
                    // (and its late list, `late`).
                    let kept = [
                        PROBE_SCORE,
                        ROOT_BOUND,
                        DEEP_ROOT_BOUND,
                        NODE_PROBE_MOVE,
                        LATE_LIST,
                    ];
                    strip(m, below.ply(), &kept);
                    given_probe(m, !us, below, kind, rule.names_best_reply());
                }),
                // Depth 3: its replies are the last two plies, searched
                // whole (each reply's own probe would be its whole score)
                // by their node, which takes its own copy.
                None => search::node(m, !us, below),
            }
            rule.take_score(m, us, at);
        },
    );
    repetition::repeats_are_even(m, at.ply());
    if at.plan().guards_root() {
        guard::guard_root_candidates(m, us);
    }
}

/// A root candidate its own probe did not drop (each active thread,
/// holding the root's probe's score in [`PROBE_SCORE`], its own probe's
/// in [`OWN_PROBE_SCORE`] and that probe's move in [`NODE_PROBE_MOVE`]),
/// when the root's probe named the reply that refutes its move
/// ([`HINT_MOVE`]): that reply is searched as the own probe searches its
/// choice, and bounds the candidate the same way, so a candidate it
/// leaves strictly below the root's probe is dropped too. Where its score
/// is the better for the opponent, it becomes the candidate's own probe
/// (the node below searches every other reply, and scores at least it).
/// Only candidates the look's choice did not drop search it: it is one
/// reply search more for each.
fn probe_refutation(m: &mut Machine, us: Color, at: At) {
    probe_picking(m, !us, at.next(), true, Pick::Refutation);
    m.delete(HINT_MOVE);
    m.if_stack_empty(
        |_| {},
        |m| {
            m.pop_into(&[REFUTATION_SCORE, REFUTATION_MOVE]);
            let under = (m.get(PROBE_SCORE) + m.get(REFUTATION_SCORE)).gt(2 * EVEN);
            drop_unless_repeating(m, under);
            m.if_(m.get(REFUTATION_SCORE).gt(m.get(OWN_PROBE_SCORE)), |m| {
                m.set(OWN_PROBE_SCORE, m.get(REFUTATION_SCORE));
                m.set(NODE_PROBE_MOVE, m.get(REFUTATION_MOVE));
            });
            m.delete(REFUTATION_SCORE);
            m.delete(REFUTATION_MOVE);
        },
    );
}

/// Deletes each active thread (a root candidate) where `drop` holds,
/// unless it repeats a position of the game (a draw whatever its bound
/// says, so never dropped).
pub(crate) fn drop_unless_repeating(m: &mut Machine, drop: Expr) {
    if m.is_set(REPEATS) {
        let repeats = m.get(REPEATS).eq("T");
        m.if_(drop & !repeats, |m| m.destroy_active());
    } else {
        m.if_(drop, |m| m.destroy_active());
    }
}
