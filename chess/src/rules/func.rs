//! Small special instructions defined by a rewrite list and a closure.
//!
//! Many helpers of the turn program (naming a square, formatting a score)
//! are a handful of rewrites on one thread. [`Func`] pairs such a list with
//! its reference meaning, written as plain Rust over the thread, so each
//! joins the lowering == reference tests like any other special.

use std::fmt;
use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_vm::state::{State, Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};

/// The meaning of a [`Func`] on one active thread.
pub(crate) type Meaning = Arc<dyn Fn(Thread) -> Result<Vec<Thread>, String> + Send + Sync>;

/// A special instruction from rewrites and a closure.
#[derive(Clone)]
pub struct Func {
    /// Name in listings.
    pub name: String,
    /// The rewrites.
    pub rules: Vec<Rewrite>,
    /// The reference meaning.
    pub meaning: Meaning,
    /// Variables it sets.
    pub defines: Vec<String>,
    /// Variables it reads.
    pub requires: Vec<String>,
}

impl fmt::Debug for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Func")
            .field("name", &self.name)
            .field("rules", &self.rules.len())
            .finish()
    }
}

impl Special for Func {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&self, thread: Thread) -> Result<Vec<Thread>, RefError> {
        (self.meaning)(thread).map_err(|message| RefError::Special {
            instr: self.name.clone(),
            message,
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        self.rules.clone()
    }

    fn defines(&self) -> Vec<String> {
        self.defines.clone()
    }

    fn requires(&self) -> Vec<String> {
        self.requires.clone()
    }
}

/// A thread-local rewrite.
pub(crate) fn local(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::ActiveThread)
}

/// What a loader of text before the threads does (the history line, the
/// probe hint): every active thread gets `name`, empty; the first thread,
/// when active, gets `value` when there is one.
///
/// # Errors
///
/// An active thread already holds `name`.
pub(crate) fn load_into_first(
    state: &State,
    name: &str,
    value: Option<&str>,
) -> Result<State, String> {
    let mut out = state.clone();
    for t in out.threads.iter_mut().filter(|t| t.is_active()) {
        append(t, name, "")?;
    }
    if let (Some(value), Some(first)) = (value, out.threads.first_mut()) {
        if first.is_active() {
            replace(first, name, value)?;
        }
    }
    Ok(out)
}

/// The rewrite of [`load_into_first`]'s first step: `name`, empty, at the
/// end of every active thread.
pub(crate) fn append_empty(name: &str) -> Rewrite {
    local(
        r"(%%\n[^%]*)",
        Template::new().group(1).text(&format!("#{name}:\n")),
    )
}

/// A variable's value, or an error naming it.
///
/// # Errors
///
/// The variable is not set.
pub(crate) fn get(t: &Thread, name: &str) -> Result<String, String> {
    t.var(name)
        .map(str::to_string)
        .ok_or_else(|| format!("variable {name} is not set"))
}

/// Appends a variable that must not exist yet.
///
/// # Errors
///
/// The variable is already set.
pub(crate) fn append(t: &mut Thread, name: &str, value: impl Into<String>) -> Result<(), String> {
    if t.var(name).is_some() {
        return Err(format!("variable {name} is already set"));
    }
    t.vars.push((VarName::must(name), value.into()));
    Ok(())
}

/// Replaces an existing variable's value in place.
///
/// # Errors
///
/// The variable is not set.
pub(crate) fn replace(t: &mut Thread, name: &str, value: impl Into<String>) -> Result<(), String> {
    let value = value.into();
    for (n, v) in &mut t.vars {
        if n.as_str() == name {
            *v = value;
            return Ok(());
        }
    }
    Err(format!("variable {name} is not set"))
}

/// The most trailing nines [`increment`] carries through: a clock read from
/// FEN is at most 2^32 - 1 (ten digits), so a count never reaches eleven
/// nines in a row.
pub(crate) const MAX_TRAILING_NINES: usize = 10;

/// `x := x + 1` for a decimal of any length (the clocks: the DSL's `add`
/// works on `INT_DIGITS` columns, too few for a FEN clock of 2^32 - 1).
///
/// A `!` is put before the trailing nines, which become zeros (one rewrite
/// per count of nines), then the digit before the `!` goes up by one (one
/// rewrite per digit; `!` alone at the front is a new `1`).
pub(crate) fn increment(x: &str) -> Func {
    let name = x.to_string();
    let mut rules = Vec::new();
    for k in 0..=MAX_TRAILING_NINES {
        rules.push(local(
            format!(r"(%%\n[^%]*?#{x}:(?:[0-9]*[0-8])?)9{{{k}}}\n"),
            Template::new()
                .group(1)
                .text(&format!("!{}\n", "0".repeat(k))),
        ));
    }
    for d in 0..=8u8 {
        rules.push(local(
            format!(r"(%%\n[^%]*?#{x}:[0-9]*){d}!"),
            Template::new().group(1).text(&(d + 1).to_string()),
        ));
    }
    rules.push(local(
        format!(r"(%%\n[^%]*?#{x}:)!"),
        Template::new().group(1).text("1"),
    ));
    Func {
        name: format!("increment_{x}"),
        rules,
        meaning: Arc::new(move |mut t: Thread| {
            let v = get(&t, &name)?;
            let next = decimal_successor(&v)
                .filter(|_| {
                    v.bytes().rev().take_while(|&b| b == b'9').count() <= MAX_TRAILING_NINES
                })
                .ok_or_else(|| format!("{v:?} is not a decimal the increment handles"))?;
            replace(&mut t, &name, next)?;
            Ok(vec![t])
        }),
        defines: vec![],
        requires: vec![x.to_string()],
    }
}

/// The decimal after `v` (any length), `None` unless `v` is canonical.
pub(crate) fn decimal_successor(v: &str) -> Option<String> {
    let canonical =
        !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && (v == "0" || !v.starts_with('0'));
    if !canonical {
        return None;
    }
    let mut digits = v.as_bytes().to_vec();
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return String::from_utf8(digits).ok();
        }
    }
    digits.insert(0, b'1');
    String::from_utf8(digits).ok()
}
