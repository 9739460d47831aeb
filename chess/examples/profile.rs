fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    let mv = std::env::args().nth(2).unwrap_or_else(|| "e2e4".into());
    let screen = chess::screen::start_screen(
        &fen,
        Some(
            !chess::codec::parse_fen(&fen)
                .map(|p| shakmaty::Position::turn(&p))
                .unwrap(),
        ),
    )
    .unwrap();
    chess::turn_pass().unwrap();
    let mut best = None;
    for _ in 0..3 {
        let mut s = screen.clone();
        let st = chess::play_turn(&mut s, Some(&mv)).unwrap();
        println!(
            "turn {:?} executed {} skipped {} changed {} peak {}B threads {}",
            st.elapsed, st.executed, st.skipped, st.changed, st.peak_state_bytes, st.peak_threads
        );
        best = Some(st);
    }
    let st = best.unwrap();
    let total: std::time::Duration = st.per_kind.values().map(|k| k.time).sum();
    println!("time inside rewrites: {:?} of {:?}", total, st.elapsed);
    let mut v: Vec<_> = st.per_kind.iter().collect();
    v.sort_by(|a, b| b.1.time.cmp(&a.1.time));
    for (k, s) in v.iter().take(25) {
        println!("{:>30} {:>6} {:>10.2?}", k, s.executed, s.time);
    }
}
#[allow(dead_code)]
fn _unused() {}
