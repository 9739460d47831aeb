//! Per-rewrite time of one turn, for comparing with CPython (developer aid):
//! `cargo run --release -p regex-chess --example profile -- FEN MOVE OUTDIR`.
//! Writes OUTDIR/program.json, OUTDIR/state.txt and OUTDIR/rust.tsv
//! (index, instr, name, state bytes before, microseconds, skipped).
use shakmaty::Position;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (fen, mv, out) = (&args[1], &args[2], std::path::PathBuf::from(&args[3]));
    let pos = chess::codec::parse_fen(fen).expect("valid");
    let screen = chess::screen::start_screen(fen, Some(!pos.turn())).expect("screen");
    let state0 = format!("{screen}{mv}\n");
    let pass = chess::turn_pass().expect("builds");
    regex_vm::format::write_file(&pass.program, &out.join("program.json")).expect("dump");
    std::fs::write(out.join("state.txt"), &state0).expect("write");
    let mut f = std::fs::File::create(out.join("rust.tsv")).expect("create");
    let mut s = state0.clone();
    for round in 0..3 {
        s = state0.clone();
        let mut rows = Vec::new();
        for (i, r) in pass.program.rewrites().iter().enumerate() {
            let p = regex_vm::Program::new(vec![r.clone()]);
            let x = regex_vm::Executor::new(&p, regex_vm::Config::default()).expect("compiles");
            let before = s.len();
            let t = std::time::Instant::now();
            let st = x.run(&mut s).expect("runs");
            let us = t.elapsed().as_secs_f64() * 1e6;
            let (instr, name) = r
                .origin
                .as_ref()
                .map_or((0, "?".to_string()), |o| (o.instr, o.name.clone()));
            rows.push(format!(
                "{i}\t{instr}\t{name}\t{before}\t{us:.1}\t{}",
                st.skipped
            ));
        }
        if round == 2 {
            for r in rows {
                writeln!(f, "{r}").unwrap();
            }
        }
    }
    println!("final {} bytes", s.len());
}
