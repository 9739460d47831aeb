//! A parsed Python pattern written in the `regex` crate's syntax, exact
//! on ASCII text: the executor's fast path for patterns only our engine
//! reads as CPython does (`\d`, `\s`, `(?i)`, `(?m)^`, named groups, ...)
//! when the state is ASCII.
//!
//! On ASCII text a character test matches exactly the ASCII characters it
//! passes, so each test is written as the class of those (`\d` is
//! `[0-9]`, `(?i)k` is `[Kk]`: the Kelvin sign cannot occur); `(?m)^`,
//! `(?m)$`, `\A`, `\Z` and `\b` mean the same to both engines on such
//! text. Everything else is declined (`None`): back-references,
//! look-around, atomic groups, possessive loops and conditionals (the
//! `regex` crate has none), `$` and `\B` (no equivalent: `\B` never
//! matches an empty text in CPython), a pattern that can match the empty
//! string (the two place empty matches differently), a loop whose body
//! can (their loop rules differ there), and a pattern with CPython's
//! search filter (see `compile::filter`). What is left is the `regex`
//! crate's leftmost-first reading, the one a backtracker has, groups
//! numbered alike. It runs nothing.

use super::{braces, class, print, Dialect, Form};
use crate::pyre::ast::{self, Anchor, CharTest, Greed, Node};

/// The pattern in the `regex` crate's syntax, exact on ASCII text, or
/// `None` where it declines.
pub(crate) fn translate(node: &Node, has_filter: bool) -> Option<String> {
    if has_filter || ast::can_be_empty(node) {
        return None;
    }
    print(node, &mut Ascii).ok().map(|p| p.text)
}

/// The dialect: every piece in its own group, for the analysis and for
/// people to read.
struct Ascii;

/// A construct this dialect has no exact form for.
struct Declined;

impl<'t> Dialect<'t> for Ascii {
    type Refusal = Declined;
    type Saved = ();
    const EXPLICIT: bool = true;

    fn char_test(&mut self, t: &CharTest) -> Result<String, Declined> {
        ascii_class(t).ok_or(Declined)
    }

    fn anchor(&mut self, a: Anchor) -> Result<String, Declined> {
        Ok(match a {
            Anchor::Start => r"\A",
            Anchor::End => r"\z",
            Anchor::LineStart => "(?m:^)",
            Anchor::LineEnd => "(?m:$)",
            Anchor::WordBoundary { .. } => r"(?-u:\b)",
            Anchor::EndOrFinalNewline | Anchor::NotWordBoundary { .. } => return Err(Declined),
        }
        .to_string())
    }

    fn bounds(&self, min: u32, max: u32, greed: Greed) -> String {
        let mut out = braces(min, max);
        if greed == Greed::Lazy {
            out.push('?');
        }
        out
    }

    fn form(&mut self, node: &'t Node) -> Result<(Form<'t>, ()), Declined> {
        match node {
            Node::Repeat { node, greed, .. }
                if *greed == Greed::Possessive || ast::can_be_empty(node) =>
            {
                Err(Declined)
            }
            Node::Backref(..) | Node::Look { .. } | Node::Atomic(_) | Node::Cond { .. } => {
                Err(Declined)
            }
            _ => Ok((Form::Walk, ())),
        }
    }
}

/// The ASCII characters a test passes, as a class (declined when there
/// are none: the `regex` crate has no empty class). Only ASCII occurs, so
/// a class may say anything of the rest: one that refuses few ASCII
/// characters is written negated (`[^%\n]`, which the executor's matcher
/// runs with `memchr`).
fn ascii_class(t: &CharTest) -> Option<String> {
    let ranges = |pass: bool| {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for c in (0..128u32).filter(|&c| t.matches(c) == pass) {
            match ranges.last_mut() {
                Some(r) if r.1 + 1 == c => r.1 = c,
                _ => ranges.push((c, c)),
            }
        }
        ranges
    };
    let (passed, refused) = (ranges(true), ranges(false));
    let count = |r: &[(u32, u32)]| r.iter().map(|(lo, hi)| hi - lo + 1).sum::<u32>();
    let in_class = |c| escaped(c, true);
    Some(match (&passed[..], &refused[..]) {
        ([], _) => return None,
        (_, []) => "(?s:.)".to_string(),
        ([(lo, hi)], _) if lo == hi => escaped(*lo, false),
        (p, r) if count(r) < count(p) => class("[^", r, in_class),
        (p, _) => class("[", p, in_class),
    })
}

/// An ASCII character as the `regex` crate (and the portable subset,
/// which the executor's fast paths ask for) reads it: itself, a
/// backslash before punctuation that means something, `\n` or `\t`, or
/// a hexadecimal escape.
fn escaped(c: u32, in_class: bool) -> String {
    let Some(ch) = char::from_u32(c).filter(char::is_ascii) else {
        return format!(r"\x{{{c:X}}}");
    };
    match ch {
        '\n' => r"\n".to_string(),
        '\t' => r"\t".to_string(),
        c if c.is_ascii_alphanumeric() || c == ' ' || c == '_' || c == '%' || c == '`' => {
            c.to_string()
        }
        c if c.is_ascii_punctuation() => {
            let meta = if in_class {
                "\\[]^-&~|"
            } else {
                "\\.+*?()|[]{}^$#&-~"
            };
            if meta.contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        }
        c => format!(r"\x{{{:X}}}", c as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pyre::{compile, parse};

    fn ascii(p: &str) -> Option<String> {
        let parsed = parse::parse(p).expect("parses");
        let filter = compile::compile(&parsed.node, parsed.groups)
            .filter
            .is_some();
        translate(&parsed.node, filter)
    }

    #[test]
    fn writes_tests_as_their_ascii_classes_and_declines_the_rest() {
        assert_eq!(ascii(r"\d").as_deref(), Some(r"[0-9]"));
        assert_eq!(ascii(r"(?i)k").as_deref(), Some(r"[Kk]"));
        assert_eq!(ascii(r"(?P<n>a)+?").as_deref(), Some(r"(?:(a)){1,}?"));
        assert_eq!(ascii(r"[^%\n]").as_deref(), Some(r"[^\n%]"));
        // Python's \s holds \x1c-\x1f, which are ASCII.
        assert_eq!(
            ascii(r"\.\s").as_deref(),
            Some(r"(?:\.)(?:[\t-\x{D}\x{1C}- ])")
        );
        assert_eq!(ascii(r"(?s:.)").as_deref(), Some(r"(?s:.)"));
        for declined in [
            r"a$",
            r"(a)\1",
            r"a(?=b)",
            r"a*",
            r"(?:a?)+b",
            r"a*+",
            r"\Bx",
            "é",
        ] {
            assert_eq!(ascii(declined), None, "{declined}");
        }
    }
}
