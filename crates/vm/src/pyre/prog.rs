//! The backtracking machine's program: its instructions and the facts
//! the search loop uses to skip places.
//!
//! It owns the instruction set (what each instruction does is written on
//! it) and nothing else: `compile` writes programs, `vm` runs them.

use super::ast::{Anchor, CharTest, Fold, Greed};

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

/// What must stand where a greedy `RepeatOne` run ends (through the
/// saves after it), so that giving characters back stops only there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Follow {
    /// Anything.
    Any,
    /// This byte (the first of a byte string).
    Byte(u8),
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
    /// Every match starts with these bytes (exact characters).
    pub(crate) prefix: Vec<u8>,
    /// Every match starts right after these bytes (a look-behind of
    /// exact text first in the pattern: `(?<=#a:)\d+`).
    pub(crate) behind: Vec<u8>,
    /// Every match starts with a character passing this test, when known.
    pub(crate) first: Option<CharTest>,
    /// A test CPython's search puts every place's first character to
    /// (see `compile::filter`): a place whose character fails is not
    /// tried, even where the pattern would match.
    pub(crate) filter: Option<CharTest>,
    /// The program starts (after saves) with a greedy unbounded
    /// `RepeatOne` at this index, and nothing in it reads a group
    /// (no back-reference, no conditional): when a place fails, so does
    /// every place up to where that run stops, since each tries a subset
    /// of the ends the first tried and what follows does not depend on
    /// where the match started.
    pub(crate) lead_run: Option<Pc>,
}
