//! How common each byte is in the states a program works on.
//!
//! This module owns one table, [`ByteRanks`], and the substring finders
//! tuned by it. `memchr`'s substring search looks first for the rarest
//! bytes of a needle, by a built-in table tuned for prose, where `#` and
//! `:` are rare; and our matcher (`backtrack`) hints a run's end by the
//! rarest byte of what follows it. Both ask this table instead. The
//! default, [`ByteRanks::grammar`], knows only the state grammar (see
//! `state`): every variable line holds `\n`, `#` and `:`, and names are
//! made of ASCII letters, digits and `_`. A program that knows its states
//! better supplies a table measured on one of them
//! ([`ByteRanks::measure`], through [`crate::Config::byte_ranks`]). It
//! reads no pattern and runs nothing; it knows nothing of what a program
//! computes.

use memchr::arch::all::packedpair::HeuristicFrequencyRank;
use memchr::memmem::{Finder, FinderBuilder};

/// Bytes ranked at or above this are common: a poor hint of where a
/// match can be.
const COMMON: u8 = 128;

/// A rank (0 rarest, 255 most common) per byte value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ByteRanks([u8; 256]);

impl std::fmt::Debug for ByteRanks {
    /// The common bytes, the rest being rare.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let common: String = (0..=255u8)
            .filter(|&b| self.is_common(b))
            .map(|b| char::from(b).escape_default().to_string())
            .collect();
        write!(f, "ByteRanks {{ common: {common:?} }}")
    }
}

impl Default for ByteRanks {
    fn default() -> ByteRanks {
        ByteRanks::grammar()
    }
}

impl ByteRanks {
    /// The ranks the state grammar alone implies: the line and variable
    /// marks (`\n`, `#`, `:`) most common, then the bytes of names
    /// (`[A-Za-z0-9_]`), then thread starts (`%`), anything else rare.
    pub fn grammar() -> ByteRanks {
        let mut ranks = [20u8; 256];
        for b in 0..=255u8 {
            ranks[usize::from(b)] = match b {
                _ if crate::state::LINE_BYTES.contains(&b) => 255,
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => 200,
                b'%' => 60,
                _ => 20,
            };
        }
        ByteRanks(ranks)
    }

    /// The ranks of the bytes of `sample` (a state the program makes):
    /// the most frequent byte 255, one that makes up a 256th of the
    /// sample or more common (at least 128), bytes it lacks 0. An empty
    /// sample gives [`ByteRanks::grammar`].
    pub fn measure(sample: &str) -> ByteRanks {
        let mut counts = [0usize; 256];
        for &b in sample.as_bytes() {
            counts[usize::from(b)] += 1;
        }
        let max = counts.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return ByteRanks::grammar();
        }
        // Logarithmic: a byte 256 times rarer than the most frequent is at
        // the middle of the scale (shares of a sample span many orders).
        let scale = |n: usize| -> f64 { (n as f64).ln_1p() };
        let (top, threshold) = (scale(max), scale(sample.len() / 256));
        let mut ranks = [0u8; 256];
        for (rank, &n) in ranks.iter_mut().zip(&counts) {
            if n == 0 {
                continue;
            }
            let x = scale(n);
            *rank = if x >= threshold && threshold < top {
                // 128..=255 over [threshold, top].
                128 + ((x - threshold) / (top - threshold) * 127.0).round() as u8
            } else if x >= threshold {
                255
            } else {
                // 1..=127 below it.
                1 + (x / threshold.max(f64::MIN_POSITIVE) * 126.0).round() as u8
            };
        }
        ByteRanks(ranks)
    }

    /// The rank of `byte` (0 rarest, 255 most common).
    pub fn rank(&self, byte: u8) -> u8 {
        self.0[usize::from(byte)]
    }

    /// Whether `byte` is common: a poor hint.
    pub fn is_common(&self, byte: u8) -> bool {
        self.rank(byte) >= COMMON
    }

    /// A substring finder for `needle`, looking first for its rarest
    /// bytes by this table.
    pub fn finder(&self, needle: &[u8]) -> Finder<'static> {
        FinderBuilder::new().build_forward_with_ranker_owned(*self, needle)
    }
}

impl HeuristicFrequencyRank for ByteRanks {
    fn rank(&self, byte: u8) -> u8 {
        ByteRanks::rank(self, byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_knows_marks_and_names_only() {
        let r = ByteRanks::grammar();
        for b in b"\n#:azAZ09_" {
            assert!(r.is_common(*b), "{}", char::from(*b));
        }
        for b in b"%.,*@`/|" {
            assert!(!r.is_common(*b), "{}", char::from(*b));
        }
        assert!(r.rank(b'#') > r.rank(b'a') && r.rank(b'a') > r.rank(b'%'));
    }

    #[test]
    fn a_measured_table_follows_the_sample() {
        let sample = format!("{}{}{}", ".".repeat(600), "#x:\n".repeat(100), "*");
        let r = ByteRanks::measure(&sample);
        assert_eq!(r.rank(b'.'), 255);
        assert!(r.is_common(b'#') && r.is_common(b'\n'));
        assert!(!r.is_common(b'*') && r.rank(b'*') > 0);
        assert_eq!(r.rank(b'Q'), 0);
        assert!(r.rank(b'.') > r.rank(b'#') && r.rank(b'#') > r.rank(b'*'));
        assert_eq!(ByteRanks::measure(""), ByteRanks::grammar());
    }

    #[test]
    fn finders_find_the_same_whatever_the_table() {
        let hay = b"%%\n#stack:\n#z:..p..*\n#t:b4\n";
        for ranks in [ByteRanks::grammar(), ByteRanks::measure("....####")] {
            assert_eq!(ranks.finder(b"#t:").find(hay), Some(21));
            assert_eq!(ranks.finder(b"#q:").find(hay), None);
        }
    }
}
