//! The constructs a pattern uses, read from its tree: what a profile needs
//! to sort rewrites by the work a backtracking engine does for them
//! (back-references, look-around, alternation, lazy and possessive
//! loops) and the exact text every match starts with.
//!
//! It reads the tree only; it decides nothing about engines or the state.

use super::ast::{Greed, Node};
use super::cursor::PatternError;
use super::facts;
use super::parse;

/// What a pattern is made of (see [`features`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    /// A back-reference (`\1`, `(?P=name)`).
    pub back_reference: bool,
    /// A look-ahead or look-behind.
    pub look_around: bool,
    /// An alternation of two branches or more (a character class is not
    /// one); `branches` is the largest.
    pub alternation: bool,
    /// The branches of the largest alternation (0 without one).
    pub branches: usize,
    /// A lazy loop (`*?`, `+?`, `??`, `{m,n}?`).
    pub lazy: bool,
    /// A possessive loop (`*+`) or an atomic group (`(?>...)`).
    pub possessive: bool,
    /// A conditional group (`(?(1)yes|no)`).
    pub conditional: bool,
    /// The exact text every match starts with (possibly empty).
    pub prefix: String,
}

/// Reads `pattern` as `re.compile` would and says what it uses.
///
/// # Errors
///
/// [`PatternError`] where CPython raises (the same as [`super::Regex::new`]).
pub fn features(pattern: &str) -> Result<Features, PatternError> {
    let parsed = parse::parse(pattern)?;
    let mut f = Features {
        prefix: facts::prefix(&parsed.node),
        ..Features::default()
    };
    walk(&parsed.node, &mut f);
    Ok(f)
}

fn walk(node: &Node, f: &mut Features) {
    match node {
        Node::Empty | Node::Char(_) | Node::Anchor(_) => {}
        Node::Backref(..) => f.back_reference = true,
        Node::Seq(items) => items.iter().for_each(|n| walk(n, f)),
        Node::Alt(items) => {
            if items.len() > 1 {
                f.alternation = true;
                f.branches = f.branches.max(items.len());
            }
            items.iter().for_each(|n| walk(n, f));
        }
        Node::Group(_, n) | Node::Scoped(n) => walk(n, f),
        Node::Atomic(n) => {
            f.possessive = true;
            walk(n, f);
        }
        Node::Repeat { node, greed, .. } => {
            match greed {
                Greed::Greedy => {}
                Greed::Lazy => f.lazy = true,
                Greed::Possessive => f.possessive = true,
            }
            walk(node, f);
        }
        Node::Look { node, .. } => {
            f.look_around = true;
            walk(node, f);
        }
        Node::Cond { yes, no, .. } => {
            f.conditional = true;
            walk(yes, f);
            walk(no, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(p: &str) -> Features {
        features(p).expect("CPython reads it")
    }

    #[test]
    fn each_construct_is_seen_where_it_is() {
        let f = of(r"(%%\n#stack:\n)([^\n]*)\n");
        assert_eq!(f.prefix, "%%\n#stack:\n");
        assert!(!f.back_reference && !f.look_around && !f.alternation);
        assert!(of(r"(%%[^%]*#list: )([^;\n]*;)\2+").back_reference);
        assert!(of(r"(?P<a>x)(?P=a)").back_reference);
        assert!(of(r"a(?=b)").look_around);
        assert!(of(r"(?<!b)a").look_around);
        let alt = of(r"x(?:ab|cd|ef)");
        assert!(alt.alternation);
        assert_eq!(alt.branches, 3);
        assert!(!of(r"[ab]").alternation, "a class is not an alternation");
        assert!(of(r"a.*?b").lazy);
        assert!(of(r"a*+b").possessive);
        assert!(of(r"(?>ab)c").possessive);
        assert!(of(r"(a)?(?(1)b|c)").conditional);
        assert!(features("a**").is_err());
    }
}
