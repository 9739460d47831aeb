//! The opening book: a few hundred positions of the first plies, each
//! with the move (and its score) a deeper native search chose for it
//! (`regex-chess book` writes the file, `chess/book.txt`, compiled in),
//! and the stage of the search programs that answers from it.
//!
//! The file is one position a line: the moves (UCI) that reach it from
//! the start position, a colon, the book move and its score on the
//! search's scale (`vocabulary::EVEN` is level). [`Book::parse`] plays
//! each line with shakmaty, refuses an illegal move or a position given
//! twice, and keys each position by its board line as the regex
//! program's state encodes it (`codec::encode`: the pieces, the rooks
//! that may castle, the en passant square) and its side to move. Where
//! no en passant capture is legal, the square matches with or without
//! its mark, so a FEN that leaves out such a square finds the entry too.
//!
//! In the programs, [`answer_or_search`] runs before the root's search:
//! [`look_up`], one rewrite an entry of the side to move, gives the
//! position thread the book's move and score where its board is a book
//! key; there the search is skipped and the book's answer is pushed as
//! the search's own (`[em, v]`), elsewhere the search runs as without
//! the book. [`Book::probe`] is the same look-up on shakmaty, for the
//! native search (`match --native .. --book`). This module must not
//! search or evaluate: the search's program below it is unchanged.

use std::sync::{Arc, OnceLock};

use regex_asm::Machine;
use regex_vm::state::Thread;
use regex_vm::Template;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::board::codec;
use crate::board::BOARD_VAR;
use crate::rules::func::{get, local, Func};

/// The book compiled into the programs (`regex-chess book` writes it).
pub const BOOK_TEXT: &str = include_str!("../book.txt");

/// The book move of a position thread, empty where it has none.
pub(crate) const BOOK_MOVE: &str = "bk";

/// The book move's score, for the side to move (empty where no move).
pub(crate) const BOOK_SCORE: &str = "bv";

/// Whether a program answers from the book before its search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum UseBook {
    /// The search alone: the programs as they were without a book.
    #[default]
    Off,
    /// The book first; its positions skip the search.
    On,
}

/// Why a book's text was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    /// A line has no colon between the moves and the book move.
    #[error("book line {line}: no `:` between the moves and the book move")]
    NoColon {
        /// The line's number (from 1).
        line: usize,
    },
    /// A move that is not UCI text or not legal where it stands.
    #[error("book line {line}: `{mv}` is not a legal move there")]
    Illegal {
        /// The line's number (from 1).
        line: usize,
        /// The move as written.
        mv: String,
    },
    /// The book move or its score is missing or malformed.
    #[error("book line {line}: give the book move and its score after the colon")]
    Answer {
        /// The line's number (from 1).
        line: usize,
    },
    /// A position already in the book.
    #[error("book line {line}: the position of line {first} again")]
    Twice {
        /// The line's number (from 1).
        line: usize,
        /// The line that gave the position first.
        first: usize,
    },
}

/// One book position and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The moves from the start position that reach it (UCI).
    pub moves: Vec<String>,
    /// Its board line (`codec::encode`).
    pub board: String,
    /// The side to move.
    pub side: Color,
    /// The index in [`Entry::board`] of an en passant mark with no legal
    /// capture: there the board may hold the mark or an empty square.
    pub loose: Option<usize>,
    /// The book move (UCI, castling as the king's move).
    pub answer: String,
    /// Its score for the side to move.
    pub score: u32,
}

impl Entry {
    /// Whether a board line (the side to move being [`Entry::side`]) is
    /// this entry's.
    pub fn matches(&self, board: &str) -> bool {
        board.len() == self.board.len()
            && board
                .bytes()
                .zip(self.board.bytes())
                .enumerate()
                .all(|(i, (got, want))| {
                    got == want || (Some(i) == self.loose && (got == b'.' || got == b','))
                })
    }

    /// The pattern of [`Entry::board`] in a rewrite: literal, the loose
    /// en passant square either byte.
    fn board_pattern(&self) -> String {
        self.board
            .char_indices()
            .map(|(i, c)| match c {
                _ if Some(i) == self.loose => "[.,]".to_string(),
                '.' => r"\.".to_string(),
                c => c.to_string(),
            })
            .collect()
    }
}

/// The book: its entries in the file's order (the first that matches a
/// position answers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    /// The positions and their answers.
    pub entries: Vec<Entry>,
}

impl Book {
    /// Reads a book's text (see the module doc); `#` lines and blank
    /// lines are skipped.
    ///
    /// # Errors
    ///
    /// [`BookError`] for the first line refused.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        let mut first_line: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let (moves, answer) = raw.split_once(':').ok_or(BookError::NoColon { line })?;
            let mut pos = Chess::default();
            let mut played = Vec::new();
            for mv in moves.split_whitespace() {
                pos = play(&pos, mv).ok_or_else(|| BookError::Illegal {
                    line,
                    mv: mv.to_string(),
                })?;
                played.push(mv.to_string());
            }
            let mut parts = answer.split_whitespace();
            let (Some(mv), Some(score), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(BookError::Answer { line });
            };
            let score = score.parse().map_err(|_| BookError::Answer { line })?;
            if play(&pos, mv).is_none() {
                return Err(BookError::Illegal {
                    line,
                    mv: mv.to_string(),
                });
            }
            let entry = Entry::of(&pos, played, mv.to_string(), score);
            if let Some(k) = book.entries.iter().position(|e| e.same_key(&entry)) {
                return Err(BookError::Twice {
                    line,
                    first: first_line[k],
                });
            }
            first_line.push(line);
            book.entries.push(entry);
        }
        Ok(book)
    }

    /// The book's move (UCI) and score in `pos`, if it is a book position.
    pub fn probe(&self, pos: &Chess) -> Option<(&str, u32)> {
        let board = codec::encode(pos).board;
        self.answer(&board, pos.turn())
    }

    /// Whether the book has `pos` as a key, or a key one of whose boards
    /// is `pos`'s (the en passant square loose in either): what
    /// [`Book::parse`] refuses to see twice.
    pub fn holds(&self, pos: &Chess) -> bool {
        let entry = Entry::of(pos, Vec::new(), String::new(), 0);
        self.entries.iter().any(|e| e.same_key(&entry))
    }

    /// The answer of the first entry of `side` whose board `board` is.
    pub fn answer(&self, board: &str, side: Color) -> Option<(&str, u32)> {
        self.entries
            .iter()
            .find(|e| e.side == side && e.matches(board))
            .map(|e| (e.answer.as_str(), e.score))
    }

    /// The entries with `side` to move, in order.
    fn of_side(&self, side: Color) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.side == side)
    }
}

impl Entry {
    /// The entry of `pos` (reached by `moves`) answering `answer`.
    pub fn of(pos: &Chess, moves: Vec<String>, answer: String, score: u32) -> Entry {
        let board = codec::encode(pos).board;
        let loose = match (
            pos.ep_square(EnPassantMode::Always),
            pos.ep_square(EnPassantMode::Legal),
        ) {
            (Some(sq), None) => Some(codec::index_of_square(sq)),
            _ => None,
        };
        Entry {
            moves,
            board,
            side: pos.turn(),
            loose,
            answer,
            score,
        }
    }

    /// Whether the two entries key one position (a board matching both).
    fn same_key(&self, other: &Entry) -> bool {
        self.side == other.side && (self.matches(&other.board) || other.matches(&self.board))
    }
}

/// The position after the UCI move `mv` in `pos`, `None` if it is not
/// legal there.
pub fn play(pos: &Chess, mv: &str) -> Option<Chess> {
    let uci: UciMove = mv.parse().ok()?;
    let m = uci.to_move(pos).ok()?;
    let mut next = pos.clone();
    next.play_unchecked(m);
    Some(next)
}

/// The compiled-in book ([`BOOK_TEXT`]), read once.
///
/// # Panics
///
/// If the compiled-in text is refused (the tests read it first).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(BOOK_TEXT).expect("the compiled-in book is valid"))
}

/// The look-up of `book`'s entries with `us` to move, as a special: every
/// active thread (a position with `us` to move) gets [`BOOK_MOVE`] and
/// [`BOOK_SCORE`], the first matching entry's answer or both empty. One
/// rewrite an entry, each a literal board line, so a position not in the
/// book costs a look at each.
pub(crate) fn look_up(book: &'static Book, us: Color) -> Func {
    let mut rules = vec![local(
        r"(%%\n[^%]*)",
        Template::new()
            .group(1)
            .text(&format!("#{BOOK_MOVE}:\n#{BOOK_SCORE}:\n")),
    )];
    for e in book.of_side(us) {
        rules.push(local(
            format!(
                r"(%%\n[^%]*?\n#{BOARD_VAR}:{}\n[^%]*#{BOOK_MOVE}:)\n#{BOOK_SCORE}:\n",
                e.board_pattern()
            ),
            Template::new()
                .group(1)
                .text(&format!("{}\n#{BOOK_SCORE}:{}\n", e.answer, e.score)),
        ));
    }
    let side = match us {
        Color::White => "white",
        Color::Black => "black",
    };
    Func {
        name: format!("book_{side}"),
        rules,
        meaning: Arc::new(move |mut t: Thread| {
            let board = get(&t, BOARD_VAR)?;
            let (mv, score) = match book.answer(&board, us) {
                Some((mv, score)) => (mv.to_string(), score.to_string()),
                None => (String::new(), String::new()),
            };
            crate::rules::func::append(&mut t, BOOK_MOVE, &mv)?;
            crate::rules::func::append(&mut t, BOOK_SCORE, &score)?;
            Ok(vec![t])
        }),
        defines: vec![BOOK_MOVE.into(), BOOK_SCORE.into()],
        requires: vec![BOARD_VAR.into()],
    }
}

/// The book stage before a root search: with [`UseBook::On`], each active
/// thread (a position with `us` to move) whose board is in the book gets
/// the book's `[em, v]` on its stack, as `search` would leave its answer,
/// and the others run `search`; with [`UseBook::Off`], `search` alone.
pub(crate) fn answer_or_search(
    m: &mut Machine,
    us: Color,
    book: UseBook,
    search: impl FnOnce(&mut Machine),
) {
    if book == UseBook::Off {
        search(m);
        return;
    }
    m.special(Arc::new(look_up(self::book(), us)), &[], &[]);
    m.if_else(
        m.get(BOOK_MOVE).eq(""),
        |m| {
            m.delete(BOOK_MOVE);
            m.delete(BOOK_SCORE);
            search(m);
        },
        |m| {
            m.push(m.get(BOOK_SCORE));
            m.push(m.get(BOOK_MOVE));
            m.delete(BOOK_MOVE);
            m.delete(BOOK_SCORE);
        },
    );
}

/// A book's text from its entries (what `regex-chess book` writes after
/// its header): `moves: answer score`, one a line.
pub fn render(book: &Book) -> String {
    book.entries
        .iter()
        .map(|e| format!("{}: {} {}\n", e.moves.join(" "), e.answer, e.score))
        .collect()
}

/// The UCI text of a move in `pos` (castling as the king's move).
pub fn uci_of(m: &shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}
