//! Peephole optimization of instruction lists.
//!
//! Consumes and produces an [`IrProgram`]. Every pass replaces a short
//! window of instructions by one fused instruction with the same meaning
//! (under the reference interpreter) and fewer rewrites; it must never
//! change the final state of a well-formed program, which the property test
//! `optimized_and_unoptimized_agree` checks. It never looks at regexes.
//!
//! Fusions (rewrites before -> after):
//! - `push c; assign_pop x` -> `set x c` (3 -> 2)
//! - `lookup x; push c; eq` and `push c; lookup x; eq` -> `var_eq x c` (5 -> 3, no back-reference)
//! - `var_eq x c; cond t` -> `cond_var_in x [c] t` (5 -> 3)
//! - `lookup x; is_any vs; cond t` -> `cond_var_in x vs t` (6 -> 3, and no
//!   copy of the value onto the stack)

use crate::ir::{Instr, IrProgram};

/// Applies every fusion until none applies.
pub fn optimize(program: &IrProgram) -> IrProgram {
    let mut out: Vec<Instr> = Vec::with_capacity(program.instrs.len());
    for instr in &program.instrs {
        out.push(instr.clone());
        while fuse_tail(&mut out) {}
    }
    IrProgram::new(out)
}

/// Fuses the last instructions of `out` if a pattern applies.
fn fuse_tail(out: &mut Vec<Instr>) -> bool {
    let n = out.len();
    let fused = match out.as_slice() {
        [.., Instr::Push(c), Instr::AssignPop(x)] => Some((2, Instr::Set(x.clone(), c.clone()))),
        [.., Instr::Lookup(x), Instr::Push(c), Instr::Eq]
        | [.., Instr::Push(c), Instr::Lookup(x), Instr::Eq] => {
            Some((3, Instr::VarEq(x.clone(), c.clone())))
        }
        [.., Instr::VarEq(x, c), Instr::Cond(t)] => {
            Some((2, Instr::CondVarIn(x.clone(), vec![c.clone()], t.clone())))
        }
        [.., Instr::Lookup(x), Instr::IsAny(vs), Instr::Cond(t)] => {
            Some((3, Instr::CondVarIn(x.clone(), vs.clone(), t.clone())))
        }
        _ => None,
    };
    match fused {
        Some((len, instr)) => {
            out.truncate(n - len);
            out.push(instr);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::state::{Tag, VarName};

    #[test]
    fn fuses_lookup_push_eq_cond() {
        let x = VarName::must("x");
        let t = Tag::must("t");
        let p = IrProgram::new(vec![
            Instr::Push("1".into()),
            Instr::AssignPop(x.clone()),
            Instr::Lookup(x.clone()),
            Instr::Push("1".into()),
            Instr::Eq,
            Instr::Cond(t.clone()),
            Instr::Reactivate(t),
        ]);
        assert_eq!(
            optimize(&p).to_string(),
            "000: set x \"1\"\n001: cond_var_in x [\"1\"] t\n002: reactivate t\n"
        );
    }

    #[test]
    fn fuses_lookup_is_any_cond() {
        let x = VarName::must("x");
        let t = Tag::must("t");
        let p = IrProgram::new(vec![
            Instr::Lookup(x.clone()),
            Instr::IsAny(vec!["a".into(), "b".into()]),
            Instr::Cond(t.clone()),
            Instr::Reactivate(t),
        ]);
        assert_eq!(
            optimize(&p).to_string(),
            "000: cond_var_in x [\"a\", \"b\"] t\n001: reactivate t\n"
        );
    }
}
