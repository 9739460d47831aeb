//! The mate guard (`chess::search::guard`): a root move after which the
//! opponent mates by checks alone within `GUARD_MOVES` moves scores no
//! more than that mate. The native test (`reference::mates_by_checks`)
//! on known positions, then the regex search against the reference on
//! positions where the guard decides the move.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{fen_of, parse_fen};
use chess::reference::{mates_by_checks, move_score_unguarded};
use chess::search::guard::GUARD_MOVES;
use chess::Depth;
use regex_chess_tests::positions::{random_game, regex_reply_matches_reference, Rng};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

/// Two positions from games lost on a 60 s + 0.6 s clock
/// (`docs/strength.md`), each with the move the engine played there: a
/// move after which the opponent mates with two checks.
const LOST: [(&str, &str); 2] = [
    (
        "2R2b1r/pp1nkp1p/6p1/3n4/3Nq3/4Bp2/P2Q2PP/4R1K1 b - - 6 23",
        "e4g4",
    ),
    (
        "1rb2rk1/ppppqppp/2nb1n2/6N1/2PPNP2/1P1Q2P1/P3P1BP/1RB2RK1 b - - 2 13",
        "b8a8",
    ),
];

fn play(pos: &Chess, uci: &str) -> (Move, Chess) {
    let m = uci.parse::<UciMove>().unwrap().to_move(pos).unwrap();
    let mut after = pos.clone();
    after.play_unchecked(m);
    (m, after)
}

#[test]
fn mates_by_checks_finds_mates_made_of_checks_only() {
    // Ra8# at once.
    let back_rank = parse_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    assert!(mates_by_checks(&back_rank, 1));
    // No check mates at once after ...Qg4, but two checks do.
    let (_, after) = play(&parse_fen(LOST[0].0).unwrap(), LOST[0].1);
    assert!(!mates_by_checks(&after, 1));
    assert!(mates_by_checks(&after, 2));
    // A mate in two that is not made of checks (Stockfish: mated in 2
    // after c2c4, another lost game's move) is not one the guard sees.
    let quiet_first = parse_fen("8/k4r2/8/8/8/8/2P2N1p/K7 w - - 0 63").unwrap();
    let (_, after) = play(&quiet_first, "c2c4");
    assert!(!mates_by_checks(&after, 2));
    // A stalemate is not a mate.
    let stalemate = parse_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    let (_, after) = play(&stalemate, "f1f7");
    assert!(after.is_stalemate());
    assert!(!mates_by_checks(&after, GUARD_MOVES));
}

/// The regex search at `depth` chooses as the guarded reference does, and
/// not the lost game's move, which the guard refutes (one search checked
/// both ways).
fn guard_decides(fen: &str, played: &str, depth: Depth) {
    let answer = regex_reply_matches_reference(fen, depth).unwrap();
    let pos = parse_fen(fen).unwrap();
    let (_, after) = play(&pos, played);
    assert!(mates_by_checks(&after, GUARD_MOVES), "{fen}: {played}");
    let (uci, _) = answer.unwrap();
    let (_, answered) = play(&pos, &uci);
    assert!(
        !mates_by_checks(&answered, GUARD_MOVES),
        "{fen} (depth {depth}): {uci} walks into a mate by checks"
    );
}

#[test]
fn depth_five_avoids_the_mates_by_checks_it_walked_into() {
    for (fen, played) in LOST {
        guard_decides(fen, played, Depth::DEFAULT);
    }
}

/// Generated: positions from random games where every move the search
/// would choose without the guard lets the opponent mate by checks, and
/// some other move does not; depth 3 (which has the guard too) matches
/// the reference and plays none of those moves.
#[test]
fn depth_three_avoids_mates_by_checks_when_it_can() {
    let depth = Depth::new(3).unwrap();
    let mut found = 0;
    for seed in 0..50_000u64 {
        if found >= 6 {
            break;
        }
        let mut rng = Rng::new(seed);
        let plies = 10 + rng.below(60);
        let pos = random_game(&Chess::default(), &mut rng, plies);
        let refutes = |m: &Move| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            mates_by_checks(&after, GUARD_MOVES)
        };
        let moves = pos.legal_moves();
        if moves.iter().all(&refutes) || !moves.iter().any(&refutes) {
            continue;
        }
        let scored: Vec<(Move, u32)> = moves
            .iter()
            .map(|m| (*m, move_score_unguarded(&pos, *m, depth)))
            .collect();
        let best = scored.iter().map(|(_, s)| *s).max().unwrap();
        let chosen: Vec<&Move> = scored
            .iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m)
            .collect();
        if !chosen.iter().all(|m| refutes(m)) {
            continue;
        }
        found += 1;
        let played = chosen[0].to_uci(shakmaty::CastlingMode::Standard);
        guard_decides(&fen_of(&pos), &played.to_string(), depth);
    }
    assert!(found >= 6, "only {found} positions found");
}
