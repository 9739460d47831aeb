//! The generated cases of `bench --engine`: patterns of the shapes only
//! the Python engine runs as CPython does (back-references, look-around,
//! alternations of many branches, possessive loops and atomic groups,
//! lazy loops), each with a replacement and a subject of the kind such a
//! pattern is written for (prose, records, lists, numbers, markup, the
//! threads of a state).
//!
//! Each shape has templates written as a person writes such patterns
//! for Python; a case fills one with what the seeded generator draws
//! (words, letters, counts, the subject's text), so a seed gives the same
//! cases on every machine. It writes cases; it runs nothing.

use chess::games::Rng;

/// What a pattern leans on the Python engine for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Shape {
    /// A back-reference.
    BackReference,
    /// A look-ahead or look-behind.
    LookAround,
    /// An alternation of many branches.
    Alternation,
    /// A possessive loop or an atomic group.
    Possessive,
    /// A lazy loop.
    Lazy,
}

impl Shape {
    /// Every shape, in report order.
    pub(crate) const ALL: [Shape; 5] = [
        Shape::BackReference,
        Shape::LookAround,
        Shape::Alternation,
        Shape::Possessive,
        Shape::Lazy,
    ];

    /// Its name in reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Shape::BackReference => "back-reference",
            Shape::LookAround => "look-around",
            Shape::Alternation => "alternation",
            Shape::Possessive => "possessive",
            Shape::Lazy => "lazy",
        }
    }

    fn templates(self) -> &'static [Template] {
        match self {
            Shape::BackReference => BACK_REFERENCES,
            Shape::LookAround => LOOK_AROUNDS,
            Shape::Alternation => ALTERNATIONS,
            Shape::Possessive => POSSESSIVES,
            Shape::Lazy => LAZIES,
        }
    }
}

/// One generated case.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The shape it was generated for.
    pub shape: Shape,
    /// `re.sub`'s arguments.
    pub pattern: String,
    pub replacement: String,
    pub subject: String,
}

/// `per_shape` cases of every shape from `seed`: the shape's templates in
/// turn, each filled with fresh draws.
pub(crate) fn generate(seed: u64, per_shape: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for shape in Shape::ALL {
        let templates = shape.templates();
        for i in 0..per_shape {
            let (pattern, replacement, subject) = templates[i % templates.len()](&mut rng);
            out.push(Case {
                shape,
                pattern,
                replacement,
                subject,
            });
        }
    }
    out
}

/// A template: the pattern, the replacement and the subject it draws.
type Template = fn(&mut Rng) -> (String, String, String);

/// The subject's size for patterns that scan from each place to a line's
/// end (about linear), in bytes.
const SIZE: usize = 16_000;
/// The subject's size for patterns that may scan the rest of the text from
/// each place they try (quadratic in the worst case).
const SMALL: usize = 3_000;

/// Words of the subjects and the alternations (first letters spread over
/// the alphabet).
const WORDS: &[&str] = &[
    "the", "a", "of", "and", "to", "in", "is", "it", "that", "was", "for", "on", "with", "as",
    "regex", "pattern", "state", "thread", "match", "rewrite", "engine", "python", "rust", "node",
    "pass", "program", "string", "group", "back", "look", "ahead", "behind", "branch", "stack",
    "variable", "board", "square", "move", "search", "score", "king", "queen", "rook", "bishop",
    "knight", "pawn", "castle", "check", "mate", "draw", "time", "fast", "slow", "copy", "text",
    "line", "word", "sort", "count", "list", "table", "digit", "carry", "grid", "cell", "life",
    "tape", "input", "output", "loop", "jump", "marker", "fork", "join", "merge", "split", "every",
    "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "zebra", "yak", "xenon", "vector",
    "umbrella", "owl", "igloo", "ember", "quartz", "jungle", "kettle", "violet", "walnut",
    "yellow", "zenith", "hundred", "ninety", "dozen",
];

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

/// `n` distinct words.
fn distinct_words(rng: &mut Rng, n: usize) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    while out.len() < n.min(WORDS.len()) {
        let w = pick(rng, WORDS);
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Prose: sentences of the words, capitals, commas, numbers now and then,
/// a doubled word now and then, a line every dozen words or so.
fn prose(rng: &mut Rng, size: usize) -> String {
    let mut out = String::new();
    let mut in_sentence = 0;
    while out.len() < size {
        let w = pick(rng, WORDS);
        if in_sentence == 0 {
            let mut chars = w.chars();
            if let Some(c) = chars.next() {
                out.push(c.to_ascii_uppercase());
                out.push_str(chars.as_str());
            }
        } else {
            out.push_str(w);
        }
        match rng.below(24) {
            0 => out.push_str(&format!(" {w}")),
            1 => out.push_str(&format!(" {}", rng.below(100_000))),
            2 => out.push(','),
            3 => out.push_str(&format!("{}", rng.below(1000))),
            _ => {}
        }
        in_sentence += 1;
        if rng.below(9) == 0 {
            out.push_str(if rng.below(4) == 0 { "!" } else { "." });
            in_sentence = 0;
        }
        out.push(if rng.below(12) == 0 { '\n' } else { ' ' });
    }
    out.push('\n');
    out
}

/// Lines of `word;word;...;`, with runs of a repeated item.
fn lists(rng: &mut Rng, size: usize) -> String {
    let mut out = String::new();
    while out.len() < size {
        for _ in 0..2 + rng.below(8) {
            let w = pick(rng, WORDS);
            for _ in 0..1 + rng.below(3) * rng.below(2) {
                out.push_str(w);
                out.push(';');
            }
        }
        out.push('\n');
    }
    out
}

/// Lines of `key=value`, keys from a small set (so they repeat).
fn records(rng: &mut Rng, size: usize, keys: usize) -> String {
    let mut out = String::new();
    while out.len() < size {
        let k = WORDS[rng.below(keys.min(WORDS.len()))];
        out.push_str(&format!("{k}={}\n", pick(rng, WORDS)));
    }
    out
}

/// The threads of a state: `%%` (active) or `%tag` (paused) heads, a
/// stack of numbers and words, variables `#name:value`.
fn threads(rng: &mut Rng, size: usize) -> String {
    let names = ["a", "b", "sq", "pc", "n", "best", "x"];
    let mut out = String::new();
    while out.len() < size {
        out.push_str(if rng.below(3) == 0 { "%t\n" } else { "%%\n" });
        out.push_str("#stack:\n");
        for _ in 0..rng.below(5) {
            if rng.below(2) == 0 {
                out.push_str(&format!("{}\n", rng.below(1000)));
            } else {
                out.push_str(&format!("{}\n", pick(rng, WORDS)));
            }
        }
        for name in names {
            if rng.below(3) > 0 {
                out.push_str(&format!("#{name}:{}\n", rng.below(500)));
            }
        }
    }
    out
}

/// Markup: words in `<tag>...</tag>`, some tags left open or closed by
/// another name.
fn markup(rng: &mut Rng, size: usize) -> String {
    let tags = ["b", "i", "em", "code", "span", "p"];
    let mut out = String::new();
    while out.len() < size {
        let t = pick(rng, &tags);
        let close = if rng.below(6) == 0 {
            pick(rng, &tags)
        } else {
            t
        };
        out.push_str(&format!("<{t}>"));
        for _ in 0..1 + rng.below(5) {
            out.push_str(pick(rng, WORDS));
            out.push(' ');
        }
        out.push_str(&format!("</{close}> "));
        if rng.below(8) == 0 {
            out.push('\n');
        }
    }
    out
}

/// `n` random digits.
fn digits(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

/// A word list kept one word a line (partly sorted), for the sorting
/// comparison of [`sink`].
fn word_lines(rng: &mut Rng, size: usize) -> String {
    let mut words: Vec<&str> = Vec::new();
    let mut len = 0;
    while len < size {
        let w = pick(rng, WORDS);
        len += w.len() + 1;
        words.push(w);
    }
    // Sorted in stretches, so that some neighbours are in order.
    for chunk in words.chunks_mut(7) {
        if rng.below(2) == 0 {
            chunk.sort_unstable();
        }
    }
    let mut out = String::from("\n");
    for w in words {
        out.push_str(w);
        out.push('\n');
    }
    out
}

/// The comparison of the corpus's `words` (a branch per letter where two
/// words first differ, each with a back-reference to their common start),
/// over the letters of `letters`: two neighbouring lines swap when the
/// first comes after the second.
fn sink(rng: &mut Rng) -> (String, String, String) {
    let mut letters: Vec<char> = ('b'..='z').collect();
    let keep = 8 + rng.below(18);
    while letters.len() > keep {
        letters.remove(rng.below(letters.len()));
    }
    let branches: Vec<String> = letters
        .iter()
        .map(|&c| {
            let below = char::from(c as u8 - 1);
            format!(r"{c}\w*\n\1[a-{below}]")
        })
        .collect();
    (
        format!(r"\n(?=(\w*)(?:{}))(\w+)\n(\w+)\n", branches.join("|")),
        r"\n\3\n\2\n".into(),
        word_lines(rng, SIZE),
    )
}

const BACK_REFERENCES: &[Template] = &[
    |rng| (r"\b(\w+) \1\b".into(), r"\1".into(), prose(rng, SIZE)),
    |rng| (r"([^;\n]*;)\1+".into(), r"\1".into(), lists(rng, SIZE)),
    |rng| {
        (
            r"(?m)^(\w+)=\w+\n(?=(?:[^\n]*\n)*?\1=)".into(),
            String::new(),
            {
                let keys = 6 + rng.below(20);
                records(rng, SMALL, keys)
            },
        )
    },
    |rng| {
        (
            r"<(\w+)>([^<]*)</\1>".into(),
            r"[\1:\2]".into(),
            markup(rng, SIZE),
        )
    },
    |rng| {
        (
            r"\b(\w)\w* (?=\1)".into(),
            r"\g<0>~".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let d = rng.below(10);
        (
            format!(r"(\d)\1{{{}}}", 1 + rng.below(2)),
            format!("<{d}>"),
            digits(rng, SIZE),
        )
    },
    |rng| {
        let var = pick(rng, &["a", "b", "sq", "n"]);
        (
            format!(r"(%%\n#stack:\n)(\d+)\n((?:[^%\n]*\n)*?#{var}:)\2\n"),
            r"\1T\n\3\2\n".into(),
            threads(rng, SIZE),
        )
    },
    |rng| {
        (
            r"(?i)\b(\w)\w*,? \1\w*".into(),
            r"<\g<0>>".into(),
            prose(rng, SIZE),
        )
    },
];

const LOOK_AROUNDS: &[Template] = &[
    |rng| {
        let n = 200 + rng.below(800);
        (
            format!(r"(\d)(?=\d*\nb: )(?=[\s\S]{{{}}}(\d))", n + 3),
            r"\1\2".into(),
            format!("a: {}\nb: {}\n", digits(rng, n), digits(rng, n)),
        )
    },
    |rng| {
        (
            r"[^a-z\n](?=[^\n]*\n\Z)".into(),
            " ".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let var = pick(rng, &["a", "b", "sq", "pc", "n"]);
        (format!(r"(?<=#{var}:)\d+"), "0".into(), threads(rng, SIZE))
    },
    |rng| {
        (
            r"(?<![\w.])\d+(?![\w.])".into(),
            r"#\g<0>".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let w = pick(rng, WORDS);
        (
            format!(r"(?m)^(?=[^\n]*\b{w}\b)[^\n]*\n"),
            String::new(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let letters: String = (0..300 + rng.below(300))
            .map(|_| char::from(b'A' + rng.below(19) as u8))
            .collect();
        let plus: String = (0..19)
            .map(|s| format!("{}{}", char::from(b'A' + s as u8), s % 10))
            .collect();
        (
            r"([A-S])(?=[A-S]*\nb: )(?=[\s\S]*\nplus: (?:[A-S]\d)*?\1(\d))".into(),
            r"\2".into(),
            format!("a: {letters}\nb: {letters}\nplus: {plus}\n"),
        )
    },
    |rng| {
        let mut text = String::new();
        while text.len() < SIZE {
            let n = 1 + rng.below(12);
            text.push_str(&digits(rng, n));
            text.push(if rng.below(5) == 0 { '\n' } else { ' ' });
        }
        (r"(?<=\d)(?=(?:\d{3})+(?!\d))".into(), ",".into(), text)
    },
    |rng| {
        let w = pick(rng, WORDS);
        (
            format!(r"\b\w+(?=[,;]|\s+{w}\b)"),
            r"<\g<0>>".into(),
            prose(rng, SIZE),
        )
    },
];

/// `\b(?:w1|w2|...)\b` over `n` words.
fn words_alternation(rng: &mut Rng, n: usize) -> String {
    distinct_words(rng, n).join("|")
}

const ALTERNATIONS: &[Template] = &[
    |rng| {
        let n = 6 + rng.below(25);
        (
            format!(r"\b(?:{})\b", words_alternation(rng, n)),
            r"<\g<0>>".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let n = 6 + rng.below(25);
        (
            format!(r"(?:{})(?=[ ,.])", words_alternation(rng, n)),
            r"_".into(),
            prose(rng, SIZE),
        )
    },
    sink,
    |rng| {
        let n = 5 + rng.below(20);
        let words = distinct_words(rng, n);
        let groups: Vec<String> = words.iter().map(|w| format!("({w})")).collect();
        (
            format!(r"\b(?:{})\b", groups.join("|")),
            r"[\1\3\5]".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let n = 6 + rng.below(25);
        (
            format!(r"(?i)\b(?:{})\b", words_alternation(rng, n)),
            r"#".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let n = 6 + rng.below(12);
        let words = distinct_words(rng, n);
        let branches: Vec<String> = words
            .iter()
            .enumerate()
            .map(|(i, w)| match i % 4 {
                0 => format!(r"{w}\d+"),
                1 => format!(r"{w}(?: {w})+"),
                2 => format!(r"[A-Z]{}", &w[1..]),
                _ => format!(r"{w}[,.!]"),
            })
            .collect();
        (
            format!(r"(?:{})", branches.join("|")),
            r"{\g<0>}".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let var = pick(rng, &["a", "b", "sq", "pc"]);
        let n = 4 + rng.below(8);
        let values: Vec<String> = (0..n).map(|_| rng.below(500).to_string()).collect();
        (
            format!(
                r"(%%\n#stack:\n(?:[^%]*?)#{var}:)(?:{})\n",
                values.join("|")
            ),
            r"\1hit\n".into(),
            threads(rng, SIZE),
        )
    },
];

const POSSESSIVES: &[Template] = &[
    |rng| (r"[a-z]++[0-9]".into(), r"<\g<0>>".into(), prose(rng, SIZE)),
    |rng| (r"(?:\w+;)*+\n".into(), r"!\n".into(), lists(rng, SIZE)),
    |rng| {
        let mut text = String::new();
        while text.len() < SIZE {
            text.push('"');
            for _ in 0..rng.below(6) {
                text.push_str(pick(rng, WORDS));
                text.push_str(pick(rng, &[" ", r#"\""#, r"\\", " "]));
            }
            text.push_str(if rng.below(8) == 0 { "\n" } else { "\" + " });
        }
        (r#""(?:[^"\\\n]++|\\.)*+""#.into(), "S".into(), text)
    },
    |rng| (r"(?>\d+)[a-z]".into(), r"_".into(), prose(rng, SIZE)),
    |rng| {
        let mut text = String::new();
        while text.len() < SIZE {
            let n = rng.below(6);
            text.push_str(&digits(rng, n));
            text.push_str(pick(rng, &[".", ",", " ", "."]));
            let n = rng.below(4);
            text.push_str(&digits(rng, n));
            text.push(' ');
        }
        (r"\d*+\.\d++".into(), r"F".into(), text)
    },
    |rng| {
        let mut text = String::new();
        while text.len() < SIZE {
            for _ in 0..rng.below(6) {
                text.push_str(pick(rng, &["ab", "cd", "ef", "a", "x"]));
            }
            text.push(' ');
        }
        (r"(?:ab|cd|ef)++x".into(), r"X".into(), text)
    },
    |rng| {
        let var = pick(rng, &["a", "b", "sq", "pc"]);
        (
            format!(r"%%\n#stack:\n(?:[^\n%#]++\n)*+#{var}:"),
            r"\g<0>=".into(),
            threads(rng, SIZE),
        )
    },
];

const LAZIES: &[Template] = &[
    |rng| (r"<(\w+)>(.*?)</\1>".into(), r"\2".into(), markup(rng, SIZE)),
    |rng| {
        let mut text = prose(rng, SIZE);
        for _ in 0..SIZE / 200 {
            let at = rng.below(text.len());
            if text.is_char_boundary(at) {
                text.insert(at, if rng.below(2) == 0 { '{' } else { '}' });
            }
        }
        (r"\{(.*?)\}".into(), r"(\1)".into(), text)
    },
    |rng| {
        let mut text = prose(rng, SIZE);
        for _ in 0..SIZE / 400 {
            let at = rng.below(text.len());
            let mark = if rng.below(2) == 0 { "BEGIN" } else { "END" };
            if text.is_char_boundary(at) {
                text.insert_str(at, mark);
            }
        }
        (r"(?s)BEGIN(.*?)END".into(), r"[\1]".into(), text)
    },
    |rng| {
        (
            r"(?m)^(.*?),(.*?)$".into(),
            r"\2,\1".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        let var = pick(rng, &["a", "b", "sq", "pc", "n"]);
        (
            format!(r"%%\n#stack:\n((?:[^\n]*\n)*?)#{var}:(\d+)"),
            r"%%\n#stack:\n\2\n\1#v:".into(),
            threads(rng, SMALL),
        )
    },
    |rng| {
        (
            r"\b(\w+?)(ing|ed|s)\b".into(),
            r"\1".into(),
            prose(rng, SIZE),
        )
    },
    |rng| {
        // The corpus's `words` bucket placement: a `+word` line at the
        // top goes to the head of its letter's bucket.
        let mut text = String::new();
        for _ in 0..4 + rng.below(10) {
            text.push_str(&format!("+{}\n", pick(rng, WORDS)));
        }
        for c in 'a'..='z' {
            text.push_str(&format!("#{c}\n"));
            for _ in 0..rng.below(6) {
                text.push_str(&format!("{} ***\n", pick(rng, WORDS)));
            }
        }
        (
            r"\+(\w)(\w*)\n((?:[^\n]*\n)*?)#\1\n".into(),
            r"\3#\1\n>\1\2 *\n".into(),
            text,
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_cases_and_every_shape_its_templates() {
        let a = generate(5, 9);
        let b = generate(5, 9);
        assert_eq!(a.len(), 45);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((&x.pattern, &x.subject), (&y.pattern, &y.subject));
        }
        for shape in Shape::ALL {
            let patterns: std::collections::BTreeSet<&str> = a
                .iter()
                .filter(|c| c.shape == shape)
                .map(|c| c.pattern.as_str())
                .collect();
            assert!(patterns.len() >= 5, "{}: {patterns:?}", shape.name());
        }
        assert_ne!(generate(6, 9)[0].subject, a[0].subject);
    }

    #[test]
    fn every_generated_pattern_loads() {
        for case in generate(1, 10) {
            let pairs = [(case.pattern.clone(), case.replacement.clone())];
            regex_vm::python::load(&pairs).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
