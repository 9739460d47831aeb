//! FEN text <-> position threads, in regexes: the successors program's
//! input and output.
//!
//! [`ParseFen`] turns the state's text, one FEN line as python-chess
//! writes it (six fields, canonical digits, `KQkq` order; a final newline
//! or not), into one position thread (`z s h n` as `codec` lays them out,
//! castling rights as `T`/`t` rooks, the en passant square as `,`), plus
//! `hh`, a copy of the halfmove clock; any other text becomes the empty
//! state. [`WriteFens`] turns every thread back into a FEN line, lines
//! joined by `\n` with none after the last, in thread order; no thread
//! gives the empty state. Their reference meanings are plain Rust here
//! (the writer's through `codec::decode`); neither knows how moves are
//! made.

use regex_asm::ir::{RefError, WholeStateSpecial};
use regex_vm::state::{State, Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::{decode, Encoded, FULLMOVE_VAR, HALFMOVE_VAR, TURN_VAR};
use crate::board::{index, index_of, name_at, ANY, BOARD_VAR};

/// The copy of the halfmove clock the program raises by one before it
/// forks: the clock of every successor that is not a capture or a pawn
/// move.
pub(crate) const NEXT_HALFMOVE_VAR: &str = "hh";

/// Castling variable while parsing, and castling field while writing.
const CASTLING_VAR: &str = "c";
/// En passant variable while parsing (rank first: `3e`, so that no letter
/// stands before its digit as on the board) and field while writing.
const EP_VAR: &str = "ep";

/// The letters of a rank in FEN.
const RANK: &str = "[1-8PNBRQKpnbrqk]";

/// The corners whose rook may castle, with its FEN letter.
const CORNERS: [(usize, usize, char, char); 4] = [
    (7, 1, 'K', 'T'),
    (0, 1, 'Q', 'T'),
    (7, 8, 'k', 't'),
    (0, 8, 'q', 't'),
];

fn global(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::Global)
}

fn refused(instr: &str, message: &str) -> RefError {
    RefError::Special {
        instr: instr.to_string(),
        message: message.to_string(),
    }
}

/// The one FEN line of the state's text (a final newline or not) as its
/// six fields, if it is one in the form the regexes read.
fn fields(text: &str) -> Option<[&str; 6]> {
    let line = text.strip_suffix('\n').unwrap_or(text);
    let f: Vec<&str> = line.split(' ').collect();
    let [board, side, castling, ep, h, n] = f.as_slice() else {
        return None;
    };
    let ranks: Vec<&str> = board.split('/').collect();
    let rank_ok = |r: &&str| {
        (1..=8).contains(&r.len()) && r.bytes().all(|b| b"12345678PNBRQKpnbrqk".contains(&b))
    };
    let castling_ok = *castling == "-"
        || ((1..=4).contains(&castling.len()) && castling.bytes().all(|b| b"KQkq".contains(&b)));
    let ep_ok = *ep == "-"
        || (ep.len() == 2
            && (b'a'..=b'h').contains(&ep.as_bytes()[0])
            && b"36".contains(&ep.as_bytes()[1]));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let ok = ranks.len() == 8
        && ranks.iter().all(rank_ok)
        && (*side == "w" || *side == "b")
        && castling_ok
        && ep_ok
        && digits(h)
        && digits(n);
    ok.then_some([board, side, castling, ep, h, n])
}

/// The board line of a FEN placement whose ranks are canonical, or why not.
fn board_line(placement: &str) -> Result<Vec<u8>, &'static str> {
    let mut line = Vec::with_capacity(80);
    for rank in placement.split('/') {
        line.push(b'/');
        let mut squares = 0;
        let mut after_digit = false;
        for b in rank.bytes() {
            if b.is_ascii_digit() {
                if after_digit {
                    return Err("two digits in a row");
                }
                let n = usize::from(b - b'0');
                line.extend(std::iter::repeat_n(b'.', n));
                squares += n;
            } else {
                line.push(b);
                squares += 1;
            }
            after_digit = b.is_ascii_digit();
        }
        if squares != 8 {
            return Err("a rank that is not 8 squares");
        }
        line.push(b'/');
    }
    Ok(line)
}

/// The state's FEN line -> one position thread.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParseFen;

impl WholeStateSpecial for ParseFen {
    fn name(&self) -> String {
        "parse_fen".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        if !state.threads.is_empty() {
            return Err(refused(&self.name(), "the input is text, not threads"));
        }
        let Some([placement, side, castling, ep, h, n]) = fields(&state.prefix) else {
            return Ok(State::default());
        };
        let mut b = board_line(placement).map_err(|m| refused(&self.name(), m))?;
        for (file, rank, right, rook) in CORNERS {
            let i = index(file, rank);
            if castling.contains(right) && b[i] == plain_rook(rook) {
                b[i] = rook as u8;
            }
        }
        if let Some(i) = index_of(ep) {
            if b[i] == b'.' {
                b[i] = b',';
            }
        }
        let var = |name: &str, value: &str| (VarName::must(name), value.to_string());
        Ok(State {
            prefix: String::new(),
            threads: vec![Thread {
                tag: None,
                stack: vec![],
                vars: vec![
                    var(BOARD_VAR, &String::from_utf8_lossy(&b)),
                    var(TURN_VAR, side),
                    var(HALFMOVE_VAR, h),
                    var(FULLMOVE_VAR, n),
                    var(NEXT_HALFMOVE_VAR, h),
                ],
            }],
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let mut pattern = String::from("^");
        for rank in 0..8 {
            if rank > 0 {
                pattern.push('/');
            }
            pattern.push_str(&format!("({RANK}{{1,8}})"));
        }
        pattern.push_str(r" ([wb]) ([KQkq]{1,4}|-) (?:([a-h])([36])|-) ([0-9]+) ([0-9]+)\n?");
        // Groups: 1-8 ranks, 9 side, 10 castling, 11-12 en passant file
        // and rank, 13 halfmove clock, 14 fullmove number.
        let mut t = Template::literal(&format!("%%\n#stack:\n#{BOARD_VAR}:"));
        for rank in 1..=8 {
            t = t.text("/").group(rank).text("/");
        }
        t = t
            .text(&format!("\n#{TURN_VAR}:"))
            .group(9)
            .text(&format!("\n#{HALFMOVE_VAR}:"))
            .group(13)
            .text(&format!("\n#{FULLMOVE_VAR}:"))
            .group(14)
            .text(&format!("\n#{NEXT_HALFMOVE_VAR}:"))
            .group(13)
            .text(&format!("\n#{CASTLING_VAR}:"))
            .group(10)
            .text(&format!("\n#{EP_VAR}:"))
            .group(12)
            .group(11)
            .text("\n");
        let mut out = vec![
            global(pattern, t),
            // Text that is not a FEN line: nothing. (The input is text
            // without `%`; the FEN line's thread has the seven lines the
            // template writes, and nothing may follow them.)
            global("^[^%]+", Template::new()),
            global(r"^%%\n#stack:\n(?:#[^%\n]*\n){7}[^%]+", Template::new()),
        ];
        // Empty squares, digit by digit: on the board, a digit follows a
        // `/` or a piece letter; in the other fields never.
        for d in 1..=8usize {
            out.push(global(
                format!("([/PNBRQKpnbrqk]){d}"),
                Template::new().group(1).text(&".".repeat(d)),
            ));
        }
        for (file, rank, right, rook) in CORNERS {
            out.push(global(
                format!(
                    r"(#{BOARD_VAR}:{ANY}{{{}}}){}([^%]*?#{CASTLING_VAR}:[^\n]*{right})",
                    index(file, rank),
                    plain_rook(rook) as char
                ),
                Template::new().group(1).text(&rook.to_string()).group(2),
            ));
        }
        for rank in [3, 6] {
            for file in 0..8 {
                let i = index(file, rank);
                let name = name_at(i);
                let (f, r) = name.split_at(1);
                out.push(global(
                    format!(r"(#{BOARD_VAR}:{ANY}{{{i}}})\.([^%]*?#{EP_VAR}:{r}{f}\n)"),
                    Template::new().group(1).text(",").group(2),
                ));
            }
        }
        out.push(global(
            format!(r"#{CASTLING_VAR}:[^%\n]*\n#{EP_VAR}:[^%\n]*\n"),
            Template::new(),
        ));
        out
    }

    fn defines(&self) -> Vec<String> {
        [
            BOARD_VAR,
            TURN_VAR,
            HALFMOVE_VAR,
            FULLMOVE_VAR,
            NEXT_HALFMOVE_VAR,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
}

/// The letter of a castling rook that has lost its right.
fn plain_rook(castle: char) -> u8 {
    if castle == 'T' {
        b'R'
    } else {
        b'r'
    }
}

/// Every thread -> its FEN line; the lines joined by `\n`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WriteFens;

impl WholeStateSpecial for WriteFens {
    fn name(&self) -> String {
        "write_fens".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        if !state.prefix.is_empty() {
            return Err(refused(&self.name(), "text before the threads"));
        }
        let lines = state
            .threads
            .iter()
            .map(|t| fen_line(t).map_err(|m| refused(&self.name(), &m)))
            .collect::<Result<Vec<String>, RefError>>()?;
        Ok(State {
            prefix: lines.join("\n"),
            threads: vec![],
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        // Two fields as variables of each thread: the en passant square
        // named from its mark, the castling rights from the corners.
        let mut out = vec![Rewrite::new(
            r"(%%\n[^%]*)",
            Template::new()
                .group(1)
                .text(&format!("#{EP_VAR}:-\n#{CASTLING_VAR}:\n")),
        )
        .with_scope(Scope::ActiveThread)];
        for rank in [3, 6] {
            for file in 0..8 {
                let i = index(file, rank);
                out.push(global(
                    format!(r"(#{BOARD_VAR}:{ANY}{{{i}}}),([^%]*?#{EP_VAR}:)-"),
                    Template::new()
                        .group(1)
                        .text(".")
                        .group(2)
                        .text(&name_at(i)),
                ));
            }
        }
        let mut before = String::new();
        for (file, rank, right, rook) in CORNERS {
            out.push(global(
                format!(
                    r"(#{BOARD_VAR}:{ANY}{{{}}}){rook}([^%]*?#{CASTLING_VAR}:{before})",
                    index(file, rank)
                ),
                Template::new()
                    .group(1)
                    .text(&rook.to_string())
                    .group(2)
                    .text(&right.to_string()),
            ));
            before.push(right);
            before.push('?');
        }
        out.push(global(
            format!(r"(#{CASTLING_VAR}:)\n"),
            Template::new().group(1).text("-\n"),
        ));
        // Each thread becomes a line (a newline first): board, side,
        // castling, en passant, clocks.
        out.push(global(
            format!(
                r"%%\n#stack:\n#{HALFMOVE_VAR}:([0-9]+)\n#{TURN_VAR}:([wb])\n#{BOARD_VAR}:({ANY}*)\n#{FULLMOVE_VAR}:([0-9]+)\n[^%]*?#{EP_VAR}:({ANY}*)\n#{CASTLING_VAR}:({ANY}*)\n[^%]*"
            ),
            Template::literal("\n")
                .group(3)
                .text(" ")
                .group(2)
                .text(" ")
                .group(6)
                .text(" ")
                .group(5)
                .text(" ")
                .group(1)
                .text(" ")
                .group(4),
        ));
        // Only FEN lines are left: the board's own letters and runs can be
        // rewritten without context.
        for (from, to) in [("T", "R"), ("t", "r")] {
            out.push(global(from, Template::literal(to)));
        }
        for d in (1..=8usize).rev() {
            out.push(global(
                format!(r"\.{{{d}}}"),
                Template::literal(&d.to_string()),
            ));
        }
        for (from, to) in [("//", "/"), ("\n/", "\n"), ("/ ", " "), ("^\n", "")] {
            out.push(global(from, Template::literal(to)));
        }
        out
    }

    fn requires(&self) -> Vec<String> {
        [BOARD_VAR, TURN_VAR, HALFMOVE_VAR, FULLMOVE_VAR]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
}

/// The FEN of one thread (`codec::decode`'s text, the clocks as the
/// thread spells them, of any length).
fn fen_line(t: &Thread) -> Result<String, String> {
    if !t.is_active() || !t.stack.is_empty() {
        return Err("a paused thread or a stack item".into());
    }
    let first: Vec<&str> = t.vars.iter().take(4).map(|(n, _)| n.as_str()).collect();
    if first != [HALFMOVE_VAR, TURN_VAR, BOARD_VAR, FULLMOVE_VAR] {
        return Err(format!("variables {first:?} first, not h s z n"));
    }
    let var = |name: &str| t.var(name).ok_or(format!("no variable {name}"));
    let turn = match var(TURN_VAR)? {
        "w" => Color::White,
        _ => Color::Black,
    };
    let text = decode(&Encoded {
        board: var(BOARD_VAR)?.to_string(),
        turn,
        halfmoves: 0,
        fullmoves: 0,
    })
    .map_err(|e| e.to_string())?;
    let fields: Vec<&str> = text.split(' ').take(4).collect();
    Ok(format!(
        "{} {} {}",
        fields.join(" "),
        var(HALFMOVE_VAR)?,
        var(FULLMOVE_VAR)?
    ))
}
