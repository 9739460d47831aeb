//! DSL programs traced, lowered and run on the VM give the values plain
//! Rust computes.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use regex_asm::{assemble, demo};
use regex_chess_tests::run_vm;
use regex_vm::state::State;
use regex_vm::Config;

fn var(text: &str, thread: usize, name: &str) -> Option<String> {
    let s = State::parse(text).unwrap();
    s.threads.get(thread)?.var(name).map(str::to_string)
}

#[test]
fn fib_matches_native_for_every_n() {
    let (mut a, mut b) = (0u64, 1u64);
    for n in 0..=demo::FIB_MAX {
        let out = run_vm(&demo::fib(n).unwrap(), "", Config::default());
        assert_eq!(var(&out, 0, "a"), Some(a.to_string()), "fib({n})");
        (a, b) = (b, a + b);
    }
}

/// The README's DSL example, verbatim.
#[test]
fn readme_example_runs() -> Result<(), regex_asm::AsmError> {
    let program = regex_asm::assemble(|m| {
        m.boot("%%\n#stack:\n");
        m.set("a", 0u32);
        m.set("b", 1u32);
        for _ in 0..20 {
            // unrolled at assembly time
            m.set("t", m.get("a") + m.get("b"));
            m.set("a", m.get("b"));
            m.set("b", m.get("t"));
        }
        m.if_else(
            m.get("a").lt(1000u32),
            |m| m.set("size", "small"),
            |m| m.set("size", "big"),
        );
    })?;
    let out = run_vm(&program, "", Config::default());
    assert_eq!(var(&out, 0, "a").as_deref(), Some("6765"));
    assert_eq!(var(&out, 0, "size").as_deref(), Some("big"));
    Ok(())
}

/// Forks run both sides of an `if` in parallel threads, each taking its
/// own branch; integer comparisons and subtraction pick per thread.
#[test]
fn forked_threads_take_their_own_branches() {
    let program = assemble(|m| {
        m.boot("%%\n#stack:\n");
        m.fork("n", &["3", "15", "250", "7"]);
        m.if_else(
            m.get("n").ge(10u32),
            |m| m.set("r", m.get("n") - 10u32),
            |m| m.set("r", (m.get("n") + 100u32).concat("!")),
        );
        m.if_(m.get("r").eq("5"), |m| m.set("five", true));
    })
    .unwrap();
    let out = run_vm(&program, "", Config::default());
    let rs: Vec<_> = (0..4).map(|i| var(&out, i, "r").unwrap()).collect();
    assert_eq!(rs, ["103!", "5", "240", "107!"]);
    assert_eq!(var(&out, 1, "five").as_deref(), Some("T"));
    assert_eq!(var(&out, 0, "five"), None);
}
