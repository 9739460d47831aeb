//! Generators of the Python differential tests: patterns covering every
//! construct of Python's syntax (and some malformed ones), subjects over
//! alphabets where the constructs differ (ASCII, the chess state's
//! characters, non-ASCII digits, letters, case partners and whitespace,
//! `\x1c`-`\x1f`, astral letters), replacement templates.
//!
//! A pattern is generated as a tree ([`Piece`]) and written out
//! ([`render`]) with the groups numbered as they are written, so that
//! back-references and conditionals mostly name groups that exist (and
//! sometimes ones that do not, which CPython refuses).

use proptest::prelude::*;

use super::Case;

/// Characters of literals and subjects: ASCII letters and digits, the
/// state's characters, case partners that fold oddly (`İ ı ſ K ẞ σ ς`),
/// non-ASCII digits, letters and whitespace, astral letters with case.
pub(crate) const CHARS: &[char] = &[
    'a',
    'b',
    'c',
    'a',
    'b',
    'A',
    'B',
    'k',
    'K',
    's',
    'S',
    'i',
    'I',
    '0',
    '1',
    '2',
    '9',
    '%',
    '#',
    ':',
    '\n',
    '\n',
    ' ',
    '-',
    '_',
    '`',
    '.',
    'é',
    'É',
    'ß',
    'ẞ',
    '\u{130}',
    '\u{131}',
    '\u{17f}',
    '\u{212a}',
    'σ',
    'Σ',
    'ς',
    '\u{663}',
    '\u{ff11}',
    '\u{1c}',
    '\u{1f}',
    '\u{2003}',
    '\u{a0}',
    '\u{10400}',
    '\u{10428}',
    '\u{1d7ce}',
    '\t',
    '\r',
    '\u{b}',
];

/// Tokens of state-like subjects.
const STATE_TOKENS: &[&str] = &[
    "%%\n",
    "%x\n",
    "%`\n",
    "#stack:\n",
    "#a:",
    "#bc:",
    "12\n",
    "T\n",
    "F\n",
    "a",
    "aa",
    "\n",
    "%",
    "é",
    "٣",
    "ab",
    "x y",
    "\u{1c}",
    "Σσς",
];

#[derive(Debug, Clone)]
pub(crate) enum Piece {
    /// A literal character (escaped when it is a metacharacter).
    Char(char),
    /// Text written as is (escapes, anchors, junk).
    Raw(&'static str),
    /// `[...]`.
    Class(bool, Vec<&'static str>),
    /// A group of some kind around a piece.
    Group(Kind, Box<Piece>),
    /// `\N` to the `n`th closed group (counted from the last).
    Backref(u8, bool),
    /// `(?P=name)` to the `n`th named group.
    NamedRef(u8),
    /// `(?(n)yes|no)`.
    Cond(u8, bool, Box<Piece>, Option<Box<Piece>>),
    /// One after another.
    Seq(Vec<Piece>),
    /// `|`.
    Alt(Vec<Piece>),
    /// A quantified piece.
    Rep(Box<Piece>, &'static str),
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Capture,
    Named,
    NonCapture,
    Ahead,
    NotAhead,
    Behind,
    NotBehind,
    Atomic,
    Flags(&'static str),
}

const ESCAPES: &[&str] = &[
    r"\d",
    r"\D",
    r"\w",
    r"\W",
    r"\s",
    r"\S",
    r"\b",
    r"\B",
    r"\A",
    r"\Z",
    r"\n",
    r"\t",
    r"\.",
    r"\\",
    r"\x41",
    r"\x25",
    r"\u00e9",
    r"\U00010400",
    r"\0",
    r"\07",
    r"\101",
    r"\a",
    r"\f",
    r"\v",
    r"\r",
    r"\-",
    r"\#",
    r"\ ",
    r"\%",
    "^",
    "$",
    ".",
    "^",
    "$",
    ".",
];

const CLASS_ITEMS: &[&str] = &[
    "a",
    "b",
    "c",
    "A",
    "%",
    "#",
    ":",
    "\n",
    "é",
    "٣",
    "ſ",
    "k",
    "K",
    "σ",
    "\u{10400}",
    "\u{10428}",
    "a-c",
    "A-Z",
    "0-9",
    "%-:",
    "à-ÿ",
    "\u{391}-\u{3c9}",
    "\u{10400}-\u{1044f}",
    r"\d",
    r"\w",
    r"\s",
    r"\D",
    r"\W",
    r"\S",
    r"\b",
    r"\n",
    r"\x41",
    r"\0",
    r"\101",
    r"\]",
    r"\\",
    r"\-",
    "-",
    "^",
    "[",
    " ",
    "\u{1c}",
    r"\u0130",
    r"\U0001d7ce",
    "z-a",
    r"\d-z",
];

const QUANTIFIERS: &[&str] = &[
    "*", "+", "?", "*?", "+?", "??", "*+", "++", "?+", "{2}", "{1,3}", "{,2}", "{2,}", "{0}",
    "{,}", "{0,1}", "{1,2}?", "{2}+", "{,3}+",
];

/// Quantifiers CPython refuses, or braces it reads as literals.
const ODD_QUANTIFIERS: &[&str] = &["{3,2}", "{", "{1", "{a}", "**", "{}", "{1,2,3}", "{ 1}"];

const JUNK: &[&str] = &[
    "(",
    ")",
    "*",
    "\\",
    "[",
    "(?",
    "(?P<1>x)",
    "(?P=zz)",
    r"\q",
    r"\8",
    "(?L)",
    "(?-a:x)",
    "(?z)",
    r"\x4",
    r"\u12",
    r"\U00110000",
    "(?#",
    "(?(0)a)",
    "(?<a>x)",
    "{",
    "}",
    "]",
    "a{1,",
    "(?i)",
    "(?x)",
];

const FLAGS: &[&str] = &[
    "i", "-i", "s", "m", "x", "a", "u", "i-s", "im", "ai", "-x", "s-i", "au", "ix",
];

/// Literals of the dense cases: few characters, so that matches,
/// backtracking and empty iterations are common.
pub(crate) const DENSE: &[char] = &['a', 'a', 'b', 'b', 'A', '\n'];

/// Literals of the case cases: letters whose case classes CPython reads
/// its own way (`ſ` is `s` to a literal, not to a back-reference).
pub(crate) const CASES: &[char] = &[
    's',
    'S',
    '\u{17f}',
    'k',
    'K',
    '\u{212a}',
    'i',
    'I',
    '\u{130}',
    '\u{131}',
    'ß',
    'ẞ',
    'σ',
    'ς',
    'Σ',
    '\u{10400}',
    '\u{10428}',
    'é',
];

/// Small pieces written as is, common in the dense cases.
const DENSE_RAW: &[&str] = &[
    "a?", "b*", "(a|)", "(a?)", "(?:a|b)", r"\b", r"\B", "^", "$", ".", "[ab]", "[^a]", r"\w",
    r"\s", "(?=a)", "(?!b)", "(?<=a)", "(?<!a)", r"\Z", r"\A", "(?i:a)", "(?m:^)", "(?m:$)",
    "(?s:.)",
];

fn leaf(chars: &'static [char]) -> impl Strategy<Value = Piece> {
    prop_oneof![
        6 => proptest::sample::select(chars).prop_map(Piece::Char),
        2 => proptest::sample::select(DENSE_RAW).prop_map(Piece::Raw),
        3 => proptest::sample::select(ESCAPES).prop_map(Piece::Raw),
        3 => (any::<bool>(), proptest::collection::vec(proptest::sample::select(CLASS_ITEMS), 1..4))
            .prop_map(|(n, items)| Piece::Class(n, items)),
        2 => (0u8..4, proptest::bool::weighted(0.1)).prop_map(|(n, two)| Piece::Backref(n, two)),
        1 => (0u8..3).prop_map(Piece::NamedRef),
        1 => Just(Piece::Raw(" ")),
        1 => Just(Piece::Raw("#c\n")),
        1 => Just(Piece::Raw("(?#c)")),
    ]
}

/// Fixed-width bodies, for look-behind (mostly accepted).
fn fixed(chars: &'static [char]) -> impl Strategy<Value = Piece> {
    prop_oneof![
        proptest::collection::vec(proptest::sample::select(chars).prop_map(Piece::Char), 1..3)
            .prop_map(Piece::Seq),
        proptest::sample::select(
            &[
                r"\d",
                r"\w",
                ".",
                "[ab]",
                r"\b",
                "a|b",
                "ab|cd",
                "a{2}",
                "(a)",
                "a|bc",
                "(?i:a)",
                "(?=b)a",
                "(?P<lb>a)b",
                "(a|b)",
                r"\Aa",
                "$",
            ][..]
        )
        .prop_map(Piece::Raw),
        (0u8..3).prop_map(|n| Piece::Backref(n, false)),
    ]
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => Just(Kind::Capture),
        2 => Just(Kind::Named),
        2 => Just(Kind::NonCapture),
        1 => Just(Kind::Ahead),
        1 => Just(Kind::NotAhead),
        1 => Just(Kind::Atomic),
        2 => proptest::sample::select(FLAGS).prop_map(Kind::Flags),
    ]
}

pub(crate) fn piece(chars: &'static [char]) -> impl Strategy<Value = Piece> {
    leaf(chars).prop_recursive(4, 24, 4, move |inner| {
        prop_oneof![
            4 => proptest::collection::vec(inner.clone(), 1..4).prop_map(Piece::Seq),
            2 => proptest::collection::vec(inner.clone(), 2..4).prop_map(Piece::Alt),
            4 => (kind(), inner.clone()).prop_map(|(k, p)| Piece::Group(k, Box::new(p))),
            1 => (any::<bool>(), fixed(chars)).prop_map(|(neg, p)| Piece::Group(
                if neg { Kind::NotBehind } else { Kind::Behind },
                Box::new(p)
            )),
            4 => (inner.clone(), proptest::sample::select(QUANTIFIERS))
                .prop_map(|(p, q)| Piece::Rep(Box::new(p), q)),
            1 => (inner.clone(), proptest::sample::select(ODD_QUANTIFIERS))
                .prop_map(|(p, q)| Piece::Rep(Box::new(p), q)),
            1 => (0u8..3, any::<bool>(), inner.clone(), proptest::option::of(inner))
                .prop_map(|(n, named, y, no)| Piece::Cond(n, named, Box::new(y), no.map(Box::new))),
        ]
    })
}

/// Quantifiers JavaScript has (no possessive ones).
const PLAIN_QUANTIFIERS: &[&str] = &[
    "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{,2}", "{2,}", "{0}", "{0,1}", "{1,2}?",
    "{2,3}?",
];

/// Look-behind bodies for the JavaScript cases: [`fixed`]'s, groups in
/// loops (which JavaScript matches from right to left), look-arounds with
/// groups.
const JS_BEHIND: &[&str] = &[
    r"(.){2}",
    r"(?:(a)|(b)){2}",
    r"(\w)\d",
    r"(?:(.)b){2}",
    r"(?<=a)b",
    r"(?<!(a))b",
    r"(?=(a))\w",
    r"(?=(.)){2}a",
];

/// Groups that may be left unset (`(?:(a)|b)`, `(a)?`, `(?:(a)b|c)`),
/// for the JavaScript cases: in a loop or before a back-reference,
/// JavaScript reads them otherwise.
fn optional_group(chars: &'static [char]) -> impl Strategy<Value = Piece> {
    let c = move || proptest::sample::select(chars).prop_map(Piece::Char);
    let capture = |p: Piece| Piece::Group(Kind::Capture, Box::new(p));
    let either =
        |a: Piece, b: Piece| Piece::Group(Kind::NonCapture, Box::new(Piece::Alt(vec![a, b])));
    prop_oneof![
        (c(), c()).prop_map(move |(a, b)| either(capture(a), b)),
        c().prop_map(move |a| Piece::Rep(Box::new(capture(a)), "?")),
        (c(), c(), c()).prop_map(move |(a, b, d)| either(Piece::Seq(vec![capture(a), b]), d)),
        (c(), c()).prop_map(move |(a, b)| either(capture(a), capture(b))),
    ]
}

/// Trees of the constructs the JavaScript translation has a form for
/// (no atomic groups, possessive loops, conditionals or refused
/// quantifiers), from the same leaves as [`piece`].
pub(crate) fn js_piece(chars: &'static [char]) -> impl Strategy<Value = Piece> {
    let kinds = prop_oneof![
        4 => Just(Kind::Capture),
        2 => Just(Kind::Named),
        2 => Just(Kind::NonCapture),
        1 => Just(Kind::Ahead),
        1 => Just(Kind::NotAhead),
        2 => proptest::sample::select(FLAGS).prop_map(Kind::Flags),
    ];
    let behind = prop_oneof![
        3 => fixed(chars),
        1 => proptest::sample::select(JS_BEHIND).prop_map(Piece::Raw),
    ];
    let leaves = prop_oneof![
        8 => leaf(chars),
        1 => optional_group(chars),
    ];
    leaves.prop_recursive(4, 24, 4, move |inner| {
        prop_oneof![
            4 => proptest::collection::vec(inner.clone(), 1..4).prop_map(Piece::Seq),
            2 => proptest::collection::vec(inner.clone(), 2..4).prop_map(Piece::Alt),
            4 => (kinds.clone(), inner.clone()).prop_map(|(k, p)| Piece::Group(k, Box::new(p))),
            1 => (any::<bool>(), behind.clone()).prop_map(|(neg, p)| Piece::Group(
                if neg { Kind::NotBehind } else { Kind::Behind },
                Box::new(p)
            )),
            4 => (inner, proptest::sample::select(PLAIN_QUANTIFIERS))
                .prop_map(|(p, q)| Piece::Rep(Box::new(p), q)),
        ]
    })
}

/// Last pieces that take a character, so a pattern ending with one
/// cannot match the empty string.
const TAKERS: &[&str] = &[
    "[ab]", r"\d", ".", r"\w", "[^a]", r"\s", "(?s:.)", "(.)", r"
", "(?i:s)", r"\D", "[%#]",
];

/// A case for the JavaScript translation: a pattern of [`js_piece`] (or,
/// one case in four, of [`piece`]) that ends with a piece taking a
/// character, so that it cannot match the empty string; no junk.
// Only `js_differential` asks for it.
#[allow(dead_code)]
pub(crate) fn nonempty_case() -> impl Strategy<Value = Case> {
    let tree = prop_oneof![
        2 => js_piece(CHARS),
        2 => js_piece(DENSE),
        1 => js_piece(CASES),
        1 => piece(CHARS),
    ];
    let last = prop_oneof![
        proptest::sample::select(CHARS).prop_map(Piece::Char),
        proptest::sample::select(TAKERS).prop_map(Piece::Raw),
    ];
    (proptest::sample::select(GLOBAL_FLAGS), tree, last)
        .prop_flat_map(|(flags, p, last)| {
            // In a group: a top-level alternation would take the last
            // piece into its last branch only.
            let p = Piece::Group(Kind::NonCapture, Box::new(p));
            let (pattern, names, groups) = render(flags, &Piece::Seq(vec![p, last]));
            (Just(pattern), template(names, groups), subject())
        })
        .prop_map(|(pattern, replacement, subject)| Case {
            pattern,
            replacement,
            subject,
        })
}

/// Writing a tree out: groups numbered in order.
#[derive(Default)]
struct Writer {
    out: String,
    groups: usize,
    closed: Vec<usize>,
    names: Vec<String>,
}

fn meta(c: char) -> bool {
    ".^$*+?{}[]\\|()".contains(c)
}

impl Writer {
    fn write(&mut self, p: &Piece) {
        match p {
            Piece::Char(c) => {
                if meta(*c) {
                    self.out.push('\\');
                }
                self.out.push(*c);
            }
            Piece::Raw(s) => self.out.push_str(s),
            Piece::Class(neg, items) => {
                self.out.push('[');
                if *neg {
                    self.out.push('^');
                }
                for i in items {
                    self.out.push_str(i);
                }
                self.out.push(']');
            }
            Piece::Group(kind, inner) => {
                let open = match kind {
                    Kind::Capture => {
                        self.groups += 1;
                        "(".to_string()
                    }
                    Kind::Named => {
                        self.groups += 1;
                        let name = format!("n{}", self.groups);
                        let s = format!("(?P<{name}>");
                        self.names.push(name);
                        s
                    }
                    Kind::NonCapture => "(?:".into(),
                    Kind::Ahead => "(?=".into(),
                    Kind::NotAhead => "(?!".into(),
                    Kind::Behind => "(?<=".into(),
                    Kind::NotBehind => "(?<!".into(),
                    Kind::Atomic => "(?>".into(),
                    Kind::Flags(f) => format!("(?{f}:"),
                };
                let index = self.groups;
                self.out.push_str(&open);
                self.write(inner);
                self.out.push(')');
                if matches!(kind, Kind::Capture | Kind::Named) {
                    self.closed.push(index);
                }
            }
            Piece::Backref(n, two) => {
                let g = match self.closed.len() {
                    // No group yet: mostly a plain letter, sometimes the
                    // reference CPython refuses.
                    0 if *n > 0 => return self.out.push('a'),
                    0 => 1,
                    k => self.closed[k - 1 - usize::from(*n) % k],
                };
                self.out.push_str(&format!("\\{g}"));
                if *two {
                    // A digit after it: a two-digit group or an octal escape.
                    self.out.push('0');
                }
            }
            Piece::NamedRef(n) => {
                let name = match self.names.len() {
                    0 if *n > 0 => return self.out.push('b'),
                    0 => "n1".to_string(),
                    k => self.names[usize::from(*n) % k].clone(),
                };
                self.out.push_str(&format!("(?P={name})"));
            }
            Piece::Cond(n, named, yes, no) => {
                let id = if *named && !self.names.is_empty() {
                    self.names[usize::from(*n) % self.names.len()].clone()
                } else if self.groups > 0 {
                    (usize::from(*n) % self.groups + 1).to_string()
                } else if *n > 0 {
                    // No group yet: a group, mostly.
                    self.out.push('(');
                    self.groups += 1;
                    let index = self.groups;
                    self.write(yes);
                    self.out.push(')');
                    self.closed.push(index);
                    return;
                } else {
                    "1".to_string()
                };
                self.out.push_str(&format!("(?({id})"));
                self.write(yes);
                if let Some(no) = no {
                    self.out.push('|');
                    self.write(no);
                }
                self.out.push(')');
            }
            Piece::Seq(items) => items.iter().for_each(|i| self.write(i)),
            Piece::Alt(items) => {
                for (k, i) in items.iter().enumerate() {
                    if k > 0 {
                        self.out.push('|');
                    }
                    self.write(i);
                }
            }
            Piece::Rep(inner, q) => {
                // Quantify a group, a character or a class, not a sequence.
                let atom = matches!(
                    **inner,
                    Piece::Char(_) | Piece::Class(..) | Piece::Group(..) | Piece::Raw(_)
                );
                if atom {
                    self.write(inner);
                } else {
                    self.out.push_str("(?:");
                    self.write(inner);
                    self.out.push(')');
                }
                self.out.push_str(q);
            }
        }
    }
}

/// The pattern text of a tree, after global flags `flags`.
pub(crate) fn render(flags: &str, p: &Piece) -> (String, Vec<String>, usize) {
    let mut w = Writer {
        out: flags.to_string(),
        ..Writer::default()
    };
    w.write(p);
    (w.out, w.names, w.groups)
}

fn subject() -> impl Strategy<Value = String> {
    let text = |alphabet: &'static [char], most: usize| {
        proptest::collection::vec(proptest::sample::select(alphabet), 0..most)
            .prop_map(|v| v.into_iter().collect::<String>())
    };
    prop_oneof![
        2 => text(CHARS, 14),
        2 => proptest::collection::vec(proptest::sample::select(STATE_TOKENS), 0..7)
            .prop_map(|v| v.concat()),
        1 => text(&['a', 'b', '\n', ' '], 10),
        3 => text(&['a', 'b', 'A', '\n', ' ', 'é'], 24),
        2 => text(CASES, 12),
    ]
}

const TEMPLATE_PIECES: &[&str] = &[
    "x", "-", "é", "%%\n", r"\\", r"\n", r"\g<0>", r"\g<0>", r"\0", r"\101", r"\&", r"\t", "<",
    ">", r"\g< 1>", r"\b", r"\07", r"\1a",
];

/// Pieces CPython refuses (or refuses for patterns with few groups).
const ODD_TEMPLATE_PIECES: &[&str] = &[
    r"\2", r"\g<2>", r"\q", r"\g<x>", r"\12", "\\", r"\g<-1>", r"\400", r"\x41", r"\g<>",
];

/// A replacement for a pattern with `groups` groups named `names`: group
/// references mostly to groups it has.
fn template(names: Vec<String>, groups: usize) -> impl Strategy<Value = String> {
    let named = if names.is_empty() {
        vec!["\\g<0>".to_string()]
    } else {
        names.iter().map(|n| format!("\\g<{n}>")).collect()
    };
    proptest::collection::vec(
        prop_oneof![
            16 => proptest::sample::select(TEMPLATE_PIECES).prop_map(str::to_string),
            1 => proptest::sample::select(ODD_TEMPLATE_PIECES).prop_map(str::to_string),
            4 => (0..=groups).prop_map(|g| format!("\\g<{g}>")),
            2 => (0..=groups).prop_map(|g| format!("\\{g}")),
            2 => proptest::sample::select(named),
        ],
        0..4,
    )
    .prop_map(|v| v.concat())
}

const GLOBAL_FLAGS: &[&str] = &[
    "",
    "",
    "",
    "",
    "(?i)",
    "(?m)",
    "(?s)",
    "(?x)",
    "(?a)",
    "(?ims)",
    "(?ai)",
    "(?u)",
    "(?x)(?i)",
    "(?#c)(?s)",
];

/// A whole case: pattern, replacement, subject. One pattern in ten has a
/// piece of junk (mostly what CPython refuses) somewhere.
pub(crate) fn case() -> impl Strategy<Value = Case> {
    let junk = proptest::option::weighted(
        0.1,
        (proptest::sample::select(JUNK), any::<prop::sample::Index>()),
    );
    let tree = prop_oneof![piece(CHARS), piece(DENSE), piece(CASES)];
    (proptest::sample::select(GLOBAL_FLAGS), tree, junk)
        .prop_flat_map(|(flags, p, junk)| {
            let (mut pattern, names, groups) = render(flags, &p);
            if let Some((j, at)) = junk {
                let cuts: Vec<usize> = pattern
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain([pattern.len()])
                    .collect();
                pattern.insert_str(cuts[at.index(cuts.len())], j);
            }
            (Just(pattern), template(names, groups), subject())
        })
        .prop_map(|(pattern, replacement, subject)| Case {
            pattern,
            replacement,
            subject,
        })
}

/// Words of the engine cases: few letters, so that many branches of an
/// alternation start alike and loops meet what follows them.
const WORDISH: &[&str] = &["a", "ab", "abc", "b", "ba", "c", "ca", "aa", "é", " ", "\n"];

/// Zero-width items, classes and small loops of the engine cases (what
/// leads an alternation's branch or a loop's body, or lets it be empty).
const ENGINE_RAW: &[&str] = &[
    r"\b",
    r"\B",
    "^",
    "$",
    "(?=a)",
    "(?!b)",
    "(?<=a)",
    "(?<!c)",
    r"\w",
    r"\s",
    ".",
    "[ab]",
    "[^a]",
    "a?",
    "b*",
    "(?:)",
    r"\d",
    "(?i:B)",
    "(?:(a)|b)",
    "(b|(c))",
    "(?:(a)|(b)|c)",
    ".*",
    r"\S+",
    "[^ ]*",
    r"\w*",
    "(?:a|)",
    "(?:x|b?)",
];

/// Quantifiers of the engine cases: every greed, fixed counts.
const ENGINE_QUANTIFIERS: &[&str] = &[
    "*", "+", "?", "*?", "+?", "??", "*+", "++", "?+", "{2}", "{3}", "{0,1}", "{1,2}", "{2}+",
    "{0,1}?", "{3}?", "{4}", "{5}",
];

/// Trees of the Python engine's shapes: alternations of up to 16
/// branches (always in a group), loops of every greed around them,
/// back-references, zero-width items first.
fn engine_piece() -> impl Strategy<Value = Piece> {
    let leaf = prop_oneof![
        4 => proptest::sample::select(WORDISH).prop_map(Piece::Raw),
        2 => proptest::sample::select(ENGINE_RAW).prop_map(Piece::Raw),
        1 => (0u8..3).prop_map(|n| Piece::Backref(n, false)),
    ];
    leaf.prop_recursive(4, 48, 16, |inner| {
        let group = prop_oneof![
            3 => Just(Kind::NonCapture),
            3 => Just(Kind::Capture),
            1 => Just(Kind::Atomic),
            1 => Just(Kind::Ahead),
            1 => Just(Kind::NotAhead),
        ];
        prop_oneof![
            4 => proptest::collection::vec(inner.clone(), 1..5).prop_map(Piece::Seq),
            4 => (group.clone(), proptest::collection::vec(inner.clone(), 2..16))
                .prop_map(|(k, b)| Piece::Group(k, Box::new(Piece::Alt(b)))),
            2 => (group, inner.clone()).prop_map(|(k, p)| Piece::Group(k, Box::new(p))),
            3 => (inner, proptest::sample::select(ENGINE_QUANTIFIERS))
                .prop_map(|(p, q)| Piece::Rep(Box::new(p), q)),
        ]
    })
}

/// The characters of the engine cases' subjects.
const ENGINE_LETTERS: &[char] = &['a', 'b', 'c', 'a', ' ', '\n', 'é', 'B', 'é', '\u{10400}'];

/// A case of the Python engine's shapes (see [`engine_piece`]) on a
/// longer subject of the same few letters.
// Only `python_differential` asks for it.
#[allow(dead_code)]
pub(crate) fn engine_case() -> impl Strategy<Value = Case> {
    let subject = proptest::collection::vec(proptest::sample::select(ENGINE_LETTERS), 0..48)
        .prop_map(|v| v.into_iter().collect::<String>());
    (proptest::sample::select(GLOBAL_FLAGS), engine_piece())
        .prop_flat_map(move |(flags, p)| {
            let (pattern, names, groups) = render(flags, &p);
            (Just(pattern), template(names, groups), subject.clone())
        })
        .prop_map(|(pattern, replacement, subject)| Case {
            pattern,
            replacement,
            subject,
        })
}
