//! Small demonstration programs written in the DSL, shared by the examples
//! and the tests (so both run the very same program). Nothing here is used
//! by the assembler itself.

use crate::{assemble, AsmError, Machine};

/// Largest `n` whose Fibonacci number the demo can compute: both operands
/// of the last addition must fit in [`INT_DIGITS`](crate::ir::INT_DIGITS)
/// digits (fib(39) does, fib(40) is the largest sum).
pub const FIB_MAX: u32 = 40;

/// The empty state boots into one active thread with an empty stack.
pub const BOOT_STATE: &str = "%%\n#stack:\n";

/// Records the Fibonacci computation: after it, variable `a` holds fib(n)
/// in the one thread. The loop is unrolled: `n` is fixed at assembly time.
pub fn fib_dsl(m: &mut Machine, n: u32) {
    m.boot(BOOT_STATE);
    m.set("a", 0u32);
    m.set("b", 1u32);
    for _ in 0..n {
        m.set("t", m.get("a") + m.get("b"));
        m.set("a", m.get("b"));
        m.set("b", m.get("t"));
    }
    m.delete("t");
    m.delete("b");
}

/// The assembled Fibonacci program for `n <= FIB_MAX`.
///
/// # Errors
///
/// Never for a valid `n`; the assembler's error otherwise.
pub fn fib(n: u32) -> Result<regex_vm::Program, AsmError> {
    assemble(|m| fib_dsl(m, n))
}
