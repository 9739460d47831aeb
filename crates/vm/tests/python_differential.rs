//! Differential tests of `regex-chess run`'s engine choice against
//! CPython 3.11: for generated patterns covering every construct of
//! Python's syntax (`tests/python/gen.rs`), generated subjects and
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

use proptest::test_runner::{Config as RunnerConfig, FileFailurePersistence, TestRunner};

mod python;

use python::{config, gen, ours, Case, Oracle, Outcome};

/// Generated cases per run (each through CPython and through us, twice);
/// `PYRE_DIFF_CASES` asks for another number (a longer sweep).
const CASES: u32 = 12_000;

fn cases() -> u32 {
    std::env::var("PYRE_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES)
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
    let reasons = RefCell::new(std::collections::BTreeMap::<String, usize>::new());
    let mut runner = TestRunner::new(RunnerConfig {
        cases: cases(),
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..RunnerConfig::default()
    });
    let result = runner.run(&gen::case(), |case: Case| {
        let theirs = oracle.borrow_mut().ask(&case);
        let mine = ours(&case, &fast);
        proptest::prop_assert!(
            mine.agrees(&theirs),
            "fast: {case:?}\nours:    {mine:?}\nCPython: {theirs:?}"
        );
        let slow = ours(&case, &naive);
        proptest::prop_assert!(
            slow.agrees(&theirs),
            "naive: {case:?}\nours:    {slow:?}\nCPython: {theirs:?}"
        );
        if let Outcome::Refused(_, why) = &theirs {
            // CPython's message without its position.
            let why = why.split(" at position").next().unwrap_or(why);
            let why: String = why.chars().take(40).collect();
            *reasons.borrow_mut().entry(why).or_default() += 1;
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
        "{} cases: {ran} ran, {pattern} patterns refused, {replacement} replacements refused",
        ran + pattern + replacement
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
