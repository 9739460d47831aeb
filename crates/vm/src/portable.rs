//! The portable regex subset: patterns every target engine reads alike.
//!
//! A dumped program must give the same bytes under Rust (`regex`,
//! `fancy-regex`), Python `re` and JavaScript `RegExp`. This module owns the
//! rules that make that true and one function, [`check`], that enforces them
//! on a pattern's lexemes (`lex`, the one reader of a pattern's characters).
//! It never compiles a program or runs anything.
//!
//! Allowed: literals, `.` (never used to cross a newline), classes `[...]`
//! without nested brackets or set operators, groups `(...)` and `(?:...)`,
//! alternation, quantifiers `* + ? {m} {m,} {m,n}` and their lazy forms,
//! escapes `\n \t` and escaped ASCII punctuation, back-references `\1`-`\9`,
//! `^` as the first character. Rejected, each with its own error: look-around,
//! named groups, inline flags and atomic groups (any `(?` but `(?:`), `$`,
//! `^` elsewhere, possessive quantifiers, Perl classes and other escapes
//! (`\d` means Unicode digits in Python and Rust but ASCII in JavaScript),
//! and any pattern that can match the empty string (engines disagree on
//! where empty matches go). The one exception, allowed only on request, is
//! the boot pattern `^$`.

use crate::lex::{lex, Token};

/// Why a pattern is outside the portable subset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortableError {
    /// `(?=`, `(?!`, `(?<=`, `(?<!`.
    #[error("look-around at byte {0}")]
    LookAround(usize),
    /// Any other `(?` construct than `(?:`.
    #[error("named group, inline flag or atomic group at byte {0}")]
    GroupSyntax(usize),
    /// `$` outside a class.
    #[error("'$' at byte {0}")]
    Dollar(usize),
    /// `^` not at the start.
    #[error("'^' not at the start, at byte {0}")]
    Caret(usize),
    /// `*+`, `++`, `?+`, `}+`.
    #[error("possessive quantifier at byte {0}")]
    Possessive(usize),
    /// `\d`, `\w`, `\b`, `\x41`, ...
    #[error("escape \\{1} at byte {0} is not portable")]
    Escape(usize, char),
    /// `[` inside a class, or `&&`, `--`, `~~`, `||` inside a class.
    #[error("nested class or class set operator at byte {0}")]
    ClassSyntax(usize),
    /// Unbalanced brackets or a trailing backslash.
    #[error("malformed pattern: {0}")]
    Malformed(String),
    /// The pattern can match the empty string.
    #[error("the pattern can match the empty string")]
    MatchesEmpty,
    /// A back-reference followed by a digit: `\12` is group 12 in Python
    /// and JavaScript, group 1 then `2` in Rust.
    #[error("back-reference at byte {0} followed by a digit")]
    BackrefDigit(usize),
    /// A `{` that is not a plain quantifier `{m}`, `{m,}`, `{m,n}`:
    /// Python reads `a{ 1}` as literal text and Rust as `a{1}`; `{,n}`
    /// is a quantifier in Python and literal text in JavaScript.
    #[error("'{{' at byte {0} does not start a plain quantifier")]
    Brace(usize),
}

/// What the checker learned about a portable pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternInfo {
    /// The pattern uses back-references.
    pub backrefs: bool,
    /// Number of capture groups.
    pub groups: usize,
}

/// The boot pattern: matches only the empty state.
pub const BOOT_PATTERN: &str = "^$";

/// Checks that `pattern` is in the portable subset.
///
/// # Errors
///
/// The first rule the pattern breaks.
pub fn check(pattern: &str) -> Result<PatternInfo, PortableError> {
    check_parsed(pattern).map(|(info, _)| info)
}

/// [`check`], with the parsed form of the pattern's skeleton (the pattern
/// without its back-references; the pattern itself when it has none).
pub(crate) fn check_parsed(
    pattern: &str,
) -> Result<(PatternInfo, regex_syntax::hir::Hir), PortableError> {
    if pattern == BOOT_PATTERN {
        return Err(PortableError::MatchesEmpty);
    }
    let lexed = lex(pattern);
    let mut skeleton = String::with_capacity(pattern.len());
    let mut backrefs = false;
    let mut groups = 0;
    let char_at = |i: usize| match lexed.token(i) {
        Some(Token::Char(c)) => Some(c),
        _ => None,
    };
    let mut next_byte = 0;
    for (i, l) in lexed.lexemes.iter().enumerate() {
        let at = l.at;
        // The lexemes' texts make up the pattern.
        let byte = next_byte;
        next_byte += l.text.len();
        match l.token {
            Token::TrailingBackslash => {
                return Err(PortableError::Malformed("trailing backslash".into()));
            }
            Token::Backref { then_digit, .. } => {
                if then_digit {
                    return Err(PortableError::BackrefDigit(at));
                }
                // The skeleton drops back-references: it can only match
                // more, and shorter, than the real pattern.
                backrefs = true;
                continue;
            }
            Token::Escape(d) if d == 'n' || d == 't' || d.is_ascii_punctuation() => {}
            Token::Escape(d) => return Err(PortableError::Escape(at, d)),
            Token::ClassOpen { .. } => {
                // A ']' or '^]' right after '[' is literal in Python and
                // Rust but an empty class in JavaScript: forbid both (the
                // lexer reads that ']' as closing the class).
                if lexed.token(i + 1) == Some(Token::ClassClose) {
                    return Err(PortableError::ClassSyntax(at));
                }
            }
            Token::ClassClose => {}
            Token::Char('[') if l.in_class => return Err(PortableError::ClassSyntax(at)),
            Token::Char(c @ ('&' | '-' | '~' | '|')) if l.in_class && char_at(i + 1) == Some(c) => {
                return Err(PortableError::ClassSyntax(at));
            }
            Token::Char(_) if l.in_class => {}
            Token::Char('(') => {
                if char_at(i + 1) == Some('?') {
                    match (char_at(i + 2), char_at(i + 3)) {
                        (Some(':'), _) => {}
                        (Some('=' | '!'), _) | (Some('<'), Some('=' | '!')) => {
                            return Err(PortableError::LookAround(at))
                        }
                        _ => return Err(PortableError::GroupSyntax(at)),
                    }
                } else {
                    groups += 1;
                }
            }
            Token::Char('{') if !plain_quantifier(&pattern[byte..]) => {
                return Err(PortableError::Brace(at))
            }
            Token::Char('$') => return Err(PortableError::Dollar(at)),
            Token::Char('^') if at != 0 => return Err(PortableError::Caret(at)),
            Token::Char('*' | '+' | '?' | '}') if char_at(i + 1) == Some('+') => {
                return Err(PortableError::Possessive(at + 1));
            }
            Token::Char(_) => {}
        }
        skeleton.push_str(l.text);
    }
    if lexed.unclosed {
        return Err(PortableError::Malformed("unclosed '['".into()));
    }
    let hir = regex_syntax::Parser::new()
        .parse(&skeleton)
        .map_err(|e| PortableError::Malformed(e.to_string()))?;
    if hir.properties().minimum_len().unwrap_or(1) == 0 {
        return Err(PortableError::MatchesEmpty);
    }
    Ok((PatternInfo { backrefs, groups }, hir))
}

/// Whether `text` starts with `{m}`, `{m,}` or `{m,n}` (ASCII digits,
/// nothing else inside), which every engine reads as a quantifier.
fn plain_quantifier(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('{') else {
        return false;
    };
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let lo = digits(rest);
    if lo == 0 {
        return false;
    }
    let rest = &rest[lo..];
    let rest = match rest.strip_prefix(',') {
        Some(r) => &r[digits(r)..],
        None => rest,
    };
    rest.starts_with('}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_lowering_vocabulary() {
        for p in [
            r"%%\n#stack:\n",
            r"(%%\n#stack:\n)([^#%\n]*)\n\2\n",
            r"`([0-9]??)([0-9]??)\|",
            r"(?:T\n[TF]|F\nT)\n",
            r"`i{10}(i*);",
            r"a\.b\$c",
        ] {
            check(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        }
        assert!(check(r"(a)\1").unwrap().backrefs);
        assert_eq!(check(r"(a)(?:b)(c)").unwrap().groups, 2);
    }

    #[test]
    fn rejects_each_non_portable_construct() {
        type Expect = fn(&PortableError) -> bool;
        let cases: [(&str, Expect); 18] = [
            ("a{ 1}", |e| matches!(e, PortableError::Brace(1))),
            ("a{,2}", |e| matches!(e, PortableError::Brace(1))),
            ("a{1", |e| matches!(e, PortableError::Brace(1))),
            ("a(?=b)", |e| matches!(e, PortableError::LookAround(1))),
            ("a(?<!b)", |e| matches!(e, PortableError::LookAround(1))),
            ("(?i)a", |e| matches!(e, PortableError::GroupSyntax(0))),
            ("(?P<x>a)", |e| matches!(e, PortableError::GroupSyntax(0))),
            ("(?>a)", |e| matches!(e, PortableError::GroupSyntax(0))),
            ("a$", |e| matches!(e, PortableError::Dollar(1))),
            ("a^", |e| matches!(e, PortableError::Caret(1))),
            ("a*+", |e| matches!(e, PortableError::Possessive(2))),
            (r"\d", |e| matches!(e, PortableError::Escape(0, 'd'))),
            ("[a[b]]", |e| matches!(e, PortableError::ClassSyntax(2))),
            ("[a&&b]", |e| matches!(e, PortableError::ClassSyntax(2))),
            ("a*", |e| matches!(e, PortableError::MatchesEmpty)),
            ("^$", |e| matches!(e, PortableError::MatchesEmpty)),
            ("(a", |e| matches!(e, PortableError::Malformed(_))),
            (r"(a)\10", |e| matches!(e, PortableError::BackrefDigit(3))),
        ];
        for (p, ok) in cases {
            let e = check(p).expect_err(p);
            assert!(ok(&e), "{p:?} gave {e:?}");
        }
        assert_eq!(check(r"(a*)\1"), Err(PortableError::MatchesEmpty));
    }
}
