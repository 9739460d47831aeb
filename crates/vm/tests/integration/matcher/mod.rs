//! The comparison behind the matcher's differential tests: what the
//! `regex` crate reports for `^(?:pattern)` and what `Matcher` reports, on
//! every start of a haystack, and [`check`], which compiles a pattern both
//! ways and compares them on a list of haystacks. It generates nothing:
//! the data is `data`, the generators `generators` and `sample`; the tests
//! are `backtrack_differential.rs` and `shapes`.

use regex_syntax::hir::{Hir, HirKind};
use regex_vm::backtrack::{GaveUp, Matcher, Scratch};

pub(crate) mod data;
pub(crate) mod generators;
pub(crate) mod sample;

mod shapes;

/// A budget no test search should exhaust.
pub(crate) const BUDGET: usize = 10_000_000;

/// What the `regex` crate reports for `^(?:pattern)` on `hay`: the slots
/// (start and end of each group, `usize::MAX` when it did not take part),
/// or `None` when nothing matches.
pub(crate) fn expected(re: &regex::Regex, hay: &str) -> Option<Vec<usize>> {
    let caps = re.captures(hay)?;
    let mut slots = Vec::with_capacity(2 * caps.len());
    for i in 0..caps.len() {
        match caps.get(i) {
            Some(m) => slots.extend([m.start(), m.end()]),
            None => slots.extend([usize::MAX, usize::MAX]),
        }
    }
    Some(slots)
}

/// What the matcher reports, in the same shape as [`expected`].
pub(crate) fn actual(
    m: &Matcher,
    hay: &[u8],
    scratch: &mut Scratch,
    budget: &mut usize,
) -> Result<Option<Vec<usize>>, GaveUp> {
    Ok(m.find_anchored(hay, scratch, budget)?
        .then(|| scratch.slots().to_vec()))
}

/// The regex crate's view of `pattern` anchored, when it compiles it.
pub(crate) fn reference(pattern: &str) -> Option<regex::Regex> {
    regex::Regex::new(&format!("^(?:{pattern})")).ok()
}

/// Compares the matcher with the `regex` crate on every suffix of `hay`,
/// and checks that every match starts with the matcher's `prefix()`.
/// `Err` describes the first disagreement. A search that runs out of
/// [`BUDGET`] is a disagreement too, unless `may_give_up`; then the
/// comparison stops there and returns `Ok(false)`.
pub(crate) fn compare(
    m: &Matcher,
    re: &regex::Regex,
    pattern: &str,
    hay: &str,
    may_give_up: bool,
) -> Result<bool, String> {
    assert!(hay.is_ascii());
    if m.slot_count() != 2 * re.captures_len() {
        return Err(format!(
            "pattern {pattern:?}: slot_count {} but the regex crate has {} groups",
            m.slot_count(),
            re.captures_len()
        ));
    }
    let prefix = m.prefix();
    let mut scratch = Scratch::default();
    for start in 0..=hay.len() {
        let h = &hay[start..];
        let want = expected(re, h);
        let mut budget = BUDGET;
        match actual(m, h.as_bytes(), &mut scratch, &mut budget) {
            Err(GaveUp) if may_give_up => return Ok(false),
            Err(GaveUp) => {
                return Err(format!(
                    "pattern {pattern:?} hay {h:?}: gave up after {BUDGET} steps \
                     (regex crate: {want:?})"
                ))
            }
            Ok(got) if got != want => {
                return Err(format!(
                    "pattern {pattern:?} hay {h:?}: matcher {got:?}, regex crate {want:?}"
                ))
            }
            Ok(Some(_)) if !h.as_bytes().starts_with(&prefix) => {
                return Err(format!(
                    "pattern {pattern:?} hay {h:?}: matched without the prefix {:?}",
                    String::from_utf8_lossy(&prefix)
                ))
            }
            Ok(_) => {}
        }
    }
    Ok(true)
}

/// Whether `hir` repeats (more than once) something that holds a choice:
/// an alternation or a repetition of variable length. Such loops can take
/// a backtracker exponential time, which the matcher bounds only by its
/// budget (`(?:%|[^#%]{1,2})*%%` on a long run of `:`), so running out of
/// [`BUDGET`] on them is not counted as a failure.
pub(crate) fn loops_over_choices(hir: &Hir) -> bool {
    fn has_choice(hir: &Hir) -> bool {
        match hir.kind() {
            HirKind::Alternation(_) => true,
            HirKind::Repetition(rep) => rep.max != Some(rep.min) || has_choice(&rep.sub),
            HirKind::Capture(cap) => has_choice(&cap.sub),
            HirKind::Concat(subs) => subs.iter().any(has_choice),
            _ => false,
        }
    }
    match hir.kind() {
        HirKind::Repetition(rep) => {
            (rep.max != Some(0) && rep.max != Some(1) && has_choice(&rep.sub))
                || loops_over_choices(&rep.sub)
        }
        HirKind::Capture(cap) => loops_over_choices(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(loops_over_choices),
        _ => false,
    }
}

/// What [`check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Checked {
    /// The matcher declines the pattern or the `regex` crate rejects it.
    Skipped,
    /// Compared on every haystack.
    Agreed,
    /// Compared until the matcher ran out of budget on a pattern that
    /// [`loops_over_choices`].
    GaveUp,
}

/// Compiles `pattern` both ways and compares on every haystack.
pub(crate) fn check(pattern: &str, hays: &[String]) -> Result<Checked, String> {
    let (Some(m), Some(re)) = (Matcher::new(pattern), reference(pattern)) else {
        return Ok(Checked::Skipped);
    };
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    let may_give_up = loops_over_choices(&hir);
    for hay in hays {
        if !compare(&m, &re, pattern, hay, may_give_up)? {
            return Ok(Checked::GaveUp);
        }
    }
    Ok(Checked::Agreed)
}
