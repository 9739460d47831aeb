//! The stack-style turn program (`regex_asm::lower_stack`, `dump --style
//! stack`) plays the same turns as ours: from bench-suite positions, read
//! back from its JSON dump as `regex-chess run` reads it, run by our
//! executor and by CPython's `re`, it ends in the same screen bytes as the
//! program `play` runs.

use std::io::Write;
use std::process::{Command, Stdio};

use chess::codec::parse_fen;
use chess::codec::START_FEN;
use chess::screen::start_screen;
use regex_vm::{format, python, Config, Executor};
use shakmaty::Position;

/// Bench-suite turns (`tests/data/bench.epd`): an opening, castling, a
/// crowded middlegame, an en passant ending and a promotion.
const TURNS: [(&str, &str); 5] = [
    (START_FEN, "e2e4"),
    (
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "e1g1",
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "e2a6",
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "e2e4"),
    ("8/P6k/8/8/8/8/6K1/8 w - - 0 1", "a7a8q"),
];

/// The screen a bench turn starts from: the person to move, the engine on
/// the other side, the move appended.
fn turn_state(fen: &str, mv: &str) -> String {
    let pos = parse_fen(fen).expect("bench FEN");
    let screen = start_screen(fen, Some(!pos.turn())).expect("bench FEN");
    format!("{screen}{mv}\n")
}

/// Each state after one pass of the program, under CPython's `re`; `None`
/// (a visible skip) when python3 is missing outside CI.
fn cpython(json: &str, states: &[String]) -> Option<Vec<String>> {
    const LOOP: &str = r#"
import json, re, sys
job = json.load(sys.stdin)
rewrites = [(re.compile(p), r) for p, r in job["program"]]
out = []
for state in job["states"]:
    for pattern, replacement in rewrites:
        state = pattern.sub(replacement, state)
    out.append(state)
json.dump(out, sys.stdout)
"#;
    if !testkit::needs("python3", "the CPython half of this test") {
        return None;
    }
    let mut child = Command::new("python3")
        .args(["-I", "-c", LOOP])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let job = serde_json::json!({
        "program": serde_json::from_str::<serde_json::Value>(json).expect("dump is JSON"),
        "states": states,
    });
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(job.to_string().as_bytes())
        .expect("python3 reads the job");
    let out = child.wait_with_output().expect("python3 runs");
    assert!(out.status.success(), "python3 failed");
    Some(serde_json::from_slice(&out.stdout).expect("a JSON list of states"))
}

#[test]
fn stack_style_dump_plays_the_same_turns_as_ours_under_the_vm_and_cpython() {
    let depth = chess::Depth::FAST;
    let stack = chess::turn::turn_stack_program(depth).expect("stack-style program");
    let json = format::to_json(&stack);
    let read = python::exact(&format::from_json(&json).expect("own dump reads back"))
        .expect("the stack-style dump runs exactly as CPython runs it");
    let exec = Executor::new(
        &read,
        Config {
            fancy_backtrack_limit: usize::MAX,
            ..chess::config_for(depth)
        },
    )
    .expect("compiles");
    let starts: Vec<String> = TURNS.iter().map(|(f, m)| turn_state(f, m)).collect();
    let mut expected = Vec::new();
    for (start, (fen, mv)) in starts.iter().zip(TURNS) {
        let mut ours = start.clone();
        chess::play_turn(&mut ours, None, depth).expect("our turn runs");
        assert!(
            ours.contains(&format!("You played {mv}")) && ours.contains("The engine played"),
            "{fen} {mv}: the turn is a move and a reply:\n{ours}"
        );
        let mut theirs = start.clone();
        exec.run(&mut theirs).expect("the stack-style turn runs");
        assert!(
            theirs == ours,
            "{fen} {mv}: stack style on the VM:\n{theirs}\nours:\n{ours}"
        );
        expected.push(ours);
    }
    if let Some(got) = cpython(&json, &starts) {
        assert_eq!(got.len(), expected.len());
        for ((g, e), (fen, mv)) in got.iter().zip(&expected).zip(TURNS) {
            assert!(
                g == e,
                "{fen} {mv}: stack style under CPython:\n{g}\nours:\n{e}"
            );
        }
    }
}
