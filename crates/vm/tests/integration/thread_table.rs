//! The table of threads (`Config::thread_table`: stretches of rewrites run
//! on the threads each can match in) against the plain loop. Generated
//! states hold many threads, active, paused under tags and marked, with
//! text before the first, most of them *lined* (every thread after a
//! `\n`) and some not; generated programs mix the thread-local rewrites of
//! a program written in the original project's manner (stack and
//! variable operations by group replacement, pauses and wakes, forks,
//! deletions, look-arounds that read only their thread) with rewrites
//! whose matches can cross a thread or whose look-arounds can read
//! another. Each case runs with the table on every step it can take, on a
//! mix of table and whole-state steps, and with the default prices, and
//! must leave the plain loop's bytes, or fail the same way. Then one named
//! test per condition under which a rewrite must leave the table for the
//! whole state, each checking that the table did run where it could.

use proptest::prelude::*;
use regex_vm::{Config, Executor, Program, Stats};

/// A fast configuration that takes the table from the smallest states,
/// each thread visit priced as `visit_bytes` bytes (0: always the table).
fn table(visit_bytes: usize) -> Config {
    Config {
        table_bytes: 0,
        visit_bytes,
        ..Config::default()
    }
}

fn naive() -> Config {
    Config {
        naive: true,
        ..Config::default()
    }
}

/// One run: the end state (or the error's message), and the statistics.
fn run(program: &Program, state: &str, config: Config) -> (String, Option<Stats>) {
    let exec = Executor::new(program, config).expect("compiles");
    let mut s = state.to_string();
    match exec.run(&mut s) {
        Ok(stats) => (s, Some(stats)),
        Err(e) => (format!("error: {e}\nstate: {s}"), None),
    }
}

/// A program of `(pattern, replacement)` pairs in Python's syntax.
fn program(pairs: &[(&str, &str)]) -> Program {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect();
    regex_vm::python::load(&pairs).expect("loads")
}

/// Runs `pairs` (each written `times` times in a row, so that stretches
/// form) on `state` with the table and with the plain loop: the same
/// bytes; returns the table's statistics.
fn same_as_naive(pairs: &[(&str, &str)], state: &str, visit_bytes: usize) -> Stats {
    let program = program(pairs);
    let (want, _) = run(&program, state, naive());
    let (got, stats) = run(&program, state, table(visit_bytes));
    assert_eq!(got, want, "{program}\nstate {state:?}");
    stats.expect("runs")
}

/// Eight rewrites that stay in their threads on any state: with such a
/// stretch before it, a rewrite under test runs inside a table stretch.
const LOCAL: [(&str, &str); 8] = [
    (r"(%%\n#stack:\n)", r"\1A\n"),
    (r"(%%\n#stack:\n)A\n", r"\1"),
    (r"(%%[^%]*#x: )", r"\g<1>1"),
    (r"(%%[^%]*#x: )1", r"\1"),
    (r"(%%\n#stack:\n)", r"\1B\n"),
    (r"(%%\n#stack:\n)B\n", r"\1"),
    (r"(%%[^%]*#y: )", r"\g<1>2"),
    (r"(%%[^%]*#y: )2", r"\1"),
];

/// `LOCAL`, then `rest`.
fn after_local<'a>(rest: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    LOCAL.iter().copied().chain(rest.iter().copied()).collect()
}

const THREADS: &str = "head\n%%\n#stack:\nq\n#x: a\n#y: b\n%t1\n#stack:\n#x: c\n#y: d\n\
                       %%\n#stack:\nr\ns\n#x: e\n#y: f\n";

#[test]
fn a_stretch_of_local_rewrites_runs_on_the_table() {
    let stats = same_as_naive(&LOCAL, THREADS, 0);
    assert_eq!(stats.on_table, LOCAL.len());
}

/// Condition: a rewrite whose matches can cross a thread at any length
/// (its pattern may match `\n%` after any number of lines) runs on the
/// whole state; here it does join two threads.
#[test]
fn a_pattern_that_crosses_threads_runs_on_the_whole_state() {
    let pairs = after_local(&[(r"%%\n#stack:\n([^%]*)%t1\n#stack:\n", r"%%\n#stack:\n\1")]);
    let stats = same_as_naive(&pairs, THREADS, 0);
    assert_eq!(stats.on_table, LOCAL.len());
    let (joined, _) = run(&program(&pairs), THREADS, naive());
    assert_eq!(
        joined.matches('%').count(),
        THREADS.matches('%').count() - 1
    );
}

/// Condition: a line pattern (`(%%\n#stack:\n)([^\n]*)\n`, which reaches
/// the next thread only from a thread with no line after its head) on a
/// state with such a thread runs on the whole state, and crosses there.
#[test]
fn a_line_pattern_on_a_thread_too_short_for_it_runs_on_the_whole_state() {
    let line = [(r"(%%\n#stack:\n)([^\n]*)\n", r"\1<\2>\n")];
    // Long enough threads: on the table.
    let stats = same_as_naive(&after_local(&line), THREADS, 0);
    assert_eq!(stats.on_table, LOCAL.len() + 1);
    // A bare head followed by a thread: the match takes the next head.
    let short = "%%\n#stack:\n%t1\n#stack:\n#x: c\n";
    let (want, _) = run(&program(&line), short, naive());
    assert_eq!(want, "%%\n#stack:\n<%t1>\n#stack:\n#x: c\n");
    let stats = same_as_naive(&after_local(&line), short, 0);
    assert_eq!(stats.on_table, LOCAL.len());
    // Its match reaches the next thread only past one line: a thread of
    // three newlines runs on the whole state, of four on the table.
    let cross = [(r"(%%\n#stack:\n[^\n]*\n)(%t1)", r"\1<\2>")];
    let three = "%%\n#stack:\n#x: a\n%t1\n#stack:\n#x: c\n#y: d\n";
    let stats = same_as_naive(&after_local(&cross), three, 0);
    assert_eq!(stats.on_table, LOCAL.len());
    let (crossed, _) = run(&program(&cross), three, naive());
    assert!(crossed.contains("<%t1>"), "{crossed}");
    let four = "%%\n#stack:\n#x: a\n#y: b\n%t1\n#stack:\n#x: c\n#y: d\n";
    let stats = same_as_naive(&after_local(&cross), four, 0);
    assert_eq!(stats.on_table, LOCAL.len() + 1);
}

/// Condition: on a state whose threads do not all follow a `\n`, a
/// rewrite whose pattern may match a `%` runs on the whole state.
#[test]
fn a_thread_not_after_a_newline_runs_line_patterns_on_the_whole_state() {
    let pairs = after_local(&[(r"(%%[^%]*#x: )([^\n]*)", r"\1[\2]")]);
    let state = "%%\n#stack:\n#x: a%t1\n#stack:\n#x: c\n%%\n#stack:\n#x: e\n";
    let stats = same_as_naive(&pairs, state, 0);
    assert_eq!(stats.on_table, LOCAL.len());
    // Every thread after a `\n`: on the table.
    let state = "%%\n#stack:\n#x: a\n%t1\n#stack:\n#x: c\n%%\n#stack:\n#x: e\n";
    let stats = same_as_naive(&pairs, state, 0);
    assert_eq!(stats.on_table, LOCAL.len() + 1);
}

/// Condition: anchors and look-arounds that may read another thread (what
/// matches may depend on text outside the thread) run on the whole state.
#[test]
fn anchors_and_look_arounds_run_on_the_whole_state() {
    for pattern in [
        r"^%%\n",
        r"(?<=\n)%%\n#stack:\n",
        r"(%%\n#stack:\n)(?=[^\n]*\n%)",
        r"\bq\b",
        r"(%%[^%]*#y: )([^\n]*)$",
    ] {
        let pairs = after_local(&[(pattern, "Z")]);
        let stats = same_as_naive(&pairs, THREADS, 0);
        assert_eq!(stats.on_table, LOCAL.len(), "{pattern}");
    }
}

/// `pairs` run by the plain loop on each thread of `state` alone (cut
/// before every `%` that does not follow a `%`), the results joined: what
/// the table would leave if it ran every rewrite of `pairs`.
fn per_thread(pairs: &[(&str, &str)], state: &str) -> String {
    let program = program(pairs);
    let b = state.as_bytes();
    let mut cuts: Vec<usize> = (1..b.len())
        .filter(|&i| b[i] == b'%' && b[i - 1] != b'%')
        .collect();
    cuts.insert(0, 0);
    cuts.push(b.len());
    cuts.windows(2)
        .map(|w| run(&program, &state[w[0]..w[1]], naive()).0)
        .collect()
}

/// Condition: a look-around that can read past its thread's edge (its
/// pattern can match the next thread's `%`, or it looks behind a thread's
/// first byte) runs on the whole state. Each case is one where the
/// threads run alone give other bytes than the whole state, so that
/// running it on the table would be wrong.
#[test]
fn a_look_around_that_can_see_another_thread_runs_on_the_whole_state() {
    for (pattern, replacement, state) in [
        (
            r"1(?=[^\n]*\n)",
            "9",
            "%%\n#stack:\n#x: 1%%\n#stack:\n#x: 2\n",
        ),
        (r"(?<=b\n)%%\n", "%%\nB\n", "%t\n#stack:\nb\n%%\n#stack:\n"),
        (r"(?<!b\n)%%\n", "%%\nN\n", "%t\n#stack:\nb\n%%\n#stack:\n"),
        (
            r"(#y: [^\n]*)(?=%)",
            r"\1!",
            "%%\n#stack:\n#y: ab%t\n#stack:\n",
        ),
        (
            r"(%%\n#stack:\n)(?![^%]*%t)",
            r"\1L\n",
            "%%\n#stack:\nq\n%t\n#stack:\n",
        ),
    ] {
        let one = [(pattern, replacement)];
        let (whole, _) = run(&program(&one), state, naive());
        assert_ne!(per_thread(&one, state), whole, "{pattern}: not a test");
        let stats = same_as_naive(&after_local(&one), state, 0);
        assert_eq!(stats.on_table, LOCAL.len(), "{pattern}");
    }
}

/// Look-arounds whose patterns match no `%` (and hold no assertion) read
/// only their thread: each runs on the table, at a thread's edges (a
/// look-ahead at a thread's end not followed by `\n`, a look-behind where
/// the state starts), with the plain loop's bytes.
#[test]
fn look_arounds_that_read_only_their_thread_run_on_the_table() {
    for (pattern, replacement, state) in [
        (
            r"(%%[^%]*#x: )(?=1)",
            r"\1+",
            "%%\n#stack:\n#x: 1\n%%\n#stack:\n#x: 2\n",
        ),
        (r"1(?=\n)", "9", "%%\n#stack:\n#x: 1%%\n#stack:\n#x: 1\n"),
        (
            r"(?<=[;\n])([ab]);",
            r"\1,",
            "a;b;\n%%\n#stack:\na;b;\n%t\n#stack:\nb;",
        ),
        (
            r"(%%\n#stack:\n)(?![TF]\n)",
            r"\1F\n",
            "%%\n#stack:\nT\n%%\n#stack:\nq\n%%\n#stack:\n",
        ),
        (r"(?<!;)b", "B", "b;%%\n#stack:\nb\n"),
        (r"(%%\n#stack:\n)(?=q)", "Z", THREADS),
    ] {
        let stats = same_as_naive(&after_local(&[(pattern, replacement)]), state, 0);
        assert_eq!(stats.on_table, LOCAL.len() + 1, "{pattern}");
    }
}

/// Condition: a replacement that would join a thread to the one before
/// it (its head gone, or a `%` left at its end) is taken by cutting the
/// state anew; the stretch goes on on the table.
#[test]
fn a_replacement_that_joins_threads_is_cut_anew() {
    for (pattern, replacement) in [
        (r"%%\n#stack:\nr\n", "joined\n"),
        (r"(%%\n#stack:\nq\n[^%]*)", r"\1%"),
        (r"(%%\n#stack:\n)q\n", r"\1%%\n#stack:\nforked\n"),
        (r"%%\n#stack:\nq\n[^%]*", ""),
    ] {
        let pairs = after_local(&[(pattern, replacement)]);
        let mut pairs = pairs.clone();
        pairs.extend(LOCAL);
        let stats = same_as_naive(&pairs, THREADS, 0);
        assert_eq!(stats.on_table, 2 * LOCAL.len() + 1, "{pattern}");
    }
}

/// Condition: a rewrite with more threads to visit than a scan of the
/// whole state costs (by `Config::visit_bytes`) runs on the whole state,
/// and so does the rest of its stretch; a stretch whose first rewrite is
/// so runs as before the table.
#[test]
fn too_many_threads_to_visit_run_on_the_whole_state() {
    let many = "%%\n#stack:\n#x: \n#y: \n".repeat(40);
    let stats = same_as_naive(&LOCAL, &many, 1 << 20);
    assert_eq!(stats.on_table, 0);
    let paused = "%t\n#stack:\n#x: \n#y: \n".repeat(40);
    let mut pairs = vec![(r"(%%\n#stack:\n)", r"\1A\n"); 8];
    pairs.push((r"%t\n", "%%\n"));
    pairs.extend(LOCAL);
    let state = format!("%%\n#stack:\n#x: \n#y: \n{paused}");
    let stats = same_as_naive(&pairs, &state, 40);
    assert_eq!(stats.on_table, 8);
}

/// Condition: the state outgrowing its cap inside a table stretch ends
/// the run as the plain loop ends it: the same error, the same state.
#[test]
fn the_cap_inside_a_table_stretch_is_the_plain_loops() {
    let mut pairs = LOCAL.to_vec();
    pairs.push((r"(%%\n#stack:\n)", r"\1grow grow grow grow grow\n"));
    pairs.extend(LOCAL);
    let program = program(&pairs);
    let cap = |c: Config| Config {
        max_state_bytes: THREADS.len() + 30,
        ..c
    };
    let (want, _) = run(&program, THREADS, cap(naive()));
    let (got, _) = run(&program, THREADS, cap(table(0)));
    assert!(want.starts_with("error"), "{want}");
    assert_eq!(got, want);
}

/// Condition: a rewrite an engine fails on, on a thread, runs on the
/// whole state, which reports the failure as the plain loop does.
#[test]
fn an_engine_failure_on_a_thread_runs_on_the_whole_state() {
    let mut pairs = LOCAL.to_vec();
    pairs.push((r"(%%[^%]*#z: )(a*)*\2b", r"\1"));
    let program = program(&pairs);
    let state = format!("{THREADS}%%\n#stack:\n#z: {}\n", "a".repeat(40));
    let small = |c: Config| Config {
        fancy_backtrack_limit: 1000,
        own_matcher: false,
        ..c
    };
    let (want, _) = run(&program, &state, small(naive()));
    let (got, _) = run(&program, &state, small(table(0)));
    assert_eq!(got, want);
}

// Generated cases.

/// Rewrites that stay in one thread on any state or on lined states, as
/// a program in the original project's manner writes them.
const THREAD_LOCAL: &[(&str, &str)] = &[
    (r"(%%\n#stack:\n)", r"\1T\n"),
    (r"(%%\n#stack:\n)", r"\1F\n"),
    (r"(%%\n#stack:\n)([^\n]*)\n", r"\1\2\2\n"),
    (r"(%%\n#stack:\n)([^\n]*)\n([^\n]*)\n", r"\1\3\2\n"),
    (r"(%%\n#stack:\n)[^\n]*\n", r"\1"),
    (r"(%%\n#stack:\n)([^%]*#x: ([^\n]*))", r"\1\3\n\2"),
    (r"(%%[^%]*#x: )[^\n]*", r"\g<1>1"),
    (r"(%%[^%]*#y: [^\n]*)", r"\g<1>1"),
    (r"(%%[^%]*#x: ([^\n]*)\n[^%]*#y: )[^\n]*", r"\1\2"),
    (r"(%%[^%]*#y: .{1})(.)", r"\1<\2>"),
    (r"(%%\n#stack:\n)T\n([^%]*#x: 1)", r"\1F\n\2"),
    (r"%%\n#stack:\nF\n", "%f1\n#stack:\n"),
    (r"(%%\n#stack:\n)T\n", r"\1"),
    (r"%f1\n", "%%\n"),
    (r"%%\n", "%d\n"),
    (r"%d\n", "%%\n"),
    (
        r"%%([^%]*#x: )([^;\n]*);([^\n]*)(\n#y: )[^\n]*([^%]*)",
        r"%k\1\4\2\5%%\1\3\4\2\5",
    ),
    (r"%k\n", "%%\n"),
    (r"%%\n#stack:\nF\n[^%]*", ""),
    (r"(%%[^%]*#x: )([^;\n]*;)\2+", r"\1\2"),
    (r"%`\n", "%%\n"),
    (r"(%%\n#stack:\n)", r"\1%`\n"),
    (r"q", "qq"),
    (r"(#y: [^\n]*)1", r"\1"),
    (r"(%%[^%]*#x: )(?=1)", r"\1+"),
    (r"(?<=[;\n])([ab]);", r"\1,"),
    (r"1(?=\n)", "2"),
    (r"(%%\n#stack:\n)(?![TF]\n)", r"\1F\n"),
    (r"(?<![;\n])b", "B"),
];

/// Rewrites whose matches can cross a thread, or that look around past
/// their thread.
const CROSSING: &[(&str, &str)] = &[
    (r"%%\n#stack:\n([^%]*)%%\n#stack:\n", r"%%\n#stack:\n\1"),
    (r"(%%\n#stack:\n)F\n[^\n]*\n[^\n]*\n", r"\1"),
    (r"\n%f1", "\n%%"),
    (r"^([^%]*)", r"\1;"),
    (r"(?<=\n)%%\n#stack:\nT\n", "%%\n#stack:\n"),
    (r"[^\n]*\n%t\n", "%t\n"),
    (r"(?m)^#y: $", "#y: 1"),
    (r"1(?=[^\n]*\n)", "9"),
    (r"(?<!1\n)%%\n#stack:\n", "%%\n#stack:\nN\n"),
    (r"(#y: [^\n]*)(?=%)", r"\1!"),
    (r"(%%\n#stack:\n)(?![^%]*%t)", r"\1L\n"),
];

fn rewrite() -> impl Strategy<Value = (&'static str, &'static str)> {
    prop_oneof![
        6 => prop::sample::select(THREAD_LOCAL),
        1 => prop::sample::select(CROSSING),
    ]
}

/// A thread: a head, stack items, the variables `x` and `y` (most of
/// the time), ended by `\n` (most of the time).
fn thread() -> impl Strategy<Value = String> {
    let head = prop::sample::select(&["%%\n", "%%\n", "%%\n", "%t\n", "%f1\n", "%`\n", "%d\n"][..]);
    let item = prop::sample::select(&["T", "F", "q", "a;b;", "1", "", "x"][..]);
    let value = prop::sample::select(&["", "1", "a;a;b;", "q;", "11", "ab"][..]);
    (
        head,
        prop::collection::vec(item, 0..3),
        prop::option::weighted(0.85, (value.clone(), value)),
        prop::bool::weighted(0.9),
    )
        .prop_map(|(head, items, vars, lined)| {
            let mut t = format!("{head}#stack:\n");
            for i in items {
                t.push_str(i);
                t.push('\n');
            }
            if let Some((x, y)) = vars {
                t.push_str(&format!("#x: {x}\n#y: {y}\n"));
            }
            if !lined {
                t.pop();
            }
            t
        })
}

fn state() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["", "screen\n", "a;b;\n"][..]),
        prop::collection::vec(thread(), 1..14),
    )
        .prop_map(|(prefix, threads)| format!("{prefix}{}", threads.concat()))
}

/// Stretches of thread-local rewrites with crossing ones among them.
fn pairs() -> impl Strategy<Value = Vec<(&'static str, &'static str)>> {
    prop::collection::vec(rewrite(), 8..28)
}

/// 4,000 cases, or `PROPTEST_CASES` when it is set.
fn config() -> ProptestConfig {
    let cases: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// The table (always, mixed with the whole state, and at the default
    /// prices) leaves the plain loop's bytes, and counts its peak of
    /// threads (asked only after a rewrite that can add threads).
    #[test]
    fn table_equals_naive(pairs in pairs(), state in state()) {
        let program = program(&pairs);
        let (want, plain) = run(&program, &state, naive());
        for visit_bytes in [0, 24, Config::default().visit_bytes] {
            let (got, stats) = run(&program, &state, table(visit_bytes));
            prop_assert_eq!(&got, &want, "visit_bytes {}\n{}\nstate {:?}", visit_bytes, program, state);
            if let (Some(a), Some(b)) = (&stats, &plain) {
                prop_assert_eq!(a.peak_threads, b.peak_threads, "{}\nstate {:?}", program, state);
            }
        }
        let (got, _) = run(&program, &state, Config { table_bytes: 0, parallel: false, ..Config::default() });
        prop_assert_eq!(&got, &want);
    }
}

#[test]
fn generated_programs_do_run_on_the_table() {
    // A guard that the generators exercise the table: a fixed program of
    // them, on a fixed state, runs most of its rewrites there.
    let pairs: Vec<(&str, &str)> = THREAD_LOCAL.to_vec();
    let state = "pre\n%%\n#stack:\nT\n#x: a;a;b;\n#y: 1\n%t\n#stack:\n#x: \n#y: \n%%\n#stack:\nq\nF\n#x: 1\n#y: ab\n";
    let stats = same_as_naive(&pairs, state, 0);
    assert!(stats.on_table >= pairs.len() / 2, "{stats:?}");
}
