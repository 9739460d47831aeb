//! `regex-chess bench --program FILE --input FILE`: our executor, CPython
//! and Node on the same passes; the report's shape and the byte check
//! (which must be able to fail). No time is asserted.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{bin, describe, needs};

/// Whether the scripts' engines are there: `None` without python3 (the
/// test is skipped), else whether node is (its engine is left out);
/// under `CI=true` either missing fails.
fn engines() -> Option<bool> {
    let node = needs("node", "the benchmark's Node engine");
    needs("python3", "the benchmark").then_some(node)
}

fn bench(program: &Path, input: &Path, extra: &[&str]) -> Output {
    bin()
        .args(["bench", "--runs", "1", "--program"])
        .arg(program)
        .arg("--input")
        .arg(input)
        .args(extra)
        .output()
        .expect("binary runs")
}

/// The bytes `regex-chess run` prints for `input`.
fn run_prints(program: &Path, input: &Path) -> Vec<u8> {
    let out = bin()
        .arg("run")
        .arg(program)
        .stdin(std::fs::File::open(input).expect("input"))
        .output()
        .expect("binary runs");
    assert!(out.status.success(), "{}", describe(&out));
    out.stdout
}

#[test]
fn the_dumped_turn_program_ends_in_the_same_bytes_on_three_engines() {
    let Some(node) = engines() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("turn.json");
    let dumped = bin()
        .args(["dump", "--depth", "2"])
        .arg(&program)
        .output()
        .expect("dump runs");
    assert!(dumped.status.success(), "{}", describe(&dumped));
    let input = dir.path().join("moves.txt");
    std::fs::write(&input, "e2e4\n").expect("written");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").expect("written");

    let out = bench(&program, &input, &["--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let names: Vec<&str> = report["engines"]
        .as_array()
        .expect("engines")
        .iter()
        .map(|e| e["engine"].as_str().expect("name"))
        .collect();
    let expected: &[&str] = if node {
        &["ours", "CPython", "Node"]
    } else {
        &["ours", "CPython"]
    };
    assert_eq!(names, expected, "{report:#}");
    assert_eq!(report["same_bytes"], serde_json::json!(expected));
    assert_eq!(report["passes"], 2, "the empty state, then one line");
    assert!(report["rewrites"].as_u64() > Some(1000), "{report:#}");
    for e in report["engines"].as_array().expect("engines") {
        assert_eq!(e["pass_ms"].as_array().map(Vec::len), Some(2), "{e}");
        let total = e["total_ms"].as_f64().expect("total");
        let sum: f64 = e["pass_ms"]
            .as_array()
            .expect("passes")
            .iter()
            .map(|t| t.as_f64().expect("ms"))
            .sum();
        assert!((total - sum).abs() < 1e-6 * total.max(1.0), "{e}");
        assert!(e["total_ratio"].as_f64().expect("ratio") > 0.0, "{e}");
        assert!(e["median_pass_ratio"].as_f64().expect("ratio") > 0.0, "{e}");
    }
    assert_eq!(report["engines"][0]["total_ratio"], 1.0);
    // The final state is the second pass's, as `run` prints it.
    let both = run_prints(&program, &input);
    let first = run_prints(&program, &empty);
    assert_eq!(
        report["final_state_bytes"].as_u64(),
        Some((both.len() - first.len()) as u64),
        "{report:#}"
    );
    let last = String::from_utf8_lossy(&both[first.len()..]).into_owned();
    assert!(last.contains("You played e2e4 (e4)."), "{last}");

    // The table says the same.
    let out = bench(&program, &input, &[]);
    assert!(out.status.success(), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].contains("2 passes, 1 runs each"), "{table}");
    assert!(lines[1].starts_with("engine"), "{table}");
    for (line, name) in lines[2..].iter().zip(expected) {
        assert!(line.starts_with(name), "{table}");
        assert!(line.ends_with('x'), "{table}");
    }
    assert!(
        table.contains(&format!(
            "final state: {} bytes, the same in {} engines",
            both.len() - first.len(),
            expected.len()
        )),
        "{table}"
    );
}

#[test]
fn a_foreign_program_with_back_references_runs_on_three_engines() {
    if engines().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // A program in the original's style: compare two unary numbers with
    // a back-reference, one comparison per input line.
    let program = dir.path().join("compare.json");
    std::fs::write(
        &program,
        r#"[
["^$", "%%\n#stack:\n"],
["\n(A*) \\1\n", "\nequal\n"],
["\n(A*)(A+) \\1\n", "\ngreater\n"],
["\n(A*) \\1(A+)\n", "\nless\n"]
]"#,
    )
    .expect("written");
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "AA AA\nAAA A\nA AA").expect("written");
    let out = bench(&program, &input, &["--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["passes"], 4, "{report:#}");
    let last = "%%\n#stack:\nequal\ngreater\nless\n";
    assert_eq!(
        report["final_state_bytes"].as_u64(),
        Some(last.len() as u64)
    );
    let runs = run_prints(&program, &input);
    assert!(String::from_utf8_lossy(&runs).ends_with(last));
}

#[test]
fn an_engine_that_ends_in_other_bytes_fails_the_benchmark() {
    if engines().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // A `python3` first on PATH that runs the real one and changes the
    // last character of the final state (the sizes stay right).
    let real = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3");
    let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
    let fake_dir = dir.path().join("bin");
    std::fs::create_dir(&fake_dir).expect("dir");
    let fake = fake_dir.join("python3");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\n'{real}' \"$@\" | '{real}' -c 'import json, sys\n\
             a = json.load(sys.stdin)\n\
             a[\"state\"] = a[\"state\"][:-1] + (\"#\" if a[\"state\"][-1:] != \"#\" else \"*\")\n\
             json.dump(a, sys.stdout)'\n"
        ),
    )
    .expect("written");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let program = dir.path().join("p.json");
    std::fs::write(&program, r#"[["^$", "start\n"], ["x\n", "y\n"]]"#).expect("written");
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "x\n").expect("written");
    let path = format!(
        "{}:{}",
        fake_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = bin()
        .env("PATH", path)
        .args(["bench", "--runs", "1", "--program"])
        .arg(&program)
        .arg("--input")
        .arg(&input)
        .output()
        .expect("binary runs");
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("CPython ends in other bytes than ours (first difference at byte 7)"),
        "{err}"
    );
}

#[test]
fn python_patterns_run_on_node_translated_or_node_says_why_not() {
    let Some(node) = engines() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    // Patterns only CPython's `re` (and ours) reads so: `(?m)`, `\d`, `$`,
    // a look-behind, a named group.
    let program = dir.path().join("python.json");
    std::fs::write(
        &program,
        r##"[
["^$", "#a:1\n#b:22\n"],
["(?m)^#(?P<k>\\w):(\\d+)$", "\\g<2>=\\g<k>"],
["(?<=\\n)(\\d)", "<\\1>"]
]"##,
    )
    .expect("written");
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "#c:333\n").expect("written");
    let out = bench(&program, &input, &["--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let expected = if node {
        serde_json::json!(["ours", "CPython", "Node"])
    } else {
        serde_json::json!(["ours", "CPython"])
    };
    assert_eq!(report["same_bytes"], expected, "{report:#}");
    let runs = run_prints(&program, &input);
    assert!(
        String::from_utf8_lossy(&runs).ends_with("1=a\n<2>2=b\n<3>33=c\n"),
        "{}",
        String::from_utf8_lossy(&runs)
    );

    // An atomic group has no JavaScript form: Node is not run, and the
    // table says which entry and why.
    let atomic = dir.path().join("atomic.json");
    std::fs::write(&atomic, r#"[["^$", "ab\n"], ["(?>a)b", "x"]]"#).expect("written");
    let out = bench(&atomic, &input, &[]);
    assert!(out.status.success(), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains(
            "Node: not run (entry 1 (pattern \"(?>a)b\") cannot be written as JavaScript: \
             an atomic group has no JavaScript form)"
        ),
        "{table}"
    );
}
