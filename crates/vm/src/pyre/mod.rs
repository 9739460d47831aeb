//! Python's `re`, exactly: patterns as CPython 3.11 reads them, matched
//! with CPython's semantics on Unicode text, replaced as `re.sub` places
//! and expands matches.
//!
//! The pipeline, one stage per module: [`parse`] reads a pattern (with
//! [`escape`] for escapes and classes, [`flags`] for inline flags, each
//! reading through a [`cursor`]) into the tree of [`ast`], or the error
//! CPython raises; [`compile`] turns the tree into a program for
//! the backtracking machine ([`prog`]); [`places`] picks the places of a
//! text to try, [`vm`] runs the program at one (keeping failed
//! look-aheads over a text in [`look_memo`]), [`text`] reads UTF-8 text
//! at byte positions; [`sub`] places matches as `re.sub` does; [`print`]
//! writes the tree in three dialects: the `regex` crate's syntax where
//! that is exact on ASCII text (the executor's fast path), the same as a
//! superset (for the executor's analysis, with [`confine`] saying whether
//! its look-arounds read only the piece of the state a match is tried
//! in), and a JavaScript regex with its meaning (the JavaScript dump);
//! [`template`] reads
//! `re.sub`'s replacement strings; [`facts`] gives the executor the texts
//! every match needs; [`shape`] says which constructs a pattern uses
//! (for profiles); [`unicode`] answers what a
//! character is to Python, from [`tables`] (generated from CPython
//! itself).
//!
//! This module is the surface: [`Regex`] (a compiled pattern) and the
//! errors. It knows nothing of the state grammar, the executor or files.

mod ast;
mod compile;
mod confine;
mod cursor;
mod escape;
mod facts;
mod flags;
mod lead;
mod look_memo;
mod parse;
mod places;
mod print;
mod prog;
mod shape;
mod sub;
mod tables;
mod template;
mod text;
pub(crate) mod unicode;
mod vm;

use std::collections::HashMap;

pub use cursor::PatternError;
pub use print::javascript::JsRefusal;
pub use shape::{features, Features};
pub use template::TemplateError;
pub use vm::MatchError;

use crate::program::Template;
use crate::stop::Stop;

/// The nesting limit of groups (ours; CPython's recursive parser gives up
/// near 500).
pub const MAX_NESTING: usize = parse::MAX_NESTING;

/// The size of one entry of the machine's backtracking stack, in bytes.
pub const FRAME_BYTES: usize = vm::FRAME_BYTES;

/// The Unicode version of the character tables (CPython 3.11's).
pub const UNICODE_VERSION: &str = unicode::UNICODE_VERSION;

/// A pattern compiled with Python's meaning.
#[derive(Debug, Clone)]
pub struct Regex {
    prog: prog::Prog,
    groups: Groups,
    prefix: String,
    needle: Option<String>,
    can_be_empty: bool,
    ascii: Option<String>,
    superset: Option<String>,
}

/// A pattern's groups, as CPython counts and names them: all a load needs
/// of a pattern to read its replacements, without compiling it.
#[derive(Debug, Clone)]
pub struct Groups {
    count: usize,
    names: HashMap<String, usize>,
}

impl Groups {
    /// Reads `pattern` as `re.compile(pattern)` would, keeping its groups.
    ///
    /// # Errors
    ///
    /// [`PatternError`] where CPython raises (or past our nesting limit):
    /// the same as [`Regex::new`].
    pub fn of(pattern: &str) -> Result<Groups, PatternError> {
        parse::parse(pattern).map(Groups::from)
    }

    /// Number of capturing groups.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Reads a replacement as `re.sub` reads it for this pattern (see
    /// [`Regex::template`]).
    ///
    /// # Errors
    ///
    /// [`TemplateError`] where CPython raises.
    pub fn template(&self, replacement: &str) -> Result<Template, TemplateError> {
        template::parse(replacement, self.count, &self.names)
    }
}

/// `pattern` as the body of a JavaScript regex that, with the flags
/// `gu`, means under `String.prototype.replace` what the pattern means to
/// CPython under `re.sub` (see `print::javascript`).
///
/// # Errors
///
/// [`JavascriptError`]: CPython refuses the pattern, or it has no such
/// form.
pub fn javascript(pattern: &str) -> Result<String, JavascriptError> {
    let parsed = parse::parse(pattern).map_err(JavascriptError::Pattern)?;
    let filter = compile::filter(&parsed.node);
    print::javascript::translate(&parsed.node, parsed.groups, filter.as_ref())
        .map_err(JavascriptError::Refused)
}

/// Why a pattern has no JavaScript form (see [`javascript`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JavascriptError {
    /// CPython refuses the pattern.
    #[error("CPython refuses the pattern")]
    Pattern(#[source] PatternError),
    /// JavaScript lacks its constructs or reads them otherwise.
    #[error(transparent)]
    Refused(JsRefusal),
}

impl From<parse::Parsed> for Groups {
    fn from(parsed: parse::Parsed) -> Groups {
        Groups {
            count: parsed.groups,
            names: parsed.names,
        }
    }
}

/// The bounds of one search (see [`Regex::replace_all`]).
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits<'s> {
    /// Asked every 4,096 steps of the machine.
    pub stop: &'s Stop,
    /// The most entries the backtracking stack may hold.
    pub max_frames: usize,
}

impl Regex {
    /// Compiles `pattern` as `re.compile(pattern)` would.
    ///
    /// # Errors
    ///
    /// [`PatternError`] where CPython raises (or past our nesting limit).
    pub fn new(pattern: &str) -> Result<Regex, PatternError> {
        let parsed = parse::parse(pattern)?;
        let prog = compile::compile(&parsed.node, parsed.groups);
        Ok(Regex {
            ascii: print::ascii::translate(&parsed.node, prog.filter.is_some()),
            superset: print::superset::superset(&parsed.node),
            prog,
            prefix: facts::prefix(&parsed.node),
            needle: facts::needle(&parsed.node),
            can_be_empty: ast::can_be_empty(&parsed.node),
            groups: Groups::from(parsed),
        })
    }

    /// Number of capturing groups.
    pub fn groups(&self) -> usize {
        self.groups.count
    }

    /// Group names and their numbers.
    pub fn names(&self) -> &HashMap<String, usize> {
        &self.groups.names
    }

    /// The exact text every match starts with (possibly empty).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The longest exact text every match contains, if any.
    pub fn needle(&self) -> Option<&str> {
        self.needle.as_deref()
    }

    /// The pattern in the `regex` crate's syntax, meaning what it means
    /// to CPython on ASCII text (groups numbered alike, no empty match),
    /// when it has such a form.
    pub fn ascii_pattern(&self) -> Option<&str> {
        self.ascii.as_deref()
    }

    /// A pattern in the `regex` crate's syntax that matches every text
    /// this one can match (see `print::superset`), to read facts from.
    pub fn superset_pattern(&self) -> Option<&str> {
        self.superset.as_deref()
    }

    /// Whether a match can be empty (a superset: back-references and
    /// look-arounds count as able).
    pub fn can_be_empty(&self) -> bool {
        self.can_be_empty
    }

    /// A replacement string read as `re.sub` reads it for this pattern.
    ///
    /// # Errors
    ///
    /// [`TemplateError`] where CPython raises for it.
    pub fn template(&self, replacement: &str) -> Result<Template, TemplateError> {
        self.groups.template(replacement)
    }

    /// `re.sub(self, template, text)`, where no match starts before
    /// `from` (a character boundary of `text`); `None` when nothing
    /// matched.
    ///
    /// # Errors
    ///
    /// [`MatchError`] when a search stops or outgrows its stack.
    pub fn replace_all(
        &self,
        text: &str,
        template: &Template,
        from: usize,
        limits: SearchLimits<'_>,
    ) -> Result<Option<String>, MatchError> {
        let mut cache = vm::Cache::default();
        sub::replace_all(&self.prog, text, template, from, &mut cache, &limits)
    }
}

#[cfg(test)]
mod tests;
