//! The person's move text, made into what the regex turn program reads.
//!
//! The turn program reads coordinates (`e2e4`, `e7e8q`). This module
//! accepts what people type: coordinates in any case, with a dash, an `x`
//! or a space between the squares and `=` before a promotion piece;
//! castling as `O-O`, `0-0` or `o-o`; standard algebraic notation (SAN),
//! with a pawn promotion without a piece meaning a queen. A SAN move is
//! looked up among the regex program's own legal moves of the position
//! (`chess::legal_moves`), each compared with shakmaty's SAN matching; a
//! SAN move that matches none is "not legal", one that matches several is
//! ambiguous and the candidates are named. Anything else is handed on as
//! typed, so the verdict on a move is always the regex program's.

use chess::codec::parse_fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Rank, Role};

/// What to do with a line the person typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Hand this line to the turn program.
    Send(String),
    /// Say this to the person; the turn program never sees the line.
    Say(String),
}

/// Coordinates typed leniently (`E2-E4`, `e2 e4`, `e7e8=Q`), lowercased
/// and joined; `None` if the line is not coordinates.
pub(crate) fn coordinates(line: &str) -> Option<String> {
    let text: String = line
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '=' | 'x' | ':'))
        .collect();
    let b = text.as_bytes();
    let square = |i: usize| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]);
    let ok = (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4]))) && square(0) && square(2);
    ok.then_some(text)
}

/// Castling typed as `0-0`, `o-o`, `O-O` (or the long forms), as SAN.
fn castling(text: &str) -> Option<&'static str> {
    match text.to_ascii_uppercase().replace('0', "O").as_str() {
        "O-O" | "OO" => Some("O-O"),
        "O-O-O" | "OOO" => Some("O-O-O"),
        _ => None,
    }
}

/// The SAN readings of a line: as typed, then with the piece letter
/// capitalised (`nf3`), then with the squares lowercased too (`KE7`), then
/// all lowercase (`E4`); each with a bare promotion made a queen.
fn san_readings(text: &str) -> Vec<San> {
    let mut texts = vec![text.to_string()];
    if let Some(first) = text.chars().next().filter(|c| "nbrqkNBRQK".contains(*c)) {
        let rest = &text[first.len_utf8()..];
        texts.push(format!("{}{rest}", first.to_ascii_uppercase()));
        texts.push(format!(
            "{}{}",
            first.to_ascii_uppercase(),
            rest.to_ascii_lowercase()
        ));
    }
    texts.push(text.to_ascii_lowercase());
    texts.dedup();
    texts
        .iter()
        .filter_map(|t| t.parse::<San>().ok())
        .map(|san| match san {
            San::Normal {
                role: Role::Pawn,
                file,
                rank,
                capture,
                to,
                promotion: None,
            } if to.rank() == Rank::First || to.rank() == Rank::Eighth => San::Normal {
                role: Role::Pawn,
                file,
                rank,
                capture,
                to,
                promotion: Some(Role::Queen),
            },
            san => san,
        })
        .collect()
}

/// A legal move a SAN text may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Its coordinates.
    pub uci: String,
    /// The FEN after it (the regex program's).
    pub after: String,
    /// Its SAN.
    pub san: String,
}

/// The regex program's legal moves of `fen` that the SAN `text` names, or
/// `None` if `text` is not SAN at all.
///
/// # Errors
///
/// The regex program failed on the position.
pub(crate) fn san_candidates(
    fen: &str,
    text: &str,
) -> Result<Option<Vec<Candidate>>, chess::Error> {
    let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let text = castling(text).unwrap_or(text);
    let readings = san_readings(text);
    if readings.is_empty() {
        return Ok(None);
    }
    let pos = parse_fen(fen)?;
    let legal: Vec<(String, String, Move)> = chess::legal_moves(fen)?
        .into_iter()
        .filter_map(|(uci, after)| {
            let m = uci.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
            Some((uci, after, m))
        })
        .collect();
    for san in &readings {
        let found: Vec<Candidate> = legal
            .iter()
            .filter(|(_, _, m)| san.matches(*m))
            .map(|(uci, after, m)| Candidate {
                uci: uci.clone(),
                after: after.clone(),
                san: San::from_move(&pos, *m).to_string(),
            })
            .collect();
        if !found.is_empty() {
            return Ok(Some(found));
        }
    }
    Ok(Some(Vec::new()))
}

/// Reads a line typed in the position `fen` (the side to move is the
/// person's).
///
/// # Errors
///
/// The regex program failed on the position.
pub(crate) fn read_move(fen: &str, line: &str) -> Result<Reading, chess::Error> {
    if let Some(uci) = coordinates(line) {
        return Ok(Reading::Send(uci));
    }
    let typed = line.trim();
    match san_candidates(fen, typed)? {
        None => Ok(Reading::Send(line.to_string())),
        Some(found) => Ok(match found.as_slice() {
            [one] => Reading::Send(one.uci.clone()),
            [] => Reading::Say(format!("{typed} is not a legal move here.")),
            many => {
                let names: Vec<&str> = many.iter().map(|c| c.san.as_str()).collect();
                Reading::Say(format!(
                    "{typed} is ambiguous: {}. Say which piece, like {}.",
                    names.join(", "),
                    names[0]
                ))
            }
        }),
    }
}

/// The SAN of a move given in coordinates, in the position `pos`.
pub(crate) fn san_of(pos: &Chess, uci: &str) -> Option<String> {
    let m = uci.parse::<UciMove>().ok()?.to_move(pos).ok()?;
    Some(San::from_move(pos, m).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = crate::START_FEN;

    fn send(fen: &str, line: &str) -> String {
        match read_move(fen, line).unwrap() {
            Reading::Send(s) => s,
            Reading::Say(s) => panic!("{line}: {s}"),
        }
    }

    #[test]
    fn coordinates_in_any_form() {
        for line in ["e2e4", "E2E4", "e2-e4", "e2 e4", " E2-e4 ", "e2xe4"] {
            assert_eq!(coordinates(line).as_deref(), Some("e2e4"), "{line}");
        }
        assert_eq!(coordinates("e7e8=Q").as_deref(), Some("e7e8q"));
        assert_eq!(coordinates("e7-e8q").as_deref(), Some("e7e8q"));
        for line in ["e2e9", "e2", "hello", "Nf3", "e7e8k", "bxc3"] {
            assert_eq!(coordinates(line), None, "{line}");
        }
    }

    #[test]
    fn san_castling_and_promotion_become_coordinates() {
        assert_eq!(send(START, "Nf3"), "g1f3");
        assert_eq!(send(START, "nf3"), "g1f3");
        assert_eq!(send(START, "NF3"), "g1f3");
        assert_eq!(send(START, "E4"), "e2e4");
        assert_eq!(send(START, "e4"), "e2e4");
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (line, uci) in [
            ("O-O", "e1g1"),
            ("0-0", "e1g1"),
            ("o-o", "e1g1"),
            ("0-0-0", "e1c1"),
            ("o-o-o", "e1c1"),
            ("O-O-O+", "e1c1"),
        ] {
            assert_eq!(send(castle, line), uci, "{line}");
        }
        let promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(send(promo, "a8=N"), "a7a8n");
        assert_eq!(send(promo, "a8"), "a7a8q");
        let capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(send(capture, "exd5"), "e4d5");
        // Not SAN: handed on for the regex program to refuse.
        assert_eq!(send(START, "hello"), "hello");
    }

    #[test]
    fn illegal_and_ambiguous_san_are_said() {
        let kings = "8/8/8/6k1/8/8/8/K6Q b - - 0 1";
        assert_eq!(
            read_move(kings, "Kh5").unwrap(),
            Reading::Say("Kh5 is not a legal move here.".into())
        );
        let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(
            read_move(knights, "Nd2").unwrap(),
            Reading::Say("Nd2 is ambiguous: Nbd2, Nfd2. Say which piece, like Nbd2.".into())
        );
        assert_eq!(send(knights, "Nfd2"), "f3d2");
    }
}
