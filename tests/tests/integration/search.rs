//! The regex engine's choice against the native reference search, at
//! every depth:
//! same best score, and the chosen move is legal and reaches it.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{fen_of, parse_fen};
use chess::Depth;
use proptest::prelude::*;
use regex_chess_tests::depth;
use regex_chess_tests::positions::{
    claim_is_reached, flip_fen, late_reply_matches_selective, random_game,
    regex_reply_matches_reference, Rng,
};
use regex_chess_tests::proptest_config;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// At the fast depth ([`Depth::FAST`]): every other depth is checked on its
/// own set below (`vm_best_move_matches_native_search_at_depth_2` to `_5`).
fn check(fen: &str) -> Result<(), String> {
    regex_reply_matches_reference(fen, Depth::FAST).map(|_| ())
}

#[test]
fn vm_best_move_matches_native_minimax_on_perft_positions() {
    for p in chess::games::perft_positions() {
        check(&p.fen).unwrap();
        check(&flip_fen(&p.fen).unwrap()).unwrap();
    }
}

/// A move that mates scores [`chess::MATE`]; a move that stalemates
/// scores [`chess::EVEN`], a draw (a search that took a stalemate for a
/// mate, or for anything but a draw, fails here); a position with no
/// legal move, mated or stalemated, has no reply.
#[test]
fn vm_search_sees_mate_in_one_and_stalemate() {
    let best = |fen: &str| chess::search(fen, &[], Depth::FAST).unwrap().best;
    // Back-rank mate in one: Ra8#.
    assert_eq!(
        best("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
        Some(("a1a8".to_string(), chess::MATE))
    );
    // White's only move, Kxh2, leaves Black's king on h5 no square and
    // no check: stalemate, though White was a queen down.
    let stalemating = "8/6Q1/8/7k/8/1P6/7q/4B2K w - - 0 1";
    let mut after = parse_fen(stalemating).unwrap();
    let only: Vec<_> = after.legal_moves().into_iter().collect();
    assert_eq!(only.len(), 1);
    after.play_unchecked(only[0]);
    assert!(after.is_stalemate(), "{}", fen_of(&after));
    assert_eq!(best(stalemating), Some(("h1h2".to_string(), chess::EVEN)));
    // No legal move, stalemated or mated: no reply.
    assert_eq!(best(&fen_of(&after)), None);
    assert_eq!(best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), None);
    assert_eq!(best("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"), None);
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
    #![proptest_config(proptest_config(100))]

    #[test]
    fn vm_best_move_matches_native_minimax_on_random_games(seed in any::<u64>(), plies in 0usize..80) {
        let pos = random_game(&Chess::default(), &mut Rng::new(seed), plies);
        let fen = fen_of(&pos);
        let r = check(&fen);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Whether playing `m` lets the opponent mate at once.
fn allows_mate_in_one(pos: &Chess, m: &shakmaty::Move) -> bool {
    use shakmaty::Position;
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after.legal_moves().into_iter().any(|r| {
        let mut leaf = after.clone();
        leaf.play_unchecked(r);
        leaf.is_checkmate()
    })
}

/// The engine's move for `fen`, checked against the reference, must not
/// allow a mate in one.
fn avoids_mate(fen: &str) -> Result<(), String> {
    let got = regex_reply_matches_reference(fen, Depth::FAST)?;
    let pos = parse_fen(fen).unwrap();
    let (uci, _) = got.ok_or_else(|| format!("{fen}: no move"))?;
    let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    if allows_mate_in_one(&pos, &m) {
        return Err(format!("{fen}: {uci} allows mate in one"));
    }
    Ok(())
}

/// The two games of issue 13 where the engine walked into mate in one
/// (g2g3 allowed Bxg3#, e4d5 allowed Qh2#).
#[test]
fn vm_search_does_not_walk_into_mate_in_one() {
    avoids_mate("rnbq1rk1/1p3ppp/p3p3/2p1NP1n/P1Np3b/8/1PPPP1P1/R1BQKB1R w KQ - 0 11").unwrap();
    avoids_mate("r3kb2/2pb2p1/p1p5/P2p3r/1P2Ppnq/2N5/1BP1PPB1/R2Q1RK1 w q - 0 16").unwrap();
}

/// Generated: positions from random games where some move allows a mate in
/// one and some move does not; the engine's move never allows it.
#[test]
fn vm_search_avoids_mate_in_one_when_it_can() {
    use shakmaty::Position;
    let mut found = 0;
    for seed in 0..4000u64 {
        if found >= 12 {
            break;
        }
        let mut rng = Rng::new(seed);
        let plies = 10 + rng.below(60);
        let pos = random_game(&Chess::default(), &mut rng, plies);
        let moves = pos.legal_moves();
        let allowing = moves.iter().filter(|m| allows_mate_in_one(&pos, m)).count();
        if allowing == 0 || allowing == moves.len() {
            continue;
        }
        found += 1;
        avoids_mate(&fen_of(&pos)).unwrap();
    }
    assert!(found >= 12, "only {found} positions found");
}

/// A legal position where one side has nine queens, two rooks, bishops
/// and knights (over 1,000 units) and the other its king and up to two
/// pieces; pawns never on a first or last rank. `None` when the drawn setup
/// is not legal.
fn heavy_position(rng: &mut Rng) -> Option<String> {
    let mut board = [['.'; 8]; 8];
    let mut place = |rng: &mut Rng, ch: char| loop {
        let (r, f) = (rng.below(8), rng.below(8));
        if board[r][f] == '.' && !(ch.eq_ignore_ascii_case(&'p') && (r == 0 || r == 7)) {
            board[r][f] = ch;
            return;
        }
    };
    let white_heavy = rng.below(2) == 0;
    let case = |ch: char, heavy: bool| {
        if heavy == white_heavy {
            ch.to_ascii_uppercase()
        } else {
            ch.to_ascii_lowercase()
        }
    };
    for ch in "KQQQQQQQQQRRBBNN".chars() {
        place(rng, case(ch, true));
    }
    place(rng, case('k', false));
    for _ in 0..rng.below(3) {
        let ch = b"QRBNP"[rng.below(5)] as char;
        place(rng, case(ch, false));
    }
    let rows: Vec<String> = board
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let fen = format!("{} {side} - - 0 1", rows.join("/"));
    parse_fen(&fen).ok().map(|_| fen)
}

/// Issue 13: with 1,000 units of material or more the evaluation's
/// hundreds column overflowed (`b8d7`, score 0). Now the score is the
/// reference's, and the position is answered with c6b6 or a move
/// of the same score.
#[test]
fn vm_search_scores_promotion_heavy_positions_like_the_reference() {
    let fen = "1NQ5/2N5/1qQQ1Q1Q/2q1n3/1k2rQBR/5RKQ/6QQ/8 w - - 0 1";
    let got = regex_reply_matches_reference(fen, Depth::FAST).unwrap();
    let pos = parse_fen(fen).unwrap();
    let (best, _) = chess::reference::best_moves(&pos, Depth::FAST).unwrap();
    let (uci, _) = got.unwrap();
    let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    assert!(best.contains(&m), "{uci} is not among the best");
    assert!(best
        .iter()
        .any(|b| b.to_uci(shakmaty::CastlingMode::Standard).to_string() == "c6b6"));
    let mut rng = Rng::new(1013);
    let mut checked = 0;
    while checked < 8 {
        if let Some(fen) = heavy_position(&mut rng) {
            check(&fen).unwrap();
            checked += 1;
        }
    }
}

/// The mop-up term (lone kings) in the regex leaves equals the reference's,
/// for either side lone and either side to move.
#[test]
fn vm_search_scores_lone_king_endings_like_the_reference() {
    for fen in [
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/Q3K3 b - - 0 1",
        "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
        "8/8/8/8/2k5/8/1R6/K7 b - - 0 1",
        "8/8/4k3/8/8/2K5/3P4/8 w - - 0 1",
    ] {
        check(fen).unwrap();
        check(&flip_fen(fen).unwrap()).unwrap();
    }
}

/// The positions the regex search is checked on at every depth: the
/// perft positions with few enough moves to keep the deeper search quick
/// in a test (as given and colour-flipped), and positions from random
/// games.
fn few_move_positions() -> Vec<String> {
    use shakmaty::Position;
    let mut fens: Vec<String> = chess::games::perft_positions()
        .into_iter()
        .map(|p| p.fen)
        .filter(|f| parse_fen(f).unwrap().legal_moves().len() <= 20)
        .flat_map(|f| [flip_fen(&f).unwrap(), f])
        .collect();
    let mut rng = Rng::new(31);
    while fens.len() < 16 {
        let plies = 40 + rng.below(60);
        let pos = random_game(&Chess::default(), &mut rng, plies);
        if pos.legal_moves().len() <= 20 && !pos.legal_moves().is_empty() {
            fens.push(fen_of(&pos));
        }
    }
    fens
}

/// The regex search's move and score are the reference's on
/// [`few_move_positions`] at `plies`.
fn vm_best_move_matches_native_search_at(plies: u32) {
    for fen in few_move_positions() {
        regex_reply_matches_reference(&fen, depth(plies)).unwrap();
    }
}

/// Every depth the program is built for, [`Depth::MIN`] to [`Depth::MAX`]
/// (the fast mode, `Depth::FAST`, is 2 and the commands' default,
/// `chess::Depth::DEFAULT`, is 5), has its own test, named
/// `vm_best_move_matches_native_search_at_depth_N` (one test a depth, so
/// the test threads share them), that the harness runs: read from this
/// test binary's own list of its tests (`--list`, and `--list --ignored`
/// for those it skips). This fails when a depth is added without a test,
/// or a depth's test is removed, renamed or ignored.
#[test]
fn every_depth_has_its_search_test() {
    let listed = |extra: &[&str]| -> Vec<String> {
        let me = std::env::current_exe().unwrap();
        let out = std::process::Command::new(&me)
            .arg("--list")
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{} --list failed", me.display());
        let text = String::from_utf8(out.stdout).unwrap();
        // `path::to::name: test`, the path as deep as the binary's modules.
        text.lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(|path| path.rsplit("::").next().unwrap_or(path).to_string())
            .collect()
    };
    let tests = listed(&[]);
    let ignored = listed(&["--ignored"]);
    assert!(
        tests.iter().any(|t| t == "every_depth_has_its_search_test"),
        "the list holds no test at all: {tests:?}"
    );
    for depth in Depth::all() {
        let name = format!("vm_best_move_matches_native_search_at_depth_{depth}");
        assert!(tests.contains(&name), "depth {depth} has no test {name}");
        assert!(!ignored.contains(&name), "{name} is ignored");
    }
}

/// Depth 6 against the native search's depth 6, searched as the ladder
/// runs it: with a move of depth 5's best as its root's probe hint. The
/// native search of depth 6 searches a ply deeper every move within
/// `DEEP_WINDOW` of depth 5's best score; the regex program searches a
/// ply deeper those of them its root cut keeps (`search::deep_root`):
/// every one of depth 5's best moves, and each other whose own probe
/// does not already leave it below them, which the native search cannot
/// name. So its move must be in that window and reach the score it
/// claims, and its score must lie between the native depth 6's over
/// depth 5's best moves and its over the whole window: the native
/// score wherever the two meet. Without a hint the window is the probe's
/// look's (wider where the look is not among the best): its move still
/// reaches its claim and no less than depth 5's best moves do a ply
/// deeper. Endings and the few-move positions, where a ply more stays
/// quick; on some the window's other moves are better than depth 5's a
/// ply deeper, or depth 6 would be depth 5 again.
#[test]
fn vm_best_move_matches_native_search_at_depth_6() {
    let (five, six) = (depth(5), depth(6));
    let mut fens: Vec<String> = [
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
        "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
        "8/8/4k3/8/8/2K5/3P4/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        // Two positions of lost clock games where depth 6 plays another
        // move than depth 5 (b3c2 for b3b4, f2h1 for c2c4).
        "4b3/5k1p/4n3/8/8/1K6/8/6q1 w - - 0 78",
        "8/k4r2/8/8/8/8/2P2N1p/K7 w - - 0 63",
    ]
    .iter()
    .map(|f| f.to_string())
    .collect();
    fens.extend(few_move_positions().into_iter().step_by(4));
    let uci = |m: &shakmaty::Move| m.to_uci(shakmaty::CastlingMode::Standard).to_string();
    let (mut met, mut bettered) = (0, 0);
    for fen in &fens {
        let pos = parse_fen(fen).unwrap();
        let at_five: Vec<(shakmaty::Move, u32)> = pos
            .legal_moves()
            .iter()
            .map(|m| (*m, chess::reference::move_score(&pos, *m, five)))
            .collect();
        let best = at_five.iter().map(|(_, v)| *v).max().unwrap();
        // The native depth 6 over the window: (move, depth-5 score,
        // depth-6 score).
        let window: Vec<(shakmaty::Move, u32, u32)> = at_five
            .iter()
            .filter(|(_, v)| v + chess::search::DEEP_WINDOW >= best)
            .map(|(m, v)| (*m, *v, chess::reference::move_score(&pos, *m, six)))
            .collect();
        let of_fives = window.iter().filter(|w| w.1 == best).map(|w| w.2).max();
        let (low, high) = (of_fives.unwrap(), window.iter().map(|w| w.2).max().unwrap());
        let hint = uci(&window.iter().find(|w| w.1 == best).unwrap().0);
        let hinted = chess::search_hinted(fen, &[], six, &hint).unwrap();
        assert_eq!(hinted.depth, six, "{fen}: outgrew its cap");
        let (played, score) = hinted.best.expect("a legal move");
        claim_is_reached(fen, &pos, (&played, score), six).unwrap();
        assert!(
            window.iter().any(|w| uci(&w.0) == played),
            "{fen}: depth 6 plays {played}, outside the window of {best}"
        );
        assert!(
            (low..=high).contains(&score),
            "{fen}: depth 6 plays {played} ({score}), native {low} to {high}"
        );
        met += usize::from(low == high);
        bettered += usize::from(score > low);
        let plain = chess::search(fen, &[], six).unwrap();
        assert_eq!(plain.depth, six, "{fen}: outgrew its cap");
        let (played, score) = plain.best.expect("a legal move");
        claim_is_reached(fen, &pos, (&played, score), six).unwrap();
        assert!(
            score >= low,
            "{fen}: unhinted {played} ({score}) below {low}"
        );
    }
    // Most positions pin the native score; the window must better depth
    // 5's best somewhere.
    assert!(
        2 * met > fens.len(),
        "the bounds met on {met} of {}",
        fens.len()
    );
    assert!(bettered > 0, "depth 6 never bettered depth 5's best moves");
}

/// Depth 6's window (`search::deep_root`): with depth 5's answer
/// as the root's probe hint, as the ladder runs it, every move the root
/// cut keeps whose depth-5 score is within `DEEP_WINDOW` of depth 5's
/// best is searched a ply deeper. On a lost clock game's position where
/// the move depth 6 should play scores four units below depth 5's best
/// at depth 5 (and depth 5's own best walks into a lost ending a ply
/// later), depth 6 plays the best of that window by the reference's
/// depth-6 scores. A window narrower than four units, or depth-5 scores
/// that are not exact down to the window's floor, fail this.
#[test]
fn depth_6_deepens_the_moves_within_its_window() {
    let (five, six) = (depth(5), depth(6));
    let fen = "8/k4r2/8/8/8/8/2P2N1p/K7 w - - 0 63";
    let pos = parse_fen(fen).unwrap();
    let hint = chess::search(fen, &[], five)
        .unwrap()
        .best
        .expect("a move")
        .0;
    let searched = chess::search_hinted(fen, &[], six, &hint).unwrap();
    assert_eq!(searched.depth, six, "{fen}: outgrew its cap");
    let (uci, score) = searched.best.expect("a legal move");
    claim_is_reached(fen, &pos, (&uci, score), six).unwrap();
    let (fives, best) = chess::reference::best_moves(&pos, five).unwrap();
    let scored: Vec<(shakmaty::Move, u32)> = pos
        .legal_moves()
        .iter()
        .map(|m| (*m, chess::reference::move_score(&pos, *m, five)))
        .collect();
    let window_best = scored
        .iter()
        .filter(|(_, v)| v + chess::search::DEEP_WINDOW >= best)
        .map(|(m, _)| chess::reference::move_score(&pos, *m, six))
        .max()
        .unwrap();
    assert_eq!(score, window_best, "{fen}: depth 6 plays {uci}");
    // The window matters here: depth 5's best moves all score less a ply
    // deeper, and the best of the window is more than three units below.
    for m in fives {
        assert!(chess::reference::move_score(&pos, m, six) < window_best);
    }
    let (_, v) = scored
        .iter()
        .find(|(m, _)| m.to_uci(shakmaty::CastlingMode::Standard).to_string() == uci)
        .unwrap();
    assert!(
        v + 3 < best,
        "{fen}: {uci} scores {v} at depth 5, {best} the best"
    );
}

#[test]
fn vm_best_move_matches_native_search_at_depth_2() {
    vm_best_move_matches_native_search_at(2);
}

#[test]
fn vm_best_move_matches_native_search_at_depth_3() {
    vm_best_move_matches_native_search_at(3);
}

#[test]
fn vm_best_move_matches_native_search_at_depth_4() {
    vm_best_move_matches_native_search_at(4);
}

#[test]
fn vm_best_move_matches_native_search_at_depth_5() {
    vm_best_move_matches_native_search_at(5);
}

/// Depths outside [`Depth::MIN`]..=[`Depth::MAX`] (0, 1 and 7) cannot
/// be asked for: a clear error, not a panic, before any program is built.
#[test]
fn unsupported_depths_are_refused() {
    for plies in [0, 1, Depth::MAX.plies() + 1] {
        let err = Depth::new(plies).unwrap_err();
        assert!(err.to_string().contains("not supported"), "{err}");
    }
}

/// A lone king's defence: the legal move that keeps the king nearest the
/// centre (the first such move in shakmaty's order).
fn central_defence(pos: &Chess) -> Option<shakmaty::Move> {
    use shakmaty::Position;
    let centre = |sq: shakmaty::Square| {
        let d = |x: u32| if x < 4 { 3 - x } else { x - 4 };
        d(sq.file() as u32) + d(sq.rank() as u32)
    };
    pos.legal_moves().into_iter().min_by_key(|m| centre(m.to()))
}

/// The mop-up term drives the lone king to the edge: K+Q v K from the
/// centre ends in mate against a defender that clings to the centre, each
/// of the engine's moves (3 plies deep: at 2 the engine sees mate only on
/// its own move and wanders) scored as the reference scores it.
#[test]
fn vm_search_mates_with_king_and_queen() {
    use shakmaty::Position;
    let mut pos = parse_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1").unwrap();
    for _ in 0..30 {
        let fen = fen_of(&pos);
        // One search a move, checked as `regex_reply_matches_reference`
        // checks it.
        let got = chess::search(&fen, &[], depth(3)).unwrap().best;
        let (uci, score) = got.unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let best = chess::reference::best_score(&pos, depth(3)).unwrap();
        let reached = chess::reference::move_score(&pos, m, depth(3));
        assert!(
            score == best && reached == best,
            "{fen}: regex plays {uci} claiming {score}, it reaches {reached}; best is {best}"
        );
        pos.play_unchecked(m);
        if pos.is_checkmate() {
            return;
        }
        assert!(
            !pos.is_stalemate(),
            "stalemate after {uci}: {}",
            fen_of(&pos)
        );
        let d = central_defence(&pos).unwrap();
        pos.play_unchecked(d);
    }
    panic!("no mate in 30 moves: {}", fen_of(&pos));
}

/// Random games' positions (seed 5) where late-move pruning (`lmp:1`
/// or `lmp:2`) changes depth 4's score.
pub(crate) const LATE_CHANGES_DEPTH_FOUR: [&str; 4] = [
    "rnb1k2r/p2p2pp/4pq1n/2p1b3/2p4P/4P3/PPPPKPP1/RNB3NR w kq - 0 11",
    "rn1k1b1r/4p1p1/p3bB1p/2p2p1P/3P4/Pp3PK1/1P2P1P1/RN3B1R b - - 0 17",
    "rnq2bnr/pppbpkpp/5p2/3p4/1PP3PP/N2PP3/P4P2/R1BQKBNR b KQ - 2 8",
    "rnbq1bnr/p2p1kp1/1p2pp1p/8/PpP3P1/3P3P/3BPP2/RN1QKBNR b KQ - 0 8",
];

/// With late-move pruning (`lmp:8`, and `lmp:2`, which drops more), the
/// regex search answers as the native search with the same rule does, at
/// depths 3 to 5 (depth 3 has no probed node: the rule is inert there),
/// on [`few_move_positions`]. Somewhere the rule changes the answer (so
/// this fails if the rule is removed from the regex program).
#[test]
fn vm_late_move_pruning_matches_the_native_rule() {
    let mut fens = few_move_positions();
    fens.truncate(8);
    for plies in [3, 4, 5] {
        for late in [2, 8] {
            for fen in &fens {
                late_reply_matches_selective(fen, depth(plies), late).unwrap();
            }
        }
    }
    let mut changed = 0;
    for fen in LATE_CHANGES_DEPTH_FOUR {
        for late in [1, 2] {
            let got = late_reply_matches_selective(fen, depth(4), late).unwrap();
            let exact = chess::search(fen, &[], depth(4)).unwrap().best;
            changed += usize::from(got.map(|g| g.1) != exact.map(|e| e.1));
        }
    }
    assert!(changed >= 4, "lmp changed {changed} scores");
}

/// The rule drops candidates: on a middlegame, depth 4 with `lmp:2`
/// (its second ply probed) makes fewer threads at its peak than without,
/// and depth 5 with `lmp:8` too; and it still answers as the native rule.
#[test]
fn vm_late_move_pruning_makes_fewer_threads() {
    let fen = "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6";
    for (plies, late) in [(4, 2), (5, 8)] {
        let exact = chess::search(fen, &[], depth(plies)).unwrap();
        let pruned =
            chess::search_variant(fen, &[], depth(plies), chess::Variant::of_late(Some(late)))
                .unwrap();
        assert!(
            pruned.stats.peak_threads < exact.stats.peak_threads,
            "depth {plies} lmp:{late}: {} threads, exact {}",
            pruned.stats.peak_threads,
            exact.stats.peak_threads
        );
        late_reply_matches_selective(fen, depth(plies), late).unwrap();
    }
}

/// Where forcing moves decide, the rule keeps them: with `lmp:1` (one
/// quiet candidate a node) the search still sees a mate threat (black's
/// Re1 mate: the mating reply is a check), takes a queen a quiet move
/// would leave, and answers a check (every evasion kept), at depths 4
/// and 5, as the native rule does; and never walks into a mate in one
/// another move avoids.
#[test]
fn vm_late_move_pruning_keeps_checks_captures_and_evasions() {
    for fen in [
        // Black threatens Re1 mate.
        "4r1k1/5ppp/8/8/8/8/5PPP/1NB3K1 w - - 0 1",
        // White's knight takes the queen (or it is lost).
        "r3k3/8/8/8/3q4/8/4N3/R3K3 w - - 0 1",
        // White is in check.
        "4k3/8/8/8/8/8/1Q6/K3r3 w - - 0 1",
    ] {
        let pos = parse_fen(fen).unwrap();
        let moves = pos.legal_moves();
        for plies in [4, 5] {
            let got = late_reply_matches_selective(fen, depth(plies), 1).unwrap();
            let (uci, _) = got.unwrap();
            let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            let avoidable = moves.iter().any(|m| !allows_mate_in_one(&pos, m));
            assert!(
                !(avoidable && allows_mate_in_one(&pos, &m)),
                "{fen} depth {plies}: {uci} allows mate in one"
            );
        }
    }
}
