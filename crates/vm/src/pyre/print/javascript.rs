//! A parsed Python pattern written as a JavaScript regex that means, under
//! `String.prototype.replace` with the flags `gu`, what the pattern means
//! to CPython under `re.sub`; or the reason there is none. The JavaScript
//! dump uses it for the patterns outside the portable subset.
//!
//! With the `u` flag JavaScript reads text by code points, as Python does.
//! Every character test is written as the set of code points it passes
//! (so `\d`, `\w`, `\s` and `(?i)` keep CPython 3.11's Unicode 14 meaning,
//! not JavaScript's ASCII `\d` or Node's newer Unicode), `.` as `[^\n]`,
//! `(?s).` as `[^]`; `$` as `(?=\n?$)`, `(?m)^` as `(?<![^\n])`, `(?m)$`
//! as `(?![^\n])`, `\A` and `\Z` as `^` and `$` (there is no `m` flag),
//! `\b` and `\B` by look-around on Python's word characters (`\B` never
//! matches an empty text in CPython 3.11; JavaScript's does); a
//! back-reference as `(?:\N)`, so a digit after it stays a digit; and
//! CPython's search filter (see `compile::filter`) as a look-ahead in
//! front. Refused, each with its [`JsRefusal`]: what JavaScript has no
//! form for (atomic groups, possessive loops, conditionals,
//! case-insensitive back-references), and what it reads otherwise, each
//! seen on Node 20 against CPython 3.11: a pattern that can match the
//! empty string (after an empty match CPython tries a non-empty one at the
//! same place, where Node moves on, and Node tries empty matches inside an
//! astral character), a loop whose body can match the empty string, a
//! group inside a loop that an iteration may leave unset (JavaScript
//! forgets a loop's groups as each iteration starts, CPython keeps the last
//! value), a back-reference to a group that may not have matched
//! (JavaScript matches the empty string there, CPython fails), and a
//! group inside a loop inside a look-behind (JavaScript matches a
//! look-behind from right to left, so it keeps the leftmost iteration's).
//! A back-reference inside a look-behind is written: CPython refuses one to
//! a group of the same look-behind, and one to a group set before it reads
//! the same text from either side. It runs nothing.

use super::{class, print, push, Binding, Dialect, Form};
use crate::pyre::ast::{self, Anchor, CharTest, Fold, Greed, Node, UNBOUNDED};
use crate::pyre::unicode::{self, Category};

/// Why a pattern has no JavaScript form with its meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JsRefusal {
    /// `(?>...)`.
    #[error("an atomic group has no JavaScript form")]
    Atomic,
    /// `*+`, `++`, `?+`, `{m,n}+`.
    #[error("a possessive loop has no JavaScript form")]
    Possessive,
    /// `(?(1)yes|no)`.
    #[error("a conditional group has no JavaScript form")]
    Conditional,
    /// A back-reference under `(?i)`.
    #[error("a case-insensitive back-reference has no JavaScript form")]
    FoldedBackref,
    /// The whole pattern can match the empty string.
    #[error(
        "the pattern can match the empty string, and JavaScript places empty matches otherwise"
    )]
    MatchesEmpty,
    /// A loop whose body can match the empty string.
    #[error("a loop whose body can match the empty string (JavaScript's loop rules differ there)")]
    EmptyLoopBody,
    /// A group inside a loop that an iteration may leave unset.
    #[error(
        "group {0} is inside a loop and an iteration may skip it (JavaScript forgets it, CPython keeps its last value)"
    )]
    SkippedInLoop(usize),
    /// A back-reference to a group that may not have matched.
    #[error(
        "a back-reference to group {0}, which may not have matched (JavaScript matches the empty string there, CPython fails)"
    )]
    MaybeUnset(usize),
    /// A group inside a loop inside a look-behind.
    #[error(
        "a group in a loop inside a look-behind (JavaScript matches a look-behind from right to left and keeps the leftmost iteration's)"
    )]
    InLookBehind,
}

/// The body of a JavaScript regex (to be used with the flags `gu`) that
/// means what `node`, a pattern of `groups` groups, means to CPython
/// under `re.sub`; `filter` is CPython's search filter of the pattern, if
/// it has one.
///
/// # Errors
///
/// [`JsRefusal`] where there is no such body.
pub(crate) fn translate(
    node: &Node,
    groups: usize,
    filter: Option<&CharTest>,
) -> Result<String, JsRefusal> {
    if ast::can_be_empty(node) {
        return Err(JsRefusal::MatchesEmpty);
    }
    let mut nonempty = vec![false; groups + 1];
    ast::visit_groups(node, &mut |g, inner| {
        if let Some(slot) = nonempty.get_mut(g) {
            *slot = !ast::can_be_empty(inner);
        }
    });
    let mut dialect = Javascript {
        set: vec![false; groups + 1],
        nonempty,
        behind: false,
    };
    let body = print(node, &mut dialect)?;
    Ok(match filter {
        // A place whose first character fails the filter is never tried.
        Some(f) => {
            let mut out = format!("(?={})", char_test(f));
            push(&mut out, body, Binding::Seq, false);
            out
        }
        None => body.text,
    })
}

/// The dialect, with what it knows of the walk so far.
struct Javascript {
    /// `set[n]`: group `n` has certainly matched here, in JavaScript's
    /// reading (which forgets a loop's groups as each iteration starts).
    set: Vec<bool>,
    /// `nonempty[n]`: group `n` cannot match the empty string.
    nonempty: Vec<bool>,
    /// Inside a look-behind.
    behind: bool,
}

/// What a construct needs back after its parts: the groups set before it.
enum Saved {
    /// Nothing.
    Nothing,
    /// An alternation's: before it, and set in every branch so far.
    Alt {
        before: Vec<bool>,
        all: Option<Vec<bool>>,
    },
    /// A loop's: before it, and the groups of its body.
    Loop {
        before: Vec<bool>,
        inside: Vec<usize>,
    },
    /// A look-around's: before it, and whether it is inside a
    /// look-behind.
    Look { before: Vec<bool>, behind: bool },
}

impl Javascript {
    /// Whether `node`, the body of a loop that holds the groups `inside`,
    /// can match the empty string: [`ast::can_be_empty`], but a
    /// back-reference to a group set before the loop (and not inside it)
    /// that cannot match the empty string cannot either: it matches that
    /// group's text again, alike in both engines.
    fn may_be_empty(&self, node: &Node, inside: &[usize]) -> bool {
        match node {
            Node::Backref(g, _) => {
                inside.contains(g)
                    || !self.set.get(*g).copied().unwrap_or(false)
                    || !self.nonempty.get(*g).copied().unwrap_or(false)
            }
            Node::Seq(items) => items.iter().all(|n| self.may_be_empty(n, inside)),
            Node::Alt(items) => items.iter().any(|n| self.may_be_empty(n, inside)),
            Node::Group(_, n) | Node::Atomic(n) | Node::Scoped(n) => self.may_be_empty(n, inside),
            Node::Repeat { node, min, .. } => *min == 0 || self.may_be_empty(node, inside),
            other => ast::can_be_empty(other),
        }
    }

    /// Refuses a loop JavaScript reads otherwise, or forgets its body's
    /// groups as an iteration starts.
    fn enter_loop(&mut self, body: &Node, max: u32, greed: Greed) -> Result<Saved, JsRefusal> {
        if greed == Greed::Possessive {
            return Err(JsRefusal::Possessive);
        }
        let mut inside = Vec::new();
        ast::visit_groups(body, &mut |g, _| inside.push(g));
        if self.may_be_empty(body, &inside) {
            return Err(JsRefusal::EmptyLoopBody);
        }
        if self.behind && max > 1 && !inside.is_empty() {
            return Err(JsRefusal::InLookBehind);
        }
        let before = self.set.clone();
        for &g in &inside {
            self.set[g] = false;
        }
        Ok(Saved::Loop { before, inside })
    }
}

/// The groups set in both `all` (none yet: every group `set` has) and
/// `set`.
fn meet(all: Option<Vec<bool>>, set: &[bool]) -> Vec<bool> {
    match all {
        None => set.to_vec(),
        Some(a) => a.iter().zip(set).map(|(x, y)| *x && *y).collect(),
    }
}

impl<'t> Dialect<'t> for Javascript {
    type Refusal = JsRefusal;
    type Saved = Saved;
    const EXPLICIT: bool = false;

    fn char_test(&mut self, t: &CharTest) -> Result<String, JsRefusal> {
        Ok(char_test(t))
    }

    fn anchor(&mut self, a: Anchor) -> Result<String, JsRefusal> {
        Ok(anchor(a))
    }

    fn bounds(&self, min: u32, max: u32, greed: Greed) -> String {
        let mut out = match (min, max) {
            (0, UNBOUNDED) => "*".to_string(),
            (1, UNBOUNDED) => "+".to_string(),
            (0, 1) => "?".to_string(),
            (m, UNBOUNDED) => format!("{{{m},}}"),
            (m, n) if m == n => format!("{{{m}}}"),
            (m, n) => format!("{{{m},{n}}}"),
        };
        if greed == Greed::Lazy {
            out.push('?');
        }
        out
    }

    fn form(&mut self, node: &'t Node) -> Result<(Form<'t>, Saved), JsRefusal> {
        let saved = match node {
            Node::Alt(_) => Saved::Alt {
                before: self.set.clone(),
                all: None,
            },
            Node::Repeat {
                node, max, greed, ..
            } => self.enter_loop(node, *max, *greed)?,
            // Inside a look-behind, CPython refuses a reference to a group
            // of the same look-behind: the group is set before it starts,
            // and JavaScript's right-to-left matching reads the same text.
            Node::Backref(n, Fold::Exact) => {
                if !self.set.get(*n).copied().unwrap_or(false) {
                    return Err(JsRefusal::MaybeUnset(*n));
                }
                Saved::Nothing
            }
            Node::Backref(_, Fold::Lower { .. }) => return Err(JsRefusal::FoldedBackref),
            Node::Look { behind, .. } => {
                let saved = Saved::Look {
                    before: self.set.clone(),
                    behind: self.behind,
                };
                self.behind |= behind.is_some();
                saved
            }
            Node::Atomic(_) => return Err(JsRefusal::Atomic),
            Node::Cond { .. } => return Err(JsRefusal::Conditional),
            _ => Saved::Nothing,
        };
        Ok((Form::Walk, saved))
    }

    fn branch(&mut self, saved: &mut Saved, i: usize) {
        if let Saved::Alt { before, all } = saved {
            if i > 0 {
                *all = Some(meet(all.take(), &self.set));
            }
            self.set.clone_from(before);
        }
    }

    fn after(&mut self, node: &'t Node, saved: Saved) -> Result<(), JsRefusal> {
        match (node, saved) {
            (Node::Group(n, _), _) => {
                if self.set.len() <= *n {
                    self.set.resize(n + 1, false);
                }
                self.set[*n] = true;
            }
            (Node::Alt(_), Saved::Alt { all, .. }) => self.set = meet(all, &self.set),
            (Node::Repeat { min, max, .. }, Saved::Loop { before, inside }) => {
                if *max > 1 {
                    if let Some(&g) = inside.iter().find(|&&g| !self.set[g]) {
                        return Err(JsRefusal::SkippedInLoop(g));
                    }
                }
                if *min == 0 {
                    // No iteration: the groups are as before the loop
                    // (unset, as nothing outside the body sets them).
                    for &g in &inside {
                        self.set[g] = before[g];
                    }
                }
            }
            (Node::Look { negate, .. }, Saved::Look { before, behind }) => {
                self.behind = behind;
                // A negative look-around that holds has matched nothing.
                if *negate {
                    self.set = before;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn anchor(a: Anchor) -> String {
    match a {
        Anchor::Start => "^".to_string(),
        Anchor::End => "$".to_string(),
        Anchor::EndOrFinalNewline => r"(?=\n?$)".to_string(),
        Anchor::LineStart => r"(?<![^\n])".to_string(),
        Anchor::LineEnd => r"(?![^\n])".to_string(),
        Anchor::WordBoundary { ascii } => {
            let w = word_class(ascii);
            format!("(?:(?<={w})(?!{w})|(?<!{w})(?={w}))")
        }
        // Both sides word characters, or neither in a text that is not
        // empty.
        Anchor::NotWordBoundary { ascii } => {
            let w = word_class(ascii);
            format!("(?:(?<={w})(?={w})|(?<!{w})(?!{w})(?:(?<=[^])|(?=[^])))")
        }
    }
}

fn word_class(ascii: bool) -> String {
    js_class(&unicode::category_ranges(Category::Word, ascii), false)
}

fn char_test(t: &CharTest) -> String {
    match t {
        CharTest::Lit(c) => literal(*c, false),
        CharTest::NotNewline => r"[^\n]".to_string(),
        CharTest::Any => "[^]".to_string(),
        CharTest::Set(s) => {
            let ranges = s.positive_ranges();
            let outside = unicode::complement(&ranges);
            match ranges[..] {
                [(lo, hi)] if lo == hi => literal(lo, false),
                _ if outside.len() < ranges.len() => js_class(&outside, true),
                _ => js_class(&ranges, false),
            }
        }
    }
}

/// `[...]` of the sorted, disjoint ranges (`[^...]` when `negated`); an
/// empty set is `[]`, which matches nothing.
fn js_class(ranges: &[(u32, u32)], negated: bool) -> String {
    class(if negated { "[^" } else { "[" }, ranges, |c| {
        literal(c, true)
    })
}

/// One code point as a `u`-mode regex literal reads it: printable ASCII
/// as itself, syntax characters and `/` escaped, `\n` and `\t` as such,
/// everything else as `\u{...}` (which also keeps line terminators out of
/// the literal).
fn literal(c: u32, in_class: bool) -> String {
    let Some(ch) = char::from_u32(c).filter(|ch| ch.is_ascii() && !ch.is_ascii_control()) else {
        return match c {
            0x0A => r"\n".to_string(),
            0x09 => r"\t".to_string(),
            _ => format!(r"\u{{{c:X}}}"),
        };
    };
    let syntax = if in_class {
        r"\]^-[/"
    } else {
        r"^$\.*+?()[]{}|/"
    };
    if syntax.contains(ch) {
        format!("\\{ch}")
    } else {
        ch.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pyre::javascript;

    fn js(p: &str) -> Result<String, JsRefusal> {
        javascript(p).map_err(|e| match e {
            crate::pyre::JavascriptError::Refused(r) => r,
            other => panic!("{p}: {other}"),
        })
    }

    #[test]
    fn writes_python_meanings_in_javascript_syntax() {
        assert_eq!(js(r"a.b$").unwrap(), r"a[^\n]b(?=\n?$)");
        assert_eq!(
            js(r"(?m)^#x:(.*)$").unwrap(),
            r"(?<![^\n])#x:([^\n]*)(?![^\n])"
        );
        assert_eq!(js(r"(%%\n)(\w+)\n\2").unwrap().matches('(').count(), 3);
        assert!(js(r"\d").unwrap().contains(r"\u{660}-\u{669}"));
        assert_eq!(js(r"(?:ab|c)+?/").unwrap(), r"(?:ab|c)+?\/");
        assert_eq!(js(r"a{2,2}[]\-]").unwrap(), r"a{2}[\-\]]");
        assert_eq!(js(r"(?:a{2}){3}").unwrap(), r"(?:a{2}){3}");
        assert_eq!(js(r"(a)\1 0").unwrap(), r"(a)(?:\1) 0");
        assert_eq!(js(r"(?P<x>a)(?P=x)0").unwrap(), r"(a)(?:\1)0");
        assert_eq!(js(r"(?s:.)\Z\A").unwrap(), r"[^]$^");
        assert!(js(r"\S").unwrap().starts_with(r"[^\t-\u{D}\u{1C}- "));
        // The filter of `(?a:\W)` in a Unicode pattern: Unicode's `\W`.
        let filtered = js(r"(?a:\W)x").unwrap();
        assert!(filtered.starts_with("(?=[^"), "{filtered}");
    }

    #[test]
    fn refuses_what_javascript_reads_otherwise_or_lacks() {
        for (p, why) in [
            (r"a*", JsRefusal::MatchesEmpty),
            (r"x|(?=y)", JsRefusal::MatchesEmpty),
            (r"(?=x)", JsRefusal::MatchesEmpty),
            (r"(?:a?)+b", JsRefusal::EmptyLoopBody),
            (r"(?>a)b", JsRefusal::Atomic),
            (r"a++", JsRefusal::Possessive),
            (r"(a)?(?(1)b|c)", JsRefusal::Conditional),
            (r"(?i)(a)\1", JsRefusal::FoldedBackref),
            (r"(a)?b\1", JsRefusal::MaybeUnset(1)),
            (r"(?!(a))b\1", JsRefusal::MaybeUnset(1)),
            (r"(?:(a)|b)+", JsRefusal::SkippedInLoop(1)),
            (r"(?:(?:(a)|b)?c)+", JsRefusal::SkippedInLoop(1)),
            // A back-reference loops only to a group set before the loop
            // that cannot match the empty string.
            (r"x(a*)\1+", JsRefusal::EmptyLoopBody),
            (r"(?:(a;)|b)\1+", JsRefusal::EmptyLoopBody),
            (r"(?<=(?:(.)){2})c", JsRefusal::InLookBehind),
        ] {
            assert_eq!(js(p), Err(why), "{p}");
        }
        for p in [
            r"(a)\1",
            r"(?:(a)b)+\1",
            r"(?=(a))a\1",
            r"(?<=a)b",
            r"(?<=(a)b)c\1",
            r"(a)(?<=\1)b",
            r"(?<=(?=(a))a)b\1",
            r"(?:(a)|b)?c",
            r"([^;\n]*;)\1+",
            r"(%%[^%]*#t: (?:[^;\n]*;)*?)([^;\n]*;)\2+",
        ] {
            assert!(js(p).is_ok(), "{p}: {:?}", js(p));
        }
    }
}
