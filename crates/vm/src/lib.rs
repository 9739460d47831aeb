//! regex-vm: a machine whose only operation is regex replace-all.
//!
//! A [`Program`] is an ordered list of `(pattern, replacement)` rewrites; the
//! [`Executor`] applies each once, in order, with replace-all semantics, to
//! one text state whose grammar lives in [`state`]. [`format`] reads and
//! writes programs as JSON (the original project's shape) and writes them
//! as JavaScript;
//! [`portable`] decides whether a pattern belongs to the subset that every
//! engine (Rust, Python `re`, JavaScript) runs the same way, and [`python`]
//! whether a program read from a file runs exactly as CPython runs it.
//!
//! Nothing here knows about instructions (that is `regex-asm`) or chess.

#![forbid(unsafe_code)]

mod exec;
pub mod format;
mod lex;
pub mod portable;
mod program;
pub mod pyre;
pub mod python;
mod quote;
pub mod ranks;
pub mod state;
mod stop;

pub use exec::{analysis, backtrack};
pub use exec::{CompileError, Config, EngineError, ExecError, Executor, Stats};
pub use program::{Engine, Origin, Piece, Program, Rewrite, Scope, Template};
pub use quote::{excerpt, EXCERPT_CHARS};
pub use ranks::ByteRanks;
pub use state::{State, Tag, Thread, VarName};
pub use stop::{Stop, StopReason, Ticks, Time};
