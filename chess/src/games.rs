//! Random games and position transforms for tests, fuzzing and benchmarks.
//!
//! Plain shakmaty code: a seeded generator, random legal games, the
//! colour flip of a FEN, and the one reader of the standard perft suite
//! (`tests/data/perft.epd`). Nothing here runs the regex program.
use rand::rngs::ChaCha8Rng;
use rand::{Rng as _, RngExt, SeedableRng};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::board::codec::{excerpt, fen_of, parse_fen, FenError};

/// The standard perft suite, as the workspace keeps it (the same file as
/// `../shared/perft.epd`): `FEN ;D1 n ;D2 n ;D3 n ;id name` per line,
/// `#` comments.
const PERFT_EPD: &str = include_str!("../../tests/data/perft.epd");

/// One position of the standard perft suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftPosition {
    /// Its FEN.
    pub fen: String,
    /// Its name (`startpos`, `kiwipete`, ...).
    pub id: String,
    /// `(depth, leaf nodes)`, shallowest first.
    pub counts: Vec<(u32, u64)>,
}

/// The standard perft positions, in the suite's order.
pub fn perft_positions() -> Vec<PerftPosition> {
    PERFT_EPD.lines().filter_map(perft_line).collect()
}

/// One line of the suite; `None` for a comment, a blank line or a line
/// without a FEN field.
fn perft_line(line: &str) -> Option<PerftPosition> {
    if line.starts_with('#') || line.trim().is_empty() {
        return None;
    }
    let mut fields = line.split(';').map(str::trim);
    let fen = fields.next().filter(|f| !f.is_empty())?.to_string();
    let mut id = String::new();
    let mut counts = Vec::new();
    for field in fields {
        if let Some(name) = field.strip_prefix("id ") {
            id = name.trim().to_string();
        } else if let Some((d, n)) = field.strip_prefix('D').and_then(|f| f.split_once(' ')) {
            if let (Ok(d), Ok(n)) = (d.parse(), n.trim().parse()) {
                counts.push((d, n));
            }
        }
    }
    Some(PerftPosition { fen, id, counts })
}

/// The seeded generator of random games: rand's ChaCha8, the same
/// sequence for a seed on every machine. Game `g` of a campaign with seed
/// `s` draws from stream `g` of `s` ([`Rng::for_game`]), so games are
/// independent of each other and of how many run at once.
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// Seeded generator.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// The generator of game `game` under `seed`: its own stream.
    pub fn for_game(seed: u64, game: u64) -> Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(game);
        Rng(rng)
    }

    /// Next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
}

/// The position after up to `plies` random legal moves from `start`
/// (it stops early at the end of the game).
pub fn random_game(start: &Chess, rng: &mut Rng, plies: usize) -> Chess {
    let mut pos = start.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
    }
    pos
}

/// The positions of `fens`, then those of `games` random games from the
/// start (game `g` seeded `g`, `7 g mod 90` plies long): the sample the
/// unit tests of the move pass run on.
///
/// # Panics
///
/// On an invalid FEN (a test's own data).
#[cfg(test)]
pub(crate) fn sample_positions(fens: &[&str], games: u64) -> Vec<Chess> {
    let mut positions: Vec<Chess> = fens.iter().map(|f| parse_fen(f).expect("valid")).collect();
    for seed in 1..=games {
        positions.push(random_game(
            &Chess::default(),
            &mut Rng::new(seed),
            (seed as usize * 7) % 90,
        ));
    }
    positions
}

/// The same position with colours swapped and the board mirrored top to
/// bottom (shakmaty's `Setup::into_mirrored`): its move tree is the mirror
/// of the original's. The clocks stay as they were.
///
/// # Errors
///
/// `fen` is not a legal position, as [`parse_fen`] says.
pub fn flip_fen(fen: &str) -> Result<String, FenError> {
    let mirrored = parse_fen(fen)?
        .to_setup(EnPassantMode::Always)
        .into_mirrored();
    let flipped: Chess = mirrored
        .position(CastlingMode::Standard)
        .map_err(|source| FenError::Illegal {
            fen: excerpt(fen),
            source: Box::new(source),
        })?;
    Ok(fen_of(&flipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_perft_suite_reads_every_line_with_its_counts() {
        let suite = perft_positions();
        let lines = PERFT_EPD
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(suite.len(), lines);
        assert!(suite.len() >= 6);
        assert_eq!(suite[0].id, "startpos");
        assert_eq!(suite[0].counts, [(1, 20), (2, 400), (3, 8902)]);
        for p in &suite {
            parse_fen(&p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert_eq!(p.counts.first().map(|c| c.0), Some(1), "{}", p.id);
        }
        assert_eq!(perft_line("# a comment"), None);
        assert_eq!(
            perft_line("8/8/8/8/8/8/8/8 w - - 0 1 ;D2 x ;id y").map(|p| p.counts),
            Some(vec![])
        );
    }

    #[test]
    fn a_seed_repeats_and_games_have_their_own_streams() {
        let draw = |mut r: Rng| (0..8).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(draw(Rng::new(7)), draw(Rng::new(7)));
        assert_ne!(draw(Rng::new(7)), draw(Rng::new(8)));
        assert_eq!(draw(Rng::for_game(7, 3)), draw(Rng::for_game(7, 3)));
        assert_ne!(draw(Rng::for_game(7, 3)), draw(Rng::for_game(7, 4)));
        assert_ne!(draw(Rng::for_game(7, 3)), draw(Rng::for_game(8, 3)));
        let mut r = Rng::new(1);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }

    #[test]
    fn flipping_mirrors_the_board_and_twice_gives_the_position_back() {
        // Kiwipete and its mirror, with both sides' castling and a pawn
        // that just made a double step (en passant on the mirrored rank).
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let mirrored = "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1";
        assert_eq!(flip_fen(kiwipete).unwrap(), mirrored);
        assert_eq!(flip_fen(mirrored).unwrap(), kiwipete);
        let ep = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
        assert_eq!(flip_fen(ep).unwrap(), "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
        assert!(flip_fen("not a fen").is_err());
    }
}
