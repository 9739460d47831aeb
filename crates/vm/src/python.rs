//! Programs read from files, run exactly as CPython's `re` runs them.
//!
//! The JSON reader accepts any pattern the Rust engines compile; this
//! module decides, entry by entry, whether the executor gives the bytes
//! `re.sub(pattern, replacement, state)` gives, and refuses the program
//! at load otherwise, naming the entry and the reason. It accepts the
//! portable subset (`portable`: the same reading in Rust and Python, no
//! empty matches, whose placement differs between the two), where a
//! back-reference names a group closed before it (Python refuses the
//! rest). One construct outside it is translated: the boot pattern `^$`,
//! which in Python also matches the state `"\n"` (`$` matches before a
//! final newline), becomes `^(\n?)$` with the captured newline written
//! back after the replacement (the `regex` crate's `$` is the end only).
//! It runs nothing and touches no state.

use crate::analysis;
use crate::portable::{self, PortableError, BOOT_PATTERN};
use crate::program::{Piece, Program, Rewrite, Template};

/// Why an entry cannot be run exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    /// Outside the portable subset.
    #[error(transparent)]
    NotPortable(#[from] PortableError),
    /// A back-reference to a group that is open or comes later.
    #[error("a back-reference names a group that is not closed before it")]
    OpenGroup,
}

/// An entry of a program that cannot be run exactly as Python runs it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {index}: pattern {pattern:?} cannot be run exactly as Python's re runs it")]
pub struct NotExact {
    /// The entry (0-based, the executor's rewrite index).
    pub index: usize,
    /// Its pattern.
    pub pattern: String,
    /// Why.
    #[source]
    pub reason: Reason,
}

/// The program, with the boot pattern translated, when every entry runs
/// exactly as in CPython's `re`.
///
/// # Errors
///
/// The first entry that does not, with the reason.
pub fn exact(program: &Program) -> Result<Program, NotExact> {
    let mut out = Vec::with_capacity(program.len());
    let mut checked: std::collections::HashMap<&str, Result<(), Reason>> =
        std::collections::HashMap::new();
    for (index, r) in program.rewrites().iter().enumerate() {
        if r.pattern == BOOT_PATTERN {
            out.push(boot(&r.replacement));
            continue;
        }
        let verdict = checked
            .entry(r.pattern.as_str())
            .or_insert_with(|| check(&r.pattern));
        if let Err(reason) = verdict {
            return Err(NotExact {
                index,
                pattern: r.pattern.clone(),
                reason: reason.clone(),
            });
        }
        out.push(r.clone());
    }
    Ok(Program::new(out))
}

fn check(pattern: &str) -> Result<(), Reason> {
    let info = portable::check(pattern).map_err(Reason::NotPortable)?;
    if info.backrefs && analysis::superset(pattern).is_none() {
        return Err(Reason::OpenGroup);
    }
    Ok(())
}

/// `^$` as Python reads it: it matches the empty state, and the state
/// `"\n"` before its newline.
fn boot(template: &Template) -> Rewrite {
    let mut t = Template::new();
    for p in template.pieces() {
        match p {
            Piece::Literal(s) => t = t.text(s),
            // The match is empty: group 0 adds nothing.
            Piece::Group(_) => {}
        }
    }
    Rewrite::new(r"^(\n?)$", t.group(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Executor};

    fn run(program: &Program, state: &str) -> String {
        let exec = Executor::new(program, Config::default()).expect("compiles");
        let mut s = state.to_string();
        exec.run(&mut s).expect("runs");
        s
    }

    #[test]
    fn the_boot_pattern_matches_as_in_python() {
        let p = exact(&Program::new(vec![Rewrite::new(
            "^$",
            Template::literal("B").group(0),
        )]))
        .expect("exact");
        // re.sub("^$", r"B\g<0>", s) for s in "", "\n", "x", "\n\n".
        assert_eq!(run(&p, ""), "B");
        assert_eq!(run(&p, "\n"), "B\n");
        assert_eq!(run(&p, "x"), "x");
        assert_eq!(run(&p, "\n\n"), "\n\n");
    }

    #[test]
    fn refuses_what_python_reads_otherwise_naming_the_entry() {
        for (pattern, index, reason) in [
            ("a$", 1, "'$'"),
            ("x*", 1, "empty string"),
            (r"(a)\10", 1, "followed by a digit"),
            (r"(a\1)b", 1, "not closed"),
            (r"a(?=b)", 1, "look-around"),
        ] {
            let p = Program::new(vec![
                Rewrite::new("ok", Template::new()),
                Rewrite::new(pattern, Template::new()),
            ]);
            let e = exact(&p).expect_err(pattern);
            assert_eq!(e.index, index);
            assert!(e.reason.to_string().contains(reason), "{pattern}: {e}");
            assert!(e.to_string().starts_with("entry 1: "), "{e}");
        }
    }
}
