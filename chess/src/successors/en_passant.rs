//! The en passant mark kept only where a legal en passant capture exists.
//!
//! The move pass marks the square a double push skipped (`,`) after every
//! double push; FEN as python-chess writes it (`Board.fen()`) names that
//! square only when the side now to move has a legal capture onto it. A
//! pawn beside the pushed pawn is not enough: the capture must not leave
//! its own king attacked (a pin, or the rank the two pawns leave open).
//! [`LegalEnPassant`] decides it by making each possible capture on a
//! scratch copy of the board, a variable line of its own, and deleting
//! the copies whose king is attacked (`attacks`); a thread with no copy
//! left loses its mark. It touches the board's `,` and its own scratch
//! lines only; it knows nothing of clocks or text.

use regex_asm::ir::{RefError, Special};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{forward, letter, ANY, BOARD_VAR};
use crate::rules::attacks::{king_attacked, king_attacked_pattern};
use crate::rules::func::local;
use crate::rules::{board_of, set_board};

/// The scratch boards: the capture from the lower and from the higher
/// index. Neither name holds a piece letter, so an attack ray that runs
/// off the board's line meets none (as for `z`, see `board`).
const SCRATCH: [&str; 2] = ["y", "v"];

/// `c` to move: its en passant captures onto the mark are tried, and the
/// mark stays only if one of them is legal.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LegalEnPassant(pub(crate) Color);

impl LegalEnPassant {
    /// The boards after each possible en passant capture by `c` on
    /// `board`: the capturer next to the pushed pawn moves onto the mark,
    /// the pushed pawn goes.
    fn captures(&self, board: &str) -> Vec<String> {
        let c = self.0;
        let b = board.as_bytes();
        let Some(mark) = board.find(',') else {
            return vec![];
        };
        let Some(pushed) = mark.checked_add_signed(forward(!c) as isize) else {
            return vec![];
        };
        let pawn = letter(c, 'P') as u8;
        let theirs = letter(!c, 'P') as u8;
        if b.get(pushed) != Some(&theirs) {
            return vec![];
        }
        [pushed.wrapping_sub(1), pushed + 1]
            .into_iter()
            .filter(|&from| b.get(from) == Some(&pawn))
            .map(|from| {
                let mut after = b.to_vec();
                after[from] = b'.';
                after[pushed] = b'.';
                after[mark] = pawn;
                String::from_utf8_lossy(&after).into_owned()
            })
            .collect()
    }

    /// The two captures as board text, in board order: the pattern (the
    /// gap between its squares a group) and the scratch board's text
    /// before and after that gap. The capturer from the lower index first.
    fn shapes(&self) -> [(String, [String; 2]); 2] {
        let pawn = letter(self.0, 'P');
        let theirs = letter(!self.0, 'P');
        match self.0 {
            // Black captures down the board: the mark comes after the pawns.
            Color::Black => [
                (
                    format!("{pawn}{theirs}({ANY}{{9}}),"),
                    ["..".into(), pawn.to_string()],
                ),
                (
                    format!("{theirs}{pawn}({ANY}{{8}}),"),
                    ["..".into(), pawn.to_string()],
                ),
            ],
            Color::White => [
                (
                    format!(",({ANY}{{8}}){pawn}{theirs}"),
                    [pawn.to_string(), "..".into()],
                ),
                (
                    format!(",({ANY}{{9}}){theirs}{pawn}"),
                    [pawn.to_string(), "..".into()],
                ),
            ],
        }
    }
}

impl Special for LegalEnPassant {
    fn name(&self) -> String {
        let side = match self.0 {
            Color::White => "w",
            Color::Black => "b",
        };
        format!("legal_en_passant_{side}")
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let board = board_of(&self.name(), &t)?.to_string();
        if !board.contains(',') {
            return Ok(vec![t]);
        }
        let legal = self
            .captures(&board)
            .iter()
            .any(|after| !king_attacked(after, self.0));
        if !legal {
            set_board(&mut t, board.replace(',', "."));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let c = self.0;
        let head = format!(r"%%(\n[^%]*?#{BOARD_VAR}:({ANY}*)");
        let mut out: Vec<Rewrite> = self
            .shapes()
            .into_iter()
            .zip(SCRATCH)
            .map(|((shape, scratch), name)| {
                // Group 1 the thread from its head's newline, 2 the board
                // before the shape, 3 the gap inside it, 4 the board after.
                local(
                    format!(r"{head}{shape}({ANY}*)\n[^%]*)"),
                    Template::literal("%%")
                        .group(1)
                        .text(&format!("#{name}:"))
                        .group(2)
                        .text(&scratch[0])
                        .group(3)
                        .text(&scratch[1])
                        .group(4)
                        .text("\n"),
                )
            })
            .collect();
        // A copy whose king is attacked goes.
        out.push(
            Rewrite::new(
                format!(
                    r"#[{}]:{ANY}*{}{ANY}*\n",
                    SCRATCH.concat(),
                    king_attacked_pattern(c)
                ),
                Template::new(),
            )
            .with_scope(Scope::Global),
        );
        // Threads with a copy left are marked handled; the others lose
        // the mark; the copies go.
        out.push(local(
            format!(r"%%(\n[^%]*?#[{}]:)", SCRATCH.concat()),
            Template::literal("%`").group(1),
        ));
        out.push(local(
            format!(r"(%%\n[^%]*?#{BOARD_VAR}:{ANY}*),"),
            Template::new().group(1).text("."),
        ));
        out.push(local(r"%`\n", Template::literal("%%\n")));
        out.push(
            Rewrite::new(
                format!(r"#[{}]:{ANY}*\n", SCRATCH.concat()),
                Template::new(),
            )
            .with_scope(Scope::Global),
        );
        out
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into()]
    }
}
