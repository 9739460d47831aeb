//! Time per instruction kind for one benchmark turn (developer aid):
//! `cargo run --release -p regex-chess --example kinds -- FEN MOVE`.
use shakmaty::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fen = args.first().cloned().unwrap_or_else(|| {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into()
    });
    let mv = args.get(1).cloned().unwrap_or_else(|| "e2a6".into());
    let pos = chess::codec::parse_fen(&fen).expect("a valid FEN");
    let screen = chess::screen::start_screen(&fen, Some(!pos.turn())).expect("a screen");
    let pass = chess::turn_pass().expect("the turn program");
    let mut best: Option<regex_vm::Stats> = None;
    for _ in 0..5 {
        let mut s = format!("{screen}{mv}\n");
        let st = pass.executor.run(&mut s).expect("a run");
        if best.as_ref().is_none_or(|b| st.elapsed < b.elapsed) {
            best = Some(st);
        }
    }
    let st = best.expect("five runs");
    println!("best of 5: {:?}", st.elapsed);
    let mut v: Vec<_> = st.per_kind.iter().collect();
    v.sort_by_key(|(_, k)| std::cmp::Reverse(k.time));
    for (k, s) in v.iter().take(20) {
        println!("{k:>24} {:>6} {:>10.2?}", s.executed, s.time);
    }
}
