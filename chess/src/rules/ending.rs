//! The draws besides stalemate: threefold repetition, the fifty-move rule,
//! insufficient material.
//!
//! This module owns the position history a game carries for repetition
//! (its text form, the key of a position, and [`NotePosition`], which adds
//! the new position to it and says whether this is the third occurrence),
//! and the two board tests [`dead_material`] and [`fifty_moves`], each with
//! its native twin. It does not decide what a turn does with the verdicts
//! (that is `turn`) nor where the history sits on the screen (`screen`).
//!
//! During a turn the history is the first line of the text before the one
//! position thread: `Positions:` then one key per position, newest first,
//! each after a space. A key is the side to move and the 64 squares of the
//! board line (`T`/`t`: rooks with their castling right, `,`: an en passant
//! square, kept only when a pawn of the side to move stands next to the
//! pawn that skipped it, the pseudo-legal form of "a capture is possible").
//! The history holds the positions since the last capture or pawn move
//! (the halfmove clock 0); a change of castling rights changes every later
//! key, so those positions can never match the older ones.

use std::sync::Arc;

use regex_asm::ir::{RefError, WholeStateSpecial};
use regex_vm::state::{State, Thread};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::{HALFMOVE_VAR, TURN_VAR};
use crate::board::{index, BOARD_VAR};
use crate::rules::func::{append, get, local, Func};

/// The history line's first word.
pub const HISTORY_PREFIX: &str = "Positions:";
/// The variable [`dead_material`] sets: `T` when neither side can mate.
pub const DEAD_VAR: &str = "dm";
/// The variable [`fifty_moves`] sets: `T` when the halfmove clock is 100 or
/// more.
pub const FIFTY_VAR: &str = "f50";

/// The key of a position: side to move, then the squares of the board
/// line, an en passant mark kept only when the side to move has a pawn
/// beside the pawn that made it (the native twin of the key
/// [`NotePosition`] builds).
pub fn position_key(board: &str, turn: Color) -> String {
    let b = board.as_bytes();
    let mut key = String::from(match turn {
        Color::White => "w",
        Color::Black => "b",
    });
    for i in crate::board::squares() {
        let mut c = b.get(i).copied().unwrap_or(b'?');
        if c == b',' && !ep_capturable(b, i) {
            c = b'.';
        }
        key.push(c as char);
    }
    key
}

/// The squares (board-line indices) from which a pawn could take en
/// passant on `ep`, and that pawn's letter.
fn ep_attackers(ep: usize) -> Option<(Vec<usize>, u8)> {
    let (file, rank) = crate::board::square_at(ep)?;
    let (pawn_rank, pawn) = match rank {
        3 => (4, b'p'),
        6 => (5, b'P'),
        _ => return None,
    };
    let files = [file.checked_sub(1), (file < 7).then_some(file + 1)];
    Some((
        files
            .into_iter()
            .flatten()
            .map(|f| index(f, pawn_rank))
            .collect(),
        pawn,
    ))
}

fn ep_capturable(b: &[u8], ep: usize) -> bool {
    ep_attackers(ep).is_some_and(|(from, pawn)| from.iter().any(|&i| b.get(i) == Some(&pawn)))
}

/// The history line of a game starting at `board`/`turn`.
pub fn start_history(board: &str, turn: Color) -> String {
    format!(" {}", position_key(board, turn))
}

/// Whether the newest key of a history (its text after `Positions:`)
/// occurs three times in it.
pub fn third_occurrence(history: &str) -> bool {
    let mut keys = history.split(' ').filter(|k| !k.is_empty());
    let Some(newest) = keys.next() else {
        return false;
    };
    keys.filter(|k| *k == newest).count() >= 2
}

/// Adds the position of the one active thread to the history at the head
/// of the text before it (emptied first when the halfmove clock is 0) and
/// pushes `T` if that position now occurs for the third time, else `F`.
#[derive(Debug, Clone, Copy)]
pub struct NotePosition;

impl NotePosition {
    fn note(state: &State) -> Result<State, String> {
        // Where no thread is active the rewrites find no `%%`: nothing.
        if !state.threads.iter().any(|t| t.is_active()) {
            return Ok(state.clone());
        }
        let [t] = state.threads.as_slice() else {
            return Err("needs exactly one thread".into());
        };
        let (line, rest) = state
            .prefix
            .split_once('\n')
            .ok_or("no history line before the thread")?;
        let history = line
            .strip_prefix(HISTORY_PREFIX)
            .ok_or("no history line before the thread")?;
        let board = get(t, BOARD_VAR)?;
        let turn = match get(t, TURN_VAR)?.as_str() {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("side to move {other:?}")),
        };
        let kept = if get(t, HALFMOVE_VAR)? == "0" {
            ""
        } else {
            history
        };
        let history = format!(" {}{kept}", position_key(&board, turn));
        let mut t = t.clone();
        let verdict = if third_occurrence(&history) { "T" } else { "F" };
        t.stack.insert(0, verdict.to_string());
        Ok(State {
            prefix: format!("{HISTORY_PREFIX}{history}\n{rest}"),
            threads: vec![t],
        })
    }
}

fn global(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::Global)
}

impl WholeStateSpecial for NotePosition {
    fn name(&self) -> String {
        "note_position".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        NotePosition::note(state).map_err(|message| RefError::Special {
            instr: self.name(),
            message,
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let p = HISTORY_PREFIX;
        let thread = r"[^%]*%%\n";
        let mut out = vec![
            // A capture or pawn move: nothing before can come back.
            global(
                format!(r"^{p}[^\n]*\n({thread}[^%]*?#{HALFMOVE_VAR}:0\n)"),
                Template::literal(&format!("{p}\n")).group(1),
            ),
            // The new key at the front: the side, then the squares.
            global(
                format!(r"^{p}([^\n]*\n{thread}[^%]*?#{TURN_VAR}:([wb])\n)"),
                Template::literal(&format!("{p} ")).group(2).group(1),
            ),
        ];
        let mut rows = String::new();
        for _ in 0..8 {
            rows.push_str(r"/([^%\n]{8})/");
        }
        let mut t = Template::literal(&format!("{p} ")).group(1);
        for g in 3..=10 {
            t = t.group(g);
        }
        out.push(global(
            format!(r"^{p} ([wb])([^\n]*\n{thread}[^%]*?#{BOARD_VAR}:{rows}\n)"),
            t.group(2),
        ));
        // An en passant mark no pawn can use is not part of the key.
        for ep in crate::board::squares() {
            let Some((from, pawn)) = ep_attackers(ep) else {
                continue;
            };
            let side = if pawn == b'p' { 'b' } else { 'w' };
            // Key offsets: the squares in board-line order.
            let offset = |i: usize| crate::board::squares().position(|s| s == i).unwrap_or(0);
            let mut cells: Vec<(usize, bool)> = from.iter().map(|&i| (offset(i), false)).collect();
            cells.push((offset(ep), true));
            cells.sort();
            let mut pattern = format!("^({p} {side}");
            let mut at = 0;
            for (o, is_ep) in cells {
                if o > at {
                    pattern.push_str(&format!("[^ \\n]{{{}}}", o - at));
                }
                if is_ep {
                    pattern.push_str("),");
                } else {
                    pattern.push_str(&format!("[^{}]", pawn as char));
                }
                at = o + 1;
            }
            out.push(global(pattern, Template::new().group(1).text(".")));
        }
        out.push(global(
            r"^([^%]*%%\n#stack:\n)",
            Template::new().group(1).text("F\n"),
        ));
        out.push(global(
            format!(r"^({p} ([^ \n]+)(?: [^ \n]+)*? \2(?: [^ \n]+)*? \2[ \n]{thread}#stack:\n)F\n"),
            Template::new().group(1).text("T\n"),
        ));
        out
    }

    fn stack_effect(&self) -> (usize, usize) {
        (0, 1)
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into(), TURN_VAR.into(), HALFMOVE_VAR.into()]
    }
}

/// Whether neither side can ever mate (the native twin of
/// [`dead_material`]; shakmaty's `is_insufficient_material`): no pawn, rook
/// or queen, and the minor pieces are a lone knight, or bishops all on
/// squares of one colour, or nothing.
pub fn insufficient_material(board: &str) -> bool {
    let b = board.as_bytes();
    let mut knights = 0;
    let mut bishop_colours = [false; 2];
    for i in crate::board::squares() {
        match b.get(i).copied().unwrap_or(b'.') {
            b'P' | b'p' | b'R' | b'r' | b'Q' | b'q' | b'T' | b't' => return false,
            b'N' | b'n' => knights += 1,
            b'B' | b'b' => {
                let (file, rank) = crate::board::square_at(i).unwrap_or((0, 0));
                bishop_colours[(file + rank) % 2] = true;
            }
            _ => {}
        }
    }
    let bishops = bishop_colours.iter().any(|&c| c);
    match knights {
        0 => !(bishop_colours[0] && bishop_colours[1]),
        1 => !bishops,
        _ => false,
    }
}

/// A pattern (after `#z:`) reaching a bishop on a square of colour
/// `colour` ((file + rank) % 2).
fn bishop_on(colour: usize) -> String {
    // Two rows are 20 characters; a square's colour depends only on its
    // offset in those 20.
    let offsets: Vec<String> = crate::board::squares()
        .filter(|&i| i < 20)
        .filter(|&i| {
            let (file, rank) = crate::board::square_at(i).unwrap_or((0, 0));
            (file + rank) % 2 == colour
        })
        .map(|i| format!("[^%\n]{{{i}}}"))
        .collect();
    format!(r"(?:[^%\n]{{20}})*(?:{})[Bb]", offsets.join("|"))
}

/// Appends `dm`: `T` when neither side has mating material (see
/// [`insufficient_material`]), else `F`.
pub fn dead_material() -> Func {
    let z = format!("#{BOARD_VAR}:");
    let head = r"%%\n[^%]*?";
    let to_false = |cond: &str| {
        local(
            format!(r"({head}{z}{cond}[^%]*?#{DEAD_VAR}:)T"),
            Template::new().group(1).text("F"),
        )
    };
    let rules = vec![
        local(
            r"(%%\n[^%]*)".to_string(),
            Template::new().group(1).text(&format!("#{DEAD_VAR}:T\n")),
        ),
        to_false(r"[^%\n]*[PpRrQqTt]"),
        to_false(r"[^%\n]*(?:[Nn][^%\n]*[NnBb]|[Bb][^%\n]*[Nn])"),
        // Bishops on both colours: a light one marks `L`, a dark one then
        // makes it `F`, an `L` left over is `T` again.
        local(
            format!(r"({head}{z}{}[^%]*?#{DEAD_VAR}:)T", bishop_on(0)),
            Template::new().group(1).text("L"),
        ),
        local(
            format!(r"({head}{z}{}[^%]*?#{DEAD_VAR}:)L", bishop_on(1)),
            Template::new().group(1).text("F"),
        ),
        local(
            format!(r"({head}#{DEAD_VAR}:)L"),
            Template::new().group(1).text("T"),
        ),
    ];
    Func {
        name: "dead_material".into(),
        rules,
        meaning: Arc::new(|mut t: Thread| {
            let board = get(&t, BOARD_VAR)?;
            let v = if insufficient_material(&board) {
                "T"
            } else {
                "F"
            };
            append(&mut t, DEAD_VAR, v)?;
            Ok(vec![t])
        }),
        defines: vec![DEAD_VAR.into()],
        requires: vec![BOARD_VAR.into()],
    }
}

/// Appends `f50`: `T` when the halfmove clock (a canonical decimal of any
/// length) is 100 or more.
pub fn fifty_moves() -> Func {
    let h = format!("#{HALFMOVE_VAR}:");
    Func {
        name: "fifty_moves".into(),
        rules: vec![
            local(
                format!(r"(%%\n[^%]*?{h}[1-9][0-9]{{2,}}\n[^%]*)"),
                Template::new().group(1).text(&format!("#{FIFTY_VAR}:T\n")),
            ),
            local(
                format!(r"(%%\n[^%]*?{h}[0-9]{{1,2}}\n[^%]*)"),
                Template::new().group(1).text(&format!("#{FIFTY_VAR}:F\n")),
            ),
        ],
        meaning: Arc::new(|mut t: Thread| {
            let h = get(&t, HALFMOVE_VAR)?;
            if h.is_empty()
                || !h.bytes().all(|b| b.is_ascii_digit())
                || (h.len() > 1 && h.starts_with('0'))
            {
                return Err(format!("halfmove clock {h:?} is not a decimal"));
            }
            let v = if h.len() >= 3 { "T" } else { "F" };
            append(&mut t, FIFTY_VAR, v)?;
            Ok(vec![t])
        }),
        defines: vec![FIFTY_VAR.into()],
        requires: vec![HALFMOVE_VAR.into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::encode_fen;

    fn board(fen: &str) -> String {
        encode_fen(fen).unwrap().board
    }

    #[test]
    fn insufficient_material_is_shakmatys_rule() {
        use shakmaty::Position;
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/3BK3 w - - 0 1",
            "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",
            "8/8/8/2b1k3/8/8/8/3BK3 w - - 0 1",
            "8/8/8/3bk3/8/8/8/3BK3 w - - 0 1",
            "8/8/8/3nk3/8/8/8/3NK3 w - - 0 1",
            "8/8/8/4k3/8/8/8/2NNK3 w - - 0 1",
            "8/8/8/4k3/8/8/8/2BBK3 w - - 0 1",
            "8/8/8/4k3/8/8/8/1B1BK3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/3nk3/8/8/8/3BK3 w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
        ] {
            let pos = crate::board::codec::parse_fen(fen).unwrap();
            assert_eq!(
                insufficient_material(&board(fen)),
                pos.is_insufficient_material(),
                "{fen}"
            );
        }
    }

    #[test]
    fn keys_drop_en_passant_marks_no_pawn_can_use() {
        let with = position_key(&board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), Color::Black);
        let without = position_key(&board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), Color::Black);
        assert!(with.contains(','), "{with}");
        assert!(!without.contains(','), "{without}");
        assert_eq!(with.len(), 65);
    }

    #[test]
    fn the_third_occurrence_is_counted_on_the_newest_key() {
        assert!(third_occurrence(" a b a c a"));
        assert!(!third_occurrence(" a b a c"));
        assert!(!third_occurrence(" b a a a"));
        assert!(!third_occurrence(""));
    }
}
