//! The shape of a rewrite, as profiles sort rewrites: one shape per
//! rewrite for tables whose rows add up, and the constructs it uses for
//! tables whose rows overlap.
//!
//! A rewrite is a *thread head* when every match of its pattern starts
//! with `%` (the text that opens a thread, active `%%` or paused `%tag`,
//! in the state grammar of the chess program and of the original
//! project's programs). Its shape is, in this order: thread head with a
//! replacement that uses groups, thread head, back-reference,
//! look-around, alternation, lazy or possessive, plain; so a thread-head
//! pattern with a back-reference counts as a thread head in the shapes
//! and in both rows of the constructs. It reads the pattern as CPython
//! does ([`regex_vm::pyre::features`]) and runs nothing.

use anyhow::{Context, Result};
use regex_vm::pyre;

/// One shape per rewrite (see the module's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Shape {
    /// Starts at a thread's `%`; the replacement uses groups.
    ThreadHeadGroups,
    /// Starts at a thread's `%`; the replacement is literal.
    ThreadHead,
    /// A back-reference.
    BackReference,
    /// A look-ahead or look-behind.
    LookAround,
    /// An alternation of two branches or more.
    Alternation,
    /// A lazy or possessive loop, or an atomic group.
    LazyPossessive,
    /// None of the above.
    Plain,
}

impl Shape {
    /// Every shape, in the module's order.
    pub(crate) const ALL: [Shape; 7] = [
        Shape::ThreadHeadGroups,
        Shape::ThreadHead,
        Shape::BackReference,
        Shape::LookAround,
        Shape::Alternation,
        Shape::LazyPossessive,
        Shape::Plain,
    ];

    /// The shape's name in reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Shape::ThreadHeadGroups => "thread-head, groups",
            Shape::ThreadHead => "thread-head, literal",
            Shape::BackReference => "back-reference",
            Shape::LookAround => "look-around",
            Shape::Alternation => "alternation",
            Shape::LazyPossessive => "lazy/possessive",
            Shape::Plain => "plain",
        }
    }
}

/// A construct a rewrite uses; a rewrite may use several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Construct {
    /// Every match starts with `%`.
    ThreadHead,
    /// The replacement uses a group.
    GroupReplacement,
    /// A back-reference.
    BackReference,
    /// A look-ahead or look-behind.
    LookAround,
    /// An alternation of two branches or more.
    Alternation,
    /// A lazy loop.
    Lazy,
    /// A possessive loop or an atomic group.
    Possessive,
    /// A conditional group.
    Conditional,
}

impl Construct {
    /// Every construct, in report order.
    pub(crate) const ALL: [Construct; 8] = [
        Construct::ThreadHead,
        Construct::GroupReplacement,
        Construct::BackReference,
        Construct::LookAround,
        Construct::Alternation,
        Construct::Lazy,
        Construct::Possessive,
        Construct::Conditional,
    ];

    /// The construct's name in reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Construct::ThreadHead => "thread-head",
            Construct::GroupReplacement => "group replacement",
            Construct::BackReference => "back-reference",
            Construct::LookAround => "look-around",
            Construct::Alternation => "alternation",
            Construct::Lazy => "lazy loop",
            Construct::Possessive => "possessive/atomic",
            Construct::Conditional => "conditional",
        }
    }
}

/// What a profile knows of one rewrite's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Described {
    /// Its one shape.
    pub shape: Shape,
    /// Every construct it uses.
    pub constructs: Vec<Construct>,
}

/// Describes the rewrite `pattern` -> `replacement` (Python's syntax).
///
/// # Errors
///
/// A pattern or replacement CPython refuses (a loaded program has none).
pub(crate) fn describe(pattern: &str, replacement: &str) -> Result<Described> {
    let f = pyre::features(pattern).with_context(|| format!("reading {pattern:?}"))?;
    let groups = pyre::Groups::of(pattern)
        .with_context(|| format!("reading {pattern:?}"))?
        .template(replacement)
        .with_context(|| format!("reading the replacement {replacement:?}"))?
        .has_groups();
    let head = f.prefix.starts_with('%');
    let has = |c: Construct| match c {
        Construct::ThreadHead => head,
        Construct::GroupReplacement => groups,
        Construct::BackReference => f.back_reference,
        Construct::LookAround => f.look_around,
        Construct::Alternation => f.alternation,
        Construct::Lazy => f.lazy,
        Construct::Possessive => f.possessive,
        Construct::Conditional => f.conditional,
    };
    let shape = if head && groups {
        Shape::ThreadHeadGroups
    } else if head {
        Shape::ThreadHead
    } else if f.back_reference {
        Shape::BackReference
    } else if f.look_around {
        Shape::LookAround
    } else if f.alternation {
        Shape::Alternation
    } else if f.lazy || f.possessive {
        Shape::LazyPossessive
    } else {
        Shape::Plain
    };
    Ok(Described {
        shape,
        constructs: Construct::ALL.into_iter().filter(|&c| has(c)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(p: &str, r: &str) -> Shape {
        describe(p, r).expect("readable").shape
    }

    #[test]
    fn shapes_follow_the_order_of_the_module() {
        assert_eq!(
            shape(r"(%%\n#stack:\n)([^\n]*)\n", r"\1"),
            Shape::ThreadHeadGroups
        );
        assert_eq!(shape(r"%%\n", "%t1\n"), Shape::ThreadHead);
        assert_eq!(shape(r"%t1\n", "%%\n"), Shape::ThreadHead);
        assert_eq!(shape(r"([^;\n]*;)\1+", r"\1"), Shape::BackReference);
        assert_eq!(shape(r"a(?=b)|c", "x"), Shape::LookAround);
        assert_eq!(shape(r"ab|cd", "x"), Shape::Alternation);
        assert_eq!(shape(r"a.*?b", "x"), Shape::LazyPossessive);
        assert_eq!(shape(r"^$", "%%\n"), Shape::Plain);
        // A back-reference in a thread-head pattern: the shape is the
        // thread head's, the constructs name both.
        let d = describe(r"(%%[^%]*#list: )([^;\n]*;)\2+", r"\1\2").expect("readable");
        assert_eq!(d.shape, Shape::ThreadHeadGroups);
        assert_eq!(
            d.constructs,
            [
                Construct::ThreadHead,
                Construct::GroupReplacement,
                Construct::BackReference
            ]
        );
        assert!(describe("a**", "").is_err());
        assert!(describe("a", r"\1").is_err());
    }
}
