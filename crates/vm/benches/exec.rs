//! Criterion benchmarks of the executor's hot paths: the same programs run
//! with the fast paths and as the plain loop, on states of many threads.
//! `cargo bench -p regex-vm --features bench` runs them (the feature
//! keeps criterion out of the tests' and clippy's builds).
// `criterion_main!` writes a `main` that has no doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use regex_vm::{Config, Executor, Program, Rewrite, Scope, Template};

/// A state of `n` active threads (a few paused), each with a board-like
/// variable and some small ones.
fn state(n: usize) -> String {
    let mut s = String::from("screen text\n");
    for i in 0..n {
        let tag = if i % 8 == 7 { "%t1" } else { "%%" };
        s.push_str(&format!(
            "{tag}\n#stack:\n#v:{}\n#z:/rnbqkbnr//pppppppp//........//........//....P...//........//PPPP.PPP//RNBQKBNR/\n#m:e2e4\n",
            1000 + i
        ));
    }
    s
}

/// Thread-local rewrites of the kinds the chess program is made of: a long
/// capture spanning a thread, a literal push, a selective variable test.
fn program() -> Program {
    let local = |p: &str, t: Template| Rewrite::new(p, t).with_scope(Scope::ActiveThread);
    Program::new(vec![
        local(r"%%\n#stack:\n", Template::literal("%%\n#stack:\nT\n")),
        local(
            r"%%\n#stack:\n([^#%\n]*)\n([^%]*#m:e2e4\n)",
            Template::literal("%`\n#stack:\n").group(2),
        ),
        local(r"%`\n", Template::literal("%%\n")),
        local(
            r"(%%\n#stack:\n[^%]*#z:[^%\n]{33})P([^%]*)",
            Template::new().group(1).text("Q").group(2),
        ),
        local(r"(%%\n[^%]*)#m:[^%\n]*\n", Template::new().group(1)),
        local(r"%%\n#stack:\n#x:", Template::literal("absent")),
    ])
}

fn bench(c: &mut Criterion) {
    let program = program();
    let mut group = c.benchmark_group("thread_local_rewrites");
    for n in [16usize, 256, 1024] {
        let input = state(n);
        for (name, naive) in [("fast", false), ("naive", true)] {
            let exec = Executor::new(
                &program,
                Config {
                    naive,
                    ..Config::default()
                },
            )
            .expect("compiles");
            group.bench_with_input(BenchmarkId::new(name, n), &input, |b, input| {
                b.iter(|| {
                    let mut s = input.clone();
                    exec.run(&mut s).expect("runs");
                    s
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
