//! The hand-written lowering: the same instructions, rewrites written as a
//! person writes regexes for Python's `re` by hand, to benchmark the VM on
//! such programs.
//!
//! Consumes an [`IrProgram`] (usually the optimized one), produces a
//! [`regex_vm::Program`] whose every instruction leaves the state exactly
//! as [`crate::lower`]'s does, in Python's pattern language rather than the
//! portable subset: `.*` for a line's rest, `\d` for digits, `\w+`/`\S+`
//! for a name, `(?m)^`/`$` for line ends, `(?s)` with a lazy `.*?` up to
//! the next thread, look-ahead `(?=...)`/`(?!...)` for conditions,
//! look-behind to find the top of a stack, a plain `$` for the end of the
//! state, named groups, and back-references for variables named on the
//! stack (as [`crate::lower_stack`] does). No rewrite has a scope hint.
//! Instructions a person writes as one test of a variable (`var_eq`,
//! `cond_var_in`, `set`) name the variable in the pattern; the others push
//! its name and find it by back-reference. Join, absorb, add, sub and the
//! client's special instructions keep [`crate::lower`]'s rewrites, written
//! in the same hand by [`translate`]. Each rewrite is checked to compile
//! on CPython's `re` and given the engine `regex-chess run` gives it
//! ([`regex_vm::python::engine_of`]). It must not change what any
//! instruction means; `tests/tests/integration/isa.rs` runs it against the reference
//! interpreter.
//!
//! Why the patterns are exact under `re.sub`, given each instruction's
//! precondition (enough stack items, the variable set, the operands of the
//! kind it needs) and the state grammar (`regex_vm::state`):
//! - `.` is any character but `\n` (no `(?s)` where it is used), so `.*\n`
//!   is exactly one stack item and `(.*)$` under `(?m)` a line's rest;
//! - a name on top is `[A-Za-z0-9_]+`, which `\w+` and `\S+` match whole
//!   (the `\n` after them ends the item); `#\2:` then occurs at most once
//!   per thread, at its variable's line;
//! - `[^%]*` never leaves a thread; `(?s).*?(?=%|\Z)` stops at the same
//!   place (the first `%` or the end); `[^%]*(?=%|$)` is `[^%]*` (a
//!   maximal run stops at a `%` or at the very end, where `$` holds);
//! - `%` only starts a thread and a thread's mark is followed by `\n`, so
//!   `(?m)%%$` is an active thread's mark and `(?m)%t$` one paused under
//!   `t` (not under `t1`); a thread need not start a line (the text before
//!   the first one may not end with `\n`), so no `^` is asked there;
//! - `\d` is `[0-9]` on ASCII text: integers are ASCII (the reference
//!   interpreter refuses others), and see [`translate`] for the rest.

use std::collections::HashMap;

use regex_vm::portable::BOOT_PATTERN;
use regex_vm::pyre::PatternError;
use regex_vm::{Engine, Program, Rewrite, Scope, Template};

use crate::ir::{Instr, IrProgram};
use crate::lower::{self, LowerError, RewriteFault};
use crate::lower_stack::{self, head_then, push, rw, HEAD, MARKED};

/// Lowers every instruction in the hand-written style, in order.
///
/// # Errors
///
/// [`LowerError`] for the first rewrite CPython does not compile, or
/// whose replacement names a group its pattern lacks.
pub fn lower_hand(program: &IrProgram) -> Result<Program, LowerError> {
    let mut out = Vec::new();
    let mut engines = Engines::new();
    for (index, instr) in program.instrs.iter().enumerate() {
        let origin = regex_vm::Origin {
            instr: index,
            name: instr.name(),
        };
        for (rule, r) in lower_instr(instr).into_iter().enumerate() {
            let r = checked(
                index,
                instr,
                rule,
                r.with_scope(Scope::Global),
                &mut engines,
            )?;
            out.push(r.with_origin(origin.clone()));
        }
    }
    Ok(Program::new(out))
}

/// Each distinct pattern's engine and group count, or CPython's refusal
/// ([`regex_vm::python::engine_of`]), read once: the program repeats its
/// patterns.
type Engines = HashMap<String, Result<(Engine, usize), PatternError>>;

/// The rewrite with the engine `run` gives its pattern, or why CPython
/// would refuse it.
fn checked(
    index: usize,
    instr: &Instr,
    rule: usize,
    mut r: Rewrite,
    engines: &mut Engines,
) -> Result<Rewrite, LowerError> {
    let fail = |reason: RewriteFault| LowerError::at(index, instr, rule, &r, reason);
    if matches!(instr, Instr::Boot(_)) && r.pattern == BOOT_PATTERN {
        return Ok(r);
    }
    let engine_of = engines
        .entry(r.pattern.clone())
        .or_insert_with(|| regex_vm::python::engine_of(&r.pattern))
        .clone();
    let (engine, groups) = engine_of.map_err(|e| fail(RewriteFault::NotPython(e)))?;
    if let Some(fault) = lower::missing_group(&r, groups) {
        return Err(fail(fault));
    }
    r.engine = engine;
    Ok(r)
}

/// One stack item.
const ITEM: &str = r".*\n";

/// A marked thread (`` %` ``) with `text` pushed.
fn marked_then(text: &str) -> Template {
    Template::literal(&format!("{MARKED}{text}\n"))
}

fn pop() -> Rewrite {
    rw(format!("{HEAD}{ITEM}"), Template::new().group(1))
}

/// Marked threads become active again.
fn unmark() -> Rewrite {
    rw(r"(?m)%`$", Template::literal("%%"))
}

/// Pushes the value of the variable named on top, in place of the name:
/// the look-ahead reads the value without consuming the thread.
fn lookup_named() -> Rewrite {
    rw(
        format!(r"(?m){HEAD}(\w+)\n(?=[^%]*^#\2:(.*)$)"),
        Template::new().group(1).group(3).text("\n"),
    )
}

/// Deletes the line of the variable named on top (the name stays).
fn delete_named() -> Rewrite {
    rw(
        format!(r"(?m){HEAD}(\S+)\n([^%]*?)^#\2:.*\n"),
        Template::new().group(1).group(2).text("\n").group(3),
    )
}

/// Pops the name on top and the value under it into the variable's line,
/// first in the variable list (after the remaining items).
fn insert_named() -> Rewrite {
    rw(
        r"(?P<head>%%\n#stack:\n)(?P<name>\S+)\n(?P<value>.*)\n(?P<items>[^#%]*)",
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

/// Variable `x` set to `v` in every active thread, the variable named in
/// the patterns: its old line deleted (a lazy run to the first line
/// naming it), the new one put after the items.
fn set(x: &str, v: &str) -> Vec<Rewrite> {
    vec![
        rw(
            format!(r"(?m)(%%\n#stack:\n[^%]*?)^#{x}:.*\n"),
            Template::new().group(1),
        ),
        rw(
            r"(%%\n#stack:\n[^#%]*)",
            Template::new().group(1).text(&format!("#{x}:{v}\n")),
        ),
    ]
}

fn eq() -> Vec<Rewrite> {
    vec![
        rw(format!(r"{HEAD}(.*)\n\2\n"), marked_then("T")),
        rw(format!("{HEAD}{ITEM}{ITEM}"), head_then("F\n")),
        unmark(),
    ]
}

/// Alternatives of literal values, escaped for Python.
fn alternatives(set: &[String]) -> String {
    set.iter().map(|v| escape(v)).collect::<Vec<_>>().join("|")
}

fn is_any(set: &[String]) -> Vec<Rewrite> {
    let mut rules = Vec::new();
    if !set.is_empty() {
        rules.push(rw(
            format!(r"{HEAD}(?:{})\n", alternatives(set)),
            marked_then("T"),
        ));
    }
    rules.push(rw(format!("{HEAD}{ITEM}"), head_then("F\n")));
    rules.push(unmark());
    rules
}

/// Pops a boolean: `F` threads are paused under `t`; the `T` on top of
/// the others, found behind an active head, is deleted.
fn cond(t: &str) -> Vec<Rewrite> {
    vec![
        rw(
            r"%%\n#stack:\nF\n",
            Template::literal(&format!("%{t}\n#stack:\n")),
        ),
        rw(r"(?<=%%\n#stack:\n)T\n", Template::new()),
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
            r"(?P<head>%%\n#stack:\n)(?P<a>.*\n)(?P<b>.*\n)",
            Template::new().group(1).group(3).group(2),
        )],
        Instr::Lookup(x) => lookup(x.as_str()),
        Instr::AssignPop(x) => assign_pop(x.as_str()),
        Instr::Delete(x) => vec![push(x.as_str()), delete_named(), pop()],
        Instr::Set(x, v) => set(x.as_str(), v),
        Instr::Cond(t) => cond(t.as_str()),
        Instr::Pause(t) => vec![rw(r"(?m)%%$", Template::literal(&format!("%{t}")))],
        Instr::Reactivate(t) => vec![rw(format!(r"(?m)%{t}$"), Template::literal("%%"))],
        // `$`: a thread runs to the next one or to the end of the state.
        Instr::DestroyActive => vec![rw(r"%%\n[^%]*(?=%|$)", Template::new())],
        Instr::ForkInactive(t) => vec![rw(
            r"(?s)(%%\n)(.*?)(?=%|\Z)",
            Template::new()
                .group(1)
                .group(2)
                .text(&format!("%{t}\n"))
                .group(2),
        )],
        Instr::ForkBool => fork_list(&["T".to_string(), "F".to_string()]),
        Instr::ForkList(values) => fork_list(values),
        // A stack is empty when a variable, the next thread or the end of
        // the state follows its head: the others are marked first.
        Instr::StackEmpty => vec![
            rw(format!(r"{HEAD}(?=[^#%])"), marked_then("F")),
            rw(HEAD, head_then("T\n")),
            unmark(),
        ],
        Instr::Eq => eq(),
        Instr::Not => vec![
            rw(format!(r"{HEAD}T\n"), marked_then("F")),
            rw(format!(r"{HEAD}F\n"), head_then("T\n")),
            unmark(),
        ],
        // The outcome that can be read off the top item first, so that the
        // second rule never sees its result.
        Instr::And => vec![
            rw(format!(r"{HEAD}(?:F\n.*|T\nF)\n"), head_then("F\n")),
            rw(format!(r"{HEAD}T\nT\n"), head_then("T\n")),
        ],
        Instr::Or => vec![
            rw(format!(r"{HEAD}(?:T\n.*|F\nT)\n"), head_then("T\n")),
            rw(format!(r"{HEAD}F\nF\n"), head_then("F\n")),
        ],
        Instr::IsAny(set) => is_any(set),
        Instr::Concat => vec![rw(
            format!(r"{HEAD}(.*)\n(.*)\n"),
            Template::new().group(1).group(3).group(2).text("\n"),
        )],
        Instr::Lt => less_than(),
        // The variable tested where it stands, by a look-ahead over the
        // thread.
        Instr::VarEq(x, v) => vec![
            rw(
                format!(r"(?m){HEAD}(?=[^%]*^#{x}:{}$)", escape(v)),
                marked_then("T"),
            ),
            rw(HEAD, head_then("F\n")),
            unmark(),
        ],
        // Threads whose variable is none of the values are paused: a
        // negative look-ahead over the thread.
        Instr::CondVarIn(x, vs, t) => {
            let pattern = if vs.is_empty() {
                r"%%\n".to_string()
            } else {
                format!(r"(?m)%%\n(?![^%]*^#{x}:(?:{})$)", alternatives(vs))
            };
            vec![rw(pattern, Template::literal(&format!("%{t}\n")))]
        }
        Instr::Join | Instr::Absorb(_) | Instr::Add | Instr::Sub | Instr::Special(_) => {
            lower::lower_instr(instr)
                .into_iter()
                .map(|r| Rewrite {
                    pattern: translate(&r.pattern),
                    ..r
                })
                .collect()
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

/// `b < a` where `a` is the top item, in unary per digit (as
/// [`crate::lower_stack`]'s, with `\d`).
fn less_than() -> Vec<Rewrite> {
    lower_stack::less_than_with(r"\d", unmark())
}

/// A literal value escaped for Python's `re` (every character that means
/// something outside a class, and the line breaks).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            c if r"\.+*?()|[]{}^$".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A portable pattern (see `regex_vm::portable`) written in the same hand:
/// a class `[0-9]` as `\d`, `[^\n]` as `.`, `{n,n}` as `{n}`. The last two
/// mean the same on any text (a portable pattern has no `(?s)`); `\d`
/// means `[0-9]` on ASCII text. The rewrites so translated are the
/// generic instructions' (whose digits are those of integers, ASCII by
/// their precondition) and the client's: a program whose states are ASCII
/// wherever such a class is asked keeps its meaning. (The chess program's
/// states are: it writes every character of them but the person's line,
/// which its `sanitize` rewrites read with the classes `[^ -~\n]` and
/// `[%#`]` first and replace by a marker before any `\d` can see it;
/// `tests/tests/integration/styles.rs` plays lines with non-ASCII digits.)
pub(crate) fn translate(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                out.extend(chars.get(i..(i + 2).min(chars.len())).into_iter().flatten());
                i += 2;
            }
            '[' => {
                let end = class_end(&chars, i);
                let class: String = chars[i..end].iter().collect();
                out.push_str(match class.as_str() {
                    "[0-9]" => r"\d",
                    r"[^\n]" => ".",
                    _ => &class,
                });
                i = end;
            }
            '{' => match equal_bounds(&chars[i..]) {
                Some((n, len)) => {
                    out.push_str(&format!("{{{n}}}"));
                    i += len;
                }
                None => {
                    out.push('{');
                    i += 1;
                }
            },
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The index just past the class opening at `start` (a `]` right after
/// `[` or `[^` is a literal; a backslash takes the next character).
fn class_end(chars: &[char], start: usize) -> usize {
    let mut i = start + 1;
    if chars.get(i) == Some(&'^') {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            ']' => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// `{n,n}` at the start of `chars`: `n` and the quantifier's length.
fn equal_bounds(chars: &[char]) -> Option<(String, usize)> {
    let close = chars.iter().position(|&c| c == '}')?;
    let inner: String = chars[1..close].iter().collect();
    let (lo, hi) = inner.split_once(',')?;
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (plain(lo) && lo == hi).then(|| (lo.to_string(), close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::{Engine, VarName};

    #[test]
    fn lookup_pushes_the_name_and_reads_the_value_in_a_look_ahead() {
        let p = lower_hand(&IrProgram::new(vec![Instr::Lookup(VarName::must("z"))])).unwrap();
        let patterns: Vec<&str> = p.rewrites().iter().map(|r| r.pattern.as_str()).collect();
        assert_eq!(
            patterns,
            [
                r"(%%\n#stack:\n)",
                r"(?m)(%%\n#stack:\n)(\w+)\n(?=[^%]*^#\2:(.*)$)"
            ]
        );
        assert_eq!(p.rewrites()[1].engine, Engine::Python);
        assert!(p.rewrites().iter().all(|r| r.scope == Scope::Global));
    }

    #[test]
    fn a_tested_variable_is_named_in_the_pattern() {
        let p = lower_hand(&IrProgram::new(vec![Instr::CondVarIn(
            VarName::must("pc"),
            vec!["N".into(), "B".into()],
            regex_vm::Tag::must("t1"),
        )]))
        .unwrap();
        assert_eq!(p.rewrites()[0].pattern, r"(?m)%%\n(?![^%]*^#pc:(?:N|B)$)");
    }

    #[test]
    fn translate_writes_digits_lines_and_counts_by_hand() {
        assert_eq!(
            translate(r"(#a:[0-9]{2,2})[^\n]*\n[^0-9][0-9]{1,2}\[0-9]"),
            r"(#a:\d{2}).*\n[^0-9]\d{1,2}\[0-9]"
        );
        assert_eq!(translate(r"[]0-9][\]x]a{3,3}"), r"[]0-9][\]x]a{3}");
    }

    #[test]
    fn a_pattern_cpython_refuses_is_a_lowering_error() {
        let r = rw("a(?<=b*)", Template::new());
        let err = checked(2, &Instr::Pop, 0, r, &mut Engines::new()).unwrap_err();
        assert!(matches!(err.reason, RewriteFault::NotPython(_)), "{err:?}");
        assert_eq!(err.index, 2);
    }
}
