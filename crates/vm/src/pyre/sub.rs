//! `re.sub`'s placement of matches (Python 3.7 and later) and the text it
//! builds.
//!
//! From a place, the first match (the machine's search); the text before
//! it is kept, the match replaced by the template (a group that did not
//! take part gives the empty string); the next search starts where the
//! match ended. An empty match is allowed right after a non-empty one
//! (`re.sub('a*', '-', 'baaac')` is `-b--c-`), but after an empty match
//! the next match must not be empty at the same place (the search then
//! backtracks for a non-empty one there, else moves on one character:
//! `re.sub('a*?', '-', 'baac')` is `-b-----c-`). It owns this loop and the
//! expansion; what matches is `vm`'s.

use crate::program::{Piece, Template};

use super::places;
use super::prog::Prog;
use super::vm::{Cache, MatchError, NONE};
use super::SearchLimits;

/// `re.sub(pattern, template, text)` where no match starts before `from`
/// (a character boundary); `None` when nothing matched.
///
/// # Errors
///
/// [`MatchError`] when a search stops or outgrows its stack.
pub(crate) fn replace_all(
    prog: &Prog,
    text: &str,
    template: &Template,
    from: usize,
    cache: &mut Cache,
    limits: &SearchLimits<'_>,
) -> Result<Option<String>, MatchError> {
    cache.looks.new_text();
    let mut out: Option<String> = None;
    let mut kept = 0;
    let mut at = from;
    let mut must_advance = false;
    while at <= text.len() {
        if !places::search(prog, text, at, must_advance, cache, limits)? {
            break;
        }
        if let Some(group) = cache.bad_group.filter(|_| template.has_groups()) {
            // CPython makes a match object only for a replacement that
            // names a group, and that raises.
            return Err(MatchError::GroupSpan { group });
        }
        let (start, end) = (cache.slots[0], cache.slots[1]);
        let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
        o.push_str(&text[kept..start]);
        expand(o, template, text, &cache.slots);
        kept = end;
        must_advance = start == end;
        at = end;
    }
    Ok(out.map(|mut o| {
        o.push_str(&text[kept..]);
        o
    }))
}

/// Appends the template with the groups of one match.
fn expand(out: &mut String, template: &Template, text: &str, slots: &[usize]) {
    for p in template.pieces() {
        match p {
            Piece::Literal(s) => out.push_str(s),
            Piece::Group(n) => {
                let (s, e) = (
                    slots.get(2 * n).copied().unwrap_or(NONE),
                    slots.get(2 * n + 1).copied().unwrap_or(NONE),
                );
                if s != NONE && e != NONE && s <= e {
                    out.push_str(&text[s..e]);
                }
            }
        }
    }
}
