//! Times the foreign-style pattern shapes of issue 16 (back-references
//! naming stack items, unary comparisons, list dedupe, long `[^%]*`
//! lookups) on a state of many threads, one rewrite each, side by side in
//! one run: the executor (our matcher where it applies), fancy-regex at
//! each place, the plain loop (fancy-regex over the whole state), for the
//! shapes without back-references regex-automata's `meta::Regex` searched
//! anchored in each active thread's range only, and CPython's `re` (a
//! plain `re.sub` of the same pattern, pre-compiled). Every engine is
//! checked to leave the same bytes. The program and state are written to
//! `/tmp/foreign_shapes.json` and `/tmp/foreign_shapes.state`. Run:
//! `cargo run --release -p regex-vm --example foreign_shapes [THREADS]`
//! (python3 on the path for the CPython column).

use std::process::Command;
use std::time::Instant;

use regex_automata::meta;
use regex_automata::{Anchored, Input};
use regex_vm::analysis::{analyse, Reach};
use regex_vm::{Config, Engine, Executor, Piece, Program, Rewrite, Template};

/// Runs per figure; each figure is the median.
const RUNS: usize = 21;

/// The median wall time of `RUNS` calls, in ms, and the last result.
fn median<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut runs = Vec::new();
    let mut out = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        out = Some(f());
        runs.push(t.elapsed().as_secs_f64() * 1e3);
    }
    runs.sort_by(f64::total_cmp);
    (runs[RUNS / 2], out.expect("ran"))
}

/// Replace-all of an active-thread pattern with `meta::Regex`: where its
/// literal start occurs, one anchored search limited to the range of the
/// thread it starts in (up to the next `%` past the head).
fn meta_replace_all(re: &meta::Regex, prefix: &[u8], state: &str, template: &Template) -> String {
    let finder = memchr::memmem::Finder::new(prefix);
    let bytes = state.as_bytes();
    let mut caps = re.create_captures();
    let mut out = String::with_capacity(state.len() + state.len() / 4);
    let (mut last, mut at) = (0, 0);
    while let Some(i) = finder.find(&bytes[at..]) {
        let start = at + i;
        let end = memchr::memchr(b'%', &bytes[start + 2..]).map_or(bytes.len(), |j| start + 2 + j);
        let input = Input::new(bytes).range(start..end).anchored(Anchored::Yes);
        re.search_captures(&input, &mut caps);
        match caps.get_match() {
            Some(m) => {
                out.push_str(&state[last..start]);
                for piece in template.pieces() {
                    match piece {
                        Piece::Literal(s) => out.push_str(s),
                        Piece::Group(n) => {
                            if let Some(span) = caps.get_group(*n) {
                                out.push_str(&state[span.range()]);
                            }
                        }
                    }
                }
                last = m.end();
                at = m.end().max(start + 1);
            }
            None => at = start + 1,
        }
    }
    out.push_str(&state[last..]);
    out
}

/// CPython's median time (ms) per rewrite of the program file on the
/// state file, each checked against the bytes in `expected` files; `None`
/// without python3.
fn cpython(shapes: usize) -> Option<Vec<f64>> {
    let script = format!(
        r#"
import json, re, time
prog = json.load(open("/tmp/foreign_shapes.json"))
state = open("/tmp/foreign_shapes.state").read()
for i, (p, r) in enumerate(prog):
    rx = re.compile(p)
    runs = []
    for _ in range({RUNS}):
        t = time.perf_counter()
        out = rx.sub(r, state)
        runs.append((time.perf_counter() - t) * 1e3)
    runs.sort()
    same = out == open("/tmp/foreign_shapes.out%d" % i).read()
    print("%.4f %s" % (runs[len(runs) // 2], "same" if same else "DIFFERS"))
"#
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let times: Vec<f64> = text
        .lines()
        .map(|l| {
            let (t, verdict) = l.split_once(' ').expect("two fields");
            assert_eq!(verdict, "same", "CPython ends in other bytes");
            t.parse().expect("a number")
        })
        .collect();
    assert_eq!(
        times.len(),
        shapes,
        "CPython: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(times)
}

fn main() {
    let threads: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let mut state = String::new();
    for i in 0..threads {
        let (top, next) = match i % 6 {
            0 => ("ab".to_string(), "ab".to_string()),
            1 | 3 | 5 => ("A".repeat(i % 5 + 1), "A".repeat(i % 3 + 1)),
            _ => ("ab".to_string(), "cd".to_string()),
        };
        state.push_str(&format!(
            "{}\n#stack:\n{top}\n{next}\nz\n#ab: {i}\n#cd: x{i}\n#list: 1;2;2;2;3;\n#pad: {}\n",
            if i % 4 < 2 { "%%" } else { "%t" },
            ".".repeat(40)
        ));
    }
    let shapes: [(&str, &str, Template); 5] = [
        (
            "top two equal",
            r"(%%\n#stack:\n)([^\n]*)\n\2\n",
            Template::new().group(1).text("T\n"),
        ),
        (
            "lookup named on the stack",
            r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2: )([^#%\n]*)",
            Template::new()
                .group(1)
                .group(4)
                .text("\n")
                .group(3)
                .group(4),
        ),
        (
            "unary comparison",
            r"(%%\n#stack:\n)(A*)(A+)\n\2\n",
            Template::new().group(1).text("LT\n"),
        ),
        (
            "dedupe a list",
            r"(%%[^%]*#list: [^\n]*)([^;\n]*;)\2+([^%\n]*)",
            Template::new().group(1).group(2).group(3),
        ),
        (
            "plain lookup, long span",
            r"(%%\n#stack:)([^%]*\n#pad: )([^#%]*)\n",
            Template::new().group(1).group(2).text("P\n"),
        ),
    ];
    let mut json = Vec::new();
    let mut rows = Vec::new();
    for (i, (name, pattern, template)) in shapes.iter().enumerate() {
        json.push(serde_json::json!([pattern, template.to_python()]));
        let program = Program::new(vec![Rewrite::new(*pattern, template.clone())]);
        let configs = [
            Config::default(),
            Config {
                own_matcher: false,
                ..Config::default()
            },
            Config {
                naive: true,
                ..Config::default()
            },
        ];
        let mut outs = Vec::new();
        let mut times = Vec::new();
        for config in configs {
            let exec = Executor::new(&program, config).expect("compiles");
            let (t, out) = median(|| {
                let mut s = state.clone();
                exec.run(&mut s).expect("runs");
                s
            });
            times.push(t);
            outs.push(out);
        }
        let meta = (Engine::of_pattern(pattern) == Engine::Plain).then(|| {
            let re = meta::Regex::new(pattern).expect("compiles");
            let reach = analyse(pattern).reach;
            assert_eq!(reach, Reach::Active, "{name}: an active-thread shape");
            let (t, out) = median(|| meta_replace_all(&re, b"%%", &state, template));
            outs.push(out);
            t
        });
        assert!(outs.iter().all(|o| *o == outs[0]), "{name}: outputs differ");
        assert!(outs[0] != state, "{name}: changes nothing");
        std::fs::write(format!("/tmp/foreign_shapes.out{i}"), &outs[0]).expect("written");
        rows.push((name, times, meta));
    }
    std::fs::write(
        "/tmp/foreign_shapes.json",
        serde_json::to_string(&json).expect("json"),
    )
    .expect("written");
    std::fs::write("/tmp/foreign_shapes.state", &state).expect("written");
    let python = cpython(shapes.len());
    println!(
        "{threads} threads, {} bytes; median of {RUNS} runs, ms",
        state.len()
    );
    println!(
        "{:<26} {:>8} {:>10} {:>10} {:>8} {:>8} {:>9}",
        "shape", "ours", "fancy@pl", "fancy all", "meta", "CPython", "CPy/ours"
    );
    for (k, (name, times, meta)) in rows.iter().enumerate() {
        let cpy = python.as_ref().map(|p| p[k]);
        let show = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
        println!(
            "{name:<26} {:>8.3} {:>10.3} {:>10.3} {:>8} {:>8} {:>9}",
            times[0],
            times[1],
            times[2],
            show(*meta),
            show(cpy),
            cpy.map_or("-".to_string(), |c| format!("{:.1}x", c / times[0])),
        );
    }
}
