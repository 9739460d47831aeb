//! Portability: the dumped rewrite lists, run by a plain CPython `re.sub`
//! loop (and by node's `String.prototype.replace`, when node is present),
//! end in the same state as our VM.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use regex_asm::ir::IrProgram;
use regex_asm::{demo, lower};
use regex_chess_tests::{cases, run_vm, state_and_program};
use regex_vm::{format, Config, Program};

/// The loop the README shows: every rewrite once, in order.
const PYTHON_LOOP: &str = r#"
import json, re, sys
jobs = json.load(sys.stdin)
out = []
for job in jobs:
    state = job["state"]
    for pattern, replacement in json.loads(job["program"]):
        state = re.sub(pattern, replacement, state)
    out.append(state)
json.dump(out, sys.stdout)
"#;

/// Runs each (program, start state) under CPython in one process.
fn run_python(jobs: &[(Program, String)]) -> Vec<String> {
    let input: Vec<serde_json::Value> = jobs
        .iter()
        .map(|(p, s)| serde_json::json!({"state": s, "program": format::to_json(p)}))
        .collect();
    run_script(
        "python3",
        &["-c", PYTHON_LOOP],
        &serde_json::to_string(&input).unwrap(),
    )
    .expect("python3 must be installed: the portability test needs CPython's re")
}

fn run_script(cmd: &str, args: &[&str], stdin: &str) -> Option<Vec<String>> {
    let mut child = Command::new(cmd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{cmd} failed");
    Some(serde_json::from_slice(&out.stdout).expect("script prints a JSON list"))
}

#[test]
fn fib_json_under_cpython_matches_vm() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fib.json");
    let program = demo::fib(20).unwrap();
    format::write_file(&program, &path).unwrap();
    // Read back what was written: the file is the artifact under test.
    let loaded = format::from_json_file(&path).unwrap();
    let vm = run_vm(&loaded, "", Config::default());
    assert_eq!(vm, "%%\n#stack:\n#a:6765\n");
    let py = run_python(&[(loaded, String::new())]);
    assert_eq!(py, [vm]);
}

/// Random well-formed instruction sequences over random states: the same
/// bytes under CPython as on the VM. One python process runs them all.
#[test]
fn random_programs_under_cpython_match_vm() {
    let mut runner = TestRunner::deterministic();
    let mut jobs = Vec::new();
    let mut expected = Vec::new();
    for _ in 0..cases(300) {
        let (state, instrs) = state_and_program().new_tree(&mut runner).unwrap().current();
        let program = lower(&IrProgram::new(instrs)).unwrap();
        let text = state.render();
        expected.push(run_vm(&program, &text, Config::default()));
        jobs.push((program, text));
    }
    let got = run_python(&jobs);
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "job {i}: CPython and the VM disagree\n{}", jobs[i].0);
    }
    assert_eq!(got.len(), expected.len());
}

const NODE_LOOP: &str = r#"
const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
(async () => {
  const out = [];
  for (const job of jobs) {
    const url = "data:text/javascript;base64," + Buffer.from(job.module).toString("base64");
    const { rewrites } = await import(url);
    let state = job.state;
    for (const [re, r] of rewrites) state = state.replace(re, r);
    out.push(state);
  }
  process.stdout.write(JSON.stringify(out));
})();
"#;

#[test]
fn random_programs_under_node_match_vm() {
    if !testkit::needs("node", "the JavaScript dump was not run") {
        return;
    }
    let mut runner = TestRunner::deterministic();
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for _ in 0..cases(100).min(300) {
        let (state, instrs) = state_and_program().new_tree(&mut runner).unwrap().current();
        let program = lower(&IrProgram::new(instrs)).unwrap();
        let text = state.render();
        expected.push(run_vm(&program, &text, Config::default()));
        input.push(serde_json::json!({"state": text, "module": format::to_js(&program).unwrap()}));
    }
    let fib = demo::fib(12).unwrap();
    expected.push(run_vm(&fib, "", Config::default()));
    input.push(serde_json::json!({"state": "", "module": format::to_js(&fib).unwrap()}));
    let got = run_script(
        "node",
        &["-e", NODE_LOOP],
        &serde_json::to_string(&input).unwrap(),
    )
    .unwrap();
    assert_eq!(got, expected);
}

/// The README's game loop: the empty state, then each line appended and
/// one pass of the program; prints every screen.
const PYTHON_GAME: &str = r#"
import json, re, sys
job = json.load(sys.stdin)
rewrites = [(re.compile(p), r) for p, r in job["program"]]
state = ""
screens = []
for line in [None] + job["lines"]:
    if line is not None:
        state += line + "\n"
    for pattern, replacement in rewrites:
        state = pattern.sub(replacement, state)
    screens.append(state)
json.dump(screens, sys.stdout)
"#;

/// The dumped turn program, run by CPython for a 3-move game (with a bad
/// line in between), shows the same screens as the VM.
#[test]
fn turn_program_under_cpython_matches_vm() {
    let program = &chess::turn_pass(chess::Depth::FAST).unwrap().program;
    let lines = ["e2e4", "hello", "g1f3", "f1c4"];
    let mut state = String::new();
    let mut expected = Vec::new();
    chess::play_turn(&mut state, None, chess::Depth::FAST).unwrap();
    expected.push(state.clone());
    for l in lines {
        chess::play_turn(&mut state, Some(l), chess::Depth::FAST).unwrap();
        expected.push(state.clone());
    }
    let job = serde_json::json!({
        "program": serde_json::from_str::<serde_json::Value>(&format::to_json(program)).unwrap(),
        "lines": lines,
    });
    let got = run_script(
        "python3",
        &["-c", PYTHON_GAME],
        &serde_json::to_string(&job).unwrap(),
    )
    .expect("python3 must be installed");
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "screen {i} differs between CPython and the VM");
    }
}

/// The game loop printed in the README, run verbatim on the dumped turn
/// program, shows what the VM shows.
#[test]
fn readme_game_loop_runs_the_dump() {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("```python\nimport json, re, sys\n\nrewrites = [(re.compile")
        .expect("the README shows the game loop");
    let code = &readme[start + "```python\n".len()..];
    let code = &code[..code.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("loop.py");
    let json = dir.path().join("turn.json");
    std::fs::write(&script, code).unwrap();
    format::write_file(
        &chess::turn_pass(chess::Depth::FAST).unwrap().program,
        &json,
    )
    .unwrap();
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(&json)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"e2e4\nhello\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let mut state = String::new();
    let mut shown = String::new();
    for line in [None, Some("e2e4"), Some("hello")] {
        chess::play_turn(&mut state, line, chess::Depth::FAST).unwrap();
        shown.push_str(&state);
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
}
