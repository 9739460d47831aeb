//! One printer of a parsed pattern's tree, its dialect a parameter: the
//! `regex` crate's syntax exact on ASCII text ([`ascii`]), the same
//! syntax as a superset ([`superset`]) and JavaScript ([`javascript`]).
//!
//! The walk ([`print`]) owns the structure the dialects share: the empty
//! pattern as `(?:)`, sequences, alternations (a conditional written as
//! the alternation of its branches, an atomic group as a plain group,
//! where a dialect writes them at all), capturing groups, look-arounds,
//! loops and back-references, and where a piece needs `(?:...)` to keep
//! its binding. A [`Dialect`] writes the leaves (a character test, an
//! assertion, a loop's bounds), says before each construct how it is
//! written or why it cannot be ([`Form`]), and keeps what it must know
//! of the walk (which groups have matched, whether it is inside a
//! look-behind) through [`Dialect::branch`] and [`Dialect::after`]. It
//! reads the tree only; it runs nothing.

pub(crate) mod ascii;
pub(crate) mod javascript;
pub(crate) mod superset;

use super::ast::{Anchor, CharTest, Greed, Node};

/// How a printed piece binds, to know where it needs `(?:...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Binding {
    /// An alternation: wrapped inside a sequence or a loop.
    Alt,
    /// A sequence (or a loop): wrapped inside a loop.
    Seq,
    /// One atom: a loop takes it as it is.
    Atom,
}

/// A printed piece and how it binds.
struct Piece {
    /// The text.
    text: String,
    /// How it binds.
    binding: Binding,
}

impl Piece {
    fn atom(text: String) -> Piece {
        Piece {
            text,
            binding: Binding::Atom,
        }
    }
}

/// How a dialect writes a construct (see [`Dialect::form`]).
enum Form<'n> {
    /// As the walk writes it.
    Walk,
    /// This text instead.
    Text(String),
    /// This node in a `(?:...)` instead.
    Plain(&'n Node),
}

/// One target syntax: its leaves, and its word on each construct.
trait Dialect<'t> {
    /// Why a tree has no form in this dialect.
    type Refusal;
    /// What the dialect keeps from [`Dialect::form`] to
    /// [`Dialect::after`] for one node.
    type Saved;
    /// Whether every sequence item, alternation and loop body is written
    /// in a `(?:...)` of its own (else only where its binding needs one).
    const EXPLICIT: bool;

    /// A character test.
    ///
    /// # Errors
    ///
    /// Where the dialect has no form for it.
    fn char_test(&mut self, t: &CharTest) -> Result<String, Self::Refusal>;

    /// An assertion.
    ///
    /// # Errors
    ///
    /// Where the dialect has no form for it.
    fn anchor(&mut self, a: Anchor) -> Result<String, Self::Refusal>;

    /// A loop's bounds and greed, written after its body.
    fn bounds(&self, min: u32, max: u32, greed: Greed) -> String;

    /// How `node` is written, asked before its parts are, and what
    /// [`Dialect::after`] gets back for it.
    ///
    /// # Errors
    ///
    /// Where the dialect has no form for it.
    fn form(&mut self, node: &'t Node) -> Result<(Form<'t>, Self::Saved), Self::Refusal>;

    /// Before branch `i` of an alternation (or of a conditional), with
    /// what [`Dialect::form`] saved for it.
    fn branch(&mut self, _saved: &mut Self::Saved, _i: usize) {}

    /// After `node` and its parts are written.
    ///
    /// # Errors
    ///
    /// Where what its parts turned out to be leaves it no form.
    fn after(&mut self, _node: &'t Node, _saved: Self::Saved) -> Result<(), Self::Refusal> {
        Ok(())
    }
}

/// `node` written in `dialect`.
///
/// # Errors
///
/// The dialect's refusal, at the first node it refuses.
fn print<'t, D: Dialect<'t>>(node: &'t Node, dialect: &mut D) -> Result<Piece, D::Refusal> {
    let (form, mut saved) = dialect.form(node)?;
    let piece = match form {
        Form::Walk => walk(node, dialect, &mut saved)?,
        Form::Text(text) => Piece::atom(text),
        Form::Plain(inner) => Piece::atom(format!("(?:{})", print(inner, dialect)?.text)),
    };
    dialect.after(node, saved)?;
    Ok(piece)
}

fn walk<'t, D: Dialect<'t>>(
    node: &'t Node,
    d: &mut D,
    saved: &mut D::Saved,
) -> Result<Piece, D::Refusal> {
    Ok(match node {
        Node::Empty => Piece::atom("(?:)".to_string()),
        Node::Char(t) => Piece::atom(d.char_test(t)?),
        Node::Anchor(a) => Piece::atom(d.anchor(*a)?),
        Node::Seq(items) => {
            let mut text = String::new();
            for n in items {
                push(&mut text, print(n, d)?, Binding::Seq, D::EXPLICIT);
            }
            Piece {
                text,
                binding: Binding::Seq,
            }
        }
        Node::Alt(branches) => alternation(branches.iter(), d, saved)?,
        Node::Cond { yes, no, .. } => alternation([&**yes, &**no].into_iter(), d, saved)?,
        Node::Group(_, inner) => Piece::atom(format!("({})", print(inner, d)?.text)),
        Node::Scoped(inner) => print(inner, d)?,
        Node::Atomic(inner) => Piece::atom(format!("(?:{})", print(inner, d)?.text)),
        Node::Repeat {
            node,
            min,
            max,
            greed,
        } => {
            let mut text = String::new();
            push(&mut text, print(node, d)?, Binding::Atom, D::EXPLICIT);
            text.push_str(&d.bounds(*min, *max, *greed));
            Piece {
                text,
                binding: Binding::Seq,
            }
        }
        // Wrapped: `\1` then a digit would be `\10`.
        Node::Backref(n, _) => Piece::atom(format!("(?:\\{n})")),
        Node::Look {
            behind,
            negate,
            node,
        } => {
            let open = match (behind.is_some(), negate) {
                (false, false) => "(?=",
                (false, true) => "(?!",
                (true, false) => "(?<=",
                (true, true) => "(?<!",
            };
            Piece::atom(format!("{open}{})", print(node, d)?.text))
        }
    })
}

/// The branches, `|` between them.
fn alternation<'t, D: Dialect<'t>>(
    branches: impl Iterator<Item = &'t Node>,
    d: &mut D,
    saved: &mut D::Saved,
) -> Result<Piece, D::Refusal> {
    let mut text = String::new();
    for (i, b) in branches.enumerate() {
        if i > 0 {
            text.push('|');
        }
        d.branch(saved, i);
        text.push_str(&print(b, d)?.text);
    }
    Ok(if D::EXPLICIT {
        Piece::atom(format!("(?:{text})"))
    } else {
        Piece {
            text,
            binding: Binding::Alt,
        }
    })
}

/// Appends `piece`, in a `(?:...)` where `explicit` or where it binds
/// looser than `needed`.
fn push(out: &mut String, piece: Piece, needed: Binding, explicit: bool) {
    if explicit || piece.binding < needed {
        out.push_str("(?:");
        out.push_str(&piece.text);
        out.push(')');
    } else {
        out.push_str(&piece.text);
    }
}

/// A class of sorted, disjoint `ranges` after `open` (`[` or `[^`), each
/// code point written by `literal`: a range of two as its two ends.
fn class(open: &str, ranges: &[(u32, u32)], literal: impl Fn(u32) -> String) -> String {
    let mut out = String::from(open);
    for &(lo, hi) in ranges {
        out.push_str(&literal(lo));
        if hi > lo {
            if hi > lo + 1 {
                out.push('-');
            }
            out.push_str(&literal(hi));
        }
    }
    out.push(']');
    out
}

/// A loop's bounds as `{min,}` or `{min,max}`.
fn braces(min: u32, max: u32) -> String {
    match max {
        super::ast::UNBOUNDED => format!("{{{min},}}"),
        max => format!("{{{min},{max}}}"),
    }
}
