//! `regex-chess tune`: Texel's method on a positions file (`positions`).
//!
//! The evaluation (material plus piece-square values) is linear in the
//! values: a position's score from White's side is the sum of its White
//! pieces' values minus its Black pieces' (each seen from its own side),
//! so each position becomes a short list of (value, +1 or -1). The
//! expected result of a score `e` (units of 10 centipawns) is the
//! logistic `1 / (1 + 10^(-K e / 40))` (`K` scales centipawns against the
//! usual 400). [`fit_k`] finds the `K` that makes the starting values'
//! mean squared error smallest; [`Tuner::descend`] then moves one value at
//! a time by a unit, keeping each move that lowers the error, until no
//! move does. Values stay within `chess::values`' bounds (at most 100, a
//! king's at most 3, never negative), a rook's a, d, f and h on its first
//! rank move as one value, and a value seen in fewer than `--min-count`
//! positions keeps its start. Games whose number ends in 0 are held out:
//! their error is reported, never tuned on. It plays no game.

use std::path::PathBuf;

use anyhow::{Context, Result};
use shakmaty::{Chess, Color, Position};

use chess::values::{role_index, Table, CASTLING_ROOK_FILES, KING_MAX, MAX_VALUE, ROLES};

use super::positions::{parse_all, Labelled};

/// `tune`'s options.
#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// The positions (`regex-chess selfplay --out`).
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    /// The values to start from: `hand` (the regex program's) or `tuned`
    /// (the checked-in tuned table).
    #[arg(long, default_value = "hand")]
    start: chess::values::Values,
    /// Tune each square apart from its mirror (a from h, ...); by default
    /// they are one value, the king's excepted.
    #[arg(long)]
    no_mirror: bool,
    /// The L2 penalty: this times the summed squares of the values' moves
    /// from their start is added to the mean squared error.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// A value seen in fewer positions than this keeps its start.
    #[arg(long, default_value_t = 50)]
    min_count: usize,
    /// Write the tuned table as the source of `tuned.rs` to this file
    /// (`chess/src/eval/tuned.rs`).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
}

/// The number of values: one per role and square.
const PARAMS: usize = 6 * 64;

/// How values are tied together besides the rook's castling squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ties {
    /// Each role but the king has one value for a square and its mirror
    /// across the board's middle (a with h, b with g, ...).
    pub mirror: bool,
}

/// A value's index: `role * 64 + (rank - 1) * 8 + file`, the rook's
/// castling squares (and with a mirror their mirrors) all at a1's, with a
/// mirror files e to h at d to a's.
fn param(role: usize, file: usize, rank: usize, ties: Ties) -> usize {
    let castles = |f: usize| CASTLING_ROOK_FILES.contains(&f);
    let rook_home = ROLES[role] == 'R' && rank == 1;
    let file = if rook_home && (castles(file) || (ties.mirror && castles(7 - file))) {
        0
    } else if ties.mirror && ROLES[role] != 'K' && file > 3 {
        7 - file
    } else {
        file
    };
    role * 64 + (rank - 1) * 8 + file
}

/// A position as the values it counts, each +1 (White's) or -1, and its
/// result.
#[derive(Debug, Clone)]
struct Sample {
    terms: Vec<(u16, i8)>,
    result: f64,
}

/// The terms of `pos` (see [`Sample`]), equal values of both sides
/// cancelled.
fn terms(pos: &Chess, ties: Ties) -> Vec<(u16, i8)> {
    let mut counts = std::collections::BTreeMap::<u16, i8>::new();
    for (sq, piece) in pos.board().clone() {
        let Some(role) = role_index(piece.role.upper_char()) else {
            continue;
        };
        let file = usize::from(sq.file());
        let rank = usize::from(sq.rank()) + 1;
        let (own_rank, sign) = match piece.color {
            Color::White => (rank, 1),
            Color::Black => (9 - rank, -1),
        };
        *counts
            .entry(param(role, file, own_rank, ties) as u16)
            .or_default() += sign;
    }
    counts.into_iter().filter(|(_, c)| *c != 0).collect()
}

/// The logistic of `e` (units of 10 centipawns) with scale `k`.
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 40.0))
}

/// The tuner's state: the samples, the values, each sample's score.
pub(crate) struct Tuner {
    samples: Vec<Sample>,
    ties: Ties,
    values: [i32; PARAMS],
    /// The start values (the L2 penalty's centre).
    start: [i32; PARAMS],
    scores: Vec<f64>,
    /// For each value, the samples that count it and how.
    uses: Vec<Vec<(u32, i8)>>,
}

impl Tuner {
    /// A tuner on `positions` from `start`.
    /// A tied value starts from its first square's (a1's for the rook's
    /// castling squares, the a-to-d half's with a mirror).
    fn new(positions: &[Labelled], start: &Table, ties: Ties) -> Tuner {
        let samples: Vec<Sample> = positions
            .iter()
            .map(|l| Sample {
                terms: terms(&l.pos, ties),
                result: l.result,
            })
            .collect();
        let mut values = [0i32; PARAMS];
        for (r, row) in start.0.iter().enumerate() {
            for (i, v) in row.iter().enumerate() {
                if param(r, i % 8, i / 8 + 1, ties) == r * 64 + i {
                    values[r * 64 + i] = i32::from(*v);
                }
            }
        }
        let mut uses = vec![Vec::new(); PARAMS];
        for (s, sample) in samples.iter().enumerate() {
            for (p, c) in &sample.terms {
                uses[usize::from(*p)].push((s as u32, *c));
            }
        }
        let mut t = Tuner {
            samples,
            ties,
            values,
            start: values,
            scores: Vec::new(),
            uses,
        };
        t.scores = t.samples.iter().map(|s| t.score(s)).collect();
        t
    }

    /// A sample's score from the values.
    fn score(&self, s: &Sample) -> f64 {
        s.terms
            .iter()
            .map(|(p, c)| f64::from(self.values[usize::from(*p)] * i32::from(*c)))
            .sum()
    }

    /// The mean squared error with scale `k`.
    fn error(&self, k: f64) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .samples
            .iter()
            .zip(&self.scores)
            .map(|(s, e)| (s.result - sigmoid(k, *e)).powi(2))
            .sum();
        sum / self.samples.len() as f64
    }

    /// The table of the current values (tied squares copied from a1's).
    fn table(&self) -> Table {
        let mut t = [[0u8; 64]; 6];
        for (r, row) in t.iter_mut().enumerate() {
            for (i, v) in row.iter_mut().enumerate() {
                let (file, rank) = (i % 8, i / 8 + 1);
                *v = self.values[param(r, file, rank, self.ties)] as u8;
            }
        }
        Table(t)
    }

    /// Moves values by units while the error with scale `k`, plus `l2`
    /// times the summed squares of the values' moves from their start,
    /// falls (see the module); returns the passes made.
    fn descend(&mut self, k: f64, l2: f64, min_count: usize, max_passes: usize) -> usize {
        let n = self.samples.len().max(1) as f64;
        let tunable: Vec<usize> = (0..PARAMS)
            .filter(|p| self.uses[*p].len() >= min_count.max(1))
            .collect();
        for pass in 1..=max_passes {
            let mut moved = false;
            for &p in &tunable {
                let limit = if ROLES[p / 64] == 'K' {
                    KING_MAX
                } else {
                    MAX_VALUE
                } as i32;
                for step in [1, -1] {
                    let penalty = |v: i32| {
                        let d = f64::from(v - self.start[p]);
                        l2 * d * d
                    };
                    while (0..=limit).contains(&(self.values[p] + step))
                        && self.change(p, step, k) / n + penalty(self.values[p] + step)
                            - penalty(self.values[p])
                            < 0.0
                    {
                        self.values[p] += step;
                        for (s, c) in &self.uses[p] {
                            self.scores[*s as usize] += f64::from(step * i32::from(*c));
                        }
                        moved = true;
                    }
                }
            }
            if !moved {
                return pass;
            }
        }
        max_passes
    }

    /// How the summed squared error with scale `k` changes if value `p`
    /// moves by `step`.
    fn change(&self, p: usize, step: i32, k: f64) -> f64 {
        self.uses[p]
            .iter()
            .map(|(s, c)| {
                let r = self.samples[*s as usize].result;
                let e = self.scores[*s as usize];
                let moved = e + f64::from(step * i32::from(*c));
                (r - sigmoid(k, moved)).powi(2) - (r - sigmoid(k, e)).powi(2)
            })
            .sum()
    }
}

/// The scale `K` in 0.01..10 that makes `tuner`'s error smallest (a
/// golden-section search; the error is unimodal in `K` for these scores).
fn fit_k(tuner: &Tuner) -> f64 {
    let (mut lo, mut hi) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - g * (hi - lo);
    let mut b = lo + g * (hi - lo);
    let (mut fa, mut fb) = (tuner.error(a), tuner.error(b));
    while hi - lo > 1e-6 {
        if fa <= fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = tuner.error(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = tuner.error(b);
        }
    }
    (lo + hi) / 2.0
}

/// Whether a position is held out: its game's number ends in 0.
fn held_out(l: &Labelled) -> bool {
    l.game.is_multiple_of(10)
}

/// `regex-chess tune`.
pub(crate) fn run(args: TuneArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.positions)
        .with_context(|| format!("reading {}", args.positions.display()))?;
    let all = parse_all(&text).with_context(|| format!("in {}", args.positions.display()))?;
    let (held, train): (Vec<Labelled>, Vec<Labelled>) = all.into_iter().partition(held_out);
    if train.is_empty() {
        anyhow::bail!(
            "{}: no position to tune on (games numbered ..0 are held out)",
            args.positions.display()
        );
    }
    let start = match args.start {
        chess::values::Values::Hand => Table::hand(),
        chess::values::Values::Tuned => Table::tuned(),
    };
    let ties = Ties {
        mirror: !args.no_mirror,
    };
    let mut tuner = Tuner::new(&train, &start, ties);
    let k = fit_k(&tuner);
    let before = tuner.error(k);
    let held_before = Tuner::new(&held, &start, ties).error(k);
    let passes = tuner.descend(k, args.l2, args.min_count, 1000);
    let tuned = tuner.table();
    tuned
        .check()
        .context("the tuned values left their bounds (a bug)")?;
    let after = tuner.error(k);
    let held_after = Tuner::new(&held, &tuned, ties).error(k);
    println!(
        "{} training positions, {} held out (games numbered ..0); K = {k:.4}",
        train.len(),
        held.len()
    );
    println!("training error {before:.6} -> {after:.6} in {passes} passes");
    println!("held-out error {held_before:.6} -> {held_after:.6}");
    print_table(&start, &tuned);
    if let Some(path) = &args.write {
        let source = format!(
            "//! The tuned piece-square values (`eval::values::Table::tuned`),\n\
             //! written by `regex-chess tune` (not edited by hand): Texel's\n\
             //! method on {} positions of `regex-chess selfplay`, K = {k:.4},\n\
             //! L2 {}, mirrored squares tied: {}. Mean squared error, training\n\
             //! {before:.6} -> {after:.6}, held out {held_before:.6} -> {held_after:.6}.\n\n{}",
            train.len(),
            args.l2,
            ties.mirror,
            tuned.to_source()
        );
        std::fs::write(path, source).with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Prints each role's tuned values, rank 8 at the top, with the change
/// from `start` where there is one.
fn print_table(start: &Table, tuned: &Table) {
    for (r, role) in ROLES.iter().enumerate() {
        println!("{role}:");
        for rank in (1..=8).rev() {
            let row: Vec<String> = (0..8)
                .map(|file| {
                    let (a, b) = (
                        start.0[r][(rank - 1) * 8 + file],
                        tuned.0[r][(rank - 1) * 8 + file],
                    );
                    if a == b {
                        format!("{b:4}    ")
                    } else {
                        format!("{b:4}({:+3})", i32::from(b) - i32::from(a))
                    }
                })
                .collect();
            println!("  {}", row.join(""));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    const NO_TIES: Ties = Ties { mirror: false };

    fn labelled(fen: &str, result: f64, game: u64) -> Labelled {
        let pos = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Labelled {
            pos,
            result,
            game,
            ply: 0,
        }
    }

    /// White a pawn up (10 units) in four positions, three won and one
    /// lost: the error is smallest where the logistic of 10 is 3/4, at
    /// K = 4 log10 3.
    #[test]
    fn the_fitted_k_makes_the_expected_score_the_mean_result() {
        let fen = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1";
        let set: Vec<Labelled> = [1.0, 1.0, 1.0, 0.0]
            .into_iter()
            .map(|r| labelled(fen, r, 1))
            .collect();
        let tuner = Tuner::new(&set, &Table::hand(), NO_TIES);
        assert_eq!(tuner.scores, vec![10.0; 4]);
        let k = fit_k(&tuner);
        assert!((k - 4.0 * 3f64.log10()).abs() < 1e-4, "{k}");
        assert!((sigmoid(k, 10.0) - 0.75).abs() < 1e-6);
    }

    /// Positions where the side with a knight against a bishop always
    /// wins: the tuner raises the knight (or lowers the bishop) and the
    /// error falls; the values keep their bounds.
    #[test]
    fn the_tuner_lowers_the_error_within_the_bounds() {
        let set: Vec<Labelled> = [
            ("4k3/8/2b5/8/8/5N2/8/4K3 w - - 0 1", 1.0),
            ("4k3/8/5n2/8/8/2B5/8/4K3 w - - 0 1", 0.0),
            ("4k3/1b6/8/8/8/8/3N4/4K3 b - - 0 1", 1.0),
            ("4k3/3n4/8/8/8/8/1B6/4K3 b - - 0 1", 0.0),
        ]
        .into_iter()
        .map(|(f, r)| labelled(f, r, 1))
        .collect();
        let mut tuner = Tuner::new(&set, &Table::hand(), NO_TIES);
        let k = 1.0;
        let before = tuner.error(k);
        let passes = tuner.descend(k, 0.0, 1, 100);
        let after = tuner.error(k);
        assert!(after < before, "{before} -> {after}");
        assert!(passes < 100);
        let t = tuner.table();
        t.check().unwrap();
        assert!(t.value('N', 5, 3) > Table::hand().value('N', 5, 3));
        // The king's values stay at most 3 even where the data pulls.
        let kings: Vec<Labelled> = (0..8)
            .map(|_| labelled("8/8/8/8/8/8/8/K1k5 w - - 0 1", 1.0, 1))
            .chain([labelled("8/8/8/8/8/8/P7/K1k5 w - - 0 1", 1.0, 1)])
            .collect();
        let mut tuner = Tuner::new(&kings, &Table::hand(), NO_TIES);
        tuner.descend(1.0, 0.0, 1, 1000);
        assert_eq!(tuner.table().value('K', 0, 1), KING_MAX);
        tuner.table().check().unwrap();
    }

    #[test]
    fn a_rook_on_its_castling_squares_is_one_value() {
        let set = vec![labelled("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 1.0, 1); 20];
        let mut tuner = Tuner::new(&set, &Table::hand(), NO_TIES);
        tuner.descend(1.0, 0.0, 1, 1000);
        let t = tuner.table();
        assert!(t.value('R', 0, 1) > 50);
        for f in CASTLING_ROOK_FILES {
            assert_eq!(t.value('R', f, 1), t.value('R', 0, 1));
        }
        t.check().unwrap();
    }

    /// With a mirror, a knight on f3 moves c3's value too, and the rook's
    /// home squares but b and g stay one value; a large L2 penalty keeps
    /// every value at its start.
    #[test]
    fn ties_and_the_penalty_hold_values_together() {
        let set = vec![labelled("4k3/8/8/8/8/5N2/8/R3K3 w - - 0 1", 1.0, 1); 20];
        let mirror = Ties { mirror: true };
        let mut tuner = Tuner::new(&set, &Table::hand(), mirror);
        tuner.descend(1.0, 0.0, 1, 1000);
        let t = tuner.table();
        assert!(t.value('N', 5, 3) > Table::hand().value('N', 5, 3));
        assert_eq!(t.value('N', 2, 3), t.value('N', 5, 3));
        for f in [0, 2, 3, 4, 5, 7] {
            assert_eq!(t.value('R', f, 1), t.value('R', 0, 1));
        }
        assert_eq!(t.value('R', 1, 1), Table::hand().value('R', 1, 1));
        t.check().unwrap();
        let mut held = Tuner::new(&set, &Table::hand(), mirror);
        held.descend(1.0, 1.0, 1, 1000);
        assert_eq!(held.table(), Table::hand());
    }

    #[test]
    fn a_score_is_the_evaluation_from_whites_side() {
        // The evaluation of the regex program, from White's side, is the
        // sum of the terms with the hand values.
        let l = labelled(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            0.5,
            1,
        );
        let board = chess::codec::encode(&l.pos).board;
        let score = || {
            (i64::from(chess::reference::leaf_evaluation(&board, Color::White))
                - i64::from(chess::EVEN)) as f64
        };
        let tuner = Tuner::new(std::slice::from_ref(&l), &Table::hand(), NO_TIES);
        assert_eq!(tuner.scores[0], score());
        // Inside `with_values(Tuned)` the reference's leaves read the
        // tuned table, and `match --native tuned` searches so.
        let tuner = Tuner::new(std::slice::from_ref(&l), &Table::tuned(), NO_TIES);
        let tuned = chess::values::with_values(chess::values::Values::Tuned, score);
        assert_eq!(tuner.scores[0], tuned);
        let leaves: chess::reference::Leaves = "tuned".parse().unwrap();
        assert!(
            leaves.split()
                == (
                    chess::reference::Leaves::Threats,
                    chess::values::Values::Tuned
                )
        );
        assert!(chess::reference::SEARCHED.split().1 == chess::values::REGEX_VALUES);
    }
}
