//! `bignum`: Fibonacci numbers of a hundred digits and more, added digit
//! by digit with Python's `re`, as a person writes it: chained
//! look-aheads and back-references into tables kept in the state.
//!
//! The state holds a step counter `n`, the numbers `a` and `b` padded
//! with zeros to [`DIGITS`] digits (so a digit's partner in the other
//! number is a fixed distance away), and the tables. One
//! step of `a, b = b, a + b`: every digit of `a` becomes the letter of
//! its sum with `b`'s digit in the same column (`A` for 0 to `S` for 18),
//! found by a look-ahead to that digit and a look-ahead keyed by both
//! digits into the addition table; then each letter becomes its digit,
//! plus one when the letters to its right carry (a run of `J`, nine, then
//! a letter of ten or more: one look-ahead), through the tables; then
//! `a` and `b` swap. The counter counts in decimal the same way: its trailing nines are
//! marked, the digit before them goes up by the table, the marks turn to
//! zeros. Each pass runs [`STEPS`] steps; each input line (`more`)
//! asks for another pass. It writes the program; it runs nothing.

/// Digits of each number.
const DIGITS: usize = 120;
/// Steps per pass.
const STEPS: usize = 100;

/// The input: one pass per line after the first.
pub(crate) const INPUT: &str = "more\nmore\nmore\nmore\n";

/// The letter of a sum 0..=18.
fn letter(sum: usize) -> char {
    (b'A' + sum as u8) as char
}

/// The first state, as a replacement (newlines written `\n`).
fn boot() -> String {
    let zeros = "0".repeat(DIGITS - 1);
    let add: Vec<String> = (0..100)
        .map(|ab| format!("{}{}{}", ab / 10, ab % 10, letter(ab / 10 + ab % 10)))
        .collect();
    let plus: String = (0..19)
        .map(|s| format!("{}{}", letter(s), s % 10))
        .collect();
    let carry: String = (0..19)
        .map(|s| format!("{}{}", letter(s), (s + 1) % 10))
        .collect();
    let next: String = (0..10).map(|d| format!("{d}{}", (d + 1) % 10)).collect();
    format!(
        r"n: 000000\na: {zeros}0\nb: {zeros}1\nadd: {}\nplus: {plus}\ncarry: {carry}\nnext: {next}\n",
        add.join(" "),
    )
}

/// The program.
pub(crate) fn program() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![
        ("^$".into(), boot()),
        ("(?m)^more\\n".into(), String::new()),
    ];
    // From a digit of `a` to the digit of `b` below it: the rest of `a`'s
    // line, its newline and `b: `.
    let below = DIGITS + 3;
    for _ in 0..STEPS {
        out.push((
            format!(
                r"(\d)(?=\d*\nb: )(?=[\s\S]{{{below}}}(\d))(?=[\s\S]*\nadd: (?:\w+ )*?\1\2([A-S]))"
            ),
            r"\3".into(),
        ));
        out.push((
            r"([A-S])(?=[A-S]*\nb: )(?=J*[K-S])(?=[\s\S]*\ncarry: (?:[A-S]\d)*?\1(\d))".into(),
            r"\2".into(),
        ));
        out.push((
            r"([A-S])(?=[A-S\d]*\nb: )(?=[\s\S]*\nplus: (?:[A-S]\d)*?\1(\d))".into(),
            r"\2".into(),
        ));
        out.push((r"(?m)^a: (\d+)\nb: (\d+)$".into(), r"a: \2\nb: \1".into()));
        out.push((r"9(?=9*\na: )".into(), "x".into()));
        out.push((
            r"(\d)(?=x*\na: )(?=[\s\S]*\nnext: (?:\d\d)*?\1(\d))".into(),
            r"\2".into(),
        ));
        out.push((r"x(?=x*\na: )".into(), "0".into()));
    }
    out
}
