//! The crate's failures: [`Error`], what an entry point reports, and
//! [`BuildError`], why a program could not be built. A leaf: it names the
//! causes from the other crates and nothing of the crate's own stages.

use std::sync::Arc;

use regex_vm::state::StateError;
use regex_vm::{CompileError, ExecError};

use crate::board::codec::FenError;

/// Failures of the library's entry points.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The program failed to build (a bug, reported rather than hidden).
    /// The cause is shared: a program is built once and every later call
    /// reports the same failure.
    #[error("building the chess program failed")]
    Assemble(#[source] Arc<BuildError>),
    /// The VM stopped.
    #[error("the regex VM stopped")]
    Exec(#[from] ExecError),
    /// The VM's output is not a valid state (a bug).
    #[error("the program left an invalid state")]
    BadState(#[source] StateError),
    /// The VM's output is a valid state that lacks what is read from it
    /// (a bug); the text says what is missing.
    #[error("the program left {0}")]
    BadOutput(&'static str),
    /// A history key that is not a side to move and 64 squares.
    #[error("not a position key: {0}")]
    History(String),
    /// A probe hint that is not a move's name ([`search_hinted`]).
    #[error("not a move's name: {0}")]
    Hint(String),
}

/// Why a program could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The DSL program did not assemble.
    #[error("assembling it failed")]
    Assemble(#[from] regex_asm::AsmError),
    /// A rewrite did not compile on its regex engine.
    #[error("compiling it failed")]
    Compile(#[from] CompileError),
}
