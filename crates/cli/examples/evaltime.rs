//! Time of each rewrite of the evaluation on 2000 leaf positions
//! (developer aid): `cargo run --release -p regex-chess --example evaltime`.
use regex_asm::ir::Special;
use shakmaty::Position;

fn main() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = chess::codec::parse_fen(fen).expect("valid");
    let mut threads = Vec::new();
    for m in pos.legal_moves() {
        let mut a = pos.clone();
        a.play_unchecked(m);
        for r in a.legal_moves() {
            let mut b = a.clone();
            b.play_unchecked(r);
            threads.push(chess::codec::thread_of(&chess::codec::encode(&b)));
        }
    }
    let state = regex_vm::state::State {
        prefix: String::new(),
        threads,
    };
    let mut s = state.render();
    println!("{} threads, {} bytes", state.threads.len(), s.len());
    let eval = chess::eval::Eval(shakmaty::Color::White);
    let mut rows = Vec::new();
    for (i, r) in eval.rewrites().into_iter().enumerate() {
        let p = regex_vm::Program::new(vec![r.clone()]);
        let x = regex_vm::Executor::new(&p, regex_vm::Config::default()).expect("compiles");
        let t = std::time::Instant::now();
        let st = x.run(&mut s).expect("runs");
        rows.push((
            t.elapsed(),
            i,
            r.pattern.chars().take(50).collect::<String>(),
            st.skipped,
        ));
    }
    let total: std::time::Duration = rows.iter().map(|r| r.0).sum();
    println!("total {total:?}, final {} bytes", s.len());
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (t, i, p, sk) in rows.iter().take(25) {
        println!("{t:>10.2?} #{i:<3} skipped={sk} {p}");
    }
}
