//! The backtracking machine's instructions ([`Inst`]), the byte sets its
//! classes compile to ([`ByteSet`]), the hints that say where a run can
//! end ([`Hint`]) and the word lists of prefix-free alternations.
//!
//! It owns the vocabulary that `codegen` writes and `machine` reads; it
//! must not compile or run anything, and knows nothing of patterns.

/// Saves folded into one instruction at most (a group's end and the next
/// group's start are the common pair).
pub(super) const PRE_SAVES: usize = 2;

/// An empty entry of [`Matcher::pre`].
pub(super) const NO_SLOT: u32 = u32::MAX;

/// The set of ASCII bytes one class matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ByteSet(pub(super) [bool; 128]);

impl ByteSet {
    pub(super) fn contains(&self, b: u8) -> bool {
        b < 128 && self.0[usize::from(b)]
    }

    /// The set's one byte, when it has exactly one.
    pub(super) fn only(&self) -> Option<u8> {
        let mut members = (0u8..128).filter(|&b| self.0[usize::from(b)]);
        match (members.next(), members.next()) {
            (Some(b), None) => Some(b),
            _ => None,
        }
    }

    /// The ASCII bytes outside the set, when there are at most three of
    /// them: a run of the class then ends at the first of them (on ASCII
    /// text), which `memchr` finds.
    pub(super) fn stops(&self) -> Option<Vec<u8>> {
        let out: Vec<u8> = (0u8..128).filter(|&b| !self.0[usize::from(b)]).collect();
        (out.len() <= 3).then_some(out)
    }
}

#[derive(Debug, Clone)]
pub(super) enum Inst {
    /// These bytes, in order.
    Lit(Box<[u8]>),
    /// One byte of the set.
    Set(usize),
    /// `min..=max` bytes of the set, a multiple of `step` long (`step`
    /// is above 1 for a loop over a fixed-width run, `(?:[^%\n]{10})*`),
    /// greedy or lazy. `hint` is what the rest needs where the run ends.
    /// `whole`: only the longest run can be followed by the rest (what
    /// follows starts with a byte outside the set), so there is no
    /// choice to come back to.
    Run {
        set: usize,
        min: usize,
        max: usize,
        step: usize,
        greedy: bool,
        hint: Hint,
        whole: bool,
    },
    /// One of the literals of a word list (at most one can match at any
    /// place, so there is nothing to come back to).
    Words(usize),
    /// A column of optional one-byte groups of one set, `([0-9]??)` repeated
    /// `count` times with consecutive group numbers from `group`, followed
    /// by something that cannot start with a byte of the set. The bytes of
    /// the set here, `c` of them, must all be taken (fewer leave one
    /// before what follows; more than `count` cannot be), so there is one
    /// outcome: lazy groups leave the first `count - c` groups empty (the
    /// order a backtracker tries), greedy ones the last. Nothing to come
    /// back to.
    Spread {
        set: usize,
        count: usize,
        group: usize,
        greedy: bool,
    },
    /// Try the first target; on failure, the second.
    Split(usize, usize),
    Jmp(usize),
    /// Record the position in a capture slot.
    Save(usize),
    /// The text group `n` last captured, again (a back-reference; fails
    /// when the group did not take part).
    Backref(usize),
    /// Position 0 only (`^`).
    Start,
    Match,
}

/// What must stand at or past the place where a run ends, for the rest
/// of the pattern to have a chance there: a run ends only at such places.
#[derive(Debug, Clone, Copy)]
pub(super) enum Hint {
    /// Anything.
    None,
    /// This literal (index into the matcher's literals) starts there.
    Lit(usize),
    /// The byte `offset` bytes on is this one.
    Byte { offset: usize, byte: u8 },
    /// The byte `offset` bytes on is in this set (index into the sets).
    Set { offset: usize, set: usize },
}

/// Literals none of which starts another, by first byte.
#[derive(Debug)]
pub(super) struct WordList {
    pub(super) by_first: Vec<Vec<Box<[u8]>>>,
}

impl WordList {
    pub(super) fn new(words: Vec<Box<[u8]>>) -> WordList {
        let mut by_first = vec![Vec::new(); 256];
        for w in words {
            by_first[usize::from(w[0])].push(w);
        }
        WordList { by_first }
    }

    /// The length of the word `hay` starts with, if any.
    pub(super) fn matches(&self, hay: &[u8]) -> Option<usize> {
        let first = *hay.first()?;
        self.by_first[usize::from(first)]
            .iter()
            .find(|w| starts_with(hay, w))
            .map(|w| w.len())
    }
}

/// `hay.starts_with(lit)`, comparing short literals in line (the
/// library call costs more than the comparison for the few bytes of a
/// variable name).
pub(super) fn starts_with(hay: &[u8], lit: &[u8]) -> bool {
    if hay.len() < lit.len() {
        return false;
    }
    if lit.len() > 16 {
        return &hay[..lit.len()] == lit;
    }
    hay.iter().zip(lit).all(|(a, b)| a == b)
}
