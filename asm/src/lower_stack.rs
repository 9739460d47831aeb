//! The stack-style lowering: the same instructions, rewrites in a foreign
//! style, to benchmark the VM on programs it did not write.
//!
//! Consumes an [`IrProgram`] (usually the optimized one), produces a
//! [`regex_vm::Program`] whose every instruction leaves the state exactly as
//! [`crate::lower`]'s does (so the two programs end in the same bytes), but
//! written the way a stack machine without our executor in mind writes it:
//! a variable is read or written by pushing its name and matching the name
//! with a back-reference, `(%%\n#stack:\n)([^\n]+)\n([^%]*#\2:)([^#%\n]*)`;
//! equality compares the top two items with `\2`; stack items are
//! `[^\n]*\n`; spans to a variable are long greedy `[^%]*`; no rewrite has
//! a scope hint (every one is `Scope::Global`); the optimizer's fused
//! instructions (`set`, `var_eq`, `cond_var_in`) are taken apart again into
//! pushes, lookups by name and comparisons. `lt` compares the two numbers
//! in unary, one tally column per decimal digit, with a back-reference
//! (`(A*)A+,` against `\3,`). Numbers stay decimal between instructions
//! (the chess program's special instructions and the screen read them), and
//! one whole number in unary would take up to `10^INT_DIGITS` bytes per
//! thread, so `add` and `sub` keep [`crate::lower`]'s tally columns (unary
//! per digit, carries between columns), which are exact at any size.
//! Special instructions are the client's own hand-written rewrites: they
//! pass through unchanged but for their scope hints. It must not change
//! what any instruction means; `tests/tests/integration/isa.rs` runs it against the
//! reference interpreter.
//!
//! Why the foreign patterns are exact under replace-all, given each
//! instruction's precondition (enough stack items, the variable set):
//! - every pattern starts with `%%\n` or a `` ` `` scratch mark, so a match
//!   starts at an active thread; `[^\n]*\n` right after the head is the top
//!   item when the stack has one (items have no newline), and `[^%]*`
//!   never leaves the thread;
//! - `#\2:` with `\2` the name on top occurs at most once per thread and
//!   only at the start of that variable's line (values have no `#`);
//! - `([^\n]*)\n\2\n` matches exactly when the top two items are equal
//!   (the second `\n` ends the second item).

use regex_vm::portable::BOOT_PATTERN;
use regex_vm::{Program, Rewrite, Scope, Template};

use crate::ir::{Instr, IrProgram, INT_DIGITS};
use crate::lower::{self, escape, LowerError};

/// Lowers every instruction in the stack style, in order.
///
/// # Errors
///
/// [`LowerError`] for the first rewrite outside the portable subset.
pub fn lower_stack(program: &IrProgram) -> Result<Program, LowerError> {
    lower::lower_each(program, |instr| {
        lower_instr(instr)
            .into_iter()
            .map(|r| r.with_scope(Scope::Global))
            .collect()
    })
}

/// The head of an active thread, captured as group 1.
pub(crate) const HEAD: &str = r"(%%\n#stack:\n)";
/// The head of an active thread marked "done" within one instruction.
pub(crate) const MARKED: &str = "%`\n#stack:\n";
/// One stack item, as the stack style writes it.
const ITEM: &str = r"[^\n]*\n";

pub(crate) fn rw(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template)
}

/// The head (group 1) followed by `text`.
pub(crate) fn head_then(text: &str) -> Template {
    Template::new().group(1).text(text)
}

/// Pushes the literal `v` on every active thread's stack.
pub(crate) fn push(v: &str) -> Rewrite {
    rw(HEAD, head_then(&format!("{v}\n")))
}

fn pop() -> Rewrite {
    rw(format!("{HEAD}{ITEM}"), Template::new().group(1))
}

fn unmark() -> Rewrite {
    rw(r"%`\n", Template::literal("%%\n"))
}

/// Pushes the value of the variable named on top, in place of the name.
fn lookup_named() -> Rewrite {
    rw(
        format!(r"{HEAD}([^\n]+)\n([^%]*#\2:)([^#%\n]*)"),
        Template::new()
            .group(1)
            .group(4)
            .text("\n")
            .group(3)
            .group(4),
    )
}

/// Deletes the line of the variable named on top (the name stays).
fn delete_named() -> Rewrite {
    rw(
        format!(r"{HEAD}([^\n]+)\n([^%]*)#\2:[^\n]*\n"),
        Template::new().group(1).group(2).text("\n").group(3),
    )
}

/// Pops the name on top and the value under it into the variable's line,
/// first in the variable list (after the remaining items).
fn insert_named() -> Rewrite {
    rw(
        format!(r"{HEAD}([^\n]+)\n([^\n]*)\n([^#%]*)"),
        Template::new()
            .group(1)
            .group(4)
            .text("#")
            .group(2)
            .text(":")
            .group(3)
            .text("\n"),
    )
}

fn lookup(x: &str) -> Vec<Rewrite> {
    vec![push(x), lookup_named()]
}

fn assign_pop(x: &str) -> Vec<Rewrite> {
    vec![push(x), delete_named(), insert_named()]
}

fn eq() -> Vec<Rewrite> {
    vec![
        rw(
            format!(r"{HEAD}([^\n]*)\n\2\n"),
            Template::literal(&format!("{MARKED}T\n")),
        ),
        rw(format!("{HEAD}{ITEM}{ITEM}"), head_then("F\n")),
        unmark(),
    ]
}

fn is_any(set: &[String]) -> Vec<Rewrite> {
    let mut rules = Vec::new();
    if !set.is_empty() {
        let alts: Vec<String> = set.iter().map(|v| escape(v)).collect();
        rules.push(rw(
            format!(r"{HEAD}(?:{})\n", alts.join("|")),
            Template::literal(&format!("{MARKED}T\n")),
        ));
    }
    rules.push(rw(format!("{HEAD}{ITEM}"), head_then("F\n")));
    rules.push(unmark());
    rules
}

fn cond(t: &str) -> Vec<Rewrite> {
    vec![
        rw(
            r"%%(\n#stack:\n)F\n",
            Template::literal(&format!("%{t}")).group(1),
        ),
        rw(format!(r"{HEAD}T\n"), Template::new().group(1)),
    ]
}

fn lower_instr(instr: &Instr) -> Vec<Rewrite> {
    match instr {
        Instr::Boot(text) => vec![rw(BOOT_PATTERN, Template::literal(text))],
        Instr::Push(v) => vec![push(v)],
        Instr::Pop => vec![pop()],
        Instr::Dup => vec![rw(
            format!("{HEAD}({ITEM})"),
            Template::new().group(1).group(2).group(2),
        )],
        Instr::Swap => vec![rw(
            format!("{HEAD}({ITEM})({ITEM})"),
            Template::new().group(1).group(3).group(2),
        )],
        Instr::Lookup(x) => lookup(x.as_str()),
        Instr::AssignPop(x) => assign_pop(x.as_str()),
        Instr::Delete(x) => vec![push(x.as_str()), delete_named(), pop()],
        Instr::Set(x, v) => {
            let mut rules = vec![push(v)];
            rules.extend(assign_pop(x.as_str()));
            rules
        }
        Instr::Cond(t) => cond(t.as_str()),
        Instr::Pause(t) => vec![rw(r"%%\n", Template::literal(&format!("%{t}\n")))],
        Instr::Reactivate(t) => vec![rw(format!(r"%{t}\n"), Template::literal("%%\n"))],
        Instr::DestroyActive => vec![rw(r"%%\n[^%]*", Template::new())],
        Instr::ForkInactive(t) => vec![rw(
            r"(%%\n)([^%]*)",
            Template::new()
                .group(1)
                .group(2)
                .text(&format!("%{t}\n"))
                .group(2),
        )],
        Instr::ForkBool => fork_list(&["T".to_string(), "F".to_string()]),
        Instr::ForkList(values) => fork_list(values),
        Instr::StackEmpty => vec![
            rw(
                format!(r"{HEAD}([^#%\n]*\n)"),
                Template::literal(&format!("{MARKED}F\n")).group(2),
            ),
            rw(HEAD, head_then("T\n")),
            unmark(),
        ],
        Instr::Eq => eq(),
        Instr::Not => vec![
            rw(
                format!(r"{HEAD}T\n"),
                Template::literal(&format!("{MARKED}F\n")),
            ),
            rw(format!(r"{HEAD}F\n"), head_then("T\n")),
            unmark(),
        ],
        // The outcome that can be read off the top item first, so that the
        // second rule never sees its result.
        Instr::And => vec![
            rw(format!(r"{HEAD}(?:F\n[^\n]*|T\nF)\n"), head_then("F\n")),
            rw(format!(r"{HEAD}T\nT\n"), head_then("T\n")),
        ],
        Instr::Or => vec![
            rw(format!(r"{HEAD}(?:T\n[^\n]*|F\nT)\n"), head_then("T\n")),
            rw(format!(r"{HEAD}F\nF\n"), head_then("F\n")),
        ],
        Instr::IsAny(set) => is_any(set),
        Instr::Concat => vec![rw(
            format!(r"{HEAD}([^\n]*)\n([^\n]*)\n"),
            Template::new().group(1).group(3).group(2).text("\n"),
        )],
        Instr::Lt => less_than(),
        Instr::VarEq(x, v) => {
            let mut rules = lookup(x.as_str());
            rules.push(push(v));
            rules.extend(eq());
            rules
        }
        Instr::CondVarIn(x, vs, t) => {
            let mut rules = lookup(x.as_str());
            if let [v] = vs.as_slice() {
                rules.push(push(v));
                rules.extend(eq());
            } else {
                rules.extend(is_any(vs));
            }
            rules.extend(cond(t.as_str()));
            rules
        }
        // Join, absorb, add and sub are ours (see the module doc); the
        // scope hints go in `lower_stack`.
        Instr::Join | Instr::Absorb(_) | Instr::Add | Instr::Sub | Instr::Special(_) => {
            lower::lower_instr(instr)
        }
    }
}

fn fork_list(values: &[String]) -> Vec<Rewrite> {
    let mut t = Template::new();
    for v in values {
        t = t.group(1).text(&format!("{v}\n")).group(2);
    }
    vec![rw(format!("{HEAD}([^%]*)"), t)]
}

/// `b < a` where `a` is the top item, in unary per digit.
///
/// 1. Both numbers get leading zeros up to `INT_DIGITS` digits, one zero
///    per rewrite (the top first, then the second, which then follows an
///    item of exactly `INT_DIGITS` digits).
/// 2. One rewrite puts the scratch mark `` ` `` before every digit of both.
/// 3. Ten literal rewrites turn `` `d `` into `d` tallies `A` and a `,`:
///    each number is a row of columns `A*,`, the most significant first.
/// 4. `b < a` exactly when, after a common prefix, `a`'s column has more
///    tallies than `b`'s: `([A,]*)(A*)A+,` on `a`, `\2\3,` on `b`. The
///    common prefix covers the equal columns (and a common part of the
///    first unequal one), so the first column that differs decides.
fn less_than() -> Vec<Rewrite> {
    less_than_with("[0-9]", unmark())
}

/// [`less_than`] with `digit` for the class of one digit and `unmark` for
/// the rewrite that makes marked threads active again (the hand style
/// writes `\d` and its own; see `lower_hand`).
pub(crate) fn less_than_with(digit: &str, unmark: Rewrite) -> Vec<Rewrite> {
    let w = INT_DIGITS;
    let mut rules = Vec::new();
    let padded = format!("{digit}{{{w}}}\\n");
    for skip in ["", padded.as_str()] {
        for _ in 1..w {
            rules.push(rw(
                format!(r"(%%\n#stack:\n{skip})({digit}{{1,{}}}\n)", w - 1),
                Template::new().group(1).text("0").group(2),
            ));
        }
    }
    let digits = format!("({digit})").repeat(w);
    let mut t = Template::new().group(1);
    for item in 0..2 {
        for k in 0..w {
            t = t.text("`").group(2 + item * w + k);
        }
        t = t.text("\n");
    }
    rules.push(rw(format!(r"{HEAD}{digits}\n{digits}\n"), t));
    for d in 0..=9usize {
        rules.push(rw(
            format!("`{d}"),
            Template::literal(&format!("{},", "A".repeat(d))),
        ));
    }
    rules.push(rw(
        format!(r"{HEAD}([A,]*)(A*)A+,[A,]*\n\2\3,[A,]*\n"),
        Template::literal(&format!("{MARKED}T\n")),
    ));
    rules.push(rw(format!(r"{HEAD}[A,]*\n[A,]*\n"), head_then("F\n")));
    rules.push(unmark);
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::{Engine, VarName};

    #[test]
    fn lookup_names_the_variable_on_the_stack_and_matches_it_by_back_reference() {
        let p = lower_stack(&IrProgram::new(vec![Instr::Lookup(VarName::must("z"))])).unwrap();
        let patterns: Vec<&str> = p.rewrites().iter().map(|r| r.pattern.as_str()).collect();
        assert_eq!(
            patterns,
            [
                r"(%%\n#stack:\n)",
                r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2:)([^#%\n]*)"
            ]
        );
        assert_eq!(p.rewrites()[1].engine, Engine::Backref);
        assert!(p.rewrites().iter().all(|r| r.scope == Scope::Global));
    }

    #[test]
    fn eq_compares_the_top_two_with_a_back_reference() {
        let p = lower_stack(&IrProgram::new(vec![Instr::Eq])).unwrap();
        assert_eq!(p.rewrites()[0].pattern, r"(%%\n#stack:\n)([^\n]*)\n\2\n");
    }
}
