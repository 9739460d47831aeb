//! A Python pattern, parsed: the tree `parse` builds and `compile` and
//! `facts` read, with every flag already applied (a case-insensitive
//! literal is the set of characters it matches, `$` is the assertion it
//! is under the flags in force, `\w` knows its mode).
//!
//! It owns the tree's types and the widths Python computes for
//! look-behind; it parses nothing and runs nothing.

use super::unicode::{self, in_ranges};

/// What `{m,n}` means by "no upper bound", and the cap of widths (Python's
/// `MAXREPEAT`).
pub(crate) const UNBOUNDED: u32 = u32::MAX;

/// A test of one character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CharTest {
    /// Exactly this code point.
    Lit(u32),
    /// Any character but `\n` (`.`).
    NotNewline,
    /// Any character (`.` under `(?s)`).
    Any,
    /// A set of code points.
    Set(CharSet),
}

impl CharTest {
    /// Whether `c` passes.
    #[inline]
    pub(crate) fn matches(&self, c: u32) -> bool {
        match self {
            CharTest::Lit(l) => *l == c,
            CharTest::NotNewline => c != u32::from(b'\n'),
            CharTest::Any => true,
            CharTest::Set(s) => s.contains(c),
        }
    }
}

/// A set of code points: sorted, disjoint ranges (a class's items, with
/// case folding applied), possibly negated, with a bitmap for ASCII.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CharSet {
    ranges: Vec<(u32, u32)>,
    negated: bool,
    ascii: [u64; 2],
    /// The set CPython's search tests a text's characters against when
    /// this class starts the pattern, where it differs: the class's
    /// categories read in the global ASCII or Unicode mode instead of
    /// the scoped one (`(?a:[^\s])` in a Unicode pattern; measured on
    /// CPython 3.11, see `compile::filter`).
    pub(crate) search: Option<Box<CharSet>>,
}

impl CharSet {
    /// The set of `ranges` (normalized here), or its complement when
    /// `negated`.
    pub(crate) fn new(ranges: Vec<(u32, u32)>, negated: bool) -> CharSet {
        let ranges = unicode::normalize(ranges);
        let mut ascii = [0u64; 2];
        for c in 0..128u32 {
            if in_ranges(&ranges, c) != negated {
                ascii[(c / 64) as usize] |= 1 << (c % 64);
            }
        }
        CharSet {
            ranges,
            negated,
            ascii,
            search: None,
        }
    }

    /// Whether `c` is in the set.
    #[inline]
    pub(crate) fn contains(&self, c: u32) -> bool {
        if c < 128 {
            return self.ascii[(c / 64) as usize] & (1 << (c % 64)) != 0;
        }
        in_ranges(&self.ranges, c) != self.negated
    }

    /// Whether every ASCII character is in the set (`[\s\S]`).
    pub(crate) fn has_every_ascii(&self) -> bool {
        self.ascii == [u64::MAX; 2]
    }

    /// The ranges of the code points in the set, complemented if
    /// negated.
    pub(crate) fn positive_ranges(&self) -> Vec<(u32, u32)> {
        if self.negated {
            unicode::complement(&self.ranges)
        } else {
            self.ranges.clone()
        }
    }
}

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// `\A`, and `^` without `(?m)`: the start of the text.
    Start,
    /// `^` under `(?m)`: the start, or after a `\n`.
    LineStart,
    /// `\Z`: the end of the text.
    End,
    /// `$` without `(?m)`: the end, or before a `\n` that ends the text.
    EndOrFinalNewline,
    /// `$` under `(?m)`: the end, or before any `\n`.
    LineEnd,
    /// `\b` (`ascii`: under `(?a)`, word characters are ASCII ones).
    WordBoundary {
        /// ASCII mode.
        ascii: bool,
    },
    /// `\B`.
    NotWordBoundary {
        /// ASCII mode.
        ascii: bool,
    },
}

/// How a quantifier takes its repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Greed {
    /// As many as it can, giving back on failure (`*`).
    Greedy,
    /// As few as it can (`*?`).
    Lazy,
    /// As many as it can, giving nothing back (`*+`).
    Possessive,
}

/// How a back-reference compares characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Exactly.
    Exact,
    /// By simple lowercase (`(?i)`), Unicode or ASCII (`(?ai)`).
    Lower {
        /// ASCII mode.
        ascii: bool,
    },
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One character.
    Char(CharTest),
    /// One after another.
    Seq(Vec<Node>),
    /// The first alternative that leads to a match.
    Alt(Vec<Node>),
    /// A capturing group (1-based).
    Group(usize, Box<Node>),
    /// `node{min,max}` (`max` [`UNBOUNDED`] for none).
    Repeat {
        /// What repeats.
        node: Box<Node>,
        /// At least.
        min: u32,
        /// At most.
        max: u32,
        /// Greedy, lazy or possessive.
        greed: Greed,
    },
    /// A zero-width assertion.
    Anchor(Anchor),
    /// `\N`, `(?P=name)`: the text group `N` last captured.
    Backref(usize, Fold),
    /// Look-ahead or look-behind (`behind` with its fixed width in
    /// characters).
    Look {
        /// Look-behind, of this many characters.
        behind: Option<u32>,
        /// `(?!...)`, `(?<!...)`.
        negate: bool,
        /// What must (not) match.
        node: Box<Node>,
    },
    /// `(?>...)`: once matched, never backtracked into.
    Atomic(Box<Node>),
    /// `(?flags:...)`: its content (the flags are applied already). Kept
    /// as a node for CPython's search filter (see `compile::filter`).
    Scoped(Box<Node>),
    /// `(?(group)yes|no)`.
    Cond {
        /// The group asked about.
        group: usize,
        /// Taken when it has matched.
        yes: Box<Node>,
        /// Taken otherwise.
        no: Box<Node>,
    },
}

/// The fewest and most characters a node can match, as Python computes
/// them to check that a look-behind has a fixed width (sums and
/// products saturate at [`UNBOUNDED`]); `groups[n]` is group `n`'s width
/// (a back-reference has its group's).
pub(crate) fn width(node: &Node, groups: &[(u32, u32)]) -> (u32, u32) {
    match node {
        Node::Empty | Node::Anchor(_) | Node::Look { .. } => (0, 0),
        Node::Char(_) => (1, 1),
        Node::Seq(items) => items.iter().fold((0, 0), |(lo, hi), n| {
            let (a, b) = width(n, groups);
            (lo.saturating_add(a), hi.saturating_add(b))
        }),
        Node::Alt(items) => {
            let ws: Vec<(u32, u32)> = items.iter().map(|n| width(n, groups)).collect();
            (
                ws.iter().map(|w| w.0).min().unwrap_or(0),
                ws.iter().map(|w| w.1).max().unwrap_or(0),
            )
        }
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => width(n, groups),
        Node::Repeat { node, min, max, .. } => {
            let (a, b) = width(node, groups);
            (
                u32::try_from(u64::from(a) * u64::from(*min)).unwrap_or(UNBOUNDED),
                u32::try_from(u64::from(b) * u64::from(*max)).unwrap_or(UNBOUNDED),
            )
        }
        Node::Backref(g, _) => groups.get(*g).copied().unwrap_or((0, UNBOUNDED)),
        Node::Cond { yes, no, .. } => {
            let (a, b) = (width(yes, groups), width(no, groups));
            (a.0.min(b.0), a.1.max(b.1))
        }
    }
}

/// Whether a node can match the empty string (a superset: a
/// back-reference or a look-around counts as able).
pub(crate) fn can_be_empty(node: &Node) -> bool {
    match node {
        Node::Empty | Node::Anchor(_) | Node::Look { .. } | Node::Backref(..) => true,
        Node::Char(_) => false,
        Node::Seq(items) => items.iter().all(can_be_empty),
        Node::Alt(items) => items.iter().any(can_be_empty),
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => can_be_empty(n),
        Node::Repeat { node, min, .. } => *min == 0 || can_be_empty(node),
        Node::Cond { yes, no, .. } => can_be_empty(yes) || can_be_empty(no),
    }
}

/// Calls `f` with each capturing group inside `node` (its number and its
/// content), outer groups before the groups they hold.
pub(crate) fn visit_groups<'n>(node: &'n Node, f: &mut impl FnMut(usize, &'n Node)) {
    match node {
        Node::Group(i, n) => {
            f(*i, n);
            visit_groups(n, f);
        }
        Node::Seq(items) | Node::Alt(items) => items.iter().for_each(|n| visit_groups(n, f)),
        Node::Repeat { node, .. }
        | Node::Atomic(node)
        | Node::Scoped(node)
        | Node::Look { node, .. } => visit_groups(node, f),
        Node::Cond { yes, no, .. } => {
            visit_groups(yes, f);
            visit_groups(no, f);
        }
        Node::Empty | Node::Char(_) | Node::Anchor(_) | Node::Backref(..) => {}
    }
}
