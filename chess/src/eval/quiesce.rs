//! The capture quiescence at the search's leaves: a one-square static
//! exchange on the last move's destination.
//!
//! A leaf is the position after the last ply's move (the *mover*'s) to a
//! square S. The side to move there (the *taker*) may capture the piece on
//! S; the leaf scores the better of standing pat and that capture. The
//! capture's gain, in units of 10 centipawns, is [`gain`]: nothing when no
//! piece of the taker attacks S; the victim's worth when none of the
//! mover's pieces defends S; otherwise the victim's worth minus that of
//! the taker's least valuable attacker, if positive (worths: pawn 10,
//! knight and bishop 30, rook 50, queen 90; a king takes only undefended
//! pieces). Attacks are direct ones on the board after the move (the
//! moved piece's square is empty); pins and checks are ignored.
//!
//! [`Recapture`] computes it with regexes inside the leaf move pass, while
//! the destination is still marked `*` (so the attack patterns need no
//! square names), and leaves it as `qg` before the move's parts;
//! [`LeafDelta`] is `eval::ReplyDelta` that also adds it to the reply's
//! delta. `reference` computes the same gain with shakmaty's attack
//! tables. This module does not generate moves or compare scores.

use regex_asm::ir::{RefError, Special};
use regex_vm::state::{Thread, VarName};
use regex_vm::{Rewrite, Template};
use shakmaty::Color;

use crate::board::{letter, ANY, BOARD_VAR, EMPTY};
use crate::eval::{ReplyDelta, DELTA_VAR};
use crate::rules::board_of;
use crate::rules::lowered::Lowered;
use crate::rules::specials::{color_name, CAPTURED, FROM, PIECE, PROMOTION};

/// The variable [`Recapture`] sets (the gain in tens of units), only where
/// the gain is not zero; [`LeafDelta`] consumes it.
pub(crate) const GAIN_VAR: &str = "qg";

/// A piece's worth as a victim, in tens of units (role letter in
/// uppercase, `T` a rook).
pub(crate) fn worth(role: char) -> u32 {
    match role {
        'P' => 1,
        'N' | 'B' => 3,
        'R' | 'T' => 5,
        'Q' => 9,
        _ => 0,
    }
}

/// The gain, in tens of units, of capturing a `victim` (uppercase role)
/// whose square the taker's least valuable attacker `least` attacks (none:
/// no capture) and the mover's pieces `defended` or not.
pub(crate) fn gain(victim: char, least: Option<char>, defended: bool) -> u32 {
    let Some(a) = least else {
        return 0;
    };
    let v = worth(victim);
    if !defended {
        return v;
    }
    if a == 'K' {
        return 0;
    }
    v.saturating_sub(worth(a))
}

const KNIGHT: [i32; 4] = [8, 12, 19, 21];
const KING: [i32; 4] = [1, 9, 10, 11];
const ORTHOGONAL: [i32; 2] = [1, 10];
const DIAGONAL: [i32; 2] = [9, 11];

/// The roles (uppercase, `T` as `R`) of `by`'s pieces attacking board
/// index `i` directly, natively: the reference meaning of the patterns.
pub(crate) fn attackers(board: &str, i: usize, by: Color) -> Vec<char> {
    let b = board.as_bytes();
    let at = |j: i32| -> Option<char> {
        usize::try_from(j)
            .ok()
            .and_then(|j| b.get(j))
            .map(|&c| c as char)
    };
    let role_at = |j: i32| -> Option<char> {
        let c = at(j)?;
        let ours = match by {
            Color::White => c.is_ascii_uppercase(),
            Color::Black => c.is_ascii_lowercase(),
        };
        let r = c.to_ascii_uppercase();
        (ours && "PNBRQKT".contains(r)).then_some(if r == 'T' { 'R' } else { r })
    };
    let i = i as i32;
    let mut out = Vec::new();
    // White pawns stand later in the board line (a lower rank).
    let behind = match by {
        Color::White => 1,
        Color::Black => -1,
    };
    for d in [9, 11] {
        if role_at(i + behind * d) == Some('P') {
            out.push('P');
        }
    }
    for (role, dists) in [('N', &KNIGHT), ('K', &KING)] {
        for &d in dists {
            for j in [i + d, i - d] {
                if role_at(j) == Some(role) {
                    out.push(role);
                }
            }
        }
    }
    for (roles, dirs) in [("RQ", &ORTHOGONAL), ("BQ", &DIAGONAL)] {
        for &d in dirs {
            for step in [d, -d] {
                let mut j = i + step;
                while at(j).is_some_and(|c| EMPTY.contains(c)) {
                    j += step;
                }
                if let Some(r) = role_at(j).filter(|r| roles.contains(*r)) {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// The least valuable of `roles` (a king last).
pub(crate) fn least(roles: &[char]) -> Option<char> {
    roles
        .iter()
        .copied()
        .min_by_key(|&r| if r == 'K' { 100 } else { worth(r) })
}

fn gap(d: i32) -> String {
    match d - 1 {
        0 => String::new(),
        n => format!("{ANY}{{{n}}}"),
    }
}

/// Alternatives matching a piece of `by` with one of `roles` (uppercase,
/// `R` also covering `T`) and the board text up to a square it attacks
/// (`before`: the attacker stands earlier in the line) or from just after
/// that square to the attacker (`!before`): the leapers' (pawn, knight,
/// king), then the lines'.
fn attack_alternatives(by: Color, roles: &str, before: bool) -> [Vec<String>; 2] {
    let class = |rs: &str| -> Option<String> {
        let mut set: String = rs
            .chars()
            .filter(|r| roles.contains(*r))
            .map(|r| letter(by, r))
            .collect();
        if rs.contains('R') && roles.contains('R') {
            set.push(letter(by, 'T'));
        }
        (!set.is_empty()).then(|| format!("[{set}]"))
    };
    let (mut alts, mut lines) = (Vec::new(), Vec::new());
    if let Some(p) = class("P") {
        // White pawns attack towards the start of the line.
        if (by == Color::White) != before {
            for d in [9, 11] {
                alts.push(if before {
                    format!("{p}{}", gap(d))
                } else {
                    format!("{}{p}", gap(d))
                });
            }
        }
    }
    for (rs, dists) in [("N", &KNIGHT), ("K", &KING)] {
        if let Some(a) = class(rs) {
            for &d in dists {
                alts.push(if before {
                    format!("{a}{}", gap(d))
                } else {
                    format!("{}{a}", gap(d))
                });
            }
        }
    }
    for (rs, dirs) in [("RQ", &ORTHOGONAL), ("BQ", &DIAGONAL)] {
        if let Some(a) = class(rs) {
            for &d in dirs {
                let g = gap(d);
                lines.push(if before {
                    format!("{a}(?:{g}[{EMPTY}])*{g}")
                } else {
                    format!("(?:{g}[{EMPTY}])*{g}{a}")
                });
            }
        }
    }
    [alts, lines]
}

/// Rewrites turning the board mark `from` into `to` where a piece of
/// `by` with one of `roles` attacks it (the attacker before the mark in
/// the line, then after it). Marks exist only on the boards of threads in
/// the middle of a leaf move pass, at most one `from` on a board: so the
/// attackers before the mark can be looked for in two rewrites, the
/// leapers' and the lines', each a much smaller automaton than their
/// union (which must remember every attacker it has read), and the mark
/// changes exactly when one of them matches.
pub(crate) fn mark_attacked(from: char, to: char, by: Color, roles: &str) -> Vec<Rewrite> {
    let from = regex_escape(from);
    let [leapers, lines] = attack_alternatives(by, roles, true);
    let after: Vec<String> = attack_alternatives(by, roles, false).concat();
    let mut out = Vec::new();
    // (A pawn attacks from one side only: no empty alternation.)
    for before in [leapers, lines] {
        if !before.is_empty() {
            out.push(Rewrite::new(
                format!(r"(#{BOARD_VAR}:{ANY}*?(?:{})){from}", before.join("|")),
                Template::new().group(1).text(&to.to_string()),
            ));
        }
    }
    if !after.is_empty() {
        out.push(Rewrite::new(
            format!(r"(#{BOARD_VAR}:{ANY}*?){from}((?:{}))", after.join("|")),
            Template::new().group(1).text(&to.to_string()).group(2),
        ));
    }
    out
}

pub(crate) fn regex_escape(c: char) -> String {
    if c.is_ascii_alphanumeric() {
        c.to_string()
    } else {
        format!(r"\{c}")
    }
}

/// Board marks: attacked by the taker (and undefended, once the next test
/// has run), attacked and defended, and defended with the taker's least
/// attacker a pawn, a minor piece, a rook.
const DEFENDED: char = 'D';
const ATTACKED: char = 'A';
const BY_PAWN: char = '1';
const BY_MINOR: char = '3';
const BY_ROOK: char = '5';

/// The special instruction, inside the leaf move pass of `mover` (after
/// `name_target`, before `place`): the taker's gain on the `*` square, as
/// [`GAIN_VAR`] inserted before `pc` when it is not zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Recapture(pub Color);

impl Recapture {
    /// The victim: the promotion piece, else the moved piece.
    fn victim(t: &Thread) -> Option<char> {
        let u = t.var(PROMOTION)?;
        let pc = t.var(PIECE)?;
        u.chars().next().or(pc.chars().next()).map(|c| {
            let r = c.to_ascii_uppercase();
            if r == 'T' {
                'R'
            } else {
                r
            }
        })
    }
}

fn special_err(instr: String, message: &str) -> RefError {
    RefError::Special {
        instr,
        message: message.to_string(),
    }
}

impl Recapture {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let mover = self.0;
        let taker = !mover;
        let all = "PNBRQK";
        let mut out = Vec::new();
        // Attacked first: the defence is then looked for only where it
        // matters, and the regexes find the rarer mark by substring search.
        out.extend(mark_attacked('*', ATTACKED, taker, all));
        out.extend(mark_attacked(ATTACKED, DEFENDED, mover, all));
        out.extend(mark_attacked(DEFENDED, BY_PAWN, taker, "P"));
        out.extend(mark_attacked(DEFENDED, BY_MINOR, taker, "NB"));
        out.extend(mark_attacked(DEFENDED, BY_ROOK, taker, "R"));
        // The victim, from the parts: the moved piece (no promotion) or
        // the promotion letter.
        let any = format!("{ANY}*");
        let victim = |roles: &str, promo: &str| -> String {
            let mut pcs: String = roles.chars().map(|r| letter(mover, r)).collect();
            if roles.contains('R') {
                pcs.push(letter(mover, 'T'));
            }
            let plain =
                format!(r"#{PIECE}:[{pcs}]\n#{FROM}:{any}\n#{CAPTURED}:{any}\n#{PROMOTION}:");
            if promo.is_empty() {
                format!(r"(?:{plain})\n")
            } else {
                format!(
                    r"(?:{plain}|#{PIECE}:{any}\n#{FROM}:{any}\n#{CAPTURED}:{any}\n#{PROMOTION}:[{promo}])\n"
                )
            }
        };
        let victims = [
            ('P', victim("P", "")),
            ('N', victim("NB", "nb")),
            ('R', victim("R", "r")),
            ('Q', victim("Q", "q")),
        ];
        for (mark, attacker) in [
            (ATTACKED, None),
            (BY_PAWN, Some('P')),
            (BY_MINOR, Some('N')),
            (BY_ROOK, Some('R')),
        ] {
            for (role, key) in &victims {
                let g = gain(*role, Some(attacker.unwrap_or('K')), attacker.is_some());
                if g == 0 {
                    continue;
                }
                out.push(Rewrite::new(
                    format!(
                        r"(#{BOARD_VAR}:{ANY}*){}([^%]*?)({key})",
                        regex_escape(mark)
                    ),
                    Template::new()
                        .group(1)
                        .text("*")
                        .group(2)
                        .text(&format!("#{GAIN_VAR}:{g}\n"))
                        .group(3),
                ));
            }
        }
        out.push(Rewrite::new(
            format!(r"(#{BOARD_VAR}:{ANY}*)[{ATTACKED}{DEFENDED}{BY_PAWN}{BY_MINOR}{BY_ROOK}]"),
            Template::new().group(1).text("*"),
        ));
        out
    }
}

impl Special for Recapture {
    fn name(&self) -> String {
        format!("recapture_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let board = board_of(&self.name(), &t)?.to_string();
        let star = board
            .find('*')
            .ok_or_else(|| special_err(self.name(), "no destination mark on the board"))?;
        let victim = Recapture::victim(&t)
            .ok_or_else(|| special_err(self.name(), "pc and u must be set"))?;
        if t.var(GAIN_VAR).is_some() {
            return Err(special_err(self.name(), "qg is already set"));
        }
        let defended = !attackers(&board, star, self.0).is_empty();
        let g = gain(victim, least(&attackers(&board, star, !self.0)), defended);
        if g > 0 {
            let at = t
                .vars
                .iter()
                .position(|(n, _)| n.as_str() == PIECE)
                .ok_or_else(|| special_err(self.name(), "pc must be set"))?;
            t.vars.insert(at, (VarName::must(GAIN_VAR), g.to_string()));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<Recapture> = Lowered::new();
        LOWERED.get(self, Recapture::build_rewrites)
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into(), PIECE.into(), PROMOTION.into()]
    }
}

/// `eval::ReplyDelta` for `us`, plus the gain [`Recapture`] left in
/// [`GAIN_VAR`] (which it deletes): `dv` is then the reply's delta plus
/// ten units per tens of gain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct LeafDelta(pub Color);

impl LeafDelta {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let dv = DELTA_VAR;
        let mut out = ReplyDelta(self.0).tally_rewrites();
        // The gain joins the tens (the gain line stands just before `pc`,
        // `dv` just after the parts).
        for g in 1..=9 {
            out.push(Rewrite::new(
                format!(r"#{GAIN_VAR}:{g}\n(#{PIECE}:[^%]*?#{dv}:H*\|T*)"),
                Template::new().group(1).text(&"T".repeat(g)),
            ));
        }
        // One more tens carry than `ReplyDelta` needs for itself.
        out.push(Rewrite::new(
            format!(r"(#{dv}:H*)\|(T*)T{{10}}\|"),
            Template::new().group(1).text("H|").group(2).text("|"),
        ));
        out.extend(ReplyDelta::digit_rewrites());
        out
    }
}

impl Special for LeafDelta {
    fn name(&self) -> String {
        format!("leaf_delta_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let g = match t.var(GAIN_VAR) {
            Some(v) => v
                .parse::<u32>()
                .map_err(|_| special_err(self.name(), "qg is not a number"))?,
            None => 0,
        };
        t.vars.retain(|(n, _)| n.as_str() != GAIN_VAR);
        let mut out = ReplyDelta(self.0).apply(t)?;
        for t in &mut out {
            for (n, v) in &mut t.vars {
                if n.as_str() == DELTA_VAR {
                    let d = v
                        .parse::<u32>()
                        .map_err(|_| special_err(self.name(), "dv is not a number"))?;
                    *v = (d + 10 * g).to_string();
                }
            }
        }
        Ok(out)
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<LeafDelta> = Lowered::new();
        LOWERED.get(self, LeafDelta::build_rewrites)
    }

    fn defines(&self) -> Vec<String> {
        ReplyDelta(self.0).defines()
    }

    fn requires(&self) -> Vec<String> {
        ReplyDelta(self.0).requires()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains() {
        // An undefended piece is won whatever takes it.
        assert_eq!(gain('N', Some('Q'), false), 3);
        assert_eq!(gain('Q', Some('K'), false), 9);
        // A defended one only by a cheaper attacker.
        assert_eq!(gain('P', Some('P'), true), 0);
        assert_eq!(gain('R', Some('N'), true), 2);
        assert_eq!(gain('Q', Some('P'), true), 8);
        assert_eq!(gain('N', Some('R'), true), 0);
        assert_eq!(gain('R', Some('K'), true), 0);
        assert_eq!(gain('Q', None, false), 0);
        assert_eq!(least(&['Q', 'K', 'N', 'R']), Some('N'));
        assert_eq!(least(&['K']), Some('K'));
    }

    /// The board walk finds the attackers shakmaty finds, on every square
    /// of positions from random games, for both sides.
    #[test]
    fn attackers_are_shakmatys() {
        use crate::board::codec::encode;
        use crate::board::{index, BOARD_LEN};
        use crate::games::{random_game, Rng};
        use shakmaty::{Chess, Position, Square};
        let mut checked = 0;
        for seed in 1..30 {
            let pos = random_game(&Chess::default(), &mut Rng::new(seed), seed as usize * 3);
            let board = encode(&pos).board;
            assert_eq!(board.len(), BOARD_LEN);
            let b = pos.board();
            for sq in Square::ALL {
                let i = index(
                    u32::from(sq.file()) as usize,
                    u32::from(sq.rank()) as usize + 1,
                );
                for by in [Color::White, Color::Black] {
                    let mut ours = attackers(&board, i, by);
                    let mut theirs: Vec<char> = b
                        .attacks_to(sq, by, b.occupied())
                        .into_iter()
                        .filter_map(|s| b.role_at(s).map(|r| r.upper_char()))
                        .collect();
                    ours.sort_unstable();
                    theirs.sort_unstable();
                    assert_eq!(ours, theirs, "{board} {sq} {by:?}");
                    checked += usize::from(!ours.is_empty());
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
