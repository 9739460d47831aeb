//! The backtracking machine's program: its instructions and the facts
//! the search loop uses to skip places.
//!
//! It owns the instruction set (what each instruction does is written on
//! it) and nothing else: `compile` writes programs, `vm` runs them.

use memchr::memmem::Finder;

use super::ast::{Anchor, CharTest, Fold, Greed};
use super::lead::ByteSet;

/// An instruction's index in [`Prog::insts`].
pub(crate) type Pc = u32;

/// One instruction. Each consumes characters at the current position or
/// tests it; on failure the machine backtracks to the last choice point.
#[derive(Debug, Clone)]
pub(crate) enum Inst {
    /// These bytes (the UTF-8 of one or more exact characters).
    Str(Box<[u8]>),
    /// One character passing a test.
    Test(CharTest),
    /// An assertion.
    Anchor(Anchor),
    /// Record the position in capture slot `slot` (group `slot / 2`'s
    /// start when even, end when odd). A `leaky` save is not undone when
    /// the match backtracks (CPython's marks inside a possessive loop
    /// that no general loop encloses: see `vm`), only the high-water
    /// mark of set slots is.
    Save {
        /// The slot.
        slot: u32,
        /// Not undone on backtracking.
        leaky: bool,
    },
    /// Try `pc + 1`; on failure, `second` at the same position.
    Split(Pc),
    /// Try `second` first; on failure `pc + 1` (a lazy `?`).
    SplitLazy(Pc),
    /// Alternatives in order, each tried only where the text can start
    /// it (see [`Branches`]): the same choices as a chain of `Split`s,
    /// less those that would fail at their first character.
    Branch(Box<Branches>),
    /// Go to.
    Jmp(Pc),
    /// The text group `n` last captured (failing when it has none).
    Backref(u32, Fold),
    /// `min..=max` characters passing one test (a loop over one character:
    /// no captures inside, never empty), then `pc + 1`.
    RepeatOne {
        /// The test.
        test: CharTest,
        /// At least.
        min: u32,
        /// At most (`ast::UNBOUNDED` for no bound).
        max: u32,
        /// Greedy or lazy (possessive is greedy in an atomic group).
        greed: Greed,
        /// Bytes none of which passes the test, and every character
        /// outside which does (up to three ASCII bytes: `[^%\n]`), so a
        /// greedy run ends at the first of them (`memchr`).
        stops: Option<Box<[u8]>>,
        /// What must follow, when it is known: a backtracking run only
        /// stops where it can.
        next: Follow,
    },
    /// Enter loop `loop_` (reset its count), then its check at `pc + 1`.
    LoopStart(u32),
    /// A loop's decision: iterate (its body is at `pc + 2`) or leave (at
    /// `exit`); a lazy loop that left comes back to `pc + 1` to iterate.
    LoopCheck {
        /// Which loop (its counter).
        loop_: u32,
        /// At least.
        min: u32,
        /// At most.
        max: u32,
        /// Greedy (iterate first) or lazy (leave first).
        lazy: bool,
        /// Where the loop continues when it leaves.
        exit: Pc,
        /// The bytes an iteration can start with, when it cannot be
        /// empty: elsewhere an iteration would fail at once, so it is
        /// not tried.
        body: Option<Box<ByteSet>>,
    },
    /// A lazy loop's iteration past its minimum, starting here; its body
    /// follows.
    LoopIterate(u32),
    /// A possessive loop's decision (CPython's reading of `X{m,n}+`:
    /// each iteration is matched atomically, as many as can be, and none
    /// is given back). Leave (at `exit`) after `max` iterations or an
    /// empty one past the minimum; else start an iteration (at `pc + 1`)
    /// inside an atomic barrier, with, past the minimum, a way out to
    /// `exit - 1` (a `DropBarrier`) should it fail.
    PossessiveCheck {
        /// Which loop (its counter).
        loop_: u32,
        /// The body has leaky saves: a failed iteration gives every
        /// capture slot back its value from before it.
        snapshot: bool,
        /// At least.
        min: u32,
        /// At most.
        max: u32,
        /// Where the loop continues when it leaves.
        exit: Pc,
        /// As `LoopCheck`'s: an iteration that would fail at once is not
        /// tried (a failed iteration leaves no trace, its captures given
        /// back by the snapshot).
        body: Option<Box<ByteSet>>,
    },
    /// Pop the innermost barrier (a possessive iteration that failed).
    DropBarrier,
    /// A look-around: its body runs from `pc + 1` to the `LookEnd` at
    /// `end`; then the match continues at `end + 1`, at the position it
    /// started from.
    LookStart {
        /// Look-behind of this many characters.
        behind: Option<u32>,
        /// Negative.
        negate: bool,
        /// The body's `LookEnd`.
        end: Pc,
        /// A positive look-ahead whose body starts with an unbounded run
        /// of one test that has stop bytes (`(?=[^\n]*\n\Z)`), and
        /// reads and sets no group: having failed at a place, it fails
        /// at every place up to where that run stops, since each tries
        /// a subset of the run's ends and what follows the run does not
        /// depend on where it started (the machine remembers the span).
        memo: bool,
    },
    /// The end of a look-around's body.
    LookEnd,
    /// An atomic group: once its body (to the `AtomicEnd`) matched, the
    /// choices inside it are dropped.
    AtomicStart,
    /// The end of an atomic group's body.
    AtomicEnd,
    /// `(?(group)yes|no)`: `pc + 1` when group `group` has matched, else
    /// `no`.
    IfGroup {
        /// The group.
        group: u32,
        /// The no branch.
        no: Pc,
    },
    /// A match.
    Match,
}

/// The alternatives of a [`Inst::Branch`], each with where it can start.
#[derive(Debug, Clone)]
pub(crate) struct Branches {
    /// Each branch's first instruction, in the pattern's order.
    pub(crate) starts: Vec<Pc>,
    /// For each byte, the branches (a bit each, branch `i` bit `i`) that
    /// can match at a place whose text starts with that byte: those that
    /// can start with its character, or match empty.
    pub(crate) table: Box<[u64; 256]>,
    /// The branches that can match at the text's end (those that can
    /// match empty).
    pub(crate) at_end: u64,
}

impl Branches {
    /// The most branches one table holds.
    pub(crate) const MAX: usize = 64;

    /// The branches that can match at `pos` of `text`.
    #[inline]
    pub(crate) fn viable(&self, text: &[u8], pos: usize) -> u64 {
        match text.get(pos) {
            Some(&b) => self.table[usize::from(b)],
            None => self.at_end,
        }
    }
}

/// What must stand where a greedy `RepeatOne` run ends (through the
/// saves after it), so that giving characters back stops only there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Follow {
    /// Anything.
    Any,
    /// This byte (the first of a byte string).
    Byte(u8),
    /// A byte of this set (what a character test, a run or the branches
    /// of an alternation can start with).
    Set(Box<ByteSet>),
    /// The end of the text (`\Z`).
    End,
    /// The end, or a final newline (`$`).
    EndOrFinalNewline,
    /// The end, or any newline (`(?m)$`).
    LineEnd,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(crate) struct Prog {
    /// The instructions; the search starts at 0.
    pub(crate) insts: Vec<Inst>,
    /// Capture slots (two per group, group 0 included).
    pub(crate) slots: usize,
    /// Loops (counters).
    pub(crate) loops: usize,
    /// Every match starts at the text's start (`\A`, `^` without `(?m)`).
    pub(crate) anchored_start: bool,
    /// The finder of the bytes every match starts with (exact
    /// characters), when there are some.
    pub(crate) prefix_finder: Option<Finder<'static>>,
    /// Every match starts right after these bytes (a look-behind of
    /// exact text first in the pattern: `(?<=#a:)\d+`), and their finder.
    pub(crate) behind: Vec<u8>,
    pub(crate) behind_finder: Option<Finder<'static>>,
    /// Every match starts right after one of these bytes (a look-behind
    /// of one ASCII character first in the pattern: `(?<=[ ;])\d`).
    pub(crate) behind_byte: Option<ByteSet>,
    /// Every match starts with a character whose first byte is in this
    /// set, when known (see `lead`).
    pub(crate) start: Option<ByteSet>,
    /// Its bytes when it has at most three (for `memchr`).
    pub(crate) start_bytes: Option<Box<[u8]>>,
    /// A test CPython's search puts every place's first character to
    /// (see `compile::filter`): a place whose character fails is not
    /// tried, even where the pattern would match.
    pub(crate) filter: Option<CharTest>,
    /// The program starts (after saves) with an unbounded `RepeatOne`
    /// (greedy, lazy or possessive) at this index, and nothing in it
    /// reads a group (no back-reference, no conditional): when a place
    /// fails, so does every place up to where that run stops, since each
    /// tries a subset of the ends the first tried (a possessive run the
    /// same one) and what follows does not depend on where the match
    /// started.
    pub(crate) lead_run: Option<Pc>,
}
