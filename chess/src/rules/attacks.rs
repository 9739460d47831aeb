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
    let alts: Vec<String> = king_attack_branches(c)
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    format!("(?:{})", alts.join("|"))
}

/// Which group of [`king_attacked_parts`] a branch belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The branch starts at the king.
    FromKing,
    /// A pawn, knight or king standing before the king.
    Leaper,
    /// A rook, bishop or queen line ending at the king.
    Line,
}

/// The same alternatives as [`king_attacked_pattern`] in three groups, each
/// an alternation of its own: the branches that start at the king, the
/// leapers (pawns, knights, the king) that stand before it, and the lines
/// that end at it. A board matches the whole pattern exactly when it
/// matches one of the groups. Each group scans with far fewer automaton
/// states than the whole: read before the king, a group remembers only
/// where its own kind of attacker stood.
pub(crate) fn king_attacked_parts(c: Color) -> Vec<String> {
    let branches = king_attack_branches(c);
    [Part::FromKing, Part::Leaper, Part::Line]
        .into_iter()
        .map(|part| {
            let alts: Vec<&str> = branches
                .iter()
                .filter(|(p, _)| *p == part)
                .map(|(_, b)| b.as_str())
                .collect();
            format!("(?:{})", alts.join("|"))
        })
        .collect()
}

/// The branches of the attack pattern, each with its group.
fn king_attack_branches(c: Color) -> Vec<(Part, String)> {
    let k = set(king_class(c));
    let mut alts = Vec::new();
    // Pawns attack forward: enemy pawns stand on the king's side ahead of it.
    let pawn = set(&enemy(c, "P"));
    for d in [9, 11] {
        match c {
            // Black pawns (index smaller) attack down: pawn before king.
            Color::White => alts.push((Part::Leaper, format!("{pawn}{}{k}", gap(d)))),
            Color::Black => alts.push((Part::FromKing, format!("{k}{}{pawn}", gap(d)))),
        }
    }
    for (roles, dists) in [("N", &KNIGHT[..]), ("K", &KING[..])] {
        let a = set(&enemy(c, roles));
        for &d in dists {
            alts.push((Part::Leaper, format!("{a}{}{k}", gap(d))));
            alts.push((Part::FromKing, format!("{k}{}{a}", gap(d))));
        }
    }
    let empty = set(EMPTY);
    for (roles, dirs) in [("RQT", &ORTHOGONAL[..]), ("BQ", &DIAGONAL[..])] {
        let a = set(&enemy(c, roles));
        for &d in dirs {
            let g = gap(d);
            alts.push((Part::Line, format!("{a}(?:{g}{empty})*{g}{k}")));
            alts.push((Part::FromKing, format!("{k}(?:{g}{empty})*{g}{a}")));
        }
    }
    alts
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
