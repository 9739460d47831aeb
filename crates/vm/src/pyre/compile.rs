//! From a parsed pattern to the backtracking machine's program.
//!
//! It owns the translation of each node (sequences of exact characters
//! become one byte string; an alternation of single characters becomes one
//! set; a loop over one character becomes `RepeatOne`; a `?` becomes a
//! split; other loops get a counter; a possessive loop is a greedy loop in
//! an atomic group) and the facts the search loop uses: an anchored start,
//! a literal prefix, a first-character test. Every translation keeps
//! Python's order of choices, so the machine finds the match CPython
//! finds. Its recursion follows the tree, whose depth `parse` bounds.
//! It runs nothing.

use memchr::memmem::Finder;

use super::ast::{self, Anchor, CharSet, CharTest, Greed, Node};
use super::lead::{lead, positive, ByteSet, Lead};
use super::prog::{Branches, Follow, Inst, Pc, Prog};
use super::unicode;

/// The program of a parsed pattern with `groups` capturing groups.
pub(crate) fn compile(node: &Node, groups: usize) -> Prog {
    let search_filter = filter(node);
    let node = simplify(node);
    let mut c = Compiler {
        insts: Vec::new(),
        loops: 0,
        joinable: false,
        protected: false,
        possessive: false,
    };
    c.insts.push(Inst::Save {
        slot: 0,
        leaky: false,
    });
    c.emit(&node);
    c.insts.push(Inst::Save {
        slot: 1,
        leaky: false,
    });
    c.insts.push(Inst::Match);
    c.hint_runs();
    let (prefix, _) = prefix(&node);
    let mut bytes = Vec::new();
    for ch in prefix {
        push_utf8(&mut bytes, ch);
    }
    let behind = behind(&node).into_bytes();
    let finder = |b: &[u8]| (!b.is_empty()).then(|| Finder::new(b).into_owned());
    let start = lead(&node).bytes().filter(|s| !s.is_all());
    Prog {
        lead_run: lead_run(&c.insts),
        filter: search_filter,
        insts: c.insts,
        slots: 2 * (groups + 1),
        loops: c.loops as usize,
        anchored_start: anchored(&node),
        behind_finder: finder(&behind),
        behind,
        behind_byte: behind_byte(&node),
        prefix_finder: finder(&bytes),
        start_bytes: start.and_then(|s| s.few()).map(Vec::into_boxed_slice),
        start,
    }
}

struct Compiler {
    insts: Vec<Inst>,
    loops: u32,
    /// The last instruction is a byte string that the next exact
    /// character may join (nothing jumps to the place after it).
    joinable: bool,
    /// Inside the body of a general loop (one whose body is not a single
    /// character, possessive loops aside): CPython restores captures
    /// there when a choice fails.
    protected: bool,
    /// Inside the body of a possessive loop.
    possessive: bool,
}

impl Compiler {
    /// The next instruction's index, as a jump target: nothing joins
    /// across it.
    fn pc(&mut self) -> Pc {
        self.joinable = false;
        self.insts.len() as Pc
    }

    fn push(&mut self, inst: Inst) {
        self.joinable = false;
        self.insts.push(inst);
    }

    fn emit(&mut self, node: &Node) {
        match node {
            Node::Empty => {}
            Node::Char(CharTest::Lit(c)) => self.literal(*c),
            Node::Char(t) => self.push(Inst::Test(t.clone())),
            Node::Seq(items) => items.iter().for_each(|n| self.emit(n)),
            Node::Alt(branches) => self.alternation(branches),
            Node::Group(i, n) => {
                let leaky = self.possessive && !self.protected;
                self.push(Inst::Save {
                    slot: 2 * *i as u32,
                    leaky,
                });
                self.emit(n);
                self.push(Inst::Save {
                    slot: 2 * *i as u32 + 1,
                    leaky,
                });
            }
            Node::Repeat {
                node,
                min,
                max,
                greed,
            } => self.repeat(node, *min, *max, *greed),
            Node::Anchor(a) => self.push(Inst::Anchor(*a)),
            Node::Backref(g, fold) => self.push(Inst::Backref(*g as u32, *fold)),
            Node::Look {
                behind,
                negate,
                node,
            } => {
                let start = self.pc();
                self.push(Inst::LookEnd);
                self.emit(node);
                let end = self.pc();
                self.push(Inst::LookEnd);
                self.insts[start as usize] = Inst::LookStart {
                    behind: *behind,
                    negate: *negate,
                    end,
                    memo: behind.is_none()
                        && !*negate
                        && memo_body(&self.insts[start as usize + 1..end as usize]),
                };
            }
            Node::Scoped(n) => self.emit(n),
            Node::Atomic(n) => {
                self.push(Inst::AtomicStart);
                self.emit(n);
                self.push(Inst::AtomicEnd);
            }
            Node::Cond { group, yes, no } => {
                let at = self.pc();
                self.push(Inst::Match);
                self.emit(yes);
                let jump = self.pc();
                self.push(Inst::Jmp(0));
                let no_pc = self.pc();
                self.emit(no);
                let end = self.pc();
                self.insts[jump as usize] = Inst::Jmp(end);
                self.insts[at as usize] = Inst::IfGroup {
                    group: *group as u32,
                    no: no_pc,
                };
            }
        }
    }

    /// An exact character, joined to a byte string just before it.
    fn literal(&mut self, c: u32) {
        let Some(ch) = char::from_u32(c) else {
            // A surrogate: no text holds one.
            self.push(Inst::Test(CharTest::Lit(c)));
            return;
        };
        let mut buf = [0u8; 4];
        let bytes = ch.encode_utf8(&mut buf).as_bytes();
        match self.insts.last_mut() {
            Some(Inst::Str(s)) if self.joinable => {
                let mut v = s.to_vec();
                v.extend_from_slice(bytes);
                *s = v.into_boxed_slice();
            }
            _ => self.push(Inst::Str(bytes.into())),
        }
        self.joinable = true;
    }

    fn alternation(&mut self, branches: &[Node]) {
        if self.may_dispatch(branches.len(), || branches.iter().any(has_groups)) {
            let leads: Vec<Lead> = branches.iter().map(lead).collect();
            let at = self.pc();
            self.push(Inst::Match);
            let mut starts = Vec::with_capacity(branches.len());
            let mut jumps = Vec::new();
            for (i, b) in branches.iter().enumerate() {
                starts.push(self.pc());
                self.emit(b);
                if i + 1 < branches.len() {
                    jumps.push(self.pc());
                    self.push(Inst::Jmp(0));
                }
            }
            let end = self.pc();
            for j in jumps {
                self.insts[j as usize] = Inst::Jmp(end);
            }
            self.insts[at as usize] = Inst::Branch(Box::new(branch_table(&leads, starts)));
            return;
        }
        let mut jumps = Vec::new();
        for (i, b) in branches.iter().enumerate() {
            if i + 1 < branches.len() {
                let split = self.pc();
                self.push(Inst::Split(0));
                self.emit(b);
                jumps.push(self.pc());
                self.push(Inst::Jmp(0));
                let next = self.pc();
                self.insts[split as usize] = Inst::Split(next);
            } else {
                self.emit(b);
            }
        }
        let end = self.pc();
        for j in jumps {
            self.insts[j as usize] = Inst::Jmp(end);
        }
    }

    /// Whether `n` choices may be dispatched by the next byte (a
    /// `Branch`): not too many for a table, and none of them passed over
    /// could have left a capture behind (a leaky save, inside a
    /// possessive loop that no general loop encloses, is kept when its
    /// alternative fails).
    fn may_dispatch(&self, n: usize, groups: impl FnOnce() -> bool) -> bool {
        n <= Branches::MAX && !(self.possessive && !self.protected && groups())
    }

    fn repeat(&mut self, node: &Node, min: u32, max: u32, greed: Greed) {
        if max == 0 {
            return;
        }
        if greed == Greed::Possessive && !matches!(node, Node::Char(_)) {
            let outer = self.possessive;
            self.possessive = true;
            self.possessive_loop(node, min, max);
            self.possessive = outer;
            return;
        }
        if !matches!(node, Node::Char(_)) {
            let outer = self.protected;
            self.protected = true;
            self.general(node, min, max, greed);
            self.protected = outer;
            return;
        }
        if let Node::Char(test) = node {
            self.push(Inst::RepeatOne {
                test: test.clone(),
                min,
                max,
                greed,
                stops: stops(test),
                next: Follow::Any,
            });
        }
    }

    /// A loop whose body is not one character.
    fn general(&mut self, node: &Node, min: u32, max: u32, greed: Greed) {
        if min == max && min <= UNROLL && !has_groups(node) {
            // A fixed count: no iteration is past the minimum, so the
            // empty iteration rule cannot arise, and without groups the
            // copies capture nothing a loop would.
            for _ in 0..min {
                self.emit(node);
            }
            return;
        }
        if min == 0 && max == 1 && self.may_dispatch(2, || has_groups(node)) {
            // One optional iteration, tried only where it can start (the
            // counter's only job, the empty iteration rule, cannot arise).
            let at = self.pc();
            self.push(Inst::Match);
            let body = self.pc();
            self.emit(node);
            let end = self.pc();
            let (skip, take) = (
                Lead {
                    chars: None,
                    empty: true,
                },
                lead(node),
            );
            self.insts[at as usize] = Inst::Branch(Box::new(match greed {
                Greed::Lazy => branch_table(&[skip, take], vec![end, body]),
                _ => branch_table(&[take, skip], vec![body, end]),
            }));
            return;
        }
        if min == 0 && max == 1 {
            // One optional iteration: the counter's only job (the empty
            // iteration rule) cannot arise.
            let split = self.pc();
            self.push(Inst::Jmp(0));
            self.emit(node);
            let end = self.pc();
            self.insts[split as usize] = match greed {
                Greed::Lazy => Inst::SplitLazy(end),
                _ => Inst::Split(end),
            };
            return;
        }
        let loop_ = self.loops;
        self.loops += 1;
        self.push(Inst::LoopStart(loop_));
        let check = self.pc();
        self.push(Inst::Match);
        self.push(Inst::LoopIterate(loop_));
        self.emit(node);
        self.push(Inst::Jmp(check));
        let exit = self.pc();
        self.insts[check as usize] = Inst::LoopCheck {
            loop_,
            min,
            max,
            lazy: greed == Greed::Lazy,
            exit,
            body: lead(node).bytes().map(Box::new),
        };
    }

    /// `node{min,max}+` as CPython runs it: atomic iterations, none given
    /// back (measured: `(?:a+){2}+` does not match `aaa`, where
    /// `(?>(?:a+){2})` does).
    fn possessive_loop(&mut self, node: &Node, min: u32, max: u32) {
        let snapshot = !self.protected && has_groups(node);
        let loop_ = self.loops;
        self.loops += 1;
        self.push(Inst::LoopStart(loop_));
        let check = self.pc();
        self.push(Inst::Match);
        self.emit(node);
        self.push(Inst::AtomicEnd);
        self.push(Inst::Jmp(check));
        self.push(Inst::DropBarrier);
        let exit = self.pc();
        self.insts[check as usize] = Inst::PossessiveCheck {
            loop_,
            snapshot,
            min,
            max,
            exit,
            body: lead(node).bytes().map(Box::new),
        };
    }

    /// Gives each `RepeatOne` what must follow it.
    fn hint_runs(&mut self) {
        for i in 0..self.insts.len() {
            if !matches!(self.insts[i], Inst::RepeatOne { .. }) {
                continue;
            }
            // A leaky save is not passed: it records where the run ended
            // even when what follows fails, so every end must be tried.
            let mut j = i + 1;
            while matches!(self.insts.get(j), Some(Inst::Save { leaky: false, .. })) {
                j += 1;
            }
            let follow = match self.insts.get(j) {
                Some(Inst::Anchor(Anchor::End)) => Follow::End,
                Some(Inst::Anchor(Anchor::EndOrFinalNewline)) => Follow::EndOrFinalNewline,
                Some(Inst::Anchor(Anchor::LineEnd)) => Follow::LineEnd,
                _ => {
                    // Other anchors read no character: the first byte of
                    // the text after them is still the next one read
                    // (`[^%]*^#a:` backs off only to a `#`).
                    while matches!(
                        self.insts.get(j),
                        Some(Inst::Save { leaky: false, .. } | Inst::Anchor(_))
                    ) {
                        j += 1;
                    }
                    match self.insts.get(j) {
                        Some(Inst::Str(s)) => s.first().map_or(Follow::Any, |&b| Follow::Byte(b)),
                        Some(
                            Inst::Test(t)
                            | Inst::RepeatOne {
                                test: t, min: 1.., ..
                            },
                        ) => follow_set(ByteSet::of_ranges(&unicode::normalize(positive(t)))),
                        // A branch that can match empty can stand at
                        // the text's end, where no byte is.
                        Some(Inst::Branch(b)) if b.at_end != 0 => Follow::Any,
                        Some(Inst::Branch(b)) => {
                            // The bytes some branch can take a place at
                            // (never a continuation byte: no place is one).
                            let mut set = [0u64; 4];
                            for (byte, row) in b.table.iter().enumerate() {
                                if *row != 0 && !(0x80..0xC0).contains(&byte) {
                                    set[byte >> 6] |= 1 << (byte & 63);
                                }
                            }
                            follow_set(ByteSet::from_words(set))
                        }
                        _ => Follow::Any,
                    }
                }
            };
            if let Some(Inst::RepeatOne {
                next, greed, test, ..
            }) = self.insts.get_mut(i)
            {
                if *greed == Greed::Greedy && never_follows(&follow, test) {
                    // Giving back could only end the run on one of its own
                    // characters, where what follows cannot stand: the run
                    // is as good as possessive, and keeps no choice.
                    *greed = Greed::Possessive;
                }
                *next = follow;
            }
        }
    }
}

/// Whether a positive look-ahead's body may have its failures remembered
/// (see `Inst::LookStart::memo`): it starts with an unbounded run of one
/// test that has stop bytes, and has no capture, back-reference or
/// conditional.
fn memo_body(body: &[Inst]) -> bool {
    matches!(
        body.first(),
        Some(Inst::RepeatOne {
            max: ast::UNBOUNDED,
            stops: Some(_),
            ..
        })
    ) && !body.iter().any(|i| {
        matches!(
            i,
            Inst::Save { .. } | Inst::Backref(..) | Inst::IfGroup { .. }
        )
    })
}

/// The most copies of a loop's body a fixed count is written out as.
const UNROLL: u32 = 4;

/// The table of a `Branch` over branches that start as `leads` say, at
/// `starts`.
fn branch_table(leads: &[Lead], starts: Vec<Pc>) -> Branches {
    let mut table = Box::new([0u64; 256]);
    let mut at_end = 0;
    for (i, l) in leads.iter().enumerate() {
        let bit = 1u64 << i;
        let set = match (&l.chars, l.empty) {
            (Some(ranges), false) => Some(ByteSet::of_ranges(ranges)),
            // It can match empty or start with anything: any place.
            _ => None,
        };
        if l.empty {
            at_end |= bit;
        }
        for (b, row) in table.iter_mut().enumerate() {
            if set.is_none_or(|s| s.contains(b as u8)) {
                *row |= bit;
            }
        }
    }
    Branches {
        starts,
        table,
        at_end,
    }
}

/// Whether what must follow a run of `test` can never stand at a
/// shorter end of it (on one of its characters, or before the end of
/// the text where only the end will do).
fn never_follows(follow: &Follow, test: &CharTest) -> bool {
    let taken = || ByteSet::of_ranges(&unicode::normalize(positive(test)));
    match follow {
        Follow::Any => false,
        Follow::End => true,
        Follow::EndOrFinalNewline | Follow::LineEnd => !test.matches(u32::from(b'\n')),
        Follow::Byte(b) => !taken().contains(*b),
        Follow::Set(set) => taken().is_disjoint(set),
    }
}

/// What must follow a run when it is a byte of `set` (no set when it
/// holds every byte a character starts with).
fn follow_set(set: ByteSet) -> Follow {
    if set.is_all() {
        Follow::Any
    } else {
        Follow::Set(Box::new(set))
    }
}

/// Whether a node has a capturing group.
fn has_groups(node: &Node) -> bool {
    match node {
        Node::Group(..) => true,
        Node::Seq(items) | Node::Alt(items) => items.iter().any(has_groups),
        Node::Repeat { node, .. }
        | Node::Atomic(node)
        | Node::Scoped(node)
        | Node::Look { node, .. } => has_groups(node),
        Node::Cond { yes, no, .. } => has_groups(yes) || has_groups(no),
        _ => false,
    }
}

/// The bytes that end a run of `test` when they are all it refuses (up
/// to three ASCII bytes).
fn stops(test: &CharTest) -> Option<Box<[u8]>> {
    let refused = match test {
        CharTest::Any => return Some(Box::new([])),
        CharTest::NotNewline => return Some(Box::new([b'\n'])),
        CharTest::Lit(_) => return None,
        CharTest::Set(s) => unicode::complement(&s.positive_ranges()),
    };
    let count: u32 = refused.iter().map(|(lo, hi)| hi - lo + 1).sum();
    if count > 3 || refused.iter().any(|&(_, hi)| hi >= 0x80) {
        return None;
    }
    Some(
        refused
            .iter()
            .flat_map(|&(lo, hi)| lo..=hi)
            .map(|c| c as u8)
            .collect(),
    )
}

fn push_utf8(out: &mut Vec<u8>, c: u32) {
    if let Some(ch) = char::from_u32(c) {
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
}

/// The tree with alternations of single characters as one set (same
/// matches, same order: each branch takes one character and nothing
/// else) and one-item sequences unwrapped.
fn simplify(node: &Node) -> Node {
    match node {
        Node::Seq(items) => {
            let mut out: Vec<Node> = Vec::with_capacity(items.len());
            for n in items.iter().map(simplify) {
                match n {
                    Node::Seq(inner) => out.extend(inner),
                    Node::Empty => {}
                    n => out.push(n),
                }
            }
            match out.len() {
                0 => Node::Empty,
                1 => out.pop().unwrap_or(Node::Empty),
                _ => Node::Seq(out),
            }
        }
        Node::Alt(branches) => {
            let branches: Vec<Node> = branches.iter().map(simplify).collect();
            if branches.len() > 1 && branches.iter().all(|b| matches!(b, Node::Char(_))) {
                let mut ranges = Vec::new();
                for b in &branches {
                    if let Node::Char(t) = b {
                        ranges.extend(positive(t));
                    }
                }
                return Node::Char(CharTest::Set(CharSet::new(ranges, false)));
            }
            Node::Alt(branches)
        }
        Node::Group(i, n) => Node::Group(*i, Box::new(simplify(n))),
        Node::Repeat {
            node,
            min,
            max,
            greed,
        } => Node::Repeat {
            node: Box::new(simplify(node)),
            min: *min,
            max: *max,
            greed: *greed,
        },
        Node::Look {
            behind,
            negate,
            node,
        } => Node::Look {
            behind: *behind,
            negate: *negate,
            node: Box::new(simplify(node)),
        },
        Node::Atomic(n) => Node::Atomic(Box::new(simplify(n))),
        Node::Scoped(n) => simplify(n),
        Node::Cond { group, yes, no } => Node::Cond {
            group: *group,
            yes: Box::new(simplify(yes)),
            no: Box::new(simplify(no)),
        },
        n => n.clone(),
    }
}

/// The test CPython's search puts a place's first character to before
/// it tries the pattern there, where it differs from the pattern's own
/// first step: when the pattern's first item (through capturing groups,
/// non-capturing ones and flag scopes, but not past an empty flag scope)
/// is a class whose categories CPython's search reads in the global
/// ASCII/Unicode mode rather than the scope's (`(?a:\W)` in a Unicode
/// pattern passes over `é`, which the class matches). Measured on
/// CPython 3.11; a place whose character fails it is never tried.
pub(crate) fn filter(node: &Node) -> Option<CharTest> {
    match node {
        Node::Seq(items) => filter(items.first()?),
        Node::Group(_, n) | Node::Scoped(n) => filter(n),
        Node::Char(CharTest::Set(s)) => s.search.as_deref().map(|f| CharTest::Set(f.clone())),
        _ => None,
    }
}

/// See `Prog::lead_run`.
fn lead_run(insts: &[Inst]) -> Option<Pc> {
    if insts
        .iter()
        .any(|i| matches!(i, Inst::Backref(..) | Inst::IfGroup { .. }))
    {
        return None;
    }
    let at = insts.iter().position(|i| !matches!(i, Inst::Save { .. }))?;
    match &insts[at] {
        Inst::RepeatOne {
            max: ast::UNBOUNDED,
            ..
        } => Some(at as Pc),
        _ => None,
    }
}

/// The exact text a positive look-behind that comes first in the
/// pattern (through groups) asks for, or nothing.
fn behind(node: &Node) -> String {
    match node {
        Node::Seq(items) => items.first().map_or(String::new(), behind),
        Node::Group(_, n) | Node::Scoped(n) => behind(n),
        Node::Look {
            behind: Some(_),
            negate: false,
            node,
        } => super::facts::exact_text(node).unwrap_or_default(),
        _ => String::new(),
    }
}

/// The ASCII characters a positive look-behind of one character that
/// comes first in the pattern (through groups) asks for, when it asks for
/// ASCII ones only (`(?<=[ ;])\d`): no match starts where the byte before
/// is not one of them.
fn behind_byte(node: &Node) -> Option<ByteSet> {
    match node {
        Node::Seq(items) => behind_byte(items.first()?),
        Node::Group(_, n) | Node::Scoped(n) => behind_byte(n),
        Node::Look {
            behind: Some(1),
            negate: false,
            node,
        } => match &**node {
            Node::Char(t) => {
                let ranges = unicode::normalize(positive(t));
                ranges
                    .iter()
                    .all(|&(_, hi)| hi < 0x80)
                    .then(|| ByteSet::of_ranges(&ranges))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether every match starts at the text's start.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Anchor(Anchor::Start) => true,
        Node::Seq(items) => items.first().is_some_and(anchored),
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => anchored(n),
        Node::Alt(branches) => branches.iter().all(anchored),
        _ => false,
    }
}

/// The exact characters every match starts with, and whether they are
/// all the node matches.
fn prefix(node: &Node) -> (Vec<u32>, bool) {
    match node {
        Node::Empty | Node::Anchor(_) | Node::Look { .. } => (Vec::new(), true),
        Node::Char(CharTest::Lit(c)) if *c <= 0x10FFFF && !(0xD800..0xE000).contains(c) => {
            (vec![*c], true)
        }
        Node::Seq(items) => {
            let mut out = Vec::new();
            for n in items {
                let (p, complete) = prefix(n);
                out.extend(p);
                if !complete {
                    return (out, false);
                }
            }
            (out, true)
        }
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => prefix(n),
        Node::Repeat { node, min, max, .. } if *min >= 1 => {
            let (p, complete) = prefix(node);
            (p, complete && *min == 1 && *max == 1)
        }
        Node::Alt(branches) => {
            let ps: Vec<(Vec<u32>, bool)> = branches.iter().map(prefix).collect();
            let Some((first, _)) = ps.first() else {
                return (Vec::new(), true);
            };
            let mut n = first.len();
            for (p, _) in &ps[1..] {
                n = n.min(p.iter().zip(first).take_while(|(a, b)| a == b).count());
            }
            let all_same = ps
                .iter()
                .all(|(p, c)| *c && p.len() == n && first.len() == n);
            (first[..n].to_vec(), all_same)
        }
        _ => (Vec::new(), false),
    }
}
