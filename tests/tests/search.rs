//! The regex engine's 2-ply choice against the native reference search:
//! same best score, and the chosen move is legal and reaches it.

use chess::codec::{fen_of, parse_fen};
use chess::reference::{best_score, move_score};
use proptest::prelude::*;
use regex_chess_tests::cases;
use regex_chess_tests::positions::{flip_fen, random_game, Rng};
use shakmaty::uci::UciMove;
use shakmaty::Chess;

fn check(fen: &str) -> Result<(), String> {
    let pos = parse_fen(fen).unwrap();
    let (got, _) = chess::reply(fen).map_err(|e| format!("{fen}: {e}"))?;
    match (got, best_score(&pos)) {
        (None, None) => Ok(()),
        (Some((uci, score)), Some(best)) => {
            let m = uci
                .parse::<UciMove>()
                .map_err(|e| format!("{fen}: bad move {uci}: {e}"))?
                .to_move(&pos)
                .map_err(|e| format!("{fen}: illegal move {uci}: {e}"))?;
            let reached = move_score(&pos, m);
            if score != best || reached != best {
                return Err(format!(
                    "{fen}: regex plays {uci} claiming {score}, it reaches {reached}; best is {best}"
                ));
            }
            Ok(())
        }
        (got, want) => Err(format!("{fen}: regex {got:?}, reference {want:?}")),
    }
}

#[test]
fn vm_best_move_matches_native_minimax_on_perft_positions() {
    for line in include_str!("../data/perft.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fen = line.split(';').next().unwrap().trim();
        check(fen).unwrap();
        check(&flip_fen(fen)).unwrap();
    }
}

#[test]
fn vm_search_sees_mate_in_one_and_stalemate() {
    // Back-rank mate in one: Ra8#.
    let (r, _) = chess::reply("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    assert_eq!(r, Some(("a1a8".to_string(), chess::eval::MATE)));
    // No legal move: no reply.
    let (r, _) = chess::reply("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(r, None);
    check("k7/8/1QK5/8/8/8/8/8 w - - 0 1").unwrap();
}

/// Found by `regex-chess fuzz --games 1000 --seed 2026` (game 512): the
/// best move c2c4 allows b4xc3 en passant, and the reply's score counted
/// the captured pawn on the target square's rank.
#[test]
fn vm_search_scores_an_en_passant_reply_like_the_reference() {
    check("r2k3r/pb1n3p/5pp1/1q1p4/1p1PPbPB/3N4/PPP1RPBP/RN3K2 w - - 0 29").unwrap();
    check("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1").unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(100)))]

    #[test]
    fn vm_best_move_matches_native_minimax_on_random_games(seed in any::<u64>(), plies in 0usize..80) {
        let pos = random_game(&Chess::default(), &mut Rng::new(seed), plies);
        let fen = fen_of(&pos);
        let r = check(&fen);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
