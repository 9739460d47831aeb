//! Differential tests of the backtracking matcher (`regex_vm::backtrack`)
//! against the `regex` crate. For every pattern the matcher accepts and
//! every ASCII haystack, `Matcher::find_anchored` must report exactly what
//! `regex::Regex::new("^(?:PATTERN)")` reports through `captures`: the same
//! match or no match, the same end, and the same span (or non-participation)
//! for every capture group; every match must also start with the matcher's
//! `prefix()`. Patterns come from a grammar shaped like the project's
//! portable subset (literals of the state alphabet, the classes the state
//! grammar uses, greedy and lazy quantifiers, capturing and non-capturing
//! groups with alternation, word lists, loops over fixed-width runs,
//! nesting), from a grammar of runs and fixed-width stretches only, and
//! from a list of real patterns of the turn program; haystacks are random
//! strings over the state alphabet, concatenations of state fragments, real
//! states, and strings sampled from the pattern itself (then mutated), each
//! tried at every start. It also checks that the step budget is enforced,
//! which patterns the matcher declines, and that the generators yield
//! enough accepted patterns to test something.
//!
//! The comparison and its data, generators and sampling live in
//! `tests/integration/matcher/` (`mod.rs`, `data.rs`, `generators.rs`, `sample.rs`), the
//! explicit shape tests in `tests/integration/matcher/shapes.rs`; this file holds the
//! property tests and the checks that their generators and the real
//! patterns test something.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use regex_vm::backtrack::Matcher;

use crate::matcher::data::*;
use crate::matcher::generators::*;
use crate::matcher::sample::sampled_hays;
use crate::matcher::*;

proptest! {
    // 10,000 generated cases in two tests of 5,000 (or `PROPTEST_CASES`
    // each), so the test threads run them side by side.
    #![proptest_config(config(5_000))]

    /// Generated patterns on random, fragment and sampled haystacks.
    #[test]
    fn generated_patterns_agree_with_regex(case in generated_case()) {
        let (pattern, random, fragments, seed) = case;
        check_on_hays(&pattern, random, fragments, seed)?;
    }

    /// The second half of [`generated_patterns_agree_with_regex`]'s cases.
    #[test]
    fn more_generated_patterns_agree_with_regex(case in generated_case()) {
        let (pattern, random, fragments, seed) = case;
        check_on_hays(&pattern, random, fragments, seed)?;
    }
}

/// A generated pattern, a random and a fragment haystack, and the seed
/// of the sampled ones.
fn generated_case() -> impl Strategy<Value = (String, String, String, u64)> {
    (
        accepted_pattern(),
        random_hay(),
        fragment_hay(),
        any::<u64>(),
    )
}

proptest! {
    #![proptest_config(config(4_000))]

    /// The project's real patterns on fragment and sampled haystacks.
    #[test]
    fn real_patterns_agree_with_regex(
        index in 0..REAL.len(),
        state in prop::sample::select(REAL_STATES),
        random in random_hay(),
        fragments in fragment_hay(),
        seed in any::<u64>(),
    ) {
        let pattern = REAL[index];
        let mut hays = sampled_hays(pattern, seed);
        hays.push(format!("{state}{}", hays[0]));
        hays.push(format!("{}{state}", hays[1]));
        hays.push(random);
        hays.push(fragments);
        let checked = check(pattern, &hays).map_err(TestCaseError::fail)?;
        prop_assert_eq!(checked, Checked::Agreed, "real pattern {:?}", pattern);
    }
}

proptest! {
    #![proptest_config(config(6_000))]

    /// Runs and fixed-width stretches on random, fragment and sampled
    /// haystacks.
    #[test]
    fn runs_agree_with_regex(
        pattern in run_pattern().prop_filter("declined by the matcher or the regex crate", |p| {
            Matcher::new(p).is_some() && reference(p).is_some()
        }),
        random in random_hay(),
        fragments in fragment_hay(),
        seed in any::<u64>(),
    ) {
        check_on_hays(&pattern, random, fragments, seed)?;
    }
}

/// How many of `total` patterns from `strategy` (fixed seed) the matcher
/// and the `regex` crate both accept, and how many of those have capture
/// groups, lazy quantifiers, alternations and stepped runs.
fn acceptance<S: Strategy<Value = String>>(strategy: &S, total: usize) -> [usize; 5] {
    let mut runner = TestRunner::deterministic();
    let mut counts = [0; 5];
    for _ in 0..total {
        let p = strategy.new_tree(&mut runner).expect("generates").current();
        if let (Some(m), Some(_)) = (Matcher::new(&p), reference(&p)) {
            let bare = p.replace(r"\|", "").replace(r"\*", "").replace(r"\?", "");
            counts[0] += 1;
            counts[1] += usize::from(m.slot_count() > 2);
            counts[2] += usize::from(["*?", "+?", "??", "}?"].iter().any(|q| bare.contains(q)));
            counts[3] += usize::from(bare.contains('|'));
            counts[4] += usize::from(
                ["})*", "})+", "})?", "}){"]
                    .iter()
                    .any(|q| bare.contains(q)),
            );
        }
    }
    counts
}

/// The generators must yield a meaningful number of patterns the matcher
/// accepts, or the property tests above would test nearly nothing.
#[test]
fn generators_yield_accepted_patterns() {
    let total = 3000;
    let [accepted, groups, lazy, alternation, stepped] = acceptance(&pattern(), total);
    assert!(
        accepted >= 350,
        "only {accepted} of {total} generated patterns accepted"
    );
    assert!(groups >= 200, "only {groups} accepted patterns with groups");
    assert!(
        lazy >= 140,
        "only {lazy} accepted patterns with lazy quantifiers"
    );
    assert!(
        alternation >= 120,
        "only {alternation} accepted patterns with alternation"
    );
    assert!(
        stepped >= 70,
        "only {stepped} accepted patterns with stepped runs"
    );
    let [accepted, groups, lazy, _, stepped] = acceptance(&run_pattern(), total);
    assert!(
        accepted >= 1500,
        "only {accepted} of {total} run patterns accepted"
    );
    assert!(
        groups >= 900,
        "only {groups} accepted run patterns with groups"
    );
    assert!(
        lazy >= 800,
        "only {lazy} accepted run patterns with lazy runs"
    );
    assert!(
        stepped >= 700,
        "only {stepped} accepted run patterns with stepped runs"
    );
}

#[test]
fn every_real_pattern_is_accepted() {
    for p in REAL {
        assert!(Matcher::new(p).is_some(), "declined {p:?}");
        assert!(reference(p).is_some(), "regex crate rejects {p:?}");
    }
}

/// Fixed haystacks shaped like states, on every real pattern.
#[test]
fn real_patterns_on_states() {
    let states = [
        "%%\n#s:\n#z:..p.K..*.\n#t:12\n#u:ab\n%x\n",
        "%%\n#s:\n#z:,.,.pP.@.\n#t:7\n%%\n#s:\n#t:12\n",
        "%%\n#z:..p.K..*.\n#z:.,.,.,.,.,\n#u:\n#t:\n",
        "#dv:HH|TTTT|\n#dv:|TTT|ii\n",
        "12\n7\n\n",
        "%%\n#stack:\nT\nF\n",
        "%%\n#stack:\nab\ncd\n",
        "#x:p\n#u:x\n#t:12\n#dv:HH|TT|ii\n",
        "a\nb\nc\nd~",
        "%t201\n",
        "%t143\n#s:\nab%%\n#s:\ncd#x",
        "...*",
        ".,.,,.@",
    ];
    let mut hays: Vec<String> = states.iter().map(|s| (*s).to_string()).collect();
    hays.extend(REAL_STATES.iter().map(|s| (*s).to_string()));
    hays.push(REAL_STATES.concat());
    hays.push(format!("%%\n{}", REAL_STATES.join("%%\n")));
    for p in REAL {
        assert_eq!(check(p, &hays), Ok(Checked::Agreed));
    }
}
