//! Times our own turn program read back from its JSON dump (the original
//! project's shape: patterns and replacements only, no metadata) against
//! the same program in memory, on the bench suite's turns
//! (`tests/data/bench.epd`), side by side: each turn runs on the two
//! executors in turn, `RUNS` times each, and both must end in the same
//! bytes with the same rewrites applied and skipped. Prints, per turn, the
//! median of each and their ratio, then the medians over the turns. Run:
//! `cargo run --release -p regex-chess-program --example dump_read_back
//! [RUNS] [DEPTH]`.

use std::error::Error;
use std::time::Instant;

use chess::codec::parse_fen;
use chess::screen::start_screen;
use regex_vm::{format, python, Executor};
use shakmaty::Position;

const SUITE: &str = include_str!("../../tests/data/bench.epd");

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(5);
    let depth: chess::Depth = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(chess::Depth::FAST);
    let pass = chess::turn_pass(depth)?;
    let json = format::to_json(&pass.program);
    let t0 = Instant::now();
    let read = python::exact(&format::from_json(&json)?)?;
    let read_exec = Executor::new(&read, chess::config_for(depth))?;
    println!(
        "depth {depth}, {} rewrites, dump {} bytes read back and compiled in {:.1} ms; median of {runs} runs, ms",
        read.len(),
        json.len(),
        t0.elapsed().as_secs_f64() * 1e3
    );
    println!(
        "{:<16} {:>10} {:>10} {:>7} {:>8} {:>8}",
        "turn", "in memory", "read back", "ratio", "applied", "skipped"
    );
    let (mut mem_all, mut read_all, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for line in SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [fen, mv, id] = fields[..] else {
            return Err(format!("not `FEN ;move m ;id name`: {line}").into());
        };
        let mv = mv.strip_prefix("move ").ok_or("no move")?;
        let id = id.strip_prefix("id ").ok_or("no id")?;
        let pos = parse_fen(fen)?;
        let start = format!("{}{mv}\n", start_screen(fen, Some(!pos.turn()))?);
        let (mut mem, mut back) = (Vec::new(), Vec::new());
        let mut ends = [None, None];
        for _ in 0..runs {
            for (k, (exec, times)) in [(&pass.executor, &mut mem), (&read_exec, &mut back)]
                .into_iter()
                .enumerate()
            {
                let mut s = start.clone();
                let t = Instant::now();
                let stats = exec.run(&mut s)?;
                times.push(t.elapsed().as_secs_f64() * 1e3);
                ends[k] = Some((s, stats.executed, stats.skipped));
            }
        }
        let [Some(a), Some(b)] = ends else {
            return Err("no run".into());
        };
        if a != b {
            return Err(format!("{id}: the two programs differ (bytes or rewrites run)").into());
        }
        let (m, r) = (median(&mem), median(&back));
        println!(
            "{id:<16} {m:>10.2} {r:>10.2} {:>6.2}x {:>8} {:>8}",
            r / m,
            a.1,
            a.2
        );
        mem_all.push(m);
        read_all.push(r);
        ratios.push(r / m);
    }
    println!(
        "{:<16} {:>10.2} {:>10.2} {:>6.2}x   (median of per-turn ratios)",
        "median",
        median(&mem_all),
        median(&read_all),
        median(&ratios)
    );
    Ok(())
}
