//! The evaluation folder: the score of a position (this file), the
//! lone-king term (`mopup`), and the terms the search adds at its leaves:
//! the capture quiescence (`quiesce`), the threat term (`threats`), the
//! good captures of the capture plies (`good_captures`) and standing pat
//! (`standpat`). Nothing here generates moves or compares scores.
//!
//! The evaluation: material plus piece-square tables, defined once.
//!
//! [`piece_value`] is the table (units of 10 centipawns); [`evaluate`]
//! computes a board's score natively (the reference meaning, also used by
//! `reference`); [`Eval`] is the special instruction that computes the
//! same score with regexes, and [`ReplyDelta`] the one that computes how a
//! move just generated changes it (three table lookups on the move's parts,
//! for the search's replies), and [`MoveDelta`] the same change without the
//! mop-up term (the capture plies carry an evaluation down with it).
//! Scores are `5000 + ours - theirs` so they are never negative (the
//! machine's integers are non-negative decimals). This module does not
//! generate moves or compare scores.
//!
//! How the regexes add up 32 pieces without arithmetic instructions: the
//! board becomes one cell per square (`` `e4N ``); empty cells vanish; each
//! remaining cell becomes the tallies of its value in six fields
//! `<hundreds><tens><units>` for our side and the same for theirs, each
//! field with its own tally letter; adjacent cells merge by concatenating
//! field by field (five passes reduce 32 cells to one); carries turn ten
//! units into one ten and ten tens into one hundred; each field becomes a
//! digit; and one generic subtraction gives `5000 + ours - theirs`.

pub(crate) mod good_captures;
pub(crate) mod mopup;
pub(crate) mod quiesce;
pub(crate) mod standpat;
pub(crate) mod threats;
mod tuned;
pub mod values;

use regex_asm::ir::{IrProgram, RefError, Special};
use regex_asm::lower;
use regex_vm::state::{Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{index_of, letter, name_at, pieces, square_at, squares, ANY, BOARD_VAR};
use crate::rules::board_of;
use crate::rules::lowered::Lowered;
use crate::rules::specials::{color_name, CAPTURED, FROM, PIECE, PROMOTION, TO};
use crate::vocabulary::EVEN;
use values::Values;

/// Value of a piece (uppercase role letter; `T` counts as a rook) of a side
/// on a square given as (file 0..8, rank 1..=8 from that side's own first
/// rank), in units of 10 centipawns: material plus the square's bonus, as
/// the regex program sums it ([`values::REGEX_VALUES`]).
pub(crate) fn piece_value(role: char, file: usize, rank: usize) -> u32 {
    values::REGEX_VALUES.value(role, file, rank)
}

/// The value of the piece `letter` (either case; `T` counts as a rook) of
/// side `c` on board index `i` (a square), by [`piece_value`].
fn value_for(c: Color, letter: char, i: usize) -> Option<u32> {
    let (file, rank) = square_at(i)?;
    let own_rank = if c == Color::White { rank } else { 9 - rank };
    Some(piece_value(letter.to_ascii_uppercase(), file, own_rank))
}

/// The squares' names grouped by the value of `letter` of side `c` on
/// them, in board order: one lookup rewrite per group.
fn squares_by_value(c: Color, letter: char) -> Vec<(u32, Vec<String>)> {
    by_value(squares().map(|i| (value_for(c, letter, i).expect("a square"), name_at(i))))
}

/// `items` grouped by their value, each group in the items' order, the
/// groups in the order their values first come.
fn by_value<T>(items: impl Iterator<Item = (u32, T)>) -> Vec<(u32, Vec<T>)> {
    let mut out: Vec<(u32, Vec<T>)> = Vec::new();
    for (v, item) in items {
        match out.iter_mut().find(|(w, _)| *w == v) {
            Some((_, group)) => group.push(item),
            None => out.push((v, vec![item])),
        }
    }
    out
}

/// `EVEN + ours - theirs` for the side `us`, natively, with the values
/// the regex program sums.
pub(crate) fn evaluate(board: &str, us: Color) -> u32 {
    evaluate_in(board, us, values::REGEX_VALUES)
}

/// [`evaluate`] with the given values.
fn evaluate_in(board: &str, us: Color, values: Values) -> u32 {
    let b = board.as_bytes();
    let (mut ours, mut theirs) = (0, 0);
    for i in squares() {
        let ch = b[i] as char;
        if !ch.is_ascii_alphabetic() {
            continue;
        }
        let Some((file, rank)) = square_at(i) else {
            continue;
        };
        let c = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let own_rank = if c == Color::White { rank } else { 9 - rank };
        let v = values.value(ch.to_ascii_uppercase(), file, own_rank);
        if c == us {
            ours += v;
        } else {
            theirs += v;
        }
    }
    EVEN + ours - theirs
}

/// The value of a search leaf (a position the search does not expand) for
/// `us`: the evaluation plus the mop-up term (`mopup`), both with the
/// values the native evaluation reads on this thread
/// ([`values::Values::active`]: the regex program's unless a caller chose
/// others).
pub(crate) fn leaf_value(board: &str, us: Color) -> u32 {
    let values = Values::active();
    evaluate_in(board, us, values).saturating_add_signed(mopup::mop_up_in(board, us, values))
}

/// The scratch variable holding the cells.
const CELLS: &str = "y";
/// Tally letters: thousands, hundreds, tens, units; ours then theirs.
/// (Nine queens, two rooks, bishops and knights are 1,063 units: a side's
/// material needs four digits.)
const FIELDS: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/// The special instruction: variable `ev` := [`evaluate`] of the board for
/// `us` (moved to the front of the variables, as `set` would).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Eval(pub Color);

/// The variable [`Eval`] sets.
pub(crate) const EVAL_VAR: &str = "ev";

fn cell_token(ours: bool, value: u32) -> String {
    let (tens, units) = ((value / 10) as usize, (value % 10) as usize);
    let side = |mine: bool, tl: char, ul: char| {
        if mine {
            format!(
                "<><><{}><{}>",
                tl.to_string().repeat(tens),
                ul.to_string().repeat(units)
            )
        } else {
            "<><><><>".to_string()
        }
    };
    format!("`{}{}", side(ours, 'c', 'd'), side(!ours, 'g', 'h'))
}

impl Eval {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
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
            for (v, sqs) in squares_by_value(color, letter) {
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
        for k in 1..=8 {
            merged = merged.text("<").group(k).group(k + 8).text(">");
        }
        for _ in 0..5 {
            out.push(local(format!("`{cell}`{cell}"), merged.clone()));
        }
        // 5. Carries: units to tens, tens to hundreds, hundreds to
        //    thousands, each side. The moves are anchored at the cell's
        //    backtick so that empty fields elsewhere in the cell cannot pass
        //    for the pair being moved.
        // Each move: `<higher><carried rest>` -> `<higher carried><rest>`.
        let move_carried = Template::new()
            .group(1)
            .text("<")
            .group(2)
            .group(3)
            .text("><")
            .group(4)
            .text(">");
        for side in 0..2 {
            let f = &FIELDS[side * 4..side * 4 + 4];
            // The fields before the pair: the other side's, then ours above it.
            let skip = |k: usize| format!("`{}", "<[^>%]*>".repeat(side * 4 + k));
            for k in (1..4).rev() {
                let (hi, lo) = (f[k - 1], f[k]);
                let (hi_up, lo_up) = (hi.to_ascii_uppercase(), lo.to_ascii_uppercase());
                // Ten of the lower field (its own tallies or carried ones)
                // become one carried tally of the higher field.
                out.push(local(
                    format!("[{lo}{lo_up}]{{10}}"),
                    Template::literal(&hi_up.to_string()),
                ));
                out.push(local(
                    format!("({})<({hi}*)><({hi_up}*)([{lo}{lo_up}]*)>", skip(k - 1)),
                    move_carried.clone(),
                ));
            }
        }
        // 6. Fields to digits.
        for d in 0..=9 {
            out.push(local(
                format!("<[a-hA-H]{{{d}}}>"),
                Template::literal(&d.to_string()),
            ));
        }
        // 7. Theirs and EVEN + ours onto the stack, then subtract.
        //    Ours is at most 1,066: its thousands digit (0 or 1) and
        //    EVEN's make one digit.
        for (thousands, digit) in [('0', '5'), ('1', '6')] {
            out.push(local(
                format!(r"(%%\n#stack:\n)([^%]*?)#{CELLS}:`{thousands}([0-9]{{3}})([0-9]{{4}})\n"),
                Template::new()
                    .group(1)
                    .group(4)
                    .text(&format!("\n{digit}"))
                    .group(3)
                    .text("\n")
                    .group(2),
            ));
        }
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
    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<Eval> = Lowered::new();
        LOWERED.get(self, Eval::build_rewrites)
    }

    fn name(&self) -> String {
        format!("eval_{}", color_name(self.0))
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

    fn defines(&self) -> Vec<String> {
        vec![EVAL_VAR.into()]
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into()]
    }
}

/// The variable [`ReplyDelta`] sets.
pub(crate) const DELTA_VAR: &str = "dv";
/// What [`ReplyDelta`] adds so that its value is never negative.
pub(crate) const DELTA_OFFSET: u32 = 300;

/// The value of the piece `letter` of side `c` on the square named
/// `square` (`e4`).
fn value_on(c: Color, letter: char, square: &str) -> Option<u32> {
    value_for(c, letter, index_of(square)?)
}

/// The value of a pawn taken en passant by a capture to `file` (0 for
/// a): it stood on its own fourth rank, on that file.
fn en_passant_victim(file: usize) -> u32 {
    piece_value('P', file, 4)
}

/// How a reply changes the score, as a non-negative number: for the reply
/// just generated by the move pass in leaf mode (its parts `pc`, `f`, `x`,
/// `u`, `t` are the last variables, in that order), `dv` :=
/// [`DELTA_OFFSET`] + (value of the moved piece on `f`) - (value of the
/// placed piece on `t`) - (value of the piece of `us` it captured), so that
/// `evaluate(after the reply) = evaluate(before) + dv - DELTA_OFFSET`.
///
/// The search evaluates each of its first-ply positions in full once
/// ([`Eval`]) and each reply with this: three table lookups instead of a
/// whole board. Castling needs nothing more (the rook stays on its first
/// rank, where every rook square is worth the same); en passant captures a
/// pawn on its side's fourth rank, on the target's file.
///
/// The regexes: each lookup is one rewrite per table value, keyed on the
/// parts, that adds the value's digits as tallies to three columns
/// `<hundreds>|<tens>|<units>` (the first lookup appends `dv` with the
/// moved piece's value; the others add 100 minus the placed piece's and
/// 100 minus the captured piece's, so nothing is ever subtracted); two
/// carry passes per column; each column becomes a digit. The lookups are
/// keyed on text only leaf threads have, so they need no thread head and
/// the regex engine's literal prefilter jumps straight to the threads each
/// one concerns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReplyDelta(pub Color);

impl ReplyDelta {
    /// The reference meaning on the five parts.
    fn delta(&self, from: &str, piece: &str, captured: &str, promo: &str, to: &str) -> Option<u32> {
        let us = self.0;
        let them = !us;
        let pc = piece.chars().next()?;
        let moved = value_on(them, pc, from)?;
        let placed_letter = promo.chars().next().unwrap_or(pc);
        let placed = value_on(them, placed_letter, to)?;
        let x = captured.chars().next()?;
        let lost = if x.is_ascii_alphabetic() {
            value_on(us, x, to)?
        } else if x == ',' && pc.eq_ignore_ascii_case(&'P') {
            // The pawn taken en passant stood on its own fourth rank, on
            // the target's file.
            en_passant_victim(square_at(index_of(to)?)?.0)
        } else {
            0
        };
        Some(DELTA_OFFSET + moved - placed - lost)
    }

    /// The reference meaning on a thread whose last variables are the
    /// move's parts, without the mop-up term (`instr` names the special
    /// in errors).
    fn parts_delta(&self, instr: &str, t: &Thread) -> Result<u32, RefError> {
        let n = t.vars.len();
        let parts = [PIECE, FROM, CAPTURED, PROMOTION, TO];
        let tail: Vec<&str> = if n >= 5 {
            t.vars[n - 5..]
                .iter()
                .zip(parts)
                .filter(|((name, _), want)| name.as_str() == *want)
                .map(|((_, v), _)| v.as_str())
                .collect()
        } else {
            Vec::new()
        };
        let err = |message: &str| RefError::Special {
            instr: instr.to_string(),
            message: message.to_string(),
        };
        if tail.len() != 5 {
            return Err(err("the last variables must be pc, f, x, u, t"));
        }
        if t.var(DELTA_VAR).is_some() {
            return Err(err("dv is already set"));
        }
        self.delta(tail[1], tail[0], tail[2], tail[3], tail[4])
            .ok_or_else(|| err("a part is not a square or a piece"))
    }

    fn tallies(value: u32) -> (String, String, String) {
        (
            "H".repeat((value / 100) as usize),
            "T".repeat((value / 10 % 10) as usize),
            "i".repeat((value % 10) as usize),
        )
    }

    /// One rewrite adding `value`'s tallies to `dv` where `key` (a
    /// pattern over the parts, ending just before `#dv:`) matches.
    fn add(key: &str, value: u32) -> Rewrite {
        let (h, t, u) = ReplyDelta::tallies(value);
        Rewrite::new(
            format!(r"({key}#{DELTA_VAR}:H*)(\|T*)(\|i*)\n"),
            Template::new()
                .group(1)
                .text(&h)
                .group(2)
                .text(&t)
                .group(3)
                .text(&u)
                .text("\n"),
        )
    }

    /// The lookups of the three parts and the mop-up term, leaving `dv` as
    /// tallies (before its carries): another special may add to them
    /// before [`ReplyDelta::digit_rewrites`].
    pub(crate) fn tally_rewrites(&self) -> Vec<Rewrite> {
        let mut out = self.lookup_rewrites();
        // The mop-up term, for leaves with a lone king.
        out.extend(mopup::mop_up_rewrites(self.0));
        out
    }

    /// The lookups of the three parts alone, as tallies.
    fn lookup_rewrites(&self) -> Vec<Rewrite> {
        let us = self.0;
        let them = !us;
        let dv = DELTA_VAR;
        let mut out = Vec::new();
        // A value: any text on the line (values never hold `%`, so the
        // pattern provably stays inside one thread).
        let any = r"[^%\n]*";
        // The moved piece on its square: this first lookup also appends
        // `dv` after the parts (every reply matches exactly one rewrite).
        for l in pieces(them).chars() {
            for (v, sqs) in squares_by_value(them, l) {
                let (h, t, u) = ReplyDelta::tallies(v);
                out.push(Rewrite::new(
                    format!(
                        r"(#{PIECE}:{l}\n#{FROM}:(?:{})\n#{CAPTURED}:{any}\n#{PROMOTION}:{any}\n#{TO}:{any}\n)",
                        sqs.join("|")
                    ),
                    Template::new()
                        .group(1)
                        .text(&format!("#{dv}:H{h}|{t}|{u}\n")),
                ));
            }
        }
        // The placed piece on its square, or the promotion piece.
        for l in pieces(them).chars() {
            for (v, sqs) in squares_by_value(them, l) {
                let key = format!(
                    r"#{PIECE}:{l}\n#{FROM}:{any}\n#{CAPTURED}:{any}\n#{PROMOTION}:\n#{TO}:(?:{})\n",
                    sqs.join("|")
                );
                out.push(ReplyDelta::add(&key, 100 - v));
            }
        }
        for p in ['q', 'r', 'b', 'n'] {
            for (v, sqs) in squares_by_value(them, p) {
                let key = format!(r"#{PROMOTION}:{p}\n#{TO}:(?:{})\n", sqs.join("|"));
                out.push(ReplyDelta::add(&key, 100 - v));
            }
        }
        // The captured piece, if any.
        for l in pieces(us).chars().filter(|l| !l.eq_ignore_ascii_case(&'K')) {
            for (v, sqs) in squares_by_value(us, l) {
                let key = format!(
                    r"#{CAPTURED}:{l}\n#{PROMOTION}:{any}\n#{TO}:(?:{})\n",
                    sqs.join("|")
                );
                out.push(ReplyDelta::add(&key, 100 - v));
            }
        }
        // En passant: the taken pawn's value by the target's file.
        let pawn = letter(them, 'P');
        let files = (0..8usize).map(|f| (en_passant_victim(f), char::from(b'a' + f as u8)));
        for (v, files) in by_value(files) {
            let files: String = files.into_iter().collect();
            out.push(ReplyDelta::add(
                &format!(
                    r"#{PIECE}:{pawn}\n#{FROM}:{any}\n#{CAPTURED}:,\n#{PROMOTION}:{any}\n#{TO}:[{files}]{any}\n"
                ),
                100 - v,
            ));
        }
        out.push(ReplyDelta::add(
            &format!(r"#{PIECE}:[^%{pawn}\n]\n#{FROM}:{any}\n#{CAPTURED}:,\n#{PROMOTION}:{any}\n#{TO}:{any}\n"),
            100,
        ));
        out.push(ReplyDelta::add(
            &format!(r"#{CAPTURED}:\.\n#{PROMOTION}:{any}\n#{TO}:{any}\n"),
            100,
        ));
        out
    }

    /// The carries and the columns to digits that end `dv`.
    pub(crate) fn digit_rewrites() -> Vec<Rewrite> {
        let dv = DELTA_VAR;
        let mut out = Vec::new();
        // Carries: at most 36 units and 39 tens.
        for _ in 0..4 {
            out.push(Rewrite::new(
                format!(r"(#{dv}:H*\|T*)\|(i*)i{{10}}\n"),
                Template::new().group(1).text("T|").group(2).text("\n"),
            ));
        }
        for _ in 0..4 {
            out.push(Rewrite::new(
                format!(r"(#{dv}:H*)\|(T*)T{{10}}\|"),
                Template::new().group(1).text("H|").group(2).text("|"),
            ));
        }
        // Columns to digits (the value is at least 89: no leading zero).
        for k in 0..=9 {
            out.push(Rewrite::new(
                format!(r"(#{dv}:H*\|T*\|)i{{{k}}}\n"),
                Template::new().group(1).text(&format!("{k}\n")),
            ));
        }
        for k in 0..=9 {
            out.push(Rewrite::new(
                format!(r"(#{dv}:H*\|)T{{{k}}}\|([0-9])\n"),
                Template::new()
                    .group(1)
                    .text(&k.to_string())
                    .group(2)
                    .text("\n"),
            ));
        }
        out.push(Rewrite::new(
            format!(r"#{dv}:\|"),
            Template::literal(&format!("#{dv}:")),
        ));
        for k in 1..=4 {
            out.push(Rewrite::new(
                format!(r"#{dv}:H{{{k}}}\|"),
                Template::literal(&format!("#{dv}:{k}")),
            ));
        }
        out
    }
}

impl Special for ReplyDelta {
    fn name(&self) -> String {
        format!("delta_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let d = self.parts_delta(&self.name(), &t)?;
        let board = board_of(&self.name(), &t)?;
        let d = d.saturating_add_signed(mopup::mop_up(board, self.0));
        t.vars.push((VarName::must(DELTA_VAR), d.to_string()));
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let mut out = self.tally_rewrites();
        out.extend(ReplyDelta::digit_rewrites());
        out
    }

    fn defines(&self) -> Vec<String> {
        vec![DELTA_VAR.into()]
    }

    fn requires(&self) -> Vec<String> {
        [FROM, PIECE, CAPTURED, PROMOTION, TO]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
}

/// [`ReplyDelta`] without the mop-up term: how a move inside the search
/// changes `us`'s evaluation, so that a position's [`EVAL_VAR`] can be
/// carried down from an evaluated ancestor (`search`'s capture plies)
/// instead of computed afresh: `evaluate(after) = evaluate(before) + dv -
/// DELTA_OFFSET`, exactly, for a move of the other side (a move of `us`
/// changes the other side's evaluation by the same rule, and
/// `evaluate(b, us) = 2 * EVEN - evaluate(b, !us)`). The mop-up term is
/// added once, at the leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct MoveDelta(pub Color);

impl MoveDelta {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let mut out = ReplyDelta(self.0).lookup_rewrites();
        out.extend(ReplyDelta::digit_rewrites());
        out
    }
}

impl Special for MoveDelta {
    fn name(&self) -> String {
        format!("move_delta_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let d = ReplyDelta(self.0).parts_delta(&self.name(), &t)?;
        t.vars.push((VarName::must(DELTA_VAR), d.to_string()));
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<MoveDelta> = Lowered::new();
        LOWERED.get(self, MoveDelta::build_rewrites)
    }

    fn defines(&self) -> Vec<String> {
        ReplyDelta(self.0).defines()
    }

    fn requires(&self) -> Vec<String> {
        ReplyDelta(self.0).requires()
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

    /// `captures::carry_down` takes [`DELTA_OFFSET`] off an evaluation
    /// before adding a move's change, which gives the numbers of adding
    /// first only if no evaluation is below the offset: a side has at
    /// most sixteen pieces, none worth more than the most valuable piece
    /// on its best square.
    #[test]
    fn evaluations_never_go_below_the_delta_offset() {
        let most = ['P', 'N', 'B', 'R', 'T', 'Q', 'K']
            .into_iter()
            .flat_map(|role| {
                (0..8).flat_map(move |file| (1..=8).map(move |rank| (role, file, rank)))
            })
            .map(|(role, file, rank)| piece_value(role, file, rank))
            .max()
            .unwrap_or_default();
        assert!(most >= 90, "a queen is worth 90 or more: {most}");
        assert!(
            EVEN >= DELTA_OFFSET + 16 * most,
            "the lowest evaluation, {EVEN} - 16 * {most}, is below {DELTA_OFFSET}"
        );
    }

    #[test]
    fn pawns_gain_by_advancing_in_the_centre_and_late_on_the_wings() {
        // Two squares up from the second rank: e4 pays most, c4 less,
        // a4 and g4 (the castled king's cover) nothing.
        let push = |file| piece_value('P', file, 4) - piece_value('P', file, 2);
        assert_eq!([0, 1, 2, 3, 4, 5, 6, 7].map(push), [0, 0, 2, 3, 3, 2, 0, 0]);
        // The table is the same seen from either wing, and a pawn about
        // to promote is worth as much on any file.
        for rank in 2..=7 {
            for file in 0..4 {
                assert_eq!(
                    piece_value('P', file, rank),
                    piece_value('P', 7 - file, rank)
                );
            }
            assert!(piece_value('P', 0, rank) <= piece_value('P', 3, rank));
        }
        assert!((0..8).all(|f| piece_value('P', f, 7) == 18));
    }

    /// For every move the real move pass makes in leaf mode (run by the
    /// reference interpreter, so the parts are the program's own) from a set
    /// of positions (castling, en passant, promotions, captures of castling
    /// rooks among them), the delta of its parts is exactly how the full
    /// evaluation changes for the side that did not move.
    #[test]
    fn reply_delta_is_the_change_of_the_evaluation() {
        use crate::board::codec::{encode, thread_of};
        use crate::movegen::{legal_moves_for, Options};
        use regex_vm::state::State;
        use shakmaty::Position;
        let positions = crate::games::sample_positions(
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1",
                "4k3/8/8/1pP5/8/8/8/4K3 w - b6 0 1",
                "1r2k3/P7/8/8/8/8/6p1/4K2R b K - 0 1",
                "r2k3r/pb1n3p/5pp1/1q1p4/1pPPPbPB/3N4/PP2RPBP/RN3K2 b - c3 0 29",
            ],
            39,
        );
        let mut checked = 0;
        let mut en_passant = 0;
        for pos in positions {
            let mover = pos.turn();
            let us = !mover;
            let before = evaluate(&encode(&pos).board, us);
            let program = regex_asm::trace(|m| {
                m.assume_set(&crate::board::codec::POSITION_VARS);
                legal_moves_for(m, mover, Options::LEAF)
            })
            .expect("the leaf move pass traces");
            let mut state = State {
                prefix: String::new(),
                threads: vec![thread_of(&encode(&pos))],
            };
            regex_asm::interpret::run(&program.instrs, &mut state).expect("runs");
            assert_eq!(state.threads.len(), pos.legal_moves().len());
            for t in &state.threads {
                let part = |n: &str| t.var(n).expect("a part");
                let d = ReplyDelta(us)
                    .delta(
                        part(FROM),
                        part(PIECE),
                        part(CAPTURED),
                        part(PROMOTION),
                        part(TO),
                    )
                    .expect("parts");
                let after = evaluate(part(BOARD_VAR), us);
                assert_eq!(
                    after + DELTA_OFFSET,
                    before + d,
                    "{}: {}{}",
                    crate::board::codec::fen_of(&pos),
                    part(FROM),
                    part(TO)
                );
                checked += 1;
                if part(CAPTURED) == "," && part(PIECE).eq_ignore_ascii_case("p") {
                    en_passant += 1;
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
        assert!(en_passant >= 4, "{en_passant}");
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
