//! Text in and out for every subcommand: lines read in bounded memory,
//! standard output that may be closed or full, and input quoted in errors.
//!
//! A line longer than the reader's limit is consumed to its end but only
//! its first bytes are kept, so no input size grows memory. Writing to a
//! closed pipe (`regex-chess moves | head -1`) is [`Closed`], which `main`
//! turns into a quiet exit instead of a panic; other write failures (a
//! full disk) keep their cause. This module knows nothing about chess.

use std::fmt::Display;
use std::io::{self, BufRead, Write};

use anyhow::Result;

/// Standard output was closed by its reader (a broken pipe).
#[derive(Debug, thiserror::Error)]
#[error("standard output is closed")]
pub struct Closed;

/// Whether an error (anywhere in its chain) is a closed standard output.
pub fn is_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|e| e.downcast_ref::<Closed>().is_some())
}

/// The error of a failed write to standard output: [`Closed`] for a broken
/// pipe, the I/O error with context otherwise.
pub fn write_error(e: io::Error) -> anyhow::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        anyhow::Error::new(Closed)
    } else {
        anyhow::Error::new(e).context("writing standard output")
    }
}

/// Prints `text` and a newline on standard output.
///
/// # Errors
///
/// [`Closed`], or the write error.
pub fn println(text: impl Display) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}").map_err(write_error)
}

/// Prints `text` without a newline and flushes (a prompt).
///
/// # Errors
///
/// [`Closed`], or the write error.
pub fn print_flush(text: impl Display) -> Result<()> {
    let mut out = io::stdout().lock();
    write!(out, "{text}").map_err(write_error)?;
    out.flush().map_err(write_error)
}

/// One line read by [`read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line (without its `\n` / `\r\n`).
    Text(String),
    /// A line that is not UTF-8 (nothing of it is kept).
    NotUtf8,
    /// A line longer than the limit; its length in bytes (nothing kept).
    TooLong(usize),
}

/// Reads one line of at most `limit` bytes, in memory bounded by `limit`
/// whatever the line's length; `None` at the end of the input.
///
/// # Errors
///
/// The read error.
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut newline = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        // `\r\n` may follow `limit` bytes of text.
        if total + take <= limit + 2 {
            kept.extend_from_slice(&buf[..take]);
        }
        total += take;
        input.consume(take);
        if done {
            newline = true;
            break;
        }
    }
    if total > limit + 2 {
        // The length without the line end.
        return Ok(Some(Line::TooLong(total - usize::from(newline))));
    }
    if kept.last() == Some(&b'\n') {
        kept.pop();
        if kept.last() == Some(&b'\r') {
            kept.pop();
        }
    }
    if kept.len() > limit {
        return Ok(Some(Line::TooLong(kept.len())));
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotUtf8,
    }))
}

/// `text` as an error message quotes it: at most
/// [`chess::codec::EXCERPT_CHARS`] characters, in double quotes, control
/// characters escaped.
pub fn quote(text: &str) -> String {
    format!("{:?}", chess::codec::excerpt(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut r = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, limit).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_are_bounded_utf8_checked_and_trimmed() {
        assert_eq!(
            lines(b"e2e4\r\n\xff\n0123456789ab\nlast", 10),
            [
                Line::Text("e2e4".into()),
                Line::NotUtf8,
                Line::TooLong(12),
                Line::Text("last".into())
            ]
        );
        assert_eq!(lines(b"\n\n", 10), vec![Line::Text(String::new()); 2]);
        assert_eq!(
            lines(b"0123456789\n", 10),
            [Line::Text("0123456789".into())]
        );
        assert!(lines(b"", 10).is_empty());
    }

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("a\0b\n"), "\"a\\0b\\n\"");
        let long = "x".repeat(1000);
        let q = quote(&long);
        assert_eq!(q.len(), 100 + 2 + 3, "{q}");
        assert!(q.ends_with("...\""));
    }
}
