//! "Is this king attacked?" as one regex, and as plain Rust.
//!
//! The regex ([`king_attacked_pattern`]) is an alternation of fixed-offset
//! patterns over the board line: pawn, knight and king attacks are single
//! offsets; rook, bishop and queen attacks are rays of empty squares
//! (`(?:.{9}[.,])*` steps one rank at a time). [`king_attacked`] computes the
//! same thing by walking the board, and is the reference meaning. Neither
//! knows how moves are made.

use shakmaty::Color;

use crate::board::{king_class, pieces, ANY, EMPTY};

const KNIGHT: [i32; 4] = [8, 12, 19, 21];
const KING: [i32; 4] = [1, 9, 10, 11];
const ORTHOGONAL: [i32; 2] = [1, 10];
const DIAGONAL: [i32; 2] = [9, 11];

/// The enemy letters of colour `c` for a role given in uppercase, with the
/// castling rook counted as a rook.
fn enemy(c: Color, roles: &str) -> String {
    let theirs = pieces(!c);
    roles
        .chars()
        .map(|r| {
            let i = "PNBRQKT".find(r).expect("role letter");
            theirs.as_bytes()[i] as char
        })
        .collect()
}

fn gap(d: i32) -> String {
    match d - 1 {
        0 => String::new(),
        n => format!("{ANY}{{{n}}}"),
    }
}

fn set(chars: &str) -> String {
    format!("[{chars}]")
}

/// Alternatives, each matching an attacker and a square of colour `c`'s
/// king class (the king and its castling phantoms) at attacking distance.
pub(crate) fn king_attacked_pattern(c: Color) -> String {
    let k = set(king_class(c));
    let mut alts = Vec::new();
    // Pawns attack forward: enemy pawns stand on the king's side ahead of it.
    let pawn = set(&enemy(c, "P"));
    for d in [9, 11] {
        match c {
            // Black pawns (index smaller) attack down: pawn before king.
            Color::White => alts.push(format!("{pawn}{}{k}", gap(d))),
            Color::Black => alts.push(format!("{k}{}{pawn}", gap(d))),
        }
    }
    for (roles, dists) in [("N", &KNIGHT[..]), ("K", &KING[..])] {
        let a = set(&enemy(c, roles));
        for &d in dists {
            alts.push(format!("{a}{}{k}", gap(d)));
            alts.push(format!("{k}{}{a}", gap(d)));
        }
    }
    let empty = set(EMPTY);
    for (roles, dirs) in [("RQT", &ORTHOGONAL[..]), ("BQ", &DIAGONAL[..])] {
        let a = set(&enemy(c, roles));
        for &d in dirs {
            let g = gap(d);
            alts.push(format!("{a}(?:{g}{empty})*{g}{k}"));
            alts.push(format!("{k}(?:{g}{empty})*{g}{a}"));
        }
    }
    format!("(?:{})", alts.join("|"))
}

/// Whether any square of colour `c`'s king class is attacked on `board`.
pub(crate) fn king_attacked(board: &str, c: Color) -> bool {
    let b = board.as_bytes();
    let at = |i: i32| -> Option<u8> {
        if i >= 0 && (i as usize) < b.len() {
            Some(b[i as usize])
        } else {
            None
        }
    };
    let has =
        |i: i32, roles: &str| at(i).is_some_and(|ch| enemy(c, roles).as_bytes().contains(&ch));
    let kings = king_class(c).as_bytes();
    for (i, ch) in b.iter().enumerate() {
        if !kings.contains(ch) {
            continue;
        }
        let i = i as i32;
        let ahead = match c {
            Color::White => -1,
            Color::Black => 1,
        };
        if [9, 11].iter().any(|&d| has(i + ahead * d, "P")) {
            return true;
        }
        if KNIGHT.iter().any(|&d| has(i + d, "N") || has(i - d, "N")) {
            return true;
        }
        if KING.iter().any(|&d| has(i + d, "K") || has(i - d, "K")) {
            return true;
        }
        for (roles, dirs) in [("RQT", &ORTHOGONAL[..]), ("BQ", &DIAGONAL[..])] {
            for &d in dirs {
                for step in [d, -d] {
                    let mut j = i + step;
                    while at(j).is_some_and(|ch| EMPTY.as_bytes().contains(&ch)) {
                        j += step;
                    }
                    if has(j, roles) {
                        return true;
                    }
                }
            }
        }
    }
    false
}
