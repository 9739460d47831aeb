//! Unit tests of the executor: rewrites in order with replace-all, the
//! fast paths against the plain loop, two-halves stretches, typed errors.

use super::analysis;
use super::cache::Cache;
use super::gate::Found;
use super::loops::MIN_STRETCH;
use super::step::LoopState;
use super::*;
use crate::program::{Origin, Rewrite};
use crate::program::{Program, Template};

fn run(program: &Program, state: &str, naive: bool) -> String {
    let exec = Executor::new(
        program,
        Config {
            naive,
            ..Config::default()
        },
    )
    .unwrap();
    let mut s = state.to_string();
    exec.run(&mut s).unwrap();
    s
}

#[test]
fn applies_rewrites_in_order_with_replace_all() {
    let p = Program::new(vec![
        Rewrite::new("a", Template::literal("b")),
        Rewrite::new("(b)(b)", Template::new().group(2).text("c").group(1)),
        Rewrite::new(r"(c)\1*", Template::literal("<").group(1).text(">")),
    ]);
    // a->b: "bbbxb"; (b)(b)->"bcb": "bcbbxb"; (c)\1* -> "<c>".
    assert_eq!(run(&p, "aaaxa", false), "b<c>bbxb");
    assert_eq!(run(&p, "aaaxa", false), run(&p, "aaaxa", true));
}

#[test]
fn a_group_around_the_whole_pattern_is_the_whole_match() {
    use analysis::whole_match_group;
    assert_eq!(whole_match_group(r"(a[)]b\))"), Some(r"a[)]b\)"));
    assert_eq!(whole_match_group(r"(%%\n[^%]*)"), Some(r"%%\n[^%]*"));
    // A class that starts with `]` holds the `)(`.
    assert_eq!(whole_match_group(r"([])(])"), Some(r"[])(]"));
    for p in [
        r"(a)(b)", r"(a)|(b)", r"(a(b))", r"(?:ab)", r"a(b)", r"(a)b",
    ] {
        assert_eq!(whole_match_group(p), None, "{p}");
    }
    let p = Program::new(vec![Rewrite::new(
        r"(x+)",
        Template::literal("<").group(1).text(">"),
    )]);
    assert_eq!(run(&p, "axxbx", false), "a<xx>b<x>");
    assert_eq!(run(&p, "axxbx", true), "a<xx>b<x>");
}

#[test]
fn back_references_tried_only_where_the_prefix_is() {
    let p = Program::new(vec![Rewrite::new(
        r"%%\n#stack:\n([^#%\n]*)\n\1\n",
        Template::literal("%%\n#stack:\nT\n"),
    )]);
    let state = "x\n%%\n#stack:\nab\nab\n#v:1\n%%\n#stack:\nab\nabc\n\
                 %%\n#stack:\n\n\n%t\n#stack:\nq\nq\n%%\n#stack:\nq\nq\n";
    let fast = run(&p, state, false);
    assert_eq!(fast, run(&p, state, true));
    assert_eq!(
        fast,
        "x\n%%\n#stack:\nT\n#v:1\n%%\n#stack:\nab\nabc\n\
         %%\n#stack:\nT\n%t\n#stack:\nq\nq\n%%\n#stack:\nT\n"
    );
}

#[test]
fn state_cap_is_a_typed_error() {
    let p = Program::new(vec![
        Rewrite::new("x", Template::literal("xxxxxxxx")),
        Rewrite::new("x", Template::literal("xxxxxxxx")),
    ]);
    let exec = Executor::new(
        &p,
        Config {
            max_state_bytes: 20,
            ..Config::default()
        },
    )
    .unwrap();
    let mut s = "xx".to_string();
    match exec.run(&mut s) {
        Err(ExecError::StateTooLarge {
            rewrite,
            len,
            limit,
        }) => {
            assert_eq!((rewrite, len, limit), (1, 128, 20));
        }
        other => panic!("expected StateTooLarge, got {other:?}"),
    }
}

/// An executor that splits every state of a few bytes or more.
fn splitting(program: &Program, max_state_bytes: usize) -> Executor {
    Executor::new(
        program,
        Config {
            split_bytes: 16,
            max_state_bytes,
            ..Config::default()
        },
    )
    .unwrap()
}

/// A state of `n` active threads, each holding `#a:1`.
fn threads(n: usize) -> String {
    "screen\n".to_string() + &"%%\n#stack:\n#a:1\n".repeat(n)
}

/// Runs the steps `steps` of `exec` as one stretch on two halves of
/// `state`, adding to `stats`: whether the halves vouched for it.
fn stretch(
    exec: &Executor,
    steps: std::ops::Range<usize>,
    state: &mut String,
    stop: &Stop,
    stats: &mut Stats,
) -> bool {
    let Cache { pad, halves, .. } = &mut Cache::default();
    let lane = LoopState {
        ascii: state.is_ascii(),
        stop,
        found: Found::new(exec.probes.len()),
        pad,
    };
    exec.run_halves(steps, state, &lane, stats, halves).unwrap()
}

/// Runs the whole program of `exec` as one stretch on two halves.
fn halves(exec: &Executor, state: &mut String) -> (bool, Stats) {
    let mut stats = exec.new_stats(state);
    let ran = stretch(exec, 0..exec.steps.len(), state, &Stop::never(), &mut stats);
    (ran, stats)
}

#[test]
fn halves_give_the_bytes_of_the_whole() {
    // Forks, edits and deletions, all inside one thread each.
    let mut rewrites = vec![
        Rewrite::new(
            r"%%\n#stack:\n([^%]*)",
            Template::literal("%%\n#stack:\n")
                .group(1)
                .text("%%\n#stack:\n")
                .group(1),
        ),
        Rewrite::new(r"#a:1\n", Template::literal("#a:2\n")),
    ];
    for i in 0..MIN_STRETCH {
        rewrites.push(Rewrite::new(
            format!("#a:{}\n", i + 2),
            Template::literal(&format!("#a:{}\n#b:{i}\n", i + 3)),
        ));
    }
    rewrites.push(Rewrite::new(r"%%\n#stack:\n#a:5\n[^%]*", Template::new()));
    let p = Program::new(rewrites);
    let exec = splitting(&p, 1 << 20);
    assert_eq!(exec.stretch_end[0], p.len(), "one stretch");
    let mut whole = threads(40);
    let mut split = whole.clone();
    let sw = Executor::new(
        &p,
        Config {
            naive: true,
            ..Config::default()
        },
    )
    .unwrap()
    .run(&mut whole)
    .unwrap();
    let (ran, sh) = halves(&exec, &mut split);
    assert!(ran, "the stretch ran on two halves");
    assert_eq!(split, whole);
    assert_eq!(
        (sh.changed, sh.peak_state_bytes, sh.peak_threads),
        (sw.changed, sw.peak_state_bytes, sw.peak_threads)
    );
}

#[test]
fn a_half_that_loses_its_head_falls_back_to_the_whole() {
    // The first rewrite turns every thread head into plain text: the
    // second half no longer starts a thread, and the next rewrites
    // pair lines across the cut (13 threads before it, 12 after).
    let mut rewrites = vec![Rewrite::new(
        r"%%\n#stack:\n#a:1\n",
        Template::literal("#a:1\n"),
    )];
    for _ in 0..MIN_STRETCH {
        rewrites.push(Rewrite::new(r"#a:1\n#a:1\n", Template::literal("#a:2\n")));
    }
    let p = Program::new(rewrites);
    let exec = splitting(&p, 1 << 20);
    let mut split = threads(25);
    let (ran, _) = halves(&exec, &mut split);
    assert!(!ran, "the halves could not vouch for the result");
    assert_eq!(split, threads(25), "and left the state as it was");
    let mut state = threads(25);
    exec.run(&mut state).unwrap();
    assert_eq!(state, run(&p, &threads(25), true));
}

#[test]
fn a_stretch_over_the_cap_stops_where_the_whole_would() {
    let mut rewrites = Vec::new();
    for _ in 0..MIN_STRETCH {
        rewrites.push(Rewrite::new(
            r"%%\n#stack:\n([^%]*)",
            Template::literal("%%\n#stack:\n")
                .group(1)
                .text("%%\n#stack:\n")
                .group(1),
        ));
    }
    let p = Program::new(rewrites);
    let cap = 3000;
    let (mut a, mut b) = (threads(8), threads(8));
    let whole = Executor::new(
        &p,
        Config {
            parallel: false,
            max_state_bytes: cap,
            ..Config::default()
        },
    )
    .unwrap()
    .run(&mut a);
    let halves = splitting(&p, cap).run(&mut b);
    let rewrite = |r: Result<Stats, ExecError>| match r {
        Err(ExecError::StateTooLarge { rewrite, .. }) => rewrite,
        other => panic!("expected StateTooLarge, got {other:?}"),
    };
    assert_eq!(rewrite(halves), rewrite(whole));
    assert_eq!(b, a);
}

#[test]
fn bad_pattern_is_a_compile_error() {
    let p = Program::new(vec![
        Rewrite::new("a", Template::new()),
        Rewrite::new("(", Template::new()),
    ]);
    let err = Executor::new(&p, Config::default()).err().unwrap();
    assert_eq!(err.index, 1);
}

#[test]
fn fancy_backtrack_limit_is_a_typed_error() {
    let p = Program::new(vec![Rewrite::new(r"(a*)*\1b", Template::new())]);
    let exec = Executor::new(
        &p,
        Config {
            fancy_backtrack_limit: 1000,
            ..Config::default()
        },
    )
    .unwrap();
    // The `b` every match needs is present, so the search really runs.
    let mut s = "a".repeat(40) + "cb";
    let err = exec.run(&mut s).unwrap_err();
    assert!(
        matches!(err, ExecError::FancyRegex { rewrite: 0, .. }),
        "{err:?}"
    );
    // The engine's own error is kept as the source, not flattened into
    // the message.
    let cause = std::error::Error::source(&err)
        .and_then(|s| s.downcast_ref::<fancy_regex::Error>())
        .expect("fancy-regex's error is the source");
    assert!(!err.to_string().contains(&cause.to_string()), "{err}");
}

#[test]
fn debug_lists_the_program_with_the_path_of_each_rewrite() {
    let origin = |instr, name: &str| Origin {
        instr,
        name: name.into(),
    };
    let p = Program::new(vec![
        Rewrite::new("abc", Template::literal("x")).with_origin(origin(0, "push")),
        Rewrite::new(r"(a)\1", Template::new()).with_origin(origin(1, "eq")),
    ]);
    let exec = Executor::new(&p, Config::default()).unwrap();
    let listing = format!("{exec:?}");
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 5, "{listing}");
    assert!(
        lines[0].starts_with("Executor: 2 rewrites, 2 compiled patterns"),
        "{listing}"
    );
    // The instruction lines and rewrite lines of Program's own listing,
    // each rewrite line followed by the path it runs on.
    let plain: Vec<String> = p.to_string().lines().map(str::to_string).collect();
    assert_eq!(plain.len(), 4);
    for (line, plain) in lines[1..].iter().zip(&plain) {
        assert!(line.starts_with(plain.as_str()), "{line} / {plain}");
    }
    assert_eq!(lines[1], "000: push");
    assert!(lines[2].contains("  (regex"), "{listing}");
    assert_eq!(lines[3], "001: eq");
    assert!(lines[4].contains("fancy-regex"), "{listing}");
}

#[test]
fn a_branchy_pattern_runs_anchored_at_its_prefix_past_pieces_without_its_mark() {
    // The shape of the chess program's attack tests: a board line, a mark
    // on it, branches at fixed distances. Our matcher declines it (many
    // branch points), so the `regex` crate runs it at each `#z:` whose
    // piece has an `A` (the one-byte needle), not over the whole state.
    let pattern = r"(#z:[^%\n]*?)A((?:[^%\n]{2}[P]|[^%\n]{3}[N]|[K]|(?:[.,])*[RQ]|(?:[^%\n]{4}[.,])*[^%\n]{4}[B]))";
    assert_eq!(analysis::analyse(pattern).needle.as_deref(), Some("A"));
    let p = Program::new(vec![Rewrite::new(
        pattern,
        Template::new().group(1).text("D").group(2),
    )]);
    let exec = Executor::new(&p, Config::default()).unwrap();
    assert!(
        format!("{exec:?}").contains("(regex anchored at the prefix; reach AnyPiece"),
        "{exec:?}"
    );
    let boards = [
        "#z:..A.P.\n",
        "#z:.A..N\n",
        "#z:AK\n",
        "#z:A..,R\n",
        "#z:A....B\n",
        "#z:A...x\nA.P\n",
        "#z:..P.A\n",
        "#z:A.,.A.P\n",
        "#z:.....\n#a:A.P\n",
    ];
    let mut state = String::from("#z:A.P\n");
    for (i, b) in boards.iter().cycle().take(80).enumerate() {
        state.push_str(if i % 3 == 0 { "%%\n" } else { "%t\n" });
        state.push_str("#stack:\n");
        state.push_str(b);
    }
    let fast = run(&p, &state, false);
    assert_eq!(fast, run(&p, &state, true));
    assert_ne!(fast, state);
}

#[test]
fn a_run_whose_stop_is_due_stops_before_the_first_rewrite_it_would_run() {
    let p = Program::new(vec![
        Rewrite::new("a", Template::literal("b")),
        Rewrite::new("b", Template::literal("c")),
    ]);
    for naive in [false, true] {
        let exec = Executor::new(
            &p,
            Config {
                naive,
                ..Config::default()
            },
        )
        .unwrap();
        let mut s = "aaa".to_string();
        let err = exec
            .run_until(&mut s, &Stop::at(std::time::Instant::now()))
            .unwrap_err();
        assert!(
            matches!(
                err,
                ExecError::Stopped {
                    rewrite: 0,
                    reason: StopReason::Deadline
                }
            ),
            "{err:?}"
        );
        assert_eq!(s, "aaa", "nothing ran");
        // A deadline an hour away is the plain run.
        let later = std::time::Instant::now() + Duration::from_secs(3600);
        let mut s = "aaa".to_string();
        exec.run_until(&mut s, &Stop::at(later)).unwrap();
        assert_eq!(s, "ccc");
    }
}

#[test]
fn a_stretch_on_two_halves_gives_up_when_the_stop_is_due() {
    let p = Program::new(
        (0..MIN_STRETCH)
            .map(|_| Rewrite::new("(%%\n#stack:\n)", Template::new().group(1).text("x\n")))
            .collect(),
    );
    let exec = Executor::new(&p, Config::default()).unwrap();
    let mut state = threads(600);
    let before = state.clone();
    let mut stats = exec.new_stats(&state);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let ran = stretch(
        &exec,
        0..p.len(),
        &mut state,
        &Stop::on_flag(flag),
        &mut stats,
    );
    assert!(!ran, "the stretch goes back to the one-at-a-time loop");
    assert_eq!(state, before, "state untouched");
}

#[test]
fn a_pattern_too_large_to_build_is_refused_when_it_first_runs() {
    // The syntax is read at load: a bad one is refused there.
    let bad = Program::new(vec![Rewrite::new("a(b", Template::literal("x"))]);
    let e = Executor::new(&bad, Config::default()).expect_err("refused at load");
    assert_eq!(e.index, 0);
    // An automaton past the size limit is found when its rewrite runs,
    // and named; the rewrites before it ran.
    let big = r"\w{1000}\w{1000}\w{1000}";
    let p = Program::new(vec![
        Rewrite::new("a", Template::literal("b")),
        Rewrite::new(big, Template::literal("x")),
    ]);
    let exec = Executor::new(&p, Config::default()).expect("loads");
    let mut s = "aa".to_string();
    match exec.run(&mut s) {
        Err(ExecError::TooLarge { rewrite: 1, source }) => {
            assert!(
                matches!(source, regex::Error::CompiledTooBig(_)),
                "{source:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s, "bb");
}

#[test]
fn an_ascii_form_too_large_to_build_leaves_the_python_engine_to_run() {
    // `\w` is Python's: our engine runs it, and on ASCII states its
    // ASCII form would, but that form is past the `regex` crate's limit.
    let pattern = r"(?:(?:\w{1000}){100}){10}|%(\d)";
    let p = crate::python::load(&[(pattern.to_string(), r"<\1>".to_string())]).expect("loads");
    let exec = Executor::new(&p, Config::default()).expect("loads");
    let mut s = "a%1b%2".to_string();
    exec.run(&mut s).expect("runs on the Python engine");
    // re.sub(pattern, r"<\1>", "a%1b%2")
    assert_eq!(s, "a<1>b<2>");
}

/// The path `Debug` lists for a one-rewrite program read as CPython
/// reads it, and what it makes of `state`.
fn python_path_and_result(pattern: &str, replacement: &str, state: &str) -> (String, String) {
    let p = crate::python::load(&[(pattern.to_string(), replacement.to_string())]).expect("loads");
    let exec = Executor::new(&p, Config::default()).expect("compiles");
    let mut s = state.to_string();
    exec.run(&mut s).expect("runs");
    (exec.path(0).expect("one rewrite").to_string(), s)
}

#[test]
fn an_ascii_form_searched_everywhere_leaves_a_pattern_with_a_literal_start_to_ours() {
    // The form `(?s)BEGIN(.*?)END` has in the `regex` crate's syntax
    // is searched over the whole text; every match starts with `BEGIN`,
    // where ours is tried.
    let (path, s) = python_path_and_result(
        r"(?s)BEGIN(.*?)END",
        r"<\1>",
        "xBEGIN a\nb END yBEGINEND zBEGIN q",
    );
    assert_eq!(path, "python engine");
    // re.sub(r"(?s)BEGIN(.*?)END", r"<\1>", "xBEGIN a\nb END yBEGINEND zBEGIN q")
    assert_eq!(s, "x< a\nb > y<> zBEGIN q");
}

#[test]
fn an_ascii_form_stays_where_matches_have_no_literal_start_of_two_bytes() {
    // No literal start: the crate's search over the text stays.
    let (path, s) = python_path_and_result(r"(?m)^(.*?),(.*?)$", r"\2,\1", "a,b\nc,d,e\nf");
    assert_eq!(path, "python engine; on ASCII states the regex crate");
    // re.sub(r"(?m)^(.*?),(.*?)$", r"\2,\1", "a,b\nc,d,e\nf")
    assert_eq!(s, "b,a\nd,e,c\nf");
    // A one-byte start is too common to try ours at.
    let (path, s) = python_path_and_result(r"(?s)B(.*?)E", r"<\1>", "xB a\nb E yBE");
    assert_eq!(path, "python engine; on ASCII states the regex crate");
    // re.sub(r"(?s)B(.*?)E", r"<\1>", "xB a\nb E yBE")
    assert_eq!(s, "x< a\nb > y<>");
}
