//! `re.sub`'s replacement strings, read as CPython 3.11 reads them for a
//! pattern with a given number of groups and group names.
//!
//! `\1`-`\99` and `\g<n>`/`\g<name>` name groups (`\g<0>` the whole
//! match; a number inside `\g<...>` is read as `int()` reads it); `\0`,
//! `\0o`, `\0oo` and three octal digits `\ooo` are characters; `\a \b \f
//! \n \r \t \v \\` are the control characters and the backslash; any
//! other ASCII letter is an error; any other character keeps its
//! backslash. A reference to a group the pattern does not have is an
//! error, raised (as CPython raises it) before any matching. It owns this
//! reading only; `program::Template` is what it produces.

use std::collections::HashMap;

use crate::program::Template;

use super::unicode;

/// A replacement CPython refuses for a pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", .pos.map_or(String::new(), |p| format!(" at position {p}")))]
pub struct TemplateError {
    /// What is wrong.
    pub message: String,
    /// Where, in characters, when CPython says.
    pub pos: Option<usize>,
}

fn error(message: impl Into<String>, pos: usize) -> TemplateError {
    TemplateError {
        message: message.into(),
        pos: Some(pos),
    }
}

/// The replacement `text` for a pattern with `groups` groups named as in
/// `names`.
///
/// # Errors
///
/// [`TemplateError`] wherever `re.sub(pattern, text, ...)` raises for it.
pub(crate) fn parse(
    text: &str,
    groups: usize,
    names: &HashMap<String, usize>,
) -> Result<Template, TemplateError> {
    let chars: Vec<char> = text.chars().collect();
    let mut t = Template::new();
    let mut lit = String::new();
    let mut i = 0;
    let group_ok = |n: usize, at: usize| {
        if n > groups {
            Err(error(format!("invalid group reference {n}"), at))
        } else {
            Ok(n)
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            lit.push(c);
            i += 1;
            continue;
        }
        let start = i;
        let Some(&e) = chars.get(i + 1) else {
            return Err(error("bad escape (end of pattern)", start));
        };
        i += 2;
        let octal = |c: Option<&char>| c.and_then(|c| c.to_digit(8));
        let group = match e {
            'g' => {
                if chars.get(i) != Some(&'<') {
                    return Err(error("missing <", i));
                }
                let from = i + 1;
                let Some(len) = chars[from..].iter().position(|&c| c == '>') else {
                    return Err(error("missing >, unterminated name", from));
                };
                let name: String = chars[from..from + len].iter().collect();
                i = from + len + 1;
                if name.is_empty() {
                    return Err(error("missing group name", from));
                }
                if unicode::is_identifier(&name) {
                    match names.get(&name) {
                        Some(&n) => Some(n),
                        None => {
                            return Err(TemplateError {
                                message: format!("unknown group name '{name}'"),
                                pos: None,
                            })
                        }
                    }
                } else {
                    match unicode::python_int(&name) {
                        Some(n) if n >= 0 => match usize::try_from(n) {
                            Ok(n) => Some(group_ok(n, from)?),
                            Err(_) => {
                                return Err(error(format!("invalid group reference {n}"), from))
                            }
                        },
                        _ => {
                            return Err(error(
                                format!("bad character in group name '{name}'"),
                                from,
                            ))
                        }
                    }
                }
            }
            '0' => {
                let mut v = 0;
                for _ in 0..2 {
                    match octal(chars.get(i)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                lit.push(char::from_u32(v).unwrap_or('\0'));
                None
            }
            '1'..='9' => {
                let d1 = e as usize - '0' as usize;
                match chars.get(i) {
                    Some(&d2) if d2.is_ascii_digit() => {
                        if e <= '7' && d2 <= '7' && octal(chars.get(i + 1)).is_some() {
                            let d3 = octal(chars.get(i + 1)).unwrap_or(0);
                            let v = (d1 as u32) * 64 + (d2 as u32 - '0' as u32) * 8 + d3;
                            if v > 0o377 {
                                return Err(error(
                                    format!(
                                        "octal escape value \\{e}{d2}{d3} outside of range 0-0o377"
                                    ),
                                    start,
                                ));
                            }
                            i += 2;
                            lit.push(char::from_u32(v).unwrap_or('\0'));
                            None
                        } else {
                            i += 1;
                            Some(group_ok(d1 * 10 + (d2 as usize - '0' as usize), start + 1)?)
                        }
                    }
                    _ => Some(group_ok(d1, start + 1)?),
                }
            }
            'a' => push(&mut lit, '\x07'),
            'b' => push(&mut lit, '\x08'),
            'f' => push(&mut lit, '\x0c'),
            'n' => push(&mut lit, '\n'),
            'r' => push(&mut lit, '\r'),
            't' => push(&mut lit, '\t'),
            'v' => push(&mut lit, '\x0b'),
            '\\' => push(&mut lit, '\\'),
            e if e.is_ascii_alphabetic() => return Err(error(format!("bad escape \\{e}"), start)),
            e => {
                lit.push('\\');
                lit.push(e);
                None
            }
        };
        if let Some(n) = group {
            t = t.text(&std::mem::take(&mut lit)).group(n);
        }
    }
    Ok(t.text(&lit))
}

fn push(lit: &mut String, c: char) -> Option<usize> {
    lit.push(c);
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Piece;

    fn read(text: &str) -> Result<Vec<Piece>, TemplateError> {
        let names = HashMap::from([("n".to_string(), 3)]);
        parse(text, 3, &names).map(|t| t.pieces().to_vec())
    }

    #[test]
    fn reads_what_re_sub_reads() {
        let lit = |s: &str| Piece::Literal(s.to_string());
        assert_eq!(read(r"\1a").unwrap(), [Piece::Group(1), lit("a")]);
        assert_eq!(
            read(r"\g<n>\g<0>").unwrap(),
            [Piece::Group(3), Piece::Group(0)]
        );
        assert_eq!(read(r"\g< +1>").unwrap(), [Piece::Group(1)]);
        assert_eq!(read(r"\101\0\012").unwrap(), [lit("A\0\n")]);
        assert_eq!(read(r"\&\b\\").unwrap(), [lit("\\&\x08\\")]);
        for (bad, what) in [
            (r"\4", "invalid group reference 4"),
            (r"\g<x>", "unknown group name"),
            (r"\x41", r"bad escape \x"),
            (r"\400", "outside of range"),
            ("a\\", "end of pattern"),
            (r"\g<1", "unterminated"),
            (r"\g<-1>", "bad character"),
            (r"\18", "invalid group reference 18"),
        ] {
            let e = read(bad).expect_err(bad);
            assert!(e.to_string().contains(what), "{bad}: {e}");
        }
    }
}
