//! Reading UTF-8 text at byte positions: the character at a place and
//! before it, whether an assertion holds there, where a run of one class
//! stops, whether what must follow a run or start a choice stands there.
//! Positions are byte offsets at character boundaries; characters are
//! code points. It owns no matching and no search.

use memchr::{memchr, memchr2, memchr3};

use super::ast::{Anchor, CharTest};
use super::lead::ByteSet;
use super::prog::Follow;
use super::unicode;

/// Where `n` characters from `pos` that all pass `test` end, or `None`
/// when one fails or the text ends first. A stretch of ASCII is read by
/// its bytes (`[\s\S]{41}` in a look-ahead: 41 bytes tested in a row).
#[inline]
pub(crate) fn take_chars(text: &[u8], pos: usize, test: &CharTest, n: u32) -> Option<usize> {
    // Most runs have no minimum (`\w*`): nothing to read.
    if n == 0 {
        return Some(pos);
    }
    take_some(text, pos, test, n)
}

/// [`take_chars`] for `n > 0`.
fn take_some(text: &[u8], pos: usize, test: &CharTest, n: u32) -> Option<usize> {
    let n = n as usize;
    if let Some(chunk) = text.get(pos..pos.saturating_add(n)) {
        if chunk.is_ascii() {
            let all = match test {
                CharTest::Any => true,
                CharTest::NotNewline => memchr(b'\n', chunk).is_none(),
                CharTest::Lit(l) => chunk.iter().all(|&b| u32::from(b) == *l),
                CharTest::Set(set) if set.has_every_ascii() => true,
                CharTest::Set(set) => chunk.iter().all(|&b| set.contains(u32::from(b))),
            };
            return all.then_some(pos + n);
        }
    }
    let mut end = pos;
    for _ in 0..n {
        match char_at(text, end) {
            Some((c, k)) if test.matches(c) => end += k,
            _ => return None,
        }
    }
    Some(end)
}

/// Where a run of at most `n` characters from `pos` that pass `test`
/// ends. ASCII bytes are tested in place, and a test every ASCII
/// character passes skips to the next non-ASCII byte.
pub(crate) fn run_chars(text: &[u8], pos: usize, test: &CharTest, n: usize) -> usize {
    let newline = u32::from(b'\n');
    match test {
        CharTest::Any => run_by(text, pos, n, true, |_| true),
        CharTest::NotNewline => run_by(text, pos, n, false, |c| c != newline),
        CharTest::Lit(l) => run_by(text, pos, n, false, |c| c == *l),
        CharTest::Set(set) => run_by(text, pos, n, set.has_every_ascii(), |c| set.contains(c)),
    }
}

/// [`run_chars`] for one kind of test (`every_ascii`: it passes every
/// ASCII character). A stretch of ASCII is read by its bytes (each one
/// character), a character past it decoded.
#[inline(always)]
fn run_by(
    text: &[u8],
    pos: usize,
    n: usize,
    every_ascii: bool,
    test: impl Fn(u32) -> bool,
) -> usize {
    let (mut end, mut left) = (pos, n);
    while left > 0 {
        let limit = text.len().min(end.saturating_add(left));
        let stretch = &text[end..limit];
        let k = if every_ascii {
            stretch.iter().position(|&b| b >= 0x80)
        } else {
            stretch
                .iter()
                .position(|&b| b >= 0x80 || !test(u32::from(b)))
        }
        .unwrap_or(stretch.len());
        end += k;
        left -= k;
        if left == 0 {
            break;
        }
        // A byte that ends the stretch: the text's end, an ASCII
        // character that fails, or a longer character.
        match text.get(end) {
            Some(&b) if b >= 0x80 => match char_at(text, end) {
                Some((c, k)) if test(c) => {
                    end += k;
                    left -= 1;
                }
                _ => break,
            },
            _ => break,
        }
    }
    end
}

/// The character at `pos` and its length in bytes.
#[inline]
pub(crate) fn char_at(text: &[u8], pos: usize) -> Option<(u32, usize)> {
    let b0 = *text.get(pos)?;
    if b0 < 0x80 {
        return Some((u32::from(b0), 1));
    }
    let cont = |i: usize| u32::from(text[pos + i] & 0x3F);
    Some(if b0 < 0xE0 {
        ((u32::from(b0 & 0x1F) << 6) | cont(1), 2)
    } else if b0 < 0xF0 {
        ((u32::from(b0 & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (
            (u32::from(b0 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
            4,
        )
    })
}

/// The start of the character before `pos` (`pos > 0`).
#[inline]
pub(crate) fn prev_boundary(text: &[u8], mut pos: usize) -> usize {
    pos -= 1;
    while pos > 0 && text[pos] & 0xC0 == 0x80 {
        pos -= 1;
    }
    pos
}

/// The character before `pos`.
fn char_before(text: &[u8], pos: usize) -> Option<u32> {
    if pos == 0 {
        return None;
    }
    char_at(text, prev_boundary(text, pos)).map(|(c, _)| c)
}

fn is_word_at(text: &[u8], pos: usize, ascii: bool) -> bool {
    char_at(text, pos).is_some_and(|(c, _)| unicode::is_word(c, ascii))
}

fn is_word_before(text: &[u8], pos: usize, ascii: bool) -> bool {
    char_before(text, pos).is_some_and(|c| unicode::is_word(c, ascii))
}

/// Whether an assertion holds at `pos`.
pub(crate) fn anchor_holds(a: Anchor, text: &[u8], pos: usize) -> bool {
    let len = text.len();
    match a {
        Anchor::Start => pos == 0,
        Anchor::LineStart => pos == 0 || text[pos - 1] == b'\n',
        Anchor::End => pos == len,
        Anchor::EndOrFinalNewline => pos == len || (pos + 1 == len && text[pos] == b'\n'),
        Anchor::LineEnd => pos == len || text[pos] == b'\n',
        Anchor::WordBoundary { ascii } => {
            is_word_before(text, pos, ascii) != is_word_at(text, pos, ascii)
        }
        // CPython's `\B` never matches in an empty text.
        Anchor::NotWordBoundary { ascii } => {
            len > 0 && is_word_before(text, pos, ascii) == is_word_at(text, pos, ascii)
        }
    }
}

/// Where a run of `test` from `at` stops (`stops`: the bytes that end it,
/// when they are all it refuses).
pub(crate) fn run_end(text: &[u8], at: usize, test: &CharTest, stops: Option<&[u8]>) -> usize {
    let rest = &text[at..];
    let found = match stops {
        Some([]) => Some(rest.len()),
        Some([a]) => memchr(*a, rest),
        Some([a, b]) => memchr2(*a, *b, rest),
        Some([a, b, c]) => memchr3(*a, *b, *c, rest),
        _ => {
            let mut end = at;
            while let Some((_, n)) = char_at(text, end).filter(|&(c, _)| test.matches(c)) {
                end += n;
            }
            return end;
        }
    };
    at + found.unwrap_or(rest.len())
}

/// Whether what must follow a run (see `Follow`) can stand at `pos`.
#[inline]
pub(crate) fn can_follow(follow: &Follow, text: &[u8], pos: usize) -> bool {
    let len = text.len();
    match follow {
        Follow::Any => true,
        Follow::Byte(b) => text.get(pos) == Some(b),
        Follow::Set(set) => text.get(pos).is_some_and(|&b| set.contains(b)),
        Follow::End => pos == len,
        Follow::EndOrFinalNewline => pos == len || (pos + 1 == len && text[pos] == b'\n'),
        Follow::LineEnd => pos == len || text[pos] == b'\n',
    }
}

/// Whether `text` has the bytes `s` at `pos` (the first byte compared
/// first: most places differ there).
#[inline]
pub(crate) fn starts_with_at(text: &[u8], pos: usize, s: &[u8]) -> bool {
    match (text.get(pos..pos + s.len()), s.first()) {
        (Some(t), Some(&first)) => t[0] == first && t[1..] == s[1..],
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// Whether a choice whose matches start with a byte of `set` (none: any
/// place) can start at `pos`.
#[inline]
pub(crate) fn can_start(set: Option<&ByteSet>, text: &[u8], pos: usize) -> bool {
    set.is_none_or(|s| text.get(pos).is_some_and(|&b| s.contains(b)))
}
