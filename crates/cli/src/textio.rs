//! Text in and out for every subcommand: lines read in bounded memory,
//! standard output that may be closed or full, and input quoted in errors.
//!
//! A line longer than the reader's limit is consumed to its end but only
//! its first bytes are kept, so no input size grows memory. Every
//! subcommand writes its standard output through [`stdout`] (or
//! [`println`], which uses it): writing to a closed pipe
//! (`regex-chess moves | head -1`) is then [`Closed`], which `main` turns
//! into a quiet exit instead of a panic; other write failures (a full disk)
//! keep their cause. No module prints with `print!`/`println!`. This module
//! knows nothing about chess.

use std::fmt::Display;
use std::io::{self, BufRead, Write};

use anyhow::Result;

/// An error and its causes on one line, outermost first, joined by `: `
/// (what `{:#}` prints for an `anyhow::Error`): library errors say only
/// their own layer's words and keep the rest as their `source()`.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut out = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        out.push_str(": ");
        out.push_str(&e.to_string());
        cause = e.source();
    }
    out
}

/// Standard output was closed by its reader (a broken pipe).
#[derive(Debug, thiserror::Error)]
#[error("standard output is closed")]
pub(crate) struct Closed;

/// Whether an error (anywhere in its chain) is a closed standard output:
/// [`Closed`] itself, or the I/O error [`Stdout`] made of a broken pipe.
/// A broken pipe to anything else (a child process) is not.
pub(crate) fn is_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.downcast_ref::<Closed>().is_some()
            || e.downcast_ref::<io::Error>()
                .and_then(io::Error::get_ref)
                .is_some_and(|inner| inner.is::<Closed>())
    })
}

/// The error of a failed write to standard output: [`Closed`] for a broken
/// pipe, the I/O error with context otherwise.
pub(crate) fn write_error(e: io::Error) -> anyhow::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        anyhow::Error::new(Closed)
    } else {
        anyhow::Error::new(e).context("writing standard output")
    }
}

/// Standard output as every subcommand writes it.
///
/// As an [`io::Write`] (for code generic over its writer) a broken pipe is
/// an I/O error that carries [`Closed`], so [`is_closed`] recognises it
/// through any context. `write!`/`writeln!` on it call the inherent
/// [`Stdout::write_fmt`], which returns the [`write_error`] directly.
#[derive(Debug)]
pub(crate) struct Stdout(io::Stdout);

/// The process's standard output, see [`Stdout`].
pub(crate) fn stdout() -> Stdout {
    Stdout(io::stdout())
}

impl Stdout {
    /// Writes formatted text (what `write!`/`writeln!` call).
    ///
    /// # Errors
    ///
    /// [`Closed`], or the write error with context.
    pub(crate) fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> Result<()> {
        Write::write_fmt(&mut self.0, args).map_err(write_error)
    }

    /// Writes bytes as they are.
    ///
    /// # Errors
    ///
    /// [`Closed`], or the write error with context.
    pub(crate) fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.write_all(bytes).map_err(write_error)
    }

    /// Flushes what standard output buffers.
    ///
    /// # Errors
    ///
    /// [`Closed`], or the write error with context.
    pub(crate) fn flush_out(&mut self) -> Result<()> {
        self.0.flush().map_err(write_error)
    }
}

/// A broken pipe becomes an I/O error that carries [`Closed`].
fn mark(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, Closed)
    } else {
        e
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(mark)
    }
}

/// Prints `text` and a newline on standard output.
///
/// # Errors
///
/// [`Closed`], or the write error.
pub(crate) fn println(text: impl Display) -> Result<()> {
    writeln!(stdout(), "{text}")
}

/// Prints `text` without a newline and flushes (a prompt).
///
/// # Errors
///
/// [`Closed`], or the write error.
pub(crate) fn print_flush(text: impl Display) -> Result<()> {
    let mut out = stdout();
    write!(out, "{text}")?;
    out.flush_out()
}

/// One line read by [`read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
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
pub(crate) fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<Line>> {
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
pub(crate) fn quote(text: &str) -> String {
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
    fn only_a_closed_standard_output_is_closed() {
        let ours = anyhow::Error::new(mark(io::Error::from(io::ErrorKind::BrokenPipe)))
            .context("writing the state");
        assert!(is_closed(&ours));
        assert!(is_closed(&write_error(io::ErrorKind::BrokenPipe.into())));
        // A broken pipe to a child process is a failure, not a quiet end.
        let child =
            anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe)).context("python3");
        assert!(!is_closed(&child));
        assert!(!is_closed(&write_error(io::Error::other("disk full"))));
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
