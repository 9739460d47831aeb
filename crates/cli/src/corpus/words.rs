//! `words`: a word count over a few hundred records, kept sorted, as a
//! person writes it with Python's `re`.
//!
//! The state is one bucket per first letter (`#a` .. `#z`), each holding
//! its words in order with a tally (`word ***`), then `end`. Each input
//! line is a record: its capitals become small letters (a rewrite per
//! letter), everything else but letters becomes a space, the record moves
//! to the top and splits into one `+word` line per word; each word goes
//! to the head of its bucket (found by a back-reference to its first
//! letter), marked `>`, and sinks past every smaller word, one line per
//! rewrite (past marked words too): the comparison is a 26-way
//! alternation, one branch per letter where the two words first differ,
//! each with a back-reference to their common beginning; after each step
//! a marked word right above its equal takes its tally. The marks go at
//! the end of the pass. It writes the program and the records; it runs nothing.

/// Words a record may hold, at most.
const WORDS_PER_RECORD: usize = 14;
/// Words a bucket may hold, at most (every word sinks this far).
const BUCKET: usize = 40;
/// Records in the input.
const RECORDS: usize = 300;

/// The words the records are made of.
const VOCABULARY: &[&str] = &[
    "the",
    "a",
    "of",
    "and",
    "to",
    "in",
    "is",
    "it",
    "that",
    "was",
    "for",
    "on",
    "with",
    "as",
    "regex",
    "pattern",
    "state",
    "thread",
    "match",
    "rewrite",
    "engine",
    "python",
    "rust",
    "node",
    "pass",
    "program",
    "string",
    "group",
    "back",
    "reference",
    "look",
    "ahead",
    "behind",
    "alternation",
    "branch",
    "stack",
    "variable",
    "board",
    "square",
    "move",
    "search",
    "ply",
    "score",
    "king",
    "queen",
    "rook",
    "bishop",
    "knight",
    "pawn",
    "castle",
    "check",
    "mate",
    "draw",
    "time",
    "fast",
    "slow",
    "copy",
    "text",
    "line",
    "word",
    "sort",
    "count",
    "list",
    "table",
    "tally",
    "digit",
    "carry",
    "sum",
    "grid",
    "cell",
    "life",
    "glider",
    "tape",
    "input",
    "output",
    "loop",
    "jump",
    "bracket",
    "marker",
    "tag",
    "pause",
    "wake",
    "fork",
    "join",
    "merge",
    "split",
    "every",
    "each",
    "many",
    "few",
    "some",
    "all",
    "none",
    "one",
    "two",
    "three",
    "four",
    "five",
    "hundred",
    "thousand",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "zebra",
    "yak",
    "xylophone",
    "vector",
    "umbrella",
    "owl",
    "igloo",
    "ember",
    "quartz",
    "jungle",
    "kettle",
    "violet",
    "walnut",
    "yellow",
    "zenith",
    "xenon",
];

/// A small deterministic generator (a linear congruential one), so the
/// records are the same on every machine.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The records: sentences of the vocabulary, the common words more
/// common, with capitals and punctuation.
pub(crate) fn input() -> String {
    let mut dice = Dice(67);
    let mut out = String::new();
    for _ in 0..RECORDS {
        let len = 3 + dice.roll(WORDS_PER_RECORD - 2);
        for k in 0..len {
            // The smaller of two rolls: early words come up more often.
            let n = VOCABULARY.len();
            let word = VOCABULARY[dice.roll(n).min(dice.roll(n))];
            if k == 0 {
                let mut chars = word.chars();
                if let Some(first) = chars.next() {
                    out.push(first.to_ascii_uppercase());
                    out.push_str(chars.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(word);
            }
            if k + 1 < len && dice.roll(7) == 0 {
                out.push(',');
            }
        }
        out.push_str(if dice.roll(5) == 0 { "!\n" } else { ".\n" });
    }
    out
}

/// The comparison: at a line `first`, followed by a line `second`, true
/// where the first word comes after the second (their common beginning
/// is group `g`).
fn after(g: usize) -> String {
    let mut branches: Vec<String> = ('b'..='z')
        .map(|c| {
            let below = (c as u8 - 1) as char;
            let class = if below == 'a' {
                "a".to_string()
            } else {
                format!("[a-{below}]")
            };
            format!(r"{c}\w* \**\n>?\{g}{class}")
        })
        .collect();
    branches.push(format!(r"\w+ \**\n>?\{g} "));
    format!(r"(?=(\w*)(?:{}))", branches.join("|"))
}

/// The program.
pub(crate) fn program() -> Vec<(String, String)> {
    let buckets: String = ('a'..='z').map(|c| format!(r"#{c}\n")).collect();
    let mut out: Vec<(String, String)> = vec![("^$".into(), format!(r"{buckets}end\n"))];
    for c in 'A'..='Z' {
        out.push((
            format!(r"{c}(?=[^\n]*\n\Z)"),
            c.to_ascii_lowercase().to_string(),
        ));
    }
    out.push((r"[^a-z\n](?=[^\n]*\n\Z)".into(), " ".into()));
    out.push((r"\A([\s\S]*\nend\n)([^\n]*)\n\Z".into(), r">\2\n\1".into()));
    for _ in 0..WORDS_PER_RECORD {
        out.push((r"(?m)^> *([a-z]+) *".into(), r"+\1\n>".into()));
    }
    out.push((r"(?m)^> *\n".into(), String::new()));
    for _ in 0..WORDS_PER_RECORD {
        out.push((
            r"\+(\w)(\w*)\n((?:[^\n]*\n)*?)#\1\n".into(),
            r"\3#\1\n>\1\2 *\n".into(),
        ));
    }
    let sink = format!(r"\n>{}(\w+ \**)\n(>?\w+ \**)\n", after(1));
    for _ in 0..BUCKET {
        out.push((sink.clone(), r"\n\3\n>\2\n".into()));
        out.push((
            r"\n>(\w+) (\**)\n>?\1 (\**)\n".into(),
            r"\n>\1 \2\3\n".into(),
        ));
    }
    out.push((r"\n>".into(), r"\n".into()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_records_are_a_few_hundred_lines_of_words() {
        let text = input();
        assert_eq!(text.lines().count(), RECORDS);
        assert!(text
            .lines()
            .all(|l| l.split_whitespace().count() <= WORDS_PER_RECORD));
        assert!(VOCABULARY
            .iter()
            .all(|w| w.bytes().all(|b| b.is_ascii_lowercase())));
        assert!(after(1).contains(r"|z\w* \**\n>?\1[a-y]|"));
    }
}
