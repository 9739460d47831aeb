//! The executor's fast loop against its plain loop, on programs it did not
//! write. Every program here is what the JSON reader would accept (any
//! pattern that compiles on the engine `Engine::of_pattern` picks); the
//! fast executor (gates, skip needles, anchored and literal paths, our own
//! matcher, stretches on two halves) must leave exactly the bytes the plain
//! loop leaves, or fail the same way. Patterns are generated around thread
//! heads the way a foreign program might write them: plain, anchored with
//! `^`, with `?`, `*` or `|` around `%%`, with groups and back-references;
//! states hold text before the first thread, active threads, paused
//! threads, marked threads and stray `%`. The four shapes the text-reading
//! analysis got wrong are regression tests with their expected bytes.

use proptest::prelude::*;
use regex_vm::{Config, ExecError, Executor, Program, Rewrite, Template};

/// The fast loop (two halves from the smallest states on, when `halves`)
/// and the plain loop on `state`: each run's end state or error message.
fn both(program: &Program, state: &str, halves: bool) -> Option<(String, String)> {
    let fast = Config {
        split_bytes: if halves {
            0
        } else {
            Config::default().split_bytes
        },
        ..Config::default()
    };
    let naive = Config {
        naive: true,
        ..Config::default()
    };
    let run = |config: Config| -> Option<Result<String, ExecError>> {
        let exec = Executor::new(program, config).ok()?;
        let mut s = state.to_string();
        Some(exec.run(&mut s).map(|_| s))
    };
    let show = |r: Result<String, ExecError>| r.unwrap_or_else(|e| format!("error: {e}"));
    let fast = run(fast)?;
    let naive = match run(naive.clone())? {
        // The plain loop tries every place, the fast one only the places
        // that can match, so the plain loop can run out of fancy-regex's
        // backtrack budget where the fast loop does not: such a case is
        // decided again with a budget a hundred times larger, and has no
        // reference (a reject) if even that runs out.
        Err(ExecError::FancyRegex { .. }) if fast.is_ok() => {
            let generous = Config {
                fancy_backtrack_limit: 100 * naive.fancy_backtrack_limit,
                ..naive
            };
            match run(generous)? {
                Err(ExecError::FancyRegex { .. }) => return None,
                other => other,
            }
        }
        other => other,
    };
    Some((show(fast), show(naive)))
}

/// `state` after one pass of `program` with `config`; a program that does
/// not compile or run fails the test.
fn run_on(program: &Program, state: &str, config: Config) -> String {
    let mut s = state.to_string();
    let exec = Executor::new(program, config).expect("compiles");
    exec.run(&mut s).expect("runs");
    s
}

fn one(pattern: &str, replacement: Template) -> Program {
    Program::new(vec![Rewrite::new(pattern, replacement)])
}

#[test]
fn the_four_shapes_read_from_text_are_fixed() {
    let cases = [
        (r"%%?x\n", "Y\n", "%x\n#stack:\n", "Y\n#stack:\n"),
        (r"(%%\n)?abc", "Z", "abc\n%x\n#stack:\n", "Z\n%x\n#stack:\n"),
        (r"%%\n|abc", "Z", "abc%%\n#stack:\n", "ZZ#stack:\n"),
        (r"%%x|abc", "Z", "abc\n", "Z\n"),
    ];
    for (pattern, replacement, state, expected) in cases {
        for halves in [false, true] {
            let (fast, naive) = both(&one(pattern, Template::literal(replacement)), state, halves)
                .expect("compiles");
            assert_eq!(naive, expected, "{pattern:?} naive");
            assert_eq!(fast, expected, "{pattern:?} fast (halves: {halves})");
        }
    }
}

#[test]
fn back_reference_patterns_anchored_at_a_place_see_no_text_before_it() {
    // Not portable (a look-behind): must not be run anchored at each
    // place its prefix occurs.
    let p = one(r"b(?<=ab)(c)\1", Template::literal("Z"));
    let (fast, naive) = both(&p, "abcc xbcc", false).expect("compiles");
    assert_eq!(naive, "aZ xbcc");
    assert_eq!(fast, naive);
}

/// Groups cut from the whole match by their fixed distances from its
/// ends (`analysis::fixed_groups`), on the `regex` crate searched over
/// the state and anchored at thread heads: the same bytes as a capture
/// search, each group read through the template, one after another and
/// swapped, with our own matcher on and off.
#[test]
fn groups_cut_from_the_whole_match_equal_a_capture_search() {
    let patterns = [
        r"(#z:[^%\n]*?(?:[p][^%\n]{2}|[n]|[rq](?:[.,])*))\*",
        r"(#z:[^%\n]*?)A((?:[^%\n]{2}[P]|(?:[.,])*[RQ]))",
        r"(#z:[^%\n]*)[AD135]",
        r"#z:([^%\n]*)\n",
        r"(a)[^%]*?(b.)x",
        r"%%\n([^%]*?#z:)([^%\n]*)(\n)",
        r"(%%\n#stack:\n)([^\n]*)\n[^%]*?(#z:)",
        r"(#z:[^%\nPQ]*[pq][^%\nPQ]*\n[^%]*?#s:[^%\n]*\n)",
        r"#z:[^%\nPQ]*[pq]([^%\nPQ]*)\n",
    ];
    let states = [
        "%%\n#stack:\n#z:..p..*.n*rq.,*\n%t\n#z:p..*\n",
        "pre\n%%\n#stack:\n1\n#z:A..PA.,RxA\n%%\n#stack:\n#z:5D3\n",
        "%%\n#stack:\nab\n#z:\nabxab x abbx\n%`\n#z:nnn*\n",
        "%%\n#z:.p.q..\n#s:1\n%%\n#z:p.P.q\n#s:2\n%t\n#z:..q\nx\n#s:\n",
    ];
    for pattern in patterns {
        let groups = regex::Regex::new(pattern).map_or(0, |r| r.captures_len() - 1);
        for state in states {
            let mut t = Template::literal("<");
            for n in (0..=groups).rev() {
                t = t.group(n).text("|");
            }
            for template in [t, Template::new().group(groups).text("Q").group(1)] {
                let program = one(pattern, template);
                let run = |config: Config| run_on(&program, state, config);
                let naive = run(Config {
                    naive: true,
                    ..Config::default()
                });
                // Our own matcher off: the `regex` crate runs every pattern.
                for own_matcher in [true, false] {
                    for split_bytes in [0, Config::default().split_bytes] {
                        let fast = run(Config {
                            own_matcher,
                            split_bytes,
                            ..Config::default()
                        });
                        assert_eq!(fast, naive, "{program}\nstate {state:?}");
                    }
                }
            }
        }
    }
}

/// Back-reference patterns left to fancy-regex (our matcher off) with no
/// backtracking budget, as `regex-chess run` sets it: each place is then
/// cut to its piece, and the bytes are the plain loop's.
#[test]
fn fancy_regex_on_cut_places_equals_the_plain_loop() {
    let patterns = [
        r"(%%\n#stack:\n)([^\n]*)\n\2\n",
        r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2: )([^#%\n]*)",
        r"(%%\n#stack:\n)(A*)(A+)\n\2\n",
        r"(%%[^%]*#s: [^\n]*)([^;\n]*;)\2+([^%\n]*)",
        r"(%t\n#stack:\n)([^\n]*)\n\2\n",
        r"(#s: )([^;\n]*;)\2",
    ];
    let states = [
        "%%\n#stack:\nx\nx\n#x: 1\n%%\n#stack:\ns\nq\n#s: a;a;b;\n%t\n#stack:\nq\nq\n",
        "pre #s: u;u;\n%%\n#stack:\nAA\nA\n#s: ;;\n%%\n#stack:\ns\n#s: c;c;c;d\n%%\n#stack:\n",
        "%%\n#stack:\n\n\n%`\n#stack:\nx\nx\n%%\n#stack:\nx\n#x: y\n%%\n#stack:\nx\nx\n",
    ];
    for pattern in patterns {
        for state in states {
            let program = one(
                pattern,
                Template::new().group(1).text("|").group(2).text("|"),
            );
            let run = |config: Config| run_on(&program, state, config);
            let naive = run(Config {
                naive: true,
                fancy_backtrack_limit: usize::MAX,
                ..Config::default()
            });
            for split_bytes in [0, Config::default().split_bytes] {
                let fast = run(Config {
                    own_matcher: false,
                    fancy_backtrack_limit: usize::MAX,
                    split_bytes,
                    ..Config::default()
                });
                assert_eq!(fast, naive, "{program}\nstate {state:?}");
            }
        }
    }
}

/// Heads and things around them, as a foreign program might write them.
const HEADS: &[&str] = &[
    r"%%\n",
    r"%%",
    r"%%?",
    r"(%%\n)?",
    r"(?:%%\n)*",
    r"%`\n",
    r"%t\n",
    r"%t1\n",
    r"%",
    r"%?",
    "",
    "",
];

/// Pieces of a pattern body.
const ATOMS: &[&str] = &[
    "a",
    "b",
    "x",
    "#s:",
    r"\n",
    "#",
    ":",
    r"[^%]*",
    r"[^%]*?",
    r"[^%\n]*",
    r"[^%\n]+",
    r"[^\n]*",
    r"[ab]+",
    r"[ab]*?",
    r".",
    r"x?",
    r"(?:a|b)",
    r"(?:#|x\n)",
    "%",
    r"\n?",
];

fn atom() -> impl Strategy<Value = String> {
    prop::sample::select(ATOMS).prop_map(str::to_string)
}

/// A body: atoms, some inside a capture group, then maybe a
/// back-reference to the first group.
fn body() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(atom(), 0..3),
        prop::collection::vec(atom(), 1..3),
        prop::collection::vec(atom(), 0..3),
        0..4usize,
    )
        .prop_map(|(before, group, after, shape)| {
            let (before, group, after) = (before.concat(), group.concat(), after.concat());
            match shape {
                0 => format!("{before}{group}{after}"),
                1 => format!("{before}({group}){after}"),
                2 => format!(r"{before}({group}){after}\1"),
                _ => format!(r"({before})({group})\n?\2{after}"),
            }
        })
}

/// A pattern: a head and a body, maybe anchored, maybe one side of an
/// alternation (at the top or inside a group).
fn pattern() -> impl Strategy<Value = String> {
    (
        prop::sample::select(HEADS),
        body(),
        0..8usize,
        body(),
        prop::sample::select(HEADS),
    )
        .prop_map(|(head, body, shape, other, other_head)| match shape {
            0 => format!("^{head}{body}"),
            1 => format!("{head}{body}|{other_head}{other}"),
            2 => format!("(?:{head}{body}|{other}){other_head}"),
            3 => format!("({head}{body})"),
            _ => format!("{head}{body}"),
        })
}

/// A replacement: literal text (thread heads among it) and group numbers.
fn replacement() -> impl Strategy<Value = Template> {
    let piece = prop_oneof![
        3 => prop::sample::select(&["Y", "", "\n", "a", "%%\n", "%t\n", "#s:", "%"][..])
            .prop_map(|s| (Some(s), 0usize)),
        2 => (0..3usize).prop_map(|n| (None, n)),
    ];
    prop::collection::vec(piece, 0..3).prop_map(|pieces| {
        pieces
            .into_iter()
            .fold(Template::new(), |t, (text, n)| match text {
                Some(s) => t.text(s),
                None => t.group(n),
            })
    })
}

/// One thread or the text before the first thread.
fn thread() -> impl Strategy<Value = String> {
    let head = prop::sample::select(&["%%\n", "%t\n", "%t1\n", "%`\n", "%%", "%", ""][..]);
    let text = prop::collection::vec(
        prop::sample::select(&["a", "b", "x", "#s:", "\n", "#", ":", "ab\n", "%"][..]),
        0..6,
    );
    (head, text).prop_map(|(h, t)| format!("{h}{}", t.concat()))
}

fn state() -> impl Strategy<Value = String> {
    prop::collection::vec(thread(), 0..8).prop_map(|v| v.concat())
}

/// Programs of one to ten rewrites; a pattern the engines refuse, or a
/// replacement naming a group the pattern lacks, makes the case a reject.
fn program() -> impl Strategy<Value = Program> {
    prop::collection::vec((pattern(), replacement()), 1..10)
        .prop_map(|rs| Program::new(rs.into_iter().map(|(p, t)| Rewrite::new(p, t)).collect()))
}

fn groups(pattern: &str) -> Option<usize> {
    let re = fancy_regex::Regex::new(pattern).ok()?;
    Some(re.captures_len() - 1)
}

/// 10 000 cases in all, or `PROPTEST_CASES` when it is set (proptest's
/// own variable), shared by the two tests below (a half each, so the test
/// threads run them side by side); a failing case is saved, shrunk, to
/// `fast_equals_naive.proptest-regressions` beside this file and replayed
/// first on every later run by both (commit that file, as proptest
/// recommends).
fn config() -> ProptestConfig {
    let cases: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    ProptestConfig {
        cases: cases.div_ceil(2),
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    }
}

/// Fast equals naive on `program` over `state`, on one piece at a time or
/// on two halves.
fn fast_equals_naive(program: &Program, state: &str, halves: bool) -> Result<(), TestCaseError> {
    for r in program.rewrites() {
        let n = groups(&r.pattern);
        prop_assume!(n.is_some_and(|n| r.replacement.max_group() <= n));
    }
    let Some((fast, naive)) = both(program, state, halves) else {
        return Err(TestCaseError::reject(
            "does not compile, or has no reference",
        ));
    };
    prop_assert_eq!(fast, naive, "{}\nstate {:?}", program, state);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Fast equals naive on generated programs and states, one piece at
    /// a time.
    #[test]
    fn fast_equals_naive_on_pieces(program in program(), state in state()) {
        fast_equals_naive(&program, &state, false)?;
    }

    /// Fast equals naive on generated programs and states, on two halves.
    #[test]
    fn fast_equals_naive_on_halves(program in program(), state in state()) {
        fast_equals_naive(&program, &state, true)?;
    }
}
