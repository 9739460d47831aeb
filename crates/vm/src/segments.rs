//! The state as pieces: the text before the first thread, then one piece
//! per thread.
//!
//! The executor keeps the state split this way so that a rewrite that can
//! only match inside one thread runs on the threads it can touch, and only
//! the pieces it changes are rebuilt. [`Pieces::join`] gives back exactly
//! the original string; nothing here interprets instructions.

/// Where threads start: at each `%` not preceded by another `%` (the
/// second `%` of an active thread's `%%` is part of its tag line).
pub fn thread_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'%', bytes).filter(move |&i| i == 0 || bytes[i - 1] != b'%')
}

/// The kind of a thread piece, from its tag line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The text before the first thread.
    Prefix,
    /// `%%`.
    Active,
    /// `` %` ``: active, marked by the current instruction.
    Marked,
    /// Any other tag.
    Paused,
}

/// The kind of a piece's text.
pub fn kind_of(text: &str) -> Kind {
    let b = text.as_bytes();
    match (b.first(), b.get(1)) {
        (Some(b'%'), Some(b'%')) => Kind::Active,
        (Some(b'%'), Some(b'`')) => Kind::Marked,
        (Some(b'%'), _) => Kind::Paused,
        _ => Kind::Prefix,
    }
}

/// The pieces of a state.
#[derive(Debug, Clone, Default)]
pub struct Pieces {
    /// `texts[0]` is the prefix (maybe empty); the others are threads.
    pub texts: Vec<String>,
    /// Total length in bytes.
    pub len: usize,
}

impl Pieces {
    /// Splits a state.
    pub fn split(state: &str) -> Pieces {
        let mut texts = Vec::new();
        let mut last = 0;
        for start in thread_starts(state) {
            texts.push(state[last..start].to_string());
            last = start;
        }
        texts.push(state[last..].to_string());
        Pieces {
            texts,
            len: state.len(),
        }
    }

    /// The state string.
    pub fn join(&self) -> String {
        let mut out = String::with_capacity(self.len);
        for t in &self.texts {
            out.push_str(t);
        }
        out
    }

    /// Number of threads.
    pub fn threads(&self) -> usize {
        self.texts.len() - 1
    }

    /// Replaces piece `i` by `text`, which must be one piece of the same
    /// shape (a thread for a thread, thread-free text for the prefix).
    pub fn replace(&mut self, i: usize, text: String) {
        self.len = self.len + text.len() - self.texts[i].len();
        self.texts[i] = text;
    }

    /// Whether `text` can stand in for piece `i` without re-splitting.
    pub fn fits(i: usize, text: &str) -> bool {
        let mut starts = thread_starts(text);
        match starts.next() {
            None => i == 0,
            Some(0) => i != 0 && starts.next().is_none(),
            Some(_) => false,
        }
    }

    /// Replaces pieces by texts of any shape, re-splitting as needed:
    /// `changes` lists (piece index, new text) in increasing index order.
    pub fn rebuild(&mut self, changes: Vec<(usize, String)>) {
        let mut texts: Vec<String> = Vec::with_capacity(self.texts.len() + changes.len());
        let mut changes = changes.into_iter().peekable();
        for (i, old) in std::mem::take(&mut self.texts).into_iter().enumerate() {
            let text = match changes.peek() {
                Some((j, _)) if *j == i => changes.next().map(|(_, t)| t).unwrap_or_default(),
                _ => old,
            };
            let mut last = 0;
            for start in thread_starts(&text) {
                push_piece(&mut texts, &text[last..start], i == 0 && last == 0);
                last = start;
            }
            push_piece(&mut texts, &text[last..], i == 0 && last == 0);
        }
        if texts.is_empty() {
            texts.push(String::new());
        }
        self.len = texts.iter().map(String::len).sum();
        self.texts = texts;
    }
}

/// Appends a piece: text that starts a thread becomes a new piece; text
/// that does not continues the previous piece (or is the prefix).
fn push_piece(texts: &mut Vec<String>, piece: &str, is_prefix: bool) {
    if is_prefix && texts.is_empty() {
        texts.push(piece.to_string());
        return;
    }
    if piece.as_bytes().first() == Some(&b'%') {
        texts.push(piece.to_string());
    } else if let Some(last) = texts.last_mut() {
        last.push_str(piece);
    } else {
        texts.push(piece.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_join_round_trip() {
        for s in [
            "",
            "screen\n",
            "%%\n#stack:\n",
            "pre\n%%\n#stack:\nx\n%t\n#stack:\n%`\n#stack:\n",
        ] {
            let p = Pieces::split(s);
            assert_eq!(p.join(), s);
            assert_eq!(p.len, s.len());
            assert_eq!(kind_of(&p.texts[0]), Kind::Prefix);
        }
        let p = Pieces::split("a%%\n#stack:\n%t\n#stack:\n");
        assert_eq!(p.texts, ["a", "%%\n#stack:\n", "%t\n#stack:\n"]);
    }

    #[test]
    fn rebuild_splits_forks_and_drops_deletions() {
        let mut p = Pieces::split("pre%%\nA\n%%\nB\n%%\nC\n");
        p.rebuild(vec![
            (1, "%%\nA1\n%x\nA2\n".into()),
            (2, String::new()),
            (3, "tail\n".into()),
        ]);
        assert_eq!(p.texts, ["pre", "%%\nA1\n", "%x\nA2\ntail\n"]);
        assert_eq!(p.join(), "pre%%\nA1\n%x\nA2\ntail\n");
        let mut p = Pieces::split("%%\nA\n");
        p.rebuild(vec![(1, "gone".into())]);
        assert_eq!(p.texts, ["gone"]);
        assert_eq!(p.join(), "gone");
    }
}
