//! Keeping the best thread of each run: the minimax step.
//!
//! [`KeepBest`] replaces each run of adjacent active threads by the first of
//! them with the smallest (or largest) value of an integer variable. It is a
//! tournament: each pass pairs threads (1,2), (3,4), ... by copying the
//! second's value onto the first's stack, compares with the generic `lt`
//! rewrites, and deletes the loser (ties keep the earlier thread), so a run
//! of up to `2^PASSES` threads is decided in `PASSES` passes. Paused threads
//! separate runs. It knows nothing of chess.

use regex_asm::ir::{Instr, IrProgram, RefError, WholeStateSpecial};
use regex_asm::lower;
use regex_vm::state::{State, Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};

/// Passes: runs of up to 256 threads (chess has at most 218 legal moves).
pub(crate) const PASSES: usize = 8;

/// Which value wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Better {
    /// The smallest.
    Min,
    /// The largest.
    Max,
}

/// The special instruction.
#[derive(Debug, Clone)]
pub(crate) struct KeepBest {
    /// The integer variable compared.
    pub var: String,
    /// Which value wins.
    pub better: Better,
}

fn generic(instrs: Vec<Instr>) -> Vec<Rewrite> {
    lower(&IrProgram::new(instrs))
        .expect("generic instructions lower")
        .rewrites()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.origin = None;
            r
        })
        .collect()
}

impl WholeStateSpecial for KeepBest {
    fn name(&self) -> String {
        match self.better {
            Better::Min => format!("keep_min_{}", self.var),
            Better::Max => format!("keep_max_{}", self.var),
        }
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        self.reduce(state.threads.clone()).map(|threads| State {
            prefix: state.prefix.clone(),
            threads,
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let v = &self.var;
        let mut pass = vec![Rewrite::new(
            format!(r"(%%\n#stack:\n)([^%]*%%\n#stack:\n[^%]*?#{v}:([0-9]+)\n)"),
            Template::new().group(1).group(3).text("\n").group(2),
        )
        .with_scope(Scope::Global)];
        let mut compare = vec![Instr::Lookup(VarName::must(v))];
        if self.better == Better::Max {
            compare.push(Instr::Swap);
        }
        compare.push(Instr::Lt);
        pass.extend(generic(compare));
        pass.push(
            Rewrite::new(r"%%\n#stack:\nT\n[^%]*", Template::new()).with_scope(Scope::Global),
        );
        pass.push(
            Rewrite::new(
                r"(%%\n#stack:\n)F\n([^%]*)%%\n[^%]*",
                Template::new().group(1).group(2),
            )
            .with_scope(Scope::Global),
        );
        pass.push(
            Rewrite::new(r"(%%\n#stack:\n)[0-9]+\n", Template::new().group(1))
                .with_scope(Scope::ActiveThread),
        );
        let mut out = Vec::new();
        for _ in 0..PASSES {
            out.extend(pass.iter().cloned());
        }
        out
    }

    fn requires(&self) -> Vec<String> {
        vec![self.var.clone()]
    }
}

impl KeepBest {
    fn value(&self, t: &Thread) -> Result<u64, RefError> {
        let bad = |message: String| RefError::Special {
            instr: self.name(),
            message,
        };
        if !t.stack.is_empty() {
            return Err(bad("stacks must be empty".into()));
        }
        let v = t
            .var(&self.var)
            .ok_or_else(|| bad(format!("variable {} is not set", self.var)))?;
        let canonical = !v.is_empty()
            && v.len() <= regex_asm::ir::INT_DIGITS
            && v.bytes().all(|b| b.is_ascii_digit())
            && (v == "0" || !v.starts_with('0'));
        if !canonical {
            return Err(bad(format!("{v:?} is not a canonical integer")));
        }
        v.parse().map_err(|_| bad(format!("{v:?} is not a number")))
    }

    fn reduce(&self, threads: Vec<Thread>) -> Result<Vec<Thread>, RefError> {
        let mut out: Vec<Thread> = Vec::with_capacity(threads.len());
        let mut run: Vec<Thread> = Vec::new();
        let flush = |run: &mut Vec<Thread>, out: &mut Vec<Thread>| -> Result<(), RefError> {
            if run.is_empty() {
                return Ok(());
            }
            if run.len() > 1 << PASSES {
                return Err(RefError::Special {
                    instr: self.name(),
                    message: format!("a run of {} threads is too long", run.len()),
                });
            }
            let mut best = 0;
            let mut best_value = self.value(&run[0])?;
            for (i, t) in run.iter().enumerate().skip(1) {
                let v = self.value(t)?;
                let better = match self.better {
                    Better::Min => v < best_value,
                    Better::Max => v > best_value,
                };
                if better {
                    best = i;
                    best_value = v;
                }
            }
            out.push(run.swap_remove(best));
            run.clear();
            Ok(())
        };
        for t in threads {
            if t.is_active() {
                run.push(t);
            } else {
                flush(&mut run, &mut out)?;
                out.push(t);
            }
        }
        flush(&mut run, &mut out)?;
        Ok(out)
    }
}
