//! The rules folder: the chess rules as special instructions, each with
//! its own reference meaning: fork rules (this file), the attack test
//! (`attacks`), the move-making steps (`specials`), small specials from a
//! rewrite list and a closure (`func`), and the draws besides stalemate
//! ([`ending`]). Nothing here searches or evaluates.
//!
//! Fork rules: board patterns, as data, that make one thread per match.
//!
//! A [`ForkRule`] lists cells at offsets from an anchor square, each with
//! the characters it accepts and what it becomes in the copy; when all
//! cells accept, a copy of the thread is made with the cells rewritten and
//! some variables appended. From this one description come both the regex
//! ([`ForkRule::pattern`], [`ForkRule::copy_template`]) and, independently,
//! the reference meaning ([`ForkRule::apply`], plain indexing into the
//! board string). [`Forks`] is a special instruction made of a list of
//! rules: every active thread is replaced by its copies, in rule order.
//!
//! This module knows the board line's name and layout only through
//! `board`; it knows nothing of chess rules (the rule lists live in
//! `specials`).

pub(crate) mod attacks;
pub mod ending;
pub(crate) mod func;
pub(crate) mod lowered;
pub(crate) mod specials;

use regex_asm::ir::{RefError, Special};
use regex_vm::state::{Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};

use crate::board::{ANY, BOARD_VAR};
use lowered::Lowered;

/// What a cell becomes in the copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Put {
    /// Unchanged.
    Keep,
    /// This character.
    Set(char),
}

/// One square of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Cell {
    /// Offset from the anchor, in board characters.
    pub offset: i32,
    /// Characters the square may hold.
    pub accept: String,
    /// What it becomes in the copy.
    pub put: Put,
}

/// The value of an appended variable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Value {
    /// A constant.
    Lit(String),
    /// The original character of cell `i` (index into `cells`).
    Cell(usize),
}

/// What a matching rule makes: the copy's board and appended variables.
pub(crate) type ForkCopy = (String, Vec<(String, String)>);

/// A board pattern that forks a thread.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ForkRule {
    /// Allowed anchor positions (inclusive), or anywhere.
    pub at: Option<(usize, usize)>,
    /// The cells; one of them has offset 0.
    pub cells: Vec<Cell>,
    /// Variables appended to the copy, in order.
    pub vars: Vec<(String, Value)>,
}

/// Character class of a set of characters.
fn class(chars: &str) -> String {
    let mut out = String::from("[");
    for c in chars.chars() {
        if matches!(c, '\\' | ']' | '[' | '^' | '-') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
    out
}

/// A tag the copies wait under while the rules run; never visible after
/// the instruction (the tracer's tags never start with `_`).
pub(crate) const COPY_TAG: &str = "_f";

impl ForkRule {
    fn sorted(&self) -> Vec<(usize, &Cell)> {
        let mut v: Vec<(usize, &Cell)> = self.cells.iter().enumerate().collect();
        v.sort_by_key(|(_, c)| c.offset);
        v
    }

    /// The pattern and, per cell index, its capture group; `None` if the
    /// rule can never match (its anchor range puts a cell off the line).
    fn compile(&self) -> Option<(String, Vec<usize>, Vec<usize>, usize)> {
        let sorted = self.sorted();
        let first = sorted[0].1.offset;
        let mut pattern = format!(r"%%\n([^%]*?#{BOARD_VAR}:");
        match self.at {
            Some((a, b)) => {
                let lo = a as i64 + first as i64;
                let hi = b as i64 + first as i64;
                if hi < 0 {
                    return None;
                }
                pattern.push_str(&format!("{ANY}{{{},{}}}", lo.max(0), hi));
            }
            None => pattern.push_str(r"[^%\n]*"),
        }
        pattern.push(')');
        let mut group = 1;
        let mut cell_group = vec![0; self.cells.len()];
        // Groups of gaps, in order, interleaved with cells: `order` lists
        // every group after the prefix, in text order.
        let mut gaps = Vec::new();
        let mut prev: Option<i32> = None;
        for (i, c) in &sorted {
            if let Some(p) = prev {
                let gap = c.offset - p - 1;
                if gap > 0 {
                    group += 1;
                    gaps.push(group);
                    pattern.push_str(&format!("({ANY}{{{gap}}})"));
                }
            }
            group += 1;
            cell_group[*i] = group;
            pattern.push_str(&format!("({})", class(&c.accept)));
            prev = Some(c.offset);
        }
        group += 1;
        pattern.push_str("([^%]*)");
        Some((pattern, cell_group, gaps, group))
    }

    /// The rewrite that inserts the copy before each matching thread.
    pub(crate) fn rewrite(&self) -> Option<Rewrite> {
        let (pattern, cell_group, _, last) = self.compile()?;
        let sorted = self.sorted();
        let mut copy = Template::literal(&format!("%{COPY_TAG}\n")).group(1);
        let mut original = Template::literal("%%\n").group(1);
        let mut prev: Option<i32> = None;
        let mut g = 1;
        for (i, c) in &sorted {
            if let Some(p) = prev {
                if c.offset - p - 1 > 0 {
                    g += 1;
                    copy = copy.group(g);
                    original = original.group(g);
                }
            }
            g += 1;
            debug_assert_eq!(g, cell_group[*i]);
            copy = match c.put {
                Put::Keep => copy.group(g),
                Put::Set(ch) => copy.text(&ch.to_string()),
            };
            original = original.group(g);
            prev = Some(c.offset);
        }
        copy = copy.group(last);
        original = original.group(last);
        for (name, value) in &self.vars {
            copy = copy.text(&format!("#{name}:"));
            copy = match value {
                Value::Lit(s) => copy.text(s),
                Value::Cell(i) => copy.group(cell_group[*i]),
            };
            copy = copy.text("\n");
        }
        let mut template = copy;
        for p in original.pieces() {
            template = match p {
                regex_vm::Piece::Literal(s) => template.text(s),
                regex_vm::Piece::Group(n) => template.group(*n),
            };
        }
        Some(Rewrite::new(pattern, template).with_scope(Scope::Global))
    }

    /// The pattern alone (for tests).
    #[cfg(test)]
    fn pattern(&self) -> Option<String> {
        self.compile().map(|(p, ..)| p)
    }

    /// The reference meaning: the copy this rule makes of `board`, as the
    /// new board and the appended variables, or `None` if it does not match.
    ///
    /// # Errors
    ///
    /// If the rule matches at more than one anchor (the regex would pick one
    /// arbitrarily; every rule list is written so that this cannot happen).
    pub(crate) fn apply(&self, board: &str) -> Result<Option<ForkCopy>, String> {
        let b: Vec<char> = board.chars().collect();
        let (lo, hi) = self.at.unwrap_or((0, b.len().saturating_sub(1)));
        let mut found = None;
        for anchor in lo..=hi.min(b.len().saturating_sub(1)) {
            let fits = self.cells.iter().all(|c| {
                let pos = anchor as i64 + c.offset as i64;
                pos >= 0 && (pos as usize) < b.len() && c.accept.contains(b[pos as usize])
            });
            if fits {
                if found.is_some() {
                    return Err(format!("rule matches twice on board {board:?}"));
                }
                found = Some(anchor);
            }
        }
        let Some(anchor) = found else {
            return Ok(None);
        };
        let mut copy = b.clone();
        for c in &self.cells {
            if let Put::Set(ch) = c.put {
                copy[(anchor as i64 + c.offset as i64) as usize] = ch;
            }
        }
        let vars = self
            .vars
            .iter()
            .map(|(name, v)| {
                let value = match v {
                    Value::Lit(s) => s.clone(),
                    Value::Cell(i) => {
                        b[(anchor as i64 + self.cells[*i].offset as i64) as usize].to_string()
                    }
                };
                (name.clone(), value)
            })
            .collect();
        Ok(Some((copy.into_iter().collect(), vars)))
    }
}

/// A special instruction made of fork rules: each active thread is
/// replaced by one copy per matching rule, in rule order (none: the thread
/// disappears).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Forks {
    /// Name in listings.
    pub name: String,
    /// The rules, in order.
    pub rules: Vec<ForkRule>,
    /// Variables the rules append (all rules append the same names).
    pub defines: Vec<String>,
}

/// The board of a thread, or a reference error.
///
/// # Errors
///
/// The thread has no board variable.
pub(crate) fn board_of<'t>(instr: &str, t: &'t Thread) -> Result<&'t str, RefError> {
    t.var(BOARD_VAR).ok_or_else(|| RefError::UnsetVariable {
        instr: instr.to_string(),
        name: BOARD_VAR.to_string(),
    })
}

/// Replaces the board of a thread.
pub(crate) fn set_board(t: &mut Thread, board: String) {
    for (n, v) in &mut t.vars {
        if n.as_str() == BOARD_VAR {
            *v = board;
            return;
        }
    }
}

/// Appends a variable that must not exist yet.
///
/// # Errors
///
/// The variable is already set.
pub(crate) fn append_var(
    instr: &str,
    t: &mut Thread,
    name: &str,
    value: String,
) -> Result<(), RefError> {
    if t.var(name).is_some() {
        return Err(RefError::Special {
            instr: instr.to_string(),
            message: format!("variable {name} is already set"),
        });
    }
    t.vars.push((VarName::must(name), value));
    Ok(())
}

impl Forks {
    /// Its rewrites, built anew (`Special::rewrites` builds them once
    /// per distinct value: `rules::lowered`).
    fn build_rewrites(&self) -> Vec<Rewrite> {
        let mut out: Vec<Rewrite> = self.rules.iter().filter_map(ForkRule::rewrite).collect();
        // The originals go, the copies wake up.
        out.push(Rewrite::new(r"%%\n[^%]*", Template::new()).with_scope(Scope::Global));
        out.push(
            Rewrite::new(format!(r"%{COPY_TAG}\n"), Template::literal("%%\n"))
                .with_scope(Scope::Global),
        );
        out
    }
}

impl Special for Forks {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&self, thread: Thread) -> Result<Vec<Thread>, RefError> {
        let board = board_of(&self.name, &thread)?.to_string();
        let mut out = Vec::new();
        for rule in &self.rules {
            let hit = rule.apply(&board).map_err(|message| RefError::Special {
                instr: self.name.clone(),
                message,
            })?;
            if let Some((new_board, vars)) = hit {
                let mut copy = thread.clone();
                set_board(&mut copy, new_board);
                for (name, value) in vars {
                    append_var(&self.name, &mut copy, &name, value)?;
                }
                out.push(copy);
            }
        }
        Ok(out)
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        static LOWERED: Lowered<Forks> = Lowered::new();
        LOWERED.get(self, Forks::build_rewrites)
    }

    fn defines(&self) -> Vec<String> {
        self.defines.clone()
    }

    fn requires(&self) -> Vec<String> {
        vec![BOARD_VAR.to_string()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knight_jump() -> ForkRule {
        ForkRule {
            at: None,
            cells: vec![
                Cell {
                    offset: 0,
                    accept: "@".into(),
                    put: Put::Set('.'),
                },
                Cell {
                    offset: -19,
                    accept: ".,pnbrqkt".into(),
                    put: Put::Set('*'),
                },
            ],
            vars: vec![("x".into(), Value::Cell(1))],
        }
    }

    #[test]
    fn pattern_lists_cells_in_board_order() {
        assert_eq!(
            knight_jump().pattern().unwrap(),
            r"%%\n([^%]*?#z:[^%\n]*)([.,pnbrqkt])([^%\n]{18})([@])([^%]*)"
        );
    }

    #[test]
    fn reference_finds_the_anchor() {
        let mut board = vec!['.'; 80];
        board[40] = '@';
        board[21] = 'p';
        let board: String = board.into_iter().collect();
        let (copy, vars) = knight_jump().apply(&board).unwrap().unwrap();
        assert_eq!(&copy[21..22], "*");
        assert_eq!(&copy[40..41], ".");
        assert_eq!(vars, [("x".to_string(), "p".to_string())]);
    }
}
