//! A pattern read once: its parsed forms, from which `analysis` derives
//! every fact and `backtrack` compiles our own matcher.
//!
//! It owns the one parse of a pattern in the `regex` crate's syntax, with
//! back-references (which `regex-syntax` does not know) read from the
//! pattern's lexemes (`lex`): [`Reading::marked`], each `\N` a marker
//! character inside a literal, and [`Reading::superset`], each `\N` a
//! copy of group `N`'s sub-pattern; and the portable checker's verdict
//! (`portable`). The executor makes one [`Reading`] of
//! each form of a pattern it compiles and hands it to whoever asks, so a
//! pattern is parsed once however many facts are asked of it. It derives
//! no fact and runs nothing.

use regex_syntax::hir::{Capture, Hir, HirKind, Repetition};

use crate::lex::{lex, Token};
use crate::portable::{self, PatternInfo};

/// The first private-use character standing for a back-reference while
/// the pattern is parsed (`\N` is this plus `N`).
const BACKREF_BASE: u32 = 0xF0000;

/// A pattern's parsed forms.
pub(crate) struct Reading {
    pattern: Box<str>,
    marked: Option<Hir>,
    superset: Option<Hir>,
    portable: Option<PatternInfo>,
}

impl Reading {
    /// Reads `pattern` (in the `regex` crate's syntax, back-references
    /// allowed).
    pub(crate) fn new(pattern: &str) -> Reading {
        let checked = portable::check_parsed(pattern).ok();
        // A portable pattern without back-references is its own skeleton,
        // whose parse the checker made: the marked parse is that one,
        // unless the pattern holds one of our marker characters.
        let marked = match checked {
            Some((ref info, ref hir)) if !info.backrefs && !has_markers(pattern) => {
                Some(hir.clone())
            }
            _ => parse_marked(pattern),
        };
        let superset = marked
            .as_ref()
            .and_then(|hir| expand_backrefs(hir, &mut Vec::new()));
        // A reference the expansion cannot read leaves both unread.
        Reading {
            pattern: pattern.into(),
            marked: marked.filter(|_| superset.is_some()),
            superset,
            portable: checked.map(|(info, _)| info),
        }
    }

    /// The pattern's text.
    pub(crate) fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The pattern's parsed form, each back-reference `\N` (outside a
    /// class) replaced by a copy of group `N`'s sub-pattern with its own
    /// groups made non-capturing: a superset of the pattern. `None` when
    /// it cannot be read (a syntax `regex-syntax` does not know, a
    /// reference to a group that is not closed before it, a private-use
    /// character of our own).
    pub(crate) fn superset(&self) -> Option<&Hir> {
        self.superset.as_ref()
    }

    /// The pattern's parsed form with each back-reference `\N` (outside
    /// a class) written as one marker character inside a literal (see
    /// [`split_marks`]), when every reference names a group closed before
    /// it.
    pub(crate) fn marked(&self) -> Option<&Hir> {
        self.marked.as_ref()
    }

    /// What the portable checker learned of the pattern, when it is in
    /// the portable subset (see `portable`).
    pub(crate) fn portable(&self) -> Option<&PatternInfo> {
        self.portable.as_ref()
    }
}

/// Whether the pattern holds a character that [`parse_marked`] uses as a
/// marker (it then reads the pattern as unreadable).
fn has_markers(pattern: &str) -> bool {
    pattern.chars().any(is_marker)
}

fn is_marker(c: char) -> bool {
    (BACKREF_BASE..BACKREF_BASE + 16).contains(&u32::from(c))
}

/// [`Reading::marked`]'s parse (which [`Reading::superset`] expands).
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
            Token::Char(c) if is_marker(c) => return None,
            _ => text.push_str(l.text),
        }
    }
    regex_syntax::Parser::new().parse(&text).ok()
}

/// A literal of [`Reading::marked`]'s tree cut into its text and its
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

/// [`Reading::superset`]'s walk: `closed[n]` is group `n`'s sub-pattern once the
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
