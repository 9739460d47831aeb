//! The ISA holds together: the lowering of every instruction, run by the
//! VM, gives byte for byte what the reference interpreter says; the
//! optimizer changes no result; the executor's fast paths change no byte.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use regex_asm::ir::{Instr, IrProgram};
use regex_asm::{interpret, lower, lower_hand, lower_stack, optimize};
use regex_chess_tests::{naive, proptest_config, run_vm, state_and_program};
use regex_vm::state::State;
use regex_vm::Config;

/// Reference result of `instrs` on `start`, rendered.
fn reference_text(start: &State, instrs: &[Instr]) -> String {
    let mut s = start.clone();
    interpret::run(instrs, &mut s).expect("generated programs are well-formed");
    s.render()
}

/// Finds the first instruction after which the VM and the reference
/// disagree, for a readable failure.
fn first_divergence(start: &State, instrs: &[Instr]) -> String {
    let mut s = start.clone();
    let mut text = start.render();
    for (i, instr) in instrs.iter().enumerate() {
        interpret::execute(instr, &mut s).unwrap();
        let p = lower(&IrProgram::new(vec![instr.clone()])).unwrap();
        text = run_vm(&p, &text, Config::default());
        if text != s.render() {
            return format!(
                "instruction {i} ({instr}) diverges\nrewrites:\n{p}\nvm:\n{text}\nreference:\n{}",
                s.render()
            );
        }
    }
    "no divergence step by step".into()
}

proptest! {
    #![proptest_config(proptest_config(1000))]

    #[test]
    fn interp_and_vm_agree_on_final_state((start, instrs) in state_and_program()) {
        let expected = reference_text(&start, &instrs);
        let program = lower(&IrProgram::new(instrs.clone())).unwrap();
        let got = run_vm(&program, &start.render(), Config::default());
        prop_assert!(got == expected, "{}", first_divergence(&start, &instrs));
        State::parse(&got).unwrap();
    }

    #[test]
    fn optimized_and_unoptimized_agree((start, instrs) in state_and_program()) {
        let ir = IrProgram::new(instrs);
        let opt = optimize(&ir);
        let unopt_ref = reference_text(&start, &ir.instrs);
        prop_assert_eq!(&reference_text(&start, &opt.instrs), &unopt_ref);
        let got = run_vm(&lower(&opt).unwrap(), &start.render(), Config::default());
        prop_assert_eq!(got, unopt_ref);
    }

    #[test]
    fn fast_paths_and_naive_loop_agree((start, instrs) in state_and_program()) {
        let program = lower(&IrProgram::new(instrs)).unwrap();
        let fast = run_vm(&program, &start.render(), Config::default());
        let slow = run_vm(&program, &start.render(), naive());
        // Every stretch of thread-confined rewrites on two halves, however
        // small the state.
        let halves = run_vm(
            &program,
            &start.render(),
            Config {
                split_bytes: 0,
                ..Config::default()
            },
        );
        prop_assert_eq!(&fast, &slow);
        prop_assert_eq!(halves, slow);
    }

    /// The stack-style lowering (variables named on the stack, found by
    /// back-reference) means what the reference says, on the traced
    /// instructions and on the optimizer's fused ones, fast and naive.
    #[test]
    fn stack_lowering_and_reference_agree((start, instrs) in state_and_program()) {
        let ir = IrProgram::new(instrs);
        let expected = reference_text(&start, &ir.instrs);
        for program in [lower_stack(&ir).unwrap(), lower_stack(&optimize(&ir)).unwrap()] {
            let fast = run_vm(&program, &start.render(), Config::default());
            prop_assert!(fast == expected, "stack style:\n{program}\nvm:\n{fast}\nreference:\n{expected}");
            prop_assert_eq!(run_vm(&program, &start.render(), naive()), expected.clone());
        }
    }

    /// The hand-written lowering (Python's pattern language: look-ahead,
    /// `(?m)`, `\d`, back-references by name) means what the reference
    /// says, on the traced and the fused instructions, fast and naive.
    #[test]
    fn hand_lowering_and_reference_agree((start, instrs) in state_and_program()) {
        let ir = IrProgram::new(instrs);
        let expected = reference_text(&start, &ir.instrs);
        for program in [lower_hand(&ir).unwrap(), lower_hand(&optimize(&ir)).unwrap()] {
            let fast = run_vm(&program, &start.render(), Config::default());
            prop_assert!(fast == expected, "hand style:\n{program}\nvm:\n{fast}\nreference:\n{expected}");
            prop_assert_eq!(run_vm(&program, &start.render(), naive()), expected.clone());
        }
    }
}

/// Every instruction kind shows up in generated programs, so the property
/// tests above cover the whole ISA.
#[test]
fn generator_covers_every_instruction() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let (_, instrs) = state_and_program().new_tree(&mut runner).unwrap().current();
        seen.extend(instrs.iter().map(|i| i.name()));
        seen.extend(
            optimize(&IrProgram::new(instrs))
                .instrs
                .iter()
                .map(|i| i.name()),
        );
    }
    let all = [
        "boot",
        "push",
        "pop",
        "dup",
        "swap",
        "lookup",
        "assign_pop",
        "delete",
        "set",
        "cond",
        "pause",
        "reactivate",
        "destroy_active",
        "fork_inactive",
        "fork_bool",
        "fork_list",
        "join",
        "absorb",
        "stack_empty",
        "eq",
        "not",
        "and",
        "or",
        "is_any",
        "concat",
        "add",
        "sub",
        "lt",
        "var_eq",
        "cond_var_in",
        "triple",
    ];
    let missing: Vec<_> = all.iter().filter(|n| !seen.contains(**n)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
