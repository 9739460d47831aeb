//! The game record of `play`: SAN input and PGN output.
//!
//! The regex turn program speaks coordinates (`e2e4`). This module lets the
//! person type standard algebraic notation too: a SAN line is matched
//! against the regex program's own list of legal moves (`chess::legal_moves`
//! on the position the screen shows), each written in SAN by shakmaty, and
//! replaced by that move's coordinates; anything else is passed on as
//! typed, so legality is always the regex program's verdict. It also keeps
//! the moves played (read off the screens) and writes them as PGN.

use anyhow::{Context, Result};
use chess::codec::{decode, parse_fen};
use chess::screen::parse_screen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

/// The coordinates of a SAN line in the position `fen`, if the line is SAN
/// for one of the regex program's legal moves.
pub fn san_to_uci(fen: &str, line: &str) -> Option<String> {
    let text = line.trim().trim_end_matches(['+', '#', '!', '?']);
    let wanted: San = text.parse().ok()?;
    let pos = parse_fen(fen).ok()?;
    let legal = chess::legal_moves(fen).ok()?;
    legal.into_iter().map(|(uci, _)| uci).find(|uci| {
        uci.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .is_some_and(|m| San::from_move(&pos, m) == wanted)
    })
}

/// The line to hand to the turn program: coordinates stay, SAN becomes
/// coordinates, anything else stays for the program to refuse.
pub fn normalize(screen: &str, line: &str) -> String {
    let looks_like_coordinates = {
        let b = line.trim().as_bytes();
        (b.len() == 4 || b.len() == 5)
            && b[0].is_ascii_lowercase()
            && b[1].is_ascii_digit()
            && b[2].is_ascii_lowercase()
            && b[3].is_ascii_digit()
    };
    if looks_like_coordinates {
        return line.to_string();
    }
    let Some(fen) = parse_screen(screen).and_then(|s| decode(&s.position).ok()) else {
        return line.to_string();
    };
    san_to_uci(&fen, line).unwrap_or_else(|| line.to_string())
}

/// The moves of a game, read off its screens.
pub struct Record {
    start_fen: String,
    pos: Chess,
    moves: Vec<String>,
    white: String,
    black: String,
    result: &'static str,
}

/// The result a screen announces (the regex program's verdict): a draw, or
/// a mate won by the side not to move; `*` while the game goes on.
fn screen_result(screen: &chess::screen::Screen) -> &'static str {
    if screen.prompt != chess::screen::GAME_OVER {
        return "*";
    }
    if screen.message.starts_with("Checkmate") {
        match screen.position.turn {
            Color::White => "0-1",
            Color::Black => "1-0",
        }
    } else {
        "1/2-1/2"
    }
}

impl Record {
    /// A record starting at `fen`, the engine playing `engine`.
    ///
    /// # Errors
    ///
    /// An invalid FEN.
    pub fn new(fen: &str, engine: Option<Color>) -> Result<Record> {
        let name = |c: Color| match engine {
            Some(e) if e == c => "regex-chess".to_string(),
            Some(_) => "You".to_string(),
            None => format!("Player {}", if c == Color::White { 1 } else { 2 }),
        };
        Ok(Record {
            start_fen: fen.to_string(),
            pos: parse_fen(fen).context("the game's start")?,
            moves: Vec::new(),
            white: name(Color::White),
            black: name(Color::Black),
            result: "*",
        })
    }

    /// Notes the moves a turn reports on its screen (`You played ...`,
    /// `The engine played ...`).
    pub fn note_turn(&mut self, before_info: &str, screen: &str) {
        let Some(after) = parse_screen(screen) else {
            return;
        };
        self.result = screen_result(&after);
        if after.info == before_info {
            return;
        }
        for prefix in ["You played ", "The engine played "] {
            if let Some(i) = after.info.find(prefix) {
                let r = &after.info[i + prefix.len()..];
                let end = r.find(['.', ' ']).unwrap_or(r.len());
                self.play(&r[..end]);
            }
        }
    }

    fn play(&mut self, uci: &str) {
        let Some(m) = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&self.pos).ok())
        else {
            return;
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, m);
        self.moves.push(san.to_string());
    }

    /// The result the screen announced: `1-0`, `0-1`, `1/2-1/2`, or `*`
    /// for a game in progress.
    pub fn result(&self) -> &'static str {
        self.result
    }

    /// The game as PGN.
    pub fn pgn(&self, date: &str) -> String {
        let mut out = String::new();
        let standard = self.start_fen == crate::START_FEN;
        let tags = [
            ("Event", "regex-chess game".to_string()),
            ("Site", "terminal".to_string()),
            ("Date", date.to_string()),
            ("Round", "-".to_string()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result().to_string()),
        ];
        for (k, v) in tags {
            out.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        if !standard {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", self.start_fen));
        }
        out.push('\n');
        let start = parse_fen(&self.start_fen).ok();
        let mut number = start.as_ref().map_or(1, |p| u64::from(p.fullmoves().get()));
        let mut white_to_move = start.as_ref().is_none_or(|p| p.turn() == Color::White);
        let mut line = String::new();
        for (i, san) in self.moves.iter().enumerate() {
            if white_to_move {
                line.push_str(&format!("{number}. "));
            } else if i == 0 {
                line.push_str(&format!("{number}... "));
            }
            line.push_str(san);
            line.push(' ');
            if !white_to_move {
                number += 1;
            }
            white_to_move = !white_to_move;
        }
        line.push_str(self.result());
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// Today's date as PGN writes it (`2026.11.29`), from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_lines_become_the_regex_programs_coordinates() {
        let start = crate::START_FEN;
        assert_eq!(san_to_uci(start, "Nf3").as_deref(), Some("g1f3"));
        assert_eq!(san_to_uci(start, "e4").as_deref(), Some("e2e4"));
        assert_eq!(san_to_uci(start, "Ke2"), None);
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san_to_uci(castle, "O-O").as_deref(), Some("e1g1"));
        assert_eq!(san_to_uci(castle, "O-O-O+").as_deref(), Some("e1c1"));
        let promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_to_uci(promo, "a8=N").as_deref(), Some("a7a8n"));
        let capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(san_to_uci(capture, "exd5").as_deref(), Some("e4d5"));
    }

    #[test]
    fn pgn_has_tags_moves_and_result() {
        let mut r = Record::new(crate::START_FEN, Some(Color::Black)).unwrap();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            r.play(uci);
        }
        // The result is the screen's: the regex program announces the mate.
        let mut screen = chess::screen::start_screen(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            Some(Color::Black),
        )
        .unwrap();
        chess::play_turn(&mut screen, None).unwrap();
        r.note_turn("", &screen);
        let pgn = r.pgn("2026.11.29");
        assert!(
            pgn.contains("[White \"You\"]\n[Black \"regex-chess\"]\n[Result \"0-1\"]"),
            "{pgn}"
        );
        assert!(pgn.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n"), "{pgn}");
        assert!(!pgn.contains("FEN"));
        let mut r = Record::new("4k3/8/8/8/8/8/8/4K2R b K - 0 7", None).unwrap();
        r.play("e8d7");
        let pgn = r.pgn("2026.11.29");
        assert!(
            pgn.contains("[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 7\"]"),
            "{pgn}"
        );
        assert!(pgn.ends_with("7... Kd7 *\n"), "{pgn}");
        assert_eq!(today().len(), 10);
    }
}
