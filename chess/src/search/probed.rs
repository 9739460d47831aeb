//! The probe cut: the probe, one candidate of a node searched before the
//! others, its score the least the node scores; and the probed node
//! ([`Kind::Probed`](crate::search::plan::Kind::Probed)), its probe
//! searched first, then its other candidates, cut against the probe's
//! score as its [`Probed`] kind says (`standing`, `own_probes`, asked
//! through `search::cut_candidates`).
//!
//! The probe searches the candidate a 2-ply look ranks best (each
//! candidate scored as the leaves score a reply: `quiesce::LeafDelta`
//! with the threat term, for the side that moved into the position),
//! searched as the node searches its candidates. At the root the game's
//! history is kept and the probe scored as the root scores a candidate (a
//! repetition a draw, the mate guard); with a hint (`hint`) the hint's
//! move is searched beside the look's choice and the better score taken;
//! where the plan says so (`NodePlan::root_probe_names_refutation`) the
//! root's probe also names the opponent's best reply to its move, which
//! the root's candidates' own probes then search too ([`Pick::Refutation`]).
//! Any candidate's score bounds its node, so whichever the probe chooses,
//! a cut against it stays exact.
//!
//! A node's score is the best of its probe's and the others': exactly
//! the score of searching them all, whichever the probe (the probe's own
//! move is not searched again). The node above may hand a probed node its
//! probe ready made ([`given_probe`]): a root candidate's own probe is its
//! node's, and so is each candidate's own probe one ply further down.
//! This module owns the probe and that frame; the nodes that cut by the
//! probe are `standing`, `own_probes`, `probed_root` and `deep_root`. It
//! must not change what a node scores (the cut changes only how much is
//! searched), and it does not generate moves or evaluate positions
//! itself.

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::board::BOARD_VAR;
use crate::eval::quiesce::LeafDelta;
use crate::eval::threats::Threats;
use crate::eval::{Eval, DELTA_VAR};
use crate::movegen::leaf_moves_with_recaptures;
use crate::rules::specials::{Stage, CHECK_VAR, FROM, PROMOTION, TO};
use crate::search::answer::{keep_best, no_reply_score, score_below, take_reply_value};
use crate::search::late::{self, LATE_LIST};
use crate::search::leaves::{pairs, Moves};
use crate::search::plan::{At, Kind, Probed};
use crate::search::reduce::Better;
use crate::search::vars::{
    BEST_REPLY_MOVE, CANDIDATE_NAME, HINT_MOVE, NODE_PROBE_MOVE, NO_MOVE, PROBE_MOVE, PROBE_SCORE,
    REFUTATION_MOVE, REPEATS, ROOT_BOUND,
};
use crate::search::{cut_candidates, drop_searched_move, guard, hint, repetition, strip, KeepOnly};
use crate::vocabulary::SCORE;

/// The node at `at`, as `search::node` searches it: each active thread (a
/// position, `us` to move) gets `[em, v]`, `em` a placeholder (no caller
/// reads a move below the root) or, where `names_best`, the best
/// candidate's move; nothing when it has no legal move.
pub(crate) fn node(m: &mut Machine, us: Color, at: At, kind: Probed, names_best: bool) {
    m.scope(|m| {
        if at.late().is_some() {
            // Late-move pruning keeps every candidate of a side in check.
            strip(m, at.ply(), &[ROOT_BOUND, CHECK_VAR]);
            if !m.is_set(CHECK_VAR) {
                m.special(Arc::new(Stage::InCheck(us)), &[], &[]);
            }
        } else {
            strip(m, at.ply(), &[ROOT_BOUND]);
        }
        probe(m, us, at, true);
        m.if_stack_empty(
            |_| {},
            |m| {
                m.pop_into(&[PROBE_SCORE, NODE_PROBE_MOVE]);
                if at.late().is_some() {
                    m.pop_into(&[LATE_LIST]);
                    late::keep_all_in_check(m);
                }
                given_probe(m, us, at, kind, names_best);
            },
        );
    });
}

/// The node at `at` given its probe: each active thread (a position
/// holding the probe's score in [`PROBE_SCORE`] and its move in
/// [`NODE_PROBE_MOVE`]) has its other candidates made, cut as `kind`
/// says and searched; leaves `[em, v]`, `v` the best of theirs and the
/// probe's. `em` is a placeholder, unless `names_best` (a depth-6 root
/// candidate's node, whose candidates are cut by their own probes): then
/// it is the move of the best (the probe's where the probe scores better
/// or every candidate was cut), which the candidate's ply more probes
/// beside its look's choice.
pub(crate) fn given_probe(m: &mut Machine, us: Color, at: At, kind: Probed, names_best: bool) {
    m.scope(|m| {
        if m.is_set(BEST_REPLY_MOVE) {
            // The node above names its best candidate; this one's do not.
            m.delete(BEST_REPLY_MOVE);
        }
        cut_candidates(m, us, at, kind, names_best);
        keep_best(m, SCORE, Better::Max);
        if names_best {
            m.push(m.get(BEST_REPLY_MOVE));
        }
        m.push(m.get(SCORE));
    });
    combine_with_probe(m, names_best);
}

/// After the scope of [`given_probe`], each active thread holding its
/// probe's score and move, and on its stack the best searched
/// candidate's (nothing where all were cut): pushes `[em, v]`, the better
/// of the probe's and that one's.
fn combine_with_probe(m: &mut Machine, names_best: bool) {
    // The best of the others, or the probe's when it is better or all
    // were cut.
    let probes_best = |m: &mut Machine| {
        m.set(SCORE, m.get(PROBE_SCORE));
        if names_best {
            m.set(BEST_REPLY_MOVE, m.get(NODE_PROBE_MOVE));
        }
    };
    m.if_stack_empty(probes_best, |m| {
        m.pop_into(&[SCORE]);
        if names_best {
            m.pop_into(&[BEST_REPLY_MOVE]);
        }
        m.if_(m.get(SCORE).lt(m.get(PROBE_SCORE)), probes_best);
    });
    m.push(m.get(SCORE));
    if names_best {
        m.push(m.get(BEST_REPLY_MOVE));
    } else {
        m.push(NO_MOVE);
    }
}

/// Drops, among a probed node's candidates (each active thread, its move
/// in `MOVE_VAR`), the node's probe's move ([`NODE_PROBE_MOVE`]): the
/// probe searched it already.
pub(crate) fn drop_probe_move(m: &mut Machine) {
    drop_searched_move(m, NODE_PROBE_MOVE);
}

/// Which candidate a [`probe`] searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The one its look ranks best (and at the root the hint's as well).
    Look,
    /// The one that plays [`HINT_MOVE`] (none when it is not a legal
    /// move): at a root candidate, the reply that refutes the root's
    /// probe.
    Refutation,
}

/// Pushes the probe of the node at `at` onto each active thread's stack
/// (a position, `us` to move; nothing when it has no legal move): its
/// score on top, under it its move where `named` ([`PROBE_MOVE`]), under
/// that, where the root's probe names it, the opponent's best reply to
/// it ([`REFUTATION_MOVE`], a placeholder when it has none).
pub(crate) fn probe(m: &mut Machine, us: Color, at: At, named: bool) {
    probe_picking(m, us, at, named, Pick::Look);
}

/// [`probe`], searching the candidate `pick` chooses.
pub(crate) fn probe_picking(m: &mut Machine, us: Color, at: At, named: bool, pick: Pick) {
    m.scope(|m| {
        let refuting = at.is_root() && at.plan().root_probe_names_refutation();
        // A root candidate's own probe (ply 2) keeps the root's probe's
        // score for the node below it.
        let also: &[&str] = if at.ply() == 2 {
            &[HINT_MOVE, ROOT_BOUND]
        } else {
            &[HINT_MOVE]
        };
        strip(m, at.ply(), also);
        // With a hint (at the root), a second run beside the first
        // searches the hint's move, and the probe scores the better of
        // the two; the refutation's probe searches the hint's move alone.
        let refutation = pick == Pick::Refutation;
        let hinted = (at.is_root() && !refutation && m.is_set(HINT_MOVE)).then(|| hint::split(m));
        let two_runs = hinted.is_some();
        let late = at.late().filter(|_| named);
        look(m, us, at.ply(), named, (two_runs, refutation), late);
        if let Some(separator) = hinted {
            hint::join(m, separator);
        }
        search_chosen(m, us, at, refuting);
        repetition::repeats_are_even(m, at.ply());
        if at.is_root() && at.plan().guards_root() {
            guard::guard_root_candidates(m, us);
        }
        if two_runs {
            keep_best(m, SCORE, Better::Max);
        }
        if refuting {
            m.push(m.get(REFUTATION_MOVE));
        }
        if named && at.late().is_some() {
            m.push(m.get(LATE_LIST));
        }
        if named {
            debug_assert!(m.is_set(PROBE_MOVE), "the probe's move is kept");
            m.push(m.get(PROBE_MOVE));
        }
        m.push(m.get(SCORE));
    });
}

/// The look: each active thread's candidates made and scored as the
/// leaves score a reply, the best kept (one a run: two at a hinted root,
/// whose hint's run keeps only the hint's move; the refutation's probe
/// keeps only the hint's move) and, where `named`, its move named in
/// [`PROBE_MOVE`]; where `late` (late-move pruning keeping that many,
/// `late`), the best by the look's score and name, with the node's
/// [`LATE_LIST`].
fn look(
    m: &mut Machine,
    us: Color,
    ply: u32,
    named: bool,
    (two_runs, refutation): (bool, bool),
    late: Option<u32>,
) {
    m.special(Arc::new(Threats(us)), &[], &[]);
    leaf_moves_with_recaptures(m, us);
    repetition::mark_candidates(m, !us, ply);
    m.special(Arc::new(LeafDelta(!us)), &[], &[]);
    if two_runs {
        hint::keep_hint(m);
    }
    if refutation {
        hint::keep_only_hint(m);
    }
    if let Some(keep) = late {
        debug_assert!(
            !two_runs && !refutation,
            "late-move pruning is below the root"
        );
        late::rank(m, keep);
        return;
    }
    if ply == 1 || m.is_set(ROOT_BOUND) {
        // A few dozen threads (a few thousand at the root candidates' own
        // probes, which keep the root's probe's score for the node
        // below): one deletion per variable will do.
        let kept = [BOARD_VAR, DELTA_VAR, REPEATS, CANDIDATE_NAME, ROOT_BOUND];
        for v in m.defined_vars() {
            let name = named && [FROM, TO, PROMOTION].contains(&v.as_str());
            if !kept.contains(&v.as_str()) && !name {
                m.delete(&v);
            }
        }
    } else {
        // In the order the move generation leaves them.
        let kept: &'static [&'static str] = if named {
            &[BOARD_VAR, FROM, PROMOTION, TO, DELTA_VAR]
        } else {
            &[BOARD_VAR, DELTA_VAR]
        };
        m.special(Arc::new(KeepOnly(kept)), &[], &[]);
    }
    keep_best(m, DELTA_VAR, Better::Min);
    m.delete(DELTA_VAR);
    if named {
        // Named once the look has chosen: one thread a node (two at a
        // hinted root).
        m.set(PROBE_MOVE, hint::candidate_name(m));
        for v in [FROM, TO, PROMOTION] {
            m.delete(v);
        }
    }
}

/// The look's choice (each active thread, `us` just moved) searched as
/// the node at `at` searches a candidate, left with its [`SCORE`]; where
/// `refuting`, with the opponent's best reply in [`REFUTATION_MOVE`].
fn search_chosen(m: &mut Machine, us: Color, at: At, refuting: bool) {
    if at.kind() == Kind::LastTwo {
        // The candidate and its replies are the last two plies (depth
        // 3's root cut): scored as that node scores them.
        pairs(m, us, at.ply(), Moves::All);
        return;
    }
    if at.next().kind().arrives_evaluated() {
        m.special(Arc::new(Eval(!us)), &[], &[]);
    }
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if refuting {
        name_refutation(m, us, at);
    } else {
        score_below(m, us, at);
    }
}

/// The root's probe's candidate (each active thread) searched by the
/// node below, which names its best reply: the candidate's [`SCORE`] and
/// that reply in [`REFUTATION_MOVE`] (a placeholder when it has none).
fn name_refutation(m: &mut Machine, us: Color, at: At) {
    let below = at.next();
    let kind = below
        .probed()
        .expect("the plan names a refutation only above a probed node");
    node(m, !us, below, kind, true);
    m.if_stack_empty(
        |m| {
            no_reply_score(m, at.ply());
            m.set(REFUTATION_MOVE, NO_MOVE);
        },
        |m| {
            m.pop_into(&[REFUTATION_MOVE]);
            take_reply_value(m);
        },
    );
}
