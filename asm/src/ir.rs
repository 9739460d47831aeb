//! The instruction set of the regex machine.
//!
//! This module owns the vocabulary between the tracer, the optimizer, the
//! lowering and the reference interpreter: the [`Instr`] enum, the
//! [`IrProgram`] list, and the [`Special`] trait through which a client
//! (the chess program) adds instructions of its own, each one a hand-written
//! rewrite list with its own reference meaning, without touching the
//! tracer ([`WholeStateSpecial`] for those whose meaning is on the whole
//! state). It defines no meaning itself: `interpret` says what each
//! instruction does, `lower` how the regexes do it.
//!
//! Conventions every instruction follows: it acts on every active thread at
//! once and on no paused thread (except `reactivate`, which wakes paused
//! ones); booleans are the values `T` and `F`; integers are canonical
//! non-negative decimals below `10^INT_DIGITS`.

use std::fmt;
use std::sync::Arc;

use regex_vm::state::{State, StateError, Tag, Thread, VarName};
use regex_vm::Rewrite;

/// Integers handled by `add`, `sub` and `lt` have at most this many digits.
pub const INT_DIGITS: usize = 8;

/// The boolean `true` value.
pub const TRUE: &str = "T";
/// The boolean `false` value.
pub const FALSE: &str = "F";

/// Why the reference interpreter refused an instruction: the program broke
/// a precondition that the lowering relies on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    /// Not enough stack items.
    #[error("{instr}: stack has {have} items, needs {need}")]
    StackUnderflow {
        /// Instruction name.
        instr: String,
        /// Items present.
        have: usize,
        /// Items needed.
        need: usize,
    },
    /// `lookup` of a variable the thread does not have.
    #[error("{instr}: variable {name} is not set")]
    UnsetVariable {
        /// Instruction name.
        instr: String,
        /// The variable.
        name: String,
    },
    /// An operand of the wrong kind (not a boolean, not an integer...).
    #[error("{instr}: operand {value:?} is not {expected}")]
    BadOperand {
        /// Instruction name.
        instr: String,
        /// The operand.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// `boot` text that is not a state.
    #[error("{instr}: the boot text is not a valid state")]
    BadBoot {
        /// Instruction name.
        instr: String,
        /// Where the text breaks the grammar.
        #[source]
        source: StateError,
    },
    /// A special instruction's own precondition failed (the message is
    /// the special's own words; no lower-level error lies under it).
    #[error("{instr}: {message}")]
    Special {
        /// Instruction name.
        instr: String,
        /// What went wrong.
        message: String,
    },
}

/// A special-purpose instruction: one hand-written rewrite list with its
/// own reference meaning. It acts on active threads only, each one alone:
/// every active thread is replaced, in place, by the threads
/// [`Special::apply`] returns for it (none deletes it, several fork it), and
/// its rewrites must do exactly that.
pub trait Special: fmt::Debug + Send + Sync {
    /// Short name, used in listings and timing tables.
    fn name(&self) -> String;
    /// The meaning: what the instruction makes of one active thread.
    ///
    /// # Errors
    ///
    /// [`RefError`] when the thread breaks the instruction's precondition.
    fn apply(&self, thread: Thread) -> Result<Vec<Thread>, RefError>;
    /// The rewrites, in order. Each pattern must be in the portable subset;
    /// the lowering checks it.
    fn rewrites(&self) -> Vec<Rewrite>;
    /// Stack items consumed and produced (the tracer checks depths with it).
    /// The default, `(0, 0)`, is that of most specials: they work on
    /// variables and leave the stack alone.
    fn stack_effect(&self) -> (usize, usize) {
        (0, 0)
    }
    /// For instructions whose meaning spans threads or the text outside
    /// them: the whole new state. `None` (the default) means "apply
    /// [`Special::apply`] to each active thread alone". Such instructions
    /// implement [`WholeStateSpecial`] instead, which supplies this.
    fn apply_state(&self, _state: &State) -> Option<Result<State, RefError>> {
        None
    }
    /// Variables every resulting thread has set (the tracer records them).
    fn defines(&self) -> Vec<String> {
        Vec::new()
    }
    /// Variables the instruction reads (the tracer checks they are set).
    fn requires(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A special instruction whose meaning spans threads or the text outside
/// them (a reduction over runs of threads, reading or writing the screen):
/// it has no meaning on one thread alone, only on the whole state. Every
/// such type is a [`Special`] (through the blanket impl below), whose
/// [`Special::apply_state`] is [`WholeStateSpecial::apply_state`] and whose
/// [`Special::apply`] refuses to run.
pub trait WholeStateSpecial: fmt::Debug + Send + Sync {
    /// As [`Special::name`].
    fn name(&self) -> String;
    /// The meaning: the whole new state.
    ///
    /// # Errors
    ///
    /// [`RefError`] when the state breaks the instruction's precondition.
    fn apply_state(&self, state: &State) -> Result<State, RefError>;
    /// As [`Special::rewrites`].
    fn rewrites(&self) -> Vec<Rewrite>;
    /// As [`Special::stack_effect`].
    fn stack_effect(&self) -> (usize, usize) {
        (0, 0)
    }
    /// As [`Special::defines`].
    fn defines(&self) -> Vec<String> {
        Vec::new()
    }
    /// As [`Special::requires`].
    fn requires(&self) -> Vec<String> {
        Vec::new()
    }
}

impl<T: WholeStateSpecial> Special for T {
    fn name(&self) -> String {
        WholeStateSpecial::name(self)
    }

    fn apply(&self, _thread: Thread) -> Result<Vec<Thread>, RefError> {
        Err(RefError::Special {
            instr: WholeStateSpecial::name(self),
            message: "acts on the whole state; see apply_state".into(),
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        WholeStateSpecial::rewrites(self)
    }

    fn stack_effect(&self) -> (usize, usize) {
        WholeStateSpecial::stack_effect(self)
    }

    fn apply_state(&self, state: &State) -> Option<Result<State, RefError>> {
        Some(WholeStateSpecial::apply_state(self, state))
    }

    fn defines(&self) -> Vec<String> {
        WholeStateSpecial::defines(self)
    }

    fn requires(&self) -> Vec<String> {
        WholeStateSpecial::requires(self)
    }
}

/// One instruction. Stack pictures list the top first.
#[derive(Debug, Clone)]
pub enum Instr {
    /// If the state is empty, it becomes this text (the one rewrite allowed
    /// to match the empty string).
    Boot(String),
    /// `.. -> v ..`
    Push(String),
    /// `v .. -> ..`
    Pop,
    /// `v .. -> v v ..`
    Dup,
    /// `a b .. -> b a ..`
    Swap,
    /// Pushes the value of a variable.
    Lookup(VarName),
    /// Pops the top into a variable (created first in the variable list if
    /// new, moved there if it existed).
    AssignPop(VarName),
    /// Removes a variable (no-op when absent).
    Delete(VarName),
    /// `Push(v); AssignPop(x)` fused.
    Set(VarName, String),
    /// Pops a boolean: `F` threads are paused under the tag, `T` threads go on.
    Cond(Tag),
    /// Pauses every active thread under the tag.
    Pause(Tag),
    /// Wakes every thread paused under the tag.
    Reactivate(Tag),
    /// Deletes every active thread.
    DestroyActive,
    /// Each active thread gets a paused copy (tagged) right after it.
    ForkInactive(Tag),
    /// Each active thread becomes two: one with `T` pushed, then one with `F`.
    ForkBool,
    /// Each active thread becomes one copy per value, in order, each with
    /// its value pushed. The list is not empty.
    ForkList(Vec<String>),
    /// Each run of adjacent active threads becomes its first thread, whose
    /// stack is followed by the stacks of the others in order; the others'
    /// variables are dropped. Exact for runs of up to `2^JOIN_PASSES` threads.
    Join,
    /// Each thread paused under the tag that is immediately followed by an
    /// active thread takes that thread's stack (after its own items), and
    /// the active thread is deleted.
    Absorb(Tag),
    /// `.. -> (stack was empty) ..`: pushes `T` on an empty stack, `F` on
    /// top of a non-empty one.
    StackEmpty,
    /// `a b .. -> (a == b) ..`
    Eq,
    /// `b .. -> !b ..`
    Not,
    /// `a b .. -> (a && b) ..`
    And,
    /// `a b .. -> (a || b) ..`
    Or,
    /// `v .. -> (v in set) ..`
    IsAny(Vec<String>),
    /// `a b .. -> (b ++ a) ..` (push "x", push "y", concat gives "xy").
    Concat,
    /// `a b .. -> (b + a) ..`
    Add,
    /// `a b .. -> max(b - a, 0) ..`
    Sub,
    /// `a b .. -> (b < a) ..`
    Lt,
    /// Fused `Lookup(x); Push(v); Eq`: pushes whether variable `x` equals `v`.
    VarEq(VarName, String),
    /// Fused `Lookup(x); Push(v); Eq; Cond(t)` (one value) or
    /// `Lookup(x); IsAny(vs); Cond(t)`: threads whose variable `x` is none
    /// of the values are paused under `t`.
    CondVarIn(VarName, Vec<String>, Tag),
    /// A client-defined instruction.
    Special(Arc<dyn Special>),
}

/// Number of merge passes of `join`.
pub const JOIN_PASSES: usize = 10;

impl Instr {
    /// Short name, used in listings and timing tables.
    pub fn name(&self) -> String {
        match self {
            Instr::Boot(_) => "boot".into(),
            Instr::Push(_) => "push".into(),
            Instr::Pop => "pop".into(),
            Instr::Dup => "dup".into(),
            Instr::Swap => "swap".into(),
            Instr::Lookup(_) => "lookup".into(),
            Instr::AssignPop(_) => "assign_pop".into(),
            Instr::Delete(_) => "delete".into(),
            Instr::Set(..) => "set".into(),
            Instr::Cond(_) => "cond".into(),
            Instr::Pause(_) => "pause".into(),
            Instr::Reactivate(_) => "reactivate".into(),
            Instr::DestroyActive => "destroy_active".into(),
            Instr::ForkInactive(_) => "fork_inactive".into(),
            Instr::ForkBool => "fork_bool".into(),
            Instr::ForkList(_) => "fork_list".into(),
            Instr::Join => "join".into(),
            Instr::Absorb(_) => "absorb".into(),
            Instr::StackEmpty => "stack_empty".into(),
            Instr::Eq => "eq".into(),
            Instr::Not => "not".into(),
            Instr::And => "and".into(),
            Instr::Or => "or".into(),
            Instr::IsAny(_) => "is_any".into(),
            Instr::Concat => "concat".into(),
            Instr::Add => "add".into(),
            Instr::Sub => "sub".into(),
            Instr::Lt => "lt".into(),
            Instr::VarEq(..) => "var_eq".into(),
            Instr::CondVarIn(..) => "cond_var_in".into(),
            Instr::Special(s) => s.name(),
        }
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            Instr::Boot(text) => write!(f, "{name} {:?}", text),
            Instr::Push(v) => write!(f, "{name} {v:?}"),
            Instr::Lookup(x) | Instr::AssignPop(x) | Instr::Delete(x) => write!(f, "{name} {x}"),
            Instr::Set(x, v) | Instr::VarEq(x, v) => write!(f, "{name} {x} {v:?}"),
            Instr::Cond(t)
            | Instr::Pause(t)
            | Instr::Reactivate(t)
            | Instr::ForkInactive(t)
            | Instr::Absorb(t) => {
                write!(f, "{name} {t}")
            }
            Instr::ForkList(vs) | Instr::IsAny(vs) => write!(f, "{name} {vs:?}"),
            Instr::CondVarIn(x, vs, t) => write!(f, "{name} {x} {vs:?} {t}"),
            _ => f.write_str(&name),
        }
    }
}

/// An instruction list: the assembler's output before lowering.
#[derive(Debug, Clone, Default)]
pub struct IrProgram {
    /// The instructions, in order.
    pub instrs: Vec<Instr>,
}

impl IrProgram {
    /// A program from its instructions.
    pub fn new(instrs: Vec<Instr>) -> IrProgram {
        IrProgram { instrs }
    }
}

/// The listing: `007: push "x"`, one instruction per line.
impl fmt::Display for IrProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, instr) in self.instrs.iter().enumerate() {
            writeln!(f, "{i:03}: {instr}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole-state special for the test: drops every thread.
    #[derive(Debug)]
    struct DropAll;

    impl WholeStateSpecial for DropAll {
        fn name(&self) -> String {
            "drop_all".into()
        }
        fn apply_state(&self, state: &State) -> Result<State, RefError> {
            Ok(State {
                prefix: state.prefix.clone(),
                threads: Vec::new(),
            })
        }
        fn rewrites(&self) -> Vec<Rewrite> {
            Vec::new()
        }
        fn stack_effect(&self) -> (usize, usize) {
            (0, 1)
        }
    }

    #[test]
    fn a_whole_state_special_is_a_special_with_no_per_thread_meaning() {
        let s: Arc<dyn Special> = Arc::new(DropAll);
        assert_eq!(s.name(), "drop_all");
        assert_eq!(s.stack_effect(), (0, 1));
        let thread = Thread {
            tag: None,
            stack: Vec::new(),
            vars: Vec::new(),
        };
        assert!(matches!(
            s.apply(thread.clone()),
            Err(RefError::Special { instr, .. }) if instr == "drop_all"
        ));
        let state = State {
            prefix: "text\n".into(),
            threads: vec![thread],
        };
        let after = s.apply_state(&state).expect("a whole-state meaning");
        assert_eq!(
            after,
            Ok(State {
                prefix: "text\n".into(),
                threads: Vec::new()
            })
        );
    }
}
