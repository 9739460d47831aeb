//! Standing pat in the search's capture plies.
//!
//! In a capture ply a side not in check may capture or stop: it is not
//! bound to move. The search (`search`) gives it the choice as one more
//! move that changes nothing: a *null candidate* (the position itself,
//! move [`NULL_MOVE`]) among a node's captures, and a *null reply* among a
//! candidate's capture replies. This module owns the null move's name and
//! [`NullReply`], the instruction that turns a copy of a candidate into a
//! reply that leaves the board as it is, so that `eval::ReplyDelta` (its
//! delta, the mop-up term) and the mate test treat it as any other reply.
//! [`with_null_move`] makes a ply's moves and its null move in one run.
//! It does not decide where the capture plies are.

use regex_asm::ir::{RefError, Special};
use regex_asm::Machine;
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{letter, name_at, squares, ANY, BOARD_VAR};
use crate::rules::lowered::Lowered;
use crate::rules::specials::{color_name, CAPTURED, FROM, PIECE, PROMOTION, TO};
use crate::rules::{append_var, board_of};

/// The move of a null candidate (never a legal move's name).
pub(crate) const NULL_MOVE: &str = "0000";

/// Runs `moves` on the active threads and `null` on a copy of each made
/// before (paused meanwhile), which stays right after the threads the
/// moves made: a capture ply's moves and its null move, in one run.
pub(crate) fn with_null_move(
    m: &mut Machine,
    moves: impl FnOnce(&mut Machine),
    null: impl FnOnce(&mut Machine),
) {
    let stand = m.fork_inactive();
    moves(m);
    let moved = m.pause();
    m.reactivate(stand);
    null(m);
    m.reactivate(moved);
}

/// Appends to every active thread the parts of a move of `c`'s king from
/// its square to the same square (`pc`, `f`, `x` = `.`, `u` empty, `t`):
/// a reply by `c` that changes nothing, for `quiesce::LeafDelta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct NullReply(pub Color);

impl NullReply {
    fn parts(&self, square: &str) -> [(&'static str, String); 5] {
        [
            (PIECE, letter(self.0, 'K').to_string()),
            (FROM, square.to_string()),
            (CAPTURED, ".".to_string()),
            (PROMOTION, String::new()),
            (TO, square.to_string()),
        ]
    }
}

impl NullReply {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let king = letter(self.0, 'K');
        squares()
            .map(|i| {
                let square = name_at(i);
                let parts: String = self
                    .parts(&square)
                    .iter()
                    .map(|(var, value)| format!("#{var}:{value}\n"))
                    .collect();
                Rewrite::new(
                    format!(r"%%(\n[^%]*?#{BOARD_VAR}:{ANY}{{{i}}}{king}[^%]*)"),
                    Template::literal("%%").group(1).text(&parts),
                )
                .with_scope(Scope::ActiveThread)
            })
            .collect()
    }
}

impl Special for NullReply {
    fn name(&self) -> String {
        format!("null_reply_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let name = self.name();
        let board = board_of(&name, &t)?;
        let king = letter(self.0, 'K');
        let square = board
            .find(king)
            .filter(|&i| squares().any(|s| s == i))
            .map(name_at)
            .ok_or_else(|| RefError::Special {
                instr: name.clone(),
                message: "the board has no king of that colour".into(),
            })?;
        for (var, value) in self.parts(&square) {
            append_var(&name, &mut t, var, value)?;
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<NullReply> = Lowered::new();
        LOWERED.get(self, NullReply::build_rewrites)
    }

    fn defines(&self) -> Vec<String> {
        [PIECE, FROM, CAPTURED, PROMOTION, TO]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.to_string()]
    }
}
