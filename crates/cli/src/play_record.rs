//! The game record of `play`: the moves played, PGN out and PGN in.
//!
//! The moves are read off the turn program's screens (`You played ...`,
//! `The engine played ...`) and kept in SAN, written by shakmaty. A record
//! writes itself as PGN through `pgn` (the `FEN` tag is shakmaty's
//! normalised FEN, so any reader accepts it), and [`load`] reads the last
//! game of a PGN file back, every move looked up among the regex program's legal moves.
//! [`PgnFile`] is the `--pgn` file: checked before the first move, written
//! whole after every turn (the games of the session after what the file
//! held with `--append`), so a game is never lost to a late error.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chess::codec::{fen_of, parse_fen};
use chess::screen::parse_screen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

use crate::move_text::san_candidates;
use crate::pgn::{self, today};
use crate::textio::quote;

/// The moves of a game, read off its screens.
#[derive(Debug, Clone)]
pub(crate) struct Record {
    start_fen: String,
    pos: Chess,
    moves: Vec<String>,
    white: String,
    black: String,
    /// The side that resigned.
    resigned: Option<Color>,
    /// The result the last screen announced (`*` while the game goes on).
    announced: &'static str,
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
    pub(crate) fn new(fen: &str, engine: Option<Color>) -> Result<Record> {
        let pos = parse_fen(fen).context("the game's start")?;
        let name = |c: Color| match engine {
            Some(e) if e == c => "regex-chess".to_string(),
            Some(_) => "You".to_string(),
            None => format!("Player {}", if c == Color::White { 1 } else { 2 }),
        };
        Ok(Record {
            start_fen: fen_of(&pos),
            pos,
            moves: Vec::new(),
            white: name(Color::White),
            black: name(Color::Black),
            resigned: None,
            announced: "*",
        })
    }

    /// Moves played so far.
    pub(crate) fn len(&self) -> usize {
        self.moves.len()
    }

    /// The current position.
    pub(crate) fn position(&self) -> &Chess {
        &self.pos
    }

    /// The side to move resigns.
    pub(crate) fn resign(&mut self) {
        self.resigned = Some(self.pos.turn());
    }

    /// Notes the moves a turn reports on its screen (`You played ...`,
    /// `The engine played ...`).
    pub(crate) fn note_turn(&mut self, before_info: &str, screen: &str) {
        let Some(after) = parse_screen(screen) else {
            return;
        };
        self.announced = screen_result(&after);
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

    /// Plays a move given in coordinates (ignored if not legal).
    pub(crate) fn play(&mut self, uci: &str) {
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

    /// The result: a resignation's, else the one the screen announced
    /// (`1-0`, `0-1`, `1/2-1/2`), or `*` for a game in progress.
    pub(crate) fn result(&self) -> &'static str {
        match self.resigned {
            Some(Color::White) => "0-1",
            Some(Color::Black) => "1-0",
            None => self.announced,
        }
    }

    /// The moves, numbered (`1. e4 e5 2. Nf3`), on one line.
    pub(crate) fn movetext(&self) -> String {
        self.numbered().join(" ")
    }

    /// The movetext tokens of the moves.
    fn numbered(&self) -> Vec<String> {
        let start = parse_fen(&self.start_fen).ok();
        pgn::numbered(
            start.as_ref(),
            self.moves.iter().map(|m| (m.as_str(), None)),
        )
    }

    /// The game as PGN.
    pub(crate) fn pgn(&self, date: &str) -> String {
        let roster = pgn::Roster {
            event: "regex-chess game",
            site: "terminal",
            date,
            round: "-",
            white: &self.white,
            black: &self.black,
            result: self.result(),
        };
        let setup = [("SetUp", "1"), ("FEN", self.start_fen.as_str())];
        let tags: &[(&str, &str)] = if self.start_fen == crate::START_FEN {
            &[]
        } else {
            &setup
        };
        pgn::game(&roster, tags, &self.numbered())
    }
}

/// A game read back from PGN: where it started and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Loaded {
    /// The start position (the `FEN` tag, or the standard one).
    pub start_fen: String,
    /// The moves in coordinates, each with the FEN after it (the regex
    /// program's).
    pub moves: Vec<(String, String)>,
}

/// The value of the tag `name` in PGN tag lines.
fn tag<'a>(tags: &'a str, name: &str) -> Option<&'a str> {
    tags.lines().find_map(|l| {
        let l = l.trim();
        let rest = l.strip_prefix('[')?.strip_prefix(name)?.trim_start();
        rest.strip_prefix('"')?.rsplit_once('"').map(|(v, _)| v)
    })
}

/// The SAN words of PGN movetext: comments, variations, NAGs, move
/// numbers and the result left out.
fn san_words(movetext: &str) -> Vec<String> {
    let mut plain = String::new();
    let (mut brace, mut paren, mut semi) = (false, 0usize, false);
    for c in movetext.chars() {
        match c {
            '\n' if semi => semi = false,
            _ if semi => {}
            '}' if brace => brace = false,
            _ if brace => {}
            '{' => brace = true,
            ';' if paren == 0 => semi = true,
            '(' => paren += 1,
            ')' if paren > 0 => paren -= 1,
            _ if paren > 0 => {}
            c => plain.push(c),
        }
    }
    plain
        .split_whitespace()
        .map(|w| w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|w| {
            !w.is_empty() && !w.starts_with('$') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w)
        })
        .map(str::to_string)
        .collect()
}

/// Reads the last game of a PGN text, every move looked up among the
/// regex program's legal moves.
///
/// # Errors
///
/// No game, an invalid `FEN` tag, or a move that is not legal.
pub(crate) fn load(text: &str) -> Result<Loaded> {
    let game = text
        .rmatch_indices("[Event ")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text[..i].ends_with('\n'))
        .map_or(text, |i| &text[i..]);
    let tags_end = game
        .lines()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('['))
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(game.len());
    let (tags, movetext) = game.split_at(tags_end);
    let start_fen = match tag(tags, "FEN") {
        Some(fen) => fen_of(&parse_fen(fen).context("the FEN tag")?),
        None => crate::START_FEN.to_string(),
    };
    let mut fen = start_fen.clone();
    let mut moves = Vec::new();
    for (i, word) in san_words(movetext).iter().enumerate() {
        let found = san_candidates(&fen, word)
            .with_context(|| format!("move {} {}", i + 1, quote(word)))?
            .unwrap_or_default();
        let [one] = found.as_slice() else {
            bail!(
                "move {} {} is {} in {fen}",
                i + 1,
                quote(word),
                if found.is_empty() {
                    "not a legal move"
                } else {
                    "ambiguous"
                }
            );
        };
        moves.push((one.uci.clone(), one.after.clone()));
        fen = one.after.clone();
    }
    Ok(Loaded { start_fen, moves })
}

/// The `--pgn` file of a session.
#[derive(Debug)]
pub(crate) struct PgnFile {
    path: PathBuf,
    /// What the file held before (with `--append`), ending in a blank line.
    before: String,
    /// The games finished earlier in the session.
    finished: Vec<String>,
}

/// The directory `path` is in (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

impl PgnFile {
    /// Checks that `path` can take the session's games: a new file in a
    /// directory that can be written, or with `append` an existing text
    /// file; never a directory or a device.
    ///
    /// # Errors
    ///
    /// The reason, naming the file.
    pub(crate) fn open(path: &Path, append: bool) -> Result<PgnFile> {
        let shown = quote(&path.to_string_lossy());
        let before = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => bail!("--pgn {shown} is a directory"),
            Ok(m) if !m.is_file() => bail!("--pgn {shown} is not a regular file"),
            Ok(_) if !append => bail!(
                "--pgn {shown} already exists; add --append to add the game to it, \
                 or choose another file"
            ),
            Ok(_) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading --pgn {shown}"))?;
                let text = text.trim_end();
                if text.is_empty() {
                    String::new()
                } else {
                    format!("{text}\n\n")
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("--pgn {shown}")),
        };
        // The directory must take the temporary file each save writes
        // first: a missing or read-only one is refused now, not after the
        // first move.
        tempfile::NamedTempFile::new_in(dir_of(path))
            .with_context(|| format!("cannot write --pgn {shown}"))?;
        Ok(PgnFile {
            path: path.to_path_buf(),
            before,
            finished: Vec::new(),
        })
    }

    /// The file's name.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the file: what it held, the finished games, then `current`.
    /// The text goes to a temporary file beside it first, so a failed
    /// write leaves the old content.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub(crate) fn write(&self, current: &Record) -> Result<()> {
        let mut text = self.before.clone();
        for game in &self.finished {
            text.push_str(game);
            text.push('\n');
        }
        text.push_str(&current.pgn(&today()));
        let shown = quote(&self.path.to_string_lossy());
        let mut tmp = tempfile::NamedTempFile::new_in(dir_of(&self.path))
            .with_context(|| format!("cannot write --pgn {shown}"))?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())
            .with_context(|| format!("writing --pgn {shown}"))?;
        tmp.persist(&self.path)
            .with_context(|| format!("writing --pgn {shown}"))?;
        Ok(())
    }

    /// Keeps `game` (with moves) before the next one of the session.
    pub(crate) fn finish(&mut self, game: &Record) {
        if game.len() > 0 {
            self.finished.push(game.pgn(&today()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        chess::play_turn(&mut screen, None, chess::Depth::FAST).unwrap();
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

    #[test]
    fn fen_tag_is_normalised() {
        let r = Record::new("  4k3/8/8/8/8/8/8/4K2R   b K - 0 7 ", None).unwrap();
        let pgn = r.pgn("2026.11.29");
        assert!(
            pgn.contains("[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 7\"]"),
            "{pgn}"
        );
        let r = Record::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", None).unwrap();
        assert!(!r.pgn("x").contains("FEN"));
    }

    #[test]
    fn resignation_decides_the_result() {
        let mut r = Record::new(crate::START_FEN, Some(Color::Black)).unwrap();
        r.play("e2e4");
        // Black, to move, resigns.
        r.resign();
        assert_eq!(r.result(), "1-0");
        assert!(r.pgn("x").ends_with("1. e4 1-0\n"));
    }

    #[test]
    fn open_refuses_a_directory_it_cannot_write_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/dir/x.pgn");
        let err = PgnFile::open(&missing, false)
            .err()
            .map(|e| format!("{e:#}"));
        assert!(
            err.as_deref()
                .is_some_and(|e| e.starts_with("cannot write --pgn")),
            "{err:?}"
        );
        // A new file in a directory that exists is taken, and nothing is
        // left there until the first save.
        let new = dir.path().join("new.pgn");
        assert!(PgnFile::open(&new, false).is_ok());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn load_reads_the_last_game_back() {
        let text = "[Event \"a\"]\n\n1. d4 *\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n\
                    1. O-O {castles} Kd7 (1... Ke7) 2. Rd1+ $1 *\n";
        let game = load(text).unwrap();
        assert_eq!(game.start_fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let ucis: Vec<&str> = game.moves.iter().map(|(u, _)| u.as_str()).collect();
        assert_eq!(ucis, ["e1g1", "e8d7", "f1d1"]);
        let err = load("1. e4 e5 2. Ke3 *").unwrap_err();
        assert!(
            format!("{err:#}").contains("move 3 \"Ke3\" is not a legal move"),
            "{err:#}"
        );
    }
}
