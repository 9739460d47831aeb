//! FEN <-> the position as the regex program holds it.
//!
//! This module owns the translation between standard FEN and the thread
//! variables of a position: `z` (the board line, see `board`), `s` (`w` or
//! `b`), `h` (halfmove clock), `n` (fullmove number). Castling rights live
//! in the board as `T`/`t` rooks, the en passant square as a `,` square.
//! FEN input is validated with shakmaty (an illegal or malformed position is
//! a [`FenError`]); this module never runs the regex program.

use shakmaty::fen::Fen;
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, PositionErrorKinds, Role,
    Square,
};

use regex_vm::state::{Thread, VarName};

use crate::board::{index, index_of, name_at, square_at, BOARD_LEN, BOARD_VAR};

/// Side to move variable.
pub const TURN_VAR: &str = "s";
/// Halfmove clock variable.
pub const HALFMOVE_VAR: &str = "h";
/// Fullmove number variable.
pub const FULLMOVE_VAR: &str = "n";
/// The variables a position thread holds, in order.
pub const POSITION_VARS: [&str; 4] = [BOARD_VAR, TURN_VAR, HALFMOVE_VAR, FULLMOVE_VAR];

/// The standard starting position as FEN: the one place the project writes
/// it out (a test checks it against shakmaty's starting position).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN that cannot be played, or a thread that holds no position.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FenError {
    /// Not FEN syntax.
    #[error("invalid FEN {fen:?}")]
    Syntax {
        /// The input, quoted (see [`excerpt`]).
        fen: String,
        /// What shakmaty found wrong.
        #[source]
        source: shakmaty::fen::ParseFenError,
    },
    /// A clock field outside 0..=2^32-1 (FEN's 32-bit counters).
    #[error("invalid FEN {fen:?}: the {field} {value:?} is not a number from 0 to 4294967295")]
    Clock {
        /// The input, quoted (see [`excerpt`]).
        fen: String,
        /// `halfmove clock` or `fullmove number`.
        field: &'static str,
        /// The field as given (at most [`EXCERPT_CHARS`] characters).
        value: String,
    },
    /// Well-formed but not a legal chess position.
    #[error("illegal position {fen:?}")]
    Illegal {
        /// The input, quoted (see [`excerpt`]).
        fen: String,
        /// What shakmaty found illegal.
        #[source]
        source: Box<shakmaty::PositionError<Chess>>,
    },
    /// A thread whose position variables are missing or malformed.
    #[error("thread does not hold a position: {0}")]
    BadThread(String),
}

/// A position in the program's encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The board line.
    pub board: String,
    /// Side to move.
    pub turn: Color,
    /// Halfmove clock (FEN allows up to 2^32 - 1; a game may go past it).
    pub halfmoves: u64,
    /// Fullmove number (likewise).
    pub fullmoves: u64,
}

pub use regex_vm::{excerpt, EXCERPT_CHARS};

/// Parses and validates a FEN.
/// Parses and validates a FEN, leniently as python-chess and Stockfish
/// read it (see [`parse_fen_with_warnings`]); the warnings are dropped.
///
/// # Errors
///
/// [`FenError::Syntax`], [`FenError::Clock`] or [`FenError::Illegal`].
pub fn parse_fen(fen: &str) -> Result<Chess, FenError> {
    parse_fen_with_warnings(fen).map(|(pos, _)| pos)
}

/// Parses and validates a FEN. Missing fields after the board default to
/// `w - - 0 1`; Shredder/X-FEN castling letters naming the standard rooks
/// (`HAha`) mean `KQkq`; castling rights without their king and rook, and
/// an en passant square no double push can have made, are dropped, each
/// with a one-line warning in the result. A clock must be a decimal from 0
/// to 2^32 - 1.
///
/// # Errors
///
/// [`FenError::Syntax`] for text that is not FEN, [`FenError::Clock`] for
/// a clock out of bounds, [`FenError::Illegal`] for a position no game can
/// reach (no king, pawns on the back rank, the side not to move in
/// check, ...); each quotes at most the first 100 characters of the input.
pub fn parse_fen_with_warnings(fen: &str) -> Result<(Chess, Vec<String>), FenError> {
    let quoted = excerpt(fen.trim());
    let fields: Vec<&str> = fen.split_whitespace().collect();
    for (i, field) in [(4, "halfmove clock"), (5, "fullmove number")] {
        if let Some(v) = fields.get(i) {
            let ok =
                !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && v.parse::<u32>().is_ok();
            if !ok {
                return Err(FenError::Clock {
                    fen: quoted,
                    field,
                    value: excerpt(v),
                });
            }
        }
    }
    let parsed: Fen = fen.trim().parse().map_err(|source| FenError::Syntax {
        fen: quoted.clone(),
        source,
    })?;
    let mut warnings = Vec::new();
    let pos = match parsed.into_position::<Chess>(CastlingMode::Standard) {
        Ok(pos) => pos,
        Err(e) => {
            let kinds = e.kinds();
            let illegal = |source| FenError::Illegal {
                fen: quoted.clone(),
                source: Box::new(source),
            };
            let pos = match e.ignore_invalid_castling_rights() {
                Ok(pos) => pos,
                Err(e) => e.ignore_invalid_ep_square().map_err(illegal)?,
            };
            if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
                warnings.push(format!(
                    "castling rights without their king and rook dropped (kept: {})",
                    castling_text(&pos)
                ));
            }
            if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
                warnings.push(format!(
                    "en passant square {} dropped: no double push can have made it",
                    fields.get(3).map_or("-", |v| v)
                ));
            }
            pos
        }
    };
    Ok((pos, warnings))
}

/// The castling field of a position's FEN (`KQkq`, `-`, ...).
fn castling_text(pos: &Chess) -> String {
    let fen = fen_of(pos);
    fen.split(' ').nth(2).unwrap_or("-").to_string()
}

/// The FEN of a position, en passant square shown after every double push
/// (the FEN standard's rule, which the program follows).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

fn role_letter(role: Role) -> char {
    match role {
        Role::Pawn => 'P',
        Role::Knight => 'N',
        Role::Bishop => 'B',
        Role::Rook => 'R',
        Role::Queen => 'Q',
        Role::King => 'K',
    }
}

/// Index of a shakmaty square in the board line.
pub fn index_of_square(sq: Square) -> usize {
    index(usize::from(sq.file()), usize::from(sq.rank()) + 1)
}

/// The program's encoding of a position.
pub fn encode(pos: &Chess) -> Encoded {
    let mut b: Vec<char> = (0..BOARD_LEN)
        .map(|i| if square_at(i).is_some() { '.' } else { '/' })
        .collect();
    for (sq, piece) in pos.board().clone() {
        let ch = role_letter(piece.role);
        b[index_of_square(sq)] = match piece.color {
            Color::White => ch,
            Color::Black => ch.to_ascii_lowercase(),
        };
    }
    for color in [Color::White, Color::Black] {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = pos.castles().rook(color, side) {
                let i = index_of_square(rook);
                b[i] = if color == Color::White { 'T' } else { 't' };
            }
        }
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Always) {
        b[index_of_square(ep)] = ',';
    }
    Encoded {
        board: b.into_iter().collect(),
        turn: pos.turn(),
        halfmoves: u64::from(pos.halfmoves()),
        fullmoves: u64::from(pos.fullmoves().get()),
    }
}

/// Parses a FEN into the program's encoding.
///
/// # Errors
///
/// As [`parse_fen`].
pub fn encode_fen(fen: &str) -> Result<Encoded, FenError> {
    parse_fen(fen).map(|p| encode(&p))
}

/// The FEN text of an encoded position (no legality check).
///
/// # Errors
///
/// [`FenError::BadThread`] if the board line is malformed.
pub fn decode(e: &Encoded) -> Result<String, FenError> {
    let b: Vec<char> = e.board.chars().collect();
    if b.len() != BOARD_LEN {
        return Err(FenError::BadThread(format!(
            "board line has {} characters, not {BOARD_LEN}",
            b.len()
        )));
    }
    let mut placement = String::new();
    let mut ep = None;
    for rank in (1..=8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let i = index(file, rank);
            let piece = match b[i] {
                '.' => None,
                ',' => {
                    ep = Some(name_at(i));
                    None
                }
                'T' => Some('R'),
                't' => Some('r'),
                c if "PNBRQKpnbrqk".contains(c) => Some(c),
                c => {
                    return Err(FenError::BadThread(format!(
                        "unexpected {c:?} on {}",
                        name_at(i)
                    )))
                }
            };
            match piece {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(p);
                }
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 1 {
            placement.push('/');
        }
    }
    let mut castling = String::new();
    for (sq, ch, right) in [
        ("h1", 'T', 'K'),
        ("a1", 'T', 'Q'),
        ("h8", 't', 'k'),
        ("a8", 't', 'q'),
    ] {
        if index_of(sq).map(|i| b[i]) == Some(ch) {
            castling.push(right);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let turn = match e.turn {
        Color::White => 'w',
        Color::Black => 'b',
    };
    Ok(format!(
        "{placement} {turn} {castling} {} {} {}",
        ep.as_deref().unwrap_or("-"),
        e.halfmoves,
        e.fullmoves
    ))
}

/// A thread holding the position (variables in [`POSITION_VARS`] order).
pub fn thread_of(e: &Encoded) -> Thread {
    let turn = match e.turn {
        Color::White => "w",
        Color::Black => "b",
    };
    Thread {
        tag: None,
        stack: Vec::new(),
        vars: vec![
            (VarName::must(BOARD_VAR), e.board.clone()),
            (VarName::must(TURN_VAR), turn.to_string()),
            (VarName::must(HALFMOVE_VAR), e.halfmoves.to_string()),
            (VarName::must(FULLMOVE_VAR), e.fullmoves.to_string()),
        ],
    }
}

/// The position a thread holds.
///
/// # Errors
///
/// [`FenError::BadThread`] naming the missing or malformed variable.
pub fn from_thread(t: &Thread) -> Result<Encoded, FenError> {
    let get = |name: &str| {
        t.var(name)
            .ok_or_else(|| FenError::BadThread(format!("variable {name} is missing")))
    };
    let number = |name: &str| -> Result<u64, FenError> {
        get(name)?
            .parse()
            .map_err(|_| FenError::BadThread(format!("variable {name} is not a number")))
    };
    let turn = match get(TURN_VAR)? {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadThread(format!("side to move {other:?}"))),
    };
    Ok(Encoded {
        board: get(BOARD_VAR)?.to_string(),
        turn,
        halfmoves: number(HALFMOVE_VAR)?,
        fullmoves: number(FULLMOVE_VAR)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_is_shakmatys_starting_position() {
        let standard = Fen::from_position(&Chess::default(), EnPassantMode::Legal).to_string();
        assert_eq!(START_FEN, standard);
    }

    #[test]
    fn start_position_round_trips() {
        let fen = START_FEN;
        let e = encode_fen(fen).unwrap();
        assert_eq!(
            e.board,
            "/tnbqkbnt//pppppppp//........//........//........//........//PPPPPPPP//TNBQKBNT/"
        );
        assert_eq!(decode(&e).unwrap(), fen);
    }

    #[test]
    fn en_passant_and_partial_rights_round_trip() {
        let fen = "r3k2r/8/8/3pP3/8/8/8/R3K3 w Qk d6 0 3";
        let e = encode_fen(fen).unwrap();
        assert_eq!(decode(&e).unwrap(), fen);
        assert_eq!(fen_of(&parse_fen(fen).unwrap()), fen);
    }

    #[test]
    fn bad_fens_are_typed_errors() {
        assert!(matches!(encode_fen("hello"), Err(FenError::Syntax { .. })));
        assert!(matches!(
            encode_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Illegal { .. })
        ));
    }

    #[test]
    fn shakmatys_reason_is_the_source() {
        use std::error::Error as _;
        for fen in ["hello", "8/8/8/8/8/8/8/8 w - - 0 1"] {
            let e = encode_fen(fen).unwrap_err();
            let cause = e.source().map(ToString::to_string).unwrap_or_default();
            assert!(!cause.is_empty(), "{fen}: {e} has no cause");
            assert!(
                !e.to_string().contains(&cause),
                "{fen}: {e} repeats {cause}"
            );
        }
    }
}
