//! The board folder: the text the regexes work on. This file is the
//! board line's layout; [`codec`] turns FEN into position threads and
//! back.
//!
//! The board encoding inside the state: one line, laid out as a mailbox.
//!
//! This module owns the layout (where each square sits in the line, what
//! each character means) and the character classes the rules are written
//! with. It does not build regexes (`rules`, `attacks`) nor parse FEN
//! (`codec`).
//!
//! The board is the value of variable `z`: 8 rows of 10 characters, rank 8
//! first. Each row is a sentinel `/`, the eight squares a..h, a sentinel
//! `/`. A step of one file is 1 character, one rank is 10, so knight jumps
//! are 8, 12, 19 and 21 characters and the sentinels stop every leap and
//! slide at the board's edge; past the top and bottom rows a pattern runs
//! into the text before the line (`#z:`, no piece letter in it) or its
//! newline, so it can never leave the board.
//!
//! ```text
//! /rnbqkbnr//pppppppp//........//........//....P...//........//PPPP.PPP//RNBQKBNR/
//! ```
//!
//! Characters: `PNBRQK` / `pnbrqk` pieces; `T` / `t` a rook that still has
//! its castling right (it stands on its home corner); `.` empty; `,` the
//! empty square a pawn just skipped (en passant target); `/` sentinel.
//! Inside one move-generation pass only: `@` the lifted moving piece, `*`
//! its destination, `X` / `x` the squares a castling king passes (checked
//! for attacks like kings, then turned back).

pub mod codec;

use shakmaty::Color;

/// Length of the board line.
pub(crate) const BOARD_LEN: usize = 80;
/// Characters per row.
pub(crate) const ROW: usize = 10;
/// The board variable.
pub(crate) const BOARD_VAR: &str = "z";

/// Index of a square in the board line (`file` 0..8 = a..h, `rank` 1..=8).
pub(crate) const fn index(file: usize, rank: usize) -> usize {
    (8 - rank) * ROW + 1 + file
}

/// The square at `idx`, as (file, rank), if `idx` is a square.
pub(crate) fn square_at(idx: usize) -> Option<(usize, usize)> {
    let row = idx / ROW;
    let col = idx % ROW;
    if idx >= BOARD_LEN || col == 0 || col == 9 {
        return None;
    }
    Some((col - 1, 8 - row))
}

/// The name of the square at `idx` (`e4`).
///
/// # Panics
///
/// If `idx` is not a square.
pub(crate) fn name_at(idx: usize) -> String {
    let (file, rank) = square_at(idx).expect("index of a square");
    format!("{}{}", (b'a' + file as u8) as char, rank)
}

/// The index of a square given by name (`e4`).
pub(crate) fn index_of(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(index((b[0] - b'a') as usize, (b[1] - b'0') as usize))
}

/// All square indices in board-line order (a8, b8, ..., h1).
pub(crate) fn squares() -> impl Iterator<Item = usize> {
    (0..BOARD_LEN).filter(|&i| square_at(i).is_some())
}

/// Any character of a line inside a thread: `.` in a pattern would also
/// match `%`, which lets the executor prove nothing about where a match
/// can lie; every board pattern uses this class instead.
pub(crate) const ANY: &str = r"[^%\n]";

/// Empty squares (plain or en passant target).
pub(crate) const EMPTY: &str = ".,";

/// Letters of a colour's pieces, castling rooks included.
pub(crate) fn pieces(c: Color) -> &'static str {
    match c {
        Color::White => "PNBRQKT",
        Color::Black => "pnbrqkt",
    }
}

/// A colour's letter for a role given as an uppercase letter.
pub(crate) fn letter(c: Color, upper: char) -> char {
    match c {
        Color::White => upper,
        Color::Black => upper.to_ascii_lowercase(),
    }
}

/// Squares a piece of colour `c` may move to: empty or enemy.
pub(crate) fn target(c: Color) -> String {
    format!("{EMPTY}{}", pieces(!c))
}

/// The king and, during castling, the squares it passes.
pub(crate) fn king_class(c: Color) -> &'static str {
    match c {
        Color::White => "KX",
        Color::Black => "kx",
    }
}

/// The phantom-king character of a colour.
pub(crate) fn phantom(c: Color) -> char {
    match c {
        Color::White => 'X',
        Color::Black => 'x',
    }
}

/// The castling rook character of a colour.
pub(crate) fn castle_rook(c: Color) -> char {
    letter(c, 'T')
}

/// Forward direction of a colour's pawns, in characters.
pub(crate) fn forward(c: Color) -> i32 {
    match c {
        Color::White => -(ROW as i32),
        Color::Black => ROW as i32,
    }
}

/// Index range of a rank's squares (inclusive).
pub(crate) fn rank_range(rank: usize) -> (usize, usize) {
    (index(0, rank), index(7, rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_corners() {
        assert_eq!(index(0, 8), 1);
        assert_eq!(index(7, 8), 8);
        assert_eq!(index(0, 1), 71);
        assert_eq!(index(7, 1), 78);
        assert_eq!(name_at(index(4, 4)), "e4");
        assert_eq!(index_of("e4"), Some(index(4, 4)));
        assert_eq!(squares().count(), 64);
        assert_eq!(square_at(0), None);
        assert_eq!(square_at(9), None);
        assert_eq!(square_at(10), None);
    }
}
