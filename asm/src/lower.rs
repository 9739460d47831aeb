//! Lowering: each instruction to an ordered list of rewrites.
//!
//! Consumes an [`IrProgram`], produces a [`regex_vm::Program`]. It never
//! looks at runtime values, and it enforces the portable subset: a pattern
//! outside it (look-around, `$`, a pattern that can match the empty
//! string, ...) is a [`LowerError`] naming the instruction.
//!
//! Why the rules are correct under replace-all (leftmost, non-overlapping,
//! one pass, rules in order):
//! - Every thread-local pattern starts with the literal `%%\n#stack:\n` (or
//!   `%%\n`, or a scratch marker that only exists inside active threads) and
//!   uses only classes without `%` after it, so each match lies inside one
//!   active thread and each active thread matches at most once per rewrite.
//! - `[^#%\n]*\n` is exactly one stack item: values contain neither `#` nor
//!   `%`, so the class cannot run into the variable lines or the next thread.
//! - `#x:` occurs at most once per thread (values have no `#`), so
//!   `[^%]*#x:` finds variable `x` of this thread or nothing.
//! - When an instruction has two outcomes (eq, not, is_any, ...), the first
//!   rewrite marks the threads it handled by turning `%%` into `` %` ``, so
//!   the later rewrites (which all start with `%%`) skip them; the last
//!   rewrite turns `` %` `` back into `%%`.
//! - Integer operations build a scratch (`` ` ``-delimited columns of
//!   tallies) in the top stack item; the scratch patterns contain `` ` ``,
//!   which exists nowhere else, so they may be global and still only touch
//!   the scratch of active threads. The scratch is gone at the end.

use std::collections::HashMap;

use regex_vm::portable::{self, PatternInfo, PortableError, BOOT_PATTERN};
use regex_vm::{Engine, Origin, Program, Rewrite, Scope, Template};

use crate::ir::{Instr, IrProgram, INT_DIGITS, JOIN_PASSES};

/// An instruction whose rewrites break the portable subset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("instruction {index} ({instr}): rewrite {rule} {pattern:?}")]
pub struct LowerError {
    /// Index of the instruction.
    pub index: usize,
    /// The instruction, as listed.
    pub instr: String,
    /// Index of the rewrite within the instruction.
    pub rule: usize,
    /// The offending pattern.
    pub pattern: String,
    /// What is wrong with it.
    #[source]
    pub reason: RewriteFault,
}

/// What is wrong with a lowered rewrite.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteFault {
    /// The pattern is outside the portable subset.
    #[error("the pattern is not portable")]
    NotPortable(#[source] PortableError),
    /// CPython's `re` does not compile the pattern (a lowering that
    /// writes Python's pattern language rather than the portable subset).
    #[error("CPython does not compile the pattern")]
    NotPython(#[source] regex_vm::pyre::PatternError),
    /// The rewrite's engine says back-references and the pattern has none,
    /// or the other way round.
    #[error("engine does not match the use of back-references")]
    WrongEngine,
    /// The replacement copies a group the pattern does not have.
    #[error("replacement names group {named} but the pattern has {groups}")]
    MissingGroup {
        /// The highest group the replacement names.
        named: usize,
        /// The groups the pattern has.
        groups: usize,
    },
}

/// Lowers every instruction, in order.
///
/// # Errors
///
/// [`LowerError`] for the first rewrite outside the portable subset.
pub fn lower(program: &IrProgram) -> Result<Program, LowerError> {
    lower_each(program, lower_instr)
}

/// Lowers every instruction, in order, into the rewrites `rules` gives it,
/// each checked against the portable subset and tagged with its origin.
pub(crate) fn lower_each(
    program: &IrProgram,
    rules: impl Fn(&Instr) -> Vec<Rewrite>,
) -> Result<Program, LowerError> {
    let mut out = Vec::new();
    // A program repeats its patterns (a depth-5 turn: 105,079 rewrites),
    // so each distinct one is read once.
    let mut read: HashMap<String, Result<PatternInfo, PortableError>> = HashMap::new();
    for (index, instr) in program.instrs.iter().enumerate() {
        let origin = Origin {
            instr: index,
            name: instr.name(),
        };
        for (rule, r) in rules(instr).into_iter().enumerate() {
            if !read.contains_key(&r.pattern) {
                read.insert(r.pattern.clone(), portable::check(&r.pattern));
            }
            check_read(index, instr, rule, &r, &read[&r.pattern])?;
            out.push(r.with_origin(origin.clone()));
        }
    }
    Ok(Program::new(out))
}

/// [`check_read`], reading the pattern itself.
#[cfg(test)]
fn check(index: usize, instr: &Instr, rule: usize, r: &Rewrite) -> Result<(), LowerError> {
    check_read(index, instr, rule, r, &portable::check(&r.pattern))
}

/// Checks one lowered rewrite: its pattern is in the portable subset
/// (`read` is what `portable::check` said of it), its engine matches its
/// use of back-references, and its replacement names only groups the
/// pattern has.
fn check_read(
    index: usize,
    instr: &Instr,
    rule: usize,
    r: &Rewrite,
    read: &Result<PatternInfo, PortableError>,
) -> Result<(), LowerError> {
    let fail = |reason: RewriteFault| LowerError::at(index, instr, rule, r, reason);
    if matches!(instr, Instr::Boot(_)) && r.pattern == BOOT_PATTERN {
        return Ok(());
    }
    let info = read
        .as_ref()
        .map_err(|e| fail(RewriteFault::NotPortable(e.clone())))?;
    if info.backrefs != (r.engine == Engine::Backref) {
        return Err(fail(RewriteFault::WrongEngine));
    }
    match missing_group(r, info.groups) {
        Some(fault) => Err(fail(fault)),
        None => Ok(()),
    }
}

impl LowerError {
    /// The error of rewrite `rule` (`r`) of instruction `index`.
    pub(crate) fn at(
        index: usize,
        instr: &Instr,
        rule: usize,
        r: &Rewrite,
        reason: RewriteFault,
    ) -> LowerError {
        LowerError {
            index,
            instr: instr.to_string(),
            rule,
            pattern: r.pattern.clone(),
            reason,
        }
    }
}

/// [`RewriteFault::MissingGroup`] when `r`'s replacement names a group
/// past the pattern's `groups`.
pub(crate) fn missing_group(r: &Rewrite, groups: usize) -> Option<RewriteFault> {
    let named = r.replacement.max_group();
    (named > groups).then_some(RewriteFault::MissingGroup { named, groups })
}

/// Escapes regex metacharacters of a literal value.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

/// The head of every active thread, as a pattern.
pub(crate) const HEAD: &str = r"%%\n#stack:\n";
/// The head of every active thread, as text.
pub(crate) const HEAD_TEXT: &str = "%%\n#stack:\n";
/// The head of an active thread marked "done" within one instruction.
pub(crate) const MARKED_TEXT: &str = "%`\n#stack:\n";
/// One stack item, newline included.
pub(crate) const ITEM: &str = r"[^#%\n]*\n";

fn rw(pattern: impl Into<String>, template: Template, scope: Scope) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(scope)
}

fn local(pattern: impl Into<String>, template: Template) -> Rewrite {
    rw(pattern, template, Scope::ActiveThread)
}

fn lit(text: &str) -> Template {
    Template::literal(text)
}

/// The last rule of a two-outcome instruction: marked threads become
/// active again.
fn unmark() -> Rewrite {
    local("%`\\n", lit("%%\n"))
}

/// `#x:` pattern of a variable's line start.
fn var_line(x: &str) -> String {
    format!("#{x}:")
}

/// Deletes variable `x` in every active thread.
fn delete(x: &str) -> Rewrite {
    local(
        format!(r"({HEAD}[^%]*?){}[^%\n]*\n", var_line(x)),
        Template::new().group(1),
    )
}

pub(crate) fn lower_instr(instr: &Instr) -> Vec<Rewrite> {
    match instr {
        Instr::Boot(text) => vec![rw(BOOT_PATTERN, lit(text), Scope::Global)],
        Instr::Push(v) => vec![local(HEAD, lit(&format!("{HEAD_TEXT}{v}\n")))],
        Instr::Pop => vec![local(format!("{HEAD}{ITEM}"), lit(HEAD_TEXT))],
        Instr::Dup => vec![local(
            format!("{HEAD}({ITEM})"),
            lit(HEAD_TEXT).group(1).group(1),
        )],
        Instr::Swap => vec![local(
            format!("{HEAD}({ITEM})({ITEM})"),
            lit(HEAD_TEXT).group(2).group(1),
        )],
        Instr::Lookup(x) => vec![local(
            format!(r"{HEAD}([^%]*?{}([^%\n]*)\n)", var_line(x.as_str())),
            lit(HEAD_TEXT).group(2).text("\n").group(1),
        )],
        Instr::Delete(x) => vec![delete(x.as_str())],
        Instr::AssignPop(x) => vec![
            delete(x.as_str()),
            // Pop the top and put it, as the variable's line, after the
            // remaining items (`[^#%]*` spans exactly the items).
            local(
                format!(r"{HEAD}([^#%\n]*)\n([^#%]*)"),
                lit(HEAD_TEXT)
                    .group(2)
                    .text(&var_line(x.as_str()))
                    .group(1)
                    .text("\n"),
            ),
        ],
        Instr::Set(x, v) => vec![
            delete(x.as_str()),
            local(
                format!("({HEAD}[^#%]*)"),
                Template::new()
                    .group(1)
                    .text(&format!("{}{v}\n", var_line(x.as_str()))),
            ),
        ],
        Instr::Cond(t) => vec![
            local(format!(r"{HEAD}F\n"), lit(&format!("%{t}\n#stack:\n"))),
            local(format!(r"{HEAD}T\n"), lit(HEAD_TEXT)),
        ],
        Instr::Pause(t) => vec![local(r"%%\n", lit(&format!("%{t}\n")))],
        Instr::Reactivate(t) => vec![rw(format!(r"%{t}\n"), lit("%%\n"), Scope::Global)],
        Instr::DestroyActive => vec![rw(r"%%\n[^%]*", Template::new(), Scope::Global)],
        Instr::ForkInactive(t) => vec![rw(
            r"%%\n([^%]*)",
            lit("%%\n").group(1).text(&format!("%{t}\n")).group(1),
            Scope::Global,
        )],
        Instr::ForkBool => fork_list(&["T".to_string(), "F".to_string()]),
        Instr::ForkList(values) => fork_list(values),
        Instr::Join => (0..JOIN_PASSES)
            .map(|_| {
                rw(
                    format!(r"({HEAD}[^#%]*)([^%]*){HEAD}([^#%]*)[^%]*"),
                    Template::new().group(1).group(3).group(2),
                    Scope::Global,
                )
            })
            .collect(),
        Instr::Absorb(t) => vec![rw(
            format!(r"(%{t}\n#stack:\n[^#%]*)([^%]*){HEAD}([^#%]*)[^%]*"),
            Template::new().group(1).group(3).group(2),
            Scope::Global,
        )],
        Instr::StackEmpty => vec![
            local(
                format!("{HEAD}({ITEM})"),
                lit(&format!("{MARKED_TEXT}F\n")).group(1),
            ),
            local(HEAD, lit(&format!("{HEAD_TEXT}T\n"))),
            unmark(),
        ],
        Instr::Eq => vec![
            local(
                format!(r"{HEAD}([^#%\n]*)\n\1\n"),
                lit(&format!("{MARKED_TEXT}T\n")),
            ),
            local(
                format!("{HEAD}{ITEM}{ITEM}"),
                lit(&format!("{HEAD_TEXT}F\n")),
            ),
            unmark(),
        ],
        Instr::Not => vec![
            local(format!(r"{HEAD}T\n"), lit(&format!("{MARKED_TEXT}F\n"))),
            local(format!(r"{HEAD}F\n"), lit(&format!("{HEAD_TEXT}T\n"))),
            unmark(),
        ],
        Instr::And => vec![
            local(
                format!(r"{HEAD}(?:F\n[TF]|T\nF)\n"),
                lit(&format!("{HEAD_TEXT}F\n")),
            ),
            local(format!(r"{HEAD}T\nT\n"), lit(&format!("{HEAD_TEXT}T\n"))),
        ],
        Instr::Or => vec![
            local(
                format!(r"{HEAD}(?:T\n[TF]|F\nT)\n"),
                lit(&format!("{HEAD_TEXT}T\n")),
            ),
            local(format!(r"{HEAD}F\nF\n"), lit(&format!("{HEAD_TEXT}F\n"))),
        ],
        Instr::IsAny(set) => {
            let mut rules = Vec::new();
            if !set.is_empty() {
                let alts: Vec<String> = set.iter().map(|v| escape(v)).collect();
                rules.push(local(
                    format!(r"{HEAD}(?:{})\n", alts.join("|")),
                    lit(&format!("{MARKED_TEXT}T\n")),
                ));
            }
            rules.push(local(
                format!("{HEAD}{ITEM}"),
                lit(&format!("{HEAD_TEXT}F\n")),
            ));
            rules.push(unmark());
            rules
        }
        Instr::Concat => vec![local(
            format!(r"{HEAD}([^#%\n]*)\n([^#%\n]*)\n"),
            lit(HEAD_TEXT).group(2).group(1).text("\n"),
        )],
        Instr::Add => arith(Arith::Add),
        Instr::Sub => arith(Arith::Sub),
        Instr::Lt => less_than(),
        Instr::VarEq(x, v) => vec![
            local(
                format!(r"{HEAD}([^%]*?{}{}\n)", var_line(x.as_str()), escape(v)),
                lit(&format!("{MARKED_TEXT}T\n")).group(1),
            ),
            local(HEAD, lit(&format!("{HEAD_TEXT}F\n"))),
            unmark(),
        ],
        Instr::CondVarIn(x, vs, t) => {
            let mut rules = Vec::new();
            if !vs.is_empty() {
                let alts: Vec<String> = vs.iter().map(|v| escape(v)).collect();
                rules.push(local(
                    format!(
                        r"%%(\n#stack:\n[^%]*?{}(?:{})\n)",
                        var_line(x.as_str()),
                        alts.join("|")
                    ),
                    lit("%`").group(1),
                ));
            }
            rules.push(local(r"%%\n", lit(&format!("%{t}\n"))));
            rules.push(unmark());
            rules
        }
        Instr::Special(s) => s.rewrites(),
    }
}

fn fork_list(values: &[String]) -> Vec<Rewrite> {
    let mut t = Template::new();
    for v in values {
        t = t.text(&format!("{HEAD_TEXT}{v}\n")).group(1);
    }
    vec![rw(format!("{HEAD}([^%]*)"), t, Scope::Global)]
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
}

/// The scratch of two right-aligned operands: `` `;`B|A;`B|A;...\n `` (a
/// leading carry column, then one column per digit position; a missing
/// leading digit is empty).
fn align() -> Rewrite {
    let w = INT_DIGITS;
    let digits = "([0-9]??)".repeat(w);
    let mut t = lit(HEAD_TEXT).text("`;");
    for k in 0..w {
        t = t
            .text("`")
            .group(w + 1 + k)
            .text("|")
            .group(1 + k)
            .text(";");
    }
    local(format!(r"{HEAD}{digits}\n{digits}\n"), t.text("\n"))
}

/// `b < a` where `a` is the top item, without arithmetic: with both numbers
/// aligned to the right (an empty column counts as 0), the columns where
/// both digits are equal are removed (each is a literal); the first column
/// left decides, and none left means equal.
fn less_than() -> Vec<Rewrite> {
    let mut rules = vec![align()];
    for empty in [r"`\|;", r"`\|0;", r"`0\|;"] {
        rules.push(local(empty, Template::new()));
    }
    for d in 0..=9 {
        rules.push(local(format!(r"`{d}\|{d};"), Template::new()));
    }
    let mut smaller = Vec::new();
    for a in 1..=9 {
        smaller.push(format!(r"\|{a}"));
        for b in 0..a {
            smaller.push(format!(r"{b}\|{a}"));
        }
    }
    rules.push(local(
        format!(r"{HEAD}`;`(?:{});[^%\n]*\n", smaller.join("|")),
        lit(&format!("{HEAD_TEXT}T\n")),
    ));
    rules.push(local(
        format!(r"{HEAD}`;[^%\n]*\n"),
        lit(&format!("{HEAD_TEXT}F\n")),
    ));
    rules
}

/// `b OP a` where `a` is the top item, by column tallies.
///
/// 1. One rewrite right-aligns both operands digit by digit (lazy optional
///    groups leave the leading groups empty) into a scratch of `W + 1`
///    columns `` `B|A; `` after a leading carry column `` `; ``.
/// 2. Digits become tallies of `i`: `B` as is, `A` as is (add) or as its
///    nines' complement (sub), each column then holding one tally.
/// 3. Sub adds 1 to the last column (complement + 1 = negation).
/// 4. Carries, right to left: a column of ten or more tallies gives ten to
///    the column on its left. Each column holds at most 19 before its turn.
/// 5. Add: tallies back to digits, leading zeros stripped. Sub: a carry out
///    of the top column means `b >= a` (drop it); none means the result is 0.
fn arith(op: Arith) -> Vec<Rewrite> {
    let w = INT_DIGITS;
    let mut rules = vec![align()];
    let tally = |n: usize| "i".repeat(n);
    for d in 0..=9usize {
        rules.push(local(format!(r"`{d}\|"), lit(&format!("`{}|", tally(d)))));
    }
    for d in 0..=9usize {
        let n = if op == Arith::Add { d } else { 9 - d };
        rules.push(local(
            format!(r"`(i*)\|{d};"),
            lit("`").group(1).text(&format!("{};", tally(n))),
        ));
    }
    let empty = if op == Arith::Add { 0 } else { 9 };
    rules.push(local(
        r"`(i*)\|;",
        lit("`").group(1).text(&format!("{};", tally(empty))),
    ));
    if op != Arith::Add {
        rules.push(local(r"`(i*);\n", lit("`").group(1).text("i;\n")));
    }
    for m in 0..w {
        let tail = if m == 0 {
            "()".to_string()
        } else {
            format!("((?:`i*;){{{m}}})")
        };
        rules.push(local(
            format!(r"`(i*);`iiiiiiiiii(i*);{tail}\n"),
            lit("`")
                .group(1)
                .text("i;`")
                .group(2)
                .text(";")
                .group(3)
                .text("\n"),
        ));
    }
    match op {
        Arith::Add => {}
        Arith::Sub => {
            rules.push(local(
                format!(r"{HEAD}`;[^%\n]*\n"),
                lit(&format!("{HEAD_TEXT}0\n")),
            ));
            rules.push(local(format!("{HEAD}`i;"), lit(HEAD_TEXT)));
        }
    }
    for d in 0..=9usize {
        rules.push(local(format!("`{};", tally(d)), lit(&d.to_string())));
    }
    rules.push(local(format!("{HEAD}0+([0-9])"), lit(HEAD_TEXT).group(1)));
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::VarName;

    #[test]
    fn push_is_one_literal_rewrite() {
        let p = lower(&IrProgram::new(vec![Instr::Push("x".into())])).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p.rewrites()[0].pattern, r"%%\n#stack:\n");
        assert_eq!(p.rewrites()[0].replacement.to_rust(), "%%\n#stack:\nx\n");
    }

    #[test]
    fn eq_is_the_only_generic_backref_instruction() {
        let p = lower(&IrProgram::new(vec![
            Instr::Eq,
            Instr::Add,
            Instr::Lookup(VarName::must("a")),
        ]))
        .unwrap();
        let backrefs: Vec<_> = p
            .rewrites()
            .iter()
            .filter(|r| r.engine == Engine::Backref)
            .map(|r| r.origin.as_ref().unwrap().name.clone())
            .collect();
        assert_eq!(backrefs, ["eq"]);
    }

    #[test]
    fn a_lowering_error_keeps_the_portability_error_under_it() {
        use std::error::Error as _;
        let r = Rewrite::new("(?=a)b", Template::new());
        let err = check(3, &Instr::Push("x".into()), 0, &r).unwrap_err();
        assert_eq!(err.index, 3);
        let fault = err
            .source()
            .and_then(|s| s.downcast_ref::<RewriteFault>())
            .expect("the fault is the source");
        let portable = fault
            .source()
            .and_then(|s| s.downcast_ref::<PortableError>())
            .expect("the portability error is the fault's source");
        assert_eq!(portable, &PortableError::LookAround(0));
        assert!(!err.to_string().contains("look-around"), "{err}");
    }

    #[test]
    fn escape_quotes_metacharacters() {
        assert_eq!(escape("a.b*(c)|$^"), r"a\.b\*\(c\)\|\$\^");
    }
}
