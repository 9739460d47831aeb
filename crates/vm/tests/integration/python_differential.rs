//! Differential tests of `regex-chess run`'s engine choice against
//! CPython 3.11 (and a hand-written corpus, at the end): for generated patterns covering every construct of
//! Python's syntax (`tests/integration/python/gen.rs`), generated subjects and
//! generated replacement templates, the program `regex_vm::python::load`
//! makes of `[pattern, replacement]`, run by the executor (fast and
//! naive), leaves the bytes `re.sub(pattern, replacement, subject)`
//! leaves, or is refused where CPython raises (in the same phase: the
//! pattern or the replacement). One `python3` process answers every case
//! over a pipe; proptest shrinks a failure and persists it in
//! `python_differential.proptest-regressions`. Without `python3` (or with
//! another version than 3.11) the test is skipped, visibly, outside CI
//! and fails under `CI=true`.

use std::cell::RefCell;

use proptest::test_runner::{
    Config as RunnerConfig, FileFailurePersistence, TestCaseError, TestRunner,
};

use crate::python::{config, gen, ours, Case, Oracle, Outcome};
use regex_vm::Engine;

/// Generated cases per run (each through CPython and through us, twice);
/// `PYRE_DIFF_CASES` asks for another number (a longer sweep).
const CASES: u32 = 12_000;

fn cases() -> u32 {
    std::env::var("PYRE_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES)
}

/// A runner of `cases` cases that persists a failure beside this file.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new(RunnerConfig {
        cases,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..RunnerConfig::default()
    })
}

/// CPython's outcome of `case`, once ours under `fast` and under `naive`
/// (the plain loop) both agree with it.
fn both_agree(
    case: &Case,
    oracle: &RefCell<Oracle>,
    fast: &regex_vm::Config,
    naive: &regex_vm::Config,
) -> Result<Outcome, TestCaseError> {
    let theirs = oracle.borrow_mut().ask(case);
    let mine = ours(case, fast);
    proptest::prop_assert!(
        mine.agrees(&theirs),
        "fast: {case:?}\nours:    {mine:?}\nCPython: {theirs:?}"
    );
    let slow = ours(case, naive);
    proptest::prop_assert!(
        slow.agrees(&theirs),
        "naive: {case:?}\nours:    {slow:?}\nCPython: {theirs:?}"
    );
    Ok(theirs)
}

#[test]
fn run_gives_cpythons_bytes_or_its_refusal() {
    let Some(oracle) = Oracle::start() else {
        return;
    };
    let oracle = RefCell::new(oracle);
    let fast = config(false);
    let naive = config(true);
    let counts = RefCell::new([0usize; 3]);
    // Cases whose pattern has a form for the `regex` crate, on ASCII text.
    let on_ascii = RefCell::new(0usize);
    let reasons = RefCell::new(std::collections::BTreeMap::<String, usize>::new());
    let mut runner = runner(cases());
    let result = runner.run(&gen::case(), |case: Case| {
        let theirs = both_agree(&case, &oracle, &fast, &naive)?;
        if let Outcome::Refused(_, why) = &theirs {
            // CPython's message without its position.
            let why = why.split(" at position").next().unwrap_or(why);
            let why: String = why.chars().take(40).collect();
            *reasons.borrow_mut().entry(why).or_default() += 1;
        }
        if case.subject.is_ascii()
            && regex_vm::pyre::Regex::new(&case.pattern)
                .is_ok_and(|re| re.ascii_pattern().is_some())
            && matches!(theirs, Outcome::Out(_))
        {
            *on_ascii.borrow_mut() += 1;
        }
        let mut c = counts.borrow_mut();
        c[match theirs {
            Outcome::Out(_) => 0,
            Outcome::Refused("pattern", _) => 1,
            Outcome::Refused(..) => 2,
        }] += 1;
        Ok(())
    });
    let [ran, pattern, replacement] = *counts.borrow();
    eprintln!(
        "{} cases: {ran} ran ({} of them through an ASCII form), {pattern} patterns refused, \
         {replacement} replacements refused",
        ran + pattern + replacement,
        on_ascii.borrow()
    );
    let mut reasons: Vec<(String, usize)> = reasons.into_inner().into_iter().collect();
    reasons.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (why, n) in reasons.iter().take(12) {
        eprintln!("  {n:>6} refused: {why}");
    }
    if let Err(e) = result {
        panic!("{e}");
    }
    // The generators must test something: most cases run.
    assert!(ran * 2 > ran + pattern + replacement, "too few cases ran");
}

/// Generated cases of the Python engine's shapes per run
/// (`gen::engine_case`: alternations of many branches, loops of every
/// greed around them, back-references, zero-width items first);
/// `PYRE_ENGINE_CASES` asks for another number.
const ENGINE_CASES: u32 = 4_000;

#[test]
fn the_engine_shapes_give_cpythons_bytes() {
    let Some(oracle) = Oracle::start() else {
        return;
    };
    let oracle = RefCell::new(oracle);
    let fast = config(false);
    let naive = config(true);
    let counts = RefCell::new([0usize; 2]);
    let cases = std::env::var("PYRE_ENGINE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ENGINE_CASES);
    let mut runner = runner(cases);
    let result = runner.run(&gen::engine_case(), |case: Case| {
        let theirs = both_agree(&case, &oracle, &fast, &naive)?;
        counts.borrow_mut()[usize::from(!matches!(theirs, Outcome::Out(_)))] += 1;
        Ok(())
    });
    let [ran, refused] = *counts.borrow();
    eprintln!(
        "{} engine-shape cases: {ran} ran, {refused} refused by both",
        ran + refused
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(ran * 2 > ran + refused, "too few cases ran");
}

// A corpus of hand-written patterns of the kinds people write (dates,
// e-mail addresses, quoted strings, word boundaries, look-around, named
// groups, verbose and case-insensitive patterns, the original project's
// shapes, and some CPython refuses), in `tests/data/python_corpus.json`:
// each is refused by `regex_vm::python::load` exactly where CPython
// refuses it (or is past one of our stated limits, named here), and each
// accepted one gives CPython's bytes on a few subjects. It prints what
// share of the corpus runs on which engine.

/// Patterns past a stated limit of ours (CPython compiles them).
const OUR_LIMITS: &[&str] = &[r"\N{EM DASH}"];

const SUBJECTS: &[&str] = &[
    "Hello World, hello world. The year 2024-03-17; a@b.co, x_y 1,234.5e-3\n",
    "%%\n#stack:\n12\n34\n#a1:x\n%%\n#stack:\nfoo bar\nfoo bar\n",
    "Straße STRASSE ǅ Kk\u{212a} 𐐀𐐨 ١٢٣ \u{1c}\u{2003}\r\n'q\\'t' \"d\" <b>x</b> /*c*/",
];

#[test]
fn the_corpus_runs_as_in_cpython_or_is_refused_where_it_refuses() {
    let text = include_str!("../data/python_corpus.json");
    let patterns: Vec<String> = serde_json::from_str(text).expect("a JSON list of patterns");
    let Some(mut oracle) = Oracle::start() else {
        return;
    };
    let fast = config(false);
    let mut tally = std::collections::BTreeMap::<&str, usize>::new();
    for pattern in &patterns {
        let case = |subject: &str| Case {
            pattern: pattern.clone(),
            replacement: r"<\g<0>>".to_string(),
            subject: subject.to_string(),
        };
        let pairs = [(pattern.clone(), r"<\g<0>>".to_string())];
        let loaded = regex_vm::python::load(&pairs);
        let theirs = oracle.ask(&case(SUBJECTS[0]));
        let kind = match (&loaded, &theirs) {
            (Err(_), Outcome::Refused("pattern", _)) => "refused, as by CPython",
            (Err(_), _) if OUR_LIMITS.contains(&pattern.as_str()) => "refused, a limit of ours",
            (Err(e), _) => panic!("{pattern:?}: we refuse ({e}), CPython does not"),
            (Ok(_), Outcome::Refused(..)) => panic!("{pattern:?}: CPython refuses, we do not"),
            (Ok(program), _) => match program.rewrites()[0].engine {
                Engine::Plain | Engine::Backref => "runs on the Rust engines (portable)",
                Engine::Python => {
                    let re = regex_vm::pyre::Regex::new(pattern).expect("loaded");
                    if re.ascii_pattern().is_some() {
                        "runs on ours, on ASCII states on the regex crate"
                    } else {
                        "runs on ours"
                    }
                }
            },
        };
        *tally.entry(kind).or_default() += 1;
        if loaded.is_ok() {
            for subject in SUBJECTS {
                let c = case(subject);
                let (mine, theirs) = (ours(&c, &fast), oracle.ask(&c));
                assert!(
                    mine.agrees(&theirs),
                    "{c:?}\nours:    {mine:?}\nCPython: {theirs:?}"
                );
            }
        }
    }
    eprintln!("{} patterns:", patterns.len());
    for (kind, n) in &tally {
        eprintln!("  {n:>4} {kind}");
    }
    assert!(
        tally.len() >= 4,
        "the corpus covers every outcome: {tally:?}"
    );
}
