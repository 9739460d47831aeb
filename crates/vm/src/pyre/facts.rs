//! Facts about a parsed pattern that the executor's gates use: the exact
//! text every match starts with, and the longest exact text every match
//! contains.
//!
//! A text is "exact" when it is made of characters that match only
//! themselves (a case-insensitive letter does not count), so a state
//! that lacks it has no match, whatever its characters. Zero-width
//! items (assertions, look-arounds) neither add to a text nor break one,
//! since they take no characters from the match. It reads the tree only.

use super::ast::{CharTest, Node};

/// What a node says about literal text.
#[derive(Debug, Clone, Default)]
struct Info {
    /// The node matches exactly this text (and nothing else).
    exact: Option<String>,
    /// Every match starts with this.
    prefix: String,
    /// Every match ends with this.
    suffix: String,
    /// The longest text every match contains.
    best: String,
}

fn longest(a: String, b: String) -> String {
    if b.chars().count() > a.chars().count() {
        b
    } else {
        a
    }
}

fn exact(s: String) -> Info {
    Info {
        exact: Some(s.clone()),
        prefix: s.clone(),
        suffix: s.clone(),
        best: s,
    }
}

fn info(node: &Node) -> Info {
    match node {
        Node::Empty | Node::Anchor(_) | Node::Look { .. } => exact(String::new()),
        Node::Char(CharTest::Lit(c)) => match char::from_u32(*c) {
            Some(ch) => exact(ch.to_string()),
            None => Info::default(),
        },
        Node::Seq(items) => items
            .iter()
            .map(info)
            .reduce(join)
            .unwrap_or_else(|| exact(String::new())),
        Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => info(n),
        Node::Repeat { node, min, max, .. } => {
            if *min == 0 {
                return Info::default();
            }
            let i = info(node);
            if *min == 1 && *max == 1 {
                return i;
            }
            Info {
                exact: None,
                prefix: i.prefix,
                suffix: i.suffix,
                best: i.best,
            }
        }
        Node::Alt(branches) => {
            let infos: Vec<Info> = branches.iter().map(info).collect();
            let Some(first) = infos.first() else {
                return Info::default();
            };
            if infos
                .iter()
                .all(|i| i.exact.is_some() && i.exact == first.exact)
            {
                return first.clone();
            }
            let prefix = infos.iter().skip(1).fold(first.prefix.clone(), |p, i| {
                p.chars()
                    .zip(i.prefix.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect()
            });
            let suffix = infos.iter().skip(1).fold(first.suffix.clone(), |s, i| {
                let common: Vec<char> = s
                    .chars()
                    .rev()
                    .zip(i.suffix.chars().rev())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect();
                common.into_iter().rev().collect()
            });
            Info {
                exact: None,
                best: longest(prefix.clone(), suffix.clone()),
                prefix,
                suffix,
            }
        }
        Node::Char(_) | Node::Backref(..) | Node::Cond { .. } => Info::default(),
    }
}

/// `a` then `b`.
fn join(a: Info, b: Info) -> Info {
    if let (Some(x), Some(y)) = (&a.exact, &b.exact) {
        return exact(format!("{x}{y}"));
    }
    let prefix = match &a.exact {
        Some(x) => format!("{x}{}", b.prefix),
        None => a.prefix.clone(),
    };
    let suffix = match &b.exact {
        Some(y) => format!("{}{y}", a.suffix),
        None => b.suffix.clone(),
    };
    let middle = format!("{}{}", a.suffix, b.prefix);
    let best = [a.best, b.best, middle, prefix.clone(), suffix.clone()]
        .into_iter()
        .reduce(longest)
        .unwrap_or_default();
    Info {
        exact: None,
        prefix,
        suffix,
        best,
    }
}

/// The one text the node matches, when it matches exactly one.
pub(crate) fn exact_text(node: &Node) -> Option<String> {
    info(node).exact
}

/// The exact text every match starts with (possibly empty).
pub(crate) fn prefix(node: &Node) -> String {
    info(node).prefix
}

/// The longest exact text every match contains, if any.
pub(crate) fn needle(node: &Node) -> Option<String> {
    Some(info(node).best).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn facts(p: &str) -> (String, Option<String>) {
        let n = parse(p).expect("parses").node;
        (prefix(&n), needle(&n))
    }

    #[test]
    fn exact_texts_skip_folding_and_zero_width_items() {
        assert_eq!(
            facts(r"(%%[^%]*)(#[a-h]\d:)"),
            ("%%".into(), Some("%%".into()))
        );
        assert_eq!(
            facts(r"ab(?=x)cd\d+efg"),
            ("abcd".into(), Some("abcd".into()))
        );
        assert_eq!(facts(r"x\d+(?:efg|hefg)"), ("x".into(), Some("efg".into())));
        assert_eq!(facts(r"(?i)abc"), (String::new(), None));
        assert_eq!(facts(r"a*bc"), (String::new(), Some("bc".into())));
        assert_eq!(facts(r"(ab){2}c"), ("ab".into(), Some("abc".into())));
    }
}
