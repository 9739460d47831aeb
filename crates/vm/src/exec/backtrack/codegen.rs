//! The compiler: a pattern's syntax tree (from `regex-syntax`, with
//! back-references as markers, from its `Reading`) to a program of
//! [`Inst`]s, each run told what must follow it (its hint, and whether it
//! ends alone), saves folded into the instruction after them.
//!
//! It owns the decision to decline a pattern (returning `None`): anything
//! it cannot compile exactly, or a program too large or with too many
//! choice points. It must not search text; what a pattern can match it
//! asks of its `Reading`, never of the pattern's characters.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use super::inst::{ByteSet, Hint, Inst, WordList, NO_SLOT, PRE_SAVES};
use super::Matcher;
use crate::exec::reading::{split_marks, Reading};
use crate::ranks::ByteRanks;

/// Instructions above this count are not worth a backtracker: decline.
const MAX_PROGRAM: usize = 4_000;

/// Choice points above this count (see [`choices`]) make backtracking
/// slower than the `regex` crate's automata: decline.
const MAX_CHOICES: usize = 4;

struct Builder {
    /// Which bytes are common in the states searched (a poor hint).
    ranks: ByteRanks,
    prog: Vec<Inst>,
    sets: Vec<ByteSet>,
    lits: Vec<Box<[u8]>>,
    words: Vec<WordList>,
}

/// The branches of an alternation when each is a non-empty literal and
/// none starts another: then at most one branch can match at a place, and
/// which one does not depend on the order of the branches.
fn word_list(subs: &[Hir]) -> Option<Vec<Box<[u8]>>> {
    let words: Vec<Box<[u8]>> = subs
        .iter()
        .map(|h| match h.kind() {
            // A non-ASCII byte may be a back-reference's marker.
            HirKind::Literal(lit) if !lit.0.is_empty() && lit.0.is_ascii() => Some(lit.0.clone()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    prefix_free(&words).then_some(words)
}

/// Whether no word starts another (nor equals it). In sorted order a word
/// that starts others comes right before the first of them, so only
/// neighbours are compared: alternations of hundreds of words are common
/// in a deep program, and comparing every pair of them was a tenth of the
/// time its executor took to build.
fn prefix_free(words: &[Box<[u8]>]) -> bool {
    let mut sorted: Vec<&[u8]> = words.iter().map(|w| &w[..]).collect();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| !w[1].starts_with(w[0]))
}

impl Builder {
    fn push(&mut self, i: Inst) -> Option<usize> {
        if self.prog.len() >= MAX_PROGRAM {
            return None;
        }
        self.prog.push(i);
        Some(self.prog.len() - 1)
    }

    fn set(&mut self, s: ByteSet) -> usize {
        if let Some(i) = self.sets.iter().position(|t| *t == s) {
            return i;
        }
        self.sets.push(s);
        self.sets.len() - 1
    }

    /// The hint of the run at `pc`, from the straight stretch of
    /// fixed-width instructions after it: a literal of two bytes or more
    /// right at its end, else the last uncommon byte the stretch tests,
    /// else the first test.
    fn hint_after(&mut self, pc: usize) -> Hint {
        let (mut offset, mut rare, mut first) = (0usize, None, None);
        for inst in &self.prog[pc + 1..] {
            let mut test = |at: usize, hint: Hint, byte: Option<u8>| {
                if byte.is_some_and(|b| !self.ranks.is_common(b)) {
                    rare = Some(hint);
                }
                first.get_or_insert((at, hint));
            };
            match inst {
                Inst::Save(_) => {}
                Inst::Lit(bytes) if offset == 0 && bytes.len() >= 2 => {
                    self.lits.push(bytes.clone());
                    return Hint::Lit(self.lits.len() - 1);
                }
                Inst::Lit(bytes) => {
                    for (i, &byte) in bytes.iter().enumerate() {
                        let at = offset + i;
                        test(at, Hint::Byte { offset: at, byte }, Some(byte));
                    }
                    offset += bytes.len();
                }
                Inst::Set(s) => {
                    let set = &self.sets[*s];
                    let only = set.only();
                    let hint = match only {
                        Some(byte) => Hint::Byte { offset, byte },
                        None => Hint::Set { offset, set: *s },
                    };
                    test(offset, hint, only);
                    offset += 1;
                }
                Inst::Run { min, max, .. } if min == max => offset += min,
                _ => break,
            }
        }
        rare.or(first.map(|(_, h)| h)).unwrap_or(Hint::None)
    }

    /// The bytes the program after the instruction at `pc` can start
    /// with, when that is known from a straight stretch of instructions.
    fn first_after(&self, pc: usize) -> Option<ByteSet> {
        let mut out = [false; 128];
        for inst in &self.prog[pc + 1..] {
            match inst {
                Inst::Save(_) => {}
                Inst::Lit(bytes) => {
                    let first = usize::from(*bytes.first()?);
                    if first < 128 {
                        out[first] = true;
                    }
                    return Some(ByteSet(out));
                }
                Inst::Set(s) => return Some(self.sets[*s].clone()),
                Inst::Run { set, min, .. } if *min > 0 => return Some(self.sets[*set].clone()),
                Inst::Words(w) => {
                    for (first, words) in self.words[*w].by_first.iter().enumerate().take(128) {
                        out[first] = !words.is_empty();
                    }
                    return Some(ByteSet(out));
                }
                _ => return None,
            }
        }
        None
    }

    /// Compiles `subs[i..]` as a [`Inst::Spread`] when it starts with a
    /// column of two or more optional one-byte groups of one set and one
    /// greediness, numbered in a row, followed in `subs` by something whose
    /// first byte is outside the set: returns where the column ends.
    /// `Some(None)`: no such column here.
    fn spread(&mut self, subs: &[Hir], i: usize) -> Option<Option<usize>> {
        let Some((group, set, greedy)) = optional_byte_group(&subs[i]) else {
            return Some(None);
        };
        let mut end = i + 1;
        while let Some((g, s, gr)) = subs.get(end).and_then(optional_byte_group) {
            if g != group + (end - i) || s != set || gr != greedy {
                break;
            }
            end += 1;
        }
        let disjoint = subs
            .get(end)
            .and_then(first_bytes)
            .is_some_and(|first| (0..128).all(|c| !(first.contains(c) && set.contains(c))));
        if end - i < 2 || !disjoint {
            return Some(None);
        }
        let set = self.set(set);
        self.push(Inst::Spread {
            set,
            count: end - i,
            group,
            greedy,
        })?;
        Some(Some(end))
    }

    fn compile(&mut self, hir: &Hir) -> Option<()> {
        match hir.kind() {
            HirKind::Empty => {}
            HirKind::Literal(lit) => {
                for part in split_marks(&lit.0) {
                    match part {
                        Ok(bytes) => self.push(Inst::Lit(bytes.into())),
                        Err(group) => self.push(Inst::Backref(group)),
                    }?;
                }
            }
            HirKind::Class(class) => {
                let s = self.set(byte_set(class));
                self.push(Inst::Set(s))?;
            }
            HirKind::Look(Look::Start) => {
                self.push(Inst::Start)?;
            }
            HirKind::Look(_) => return None,
            HirKind::Capture(cap) => {
                let slot = 2 * usize::try_from(cap.index).ok()?;
                self.push(Inst::Save(slot))?;
                self.compile(&cap.sub)?;
                self.push(Inst::Save(slot + 1))?;
            }
            HirKind::Concat(subs) => {
                let mut i = 0;
                while i < subs.len() {
                    if let Some(end) = self.spread(subs, i)? {
                        i = end;
                        continue;
                    }
                    self.compile(&subs[i])?;
                    i += 1;
                }
            }
            HirKind::Alternation(subs) => {
                if let Some(words) = word_list(subs) {
                    self.words.push(WordList::new(words));
                    self.push(Inst::Words(self.words.len() - 1))?;
                    return Some(());
                }
                let mut jumps = Vec::new();
                for (i, s) in subs.iter().enumerate() {
                    if i + 1 < subs.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.compile(s)?;
                        jumps.push(self.push(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, next);
                    } else {
                        self.compile(s)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.prog[j] = Inst::Jmp(end);
                }
            }
            HirKind::Repetition(rep) => {
                let min = usize::try_from(rep.min).ok()?;
                let max = rep
                    .max
                    .map(|m| usize::try_from(m).ok())
                    .unwrap_or(Some(usize::MAX))?;
                if let Some(set) = single_byte(&rep.sub) {
                    let set = self.set(set);
                    self.push(Inst::Run {
                        set,
                        min,
                        max,
                        step: 1,
                        greedy: rep.greedy,
                        hint: Hint::None,
                        whole: false,
                    })?;
                    return Some(());
                }
                // A loop over a fixed-width run of one class, with no
                // group inside, is a run whose length is a multiple of the
                // width: `k` turns of the loop are `k * width` bytes.
                if let HirKind::Repetition(inner) = rep.sub.kind() {
                    if let (Some(set), Some(width)) = (single_byte(&inner.sub), inner.max) {
                        let width = usize::try_from(width).ok()?;
                        if inner.min == inner.max.unwrap_or(0) && width > 1 {
                            let set = self.set(set);
                            self.push(Inst::Run {
                                set,
                                min: min.checked_mul(width)?,
                                max: max.saturating_mul(width),
                                step: width,
                                greedy: rep.greedy,
                                hint: Hint::None,
                                whole: false,
                            })?;
                            return Some(());
                        }
                    }
                }
                // Loops over a body that can match nothing are where
                // backtracking engines disagree: leave them to `regex`.
                let body_can_be_empty = rep.sub.properties().minimum_len() == Some(0);
                if body_can_be_empty && max > 1 {
                    return None;
                }
                for _ in 0..min {
                    self.compile(&rep.sub)?;
                }
                if max == usize::MAX {
                    let top = self.push(Inst::Split(0, 0))?;
                    self.compile(&rep.sub)?;
                    self.push(Inst::Jmp(top))?;
                    let end = self.prog.len();
                    self.prog[top] = branch(rep.greedy, top + 1, end);
                } else {
                    let mut splits = Vec::new();
                    for _ in min..max {
                        splits.push(self.push(Inst::Split(0, 0))?);
                        self.compile(&rep.sub)?;
                    }
                    let end = self.prog.len();
                    for s in splits {
                        self.prog[s] = branch(rep.greedy, s + 1, end);
                    }
                }
            }
        }
        Some(())
    }
}

fn branch(greedy: bool, body: usize, exit: usize) -> Inst {
    if greedy {
        Inst::Split(body, exit)
    } else {
        Inst::Split(exit, body)
    }
}

/// The ASCII part of a class.
fn byte_set(class: &Class) -> ByteSet {
    let mut set = [false; 128];
    let mut add = |lo: u32, hi: u32| {
        for b in lo..=hi.min(127) {
            set[b as usize] = true;
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
    ByteSet(set)
}

/// `(x?)` or `(x??)` with `x` one byte of a set: the group's number, the
/// set, and whether it is greedy.
fn optional_byte_group(hir: &Hir) -> Option<(usize, ByteSet, bool)> {
    let HirKind::Capture(cap) = hir.kind() else {
        return None;
    };
    let HirKind::Repetition(rep) = cap.sub.kind() else {
        return None;
    };
    if rep.min != 0 || rep.max != Some(1) {
        return None;
    }
    let set = single_byte(&rep.sub)?;
    Some((usize::try_from(cap.index).ok()?, set, rep.greedy))
}

/// The bytes a sub-pattern's matches can start with, for a literal or a
/// class (seen through a group); `None` for anything else.
fn first_bytes(hir: &Hir) -> Option<ByteSet> {
    match hir.kind() {
        HirKind::Literal(lit) => {
            // A non-ASCII byte may be a back-reference's marker: unknown.
            let first = usize::from(*lit.0.first()?);
            let mut set = [false; 128];
            *set.get_mut(first)? = true;
            Some(ByteSet(set))
        }
        HirKind::Class(c) => Some(byte_set(c)),
        HirKind::Capture(cap) => first_bytes(&cap.sub),
        _ => None,
    }
}

/// The set of a one-byte sub-pattern (a class or a one-byte literal).
fn single_byte(hir: &Hir) -> Option<ByteSet> {
    match hir.kind() {
        HirKind::Class(c) => Some(byte_set(c)),
        HirKind::Literal(lit) if lit.0.len() == 1 && lit.0[0] < 128 => {
            let mut set = [false; 128];
            set[usize::from(lit.0[0])] = true;
            Some(ByteSet(set))
        }
        _ => None,
    }
}

/// The highest group index in `hir` (0 without groups).
fn last_group(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Capture(cap) => {
            usize::try_from(cap.index).map_or(usize::MAX, |i| i.max(last_group(&cap.sub)))
        }
        HirKind::Repetition(rep) => last_group(&rep.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().map(last_group).max().unwrap_or(0)
        }
        _ => 0,
    }
}

impl Matcher {
    /// Compiles `pattern`, or `None` when it is outside what this matcher
    /// handles exactly (see the module documentation); its hints and
    /// substring searches are tuned to the state grammar alone
    /// ([`ByteRanks::grammar`]).
    pub fn new(pattern: &str) -> Option<Matcher> {
        Matcher::with_ranks(pattern, ByteRanks::grammar())
    }

    /// [`Matcher::new`], tuned to states whose bytes are as common as
    /// `ranks` says: a run's end is hinted by the rarest byte that must
    /// follow it (the matches are the same whatever the table).
    pub fn with_ranks(pattern: &str, ranks: ByteRanks) -> Option<Matcher> {
        Matcher::of_reading(&Reading::new(pattern), ranks)
    }

    /// [`Matcher::with_ranks`] of the pattern `reading` read.
    pub(crate) fn of_reading(reading: &Reading, ranks: ByteRanks) -> Option<Matcher> {
        // Back-references are markers in literals (see `Reading::marked`);
        // what the pattern can match is read from the superset.
        let hir = reading.marked()?;
        let superset = reading.superset()?;
        if superset.properties().minimum_len() == Some(0) {
            return None;
        }
        // A group the syntax tree dropped (`(a){0}`) still has its number:
        // the slots are counted from the pattern text, and each group saves
        // into the slots of its own index, so a dropped group's slots stay
        // unset (it did not take part), as the `regex` crate reports. When
        // the last group is dropped the `regex` crate counts fewer groups
        // than the text has: leave such patterns to it.
        let groups = reading.portable()?.groups;
        if last_group(hir) != groups {
            return None;
        }
        let slots = 2 * (groups + 1);
        let mut b = Builder {
            ranks,
            prog: Vec::new(),
            sets: Vec::new(),
            lits: Vec::new(),
            words: Vec::new(),
        };
        b.compile(hir)?;
        b.push(Inst::Match)?;
        for pc in 0..b.prog.len() {
            if let Inst::Run { set, .. } = b.prog[pc] {
                let learned = b.hint_after(pc);
                let ends_alone = b.first_after(pc).is_some_and(|first| {
                    (0..128).all(|c| !(first.contains(c) && b.sets[set].contains(c)))
                });
                if let Inst::Run { hint, whole, .. } = &mut b.prog[pc] {
                    *hint = learned;
                    *whole = ends_alone;
                }
            }
        }
        if choices(&b.prog) > MAX_CHOICES {
            return None;
        }
        let (prog, pre) = fold_saves(b.prog);
        let stops: Vec<Option<Vec<u8>>> = b.sets.iter().map(ByteSet::stops).collect();
        let piece_sets = stops.iter().map(|s| s.as_deref() == Some(b"%")).collect();
        let lits = b
            .lits
            .iter()
            .map(|l| (l[0], ranks.finder(&l[..])))
            .collect();
        Some(Matcher {
            straight: !prog
                .iter()
                .any(|i| matches!(i, Inst::Split(..) | Inst::Jmp(_))),
            single: prog.iter().all(|i| match *i {
                Inst::Split(..) | Inst::Jmp(_) => false,
                Inst::Run {
                    min, max, whole, ..
                } => whole || min == max,
                _ => true,
            }),
            prog,
            pre,
            sets: b.sets,
            stops,
            piece_sets,
            lits,
            words: b.words,
            slots,
        })
    }
}

/// Moves each `Save` into the [`Matcher::pre`] entry of the instruction
/// after it, when no jump lands on that instruction (a jump there must
/// not record the save) and the entry has room; jump targets are
/// renumbered.
fn fold_saves(prog: Vec<Inst>) -> (Vec<Inst>, Vec<[u32; PRE_SAVES]>) {
    let mut target = vec![false; prog.len() + 1];
    for inst in &prog {
        match *inst {
            Inst::Split(a, b) => {
                target[a] = true;
                target[b] = true;
            }
            Inst::Jmp(a) => target[a] = true,
            _ => {}
        }
    }
    let (mut out, mut pre) = (
        Vec::with_capacity(prog.len()),
        Vec::with_capacity(prog.len()),
    );
    // Where each old instruction went; folded saves go where the
    // instruction that took them went.
    let mut new_index = vec![0usize; prog.len() + 1];
    let mut pending: Vec<(usize, u32)> = Vec::new();
    for (pc, inst) in prog.into_iter().enumerate() {
        let full = pending.len() == PRE_SAVES && matches!(inst, Inst::Save(_));
        if target[pc] || full {
            // A jump lands here (the saves before must stay instructions
            // of their own), or there is no room for one more.
            for (old, slot) in pending.drain(..) {
                new_index[old] = out.len();
                out.push(Inst::Save(slot as usize));
                pre.push([NO_SLOT; PRE_SAVES]);
            }
        }
        if let Inst::Save(slot) = inst {
            if let Ok(slot) = u32::try_from(slot) {
                pending.push((pc, slot));
                continue;
            }
        }
        let mut entry = [NO_SLOT; PRE_SAVES];
        for (i, (old, slot)) in pending.drain(..).enumerate() {
            new_index[old] = out.len();
            entry[i] = slot;
        }
        new_index[pc] = out.len();
        out.push(inst);
        pre.push(entry);
    }
    new_index[target.len() - 1] = out.len();
    for inst in &mut out {
        match inst {
            Inst::Split(a, b) => {
                *a = new_index[*a];
                *b = new_index[*b];
            }
            Inst::Jmp(a) => *a = new_index[*a],
            _ => {}
        }
    }
    (out, pre)
}

/// How many places a match can have to come back to: each branch point,
/// and each run of variable length that knows nothing of what follows it
/// (a last greedy run, followed only by the end, never comes back).
fn choices(prog: &[Inst]) -> usize {
    prog.iter()
        .enumerate()
        .filter(|&(pc, inst)| match *inst {
            Inst::Split(..) => true,
            Inst::Run {
                min,
                max,
                greedy,
                hint: Hint::None,
                whole: false,
                ..
            } if min < max => {
                let last = prog[pc + 1..]
                    .iter()
                    .all(|i| matches!(i, Inst::Save(_) | Inst::Match));
                !(greedy && last)
            }
            _ => false,
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::prefix_free;

    #[test]
    fn a_word_list_is_prefix_free_as_every_pair_says() {
        let every_pair = |words: &[Box<[u8]>]| {
            words.iter().enumerate().all(|(i, a)| {
                words
                    .iter()
                    .enumerate()
                    .all(|(j, b)| i == j || !b.starts_with(a))
            })
        };
        for list in [
            &["ab", "ac", "b"][..],
            &["ab", "a"],
            &["b", "abc", "ab"],
            &["x", "x"],
            &["abc", "abd", "abe", "ab"],
            &["ba", "ab", "bb", "aa"],
            &["a"],
        ] {
            let words: Vec<Box<[u8]>> = list.iter().map(|w| w.as_bytes().into()).collect();
            assert_eq!(prefix_free(&words), every_pair(&words), "{list:?}");
        }
        let free: Vec<Box<[u8]>> = ["ab", "ac", "b"]
            .iter()
            .map(|w| w.as_bytes().into())
            .collect();
        assert!(prefix_free(&free));
    }
}
