//! The tracer: runs DSL code once, recording instructions.
//!
//! Chess code is ordinary Rust that calls a [`Machine`]. Loops unroll
//! because they simply run; an `if` over a symbolic condition records both
//! branches, bracketed by `cond`/`pause`/`reactivate` with fresh tags, so
//! that at run time each thread executes only its own branch (the other
//! branch's rewrites find no active thread of it). The tracer produces an
//! [`IrProgram`]; it does not optimize or lower.
//!
//! It rejects misuse at assembly time: reading a variable that is not set
//! on every path, reading a variable through an expression built before the
//! variable was overwritten, a value or name with a reserved character, a
//! paused tag never reactivated. The first error is returned by [`trace`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use regex_vm::state::{check_value, NameError, Tag, VarName};

use crate::dsl::{Expr, Node};
use crate::ir::{Instr, IrProgram, Special};

/// Misuse found while tracing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// A name or value breaks the state grammar.
    #[error(transparent)]
    Name(#[from] NameError),
    /// A variable is read where some path has not set it.
    #[error("variable {0} is read but not set on every path to this point")]
    UnsetVariable(String),
    /// An expression read a variable that was overwritten before use.
    #[error(
        "expression reads variable {0} as it was before a later write; store it first with set()"
    )]
    StaleRead(String),
    /// A paused tag was never reactivated.
    #[error("threads paused under tag {0} are never reactivated")]
    Unreactivated(String),
    /// A special instruction's arguments do not fit its stack effect.
    #[error(
        "special {name}: takes {pops} and gives {pushes} values, called with {args} and {outs}"
    )]
    SpecialArity {
        /// The special's name.
        name: String,
        /// Items it pops.
        pops: usize,
        /// Items it pushes.
        pushes: usize,
        /// Arguments given.
        args: usize,
        /// Outputs given.
        outs: usize,
    },
    /// An empty `fork` list.
    #[error("fork over an empty list of values")]
    EmptyFork,
}

/// Threads paused under a tag, waiting for [`Machine::reactivate`].
#[must_use = "paused threads must be reactivated"]
#[derive(Debug)]
pub struct Paused {
    tag: Tag,
}

impl Paused {
    /// The tag.
    pub fn tag(&self) -> &Tag {
        &self.tag
    }
}

/// The recorder DSL code runs against.
#[derive(Debug, Default)]
pub struct Machine {
    instrs: Vec<Instr>,
    /// Variables set on every path to this point.
    defined: BTreeSet<String>,
    /// Write count per variable.
    generations: HashMap<String, u64>,
    next_tag: usize,
    /// Tags paused and not yet reactivated, with what was defined then.
    open: BTreeMap<String, BTreeSet<String>>,
    error: Option<TraceError>,
}

/// Traces `f` into an instruction list.
///
/// # Errors
///
/// The first misuse the tracer met.
pub fn trace(f: impl FnOnce(&mut Machine)) -> Result<IrProgram, TraceError> {
    let mut m = Machine::default();
    f(&mut m);
    if let Some(tag) = m.open.keys().next() {
        m.fail(TraceError::Unreactivated(tag.clone()));
    }
    match m.error {
        Some(e) => Err(e),
        None => Ok(IrProgram::new(m.instrs)),
    }
}

impl Machine {
    fn fail(&mut self, e: TraceError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn record(&mut self, instr: Instr) {
        self.instrs.push(instr);
    }

    fn var_name(&mut self, name: &str) -> Option<VarName> {
        match VarName::new(name) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(e.into());
                None
            }
        }
    }

    fn value(&mut self, v: &str) -> bool {
        match check_value(v) {
            Ok(()) => true,
            Err(e) => {
                self.fail(e.into());
                false
            }
        }
    }

    fn fresh_tag(&mut self) -> Tag {
        let n = self.next_tag;
        self.next_tag += 1;
        Tag::must(&format!("t{n}"))
    }

    fn written(&mut self, name: &str) {
        *self.generations.entry(name.to_string()).or_insert(0) += 1;
    }

    /// The number of instructions recorded so far.
    pub fn len(&self) -> usize {
        self.instrs.len()
    }

    /// True before the first instruction.
    pub fn is_empty(&self) -> bool {
        self.instrs.is_empty()
    }

    /// The current value of a variable, as an expression.
    pub fn get(&self, name: &str) -> Expr {
        Expr::var(name, self.generations.get(name).copied().unwrap_or(0))
    }

    /// Declares variables the input state sets in every thread.
    pub fn assume_set(&mut self, names: &[&str]) {
        for n in names {
            if self.var_name(n).is_some() {
                self.defined.insert(n.to_string());
            }
        }
    }

    /// The variables set on every path to this point, sorted.
    pub fn defined_vars(&self) -> Vec<String> {
        self.defined.iter().cloned().collect()
    }

    /// Whether a variable is set on every path to this point.
    pub fn is_set(&self, name: &str) -> bool {
        self.defined.contains(name)
    }

    /// Records the code that pushes `e`.
    fn emit(&mut self, e: &Expr) {
        match &*e.0 {
            Node::Const(v) => {
                if self.value(v) {
                    self.record(Instr::Push(v.clone()));
                }
            }
            Node::Var { name, generation } => {
                let Some(var) = self.var_name(name) else {
                    return;
                };
                if !self.defined.contains(name) {
                    self.fail(TraceError::UnsetVariable(name.clone()));
                } else if self.generations.get(name).copied().unwrap_or(0) != *generation {
                    self.fail(TraceError::StaleRead(name.clone()));
                }
                self.record(Instr::Lookup(var));
            }
            Node::Not(a) => {
                self.emit(a);
                self.record(Instr::Not);
            }
            Node::IsAny(a, set) => {
                self.emit(a);
                let ok = set.iter().all(|v| check_value(v).is_ok());
                for v in set {
                    self.value(v);
                }
                if ok {
                    self.record(Instr::IsAny(set.clone()));
                }
            }
            Node::And(a, b)
            | Node::Or(a, b)
            | Node::Eq(a, b)
            | Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Lt(a, b)
            | Node::Concat(a, b) => {
                self.emit(a);
                self.emit(b);
                self.record(match &*e.0 {
                    Node::And(..) => Instr::And,
                    Node::Or(..) => Instr::Or,
                    Node::Eq(..) => Instr::Eq,
                    Node::Add(..) => Instr::Add,
                    Node::Sub(..) => Instr::Sub,
                    Node::Lt(..) => Instr::Lt,
                    _ => Instr::Concat,
                });
            }
        }
    }

    /// `name = e` in every active thread.
    pub fn set(&mut self, name: &str, e: impl Into<Expr>) {
        let e = e.into();
        self.emit(&e);
        if let Some(var) = self.var_name(name) {
            self.record(Instr::AssignPop(var));
        }
        self.defined.insert(name.to_string());
        self.written(name);
    }

    /// Removes a variable from every active thread (it costs state bytes).
    pub fn delete(&mut self, name: &str) {
        if let Some(var) = self.var_name(name) {
            self.record(Instr::Delete(var));
        }
        self.defined.remove(name);
        self.written(name);
    }

    /// Runs `then` on the threads where `cond` holds.
    pub fn if_(&mut self, cond: impl Into<Expr>, then: impl FnOnce(&mut Machine)) {
        self.emit(&cond.into());
        let skip = self.fresh_tag();
        self.record(Instr::Cond(skip.clone()));
        let before = self.defined.clone();
        then(self);
        self.record(Instr::Reactivate(skip));
        self.defined = self.defined.intersection(&before).cloned().collect();
    }

    /// Runs `then` on the threads where `cond` holds and `otherwise` on the
    /// others.
    pub fn if_else(
        &mut self,
        cond: impl Into<Expr>,
        then: impl FnOnce(&mut Machine),
        otherwise: impl FnOnce(&mut Machine),
    ) {
        self.emit(&cond.into());
        self.if_else_top(then, otherwise);
    }

    /// Each active thread becomes one thread per value, with `name` set to
    /// it, in order.
    pub fn fork<S: AsRef<str>>(&mut self, name: &str, values: &[S]) {
        let values: Vec<String> = values.iter().map(|v| v.as_ref().to_string()).collect();
        if values.is_empty() {
            self.fail(TraceError::EmptyFork);
        }
        if values.iter().all(|v| self.value(v)) {
            self.record(Instr::ForkList(values));
        }
        if let Some(var) = self.var_name(name) {
            self.record(Instr::AssignPop(var));
        }
        self.defined.insert(name.to_string());
        self.written(name);
    }

    /// Each active thread becomes two: `name` true, then `name` false.
    pub fn fork_bool(&mut self, name: &str) {
        self.record(Instr::ForkBool);
        if let Some(var) = self.var_name(name) {
            self.record(Instr::AssignPop(var));
        }
        self.defined.insert(name.to_string());
        self.written(name);
    }

    /// Pauses every active thread under a fresh tag.
    pub fn pause(&mut self) -> Paused {
        let tag = self.fresh_tag();
        self.record(Instr::Pause(tag.clone()));
        self.open
            .insert(tag.as_str().to_string(), self.defined.clone());
        Paused { tag }
    }

    /// Gives every active thread a paused copy under a fresh tag.
    pub fn fork_inactive(&mut self) -> Paused {
        let tag = self.fresh_tag();
        self.record(Instr::ForkInactive(tag.clone()));
        self.open
            .insert(tag.as_str().to_string(), self.defined.clone());
        Paused { tag }
    }

    /// Wakes the threads paused under `paused`.
    pub fn reactivate(&mut self, paused: Paused) {
        let then = self.open.remove(paused.tag.as_str()).unwrap_or_default();
        self.record(Instr::Reactivate(paused.tag));
        self.defined = self.defined.intersection(&then).cloned().collect();
    }

    /// Wakes the threads paused under `paused` when no other thread is
    /// active (the caller's promise): what they had set is set again.
    pub fn reactivate_alone(&mut self, paused: Paused) {
        let then = self.open.remove(paused.tag.as_str()).unwrap_or_default();
        self.record(Instr::Reactivate(paused.tag));
        self.defined = then;
    }

    /// Deletes every active thread.
    pub fn destroy_active(&mut self) {
        self.record(Instr::DestroyActive);
    }

    /// Merges each run of adjacent active threads into its first thread.
    pub fn join(&mut self) {
        self.record(Instr::Join);
    }

    /// Each thread paused under `paused` that is followed directly by an
    /// active thread takes that thread's stack items (after its own), and
    /// the active thread is deleted: how a search hands a result back to
    /// the thread it forked from. Borrowing the [`Paused`] makes the tag
    /// one that is paused now and still to be reactivated (a `Paused`
    /// exists only between its pause and its reactivation).
    pub fn absorb(&mut self, paused: &Paused) {
        self.record(Instr::Absorb(paused.tag.clone()));
    }

    /// Runs `then` on the active threads whose stack is empty and
    /// `otherwise` on the others, whose stack is left as it was (the
    /// `stack_empty` instruction, then a branch on its answer).
    pub fn if_stack_empty(
        &mut self,
        then: impl FnOnce(&mut Machine),
        otherwise: impl FnOnce(&mut Machine),
    ) {
        self.record(Instr::StackEmpty);
        self.if_else_top(then, otherwise);
    }

    /// Runs `body` on a copy of each active thread while the thread itself
    /// waits, paused; then each thread takes the stack items its copy's
    /// run left (see [`Machine::absorb`]) and is active again with what it
    /// had set, the copies gone. `body` must leave at most one active
    /// thread in each copy's run (a search keeps its best, a test joins
    /// its threads), whose stack holds what the scope hands back.
    ///
    /// How a search hands a result up to the position it searched from:
    /// `fork_inactive`, `pause`, `reactivate` the copy, `body`, `absorb`,
    /// `reactivate_alone`.
    pub fn scope(&mut self, body: impl FnOnce(&mut Machine)) {
        let copy = self.fork_inactive();
        let waiting = self.pause();
        self.reactivate(copy);
        body(self);
        self.absorb(&waiting);
        self.reactivate_alone(waiting);
    }

    /// Pushes `e`'s value onto each active thread's stack: the way a
    /// result is handed back (the stack is the only thing a [`scope`]'s
    /// copy hands back). A variable must be set, as when it is read.
    ///
    /// [`scope`]: Machine::scope
    pub fn push(&mut self, e: impl Into<Expr>) {
        self.emit(&e.into());
    }

    /// Pops each active thread's stack into `names`, top first: the way a
    /// result is taken (each name is set from then on). Every active
    /// thread's stack must hold at least `names.len()` items: after a
    /// branch on [`Machine::if_stack_empty`], on the side where it is not
    /// empty, as the searcher that pushed them promises.
    pub fn pop_into(&mut self, names: &[&str]) {
        for name in names {
            if let Some(var) = self.var_name(name) {
                self.record(Instr::AssignPop(var));
            }
            self.defined.insert(name.to_string());
            self.written(name);
        }
    }

    /// Drops the top of each active thread's stack (which must have one).
    pub fn discard_top(&mut self) {
        self.record(Instr::Pop);
    }

    /// Records an instruction as is. The tracer checks nothing: the caller
    /// keeps the stack balanced (the DSL's statements leave it empty) and
    /// tells the tracer about variables with [`Machine::assume_set`].
    /// [`Machine::push`], [`Machine::pop_into`] and
    /// [`Machine::discard_top`] cover a result's stack items.
    pub fn emit_raw(&mut self, instr: Instr) {
        self.record(instr);
    }

    /// Like [`Machine::if_else`], with the condition already on top of the
    /// stack (pushed by raw instructions).
    pub fn if_else_top(
        &mut self,
        then: impl FnOnce(&mut Machine),
        otherwise: impl FnOnce(&mut Machine),
    ) {
        let other = self.fresh_tag();
        let done = self.fresh_tag();
        self.record(Instr::Cond(other.clone()));
        let before = self.defined.clone();
        then(self);
        let after_then = std::mem::replace(&mut self.defined, before);
        self.record(Instr::Pause(done.clone()));
        self.record(Instr::Reactivate(other));
        otherwise(self);
        self.record(Instr::Reactivate(done));
        self.defined = self.defined.intersection(&after_then).cloned().collect();
    }

    /// Sets up the state when it is empty (must come first).
    pub fn boot(&mut self, text: &str) {
        self.record(Instr::Boot(text.to_string()));
    }

    /// Runs a special instruction: `args` are pushed in order (the last on
    /// top), the special runs, and its results are stored, top first, into
    /// `outs`.
    pub fn special(&mut self, special: Arc<dyn Special>, args: &[Expr], outs: &[&str]) {
        let (pops, pushes) = special.stack_effect();
        if pops != args.len() || pushes != outs.len() {
            self.fail(TraceError::SpecialArity {
                name: special.name(),
                pops,
                pushes,
                args: args.len(),
                outs: outs.len(),
            });
            return;
        }
        for a in args {
            self.emit(a);
        }
        for name in special.requires() {
            if !self.defined.contains(&name) {
                self.fail(TraceError::UnsetVariable(name));
            }
        }
        for name in special.defines() {
            self.defined.insert(name.clone());
            self.written(&name);
        }
        self.record(Instr::Special(special));
        for name in outs {
            if let Some(var) = self.var_name(name) {
                self.record(Instr::AssignPop(var));
            }
            self.defined.insert(name.to_string());
            self.written(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_an_unset_variable_is_an_error() {
        let e = trace(|m| m.set("a", m.get("b"))).unwrap_err();
        assert_eq!(e, TraceError::UnsetVariable("b".into()));
    }

    #[test]
    fn a_variable_set_on_one_branch_only_is_unset_after() {
        let e = trace(|m| {
            m.set("c", true);
            m.if_(m.get("c"), |m| m.set("x", "1"));
            m.set("y", m.get("x"));
        })
        .unwrap_err();
        assert_eq!(e, TraceError::UnsetVariable("x".into()));
        let ok = trace(|m| {
            m.set("c", true);
            m.if_else(m.get("c"), |m| m.set("x", "1"), |m| m.set("x", "2"));
            m.set("y", m.get("x"));
        });
        assert!(ok.is_ok());
    }

    #[test]
    fn stale_reads_are_errors() {
        let e = trace(|m| {
            m.set("a", 1u32);
            let old = m.get("a");
            m.set("a", 2u32);
            m.set("b", old);
        })
        .unwrap_err();
        assert_eq!(e, TraceError::StaleRead("a".into()));
    }

    #[test]
    fn reserved_characters_and_bad_names_are_errors() {
        assert!(matches!(
            trace(|m| m.set("a", "x#y")).unwrap_err(),
            TraceError::Name(NameError::ReservedChar { ch: '#', .. })
        ));
        assert!(matches!(
            trace(|m| m.set("a b", "x")).unwrap_err(),
            TraceError::Name(NameError::BadName { .. })
        ));
        assert!(matches!(
            trace(|m| m.fork("v", &["ok", "no%"])).unwrap_err(),
            TraceError::Name(NameError::ReservedChar { ch: '%', .. })
        ));
    }

    #[test]
    fn paused_threads_must_be_reactivated() {
        let e = trace(|m| {
            let p = m.pause();
            std::mem::forget(p);
        })
        .unwrap_err();
        assert_eq!(e, TraceError::Unreactivated("t0".into()));
    }

    /// The paused thread (under `leaf`) stands just before the active copy
    /// `absorb` empties into it, as in the search's uses.
    fn absorb_then_branch(m: &mut Machine, give: bool) {
        let copy = m.fork_inactive();
        let leaf = m.pause();
        m.reactivate(copy);
        if give {
            m.set("x", "1");
            m.emit_raw(Instr::Lookup(VarName::must("x")));
        }
        m.absorb(&leaf);
        m.reactivate(leaf);
        m.if_stack_empty(|m| m.set("e", "T"), |m| m.set("e", "F"));
    }

    #[test]
    fn absorb_names_the_paused_tag_and_if_stack_empty_branches_on_it() {
        let p = trace(|m| absorb_then_branch(m, true)).unwrap();
        assert_eq!(
            p.to_string(),
            "000: fork_inactive t0\n001: pause t1\n002: reactivate t0\n003: push \"1\"\n\
             004: assign_pop x\n005: lookup x\n006: absorb t1\n007: reactivate t1\n\
             008: stack_empty\n009: cond t2\n010: push \"T\"\n011: assign_pop e\n\
             012: pause t3\n013: reactivate t2\n014: push \"F\"\n015: assign_pop e\n\
             016: reactivate t3\n"
        );
        // Run: the paused thread takes the active copy's item, so its stack
        // is not empty; without the item it is. The copy is gone either way.
        for (give, want) in [(true, "#e:F\n"), (false, "#e:T\n")] {
            let program = crate::assemble(|m| {
                m.boot("%%\n#stack:\n");
                absorb_then_branch(m, give);
            })
            .unwrap();
            let mut state = String::new();
            regex_vm::Executor::new(&program, regex_vm::Config::default())
                .unwrap()
                .run(&mut state)
                .unwrap();
            assert!(state.contains(want), "{give}: {state:?}");
            assert_eq!(state.matches('%').count(), 2, "one thread: {state:?}");
        }
    }

    /// `scope` records the sequence a search wrote out by hand, and
    /// `push`/`pop_into`/`discard_top` the raw stack instructions.
    #[test]
    fn scope_and_stack_results_record_the_raw_sequence() {
        let by_hand = trace(|m| {
            m.set("a", "1");
            let copy = m.fork_inactive();
            let waiting = m.pause();
            m.reactivate(copy);
            m.set("b", "2");
            m.emit_raw(Instr::Lookup(VarName::must("b")));
            m.emit_raw(Instr::Push("-".into()));
            m.absorb(&waiting);
            m.reactivate_alone(waiting);
            m.emit_raw(Instr::Pop);
            m.emit_raw(Instr::AssignPop(VarName::must("c")));
            m.assume_set(&["c"]);
            m.set("d", m.get("c"));
        })
        .unwrap();
        let helpers = trace(|m| {
            m.set("a", "1");
            m.scope(|m| {
                m.set("b", "2");
                m.push(m.get("b"));
                m.push("-");
            });
            m.discard_top();
            m.pop_into(&["c"]);
            m.set("d", m.get("c"));
        })
        .unwrap();
        assert_eq!(helpers.to_string(), by_hand.to_string());
    }

    /// What a scope's copy set is gone after it (the thread is as it was),
    /// and a pushed variable must be set, as a read must.
    #[test]
    fn a_scope_keeps_only_what_the_thread_had_and_pushes_are_checked() {
        let e = trace(|m| {
            m.scope(|m| m.set("b", "2"));
            m.set("c", m.get("b"));
        })
        .unwrap_err();
        assert_eq!(e, TraceError::UnsetVariable("b".into()));
        let e = trace(|m| m.push(m.get("x"))).unwrap_err();
        assert_eq!(e, TraceError::UnsetVariable("x".into()));
        // A value read before a pop into its variable is stale after it.
        let e = trace(|m| {
            m.set("c", "1");
            let old = m.get("c");
            m.push("2");
            m.pop_into(&["c"]);
            m.set("d", old);
        })
        .unwrap_err();
        assert_eq!(e, TraceError::StaleRead("c".into()));
    }

    /// Run: the scope hands back what its copy pushed, top last, and
    /// `pop_into` takes it top first.
    #[test]
    fn a_scope_hands_its_copys_stack_back_in_order() {
        let program = crate::assemble(|m| {
            m.boot("%%\n#stack:\n");
            m.set("a", "1");
            m.scope(|m| {
                m.set("a", "5");
                m.push(m.get("a"));
                m.push("7");
            });
            m.pop_into(&["top", "under"]);
        })
        .unwrap();
        let mut state = String::new();
        regex_vm::Executor::new(&program, regex_vm::Config::default())
            .unwrap()
            .run(&mut state)
            .unwrap();
        let out = regex_vm::state::State::parse(&state).unwrap();
        assert_eq!(out.threads.len(), 1, "the copy is gone: {state:?}");
        let t = &out.threads[0];
        assert!(t.stack.is_empty(), "{state:?}");
        let vars = [t.var("a"), t.var("top"), t.var("under")];
        assert_eq!(vars, [Some("1"), Some("7"), Some("5")], "{state:?}");
    }

    #[test]
    fn if_else_records_both_branches_between_tags() {
        let p = trace(|m| {
            m.set("c", true);
            m.if_else(m.get("c"), |m| m.set("x", "1"), |m| m.set("x", "2"));
        })
        .unwrap();
        let listing = p.to_string();
        assert_eq!(
            listing,
            "000: push \"T\"\n001: assign_pop c\n002: lookup c\n003: cond t0\n\
             004: push \"1\"\n005: assign_pop x\n006: pause t1\n007: reactivate t0\n\
             008: push \"2\"\n009: assign_pop x\n010: reactivate t1\n"
        );
    }
}
