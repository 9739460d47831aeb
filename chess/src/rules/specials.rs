//! The chess instructions: special-purpose rewrite lists for move making.
//!
//! One legal-move pass over a thread holding a position (variable `z`, see
//! `board`) is, in order, these stages:
//!
//! 1. [`select_pieces`]: one thread per piece of the side to move, the piece
//!    lifted to `@`, its square in `f`, its letter in `pc`;
//! 2. [`piece_moves`] (per kind of piece): one thread per pseudo-legal
//!    destination, marked `*`, the captured character in `x`, `u` empty;
//! 3. [`Stage::Promote`]: a pawn on the last rank becomes four threads,
//!    `u` = `q`, `r`, `b`, `n`;
//! 4. [`Stage::NameTarget`]: the destination's name in `t`;
//! 5. [`Stage::Place`]: `*` becomes the moved (or promoted) piece; a castling
//!    rook that moves, and both after a king move, lose their right;
//! 6. [`Stage::DropIllegal`]: threads whose king, or a square the castling
//!    king crossed, is attacked are deleted;
//! 7. [`Stage::FixCastle`]: the crossed squares become the rook and empty;
//! 8. [`Stage::ClearEp`]: the opponent's old en passant mark goes.
//!
//! Each instruction has its reference meaning here too, written against the
//! board string directly. Colour-specific instructions come in pairs; the
//! program runs one of each pair per side to move.

use regex_asm::ir::{RefError, Special};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::{
    castle_rook, forward, index, letter, name_at, phantom, pieces, rank_range, squares, target,
    ANY, BOARD_VAR, EMPTY, ROW,
};
use crate::rules::attacks::{king_attacked, king_attacked_parts};
use crate::rules::lowered::Lowered;
use crate::rules::{append_var, board_of, set_board, Cell, ForkRule, Forks, Put, Value};

/// Variables the move pass appends, in order.
pub(crate) const FROM: &str = "f";
/// The moving piece's letter.
pub(crate) const PIECE: &str = "pc";
/// The captured character (`.` or `,` when none).
pub(crate) const CAPTURED: &str = "x";
/// The promotion letter (`q`, `r`, `b`, `n`), empty otherwise.
pub(crate) const PROMOTION: &str = "u";
/// The destination square.
pub(crate) const TO: &str = "t";

pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

fn cell(offset: i32, accept: &str, put: Put) -> Cell {
    Cell {
        offset,
        accept: accept.to_string(),
        put,
    }
}

/// Stage 1: one thread per piece of colour `c`.
pub(crate) fn select_pieces(c: Color) -> Forks {
    select_among(c, pieces(c), format!("select_{}", color_name(c)))
}

/// Stage 1 for some kinds of piece only: one thread per piece of colour `c`
/// moving as one of `movers`.
pub(crate) fn select_pieces_of(c: Color, movers: &[Mover]) -> Forks {
    let letters: String = movers
        .iter()
        .flat_map(|k| k.letters())
        .flat_map(|l| l.chars())
        .map(|l| letter(c, l))
        .collect();
    let kinds: Vec<&str> = movers.iter().map(|k| k.name()).collect();
    select_among(
        c,
        &letters,
        format!("select_{}_{}", color_name(c), kinds.join("_")),
    )
}

/// One thread per piece of colour `c` whose letter is in `letters`.
fn select_among(c: Color, letters: &str, name: String) -> Forks {
    debug_assert!(letters.chars().all(|l| pieces(c).contains(l)));
    let rules = squares()
        .map(|i| ForkRule {
            at: Some((i, i)),
            cells: vec![cell(0, letters, Put::Set('@'))],
            // The piece first: lookups keyed on it then start with a
            // literal that only that kind of piece's threads contain.
            vars: vec![
                (PIECE.into(), Value::Cell(0)),
                (FROM.into(), Value::Lit(name_at(i))),
            ],
        })
        .collect();
    Forks {
        name,
        rules,
        defines: vec![FROM.into(), PIECE.into()],
    }
}

/// Kinds of moving piece, each with its own rule list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    /// Pawns.
    Pawn,
    /// Knights.
    Knight,
    /// Bishops.
    Bishop,
    /// Rooks, castling rooks included.
    Rook,
    /// Queens.
    Queen,
    /// The king, castling included.
    King,
}

impl Mover {
    /// All kinds.
    pub const ALL: [Mover; 6] = [
        Mover::Pawn,
        Mover::Knight,
        Mover::Bishop,
        Mover::Rook,
        Mover::Queen,
        Mover::King,
    ];

    /// The piece letters (uppercase) this kind covers.
    pub fn letters(self) -> &'static [&'static str] {
        match self {
            Mover::Pawn => &["P"],
            Mover::Knight => &["N"],
            Mover::Bishop => &["B"],
            Mover::Rook => &["R", "T"],
            Mover::Queen => &["Q"],
            Mover::King => &["K"],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mover::Pawn => "pawn",
            Mover::Knight => "knight",
            Mover::Bishop => "bishop",
            Mover::Rook => "rook",
            Mover::Queen => "queen",
            Mover::King => "king",
        }
    }
}

/// Which destinations a move pass generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Targets {
    /// Every pseudo-legal move.
    All,
    /// Captures only: an enemy piece on the destination, or en passant
    /// (a search's capture plies).
    Captures,
}

impl Targets {
    /// The squares a piece of colour `c` may land on.
    fn class(self, c: Color) -> String {
        match self {
            Targets::All => target(c),
            Targets::Captures => pieces(!c).to_string(),
        }
    }
}

/// A simple move: the lifted piece goes, the target gets `*`.
fn step_rule(c: Color, d: i32, to: Targets) -> ForkRule {
    ForkRule {
        at: None,
        cells: vec![
            cell(0, "@", Put::Set('.')),
            cell(d, &to.class(c), Put::Set('*')),
        ],
        vars: vec![
            (CAPTURED.into(), Value::Cell(1)),
            (PROMOTION.into(), lit("")),
        ],
    }
}

/// A slide of `n` steps of `d` over empty squares.
fn slide_rule(c: Color, d: i32, n: i32, to: Targets) -> ForkRule {
    let mut cells = vec![cell(0, "@", Put::Set('.'))];
    for k in 1..n {
        cells.push(cell(k * d, EMPTY, Put::Keep));
    }
    cells.push(cell(n * d, &to.class(c), Put::Set('*')));
    let last = cells.len() - 1;
    ForkRule {
        at: None,
        cells,
        vars: vec![
            (CAPTURED.into(), Value::Cell(last)),
            (PROMOTION.into(), lit("")),
        ],
    }
}

fn lit(s: &str) -> Value {
    Value::Lit(s.to_string())
}

fn slides(c: Color, dirs: &[i32], to: Targets) -> Vec<ForkRule> {
    dirs.iter()
        .flat_map(|&d| (1..=7).map(move |n| slide_rule(c, d, n, to)))
        .collect()
}

fn pawn_rules(c: Color, to: Targets) -> Vec<ForkRule> {
    let f = forward(c);
    let quiet = vec![(CAPTURED.into(), lit(".")), (PROMOTION.into(), lit(""))];
    let start_rank = match c {
        Color::White => 2,
        Color::Black => 7,
    };
    let enemy_pawn = letter(!c, 'P').to_string();
    let mut rules = Vec::new();
    if to == Targets::All {
        rules.push(ForkRule {
            at: None,
            cells: vec![cell(0, "@", Put::Set('.')), cell(f, EMPTY, Put::Set('*'))],
            vars: quiet.clone(),
        });
        rules.push(ForkRule {
            at: Some(rank_range(start_rank)),
            cells: vec![
                cell(0, "@", Put::Set('.')),
                cell(f, EMPTY, Put::Set(',')),
                cell(2 * f, EMPTY, Put::Set('*')),
            ],
            vars: quiet,
        });
    }
    for side in [-1, 1] {
        let d = f + side;
        rules.push(ForkRule {
            at: None,
            cells: vec![
                cell(0, "@", Put::Set('.')),
                cell(d, pieces(!c), Put::Set('*')),
            ],
            vars: vec![
                (CAPTURED.into(), Value::Cell(1)),
                (PROMOTION.into(), lit("")),
            ],
        });
        // En passant: the pawn that skipped the target square goes too.
        // `x` is what stood on the target (`,`), as for every other move:
        // a pawn arriving on `,` is how en passant is recognised later
        // (the captured pawn's square is not the target).
        rules.push(ForkRule {
            at: None,
            cells: vec![
                cell(0, "@", Put::Set('.')),
                cell(d, ",", Put::Set('*')),
                cell(side, &enemy_pawn, Put::Set('.')),
            ],
            vars: vec![(CAPTURED.into(), lit(",")), (PROMOTION.into(), lit(""))],
        });
    }
    rules
}

fn king_rules(c: Color, to: Targets) -> Vec<ForkRule> {
    let mut rules: Vec<ForkRule> = [-11, -10, -9, -1, 1, 9, 10, 11]
        .iter()
        .map(|&d| step_rule(c, d, to))
        .collect();
    if to == Targets::Captures {
        return rules;
    }
    let home = match c {
        Color::White => index(4, 1),
        Color::Black => index(4, 8),
    };
    let ph = Put::Set(phantom(c));
    let rook = castle_rook(c).to_string();
    let quiet = vec![(CAPTURED.into(), lit(".")), (PROMOTION.into(), lit(""))];
    // King side: e f g h -> phantom phantom * . ; queen side: a b c d e.
    rules.push(ForkRule {
        at: Some((home, home)),
        cells: vec![
            cell(0, "@", ph),
            cell(1, ".", ph),
            cell(2, ".", Put::Set('*')),
            cell(3, &rook, Put::Set('.')),
        ],
        vars: quiet.clone(),
    });
    rules.push(ForkRule {
        at: Some((home, home)),
        cells: vec![
            cell(0, "@", ph),
            cell(-1, ".", ph),
            cell(-2, ".", Put::Set('*')),
            cell(-3, ".", Put::Keep),
            cell(-4, &rook, Put::Set('.')),
        ],
        vars: quiet,
    });
    rules
}

/// Stage 2: one thread per pseudo-legal destination of the lifted piece
/// among `to`.
pub(crate) fn piece_moves(c: Color, mover: Mover, to: Targets) -> Forks {
    let rules = match mover {
        Mover::Pawn => pawn_rules(c, to),
        Mover::Knight => [-21, -19, -12, -8, 8, 12, 19, 21]
            .iter()
            .map(|&d| step_rule(c, d, to))
            .collect(),
        Mover::Bishop => slides(c, &[-11, -9, 9, 11], to),
        Mover::Rook => slides(c, &[-10, -1, 1, 10], to),
        Mover::Queen => slides(c, &[-11, -10, -9, -1, 1, 9, 10, 11], to),
        Mover::King => king_rules(c, to),
    };
    let kind = match to {
        Targets::All => "moves",
        Targets::Captures => "captures",
    };
    Forks {
        name: format!("{}_{kind}_{}", mover.name(), color_name(c)),
        rules,
        defines: vec![CAPTURED.into(), PROMOTION.into()],
    }
}

/// Stages 3 to 8: one-thread transformations (or deletions, or the
/// promotion fork).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    /// A pawn of this colour on its last rank: four threads.
    Promote(Color),
    /// `t` := the name of the `*` square, appended after `u`.
    NameTarget,
    /// `*` := the moved piece of this colour; castling rights lost.
    Place(Color),
    /// Threads where this colour's king is attacked are deleted.
    DropIllegal(Color),
    /// Castling's crossed squares back to rook and empty.
    FixCastle(Color),
    /// The other colour's en passant mark is cleared.
    ClearEp(Color),
    /// Appends `ck` = `T` if this colour's king is attacked, else `F`.
    InCheck(Color),
}

/// The variable [`Stage::InCheck`] appends.
pub(crate) const CHECK_VAR: &str = "ck";

const PROMOTIONS: [&str; 4] = ["q", "r", "b", "n"];

/// The promotion fork: an active thread whose pawn of colour `c` stands
/// on its last rank (as `*`, promotion not chosen) becomes one copy per
/// letter of `letters`, in that order, `u` the letter.
pub(crate) fn promotion_rewrite(c: Color, letters: &[&str]) -> Rewrite {
    let (lo, hi) = rank_range(last_rank(c));
    let pawn = letter(c, 'P');
    let mut t = Template::new();
    for p in letters {
        t = t.text("%%\n").group(1).text(p).group(2);
    }
    Rewrite::new(
        format!(
            r"%%\n([^%]*?#z:{ANY}{{{lo},{hi}}}\*[^%]*?#{PIECE}:{pawn}\n[^%]*?#{PROMOTION}:)(\n[^%]*)"
        ),
        t,
    )
    .with_scope(Scope::Global)
}

/// The meaning of [`promotion_rewrite`] on a thread it matches: one copy
/// per letter, in order, `u` the letter.
pub(crate) fn promoted_copies(t: &Thread, letters: &[&str]) -> Vec<Thread> {
    letters
        .iter()
        .map(|p| {
            let mut copy = t.clone();
            for (n, v) in &mut copy.vars {
                if n.as_str() == PROMOTION {
                    *v = (*p).to_string();
                }
            }
            copy
        })
        .collect()
}

/// The head of an active thread up to the board's first character.
const HEAD: &str = r"%%\n[^%]*?#z:";

fn special_err(instr: &str, message: &str) -> RefError {
    RefError::Special {
        instr: instr.to_string(),
        message: message.to_string(),
    }
}

fn local(pattern: String, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::ActiveThread)
}

fn last_rank(c: Color) -> usize {
    match c {
        Color::White => 8,
        Color::Black => 1,
    }
}

impl Stage {
    /// Stages 5 to 8 for colour `c`, in order: place the piece, drop the
    /// moves that leave the king attacked, finish castling, clear the
    /// opponent's en passant mark.
    pub(crate) fn after_move(c: Color) -> [Stage; 4] {
        [
            Stage::Place(c),
            Stage::DropIllegal(c),
            Stage::FixCastle(c),
            Stage::ClearEp(c),
        ]
    }

    fn star(&self, board: &str) -> Result<usize, RefError> {
        board
            .find('*')
            .ok_or_else(|| special_err(&self.name(), "no destination mark on the board"))
    }

    fn var<'t>(&self, t: &'t Thread, name: &str) -> Result<&'t str, RefError> {
        t.var(name).ok_or_else(|| RefError::UnsetVariable {
            instr: self.name(),
            name: name.to_string(),
        })
    }
}

impl Stage {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        match *self {
            Stage::Promote(c) => vec![promotion_rewrite(c, &PROMOTIONS)],
            Stage::NameTarget => {
                let mut out = Vec::new();
                // `t` goes after `u`, the last part the movers appended:
                // each rewrite spans from the board to there, not the whole
                // thread. A `*` exists only on the boards of active threads
                // in the middle of a move.
                for rank in 1..=8 {
                    let (lo, hi) = rank_range(rank);
                    out.push(Rewrite::new(
                        format!(r"(#{BOARD_VAR}:{ANY}{{{lo},{hi}}}\*[^%]*?#{PROMOTION}:{ANY}*\n)"),
                        Template::new().group(1).text(&format!("#{TO}:{rank}\n")),
                    ));
                }
                for file in 0..8usize {
                    let name = (b'a' + file as u8) as char;
                    out.push(Rewrite::new(
                        format!(
                            r"(#{BOARD_VAR}:(?:{ANY}{{{ROW}}})*{ANY}{{{}}}\*[^%]*?#{TO}:)",
                            file + 1
                        ),
                        Template::new().group(1).text(&name.to_string()),
                    ));
                }
                out
            }
            Stage::Place(c) => {
                // The `*` patterns need no thread head: a `*` exists only
                // on the boards of threads in the middle of a move, and by
                // now every one of them is active again.
                let star = |p: String, t: Template| Rewrite::new(p, t);
                let mut out = Vec::new();
                for p in PROMOTIONS {
                    let piece = letter(c, p.to_ascii_uppercase().chars().next().unwrap_or('Q'));
                    out.push(star(
                        format!(r"(#{BOARD_VAR}:[^%\n]*)\*([^%]*?#{PROMOTION}:{p}\n)"),
                        Template::new().group(1).text(&piece.to_string()).group(2),
                    ));
                }
                out.push(star(
                    format!(
                        r"(#{BOARD_VAR}:[^%\n]*)\*([^%]*?#{PIECE}:{}\n)",
                        castle_rook(c)
                    ),
                    Template::new()
                        .group(1)
                        .text(&letter(c, 'R').to_string())
                        .group(2),
                ));
                let plain: String = pieces(c).chars().filter(|&p| p != castle_rook(c)).collect();
                out.push(star(
                    format!(r"(#{BOARD_VAR}:[^%\n]*)\*([^%]*?#{PIECE}:([{plain}])\n)"),
                    Template::new().group(1).group(3).group(2),
                ));
                let rank = if c == Color::White { 1 } else { 8 };
                for file in [0, 7] {
                    out.push(local(
                        format!(
                            r"({HEAD}{ANY}{{{}}}){}([^%]*?#{PIECE}:{}\n)",
                            index(file, rank),
                            castle_rook(c),
                            letter(c, 'K')
                        ),
                        Template::new()
                            .group(1)
                            .text(&letter(c, 'R').to_string())
                            .group(2),
                    ));
                }
                out
            }
            // One deletion per group of the attack pattern: a thread whose
            // king is attacked matches one of them (see `king_attacked_parts`).
            Stage::DropIllegal(c) => king_attacked_parts(c)
                .into_iter()
                .map(|part| {
                    Rewrite::new(format!(r"{HEAD}[^%\n]*{part}[^%]*"), Template::new())
                        .with_scope(Scope::Global)
                })
                .collect(),
            Stage::FixCastle(c) => {
                let rank = if c == Color::White { 1 } else { 8 };
                let ph = phantom(c);
                let r = letter(c, 'R');
                // Phantom kings exist only on the boards of active threads
                // in the middle of a move: no thread head needed, and the
                // literal pair is found by substring search.
                vec![
                    Rewrite::new(
                        format!("(#{BOARD_VAR}:{ANY}{{{}}}){ph}{ph}", index(4, rank)),
                        Template::new().group(1).text(&format!(".{r}")),
                    ),
                    Rewrite::new(
                        format!("(#{BOARD_VAR}:{ANY}{{{}}}){ph}{ph}", index(3, rank)),
                        Template::new().group(1).text(&format!("{r}.")),
                    ),
                ]
            }
            // A thread matching one group of the attack pattern is marked
            // `%`` (and left out of the next groups' search), then the
            // unmarked ones get F.
            Stage::InCheck(c) => king_attacked_parts(c)
                .into_iter()
                .map(|part| {
                    local(
                        format!(r"%%(\n[^%]*?#z:[^%\n]*{part}[^%]*)"),
                        Template::literal("%`")
                            .group(1)
                            .text(&format!("#{CHECK_VAR}:T\n")),
                    )
                })
                .chain([
                    local(
                        r"%%(\n[^%]*)".to_string(),
                        Template::literal("%%")
                            .group(1)
                            .text(&format!("#{CHECK_VAR}:F\n")),
                    ),
                    local(r"%`\n".to_string(), Template::literal("%%\n")),
                ])
                .collect(),
            Stage::ClearEp(c) => {
                let (lo, hi) = rank_range(if c == Color::White { 6 } else { 3 });
                vec![local(
                    format!("({HEAD}{ANY}{{{lo},{hi}}}),"),
                    Template::new().group(1).text("."),
                )]
            }
        }
    }
}

impl Special for Stage {
    fn name(&self) -> String {
        match self {
            Stage::Promote(c) => format!("promote_{}", color_name(*c)),
            Stage::NameTarget => "name_target".into(),
            Stage::Place(c) => format!("place_{}", color_name(*c)),
            Stage::DropIllegal(c) => format!("drop_illegal_{}", color_name(*c)),
            Stage::FixCastle(c) => format!("fix_castle_{}", color_name(*c)),
            Stage::ClearEp(c) => format!("clear_ep_{}", color_name(*c)),
            Stage::InCheck(c) => format!("in_check_{}", color_name(*c)),
        }
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let board = board_of(&self.name(), &t)?.to_string();
        let mut b: Vec<char> = board.chars().collect();
        match *self {
            Stage::Promote(c) => {
                let (lo, hi) = rank_range(last_rank(c));
                let star = self.star(&board)?;
                let pawn = letter(c, 'P').to_string();
                if (lo..=hi).contains(&star) && self.var(&t, PIECE)? == pawn {
                    if !self.var(&t, PROMOTION)?.is_empty() {
                        return Err(special_err(&self.name(), "promotion already chosen"));
                    }
                    return Ok(promoted_copies(&t, &PROMOTIONS));
                }
                Ok(vec![t])
            }
            Stage::NameTarget => {
                let star = self.star(&board)?;
                if t.vars.last().map(|(n, _)| n.as_str()) != Some(PROMOTION) {
                    return Err(special_err(&self.name(), "u must be the last variable"));
                }
                append_var(&self.name(), &mut t, TO, name_at(star))?;
                Ok(vec![t])
            }
            Stage::Place(c) => {
                let star = self.star(&board)?;
                let u = self.var(&t, PROMOTION)?;
                let pc = self.var(&t, PIECE)?.chars().next().unwrap_or('?');
                let placed = if let Some(p) = u.chars().next() {
                    letter(c, p.to_ascii_uppercase())
                } else if pc == castle_rook(c) {
                    letter(c, 'R')
                } else {
                    pc
                };
                b[star] = placed;
                if pc == letter(c, 'K') {
                    let rank = if c == Color::White { 1 } else { 8 };
                    for file in [0, 7] {
                        let i = index(file, rank);
                        if b[i] == castle_rook(c) {
                            b[i] = letter(c, 'R');
                        }
                    }
                }
                set_board(&mut t, b.into_iter().collect());
                Ok(vec![t])
            }
            Stage::DropIllegal(c) => {
                if king_attacked(&board, c) {
                    Ok(vec![])
                } else {
                    Ok(vec![t])
                }
            }
            Stage::FixCastle(c) => {
                let rank = if c == Color::White { 1 } else { 8 };
                let (d, e, f) = (index(3, rank), index(4, rank), index(5, rank));
                let ph = phantom(c);
                if b[e] == ph && b[f] == ph {
                    b[e] = '.';
                    b[f] = letter(c, 'R');
                } else if b[d] == ph && b[e] == ph {
                    b[d] = letter(c, 'R');
                    b[e] = '.';
                }
                set_board(&mut t, b.into_iter().collect());
                Ok(vec![t])
            }
            Stage::InCheck(c) => {
                let check = if king_attacked(&board, c) { "T" } else { "F" };
                append_var(&self.name(), &mut t, CHECK_VAR, check.to_string())?;
                Ok(vec![t])
            }
            Stage::ClearEp(c) => {
                let (lo, hi) = rank_range(if c == Color::White { 6 } else { 3 });
                for ch in &mut b[lo..=hi] {
                    if *ch == ',' {
                        *ch = '.';
                    }
                }
                set_board(&mut t, b.into_iter().collect());
                Ok(vec![t])
            }
        }
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<Stage> = Lowered::new();
        LOWERED.get(self, Stage::build_rewrites)
    }

    fn defines(&self) -> Vec<String> {
        match self {
            Stage::NameTarget => vec![TO.into()],
            Stage::InCheck(_) => vec![CHECK_VAR.into()],
            _ => vec![],
        }
    }

    fn requires(&self) -> Vec<String> {
        let mut v = vec![BOARD_VAR.to_string()];
        match self {
            Stage::Promote(_) | Stage::Place(_) => v.extend([PIECE.into(), PROMOTION.into()]),
            _ => {}
        }
        v
    }
}
