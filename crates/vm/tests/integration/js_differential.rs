//! Differential test of the JavaScript dump against CPython 3.11: for
//! generated `re.sub` cases (`tests/integration/python/gen.rs`: the Python
//! differential test's cases, and cases whose patterns use only what the
//! translation has a form for and cannot match the empty string; subjects
//! over ASCII, the state's characters, newlines, non-ASCII digits, letters,
//! whitespace and astral characters; replacement templates), the module
//! `regex_vm::format::to_js` writes for the program `python::load` makes of
//! `[pattern, replacement]`, run by Node (`s = s.replace(re, r)` for each
//! entry), leaves the bytes `re.sub` leaves; or `to_js` refuses the
//! pattern, with its reason. A portable pattern without astral characters
//! is written as it is, without the `u` flag, which JavaScript reads alike
//! only on text without astral characters, `\r`, U+2028 and U+2029: such
//! cases are compared only on such text. One `python3` and one `node` process answer every
//! case over pipes; proptest shrinks a failure and persists it in
//! `js_differential.proptest-regressions`. Without either program the
//! test is skipped, visibly, outside CI and fails under `CI=true`. The
//! named tests at the end run one construct each on Node against the
//! bytes CPython printed for it.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config as RunnerConfig, FileFailurePersistence, TestRunner};

// The Python differential test's generators and oracle; its side of the
// comparison (our executor) is not asked here.
use crate::python::{gen, Case, Oracle, Outcome};
use regex_vm::Engine;

/// Generated cases per run; `JS_DIFF_CASES` asks for another number.
const CASES: u32 = 10_000;

/// Node's side: evaluate a module's array, apply it, answer the text (or
/// the error, which fails the test: a module we write must load).
const NODE: &str = r#"
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const job = JSON.parse(line);
  let answer;
  try {
    const body = job.m.replace(/^export const rewrites = /, "return ");
    const rewrites = new Function(body)();
    let s = job.s;
    for (const [re, r] of rewrites) s = s.replace(re, r);
    answer = { out: s };
  } catch (e) {
    answer = { error: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
"#;

/// A running `node` answering modules.
struct Node {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
}

impl Node {
    /// Starts `node`; `None` (a visible skip) when it is missing outside
    /// CI; under `CI=true` a missing `node` fails.
    fn start() -> Option<Node> {
        if !testkit::needs("node", "running the JavaScript dump's cases on Node") {
            return None;
        }
        let mut child = Command::new("node")
            .args(["-e", NODE])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node starts");
        let to = BufWriter::new(child.stdin.take().expect("stdin"));
        let from = BufReader::new(child.stdout.take().expect("stdout"));
        Some(Node { child, to, from })
    }

    /// The text `module`'s rewrites leave of `subject`, or Node's error.
    fn run(&mut self, module: &str, subject: &str) -> Result<String, String> {
        let line = serde_json::json!({"m": module, "s": subject});
        writeln!(self.to, "{line}").expect("node reads");
        self.to.flush().expect("node reads");
        let mut answer = String::new();
        self.from.read_line(&mut answer).expect("node answers");
        // A text with a lone surrogate (half an astral character) is not
        // a Rust string: the answer as Node wrote it.
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&answer) else {
            return Err(format!("not a string: {answer}"));
        };
        match &v["out"] {
            serde_json::Value::String(s) => Ok(s.clone()),
            _ => Err(v["error"].as_str().unwrap_or("").to_string()),
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Text a portable pattern reads alike without the `u` flag: no astral
/// character, no `\r`, U+2028 or U+2029.
fn js_plain(text: &str) -> bool {
    text.chars()
        .all(|c| u32::from(c) < 0x10000 && !matches!(c, '\r' | '\u{2028}' | '\u{2029}'))
}

/// The deepest cause of an error: the construct a refusal names.
fn deepest(e: &dyn std::error::Error) -> String {
    let mut why = e;
    while let Some(cause) = why.source() {
        why = cause;
    }
    why.to_string()
}

/// What one case came to.
enum Seen {
    /// Run on Node through a translation.
    Translated,
    /// Run on Node as a portable pattern.
    AsIs,
    /// `to_js` refused it, for this reason.
    Refused(String),
    /// Not compared: refused at load or by CPython, or a portable pattern
    /// on text it reads otherwise without the `u` flag.
    Skipped,
}

/// Compares one case; `Err` with the report when Node and CPython differ.
fn compare(case: &Case, oracle: &mut Oracle, node: &mut Node) -> Result<Seen, String> {
    let pairs = [(case.pattern.clone(), case.replacement.clone())];
    let Ok(program) = regex_vm::python::load(&pairs) else {
        // Refused at load, as CPython refuses: the Python differential
        // test's business; nothing to write.
        return Ok(Seen::Skipped);
    };
    let Outcome::Out(theirs) = oracle.ask(case) else {
        return Ok(Seen::Skipped);
    };
    let module = match regex_vm::format::to_js(&program) {
        Ok(m) => m,
        Err(e) => return Ok(Seen::Refused(deepest(&e))),
    };
    // As `to_js` decides: patterns only our Python engine reads, and
    // portable ones with an astral character, are translated.
    let translated = program.rewrites()[0].engine == Engine::Python
        || case.pattern.chars().any(|c| u32::from(c) >= 0x10000);
    if !translated && [&case.pattern, &case.subject].iter().any(|t| !js_plain(t)) {
        return Ok(Seen::Skipped);
    }
    let mine = node.run(&module, &case.subject);
    if mine.as_ref() != Ok(&theirs) {
        return Err(format!(
            "{case:?}\nmodule:  {module}\nNode:    {mine:?}\nCPython: {theirs:?}"
        ));
    }
    Ok(if translated {
        Seen::Translated
    } else {
        Seen::AsIs
    })
}

#[test]
fn the_javascript_dump_gives_cpythons_bytes_or_refuses() {
    let Some(oracle) = Oracle::start() else {
        return;
    };
    let Some(node) = Node::start() else {
        return;
    };
    let (oracle, node) = (RefCell::new(oracle), RefCell::new(node));
    // Translated, as they are, refused, skipped.
    let counts = RefCell::new([0usize; 4]);
    let reasons = RefCell::new(std::collections::BTreeMap::<String, usize>::new());
    let cases = std::env::var("JS_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES);
    let mut runner = TestRunner::new(RunnerConfig {
        cases,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..RunnerConfig::default()
    });
    // One case in three from the Python differential test's generator
    // (every construct, junk included), the rest made to translate.
    let strategy = proptest::prop_oneof![1 => gen::case(), 2 => gen::nonempty_case()].boxed();
    let result = runner.run(&strategy, |case: Case| {
        let seen = compare(&case, &mut oracle.borrow_mut(), &mut node.borrow_mut());
        let seen = seen.map_err(proptest::test_runner::TestCaseError::fail)?;
        let mut counts = counts.borrow_mut();
        match seen {
            Seen::Translated => counts[0] += 1,
            Seen::AsIs => counts[1] += 1,
            Seen::Refused(why) => {
                counts[2] += 1;
                *reasons.borrow_mut().entry(why).or_default() += 1;
            }
            Seen::Skipped => counts[3] += 1,
        }
        Ok(())
    });
    let [translated, as_is, refused, skipped] = *counts.borrow();
    eprintln!(
        "{} cases: {translated} translated and run on Node, {as_is} portable and run as they \
         are, {refused} refused by the translation, {skipped} not compared",
        translated + as_is + refused + skipped
    );
    for (why, n) in reasons.borrow().iter() {
        eprintln!("  {n:>6} refused: {why}");
    }
    if let Err(e) = result {
        panic!("{e}");
    }
    // The generators must test the translation: most cases CPython ran
    // went through it.
    assert!(
        translated * 2 > translated + as_is + refused,
        "too few cases translated"
    );
}

/// One construct per row: its name, `re.sub`'s pattern, replacement and
/// text, and the bytes CPython 3.11 printed for it.
const CONSTRUCTS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "digit_is_unicode_decimal",
        "\\d+",
        "<\\g<0>>",
        "a1\u{663}\u{ff11}\u{1d7ce}2 x",
        "a<1\u{663}\u{ff11}\u{1d7ce}2> x",
    ),
    (
        "not_digit",
        "\\D",
        "-",
        "1a\u{663} \u{10400}",
        "1-\u{663}--",
    ),
    (
        "word_is_pythons",
        "\\w+",
        "[\\g<0>]",
        "ab_\u{e9}\u{663} \u{b2}x\u{10400}",
        "[ab_\u{e9}\u{663}] [\u{b2}x\u{10400}]",
    ),
    (
        "space_includes_x1c_to_x1f",
        "\\s",
        "_",
        "a\u{1c}b\u{1f}c\u{2003}d\u{a0}e\tf\ng\u{85}",
        "a_b_c_d_e_f_g_",
    ),
    (
        "ascii_flag",
        "(?a)\\w+",
        "[\\g<0>]",
        "ab\u{e9}c",
        "[ab]\u{e9}[c]",
    ),
    (
        "case_insensitive_folds",
        "(?i)k+s",
        "<\\g<0>>",
        "kK\u{212a}s \u{17f} KS",
        "<kK\u{212a}s> \u{17f} <KS>",
    ),
    (
        // `\g<name>`, a group that did not match (empty), `\g<0>`.
        "template_named_and_unmatched_groups",
        r"(?P<w>[a-z])(\d)?-",
        r"\g<w>[\2]\g<0>",
        "a1-b-",
        "a[1]a1-b[]b-",
    ),
    (
        // A look-ahead: translated (a portable `a.b` is written as it is,
        // and JavaScript's `.` stops at `\r` too).
        "dot_stops_at_newline_only",
        "a.(?=b)",
        "X",
        "a\rb a\nb a\u{10400}b a\u{2028}b",
        "Xb a\nb Xb Xb",
    ),
    ("dotall", "(?s)a.b", "X", "a\nb a\u{10400}b", "X X"),
    ("dollar_before_final_newline", "x$", "Y", "x\nx\n", "x\nY\n"),
    ("dollar_at_end", "x$", "Y", "xx", "xY"),
    (
        "multiline_caret_dollar",
        "(?m)^x|y$",
        "Z",
        "x\nxy\ny\nyy",
        "Z\nZZ\nZ\nyZ",
    ),
    ("absolute_anchors", "\\Aa|b\\Z", "-", "aab\nb", "-ab\n-"),
    (
        "word_boundary",
        "\\b\\w",
        "^",
        "ab c\u{e9}d \u{663}x",
        "^b ^\u{e9}d ^x",
    ),
    (
        "not_word_boundary",
        "\\Ba",
        "-",
        "aa a \u{e9}a",
        "a- a \u{e9}-",
    ),
    ("lookahead", "a(?=b)", "X", "ab ac", "Xb ac"),
    ("negative_lookahead", "a(?!b)", "X", "ab ac a", "ab Xc X"),
    ("lookbehind", "(?<=%)\\d", "N", "%1 2 %3", "%N 2 %N"),
    (
        "negative_lookbehind",
        "(?<!%)\\d",
        "N",
        "%1 2 %3",
        "%1 N %3",
    ),
    (
        "multiline_caret_after_astral_line",
        "(?m)^.",
        "!",
        "\u{10400}a\nb",
        "!a\n!",
    ),
    ("backref_then_digit", "(a)\\1 ?0", "\\1", "aa0 aa 0", "a a"),
    (
        "named_group_and_reference",
        "(?P<q>['\\\"])(.*?)(?P=q)",
        "<\\g<2>>",
        "'a' \"b\" 'c\"",
        "<a> <b> 'c\"",
    ),
    (
        "lazy_and_counted",
        "a{2,3}?b{2}",
        "X",
        "aaabb aabbb",
        "X Xb",
    ),
    (
        "group_in_loop_keeps_last",
        "(?:(\\w)\\d)+",
        "\\1",
        "a1b2c3 x9",
        "c x",
    ),
    ("unmatched_group_is_empty", "(a)|b", "[\\1]", "ab", "[a][]"),
    (
        "template_escapes",
        "(x)",
        "$1\\\\\\n\\g<1>$$\\t",
        "x",
        "$1\\\nx$$\t",
    ),
    (
        "search_filter",
        "(?a:\\W)x",
        "_",
        "\u{e9}x x -x",
        "\u{e9}x_ _",
    ),
    (
        // Portable, but with astral characters: translated.
        "astral_class_range",
        "[\u{10400}-\u{1044f}]+",
        "A",
        "a\u{10400}\u{10428}b",
        "aAb",
    ),
    (
        // Translated: `u` reads the astral character as one.
        "negated_class_takes_astral",
        "[^a](?!x)",
        "-",
        "a\u{10400}b",
        "a--",
    ),
    (
        "class_with_syntax_chars",
        "[\\]\\-^/\\\\[]",
        "#",
        "a]-^/\\[b",
        "a######b",
    ),
    ("slash_literal", "a/b", "X", "a/b", "X"),
    (
        // A back-reference loops to a group set before the loop that
        // cannot be empty: translated, each iteration that text again.
        "backref_loop_to_a_set_group",
        "(#l: (?:[^;\\n]*;)*?)([^;\\n]*;)\\2+",
        "\\1\\2",
        "#l: a;b;b;b;c;c;\n#l: x;x;x;\n#l: ab;b;\n",
        "#l: a;b;c;c;\n#l: x;\n#l: ab;b;\n",
    ),
];

#[test]
fn each_construct_runs_on_node_as_cpython_ran_it() {
    let Some(mut node) = Node::start() else {
        return;
    };
    let mut wrong = Vec::new();
    for &(name, pattern, replacement, subject, cpython) in CONSTRUCTS {
        let pairs = [(pattern.to_string(), replacement.to_string())];
        let program = regex_vm::python::load(&pairs).unwrap_or_else(|e| panic!("{name}: {e}"));
        let module = regex_vm::format::to_js(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = node.run(&module, subject);
        if got.as_deref() != Ok(cpython) {
            wrong.push(format!(
                "{name}: Node {got:?}, CPython {cpython:?}\n{module}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn an_entry_with_no_javascript_form_is_refused_with_its_index_and_reason() {
    use regex_vm::format::NoJsReason;
    use regex_vm::pyre::{JavascriptError, JsRefusal};
    for (pattern, replacement, reason) in [
        (r"(?>a)b", "", JsRefusal::Atomic),
        (r"a*+b", "", JsRefusal::Possessive),
        (r"(a)?(?(1)b|c)", "", JsRefusal::Conditional),
        (r"(?i)(a)\1", "", JsRefusal::FoldedBackref),
        (r"x*", "", JsRefusal::MatchesEmpty),
        (r"(?:a|)+b", "", JsRefusal::EmptyLoopBody),
        (r"(?:(a)|b)+c", r"\1", JsRefusal::SkippedInLoop(1)),
        (r"(a)?b\1", "", JsRefusal::MaybeUnset(1)),
        (r"(a)|b\1", "", JsRefusal::MaybeUnset(1)),
        (r"(?<=(.){2})c", "", JsRefusal::InLookBehind),
    ] {
        let pairs = [
            ("x".to_string(), "y".to_string()),
            (pattern.to_string(), replacement.to_string()),
        ];
        let program = regex_vm::python::load(&pairs).expect("CPython compiles it");
        let err = regex_vm::format::to_js(&program).expect_err(pattern);
        assert_eq!(err.index, 1, "{pattern}");
        assert_eq!(
            err.reason,
            NoJsReason::Pattern(JavascriptError::Refused(reason)),
            "{pattern}"
        );
        // The message names the entry; its causes, the construct.
        assert!(err.to_string().starts_with("entry 1 "), "{err}");
        assert_eq!(deepest(&err), reason.to_string());
    }
    // A group JavaScript's `$NN` cannot name.
    let many = format!("{}x", "(a)".repeat(100));
    let program = regex_vm::python::load(&[(many, r"\g<100>".to_string())]).expect("loads");
    let err = regex_vm::format::to_js(&program).expect_err("group 100");
    assert_eq!(err.reason, NoJsReason::Group(100));
}
