//! `regex-chess selfplay`: the native reference (`chess::reference`, its
//! search in the regex program's shape, no regexes, no clock) plays itself
//! from the openings, each followed by a few random legal plies, and the
//! quiet positions of each game are written with its result
//! (`positions`). A position is kept when its side to move is not in
//! check, has no capture that wins material on one square
//! (`reference::Threats`, the leaves' own gain) and the search's move is
//! neither a capture nor a promotion, and both sides have more than a king
//! (the mop-up term is left out of the tuning). Game `g` draws its random
//! plies and its choice among equal best moves from its own stream of the
//! seed (`chess::games::Rng::for_game`), so a run is the same for a seed
//! whatever `--concurrency`. It reads no clock and starts no process.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use shakmaty::{Chess, Color, KnownOutcome, Move, Outcome, Position};

use chess::games::Rng;
use chess::reference::cost::Meter;
use chess::reference::{best_moves_metered, Threats, SEARCHED};

use super::positions::{line_of, Labelled};
use crate::arena::openings::{built_in_openings, opening_position, read_openings, Opening};

/// `selfplay`'s options.
#[derive(clap::Args, Debug)]
pub(crate) struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The search's depth (2 to 5; 6 searches depth 5's best moves a ply
    /// deeper, several times the time).
    #[arg(long, default_value = "3")]
    depth: chess::Depth,
    /// The openings (`match --openings`'s format), repeatable; the
    /// built-in ones without it. Game `g` starts from opening `g` modulo
    /// their number.
    #[arg(long, value_name = "FILE")]
    openings: Vec<PathBuf>,
    /// Random legal plies after the opening: between 2 and this many.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// The seed of the random plies and of the choice among equal moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still on at this ply is a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// The positions file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// `regex-chess selfplay`.
pub(crate) fn run(args: SelfplayArgs) -> Result<()> {
    if args.random_plies < 2 {
        bail!("--random-plies must be at least 2");
    }
    let mut openings = Vec::new();
    for path in &args.openings {
        openings.extend(read_openings(path)?);
    }
    if openings.is_empty() {
        openings = built_in_openings();
    }
    let out = std::fs::File::create(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let next = AtomicUsize::new(0);
    let written = Mutex::new(Written {
        out,
        done: Default::default(),
        next: 0,
        positions: 0,
        results: [0; 3],
        error: None,
    });
    std::thread::scope(|s| {
        for _ in 0..args.concurrency.max(1) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= args.games {
                    break;
                }
                let got = play(&args, &openings[g % openings.len()], g as u64);
                if let Ok(mut w) = written.lock() {
                    w.done.insert(g, got);
                    w.flush(args.games);
                }
            });
        }
    });
    let w = written
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a game's thread panicked"))?;
    if let Some(e) = w.error {
        return Err(e);
    }
    println!(
        "{} positions from {} games (White won {}, drew {}, lost {} of the games with a position) in {}",
        w.positions,
        args.games,
        w.results[2],
        w.results[1],
        w.results[0],
        args.out.display()
    );
    Ok(())
}

/// The games played so far: those not yet written (a game is written
/// once every game before it is, so the file always holds the first games
/// of the run, in order), and the counts of those written.
struct Written {
    out: std::fs::File,
    done: std::collections::BTreeMap<usize, Result<Vec<Labelled>>>,
    next: usize,
    positions: usize,
    results: [usize; 3],
    error: Option<anyhow::Error>,
}

impl Written {
    /// Writes the games that are next in order.
    fn flush(&mut self, games: usize) {
        while let Some(game) = self.done.remove(&self.next) {
            let g = self.next;
            self.next += 1;
            let written = game.and_then(|game| {
                if let Some(first) = game.first() {
                    self.results[(first.result * 2.0) as usize] += 1;
                }
                let text: String = game.iter().map(|l| line_of(l) + "\n").collect();
                self.positions += game.len();
                self.out.write_all(text.as_bytes())?;
                self.out.flush()?;
                Ok(())
            });
            if let Err(e) = written {
                self.error.get_or_insert(e.context(format!("game {g}")));
            }
            if self.next.is_multiple_of(10) || self.next == games {
                eprintln!(
                    "selfplay: {}/{games} games, {} positions",
                    self.next, self.positions
                );
            }
        }
    }
}

/// Game `g` from `opening`: its kept positions, each with the result.
fn play(args: &SelfplayArgs, opening: &Opening, g: u64) -> Result<Vec<Labelled>> {
    let mut rng = Rng::for_game(args.seed, g);
    let mut pos = opening_position(opening)?;
    let random = 2 + rng.below(args.random_plies - 1);
    for _ in 0..random {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    let plan = args.depth.plan();
    let mut history: Vec<String> = vec![key(&pos)];
    let mut kept: Vec<(Chess, u32)> = Vec::new();
    let mut ply = 0;
    let result = loop {
        if let Some(r) = ended(&pos, &history) {
            break r;
        }
        if ply >= args.max_plies {
            break 0.5;
        }
        let keys: String = history.iter().map(|k| format!(" {k}")).collect();
        let mut meter = Meter::unlimited();
        let best = best_moves_metered(&pos, plan, &keys, SEARCHED, &mut meter)
            .map_err(|_| anyhow::anyhow!("an unlimited meter stopped"))?;
        let Some((moves, _)) = best else {
            bail!("no move in a game not over");
        };
        let m = moves[rng.below(moves.len())];
        if quiet(&pos, &m) {
            kept.push((pos.clone(), ply));
        }
        if m.is_capture() || m.role() == shakmaty::Role::Pawn {
            history.clear();
        }
        pos.play_unchecked(m);
        history.push(key(&pos));
        ply += 1;
    };
    Ok(kept
        .into_iter()
        .map(|(pos, ply)| Labelled {
            pos,
            result,
            game: g,
            ply,
        })
        .collect())
}

/// The position's key as the reference's history takes it.
fn key(pos: &Chess) -> String {
    chess::ending::position_key(&chess::codec::encode(pos).board, pos.turn())
}

/// White's points if the game is over in `pos` (`history`: the keys
/// since the last capture or pawn move, `pos`'s last): mate, stalemate,
/// insufficient material, a third occurrence, fifty moves.
fn ended(pos: &Chess, history: &[String]) -> Option<f64> {
    match pos.outcome() {
        Outcome::Known(KnownOutcome::Decisive { winner }) => {
            return Some(if winner == Color::White { 1.0 } else { 0.0 });
        }
        Outcome::Known(KnownOutcome::Draw) => return Some(0.5),
        Outcome::Unknown => {}
    }
    let last = history.last()?;
    if history.iter().filter(|k| *k == last).count() >= 3 || pos.halfmoves() >= 100 {
        return Some(0.5);
    }
    None
}

/// Whether `pos`, where the search plays `m`, is kept (see the module).
fn quiet(pos: &Chess, m: &Move) -> bool {
    let board = pos.board();
    let more_than_king = |c: Color| (board.by_color(c) & !board.kings()).any();
    !pos.is_check()
        && !m.is_capture()
        && !m.is_promotion()
        && more_than_king(Color::White)
        && more_than_king(Color::Black)
        && Threats::against(pos, !pos.turn()).g1 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Chess {
        chess::codec::parse_fen(fen).expect("a legal position")
    }

    #[test]
    fn a_position_with_a_winning_capture_or_a_check_is_not_quiet() {
        let quiet_move = |pos: &Chess| {
            pos.legal_moves()
                .into_iter()
                .find(|m| !m.is_capture())
                .unwrap()
        };
        // White's knight takes an undefended pawn on e5.
        let hanging = position("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
        assert!(!quiet(&hanging, &quiet_move(&hanging)));
        // The same pawn defended by a pawn: no winning capture.
        let defended = position("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1");
        assert!(quiet(&defended, &quiet_move(&defended)));
        // In check.
        let check = position("4k3/8/3p4/4p3/8/5N2/8/r3K3 w - - 0 1");
        assert!(!quiet(&check, &quiet_move(&check)));
        // A lone king.
        let lone = position("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1");
        assert!(!quiet(&lone, &quiet_move(&lone)));
    }

    #[test]
    fn a_third_occurrence_and_mate_end_the_game() {
        let pos = Chess::default();
        let k = key(&pos);
        assert_eq!(ended(&pos, &[k.clone(), "x".into(), k.clone()]), None);
        assert_eq!(
            ended(&pos, &[k.clone(), "x".into(), k.clone(), k]),
            Some(0.5)
        );
        let mated = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(ended(&mated, &[key(&mated)]), Some(1.0));
    }
}
