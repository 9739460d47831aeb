//! K+Q v K and K+R v K: the engine mates from random starts within the
//! fifty-move rule against a defender that keeps its king central, playing
//! as in a game (the history of positions given, so draw sense applies);
//! each of its moves is one the native reference, given the same history,
//! scores best.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{encode, fen_of, parse_fen};
use chess::ending::position_key;
use chess::reference::best_moves_in_game;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Square};

/// The lone king's defence: never stalemate or get mated when another
/// move avoids it, take the piece when it can, else the move that keeps
/// the king nearest the centre (the first such move in shakmaty's order).
fn defence(pos: &Chess) -> Move {
    let centre = |sq: Square| {
        let d = |x: u32| if x < 4 { 3 - x } else { x - 4 };
        d(sq.file() as u32) + d(sq.rank() as u32)
    };
    let moves = pos.legal_moves();
    if let Some(m) = moves.iter().find(|m| m.is_capture()) {
        return *m;
    }
    *moves.iter().min_by_key(|m| centre(m.to())).expect("a move")
}

/// Adds `pos` to the game's keys (since the last capture or pawn move).
fn note(pos: &Chess, keys: &mut Vec<String>) {
    if pos.halfmoves() == 0 {
        keys.clear();
    }
    keys.push(position_key(&encode(pos).board, pos.turn()));
}

/// Plays from `fen` (the stronger side to move) at `depth`; the number of
/// the engine's moves to mate, or the reason it did not mate in 50.
fn mate_from(fen: &str, plies: u32) -> Result<u32, String> {
    mate_with(fen, plies, None)
}

/// [`mate_from`], the engine with late-move pruning keeping `late`
/// (`None`: off, each move then one of the reference's best).
fn mate_with(fen: &str, plies: u32, late: Option<u32>) -> Result<u32, String> {
    let depth = regex_chess_tests::depth(plies);
    let mut pos = parse_fen(fen).unwrap();
    let mut keys: Vec<String> = Vec::new();
    note(&pos, &mut keys);
    for moves in 1..=50 {
        let now = fen_of(&pos);
        let got = chess::search_variant(&now, &keys, depth, chess::Variant::of_late(late))
            .map_err(|e| e.to_string())?
            .best;
        let (text, _) = got.ok_or_else(|| format!("no move in {now}"))?;
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| format!("illegal {text} in {now}"))?;
        let history: String = keys.iter().map(|k| format!(" {k}")).collect();
        let (best, _) = best_moves_in_game(&pos, depth, &history).unwrap();
        if late.is_none() && !best.contains(&m) {
            return Err(format!("{text} in {now} is not a reference best move"));
        }
        pos.play_unchecked(m);
        note(&pos, &mut keys);
        if pos.is_checkmate() {
            return Ok(moves);
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            return Err(format!("drawn after {text}: {}", fen_of(&pos)));
        }
        let d = defence(&pos);
        pos.play_unchecked(d);
        note(&pos, &mut keys);
    }
    Err(format!("no mate in 50 moves from {fen}: {}", fen_of(&pos)))
}

#[test]
fn king_and_queen_mate_the_lone_king() {
    for fen in [
        "8/8/8/8/3k4/7K/Q7/8 w - - 0 1",
        "8/8/6k1/4K3/8/8/8/5Q2 w - - 0 1",
    ] {
        mate_from(fen, 2).unwrap();
    }
    // And at depths 3 and 4 (capture plies: the lone king may take an
    // undefended queen).
    mate_from("8/Q7/3K4/1k6/8/8/8/8 w - - 0 1", 3).unwrap();
    mate_from("8/8/2k5/8/8/8/1Q6/6K1 w - - 0 1", 4).unwrap();
}

#[test]
fn king_and_rook_mate_the_lone_king() {
    for fen in [
        "8/8/8/4K3/1R6/7k/8/8 w - - 0 1",
        "8/7K/8/2R5/8/8/8/3k4 w - - 0 1",
    ] {
        mate_from(fen, 2).unwrap();
    }
    // And at depths 3 and 4.
    mate_from("8/1K4k1/1R6/8/8/8/8/8 w - - 0 1", 3).unwrap();
    mate_from("8/8/8/3k4/8/8/6R1/K7 w - - 0 1", 4).unwrap();
}

/// Late-move pruning (`lmp:2`, at depth 4, whose second ply it prunes)
/// still mates the lone king with a queen and with a rook.
#[test]
fn late_move_pruning_still_mates_the_lone_king() {
    mate_with("8/8/2k5/8/8/8/1Q6/6K1 w - - 0 1", 4, Some(2)).unwrap();
    mate_with("8/8/8/3k4/8/8/6R1/K7 w - - 0 1", 4, Some(2)).unwrap();
}
