//! A pattern's characters under a cursor, and the error CPython raises
//! at a place: what the readers of pattern syntax (`parse`, `escape`,
//! `flags`) share. It knows no syntax and builds no tree.

/// A pattern CPython refuses (or one past our nesting limit).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", at_position(.pos))]
pub struct PatternError {
    /// What is wrong.
    pub message: String,
    /// Where, in characters from the pattern's start, when CPython says.
    pub pos: Option<usize>,
}

fn at_position(pos: &Option<usize>) -> String {
    pos.map_or(String::new(), |p| format!(" at position {p}"))
}

/// The refusal `message` at `pos` (in characters).
pub(crate) fn error(message: impl Into<String>, pos: usize) -> PatternError {
    PatternError {
        message: message.into(),
        pos: Some(pos),
    }
}

/// A pattern's characters and the place being read (positions count
/// characters, as CPython's messages do).
pub(crate) struct Cursor {
    pub(crate) chars: Vec<char>,
    pub(crate) pos: usize,
}

impl Cursor {
    /// The start of `pattern`.
    pub(crate) fn new(pattern: &str) -> Cursor {
        Cursor {
            chars: pattern.chars().collect(),
            pos: 0,
        }
    }

    /// The character at the place, if any.
    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// The character `ahead` after the place, if any.
    pub(crate) fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    /// Steps over `c` if it is at the place.
    pub(crate) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
}
