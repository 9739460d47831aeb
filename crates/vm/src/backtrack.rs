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
//! only the state's byte frequencies, to tune its substring search), and it
//! declines (returns `None` from [`Matcher::new`]) anything it does not
//! handle exactly: look-around other than `^`, loops whose
//! body can match the empty string, and programs that would be large. It
//! reads bytes, so it is exact only on ASCII text (where a byte is a
//! character); the executor checks that before using it. A search that
//! runs past its step budget gives up ([`GaveUp`]) and the caller asks the
//! `regex` crate instead, so no pattern can make it slow without bound.

use memchr::memmem;
use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A search that ran past its step budget (see [`Matcher::find_anchored`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GaveUp;

/// Saves folded into one instruction at most (a group's end and the next
/// group's start are the common pair).
const PRE_SAVES: usize = 2;

/// An empty entry of [`Matcher::pre`].
const NO_SLOT: u32 = u32::MAX;

/// Bytes of a run looked at one by one before `memchr` is asked.
const SHORT_RUN: usize = 16;

/// Instructions above this count are not worth a backtracker: decline.
const MAX_PROGRAM: usize = 4_000;

/// Choice points above this count (see [`choices`]) make backtracking
/// slower than the `regex` crate's automata: decline.
const MAX_CHOICES: usize = 4;

/// The set of ASCII bytes one class matches.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ByteSet([bool; 128]);

impl ByteSet {
    fn contains(&self, b: u8) -> bool {
        b < 128 && self.0[usize::from(b)]
    }

    /// The set's one byte, when it has exactly one.
    fn only(&self) -> Option<u8> {
        let mut members = (0u8..128).filter(|&b| self.0[usize::from(b)]);
        match (members.next(), members.next()) {
            (Some(b), None) => Some(b),
            _ => None,
        }
    }

    /// The ASCII bytes outside the set, when there are at most three of
    /// them: a run of the class then ends at the first of them (on ASCII
    /// text), which `memchr` finds.
    fn stops(&self) -> Option<Vec<u8>> {
        let out: Vec<u8> = (0u8..128).filter(|&b| !self.0[usize::from(b)]).collect();
        (out.len() <= 3).then_some(out)
    }
}

#[derive(Debug, Clone)]
enum Inst {
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
enum Hint {
    /// Anything.
    None,
    /// This literal (index into the matcher's literals) starts there.
    Lit(usize),
    /// The byte `offset` bytes on is this one.
    Byte { offset: usize, byte: u8 },
    /// The byte `offset` bytes on is in this set (index into the sets).
    Set { offset: usize, set: usize },
}

/// Bytes the state holds everywhere (empty squares, names, digits, line
/// and variable marks): a poor hint.
fn common(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b".,\n#: ".contains(&b)
}

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

/// Where the piece around a place ends, once a search has looked: the
/// first `%` at or after `from` is at `at` (the text's end when none).
#[derive(Debug, Clone, Copy)]
struct PieceEnd {
    from: usize,
    at: usize,
}

impl PieceEnd {
    /// Nothing known yet.
    const UNKNOWN: PieceEnd = PieceEnd {
        from: usize::MAX,
        at: 0,
    };
}

/// Where to resume after a failure.
#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Another branch.
    Resume { pc: usize, pos: usize },
    /// Undo a capture.
    Restore { slot: usize, value: usize },
    /// The greedy run at `pc`: shorter ends than `cur`, down to `lo`,
    /// remain.
    Greedy { pc: usize, lo: usize, cur: usize },
    /// The lazy run at `pc`: longer ends than `cur`, up to `hi`, remain.
    Lazy { pc: usize, hi: usize, cur: usize },
}

/// Reusable memory for searches with one matcher.
#[derive(Debug, Default)]
pub struct Scratch {
    stack: Vec<Frame>,
    /// Capture slots: start and end of each group, `usize::MAX` when unset.
    pub slots: Vec<usize>,
}

struct Builder {
    prog: Vec<Inst>,
    sets: Vec<ByteSet>,
    lits: Vec<Box<[u8]>>,
    words: Vec<WordList>,
}

/// Literals none of which starts another, by first byte.
#[derive(Debug)]
struct WordList {
    by_first: Vec<Vec<Box<[u8]>>>,
}

impl WordList {
    fn new(words: Vec<Box<[u8]>>) -> WordList {
        let mut by_first = vec![Vec::new(); 256];
        for w in words {
            by_first[usize::from(w[0])].push(w);
        }
        WordList { by_first }
    }

    /// The length of the word `hay` starts with, if any.
    fn matches(&self, hay: &[u8]) -> Option<usize> {
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
fn starts_with(hay: &[u8], lit: &[u8]) -> bool {
    if hay.len() < lit.len() {
        return false;
    }
    if lit.len() > 16 {
        return &hay[..lit.len()] == lit;
    }
    hay.iter().zip(lit).all(|(a, b)| a == b)
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
    let prefix_free = words.iter().enumerate().all(|(i, a)| {
        words
            .iter()
            .enumerate()
            .all(|(j, b)| i == j || !b.starts_with(a))
    });
    prefix_free.then_some(words)
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
                if byte.is_some_and(|b| !common(b)) {
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
                for part in crate::analysis::split_marks(&lit.0) {
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

impl Matcher {
    /// Compiles `pattern`, or `None` when it is outside what this matcher
    /// handles exactly (see the module documentation).
    pub fn new(pattern: &str) -> Option<Matcher> {
        // Back-references are markers in literals (see `analysis::marked`);
        // what the pattern can match is read from the superset.
        let hir = crate::analysis::marked(pattern)?;
        let superset = crate::analysis::superset(pattern)?;
        if superset.properties().minimum_len() == Some(0) {
            return None;
        }
        // A group the syntax tree dropped (`(a){0}`) still has its number:
        // leave such patterns to `regex`.
        let groups = crate::portable::check(pattern).ok()?.groups;
        if hir.properties().explicit_captures_len() != groups {
            return None;
        }
        let slots = 2 * (groups + 1);
        let mut b = Builder {
            prog: Vec::new(),
            sets: Vec::new(),
            lits: Vec::new(),
            words: Vec::new(),
        };
        b.compile(&hir)?;
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
            .map(|l| (l[0], crate::state::finder(&l[..])))
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

    /// Number of capture slots (two per group, group 0 included).
    pub fn slot_count(&self) -> usize {
        self.slots
    }

    /// The end of the longest run of set `set` in `hay[pos..]`, at most
    /// `max` long.
    fn run_end(
        &self,
        set: usize,
        hay: &[u8],
        pos: usize,
        max: usize,
        piece: &mut PieceEnd,
    ) -> usize {
        let limit = hay.len().min(pos.saturating_add(max));
        if self.piece_sets[set] {
            // `[^%]`: the run ends where the piece does. Patterns often
            // have two such runs; the first search answers the second.
            if !(piece.from <= pos && pos <= piece.at) {
                let at = memchr::memchr(b'%', &hay[pos..]).map_or(hay.len(), |i| pos + i);
                *piece = PieceEnd { from: pos, at };
            }
            return piece.at.min(limit);
        }
        let span = &hay[pos..limit];
        let members = &self.sets[set];
        // Most runs in the state are a few bytes long (a name, a digit
        // string): look at the first bytes in line before a library call.
        let near = span.len().min(SHORT_RUN);
        if let Some(i) = span[..near].iter().position(|&b| !members.contains(b)) {
            return pos + i;
        }
        if near == span.len() {
            return limit;
        }
        let rest = &span[near..];
        let found = match self.stops[set].as_deref() {
            Some(s) => match *s {
                [] => None,
                [a] => memchr::memchr(a, rest),
                [a, b] => memchr::memchr2(a, b, rest),
                [a, b, c] => memchr::memchr3(a, b, c, rest),
                _ => unreachable!("at most three stops"),
            },
            None => rest.iter().position(|&b| !members.contains(b)),
        };
        found.map_or(limit, |i| pos + near + i)
    }

    /// The match of the pattern anchored at the start of `hay` that the
    /// leftmost-first rule picks, with its captures in `scratch.slots`
    /// (group `n` spans `slots[2n]..slots[2n+1]`, `usize::MAX` when the
    /// group did not take part); `Ok(false)` when nothing matches there.
    /// `hay` must be ASCII.
    ///
    /// # Errors
    ///
    /// [`GaveUp`] when the search took more than `budget` steps; the
    /// budget left is written back.
    pub fn find_anchored(
        &self,
        hay: &[u8],
        scratch: &mut Scratch,
        budget: &mut usize,
    ) -> Result<bool, GaveUp> {
        debug_assert!(hay.is_ascii());
        if self.straight && scratch.slots.len() == self.slots {
            // Every save runs on the way to a match: no slot can be left
            // over from an earlier search.
        } else {
            scratch.slots.clear();
            scratch.slots.resize(self.slots, usize::MAX);
        }
        scratch.stack.clear();
        if self.single {
            // A single-path search is short (one pass over the program):
            // it is charged its length, and only an empty budget stops it.
            if *budget == 0 {
                return Err(GaveUp);
            }
            *budget = budget.saturating_sub(self.prog.len());
            return Ok(self.find_straight(hay, &mut scratch.slots));
        }
        let slots = &mut scratch.slots;
        let stack = &mut scratch.stack;
        let (mut pc, mut pos) = (0usize, 0usize);
        // Choice frames on the stack. With none, a failure ends the search,
        // so a capture need not be restored and its old value is not kept.
        let mut choices = 0usize;
        let mut piece = PieceEnd::UNKNOWN;
        slots[0] = 0;
        loop {
            if *budget == 0 {
                return Err(GaveUp);
            }
            *budget -= 1;
            for &slot in &self.pre[pc] {
                if slot == NO_SLOT {
                    break;
                }
                set_slot(slots, stack, choices > 0, slot as usize, pos);
            }
            let ok = match &self.prog[pc] {
                Inst::Lit(bytes) => {
                    let ok = starts_with(&hay[pos..], bytes);
                    pos += bytes.len();
                    pc += 1;
                    ok
                }
                Inst::Set(s) => {
                    let ok = hay.get(pos).is_some_and(|&b| self.sets[*s].contains(b));
                    pos += 1;
                    pc += 1;
                    ok
                }
                Inst::Start => {
                    pc += 1;
                    pos == 0
                }
                Inst::Save(slot) => {
                    set_slot(slots, stack, choices > 0, *slot, pos);
                    pc += 1;
                    true
                }
                Inst::Backref(group) => {
                    pc += 1;
                    match backref(hay, slots, *group, pos) {
                        Some(len) => {
                            pos += len;
                            true
                        }
                        None => false,
                    }
                }
                Inst::Split(a, b) => {
                    stack.push(Frame::Resume { pc: *b, pos });
                    choices += 1;
                    pc = *a;
                    true
                }
                Inst::Jmp(a) => {
                    pc = *a;
                    true
                }
                Inst::Words(w) => {
                    let len = self.words[*w].matches(&hay[pos..]);
                    pos += len.unwrap_or(0);
                    pc += 1;
                    len.is_some()
                }
                &Inst::Spread {
                    set,
                    count,
                    group,
                    greedy,
                } => {
                    pc += 1;
                    match self.spread_taken(set, count, hay, pos) {
                        None => false,
                        Some(taken) => {
                            for (k, start, end) in spread_spans(count, taken, greedy, pos) {
                                set_slot(slots, stack, choices > 0, 2 * (group + k), start);
                                set_slot(slots, stack, choices > 0, 2 * (group + k) + 1, end);
                            }
                            pos += taken;
                            true
                        }
                    }
                }
                Inst::Match => {
                    slots[1] = pos;
                    return Ok(true);
                }
                &Inst::Run {
                    set,
                    min,
                    max,
                    step,
                    greedy,
                    hint,
                    whole,
                } => {
                    let lo = pos + min;
                    // A short bounded run ends in a small window: when
                    // nothing there is what the rest needs, fail before
                    // measuring the run.
                    if !whole
                        && max - min <= SHORT_RUN
                        && !matches!(hint, Hint::None)
                        && lo <= hay.len()
                        && self
                            .greedy_hinted(hay, hint, lo, hay.len().min(pos + max) + 1)
                            .is_none()
                    {
                        pc += 1;
                        false
                    } else {
                        let end = self.run_end(set, hay, pos, max, &mut piece);
                        *budget = budget.saturating_sub((end - pos) / 64);
                        if whole {
                            pc += 1;
                            let ok = end >= lo && (step == 1 || (end - lo).is_multiple_of(step));
                            pos = end;
                            ok
                        } else if end < lo {
                            false
                        } else {
                            let first = if greedy {
                                self.greedy_candidate(hay, (hint, step), lo, end + 1)
                            } else {
                                self.lazy_candidate(hay, (hint, step), lo, lo, end)
                            };
                            match first {
                                None => false,
                                Some(p) => {
                                    if greedy && p > lo {
                                        stack.push(Frame::Greedy { pc, lo, cur: p });
                                        choices += 1;
                                    } else if !greedy && p < end {
                                        stack.push(Frame::Lazy {
                                            pc,
                                            hi: end,
                                            cur: p,
                                        });
                                        choices += 1;
                                    }
                                    pc += 1;
                                    pos = p;
                                    true
                                }
                            }
                        }
                    }
                }
            };
            if ok {
                continue;
            }
            // Backtrack to the most recent choice left.
            loop {
                let Some(f) = stack.pop() else {
                    return Ok(false);
                };
                match f {
                    Frame::Restore { slot, value } => slots[slot] = value,
                    Frame::Resume { pc: p, pos: q } => {
                        choices -= 1;
                        pc = p;
                        pos = q;
                        break;
                    }
                    Frame::Greedy { pc: p, lo, cur } => {
                        choices -= 1;
                        if let Some(q) = self.greedy_candidate(hay, self.run(p), lo, cur) {
                            if q > lo {
                                stack.push(Frame::Greedy { pc: p, lo, cur: q });
                                choices += 1;
                            }
                            pc = p + 1;
                            pos = q;
                            break;
                        }
                    }
                    Frame::Lazy { pc: p, hi, cur } => {
                        choices -= 1;
                        if let Some(q) = self.lazy_candidate(hay, self.run(p), cur, cur + 1, hi) {
                            if q < hi {
                                stack.push(Frame::Lazy { pc: p, hi, cur: q });
                                choices += 1;
                            }
                            pc = p + 1;
                            pos = q;
                            break;
                        }
                    }
                }
                if *budget == 0 {
                    return Err(GaveUp);
                }
                *budget -= 1;
            }
        }
    }

    /// [`Matcher::find_anchored`] for a program with nothing to come back
    /// to: each instruction either moves on or ends the search. Its work
    /// is bounded by the program and the runs' lengths, so no budget.
    fn find_straight(&self, hay: &[u8], slots: &mut [usize]) -> bool {
        let mut pos = 0usize;
        let mut piece = PieceEnd::UNKNOWN;
        slots[0] = 0;
        for (inst, pre) in self.prog.iter().zip(&self.pre) {
            for &slot in pre {
                if slot == NO_SLOT {
                    break;
                }
                slots[slot as usize] = pos;
            }
            match *inst {
                Inst::Lit(ref bytes) => {
                    if !starts_with(&hay[pos..], bytes) {
                        return false;
                    }
                    pos += bytes.len();
                }
                Inst::Set(s) => {
                    if !hay.get(pos).is_some_and(|&b| self.sets[s].contains(b)) {
                        return false;
                    }
                    pos += 1;
                }
                Inst::Save(slot) => slots[slot] = pos,
                Inst::Backref(group) => match backref(hay, slots, group, pos) {
                    Some(len) => pos += len,
                    None => return false,
                },
                Inst::Start => {
                    if pos != 0 {
                        return false;
                    }
                }
                Inst::Words(w) => match self.words[w].matches(&hay[pos..]) {
                    Some(len) => pos += len,
                    None => return false,
                },
                Inst::Spread {
                    set,
                    count,
                    group,
                    greedy,
                } => {
                    let Some(taken) = self.spread_taken(set, count, hay, pos) else {
                        return false;
                    };
                    for (k, start, end) in spread_spans(count, taken, greedy, pos) {
                        slots[2 * (group + k)] = start;
                        slots[2 * (group + k) + 1] = end;
                    }
                    pos += taken;
                }
                Inst::Run {
                    set,
                    min,
                    max,
                    step,
                    ..
                } => {
                    // Whole (only the longest run can be followed) or of
                    // one length: either way, the end is the run's end.
                    let end = self.run_end(set, hay, pos, max, &mut piece);
                    let len = end - pos;
                    if len < min || (step > 1 && !(len - min).is_multiple_of(step)) {
                        return false;
                    }
                    pos = end;
                }
                Inst::Match => {
                    slots[1] = pos;
                    return true;
                }
                Inst::Split(..) | Inst::Jmp(_) => unreachable!("not in a single-path program"),
            }
        }
        false
    }

    /// How many bytes a [`Inst::Spread`] of `count` groups takes at
    /// `pos`: every byte of the set there, when there are at most `count`.
    fn spread_taken(&self, set: usize, count: usize, hay: &[u8], pos: usize) -> Option<usize> {
        let members = &self.sets[set];
        let run = hay[pos..]
            .iter()
            .take(count + 1)
            .take_while(|&&b| members.contains(b))
            .count();
        (run <= count).then_some(run)
    }

    /// The hint and step of the run at `pc`.
    fn run(&self, pc: usize) -> (Hint, usize) {
        match self.prog[pc] {
            Inst::Run { hint, step, .. } => (hint, step),
            _ => (Hint::None, 1),
        }
    }

    /// The largest run end in `lo..below` that the hint allows, a
    /// multiple of `step` past `lo`.
    fn greedy_candidate(
        &self,
        hay: &[u8],
        (hint, step): (Hint, usize),
        lo: usize,
        mut below: usize,
    ) -> Option<usize> {
        loop {
            let p = self.greedy_hinted(hay, hint, lo, below)?;
            if step == 1 || (p - lo).is_multiple_of(step) {
                return Some(p);
            }
            below = p;
        }
    }

    /// The smallest run end in `from..=hi` that the hint allows, a
    /// multiple of `step` past `base`.
    fn lazy_candidate(
        &self,
        hay: &[u8],
        (hint, step): (Hint, usize),
        base: usize,
        mut from: usize,
        hi: usize,
    ) -> Option<usize> {
        loop {
            let p = self.lazy_hinted(hay, hint, from, hi)?;
            if step == 1 || (p - base).is_multiple_of(step) {
                return Some(p);
            }
            from = p + 1;
        }
    }

    /// The largest run end in `lo..below` that the hint allows.
    fn greedy_hinted(&self, hay: &[u8], hint: Hint, lo: usize, below: usize) -> Option<usize> {
        if below <= lo {
            return None;
        }
        // Places `lo + offset .. below + offset` of the tested byte.
        let window = |offset: usize| {
            let top = below.saturating_add(offset).min(hay.len());
            let from = lo + offset;
            (from < top).then(|| (from, &hay[from..top]))
        };
        match hint {
            Hint::None => Some(below - 1),
            Hint::Lit(l) => {
                let (from, w) = window(0)?;
                last_of(self.lits[l].0, w).map(|i| from + i)
            }
            Hint::Byte { offset, byte } => {
                let (from, w) = window(offset)?;
                last_of(byte, w).map(|i| from + i - offset)
            }
            Hint::Set { offset, set } => {
                let (from, w) = window(offset)?;
                let set = &self.sets[set];
                w.iter()
                    .rposition(|&b| set.contains(b))
                    .map(|i| from + i - offset)
            }
        }
    }

    /// The smallest run end in `from..=hi` that the hint allows.
    fn lazy_hinted(&self, hay: &[u8], hint: Hint, from: usize, hi: usize) -> Option<usize> {
        if from > hi {
            return None;
        }
        // Places `from + offset ..= hi + offset` of the tested byte.
        let window = |offset: usize, width: usize| {
            let top = hi.saturating_add(offset + width).min(hay.len());
            let start = from + offset;
            (start < top).then(|| (start, &hay[start..top]))
        };
        match hint {
            Hint::None => Some(from),
            Hint::Lit(l) => {
                let finder = &self.lits[l].1;
                let (start, w) = window(0, finder.needle().len())?;
                finder.find(w).map(|i| start + i).filter(|&p| p <= hi)
            }
            Hint::Byte { offset, byte } => {
                let (start, w) = window(offset, 1)?;
                first_of(byte, w).map(|i| start + i - offset)
            }
            Hint::Set { offset, set } => {
                let (start, w) = window(offset, 1)?;
                let set = &self.sets[set];
                w.iter()
                    .position(|&b| set.contains(b))
                    .map(|i| start + i - offset)
            }
        }
    }
}

/// Records `value` in capture slot `slot`, keeping the old value on the
/// stack for backtracking when a choice is `open` (with none, a failure
/// ends the search and nothing needs restoring).
fn set_slot(slots: &mut [usize], stack: &mut Vec<Frame>, open: bool, slot: usize, value: usize) {
    if open {
        stack.push(Frame::Restore {
            slot,
            value: slots[slot],
        });
    }
    slots[slot] = value;
}

/// The length of group `group`'s text when it also stands at `pos`;
/// `None` when it does not, or the group did not take part.
fn backref(hay: &[u8], slots: &[usize], group: usize, pos: usize) -> Option<usize> {
    let (start, end) = (*slots.get(2 * group)?, *slots.get(2 * group + 1)?);
    if start == usize::MAX || end == usize::MAX || end < start {
        return None;
    }
    let len = end - start;
    (hay.get(pos..pos + len)? == &hay[start..end]).then_some(len)
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

/// The span of each group of a [`Inst::Spread`] of `count` groups at `pos`
/// that takes `taken` bytes: `(group offset, start, end)`. Lazy groups
/// leave the first ones empty, greedy groups the last.
fn spread_spans(
    count: usize,
    taken: usize,
    greedy: bool,
    pos: usize,
) -> impl Iterator<Item = (usize, usize, usize)> {
    let empty_first = if greedy { 0 } else { count - taken };
    let mut at = pos;
    (0..count).map(move |k| {
        let takes = if greedy { k < taken } else { k >= empty_first };
        let start = at;
        if takes {
            at += 1;
        }
        (k, start, at)
    })
}

/// `memchr`, with short windows (a bounded run's ends) searched in line:
/// the call costs more than a few compares.
fn first_of(byte: u8, w: &[u8]) -> Option<usize> {
    if w.len() <= SHORT_RUN {
        w.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, w)
    }
}

/// `memrchr`, with short windows searched in line (see [`first_of`]).
fn last_of(byte: u8, w: &[u8]) -> Option<usize> {
    if w.len() <= SHORT_RUN {
        w.iter().rposition(|&b| b == byte)
    } else {
        memchr::memrchr(byte, w)
    }
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
    use super::*;

    /// Our answer on `hay` anchored at each position, against `regex`'s
    /// for `^(?:pattern)` on the same suffix: match, end and every group.
    fn agree(pattern: &str, hay: &str) {
        let m = Matcher::new(pattern).unwrap_or_else(|| panic!("{pattern:?} declined"));
        let re = regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
        for start in 0..=hay.len() {
            let rest = &hay[start..];
            let mut scratch = Scratch::default();
            let mut budget = usize::MAX;
            let ours = m
                .find_anchored(rest.as_bytes(), &mut scratch, &mut budget)
                .unwrap()
                .then(|| {
                    (0..m.slot_count() / 2)
                        .map(|g| {
                            let (s, e) = (scratch.slots[2 * g], scratch.slots[2 * g + 1]);
                            (s != usize::MAX).then_some((s, e))
                        })
                        .collect::<Vec<_>>()
                });
            let theirs = re.captures(rest).map(|c| {
                c.iter()
                    .map(|g| g.map(|g| (g.start(), g.end())))
                    .collect::<Vec<_>>()
            });
            assert_eq!(ours, theirs, "{pattern:?} on {rest:?}");
        }
    }

    /// [`agree`] for back-reference patterns, against fancy-regex.
    fn agree_backrefs(pattern: &str, hay: &str) {
        let m = Matcher::new(pattern).unwrap_or_else(|| panic!("{pattern:?} declined"));
        let re = fancy_regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
        for start in 0..=hay.len() {
            let rest = &hay[start..];
            let mut scratch = Scratch::default();
            let mut budget = usize::MAX;
            let ours = m
                .find_anchored(rest.as_bytes(), &mut scratch, &mut budget)
                .unwrap()
                .then(|| {
                    (0..m.slot_count() / 2)
                        .map(|g| {
                            let (s, e) = (scratch.slots[2 * g], scratch.slots[2 * g + 1]);
                            (s != usize::MAX).then_some((s, e))
                        })
                        .collect::<Vec<_>>()
                });
            let theirs = re.captures(rest).unwrap().map(|c| {
                c.iter()
                    .map(|g| g.map(|g| (g.start(), g.end())))
                    .collect::<Vec<_>>()
            });
            assert_eq!(ours, theirs, "{pattern:?} on {rest:?}");
        }
    }

    #[test]
    fn back_references_agree_with_fancy_regex() {
        let hay = "%%\n#stack:\nab\nab\nx\n#ab: 12\n%%\n#stack:\nAAA\nAA\n#n: 1;2;2;2;3\n%%\n#stack:\nA\nA\n";
        for p in [
            r"(%%\n#stack:\n)([^\n]*)\n\2\n",
            r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2: )([^#%\n]*)",
            r"(%%\n#stack:\n)(A*)(A+)\n\2\n",
            r"(%%[^%]*#n: [^\n]*)([^;\n]*;)\2+([^%\n]*)",
            r"(a|ab)(c|bcd)\2",
            r"(x?)(?:\1y|z)",
            r"(%%\n)?(#[a-z]+):[^%]*\2",
        ] {
            agree_backrefs(p, hay);
        }
    }

    const THREADS: &str = "%%\n#stack:\n12\n#z:..p.K,.*.@\n..,.....*.\n#t:e4\n#dv:HH|TTT|iiiiiiiiiiii\n%x\n#stack:\n#z:.*..@\n#t:a1\n";

    #[test]
    fn the_program_shapes_agree_with_regex() {
        for p in [
            r"%%\n#stack:\n([^%]*?#t:([^%\n]*)\n)",
            r"#z:(?:[^%\n]{3})*[^%\n]{2}\*[^%]*?#t:",
            r"#z:(?:[^%\n]{2})*?[^%\n]\*",
            r"%%\n([^%]*?#z:[^%\n]*)([.,pK])([^%\n]{2})([@])([^%]*)",
            r"(#dv:H*\|T*)\|(i*)i{10}\n",
            r"(#dv:H*\|T*\|)i{2}\n",
            r"#t:(?:a1|e4|h8)\n",
            r"(%%\n#stack:\n[^#%]*)[^%]*?(#dv:[^%\n]*\n)[^%]*",
            r"#z:[^%\n]*?(\*)[^%\n]{1,3}?([@.])",
            r"([0-9]??)([0-9]??)\n",
        ] {
            agree(p, THREADS);
        }
    }

    #[test]
    fn runs_that_end_alone_and_folded_saves_agree_with_regex() {
        let hay = "aaab|HH|TTT|ii\nxaab-ab(ab)ba";
        for p in [
            // A run followed by a byte outside its class ends in one place.
            r"(H*)(\|T*)(\|i*)\n",
            r"(?:a{2})*b",
            r"(?:a{2})*?b",
            r"a*?(b)",
            r"([^|]*)\|",
            // Saves before a jump target, inside loops and alternations.
            r"(?:(a)|b)+(\|)",
            r"((a)*)b",
            r"(a)(b)(\||-)",
            r"(?:(a)(b)|(b)(a))",
            r"(\()(a*)(b*)(\))",
        ] {
            agree(p, hay);
        }
    }

    #[test]
    fn columns_of_optional_digits_agree_with_regex() {
        let hay = "%%\n#stack:\n4999\n12\n\n7\n123456789\n12345678\nx1\n";
        for p in [
            r"%%\n#stack:\n([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n",
            r"([0-9]??)([0-9]??)([0-9]??)\n",
            r"([0-9]?)([0-9]?)([0-9]?)\n",
            r"x([0-9]??)([0-9]??)\n",
            r"([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n",
            // Followed by a byte of the set, or by nothing: not a column.
            r"([0-9]??)([0-9]??)1",
            r"\n([0-9]??)([0-9]??)",
            // Mixed greediness or sets: two columns or none.
            r"([0-9]??)([0-9]?)([0-9]?)\n",
            r"([0-9]??)([1-9]??)\n",
            r"(?:([0-9]??)([0-9]??)|x)\n",
        ] {
            agree(p, hay);
        }
        let m = Matcher::new(r"%%\n#stack:\n([0-9]??)([0-9]??)([0-9]??)\n").unwrap();
        assert!(m.single, "one pass, no choice");
        assert!(m
            .prog
            .iter()
            .any(|i| matches!(i, Inst::Spread { count: 3, .. })));
    }

    #[test]
    fn a_run_before_a_byte_outside_its_class_keeps_no_choice() {
        let m = Matcher::new(r"#d:(H*)(\|T*)\n").unwrap();
        assert!(m
            .prog
            .iter()
            .all(|i| !matches!(i, Inst::Run { whole: false, .. })));
        assert!(m.straight);
        // Saves ride on the instructions after them.
        assert!(!m.prog.iter().any(|i| matches!(i, Inst::Save(_))));
    }

    #[test]
    fn declines_what_it_cannot_run_exactly() {
        for p in [r"(?:a?)*b", r"a\b", "^$", r"a*b*c*d*e*f*g"] {
            assert!(Matcher::new(p).is_none(), "{p:?}");
        }
        assert_eq!(Matcher::new(r"(%%\n#x:)").unwrap().prefix(), b"%%\n#x:");
    }

    #[test]
    fn gives_up_past_its_budget() {
        let m = Matcher::new(r"%%[^%]*?#q:").unwrap();
        let mut budget = 2;
        let r = m.find_anchored(b"%%\n#a:\n#b:\n#q:", &mut Scratch::default(), &mut budget);
        assert_eq!(r, Err(GaveUp));
    }
}
