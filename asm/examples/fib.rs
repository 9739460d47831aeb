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

struct Args {
    n: u32,
    dump: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { n: 20, dump: None };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--n" => {
                let v = it.next().ok_or("--n needs a value")?;
                args.n = v.parse().map_err(|_| format!("--n: not a number: {v:?}"))?;
            }
            "--dump" => args.dump = Some(it.next().ok_or("--dump needs a file name")?),
            "-h" | "--help" => {
                return Err(format!(
                    "usage: fib [--n N (0..={FIB_MAX}, default 20)] [--dump FILE.json|FILE.js]"
                ))
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if args.n > FIB_MAX {
        return Err(format!(
            "--n {} is too large: integers on the machine have at most 8 digits, so n <= {FIB_MAX}",
            args.n
        ));
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
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
