//! Writing PGN: one game as the PGN standard's export format, for `play`'s
//! `--pgn` file (`play_record`) and `match`'s (`arena`).
//!
//! It owns the text and nothing else: the Seven Tag Roster first, in the
//! standard's order, then the caller's other tags, a blank line, and the
//! movetext: move numbers (`1.`, and `1...` for a Black move that opens the
//! movetext or follows a comment), the SAN moves and `{comments}` the
//! caller gives, the result last, in lines of at most 79 characters. Tag
//! values lose the characters that would need escaping (`"` and `\` become
//! `'`, line breaks spaces) and comments their braces, so no value can end
//! its tag or comment early. It must not decide what a game's moves,
//! result or tags are (the callers know), nor read PGN (`play_record::load`
//! does).

use shakmaty::{Chess, Color, Position};

/// The longest movetext line, as the standard's export format has it.
const LINE: usize = 79;

/// The seven tags every game starts with, in the standard's order.
pub(crate) struct Roster<'a> {
    /// The event.
    pub event: &'a str,
    /// Where it was played.
    pub site: &'a str,
    /// The date, `YYYY.MM.DD` (see [`today`]).
    pub date: &'a str,
    /// The round.
    pub round: &'a str,
    /// White's player.
    pub white: &'a str,
    /// Black's player.
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`; also the movetext's last token.
    pub result: &'a str,
}

/// The movetext tokens of `moves` (each a SAN and a comment after it),
/// numbered from `start` (the standard position when `None`): `1.` before
/// each White move, `N...` before a Black move that comes first or after
/// a comment.
pub(crate) fn numbered<'m>(
    start: Option<&Chess>,
    moves: impl IntoIterator<Item = (&'m str, Option<&'m str>)>,
) -> Vec<String> {
    // Wide enough for the last move of a FEN whose move number is
    // u32::MAX.
    let mut number = start.map_or(1, |p| u64::from(p.fullmoves().get()));
    let mut white_to_move = start.is_none_or(|p| p.turn() == Color::White);
    let mut after_comment = true;
    let mut tokens = Vec::new();
    for (san, note) in moves {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_string());
        after_comment = note.is_some();
        if let Some(note) = note {
            tokens.push(comment(note));
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens
}

/// A `{comment}` token: `text` with its braces made `'`.
pub(crate) fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace(['{', '}'], "'"))
}

/// The game: the roster, then `tags`, a blank line, then `movetext` (see
/// [`numbered`]) and the result wrapped at 79 columns. Ends with one
/// newline (a file puts a blank line between games).
pub(crate) fn game(roster: &Roster, tags: &[(&str, &str)], movetext: &[String]) -> String {
    let clean = |s: &str| s.replace(['"', '\\'], "'").replace(['\r', '\n'], " ");
    let seven = [
        ("Event", roster.event),
        ("Site", roster.site),
        ("Date", roster.date),
        ("Round", roster.round),
        ("White", roster.white),
        ("Black", roster.black),
        ("Result", roster.result),
    ];
    let mut out = String::new();
    for (name, value) in seven.iter().chain(tags) {
        out.push_str(&format!("[{name} \"{}\"]\n", clean(value)));
    }
    out.push('\n');
    let mut line = String::new();
    for token in movetext.iter().map(String::as_str).chain([roster.result]) {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Today's date (UTC) as PGN writes it (`2026.11.29`), from the system clock.
pub(crate) fn today() -> String {
    let date = time::OffsetDateTime::now_utc().date();
    format!(
        "{:04}.{:02}.{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster<'a>(result: &'a str) -> Roster<'a> {
        Roster {
            event: "Test",
            site: "Here",
            date: "2026.12.02",
            round: "1",
            white: "A",
            black: "B",
            result,
        }
    }

    /// The fool's mate, as the standard's export format spells it: the
    /// seven tags in order, a blank line, the numbered moves and the result.
    #[test]
    fn a_short_game_is_written_as_the_standard_says() {
        let moves = numbered(None, ["f3", "e5", "g4", "Qh4#"].map(|san| (san, None)));
        assert_eq!(
            game(&roster("0-1"), &[], &moves),
            "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2026.12.02\"]\n[Round \"1\"]\n\
             [White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
        );
    }

    /// Black's move is numbered `N...` at the start and after a comment;
    /// the other tags follow the roster; a tag value cannot end its tag.
    #[test]
    fn comments_renumber_black_and_values_are_cleaned() {
        let start: Chess = shakmaty::fen::Fen::from_ascii(b"4k3/8/8/8/8/8/8/4K2R b K - 0 7")
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let moves = numbered(
            Some(&start),
            [("Kd7", None), ("O-O", Some("cas{t}les")), ("Ke7", None)],
        );
        let mut roster = roster("*");
        roster.white = "say \"hi\"\\\n";
        let text = game(&roster, &[("SetUp", "1")], &moves);
        assert!(
            text.contains(
                "[White \"say 'hi'' \"]\n[Black \"B\"]\n[Result \"*\"]\n[SetUp \"1\"]\n\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("\n7... Kd7 8. O-O {cas't'les} 8... Ke7 *\n"),
            "{text}"
        );
    }

    /// Movetext lines stop at 79 characters: ten knight shuffles break
    /// after `8.` (79 characters), the rest on the next line; after seven
    /// (76 characters) a result that would make the line 80 goes on the
    /// next.
    #[test]
    fn long_movetext_is_wrapped_at_79_columns() {
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        let moves = numbered(
            None,
            shuffle.iter().cycle().take(20).map(|&san| (san, None)),
        );
        let text = game(&roster("1/2-1/2"), &[], &moves);
        let first =
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8.";
        assert_eq!(first.len(), 79);
        assert!(
            text.ends_with(&format!(
                "\n\n{first}\nNg1 Ng8 9. Nf3 Nf6 10. Ng1 Ng8 1/2-1/2\n"
            )),
            "{text}"
        );
        let moves = numbered(
            None,
            shuffle.iter().cycle().take(14).map(|&san| (san, None)),
        );
        let text = game(&roster("1-0"), &[], &moves);
        assert!(
            text.ends_with(&format!("\n\n{}\n1-0\n", &first[..76])),
            "{text}"
        );
    }

    /// The move after move number 4294967295 (the largest a FEN holds) is
    /// 4294967296.
    #[test]
    fn move_numbers_go_past_the_largest_a_fen_holds() {
        let start: Chess =
            shakmaty::fen::Fen::from_ascii(b"4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295")
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
        let moves = numbered(Some(&start), ["Kd2", "Kd7", "Kc3"].map(|san| (san, None)));
        assert_eq!(moves.join(" "), "4294967295. Kd2 Kd7 4294967296. Kc3");
    }
}
