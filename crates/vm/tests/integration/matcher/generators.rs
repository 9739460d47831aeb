//! The proptest strategies of the matcher's differential tests: patterns
//! shaped like the portable subset and run-shaped patterns, random and
//! fragment haystacks, the proptest configuration (case counts,
//! `PROPTEST_CASES`, the regressions file) and the check of one generated
//! pattern on its haystacks. It holds no test of its own.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use regex_vm::backtrack::Matcher;

use super::data::*;
use super::sample::sampled_hays;
use super::{check, reference, Checked};

/// `c` as a pattern literal.
pub(crate) fn escape(c: u8) -> String {
    match c {
        b'\n' => r"\n".to_string(),
        b'|' | b'*' | b'.' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'^'
        | b'$' | b'\\' => format!("\\{}", char::from(c)),
        _ => char::from(c).to_string(),
    }
}

/// A quantifier, greedy or lazy.
pub(crate) fn quantifier() -> impl Strategy<Value = String> {
    let base = prop_oneof![
        4 => Just("*".to_string()),
        3 => Just("+".to_string()),
        3 => Just("?".to_string()),
        2 => (0u32..6).prop_map(|m| format!("{{{m}}}")),
        3 => (0u32..5, 0u32..5).prop_map(|(m, d)| format!("{{{m},{}}}", m + d)),
        1 => (0u32..4).prop_map(|m| format!("{{{m},}}")),
    ];
    (base, prop::bool::weighted(0.35)).prop_map(|(q, lazy)| if lazy { q + "?" } else { q })
}

/// A single character or a class: something a quantifier applies to.
pub(crate) fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => prop::sample::select(LIT_CHARS).prop_map(escape),
        5 => prop::sample::select(CLASSES).prop_map(str::to_string),
        1 => word_list(),
        1 => fixed_run(),
    ]
}

/// An alternation of short literals, such as `(?:a8|b8|c7)` (often none a
/// prefix of another, which the matcher runs as a word list).
pub(crate) fn word_list() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        3 => (prop::sample::select(&b"abcdefgh"[..]), prop::sample::select(&b"12345678"[..]))
            .prop_map(|(f, r)| format!("{}{}", char::from(f), char::from(r))),
        1 => prop::collection::vec(prop::sample::select(WORD_CHARS), 1..4)
            .prop_map(|w| w.into_iter().map(escape).collect::<String>()),
    ];
    (prop::bool::weighted(0.3), prop::collection::vec(word, 2..9)).prop_map(|(capture, words)| {
        let open = if capture { "(" } else { "(?:" };
        format!("{open}{})", words.join("|"))
    })
}

/// A fixed-width run in a group, such as `(?:[^%\n]{3})`, which the matcher
/// runs as one stepped run when a quantifier follows.
pub(crate) fn fixed_run() -> impl Strategy<Value = String> {
    (prop::sample::select(CLASSES), 1u32..6)
        .prop_map(|(class, width)| format!("(?:{class}{{{width}}})"))
}

/// A quantifiable atom: a leaf or a group (capturing or not) of
/// alternatives, each a sequence of items, nested a few levels.
pub(crate) fn atom() -> impl Strategy<Value = String> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        let item = prop_oneof![
            6 => (inner, prop::option::weighted(0.45, quantifier()))
                .prop_map(|(a, q)| a + q.as_deref().unwrap_or("")),
            1 => prop::sample::select(PIECES).prop_map(str::to_string),
        ];
        let seq = prop::collection::vec(item, 1..4).prop_map(|v| v.concat());
        let alts = prop_oneof![
            3 => prop::collection::vec(seq.clone(), 1..2),
            2 => prop::collection::vec(seq, 2..4),
        ];
        (prop::bool::weighted(0.5), alts).prop_map(|(capture, alts)| {
            let open = if capture { "(" } else { "(?:" };
            format!("{open}{})", alts.join("|"))
        })
    })
}

/// A pattern: a sequence of items, each an atom with an optional
/// quantifier, a piece of a real pattern, or (rarely) `^`.
pub(crate) fn pattern() -> impl Strategy<Value = String> {
    let item = prop_oneof![
        10 => (atom(), prop::option::weighted(0.4, quantifier()))
            .prop_map(|(a, q)| a + q.as_deref().unwrap_or("")),
        4 => prop::sample::select(PIECES).prop_map(str::to_string),
        1 => Just("^".to_string()),
    ];
    prop::collection::vec(item, 1..7).prop_map(|v| v.concat())
}

/// A pattern of runs and fixed-width stretches only (`[^%]*?#z:[^%\n]{2}`,
/// `(?:[.,]{3})*[KX]`): the shapes where the matcher measures runs and
/// skips ends by what follows them.
pub(crate) fn run_pattern() -> impl Strategy<Value = String> {
    let class = prop_oneof![
        4 => prop::sample::select(CLASSES).prop_map(str::to_string),
        2 => prop::sample::select(LIT_CHARS).prop_map(escape),
    ];
    let lazy = || prop::bool::weighted(0.4).prop_map(|l| if l { "?" } else { "" });
    let item = prop_oneof![
        // A run of variable length.
        4 => (class.clone(), prop_oneof![
                Just("*".to_string()),
                Just("+".to_string()),
                Just("?".to_string()),
                (0u32..4, 1u32..5).prop_map(|(m, d)| format!("{{{m},{}}}", m + d)),
                (0u32..3).prop_map(|m| format!("{{{m},}}")),
            ], lazy())
            .prop_map(|(c, q, l)| format!("{c}{q}{l}")),
        // A stepped run.
        2 => (class.clone(), 2u32..5, prop_oneof![
                Just("*".to_string()),
                Just("+".to_string()),
                Just("?".to_string()),
                (0u32..3, 0u32..3).prop_map(|(m, d)| format!("{{{m},{}}}", m + d)),
            ], lazy())
            .prop_map(|(c, w, q, l)| format!("(?:{c}{{{w}}}){q}{l}")),
        // Fixed width: one byte, a fixed run, a literal.
        3 => class.clone(),
        2 => (class, 1u32..5).prop_map(|(c, n)| format!("{c}{{{n}}}")),
        3 => prop::sample::select(&["#z:", "%%\\n", "\\*", "#t:", "\\n", "@", "K", "\\|", "ab"][..])
            .prop_map(str::to_string),
    ];
    let item = prop_oneof![
        4 => item.clone(),
        1 => item.prop_map(|i| format!("({i})")),
    ];
    prop::collection::vec(item, 2..8).prop_map(|v| v.concat())
}

/// Random text over the state alphabet.
pub(crate) fn random_hay() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(HAY_WEIGHTED), 0..200)
        .prop_map(|v| String::from_utf8(v).expect("ascii"))
}

/// State fragments, concatenated, with the odd random character.
pub(crate) fn fragment_hay() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        5 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => prop::sample::select(HAY_WEIGHTED).prop_map(|c| char::from(c).to_string()),
    ];
    prop::collection::vec(piece, 0..14).prop_map(|v| v.concat())
}

/// `cases` cases, or `PROPTEST_CASES` when it is set (proptest's own
/// variable, so a quick or a long run needs no edit); a failing case is
/// saved, shrunk, to `backtrack_differential.proptest-regressions` beside
/// this file and replayed first on every later run (commit that file, as
/// proptest recommends).
pub(crate) fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_local_rejects: 1_000_000,
        ..ProptestConfig::default()
    }
}

/// A generated pattern that both the matcher and the `regex` crate accept.
pub(crate) fn accepted_pattern() -> impl Strategy<Value = String> {
    pattern().prop_filter("declined by the matcher or the regex crate", |p| {
        Matcher::new(p).is_some() && reference(p).is_some()
    })
}

/// Checks an accepted pattern on haystacks sampled from it (by `seed`) and
/// on the given random and fragment haystacks.
pub(crate) fn check_on_hays(
    pattern: &str,
    random: String,
    fragments: String,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut hays = sampled_hays(pattern, seed);
    hays.push(random);
    hays.push(fragments);
    let checked = check(pattern, &hays).map_err(TestCaseError::fail)?;
    prop_assert_ne!(checked, Checked::Skipped);
    Ok(())
}
