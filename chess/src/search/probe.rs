//! The probe: one candidate of a node searched before the others, its
//! score the least the node scores.
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
//! a cut against it stays exact. This module owns the probe; the nodes
//! that cut by it are `probed`, `standing`, `own_probes` and
//! `probed_root`, and it does not generate moves or evaluate positions
//! itself.

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::board::BOARD_VAR;
use crate::eval::quiesce::LeafDelta;
use crate::eval::threats::Threats;
use crate::eval::{Eval, DELTA_VAR};
use crate::movegen::leaf_moves_with_recaptures;
use crate::rules::specials::{Stage, FROM, PROMOTION, TO};
use crate::search::answer::{keep_best, no_reply_score, score_below, take_reply_value};
use crate::search::leaves::{pairs, Moves};
use crate::search::plan::{At, Kind};
use crate::search::reduce::Better;
use crate::search::vars::{
    CANDIDATE_NAME, HINT_MOVE, NO_MOVE, PROBE_MOVE, REFUTATION_MOVE, REPEATS, ROOT_BOUND,
};
use crate::search::{guard, hint, probed, repetition, strip, KeepOnly};
use crate::vocabulary::SCORE;

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
        look(m, us, at.ply(), named, two_runs, refutation);
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
/// [`PROBE_MOVE`].
fn look(m: &mut Machine, us: Color, ply: u32, named: bool, two_runs: bool, refutation: bool) {
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
    probed::node(m, !us, below, kind, true);
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
