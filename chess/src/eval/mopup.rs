//! The mop-up term: how a lone king is hunted down.
//!
//! When one side has only its king and the other has anything more, the
//! search's leaves add, for the stronger side, `2 x` the lone king's
//! distance from the centre, `14 -` the distance between the kings (both
//! counted in king steps along files plus ranks) and `3 -` the stronger
//! king's own table value (so that table, which pays a king for staying
//! home, is ignored); when the stronger side's one piece is a rook, also
//! [`fence`]: how tightly the rook's file and rank box the lone king in.
//! The term is [`mop_up`] natively and
//! [`mop_up_rewrites`] as regexes; both are used by `eval::ReplyDelta` (the
//! search's leaves) and nothing else. It does not evaluate material.

use regex_vm::{Rewrite, Template};
use shakmaty::Color;

use crate::board::{pieces, square_at, ANY, BOARD_VAR};
use crate::eval::values::{Values, REGEX_VALUES};
use crate::eval::DELTA_VAR;

/// The scratch variable the rewrites build the term in.
const MOP_VAR: &str = "mo";

/// The scratch variable the rook's fence is built in.
const FENCE_VAR: &str = "mr";

/// A bound on the kings' part: 2 x 6 (a corner) + 13 (kings side by
/// side) + 3.
const KINGS_MAX: u32 = 29;

/// A bound on [`fence`]: a one-square box.
const FENCE_MAX: u32 = 28;

/// A bound on the term.
pub(crate) const MOP_MAX: u32 = KINGS_MAX + FENCE_MAX;

/// The side with only its king while the other side has more, if any.
pub(crate) fn lone_side(board: &str) -> Option<Color> {
    let has_more = |c: Color| {
        let letters = pieces(c);
        board
            .chars()
            .any(|ch| letters.contains(ch) && !ch.eq_ignore_ascii_case(&'k'))
    };
    match (has_more(Color::White), has_more(Color::Black)) {
        (true, false) => Some(Color::Black),
        (false, true) => Some(Color::White),
        _ => None,
    }
}

/// Distance of (file 0..8, row 0..8) from the four centre squares.
fn centre_distance(file: usize, row: usize) -> u32 {
    let d = |x: usize| if x < 4 { 3 - x } else { x - 4 };
    (d(file) + d(row)) as u32
}

/// The king of `c` as (file, row from rank 8), if on the board.
fn king_of(board: &str, c: Color) -> Option<(usize, usize)> {
    let k = if c == Color::White { 'K' } else { 'k' };
    let i = board.find(k)?;
    let (file, rank) = square_at(i)?;
    Some((file, 8 - rank))
}

/// The stronger king's table value in `values` for its side on (file,
/// row).
fn king_table(strong: Color, file: usize, row: usize, values: Values) -> u32 {
    let rank = 8 - row;
    let own_rank = if strong == Color::White {
        rank
    } else {
        9 - rank
    };
    values.value('K', file, own_rank)
}

/// The term for the stronger side (non-negative, at most [`MOP_MAX`]),
/// with the king table of `values`.
fn term(strong: Color, lone: (usize, usize), strong_king: (usize, usize), values: Values) -> u32 {
    let dist = lone.0.abs_diff(strong_king.0) + lone.1.abs_diff(strong_king.1);
    2 * centre_distance(lone.0, lone.1) + (14 - dist as u32) + 3
        - king_table(strong, strong_king.0, strong_king.1, values)
}

/// How far a lone rook on (file, row) `rook` fences the lone king on
/// `lone` in: `2 x (16 - width - height)` of the rectangle on the king's
/// side of the rook's file and rank (a line through the king leaves that
/// dimension whole, 8). 0 (no fence) to [`FENCE_MAX`] (a corner square).
pub(crate) fn fence(lone: (usize, usize), rook: (usize, usize)) -> u32 {
    let side = |k: usize, r: usize| match k.cmp(&r) {
        std::cmp::Ordering::Less => r,
        std::cmp::Ordering::Greater => 7 - r,
        std::cmp::Ordering::Equal => 8,
    };
    2 * (16 - side(lone.0, rook.0) - side(lone.1, rook.1)) as u32
}

/// The square (file, row) of `strong`'s rook when it is `strong`'s only
/// piece besides its king.
fn lone_rook(board: &str, strong: Color) -> Option<(usize, usize)> {
    let mut others = board
        .char_indices()
        .filter(|(_, ch)| pieces(strong).contains(*ch) && !ch.eq_ignore_ascii_case(&'k'));
    let (i, ch) = others.next()?;
    if others.next().is_some() || !matches!(ch.to_ascii_lowercase(), 'r' | 't') {
        return None;
    }
    let (file, rank) = square_at(i)?;
    Some((file, 8 - rank))
}

/// The mop-up term of `board` for `us` (positive when the other side has
/// the lone king, negative when we do, 0 otherwise), with the king table
/// the regex program sums.
pub(crate) fn mop_up(board: &str, us: Color) -> i32 {
    mop_up_in(board, us, REGEX_VALUES)
}

/// [`mop_up`] with the king table of `values`.
pub(crate) fn mop_up_in(board: &str, us: Color, values: Values) -> i32 {
    let Some(lone) = lone_side(board) else {
        return 0;
    };
    let (Some(lk), Some(sk)) = (king_of(board, lone), king_of(board, !lone)) else {
        return 0;
    };
    let rook = lone_rook(board, !lone).map_or(0, |r| fence(lk, r));
    let t = (term(!lone, lk, sk, values) + rook) as i32;
    if lone == us {
        -t
    } else {
        t
    }
}

/// The rewrites that add the term to `dv`, which must be the last variable
/// of each thread, still as tallies `H*|T*|i*` (hundreds, tens, units) with
/// at least one `H` (the delta's own offset of 100). Threads without a
/// lone king are untouched; the others get a scratch line `#mo:` after
/// `dv`: the sign (`+` when the other side is the lone one), the lone
/// king's file and row, the stronger king's, then one `m` per unit of the
/// term; the last rewrites fold it into `dv` (adding it, or turning one
/// `H` into `100 -` it) and remove the line.
pub(crate) fn mop_up_rewrites(us: Color) -> Vec<Rewrite> {
    let mut out = Vec::new();
    let z = BOARD_VAR;
    let dv = DELTA_VAR;
    let mo = MOP_VAR;
    for lone in [Color::White, Color::Black] {
        let strong = !lone;
        let sign = if lone == us { '-' } else { '+' };
        let weak_set: String = pieces(lone)
            .chars()
            .filter(|c| *c != 'k' && *c != 'K')
            .collect();
        let strong_set: String = pieces(strong)
            .chars()
            .filter(|c| *c != 'k' && *c != 'K')
            .collect();
        out.push(Rewrite::new(
            format!(
                r"(#{z}:[^%\n{weak_set}]*[{strong_set}][^%\n{weak_set}]*\n[^%]*?#{dv}:[^%\n]*\n)"
            ),
            Template::new().group(1).text(&format!("#{mo}:{sign}\n")),
        ));
    }
    // The kings' files and rows, lone king first. The sign says which
    // king is the lone one.
    for (lone, first) in [
        (Color::White, true),
        (Color::Black, true),
        (Color::White, false),
        (Color::Black, false),
    ] {
        let sign = if lone == us { r"\-" } else { r"\+" };
        let king = if first == (lone == Color::White) {
            'K'
        } else {
            'k'
        };
        let digits = if first { "" } else { "[0-9]{2}" };
        for f in 0..8 {
            out.push(Rewrite::new(
                format!(r"(/[^%\n/]{{{f}}}{king}[^%]*#{mo}:{sign}{digits})\n"),
                Template::new().group(1).text(&format!("{f}\n")),
            ));
        }
        for r in 0..8 {
            out.push(Rewrite::new(
                format!(
                    r"(#{z}:(?:{ANY}{{10}}){{{r}}}/[^%\n/]*{king}[^%]*#{mo}:{sign}{digits}[0-9])\n"
                ),
                Template::new().group(1).text(&format!("{r}\n")),
            ));
        }
    }
    // The term, one table per sign (the stronger side's king table
    // depends on which side is stronger).
    for lone in [Color::White, Color::Black] {
        let sign = if lone == us { r"\-" } else { r"\+" };
        let mut by_value: Vec<(u32, Vec<String>)> = Vec::new();
        for code in 0..4096u32 {
            let d = |k: u32| ((code >> (3 * k)) & 7) as usize;
            let (lf, lr, sf, sr) = (d(3), d(2), d(1), d(0));
            if (lf, lr) == (sf, sr) {
                continue;
            }
            let v = term(!lone, (lf, lr), (sf, sr), REGEX_VALUES);
            let key = format!("{lf}{lr}{sf}{sr}");
            match by_value.iter_mut().find(|(w, _)| *w == v) {
                Some((_, keys)) => keys.push(key),
                None => by_value.push((v, vec![key])),
            }
        }
        for (v, keys) in by_value {
            out.push(Rewrite::new(
                format!(r"(#{mo}:{sign}(?:{}))\n", keys.join("|")),
                Template::new()
                    .group(1)
                    .text(&"m".repeat(v as usize))
                    .text("\n"),
            ));
        }
    }
    // The fence, when the stronger side's one piece is a rook (only one
    // side has pieces, so `[RTrt]` is that rook): its own line `#mr:`
    // with the lone king's digits, the rook's, one `m` per unit, then its
    // `m`s join the kings' ones.
    for lone in [Color::White, Color::Black] {
        let sign = if lone == us { r"\-" } else { r"\+" };
        let others: String = pieces(!lone)
            .chars()
            .filter(|c| !c.eq_ignore_ascii_case(&'k'))
            .collect();
        out.push(Rewrite::new(
            format!(
                r"(#{z}:[^%\n{others}]*[RTrt][^%\n{others}]*\n[^%]*?#{mo}:{sign}([0-7]{{2}})[0-7]{{2}}m*\n)"
            ),
            Template::new()
                .group(1)
                .text(&format!("#{FENCE_VAR}:"))
                .group(2)
                .text("\n"),
        ));
    }
    let mr = FENCE_VAR;
    for f in 0..8 {
        out.push(Rewrite::new(
            format!(r"(/[^%\n/]{{{f}}}[RTrt][^%]*#{mr}:[0-9]{{2}})\n"),
            Template::new().group(1).text(&format!("{f}\n")),
        ));
    }
    for r in 0..8 {
        out.push(Rewrite::new(
            format!(r"(#{z}:(?:{ANY}{{10}}){{{r}}}/[^%\n/]*[RTrt][^%]*#{mr}:[0-9]{{3}})\n"),
            Template::new().group(1).text(&format!("{r}\n")),
        ));
    }
    let mut by_value: Vec<(u32, Vec<String>)> = Vec::new();
    for code in 0..4096u32 {
        let d = |k: u32| ((code >> (3 * k)) & 7) as usize;
        let (lf, lr, rf, rr) = (d(3), d(2), d(1), d(0));
        let v = fence((lf, lr), (rf, rr));
        let key = format!("{lf}{lr}{rf}{rr}");
        match by_value.iter_mut().find(|(w, _)| *w == v) {
            Some((_, keys)) => keys.push(key),
            None => by_value.push((v, vec![key])),
        }
    }
    for (v, keys) in by_value {
        if v > 0 {
            out.push(Rewrite::new(
                format!(r"(#{mr}:(?:{}))\n", keys.join("|")),
                Template::new()
                    .group(1)
                    .text(&"m".repeat(v as usize))
                    .text("\n"),
            ));
        }
    }
    out.push(Rewrite::new(
        format!(r"(#{mo}:[+\-][0-9]{{4}}m*)\n#{mr}:[0-9]{{4}}(m*)\n"),
        Template::new().group(1).group(2).text("\n"),
    ));
    // Into `dv`.
    for v in 0..=MOP_MAX {
        out.push(Rewrite::new(
            format!(r"#{dv}:(H*)\|(T*)\|(i*)\n#{mo}:\+[0-9]{{4}}m{{{v}}}\n"),
            Template::literal(&format!("#{dv}:"))
                .group(1)
                .text("|")
                .group(2)
                .text(&"T".repeat((v / 10) as usize))
                .text("|")
                .group(3)
                .text(&"i".repeat((v % 10) as usize))
                .text("\n"),
        ));
        let c = 100 - v;
        out.push(Rewrite::new(
            format!(r"#{dv}:H(H*)\|(T*)\|(i*)\n#{mo}:\-[0-9]{{4}}m{{{v}}}\n"),
            Template::literal(&format!("#{dv}:"))
                .group(1)
                .text("|")
                .group(2)
                .text(&"T".repeat((c / 10) as usize))
                .text("|")
                .group(3)
                .text(&"i".repeat((c % 10) as usize))
                .text("\n"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::{encode, parse_fen};

    fn board(fen: &str) -> String {
        encode(&parse_fen(fen).expect("valid")).board
    }

    #[test]
    fn the_term_pays_for_a_cornered_king_and_close_kings() {
        let centre = board("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
        let corner = board("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1");
        let close = board("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1");
        assert_eq!(lone_side(&centre), Some(Color::Black));
        assert!(mop_up(&corner, Color::White) > mop_up(&centre, Color::White));
        assert!(mop_up(&close, Color::White) > mop_up(&corner, Color::White));
        assert_eq!(mop_up(&close, Color::Black), -mop_up(&close, Color::White));
        assert_eq!(
            mop_up(&board("8/8/8/3k4/8/8/8/4K3 w - - 0 1"), Color::White),
            0
        );
        // The stronger king's table is ignored: on g1 or h2, as far from
        // the lone king, it is worth the same (the table pays 3 on g1).
        let g1 = board("k7/8/8/8/8/8/8/1Q4K1 w - - 0 1");
        let f2 = board("k7/8/8/8/8/8/7K/1Q6 w - - 0 1");
        assert_eq!(
            crate::eval::leaf_value(&g1, Color::White),
            crate::eval::leaf_value(&f2, Color::White)
        );
    }

    #[test]
    fn a_lone_rook_pays_for_the_box_it_keeps_the_king_in() {
        // King on a8 (file 0, row 0); a rook on b2 boxes it into a3:a8.
        assert_eq!(fence((0, 0), (1, 6)), 2 * (16 - 1 - 6));
        assert_eq!(fence((0, 0), (1, 1)), FENCE_MAX);
        // A rook on the king's file (d8, the king on d5) fences nothing
        // that way; its rank leaves the king the seven rows below it.
        assert_eq!(fence((3, 3), (3, 0)), 2); // 2 x (16 - 8 - 7)
        let wide = board("k7/8/8/8/8/8/8/2R1K3 w - - 0 1");
        let tight = board("k7/8/2R5/8/8/8/8/4K3 w - - 0 1");
        assert!(mop_up(&tight, Color::White) > mop_up(&wide, Color::White));
        assert_eq!(mop_up(&tight, Color::Black), -mop_up(&tight, Color::White));
        // Two pieces: no fence.
        let two = board("k7/8/2R5/8/8/8/8/2R1K3 w - - 0 1");
        let one = board("k7/8/8/8/8/8/8/2R1K3 w - - 0 1");
        assert_eq!(lone_rook(&two, Color::White), None);
        assert_eq!(lone_rook(&one, Color::White), Some((2, 7)));
    }
}
