//! A small stack machine that writes rewrites in the manner of the
//! original Python project's programs, for the corpus's `fours` program:
//! written here, apart from this project's assembler, so that nothing of
//! `regex-asm`'s lowering (its scope hints, its thread grammar facts)
//! reaches the list.
//!
//! The state is a run of threads. A thread starts with `%%\n#stack:\n`
//! when it is active and `%tag\n#stack:\n` when a branch paused it; the
//! stack's items follow, one per line, top first; then its variables, one
//! `#name: value` line each. Every operation is one rewrite (two for a
//! test) that acts on every active thread at once: stack operations find
//! the thread by its head `(%%\n#stack:\n)`, variable operations by
//! `(%%[^%]*#name: )`, and the replacements put the groups back. A branch
//! pauses the threads whose condition is false by turning their `%%` into
//! `%tag`, runs its body on the others, and wakes the paused ones. A fork
//! copies a thread once per item of a `;`-list variable. Numbers are
//! unary tallies of `1`. Text given to an operation is plain (letters,
//! digits, `.`, `;`, `=`, spaces): it is escaped where it enters a pattern.
//! It writes `(pattern, replacement)` pairs in Python's syntax and runs
//! nothing.

/// The stack's head in a pattern, as group 1.
const HEAD: &str = r"(%%\n#stack:\n)";

/// A program being written.
#[derive(Debug, Default)]
pub(crate) struct Machine {
    rewrites: Vec<(String, String)>,
    tags: usize,
}

/// `text` as a pattern that matches it.
fn lit(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ".^$*+?{}[]\\|()".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A variable's line up to its value, as group `n`: `(%%[^%]*#name: )`.
fn var(name: &str) -> String {
    format!(r"(%%[^%]*#{name}: )")
}

impl Machine {
    /// An empty program.
    pub(crate) fn new() -> Machine {
        Machine::default()
    }

    /// The rewrites written so far.
    pub(crate) fn finish(self) -> Vec<(String, String)> {
        self.rewrites
    }

    /// Adds a rewrite as it is.
    pub(crate) fn rule(&mut self, pattern: impl Into<String>, replacement: impl Into<String>) {
        self.rewrites.push((pattern.into(), replacement.into()));
    }

    /// Pushes `text`.
    pub(crate) fn push(&mut self, text: &str) {
        self.rule(HEAD, format!(r"\g<1>{text}\n"));
    }

    /// Pushes the value of variable `name`.
    pub(crate) fn push_var(&mut self, name: &str) {
        self.rule(
            format!(r"{HEAD}([^%]*#{name}: ([^\n]*))"),
            r"\g<1>\g<3>\n\g<2>",
        );
    }

    /// Replaces the top two, `a` under `b`, by `ab`... in the order they
    /// were pushed: `push(a); push(b); concat()` leaves `ab`.
    pub(crate) fn concat(&mut self) {
        self.rule(format!(r"{HEAD}([^\n]*)\n([^\n]*)\n"), r"\g<1>\g<3>\g<2>\n");
    }

    /// Sets variable `name` to `text`.
    pub(crate) fn set(&mut self, name: &str, text: &str) {
        self.rule(format!(r"{}[^\n]*", var(name)), format!(r"\g<1>{text}"));
    }

    /// Appends `text` to variable `name`.
    pub(crate) fn append(&mut self, name: &str, text: &str) {
        self.rule(
            format!(r"(%%[^%]*#{name}: [^\n]*)"),
            format!(r"\g<1>{text}"),
        );
    }

    /// Copies variable `from` into `to`, a variable after it.
    pub(crate) fn copy(&mut self, from: &str, to: &str) {
        self.rule(
            format!(r"(%%[^%]*#{from}: ([^\n]*)\n[^%]*#{to}: )[^\n]*"),
            r"\g<1>\g<2>",
        );
    }

    /// Copies variable `from` into `to`, a variable before it.
    pub(crate) fn copy_back(&mut self, from: &str, to: &str) {
        self.rule(
            format!(r"(%%[^%]*#{to}: )[^\n]*(\n[^%]*#{from}: ([^\n]*))"),
            r"\g<1>\g<3>\g<2>",
        );
    }

    /// Pushes character `i` of variable `name`.
    pub(crate) fn push_char(&mut self, name: &str, i: usize) {
        self.rule(
            format!(r"{HEAD}([^%]*#{name}: .{{{i}}}(.))"),
            r"\g<1>\g<3>\n\g<2>",
        );
    }

    /// Sets character `i` of variable `name` to `c`.
    pub(crate) fn set_char(&mut self, name: &str, i: usize, c: char) {
        self.rule(
            format!(r"(%%[^%]*#{name}: .{{{i}}})."),
            format!(r"\g<1>{c}"),
        );
    }

    /// Pushes `T` where character `i` of variable `name` is one of
    /// `class` (a pattern class's body), `F` elsewhere.
    pub(crate) fn test_char(&mut self, name: &str, i: usize, class: &str) {
        self.push("F");
        self.rule(
            format!(r"{HEAD}F\n([^%]*#{name}: .{{{i}}}[{class}])"),
            r"\g<1>T\n\g<2>",
        );
    }

    /// Pushes `T` where variable `name` is `text`, `F` elsewhere.
    pub(crate) fn test_var(&mut self, name: &str, text: &str) {
        self.push("F");
        self.rule(
            format!(r"{HEAD}F\n([^%]*#{name}: {}\n)", lit(text)),
            r"\g<1>T\n\g<2>",
        );
    }

    /// Replaces the top by `T` where it is `text`, `F` elsewhere.
    pub(crate) fn is(&mut self, text: &str) {
        self.rule(format!(r"{HEAD}{}\n", lit(text)), r"\g<1>T\n");
        self.rule(format!(r"{HEAD}(?:[^T\n][^\n]*)?\n"), r"\g<1>F\n");
    }

    /// Replaces the top two by `T` where they are equal, `F` elsewhere.
    pub(crate) fn equal(&mut self) {
        self.push("F");
        self.rule(format!(r"{HEAD}F\n([^\n]*)\n\2\n"), r"\g<1>T\n");
        self.rule(format!(r"{HEAD}F\n[^\n]*\n[^\n]*\n"), r"\g<1>F\n");
    }

    /// Adds the tally `ones` ones to variable `name` (a tally).
    pub(crate) fn add(&mut self, name: &str, ones: usize) {
        self.rule(var(name), format!(r"\g<1>{}", "1".repeat(ones)));
    }

    /// A fresh tag.
    fn tag(&mut self, kind: &str) -> String {
        self.tags += 1;
        format!("{kind}{}", self.tags)
    }

    /// Pops a boolean; runs `body` on the threads where it was `T`.
    pub(crate) fn when(&mut self, body: impl FnOnce(&mut Machine)) {
        let tag = self.tag("f");
        self.rule(r"%%\n#stack:\nF\n", format!("%{tag}\n#stack:\n"));
        self.rule(format!(r"{HEAD}T\n"), r"\g<1>");
        body(self);
        self.rule(format!(r"%{tag}\n"), "%%\n");
    }

    /// Pops a boolean; runs `yes` where it was `T`, then `no` where it
    /// was `F`.
    pub(crate) fn either(&mut self, yes: impl FnOnce(&mut Machine), no: impl FnOnce(&mut Machine)) {
        let other = self.tag("e");
        let done = self.tag("d");
        self.rule(r"%%\n#stack:\nF\n", format!("%{other}\n#stack:\n"));
        self.rule(format!(r"{HEAD}T\n"), r"\g<1>");
        yes(self);
        self.rule(r"%%\n", format!("%{done}\n"));
        self.rule(format!(r"%{other}\n"), "%%\n");
        no(self);
        self.rule(format!(r"%{done}\n"), "%%\n");
    }

    /// Pauses every active thread under `tag` (see [`Machine::wake`]).
    pub(crate) fn sleep(&mut self, tag: &str) {
        self.rule(r"%%\n", format!("%{tag}\n"));
    }

    /// Wakes the threads paused under `tag`.
    pub(crate) fn wake(&mut self, tag: &str) {
        self.rule(format!(r"%{tag}\n"), "%%\n");
    }

    /// Copies each active thread once per item of the `;`-list `list`
    /// (items end with `;`), setting `item` (the variable right after
    /// `list`) to it in the copy; the thread itself is dropped. At most
    /// `most` items are taken.
    pub(crate) fn fork(&mut self, list: &str, item: &str, most: usize) {
        let tag = self.tag("k");
        for _ in 0..most {
            self.rule(
                format!(r"%%([^%]*#{list}: )([^;\n]*);([^\n]*)(\n#{item}: )[^\n]*([^%]*)"),
                format!(r"%{tag}\g<1>\g<4>\g<2>\g<5>%%\g<1>\g<3>\g<4>\g<2>\g<5>"),
            );
        }
        self.rule(r"%%[^%]*", "");
        self.wake(&tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_escaped_where_they_enter_a_pattern() {
        assert_eq!(lit("a.b;c=1"), r"a\.b;c=1");
        let mut m = Machine::new();
        m.test_var("cell", "d.5");
        let r = m.finish();
        assert_eq!(r[1].0, r"(%%\n#stack:\n)F\n([^%]*#cell: d\.5\n)");
    }
}
