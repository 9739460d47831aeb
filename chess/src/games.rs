//! Random games and position transforms for tests, fuzzing and benchmarks.
//!
//! Plain shakmaty code: a seeded generator, random legal games, and the
//! colour flip of a FEN. Nothing here runs the regex program.
use shakmaty::{Chess, Position};

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// Seeded generator (seed 0 is replaced by a constant).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// Next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
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

/// The same position with colours swapped and the board mirrored
/// top to bottom: its move tree is the mirror of the original's.
pub fn flip_fen(fen: &str) -> String {
    let parts: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = parts[0].split('/').rev().map(swap).collect();
    let turn = if parts[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = if parts[2] == "-" {
        vec![]
    } else {
        swap(parts[2]).chars().collect()
    };
    castling.sort_by_key(|c| "KQkq".find(*c));
    let castling: String = if castling.is_empty() {
        "-".into()
    } else {
        castling.into_iter().collect()
    };
    let ep = match parts[3] {
        "-" => "-".to_string(),
        sq => {
            let b = sq.as_bytes();
            format!("{}{}", b[0] as char, (b'9' - b[1] + b'0') as char)
        }
    };
    let rest = parts[4..].join(" ");
    format!("{} {turn} {castling} {ep} {rest}", placement.join("/"))
}
