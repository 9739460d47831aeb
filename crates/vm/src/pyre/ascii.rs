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

use super::ast::{self, Anchor, CharTest, Greed, Node, UNBOUNDED};

/// The pattern in the `regex` crate's syntax, exact on ASCII text, or
/// `None` where it declines.
pub(crate) fn translate(node: &Node, has_filter: bool) -> Option<String> {
    if has_filter || ast::can_be_empty(node) {
        return None;
    }
    let mut out = String::new();
    write(node, &mut out)?;
    Some(out)
}

fn write(node: &Node, out: &mut String) -> Option<()> {
    match node {
        Node::Empty => out.push_str("(?:)"),
        Node::Char(t) => class(t, out)?,
        Node::Seq(items) => {
            for n in items {
                out.push_str("(?:");
                write(n, out)?;
                out.push(')');
            }
        }
        Node::Alt(branches) => {
            out.push_str("(?:");
            for (i, b) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write(b, out)?;
            }
            out.push(')');
        }
        Node::Group(_, n) => {
            out.push('(');
            write(n, out)?;
            out.push(')');
        }
        Node::Scoped(n) => write(n, out)?,
        Node::Repeat {
            node,
            min,
            max,
            greed,
        } => {
            if *greed == Greed::Possessive || ast::can_be_empty(node) {
                return None;
            }
            out.push_str("(?:");
            write(node, out)?;
            out.push(')');
            match *max {
                UNBOUNDED => out.push_str(&format!("{{{min},}}")),
                max => out.push_str(&format!("{{{min},{max}}}")),
            }
            if *greed == Greed::Lazy {
                out.push('?');
            }
        }
        Node::Anchor(a) => out.push_str(match a {
            Anchor::Start => r"\A",
            Anchor::End => r"\z",
            Anchor::LineStart => "(?m:^)",
            Anchor::LineEnd => "(?m:$)",
            Anchor::WordBoundary { .. } => r"(?-u:\b)",
            Anchor::EndOrFinalNewline | Anchor::NotWordBoundary { .. } => return None,
        }),
        Node::Backref(..) | Node::Look { .. } | Node::Atomic(_) | Node::Cond { .. } => return None,
    }
    Some(())
}

/// The ASCII characters a test passes, as a class (declined when there
/// are none: the `regex` crate has no empty class). Only ASCII occurs, so
/// a class may say anything of the rest: one that refuses few ASCII
/// characters is written negated (`[^%\n]`, which the executor's matcher
/// runs with `memchr`).
fn class(t: &CharTest, out: &mut String) -> Option<()> {
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
    match (&passed[..], &refused[..]) {
        ([], _) => return None,
        (_, []) => out.push_str("(?s:.)"),
        ([(lo, hi)], _) if lo == hi => out.push_str(&escaped(*lo, false)),
        (p, r) if count(r) < count(p) => write_class(out, "[^", r),
        (p, _) => write_class(out, "[", p),
    }
    Some(())
}

fn write_class(out: &mut String, open: &str, ranges: &[(u32, u32)]) {
    out.push_str(open);
    for &(lo, hi) in ranges {
        out.push_str(&escaped(lo, true));
        if hi > lo {
            if hi > lo + 1 {
                out.push('-');
            }
            out.push_str(&escaped(hi, true));
        }
    }
    out.push(']');
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
    use super::super::{compile, parse};
    use super::*;

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
