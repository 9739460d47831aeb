//! Reading a pattern's text: the one place that walks a pattern
//! character by character.
//!
//! [`lex`] cuts a pattern into [`Lexeme`]s: escapes (`\` and the character
//! after it), back-references (`\1`..`\9` outside a class), the brackets
//! that open and close a class, and single characters, each with its
//! place and whether it lies inside a class. Everything else about a
//! pattern is read from its parsed form (`regex-syntax`'s HIR, in
//! `analysis`); what `regex-syntax` cannot see, it reads from these
//! lexemes: back-references (which `regex-syntax` does not know), and the
//! constructs the portable subset forbids (`portable`); `format` writes
//! JavaScript regex literals from them. Classes follow the
//! portable subset's reading: `[` opens one outside a class, the first `]`
//! inside closes it (a `]` first in a class, which Python and Rust read as
//! a literal, is forbidden there), and there is no nesting. It decides
//! nothing and compiles nothing.

/// What one lexeme is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// `\` and this character (not a back-reference).
    Escape(char),
    /// `\N` outside a class, `N` in 1..=9; `then_digit` when a digit
    /// follows (`\12`, which Python reads as group 12 and Rust as group 1
    /// then `2`).
    Backref { group: u32, then_digit: bool },
    /// A trailing `\` with nothing after it.
    TrailingBackslash,
    /// `[` outside a class, or `[^` when `negated`.
    ClassOpen { negated: bool },
    /// `]` closing a class.
    ClassClose,
    /// Any other character, inside or outside a class.
    Char(char),
}

/// One lexeme of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lexeme<'p> {
    /// What it is.
    pub(crate) token: Token,
    /// Where it starts, in characters from the pattern's start.
    pub(crate) at: usize,
    /// Its text in the pattern.
    pub(crate) text: &'p str,
    /// It lies inside a class (the brackets themselves do not).
    pub(crate) in_class: bool,
}

/// A pattern cut into lexemes.
#[derive(Debug, Clone)]
pub(crate) struct Lexed<'p> {
    /// The lexemes, in order; their texts make up the pattern.
    pub(crate) lexemes: Vec<Lexeme<'p>>,
    /// A class is still open at the end.
    pub(crate) unclosed: bool,
}

impl Lexed<'_> {
    /// The token of the lexeme at `i`, if any.
    pub(crate) fn token(&self, i: usize) -> Option<Token> {
        self.lexemes.get(i).map(|l| l.token)
    }

    /// Whether the pattern has a back-reference.
    pub(crate) fn has_backrefs(&self) -> bool {
        self.lexemes
            .iter()
            .any(|l| matches!(l.token, Token::Backref { .. }))
    }
}

/// Whether `pattern` has a back-reference (`\1`..`\9` outside a class),
/// as [`Lexed::has_backrefs`] says. A reference is a backslash and a digit
/// side by side, so a pattern without that pair has none and is not lexed
/// (most patterns: a deep program asks this of each of its hundreds of
/// thousands of rewrites).
pub(crate) fn has_backrefs(pattern: &str) -> bool {
    let pair = pattern
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && (b'1'..=b'9').contains(&w[1]));
    pair && lex(pattern).has_backrefs()
}

/// Cuts `pattern` into lexemes (see the module documentation).
pub(crate) fn lex(pattern: &str) -> Lexed<'_> {
    let mut lexemes = Vec::new();
    let mut in_class = false;
    let mut chars = pattern.char_indices().enumerate().peekable();
    while let Some((at, (start, c))) = chars.next() {
        let token = match c {
            '\\' => match chars.next() {
                None => Token::TrailingBackslash,
                Some((_, (_, d))) if !in_class && ('1'..='9').contains(&d) => Token::Backref {
                    group: u32::from(d) - u32::from('0'),
                    then_digit: chars.peek().is_some_and(|(_, (_, n))| n.is_ascii_digit()),
                },
                Some((_, (_, d))) => Token::Escape(d),
            },
            '[' if !in_class => {
                let negated = chars.next_if(|(_, (_, n))| *n == '^').is_some();
                Token::ClassOpen { negated }
            }
            ']' if in_class => Token::ClassClose,
            c => Token::Char(c),
        };
        let end = chars.peek().map_or(pattern.len(), |(_, (i, _))| *i);
        let inside = in_class && token != Token::ClassClose;
        match token {
            Token::ClassOpen { .. } => in_class = true,
            Token::ClassClose => in_class = false,
            _ => {}
        }
        lexemes.push(Lexeme {
            token,
            at,
            text: &pattern[start..end],
            in_class: inside,
        });
    }
    Lexed {
        lexemes,
        unclosed: in_class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(pattern: &str) -> Vec<Token> {
        lex(pattern).lexemes.iter().map(|l| l.token).collect()
    }

    #[test]
    fn escapes_classes_and_back_references() {
        use Token::*;
        assert_eq!(
            tokens(r"(a)\1[^\1]\12\n"),
            vec![
                Char('('),
                Char('a'),
                Char(')'),
                Backref {
                    group: 1,
                    then_digit: false
                },
                ClassOpen { negated: true },
                Escape('1'),
                ClassClose,
                Backref {
                    group: 1,
                    then_digit: true
                },
                Char('2'),
                Escape('n'),
            ]
        );
        assert_eq!(tokens(r"[a[\]]]"), {
            let mut v = vec![ClassOpen { negated: false }];
            v.extend([Char('a'), Char('['), Escape(']'), ClassClose, Char(']')]);
            v
        });
        assert_eq!(tokens("a\\"), vec![Char('a'), TrailingBackslash]);
        assert!(lex("[ab").unclosed && !lex("[ab]").unclosed);
    }

    #[test]
    fn lexemes_cover_the_pattern_with_their_places() {
        for pattern in [r"é[^%\n]*?\1(?:x|y)\\", r"[^]a]", "", r"\"] {
            let lexed = lex(pattern);
            let text: String = lexed.lexemes.iter().map(|l| l.text).collect();
            assert_eq!(text, pattern);
            let mut at = 0;
            for l in &lexed.lexemes {
                assert_eq!(l.at, at, "{pattern}");
                at += l.text.chars().count();
            }
        }
        let inside: Vec<bool> = lex("a[b]").lexemes.iter().map(|l| l.in_class).collect();
        assert_eq!(inside, vec![false, false, true, false]);
    }

    #[test]
    fn the_quick_back_reference_answer_is_the_lexers() {
        for (pattern, refs) in [
            (r"(a)\1", true),
            (r"(a)\\\1", true),
            (r"(a)\\1", false),
            (r"(a)[\1]", false),
            (r"(a)\0\n", false),
            (r"(a)", false),
            ("", false),
        ] {
            assert_eq!(has_backrefs(pattern), refs, "{pattern}");
            assert_eq!(lex(pattern).has_backrefs(), refs, "{pattern}");
        }
    }
}
