//! A parsed Python pattern written in the `regex` crate's syntax as a
//! superset: every text the pattern can match (on any text, at any place)
//! the written pattern matches too. The executor reads its facts (where
//! matches lie, which literals they contain: `analysis`) from it, as for
//! any pattern, since a fact true of every match of a superset holds for
//! the pattern.
//!
//! Each character test is written as the full set of code points it
//! passes (surrogates left out: no text holds one); a back-reference as a
//! copy of its group (any text under `(?i)`, where a copy would not be a
//! superset); an atomic group as a plain one, a possessive loop as a
//! greedy one, a conditional as an alternation of its branches; every
//! assertion and look-around as `\b`, so that the analysis sees a
//! look-around (it then puts the matches anywhere and skips nothing that
//! depends on the text before a place). Declined (`None`): only what the
//! `regex` crate cannot parse. It runs nothing.

use super::ast::{self, CharTest, Fold, Node, UNBOUNDED};

/// The superset pattern, or `None` where it cannot be written.
pub(crate) fn superset(node: &Node) -> Option<String> {
    let mut groups = Vec::new();
    collect_groups(node, &mut groups);
    let mut out = String::new();
    write(node, &groups, true, &mut out)?;
    Some(out)
}

/// Each group's node, by number.
fn collect_groups<'n>(node: &'n Node, out: &mut Vec<Option<&'n Node>>) {
    ast::visit_groups(node, &mut |i, n| {
        if out.len() <= i {
            out.resize(i + 1, None);
        }
        out[i] = Some(n);
    });
}

/// `capture`: groups capture (not inside a back-reference's copy, which
/// would renumber the groups after it).
fn write(node: &Node, groups: &[Option<&Node>], capture: bool, out: &mut String) -> Option<()> {
    match node {
        Node::Empty => out.push_str("(?:)"),
        Node::Char(t) => class(t, out),
        Node::Seq(items) => {
            for n in items {
                out.push_str("(?:");
                write(n, groups, capture, out)?;
                out.push(')');
            }
        }
        Node::Alt(branches) => {
            out.push_str("(?:");
            for (i, b) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write(b, groups, capture, out)?;
            }
            out.push(')');
        }
        Node::Group(_, n) => {
            out.push_str(if capture { "(" } else { "(?:" });
            write(n, groups, capture, out)?;
            out.push(')');
        }
        Node::Scoped(n) | Node::Atomic(n) => {
            out.push_str("(?:");
            write(n, groups, capture, out)?;
            out.push(')');
        }
        Node::Repeat { node, min, max, .. } => {
            out.push_str("(?:");
            write(node, groups, capture, out)?;
            out.push(')');
            match *max {
                UNBOUNDED => out.push_str(&format!("{{{min},}}")),
                max => out.push_str(&format!("{{{min},{max}}}")),
            }
        }
        Node::Anchor(_) | Node::Look { .. } => out.push_str(r"\b"),
        Node::Backref(g, fold) => {
            out.push_str("(?:");
            match (fold, groups.get(*g).copied().flatten()) {
                (Fold::Exact, Some(n)) => write(n, groups, false, out)?,
                _ => out.push_str("(?s:.)*"),
            }
            out.push(')');
        }
        Node::Cond { yes, no, .. } => {
            out.push_str("(?:");
            write(yes, groups, capture, out)?;
            out.push('|');
            write(no, groups, capture, out)?;
            out.push(')');
        }
    }
    Some(())
}

/// The code points a test passes, as a class without surrogates.
fn class(t: &CharTest, out: &mut String) {
    let ranges: Vec<(u32, u32)> = match t {
        CharTest::Lit(c) => vec![(*c, *c)],
        CharTest::Any => vec![(0, 0x10FFFF)],
        CharTest::NotNewline => vec![(0, 9), (11, 0x10FFFF)],
        CharTest::Set(s) => s.positive_ranges(),
    };
    let mut clipped = Vec::new();
    for (lo, hi) in ranges {
        if lo < 0xD800 {
            clipped.push((lo, hi.min(0xD7FF)));
        }
        if hi > 0xDFFF {
            clipped.push((lo.max(0xE000), hi));
        }
    }
    if clipped.is_empty() {
        // Nothing: a class that matches no character.
        out.push_str(r"[^\x{0}-\x{10FFFF}]");
        return;
    }
    if let [(lo, hi)] = clipped[..] {
        if lo == hi {
            out.push_str(&format!(r"\x{{{lo:X}}}"));
            return;
        }
    }
    out.push('[');
    for (lo, hi) in clipped {
        if lo == hi {
            out.push_str(&format!(r"\x{{{lo:X}}}"));
        } else {
            out.push_str(&format!(r"\x{{{lo:X}}}-\x{{{hi:X}}}"));
        }
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn sup(p: &str) -> String {
        superset(&parse::parse(p).expect("parses").node).expect("written")
    }

    #[test]
    fn a_superset_keeps_literals_and_groups_and_marks_assertions() {
        let s = sup(r"(%%)([^%]*)\2(?=x)$");
        let re = regex::Regex::new(&s).expect("the regex crate reads it");
        assert_eq!(re.captures_len(), 3, "{s}");
        assert!(s.starts_with(r"(?:((?:\x{25})(?:\x{25})))"), "{s}");
        let a = crate::analysis::analyse(&s);
        assert_eq!(a.reach, crate::analysis::Reach::Global, "an assertion");
        let a = crate::analysis::analyse(&sup(r"%%\n#(\d+):"));
        assert_eq!(a.reach, crate::analysis::Reach::Active);
        assert_eq!(a.needle.as_deref(), Some("\n#"));
        assert!(s.contains(r"\b"), "{s}");
        // A back-reference's copy captures nothing.
        let s = sup(r"(a(b))\1c");
        assert_eq!(
            regex::Regex::new(&s).expect("reads").captures_len(),
            3,
            "{s}"
        );
        assert!(regex::Regex::new(&sup(r"(?i)(a)\1")).is_ok());
        assert!(regex::Regex::new(&sup(r"\ud800|a")).is_ok());
    }
}
