//! The arbiter of `match`: when a game ends and why, and whether our move
//! was a blunder into mate.
//!
//! Everything here is shakmaty's judgement on a position: checkmate,
//! stalemate, insufficient material, repetitions (counted by
//! [`Repetitions`], since shakmaty keeps no history), the fifty-move rule and
//! the match's ply cap, in that order (a fallen flag, the clocks' verdict,
//! is one more [`Ending`]); and [`allowed_mate`], which asks
//! whether a move left the opponent a mate-in-one that another legal move
//! avoided. It plays no games and knows no engine.

use std::collections::HashMap;
use std::fmt;

use shakmaty::fen::Epd;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// The side to move is checkmated; the other side wins.
    Checkmate {
        winner: Color,
    },
    Stalemate,
    InsufficientMaterial,
    FivefoldRepetition,
    ThreefoldRepetition,
    FiftyMoveRule,
    /// The game reached the ply cap: adjudicated a draw.
    PlyCap,
    /// The other side's clock fell (`match --tc`): `winner` wins.
    Time {
        winner: Color,
    },
}

impl Ending {
    /// The side that won, `None` for a draw.
    pub(super) fn winner(self) -> Option<Color> {
        match self {
            Ending::Checkmate { winner } | Ending::Time { winner } => Some(winner),
            _ => None,
        }
    }

    /// The PGN result.
    pub(super) fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Checkmate { .. } => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::FivefoldRepetition => "fivefold repetition",
            Ending::ThreefoldRepetition => "threefold repetition",
            Ending::FiftyMoveRule => "fifty-move rule",
            Ending::PlyCap => "ply cap",
            Ending::Time { .. } => "loss on time",
        })
    }
}

/// How often each position occurred in a game: board, side to move,
/// castling rights and a capturable en passant square, as the repetition
/// rule counts them.
#[derive(Default)]
pub(super) struct Repetitions(HashMap<String, u32>);

impl Repetitions {
    /// Counts `pos` once more and returns how often it has occurred.
    pub(super) fn add(&mut self, pos: &Chess) -> u32 {
        let key = Epd::from_position(pos, EnPassantMode::Legal).to_string();
        let count = self.0.entry(key).or_insert(0);
        *count += 1;
        *count
    }
}

/// The verdict on `pos`, which has occurred `occurrences` times, after
/// `plies` plies of the game: `None` while the game goes on. Mate and
/// stalemate come first (they end the game whatever the clocks say).
pub(super) fn adjudicate(
    pos: &Chess,
    occurrences: u32,
    plies: u32,
    max_plies: u32,
) -> Option<Ending> {
    if pos.is_checkmate() {
        return Some(Ending::Checkmate {
            winner: !pos.turn(),
        });
    }
    if pos.is_stalemate() {
        return Some(Ending::Stalemate);
    }
    if pos.is_insufficient_material() {
        return Some(Ending::InsufficientMaterial);
    }
    if occurrences >= 5 {
        return Some(Ending::FivefoldRepetition);
    }
    if occurrences >= 3 {
        return Some(Ending::ThreefoldRepetition);
    }
    if pos.halfmoves() >= 100 {
        return Some(Ending::FiftyMoveRule);
    }
    (plies >= max_plies).then_some(Ending::PlyCap)
}

/// A move of the side to move in `pos` that checkmates, if there is one.
fn mate_in_one(pos: &Chess) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| {
        let mut after = pos.clone();
        after.play_unchecked(*m);
        after.is_checkmate()
    })
}

/// A mate-in-one allowed by a move that had an alternative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AllowedMate {
    /// The opponent's mating reply (SAN).
    pub mate: String,
    /// A move of ours that would have left no mate-in-one (SAN).
    pub avoidable_by: String,
}

/// Whether playing `played` in `pos` allowed a mate-in-one that another
/// legal move avoided. A move that allows mate when every move does is not
/// counted: it was no blunder.
pub(super) fn allowed_mate(pos: &Chess, played: &Move) -> Option<AllowedMate> {
    let after = |m: &Move| {
        let mut p = pos.clone();
        p.play_unchecked(*m);
        p
    };
    let answer = after(played);
    let mate = mate_in_one(&answer)?;
    let avoid = pos
        .legal_moves()
        .into_iter()
        .find(|m| mate_in_one(&after(m)).is_none())?;
    Some(AllowedMate {
        mate: SanPlus::from_move(answer, mate).to_string(),
        avoidable_by: SanPlus::from_move(pos.clone(), avoid).to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn uci(p: &Chess, text: &str) -> Move {
        text.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn adjudication_finds_mate_and_stalemate() {
        // Fool's mate: white is mated, black wins.
        let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let ending = adjudicate(&mated, 1, 4, 400);
        assert_eq!(
            ending,
            Some(Ending::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(ending.map(Ending::result), Some("0-1"));
        // Mate beats the fifty-move rule and the ply cap.
        let late = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 120 70");
        assert_eq!(
            adjudicate(&late, 3, 500, 400).map(Ending::result),
            Some("0-1")
        );
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(adjudicate(&stalemate, 1, 10, 400), Some(Ending::Stalemate));
        assert_eq!(Ending::Stalemate.result(), "1/2-1/2");
        let playing = pos(crate::START_FEN);
        assert_eq!(adjudicate(&playing, 1, 0, 400), None);
    }

    #[test]
    fn adjudication_applies_each_draw_rule() {
        let kbk = pos("8/8/4k3/8/8/3BK3/8/8 w - - 0 1");
        assert_eq!(
            adjudicate(&kbk, 1, 0, 400),
            Some(Ending::InsufficientMaterial)
        );
        // A rook is enough material: no draw by material.
        let krk = pos("8/8/4k3/8/8/3RK3/8/8 w - - 0 1");
        assert_eq!(adjudicate(&krk, 1, 0, 400), None);
        assert_eq!(adjudicate(&krk, 2, 0, 400), None);
        assert_eq!(
            adjudicate(&krk, 3, 0, 400),
            Some(Ending::ThreefoldRepetition)
        );
        assert_eq!(
            adjudicate(&krk, 5, 0, 400),
            Some(Ending::FivefoldRepetition)
        );
        let fifty = pos("8/8/4k3/8/8/3RK3/8/8 w - - 100 80");
        assert_eq!(adjudicate(&fifty, 1, 0, 400), Some(Ending::FiftyMoveRule));
        let ninety_nine = pos("8/8/4k3/8/8/3RK3/8/8 w - - 99 80");
        assert_eq!(adjudicate(&ninety_nine, 1, 0, 400), None);
        assert_eq!(adjudicate(&krk, 1, 400, 400), Some(Ending::PlyCap));
        assert_eq!(adjudicate(&krk, 1, 399, 400), None);
    }

    #[test]
    fn repetitions_are_counted_by_position_not_by_clock() {
        // Knights out and back twice: the start position occurs three times.
        let mut p = Chess::default();
        let mut reps = Repetitions::default();
        let mut counts = vec![reps.add(&p)];
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                let mv = uci(&p, m);
                p.play_unchecked(mv);
                counts.push(reps.add(&p));
            }
        }
        assert_eq!(counts, [1, 1, 1, 1, 2, 2, 2, 2, 3]);
        assert_eq!(
            adjudicate(&p, *counts.last().unwrap(), 8, 400),
            Some(Ending::ThreefoldRepetition)
        );
        // Lost castling rights make a different position.
        let mut p = pos("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        let mut reps = Repetitions::default();
        assert_eq!(reps.add(&p), 1);
        for m in ["h1h2", "a8a7", "h2h1", "a7a8"] {
            let mv = uci(&p, m);
            p.play_unchecked(mv);
        }
        assert_eq!(reps.add(&p), 1);
    }

    #[test]
    fn an_avoidable_mate_in_one_is_counted() {
        // From the issue: g2g3 allows Bxg3#, and other moves avoid it.
        let p = pos("rnbq1rk1/1p3ppp/p3p3/2p1NP1n/P1Np3b/8/1PPPP1P1/R1BQKB1R w KQ - 0 11");
        let allowed = allowed_mate(&p, &uci(&p, "g2g3")).expect("counted");
        assert_eq!(allowed.mate, "Bxg3#");
        assert!(!allowed.avoidable_by.is_empty());
        // Another move there allows nothing.
        assert_eq!(allowed_mate(&p, &uci(&p, "h1h4")), None);
        // The second example: e4d5 allows Qh2#.
        let p = pos("r3kb2/2pb2p1/p1p5/P2p3r/1P2Ppnq/2N5/1BP1PPB1/R2Q1RK1 w q - 0 16");
        let allowed = allowed_mate(&p, &uci(&p, "e4d5")).expect("counted");
        assert_eq!(allowed.mate, "Qh2#");
    }

    #[test]
    fn an_unavoidable_mate_in_one_is_not_counted() {
        // White: king a1 and a pawn h2; black: king c2, queen h7. Ka2, h3
        // and h4 are the only moves, and after each one Qa7 mates.
        let p = pos("8/7q/8/8/8/8/2k4P/K7 w - - 0 1");
        let moves = p.legal_moves();
        assert!(!moves.is_empty());
        for m in &moves {
            let mut after = p.clone();
            after.play_unchecked(*m);
            assert!(mate_in_one(&after).is_some(), "{m:?} avoids mate");
        }
        for m in &moves {
            assert_eq!(allowed_mate(&p, m), None);
        }
    }
}
