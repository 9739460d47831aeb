//! File formats of a [`Program`]: reading and writing programs as files.
//!
//! This module owns the two on-disk shapes of a program and nothing else: the
//! original project's JSON (an array of `[pattern, replacement]` pairs, the
//! replacement in Python `re.sub` syntax), here, and an ES module of
//! `[regex, replacement]` pairs for JavaScript, in [`js`]; each is written
//! and read back in one place. Reading checks that every pattern
//! compiles on the engine the executor would pick and that every replacement
//! only names groups the pattern has, so a malformed file is a
//! [`FormatError`] naming the bad entry, never a panic. It must not run a
//! program or touch a state: that is `exec`'s job.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::exec::EngineError;
use crate::program::{Engine, Program, Rewrite, Template};

pub mod js;

pub use js::{from_js, is_js_path, pairs_from_js, to_js, JsError, NoJsForm, NoJsReason};

// The compiled-size limit for `regex` patterns is the executor's, so that
// a file the executor would run is never rejected here.
use crate::exec::REGEX_SIZE_LIMIT;

/// Why a program file could not be read. Entry indices are 0-based positions
/// in the top-level JSON array (the same numbering as the executor's
/// rewrite indices).
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read.
    #[error("cannot read {}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The text is not JSON.
    #[error("not valid JSON")]
    Json {
        /// serde_json's error, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// The text is not a module of the shape [`to_js`] writes.
    #[error("not a program module as `dump --format js` writes it")]
    Js {
        /// The line that cannot be read back, and why.
        #[source]
        source: JsError,
    },
    /// The JSON is not an array of `[pattern, replacement]` string pairs.
    #[error("{}{message}", entry_prefix(.index))]
    Shape {
        /// The bad entry, or `None` when the top level itself is wrong.
        index: Option<usize>,
        /// What was expected and what was found.
        message: String,
    },
    /// The replacement is not valid Python `re` replacement syntax.
    #[error("entry {index}: bad replacement: {message}")]
    BadReplacement {
        /// The bad entry.
        index: usize,
        /// What is wrong, with the character position in the replacement.
        message: String,
    },
    /// The pattern does not compile on the engine it needs.
    #[error(
        "entry {index}: pattern {:?} does not compile",
        crate::excerpt(pattern)
    )]
    BadPattern {
        /// The bad entry.
        index: usize,
        /// The pattern.
        pattern: String,
        /// What the engine said.
        #[source]
        source: EngineError,
    },
    /// The replacement names a group the pattern does not have.
    #[error("entry {index}: the replacement uses group {group} but the pattern has only {groups} capture group(s)")]
    MissingGroup {
        /// The bad entry.
        index: usize,
        /// The highest group named by the replacement.
        group: usize,
        /// Number of capture groups in the pattern (group 0 not counted).
        groups: usize,
    },
}

fn entry_prefix(index: &Option<usize>) -> String {
    match index {
        Some(i) => format!("entry {i}: "),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------
// JSON

/// The program as the original project's JSON: an array of
/// `[pattern, replacement]` pairs, one per line, replacements in Python
/// `re.sub` syntax. An empty program is `[]`. No trailing newline.
pub fn to_json(program: &Program) -> String {
    if program.is_empty() {
        return "[]".to_string();
    }
    let lines: Vec<String> = program
        .rewrites()
        .iter()
        .map(|r| {
            format!(
                "[{}, {}]",
                json_string(&r.pattern),
                json_string(&r.replacement.to_python())
            )
        })
        .collect();
    format!("[\n{}\n]", lines.join(",\n"))
}

/// A JSON (and JavaScript) string literal.
fn json_string(s: &str) -> String {
    // Serializing a `&str` cannot fail; fall back to Rust's escaping (which
    // is not JSON) rather than panic, should that ever change.
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Reads a program from the original project's JSON shape.
///
/// Every entry is checked: it must be a pair of strings, the replacement must
/// be valid Python `re` replacement syntax, the pattern must compile on the
/// engine [`Engine::of_pattern`] picks, and the replacement may only name
/// groups the pattern has. The rewrites get [`Rewrite::new`]'s defaults
/// (global scope, no origin).
///
/// # Errors
///
/// The first problem found, as a [`FormatError`] naming the entry.
pub fn from_json(text: &str) -> Result<Program, FormatError> {
    from_pairs(&pairs_from_json(text)?)
}

/// The program of `[pattern, replacement]` pairs read from a file
/// (replacements in Python `re.sub` syntax), every entry checked as
/// [`from_json`] describes.
fn from_pairs(entries: &[(String, String)]) -> Result<Program, FormatError> {
    // Programs repeat patterns a lot: compile each distinct one once.
    let mut groups_of: HashMap<String, usize> = HashMap::new();
    let mut rewrites = Vec::with_capacity(entries.len());
    for (index, (pattern, replacement)) in entries.iter().enumerate() {
        let (pattern, replacement) = (pattern.as_str(), replacement.as_str());
        let template = parse_python_template(replacement)
            .map_err(|message| FormatError::BadReplacement { index, message })?;
        let groups = match groups_of.get(pattern) {
            Some(&n) => n,
            None => {
                let n = capture_groups(pattern).map_err(|source| FormatError::BadPattern {
                    index,
                    pattern: pattern.to_string(),
                    source,
                })?;
                groups_of.insert(pattern.to_string(), n);
                n
            }
        };
        let group = template.max_group();
        if group > groups {
            return Err(FormatError::MissingGroup {
                index,
                group,
                groups,
            });
        }
        rewrites.push(Rewrite::new(pattern, template));
    }
    Ok(Program::new(rewrites))
}

/// The `[pattern, replacement]` pairs of a program in the original
/// project's JSON shape, unchecked beyond the shape (for
/// `python::load`, which reads each as CPython does).
///
/// # Errors
///
/// [`FormatError::Json`] or [`FormatError::Shape`].
pub fn pairs_from_json(text: &str) -> Result<Vec<(String, String)>, FormatError> {
    // The common case read straight into pairs (the tree of values cost
    // fours' loading 12% of its instructions); a file of any other shape
    // is read again as a tree, for the error that names the entry.
    if let Ok(pairs) = serde_json::from_str::<Vec<(String, String)>>(text) {
        return Ok(pairs);
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|source| FormatError::Json { source })?;
    let serde_json::Value::Array(entries) = value else {
        return Err(FormatError::Shape {
            index: None,
            message: format!(
                "expected a top-level array of [pattern, replacement] pairs, found {}",
                describe(&value)
            ),
        });
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| pair(index, entry).map(|(p, r)| (p.to_string(), r.to_string())))
        .collect()
}

/// Reads a program from a JSON file (see [`from_json`]).
///
/// # Errors
///
/// [`FormatError::Io`] if the file cannot be read, otherwise whatever
/// [`from_json`] reports.
pub fn from_json_file(path: &Path) -> Result<Program, FormatError> {
    let text = std::fs::read_to_string(path).map_err(|source| FormatError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    from_json(&text)
}

/// The entry as `(pattern, replacement)`, or a [`FormatError::Shape`].
fn pair(index: usize, entry: &serde_json::Value) -> Result<(&str, &str), FormatError> {
    let shape = |message: String| FormatError::Shape {
        index: Some(index),
        message,
    };
    let serde_json::Value::Array(items) = entry else {
        return Err(shape(format!(
            "expected a [pattern, replacement] array, found {}",
            describe(entry)
        )));
    };
    if items.len() != 2 {
        return Err(shape(format!(
            "expected a [pattern, replacement] array of 2 strings, found an array of {} element(s)",
            items.len()
        )));
    }
    match (&items[0], &items[1]) {
        (serde_json::Value::String(p), serde_json::Value::String(r)) => Ok((p, r)),
        (serde_json::Value::String(_), other) => Err(shape(format!(
            "the replacement must be a string, found {}",
            describe(other)
        ))),
        (other, _) => Err(shape(format!(
            "the pattern must be a string, found {}",
            describe(other)
        ))),
    }
}

/// A short description of a JSON value's kind, for error messages.
fn describe(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Number of capture groups of `pattern` (group 0 not counted), compiled on
/// the engine the executor would use for it.
fn capture_groups(pattern: &str) -> Result<usize, EngineError> {
    let len = match Engine::of_pattern(pattern) {
        Engine::Plain => regex::RegexBuilder::new(pattern)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()?
            .captures_len(),
        Engine::Backref => fancy_regex::Regex::new(pattern)?.captures_len(),
        // `of_pattern` never answers it; our engine counts as CPython does.
        Engine::Python => crate::pyre::Regex::new(pattern)?.groups() + 1,
    };
    Ok(len.saturating_sub(1))
}

/// Parses a Python `re.sub` replacement string into a [`Template`].
///
/// Accepted: `\g<N>` (decimal N), `\N` and `\NN` (first digit 1-9) group
/// references; `\\`, `\n`, `\t`, `\r`, `\f`, `\v`, `\a`, `\b` escapes; a
/// backslash before any character that is not an ASCII letter or digit is
/// kept literally together with that character, as Python does. Rejected,
/// as Python rejects them: other ASCII-letter escapes, a trailing lone
/// backslash, malformed `\g<...>`. Rejected because we never emit them:
/// named groups `\g<name>` and octal escapes (`\0`, `\NNN`). Error messages
/// give the character position in the replacement.
fn parse_python_template(text: &str) -> Result<Template, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut template = Template::new();
    let mut literal = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            literal.push(c);
            i += 1;
            continue;
        }
        let Some(&next) = chars.get(i + 1) else {
            return Err(format!(
                "trailing lone backslash at character {i} (write \\\\ for a backslash)"
            ));
        };
        let control = match next {
            '\\' => Some('\\'),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            _ => None,
        };
        if let Some(ch) = control {
            literal.push(ch);
            i += 2;
            continue;
        }
        let group = match next {
            'g' => {
                let (n, width) = parse_g_reference(&chars, i)?;
                i += width;
                n
            }
            '0' => {
                return Err(format!(
                    "octal escape \\0 at character {i} is not supported"
                ));
            }
            '1'..='9' => {
                let d1 = next;
                let d2 = chars.get(i + 2).copied().filter(char::is_ascii_digit);
                match d2 {
                    Some(d2) => {
                        let d3 = chars.get(i + 3).copied();
                        if is_octal(d1) && is_octal(d2) && d3.is_some_and(is_octal) {
                            return Err(format!(
                                "octal escape \\{d1}{d2}{} at character {i} is not supported \
                                 (write \\g<{d1}{d2}> for a group followed by a digit)",
                                d3.unwrap_or('0')
                            ));
                        }
                        i += 3;
                        digit(d1) * 10 + digit(d2)
                    }
                    None => {
                        i += 2;
                        digit(d1)
                    }
                }
            }
            other if other.is_ascii_alphabetic() => {
                return Err(format!("bad escape \\{other} at character {i}"));
            }
            other => {
                // Python keeps unknown non-letter escapes as they are.
                literal.push('\\');
                literal.push(other);
                i += 2;
                continue;
            }
        };
        template = template.text(&literal).group(group);
        literal.clear();
    }
    Ok(template.text(&literal))
}

/// Parses `\g<N>` starting at the backslash at `start`; returns the group
/// number and the number of characters consumed.
fn parse_g_reference(chars: &[char], start: usize) -> Result<(usize, usize), String> {
    if chars.get(start + 2) != Some(&'<') {
        return Err(format!("missing '<' after \\g at character {start}"));
    }
    let name_start = start + 3;
    let Some(len) = chars[name_start.min(chars.len())..]
        .iter()
        .position(|&c| c == '>')
    else {
        return Err(format!("missing '>' to close \\g< at character {start}"));
    };
    let name: String = chars[name_start..name_start + len].iter().collect();
    if name.is_empty() {
        return Err(format!("empty group name in \\g<> at character {start}"));
    }
    if !name.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "group name \\g<{name}> at character {start} is not a decimal number \
             (named groups are not supported)"
        ));
    }
    let n = name
        .parse::<usize>()
        .map_err(|_| format!("group number \\g<{name}> at character {start} is too large"))?;
    // `\`, `g`, `<`, the name, `>`.
    Ok((n, 3 + len + 1))
}

fn is_octal(c: char) -> bool {
    ('0'..='7').contains(&c)
}

fn digit(c: char) -> usize {
    c.to_digit(10).map_or(0, |d| d as usize)
}

// ---------------------------------------------------------------------------
// Files

/// Writes the program to `path`: an ES module ([`to_js`]) when the extension
/// is `.js` or `.mjs`, the JSON shape ([`to_json`], plus a final newline)
/// otherwise.
///
/// # Errors
///
/// The I/O error of the write; a program with no JavaScript form (see
/// [`to_js`]) written to a `.js` file is an
/// [`std::io::ErrorKind::InvalidData`] error whose source is the
/// [`NoJsForm`].
pub fn write_file(program: &Program, path: &Path) -> std::io::Result<()> {
    let text = if is_js_path(path) {
        to_js(program).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?
    } else {
        let mut t = to_json(program);
        t.push('\n');
        t
    };
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Piece;

    fn parse(replacement: &str) -> Result<Template, String> {
        parse_python_template(replacement)
    }

    /// The text of a template with no group reference.
    fn literal_of(t: &Template) -> Option<String> {
        let mut s = String::new();
        for p in t.pieces() {
            match p {
                Piece::Literal(l) => s.push_str(l),
                Piece::Group(_) => return None,
            }
        }
        Some(s)
    }

    fn json_of(pairs: &[(&str, &str)]) -> String {
        let v: Vec<[&str; 2]> = pairs.iter().map(|&(p, r)| [p, r]).collect();
        serde_json::to_string(&v).unwrap()
    }

    #[test]
    fn json_shape_is_one_pair_per_line() {
        let p = Program::new(vec![
            Rewrite::new("a", Template::literal("b")),
            Rewrite::new("(x)", Template::new().group(1).text("y")),
        ]);
        assert_eq!(
            to_json(&p),
            "[\n[\"a\", \"b\"],\n[\"(x)\", \"\\\\g<1>y\"]\n]"
        );
        assert_eq!(to_json(&Program::default()), "[]");
        assert_eq!(from_json("[]").unwrap(), Program::default());
    }

    #[test]
    fn round_trip_keeps_patterns_and_templates() {
        let twelve = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)";
        let p = Program::new(vec![
            Rewrite::new("x", Template::literal("$1 \\ \n \\g<1> \"q\"")),
            Rewrite::new(
                twelve,
                Template::new()
                    .group(12)
                    .text("0")
                    .group(10)
                    .group(1)
                    .text("$\\")
                    .group(11),
            ),
            Rewrite::new(r"(y)\1\n", Template::literal("\\\\").group(1).text("\n")),
            Rewrite::new("/[/]\\/", Template::new()),
        ]);
        let text = to_json(&p);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value.as_array().map(Vec::len), Some(4));
        let back = from_json(&text).unwrap();
        assert_eq!(back, p);
        assert_eq!(back.rewrites()[2].engine, Engine::Backref);
        let pieces: Vec<_> = back
            .rewrites()
            .iter()
            .map(|r| r.replacement.clone())
            .collect();
        let orig: Vec<_> = p.rewrites().iter().map(|r| r.replacement.clone()).collect();
        assert_eq!(pieces, orig);
    }

    #[test]
    fn not_json_is_a_json_error() {
        match from_json("[[\"a\", \"b\"],") {
            Err(FormatError::Json { source }) => {
                let message = source.to_string();
                assert!(message.contains("line 1"), "{message}");
            }
            other => panic!("expected Json, got {other:?}"),
        }
    }

    #[test]
    fn top_level_object_is_a_shape_error() {
        match from_json("{\"a\": \"b\"}") {
            Err(FormatError::Shape {
                index: None,
                message,
            }) => {
                assert!(message.contains("object"), "{message}");
            }
            other => panic!("expected Shape(None), got {other:?}"),
        }
    }

    #[test]
    fn entry_with_three_strings_is_a_shape_error() {
        let text = r#"[["a", "b"], ["a", "b", "c"]]"#;
        match from_json(text) {
            Err(e @ FormatError::Shape { index: Some(1), .. }) => {
                assert!(e.to_string().starts_with("entry 1: "), "{e}");
            }
            other => panic!("expected Shape(1), got {other:?}"),
        }
    }

    #[test]
    fn entry_with_a_number_is_a_shape_error() {
        let text = r#"[["a", "b"], ["c", "d"], ["a", 3]]"#;
        assert!(matches!(
            from_json(text),
            Err(FormatError::Shape { index: Some(2), .. })
        ));
        assert!(matches!(
            from_json("[7]"),
            Err(FormatError::Shape { index: Some(0), .. })
        ));
    }

    fn bad_replacement(replacement: &str) -> String {
        let text = json_of(&[("a", "b"), ("(a)", replacement)]);
        match from_json(&text) {
            Err(FormatError::BadReplacement { index: 1, message }) => message,
            other => panic!("{replacement:?}: expected BadReplacement(1), got {other:?}"),
        }
    }

    #[test]
    fn unknown_letter_escape_is_rejected() {
        assert!(bad_replacement(r"x\q").contains("\\q"));
    }

    #[test]
    fn trailing_backslash_is_rejected() {
        assert!(bad_replacement("x\\").contains("trailing"));
    }

    #[test]
    fn named_group_is_rejected() {
        assert!(bad_replacement(r"\g<x>").contains("named"));
        bad_replacement(r"\g1");
        bad_replacement(r"\g<1");
        bad_replacement(r"\g<>");
    }

    #[test]
    fn octal_escape_is_rejected() {
        assert!(bad_replacement(r"\0").contains("octal"));
        assert!(bad_replacement(r"\123").contains("octal"));
    }

    #[test]
    fn bad_plain_pattern_is_reported_with_its_index() {
        let text = json_of(&[("a", "b"), ("(", "")]);
        match from_json(&text) {
            Err(FormatError::BadPattern { index, pattern, .. }) => {
                assert_eq!((index, pattern.as_str()), (1, "("));
            }
            other => panic!("expected BadPattern, got {other:?}"),
        }
    }

    #[test]
    fn bad_backref_pattern_is_reported_with_its_index() {
        let pattern = r"(a)\1(";
        assert_eq!(Engine::of_pattern(pattern), Engine::Backref);
        let text = json_of(&[("a", "b"), ("c", "d"), (pattern, "")]);
        match from_json(&text) {
            Err(FormatError::BadPattern {
                index, pattern: p, ..
            }) => {
                assert_eq!((index, p.as_str()), (2, pattern));
            }
            other => panic!("expected BadPattern, got {other:?}"),
        }
    }

    #[test]
    fn missing_group_is_reported() {
        let text = json_of(&[("(a)", r"\g<1>"), ("(a)", r"\g<2>")]);
        match from_json(&text) {
            Err(FormatError::MissingGroup {
                index,
                group,
                groups,
            }) => assert_eq!((index, group, groups), (1, 2, 1)),
            other => panic!("expected MissingGroup, got {other:?}"),
        }
        // Same for the back-reference engine.
        let text = json_of(&[(r"(a)\1", r"\2")]);
        assert!(matches!(
            from_json(&text),
            Err(FormatError::MissingGroup {
                index: 0,
                group: 2,
                groups: 1
            })
        ));
    }

    #[test]
    fn python_syntax_details() {
        assert_eq!(parse(r"\\").unwrap(), Template::literal("\\"));
        assert_eq!(parse(r"a\nb").unwrap(), Template::literal("a\nb"));
        assert_eq!(
            parse(r"\t\r\f\v\a\b").unwrap(),
            Template::literal("\t\r\u{c}\u{b}\u{7}\u{8}")
        );
        assert_eq!(parse(r"\&").unwrap(), Template::literal("\\&"));
        assert_eq!(literal_of(&parse(r"\&").unwrap()).unwrap().len(), 2);
        assert_eq!(parse(r"\12").unwrap(), Template::new().group(12));
        assert_eq!(parse(r"\1a").unwrap(), Template::new().group(1).text("a"));
        assert_eq!(parse(r"\128").unwrap(), Template::new().group(12).text("8"));
        assert_eq!(
            parse(r"\g<10>0").unwrap(),
            Template::new().group(10).text("0")
        );
        assert_eq!(parse("$1 $$").unwrap(), Template::literal("$1 $$"));
        assert_eq!(parse(r"é\é").unwrap(), Template::literal("é\\é"));
    }

    #[test]
    fn files_round_trip_and_io_errors_name_the_path() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let p = Program::new(vec![Rewrite::new(
            "(a)",
            Template::new().group(1).text("\\"),
        )]);
        let json = dir.join("p.json");
        write_file(&p, &json).unwrap();
        assert_eq!(from_json_file(&json).unwrap(), p);
        let js = dir.join("p.js");
        write_file(&p, &js).unwrap();
        assert!(std::fs::read_to_string(&js)
            .unwrap()
            .starts_with("export const rewrites"));
        let missing = dir.join("missing.json");
        let err = from_json_file(&missing).unwrap_err();
        assert!(matches!(&err, FormatError::Io { path, .. } if path == &missing));
        assert!(err.to_string().contains("missing.json"), "{err}");
    }

    #[test]
    fn errors_keep_the_engines_error_as_their_source() {
        use std::error::Error as _;
        let temp = tempfile::tempdir().unwrap();
        let err = from_json_file(&temp.path().join("missing.json")).unwrap_err();
        let io = err
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .expect("the io::Error is the source");
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        assert!(!err.to_string().contains(&io.to_string()), "{err}");

        let err = from_json("[[\"a\", \"b\"],").unwrap_err();
        assert_eq!(err.to_string(), "not valid JSON");
        let json = err
            .source()
            .and_then(|s| s.downcast_ref::<serde_json::Error>())
            .expect("serde_json's error is the source");
        assert_eq!(json.line(), 1);

        let err = from_json(&json_of(&[("a", "b"), ("(", "")])).unwrap_err();
        assert_eq!(err.to_string(), "entry 1: pattern \"(\" does not compile");
        let engine = err
            .source()
            .and_then(|s| s.downcast_ref::<EngineError>())
            .expect("the engine's error is the source");
        assert!(matches!(engine, EngineError::Regex(_)), "{engine:?}");
    }
}
