//! The search's state variables: one constant each, named for what it
//! holds, its value the short name written into the state.
//!
//! The short names are the machine's: every thread carries its variables
//! as `#name:value` lines, and the search copies threads by the thousand,
//! so a name's bytes cost time; the rewrites' patterns spell them too, so
//! changing one changes every program. The Rust names say what the
//! variable holds; read the short name only in a state or a listing.
//!
//! Variables the search reads but does not own keep their homes: the
//! board (`board::BOARD_VAR`), the side to move (`codec::TURN_VAR`), a
//! candidate's move (`movegen::MOVE_VAR`), whether the side to move is in
//! check (`specials::CHECK_VAR`), the evaluation and its change
//! (`eval::EVAL_VAR`, `eval::DELTA_VAR`), the threat term
//! (`threats::THREAT_VAR`) and a search's answer (`vocabulary::BEST`,
//! `vocabulary::SCORE`). This module defines names only; which node sets
//! and reads each is said where the node is (`probed`, `standing`,
//! `own_probes`, `probed_root`, `deep_root`, `hint`, `repetition`).

/// A node's probe's score, for the side to move at the node: the least
/// the node scores, which its other candidates are cut against.
pub(crate) const PROBE_SCORE: &str = "pv";

/// A candidate's own probe's score, for the side that replies to it: the
/// least that side scores after it, so the most the candidate scores.
pub(crate) const OWN_PROBE_SCORE: &str = "po";

/// Below the root, the move of the node's probe (as [`PROBE_MOVE`] names
/// it): that candidate is not searched again.
pub(crate) const NODE_PROBE_MOVE: &str = "pw";

/// The move a probe searched (UCI), as it names it: at the root, the
/// root's probe's move; inside a named probe at any ply, its look's
/// chosen candidate.
pub(crate) const PROBE_MOVE: &str = "pn";

/// The sides with two pieces besides the king, `W` then `B`
/// ([`BOTH_SIDES`] where the standing cut may drop candidates).
pub(crate) const SIDES_WITH_MEN: &str = "cu";

/// [`SIDES_WITH_MEN`]'s value where a node may drop candidates by
/// standing: no candidate there leaves a lone king.
pub(crate) const BOTH_SIDES: &str = "WB";

/// The score, for the opponent, of the one answer a capture ply's probe
/// searches below a candidate (0 where none was searched).
pub(crate) const ANSWER_SCORE: &str = "pe";

/// That answer's move (UCI), which the capture node below does not
/// search again.
pub(crate) const ANSWER_MOVE: &str = "pa";

/// The root's probe's score, for the root's side, handed down to the
/// nodes of the third ply (the root's side to move again), where a
/// candidate standing strictly below it is dropped (0 for no bound).
pub(crate) const ROOT_BOUND: &str = "al";

/// The opponent's best reply to the root's probe's move (UCI): pushed by
/// the root's probe, then searched by every root candidate's own probe as
/// well.
pub(crate) const REFUTATION_MOVE: &str = "rf";

/// That refutation's score below a root candidate, for the opponent.
pub(crate) const REFUTATION_SCORE: &str = "rs";

/// At depth 6, the move of the best reply a kept root candidate's node
/// finds: the hint of the candidate's ply more.
pub(crate) const BEST_REPLY_MOVE: &str = "rb";

/// At depth 6, the root's probe's move searched a ply deeper: a score
/// the root reaches, for its side (0 where the move was not found).
pub(crate) const DEEP_PROBE_SCORE: &str = "pd";

/// At depth 6, what a kept root candidate's reply search is handed: the
/// score for the opponent above which the candidate ends strictly below
/// [`DEEP_PROBE_SCORE`] (`2 * EVEN` for no bound).
pub(crate) const REPLY_BOUND: &str = "bt";

/// At depth 6, [`DEEP_PROBE_SCORE`] handed to the nodes two plies below a
/// kept root candidate's reply (the root's side to move again), where a
/// candidate whose own probe leaves it strictly below it is dropped (0
/// for no bound).
pub(crate) const DEEP_ROOT_BOUND: &str = "ga";

/// The root's probe hint (`hint`): a move (UCI) the root's probe searches
/// beside its look's choice; at depth 5 also the refutation a root
/// candidate's second probe searches, at depth 6 the best reply a reply
/// search's probe searches.
pub(crate) const HINT_MOVE: &str = "hm";

/// Whether a thread of the root's probe is the hint's run (`T`) or the
/// look's (`F`), while the two runs are apart.
pub(crate) const IN_HINT_RUN: &str = "hr";

/// A probe candidate's move (UCI), while the two runs are apart.
pub(crate) const CANDIDATE_NAME: &str = "nm";

/// The game's positions so far inside the root thread (`repetition`):
/// each key after a space.
pub(crate) const HISTORY: &str = "hi";

/// A root candidate's verdict: `T` when its position is in the
/// [`HISTORY`].
pub(crate) const REPEATS: &str = "rp";

/// The move a probed node hands up where its caller reads only the score.
pub(crate) const NO_MOVE: &str = "-";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name is a distinct variable name the state accepts, and none
    /// is a name the rest of the program uses.
    #[test]
    fn the_short_names_are_distinct_variables_of_their_own() {
        let names = [
            PROBE_SCORE,
            OWN_PROBE_SCORE,
            NODE_PROBE_MOVE,
            PROBE_MOVE,
            SIDES_WITH_MEN,
            ANSWER_SCORE,
            ANSWER_MOVE,
            ROOT_BOUND,
            REFUTATION_MOVE,
            REFUTATION_SCORE,
            BEST_REPLY_MOVE,
            DEEP_PROBE_SCORE,
            REPLY_BOUND,
            DEEP_ROOT_BOUND,
            HINT_MOVE,
            IN_HINT_RUN,
            CANDIDATE_NAME,
            HISTORY,
            REPEATS,
        ];
        let mut seen = std::collections::BTreeSet::new();
        for n in names {
            regex_vm::state::VarName::new(n).expect("a variable name");
            assert!(seen.insert(n), "{n} twice");
        }
        let others = [
            crate::board::BOARD_VAR,
            crate::board::codec::TURN_VAR,
            crate::movegen::MOVE_VAR,
            crate::rules::specials::CHECK_VAR,
            crate::eval::EVAL_VAR,
            crate::eval::DELTA_VAR,
            crate::eval::threats::THREAT_VAR,
            crate::vocabulary::BEST,
            crate::vocabulary::SCORE,
        ];
        for n in others {
            assert!(!seen.contains(n), "{n} is not the search's");
        }
    }
}
