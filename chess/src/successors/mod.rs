//! The successors program: one FEN line in, the FEN of every position one
//! legal move away out, as a stand-alone rewrite list.
//!
//! The state is text: a FEN line as python-chess writes it (a final
//! newline or not). One pass of the list leaves the FEN after each legal
//! move, one per line, `\n` between lines and none after the last, sorted
//! by the move's UCI text as strings compare (`a2a3` before `a2a4` before
//! `b1a3`; `e7e8b` before `e7e8n`). A position
//! with no legal move, the empty state and text that is not a FEN line
//! give the empty state. Every field is computed by the rewrites: the
//! board (digits for empty runs), the side to move, castling rights
//! (`KQkq` order or `-`), the en passant square as `Board.fen()` writes it
//! (only when a legal en passant capture exists), the halfmove clock and
//! the fullmove number, of any length.
//!
//! The program is the game's move pass (`specials`) with its rules in UCI
//! order (`order`) and promotion to `b n q r` or to a queen alone
//! ([`Promotions`]), between `fen::ParseFen` and `fen::WriteFens`; the
//! clocks are raised once, on the one thread before it forks
//! (`count`), and each successor takes `0` or the raised clock; the en
//! passant mark is kept only where a capture is legal (`en_passant`). It
//! reuses the move pass's instructions without changing them: the
//! programs of the game keep their order and their bytes.

mod count;
mod en_passant;
mod fen;
mod order;

use std::sync::{Arc, OnceLock};

use regex_asm::{AsmError, Machine};
use regex_vm::state::Thread;
use regex_vm::{Config, Executor, Program};
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};

use crate::board::codec::{excerpt, parse_fen, FenError, FULLMOVE_VAR, HALFMOVE_VAR, TURN_VAR};
use crate::board::{letter, rank_range, BOARD_VAR};
use crate::movegen::side_letter;
use crate::rules::func::{get, Func};
use crate::rules::specials::{
    color_name, promoted_copies, promotion_rewrite, Mover, Stage, CAPTURED, PIECE, PROMOTION,
};

use count::increment_any;
use en_passant::LegalEnPassant;
use fen::{ParseFen, WriteFens, NEXT_HALFMOVE_VAR};
use order::{moves_in_uci_order, select_in_uci_order};

/// Which promotions a pawn reaching the last rank makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Promotions {
    /// To a bishop, knight, queen or rook (four successors).
    #[default]
    All,
    /// To a queen only (the rule of the benchmark this program answers).
    Queen,
}

impl Promotions {
    /// The promotion letters in UCI order.
    fn letters(self) -> &'static [&'static str] {
        match self {
            Promotions::All => &["b", "n", "q", "r"],
            Promotions::Queen => &["q"],
        }
    }
}

/// Records the successors program.
pub fn successors_dsl(m: &mut Machine, promotions: Promotions) {
    m.special(Arc::new(ParseFen), &[], &[]);
    m.special(Arc::new(increment_any(NEXT_HALFMOVE_VAR)), &[], &[]);
    m.if_else(
        m.get(TURN_VAR).eq("w"),
        |m| moves_for(m, Color::White, promotions),
        |m| {
            m.special(Arc::new(increment_any(FULLMOVE_VAR)), &[], &[]);
            moves_for(m, Color::Black, promotions);
        },
    );
    let pawns = [letter(Color::White, 'P'), letter(Color::Black, 'P')].map(String::from);
    m.if_else(
        m.get(PIECE).is_any(&pawns) | !m.get(CAPTURED).is_any(&[".", ","]),
        |m| m.set(HALFMOVE_VAR, "0"),
        |m| m.set(HALFMOVE_VAR, m.get(NEXT_HALFMOVE_VAR)),
    );
    m.special(Arc::new(WriteFens), &[], &[]);
}

/// The successors program, assembled.
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn successors_program(promotions: Promotions) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| successors_dsl(m, promotions))
}

static PASSES: [OnceLock<Result<crate::Pass, Arc<crate::BuildError>>>; 2] =
    [const { OnceLock::new() }; 2];

/// The successors program of `promotions` and its executor (built and
/// compiled on first use).
///
/// # Errors
///
/// [`crate::Error::Assemble`] if the program cannot be built.
pub fn pass(promotions: Promotions) -> Result<&'static crate::Pass, crate::Error> {
    PASSES[promotions as usize]
        .get_or_init(|| {
            let program = successors_program(promotions).map_err(|e| Arc::new(e.into()))?;
            let executor =
                Executor::new(&program, Config::default()).map_err(|e| Arc::new(e.into()))?;
            Ok(crate::Pass { program, executor })
        })
        .as_ref()
        .map_err(|e| crate::Error::Assemble(Arc::clone(e)))
}

/// Runs the successors list of `promotions` on `text` (a FEN line, see
/// [`input_line`]) on the regex VM: its output, the successors' FEN lines
/// joined by `\n`.
///
/// # Errors
///
/// [`crate::Error::Exec`] if the VM stops (a state over its 16 MiB cap:
/// clocks of hundreds of thousands of digits).
pub fn run(text: &str, promotions: Promotions) -> Result<String, crate::Error> {
    let mut state = text.to_string();
    pass(promotions)?.executor.run(&mut state)?;
    Ok(state)
}

/// Why [`input_line`] refused a FEN.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A clock field that is not a decimal (of any length).
    #[error("invalid FEN {fen:?}: the {field} {value:?} is not a decimal number")]
    Clock {
        /// The input, quoted (see [`excerpt`]).
        fen: String,
        /// `halfmove clock` or `fullmove number`.
        field: &'static str,
        /// The field as given (quoted the same way).
        value: String,
    },
    /// The rest of the FEN, as `codec` reads it.
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// The FEN line python-chess's `Board(fen).fen()` writes for `fen`: the
/// position checked and written by shakmaty (missing fields `w - - 0 1`,
/// the en passant square only when a legal capture exists), the clocks
/// kept at any length (leading zeros dropped, a fullmove number of 0
/// read as 1).
///
/// # Errors
///
/// [`InputError::Clock`] for a clock that is not a decimal,
/// [`InputError::Fen`] for text that is not a legal position.
pub fn input_line(fen: &str) -> Result<String, InputError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let clock = |i: usize, default: &str, field: &'static str| -> Result<String, InputError> {
        let Some(v) = fields.get(i) else {
            return Ok(default.to_string());
        };
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InputError::Clock {
                fen: excerpt(fen.trim()),
                field,
                value: excerpt(v),
            });
        }
        let digits = v.trim_start_matches('0');
        Ok(match (digits, default) {
            ("", "1") => "1".to_string(),
            ("", _) => "0".to_string(),
            _ => digits.to_string(),
        })
    };
    let halfmove = clock(4, "0", "halfmove clock")?;
    let fullmove = clock(5, "1", "fullmove number")?;
    // The clocks are checked above; the rest as `codec` reads it (fields
    // after the sixth included, which it refuses).
    let mut rest: Vec<&str> = fields.iter().take(4).copied().collect();
    if fields.len() > 6 {
        rest.extend(["0", "1"]);
        rest.extend(&fields[6..]);
    }
    let pos = parse_fen(&rest.join(" ")).map_err(|e| match e {
        // The message quotes the input as given.
        FenError::Syntax { source, .. } => FenError::Syntax {
            fen: excerpt(fen.trim()),
            source,
        },
        FenError::Illegal { source, .. } => FenError::Illegal {
            fen: excerpt(fen.trim()),
            source,
        },
        other => other,
    })?;
    let written = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let placement: Vec<&str> = written.split(' ').take(4).collect();
    Ok(format!("{} {halfmove} {fullmove}", placement.join(" ")))
}

/// Every legal move of `c`, in UCI order, each thread holding the position
/// after it (the board, the side to move; not yet the halfmove clock) and
/// the parts `pc` and `x` the clock is decided by.
fn moves_for(m: &mut Machine, c: Color, promotions: Promotions) {
    m.special(Arc::new(select_in_uci_order(c)), &[], &[]);
    by_mover(m, c, &Mover::ALL);
    m.special(Arc::new(promote(c, promotions)), &[], &[]);
    for stage in Stage::after_move(c) {
        m.special(Arc::new(stage), &[], &[]);
    }
    m.special(Arc::new(LegalEnPassant(!c)), &[], &[]);
    m.set(TURN_VAR, side_letter(!c));
}

/// `if pc is one of movers[0] { its moves } else { the rest }`: every
/// thread takes one branch, its piece's rules in UCI order.
fn by_mover(m: &mut Machine, c: Color, movers: &[Mover]) {
    match movers {
        [] => {}
        [last] => m.special(Arc::new(moves_in_uci_order(c, *last)), &[], &[]),
        [first, rest @ ..] => {
            let letters: Vec<String> = first
                .letters()
                .iter()
                .flat_map(|l| l.chars())
                .map(|l| letter(c, l).to_string())
                .collect();
            m.if_else(
                m.get(PIECE).is_any(&letters),
                |m| m.special(Arc::new(moves_in_uci_order(c, *first)), &[], &[]),
                |m| by_mover(m, c, rest),
            );
        }
    }
}

/// A pawn of colour `c` moving to its last rank becomes one thread per
/// promotion letter, in UCI order (`u` holds it): the game's promotion
/// fork with the list's letters.
fn promote(c: Color, promotions: Promotions) -> Func {
    let (lo, hi) = rank_range(match c {
        Color::White => 8,
        Color::Black => 1,
    });
    let pawn = letter(c, 'P').to_string();
    let letters = promotions.letters();
    Func {
        name: format!(
            "promote_{}_{}",
            color_name(c),
            match promotions {
                Promotions::All => "all",
                Promotions::Queen => "queen",
            }
        ),
        rules: vec![promotion_rewrite(c, letters)],
        meaning: Arc::new(move |t: Thread| {
            let board = get(&t, BOARD_VAR)?;
            let star = board.find('*').ok_or("no destination mark")?;
            if !(lo..=hi).contains(&star) || get(&t, PIECE)? != pawn {
                return Ok(vec![t]);
            }
            if !get(&t, PROMOTION)?.is_empty() {
                return Err("promotion already chosen".into());
            }
            Ok(promoted_copies(&t, letters))
        }),
        defines: vec![],
        requires: vec![BOARD_VAR.into(), PIECE.into(), PROMOTION.into()],
    }
}
