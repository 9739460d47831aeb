//! Times the foreign-style pattern shapes of issue 16 (back-references
//! naming stack items, unary comparisons, list dedupe, long `[^%]*`
//! lookups) on a state of many threads: our matcher, fancy-regex at each
//! place, and the plain loop (fancy-regex over the whole state), each
//! checked to give the same bytes. Also writes the program and the state
//! (`/tmp/foreign_shapes.json`, `/tmp/foreign_shapes.state`) so CPython can
//! time the same rewrites. Run: `cargo run --release -p regex-vm --example
//! foreign_shapes [THREADS]`.

use std::time::Instant;

use regex_vm::{Config, Executor, Program, Rewrite, Template};

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
    println!(
        "{threads} threads, {} bytes; median of 21 runs, ms",
        state.len()
    );
    println!(
        "{:<28} {:>10} {:>14} {:>12}",
        "shape", "ours", "fancy at place", "fancy whole"
    );
    for (name, pattern, template) in shapes {
        json.push(serde_json::json!([pattern, template.to_python()]));
        let program = Program::new(vec![Rewrite::new(pattern, template)]);
        let configs = [
            Config::default(),
            Config {
                backtrack: false,
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
            let mut runs = Vec::new();
            let mut out = String::new();
            for _ in 0..21 {
                let mut s = state.clone();
                let t = Instant::now();
                exec.run(&mut s).expect("runs");
                runs.push(t.elapsed().as_secs_f64() * 1e3);
                out = s;
            }
            runs.sort_by(f64::total_cmp);
            times.push(runs[runs.len() / 2]);
            outs.push(out);
        }
        assert!(outs.iter().all(|o| *o == outs[0]), "{name}: outputs differ");
        assert_ne!(outs[0].len(), 0, "{name}");
        assert!(outs[0] != state, "{name}: changes nothing");
        println!(
            "{name:<28} {:>10.3} {:>14.3} {:>12.3}",
            times[0], times[1], times[2]
        );
    }
    std::fs::write(
        "/tmp/foreign_shapes.json",
        serde_json::to_string(&json).expect("json"),
    )
    .expect("written");
    std::fs::write("/tmp/foreign_shapes.state", &state).expect("written");
}
