//! Draw sense: with the game's history, a root move into a position the
//! game has already seen scores as a draw. Ahead, the engine plays another
//! move; behind, it takes the repetition. The regex reply (given the history
//! as a `Positions:` line), the turn program (the history on its screen) and
//! the native reference agree.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{encode, fen_of, parse_fen};
use chess::ending::position_key;
use chess::reference::{best_moves_in_game, move_score_in_game};
use chess::screen::{parse_screen, render_screen, start_screen};
use chess::EVEN;
use regex_chess_tests::depth;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

fn key(p: &Chess) -> String {
    position_key(&encode(p).board, p.turn())
}

fn play(p: &Chess, m: Move) -> Chess {
    let mut next = p.clone();
    next.play_unchecked(m);
    next
}

/// The move from `m`'s destination back to its origin, if legal in `p`.
fn back(p: &Chess, m: Move) -> Option<Move> {
    let (Some(from), to) = (m.from(), m.to()) else {
        return None;
    };
    p.legal_moves()
        .into_iter()
        .find(|b| b.from() == Some(to) && b.to() == from && !b.is_capture())
}

/// A game from `start` that plays `first`, an answer, takes both back and
/// so comes back to `start`: its keys, newest first (the history line's
/// order, `start` twice).
fn cycle(start: &Chess, first: Move) -> Option<Vec<String>> {
    let p1 = play(start, first);
    for answer in p1.legal_moves() {
        if answer.is_capture() || answer.role() == shakmaty::Role::Pawn {
            continue;
        }
        let p2 = play(&p1, answer);
        let Some(undo) = back(&p2, first) else {
            continue;
        };
        let p3 = play(&p2, undo);
        let Some(undo_answer) = back(&p3, answer) else {
            continue;
        };
        let p4 = play(&p3, undo_answer);
        if key(&p4) == key(start) {
            return Some(vec![key(&p4), key(&p3), key(&p2), key(&p1), key(start)]);
        }
    }
    None
}

fn history_line(keys: &[String]) -> String {
    keys.iter().map(|k| format!(" {k}")).collect()
}

/// The position `fen`, its move `mv`, and a game's history holding the
/// position after that move and the start: so `mv` repeats.
fn repeating(fen: &str, mv: &str) -> (Chess, Move, Vec<String>) {
    let start = parse_fen(fen).unwrap();
    let m = uci(&start, mv);
    let keys = vec![key(&play(&start, m)), key(&start)];
    (start, m, keys)
}

fn uci(p: &Chess, text: &str) -> Move {
    text.parse::<UciMove>().unwrap().to_move(p).unwrap()
}

/// The regex reply at `depth` with `keys` as the history; checked against
/// the reference in the same game.
fn reply_in_game(p: &Chess, keys: &[String], plies: u32) -> (Move, u32) {
    let depth = regex_chess_tests::depth(plies);
    let fen = fen_of(p);
    let got = chess::search(&fen, keys, depth).unwrap().best;
    let (text, score) = got.expect("a move");
    let m = uci(p, &text);
    let history = history_line(keys);
    let (best, best_score) = best_moves_in_game(p, depth, &history).unwrap();
    assert_eq!(
        score, best_score,
        "{fen} depth {depth}: the reference's score"
    );
    assert_eq!(move_score_in_game(p, m, depth, &history), best_score);
    assert!(
        best.contains(&m),
        "{fen} depth {depth}: {text} is a best move"
    );
    (m, score)
}

#[test]
fn ahead_the_engine_avoids_the_move_that_repeats() {
    let start = parse_fen("3k4/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
    for depth in [2, 3, 4, 5] {
        // Without a history it plays `first`; a game that already went
        // `first`, an answer, both taken back, makes `first` a draw.
        let (first, score) = reply_in_game(&start, &[], depth);
        assert!(score > EVEN + 50, "queen up: {score}");
        let keys = cycle(&start, first).expect("a reversible answer");
        let (other, score) = reply_in_game(&start, &keys, depth);
        assert_ne!(other, first, "depth {depth}: the repeating move again");
        assert!(score > EVEN, "depth {depth}: still winning, {score}");
        assert!(!keys.contains(&key(&play(&start, other))));
    }
}

#[test]
fn behind_the_engine_takes_the_repetition() {
    let start = parse_fen("3k4/8/8/8/8/8/8/Q3K3 b - - 0 1").unwrap();
    for depth in [2, 3, 4, 5] {
        let (usual, score) = reply_in_game(&start, &[], depth);
        assert!(score < EVEN, "queen down: {score}");
        // A repetition through a move it would not play otherwise.
        let (first, keys) = start
            .legal_moves()
            .into_iter()
            .filter(|m| *m != usual)
            .find_map(|m| cycle(&start, m).map(|keys| (m, keys)))
            .expect("a cycle");
        let (taken, score) = reply_in_game(&start, &keys, depth);
        assert_eq!(taken, first, "depth {depth}");
        assert_eq!(score, EVEN, "depth {depth}: a draw");
    }
}

#[test]
fn the_turn_program_reads_the_history_on_its_screen() {
    let fen = "3k4/8/8/8/8/8/8/Q3K3 w - - 0 1";
    let start = parse_fen(fen).unwrap();
    let (first, _) = reply_in_game(&start, &[], 2);
    let keys = cycle(&start, first).expect("a reversible answer");
    let mut screen = parse_screen(&start_screen(fen, Some(Color::White)).unwrap()).unwrap();
    screen.history = history_line(&keys);
    let mut state = render_screen(&screen);
    chess::play_turn(&mut state, None, chess::Depth::FAST).unwrap();
    let after = parse_screen(&state).unwrap();
    let played = after
        .info
        .strip_prefix("The engine played ")
        .and_then(|r| r.split_once(' '))
        .map(|(m, _)| uci(&start, m))
        .unwrap_or_else(|| panic!("{}", after.info));
    assert_ne!(played, first, "{}", after.info);
    let (best, _) = best_moves_in_game(&start, depth(2), &history_line(&keys)).unwrap();
    assert!(best.contains(&played), "{}", after.info);
    // And without the history it is the repeating move.
    let mut state = start_screen(fen, Some(Color::White)).unwrap();
    chess::play_turn(&mut state, None, chess::Depth::FAST).unwrap();
    let info = parse_screen(&state).unwrap().info;
    let text = first.to_uci(shakmaty::CastlingMode::Standard).to_string();
    assert!(
        info.starts_with(&format!("The engine played {text} ")),
        "{info}"
    );
}

#[test]
fn a_malformed_history_key_is_an_error() {
    let err = chess::search(
        "3k4/8/8/8/8/8/8/Q3K3 w - - 0 1",
        &["w#".to_string()],
        depth(2),
    )
    .unwrap_err();
    assert!(err.to_string().contains("not a position key"), "{err}");
}

#[test]
fn a_repetition_that_allows_mate_is_not_a_draw() {
    // Black's lone king: Kd6 repeats a position of the game, but after it
    // White mates at once (Qd8#), so it is no draw; nor is Kd4 (Qc4#).
    let (start, into_mate, keys) = repeating("6Q1/8/5K2/2k5/8/2R5/8/8 b - - 14 93", "c5d6");
    for depth in [2, 3, 4, 5] {
        let (m, score) = reply_in_game(&start, &keys, depth);
        let after = play(&start, m);
        assert!(
            !after
                .legal_moves()
                .into_iter()
                .any(|r| play(&after, r).is_checkmate()),
            "depth {depth}: {m:?} allows mate"
        );
        assert!(score < EVEN, "depth {depth}: still lost, {score}");
        // The reference scores the repetition as the mate it allows.
        let history = history_line(&keys);
        let repeat =
            move_score_in_game(&start, into_mate, regex_chess_tests::depth(depth), &history);
        assert_eq!(
            chess::vocabulary::mate_in(repeat),
            Some(-1),
            "depth {depth}"
        );
    }
}

#[test]
fn a_repeating_probe_is_a_draw_before_it_cuts_the_others() {
    // A knight up, White can take the queen with check, Nxc7+. Here the
    // history holds the position after it (no game can: a capture
    // starts a new history, but the search reads any keys it is given),
    // so that move is a draw. At depths 4 and 5 it is what the root
    // searches first (its probe); scored as the queen it wins instead of
    // the draw, it would cut every other move.
    let (start, take, keys) = repeating("4k3/2q2ppp/8/1N6/8/8/5PPP/3Q2K1 w - - 0 1", "b5c7");
    for depth in [2, 3, 4, 5] {
        let (m, score) = reply_in_game(&start, &keys, depth);
        assert_ne!(m, take, "depth {depth}: the repeating capture");
        assert!(score > EVEN, "depth {depth}: still a knight up, {score}");
    }
}
