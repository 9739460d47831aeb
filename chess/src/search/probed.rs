//! The probed node ([`Kind::Probed`](crate::search::plan::Kind::Probed)):
//! its probe (`probe`) searched first, then its other candidates, cut
//! against the probe's score as its [`Probed`] kind says (`standing`,
//! `own_probes`).
//!
//! A node's score is the best of its probe's and the others': exactly
//! the score of searching them all, whichever the probe (the probe's own
//! move is not searched again). The node above may hand a probed node its
//! probe ready made ([`given_probe`]): a root candidate's own probe is its
//! node's, and so is each candidate's own probe one ply further down.
//! This module owns that frame; it must not change what a node scores
//! (the cut changes only how much is searched).

use regex_asm::Machine;
use shakmaty::Color;

use crate::search::answer::keep_best;
use crate::search::plan::{At, Probed};
use crate::search::probe::probe;
use crate::search::reduce::Better;
use crate::search::vars::{BEST_REPLY_MOVE, NODE_PROBE_MOVE, NO_MOVE, PROBE_SCORE, ROOT_BOUND};
use crate::search::{drop_searched_move, own_probes, standing, strip};
use crate::vocabulary::SCORE;

/// The node at `at`, as `search::node` searches it: each active thread (a
/// position, `us` to move) gets `[em, v]`, `em` a placeholder (no caller
/// reads a move below the root) or, where `names_best`, the best
/// candidate's move; nothing when it has no legal move.
pub(crate) fn node(m: &mut Machine, us: Color, at: At, kind: Probed, names_best: bool) {
    m.scope(|m| {
        strip(m, at.ply(), &[ROOT_BOUND]);
        probe(m, us, at, true);
        m.if_stack_empty(
            |_| {},
            |m| {
                m.pop_into(&[PROBE_SCORE, NODE_PROBE_MOVE]);
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
        match kind {
            Probed::Standing => {
                debug_assert!(!names_best, "a standing node names no best move");
                standing::candidates(m, us, at);
            }
            Probed::OwnProbes => own_probes::candidates(m, us, at, names_best),
        }
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
