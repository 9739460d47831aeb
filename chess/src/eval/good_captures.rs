//! Which captures the search's capture plies try: the good ones.
//!
//! A capture is *good* when the victim is worth at least as much as the
//! taker (pawn 1, knight and bishop 3, rook 5, queen 9, king more than
//! any), or when no piece of the victim's side attacks its square; an en
//! passant capture is always good (pawn takes pawn). Attacks are direct
//! ones on the board with the taker lifted (its square empty), as
//! `quiesce` counts them. A capture ply that tries only these keeps most
//! of what a full capture search sees (a defended piece taken by a more
//! valuable one is lost back, which standing pat already scores) with a
//! fraction of its threads.
//!
//! [`GoodCaptures`] is the stage of a capture move pass that drops the
//! others, run after the movers mark the destination `*`;
//! `reference::good_capture` is the same rule on shakmaty. This module
//! does not generate moves or score them.

use regex_asm::ir::{RefError, Special};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{pieces, ANY, BOARD_VAR};
use crate::eval::quiesce::{self, attackers, mark_attacked};
use crate::rules::board_of;
use crate::rules::specials::{color_name, CAPTURED, FROM, PIECE};

/// A piece's worth (letter of either side): `quiesce`'s, and the king's
/// more than any other's; an empty square's (en passant) nothing.
fn worth(letter: char) -> u32 {
    match letter.to_ascii_uppercase() {
        'K' => 100,
        role => quiesce::worth(role),
    }
}

/// Whether `taker` capturing `victim` (board letters; `victim` `,` for en
/// passant) on a square the victim's side `defended` is good.
pub(crate) fn is_good(taker: char, victim: char, defended: bool) -> bool {
    !victim.is_ascii_alphabetic() || worth(victim) >= worth(taker) || !defended
}

/// Board marks: a capture to judge (its taker worth more than its
/// victim), and one whose square the victim's side defends.
const JUDGED: char = 'g';
const DEFENDED: char = 'G';

/// The stage, inside a capture move pass of `mover` (after the movers,
/// before promotion): threads whose capture is not good are deleted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoodCaptures(pub Color);

impl Special for GoodCaptures {
    fn name(&self) -> String {
        format!("good_captures_{}", color_name(self.0))
    }

    fn apply(&self, t: Thread) -> Result<Vec<Thread>, RefError> {
        let err = |message: &str| RefError::Special {
            instr: self.name(),
            message: message.to_string(),
        };
        let board = board_of(&self.name(), &t)?;
        let star = board
            .find('*')
            .ok_or_else(|| err("no destination mark on the board"))?;
        let first = |name: &str| t.var(name).and_then(|v| v.chars().next());
        let taker = first(PIECE).ok_or_else(|| err("pc must be set"))?;
        let victim = first(CAPTURED).ok_or_else(|| err("x must be set"))?;
        let defended = !attackers(board, star, !self.0).is_empty();
        Ok(if is_good(taker, victim, defended) {
            vec![t]
        } else {
            Vec::new()
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let mover = self.0;
        let mut out = Vec::new();
        // Mark the captures whose taker is worth more than its victim.
        for taker in pieces(mover).chars() {
            let victims: String = pieces(!mover)
                .chars()
                .filter(|&v| !is_good(taker, v, true))
                .collect();
            if victims.is_empty() {
                continue;
            }
            out.push(Rewrite::new(
                format!(
                    r"(#{BOARD_VAR}:{ANY}*)\*([^%]*?#{PIECE}:{taker}\n#{FROM}:{ANY}*\n#{CAPTURED}:[{victims}]\n)"
                ),
                Template::new().group(1).text(&JUDGED.to_string()).group(2),
            ));
        }
        // Of those, the defended ones go.
        out.extend(mark_attacked(JUDGED, DEFENDED, !mover, "PNBRQK"));
        out.push(
            Rewrite::new(
                format!(r"%%\n[^%]*?#{BOARD_VAR}:{ANY}*{DEFENDED}[^%]*"),
                Template::new(),
            )
            .with_scope(Scope::Global),
        );
        out.push(Rewrite::new(
            format!(r"(#{BOARD_VAR}:{ANY}*){JUDGED}"),
            Template::new().group(1).text("*"),
        ));
        out
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into(), PIECE.into(), CAPTURED.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::is_good;

    #[test]
    fn the_rule() {
        // Worth at least the taker's: good, defended or not.
        assert!(is_good('P', 'n', true));
        assert!(is_good('N', 'b', true));
        assert!(is_good('r', 'Q', true));
        assert!(is_good('T', 'r', true));
        // Worth less: good only undefended.
        assert!(!is_good('Q', 'p', true));
        assert!(is_good('Q', 'p', false));
        assert!(!is_good('R', 'n', true));
        assert!(!is_good('K', 'p', true));
        // En passant.
        assert!(is_good('P', ',', true));
    }
}
