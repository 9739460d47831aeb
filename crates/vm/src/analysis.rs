//! What the executor can prove about a pattern before running it.
//!
//! Two facts, both derived from the pattern's text alone (no metadata is
//! trusted): where its matches can lie ([`Reach`]), and a literal every
//! match contains ([`Analysis::needle`]) to skip a piece of text cheaply.
//! A pattern that begins with a thread head (`%%`, `` %` ``, `%tag\n`) and
//! whose rest can never match `%` only ever matches inside one thread of
//! that kind; a pattern that can never match `%` at all only ever matches
//! inside one thread or inside the text before the first thread. Anything
//! else, and anything anchored with `^`, reaches the whole state. This
//! module runs nothing.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Which pieces of the state a pattern's matches can lie in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Anywhere; the pattern runs on the whole state.
    Global,
    /// Inside one piece (the text before the first thread, or one thread),
    /// of any kind.
    AnyPiece,
    /// Inside one active thread (`%%`).
    Active,
    /// Inside one thread marked by the current instruction (`` %` ``).
    Marked,
    /// Inside one thread paused under this tag.
    Tagged(String),
}

/// The result of the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Where matches can lie.
    pub reach: Reach,
    /// A literal every match contains, if any: the longest found past
    /// the text a match starts with, else the longest found.
    pub needle: Option<String>,
    /// The needle is part of the literal text every match starts with
    /// (so it cannot tell apart two places where a match may start).
    pub needle_leads: bool,
    /// The pattern has an anchor or a look-around (`^`, `$`, `\b`, ...),
    /// or could not be read: what matches at a place may depend on the
    /// text before it.
    pub looks: bool,
}

/// Analyses a pattern (back-references allowed).
pub fn analyse(pattern: &str) -> Analysis {
    let skeleton = skeleton(pattern);
    let (reach, inner) = head(&skeleton);
    let Ok(hir) = regex_syntax::Parser::new().parse(&inner) else {
        return Analysis {
            reach: Reach::Global,
            needle: None,
            needle_leads: false,
            looks: true,
        };
    };
    let reach = if pattern.starts_with('^') || can_match_percent(&hir) {
        Reach::Global
    } else {
        reach
    };
    let mut runs = Runs::default();
    runs.read(&hir);
    runs.flush();
    // Placeholders (a head's `%`, a back-reference) are not text a match
    // must contain: only the chunks between them are. A chunk of the
    // run a match starts with (`leads`) is found anyway where the match
    // starts; a chunk further on can tell a thread without a match from
    // one with, so the longest of those (two bytes or more) is preferred.
    // Otherwise the longest chunk.
    let first_leads = runs.first_leads;
    let chunks: Vec<(bool, String)> = runs
        .done
        .into_iter()
        .enumerate()
        .filter_map(|(i, b)| {
            String::from_utf8(b)
                .ok()
                .map(|s| (i == 0 && first_leads, s))
        })
        .flat_map(|(leads, s)| {
            s.split(['\u{1}', '\u{2}'])
                .map(|c| (leads, c.to_string()))
                .collect::<Vec<_>>()
        })
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let further = chunks
        .iter()
        .filter(|(leads, c)| !leads && c.len() >= 2)
        .max_by_key(|(_, c)| c.len());
    let (needle, needle_leads) =
        match further.or_else(|| chunks.iter().max_by_key(|(_, c)| c.len())) {
            Some((leads, c)) => (Some(c.clone()), *leads),
            None => (None, false),
        };
    Analysis {
        reach,
        needle,
        needle_leads,
        looks: !hir.properties().look_set().is_empty(),
    }
}

/// The pattern with each back-reference replaced by the placeholder
/// `\x02`: it matches text its group matched (so it adds no character
/// that could be `%` unless the group could), and it separates the
/// literals around it, which are not adjacent in a match.
fn skeleton(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(d) = chars.next() else {
                    out.push('\\');
                    break;
                };
                if !in_class && ('1'..='9').contains(&d) {
                    out.push_str(r"\x02");
                    continue;
                }
                out.push('\\');
                out.push(d);
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Splits off a leading thread head: returns its reach and the pattern
/// with the head's `%` characters replaced by a character no state
/// contains (`\x01`), so that the rest can be checked for `%`.
fn head(pattern: &str) -> (Reach, String) {
    let opens = pattern.chars().take_while(|&c| c == '(').count();
    let rest = &pattern[opens..];
    let (reach, percents) = if rest.starts_with("%%") {
        (Reach::Active, 2)
    } else if rest.starts_with("%`") {
        (Reach::Marked, 1)
    } else if let Some(tail) = rest.strip_prefix('%') {
        match tail.find(r"\n") {
            Some(end)
                if end > 0
                    && tail[..end]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
            {
                (Reach::Tagged(tail[..end].to_string()), 1)
            }
            _ => return (Reach::Global, pattern.to_string()),
        }
    } else {
        return (Reach::AnyPiece, pattern.to_string());
    };
    let mut inner = pattern[..opens].to_string();
    inner.push_str(&r"\x01".repeat(percents));
    inner.push_str(&rest[percents..]);
    (reach, inner)
}

/// For each group of `pattern` (0 is the whole match), whether the text
/// it captures can contain `%`; `None` when the pattern cannot be read.
pub fn groups_with_percent(pattern: &str) -> Option<Vec<bool>> {
    fn walk(hir: &Hir, out: &mut Vec<bool>) {
        match hir.kind() {
            HirKind::Capture(c) => {
                let i = c.index as usize;
                if out.len() <= i {
                    out.resize(i + 1, false);
                }
                out[i] = can_match_percent(&c.sub);
                walk(&c.sub, out);
            }
            HirKind::Repetition(r) => walk(&r.sub, out),
            HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().for_each(|h| walk(h, out)),
            _ => {}
        }
    }
    let hir = regex_syntax::Parser::new().parse(&skeleton(pattern)).ok()?;
    let mut out = vec![can_match_percent(&hir)];
    walk(&hir, &mut out);
    Some(out)
}

/// The text a pattern matches, when it matches exactly one text (no
/// class, repetition, alternation or group): such a pattern can be found
/// with a substring search.
pub fn literal_text(pattern: &str) -> Option<String> {
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    match hir.kind() {
        HirKind::Literal(lit) if !lit.0.is_empty() => String::from_utf8(lit.0.to_vec()).ok(),
        _ => None,
    }
}

fn can_match_percent(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(lit) => lit.0.contains(&b'%'),
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= '%' && '%' <= r.end()),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= b'%' && b'%' <= r.end()),
        HirKind::Repetition(r) => can_match_percent(&r.sub),
        HirKind::Capture(c) => can_match_percent(&c.sub),
        HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().any(can_match_percent),
    }
}

/// Runs of literal text every match contains, each whole (adjacent
/// literals joined across capture groups and fixed repetitions of a
/// literal), in order.
#[derive(Default)]
struct Runs {
    done: Vec<Vec<u8>>,
    current: Vec<u8>,
    /// Something of the pattern has been read.
    started: bool,
    /// The pattern starts with a literal: the first run is where every
    /// match starts.
    first_leads: bool,
}

impl Runs {
    fn read(&mut self, hir: &Hir) {
        match hir.kind() {
            HirKind::Literal(lit) => {
                if !self.started {
                    self.started = true;
                    self.first_leads = true;
                }
                self.current.extend_from_slice(&lit.0);
            }
            HirKind::Capture(c) => self.read(&c.sub),
            HirKind::Concat(hs) => hs.iter().for_each(|h| self.read(h)),
            HirKind::Repetition(r)
                if Some(r.min) == r.max
                    && (1..=64).contains(&r.min)
                    && matches!(r.sub.kind(), HirKind::Literal(_)) =>
            {
                for _ in 0..r.min {
                    self.read(&r.sub);
                }
            }
            HirKind::Repetition(r) if r.min >= 1 => {
                self.flush();
                self.read(&r.sub);
                self.flush();
            }
            _ => self.flush(),
        }
    }

    /// Ends the current run of literal text.
    fn flush(&mut self) {
        self.started = true;
        if !self.current.is_empty() {
            self.done.push(std::mem::take(&mut self.current));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_heads_and_percent_free_patterns() {
        let a = analyse(r"(%%\n#stack:\n[^%]*)#x:[^%\n]*\n");
        assert_eq!(a.reach, Reach::Active);
        assert_eq!(a.needle.as_deref(), Some("#x:"));
        assert_eq!(analyse(r"%`\n").reach, Reach::Marked);
        assert_eq!(analyse(r"%t12\n").reach, Reach::Tagged("t12".into()));
        assert_eq!(analyse(r"c{10}").reach, Reach::AnyPiece);
        assert_eq!(analyse(r"`(i*)\|5;").needle.as_deref(), Some("|5;"));
    }

    #[test]
    fn the_needle_joins_literals_and_prefers_one_past_the_start() {
        let a = analyse(r"(#dv:H*\|T*\|)i{2}\n");
        assert_eq!(
            (a.needle.as_deref(), a.needle_leads),
            (Some("|ii\n"), false)
        );
        let a = analyse(r"%%\n#stack:\n([^%]*?#t:([^%\n]*)\n)");
        assert_eq!((a.needle.as_deref(), a.needle_leads), (Some("#t:"), false));
        let a = analyse(r"#dv:H{2}\|");
        assert_eq!(
            (a.needle.as_deref(), a.needle_leads),
            (Some("#dv:HH|"), true)
        );
        let a = analyse(r"[ab]x(y)z");
        assert_eq!((a.needle.as_deref(), a.needle_leads), (Some("xyz"), false));
        assert!(!a.looks);
        assert!(analyse(r"^ab").looks);
    }

    #[test]
    fn anything_that_can_cross_a_thread_is_global() {
        for p in [
            r"%%\n[^\n]*",
            r"%%\n.",
            r"(%%\n#stack:\n)F\n([^%]*)%%\n[^%]*",
            r"^$",
            r"Your move: [^\n]*",
            r"%tag",
        ] {
            assert_eq!(analyse(p).reach, Reach::Global, "{p}");
        }
    }

    #[test]
    fn groups_that_can_hold_a_thread_head() {
        assert_eq!(
            groups_with_percent(r"(%%\n)([^%]*)(a|%)"),
            Some(vec![true, true, false, true])
        );
        assert_eq!(groups_with_percent(r"x(y)"), Some(vec![false, false]));
    }

    #[test]
    fn literal_patterns() {
        assert_eq!(literal_text(r"%t12\n").as_deref(), Some("%t12\n"));
        assert_eq!(literal_text(r"`iii;").as_deref(), Some("`iii;"));
        assert_eq!(literal_text(r"a\.b").as_deref(), Some("a.b"));
        assert_eq!(literal_text(r"[a]b").as_deref(), Some("ab"));
        for p in [r"(ab)", r"a|b", r"ab*", r"[ab]c", r"a\1"] {
            assert_eq!(literal_text(p), None, "{p}");
        }
    }

    #[test]
    fn back_references_are_seen_through() {
        let a = analyse(r"%%(\n#stack:\n)([^#%\n]*)\n\2\n");
        assert_eq!(a.reach, Reach::Active);
        // "\n\n" is not required: the back-reference sits between.
        assert_eq!(a.needle.as_deref(), Some("\n#stack:\n"));
    }
}
