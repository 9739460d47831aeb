//! How an error message quotes text it was given: at most
//! [`EXCERPT_CHARS`] characters, so that a pattern or a line of any length
//! gives a message of bounded length.
//!
//! It owns only the cut; the caller decides how to escape what it quotes
//! (`{:?}` in every message of this workspace).

/// The most characters of an input an error message quotes.
pub const EXCERPT_CHARS: usize = 100;

/// `text` itself when it has at most [`EXCERPT_CHARS`] characters, else
/// its first [`EXCERPT_CHARS`] followed by `...`.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_keeps_at_most_its_characters() {
        assert_eq!(excerpt("abc"), "abc");
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = "é".repeat(EXCERPT_CHARS + 1);
        assert_eq!(excerpt(&long), "é".repeat(EXCERPT_CHARS) + "...");
    }
}
