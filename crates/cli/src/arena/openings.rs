//! Where the games of `match` start: the built-in openings (a handful of
//! short well-known lines) or a file of them (UCI moves from the start
//! position, or a FEN, one a line), each checked by playing it with
//! shakmaty. It plays no game and knows no engine.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::{quote, shown};

/// Where a game starts: a position and moves played from it.
#[derive(Clone, Debug)]
pub(crate) struct Opening {
    /// A name for the PGN `Opening` tag.
    pub name: String,
    /// The start position, `None` for the standard one.
    pub fen: Option<String>,
    /// The opening's moves (UCI), played before either engine moves.
    pub moves: Vec<String>,
}

/// A few short well-known lines, as UCI moves from the start position.
const BUILT_IN: &[(&str, &str)] = &[
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    (
        "Sicilian Defence",
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    ),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("French Defence", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("Caro-Kann Defence", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4"),
    (
        "King's Indian Defence",
        "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",
    ),
    ("Italian Game", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("English Opening", "c2c4 e7e5 b1c3 g8f6 g2g3"),
];

/// The built-in openings.
pub(crate) fn built_in_openings() -> Vec<Opening> {
    BUILT_IN
        .iter()
        .map(|(name, moves)| Opening {
            name: (*name).to_string(),
            fen: None,
            moves: moves.split_whitespace().map(str::to_string).collect(),
        })
        .collect()
}

/// The longest line read from an openings file, and the most openings.
const MAX_OPENING_LINE: u64 = 4096;
const MAX_OPENINGS: usize = 10_000;

/// Reads openings: one a line, UCI moves from the start or a FEN; each is
/// checked by playing it.
pub(crate) fn read_openings(path: &Path) -> Result<Vec<Opening>> {
    let file = File::open(path).with_context(|| format!("opening {}", shown(path)))?;
    let mut reader = BufReader::new(file);
    let mut openings = Vec::new();
    for number in 1.. {
        let mut buf = Vec::new();
        let n = reader
            .by_ref()
            .take(MAX_OPENING_LINE)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("reading {}", shown(path)))?;
        if n == 0 {
            break;
        }
        let at = || format!("{} line {number}", shown(path));
        let name = || {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            format!(
                "{} line {number}",
                file.chars().take(100).collect::<String>()
            )
        };
        if !buf.ends_with(b"\n") && n as u64 == MAX_OPENING_LINE {
            bail!("{}: longer than {MAX_OPENING_LINE} bytes", at());
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if openings.len() == MAX_OPENINGS {
            bail!("{}: more than {MAX_OPENINGS} openings", at());
        }
        let opening = if line.contains('/') {
            Opening {
                name: name(),
                fen: Some(line.to_string()),
                moves: Vec::new(),
            }
        } else {
            Opening {
                name: name(),
                fen: None,
                moves: line.split_whitespace().map(str::to_string).collect(),
            }
        };
        opening_position(&opening).with_context(|| format!("{}: {}", at(), quote(line)))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        bail!("{} holds no opening", shown(path));
    }
    Ok(openings)
}

/// The position after an opening, with its moves checked.
pub(crate) fn opening_position(opening: &Opening) -> Result<Chess> {
    let mut pos = start_position(opening.fen.as_deref())?;
    for text in &opening.moves {
        let m = legal_move(&pos, text).ok_or_else(|| anyhow!("illegal move {}", quote(text)))?;
        pos.play_unchecked(m);
    }
    if pos.is_game_over() {
        bail!("the opening leaves no game to play");
    }
    Ok(pos)
}

pub(super) fn start_position(fen: Option<&str>) -> Result<Chess> {
    match fen {
        None => Ok(Chess::default()),
        Some(fen) => {
            let parsed: Fen = fen.parse().map_err(|e| anyhow!("not a FEN: {e}"))?;
            parsed
                .into_position(CastlingMode::Standard)
                .map_err(|e| anyhow!("an illegal position: {e}"))
        }
    }
}

/// The legal move `text` (UCI) names in `pos`, if any.
pub(super) fn legal_move(pos: &Chess, text: &str) -> Option<Move> {
    text.parse::<UciMove>().ok()?.to_move(pos).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_openings_are_legal() {
        for opening in built_in_openings() {
            assert!(opening_position(&opening).is_ok(), "{}", opening.name);
        }
    }
}
