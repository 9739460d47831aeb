//! Whole turns of the regex turn program: the start screen, every kind of
//! bad input, checkmates both ways with the engine on either side,
//! stalemate, promotions; every engine move is checked with shakmaty and
//! against the reference search, every screen is read back.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::START_FEN;
use chess::codec::{decode, parse_fen};
use chess::reference::{best_score, move_score};
use chess::screen::{parse_screen, render_screen, start_screen, Screen, GAME_OVER, PROMPT};
use regex_chess_tests::depth;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

fn position_of(screen: &Screen) -> Chess {
    parse_fen(&decode(&screen.position).unwrap()).unwrap()
}

/// Plays `line` on `state`, then checks the turn with shakmaty: the
/// person's move (if reported) was legal, the engine's move (if reported)
/// was legal and reaches the reference's best 2-ply score, and the new
/// screen shows the resulting position.
fn turn(state: &mut String, line: Option<&str>) -> Screen {
    let before = parse_screen(state).expect("a screen before the turn");
    chess::play_turn(state, line, chess::Depth::FAST).unwrap();
    let after = parse_screen(state).unwrap_or_else(|| panic!("not a screen:\n{state}"));
    assert_eq!(
        render_screen(&after),
        *state,
        "the screen reads back exactly"
    );
    if after.info == before.info {
        assert_eq!(after.position, before.position, "nothing moved");
        return after;
    }
    let mut pos = position_of(&before);
    let mut rest = after.info.as_str();
    if let Some(r) = rest.strip_prefix("You played ") {
        let (mv, r) = r.split_once(' ').unwrap();
        let (san, r) = r.split_once(").").unwrap();
        let m = mv.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let expected = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        assert_eq!(san, format!("({expected}"), "the person's move in SAN");
        rest = r.trim_start();
    }
    if let Some(r) = rest.strip_prefix("The engine played ") {
        let (mv, r) = r.split_once(' ').unwrap();
        let (san, _) = r.split_once("),").unwrap();
        let m = mv
            .parse::<UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("engine move {mv} is illegal: {e}"));
        assert_eq!(
            Some(move_score(&pos, m, chess::Depth::FAST)),
            best_score(&pos, chess::Depth::FAST),
            "engine move {mv} misses the best 2-ply score"
        );
        let expected = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        assert_eq!(san, format!("({expected}"), "the engine's move in SAN");
    }
    assert_eq!(
        decode(&after.position).unwrap(),
        chess::codec::fen_of(&pos),
        "the screen shows the position after the reported moves"
    );
    assert_eq!(
        after.check,
        pos.is_check(),
        "the status line shows the check"
    );
    after
}

fn booted() -> String {
    let mut s = String::new();
    chess::play_turn(&mut s, None, chess::Depth::FAST).unwrap();
    s
}

#[test]
fn empty_state_boots_into_the_start_screen() {
    let s = booted();
    let start = start_screen(START_FEN, Some(Color::Black)).unwrap();
    assert_eq!(s, start);
    assert!(s.ends_with(PROMPT));
}

#[test]
fn bad_input_reshows_the_same_position_with_a_reason() {
    let mut s = booted();
    turn(&mut s, Some("e2e4"));
    let long = "x".repeat(10_000);
    let cases: Vec<(&str, &str)> = vec![
        ("e9e4", "No such square"),
        ("hello", "Not a move"),
        ("", "Type a move"),
        ("   ", "Type a move"),
        ("e2e5", "e2e5 is not a legal move here."),
        ("e7e5", "e7e5 is not a legal move here."),
        (&long, "too long"),
        ("e2%e4", "characters no move has"),
        ("#e2e4", "characters no move has"),
        ("`rm`", "characters no move has"),
        ("é2e4", "characters no move has"),
        ("e2e4\tx", "characters no move has"),
        ("help", "Moves: from and to squares"),
    ];
    for (input, reason) in cases {
        let before = s.clone();
        let after = turn(&mut s, Some(input));
        let keep = |t: &str| t.split('\n').take(13).collect::<Vec<_>>().join("\n");
        assert_eq!(keep(&s), keep(&before), "{input:?} changed the position");
        assert!(
            after.message.contains(reason),
            "{input:?}: {}",
            after.message
        );
        assert_eq!(after.prompt, PROMPT);
    }
    // Surrounding spaces are fine, and the game goes on.
    let after = turn(&mut s, Some("  d2d4 "));
    assert!(
        after.info.starts_with("You played d2d4 (d4)."),
        "{}",
        after.info
    );
}

#[test]
fn two_lines_at_once_are_refused() {
    let mut s = booted();
    let after = turn(&mut s, Some("e2e4\nd2d4"));
    assert!(
        after.message.contains("One move per line"),
        "{}",
        after.message
    );
}

fn game(fen: &str, engine: Color) -> String {
    let mut s = start_screen(fen, Some(engine)).unwrap();
    turn(&mut s, None);
    s
}

#[test]
fn person_mates_the_engine_either_colour() {
    let mut s = game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::Black);
    let end = turn(&mut s, Some("a1a8"));
    assert_eq!(end.message, "Checkmate: you win.");
    assert_eq!(end.prompt, GAME_OVER);
    let mut s = game("1r4k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", Color::White);
    let end = turn(&mut s, Some("b8b1"));
    assert_eq!(end.message, "Checkmate: you win.");
    assert_eq!(end.prompt, GAME_OVER);
}

#[test]
fn engine_mates_the_person_either_colour() {
    // Engine white, to move: it sees the back-rank mate.
    let s = game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::White);
    let end = parse_screen(&s).unwrap();
    assert!(end.info.contains("(Ra8#)"), "{}", end.info);
    assert_eq!(end.message, "Checkmate: the engine wins.");
    assert_eq!(end.prompt, GAME_OVER);
    // Engine black: the person plays on, the engine mates.
    let mut s = game("1r4k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1", Color::Black);
    let end = turn(&mut s, Some("a2a3"));
    assert!(end.info.contains("b8b1 (Rb1#)"), "{}", end.info);
    assert_eq!(end.message, "Checkmate: the engine wins.");
    assert_eq!(end.prompt, GAME_OVER);
}

#[test]
fn stalemate_ends_the_game() {
    let mut s = game("7k/8/4Q3/8/8/8/8/6K1 w - - 0 1", Color::Black);
    let end = turn(&mut s, Some("e6f7"));
    assert_eq!(end.message, "Stalemate: draw.");
    assert_eq!(end.prompt, GAME_OVER);
    // After the end, input changes nothing.
    let before = s.clone();
    chess::play_turn(&mut s, Some("e2e4"), chess::Depth::FAST).unwrap();
    assert!(s.starts_with(&before[..before.len() - GAME_OVER.len()]));
}

#[test]
fn promotions_default_to_a_queen_and_underpromote_on_request() {
    let mut s = game("8/P6k/8/8/8/8/6K1/8 w - - 0 1", Color::Black);
    let after = turn(&mut s, Some("a7a8n"));
    assert!(
        after.position.board.starts_with("/N"),
        "{}",
        after.position.board
    );
    let mut s = game("8/P6k/8/8/8/8/6K1/8 w - - 0 1", Color::Black);
    let after = turn(&mut s, Some("a7a8"));
    assert!(
        after.position.board.starts_with("/Q"),
        "{}",
        after.position.board
    );
    assert!(
        after.info.starts_with("You played a7a8q (a8=Q)."),
        "{}",
        after.info
    );
}

#[test]
fn the_engine_moves_first_when_it_plays_white() {
    let s = game(START_FEN, Color::White);
    let screen = parse_screen(&s).unwrap();
    assert!(
        screen.info.starts_with("The engine played "),
        "{}",
        screen.info
    );
    assert_eq!(screen.position.turn, Color::Black);
}

#[test]
fn a_short_game_keeps_every_rule() {
    // Two players, so the line is fixed: both sides castle short, a bishop
    // takes with check, the rook takes back; every turn is checked by
    // `turn` (the SAN of each move, the position, the check flag).
    let mut s = start_screen(START_FEN, None).unwrap();
    let line = [
        ("e2e4", "e4"),
        ("e7e5", "e5"),
        ("g1f3", "Nf3"),
        ("g8f6", "Nf6"),
        ("f1c4", "Bc4"),
        ("f8c5", "Bc5"),
        ("e1g1", "O-O"),
        ("e8g8", "O-O"),
        ("c4f7", "Bxf7+"),
        ("f8f7", "Rxf7"),
        ("f3e5", "Nxe5"),
    ];
    for (mv, san) in line {
        let after = turn(&mut s, Some(mv));
        assert_eq!(after.info, format!("You played {mv} ({san})."));
        assert_eq!(after.check, san.ends_with('+'), "{mv}: the check flag");
        assert_eq!(after.prompt, PROMPT, "{mv}: the game goes on");
    }
    let pos = position_of(&parse_screen(&s).unwrap());
    let board = pos.board();
    // Both castlings moved king and rook, and took every right away.
    for (square, piece) in [("g1", 'K'), ("f1", 'R'), ("g8", 'k'), ("f7", 'r')] {
        let sq = square.parse::<shakmaty::Square>().unwrap();
        assert_eq!(
            board.piece_at(sq).map(|p| p.char()),
            Some(piece),
            "{square}"
        );
    }
    assert!(pos.castles().castling_rights().is_empty());
    // The three captures are off the board: black's pawns from f7 and e5,
    // white's bishop.
    assert_eq!(board.occupied().count(), 29);
}

#[test]
fn two_players_take_turns_without_the_engine() {
    let mut s = start_screen(START_FEN, None).unwrap();
    for (mv, san) in [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3")] {
        let after = turn(&mut s, Some(mv));
        assert_eq!(after.info, format!("You played {mv} ({san})."));
        assert_eq!(after.engine, None);
    }
    assert_eq!(parse_screen(&s).unwrap().position.turn, Color::Black);
}

#[test]
fn two_players_see_the_checkmate() {
    let mut s = start_screen(START_FEN, None).unwrap();
    let mut last = None;
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        last = Some(turn(&mut s, Some(mv)));
    }
    let end = last.unwrap();
    assert_eq!(end.message, "Checkmate: black wins.");
    assert_eq!(end.prompt, GAME_OVER);
}

#[test]
fn the_score_line_shows_a_mate_in_moves_for_the_side_that_mates() {
    // Depth 3 sees the mate in 2 (Kf7, then Rh1#): score 8998, not 899.8
    // pawns.
    let mut s = start_screen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", Some(Color::White)).unwrap();
    chess::play_turn(&mut s, None, depth(3)).unwrap();
    let info = parse_screen(&s).unwrap().info;
    assert!(
        info.ends_with("(Kf7), score mate in 2 for white."),
        "{info}"
    );
    // A mate on the move.
    let s = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Color::White);
    let info = parse_screen(&s).unwrap().info;
    assert!(
        info.ends_with("(Rd8#), score mate in 1 for white."),
        "{info}"
    );
    // The engine mated whatever it does: the mate is the person's.
    let s = game("7k/8/6K1/8/8/8/8/1Q6 b - - 0 1", Color::Black);
    let info = parse_screen(&s).unwrap().info;
    assert!(
        info.ends_with("(Kg8), score mate in 1 for white."),
        "{info}"
    );
}

/// A hint line before the screen (what `play_turn_within` gives a deeper
/// rung: the move the rung below played) changes nothing the turn writes,
/// whatever move it names: at depths 3 and 4 the answer and the first and
/// last legal moves of the engine's position, besides a move that is not
/// legal there and one that is no move (that the search answers alike
/// for every legal move as the hint is `probe_cut`'s hint test). It
/// does reach the search: a legal move as the hint changes how many
/// rewrites changed the text, against an illegal one (which leaves the
/// hint's run empty, as no hint does).
#[test]
fn a_hint_line_changes_nothing_on_the_screen() {
    let fens = [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    ];
    for fen in fens {
        let start = start_screen(fen, Some(Color::Black)).unwrap();
        let names: Vec<String> = parse_fen(fen)
            .unwrap()
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        for plies in [3, 4] {
            let mut plain = start.clone();
            chess::play_turn(&mut plain, None, depth(plies)).unwrap();
            let answer = chess::turn::engine_move(&parse_screen(&plain).unwrap().info)
                .unwrap()
                .to_string();
            let run = |hint: &str| {
                let mut hinted = format!("Probe:{hint}\n{start}");
                let stats = chess::play_turn(&mut hinted, None, depth(plies)).unwrap();
                assert_eq!(hinted, plain, "{fen} at depth {plies} with the hint {hint}");
                stats.changed
            };
            let unreached = run("a1a1");
            run("h8a1q");
            let hints = [answer, names[0].clone(), names[names.len() - 1].clone()];
            let reached = hints.iter().filter(|h| run(h) != unreached).count();
            assert!(
                reached > 0,
                "{fen} at depth {plies}: no hint reached the search"
            );
        }
    }
}

/// The turn program searches as its variant says: with late-move pruning
/// (`lmp:1` and `lmp:2` at depth 4, whose second ply is probed) its
/// engine plays the move the reply program of the same variant answers,
/// on random games' positions where the rule changes depth 4's move; the
/// turn program without the rule plays the exact search's move there.
#[test]
fn the_turn_program_searches_with_late_move_pruning() {
    let d4 = depth(4);
    let mut changed = 0;
    for fen in crate::search::LATE_CHANGES_DEPTH_FOUR {
        let engine = parse_fen(fen).unwrap().turn();
        let played = |variant: chess::Variant| {
            let mut state = start_screen(fen, Some(engine)).unwrap();
            chess::play_turn_with(&mut state, None, d4, variant).unwrap();
            let info = parse_screen(&state).unwrap().info;
            chess::turn::engine_move(&info).map(str::to_string)
        };
        let exact = chess::search(fen, &[], d4).unwrap().best.map(|b| b.0);
        assert_eq!(played(chess::Variant::default()), exact, "{fen}");
        for late in [1, 2] {
            let variant = chess::Variant::of_late(Some(late));
            let replied = chess::search_variant(fen, &[], d4, variant)
                .unwrap()
                .best
                .map(|b| b.0);
            assert_eq!(played(variant), replied, "{fen} lmp:{late}");
            changed += usize::from(replied != exact);
        }
    }
    assert!(changed >= 1, "lmp changed no move of depth 4");
}
