//! `regex-chess fuzz` through the binary: a clean campaign agrees and is
//! reproducible, and each injected fault is caught and reported.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use crate::common::{bin, describe};

fn fuzz<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    bin().arg("fuzz").args(args).output().expect("binary runs")
}

/// The summary's `key: value` lines (the last value of a repeated key).
fn summary(out: &Output) -> BTreeMap<String, String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A numeric summary field (its first word, for `0 (not checked yet ...)`).
fn count(s: &BTreeMap<String, String>, key: &str) -> u64 {
    let v = s.get(key).unwrap_or_else(|| panic!("no {key:?} in {s:?}"));
    v.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{key}: {v:?}"))
}

fn positions_of(s: &BTreeMap<String, String>) -> u64 {
    count(s, "positions")
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("temp path is UTF-8")
}

#[test]
fn clean_campaign_agrees_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let args = |jobs: &str| {
        [
            "--games",
            "3",
            "--max-plies",
            "30",
            "--seed",
            "7",
            "--jobs",
            jobs,
            "--out",
            path_str(&out_dir),
        ]
        .map(String::from)
    };
    let first = fuzz(args("1"));
    assert_eq!(first.status.code(), Some(0), "{}", describe(&first));
    let s = summary(&first);
    assert_eq!(count(&s, "games"), 3);
    assert_eq!(count(&s, "seed"), 7);
    assert_eq!(count(&s, "disagreements"), 0);
    for kind in ["movegen", "verdict", "reply", "screen"] {
        assert_eq!(count(&s, &format!("{kind} disagreements")), 0, "{kind}");
    }
    assert!(!s["verdict disagreements"].contains("not checked"));
    assert_eq!(count(&s, "screens checked"), positions_of(&s));
    assert!(count(&s, "verdicts checked") > 0, "{s:?}");
    assert_eq!(s["interrupted"], "no");
    let plies = count(&s, "plies");
    let positions = count(&s, "positions");
    assert!(plies > 0 && plies <= 90, "{s:?}");
    // Every game checks its start and the position after each ply.
    assert_eq!(positions, plies + 3, "{s:?}");
    // At least one move per position but the last of each game.
    assert!(count(&s, "moves compared") >= plies, "{s:?}");
    // Reply checks at plies 0, 8, 16, 24 of each game (fewer if it ends).
    let replies = count(&s, "replies checked");
    assert!((3..=12).contains(&replies), "{s:?}");
    assert!(s["time"].ends_with(" s"));
    // Nothing to report: the out directory (created and checked before
    // the campaign) stays empty.
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);

    // The same seed on two threads plays the same games.
    let second = fuzz(args("2"));
    assert_eq!(second.status.code(), Some(0), "{}", describe(&second));
    let t = summary(&second);
    for key in [
        "games",
        "plies",
        "positions",
        "moves compared",
        "replies checked",
        "disagreements",
    ] {
        assert_eq!(s[key], t[key], "{key}");
    }
}

#[test]
fn dropped_move_is_a_movegen_disagreement_with_a_reproducer() {
    let dir = tempfile::tempdir().unwrap();
    let out = fuzz([
        "--games",
        "1",
        "--max-plies",
        "3",
        "--seed",
        "7",
        "--jobs",
        "1",
        "--reply-every",
        "0",
        "--out",
        path_str(dir.path()),
        "--inject-fault",
        "drop-move",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let s = summary(&out);
    // Every position of the game has a move to drop.
    assert_eq!(count(&s, "movegen disagreements"), count(&s, "positions"));
    assert_eq!(count(&s, "reply disagreements"), 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("movegen disagreement\n"), "{stdout}");

    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].file_name().unwrap().to_str(),
        Some("movegen-7-0.txt")
    );
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let fen = text
        .lines()
        .find_map(|l| l.strip_prefix("fen: "))
        .unwrap_or_else(|| panic!("no FEN in {text}"));
    assert!(chess::codec::parse_fen(fen).is_ok(), "{fen}");
    assert!(text.starts_with("kind: movegen\n"), "{text}");
    assert!(text.contains("missing "), "{text}");
    assert!(text.contains("injected fault: drop-move"), "{text}");
    assert!(text.contains("game: 0\n"), "{text}");
}

#[test]
fn wrong_score_is_a_reply_disagreement() {
    let dir = tempfile::tempdir().unwrap();
    let out = fuzz([
        "--games",
        "1",
        "--max-plies",
        "2",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--reply-every",
        "1",
        "--out",
        path_str(dir.path()),
        "--inject-fault",
        "wrong-score",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let s = summary(&out);
    assert_eq!(count(&s, "replies checked"), 3, "{s:?}");
    assert_eq!(count(&s, "reply disagreements"), 3, "{s:?}");
    assert_eq!(count(&s, "movegen disagreements"), 0, "{s:?}");
    let text = std::fs::read_to_string(dir.path().join("reply-3-0.txt")).unwrap();
    assert!(text.contains("claiming "), "{text}");
    assert!(text.contains("reference: best score "), "{text}");
}

#[test]
fn fault_injection_is_hidden_from_help() {
    let out = fuzz(["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--reply-every"), "{help}");
    assert!(!help.contains("inject"), "{help}");
}

#[test]
fn zero_jobs_is_an_error() {
    let out = fuzz(["--games", "1", "--jobs", "0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--jobs must be at least 1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Ctrl-C stops the workers; the summary says so and the exit code is 130.
#[cfg(unix)]
#[test]
fn interrupt_prints_the_summary_so_far() {
    use std::process::Stdio;
    use std::time::Duration;

    use std::io::{BufRead, BufReader, Read};

    let dir = tempfile::tempdir().unwrap();
    let mut child = bin()
        .args(["fuzz", "--games", "100000", "--seed", "1", "--jobs", "1"])
        .args(["--reply-every", "0", "--out", path_str(dir.path())])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The campaign announces itself on stderr once its programs are built
    // and the handler is installed; give it a second of fuzzing after that.
    let mut err_reader = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err_reader.read_line(&mut first).unwrap();
    assert!(first.starts_with("fuzz: "), "{first}");
    std::thread::sleep(Duration::from_millis(1000));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    err_reader.read_to_string(&mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", describe(&out));
    let s = summary(&out);
    assert_eq!(s["interrupted"], "yes");
    assert!(count(&s, "games") < 100000);
    assert!(count(&s, "positions") > 0, "{s:?}");
    assert_eq!(count(&s, "disagreements"), 0);
    assert!(rest.contains("interrupted"), "{rest}");
}

#[test]
fn wrong_verdict_is_a_verdict_disagreement_and_clean_runs_check_verdicts_and_screens() {
    let dir = tempfile::tempdir().unwrap();
    let args = |fault: bool| {
        let mut a = vec![
            "--games",
            "1",
            "--max-plies",
            "3",
            "--seed",
            "5",
            "--jobs",
            "1",
            "--reply-every",
            "0",
            "--verdict-every",
            "1",
            "--out",
            path_str(dir.path()),
        ];
        if fault {
            a.extend(["--inject-fault", "wrong-verdict"]);
        }
        a
    };
    let clean = fuzz(args(false));
    assert_eq!(clean.status.code(), Some(0), "{}", describe(&clean));
    let s = summary(&clean);
    assert!(count(&s, "verdicts checked") >= 4, "{s:?}");
    assert_eq!(count(&s, "screens checked"), 4, "{s:?}");
    let bad = fuzz(args(true));
    assert_eq!(bad.status.code(), Some(1), "{}", describe(&bad));
    let s = summary(&bad);
    assert!(count(&s, "verdict disagreements") >= 1, "{s:?}");
    assert_eq!(count(&s, "screen disagreements"), 0, "{s:?}");
    let text = std::fs::read_to_string(dir.path().join("verdict-5-0.txt")).unwrap();
    assert!(text.contains("fen: "), "{text}");
}

#[test]
fn unusable_out_is_refused_before_the_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = fuzz(["--games", "1000000", "--out", path_str(&file.join("sub"))]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: creating --out "), "{stderr}");
    // No game was played: no summary.
    assert!(out.stdout.is_empty(), "{}", describe(&out));
}
