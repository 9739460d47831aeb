fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into());
    let t = std::time::Instant::now();
    chess::reply_pass().unwrap();
    println!(
        "build+compile {:?}, {} rewrites",
        t.elapsed(),
        chess::reply_pass().unwrap().program.len()
    );
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let (r, stats) = chess::reply(&fen).unwrap();
        println!(
            "{:?} in {:?}; executed {} changed {} peak {} bytes, {} threads",
            r,
            t.elapsed(),
            stats.executed,
            stats.changed,
            stats.peak_state_bytes,
            stats.peak_threads
        );
    }
    let pos = chess::codec::parse_fen(&fen).unwrap();
    println!(
        "reference best score {:?}",
        chess::reference::best_score(&pos)
    );
}
