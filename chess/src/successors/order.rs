//! The move pass's fork rules in the order of the moves' UCI text.
//!
//! A fork instruction replaces each thread by its copies in rule order, and
//! an `if` pauses and wakes threads where they stand, so the threads the
//! move pass leaves are in the order of its rules: first by the select
//! rule (the piece's square), then by the piece's rule (the destination),
//! then by the promotion fork. This module sorts the first two so that
//! the threads come out sorted by UCI text, `from to promotion`, square
//! names compared file first: the select rules by the square's file then
//! rank, each piece's rules by the destination's file then rank relative
//! to its origin, which orders the destinations of any one origin the same
//! way. (The promotion letters' order, `b n q r`, is the successors
//! program's own promotion instruction.) It changes no rule, only the order
//! of a copy of the lists `specials` builds; the move programs of the game
//! keep theirs.

use shakmaty::Color;

use crate::board::{square_at, ROW};
use crate::rules::specials::{piece_moves, select_pieces, Mover, Targets};
use crate::rules::{ForkRule, Forks, Put};

/// Stage 1, the select rules sorted by the square's file, then rank.
pub(crate) fn select_in_uci_order(c: Color) -> Forks {
    let mut forks = select_pieces(c);
    forks
        .rules
        .sort_by_key(|rule| rule.at.and_then(|(i, _)| square_at(i)));
    forks.name.push_str("_uci");
    forks
}

/// Stage 2 for one kind of piece, every pseudo-legal move, its rules
/// sorted by the destination's file, then rank, relative to the origin.
pub(crate) fn moves_in_uci_order(c: Color, mover: Mover) -> Forks {
    let mut forks = piece_moves(c, mover, Targets::All);
    forks.rules.sort_by_key(destination);
    forks.name.push_str("_uci");
    forks
}

/// The destination of a rule relative to its origin, as (files, ranks)
/// to the right and up: the offset of its `*` cell taken apart.
fn destination(rule: &ForkRule) -> (i32, i32) {
    let offset = rule
        .cells
        .iter()
        .find(|c| c.put == Put::Set('*'))
        .map_or(0, |c| c.offset);
    step_of(offset).unwrap_or((0, 0))
}

/// The (files, ranks) of a piece's step by `offset` board characters: the
/// one way of writing it as a line (along a rank, a file or a diagonal)
/// or a knight's jump of at most 7 squares each way. A step is 10 times
/// its rows (counted down the board) plus its files; two writings differ
/// by a row and 10 files, and no line or jump has a twin of that kind, so
/// the answer is unique (checked for every rule below).
fn step_of(offset: i32) -> Option<(i32, i32)> {
    let row = ROW as i32;
    (-7..=7).find_map(|rows: i32| {
        let files = offset - rows * row;
        let (r, f) = (rows.abs(), files.abs());
        let line = r == 0 || f == 0 || r == f;
        let jump = (r == 1 && f == 2) || (r == 2 && f == 1);
        (f <= 7 && (line || jump)).then_some((files, -rows))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{index, name_at};

    /// Every `*` offset of every rule has exactly one writing as a line or
    /// a jump, so the sort key is the destination's real displacement.
    #[test]
    fn every_rule_has_one_displacement() {
        for c in [Color::White, Color::Black] {
            for mover in Mover::ALL {
                for rule in piece_moves(c, mover, Targets::All).rules {
                    let offset = rule
                        .cells
                        .iter()
                        .find(|cell| cell.put == Put::Set('*'))
                        .map(|cell| cell.offset)
                        .expect("a destination");
                    let row = ROW as i32;
                    let writings = (-7..=7)
                        .filter(|rows: &i32| {
                            let files: i32 = offset - rows * row;
                            let (r, f) = (rows.abs(), files.abs());
                            f <= 7 && (r == 0 || f == 0 || r == f || r * f == 2)
                        })
                        .count();
                    assert_eq!(writings, 1, "{mover:?} offset {offset}");
                }
            }
        }
    }

    /// From d4 a queen's destinations on the board come out as UCI sorts
    /// them.
    #[test]
    fn a_queens_destinations_are_in_uci_order() {
        let names: Vec<String> = moves_in_uci_order(Color::White, Mover::Queen)
            .rules
            .iter()
            .map(destination)
            .map(|(files, ranks)| (3 + files, 4 + ranks))
            .filter(|&(f, r)| (0..8).contains(&f) && (1..=8).contains(&r))
            .map(|(f, r)| name_at(index(f as usize, r as usize)))
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(names.len(), 27);
    }

    #[test]
    fn select_rules_run_a1_a2_to_h8() {
        let names: Vec<String> = select_in_uci_order(Color::Black)
            .rules
            .iter()
            .filter_map(|r| r.at.map(|(i, _)| name_at(i)))
            .collect();
        assert_eq!(names.first().map(String::as_str), Some("a1"));
        assert_eq!(names.get(1).map(String::as_str), Some("a2"));
        assert_eq!(names.last().map(String::as_str), Some("h8"));
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
