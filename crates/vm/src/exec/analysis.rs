//! What the executor can prove about a pattern before running it: every
//! fact read from a pattern's text lives here.
//!
//! Each fact is derived from the pattern's parsed form (`regex-syntax`'s
//! HIR), never from its characters, and no metadata is trusted. A pattern
//! with back-references is read as a superset of itself: each `\N` stands
//! for a copy of group `N`'s sub-pattern (what it matches is text that
//! group could match), so a fact true of every text the superset matches
//! is true of every match. The facts: where matches can lie ([`Reach`]),
//! a literal every match contains ([`Analysis::needle`]), the literal every
//! match starts with ([`required_prefix`]), whether the pattern is one
//! literal ([`literal_text`]) or one group around everything
//! ([`whole_match_group`]), which groups can hold a `%`
//! ([`groups_with_percent`]), and whether it can be tried anchored at a
//! place ([`runs_at_a_place`]) and how many groups it opens
//! ([`portable_groups`]): the executor and the matcher read a pattern's
//! text nowhere else. A pattern that starts, on every path, with a
//! thread head (`%%`, `` %` ``, `%tag\n`) and whose rest can never match
//! `%` only ever matches inside one thread of that kind; a pattern that can
//! never match `%` (nor the empty string) only ever matches inside one
//! thread or inside the text before the first thread. Anything else, any
//! pattern with an anchor or look-around, and any pattern that cannot be
//! read reaches the whole state. This module runs nothing.

use std::cell::RefCell;
use std::rc::Rc;

use regex_syntax::hir::{Capture, Class, Hir, HirKind, Repetition};

use crate::lex::{lex, Token};

/// Which pieces of the state a pattern's matches can lie in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Anywhere; the pattern runs on the whole state.
    Global,
    /// Inside one piece (the text before the first thread, or one thread),
    /// of any kind.
    AnyPiece,
    /// Inside one active thread (`%%`).
    Active,
    /// Inside one thread marked by the current instruction (`` %` ``).
    Marked,
    /// Inside one thread paused under this tag.
    Tagged(String),
}

/// The result of the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Where matches can lie.
    pub reach: Reach,
    /// A literal every match contains, if any: the longest found past
    /// the text a match starts with, else the longest found (a thread
    /// head's `%` characters are never part of it).
    pub needle: Option<String>,
    /// The needle is part of the literal text every match starts with
    /// (so it cannot tell apart two places where a match may start).
    pub needle_leads: bool,
    /// The pattern has an anchor or a look-around (`^`, `$`, `\b`, ...),
    /// or could not be read: what matches at a place may depend on the
    /// text before it.
    pub looks: bool,
}

/// The first private-use character standing for a back-reference while
/// the pattern is parsed (`\N` is this plus `N`).
const BACKREF_BASE: u32 = 0xF0000;

/// The pattern's parsed form, each back-reference `\N` (outside a class)
/// replaced by a copy of group `N`'s sub-pattern with its own groups made
/// non-capturing: a superset of the pattern. `None` when it cannot be
/// read (a syntax `regex-syntax` does not know, a reference to a group
/// that is not closed before it, a private-use character of our own).
pub(crate) fn superset(pattern: &str) -> Option<Rc<Hir>> {
    reading(pattern).superset.clone()
}

/// The pattern's parsed form with each back-reference `\N` (outside a
/// class) written as one marker character inside a literal (see
/// [`split_marks`]), when every reference names a group closed before it.
pub(crate) fn marked(pattern: &str) -> Option<Rc<Hir>> {
    reading(pattern).marked.clone()
}

/// A pattern's two parsed forms ([`marked`] and [`superset`]).
struct Reading {
    pattern: String,
    marked: Option<Rc<Hir>>,
    superset: Option<Rc<Hir>>,
}

thread_local! {
    /// The last few patterns read on this thread, the latest last. The
    /// executor asks a distinct pattern's facts one after another on one
    /// thread, of the pattern and of its other forms (the inside of its
    /// one group, its ASCII form and superset): each is parsed once.
    static LAST_READ: RefCell<Vec<Rc<Reading>>> = const { RefCell::new(Vec::new()) };
}

/// How many readings [`LAST_READ`] keeps.
const KEPT_READINGS: usize = 4;

/// The pattern's [`Reading`], parsed unless it is among the last ones
/// read on this thread.
fn reading(pattern: &str) -> Rc<Reading> {
    LAST_READ.with(|last| {
        if let Some(r) = last.borrow().iter().rev().find(|r| r.pattern == pattern) {
            return Rc::clone(r);
        }
        let marked = parse_marked(pattern);
        let superset = marked
            .as_ref()
            .and_then(|hir| expand_backrefs(hir, &mut Vec::new()));
        // A reference the expansion cannot read leaves both unread.
        let r = Rc::new(Reading {
            pattern: pattern.to_string(),
            marked: marked.filter(|_| superset.is_some()).map(Rc::new),
            superset: superset.map(Rc::new),
        });
        let mut kept = last.borrow_mut();
        if kept.len() == KEPT_READINGS {
            kept.remove(0);
        }
        kept.push(Rc::clone(&r));
        r
    })
}

/// [`marked`]'s parse (which [`superset`] expands).
fn parse_marked(pattern: &str) -> Option<Hir> {
    let mut text = String::with_capacity(pattern.len());
    for l in lex(pattern).lexemes {
        match l.token {
            // `\12`: a two-digit reference; not read.
            Token::Backref {
                then_digit: true, ..
            }
            | Token::TrailingBackslash => return None,
            Token::Backref { group, .. } => {
                text.push_str(&format!(r"\x{{{:X}}}", BACKREF_BASE + group));
            }
            Token::Char(c) if (BACKREF_BASE..BACKREF_BASE + 16).contains(&u32::from(c)) => {
                return None
            }
            _ => text.push_str(l.text),
        }
    }
    regex_syntax::Parser::new().parse(&text).ok()
}

/// A literal of [`marked`]'s tree cut into its text and its
/// back-references: `Ok(bytes)` or `Err(group)`, in order.
pub(crate) fn split_marks(lit: &[u8]) -> Vec<Result<&[u8], usize>> {
    let mut out = Vec::new();
    let mut last = 0;
    let mut i = 0;
    // U+F0000 + n is F3 B0 80 (80 + n) in UTF-8, n below 16.
    while i + 4 <= lit.len() {
        if lit[i..i + 3] == [0xF3, 0xB0, 0x80] && (0x80..0x90).contains(&lit[i + 3]) {
            if i > last {
                out.push(Ok(&lit[last..i]));
            }
            out.push(Err(usize::from(lit[i + 3] - 0x80)));
            i += 4;
            last = i;
        } else {
            i += 1;
        }
    }
    if last < lit.len() {
        out.push(Ok(&lit[last..]));
    }
    out
}

/// [`superset`]'s walk: `closed[n]` is group `n`'s sub-pattern once the
/// group has been read.
fn expand_backrefs(hir: &Hir, closed: &mut Vec<Option<Hir>>) -> Option<Hir> {
    Some(match hir.kind() {
        HirKind::Literal(lit) => {
            let text = std::str::from_utf8(&lit.0).ok()?;
            let mut parts = Vec::new();
            let mut plain = String::new();
            for c in text.chars() {
                let code = u32::from(c);
                if (BACKREF_BASE..BACKREF_BASE + 16).contains(&code) {
                    let n = (code - BACKREF_BASE) as usize;
                    parts.push(Hir::literal(std::mem::take(&mut plain).into_bytes()));
                    parts.push(closed.get(n)?.clone()?);
                } else {
                    plain.push(c);
                }
            }
            if parts.is_empty() {
                return Some(hir.clone());
            }
            parts.push(Hir::literal(plain.into_bytes()));
            Hir::concat(parts)
        }
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) => hir.clone(),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(expand_backrefs(&r.sub, closed)?),
            ..r.clone()
        }),
        HirKind::Capture(c) => {
            let sub = expand_backrefs(&c.sub, closed)?;
            let i = c.index as usize;
            if closed.len() <= i {
                closed.resize(i + 1, None);
            }
            closed[i] = Some(without_captures(&sub));
            Hir::capture(Capture {
                index: c.index,
                name: c.name.clone(),
                sub: Box::new(sub),
            })
        }
        HirKind::Concat(hs) => Hir::concat(
            hs.iter()
                .map(|h| expand_backrefs(h, closed))
                .collect::<Option<_>>()?,
        ),
        HirKind::Alternation(hs) => Hir::alternation(
            hs.iter()
                .map(|h| expand_backrefs(h, closed))
                .collect::<Option<_>>()?,
        ),
    })
}

/// The same pattern with every group non-capturing.
fn without_captures(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Capture(c) => without_captures(&c.sub),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(without_captures(&r.sub)),
            ..r.clone()
        }),
        HirKind::Concat(hs) => Hir::concat(hs.iter().map(without_captures).collect()),
        HirKind::Alternation(hs) => Hir::alternation(hs.iter().map(without_captures).collect()),
        _ => hir.clone(),
    }
}

/// Analyses a pattern (back-references allowed).
pub fn analyse(pattern: &str) -> Analysis {
    let unread = Analysis {
        reach: Reach::Global,
        needle: None,
        needle_leads: false,
        looks: true,
    };
    let Some(hir) = superset(pattern) else {
        return unread;
    };
    let looks = !hir.properties().look_set().is_empty();
    let empty = hir.properties().minimum_len().unwrap_or(1) == 0;
    let (lead, _) = leading_literal(&hir);
    // The head a match starts with, and how many of its bytes are `%`.
    let head = if lead.starts_with(b"%%") {
        Some((Reach::Active, 2))
    } else if lead.starts_with(b"%`") {
        Some((Reach::Marked, 1))
    } else if lead.first() == Some(&b'%') {
        let tag = lead[1..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|end| &lead[1..1 + end])
            .filter(|t| !t.is_empty() && t.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_'));
        tag.map(|t| (Reach::Tagged(String::from_utf8_lossy(t).into_owned()), 1))
    } else {
        None
    };
    // What follows the head's `%` characters (the whole pattern if none).
    let (reach, rest) = match head {
        Some((reach, percents)) => match strip_lead(&hir, percents) {
            Some((rest, 0)) => (reach, rest),
            _ => (Reach::Global, Hir::clone(&hir)),
        },
        None => (Reach::AnyPiece, Hir::clone(&hir)),
    };
    let reach = if looks || empty || can_match_percent(&rest) {
        Reach::Global
    } else {
        reach
    };
    let mut runs = Runs::default();
    runs.read(&rest);
    runs.flush();
    // A chunk of the run a match starts with (`leads`) is found anyway
    // where the match starts; a chunk further on can tell a thread
    // without a match from one with, so the longest of those is
    // preferred: two bytes or more, or one byte other than the grammar's
    // line bytes (`\n`, `#`, `:`, which every thread has), such as a
    // mark on a board (`(#z:[^%\n]*?)A...`). Otherwise the longest chunk.
    // Chunks holding `%` (what is left of a head, or a head's copy) are
    // split there.
    let first_leads = runs.first_leads;
    let chunks: Vec<(bool, String)> = runs
        .done
        .into_iter()
        .enumerate()
        .filter_map(|(i, b)| {
            String::from_utf8(b)
                .ok()
                .map(|s| (i == 0 && first_leads, s))
        })
        .flat_map(|(leads, s)| {
            s.split('%')
                .map(|c| (leads, c.to_string()))
                .collect::<Vec<_>>()
        })
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let further = chunks
        .iter()
        .filter(|(leads, c)| {
            !leads && (c.len() >= 2 || !c.bytes().all(|b| crate::state::LINE_BYTES.contains(&b)))
        })
        .max_by_key(|(_, c)| c.len());
    let (needle, needle_leads) =
        match further.or_else(|| chunks.iter().max_by_key(|(_, c)| c.len())) {
            Some((leads, c)) => (Some(c.clone()), *leads),
            None => (None, false),
        };
    Analysis {
        reach,
        needle,
        needle_leads,
        looks,
    }
}

/// The literal bytes every match starts with, read from the pattern's
/// structure, and whether the whole pattern is that literal (so what
/// follows it in a concatenation still leads).
fn leading_literal(hir: &Hir) -> (Vec<u8>, bool) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => (Vec::new(), true),
        HirKind::Literal(lit) => (lit.0.to_vec(), true),
        HirKind::Class(c) => match c.literal() {
            Some(b) => (b, true),
            None => (Vec::new(), false),
        },
        HirKind::Capture(c) => leading_literal(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => {
            let (b, whole) = leading_literal(&r.sub);
            (b, whole && r.max == Some(1))
        }
        HirKind::Repetition(_) => (Vec::new(), false),
        HirKind::Concat(hs) => {
            let mut out = Vec::new();
            for h in hs {
                let (b, whole) = leading_literal(h);
                out.extend(b);
                if !whole {
                    return (out, false);
                }
            }
            (out, true)
        }
        HirKind::Alternation(hs) => {
            let mut branches = hs.iter().map(leading_literal);
            let Some((mut common, mut whole)) = branches.next() else {
                return (Vec::new(), false);
            };
            for (b, w) in branches {
                let same = common.iter().zip(&b).take_while(|(x, y)| x == y).count();
                whole = whole && w && same == common.len() && same == b.len();
                common.truncate(same);
            }
            (common, whole)
        }
    }
}

/// The pattern with its first `n` bytes removed, when they are literal
/// bytes at its start on every path (through groups, concatenations and
/// alternations); with the count of bytes still to remove when the whole
/// pattern was shorter.
fn strip_lead(hir: &Hir, n: usize) -> Option<(Hir, usize)> {
    if n == 0 {
        return Some((hir.clone(), 0));
    }
    match hir.kind() {
        HirKind::Empty => Some((Hir::empty(), n)),
        HirKind::Literal(lit) => {
            let k = n.min(lit.0.len());
            Some((Hir::literal(lit.0[k..].to_vec()), n - k))
        }
        HirKind::Capture(c) => {
            let (sub, left) = strip_lead(&c.sub, n)?;
            Some((
                Hir::capture(Capture {
                    index: c.index,
                    name: c.name.clone(),
                    sub: Box::new(sub),
                }),
                left,
            ))
        }
        HirKind::Concat(hs) => {
            let mut out = Vec::with_capacity(hs.len());
            let mut left = n;
            for h in hs {
                let (h, l) = strip_lead(h, left)?;
                out.push(h);
                left = l;
            }
            Some((Hir::concat(out), left))
        }
        HirKind::Alternation(hs) => {
            let mut out = Vec::with_capacity(hs.len());
            let mut left = None;
            for h in hs {
                let (h, l) = strip_lead(h, n)?;
                if left.is_some_and(|x| x != l) {
                    return None;
                }
                left = Some(l);
                out.push(h);
            }
            Some((Hir::alternation(out), left?))
        }
        HirKind::Class(_) | HirKind::Look(_) | HirKind::Repetition(_) => None,
    }
}

/// The longest literal text every match of `pattern` starts with, read
/// from its parsed form (an anchor adds nothing; empty when there is
/// none, or the pattern cannot be read).
pub(crate) fn required_prefix(pattern: &str) -> String {
    superset(pattern)
        .map(|hir| leading_literal(&hir).0)
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}

/// Whether the pattern has back-references (`\1`..`\9` outside a class).
pub(crate) fn has_backrefs(pattern: &str) -> bool {
    lex(pattern).has_backrefs()
}

/// `X` when `pattern` is `(X)` and that group is its only one: group 1 is
/// then always the whole match, which the engines report without a capture
/// search, so the executor compiles `X` and reads group 1 as group 0.
pub(crate) fn whole_match_group(pattern: &str) -> Option<&str> {
    let inner = pattern.strip_prefix('(')?.strip_suffix(')')?;
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let HirKind::Capture(c) = hir.kind() else {
        return None;
    };
    if c.index != 1 || hir.properties().explicit_captures_len() != 1 {
        return None;
    }
    // `inner` parses only if the group that opens the pattern is the one
    // that closes it (otherwise it holds an unmatched `)`).
    let sub = regex_syntax::Parser::new().parse(inner).ok()?;
    (sub.properties().explicit_captures_len() == 0 && sub == *c.sub).then_some(inner)
}

/// Where one end of a group lies: this many bytes after the whole match's
/// start, or before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// Bytes after the match's start.
    FromStart(usize),
    /// Bytes before the match's end.
    FromEnd(usize),
}

/// Where a group lies in the whole match: its start and its end.
pub type GroupEdges = (Edge, Edge);

/// For a plain pattern (no back-references) whose groups are all items of
/// its top-level concatenation, none holding another group, and each of
/// whose ends lies a fixed number of bytes from an end of the whole match
/// (every item between them has one length, as in `(X)\*` or `#a:(X)`):
/// the `(start, end)` of groups 1, 2, ... in order. A search for the whole
/// match then gives every group without a capture search. Such a group
/// always takes part in a match. `None` otherwise, or when the pattern
/// is outside the portable subset (whose group count, unlike the syntax
/// tree's, keeps a group such as `(a){0}`).
pub fn fixed_groups(pattern: &str) -> Option<Vec<GroupEdges>> {
    let total = portable_groups(pattern)?;
    if has_backrefs(pattern) {
        return None;
    }
    // Without back-references the marked parse is the plain one.
    let hir = match marked(pattern) {
        Some(hir) => hir,
        None => Rc::new(regex_syntax::Parser::new().parse(pattern).ok()?),
    };
    let items: &[Hir] = match hir.kind() {
        HirKind::Concat(items) => items,
        _ => std::slice::from_ref(&hir),
    };
    let len = |h: &Hir| {
        let p = h.properties();
        p.minimum_len().filter(|&min| p.maximum_len() == Some(min))
    };
    let lens: Vec<Option<usize>> = items.iter().map(len).collect();
    // Bytes from the match's start to item i's start, and from item i's
    // end to the match's end, when fixed.
    let before = |i: usize| lens[..i].iter().copied().sum::<Option<usize>>();
    let after = |i: usize| lens[i + 1..].iter().copied().sum::<Option<usize>>();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let HirKind::Capture(c) = item.kind() else {
            if item.properties().explicit_captures_len() > 0 {
                return None;
            }
            continue;
        };
        if c.sub.properties().explicit_captures_len() > 0 || c.index as usize != out.len() + 1 {
            return None;
        }
        let start = match (before(i), after(i).zip(lens[i])) {
            (Some(b), _) => Edge::FromStart(b),
            (None, Some((a, l))) => Edge::FromEnd(a + l),
            (None, None) => return None,
        };
        let end = match (after(i), before(i).zip(lens[i])) {
            (Some(a), _) => Edge::FromEnd(a),
            (None, Some((b, l))) => Edge::FromStart(b + l),
            (None, None) => return None,
        };
        out.push((start, end));
    }
    (out.len() == total).then_some(out)
}

/// For each group of `pattern` (0 is the whole match), whether the text
/// it captures can contain `%`; `None` when the pattern cannot be read.
pub(crate) fn groups_with_percent(pattern: &str) -> Option<Vec<bool>> {
    fn walk(hir: &Hir, out: &mut Vec<bool>) {
        match hir.kind() {
            HirKind::Capture(c) => {
                let i = c.index as usize;
                if out.len() <= i {
                    out.resize(i + 1, false);
                }
                out[i] = can_match_percent(&c.sub);
                walk(&c.sub, out);
            }
            HirKind::Repetition(r) => walk(&r.sub, out),
            HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().for_each(|h| walk(h, out)),
            _ => {}
        }
    }
    let hir = superset(pattern)?;
    let mut out = vec![can_match_percent(&hir)];
    walk(&hir, &mut out);
    Some(out)
}

/// Whether the pattern can be tried anchored at a place of a text, as
/// `^(?:pattern)` or on our own matcher, with the same matches as a
/// search over the whole text: it is in the portable subset (no
/// look-around, no `\b`, no `^` but first; see `portable`) and does not
/// start with `^`, so the text before a place cannot change what matches
/// there.
pub(crate) fn runs_at_a_place(pattern: &str) -> bool {
    !pattern.starts_with('^') && crate::portable::check(pattern).is_ok()
}

/// The number of groups the pattern's text opens, counted by the portable
/// checker (a group the syntax tree drops, `(a){0}`, still counts);
/// `None` outside the portable subset.
pub(crate) fn portable_groups(pattern: &str) -> Option<usize> {
    crate::portable::check(pattern).ok().map(|info| info.groups)
}

/// The text a pattern matches, when it matches exactly one text (no
/// class, repetition, alternation or group): such a pattern can be found
/// with a substring search.
pub(crate) fn literal_text(pattern: &str) -> Option<String> {
    let hir = superset(pattern)?;
    match hir.kind() {
        HirKind::Literal(lit) if !lit.0.is_empty() => String::from_utf8(lit.0.to_vec()).ok(),
        _ => None,
    }
}

fn can_match_percent(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(lit) => lit.0.contains(&b'%'),
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= '%' && '%' <= r.end()),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= b'%' && b'%' <= r.end()),
        HirKind::Repetition(r) => can_match_percent(&r.sub),
        HirKind::Capture(c) => can_match_percent(&c.sub),
        HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().any(can_match_percent),
    }
}

/// Runs of literal text every match contains, each whole (adjacent
/// literals joined across capture groups and fixed repetitions of a
/// literal), in order.
#[derive(Default)]
struct Runs {
    done: Vec<Vec<u8>>,
    current: Vec<u8>,
    /// Something of the pattern has been read.
    started: bool,
    /// The pattern starts with a literal: the first run is where every
    /// match starts.
    first_leads: bool,
}

impl Runs {
    fn read(&mut self, hir: &Hir) {
        match hir.kind() {
            HirKind::Literal(lit) => {
                if !self.started {
                    self.started = true;
                    self.first_leads = true;
                }
                self.current.extend_from_slice(&lit.0);
            }
            HirKind::Capture(c) => self.read(&c.sub),
            HirKind::Concat(hs) => hs.iter().for_each(|h| self.read(h)),
            HirKind::Repetition(r)
                if Some(r.min) == r.max
                    && (1..=64).contains(&r.min)
                    && matches!(r.sub.kind(), HirKind::Literal(_)) =>
            {
                for _ in 0..r.min {
                    self.read(&r.sub);
                }
            }
            HirKind::Repetition(r) if r.min >= 1 => {
                self.flush();
                self.read(&r.sub);
                self.flush();
            }
            _ => self.flush(),
        }
    }

    /// Ends the current run of literal text.
    fn flush(&mut self) {
        self.started = true;
        if !self.current.is_empty() {
            self.done.push(std::mem::take(&mut self.current));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_heads_and_percent_free_patterns() {
        let a = analyse(r"(%%\n#stack:\n[^%]*)#x:[^%\n]*\n");
        assert_eq!(a.reach, Reach::Active);
        assert_eq!(a.needle.as_deref(), Some("#x:"));
        assert_eq!(analyse(r"%`\n").reach, Reach::Marked);
        assert_eq!(analyse(r"%t12\n").reach, Reach::Tagged("t12".into()));
        assert_eq!(analyse(r"c{10}").reach, Reach::AnyPiece);
        assert_eq!(analyse(r"`(i*)\|5;").needle.as_deref(), Some("|5;"));
    }

    #[test]
    fn the_needle_joins_literals_and_prefers_one_past_the_start() {
        let a = analyse(r"(#dv:H*\|T*\|)i{2}\n");
        assert_eq!(
            (a.needle.as_deref(), a.needle_leads),
            (Some("|ii\n"), false)
        );
        let a = analyse(r"%%\n#stack:\n([^%]*?#t:([^%\n]*)\n)");
        assert_eq!((a.needle.as_deref(), a.needle_leads), (Some("#t:"), false));
        let a = analyse(r"#dv:H{2}\|");
        assert_eq!(
            (a.needle.as_deref(), a.needle_leads),
            (Some("#dv:HH|"), true)
        );
        let a = analyse(r"[ab]x(y)z");
        assert_eq!((a.needle.as_deref(), a.needle_leads), (Some("xyz"), false));
        assert!(!a.looks);
        assert!(analyse(r"^ab").looks);
    }

    #[test]
    fn anything_that_can_cross_a_thread_is_global() {
        for p in [
            r"%%\n[^\n]*",
            r"%%\n.",
            r"(%%\n#stack:\n)F\n([^%]*)%%\n[^%]*",
            r"^$",
            r"Your move: [^\n]*",
            r"%tag",
        ] {
            assert_eq!(analyse(p).reach, Reach::Global, "{p}");
        }
    }

    #[test]
    fn groups_that_can_hold_a_thread_head() {
        assert_eq!(
            groups_with_percent(r"(%%\n)([^%]*)(a|%)"),
            Some(vec![true, true, false, true])
        );
        assert_eq!(groups_with_percent(r"x(y)"), Some(vec![false, false]));
    }

    #[test]
    fn literal_patterns() {
        assert_eq!(literal_text(r"%t12\n").as_deref(), Some("%t12\n"));
        assert_eq!(literal_text(r"`iii;").as_deref(), Some("`iii;"));
        assert_eq!(literal_text(r"a\.b").as_deref(), Some("a.b"));
        assert_eq!(literal_text(r"[a]b").as_deref(), Some("ab"));
        for p in [r"(ab)", r"a|b", r"ab*", r"[ab]c", r"a\1"] {
            assert_eq!(literal_text(p), None, "{p}");
        }
    }

    #[test]
    fn required_prefix_reads_the_parsed_pattern() {
        assert_eq!(required_prefix(r"%%\n#stack:\n([^%]*)"), "%%\n#stack:\n");
        assert_eq!(
            required_prefix(r"(%%\n#stack:\n)F([^%]*)"),
            "%%\n#stack:\nF"
        );
        assert_eq!(required_prefix(r"ab*c"), "a");
        assert_eq!(required_prefix(r"ab+c"), "ab");
        assert_eq!(required_prefix(r"a\.b"), "a.b");
        assert_eq!(required_prefix(r"ab|cd"), "");
        assert_eq!(required_prefix(r"ab|ac"), "a");
        assert_eq!(required_prefix(r"(ab)"), "ab");
        assert_eq!(required_prefix(r"(ab)?c"), "");
        assert_eq!(required_prefix(r"%%?x"), "%");
        assert_eq!(required_prefix(r"^$"), "");
        assert_eq!(required_prefix(r"x\d"), "x");
        assert_eq!(required_prefix(r"(a)\1b"), "aab");
    }

    /// The four shapes the text-reading analysis got wrong: a `?` after
    /// the head, an optional group around it, and a top-level `|`.
    #[test]
    fn optional_heads_and_alternations_reach_the_whole_state() {
        for p in [r"%%?x\n", r"(%%\n)?abc", r"%%\n|abc", r"%%x|abc", r"(%%)*x"] {
            assert_eq!(analyse(p).reach, Reach::Global, "{p}");
        }
        assert_eq!(analyse(r"%%a|%%b").reach, Reach::Active);
        assert_eq!(analyse(r"(%%\na|%%\nb)c").reach, Reach::Active);
        assert_eq!(analyse(r"(x|y)+").reach, Reach::AnyPiece);
        assert_eq!(
            analyse(r"x*").reach,
            Reach::Global,
            "matches the empty string"
        );
        assert_eq!(analyse(r"(%%\n)x\1").reach, Reach::Global);
    }

    #[test]
    fn groups_at_fixed_distances_from_the_match_ends() {
        use Edge::{FromEnd, FromStart};
        let cases: &[(&str, Option<Vec<GroupEdges>>)] = &[
            (
                r"(#z:[^%\n]*?(?:[p]..|[n].))\*",
                Some(vec![(FromStart(0), FromEnd(1))]),
            ),
            (r"#a:([^\n]*)\n", Some(vec![(FromStart(3), FromEnd(1))])),
            (
                r"(ab)[^x]*(c[de])",
                Some(vec![(FromStart(0), FromStart(2)), (FromEnd(2), FromEnd(0))]),
            ),
            (r"x(a*)(b*)y", None),
            (r"(a(b)c)d", None),
            (r"(?:(a)|b)c", None),
            (r"(a)\1", None),
            (r"(a){0}b", None),
            (r"a+b", Some(vec![])),
        ];
        for (pattern, want) in cases {
            assert_eq!(fixed_groups(pattern), *want, "{pattern}");
        }
    }

    #[test]
    fn back_references_are_seen_through() {
        let a = analyse(r"%%(\n#stack:\n)([^#%\n]*)\n\2\n");
        assert_eq!(a.reach, Reach::Active);
        // "\n\n" is not required: the back-reference sits between.
        assert_eq!(a.needle.as_deref(), Some("\n#stack:\n"));
    }
}
