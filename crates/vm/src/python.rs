//! Programs read from files, run exactly as CPython's `re` runs them.
//!
//! Every entry is read as CPython 3.11 reads it: its pattern by our
//! Python engine's parser (`pyre`), its replacement as `re.sub` reads it
//! for that pattern; an entry CPython would refuse (its `re.error` and
//! the like, raised before any matching) is refused at load, naming the
//! entry and the reason, and so is a pattern past a stated limit of ours
//! (group nesting deeper than [`crate::pyre::MAX_NESTING`], `\N{...}`).
//! Each accepted entry then gets the fastest engine that gives CPython's
//! bytes: a pattern of the portable subset (`portable`: the same reading
//! in Rust and Python, no empty matches, whose placement differs between
//! the two), whose back-references name groups closed before them, keeps
//! the Rust engines and their fast paths; the boot pattern `^$`, which in
//! Python also matches the state `"\n"` (`$` matches before a final
//! newline), becomes `^(\n?)$` with the captured newline written back;
//! everything else runs on our Python engine ([`Engine::Python`]). It runs
//! nothing and touches no state.

use std::collections::HashMap;

use crate::exec::reading::Reading;
use crate::portable::{self, BOOT_PATTERN};
use crate::program::{Engine, Piece, Program, Rewrite, Scope, Template};
use crate::pyre::{self, PatternError, TemplateError};

/// Why an entry is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    /// CPython refuses the pattern (or it passes a limit of ours, which
    /// the message says).
    #[error("its pattern")]
    Pattern(#[source] PatternError),
    /// CPython refuses the replacement for this pattern.
    #[error("its replacement")]
    Replacement(#[source] TemplateError),
}

/// An entry of a program that is refused at load.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {index} (pattern {:?}) is refused", crate::excerpt(pattern))]
pub struct Refused {
    /// The entry (0-based, the executor's rewrite index).
    pub index: usize,
    /// Its pattern.
    pub pattern: String,
    /// Why.
    #[source]
    pub reason: Reason,
}

/// What one distinct pattern became.
struct Plan {
    groups: pyre::Groups,
    engine: Engine,
}

/// The program of `(pattern, replacement)` entries, each read as CPython
/// reads it and given an engine that runs it exactly.
///
/// # Errors
///
/// The first entry CPython refuses (or that passes a limit of ours).
pub fn load(entries: &[(String, String)]) -> Result<Program, Refused> {
    // Each distinct pattern read once, on all cores; then the entries in
    // order, so the first refusal is the first entry refused.
    // A replacement is read once for each distinct pattern it follows
    // (programs repeat their pairs: fours has 11,900 distinct of 48,358).
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut distinct: Vec<&str> = Vec::new();
    let entry_ids: Vec<usize> = entries
        .iter()
        .map(|(pattern, _)| {
            *ids.entry(pattern.as_str()).or_insert_with(|| {
                distinct.push(pattern);
                distinct.len() - 1
            })
        })
        .collect();
    let plans: Vec<Result<Plan, PatternError>> = {
        use rayon::prelude::*;
        distinct.par_iter().map(|p| plan(p)).collect()
    };
    let mut templates: HashMap<(usize, &str), Template> = HashMap::new();
    let mut out = Vec::with_capacity(entries.len());
    for (index, ((pattern, replacement), &id)) in entries.iter().zip(&entry_ids).enumerate() {
        let refused = |reason: Reason| Refused {
            index,
            pattern: pattern.clone(),
            reason,
        };
        let plan = plans[id]
            .as_ref()
            .map_err(|e| refused(Reason::Pattern(e.clone())))?;
        let template = match templates.get(&(id, replacement.as_str())) {
            Some(t) => t.clone(),
            None => {
                let t = plan
                    .groups
                    .template(replacement)
                    .map_err(|e| refused(Reason::Replacement(e)))?;
                templates.insert((id, replacement), t.clone());
                t
            }
        };
        if pattern == BOOT_PATTERN {
            out.push(boot(&template));
            continue;
        }
        out.push(Rewrite {
            pattern: pattern.clone(),
            replacement: template,
            engine: plan.engine,
            scope: Scope::Global,
            origin: None,
        });
    }
    Ok(Program::new(out))
}

/// [`load`] on a program's pairs (its replacements as Python writes
/// them), for a program already read into memory.
///
/// # Errors
///
/// As [`load`].
pub fn exact(program: &Program) -> Result<Program, Refused> {
    let entries: Vec<(String, String)> = program
        .rewrites()
        .iter()
        .map(|r| (r.pattern.clone(), r.replacement.to_python()))
        .collect();
    load(&entries)
}

/// The engine [`load`] gives `pattern` and the number of its groups, or
/// the error CPython raises for it (for a lowering that writes patterns
/// outside the portable subset).
///
/// # Errors
///
/// [`PatternError`] where CPython raises (or past a limit of ours).
pub fn engine_of(pattern: &str) -> Result<(Engine, usize), PatternError> {
    plan(pattern).map(|p| (p.engine, p.groups.count()))
}

/// The pattern read (it compiles on CPython; the executor compiles it
/// for the engine chosen here).
fn plan(pattern: &str) -> Result<Plan, PatternError> {
    let groups = pyre::Groups::of(pattern)?;
    let engine = if rust_reads_as_python(pattern) {
        Engine::of_pattern(pattern)
    } else {
        Engine::Python
    };
    Ok(Plan { groups, engine })
}

/// Whether the Rust engines read `pattern` as CPython does (it compiles
/// on CPython): the portable subset, back-references only to groups
/// closed before them.
fn rust_reads_as_python(pattern: &str) -> bool {
    match portable::check(pattern) {
        Ok(info) => !info.backrefs || Reading::new(pattern).superset().is_some(),
        Err(_) => false,
    }
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

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, r)| (p.to_string(), r.to_string()))
            .collect()
    }

    #[test]
    fn a_refusal_quotes_at_most_an_excerpt_of_a_long_pattern() {
        let long = "[".repeat(10_000);
        let err = load(&pairs(&[("^$", "x"), (&long, "y")])).expect_err("refused");
        assert_eq!(err.index, 1);
        let message = err.to_string();
        assert!(message.len() < 200, "{message}");
        assert!(message.contains(&crate::excerpt(&long)), "{message}");
    }

    #[test]
    fn the_boot_pattern_matches_as_in_python() {
        let p = load(&pairs(&[("^$", r"B\g<0>")])).expect("loads");
        // re.sub("^$", r"B\g<0>", s) for s in "", "\n", "x", "\n\n".
        assert_eq!(run(&p, ""), "B");
        assert_eq!(run(&p, "\n"), "B\n");
        assert_eq!(run(&p, "x"), "x");
        assert_eq!(run(&p, "\n\n"), "\n\n");
    }

    #[test]
    fn each_pattern_gets_the_engine_that_reads_it_as_python_does() {
        let p = load(&pairs(&[
            ("%%a", "b"),
            (r"(a)\1", "b"),
            (r"\d", "b"),
            ("a$", "b"),
            ("x*", "b"),
            ("(a)(?=b)", "b"),
        ]))
        .expect("loads");
        let engines: Vec<Engine> = p.rewrites().iter().map(|r| r.engine).collect();
        assert_eq!(
            engines,
            [
                Engine::Plain,
                Engine::Backref,
                Engine::Python,
                Engine::Python,
                Engine::Python,
                Engine::Python
            ]
        );
        // The issue's first example: CPython prints a<1>b<2>.
        let p = load(&pairs(&[("^$", "a1b2\n"), (r"(\d)", r"<\1>")])).expect("loads");
        assert_eq!(run(&p, ""), "a<1>b<2>\n");
    }

    #[test]
    fn a_pattern_nested_to_the_limit_runs_and_one_deeper_is_refused() {
        let deep = |n: usize| format!("{}a{}", "(?:(".repeat(n / 2), "))".repeat(n / 2));
        let p = load(&pairs(&[(&deep(pyre::MAX_NESTING), "<\\g<0>>")])).expect("loads");
        assert_eq!(p.rewrites()[0].engine, Engine::Python);
        assert_eq!(run(&p, "bab"), "b<a>b");
        let e = load(&pairs(&[(&deep(pyre::MAX_NESTING + 2), "")])).expect_err("too deep");
        assert!(format!("{:?}", e.reason).contains("limit of ours"), "{e:?}");
    }

    #[test]
    fn refuses_what_python_refuses_naming_the_entry() {
        for (pattern, replacement, reason) in [
            ("a**", "", "multiple repeat"),
            (r"(a\1)b", "", "open group"),
            ("(?<=a*)", "", "fixed-width"),
            ("a", r"\1", "invalid group reference 1"),
            ("(?P<n>a)", r"\g<m>", "unknown group name"),
            ("a", r"\q", r"bad escape \q"),
        ] {
            let e = load(&pairs(&[("ok", ""), (pattern, replacement)])).expect_err(pattern);
            assert_eq!(e.index, 1);
            let chain = format!("{e}: {}: {}", e.reason, {
                use std::error::Error;
                e.reason
                    .source()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            });
            assert!(chain.contains(reason), "{pattern}: {chain}");
            assert!(e.to_string().starts_with("entry 1 "), "{e}");
        }
    }
}
