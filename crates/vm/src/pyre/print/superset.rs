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
//! superset); an atomic group as a plain one, a possessive or lazy loop
//! as a greedy one, a conditional as an alternation of its branches;
//! every assertion as `\b`, so that the analysis sees it (it then puts
//! the matches anywhere and skips nothing that depends on the text before
//! a place); every look-around as `\b` too, unless all of the pattern's
//! look-arounds read only the piece of the state a match is tried in
//! (`confine`), and then as nothing. Every tree has one. It runs nothing.

use std::convert::Infallible;

use super::{braces, print, Dialect, Form};
use crate::pyre::ast::{self, Anchor, CharTest, Fold, Greed, Node};
use crate::pyre::confine;

/// The superset pattern (`Some` for every tree).
pub(crate) fn superset(node: &Node) -> Option<String> {
    let mut groups = Vec::new();
    ast::visit_groups(node, &mut |i, n| {
        if groups.len() <= i {
            groups.resize(i + 1, None);
        }
        groups[i] = Some(n);
    });
    let mut dialect = Superset {
        groups,
        copying: false,
        look: match confine::looks_stay_in_piece(node) {
            true => "(?:)",
            false => r"\b",
        },
    };
    match print(node, &mut dialect) {
        Ok(piece) => Some(piece.text),
        Err(never) => match never {},
    }
}

/// The dialect: every piece in its own group, as `ascii`'s.
struct Superset<'t> {
    /// Each group's node, by number.
    groups: Vec<Option<&'t Node>>,
    /// Inside a back-reference's copy of its group, whose groups do not
    /// capture (they would renumber the groups after it).
    copying: bool,
    /// What a look-around is written as.
    look: &'static str,
}

impl<'t> Dialect<'t> for Superset<'t> {
    type Refusal = Infallible;
    /// Whether a copy was being written before this node.
    type Saved = bool;
    const EXPLICIT: bool = true;

    fn char_test(&mut self, t: &CharTest) -> Result<String, Infallible> {
        Ok(class(t))
    }

    fn anchor(&mut self, _: Anchor) -> Result<String, Infallible> {
        Ok(r"\b".to_string())
    }

    fn bounds(&self, min: u32, max: u32, _: Greed) -> String {
        braces(min, max)
    }

    fn form(&mut self, node: &'t Node) -> Result<(Form<'t>, bool), Infallible> {
        let copying = self.copying;
        let form = match node {
            Node::Group(_, inner) if copying => Form::Plain(inner),
            Node::Scoped(inner) => Form::Plain(inner),
            Node::Look { .. } => Form::Text(self.look.to_string()),
            Node::Backref(g, fold) => match (fold, self.groups.get(*g).copied().flatten()) {
                (Fold::Exact, Some(group)) => {
                    self.copying = true;
                    Form::Plain(group)
                }
                _ => Form::Text("(?:(?s:.)*)".to_string()),
            },
            _ => Form::Walk,
        };
        Ok((form, copying))
    }

    fn after(&mut self, _: &'t Node, copying: bool) -> Result<(), Infallible> {
        self.copying = copying;
        Ok(())
    }
}

/// The code points a test passes, as a class without surrogates.
fn class(t: &CharTest) -> String {
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
    match clipped[..] {
        // Nothing: a class that matches no character.
        [] => r"[^\x{0}-\x{10FFFF}]".to_string(),
        [(lo, hi)] if lo == hi => format!(r"\x{{{lo:X}}}"),
        _ => {
            let mut out = String::from("[");
            for (lo, hi) in clipped {
                if lo == hi {
                    out.push_str(&format!(r"\x{{{lo:X}}}"));
                } else {
                    out.push_str(&format!(r"\x{{{lo:X}}}-\x{{{hi:X}}}"));
                }
            }
            out.push(']');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pyre::parse;

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
