//! What a match of a node starts with: the characters its first one can
//! be, and whether it can be empty; and [`ByteSet`], the same as the first
//! bytes of those characters' UTF-8, which the machine tests at a place
//! without decoding it.
//!
//! `compile` asks it for the search's first filter (the places a match
//! can start at) and for the choices the machine can pass over without
//! trying them: an alternation's branches, a loop's next iteration. It
//! is a superset: zero-width items (assertions, look-arounds) take no
//! character, so what comes after them leads; a back-reference may take
//! anything. It reads the tree only.

use super::ast::{CharTest, Node};
use super::unicode;

/// What a node's matches start with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lead {
    /// The characters a non-empty match can start with (normalized
    /// ranges), or `None` when any can.
    pub(crate) chars: Option<Vec<(u32, u32)>>,
    /// It may match the empty string.
    pub(crate) empty: bool,
}

impl Lead {
    fn nothing() -> Lead {
        Lead {
            chars: Some(Vec::new()),
            empty: true,
        }
    }

    fn any(empty: bool) -> Lead {
        Lead { chars: None, empty }
    }

    /// The union of the characters of both.
    fn with_chars_of(mut self, other: &Lead) -> Lead {
        self.chars = match (self.chars.take(), &other.chars) {
            (Some(mut a), Some(b)) => {
                a.extend_from_slice(b);
                Some(unicode::normalize(a))
            }
            _ => None,
        };
        self
    }

    /// The bytes a place's text can start with where a non-empty match
    /// starts, when they are known and the node cannot match empty.
    pub(crate) fn bytes(&self) -> Option<ByteSet> {
        match &self.chars {
            Some(ranges) if !self.empty => Some(ByteSet::of_ranges(ranges)),
            _ => None,
        }
    }
}

/// The code points a test passes, as ranges.
pub(crate) fn positive(t: &CharTest) -> Vec<(u32, u32)> {
    match t {
        CharTest::Lit(c) => vec![(*c, *c)],
        CharTest::Any => vec![(0, 0x10FFFF)],
        CharTest::NotNewline => vec![(0, 9), (11, 0x10FFFF)],
        CharTest::Set(s) => s.positive_ranges(),
    }
}

/// What `node`'s matches start with.
pub(crate) fn lead(node: &Node) -> Lead {
    match node {
        Node::Empty | Node::Anchor(_) | Node::Look { .. } => Lead::nothing(),
        Node::Char(t) => Lead {
            chars: Some(unicode::normalize(positive(t))),
            empty: false,
        },
        // The text a group took: anything, or nothing.
        Node::Backref(..) => Lead::any(true),
        Node::Seq(items) => {
            let mut out = Lead::nothing();
            for item in items {
                let l = lead(item);
                out = out.with_chars_of(&l);
                if !l.empty {
                    out.empty = false;
                    break;
                }
            }
            out
        }
        Node::Alt(branches) => branches.iter().fold(
            Lead {
                chars: Some(Vec::new()),
                empty: false,
            },
            |acc, b| {
                let l = lead(b);
                let empty = acc.empty || l.empty;
                Lead {
                    empty,
                    ..acc.with_chars_of(&l)
                }
            },
        ),
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => lead(n),
        Node::Repeat { node, min, max, .. } => {
            if *max == 0 {
                return Lead::nothing();
            }
            let l = lead(node);
            Lead {
                empty: l.empty || *min == 0,
                ..l
            }
        }
        Node::Cond { yes, no, .. } => {
            let (y, n) = (lead(yes), lead(no));
            let empty = y.empty || n.empty;
            Lead {
                empty,
                ..y.with_chars_of(&n)
            }
        }
    }
}

/// A set of bytes: the first bytes of the UTF-8 forms of some characters.
/// It never holds a continuation byte (`0x80..=0xBF`), so a byte found in
/// it starts a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    /// The first bytes of the characters in `ranges` (sorted, disjoint).
    pub(crate) fn of_ranges(ranges: &[(u32, u32)]) -> ByteSet {
        let mut set = ByteSet([0; 4]);
        for b in 0..=255u8 {
            // The code points whose UTF-8 starts with `b`.
            let span = match b {
                0x00..=0x7F => Some((u32::from(b), u32::from(b))),
                0xC2..=0xDF => Some((u32::from(b & 0x1F) << 6, (u32::from(b & 0x1F) << 6) | 0x3F)),
                0xE0..=0xEF => Some((
                    (u32::from(b & 0x0F) << 12).max(0x800),
                    (u32::from(b & 0x0F) << 12) | 0xFFF,
                )),
                0xF0..=0xF4 => Some((
                    (u32::from(b & 0x07) << 18).max(0x10000),
                    (u32::from(b & 0x07) << 18) | 0x3FFFF,
                )),
                _ => None,
            };
            if let Some((lo, hi)) = span {
                if ranges.iter().any(|&(a, z)| a <= hi && z >= lo) {
                    set.0[usize::from(b >> 6)] |= 1 << (b & 63);
                }
            }
        }
        set
    }

    /// The set of these bits (byte `b` is bit `b % 64` of word `b / 64`);
    /// the caller sets no continuation byte.
    pub(crate) fn from_words(words: [u64; 4]) -> ByteSet {
        ByteSet(words)
    }

    /// Whether `b` is in the set.
    #[inline]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// The bytes of the set when it has at most three.
    pub(crate) fn few(&self) -> Option<Vec<u8>> {
        let n: u32 = self.0.iter().map(|w| w.count_ones()).sum();
        (n <= 3).then(|| (0..=255u8).filter(|&b| self.contains(b)).collect())
    }

    /// Whether no byte is in both.
    pub(crate) fn is_disjoint(&self, other: &ByteSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == 0)
    }

    /// Whether it holds every byte that can start a character.
    pub(crate) fn is_all(&self) -> bool {
        *self == ByteSet::of_ranges(&[(0, 0x10FFFF)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pyre::parse::parse;

    fn lead_of(pattern: &str) -> Lead {
        lead(&parse(pattern).expect("parses").node)
    }

    #[test]
    fn zero_width_items_pass_the_lead_to_what_follows() {
        let l = lead_of(r"\b(?=x)(?<!y)$x");
        assert_eq!(
            l,
            Lead {
                chars: Some(vec![(0x78, 0x78)]),
                empty: false
            }
        );
        let l = lead_of(r"(?:ab|cd|ef)*+x");
        assert_eq!(
            l.chars,
            Some(vec![(0x61, 0x61), (0x63, 0x63), (0x65, 0x65), (0x78, 0x78)])
        );
        assert!(!l.empty);
        assert!(lead_of(r"a?").empty);
        assert_eq!(lead_of(r"(a)\1b").chars, Some(vec![(0x61, 0x61)]));
        assert_eq!(lead_of(r"(a)?\1b").chars, None);
        assert!(lead_of(r"x{0}").empty);
    }

    #[test]
    fn a_byte_set_holds_lead_bytes_only() {
        let s = ByteSet::of_ranges(&[(0x61, 0x61), (0xE9, 0xE9), (0x10400, 0x10400)]);
        let bytes: Vec<u8> = (0..=255u8).filter(|&b| s.contains(b)).collect();
        assert_eq!(bytes, [0x61, 0xC3, 0xF0]);
        assert_eq!(
            ByteSet::of_ranges(&[(0x61, 0x62)]).few(),
            Some(vec![0x61, 0x62])
        );
        assert!(ByteSet::of_ranges(&[(0, 0x10FFFF)]).is_all());
        assert!((0x80..0xC0).all(|b| !ByteSet::of_ranges(&[(0, 0x10FFFF)]).contains(b)));
    }
}
