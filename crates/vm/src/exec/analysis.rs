//! What the executor can prove about a pattern before running it: every
//! fact read from a pattern lives here.
//!
//! Each fact is derived from the pattern's parsed forms (its [`Reading`]:
//! `regex-syntax`'s HIR), never from its characters, and no metadata is
//! trusted. A pattern with back-references is read as a superset of
//! itself: each `\N` stands for a copy of group `N`'s sub-pattern (what it
//! matches is text that group could match), so a fact true of every text
//! the superset matches is true of every match. The facts, gathered in
//! [`Facts`] once per pattern: where matches can lie ([`Reach`]), a
//! literal every match contains ([`Analysis::needle`]), the literal every
//! match starts with ([`required_prefix`]), whether the pattern is one
//! literal ([`literal_text`]), where its groups lie in the whole match
//! ([`fixed_groups`]), which groups can hold a `%`
//! ([`groups_with_percent`]), and whether it can be tried anchored at a
//! place ([`runs_at_a_place`]); and, of its text, whether it is one group
//! around everything ([`whole_match_group`]): the executor and the
//! matcher read a pattern nowhere else. A pattern that starts, on every
//! path, with a thread head (`%%`, `` %` ``, `%tag\n`) and whose rest can
//! never match `%` only ever matches inside one thread of that kind; a
//! pattern that can never match `%` (nor the empty string) only ever
//! matches inside one thread or inside the text before the first thread.
//! Anything else, any pattern with an anchor or look-around, and any
//! pattern that cannot be read reaches the whole state; a Python
//! pattern's superset leaves out look-arounds that read only the piece a
//! match is tried in (`pyre::confine`), which then count for nothing
//! here. This module runs nothing and chooses no strategy (that is
//! `prepare`).

use regex_syntax::hir::{Capture, Class, Hir, HirKind};

use super::reading::Reading;

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
    /// text outside the piece it lies in (a Python pattern's look-arounds
    /// that read only that piece are not counted: see `pyre::confine`).
    pub looks: bool,
    /// Where matches lie on a *lined* state, one whose every thread start
    /// but at its first byte follows a `\n` (see [`Lined`]); `None` when
    /// the pattern looks around, can match the empty string, or could
    /// not be read.
    pub lined: Option<Lined>,
}

/// Where a pattern's matches lie on a lined state (every thread start
/// after a `\n`). A match that runs from one thread into the next
/// holds the `\n` that ends the first and the `%` that starts the next,
/// side by side: a pattern none of whose matches holds `\n%` stays in
/// one piece there, whatever its classes say of `%`; one whose `\n%`
/// comes only after at most `cross` newlines of the match (say
/// `(%%\n#stack:\n)([^\n]*)\n`, which reaches the next thread only
/// from a thread with no line after its head) stays in a thread that has
/// more newlines than that, counted from the head it starts at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lined {
    /// The kind of piece every match starts in: the head it starts with
    /// (`%%`, `` %` ``, `%tag\n`), or [`Reach::AnyPiece`].
    pub reach: Reach,
    /// `None`: no match holds `\n%`. `Some(n)`: a match's `\n%` comes
    /// at its `n`-th newline at the latest (`usize::MAX`: no bound);
    /// then `reach` is a head.
    pub cross: Option<usize>,
}

/// Every fact the executor asks of one pattern, derived once from its
/// [`Reading`].
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    /// Where matches can lie, a literal they contain, anchors.
    pub(crate) analysis: Analysis,
    /// The literal text every match starts with (see [`required_prefix`]).
    pub(crate) prefix: String,
    /// The text the pattern matches, when it is one text (see
    /// [`literal_text`]).
    pub(crate) literal: Option<String>,
    /// Where its groups lie in the whole match, when that is fixed (see
    /// [`fixed_groups`]).
    pub(crate) fixed_groups: Option<Vec<GroupEdges>>,
    /// Which groups can hold `%` (see [`groups_with_percent`]).
    pub(crate) percent_groups: Option<Vec<bool>>,
    /// The group every match starts with that holds its thread head and
    /// no other `%` (see [`head_group`]).
    pub(crate) head_group: Option<usize>,
    /// It can be tried anchored at a place (see [`runs_at_a_place`]).
    pub(crate) at_a_place: bool,
}

impl Facts {
    /// The facts of the pattern `reading` read.
    pub(crate) fn of(reading: &Reading) -> Facts {
        let superset = reading.superset();
        Facts {
            analysis: analysis_of(superset),
            prefix: required_prefix(superset),
            literal: literal_text(superset),
            fixed_groups: fixed_groups(reading),
            percent_groups: groups_with_percent(superset),
            head_group: superset.and_then(head_group),
            at_a_place: runs_at_a_place(reading),
        }
    }
}

/// Analyses a pattern (back-references allowed).
pub fn analyse(pattern: &str) -> Analysis {
    analysis_of(Reading::new(pattern).superset())
}

/// [`analyse`] of a pattern's superset (see [`Reading::superset`]).
fn analysis_of(superset: Option<&Hir>) -> Analysis {
    let unread = Analysis {
        reach: Reach::Global,
        needle: None,
        needle_leads: false,
        looks: true,
        lined: None,
    };
    let Some(hir) = superset else {
        return unread;
    };
    let looks = !hir.properties().look_set().is_empty();
    let empty = hir.properties().minimum_len().unwrap_or(1) == 0;
    let (lead, _) = leading_literal(hir);
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
        Some((reach, percents)) => match strip_lead(hir, percents) {
            Some((rest, 0)) => (reach, rest),
            _ => (Reach::Global, Hir::clone(hir)),
        },
        None => (Reach::AnyPiece, Hir::clone(hir)),
    };
    let lined = (!looks && !empty).then(|| lined_of(hir, &reach)).flatten();
    let reach = if looks || empty || can_match_percent(&rest) {
        Reach::Global
    } else {
        reach
    };
    let (needle, needle_leads) = needle_of(&rest);
    Analysis {
        reach,
        needle,
        needle_leads,
        looks,
        lined,
    }
}

/// The [`Lined`] fact of a pattern without anchors or look-around that
/// cannot match the empty string, whose head (read as for [`Reach`]) is
/// `head` (`Global` when it has none on every path).
fn lined_of(hir: &Hir, head: &Reach) -> Option<Lined> {
    let cross = seams(hir).cross;
    match head {
        Reach::Global | Reach::AnyPiece => cross.is_none().then_some(Lined {
            reach: Reach::AnyPiece,
            cross: None,
        }),
        _ => Some(Lined {
            reach: head.clone(),
            cross,
        }),
    }
}

/// What the analysis of `\n%` keeps of a sub-pattern (see [`Lined`]).
#[derive(Debug, Clone, Copy)]
struct Seams {
    /// It can match the empty string.
    nullable: bool,
    /// A match of it can start with `%`.
    first_percent: bool,
    /// A match of it can end with `\n`.
    last_newline: bool,
    /// The most newlines a match of it holds (`usize::MAX`: no bound).
    lines: usize,
    /// A match of it can hold `\n%`, at its this many newlines at the
    /// latest.
    cross: Option<usize>,
}

/// [`Seams`] of `hir`.
fn seams(hir: &Hir) -> Seams {
    let none = Seams {
        nullable: true,
        first_percent: false,
        last_newline: false,
        lines: 0,
        cross: None,
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => none,
        HirKind::Literal(lit) => {
            let b = &lit.0;
            let mut seams = Seams {
                nullable: b.is_empty(),
                first_percent: b.first() == Some(&b'%'),
                last_newline: b.last() == Some(&b'\n'),
                ..none
            };
            for (i, &c) in b.iter().enumerate() {
                if c == b'\n' {
                    seams.lines += 1;
                    if b.get(i + 1) == Some(&b'%') {
                        seams.cross = Some(seams.lines);
                    }
                }
            }
            seams
        }
        HirKind::Class(c) => {
            let newline = class_has(c, b'\n');
            Seams {
                nullable: false,
                first_percent: class_has(c, b'%'),
                last_newline: newline,
                lines: usize::from(newline),
                cross: None,
            }
        }
        HirKind::Capture(c) => seams(&c.sub),
        HirKind::Repetition(r) => {
            let s = seams(&r.sub);
            let lines = match r.max {
                _ if s.lines == 0 => 0,
                Some(max) => s.lines.saturating_mul(max as usize),
                None => usize::MAX,
            };
            let seam = s.last_newline && s.first_percent && r.max.is_none_or(|m| m >= 2);
            Seams {
                nullable: r.min == 0 || s.nullable,
                first_percent: s.first_percent,
                last_newline: s.last_newline,
                lines,
                cross: (s.cross.is_some() || seam).then_some(lines),
            }
        }
        HirKind::Concat(hs) => hs.iter().fold(none, |a, h| {
            let b = seams(h);
            let seam = (a.last_newline && b.first_percent).then_some(a.lines);
            let inside = b.cross.map(|c| a.lines.saturating_add(c));
            Seams {
                nullable: a.nullable && b.nullable,
                first_percent: a.first_percent || (a.nullable && b.first_percent),
                last_newline: b.last_newline || (b.nullable && a.last_newline),
                lines: a.lines.saturating_add(b.lines),
                cross: a.cross.max(seam).max(inside),
            }
        }),
        HirKind::Alternation(hs) => {
            let mut all = hs.iter().map(seams);
            let first = all.next().unwrap_or(none);
            all.fold(first, |a, b| Seams {
                nullable: a.nullable || b.nullable,
                first_percent: a.first_percent || b.first_percent,
                last_newline: a.last_newline || b.last_newline,
                lines: a.lines.max(b.lines),
                cross: a.cross.max(b.cross),
            })
        }
    }
}

/// Whether the class holds the byte `b` (ASCII).
fn class_has(class: &Class, b: u8) -> bool {
    match class {
        Class::Unicode(c) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= char::from(b) && char::from(b) <= r.end()),
        Class::Bytes(c) => c.ranges().iter().any(|r| r.start() <= b && b <= r.end()),
    }
}

/// The needle of a pattern whose matches are `rest` after their head's
/// `%` marks (see [`Analysis::needle`]), and whether it leads.
fn needle_of(rest: &Hir) -> (Option<String>, bool) {
    let mut runs = Runs::default();
    runs.read(rest);
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
    match further.or_else(|| chunks.iter().max_by_key(|(_, c)| c.len())) {
        Some((leads, c)) => (Some(c.clone()), *leads),
        None => (None, false),
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

/// The longest literal text every match of a pattern starts with, read
/// from its superset (an anchor adds nothing; empty when there is none,
/// or the pattern cannot be read).
fn required_prefix(superset: Option<&Hir>) -> String {
    superset
        .map(|hir| leading_literal(hir).0)
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
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
fn fixed_groups(reading: &Reading) -> Option<Vec<GroupEdges>> {
    let info = reading.portable()?;
    if info.backrefs {
        return None;
    }
    let total = info.groups;
    // Without back-references the marked parse is the plain one.
    let parsed;
    let hir = match reading.marked() {
        Some(hir) => hir,
        None => {
            parsed = regex_syntax::Parser::new().parse(reading.pattern()).ok()?;
            &parsed
        }
    };
    let items: &[Hir] = match hir.kind() {
        HirKind::Concat(items) => items,
        _ => std::slice::from_ref(hir),
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

/// For each group of a pattern (0 is the whole match), whether the text
/// it captures can contain `%`, read from its superset; `None` when the
/// pattern cannot be read.
fn groups_with_percent(superset: Option<&Hir>) -> Option<Vec<bool>> {
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
    let hir = superset?;
    let mut out = vec![can_match_percent(hir)];
    walk(hir, &mut out);
    Some(out)
}

/// The group a pattern starts with (its first item, through
/// concatenations), when its text starts with one or more `%` and holds
/// no other `%`, as `(%%\n#stack:\n)` does: a replacement that writes it
/// first writes back the head the match started with, and no other.
fn head_group(hir: &Hir) -> Option<usize> {
    match hir.kind() {
        HirKind::Concat(hs) => head_group(hs.first()?),
        HirKind::Capture(c) => {
            let (lead, _) = leading_literal(&c.sub);
            let percents = lead.iter().take_while(|&&b| b == b'%').count();
            match strip_lead(&c.sub, percents) {
                Some((rest, 0)) if percents > 0 && !can_match_percent(&rest) => {
                    Some(c.index as usize)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the pattern can be tried anchored at a place of a text, as
/// `^(?:pattern)` or on our own matcher, with the same matches as a
/// search over the whole text: it is in the portable subset (no
/// look-around, no `\b`, no `^` but first; see `portable`) and does not
/// start with `^`, so the text before a place cannot change what matches
/// there.
fn runs_at_a_place(reading: &Reading) -> bool {
    !reading.pattern().starts_with('^') && reading.portable().is_some()
}

/// The text a pattern matches, when it matches exactly one text (no
/// class, repetition, alternation or group): such a pattern can be found
/// with a substring search. Read from its superset.
fn literal_text(superset: Option<&Hir>) -> Option<String> {
    let hir = superset?;
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

    fn facts(pattern: &str) -> Facts {
        Facts::of(&Reading::new(pattern))
    }

    fn groups_with_percent(pattern: &str) -> Option<Vec<bool>> {
        facts(pattern).percent_groups
    }

    fn literal_text(pattern: &str) -> Option<String> {
        facts(pattern).literal
    }

    fn required_prefix(pattern: &str) -> String {
        facts(pattern).prefix
    }

    fn fixed_groups(pattern: &str) -> Option<Vec<GroupEdges>> {
        facts(pattern).fixed_groups
    }

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
    fn the_group_that_holds_the_head() {
        for (pattern, want) in [
            (r"(%%\n#stack:\n)([^%]*#x: )", Some(1)),
            (r"((%%\n)#stack:\n)x", Some(1)),
            (r"(%t1\n)x", Some(1)),
            (r"(%%[^%]*#x: )y", Some(1)),
            (r"(%%[^\n]*)x", None),
            (r"(%%\n%%)", None),
            (r"x(%%\n)", None),
            (r"(%?%\n)", None),
            (r"(ab)", None),
        ] {
            assert_eq!(facts(pattern).head_group, want, "{pattern}");
        }
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
