use regex_asm::ir::Special;
use shakmaty::Position;
fn main() {
    let fen = std::env::args().nth(1).unwrap();
    let pos = chess::codec::parse_fen(&fen).unwrap();
    let ev = chess::eval::Eval(shakmaty::Color::White);
    let p = regex_vm::Program::new(ev.rewrites());
    let x = regex_vm::Executor::new(&p, regex_vm::Config::default()).unwrap();
    let mut n = 0;
    for m in pos.legal_moves() {
        let mut a = pos.clone();
        a.play_unchecked(m);
        for r in a.legal_moves() {
            let mut b = a.clone();
            b.play_unchecked(r);
            let e = chess::codec::encode(&b);
            let st = regex_vm::state::State {
                prefix: String::new(),
                threads: vec![chess::codec::thread_of(&e)],
            };
            let mut s = st.render();
            x.run(&mut s).unwrap();
            if regex_vm::state::State::parse(&s).is_err() {
                println!("{}\n{}", chess::codec::fen_of(&b), s);
                return;
            }
            let got = regex_vm::state::State::parse(&s).unwrap().threads[0]
                .var("ev")
                .unwrap()
                .to_string();
            let want = chess::eval::evaluate(&e.board, shakmaty::Color::White).to_string();
            n += 1;
            if got != want {
                println!("{} got {got} want {want}", chess::codec::fen_of(&b));
                return;
            }
        }
    }
    println!("all {n} ok");
}
