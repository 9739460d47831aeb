//! The evaluation: material plus piece-square tables, defined once.
//!
//! [`piece_value`] is the table (units of 10 centipawns); [`evaluate`]
//! computes a board's score natively (the reference meaning, also used by
//! `reference`); [`Eval`] is the special instruction that computes the
//! same score with regexes. Scores are `5000 + ours - theirs` so they are
//! never negative (the machine's integers are non-negative decimals).
//!
//! How the regexes add up 32 pieces without arithmetic instructions: the
//! board becomes one cell per square (`` `e4N ``); empty cells vanish; each
//! remaining cell becomes the tallies of its value in six fields
//! `<hundreds><tens><units>` for our side and the same for theirs, each
//! field with its own tally letter; adjacent cells merge by concatenating
//! field by field (five passes reduce 32 cells to one); carries turn ten
//! units into one ten and ten tens into one hundred; each field becomes a
//! digit; and one generic subtraction gives `5000 + ours - theirs`.

use regex_asm::ir::{IrProgram, RefError, Special};
use regex_asm::lower;
use regex_vm::state::{Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{name_at, square_at, squares, ANY, BOARD_VAR};
use crate::rules::board_of;

/// The score of an even position.
pub const EVEN: u32 = 5000;
/// The score of a position where the side to move is checkmated, from the
/// other side's point of view.
pub const MATE: u32 = 9000;

/// Value of a piece (uppercase role letter; `T` counts as a rook) of a side
/// on a square given as (file 0..8, rank 1..=8 from that side's own first
/// rank), in units of 10 centipawns: material plus the square's bonus.
pub fn piece_value(role: char, file: usize, rank: usize) -> u32 {
    let center = (3..=4).contains(&file) && (4..=5).contains(&rank);
    let ring = (2..=5).contains(&file) && (3..=6).contains(&rank);
    let edge = file == 0 || file == 7 || rank == 1 || rank == 8;
    match role {
        'P' => 10 + [0, 0, 0, 1, 2, 3, 5, 8, 0][rank],
        'N' => {
            if center {
                35
            } else if ring {
                34
            } else if edge {
                29
            } else {
                32
            }
        }
        'B' => {
            if ring {
                35
            } else if edge {
                31
            } else {
                33
            }
        }
        'R' | 'T' => {
            if rank == 7 {
                52
            } else {
                50
            }
        }
        'Q' => {
            if ring {
                91
            } else {
                90
            }
        }
        'K' => {
            if rank == 1 && [0, 1, 2, 6, 7].contains(&file) {
                3
            } else if rank == 1 {
                1
            } else {
                0
            }
        }
        _ => 0,
    }
}

/// The value of the board character at index `i`, with its colour, or
/// `None` for an empty square.
pub fn value_at(board: &[u8], i: usize) -> Option<(Color, u32)> {
    let (file, rank) = square_at(i)?;
    let ch = board[i] as char;
    if !ch.is_ascii_alphabetic() {
        return None;
    }
    let color = if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let own_rank = if color == Color::White {
        rank
    } else {
        9 - rank
    };
    Some((color, piece_value(ch.to_ascii_uppercase(), file, own_rank)))
}

/// `EVEN + ours - theirs` for the side `us`, natively.
pub fn evaluate(board: &str, us: Color) -> u32 {
    let b = board.as_bytes();
    let (mut ours, mut theirs) = (0, 0);
    for i in squares() {
        if let Some((c, v)) = value_at(b, i) {
            if c == us {
                ours += v;
            } else {
                theirs += v;
            }
        }
    }
    EVEN + ours - theirs
}

/// The scratch variable holding the cells.
const CELLS: &str = "y";
/// Tally letters: hundreds, tens, units; ours then theirs.
const FIELDS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'f'];

/// The special instruction: variable `ev` := [`evaluate`] of the board for
/// `us` (moved to the front of the variables, as `set` would).
#[derive(Debug, Clone, Copy)]
pub struct Eval(pub Color);

/// The variable [`Eval`] sets.
pub const EVAL_VAR: &str = "ev";

fn cell_token(ours: bool, value: u32) -> String {
    let (tens, units) = ((value / 10) as usize, (value % 10) as usize);
    let side = |mine: bool, tl: char, ul: char| {
        if mine {
            format!(
                "<><{}><{}>",
                tl.to_string().repeat(tens),
                ul.to_string().repeat(units)
            )
        } else {
            "<><><>".to_string()
        }
    };
    format!("`{}{}", side(ours, 'b', 'c'), side(!ours, 'e', 'f'))
}

impl Eval {
    fn rewrites_inner(&self) -> Vec<Rewrite> {
        let us = self.0;
        let local = |p: String, t: Template| Rewrite::new(p, t).with_scope(Scope::ActiveThread);
        let mut out = Vec::new();
        // 1. One cell per square, appended as variable `y`.
        let mut pattern = format!(r"(%%\n[^%]*?#{BOARD_VAR}:");
        let mut template = Template::new().group(1).text(&format!("#{CELLS}:"));
        let mut g = 1;
        for i in 0..80 {
            if square_at(i).is_some() {
                pattern.push_str(&format!("({ANY})"));
                g += 1;
                template = template.text(&format!("`{}", name_at(i))).group(g);
            } else {
                pattern.push('/');
            }
        }
        pattern.push_str(r"\n[^%]*)");
        out.push(local(pattern, template.text("\n")));
        // 2. Empty squares go.
        out.push(local(r"`[a-h][1-8][.,]".into(), Template::new()));
        // 3. Each piece becomes its tallies.
        for letter in "PNBRQKTpnbrqkt".chars() {
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let mut by_value: Vec<(u32, Vec<String>)> = Vec::new();
            for i in squares() {
                let (file, rank) = square_at(i).expect("square");
                let own_rank = if color == Color::White {
                    rank
                } else {
                    9 - rank
                };
                let v = piece_value(letter.to_ascii_uppercase(), file, own_rank);
                match by_value.iter_mut().find(|(w, _)| *w == v) {
                    Some((_, sqs)) => sqs.push(name_at(i)),
                    None => by_value.push((v, vec![name_at(i)])),
                }
            }
            for (v, sqs) in by_value {
                out.push(local(
                    format!("`(?:{}){letter}", sqs.join("|")),
                    Template::literal(&cell_token(color == us, v)),
                ));
            }
        }
        // 4. Merge adjacent cells field by field; 32 cells need 5 passes.
        let cell = FIELDS
            .iter()
            .map(|c| format!("<({c}*)>"))
            .collect::<String>();
        let mut merged = Template::literal("`");
        for k in 1..=6 {
            merged = merged.text("<").group(k).group(k + 6).text(">");
        }
        for _ in 0..5 {
            out.push(local(format!("`{cell}`{cell}"), merged.clone()));
        }
        // 5. Carries: units to tens, tens to hundreds, each side. The moves
        //    are anchored at the cell's backtick so that two empty fields
        //    elsewhere in the cell cannot pass for the pair being moved.
        // Both moves: `<higher><carried rest>` -> `<higher carried><rest>`.
        let move_carried = Template::new()
            .group(1)
            .text("<")
            .group(2)
            .group(3)
            .text("><")
            .group(4)
            .text(">");
        for (side, (h, t, u)) in [(0, ('a', 'b', 'c')), (1, ('d', 'e', 'f'))] {
            let (tu, hu) = (t.to_ascii_uppercase(), h.to_ascii_uppercase());
            let before = if side == 0 {
                "`"
            } else {
                "`<[^>%]*><[^>%]*><[^>%]*>"
            };
            out.push(local(
                format!("{u}{{10}}"),
                Template::literal(&tu.to_string()),
            ));
            out.push(local(
                format!("({before}<{h}*>)<({t}*)><({tu}*)({u}*)>"),
                move_carried.clone(),
            ));
            out.push(local(
                format!("[{t}{tu}]{{10}}"),
                Template::literal(&hu.to_string()),
            ));
            out.push(local(
                format!("({before})<({h}*)><({hu}*)([{t}{tu}]*)>"),
                move_carried.clone(),
            ));
        }
        // 6. Fields to digits.
        for d in 0..=9 {
            out.push(local(
                format!("<[a-fA-F]{{{d}}}>"),
                Template::literal(&d.to_string()),
            ));
        }
        // 7. Theirs and EVEN + ours onto the stack, then subtract.
        out.push(local(
            format!(r"(%%\n#stack:\n)([^%]*?)#{CELLS}:`([0-9]{{3}})([0-9]{{3}})\n"),
            Template::new()
                .group(1)
                .group(4)
                .text("\n5")
                .group(3)
                .text("\n")
                .group(2),
        ));
        out.push(local(
            r"(%%\n#stack:\n)0+([0-9])".into(),
            Template::new().group(1).group(2),
        ));
        let tail = lower(&IrProgram::new(vec![
            regex_asm::Instr::Sub,
            regex_asm::Instr::AssignPop(VarName::must(EVAL_VAR)),
        ]))
        .expect("generic instructions lower");
        out.extend(tail.rewrites().iter().map(|r| {
            let mut r = r.clone();
            r.origin = None;
            r
        }));
        out
    }
}

impl Special for Eval {
    fn name(&self) -> String {
        match self.0 {
            Color::White => "eval_w".into(),
            Color::Black => "eval_b".into(),
        }
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let board = board_of(&self.name(), &t)?;
        if !t.stack.is_empty() {
            return Err(RefError::Special {
                instr: self.name(),
                message: "the stack must be empty".into(),
            });
        }
        if t.var(CELLS).is_some() {
            return Err(RefError::Special {
                instr: self.name(),
                message: format!("scratch variable {CELLS} is in use"),
            });
        }
        let score = evaluate(board, self.0).to_string();
        t.vars.retain(|(n, _)| n.as_str() != EVAL_VAR);
        t.vars.insert(0, (VarName::must(EVAL_VAR), score));
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        self.rewrites_inner()
    }

    fn stack_effect(&self) -> (usize, usize) {
        (0, 0)
    }

    fn defines(&self) -> Vec<String> {
        vec![EVAL_VAR.into()]
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_even() {
        let b = "/tnbqkbnt//pppppppp//........//........//........//........//PPPPPPPP//TNBQKBNT/";
        assert_eq!(evaluate(b, Color::White), EVEN);
        assert_eq!(evaluate(b, Color::Black), EVEN);
    }

    #[test]
    fn table_values() {
        assert_eq!(piece_value('N', 4, 4), 35);
        assert_eq!(piece_value('N', 0, 1), 29);
        assert_eq!(piece_value('P', 4, 7), 18);
        assert_eq!(piece_value('K', 6, 1), 3);
        assert_eq!(piece_value('T', 0, 1), 50);
    }
}
