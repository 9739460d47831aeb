//! The positions file `selfplay` writes and `tune` reads: one EPD line a
//! position, its four FEN fields, the game's result from White's side as
//! `c9` (`"1-0"`, `"1/2-1/2"`, `"0-1"`) and the game and ply it came from
//! as `id` (`"g17 p42"`). It plays and evaluates nothing.

use anyhow::{anyhow, bail, Context, Result};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

/// One position of a game and the game's result.
#[derive(Debug, Clone)]
pub(super) struct Labelled {
    /// The position.
    pub pos: Chess,
    /// White's points in the game: 1, ½ or 0.
    pub result: f64,
    /// The game it came from.
    pub game: u64,
    /// Its ply in that game.
    pub ply: u32,
}

/// The EPD text of a result.
fn result_text(result: f64) -> &'static str {
    if result > 0.75 {
        "1-0"
    } else if result < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// The line of `l`.
pub(super) fn line_of(l: &Labelled) -> String {
    let fen = Fen::from_position(&l.pos, EnPassantMode::Legal).to_string();
    let four: Vec<&str> = fen.split_whitespace().take(4).collect();
    format!(
        "{} c9 \"{}\"; id \"g{} p{}\";",
        four.join(" "),
        result_text(l.result),
        l.game,
        l.ply
    )
}

/// The position of `line` (`None` for a blank line or a `#` comment).
///
/// # Errors
///
/// When the line has no legal position, no `c9` result or no `id`.
pub(super) fn parse_line(line: &str) -> Result<Option<Labelled>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    if fields.len() < 4 {
        bail!("fewer than four FEN fields");
    }
    let fen: Fen = format!("{} 0 1", fields.join(" "))
        .parse()
        .map_err(|e| anyhow!("not a FEN: {e}"))?;
    let pos: Chess = fen
        .into_position(CastlingMode::Standard)
        .map_err(|e| anyhow!("not a legal position: {e}"))?;
    let quoted = |op: &str| {
        line.split_once(&format!("{op} \""))
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(v, _)| v)
    };
    let result = match quoted("c9") {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        other => bail!("no result c9: {other:?}"),
    };
    let id = quoted("id").ok_or_else(|| anyhow!("no id"))?;
    let (game, ply) = id
        .strip_prefix('g')
        .and_then(|r| r.split_once(" p"))
        .and_then(|(g, p)| Some((g.parse().ok()?, p.parse().ok()?)))
        .ok_or_else(|| anyhow!("id {id:?} is not \"gN pM\""))?;
    Ok(Some(Labelled {
        pos,
        result,
        game,
        ply,
    }))
}

/// Every position of `text`.
///
/// # Errors
///
/// The first line that is not a position, with its number.
pub(super) fn parse_all(text: &str) -> Result<Vec<Labelled>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(l) = parse_line(line).with_context(|| format!("line {}", n + 1))? {
            out.push(l);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn a_line_round_trips() {
        let pos: Chess = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for result in [0.0, 0.5, 1.0] {
            let l = Labelled {
                pos: pos.clone(),
                result,
                game: 17,
                ply: 42,
            };
            let line = line_of(&l);
            let back = parse_line(&line).unwrap().unwrap();
            assert_eq!(back.pos.board(), pos.board());
            assert_eq!(back.pos.turn(), pos.turn());
            assert_eq!((back.result, back.game, back.ply), (result, 17, 42));
            assert_eq!(line_of(&back), line);
        }
        assert!(parse_line("# a comment").unwrap().is_none());
        assert!(parse_line("8/8/8/8/8/8/8/8 w - - c9 \"1-0\"; id \"g1 p1\";").is_err());
        assert!(parse_all("4k3/8/8/8/8/8/8/4K3 w - - c9 \"2-0\"; id \"g1 p1\";").is_err());
    }
}
