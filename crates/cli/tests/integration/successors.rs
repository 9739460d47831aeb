//! `regex-chess dump --program successors` and `regex-chess successors`:
//! the successors list of each promotion rule (one test each, so the two
//! run side by side), dumped as JSON and JS, run on over a thousand
//! positions under CPython's plain loop and compared with python-chess
//! (`successors_check.py`); the same list under Node and under
//! `regex-chess run` gives the same bytes as CPython, and `successors
//! --fen` prints the same lines. Sizes are checked against the
//! benchmark's limits; times are printed, never asserted.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{bin, describe, missing, needs, python_chess};

/// Dumps the successors list to `dir/name` and returns its path, its
/// number of rewrites and its size in bytes, as `dump` reports them.
fn dump(dir: &Path, name: &str, promotions: &str) -> (PathBuf, usize, u64) {
    let path = dir.join(name);
    let out = bin()
        .args([
            "dump",
            "--program",
            "successors",
            "--promotions",
            promotions,
        ])
        .arg(&path)
        .output()
        .expect("binary runs");
    assert!(out.status.success(), "{}", describe(&out));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    // "wrote PATH: the successors list, N rewrites, ...".
    let rewrites: usize = said
        .split(", ")
        .find_map(|part| part.strip_suffix(" rewrites"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no rewrite count in {said:?}"));
    let bytes = std::fs::metadata(&path).expect("written").len();
    assert!(
        said.trim_end().ends_with(&format!("{bytes} bytes")),
        "{said}"
    );
    (path, rewrites, bytes)
}

/// Each text of `fed` through the JS module `program` under Node, as
/// `s = s.replace(re, r)` for every pair; the outputs in order.
fn node_outputs(program: &Path, fed: &Path, dir: &Path) -> Vec<String> {
    let script = r#"
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const { rewrites } = await import(pathToFileURL(process.argv[2]).href);
const fed = JSON.parse(readFileSync(process.argv[3], "utf8")).fed;
const times = [];
const out = fed.map((text) => {
  const start = performance.now();
  for (const [re, r] of rewrites) text = text.replace(re, r);
  times.push(performance.now() - start);
  return text;
});
times.sort((a, b) => a - b);
writeFileSync(process.argv[4], JSON.stringify(out));
console.log(`median ${times[times.length >> 1].toFixed(2)} ms per position (Node ${process.version})`);
"#;
    let script_path = dir.join("successors.mjs");
    std::fs::write(&script_path, script).expect("script written");
    let out_path = dir.join("node-out.json");
    let out = Command::new("node")
        .arg(&script_path)
        .arg(program)
        .arg(fed)
        .arg(&out_path)
        .output()
        .expect("node runs");
    assert!(out.status.success(), "{}", describe(&out));
    println!(
        "node {}: {}",
        program.display(),
        String::from_utf8_lossy(&out.stdout).trim()
    );
    serde_json::from_str(&std::fs::read_to_string(&out_path).expect("node output"))
        .expect("a JSON list")
}

/// What `regex-chess run PROGRAM` prints when fed every position, each
/// followed by a line that is not a FEN (`-`): the pass on a position
/// prints its successors; the next pass (the successors, then `-`) prints
/// the empty state, so the run prints the outputs one after the other.
fn run_prints(program: &Path, fed: &[String]) -> Vec<u8> {
    let mut child = bin()
        .arg("run")
        .arg(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = String::new();
    for text in fed {
        input.push_str(text.trim_end_matches('\n'));
        input.push_str("\n-\n");
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("run ends");
    writer.join().expect("writer").expect("input written");
    assert!(out.status.success(), "{}", describe(&out));
    out.stdout
}

/// The first position whose output differs between two runs that print
/// the outputs one after the other, for the failure message.
fn first_difference(want: &[String], got: &[u8]) -> String {
    let mut at = 0;
    for (i, w) in want.iter().enumerate() {
        let end = at + w.len();
        if got.get(at..end) != Some(w.as_bytes()) {
            let shown: String = w.chars().take(300).collect();
            return format!("position {i}: expected {shown:?}...");
        }
        at = end;
    }
    format!("{} bytes after the last position", got.len() - at)
}

/// One promotion rule's list (`all` or `queen`), dumped as JSON and JS:
/// its size, CPython's plain loop against python-chess on the checker's
/// positions, Node and `regex-chess run` against CPython; returns the
/// positions as fed and CPython's outputs.
fn check_list(variant: &str) -> Option<(Vec<String>, Vec<String>)> {
    if !python_chess() {
        missing("python-chess", "the successors check (.ci/run installs it)");
        return None;
    }
    let node = needs("node", "the Node comparison");
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, rewrites, bytes) = dump(dir.path(), &format!("{variant}.json"), variant);
    let (js, _, js_bytes) = dump(dir.path(), &format!("{variant}.js"), variant);
    println!("{variant}: {rewrites} pairs, {bytes} bytes (JS {js_bytes})");
    // The benchmark's limits are 100,000 pairs and 10 MB: a tenth of them.
    assert!(rewrites < 10_000, "{rewrites} pairs");
    assert!(bytes < 1_000_000 && js_bytes < 1_000_000, "{bytes} bytes");

    let results = dir.path().join("results.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/successors_check.py");
    let perft = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/perft.epd");
    let out = Command::new("python3")
        .arg("-I")
        .arg(&script)
        .arg(variant)
        .arg(&json)
        .arg(&perft)
        .arg(&results)
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.status.success(), "{}", describe(&out));
    let parsed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).expect("results")).expect("JSON");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|s| s.as_str().expect("a string").to_string())
            .collect()
    };
    let fed = strings(&parsed["fed"]);
    assert!(fed.len() >= 1000, "{} positions", fed.len());
    for (category, least) in [
        ("black to move", 300),
        ("promotion", 20),
        ("castling", 20),
        ("en passant capture", 5),
        ("double push allowing en passant", 20),
        ("double push, en passant not legal", 3),
        ("capture on a rook's corner", 10),
        ("long clocks", 50),
        ("no legal move", 3),
    ] {
        let n = parsed["categories"][category].as_u64().unwrap_or(0);
        assert!(n >= least, "only {n} positions with {category}");
    }
    let cpython = strings(&parsed["outputs"]);
    if node {
        let theirs = node_outputs(&js, &results, dir.path());
        assert_eq!(theirs.len(), cpython.len());
        for (i, (n, c)) in theirs.iter().zip(&cpython).enumerate() {
            assert!(n == c, "{variant}: Node differs on {:?}", fed[i]);
        }
    }
    let ours = run_prints(&json, &fed);
    assert!(
        ours == cpython.concat().as_bytes(),
        "{variant}: regex-chess run differs at {}",
        first_difference(&cpython, &ours)
    );
    Some((fed, cpython))
}

#[test]
fn all_promotions_list_matches_python_chess_under_cpython_node_and_run() {
    let Some((fed, cpython)) = check_list("all") else {
        return;
    };
    // `successors --fen` prints the same lines, each with a newline.
    for i in [0, 2, 4, 12, 20, 100] {
        let out = bin()
            .args(["successors", "--fen", fed[i].trim_end()])
            .output()
            .expect("binary runs");
        assert!(out.status.success(), "{}", describe(&out));
        let want = if cpython[i].is_empty() {
            String::new()
        } else {
            format!("{}\n", cpython[i])
        };
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{}", fed[i]);
    }
}

#[test]
fn queen_only_list_matches_python_chess_under_cpython_node_and_run() {
    if let Some((fed, cpython)) = check_list("queen") {
        let i = fed
            .iter()
            .position(|f| f.starts_with("r3k2r/1P6/8/8/8/8/1p6/R3K2R w"))
            .expect("a hand-made promotion");
        let out = bin()
            .args([
                "successors",
                "--promotions",
                "queen",
                "--fen",
                fed[i].trim_end(),
            ])
            .output()
            .expect("binary runs");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{}\n", cpython[i])
        );
    }
}

#[test]
fn successors_reads_fen_as_python_chess_does_and_refuses_bad_input() {
    let lines = |args: &[&str]| {
        let out = bin().args(args).output().expect("binary runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Missing fields are `w - - 0 1`; an en passant square no capture can
    // use is not written (as python-chess writes the FEN), leading zeros
    // go, and a fullmove number of 0 is 1.
    let (ok, short, _) = lines(&["successors", "--fen", "4k3/8/8/8/8/8/8/4K3"]);
    assert!(ok);
    let (_, long, _) = lines(&["successors", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 000 0"]);
    assert_eq!(short, long);
    assert!(short.lines().all(|l| l.ends_with(" b - - 1 1")), "{short}");
    assert_eq!(short.lines().count(), 5, "{short}");
    let (ok, queen, _) = lines(&[
        "successors",
        "--fen",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "--promotions",
        "queen",
    ]);
    assert!(ok);
    assert_eq!(queen.lines().next(), Some("Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"));
    for bad in [
        "hello",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 5 -1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x",
    ] {
        let (ok, out, err) = lines(&["successors", "--fen", bad]);
        assert!(!ok && out.is_empty(), "{bad}: {out}");
        assert!(err.contains("the --fen position"), "{bad}: {err}");
    }
    // `dump` keeps each program's options to itself.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("x.json");
    for args in [
        &["dump", "--program", "successors", "--depth", "3"][..],
        &["dump", "--program", "successors", "--style", "stack"][..],
        &["dump", "--promotions", "queen"][..],
    ] {
        let out = bin().args(args).arg(&file).output().expect("binary runs");
        assert!(!out.status.success(), "{args:?}: {}", describe(&out));
        assert!(!file.exists());
    }
}
