//! The state string: its grammar, written once, and a structured twin.
//!
//! This module owns the text format every other stage agrees on, the
//! newtypes for names that appear in it ([`Tag`], [`VarName`]), and a
//! structured [`State`] with `render`/`parse` between the two. It does not
//! interpret instructions (that is `regex-asm`'s reference interpreter) and
//! knows nothing of chess.
//!
//! # Grammar
//!
//! ```text
//! state   := prefix thread*
//! prefix  := text without '%' or '`'        (the screen between turns)
//! thread  := '%' mark '\n' "#stack:\n" item* var*
//! mark    := '%'                            (active thread)
//!          | tag                            (paused thread, tag [A-Za-z0-9_]+)
//! item    := value '\n'                     (first item = top of stack)
//! var     := '#' name ':' value '\n'        (name [A-Za-z0-9_]+, not "stack")
//! value   := text without '%', '#', '`', '\n' (may be empty)
//! ```
//!
//! Reserved characters: `%` starts a thread and nothing else; `#` starts a
//! variable line (or the `#stack:` header); `` ` `` never appears between
//! instructions: a lowering may use it inside one instruction as a scratch
//! marker (`` %` `` is an active thread marked "done" by an earlier rewrite
//! of the same instruction), and must remove it before the instruction ends.
//! Because values cannot contain `#`, the text `#name:` occurs at most once
//! per thread and always starts that variable's line; because nothing but a
//! thread start contains `%`, the class `[^%]` never leaves a thread.

use std::fmt;

/// The bytes every variable line has (`#`, `:`, `\n`): every thread holds
/// them, so they tell no thread from another (as needles) and are the
/// most common bytes of a state (as ranks).
pub const LINE_BYTES: [u8; 3] = [b'\n', b'#', b':'];

/// A thread's tag: the name a paused thread waits under.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(String);

/// A variable's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarName(String);

/// A name or value that breaks the grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Tags and variable names are non-empty `[A-Za-z0-9_]+`.
    #[error("invalid {what} {name:?}: use one or more of A-Z a-z 0-9 _")]
    BadName {
        /// "tag" or "variable name".
        what: &'static str,
        /// The offending name.
        name: String,
    },
    /// `stack` names the stack header.
    #[error("\"stack\" is reserved and cannot name a variable")]
    ReservedName,
    /// A value holds `%`, `#`, `` ` `` or a newline.
    #[error("value {value:?} contains the reserved character {ch:?}")]
    ReservedChar {
        /// The offending value.
        value: String,
        /// The first reserved character in it.
        ch: char,
    },
}

fn check_name(what: &'static str, name: &str) -> Result<(), NameError> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(NameError::BadName {
            what,
            name: name.to_string(),
        });
    }
    Ok(())
}

impl Tag {
    /// A checked tag.
    ///
    /// # Errors
    ///
    /// [`NameError::BadName`] unless `name` is `[A-Za-z0-9_]+`.
    pub fn new(name: &str) -> Result<Tag, NameError> {
        check_name("tag", name)?;
        Ok(Tag(name.to_string()))
    }

    /// A tag from a literal known to be valid.
    ///
    /// # Panics
    ///
    /// If the name is invalid; for constants and tests only.
    pub fn must(name: &str) -> Tag {
        Tag::new(name).expect("invalid tag literal")
    }

    /// The tag's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl VarName {
    /// A checked variable name.
    ///
    /// # Errors
    ///
    /// [`NameError`] unless `name` is `[A-Za-z0-9_]+` and not `stack`.
    pub fn new(name: &str) -> Result<VarName, NameError> {
        check_name("variable name", name)?;
        if name == "stack" {
            return Err(NameError::ReservedName);
        }
        Ok(VarName(name.to_string()))
    }

    /// A variable name from a literal known to be valid.
    ///
    /// # Panics
    ///
    /// If the name is invalid; for constants and tests only.
    pub fn must(name: &str) -> VarName {
        VarName::new(name).expect("invalid variable name literal")
    }

    /// The name's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for VarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks that `value` may be stored on a stack or in a variable.
///
/// # Errors
///
/// [`NameError::ReservedChar`] naming the first reserved character.
pub fn check_value(value: &str) -> Result<(), NameError> {
    match value.chars().find(|c| matches!(c, '%' | '#' | '`' | '\n')) {
        Some(ch) => Err(NameError::ReservedChar {
            value: value.to_string(),
            ch,
        }),
        None => Ok(()),
    }
}

/// One thread: its tag (`None` = active), its stack (index 0 is the top)
/// and its variables in state order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Thread {
    /// `None` for an active thread.
    pub tag: Option<Tag>,
    /// The stack, top first.
    pub stack: Vec<String>,
    /// The variables, in the order they appear in the state.
    pub vars: Vec<(VarName, String)>,
}

impl Thread {
    /// An active thread with an empty stack and no variable.
    pub fn active() -> Thread {
        Thread::default()
    }

    /// The value of a variable.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, v)| v.as_str())
    }

    /// True for an active thread.
    pub fn is_active(&self) -> bool {
        self.tag.is_none()
    }
}

/// The structured state: the text outside threads, then the threads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct State {
    /// Text before the first thread.
    pub prefix: String,
    /// The threads, in order.
    pub threads: Vec<Thread>,
}

/// A state string that breaks the grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct StateError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl State {
    /// A state of one active thread with an empty stack.
    pub fn single() -> State {
        State {
            prefix: String::new(),
            threads: vec![Thread::active()],
        }
    }

    /// The state string.
    pub fn render(&self) -> String {
        let mut out = self.prefix.clone();
        for t in &self.threads {
            render_thread(t, &mut out);
        }
        out
    }

    /// Parses a state string.
    ///
    /// # Errors
    ///
    /// [`StateError`] with the line of the first violation of the grammar.
    pub fn parse(text: &str) -> Result<State, StateError> {
        if let Some(pos) = text.find('`') {
            let line = text[..pos].matches('\n').count() + 1;
            return Err(StateError {
                line,
                reason: "the scratch marker ` is left over".to_string(),
            });
        }
        let (prefix, rest) = match text.find('%') {
            Some(p) => text.split_at(p),
            None => (text, ""),
        };
        let mut line_no = prefix.matches('\n').count() + 1;
        let mut state = State {
            prefix: prefix.to_string(),
            threads: Vec::new(),
        };
        let err = |line: usize, reason: &str| StateError {
            line,
            reason: reason.to_string(),
        };
        // Walk thread by thread: each starts at a '%'.
        let mut pos = 0;
        let bytes = rest.as_bytes();
        while pos < rest.len() {
            debug_assert_eq!(bytes[pos], b'%');
            let tag_end = rest[pos..]
                .find('\n')
                .map(|i| pos + i)
                .ok_or_else(|| err(line_no, "thread tag line has no newline"))?;
            let mark = &rest[pos + 1..tag_end];
            let tag = if mark == "%" {
                None
            } else {
                Some(Tag::new(mark).map_err(|e| err(line_no, &e.to_string()))?)
            };
            // The body runs to the next thread start (a '%' after the tag line).
            let body_start = tag_end + 1;
            let body_end = rest[body_start..]
                .find('%')
                .map_or(rest.len(), |i| body_start + i);
            let body = &rest[body_start..body_end];
            line_no += 1;
            let mut thread = Thread {
                tag,
                ..Thread::default()
            };
            let mut lines = body.split_inclusive('\n');
            match lines.next() {
                Some("#stack:\n") => {}
                _ => return Err(err(line_no, "expected \"#stack:\" after the tag line")),
            }
            line_no += 1;
            for l in lines {
                let Some(l) = l.strip_suffix('\n') else {
                    return Err(err(line_no, "line does not end in a newline"));
                };
                if let Some(var) = l.strip_prefix('#') {
                    let Some((name, value)) = var.split_once(':') else {
                        return Err(err(line_no, "variable line without ':'"));
                    };
                    let name = VarName::new(name).map_err(|e| err(line_no, &e.to_string()))?;
                    check_value(value).map_err(|e| err(line_no, &e.to_string()))?;
                    if thread.var(name.as_str()).is_some() {
                        return Err(err(line_no, "variable defined twice in one thread"));
                    }
                    thread.vars.push((name, value.to_string()));
                } else {
                    if !thread.vars.is_empty() {
                        return Err(err(line_no, "stack item after a variable"));
                    }
                    thread.stack.push(l.to_string());
                }
                line_no += 1;
            }
            state.threads.push(thread);
            pos = body_end;
        }
        Ok(state)
    }
}

fn render_thread(t: &Thread, out: &mut String) {
    out.push('%');
    match &t.tag {
        None => out.push('%'),
        Some(tag) => out.push_str(tag.as_str()),
    }
    out.push_str("\n#stack:\n");
    for item in &t.stack {
        out.push_str(item);
        out.push('\n');
    }
    for (name, value) in &t.vars {
        out.push('#');
        out.push_str(name.as_str());
        out.push(':');
        out.push_str(value);
        out.push('\n');
    }
}

/// Thread counts of a state string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ThreadCounts {
    /// Threads whose tag line is `%%` (or the in-instruction `` %` ``).
    pub(crate) active: usize,
    /// The others.
    pub(crate) paused: usize,
}

impl ThreadCounts {
    /// All threads.
    pub(crate) fn total(&self) -> usize {
        self.active + self.paused
    }
}

/// Counts threads by their tag lines, without parsing the rest: one per
/// `%` that does not follow a `%` (found by `memchr`), active when the next
/// byte is `%` or `` ` ``.
pub(crate) fn count_threads(text: &str) -> ThreadCounts {
    let mut counts = ThreadCounts::default();
    let bytes = text.as_bytes();
    for i in memchr::memchr_iter(b'%', bytes) {
        // A '%' right after another '%' is the second half of "%%".
        if i > 0 && bytes[i - 1] == b'%' {
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'%' | b'`') => counts.active += 1,
            _ => counts.paused += 1,
        }
    }
    counts
}

/// The number of threads, as [`count_threads`] counts them (a `%` that
/// does not follow a `%`), by a pass that compilers turn into vector code:
/// faster than visiting each `%` once a state holds many threads.
pub(crate) fn count_heads(text: &str) -> usize {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return 0;
    };
    let mut total = usize::from(first == b'%');
    let before = &bytes[..bytes.len() - 1];
    let here = &bytes[1..];
    // Per chunk a byte-wide sum (at most 255 terms), which vectorises.
    for (b, h) in before.chunks(255).zip(here.chunks(255)) {
        let mut n = 0u8;
        for (&p, &c) in b.iter().zip(h) {
            n = n.wrapping_add(u8::from(c == b'%') & u8::from(p != b'%'));
        }
        total += usize::from(n);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        State {
            prefix: "screen # text\n".to_string(),
            threads: vec![
                Thread {
                    tag: None,
                    stack: vec!["top".into(), "".into(), "x y".into()],
                    vars: vec![
                        (VarName::must("a"), "1".into()),
                        (VarName::must("b"), "".into()),
                    ],
                },
                Thread {
                    tag: Some(Tag::must("t3")),
                    stack: vec![],
                    vars: vec![(VarName::must("board"), "rnb:qk".into())],
                },
                Thread::active(),
            ],
        }
    }

    #[test]
    fn counting_threads_agrees_with_a_plain_scan() {
        for text in [
            "",
            "screen",
            "%%\n#stack:\n",
            "p%%\n%a\n%`\n%%\n%b\n%%",
            "%x\n%%",
        ] {
            let b = text.as_bytes();
            let heads = (0..b.len()).filter(|&i| b[i] == b'%' && (i == 0 || b[i - 1] != b'%'));
            assert_eq!(heads.count(), count_threads(text).total(), "{text:?}");
        }
    }

    #[test]
    fn the_vector_count_agrees_with_the_plain_one() {
        // Long texts cross the 255-byte chunks (a sum per chunk) at every
        // offset; many threads overflow a byte-wide count if it leaked.
        let unit = "%%\n#stack:\n#a:1\n%t\n#stack:\n%%%`\n";
        for len in [0usize, 1, 2, 254, 255, 256, 257, 600, 5000] {
            for skew in 0..4 {
                let text: String = "x".repeat(skew) + &unit.repeat(len / unit.len() + 1);
                let text = &text[..len.min(text.len())];
                assert_eq!(
                    count_heads(text),
                    count_threads(text).total(),
                    "{len} {skew}"
                );
            }
        }
        let dense = "%".repeat(1000) + &"%a".repeat(700);
        assert_eq!(count_heads(&dense), count_threads(&dense).total());
    }

    #[test]
    fn render_parse_round_trip() {
        let s = sample();
        let text = s.render();
        assert_eq!(
            text,
            "screen # text\n%%\n#stack:\ntop\n\nx y\n#a:1\n#b:\n%t3\n#stack:\n#board:rnb:qk\n%%\n#stack:\n"
        );
        assert_eq!(State::parse(&text).unwrap(), s);
        assert_eq!(
            count_threads(&text),
            ThreadCounts {
                active: 2,
                paused: 1
            }
        );
    }

    #[test]
    fn parse_rejects_each_violation() {
        let cases = [
            ("%%\n#stack:\n`x\n", 3),
            ("%%\nstack:\n", 2),
            ("%%\n#stack:\n#a:1\nitem\n", 4),
            ("%%\n#stack:\n#a\n", 3),
            ("%%\n#stack:\n#stack:1\n", 3),
            ("%%\n#stack:\n#a:1\n#a:2\n", 4),
            ("%bad-tag\n#stack:\n", 1),
            ("%%\n#stack:\nno newline", 3),
            ("%%", 1),
        ];
        for (text, line) in cases {
            let e = State::parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }

    #[test]
    fn names_and_values_are_checked() {
        assert!(Tag::new("a_1").is_ok());
        assert!(Tag::new("").is_err());
        assert!(Tag::new("a b").is_err());
        assert_eq!(VarName::new("stack"), Err(NameError::ReservedName));
        assert!(check_value("e2e4 ok:").is_ok());
        for bad in ["a%b", "#", "x`", "a\nb"] {
            assert!(check_value(bad).is_err(), "{bad:?}");
        }
    }
}
