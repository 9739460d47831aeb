//! Fibonacci on the regex machine.
//!
//! `cargo run --release -p regex-asm --example fib -- --n 20 --dump fib.json`
//! assembles the DSL program of `regex_asm::demo::fib`, runs the regex list
//! on the VM from the empty state, prints `fib(N) = X` and the number of
//! rewrites, and with `--dump FILE` writes the list (`.json` in the original
//! project's shape, `.js` as a module).

use std::process::ExitCode;

use regex_asm::demo::{fib, FIB_MAX};
use regex_vm::state::State;
use regex_vm::{format, Config, Executor};

/// Fibonacci on the regex machine.
#[derive(clap::Parser)]
struct Args {
    /// Which Fibonacci number to compute: integers on the machine have at
    /// most 8 digits, so 0 to FIB_MAX (40).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(..=i64::from(FIB_MAX)))]
    n: u32,
    /// Also write the rewrite list: FILE.json or FILE.js.
    #[arg(long, value_name = "FILE")]
    dump: Option<String>,
}

fn main() -> ExitCode {
    // Bad arguments: clap prints the reason and exits with status 2.
    let args = <Args as clap::Parser>::parse();
    let program = match fib(args.n) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("assembly failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let exec = match Executor::new(&program, Config::default()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut state = String::new();
    let stats = match exec.run(&mut state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("run failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let value = State::parse(&state).ok().and_then(|s| {
        s.threads
            .first()
            .and_then(|t| t.var("a").map(str::to_string))
    });
    let Some(value) = value else {
        eprintln!("unexpected final state:\n{state}");
        return ExitCode::FAILURE;
    };
    println!("fib({}) = {value}", args.n);
    println!(
        "{} rewrites ({} distinct patterns), {} changed the state, {:.2} ms",
        program.len(),
        program.distinct_patterns(),
        stats.changed,
        stats.elapsed.as_secs_f64() * 1e3
    );
    if let Some(path) = args.dump {
        if let Err(e) = format::write_file(&program, std::path::Path::new(&path)) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
    }
    ExitCode::SUCCESS
}
