//! The full-width node ([`Kind::Full`](crate::search::plan::Kind::Full)):
//! every legal move, each searched by the node below; the root with its
//! cut off.
//!
//! This module owns that node; it must not cut a candidate, and it leaves
//! the node below to its own kind (`search::node`).

use std::sync::Arc;

use regex_asm::Machine;
use shakmaty::Color;

use crate::movegen::{legal_moves_for, Options};
use crate::rules::specials::Stage;
use crate::search::answer::{hand_up_best, score_below};
use crate::search::plan::At;
use crate::search::{name_candidates, strip};

/// The node at `at`, as `search::node` searches it: each active thread
/// (a position, `us` to move) gets `[em, v]` of its best candidate.
pub(crate) fn node(m: &mut Machine, us: Color, at: At) {
    m.scope(|m| {
        strip(m, at.ply(), &[]);
        legal_moves_for(m, us, Options::QUIET);
        name_candidates(m, !us, at.ply());
        m.special(Arc::new(Stage::InCheck(!us)), &[], &[]);
        score_below(m, us, at);
        hand_up_best(m, us, at);
    });
}
