//! The node cut by its candidates' own probes
//! ([`Probed::OwnProbes`](crate::search::plan::Probed::OwnProbes)): the ply
//! above the standing node (depth 5's second ply).
//!
//! A candidate's own probe (the probe of the probed node below it) is the
//! least that node can score for the opponent, so a candidate whose own
//! probe already leaves it no better than this node's probe is dropped
//! before its next ply is made; two plies below a depth-6 root
//! candidate's reply ([`DEEP_ROOT_BOUND`]), one strictly below the deep
//! probe is dropped too. Every other candidate's node is searched given
//! that probe (`probed::given_probe`). This module owns that cut; it must
//! not change what the node scores.

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::movegen::{legal_moves_for, Options, MOVE_VAR};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::answer::{no_reply_score, pop_reply_score};
use crate::search::late::{self, LATE_LIST};
use crate::search::plan::At;
use crate::search::probed::{drop_probe_move, given_probe, probe};
use crate::search::vars::{
    BEST_REPLY_MOVE, DEEP_ROOT_BOUND, NODE_PROBE_MOVE, OWN_PROBE_SCORE, PROBE_SCORE,
};
use crate::vocabulary::EVEN;

/// The candidates of the node at `at` given its probe (each active thread
/// a position, `us` to move, holding [`PROBE_SCORE`]): made, cut by their
/// own probes, and the rest searched, each left with its `SCORE` (and,
/// where `names_best`, its move in [`BEST_REPLY_MOVE`]).
pub(crate) fn candidates(m: &mut Machine, us: Color, at: At, names_best: bool) {
    let below = at.next();
    let kind = below
        .probed()
        .expect("the plan puts a probed node below one cut by own probes");
    legal_moves_for(m, us, Options::QUIET);
    drop_probe_move(m);
    let late = at.late().is_some();
    if late {
        late::test_late(m);
    }
    if names_best {
        m.set(BEST_REPLY_MOVE, m.get(MOVE_VAR));
    }
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
    if late {
        late::drop_late(m);
    }
    // Each candidate's own probe is the least its node scores for the
    // opponent (and names its move for the node below).
    probe(m, !us, below, true);
    m.if_stack_empty(
        |m| no_reply_score(m, at.ply()),
        |m| {
            m.pop_into(&[OWN_PROBE_SCORE, NODE_PROBE_MOVE]);
            if below.late().is_some() {
                m.pop_into(&[LATE_LIST]);
            }
            drop_refuted(m);
            m.set(PROBE_SCORE, m.get(OWN_PROBE_SCORE));
            m.delete(OWN_PROBE_SCORE);
            if below.late().is_some() {
                late::keep_all_in_check(m);
            } else {
                m.delete(CHECK_VAR);
            }
            given_probe(m, !us, below, kind, false);
            pop_reply_score(m);
        },
    );
}

/// Drops each active thread (a candidate holding the node's
/// [`PROBE_SCORE`] and its own [`OWN_PROBE_SCORE`]) whose own probe
/// leaves it no better than the node's probe.
fn drop_refuted(m: &mut Machine) {
    let no_better = (m.get(PROBE_SCORE) + m.get(OWN_PROBE_SCORE)).ge(2 * EVEN);
    if m.is_set(DEEP_ROOT_BOUND) {
        // Two plies below a depth-6 root candidate's reply: a candidate
        // strictly below the root's deep probe leaves this node below it,
        // or no better than its probe, so the root's candidate is refuted
        // either way or scores what it would with the candidate searched.
        let below = (m.get(DEEP_ROOT_BOUND) + m.get(OWN_PROBE_SCORE)).gt(2 * EVEN);
        m.if_(no_better | below, |m| m.destroy_active());
        m.delete(DEEP_ROOT_BOUND);
    } else {
        m.if_(no_better, |m| m.destroy_active());
    }
}
