//! One game of a match as it is played and as PGN: its moves, each with
//! the note its comment gives (as cutechess-cli writes them: `book`, the
//! opponent's time, our engine's score, depth and time), how it ended,
//! and the text `pgn` writes of it.
//!
//! It owns the notes' wording and the game's tags; it must not play or
//! judge a move (the game loop in `arena` does, with `adjudicate`).

use std::time::Duration;

use chess::vocabulary::mate_in;
use shakmaty::Color;

use super::adjudicate::{AllowedMate, Ending};
use super::openings::{start_position, Opening};
use super::time_control::TimeControl;
use crate::pgn;
use crate::uci::centipawns;

/// One game, as it is played.
pub(super) struct Game {
    pub(super) round: u32,
    pub(super) ours: Color,
    pub(super) opening: Opening,
    /// Every move as played.
    pub(super) moves: Vec<Played>,
    pub(super) ending: Option<Ending>,
    /// Why the game stopped early, when it did.
    pub(super) abandoned: Option<String>,
}

/// One move of a game.
pub(super) struct Played {
    pub(super) san: String,
    /// What its comment says first: `book` for an opening's move, the
    /// time an opponent's move took, our engine's score, depth and time
    /// (see [`engine_note`]).
    pub(super) note: String,
    /// The mate-in-one our move allowed when another move avoided it.
    pub(super) allowed: Option<AllowedMate>,
}

/// The comment after one of our engine's moves, as cutechess-cli writes
/// its engines' moves: the score from our side in pawns (`+0.35`; `+M3`
/// for a mate we give with our 3rd move, `-M2` for one we take on the
/// opponent's 2nd), a slash, the depth that answered, and the move's time
/// in seconds: `+0.35/5 0.812s`.
pub(super) fn engine_note(score: u32, plies: u32, took: Duration) -> String {
    let score = match mate_in(score) {
        Some(n) if n > 0 => format!("+M{n}"),
        Some(n) => format!("-M{}", n.unsigned_abs()),
        None => {
            let centipawns = centipawns(score);
            let sign = if centipawns < 0 { '-' } else { '+' };
            let abs = centipawns.unsigned_abs();
            format!("{sign}{}.{:02}", abs / 100, abs % 100)
        }
    };
    format!("{score}/{plies} {}", seconds(took))
}

/// A move's time as the PGN comments give it: seconds, three decimals.
pub(super) fn seconds(took: Duration) -> String {
    format!("{}.{:03}s", took.as_secs(), took.subsec_millis())
}

/// A game as PGN: the seven-tag roster, the start position when it is not
/// the standard one, the opening, how it ended, and the moves, each with
/// its note (see [`Played::note`]) and the mate-in-one it allowed, and a
/// comment on the ending (`pgn` writes it). Ends with a blank line.
pub(super) fn game_pgn(
    game: &Game,
    engine: &str,
    opponent: &str,
    date: &str,
    tc: Option<TimeControl>,
) -> String {
    let (white, black) = if game.ours == Color::White {
        (engine, opponent)
    } else {
        (opponent, engine)
    };
    let round = game.round.to_string();
    let roster = pgn::Roster {
        event: "regex-chess match",
        site: "?",
        date,
        round: &round,
        white,
        black,
        result: game.ending.map_or("*", Ending::result),
    };
    let tc = tc.map(|tc| tc.to_string());
    let plies = game.moves.len().to_string();
    let mut tags: Vec<(&str, &str)> = Vec::new();
    if let Some(fen) = &game.opening.fen {
        tags.extend([("SetUp", "1"), ("FEN", fen.as_str())]);
    }
    tags.push(("Opening", &game.opening.name));
    if let Some(tc) = &tc {
        tags.push(("TimeControl", tc));
    }
    tags.push((
        "Termination",
        match (game.ending, &game.abandoned) {
            (Some(Ending::PlyCap), _) => "adjudication",
            (Some(Ending::Time { .. }), _) => "time forfeit",
            (Some(_), _) => "normal",
            (None, _) => "abandoned",
        },
    ));
    tags.push(("PlyCount", &plies));
    let start = start_position(game.opening.fen.as_deref()).ok();
    let notes: Vec<String> = game
        .moves
        .iter()
        .map(|played| match &played.allowed {
            Some(a) => format!(
                "{}; allows mate in one: {}; {} avoided it",
                played.note, a.mate, a.avoidable_by
            ),
            None => played.note.clone(),
        })
        .collect();
    let mut movetext = pgn::numbered(
        start.as_ref(),
        game.moves
            .iter()
            .zip(&notes)
            .map(|(played, note)| (played.san.as_str(), Some(note.as_str()))),
    );
    match (&game.ending, &game.abandoned) {
        (Some(ending), _) => movetext.push(pgn::comment(&ending.to_string())),
        (None, Some(why)) => {
            let why: String = why.chars().take(300).collect();
            movetext.push(pgn::comment(&format!("abandoned: {why}")));
        }
        (None, None) => {}
    }
    let mut text = pgn::game(&roster, &tags, &movetext);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::vocabulary::{mate_at, mated_at};
    use chess::EVEN;

    #[test]
    fn pgn_of_a_game_from_a_fen() {
        let game = Game {
            round: 3,
            ours: Color::Black,
            opening: Opening {
                name: "test".into(),
                fen: Some("4k3/8/8/8/8/8/8/4K2R b K - 0 7".into()),
                moves: Vec::new(),
            },
            moves: vec![
                Played {
                    san: "Kd7".into(),
                    note: engine_note(EVEN + 12, 5, Duration::from_millis(812)),
                    allowed: None,
                },
                Played {
                    san: "Rh8+".into(),
                    note: seconds(Duration::from_millis(51)),
                    allowed: None,
                },
            ],
            ending: Some(Ending::PlyCap),
            abandoned: None,
        };
        let text = game_pgn(&game, "us", "them", "2026.11.30", None);
        assert!(text.contains("[Round \"3\"]\n[White \"them\"]\n[Black \"us\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 7\"]"), "{text}");
        assert!(text.contains("[Termination \"adjudication\"]"), "{text}");
        assert!(
            text.ends_with("\n7... Kd7 {+1.20/5 0.812s} 8. Rh8+ {0.051s} {ply cap} 1/2-1/2\n\n"),
            "{text}"
        );
    }

    #[test]
    fn our_moves_note_score_depth_and_time_as_cutechess_does() {
        let ms = Duration::from_millis;
        assert_eq!(engine_note(EVEN, 3, ms(5)), "+0.00/3 0.005s");
        assert_eq!(engine_note(EVEN - 3, 6, ms(1234)), "-0.30/6 1.234s");
        assert_eq!(engine_note(EVEN + 150, 5, ms(60_000)), "+15.00/5 60.000s");
        assert_eq!(engine_note(mate_at(3), 5, ms(7)), "+M2/5 0.007s");
        assert_eq!(engine_note(mated_at(2), 5, ms(7)), "-M1/5 0.007s");
    }
}
