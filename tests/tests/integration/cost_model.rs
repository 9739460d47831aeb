//! The native cost model (`chess::reference::cost`) against the regex
//! program: on every bench position (the position after each line's move
//! in `tests/data/bench.epd`, the engine to move) at depths 2 to 5, the
//! regex reply search's work, in scanned bytes, lies within the model's
//! stated factor of the work the model gives the native search in the
//! regex program's shape (`reference::best_moves_metered`). Work is
//! counted, never timed: the figures are the same on every machine.

// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::reference::cost::{Meter, FACTOR};
use chess::reference::{best_moves_metered, SEARCHED};
use chess::Depth;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The bench positions, each after its line's move, with its id.
fn bench_positions() -> Vec<(String, Chess)> {
    include_str!("../../data/bench.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let fen = fields.next().unwrap();
            let (mut mv, mut id) = ("", "");
            for f in fields {
                if let Some(m) = f.strip_prefix("move ") {
                    mv = m.trim();
                } else if let Some(i) = f.strip_prefix("id ") {
                    id = i.trim();
                }
            }
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let m = mv.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            (id.to_string(), pos)
        })
        .collect()
}

#[test]
fn the_model_is_within_its_factor_of_the_regex_programs_work_on_the_bench() {
    let positions = bench_positions();
    assert_eq!(positions.len(), 10);
    let mut worst = (1.0f64, 1.0f64);
    for depth in [2, 3, 4, 5].map(|d| Depth::new(d).unwrap()) {
        for (id, pos) in &positions {
            let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
            let searched = chess::search(&fen, &[], depth).unwrap();
            assert_eq!(searched.depth, depth, "{id}: answered by another depth");
            let mut meter = Meter::unlimited();
            best_moves_metered(pos, depth.plan(), "", SEARCHED, &mut meter).unwrap();
            let ratio = searched.stats.scanned_bytes as f64 / meter.scanned_bytes() as f64;
            eprintln!(
                "{id} depth {depth}: measured {} bytes, model {} bytes, ratio {ratio:.2}",
                searched.stats.scanned_bytes,
                meter.scanned_bytes()
            );
            worst = (worst.0.min(ratio), worst.1.max(ratio));
            assert!(
                (1.0 / FACTOR..=FACTOR).contains(&ratio),
                "{id} depth {depth}: the regex program's work is {ratio:.2} times the model's"
            );
        }
    }
    eprintln!("measured / model: {:.2} to {:.2}", worst.0, worst.1);
}
