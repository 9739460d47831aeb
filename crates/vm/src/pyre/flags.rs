//! Python's inline flags: the letters of `(?aimsux-imsx...)` as CPython
//! 3.11 reads them (which flags exist for a `str` pattern, which can be
//! turned off, which clash), and what a scope's flags become.
//!
//! It owns the flag letters and their errors; where global flags may
//! stand and what a scoped group holds is `parse`'s.

use super::ast::Fold;
use super::cursor::{error, Cursor, PatternError};

/// The flags in force at a place of the pattern.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Flags {
    /// `i`: case-insensitive.
    pub(crate) ignore_case: bool,
    /// `m`: `^` and `$` at lines.
    pub(crate) multiline: bool,
    /// `s`: `.` matches `\n`.
    pub(crate) dot_all: bool,
    /// `x`: verbose.
    pub(crate) verbose: bool,
    /// `a`: ASCII classes and case.
    pub(crate) ascii: bool,
    /// `u`: Unicode (the default for `str`; given explicitly).
    pub(crate) unicode: bool,
}

/// Inline flags as read after `(?`.
pub(crate) enum Inline {
    /// `(?aimsux)`: global flags (the `)` read).
    Global(Flags),
    /// `(?flags-flags:`: a scope's flags turned on and off (the `:` read).
    Scoped {
        /// Turned on.
        on: Flags,
        /// Turned off.
        off: Flags,
    },
}

/// Reads inline flags at the parser's place (after `(?`).
///
/// # Errors
///
/// CPython's: `L` (a bytes flag), `a` with `u`, turning off `a`/`u`/`L`,
/// a flag turned on and off, a missing flag, `:` or `)`, an unknown flag.
pub(crate) fn read(p: &mut Cursor) -> Result<Inline, PatternError> {
    let mut on = Flags::default();
    let mut any_on = false;
    while let Some(c) = p.peek() {
        if !set_flag(&mut on, c) {
            if c == 'L' {
                return Err(error(
                    "bad inline flags: cannot use 'L' flag with a str pattern",
                    p.pos + 1,
                ));
            }
            break;
        }
        any_on = true;
        p.pos += 1;
    }
    if on.ascii && on.unicode {
        return Err(error(
            "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
            p.pos,
        ));
    }
    let mut off = Flags::default();
    match p.peek() {
        Some(')') if any_on => {
            p.pos += 1;
            return Ok(Inline::Global(on));
        }
        Some('-') => {
            p.pos += 1;
            let mut any_off = false;
            while let Some(c) = p.peek() {
                match c {
                    'i' | 'm' | 's' | 'x' => {
                        set_flag(&mut off, c);
                        any_off = true;
                        p.pos += 1;
                    }
                    'a' | 'u' | 'L' => {
                        return Err(error(
                            "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                            p.pos + 1,
                        ))
                    }
                    _ => break,
                }
            }
            if !any_off {
                return Err(match p.peek() {
                    Some(c) if c.is_ascii_alphabetic() => error("unknown flag", p.pos),
                    _ => error("missing flag", p.pos),
                });
            }
            match p.peek() {
                Some(':') => p.pos += 1,
                Some(c) if c.is_ascii_alphabetic() => return Err(error("unknown flag", p.pos)),
                _ => return Err(error("missing :", p.pos)),
            }
            if (on.ignore_case && off.ignore_case)
                || (on.multiline && off.multiline)
                || (on.dot_all && off.dot_all)
                || (on.verbose && off.verbose)
            {
                return Err(error("bad inline flags: flag turned on and off", p.pos - 1));
            }
        }
        Some(':') => p.pos += 1,
        Some(c) if c.is_ascii_alphabetic() => return Err(error("unknown flag", p.pos)),
        _ => return Err(error("missing -, : or )", p.pos)),
    }
    Ok(Inline::Scoped { on, off })
}

/// Global flags `on` added to `global`.
///
/// # Errors
///
/// CPython's `ValueError` for ASCII and Unicode together.
pub(crate) fn add_global(global: &mut Flags, on: Flags) -> Result<(), PatternError> {
    if (on.ascii && global.unicode) || (on.unicode && global.ascii) {
        return Err(PatternError {
            message: "ASCII and UNICODE flags are incompatible".into(),
            pos: None,
        });
    }
    merge(global, &on);
    Ok(())
}

/// The flags inside a scope `(?on-off:...)` opened where `flags` hold
/// (`a` and `u` replace each other).
pub(crate) fn scoped(flags: Flags, on: Flags, off: Flags) -> Flags {
    let mut inner = flags;
    merge(&mut inner, &on);
    if on.ascii {
        inner.unicode = false;
    }
    if on.unicode {
        inner.ascii = false;
    }
    inner.ignore_case &= !off.ignore_case;
    inner.multiline &= !off.multiline;
    inner.dot_all &= !off.dot_all;
    inner.verbose &= !off.verbose;
    inner
}

/// The letters that can start inline flags (`L` only to be refused).
pub(crate) fn is_flag_start(c: char) -> bool {
    matches!(c, 'a' | 'i' | 'L' | 'm' | 's' | 'u' | 'x' | '-')
}

fn set_flag(f: &mut Flags, c: char) -> bool {
    match c {
        'a' => f.ascii = true,
        'i' => f.ignore_case = true,
        'm' => f.multiline = true,
        's' => f.dot_all = true,
        'u' => f.unicode = true,
        'x' => f.verbose = true,
        _ => return false,
    }
    true
}

fn merge(into: &mut Flags, on: &Flags) {
    into.ascii |= on.ascii;
    into.ignore_case |= on.ignore_case;
    into.multiline |= on.multiline;
    into.dot_all |= on.dot_all;
    into.unicode |= on.unicode;
    into.verbose |= on.verbose;
}

/// How a back-reference under `flags` compares.
pub(crate) fn fold_of(flags: Flags) -> Fold {
    if flags.ignore_case {
        Fold::Lower { ascii: flags.ascii }
    } else {
        Fold::Exact
    }
}
