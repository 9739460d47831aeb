//! `bench --profile N --program FILE` and `trace --program FILE`: a
//! foreign program's time by rewrite, state size, shape and construct,
//! ours beside CPython's, and its pass cut into phases by rewrite index.
//! The tables must add up, the shapes must be the program's, the byte
//! check must be able to fail, and a traced pass must end where `run`
//! ends. No time is asserted.

use std::path::{Path, PathBuf};

use crate::common::{bin, describe, needs};

/// One rewrite of each shape (`rewrite_shape.rs`'s order), on two threads.
const PROGRAM: &str = r##"[
["^$", "%%\n#stack:\n#x: 1\n%%\n#stack:\n#x: 2\n"],
["(%%\\n#stack:\\n)", "\\g<1>a\\n"],
["%%\\n", "%t\\n"],
["%t\\n", "%%\\n"],
["([^;\\n]*;)\\1+", "\\1"],
["a(?=\\n#x)", "b"],
["qq|rr", "s"],
["#x: .*?\\n", "#x: 0\\n"]
]"##;

fn files(dir: &Path) -> (PathBuf, PathBuf) {
    let program = dir.join("p.json");
    std::fs::write(&program, PROGRAM).expect("written");
    let input = dir.join("in.txt");
    std::fs::write(&input, "q;q;\nr\n").expect("written");
    (program, input)
}

fn profile(program: &Path, input: &Path) -> serde_json::Value {
    let out = bin()
        .args([
            "bench",
            "--profile",
            "3",
            "--runs",
            "2",
            "--json",
            "--program",
        ])
        .arg(program)
        .arg("--input")
        .arg(input)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn a_program_profile_adds_up_by_size_shape_and_rewrite() {
    if !needs("python3", "the CPython side of the profile") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (program, input) = files(dir.path());
    let report = profile(&program, &input);
    let p = &report["profile"];
    assert_eq!(p["rewrites"], 8);
    assert_eq!(p["passes"], 3);
    assert_eq!(
        p["matched"].as_u64().expect("n") + p["unmatched"].as_u64().expect("n"),
        8 * 3
    );
    assert_eq!(
        p["ours_executed"].as_u64().expect("n") + p["ours_skipped"].as_u64().expect("n"),
        8 * 3
    );
    let shapes: Vec<(String, u64)> = p["by_shape"]
        .as_array()
        .expect("shapes")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().expect("name").to_string(),
                r["rewrites"].as_u64().expect("n"),
            )
        })
        .collect();
    let expected = [
        ("thread-head, groups", 1),
        ("thread-head, literal", 2),
        ("back-reference", 1),
        ("look-around", 1),
        ("alternation", 1),
        ("lazy/possessive", 1),
        ("plain", 1),
    ];
    assert_eq!(
        shapes,
        expected.map(|(n, k)| (n.to_string(), k)).to_vec(),
        "{p:#}"
    );
    for table in ["by_size", "by_shape"] {
        let rows = p[table].as_array().expect("rows");
        for engine in ["ours_ms", "cpython_ms"] {
            let sum: f64 = rows.iter().map(|r| f(&r[engine])).sum();
            let total = f(&p[engine]);
            assert!(
                (sum - total).abs() <= 1e-6 * total.max(1.0),
                "{table} {engine}: {p:#}"
            );
        }
        let runs: u64 = rows.iter().map(|r| r["runs"].as_u64().expect("n")).sum();
        assert_eq!(runs, 8 * 3, "{table}");
    }
    // Every state here is small.
    assert_eq!(p["by_size"][0]["runs"], 24, "{p:#}");
    let costliest = p["costliest"].as_array().expect("list");
    assert_eq!(costliest.len(), 3);
    assert!(costliest
        .windows(2)
        .all(|w| f(&w[0]["ours_ms"]) >= f(&w[1]["ours_ms"])));
    // The table says the same.
    let out = bin()
        .args(["bench", "--profile", "3", "--runs", "1", "--program"])
        .arg(&program)
        .arg("--input")
        .arg(&input)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    for row in [
        "thread-head, literal",
        "back-reference",
        "construct (overlap)",
        "under 40 KB",
    ] {
        assert!(table.contains(row), "{table}");
    }
}

#[test]
fn a_profile_whose_cpython_ends_in_other_bytes_fails() {
    if !needs("python3", "the CPython side of the profile") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (program, input) = files(dir.path());
    // A `python3` first on PATH that runs the real one and changes the
    // final state's last character.
    let real = std::process::Command::new("python3")
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
             a[\"state\"] = a[\"state\"][:-1] + \"#\"\n\
             json.dump(a, sys.stdout)'\n"
        ),
    )
    .expect("written");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        fake_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = bin()
        .env("PATH", path)
        .args(["bench", "--profile", "3", "--runs", "1", "--program"])
        .arg(&program)
        .arg("--input")
        .arg(&input)
        .output()
        .expect("runs");
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("CPython ends in other bytes than ours"),
        "{}",
        describe(&out)
    );
}

#[test]
fn a_traced_pass_ends_where_run_ends_and_its_phases_add_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (program, input) = files(dir.path());
    let out_dir = dir.path().join("trace");
    let out = bin()
        .args(["trace", "--phases", "3", "--program"])
        .arg(&program)
        .arg("--input")
        .arg(&input)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].contains("8 rewrites, pass 3 of 3 in 3 phases"),
        "{table}"
    );
    let rows: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            l.trim_start()
                .split(' ')
                .next()
                .is_some_and(|n| n.parse::<usize>().is_ok())
        })
        .collect();
    assert_eq!(rows.len(), 3, "{table}");
    for (row, range) in rows
        .iter()
        .zip(["rewrites 0..2", "rewrites 2..5", "rewrites 5..8"])
    {
        assert!(row.contains(range), "{table}");
    }
    // The last pass's state, as `run` prints it after its last pass.
    let all = bin()
        .arg("run")
        .arg(&program)
        .stdin(std::fs::File::open(&input).expect("input"))
        .output()
        .expect("runs");
    assert!(all.status.success(), "{}", describe(&all));
    let two = dir.path().join("two.txt");
    std::fs::write(&two, "q;q;\n").expect("written");
    let before = bin()
        .arg("run")
        .arg(&program)
        .stdin(std::fs::File::open(&two).expect("input"))
        .output()
        .expect("runs");
    let last = &all.stdout[before.stdout.len()..];
    let traced = std::fs::read(out_dir.join("02-rewrites-5-8.txt")).expect("the last phase");
    assert_eq!(traced, last);
    assert!(
        table.contains(&format!("the state ends at {} bytes", last.len())),
        "{table}"
    );
    let page = std::fs::read_to_string(out_dir.join("index.html")).expect("page");
    assert!(page.contains("One pass, phase by phase"), "{page}");
    roxmltree::Document::parse(&std::fs::read_to_string(out_dir.join("trace.svg")).expect("svg"))
        .expect("the plot is XML");

    // Cuts and passes out of range are refused.
    for (args, says) in [
        (vec!["--cuts", "5,2"], "--cuts must be increasing"),
        (
            vec!["--cuts", "8"],
            "is not inside the program's 8 rewrites",
        ),
        (
            vec!["--pass", "4"],
            "--pass 4: the input gives passes 1 to 3",
        ),
    ] {
        let out = bin()
            .arg("trace")
            .args(&args)
            .arg("--program")
            .arg(&program)
            .arg("--input")
            .arg(&input)
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{}",
            describe(&out)
        );
    }
}
