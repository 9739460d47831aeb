//! The JavaScript shape of a program, written and read back: an ES module
//! exporting `rewrites`, one `[regex, "replacement"],` line per rewrite.
//!
//! [`to_js`] writes it: a pattern of the portable subset as a `/.../g`
//! literal (its unescaped `/` escaped, line terminators written as
//! escapes) or, when no literal can say it, a `new RegExp("...", "g")`
//! call, once the translation's reading of its groups accepts it; a
//! pattern only our Python engine reads as CPython does
//! ([`Engine::Python`]), or a portable one with an astral character, as
//! its translation (`crate::pyre::javascript`), a `/.../gu` literal,
//! followed on its line by the Python pattern itself as a third element,
//! which the README's loop (`for (const [re, r] of rewrites)`) never
//! reads; each replacement in `String.prototype.replace`
//! syntax (`$01`, `$&`, `$$`: an unmatched group is the empty string in
//! both languages). It refuses, naming the entry ([`NoJsForm`]), a pattern
//! with no JavaScript form with CPython's meaning and a replacement naming a
//! group past 99. [`pairs_from_js`] reads such a module back into the
//! `[pattern, replacement]` pairs of the JSON shape (the replacement in
//! Python `re.sub` syntax; for a `/.../gu` entry the Python pattern of its
//! third element, whose translation must be the regex written before it),
//! so `run` reads a `.js` dump as it reads the JSON one, and [`from_js`]
//! checks those pairs into a [`Program`] as `from_json` does. Reading is
//! exact for every pattern but two spellings a `/.../g` literal cannot
//! keep, which come back as the same regex spelt otherwise: a bare line
//! terminator comes back as its escape (`\n`, `\r`, `\u2028`, `\u2029`),
//! and an escaped slash `\/` as `/`. What has no Python counterpart is
//! refused with the line it is on: flags other than `g` and `gu` (without
//! `g` JavaScript replaces only the first match), `` $` ``, `$'` and `$<`
//! (the text around a match, named groups), and any line not in the shape
//! the writer writes. It must not run a program: that is `exec`'s job.

use std::collections::HashMap;
use std::path::Path;

use super::{from_pairs, json_string, FormatError};
use crate::lex::{lex, Token};
use crate::program::{Engine, Program, Template};
use crate::pyre::{javascript, JavascriptError, JsRefusal};

/// The module's first line.
const HEADER: &str = "export const rewrites = [";
/// The line that closes the array.
const FOOTER: &str = "];";

/// Why a `.js` text is not a module of the shape [`to_js`] writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsError {
    /// The module does not start or end as [`to_js`] writes it.
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
    /// The Python pattern of a `/.../gu` entry has no JavaScript form, so
    /// no writer of ours wrote the line.
    #[error("line {line}: the Python pattern after the `/.../gu` regex")]
    Untranslatable {
        /// 1-based line number in the file.
        line: usize,
        /// Why it has none.
        #[source]
        source: JavascriptError,
    },
}

/// Whether `path` names a JavaScript module: its extension is `.js` or
/// `.mjs`.
pub fn is_js_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e == "js" || e == "mjs")
}

/// The highest group a JavaScript replacement can name (`$99`).
const MAX_JS_GROUP: usize = 99;

/// An entry of a program that has no JavaScript form (see [`to_js`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "entry {index} (pattern {:?}) cannot be written as JavaScript",
    crate::excerpt(pattern)
)]
pub struct NoJsForm {
    /// The entry (0-based).
    pub index: usize,
    /// Its pattern.
    pub pattern: String,
    /// Why.
    #[source]
    pub reason: NoJsReason,
}

/// Why an entry has no JavaScript form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoJsReason {
    /// The pattern has none with CPython's meaning.
    #[error(transparent)]
    Pattern(JavascriptError),
    /// The replacement names a group JavaScript's `$NN` cannot.
    #[error("its replacement names group {0}; JavaScript's `$NN` reaches {MAX_JS_GROUP}")]
    Group(usize),
}

/// The program as an ES module exporting `rewrites`, an array of
/// `[RegExp, replacement]` pairs meant to be applied in order with
/// `s = s.replace(re, r)`. Replacements are in `String.prototype.replace`
/// syntax ([`Template::to_js`]). A pattern of the portable subset is
/// written as it is (flag `g`); one only our Python engine reads as
/// CPython does ([`Engine::Python`], as `python::load` marks them), or a
/// portable one with an astral character, as the JavaScript regex with its
/// meaning (flags `gu`), the Python pattern after the replacement (see
/// `js_form`). Ends with a newline.
///
/// # Errors
///
/// [`NoJsForm`] for the first entry that has no JavaScript form with its
/// meaning, or whose replacement names a group past 99.
pub fn to_js(program: &Program) -> Result<String, NoJsForm> {
    let mut out = format!("{HEADER}\n");
    // Programs repeat patterns a lot: translate each distinct one once.
    let mut translated: HashMap<&str, String> = HashMap::new();
    for (index, r) in program.rewrites().iter().enumerate() {
        let refused = |reason| NoJsForm {
            index,
            pattern: r.pattern.clone(),
            reason,
        };
        let group = r.replacement.max_group();
        if group > MAX_JS_GROUP {
            return Err(refused(NoJsReason::Group(group)));
        }
        out.push_str("  [");
        let regex = match translated.get(r.pattern.as_str()) {
            Some(regex) => regex,
            None => {
                let regex =
                    js_form(&r.pattern, r.engine).map_err(|e| refused(NoJsReason::Pattern(e)))?;
                translated.entry(&r.pattern).or_insert(regex)
            }
        };
        out.push_str(regex);
        out.push_str(", ");
        out.push_str(&json_string(&r.replacement.to_js()));
        if regex.ends_with("/gu") {
            out.push_str(", ");
            out.push_str(&json_string(&r.pattern));
        }
        out.push_str("],\n");
    }
    out.push_str(FOOTER);
    out.push('\n');
    Ok(out)
}

/// The JavaScript regex of a pattern run on `engine`: the translation of
/// a pattern only our Python engine reads, or of a portable one with an
/// astral character (which JavaScript without the `u` flag reads as two
/// halves): `/.../gu`; any other portable pattern as it is ([`js_regex`])
/// once the translation's reading of its groups accepts it (JavaScript
/// matches a back-reference to an unset group, and forgets a loop's groups
/// at each iteration; the portable subset allows both) or refuses it only
/// for matching the empty string (the boot pattern `^$`).
fn js_form(pattern: &str, engine: Engine) -> Result<String, JavascriptError> {
    if engine == Engine::Python || !pattern.chars().all(|c| u32::from(c) < 0x10000) {
        return Ok(format!("/{}/gu", javascript(pattern)?));
    }
    match javascript(pattern) {
        Ok(_)
        | Err(JavascriptError::Pattern(_))
        | Err(JavascriptError::Refused(JsRefusal::MatchesEmpty)) => Ok(js_regex(pattern)),
        Err(e) => Err(e),
    }
}

/// A global JavaScript regex for `pattern`: a `/.../g` literal with unescaped
/// `/` escaped and line terminators written as escapes, or a
/// `new RegExp(..., "g")` call when no literal can express the pattern (it
/// is empty, or ends with an unpaired backslash).
fn js_regex(pattern: &str) -> String {
    let lexed = lex(pattern);
    let trailing = lexed
        .lexemes
        .last()
        .is_some_and(|l| l.token == Token::TrailingBackslash);
    if pattern.is_empty() || trailing {
        return format!("new RegExp({}, \"g\")", json_string(pattern));
    }
    let mut body = String::with_capacity(pattern.len() + 8);
    for l in &lexed.lexemes {
        // A line terminator is written as its escape, whether the pattern
        // has it bare or after a backslash (`\` then a newline).
        let (Token::Char(c) | Token::Escape(c)) = l.token else {
            body.push_str(l.text);
            continue;
        };
        match c {
            '/' if l.token == Token::Char('/') => body.push_str("\\/"),
            '\n' => body.push_str("\\n"),
            '\r' => body.push_str("\\r"),
            '\u{2028}' => body.push_str("\\u2028"),
            '\u{2029}' => body.push_str("\\u2029"),
            _ => body.push_str(l.text),
        }
    }
    format!("/{body}/g")
}

/// The `[pattern, replacement]` pairs of a module [`to_js`] wrote, the
/// replacements in Python `re.sub` syntax (the JSON shape's pairs),
/// unchecked beyond the shape (for `python::load`, which reads each as
/// CPython does).
///
/// # Errors
///
/// [`JsError`] naming the first line that cannot be read back.
pub fn pairs_from_js(text: &str) -> Result<Vec<(String, String)>, JsError> {
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
    // Each distinct Python pattern's translation, to check its lines.
    let mut translated: HashMap<String, String> = HashMap::new();
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
        pairs.push(entry(l, line, &mut translated)?);
    }
    if !closed {
        return Err(JsError::Shape("the array is not closed with `];`"));
    }
    Ok(pairs)
}

/// Reads a program from a module [`to_js`] wrote: its pairs
/// ([`pairs_from_js`]), each checked as `from_json` checks a JSON entry.
///
/// # Errors
///
/// [`FormatError::Js`] when the text is not such a module, otherwise the
/// first bad entry as `from_json` reports it.
pub fn from_js(text: &str) -> Result<Program, FormatError> {
    let pairs = pairs_from_js(text).map_err(|source| FormatError::Js { source })?;
    from_pairs(&pairs)
}

/// One `[regex, "replacement"],` line (or `[/.../gu, "replacement",
/// "python pattern"],`): the pattern and the replacement in Python syntax.
/// `translated` keeps the translation of each Python pattern seen.
fn entry(
    l: &str,
    line: usize,
    translated: &mut HashMap<String, String>,
) -> Result<(String, String), JsError> {
    let bad = |reason: String| JsError::Entry { line, reason };
    let rest = l
        .strip_prefix('[')
        .ok_or_else(|| bad("an entry starts with `[`".into()))?;
    let (regex, rest) = if let Some(call) = rest.strip_prefix("new RegExp(") {
        let (pattern, rest) = string_literal(call).map_err(bad)?;
        let rest = rest.strip_prefix(", \"g\")").ok_or_else(|| {
            bad("`new RegExp(pattern, \"g\")` is the only call read (flag `g` alone)".into())
        })?;
        (Literal::Plain(pattern), rest)
    } else {
        regex_literal(rest).map_err(bad)?
    };
    let rest = rest
        .strip_prefix(", ")
        .ok_or_else(|| bad("the regex is followed by `, ` and the replacement".into()))?;
    let (replacement, mut rest) = string_literal(rest).map_err(bad)?;
    let (pattern, last) = match regex {
        Literal::Plain(pattern) => (pattern, "replacement"),
        Literal::Unicode(body) => {
            let after =
                rest.strip_prefix(", ").ok_or_else(|| {
                    bad("a `/.../gu` regex's replacement is followed by `, ` and its Python pattern"
                    .into())
                })?;
            let (pattern, after) = string_literal(after).map_err(bad)?;
            rest = after;
            let js = match translated.get(&pattern) {
                Some(js) => js,
                None => {
                    let js = javascript(&pattern)
                        .map_err(|source| JsError::Untranslatable { line, source })?;
                    translated.entry(pattern.clone()).or_insert(js)
                }
            };
            if *js != body {
                return Err(bad(
                    "the `/.../gu` regex is not the translation of the Python pattern after it"
                        .into(),
                ));
            }
            (pattern, "Python pattern")
        }
    };
    if rest != "]," && rest != "]" {
        return Err(bad(format!("the {last} is followed by `],`")));
    }
    Ok((pattern, python_replacement(&replacement).map_err(bad)?))
}

/// A regex of an entry line.
enum Literal<'t> {
    /// `/.../g` or `new RegExp("...", "g")`: the pattern itself.
    Plain(String),
    /// `/.../gu`: the translation of a Python pattern, as written.
    Unicode(&'t str),
}

/// A `/body/g` or `/body/gu` literal at the start of `text`, and the rest.
fn regex_literal(text: &str) -> Result<(Literal<'_>, &str), String> {
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
                return match flags {
                    "g" => Ok((Literal::Plain(pattern), rest)),
                    "gu" => Ok((Literal::Unicode(&body[..i]), rest)),
                    _ => Err(format!(
                        "flags {flags:?}: only `g` (replace every match, nothing else) and `gu` \
                         (a translated Python pattern) are read"
                    )),
                };
            }
            c => pattern.push(c),
        }
    }
    Err("the regex literal is not closed".into())
}

/// A JSON (and JavaScript) string literal at the start of `text`, and the
/// rest.
fn string_literal(text: &str) -> Result<(String, &str), String> {
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
    use crate::exec::{Config, Executor};
    use crate::program::Rewrite;
    use proptest::prelude::*;

    #[test]
    fn js_regex_escapes_slashes_and_line_breaks() {
        // `/`, `\/` (already escaped), `[/]`, `\\/` (escaped backslash, then
        // an unescaped slash).
        assert_eq!(js_regex(r"a/b\/c[/]\\/"), r"/a\/b\/c[\/]\\\//g");
        assert_eq!(js_regex("x\ny\r"), r"/x\ny\r/g");
        assert_eq!(js_regex("\\\n"), r"/\n/g");
        // The other line terminators, bare and escaped; a back-reference and
        // an escaped `]` in a class are copied as they are.
        assert_eq!(js_regex("a\u{2028}b\\\u{2029}"), r"/a\u2028b\u2029/g");
        assert_eq!(js_regex(r"(x)\1[\]/]"), r"/(x)\1[\]\/]/g");
        assert_eq!(js_regex(""), "new RegExp(\"\", \"g\")");
        assert_eq!(js_regex("a\\"), "new RegExp(\"a\\\\\", \"g\")");
        let p = Program::new(vec![Rewrite::new("a/b", Template::literal("$").group(1))]);
        assert_eq!(
            to_js(&p).unwrap(),
            "export const rewrites = [\n  [/a\\/b/g, \"$$$01\"],\n];\n"
        );
    }

    #[test]
    fn js_module_runs_like_the_executor() {
        let p = Program::new(vec![
            Rewrite::new("a/b", Template::literal("<s>")),
            Rewrite::new(r"\/c", Template::literal("$&")),
            Rewrite::new("[/]d", Template::literal("\\")),
            Rewrite::new(
                "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)",
                Template::new().group(11).text("1").group(1).text("$"),
            ),
            Rewrite::new(r"(x)\1", Template::literal("[").group(1).text("]")),
            Rewrite::new(r"\n", Template::literal("\"\n|")),
            Rewrite::new("", Template::literal(".")),
        ]);
        let input = "a/b /c /d abcdefghijk xx\nend";
        let mut expected = input.to_string();
        Executor::new(&p, Config::default())
            .unwrap()
            .run(&mut expected)
            .unwrap();

        if !testkit::needs("node", "node's run of to_js's module") {
            return;
        }
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        super::super::write_file(&p, &dir.join("program.mjs")).unwrap();
        let driver = format!(
            "import {{ rewrites }} from './program.mjs';\n\
             let s = {};\n\
             for (const [re, r] of rewrites) {{ s = s.replace(re, r); }}\n\
             process.stdout.write(JSON.stringify(s));\n",
            json_string(input)
        );
        std::fs::write(dir.join("driver.mjs"), driver).unwrap();
        let out = std::process::Command::new("node")
            .arg(dir.join("driver.mjs"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "node failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: String = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got, expected);
    }

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
        let program = crate::format::from_json(pairs).expect("valid pairs");
        let js = to_js(&program).expect("portable patterns");
        assert_eq!(
            pairs_from_js(&js).expect("reads"),
            crate::format::pairs_from_json(pairs).expect("pairs")
        );
        assert_eq!(from_js(&js).expect("valid"), program, "{js}");
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
            let err = pairs_from_js(&module(&["[/x/g, \"y\"],", entry])).unwrap_err();
            let text = err.to_string();
            assert!(
                text.starts_with("line 3: ") && text.contains(reason),
                "{entry}: {text}"
            );
        }
        assert!(matches!(pairs_from_js("[]"), Err(JsError::Shape(_))));
        assert!(matches!(
            pairs_from_js(&format!("{HEADER}\n  [/a/g, \"b\"],\n")),
            Err(JsError::Shape(_))
        ));
        assert!(pairs_from_js(&format!("{}x\n", module(&[]))).is_err());
    }

    #[test]
    fn translated_entries_carry_their_python_pattern_and_read_back_to_it() {
        let pairs: Vec<(String, String)> = [
            (r"(?m)^#a:(\d+)$", r"#a:\g<1>!"),
            ("x/y", "$"),
            ("[\u{10400}-\u{1044f}]", r"\g<0>"),
        ]
        .iter()
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect();
        let program = crate::python::load(&pairs).expect("loads");
        let js = to_js(&program).expect("translates");
        let lines: Vec<&str> = js.lines().collect();
        assert!(
            lines[1].starts_with(r"  [/(?<![^\n])#a:(")
                && lines[1].ends_with(r##"/gu, "#a:$01!", "(?m)^#a:(\\d+)$"],"##),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], r#"  [/x\/y/g, "$$"],"#);
        assert!(
            lines[3].ends_with("/gu, \"$&\", \"[\u{10400}-\u{1044f}]\"],"),
            "{}",
            lines[3]
        );
        let back = pairs_from_js(&js).expect("reads back");
        let expected: Vec<(String, String)> = program
            .rewrites()
            .iter()
            .zip(&pairs)
            .map(|(r, (p, _))| (p.clone(), r.replacement.to_python()))
            .collect();
        assert_eq!(back, expected);
    }

    #[test]
    fn a_translated_entry_must_be_the_translation_of_its_python_pattern() {
        for (entry, reason) in [
            (r#"[/a/gu, "b", "x"],"#, "not the translation"),
            (r#"[/a/gu, "b"],"#, "its Python pattern"),
            (r#"[/a/gu, "b", "a", "c"],"#, "followed by `],`"),
            (r#"[/a/gu, "b", 1],"#, "not a string"),
        ] {
            let err = pairs_from_js(&module(&[entry])).unwrap_err();
            let text = err.to_string();
            assert!(
                text.starts_with("line 2: ") && text.contains(reason),
                "{entry}: {text}"
            );
        }
        assert_eq!(
            pairs_from_js(&module(&[r#"[/a/gu, "b", "a"],"#])).unwrap(),
            vec![("a".to_string(), "b".to_string())]
        );
        // A Python pattern with no JavaScript form: no writer wrote it.
        use std::error::Error as _;
        let err = pairs_from_js(&module(&[r#"[/a/gu, "b", "(?>a)"],"#])).unwrap_err();
        assert!(
            matches!(err, JsError::Untranslatable { line: 2, .. }),
            "{err:?}"
        );
        assert!(
            err.source()
                .is_some_and(|s| s.to_string() == "an atomic group has no JavaScript form"),
            "{err:?}"
        );
    }

    #[test]
    fn a_bad_module_or_entry_is_a_format_error_keeping_its_cause() {
        use std::error::Error as _;
        let err = from_js(&module(&["[/a/gi, \"b\"],"])).unwrap_err();
        assert!(matches!(err, FormatError::Js { .. }), "{err:?}");
        let cause = err
            .source()
            .and_then(|s| s.downcast_ref::<JsError>())
            .expect("the JsError is the source");
        assert!(matches!(cause, JsError::Entry { line: 2, .. }), "{cause:?}");
        // A module of the right shape whose pattern does not compile is
        // refused as its JSON twin is.
        let err = from_js(&module(&["[/x/g, \"y\"],", "[/(/g, \"\"],"])).unwrap_err();
        assert!(
            matches!(&err, FormatError::BadPattern { index: 1, pattern, .. } if pattern == "("),
            "{err:?}"
        );
    }

    #[test]
    fn is_js_path_is_the_extension() {
        for (name, js) in [
            ("p.js", true),
            ("dir/p.mjs", true),
            ("p.json", false),
            ("p.js.json", false),
            ("js", false),
        ] {
            assert_eq!(is_js_path(Path::new(name)), js, "{name}");
        }
    }

    /// One piece of a generated pattern: its text, and the text reading the
    /// written module gives back for it. They are the same but for the
    /// spellings a literal cannot keep (see the module documentation).
    fn atom() -> impl Strategy<Value = (String, String)> {
        fn same(s: &str) -> (String, String) {
            (s.to_string(), s.to_string())
        }
        prop_oneof![
            // Characters: quotes, a slash, non-ASCII, the end of a script.
            prop::sample::select(
                &[
                    "a",
                    "Z",
                    "0",
                    "é",
                    "中",
                    "🙂",
                    "\"",
                    "'",
                    "`",
                    "<",
                    ">",
                    "/",
                    ",",
                    "=",
                    " ",
                    "-",
                    "!",
                    "#",
                    "%",
                    "&",
                    "~",
                    "\t",
                    "</script>",
                    "^",
                    "$",
                ][..]
            )
            .prop_map(same),
            // Escapes, a backslash and a dollar among them.
            prop::sample::select(
                &[
                    r"\\", r"\$", r"\.", r"\[", r"\]", r"\(", r"\)", r"\n", r"\t", r"\r", r"\d",
                    r"\w", r"\s", r"\b", r"\^", r"\*", r"\+", r"\?", r"\{", r"\}", r"\|", r"\-",
                ][..]
            )
            .prop_map(same),
            // Classes with a slash, quotes, an escaped `]`, a dollar.
            prop::sample::select(
                &[r#"[/"']"#, r"[\]/]", r"[^\n]", r"[$\\]", "[a-zé]", "[^<>/]", r"[\/]",][..]
            )
            .prop_map(|s| (s.to_string(), s.replace(r"\/", "/"))),
            // What a literal cannot keep.
            prop::sample::select(
                &[
                    ("\n", r"\n"),
                    ("\r", r"\r"),
                    ("\u{2028}", r"\u2028"),
                    ("\u{2029}", r"\u2029"),
                    (r"\/", "/"),
                ][..]
            )
            .prop_map(|(s, back)| (s.to_string(), back.to_string())),
        ]
    }

    /// A part of a generated pattern.
    #[derive(Debug, Clone)]
    enum Part {
        Atom(String, String),
        /// `(...)`, capturing.
        Group(Vec<(String, String)>, &'static str),
        /// `(?:...|...)`.
        Alternation(Vec<(String, String)>),
        /// A back-reference to an earlier group, if there is one.
        Backref(usize),
    }

    fn part() -> impl Strategy<Value = Part> {
        prop_oneof![
            4 => atom().prop_map(|(a, b)| Part::Atom(a, b)),
            2 => (
                prop::collection::vec(atom(), 0..4),
                prop::sample::select(&["", "*", "+?", "{2,3}", "?"][..])
            )
                .prop_map(|(atoms, q)| Part::Group(atoms, q)),
            1 => prop::collection::vec(atom(), 1..4).prop_map(Part::Alternation),
            1 => (1usize..9).prop_map(Part::Backref),
        ]
    }

    /// A pattern from its parts: the text written, the text read back, and
    /// the number of capture groups.
    fn pattern(parts: &[Part]) -> (String, String, usize) {
        let (mut written, mut read, mut groups) = (String::new(), String::new(), 0);
        for part in parts {
            let (w, r) = match part {
                Part::Atom(w, r) => (w.clone(), r.clone()),
                Part::Group(atoms, q) => {
                    groups += 1;
                    let (w, r): (String, String) = atoms.iter().cloned().unzip();
                    (format!("({w}){q}"), format!("({r}){q}"))
                }
                Part::Alternation(atoms) => {
                    let w: Vec<&str> = atoms.iter().map(|(w, _)| w.as_str()).collect();
                    let r: Vec<&str> = atoms.iter().map(|(_, r)| r.as_str()).collect();
                    (
                        format!("(?:{})", w.join("|")),
                        format!("(?:{})", r.join("|")),
                    )
                }
                Part::Backref(_) if groups == 0 => continue,
                Part::Backref(n) => {
                    let n = (n - 1) % groups + 1;
                    (format!(r"(?:\{n})"), format!(r"(?:\{n})"))
                }
            };
            written.push_str(&w);
            read.push_str(&r);
        }
        (written, read, groups)
    }

    /// A replacement naming only groups `0..=groups`, its literal text
    /// awkward in both syntaxes.
    fn template(groups: usize) -> impl Strategy<Value = Template> {
        let piece = prop_oneof![
            prop::sample::select(
                &[
                    "$",
                    "$$",
                    "$1",
                    "$&",
                    "$'",
                    "$`",
                    "$<n>",
                    "\\",
                    "\\1",
                    "\\g<1>",
                    "\"",
                    "'",
                    "\n",
                    "\r\n",
                    "é",
                    "中",
                    "</script>",
                    "0",
                    "12",
                    "\u{2028}",
                    "x",
                ][..]
            )
            .prop_map(|s| Err(s.to_string())),
            (0..=groups.min(99)).prop_map(Ok),
        ];
        prop::collection::vec(piece, 0..6).prop_map(|pieces| {
            pieces.into_iter().fold(Template::new(), |t, p| match p {
                Ok(n) => t.group(n),
                Err(text) => t.text(&text),
            })
        })
    }

    /// A rewrite as written, and as it reads back.
    fn rewrite() -> impl Strategy<Value = (Rewrite, Rewrite)> {
        prop::collection::vec(part(), 0..6)
            .prop_map(|parts| pattern(&parts))
            .prop_flat_map(|(written, read, groups)| {
                template(groups).prop_map(move |t| {
                    (
                        Rewrite::new(written.clone(), t.clone()),
                        Rewrite::new(read.clone(), t),
                    )
                })
            })
    }

    proptest! {
        /// A program written as JavaScript and read back is the program
        /// (patterns spelt as a literal keeps them; a translated one, with
        /// an astral character, comes back as it was), and writing what
        /// was read gives the same module.
        #[test]
        fn programs_round_trip_through_javascript(
            rewrites in prop::collection::vec(rewrite(), 0..8)
        ) {
            let (written, mut read): (Vec<Rewrite>, Vec<Rewrite>) = rewrites.into_iter().unzip();
            for (w, r) in written.iter().zip(&mut read) {
                if w.pattern.chars().any(|c| u32::from(c) >= 0x10000) {
                    r.pattern.clone_from(&w.pattern);
                }
            }
            let (program, expected) = (Program::new(written), Program::new(read));
            // A pattern JavaScript reads otherwise is refused (that the
            // refusals are right is `js_differential`'s business).
            let js = to_js(&program);
            prop_assume!(js.is_ok());
            let js = js.unwrap_or_default();
            let back = from_js(&js);
            prop_assert!(back.is_ok(), "{:?}\n{js}", back.err());
            let back = back.unwrap_or_default();
            prop_assert_eq!(&back, &expected, "{}", js);
            prop_assert_eq!(to_js(&back), Ok(js));
        }
    }
}
