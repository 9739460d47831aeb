fn main() {
    let fen = std::env::args().nth(1).unwrap_or_else(|| {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into()
    });
    let t = std::time::Instant::now();
    let moves = chess::legal_moves(&fen).unwrap();
    let el = t.elapsed();
    for (m, f) in &moves {
        println!("{m} {f}");
    }
    let p = chess::move_pass().unwrap();
    println!(
        "{} moves in {:?}; program {} rewrites, {} distinct",
        moves.len(),
        el,
        p.program.len(),
        p.program.distinct_patterns()
    );
    let t = std::time::Instant::now();
    let moves = chess::legal_moves(&fen).unwrap();
    println!("second run {} moves in {:?}", moves.len(), t.elapsed());
}
