//! `brainfuck`: a Brainfuck interpreter in Python `re` rewrites, as a
//! person writes one, running a Brainfuck program.
//!
//! The state's lines: `code:` (the program, `@` before the next
//! instruction, each bracket labelled with its pair's number so that a
//! jump finds its partner by back-reference), `tape:` (cells in unary,
//! each ended by `|`, `^` before the current one), `in:` (input not yet
//! read), `out:` (output) and `table:` (`;111...=c` for each character
//! the program may read or print: `.` and `,` find a cell's character, or
//! a character's cell, by a look-ahead keyed by a back-reference). One
//! rule per instruction; a step is the rules in order, and each pass runs
//! [`STEPS_PER_PASS`] of them. The program waits (`!`) until the first
//! input line arrives, which becomes its input; every later line (empty)
//! only asks for another pass. The program: print a title, read the
//! input, then print it reversed in capitals. It writes the interpreter
//! and the program; it runs nothing.

/// Steps (rounds of the rules) per pass.
const STEPS_PER_PASS: usize = 500;

/// What the program prints first.
const TITLE: &str = "REVERSED IN CAPITALS: ";

/// The text the program reads (lower-case letters: each loses 32).
const TEXT: &str = "regularexpressionsallthewaydownthrougheverystep";

/// Passes after the one that starts the program: enough to finish it.
const MORE_PASSES: usize = 6;

/// The input: the text, then one empty line per further pass.
pub(crate) fn input() -> String {
    format!("{TEXT}\n{}", "\n".repeat(MORE_PASSES))
}

/// Code that changes the cell from `from` to `to` using the cell to its
/// left as a loop counter (left at zero).
fn set_cell(from: u32, to: u32) -> String {
    let d = to.abs_diff(from);
    let sign = if to >= from { '+' } else { '-' };
    if d <= 12 {
        return sign.to_string().repeat(d as usize);
    }
    let (times, each) = (d / 8, 8);
    let rest = d - times * each;
    format!(
        "<{}[>{}<-]>{}",
        "+".repeat(times as usize),
        sign.to_string().repeat(each as usize),
        sign.to_string().repeat(rest as usize)
    )
}

/// The Brainfuck program (see the module).
fn source() -> String {
    let mut code = String::from(">");
    let mut value = 0;
    for c in TITLE.bytes() {
        code.push_str(&set_cell(value, u32::from(c)));
        code.push('.');
        value = u32::from(c);
    }
    // Cell 2 stays zero: the reversed print stops there.
    code.push_str(">>,[>++++[<-------->-],]<[.<]");
    code
}

/// The program with each bracket labelled `[n:` / `]n:` by its pair.
fn labelled(source: &str) -> String {
    let mut out = String::new();
    let mut open = Vec::new();
    let mut pairs = 0;
    for c in source.chars() {
        match c {
            '[' => {
                pairs += 1;
                open.push(pairs);
                out.push_str(&format!("[{pairs}:"));
            }
            ']' => {
                let n = open.pop().unwrap_or(0);
                out.push_str(&format!("]{n}:"));
            }
            c => out.push(c),
        }
    }
    out
}

/// The characters the table knows: printable ASCII but the state's own
/// marks.
fn table() -> String {
    (32u8..127)
        .filter(|c| !b";=@\\".contains(c))
        .map(|c| format!(";{}={}", "1".repeat(c as usize), c as char))
        .collect()
}

/// The program.
pub(crate) fn program() -> Vec<(String, String)> {
    let cell = r"[^\n]*\ntape: [^^\n]*\^";
    let mut out: Vec<(String, String)> = vec![
        (
            "^$".into(),
            format!(
                r"code: !{}\ntape: ^|\nin: \nout: \ntable: {}\n",
                labelled(&source()),
                table()
            ),
        ),
        (
            r"\A(code: )!([\s\S]*\nin: )([\s\S]*\ntable: [^\n]*\n)([^\n]*)\n\Z".into(),
            r"\1@\2\4\3".into(),
        ),
        (
            r"(\nin: [^\n]*)([\s\S]*\ntable: [^\n]*\n)([^\n]*)\n\Z".into(),
            r"\1\3\2".into(),
        ),
    ];
    let step: Vec<(String, String)> = vec![
        (format!(r"@\+({cell}1*)"), r"+@\g<1>1".into()),
        (format!(r"@-({cell}1*)1"), r"-@\1".into()),
        (
            r"@>([^\n]*\ntape: [^^\n]*)\^(1*\|)".into(),
            r">@\1\2^".into(),
        ),
        (r"\^\n".into(), r"^|\n".into()),
        (
            r"@<([^\n]*\ntape: [^^\n]*?)(1*\|)\^".into(),
            r"<@\1^\2".into(),
        ),
        (
            format!(
                r"@\.({cell}(1*)\|[\s\S]*\nout: [^\n]*)(?=[\s\S]*\ntable: (?:;[^;\n]*)*?;\2=(.))"
            ),
            r".@\1\3".into(),
        ),
        (
            format!(
                r"@,({cell})1*(\|[\s\S]*\nin: )([^\n])(?=[\s\S]*\ntable: (?:;[^;\n]*)*?;(1*)=\3(?:;|\n))"
            ),
            r",@\1\4\2".into(),
        ),
        (
            format!(r"@,({cell})1*(\|[\s\S]*\nin: \n)"),
            r",@\1\2".into(),
        ),
        (
            r"@(\[(\d+):[^\n]*?\]\2:)(?=[^\n]*\ntape: [^^\n]*\^\|)".into(),
            r"\1@".into(),
        ),
        (
            r"@(\[\d+:)(?=[^\n]*\ntape: [^^\n]*\^1)".into(),
            r"\1@".into(),
        ),
        (
            r"(\[(\d+):)([^\n]*?)@(\]\2:)(?=[^\n]*\ntape: [^^\n]*\^1)".into(),
            r"\1@\3\4".into(),
        ),
        (
            r"@(\]\d+:)(?=[^\n]*\ntape: [^^\n]*\^\|)".into(),
            r"\1@".into(),
        ),
    ];
    for _ in 0..STEPS_PER_PASS {
        out.extend(step.iter().cloned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_are_labelled_by_their_pairs() {
        assert_eq!(labelled("+[>[-]<-]."), "+[1:>[2:-]2:<-]1:.");
        assert!(!table().contains(";="));
        assert!(table().contains(&format!(";{}=A", "1".repeat(65))));
    }
}
