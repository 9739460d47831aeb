//! The program: an ordered list of `(pattern, replacement)` rewrites.
//!
//! This module owns the data a program is made of and nothing else: the
//! replacement [`Template`] (literal text and group references, rendered per
//! target engine), the per-rewrite metadata the lowering knows (instruction,
//! engine, scope), and the `Display` listing used everywhere (CLI, test
//! failures, docs). It never runs a regex; `exec` does that, `format` reads
//! and writes files.

use std::fmt;
use std::sync::Arc;

/// Which regex engine a pattern needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Plain pattern: runs on the `regex` crate.
    Plain,
    /// The pattern uses back-references (`\1`..`\9`): runs on `fancy-regex`.
    Backref,
    /// The pattern means to the Rust engines something other than what it
    /// means to CPython's `re` (or nothing): runs on our own engine with
    /// Python's semantics (`pyre`). Only `python::load` chooses it.
    Python,
}

impl Engine {
    /// The engine a pattern needs, judged from its text: any `\1`..`\9`
    /// outside a character class means back-references.
    pub fn of_pattern(pattern: &str) -> Engine {
        if crate::lex::has_backrefs(pattern) {
            Engine::Backref
        } else {
            Engine::Plain
        }
    }
}

/// What part of the state a rewrite can touch, as the lowering that wrote it
/// declares it: documentation in listings and a claim the tests check. The
/// executor does not trust it: it proves where a pattern can match from the
/// pattern's parsed form (`analysis`), the same way for a program read
/// from a file as for one the lowering wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every match lies inside one active thread (one whose tag line is
    /// `%%` or the in-instruction marker `` %` ``), and the rewrite neither
    /// creates nor removes a thread start. Applying it to each active thread
    /// alone gives the same bytes as applying it to the whole state.
    ActiveThread,
    /// Anything else (forks, joins, the boot rewrite, foreign programs).
    Global,
}

/// One piece of a replacement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Piece {
    /// Text copied as is.
    Literal(String),
    /// The text matched by capture group `n` (empty if it did not take part).
    Group(usize),
}

/// A replacement: literal text and group references, engine-neutral.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    /// An empty replacement (deletes the match).
    pub fn new() -> Template {
        Template::default()
    }

    /// A replacement that is only literal text.
    pub fn literal(text: &str) -> Template {
        Template::new().text(text)
    }

    /// Appends literal text (adjacent literals are merged).
    pub fn text(mut self, text: &str) -> Template {
        if text.is_empty() {
            return self;
        }
        if let Some(Piece::Literal(last)) = self.pieces.last_mut() {
            last.push_str(text);
        } else {
            self.pieces.push(Piece::Literal(text.to_string()));
        }
        self
    }

    /// Appends a reference to capture group `n`.
    pub fn group(mut self, n: usize) -> Template {
        self.pieces.push(Piece::Group(n));
        self
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// True if the replacement references any group (including group 0).
    pub fn has_groups(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, Piece::Group(_)))
    }

    /// The highest group number referenced (0 if none).
    pub fn max_group(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Group(n) => *n,
                Piece::Literal(_) => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Rust `regex` syntax: `${1}`, `$$` for a literal dollar.
    pub fn to_rust(&self) -> String {
        self.spell(|s| s.replace('$', "$$"), |n| format!("${{{n}}}"))
    }

    /// Python `re` syntax: `\g<1>`, `\\` for a literal backslash.
    pub fn to_python(&self) -> String {
        self.spell(|s| s.replace('\\', "\\\\"), |n| format!("\\g<{n}>"))
    }

    /// JavaScript `String.prototype.replace` syntax: `$01`, `$$` for a
    /// literal dollar (two-digit group numbers so a following digit is never
    /// read as part of the reference; `$&` for the whole match).
    pub fn to_js(&self) -> String {
        self.spell(
            |s| s.replace('$', "$$"),
            |n| match n {
                0 => "$&".to_string(),
                n => format!("${n:02}"),
            },
        )
    }

    /// The template in one engine's syntax: each literal piece as
    /// `literal` escapes it, each group reference as `group` writes it.
    fn spell(&self, literal: impl Fn(&str) -> String, group: impl Fn(usize) -> String) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Literal(s) => out.push_str(&literal(s)),
                Piece::Group(n) => out.push_str(&group(*n)),
            }
        }
        out
    }
}

/// Where a rewrite came from, as far as the lowering knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Index of the instruction in the lowered instruction list.
    pub instr: usize,
    /// Short instruction name (`push`, `cond`, `add`, ...), used to group
    /// timings.
    pub name: String,
}

/// One `(pattern, replacement)` pair plus what the lowering knows about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The regex, in the portable syntax (see `portable`).
    pub pattern: String,
    /// The replacement.
    pub replacement: Template,
    /// Engine the pattern needs.
    pub engine: Engine,
    /// What the rewrite may touch.
    pub scope: Scope,
    /// The instruction it was lowered from, when known.
    pub origin: Option<Origin>,
}

impl Rewrite {
    /// A rewrite with no origin and global scope (e.g. read from a file).
    pub fn new(pattern: impl Into<String>, replacement: Template) -> Rewrite {
        let pattern = pattern.into();
        let engine = Engine::of_pattern(&pattern);
        Rewrite {
            pattern,
            replacement,
            engine,
            scope: Scope::Global,
            origin: None,
        }
    }

    /// The same rewrite with a scope hint.
    pub fn with_scope(mut self, scope: Scope) -> Rewrite {
        self.scope = scope;
        self
    }

    /// The same rewrite with an origin.
    pub fn with_origin(mut self, origin: Origin) -> Rewrite {
        self.origin = Some(origin);
        self
    }
}

/// An ordered list of rewrites. Running it means applying each rewrite with
/// replace-all, in order, exactly once. A clone shares the rewrites (an
/// executor keeps its program for its listing).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    rewrites: Arc<Vec<Rewrite>>,
}

impl Program {
    /// A program from its rewrites.
    pub fn new(rewrites: Vec<Rewrite>) -> Program {
        Program {
            rewrites: Arc::new(rewrites),
        }
    }

    /// The rewrites, in order.
    pub fn rewrites(&self) -> &[Rewrite] {
        &self.rewrites
    }

    /// Number of rewrites.
    pub fn len(&self) -> usize {
        self.rewrites.len()
    }

    /// True if there is no rewrite.
    pub fn is_empty(&self) -> bool {
        self.rewrites.is_empty()
    }

    /// Appends another program's rewrites.
    pub fn extend(&mut self, other: Program) {
        let theirs = Arc::try_unwrap(other.rewrites).unwrap_or_else(|shared| (*shared).clone());
        Arc::make_mut(&mut self.rewrites).extend(theirs);
    }

    /// Number of distinct patterns (what the executor compiles).
    pub fn distinct_patterns(&self) -> usize {
        let set: std::collections::HashSet<&str> =
            self.rewrites.iter().map(|r| r.pattern.as_str()).collect();
        set.len()
    }
}

impl Program {
    /// Writes the listing [`Program`]'s `Display` writes, with `note(i)`,
    /// when it is not empty, at the end of rewrite `i`'s line.
    pub(crate) fn write_listing(
        &self,
        f: &mut fmt::Formatter<'_>,
        note: impl Fn(usize) -> String,
    ) -> fmt::Result {
        let mut last: Option<usize> = None;
        for (i, r) in self.rewrites.iter().enumerate() {
            if let Some(o) = &r.origin {
                if last != Some(o.instr) {
                    writeln!(f, "{:03}: {}", o.instr, o.name)?;
                    last = Some(o.instr);
                }
            }
            write!(
                f,
                "    [{i:05}] {:?} -> {:?}",
                r.pattern,
                r.replacement.to_rust()
            )?;
            match note(i) {
                n if n.is_empty() => writeln!(f)?,
                n => writeln!(f, "  ({n})")?,
            }
        }
        Ok(())
    }
}

/// The listing: one line per instruction (`007: push x`), then its rewrites
/// indented with their index. Rewrites without an origin are listed alone.
impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_listing(f, |_| String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_renders_per_engine() {
        let t = Template::literal("a$\\").group(1).text("0").group(12);
        assert_eq!(t.to_rust(), "a$$\\${1}0${12}");
        assert_eq!(t.to_python(), "a$\\\\\\g<1>0\\g<12>");
        assert_eq!(t.to_js(), "a$$\\$010$12");
        assert_eq!(t.max_group(), 12);
    }

    #[test]
    fn engine_detects_backrefs_outside_classes() {
        assert_eq!(Engine::of_pattern(r"(a)\1"), Engine::Backref);
        assert_eq!(Engine::of_pattern(r"[\1]a"), Engine::Plain);
        assert_eq!(Engine::of_pattern(r"a\n\\1"), Engine::Plain);
        assert_eq!(Engine::of_pattern(r"\0"), Engine::Plain);
    }
}
