//! Whether a pattern's look-arounds read only the piece of text a match
//! is tried in, for the executor's analysis (through `print::superset`,
//! which writes such look-arounds as nothing).
//!
//! A piece is the text before the first `%` of a text, or a run `%+[^%]*`
//! cut out of it: what follows a piece is a `%` or the text's end, and
//! every piece but the first starts with `%`. A look-around whose pattern
//! has no assertion of its own and can match no text holding `%` reads
//! the same on a piece as on the whole text, wherever in the piece it is
//! evaluated, with one exception: a look-behind evaluated at a piece's
//! first byte, which the whole text lets see the piece before. A
//! look-ahead never reads past the `%` after its piece, where any of its
//! paths fails on the whole text as it fails at the piece's end; a
//! look-behind evaluated further in has, on the whole text, either only
//! bytes of its piece to read or the piece's own `%` among them, which it
//! cannot match, as it cannot read before the piece run alone. So a
//! pattern all of whose look-arounds are such is confined when every
//! look-behind that can be evaluated where a match starts belongs to a
//! pattern none of whose matches starts with `%` (no match then starts
//! at a piece's first byte but the text's own). It reads the tree only.

use super::ast::{can_be_empty, visit_groups, Node};

/// Deepest chain of back-references followed into their groups.
const MAX_DEPTH: usize = 32;

/// Whether every look-around of the pattern `node` reads only the piece
/// it is evaluated in (see the module doc); true when it has none.
pub(crate) fn looks_stay_in_piece(node: &Node) -> bool {
    let mut groups: Vec<Option<&Node>> = Vec::new();
    visit_groups(node, &mut |i, n| {
        if groups.len() <= i {
            groups.resize(i + 1, None);
        }
        groups[i] = Some(n);
    });
    let reader = Reader { groups };
    let mut behind_at_start = false;
    reader.looks_bounded(node, true, &mut behind_at_start)
        && !(behind_at_start && reader.starts_with_percent(node, 0))
}

/// The pattern's groups, by number, for its back-references.
struct Reader<'n> {
    groups: Vec<Option<&'n Node>>,
}

impl Reader<'_> {
    /// Whether every look-around in `node` has a pattern without
    /// assertions that matches no `%`; `at_start`: `node` can be tried
    /// where the match starts, nothing taken yet. Sets `behind_at_start`
    /// when a look-behind can be evaluated there.
    fn looks_bounded(&self, node: &Node, at_start: bool, behind_at_start: &mut bool) -> bool {
        match node {
            Node::Empty | Node::Char(_) | Node::Anchor(_) | Node::Backref(..) => true,
            Node::Seq(items) => {
                let mut at = at_start;
                for n in items {
                    if !self.looks_bounded(n, at, behind_at_start) {
                        return false;
                    }
                    at = at && can_be_empty(n);
                }
                true
            }
            Node::Alt(items) => items
                .iter()
                .all(|n| self.looks_bounded(n, at_start, behind_at_start)),
            Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => {
                self.looks_bounded(n, at_start, behind_at_start)
            }
            Node::Repeat { node, .. } => self.looks_bounded(node, at_start, behind_at_start),
            Node::Cond { yes, no, .. } => {
                self.looks_bounded(yes, at_start, behind_at_start)
                    && self.looks_bounded(no, at_start, behind_at_start)
            }
            Node::Look { behind, node, .. } => {
                *behind_at_start |= behind.is_some() && at_start;
                self.plain_without_percent(node, 0)
            }
        }
    }

    /// Whether `node` has no assertion or look-around and matches no text
    /// holding `%` (a back-reference: as its group).
    fn plain_without_percent(&self, node: &Node, depth: usize) -> bool {
        match node {
            Node::Empty => true,
            Node::Char(t) => !t.matches(u32::from(b'%')),
            Node::Anchor(_) | Node::Look { .. } => false,
            Node::Seq(items) | Node::Alt(items) => {
                items.iter().all(|n| self.plain_without_percent(n, depth))
            }
            Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => {
                self.plain_without_percent(n, depth)
            }
            Node::Repeat { node, .. } => self.plain_without_percent(node, depth),
            Node::Cond { yes, no, .. } => {
                self.plain_without_percent(yes, depth) && self.plain_without_percent(no, depth)
            }
            // Under `(?i)` a copy matches what lowers to the group's
            // text, and only `%` lowers to `%`.
            Node::Backref(g, _) => {
                depth < MAX_DEPTH
                    && self
                        .group(*g)
                        .is_some_and(|n| self.plain_without_percent(n, depth + 1))
            }
        }
    }

    /// Whether a match of `node` can start with `%` (a superset: a
    /// back-reference as its group, a look-around as nothing).
    fn starts_with_percent(&self, node: &Node, depth: usize) -> bool {
        match node {
            Node::Empty | Node::Anchor(_) | Node::Look { .. } => false,
            Node::Char(t) => t.matches(u32::from(b'%')),
            Node::Seq(items) => {
                for n in items {
                    if self.starts_with_percent(n, depth) {
                        return true;
                    }
                    if !can_be_empty(n) {
                        return false;
                    }
                }
                false
            }
            Node::Alt(items) => items.iter().any(|n| self.starts_with_percent(n, depth)),
            Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => {
                self.starts_with_percent(n, depth)
            }
            Node::Repeat { node, max, .. } => *max > 0 && self.starts_with_percent(node, depth),
            Node::Cond { yes, no, .. } => {
                self.starts_with_percent(yes, depth) || self.starts_with_percent(no, depth)
            }
            Node::Backref(g, _) => {
                depth >= MAX_DEPTH
                    || self
                        .group(*g)
                        .is_none_or(|n| self.starts_with_percent(n, depth + 1))
            }
        }
    }

    fn group(&self, g: usize) -> Option<&Node> {
        self.groups.get(g).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pyre::parse;

    fn bounded(p: &str) -> bool {
        looks_stay_in_piece(&parse::parse(p).expect("parses").node)
    }

    #[test]
    fn look_arounds_that_match_no_percent_stay_in_their_piece() {
        for p in [
            r"(%%\n#stack:\n)(?=[.o]*x[.o]*\n)(?:[.x]*o){1}[.x]*\n([^%]*#score: )1{0,1}",
            r";(\d+)=(1*);(\d+)=\2(1+)(?=;|\n)",
            r"(?<=[ ;])(?=(?:(\d)(?:1;\1[0-0]|2;\1[0-1])|1\d;[0-0]))(\d\d);(\d\d)(?=;)",
            r"%%x(?<=[a-z])y",
            r"%%\n(?!a)b",
            r"(a)(?=\1)",
            r"abc",
        ] {
            assert!(bounded(p), "{p}");
        }
    }

    #[test]
    fn look_arounds_that_can_see_another_piece_do_not() {
        for p in [
            // Its pattern can match the next thread's `%`.
            r"/(?=[^%]*%%)",
            r"x(?=.)",
            r"=1*(?=[^\n]*\n#move: )",
            r"x(?!%)",
            r"(%)a(?=\1)",
            // An assertion inside: `$` at a piece's end.
            r"x(?=\n?$)",
            // Nested.
            r"x(?=(?=a)a)",
            // At a thread's first byte, a look-behind sees the thread
            // before on the whole state.
            r"(?<=\n)%%a",
            r"(?<!x)%%a",
            r"(?:(?<=\n)|b)(?:%|c)",
        ] {
            assert!(!bounded(p), "{p}");
        }
    }
}
