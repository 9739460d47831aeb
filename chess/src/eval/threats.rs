//! The threat term at the search's leaves: what the taker wins on a square
//! the leaf move did not touch.
//!
//! A *candidate* of the last two plies is a position where the *replier*
//! is to move; after its reply (the leaf move) the other side, the
//! *taker*, gets the capture quiescence (`quiesce`). The recapture there
//! only looks at the reply's square; this term looks at the rest of the
//! board, once per candidate. For every non-king piece of the replier,
//! the gain of the taker capturing it is `quiesce::gain` (the victim, the
//! taker's least attacker of its square, whether the replier defends it;
//! direct attacks on the candidate's board). [`Threats`] keeps the best
//! gain `g1`, which piece it is on (its rank `k` among the replier's
//! non-king pieces in board-line order, a8 first), and `g2`, the best on
//! any other piece, in [`THREAT_VAR`]. At each leaf, [`Threatened`] turns
//! that into the threat the reply leaves standing (`g2` if the reply moves
//! the piece `k`, else `g1`) and raises the recapture gain ([`GAIN_VAR`])
//! to it when it is more. So a reply that ignores a threatened piece is
//! scored as losing it, and a fork still wins its second piece.
//!
//! The term is judged on the candidate's board: a reply that captures the
//! attacker, blocks, or defends the piece does not lift it. `reference`
//! computes the same term with shakmaty (`reference::Threats`). This
//! module neither generates moves nor scores them.

use regex_asm::ir::{RefError, Special};
use regex_vm::state::{Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{letter, pieces, ANY, BOARD_VAR};
use crate::eval::quiesce::{attackers, gain, least, mark_attacked, regex_escape, GAIN_VAR};
use crate::rules::board_of;
use crate::rules::lowered::Lowered;
use crate::rules::specials::{color_name, PIECE};

/// The variable [`Threats`] sets on a candidate where something is
/// threatened: `g1`, `g2` (digits, tens of units), the rank of `g1`'s
/// piece as a letter (`a` the first piece), and `_` (the slot of the
/// piece being examined while [`Threats`] runs; `_` also stands for no
/// piece in the third).
pub(crate) const THREAT_VAR: &str = "ht";

/// [`Threatened`]'s scratch variable: the threat the reply leaves.
const LEFT_VAR: &str = "hg";

/// An active thread up to its first variable ([`THREAT_VAR`] is the
/// first; the candidate's paused copy has it too and must keep it).
const ACTIVE: &str = r"%%\n#stack:\n[^#%]*";

/// The most non-king pieces one side can have.
const MAX_PIECES: usize = 15;

/// Board marks while a piece is examined: the piece itself, then attacked
/// by the taker (and undefended, once the next test has run), attacked and
/// defended, and defended with the taker's least attacker a pawn, a minor
/// piece, a rook (the same meanings as in `quiesce::Recapture`).
const CURSOR: char = '*';
const ATTACKED: char = 'A';
const DEFENDED: char = 'D';
const BY_PAWN: char = '1';
const BY_MINOR: char = '3';
const BY_ROOK: char = '5';

/// The letter naming the `k`th piece (1-based).
fn rank_letter(k: usize) -> char {
    char::from(b'a' + (k - 1) as u8)
}

/// The replier's non-king letters (castling rooks included).
fn victims(replier: Color) -> String {
    pieces(replier)
        .chars()
        .filter(|&c| c != letter(replier, 'K'))
        .collect()
}

/// A victim letter's role for `quiesce::gain` (uppercase, `T` as `R`).
fn role_of(c: char) -> char {
    match c.to_ascii_uppercase() {
        'T' => 'R',
        r => r,
    }
}

/// The threats on `board` against `replier`'s non-king pieces: `(g1, k1,
/// g2)`, `k1` the rank of `g1`'s piece in line order (the first of equal
/// gains), `None` when nothing is threatened. The native meaning of
/// [`Threats`]'s patterns.
pub(crate) fn threats_on(board: &str, replier: Color) -> Option<(u32, usize, u32)> {
    let victims = victims(replier);
    let (mut g1, mut k1, mut g2) = (0, 0, 0);
    let pieces = board
        .char_indices()
        .filter(|(_, c)| victims.contains(*c))
        .enumerate();
    for (rank, (i, c)) in pieces {
        let takers = attackers(board, i, !replier);
        let defended = !attackers(board, i, replier).is_empty();
        let g = gain(role_of(c), least(&takers), defended);
        if g > g1 {
            (g2, g1, k1) = (g1, g, rank + 1);
        } else if g > g2 {
            g2 = g;
        }
    }
    (g1 > 0).then_some((g1, k1, g2))
}

fn special_err(instr: String, message: &str) -> RefError {
    RefError::Special {
        instr,
        message: message.to_string(),
    }
}

/// The special instruction on candidate threads (the `replier` to move):
/// sets [`THREAT_VAR`], as their first variable, where the taker threatens
/// something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Threats(pub Color);

impl Threats {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let replier = self.0;
        let taker = !replier;
        let all = "PNBRQK";
        let cls = victims(replier);
        let ht = THREAT_VAR;
        let z = BOARD_VAR;
        let not_piece = format!("[^%\\n{cls}]");
        let mut out = vec![Rewrite::new(
            r"(%%\n#stack:\n[^#%]*)",
            Template::new().group(1).text(&format!("#{ht}:00__\n")),
        )
        .with_scope(Scope::ActiveThread)];
        // The gain of each mark and victim, for the victims it is not 0
        // for (as in `quiesce::Recapture`).
        let groups = [("P", "P"), ("N", "NB"), ("R", "RT"), ("Q", "Q")];
        let mut gains = Vec::new();
        for (mark, attacker) in [
            (ATTACKED, None),
            (BY_PAWN, Some('P')),
            (BY_MINOR, Some('N')),
            (BY_ROOK, Some('R')),
        ] {
            for (role, letters) in groups {
                let role = role.chars().next().unwrap_or('P');
                let g = gain(role, Some(attacker.unwrap_or('K')), attacker.is_some());
                if g > 0 {
                    let set: String = letters.chars().map(|l| letter(replier, l)).collect();
                    gains.push((regex_escape(mark), set, g));
                }
            }
        }
        for k in 1..=MAX_PIECES {
            // (Runs without the pieces' letters: one way to match, so a
            // board with fewer than `k` pieces fails at once.)
            let skip = if k == 1 {
                String::new()
            } else {
                format!("(?:{not_piece}*[{cls}]){{{}}}", k - 1)
            };
            // The `k`th piece becomes the cursor; its letter goes into
            // the examined slot.
            out.push(Rewrite::new(
                format!(r"#{ht}:([0-9][0-9][_a-o])_\n([^%]*?#{z}:{skip}{not_piece}*)([{cls}])"),
                Template::new()
                    .text(&format!("#{ht}:"))
                    .group(1)
                    .group(3)
                    .text("\n")
                    .group(2)
                    .text(&CURSOR.to_string()),
            ));
            out.extend(mark_attacked(CURSOR, ATTACKED, taker, all));
            out.extend(mark_attacked(ATTACKED, DEFENDED, replier, all));
            out.extend(mark_attacked(DEFENDED, BY_PAWN, taker, "P"));
            out.extend(mark_attacked(DEFENDED, BY_MINOR, taker, "NB"));
            out.extend(mark_attacked(DEFENDED, BY_ROOK, taker, "R"));
            let here = rank_letter(k);
            for (mark, set, g) in &gains {
                let below = format!("[0-{}]", g - 1);
                let board = format!(r"([^%]*?#{z}:{ANY}*?{mark})");
                // Second best (first: its test needs g1 >= g, which the
                // new-best rewrite would have broken).
                out.push(Rewrite::new(
                    format!(r"#{ht}:([{g}-9]){below}([_a-o][{set}])\n{board}"),
                    Template::new()
                        .text(&format!("#{ht}:"))
                        .group(1)
                        .text(&g.to_string())
                        .group(2)
                        .text("\n")
                        .group(3),
                ));
                // New best: the old best is the second.
                out.push(Rewrite::new(
                    format!(r"#{ht}:({below})[0-9][_a-o]([{set}])\n{board}"),
                    Template::new()
                        .text(&format!("#{ht}:{g}"))
                        .group(1)
                        .text(&here.to_string())
                        .group(2)
                        .text("\n")
                        .group(3),
                ));
            }
            // The piece's letter goes back.
            out.push(Rewrite::new(
                format!(
                    r"#{ht}:([0-9][0-9][_a-o])([{cls}])\n([^%]*?#{z}:{ANY}*?)[{}{ATTACKED}{DEFENDED}{BY_PAWN}{BY_MINOR}{BY_ROOK}]",
                    regex_escape(CURSOR)
                ),
                Template::new()
                    .text(&format!("#{ht}:"))
                    .group(1)
                    .text("_\n")
                    .group(3)
                    .group(2),
            ));
        }
        // Nothing threatened: no variable.
        out.push(Rewrite::new(format!(r"#{ht}:0[0-9]__\n"), Template::new()));
        out
    }
}

impl Special for Threats {
    fn name(&self) -> String {
        format!("threats_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        if t.var(THREAT_VAR).is_some() {
            return Err(special_err(self.name(), "ht is already set"));
        }
        let board = board_of(&self.name(), &t)?;
        if let Some((g1, k1, g2)) = threats_on(board, self.0) {
            let value = format!("{g1}{g2}{}_", rank_letter(k1));
            t.vars.insert(0, (VarName::must(THREAT_VAR), value));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<Threats> = Lowered::new();
        LOWERED.get(self, Threats::build_rewrites)
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into()]
    }
}

/// The special instruction in the leaf move pass of the replier `mover`,
/// just after `specials::select_pieces` (the moving piece lifted to `@`,
/// its letter in `pc`): turns [`THREAT_VAR`] into [`LEFT_VAR`], the threat
/// the move leaves standing, in the same place (no variable when that is
/// nothing). Once per moving piece, before its moves fan out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Threatened(pub Color);

impl Threatened {
    /// The threat left by the piece lifted in `t` (native), from
    /// [`THREAT_VAR`] (0 without it).
    fn left(&self, t: &Thread) -> Result<u32, RefError> {
        let Some(v) = t.var(THREAT_VAR) else {
            return Ok(0);
        };
        let b = v.as_bytes();
        let bad = || special_err(self.name(), "ht is malformed");
        if b.len() != 4 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return Err(bad());
        }
        let (g1, g2) = (u32::from(b[0] - b'0'), u32::from(b[1] - b'0'));
        let k1 = usize::from(b[2].checked_sub(b'a').ok_or_else(bad)?) + 1;
        let cls = victims(self.0);
        let board = board_of(&self.name(), t)?;
        let at = board
            .find('@')
            .ok_or_else(|| special_err(self.name(), "no lifted piece on the board"))?;
        let before = board[..at].chars().filter(|c| cls.contains(*c)).count();
        let lifted = t
            .var(PIECE)
            .and_then(|pc| pc.chars().next())
            .ok_or_else(|| special_err(self.name(), "pc must be set"))?;
        Ok(if cls.contains(lifted) && before + 1 == k1 {
            g2
        } else {
            g1
        })
    }
}

impl Special for Threatened {
    fn name(&self) -> String {
        format!("threatened_{}", color_name(self.0))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let left = self.left(&t)?;
        if let Some(at) = t.vars.iter().position(|(n, _)| n.as_str() == THREAT_VAR) {
            if left == 0 {
                t.vars.remove(at);
            } else {
                t.vars[at] = (VarName::must(LEFT_VAR), left.to_string());
            }
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let cls = victims(self.0);
        let (ht, hg, z) = (THREAT_VAR, LEFT_VAR, BOARD_VAR);
        let mut out = Vec::new();
        let not_piece = format!("[^%\\n@{cls}]");
        // The lifted piece is the threatened one (the `k`th: `k - 1` of
        // the mover's non-king pieces before `@`, and it is one).
        for k in 1..=MAX_PIECES {
            let skip = if k == 1 {
                String::new()
            } else {
                format!("(?:{not_piece}*[{cls}]){{{}}}", k - 1)
            };
            out.push(
                Rewrite::new(
                    format!(
                        r"({ACTIVE})#{ht}:[0-9]([0-9]){}_\n([^%]*?#{z}:{skip}{not_piece}*@[^%]*?#{PIECE}:[{cls}]\n)",
                        rank_letter(k),
                    ),
                    Template::new()
                        .group(1)
                        .text(&format!("#{hg}:"))
                        .group(2)
                        .text("\n")
                        .group(3),
                )
                .with_scope(Scope::ActiveThread),
            );
        }
        // Any other piece leaves the best threat.
        out.push(
            Rewrite::new(
                format!(r"({ACTIVE})#{ht}:([0-9])[0-9][a-o]_\n"),
                Template::new()
                    .group(1)
                    .text(&format!("#{hg}:"))
                    .group(2)
                    .text("\n"),
            )
            .with_scope(Scope::ActiveThread),
        );
        out.push(Rewrite::new(format!(r"#{hg}:0\n"), Template::new()));
        out
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.into(), PIECE.into()]
    }
}

/// The special instruction in the leaf move pass, after
/// `quiesce::Recapture`: consumes [`LEFT_VAR`] and raises [`GAIN_VAR`]
/// (inserted before `pc` if absent) to it when it is more.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ThreatGain;

impl Special for ThreatGain {
    fn name(&self) -> String {
        "threat_gain".into()
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let Some(at) = t.vars.iter().position(|(n, _)| n.as_str() == LEFT_VAR) else {
            return Ok(vec![t]);
        };
        let number = |v: &str, name: &str| {
            v.parse::<u32>()
                .map_err(|_| special_err(self.name(), &format!("{name} is not a number")))
        };
        let left = number(&t.vars[at].1, LEFT_VAR)?;
        t.vars.remove(at);
        if let Some((_, v)) = t.vars.iter_mut().find(|(n, _)| n.as_str() == GAIN_VAR) {
            let g = number(v, GAIN_VAR)?;
            *v = g.max(left).to_string();
        } else {
            let at = t
                .vars
                .iter()
                .position(|(n, _)| n.as_str() == PIECE)
                .ok_or_else(|| special_err(self.name(), "pc must be set"))?;
            t.vars
                .insert(at, (VarName::must(GAIN_VAR), left.to_string()));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let (hg, qg) = (LEFT_VAR, GAIN_VAR);
        let mut out = Vec::new();
        for g in 2..=9 {
            out.push(Rewrite::new(
                format!(r"#{hg}:{g}\n([^%]*?)#{qg}:[1-{}]\n", g - 1),
                Template::new().group(1).text(&format!("#{qg}:{g}\n")),
            ));
        }
        out.push(Rewrite::new(
            format!(r"#{hg}:[0-9]\n([^%]*?#{qg}:)"),
            Template::new().group(1),
        ));
        out.push(Rewrite::new(
            format!(r"#{hg}:([0-9])\n([^%]*?)#{PIECE}:"),
            Template::new()
                .group(2)
                .text(&format!("#{qg}:"))
                .group(1)
                .text(&format!("\n#{PIECE}:")),
        ));
        out
    }

    fn requires(&self) -> Vec<String> {
        vec![PIECE.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::encode_fen;

    #[test]
    fn a_fork_threatens_two_pieces() {
        // The white knight on c7 forks the queen on e8 (defended by the
        // king) and the rook on a6 (undefended).
        let board = encode_fen("4qk2/2N5/r7/8/8/8/8/7K b - - 0 1")
            .unwrap()
            .board;
        // Queen (the first piece in line order): 9 - 3; rook: 5.
        assert_eq!(threats_on(&board, Color::Black), Some((6, 1, 5)));
        assert_eq!(threats_on(&board, Color::White), None);
    }
}
