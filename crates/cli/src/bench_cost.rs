//! `regex-chess bench --cost-model`: the native cost model
//! (`chess::reference::cost`) against the regex program, position by
//! position: the regex reply search's work (scanned bytes) and time, the
//! model's work for the same search, their ratio, and the time per
//! scanned byte; the model's prices and time constant are calibrated on
//! these figures. It measures; it changes no price.

use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use chess::reference::cost::{Meter, FACTOR, NANOS_PER_KILOBYTE};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::bench::Turn;

/// One position's figures.
struct Compared {
    id: String,
    /// The regex search's scanned bytes.
    measured: u64,
    /// The model's.
    model: u64,
    /// The regex search's fastest time over the runs.
    time: Duration,
}

/// Compares the model with the regex program on every turn (the position
/// after the turn's move, the engine to move) at `depth`, each regex
/// search run `runs` times after one untimed run, and prints the table.
///
/// # Errors
///
/// A turn whose position or move does not read, a failure of the regex
/// program, a closed stdout.
pub(crate) fn run(
    turns: &[Turn],
    (depth, late): (chess::Depth, Option<u32>),
    runs: usize,
) -> Result<()> {
    let mut rows = Vec::new();
    for turn in turns {
        let row = compare(turn, (depth, late), runs);
        rows.push(row.with_context(|| format!("turn {}", turn.id))?);
    }
    let mut out = crate::textio::stdout();
    let rule = late.map_or(String::new(), |k| format!(", lmp:{k}"));
    writeln!(
        out,
        "depth {depth}{rule}: the regex reply search's work against the native cost model's"
    )?;
    writeln!(
        out,
        "{:<16} {:>12} {:>12} {:>7} {:>9} {:>8}",
        "turn", "scanned MB", "model MB", "ratio", "ms", "ns/byte"
    )?;
    for r in &rows {
        writeln!(
            out,
            "{:<16} {:>12.1} {:>12.1} {:>7.2} {:>9.1} {:>8.2}",
            r.id,
            r.measured as f64 / 1e6,
            r.model as f64 / 1e6,
            r.measured as f64 / r.model as f64,
            r.time.as_secs_f64() * 1e3,
            r.time.as_secs_f64() * 1e9 / r.measured as f64
        )?;
    }
    let ratios: Vec<f64> = rows
        .iter()
        .map(|r| r.measured as f64 / r.model as f64)
        .collect();
    let (lo, hi) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| {
        (lo.min(r), hi.max(r))
    });
    let bytes: u64 = rows.iter().map(|r| r.measured).sum();
    let time: Duration = rows.iter().map(|r| r.time).sum();
    writeln!(
        out,
        "measured / model: {lo:.2} to {hi:.2} (the model's stated factor: {FACTOR}); time per scanned byte over the suite: {:.3} ns (the model takes {:.3})",
        time.as_secs_f64() * 1e9 / bytes as f64,
        NANOS_PER_KILOBYTE as f64 / 1000.0
    )?;
    Ok(())
}

/// One turn's figures.
fn compare(
    turn: &Turn,
    (depth, late): (chess::Depth, Option<u32>),
    runs: usize,
) -> Result<Compared> {
    let pos = after_move(&turn.fen, &turn.mv)?;
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let mut meter = Meter::unlimited();
    let select = chess::reference::Select {
        lmp: late,
        ..chess::reference::Select::NONE
    };
    chess::reference::best_moves_selective(
        &pos,
        depth.plan(),
        "",
        chess::reference::SEARCHED,
        select,
        &mut meter,
    )
    .map_err(|e| anyhow!("the model: {e}"))?;
    let variant = chess::Variant {
        late,
        ..chess::Variant::default()
    };
    let first = chess::search_variant(&fen, &[], depth, variant)?;
    let mut time = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        chess::search_variant(&fen, &[], depth, variant)?;
        time = time.min(start.elapsed());
    }
    Ok(Compared {
        id: turn.id.clone(),
        measured: first.stats.scanned_bytes,
        model: meter.scanned_bytes().max(1),
        time,
    })
}

/// The position after `mv` (UCI) in `fen`.
fn after_move(fen: &str, mv: &str) -> Result<Chess> {
    let mut pos: Chess = fen
        .parse::<Fen>()
        .map_err(|e| anyhow!("not a FEN: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| anyhow!("an illegal position: {e}"))?;
    let m = mv
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(&pos).ok())
        .ok_or_else(|| anyhow!("the move {} is not legal", crate::arena::quote(mv)))?;
    pos.play_unchecked(m);
    Ok(pos)
}
