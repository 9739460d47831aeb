//! regex-asm: the macro assembler of the regex machine.
//!
//! The pipeline, one module per arrow:
//! - [`trace`]: DSL code (ordinary Rust against a [`Machine`], values are
//!   symbolic [`Expr`]s) runs once and is recorded as instructions;
//!   both sides of every `if` are recorded, loops unroll.
//! - [`ir`]: the instructions ([`Instr`]), the vocabulary of all stages,
//!   extensible through [`ir::Special`].
//! - [`optimize`]: peephole fusion into fewer, cheaper instructions.
//! - [`lower`]: each instruction to ordered rewrites in the portable subset,
//!   giving a [`regex_vm::Program`].
//! - [`lower_stack`]: the same instructions in a foreign style (variables
//!   named on the stack and found by back-reference, no scope hints), a
//!   benchmark of programs the executor did not write.
//! - [`lower_hand`]: the same instructions as a person writes them for
//!   Python's `re` (`\d`, `(?m)^...$`, look-ahead, back-references by
//!   name), another such benchmark.
//! - [`interpret`]: what each instruction means, on a structured state: the
//!   oracle the lowering is tested against.
//!
//! Nothing here knows about chess.
//!
//! The crate's surface: the root's re-exports (the stages' functions, the
//! [`Machine`] the DSL runs against, the errors), [`ir`] (the instructions
//! and the [`Special`] trait clients implement), [`interpret`] (the
//! reference meaning, for differential tests) and [`demo`] (a small DSL
//! program for examples and tests). The stage modules themselves are
//! private.

#![forbid(unsafe_code)]

pub mod demo;
mod dsl;
pub mod interpret;
pub mod ir;
mod lower;
mod lower_hand;
mod lower_stack;
mod optimize;
mod trace;

pub use dsl::Expr;
pub use ir::{Instr, IrProgram, Special};
pub use lower::{lower, LowerError, RewriteFault};
pub use lower_hand::lower_hand;
pub use lower_stack::lower_stack;
pub use optimize::optimize;
pub use trace::{trace, Machine, Paused, TraceError};

/// Any failure of [`assemble`].
#[derive(Debug, thiserror::Error)]
pub enum AsmError {
    /// The DSL code misused the machine.
    #[error("tracing the program failed")]
    Trace(#[from] TraceError),
    /// A rewrite is outside the portable subset.
    #[error("lowering the program failed")]
    Lower(#[from] LowerError),
}

/// Trace, optimize and lower in one call.
///
/// # Errors
///
/// [`AsmError`] from the first failing stage.
pub fn assemble(f: impl FnOnce(&mut Machine)) -> Result<regex_vm::Program, AsmError> {
    let ir = trace(f)?;
    Ok(lower(&optimize(&ir))?)
}
