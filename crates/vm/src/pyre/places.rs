//! The places a search tries: from a place, the first place where the
//! program matches, the way CPython's search picks places (and skips
//! them).
//!
//! It owns which places are tried: every place from the start, passing
//! over those that cannot start a match by the program's facts (the text
//! every match starts with, a first look-behind of exact text or of one
//! ASCII character, a first-character test), over those CPython's own search filter
//! refuses (see `compile::filter`), and, after a failed place, over the
//! places inside a leading run (see `Prog::lead_run`). Running the
//! program at a place is `vm`'s.

use memchr::{memchr, memchr2, memchr3};

use super::prog::{Inst, Prog};
use super::text::{char_at, run_end};
use super::vm::{run, Cache, MatchError};
use super::SearchLimits;

/// The first match at or after `start` (a character boundary), its groups
/// in `cache.slots`; with `must_advance`, a match at `start` must not be
/// empty.
///
/// # Errors
///
/// [`MatchError`] when the stop falls due or the stack passes its limit.
pub(crate) fn search(
    prog: &Prog,
    text: &str,
    start: usize,
    must_advance: bool,
    cache: &mut Cache,
    limits: &SearchLimits<'_>,
) -> Result<bool, MatchError> {
    let bytes = text.as_bytes();
    let finder = &prog.prefix_finder;
    let behind = &prog.behind_finder;
    let mut at = start;
    loop {
        if prog.anchored_start && at > 0 {
            return Ok(false);
        }
        if let Some(f) = &behind {
            // The first place at or after `at` right after the text the
            // look-behind asks for (a whole UTF-8 text: it starts and
            // ends at character boundaries).
            let n = prog.behind.len();
            let from = at.saturating_sub(n);
            match f.find(&bytes[from..]) {
                Some(i) => at = from + i + n,
                None => return Ok(false),
            }
        } else if let Some(f) = &finder {
            match f.find(&bytes[at..]) {
                Some(i) => at += i,
                None => return Ok(false),
            }
        } else if let Some(set) = &prog.start {
            // Pass over characters no match can start with (the set holds
            // no continuation byte: a byte found starts a character).
            let rest = &bytes[at..];
            let found = match prog.start_bytes.as_deref() {
                Some([]) => None,
                Some([a]) => memchr(*a, rest),
                Some([a, b]) => memchr2(*a, *b, rest),
                Some([a, b, c]) => memchr3(*a, *b, *c, rest),
                _ => rest.iter().position(|&b| set.contains(b)),
            };
            match found {
                Some(i) => at += i,
                None => return Ok(false),
            }
        }
        // The byte before a place that a first look-behind of one ASCII
        // character refuses (a byte of a longer character included).
        let refused = prog
            .behind_byte
            .as_ref()
            .is_some_and(|set| at == 0 || !set.contains(bytes[at - 1]));
        let filtered = refused
            || prog
                .filter
                .as_ref()
                .is_some_and(|f| !char_at(bytes, at).is_some_and(|(c, _)| f.matches(c)));
        if !filtered && run(prog, bytes, at, must_advance && at == start, cache, limits)? {
            return Ok(true);
        }
        if let Some(Inst::RepeatOne { test, stops, .. }) = prog
            .lead_run
            .filter(|_| !filtered)
            .map(|pc| &prog.insts[pc as usize])
        {
            // Every place up to where the leading run stops fails too.
            at = run_end(bytes, at, test, stops.as_deref());
        }
        match char_at(bytes, at) {
            Some((_, n)) => at += n,
            None => return Ok(false),
        }
    }
}
