//! Reading a `.js` program for `run`: the ES module `dump --format js`
//! writes, back into the original project's JSON shape.
//!
//! It owns one translation and nothing else: each line
//! `[/pattern/g, "replacement"],` (or `[new RegExp("pattern", "g"), ...]`)
//! becomes the pair `[pattern, replacement]`, the regex literal's `\/`
//! read back as `/` and the replacement turned from JavaScript's `$NN`,
//! `$&`, `$$` into Python's `\g<N>`. The pairs are then read, checked and
//! run exactly as a JSON file's are: a `.js` program runs as the README's
//! Python loop runs the same pairs. What has no such translation is
//! refused with the line it is on: a flag other than `g` (without it
//! JavaScript replaces only the first match), `` $` ``, `$'` and `$<`
//! (the text around a match, named groups), and any line not in the shape
//! the writer writes. It must not run anything or judge patterns: that is
//! `regex_vm::format` and `regex_vm::python`'s job.

use regex_vm::Template;

/// Why a `.js` file is not a program `run` can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum JsError {
    /// The module does not start or end as `dump --format js` writes it.
    #[error("not a module of the shape `dump --format js` writes: {0}")]
    Shape(&'static str),
    /// One entry line cannot be read back.
    #[error("line {line}: {reason}")]
    Entry {
        /// 1-based line number in the file.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

const HEADER: &str = "export const rewrites = [";
const FOOTER: &str = "];";

/// The program in the JSON shape `regex_vm::format::from_json` reads.
///
/// # Errors
///
/// [`JsError`] naming the first line that cannot be read back.
pub(crate) fn to_json(text: &str) -> Result<String, JsError> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim_end() == HEADER => {}
        _ => {
            return Err(JsError::Shape(
                "the first line is not `export const rewrites = [`",
            ))
        }
    }
    let mut pairs = Vec::new();
    let mut closed = false;
    for (i, l) in lines {
        let line = i + 1;
        let l = l.trim();
        if closed {
            if l.is_empty() {
                continue;
            }
            return Err(JsError::Entry {
                line,
                reason: "text after the closing `];`".into(),
            });
        }
        if l == FOOTER {
            closed = true;
            continue;
        }
        let (pattern, replacement) = entry(l).map_err(|reason| JsError::Entry { line, reason })?;
        pairs.push(serde_json::json!([pattern, replacement]));
    }
    if !closed {
        return Err(JsError::Shape("the array is not closed with `];`"));
    }
    Ok(serde_json::Value::Array(pairs).to_string())
}

/// One `[regex, "replacement"],` line: the pattern and the replacement in
/// Python syntax.
fn entry(l: &str) -> Result<(String, String), String> {
    let rest = l.strip_prefix('[').ok_or("an entry starts with `[`")?;
    let (pattern, rest) = if let Some(call) = rest.strip_prefix("new RegExp(") {
        let (pattern, rest) = json_string(call)?;
        let rest = rest
            .strip_prefix(", \"g\")")
            .ok_or("`new RegExp(pattern, \"g\")` is the only call read (flag `g` alone)")?;
        (pattern, rest)
    } else {
        literal(rest)?
    };
    let rest = rest
        .strip_prefix(", ")
        .ok_or("the regex is followed by `, ` and the replacement")?;
    let (replacement, rest) = json_string(rest)?;
    if rest != "]," && rest != "]" {
        return Err("the replacement is followed by `],`".into());
    }
    Ok((pattern, python_replacement(&replacement)?))
}

/// A `/body/g` literal at the start of `text`: its pattern, and the rest.
fn literal(text: &str) -> Result<(String, &str), String> {
    let body = text
        .strip_prefix('/')
        .ok_or("the regex is a `/.../g` literal or `new RegExp(...)`")?;
    let mut pattern = String::with_capacity(body.len());
    let mut class = false;
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, '/')) => pattern.push('/'),
                Some((_, e)) => {
                    pattern.push('\\');
                    pattern.push(e);
                }
                None => break,
            },
            '[' => {
                class = true;
                pattern.push(c);
            }
            ']' => {
                class = false;
                pattern.push(c);
            }
            '/' if !class => {
                let after = &body[i + 1..];
                let end = after.find(|c: char| !c.is_ascii_alphabetic());
                let (flags, rest) = after.split_at(end.unwrap_or(after.len()));
                if flags != "g" {
                    return Err(format!(
                        "flags {flags:?}: only `g` (replace every match, nothing else) is read"
                    ));
                }
                return Ok((pattern, rest));
            }
            c => pattern.push(c),
        }
    }
    Err("the regex literal is not closed".into())
}

/// A JSON string at the start of `text`, and the rest.
fn json_string(text: &str) -> Result<(String, &str), String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<String>();
    match stream.next() {
        Some(Ok(s)) => Ok((s, &text[stream.byte_offset()..])),
        Some(Err(e)) => Err(format!("not a string: {e}")),
        None => Err("a string is missing".into()),
    }
}

/// A `String.prototype.replace` replacement in Python `re.sub` syntax.
fn python_replacement(js: &str) -> Result<String, String> {
    let mut t = Template::new();
    let mut chars = js.chars().peekable();
    let mut literal = String::new();
    while let Some(c) = chars.next() {
        if c != '$' {
            literal.push(c);
            continue;
        }
        let group = match chars.peek().copied() {
            Some('$') => {
                chars.next();
                literal.push('$');
                continue;
            }
            Some('&') => {
                chars.next();
                0
            }
            Some(d) if d.is_ascii_digit() => {
                chars.next();
                let mut n = d.to_digit(10).unwrap_or(0) as usize;
                if let Some(e) = chars.peek().and_then(|e| e.to_digit(10)) {
                    chars.next();
                    n = n * 10 + e as usize;
                }
                if n == 0 {
                    return Err(
                        "`$0` is not a group in JavaScript; write `$$0` for the text".into(),
                    );
                }
                n
            }
            Some(s @ ('`' | '\'' | '<')) => {
                return Err(format!(
                    "`${s}` in a replacement has no Python counterpart and is not read"
                ));
            }
            _ => {
                literal.push('$');
                continue;
            }
        };
        t = t.text(&std::mem::take(&mut literal)).group(group);
    }
    Ok(t.text(&literal).to_python())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(entries: &[&str]) -> String {
        let mut s = format!("{HEADER}\n");
        for e in entries {
            s.push_str(&format!("  {e}\n"));
        }
        s.push_str("];\n");
        s
    }

    #[test]
    fn the_writer_s_module_reads_back_to_the_same_pairs() {
        let pairs = r#"[["a/b\\n(c)", "x\\g<1>$\\\\"], ["", "E"], ["[/]\\\\", "\\g<0>"]]"#;
        let program = regex_vm::format::from_json(pairs).expect("valid pairs");
        let js = regex_vm::format::to_js(&program);
        let back = regex_vm::format::from_json(&to_json(&js).expect("reads")).expect("valid");
        assert_eq!(back, program, "{js}");
    }

    #[test]
    fn replacements_translate_and_unknown_dollars_stay_literal() {
        assert_eq!(
            python_replacement("$01-$2$&$$ $x\\").unwrap(),
            r"\g<1>-\g<2>\g<0>$ $x\\"
        );
        for bad in ["$`", "$'", "$<n>", "$0"] {
            assert!(python_replacement(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn other_flags_and_other_shapes_are_refused_with_their_line() {
        for (entry, reason) in [
            (r#"[/a/gi, "b"],"#, "flags"),
            (r#"[/a/, "b"],"#, "flags"),
            (r#"[new RegExp("a", "gm"), "b"],"#, "only call"),
            (r#"[/a/g, "b"], // note"#, "followed by `],`"),
            (r#"[/a/g, b],"#, "not a string"),
            (r#"[/a, "b"],"#, "not closed"),
        ] {
            let err = to_json(&module(&["[/x/g, \"y\"],", entry])).unwrap_err();
            let text = err.to_string();
            assert!(
                text.starts_with("line 3: ") && text.contains(reason),
                "{entry}: {text}"
            );
        }
        assert!(matches!(to_json("[]"), Err(JsError::Shape(_))));
        assert!(matches!(
            to_json(&format!("{HEADER}\n  [/a/g, \"b\"],\n")),
            Err(JsError::Shape(_))
        ));
        assert!(to_json(&format!("{}x\n", module(&[]))).is_err());
    }
}
