//! The turn program in the other styles plays the same turns as ours: the
//! stack style (`regex_asm::lower_stack`, `dump --style stack`) and the
//! hand-written style (`regex_asm::lower_hand`, `dump --style hand`), from
//! bench-suite positions (and, for the hand style, person's lines with
//! non-ASCII digits, which its `\d` must not read as moves), read back from
//! their JSON dumps as `regex-chess run` reads them, run by our executor
//! and by CPython's `re`, end in the same screen bytes as the program
//! `play` runs.

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

/// Lines that are not moves though `\d` would read digits in them: an
/// Arabic-Indic two, a fullwidth four.
const ODD_LINES: [&str; 2] = ["e\u{662}e4", "e2e\u{ff14}"];

/// The screen a bench turn starts from: the person to move, the engine on
/// the other side, the line appended.
fn turn_state(fen: &str, line: &str) -> String {
    let pos = parse_fen(fen).expect("bench FEN");
    let screen = start_screen(fen, Some(!pos.turn())).expect("bench FEN");
    format!("{screen}{line}\n")
}

/// The states of [`TURNS`], each checked to be a move and a reply when
/// our program plays it.
fn bench_starts() -> Vec<String> {
    let starts: Vec<String> = TURNS.iter().map(|(f, m)| turn_state(f, m)).collect();
    for (start, (fen, mv)) in starts.iter().zip(TURNS) {
        let mut ours = start.clone();
        chess::play_turn(&mut ours, None, chess::Depth::FAST).expect("our turn runs");
        assert!(
            ours.contains(&format!("You played {mv}")) && ours.contains("The engine played"),
            "{fen} {mv}: the turn is a move and a reply:\n{ours}"
        );
    }
    starts
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

/// `program` (the turn program in the style `style`, at the fast depth)
/// plays each of `starts` as ours does, read back from its JSON dump, on
/// our executor and under CPython.
fn plays_the_same_turns_as_ours(program: &regex_vm::Program, style: &str, starts: &[String]) {
    let depth = chess::Depth::FAST;
    let json = format::to_json(program);
    // Read back as `regex-chess run` reads a file.
    let pairs = format::pairs_from_json(&json).expect("own dump reads back");
    let read = python::load(&pairs)
        .unwrap_or_else(|e| panic!("the {style} dump runs exactly as CPython runs it: {e}"));
    let exec = Executor::new(
        &read,
        Config {
            fancy_backtrack_limit: usize::MAX,
            ..chess::config_for(depth)
        },
    )
    .expect("compiles");
    let mut expected = Vec::new();
    for start in starts {
        let mut ours = start.clone();
        chess::play_turn(&mut ours, None, depth).expect("our turn runs");
        let mut theirs = start.clone();
        exec.run(&mut theirs)
            .unwrap_or_else(|e| panic!("the {style} turn runs: {e}"));
        assert!(
            theirs == ours,
            "{style} style on the VM:\n{theirs}\nours:\n{ours}"
        );
        expected.push(ours);
    }
    if let Some(got) = cpython(&json, starts) {
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            assert!(g == e, "{style} style under CPython:\n{g}\nours:\n{e}");
        }
    }
}

#[test]
fn stack_style_dump_plays_the_same_turns_as_ours_under_the_vm_and_cpython() {
    let stack = chess::turn::turn_stack_program(chess::Depth::FAST).expect("stack-style program");
    plays_the_same_turns_as_ours(&stack, "stack", &bench_starts());
}

/// The hand style is in Python's pattern language: `\d`, `(?m)` with `^`
/// and `$`, look-ahead and look-behind, named groups, `\Z`; the test
/// fails if it stops using them (it would then test nothing new).
#[test]
fn hand_style_dump_plays_the_same_turns_as_ours_under_the_vm_and_cpython() {
    let hand = chess::turn::turn_hand_program(chess::Depth::FAST).expect("hand-style program");
    for construct in [r"\d", "(?m)", "$", "(?=", "(?!", "(?<=", "(?P<", r"\Z"] {
        assert!(
            hand.rewrites()
                .iter()
                .any(|r| r.pattern.contains(construct)),
            "the hand style writes {construct}"
        );
    }
    assert!(
        python::exact(&hand).is_ok_and(|p| p
            .rewrites()
            .iter()
            .any(|r| r.engine == regex_vm::Engine::Python)),
        "some hand-style patterns need the Python engine"
    );
    let mut starts = bench_starts();
    for line in ODD_LINES {
        let start = turn_state(START_FEN, line);
        let mut ours = start.clone();
        chess::play_turn(&mut ours, None, chess::Depth::FAST).expect("our turn runs");
        assert!(
            !ours.contains("You played"),
            "{line:?} is not a move:\n{ours}"
        );
        starts.push(start);
    }
    plays_the_same_turns_as_ours(&hand, "hand", &starts);
}
