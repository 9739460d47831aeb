//! A backtracking matcher for the patterns the executor runs most.
//!
//! It owns one thing: finding, for a portable pattern anchored at the
//! start of a byte slice, the match and the capture spans that the `regex`
//! crate's leftmost-first search (for a pattern with back-references,
//! fancy-regex's) would report there; a back-reference compares the span
//! its group captured. It compiles the
//! pattern's syntax tree (from `regex-syntax`, the same parser the `regex`
//! crate uses) into a small program for a backtracking machine. The
//! machine is what any Perl-style engine is; what makes it fast on the
//! state grammar is one instruction: a run of one byte class (`[^%]*?`,
//! `[^%\n]{51,58}`) is measured with `memchr` and, when a literal follows,
//! only the places where that literal can start are tried. A run followed
//! by a byte outside its class (`[^\n]*\n`, `H*\|`) can only end where it
//! stops, so it leaves nothing to come back to; a program made only of such
//! steps is searched in one pass with no stack (most of the program's
//! patterns are). Saves ride on the instruction after them.
//!
//! It must not touch the state, templates or thread markers (it borrows
//! a table of how common each byte is, `ranks::ByteRanks`, to tune its
//! hints and substring searches), and it
//! declines (returns `None` from [`Matcher::new`]) anything it does not
//! handle exactly: look-around other than `^`, loops whose
//! body can match the empty string, and programs that would be large. It
//! reads bytes, so it is exact only on ASCII text (where a byte is a
//! character); the executor checks that before using it. A search that
//! runs past its step budget gives up ([`GaveUp`]) and the caller asks the
//! `regex` crate instead, so no pattern can make it slow without bound.
//!
//! Three stages, one file each: [`inst`] (the machine's instructions and
//! byte sets), [`codegen`] (syntax tree to program, with the hints and the
//! folded saves) and [`machine`] (running a program anchored at a place).
//! This file holds the public surface: [`Matcher`], [`Scratch`],
//! [`GaveUp`].

mod codegen;
mod inst;
mod machine;
#[cfg(test)]
mod tests;

use memchr::memmem;

use inst::{ByteSet, Hint, Inst, WordList, PRE_SAVES};
pub use machine::Scratch;

/// A search that ran past its step budget (see [`Matcher::find_anchored`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GaveUp;

/// A compiled pattern (see the module documentation).
#[derive(Debug)]
pub struct Matcher {
    prog: Vec<Inst>,
    /// Per instruction, the capture slots to record before it runs
    /// (`NO_SLOT` for none): the `Save` instructions folded into the
    /// instruction they precede, one dispatch fewer each.
    pre: Vec<[u32; PRE_SAVES]>,
    /// No branch: a match runs every instruction, each save included.
    straight: bool,
    /// No branch and no run with more than one end to try: nothing to
    /// come back to, so a search is one pass over the program with no
    /// stack and no step count (see [`Matcher::find_straight`]).
    single: bool,
    sets: Vec<ByteSet>,
    stops: Vec<Option<Vec<u8>>>,
    /// Per set: it is every ASCII byte but `%` (a run of it is the rest of
    /// a piece of the state).
    piece_sets: Vec<bool>,
    lits: Vec<(u8, memmem::Finder<'static>)>,
    words: Vec<WordList>,
    slots: usize,
}

impl Matcher {
    /// The literal every match starts with (the program's leading
    /// literals, captures seen through); empty when there is none.
    pub fn prefix(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for inst in &self.prog {
            match inst {
                Inst::Save(_) => {}
                Inst::Lit(bytes) => out.extend_from_slice(bytes),
                _ => break,
            }
        }
        out
    }

    /// Whether a search may guess again and again: the program branches
    /// (an alternation, or a loop other than a run), or a run with more
    /// than one end, followed by what its own bytes can start (it is not
    /// "whole") and knowing no literal or single byte that must follow
    /// it, has another run after it (`[^A]*[a][^A]*\n`): each of its ends
    /// is then a new scan of the rest, where an automaton reads each byte
    /// once.
    pub fn guesses(&self) -> bool {
        !self.straight
            || self.prog.iter().enumerate().any(|(pc, inst)| match *inst {
                Inst::Run {
                    min,
                    max,
                    whole: false,
                    hint: Hint::None | Hint::Set { .. },
                    ..
                } if min < max => self.prog[pc + 1..]
                    .iter()
                    .any(|i| matches!(i, Inst::Run { .. })),
                _ => false,
            })
    }

    /// Number of capture slots (two per group, group 0 included).
    pub fn slot_count(&self) -> usize {
        self.slots
    }
}
