//! The per-ply checks of `fuzz`: at one position of a random game, what
//! the regex programs say (moves and the FEN after each, the turn
//! program's verdicts and screen, the engine's reply) against shakmaty and
//! `chess::reference`, as an [`Outcome`] that counts what was compared and
//! holds at most one [`Finding`]. [`check`] is the one place a check kind
//! is dispatched: to add a kind, write its `check_<kind>(ply, settings) ->
//! Outcome` here, call it from `check`, and add the kind to
//! `Kind::CHECKED`. This module keeps no campaign state and writes
//! nothing: the games, the counters and the reports belong to `fuzz` and
//! `fuzz::findings`.

use std::collections::{BTreeMap, HashMap};

use anyhow::Result;
use chess::codec::fen_of;
use chess::games::Rng;
use chess::reference::{best_moves, best_score, move_score};
use chess::screen::{parse_screen, render_screen, start_screen, GAME_OVER, PROMPT};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::{Fault, Kind, Settings};

/// A position's identity for repetition: shakmaty's Zobrist hash, the en
/// passant square counted only when a capture there is legal.
pub(super) fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The game's end shakmaty and the fuzzer's count see in `pos`, reached by
/// a move (`count`: its occurrences, for repetition; `None` before any
/// move): the message the turn program must show, or `None` to play on.
fn expected_end(pos: &Chess, count: Option<u32>) -> Option<(&'static str, Option<usize>)> {
    if pos.legal_moves().is_empty() {
        return Some(match (pos.is_check(), pos.turn()) {
            (true, shakmaty::Color::White) => ("Checkmate: black wins.", None),
            (true, shakmaty::Color::Black) => ("Checkmate: white wins.", None),
            (false, _) => ("Stalemate: draw.", None),
        });
    }
    if pos.is_insufficient_material() {
        return Some(("Draw by insufficient material.", Some(2)));
    }
    if pos.halfmoves() >= 100 {
        return Some(("Draw by the fifty-move rule.", Some(1)));
    }
    if count.is_some_and(|n| n >= 3) {
        return Some(("Draw by threefold repetition.", Some(0)));
    }
    None
}

/// One position of a game, as every per-ply check sees it.
pub(super) struct Ply<'a> {
    /// Plies played before it in its game.
    pub(super) index: u32,
    pub(super) pos: &'a Chess,
    pub(super) fen: &'a str,
    /// shakmaty's legal moves.
    pub(super) legal: &'a [Move],
    /// The game's history line (after `Positions:`) at this position.
    pub(super) history: &'a str,
    /// Occurrences of each position (Zobrist hash, en passant counted when
    /// legal) since the last capture or pawn move, this one included.
    pub(super) seen: &'a HashMap<u64, u32>,
}

/// What a check did at one position.
#[derive(Default)]
pub(super) struct Outcome {
    pub(super) moves_compared: u64,
    pub(super) replies_checked: u64,
    pub(super) verdicts_checked: u64,
    pub(super) screens_checked: u64,
    pub(super) draws_checked: [u64; 3],
    pub(super) found: Option<Finding>,
}

/// What a check found wrong at one position.
pub(super) struct Finding {
    /// The move concerned, if any.
    pub(super) mv: Option<String>,
    /// What the regex program said.
    pub(super) regex: String,
    /// What shakmaty or the reference search said.
    pub(super) reference: String,
    /// Further detail, one line each.
    pub(super) notes: Vec<String>,
}

/// Runs one kind of check on one position.
///
/// # Errors
///
/// For a kind whose check is not written yet (never dispatched: only kinds
/// in [`Kind::CHECKED`] are).
pub(super) fn check(kind: Kind, ply: &Ply, s: &Settings) -> Result<Outcome> {
    Ok(match kind {
        Kind::Movegen => check_movegen(ply, s.fault),
        Kind::Reply => {
            // `checked_rem` is `None` for 0: the check is off.
            if ply.index.checked_rem(s.reply_every) == Some(0) {
                check_reply(ply, s.fault, s.depth)
            } else {
                Outcome::default()
            }
        }
        Kind::Verdict => {
            if ply.index.checked_rem(s.verdict_every) == Some(0) {
                check_verdict(ply, s)
            } else {
                Outcome::default()
            }
        }
        Kind::Screen => check_screen(ply),
    })
}

/// Kind 2: the turn program (in a two-player game, so that no engine
/// reply follows) accepts each legal move tried, showing exactly the
/// position shakmaty reaches, and refuses each illegal well-formed move,
/// showing the same position with its message.
fn check_verdict(ply: &Ply, s: &Settings) -> Outcome {
    let mut rng = Rng::new(s.seed ^ (u64::from(ply.index) << 32) ^ ply.fen.len() as u64 ^ 0x5eed);
    let mut legal: Vec<String> = ply
        .legal
        .iter()
        .map(|m| UciMove::from_move(*m, CastlingMode::Standard).to_string())
        .collect();
    while legal.len() > s.verdict_moves {
        legal.swap_remove(rng.below(legal.len()));
    }
    // Illegal but well-formed: random squares, and a legal move with the
    // wrong promotion letter.
    let mut illegal = Vec::new();
    let all: Vec<String> = ply
        .legal
        .iter()
        .map(|m| UciMove::from_move(*m, CastlingMode::Standard).to_string())
        .collect();
    let square = |rng: &mut Rng| {
        format!(
            "{}{}",
            (b'a' + rng.below(8) as u8) as char,
            (b'1' + rng.below(8) as u8) as char
        )
    };
    for _ in 0..20 {
        if illegal.len() >= 3 {
            break;
        }
        let mv = format!("{}{}", square(&mut rng), square(&mut rng));
        if !all.iter().any(|m| m == &mv || m.starts_with(&mv)) && !illegal.contains(&mv) {
            illegal.push(mv);
        }
    }
    let mut outcome = Outcome::default();
    let finding = |mv: Option<&String>, regex: String, reference: String, state: &str| Finding {
        mv: mv.cloned(),
        regex,
        reference,
        notes: vec![format!("screen after the turn:\n{state}")],
    };
    // The position's screen in this game: its history line is the game's.
    let Some(mut screen) = start_screen(ply.fen, None)
        .ok()
        .and_then(|t| parse_screen(&t))
        .map(|mut sc| {
            sc.history = ply.history.to_string();
            render_screen(&sc)
        })
    else {
        outcome.found = Some(finding(
            None,
            "no screen".into(),
            "a screen for every legal position".into(),
            "",
        ));
        return outcome;
    };
    // The first pass (nothing typed) announces a finished position at once.
    outcome.verdicts_checked += 1;
    if let Err(e) = chess::play_turn(&mut screen, None, chess::Depth::FAST) {
        outcome.found = Some(finding(
            None,
            format!("error: {}", crate::textio::chain(&e)),
            "a screen".into(),
            "",
        ));
        return outcome;
    }
    let now = expected_end(ply.pos, None);
    if let Some((_, Some(k))) = now {
        outcome.draws_checked[k] += 1;
    }
    let ending = |end: Option<(&'static str, Option<usize>)>| {
        end.map_or(("", PROMPT), |(message, _)| (message, GAME_OVER))
    };
    let shows = |state: &str, (message, prompt): (&str, &str)| {
        parse_screen(state).is_some_and(|sc| sc.message == message && sc.prompt == prompt)
    };
    if !shows(&screen, ending(now)) {
        let (message, prompt) = ending(now);
        outcome.found = Some(finding(
            None,
            "a different message or prompt at once".into(),
            format!("{message:?} then {prompt:?}"),
            &screen,
        ));
        return outcome;
    }
    if now.is_some() {
        return outcome;
    }
    let tries = legal
        .iter()
        .map(|m| (m, true))
        .chain(illegal.iter().map(|m| (m, false)));
    for (i, (mv, is_legal)) in tries.enumerate() {
        outcome.verdicts_checked += 1;
        let mut state = screen.clone();
        if let Err(e) = chess::play_turn(&mut state, Some(mv), chess::Depth::FAST) {
            outcome.found = Some(finding(
                Some(mv),
                format!("error: {}", crate::textio::chain(&e)),
                if is_legal { "legal" } else { "illegal" }.into(),
                "",
            ));
            return outcome;
        }
        let shown = parse_screen(&state);
        let accepted = shown
            .as_ref()
            .is_some_and(|sc| sc.info.starts_with(&format!("You played {mv} (")));
        let accepted = accepted != (i == 0 && s.fault == Some(Fault::WrongVerdict));
        let mut after = ply.pos.clone();
        let mut end = None;
        if let Some(m) = ply
            .legal
            .iter()
            .find(|m| UciMove::from_move(**m, CastlingMode::Standard).to_string() == *mv)
        {
            after.play_unchecked(*m);
            let count = if m.is_zeroing() {
                1
            } else {
                ply.seen.get(&hash(&after)).copied().unwrap_or(0) + 1
            };
            end = expected_end(&after, Some(count));
        }
        let expected_fen = if is_legal {
            fen_of(&after)
        } else {
            ply.fen.to_string()
        };
        let shown_fen = shown
            .as_ref()
            .and_then(|sc| chess::codec::decode(&sc.position).ok())
            .unwrap_or_else(|| "no screen".into());
        let (message, prompt) = if is_legal {
            if let Some((_, Some(k))) = end {
                outcome.draws_checked[k] += 1;
            }
            let (m, p) = ending(end);
            (m.to_string(), p)
        } else {
            (format!("{mv} is not a legal move here."), PROMPT)
        };
        let ok = accepted == is_legal
            && shown_fen == expected_fen
            && shows(&state, (message.as_str(), prompt));
        if !ok {
            outcome.found = Some(finding(
                Some(mv),
                format!(
                    "{}, showing {shown_fen}",
                    if accepted { "accepted" } else { "refused" }
                ),
                format!(
                    "{}, position {expected_fen}, {message:?} then {prompt:?}",
                    if is_legal { "legal" } else { "illegal" }
                ),
                &state,
            ));
            return outcome;
        }
    }
    outcome
}

/// Kind 4: the turn program renders the position (a pass with no input on
/// a two-player screen) and reading the board back gives the same position.
fn check_screen(ply: &Ply) -> Outcome {
    let mut outcome = Outcome {
        screens_checked: 1,
        ..Outcome::default()
    };
    let finding = |regex: String| Finding {
        mv: None,
        regex,
        reference: ply.fen.to_string(),
        notes: Vec::new(),
    };
    let mut state = match start_screen(ply.fen, None) {
        Ok(s) => s,
        Err(e) => {
            outcome.found = Some(finding(format!("no screen: {}", crate::textio::chain(&e))));
            return outcome;
        }
    };
    if let Err(e) = chess::play_turn(&mut state, None, chess::Depth::FAST) {
        outcome.found = Some(finding(format!("error: {}", crate::textio::chain(&e))));
        return outcome;
    }
    let shown = parse_screen(&state).and_then(|sc| chess::codec::decode(&sc.position).ok());
    if shown.as_deref() != Some(ply.fen) {
        outcome.found = Some(finding(format!(
            "the screen reads back as {}",
            shown.unwrap_or_else(|| format!("nothing:\n{state}"))
        )));
    }
    outcome
}

/// Kind 1: the regex program's (move, FEN after) list equals shakmaty's.
fn check_movegen(ply: &Ply, fault: Option<Fault>) -> Outcome {
    let reference = reference_moves(ply.pos, ply.legal);
    let mut outcome = Outcome {
        moves_compared: reference.len() as u64,
        ..Outcome::default()
    };
    let mut regex = match chess::legal_moves(ply.fen) {
        Ok(moves) => moves,
        Err(e) => {
            outcome.found = Some(Finding {
                mv: None,
                regex: format!("error: {}", crate::textio::chain(&e)),
                reference: format!("{} moves", reference.len()),
                notes: Vec::new(),
            });
            return outcome;
        }
    };
    if fault == Some(Fault::DropMove) && !regex.is_empty() {
        regex.remove(0);
    }
    outcome.found = diff_moves(&regex, &reference);
    outcome
}

/// shakmaty's (move, FEN after) pairs.
fn reference_moves(pos: &Chess, legal: &[Move]) -> Vec<(String, String)> {
    legal
        .iter()
        .map(|m| {
            let uci = UciMove::from_move(*m, CastlingMode::Standard).to_string();
            let mut after = pos.clone();
            after.play_unchecked(*m);
            (uci, fen_of(&after))
        })
        .collect()
}

/// Every difference between two (move, FEN after) lists, `None` if they hold
/// the same pairs (a move listed twice is a difference).
fn diff_moves(regex: &[(String, String)], reference: &[(String, String)]) -> Option<Finding> {
    let mut by_move: BTreeMap<&str, (Vec<&str>, Vec<&str>)> = BTreeMap::new();
    for (m, fen) in regex {
        by_move.entry(m).or_default().0.push(fen);
    }
    for (m, fen) in reference {
        by_move.entry(m).or_default().1.push(fen);
    }
    let (mut missing, mut extra, mut wrong) = (0, 0, 0);
    let mut first = None;
    let mut notes = Vec::new();
    for (m, (ours, theirs)) in &by_move {
        let mut ours = ours.clone();
        let mut theirs = theirs.clone();
        ours.sort_unstable();
        theirs.sort_unstable();
        if ours == theirs {
            continue;
        }
        first.get_or_insert_with(|| m.to_string());
        if ours.is_empty() {
            missing += 1;
            notes.push(format!("missing {m}: shakmaty gives {}", theirs.join(", ")));
        } else if theirs.is_empty() {
            extra += 1;
            notes.push(format!(
                "extra {m}: regex program gives {}",
                ours.join(", ")
            ));
        } else {
            wrong += 1;
            notes.push(format!(
                "wrong FEN after {m}: regex program gives {}; shakmaty gives {}",
                ours.join(", "),
                theirs.join(", ")
            ));
        }
    }
    let mv = first?;
    Some(Finding {
        mv: Some(mv),
        regex: format!(
            "{} moves ({missing} missing, {extra} extra, {wrong} with a wrong FEN)",
            regex.len()
        ),
        reference: format!("{} moves", reference.len()),
        notes,
    })
}

/// Kind 3: the reply program at `depth` plays a legal move reaching the
/// reference's best score at that depth and claims that score; no legal
/// move, no reply.
fn check_reply(ply: &Ply, fault: Option<Fault>, depth: chess::Depth) -> Outcome {
    let found = reply_finding(ply, fault, depth);
    Outcome {
        replies_checked: 1,
        found,
        ..Outcome::default()
    }
}

fn reply_finding(ply: &Ply, fault: Option<Fault>, depth: chess::Depth) -> Option<Finding> {
    let searched = chess::search(ply.fen, &[], depth);
    // A search that outgrew its state cap answered shallower: the
    // reference searches as deep as the regex program did.
    let depth = searched.as_ref().map_or(depth, |s| s.depth);
    let best = best_score(ply.pos, depth);
    let finding = |mv: Option<String>, regex: String| Finding {
        mv,
        regex,
        reference: describe_best(ply.pos, depth),
        notes: Vec::new(),
    };
    let got = match searched {
        Ok(searched) => searched.best,
        Err(e) => {
            return Some(finding(
                None,
                format!("error: {}", crate::textio::chain(&e)),
            ))
        }
    };
    let got = got.map(|(uci, score)| match fault {
        Some(Fault::WrongScore) => (uci, score + 1),
        _ => (uci, score),
    });
    let (uci, score) = match (got, best) {
        (None, None) => return None,
        (None, Some(_)) => return Some(finding(None, "no move".into())),
        (Some((uci, score)), None) => {
            return Some(finding(
                Some(uci.clone()),
                format!("{uci} claiming {score}"),
            ))
        }
        (Some((uci, score)), Some(_)) => (uci, score),
    };
    let best = best.unwrap_or_default();
    let legal = uci
        .parse::<UciMove>()
        .map_err(|e| format!("not UCI: {e}"))
        .and_then(|u| u.to_move(ply.pos).map_err(|e| format!("illegal: {e}")));
    let m = match legal {
        Ok(m) => m,
        Err(why) => {
            return Some(finding(
                Some(uci.clone()),
                format!("{uci} claiming {score}, {why}"),
            ))
        }
    };
    let reached = move_score(ply.pos, m, depth);
    if reached == best && score == best {
        return None;
    }
    Some(finding(
        Some(uci.clone()),
        format!("{uci} claiming {score}; that move reaches {reached}"),
    ))
}

/// The reference's best score and the moves reaching it.
fn describe_best(pos: &Chess, depth: chess::Depth) -> String {
    match best_moves(pos, depth) {
        None => "no legal move".into(),
        Some((moves, score)) => {
            let moves: Vec<String> = moves
                .into_iter()
                .map(|m| UciMove::from_move(m, CastlingMode::Standard).to_string())
                .collect();
            format!("best score {score}, reached by {}", moves.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use chess::codec::parse_fen;

    use super::*;

    #[test]
    fn diff_names_missing_extra_and_wrong() {
        let pair = |m: &str, f: &str| (m.to_string(), f.to_string());
        let reference = vec![pair("a2a3", "x"), pair("b2b3", "y")];
        assert!(diff_moves(&reference, &reference).is_none());
        let regex = vec![pair("b2b3", "z"), pair("c2c3", "w")];
        let f = diff_moves(&regex, &reference).unwrap();
        assert_eq!(f.mv.as_deref(), Some("a2a3"));
        assert_eq!(f.notes.len(), 3);
        assert!(f.notes[0].starts_with("missing a2a3"));
        assert!(f.notes[1].starts_with("wrong FEN after b2b3"));
        assert!(f.notes[2].starts_with("extra c2c3"));
        let doubled = vec![pair("a2a3", "x"), pair("a2a3", "x"), pair("b2b3", "y")];
        assert!(diff_moves(&doubled, &reference).is_some());
    }

    /// In a finished game every move is refused with the result (found by
    /// a 1,000-game campaign, game 58 of seed 2026).
    #[test]
    fn verdicts_in_finished_games_expect_the_result() {
        let settings = Settings {
            seed: 1,
            max_plies: 10,
            reply_every: 0,
            depth: chess::Depth::FAST,
            verdict_every: 1,
            verdict_moves: 8,
            fault: None,
            out: PathBuf::from("unused"),
            starts: Vec::new(),
        };
        for fen in [
            "4k3/P2p1pB1/2b1p2n/1rq5/r1pKP2P/P1P2PP1/8/2RN4 w - - 1 47",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ] {
            let pos = parse_fen(fen).unwrap();
            let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
            assert!(legal.is_empty());
            let encoded = chess::codec::encode(&pos);
            let history = chess::ending::start_history(&encoded.board, encoded.turn);
            let seen = HashMap::from([(hash(&pos), 1)]);
            let ply = Ply {
                index: 0,
                pos: &pos,
                fen,
                legal: &legal,
                history: &history,
                seen: &seen,
            };
            let outcome = check_verdict(&ply, &settings);
            assert!(outcome.verdicts_checked > 0, "{fen}");
            assert!(outcome.found.is_none(), "{fen}");
        }
    }

    #[test]
    fn verdicts_see_the_third_occurrence_the_fuzzer_counted() {
        let settings = Settings {
            seed: 1,
            max_plies: 10,
            reply_every: 0,
            verdict_every: 1,
            verdict_moves: 100,
            fault: None,
            out: PathBuf::from("unused"),
            starts: Vec::new(),
            depth: chess::Depth::FAST,
        };
        let fen = "8/8/3k4/8/8/8/8/R3K3 w - - 10 60";
        let pos = parse_fen(fen).unwrap();
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let mut after = pos.clone();
        let rook_up = legal
            .iter()
            .find(|m| UciMove::from_move(**m, CastlingMode::Standard).to_string() == "a1a2")
            .unwrap();
        after.play_unchecked(*rook_up);
        // The position after Ra2 was seen twice: the screen's history
        // carries it twice, and the fuzzer's count says so.
        let key = |p: &Chess| {
            let e = chess::codec::encode(p);
            chess::ending::position_key(&e.board, e.turn)
        };
        let history = format!(" {} {} {}", key(&pos), key(&after), key(&after));
        let seen = HashMap::from([(hash(&pos), 1), (hash(&after), 2)]);
        let ply = Ply {
            index: 0,
            pos: &pos,
            fen,
            legal: &legal,
            history: &history,
            seen: &seen,
        };
        let outcome = check_verdict(&ply, &settings);
        assert!(
            outcome.found.is_none(),
            "{:?}",
            outcome.found.map(|f| f.regex)
        );
        assert_eq!(outcome.draws_checked[0], 1);
    }
}
