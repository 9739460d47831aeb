//! `bench --engine N`: generated patterns of the Python engine's shapes,
//! ours beside CPython's. The report must hold every shape's cases with
//! their paths and both times, the summary must be the cases' own
//! median and worst, and `--write` must give programs that `run` runs.
//! No time is asserted.

use crate::common::{bin, describe, needs};

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn every_shape_is_timed_and_summed_up_by_its_cases() {
    if !needs("python3", "the CPython side of bench --engine") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let out = bin()
        .args([
            "bench", "--engine", "2", "--runs", "1", "--seed", "3", "--json", "--write",
        ])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", describe(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 10);
    let shapes = report["shapes"].as_array().expect("shapes");
    let names: Vec<&str> = shapes
        .iter()
        .map(|s| s["shape"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        [
            "back-reference",
            "look-around",
            "alternation",
            "possessive",
            "lazy",
            "all"
        ]
    );
    for c in cases {
        assert!(f(&c["ours_ms"]) > 0.0 && f(&c["cpython_ms"]) > 0.0, "{c}");
        let ratio = f(&c["cpython_ms"]) / f(&c["ours_ms"]);
        assert!((ratio - f(&c["ratio"])).abs() < 1e-9 * ratio, "{c}");
        assert!(
            ["python engine", "ascii form", "portable"]
                .contains(&c["path"].as_str().expect("a path")),
            "{c}"
        );
    }
    // The overall row is the cases' own: worst the least ratio.
    let all = &shapes[5];
    assert_eq!(all["cases"], 10);
    let least = cases
        .iter()
        .map(|c| f(&c["ratio"]))
        .fold(f64::INFINITY, f64::min);
    assert_eq!(f(&all["worst"]), least);
    // Each written case is a program `run` runs to CPython's bytes (the
    // bench compared them already; here the file itself runs).
    let program = dir.path().join("case0.json");
    let run = bin().arg("run").arg(&program).output().expect("runs");
    assert!(run.status.success(), "{}", describe(&run));
    assert!(!run.stdout.is_empty());
}
