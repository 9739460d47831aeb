//! Haystacks sampled from a pattern: strings the pattern's syntax tree
//! can produce (then mutated), drawn from a seed so that a failing case
//! shrinks with the seed. It compares nothing: the comparison is in
//! `matcher`.

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use regex_syntax::hir::{Class, Hir, HirKind};

use super::data::*;

/// The generator sampling draws from: proptest's own ChaCha, seeded with
/// the case's `seed` (its 8 bytes four times), so that a sampled haystack
/// shrinks with the seed and a seed gives the same haystacks everywhere.
pub(crate) struct Rng(TestRng);

impl Rng {
    fn new(seed: u64) -> Rng {
        let bytes = seed.to_le_bytes();
        let mut key = [0u8; 32];
        for chunk in key.chunks_mut(8) {
            chunk.copy_from_slice(&bytes);
        }
        Rng(TestRng::from_seed(RngAlgorithm::ChaCha, &key))
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// The ASCII bytes a class matches.
pub(crate) fn class_bytes(class: &Class) -> Vec<u8> {
    let mut out = Vec::new();
    let mut add = |lo: u32, hi: u32| {
        for b in lo..=hi.min(127) {
            out.push(u8::try_from(b).expect("ascii"));
        }
    };
    match class {
        Class::Unicode(c) => c
            .ranges()
            .iter()
            .for_each(|r| add(r.start().into(), r.end().into())),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .for_each(|r| add(r.start().into(), r.end().into())),
    }
    out
}

/// Appends to `out` a string `hir` matches (look-around ignored, so `^`
/// in the middle may make it not match, which is fine).
pub(crate) fn sample(hir: &Hir, rng: &mut Rng, out: &mut Vec<u8>) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.extend_from_slice(&lit.0),
        HirKind::Class(class) => {
            let all = class_bytes(class);
            let usual: Vec<u8> = all
                .iter()
                .copied()
                .filter(|b| ALPHABET.contains(b))
                .collect();
            if !usual.is_empty() && rng.below(10) != 0 {
                out.push(rng.pick(&usual));
            } else if !all.is_empty() {
                out.push(rng.pick(&all));
            }
        }
        HirKind::Repetition(rep) => {
            let min = rep.min as usize;
            let extra = rep.max.map_or(6, |max| (max as usize - min).min(6));
            let n = min + rng.below(extra + 1);
            for _ in 0..n {
                sample(&rep.sub, rng, out);
            }
        }
        HirKind::Capture(cap) => sample(&cap.sub, rng, out),
        HirKind::Concat(subs) => subs.iter().for_each(|s| sample(s, rng, out)),
        HirKind::Alternation(subs) => {
            let i = rng.below(subs.len());
            sample(&subs[i], rng, out);
        }
    }
}

/// A few haystacks built from `pattern`: strings it matches, some mutated,
/// some followed by more text or by another match.
pub(crate) fn sampled_hays(pattern: &str, seed: u64) -> Vec<String> {
    let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else {
        return Vec::new();
    };
    let mut rng = Rng::new(seed);
    let mut hays = Vec::new();
    for _ in 0..4 {
        let mut h = Vec::new();
        sample(&hir, &mut rng, &mut h);
        match rng.below(6) {
            // As sampled.
            0 | 1 => {}
            // A few random edits.
            2 | 3 => {
                for _ in 0..=rng.below(3) {
                    let at = rng.below(h.len() + 1);
                    let c = rng.pick(HAY_WEIGHTED);
                    match rng.below(3) {
                        0 => h.insert(at, c),
                        1 if at < h.len() => {
                            h.remove(at);
                        }
                        _ if at < h.len() => h[at] = c,
                        _ => h.push(c),
                    }
                }
            }
            // Another match after it.
            4 => sample(&hir, &mut rng, &mut h),
            // A state fragment or random text after it.
            _ => {
                for _ in 0..rng.below(4) {
                    if rng.below(2) == 0 {
                        h.extend_from_slice(rng.pick(FRAGMENTS).as_bytes());
                    } else {
                        h.push(rng.pick(HAY_WEIGHTED));
                    }
                }
            }
        }
        h.truncate(400);
        hays.push(String::from_utf8(h).expect("ascii"));
    }
    hays
}
