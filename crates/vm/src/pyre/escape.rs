//! Python's escapes and character classes, as CPython 3.11 reads them in
//! a `str` pattern.
//!
//! Outside a class: assertions (`\A \Z \b \B`), categories (`\d \D \s \S
//! \w \W`), character escapes (`\a \f \n \r \t \v \\`, `\xhh`, `\uhhhh`,
//! `\Uhhhhhhhh`, octal `\0`, `\0oo`, `\ooo`), back-references (`\1`-`\99`),
//! any other ASCII letter refused, anything else itself; `\N{name}` is
//! refused as a limit of ours (the name table is large).
//! Inside a class: the same character escapes, `\b` as backspace, octal of
//! up to three digits, categories as items; a `]` first is a literal, a
//! `-` first or last is a literal, ranges only between single characters.
//! A class under `(?i)` is the set of characters whose case-insensitive
//! class meets it, except CPython's own reading of an astral literal in a
//! class of several items, which matches only what lowercases to it (so
//! an uppercase astral letter there matches nothing: measured, see
//! `class`). It owns no structure (that is `parse`'s) and runs nothing.

use super::ast::{Anchor, CharSet, CharTest, Node};
use super::cursor::{error, Cursor, PatternError};
use super::flags::Flags;
use super::unicode::{self, Category};

/// A class item with the end of its range, for a range.
pub(crate) type ClassItem = (Item, Option<u32>);

/// What an escape outside a class stands for.
pub(crate) enum Escaped {
    /// A literal code point.
    Char(u32),
    /// An assertion.
    Node(Node),
    /// A category (`\d`, `\W`, ...).
    Class(Item),
    /// A back-reference to this group (not yet checked).
    Backref(usize),
}

/// One item of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    /// A character (with the end of its range, beside it, for a range).
    Char(u32),
    /// A category, negated or not.
    Category(Category, bool),
}

/// The escape after the `\` at `start` (outside a class).
pub(crate) fn outside(p: &mut Cursor, start: usize, flags: Flags) -> Result<Escaped, PatternError> {
    let Some(c) = p.peek() else {
        return Err(error("bad escape (end of pattern)", start));
    };
    p.pos += 1;
    let ascii = flags.ascii;
    let node = |n| Ok(Escaped::Node(n));
    match c {
        'A' => node(Node::Anchor(Anchor::Start)),
        'Z' => node(Node::Anchor(Anchor::End)),
        'b' => node(Node::Anchor(Anchor::WordBoundary { ascii })),
        'B' => node(Node::Anchor(Anchor::NotWordBoundary { ascii })),
        'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
            let (cat, negated) = category(c);
            Ok(Escaped::Class(Item::Category(cat, negated)))
        }
        '0' => Ok(Escaped::Char(octal_tail(p, 0))),
        '1'..='9' => {
            let first = c as u32 - '0' as u32;
            match p.peek() {
                Some(d) if d.is_ascii_digit() => {
                    let second = d as u32 - '0' as u32;
                    if c <= '7' && d <= '7' && p.peek_at(1).and_then(octal_digit).is_some() {
                        let third = p.peek_at(1).and_then(octal_digit).unwrap_or(0);
                        p.pos += 2;
                        let value = first * 64 + second * 8 + third;
                        if value > 0o377 {
                            return Err(error(
                                format!(
                                    "octal escape value \\{c}{d}{third} outside of range 0-0o377"
                                ),
                                start,
                            ));
                        }
                        return Ok(Escaped::Char(value));
                    }
                    p.pos += 1;
                    Ok(Escaped::Backref((first * 10 + second) as usize))
                }
                _ => Ok(Escaped::Backref(first as usize)),
            }
        }
        c => common(p, start, c).map(Escaped::Char),
    }
}

/// The character escapes both places share (after `\` and `c`); anything
/// else is itself, except an ASCII letter, which is refused.
fn common(p: &mut Cursor, start: usize, c: char) -> Result<u32, PatternError> {
    Ok(match c {
        'a' => 7,
        'f' => 12,
        'n' => 10,
        'r' => 13,
        't' => 9,
        'v' => 11,
        'x' => hex(p, start, 'x', 2)?,
        'u' => hex(p, start, 'u', 4)?,
        'U' => {
            let v = hex(p, start, 'U', 8)?;
            if v > 0x10FFFF {
                let text: String = p.chars[start..p.pos].iter().collect();
                return Err(error(format!("bad escape {text}"), start));
            }
            v
        }
        'N' => named(p, start)?,
        c if c.is_ascii_alphabetic() => return Err(error(format!("bad escape \\{c}"), start)),
        c => c as u32,
    })
}

/// Exactly `n` hex digits after `\x`, `\u` or `\U`.
fn hex(p: &mut Cursor, start: usize, letter: char, n: usize) -> Result<u32, PatternError> {
    let mut value = 0u32;
    for i in 0..n {
        match p.peek().and_then(|c| c.to_digit(16)) {
            Some(d) if p.peek().is_some_and(|c| c.is_ascii()) => {
                value = value * 16 + d;
                p.pos += 1;
            }
            _ => {
                let digits: String = p.chars[p.pos - i..p.pos].iter().collect();
                return Err(error(
                    format!("incomplete escape \\{letter}{digits}"),
                    start,
                ));
            }
        }
    }
    Ok(value)
}

/// `\N{name}` after its `N`.
fn named(p: &mut Cursor, start: usize) -> Result<u32, PatternError> {
    if p.peek() != Some('{') {
        return Err(error("missing {", p.pos));
    }
    p.pos += 1;
    let from = p.pos;
    while p.peek().is_some_and(|c| c != '}') {
        p.pos += 1;
    }
    if p.peek().is_none() || p.pos == from {
        return Err(error("missing character name", from));
    }
    let name: String = p.chars[from..p.pos].iter().collect();
    Err(error(
        format!("\\N{{{name}}}: character names are not supported (a limit of ours)"),
        start,
    ))
}

fn octal_digit(c: char) -> Option<u32> {
    c.to_digit(8)
}

/// An octal escape's value after its first digit (`value`): up to two
/// more octal digits.
fn octal_tail(p: &mut Cursor, mut value: u32) -> u32 {
    for _ in 0..2 {
        match p.peek().and_then(octal_digit) {
            Some(d) => {
                value = value * 8 + d;
                p.pos += 1;
            }
            None => break,
        }
    }
    value
}

fn category(c: char) -> (Category, bool) {
    match c {
        'd' => (Category::Digit, false),
        'D' => (Category::Digit, true),
        's' => (Category::Space, false),
        'S' => (Category::Space, true),
        'w' => (Category::Word, false),
        _ => (Category::Word, true),
    }
}

/// The escape after a `\` at `start` inside a class.
fn class_escape(p: &mut Cursor, start: usize) -> Result<Item, PatternError> {
    let Some(c) = p.peek() else {
        return Err(error("unterminated character set", start));
    };
    p.pos += 1;
    Ok(match c {
        'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
            let (cat, negated) = category(c);
            Item::Category(cat, negated)
        }
        'b' => Item::Char(8),
        '0'..='7' => {
            let value = octal_tail(p, c as u32 - '0' as u32);
            if value > 0o377 {
                let text: String = p.chars[start..p.pos].iter().collect();
                return Err(error(
                    format!("octal escape value {text} outside of range 0-0o377"),
                    start,
                ));
            }
            Item::Char(value)
        }
        '8' | '9' => return Err(error(format!("bad escape \\{c}"), start)),
        c => Item::Char(common(p, start, c)?),
    })
}

/// A class after its `[` at `start`: its items, and whether it is
/// negated.
pub(crate) fn class(p: &mut Cursor, start: usize) -> Result<(Vec<ClassItem>, bool), PatternError> {
    let negated = p.peek() == Some('^');
    if negated {
        p.pos += 1;
    }
    let mut items: Vec<(Item, Option<u32>)> = Vec::new();
    let mut first = true;
    loop {
        let Some(c) = p.peek() else {
            return Err(error("unterminated character set", start));
        };
        let at = p.pos;
        p.pos += 1;
        if c == ']' && !first {
            break;
        }
        first = false;
        let item = if c == '\\' {
            class_escape(p, at)?
        } else {
            Item::Char(c as u32)
        };
        if p.peek() == Some('-') {
            p.pos += 1;
            let Some(next) = p.peek() else {
                return Err(error("unterminated character set", start));
            };
            if next == ']' {
                items.push((item, None));
                items.push((Item::Char(u32::from(b'-')), None));
                continue;
            }
            let hi_at = p.pos;
            p.pos += 1;
            let hi = if next == '\\' {
                class_escape(p, hi_at)?
            } else {
                Item::Char(next as u32)
            };
            let range_text = || p.chars[at..p.pos].iter().collect::<String>();
            match (item, hi) {
                (Item::Char(lo), Item::Char(hi)) if lo <= hi => {
                    items.push((Item::Char(lo), Some(hi)))
                }
                _ => return Err(error(format!("bad character range {}", range_text()), at)),
            }
        } else {
            items.push((item, None));
        }
    }
    Ok((items, negated))
}

/// The test of a class of `items` under `flags` (the pattern's global
/// flags `global`, for CPython's search filter: see `ast::CharSet`).
pub(crate) fn class_test(
    items: &[(Item, Option<u32>)],
    negated: bool,
    flags: Flags,
    global: Flags,
) -> CharTest {
    let mut test = build(items, negated, flags);
    if let CharTest::Set(set) = &mut test {
        set.search = search_variant(items, negated, flags, global);
    }
    test
}

/// The set CPython's search tests a first character against, for a class
/// whose categories it reads in the global mode (see `ast::CharSet`):
/// only when the class has categories, its scope's ASCII mode differs
/// from the global one, and (under `(?i)`) no item has a case partner and
/// no range ends past U+FFFF (`(?i)(?a:[\U00010400-\U00010401\W])` and
/// `(?i)(?a:[a\W])` are tried at `é`, `(?i)(?a:[\U00010400\W])` is not;
/// measured on CPython 3.11).
fn search_variant(
    items: &[(Item, Option<u32>)],
    negated: bool,
    flags: Flags,
    global: Flags,
) -> Option<Box<CharSet>> {
    let has_categories = items.iter().any(|(i, _)| matches!(i, Item::Category(..)));
    if !has_categories || flags.ascii == global.ascii {
        return None;
    }
    let cased = items.iter().any(|(i, hi)| match (i, hi) {
        (Item::Char(lo), hi) => {
            (*lo..=hi.unwrap_or(*lo)).any(|c| unicode::has_fold(c, flags.ascii))
        }
        (Item::Category(..), _) => false,
    });
    let astral_range = items
        .iter()
        .any(|(i, hi)| matches!((i, hi), (Item::Char(_), Some(hi)) if *hi > 0xFFFF));
    if flags.ignore_case && (cased || astral_range) {
        return None;
    }
    let plain = Flags {
        ascii: global.ascii,
        ignore_case: false,
        ..flags
    };
    match build(items, negated, plain) {
        CharTest::Set(mut s) => {
            s.search = None;
            Some(Box::new(s))
        }
        _ => None,
    }
}

/// The test a class's items make under `flags`.
fn build(items: &[(Item, Option<u32>)], negated: bool, flags: Flags) -> CharTest {
    let fold = flags.ignore_case;
    let ascii = flags.ascii;
    // CPython reads a class whose items name exactly one character (no
    // category) as that literal, with a literal's case folding.
    let mut chars: Vec<(u32, u32)> = Vec::new();
    let mut categories = false;
    for (item, hi) in items {
        match (item, hi) {
            (Item::Char(lo), Some(hi)) => chars.push((*lo, *hi)),
            (Item::Char(c), None) => chars.push((*c, *c)),
            (Item::Category(..), _) => categories = true,
        }
    }
    let chars = unicode::normalize(chars);
    let single = !categories && chars.len() == 1 && chars[0].0 == chars[0].1;
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for (item, hi) in items {
        match (*item, *hi) {
            (Item::Category(cat, neg), _) => {
                let r = unicode::category_ranges(cat, ascii);
                ranges.extend(if neg { unicode::complement(&r) } else { r });
            }
            (Item::Char(c), None) if fold && !ascii && c > 0xFFFF && !single => {
                // Measured on CPython 3.11: in a class of several items,
                // an astral literal matches what lowercases to it.
                ranges.extend(unicode::lower_preimage(c));
            }
            (Item::Char(lo), hi) => {
                let r = [(lo, hi.unwrap_or(lo))];
                if fold {
                    ranges.extend(unicode::fold_closure(&r, ascii));
                } else {
                    ranges.extend(r);
                }
            }
        }
    }
    let set = CharSet::new(ranges, negated);
    if !negated && !fold && single {
        return CharTest::Lit(chars[0].0);
    }
    CharTest::Set(set)
}
