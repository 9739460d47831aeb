//! Depth 5 (three full-width plies, then two capture plies) searched with
//! the probe cut (`chess/src/search/probed.rs`): the regex program drops the
//! candidates that cannot beat a probe, so its score must still be the
//! whole search's, which the native reference computes without any cut.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::encode;
use chess::ending::position_key;
use chess::reference::{best_moves, best_moves_in_game};
use regex_chess_tests::depth;
use regex_chess_tests::positions::{
    claim_is_reached, flip_fen, positions_where, regex_reply_matches_reference,
};
use shakmaty::{Chess, Position};

/// The depth searched with probes at two plies.
fn depth_under_test() -> chess::Depth {
    depth(5)
}

#[test]
fn depth_five_is_three_full_plies_and_two_capture_plies() {
    let p = depth_under_test().plan();
    assert_eq!((p.full, p.plies), (3, 5));
}

#[test]
fn probed_search_matches_the_whole_search_on_random_positions() {
    let found = positions_where(300, 8, 22, |pos: &Chess| {
        pos.legal_moves().iter().any(|m| m.is_capture())
    });
    assert_eq!(found.len(), 8);
    for fen in found {
        regex_reply_matches_reference(&fen, depth_under_test()).unwrap();
    }
}

/// Positions where the deeper plies change the choice (no move best at
/// depth 3 is best at depth 5): there the probes and the standing scores
/// are most often wrong about a candidate, and the cut must keep it.
#[test]
fn probed_search_finds_what_depth_three_misses() {
    let differ = |pos: &Chess| {
        if pos.legal_moves().len() > 20 {
            return false;
        }
        let (Some((shallow, _)), Some((deep, _))) = (
            best_moves(pos, depth(3)),
            best_moves(pos, depth_under_test()),
        ) else {
            return false;
        };
        deep.iter().all(|m| !shallow.contains(m))
    };
    let found = positions_where(700, 4, 20, differ);
    assert_eq!(found.len(), 4, "only {} positions found", found.len());
    for fen in found {
        regex_reply_matches_reference(&fen, depth_under_test()).unwrap();
    }
}

/// Hand-picked: a queen attacked by a knight while its king's knight is
/// pinned (every candidate loses something, so the probe scores far
/// below the candidates' standing scores), and a mate-in-two net where
/// the checks must survive the cut.
#[test]
fn probed_search_scores_tactical_positions_like_the_reference() {
    for fen in [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
    ] {
        regex_reply_matches_reference(fen, depth_under_test()).unwrap();
    }
}

/// Where a side has at most one piece besides its king, a candidate may
/// stand in a lone-king ending, whose mop-up term its evaluation alone
/// does not hold: the cut must not judge those nodes by it.
#[test]
fn probed_search_scores_lone_king_endings_like_the_reference() {
    for fen in [
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
        "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
        "8/8/8/8/2k5/8/1R6/K7 b - - 0 1",
        "8/8/4k3/8/8/2K5/3P4/8 w - - 0 1",
        "8/8/4k3/3n4/8/2K5/3R4/8 w - - 0 1",
        "8/5k2/8/3b4/8/3NK3/8/8 b - - 0 1",
        // Found by dropping the guard: the cut then misjudges them.
        "2k5/7K/3R4/8/8/8/6N1/8 w - - 0 1",
        "1R6/2k5/7K/8/7N/8/8/8 w - - 0 1",
    ] {
        regex_reply_matches_reference(fen, depth_under_test()).unwrap();
        regex_reply_matches_reference(&flip_fen(fen).unwrap(), depth_under_test()).unwrap();
    }
}

/// The root cut (`search::probed_root`) against the same program searching
/// every root candidate: the same move and the same score, at depths 3,
/// 4 and 5, on positions with several best moves (where a cut that also
/// dropped a candidate tying with the root's probe would answer with
/// another of them), random ones, and the tactical ones above.
#[test]
fn the_root_cut_changes_neither_the_move_nor_the_score() {
    let ties = positions_where(900, 4, 22, |pos: &Chess| {
        best_moves(pos, depth(4)).is_some_and(|(best, _)| best.len() >= 2)
    });
    assert_eq!(ties.len(), 4, "only {} positions with ties", ties.len());
    let random = positions_where(1300, 3, 30, |_| true);
    let tactical = [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
    ];
    for plies in [3, 4, 5] {
        let d = depth(plies);
        let uncut = uncut_pass(d);
        for fen in ties
            .iter()
            .chain(&random)
            .map(String::as_str)
            .chain(tactical)
        {
            let cut = chess::search(fen, &[], d).unwrap();
            let whole = chess::search_with(fen, &[], d, |_| Ok(&uncut)).unwrap();
            assert_eq!((cut.depth, whole.depth), (d, d), "{fen}: outgrew the cap");
            assert_eq!(cut.best, whole.best, "{fen} at depth {plies}");
        }
    }
}

/// A position's key, as a game's history holds it.
fn key(p: &Chess) -> String {
    position_key(&encode(p).board, p.turn())
}

/// A root move that repeats a position of the game scores a draw unless
/// its search finds a mate, so the root cut never drops it and its lines
/// get no bound from the root's probe (`probed_root::cut_candidates`).
/// With every root move's position in the history, and with only the
/// first move's, the cut root answers at depth 5 as the whole search does
/// and scores as the reference does. (A repeating move cut fails this; no
/// position is known where the bound alone would change such a move's
/// answer, so that rule rests on its argument.)
#[test]
fn repeating_root_moves_are_searched_without_the_roots_bound() {
    let found = positions_where(2100, 5, 24, |pos: &Chess| {
        pos.legal_moves().iter().any(|m| m.is_capture())
    });
    assert_eq!(found.len(), 5);
    let tactical = [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6",
    ];
    let d = depth(5);
    let uncut = uncut_pass(d);
    for fen in found.iter().map(String::as_str).chain(tactical) {
        let pos = chess::codec::parse_fen(fen).unwrap();
        let after = |m: &shakmaty::Move| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            key(&next)
        };
        let moves = pos.legal_moves();
        let mut every: Vec<String> = moves.iter().map(after).collect();
        every.push(key(&pos));
        let first = vec![after(&moves[0]), key(&pos)];
        for keys in [every, first] {
            let cut = chess::search(fen, &keys, d).unwrap();
            let whole = chess::search_with(fen, &keys, d, |_| Ok(&uncut)).unwrap();
            assert_eq!((cut.depth, whole.depth), (d, d), "{fen}: outgrew the cap");
            assert_eq!(
                cut.best,
                whole.best,
                "{fen} with {} repeating",
                keys.len() - 1
            );
            let history: String = keys.iter().map(|k| format!(" {k}")).collect();
            let (_, score) = best_moves_in_game(&pos, d, &history).unwrap();
            assert_eq!(
                cut.best.map(|(_, v)| v),
                Some(score),
                "{fen}: the reference's score"
            );
        }
    }
}

/// Depth 6's deep probe (`deep_root::deep_probe`): the root's probe's move is
/// searched first as the kept candidates are, and its score bounds the
/// other candidates' replies, at their root and two plies below it.
/// Against the same program without those bounds (`RootCut::Off`, which
/// at depth 6 still deepens only what depth 5's root cut keeps): the same
/// move and score, on middlegames from games where the bounds drop
/// candidates and on positions with two best moves or a second one a
/// point below (the tactical positions above outgrow the state cap at
/// depth 6); and the move scores what it claims at depth 6 by the
/// reference. Either bound made two points too tight fails this; one
/// that also drops a candidate tying with the deep probe does not on these
/// positions (that the bounds are strict rests on the argument).
#[test]
fn the_deep_probes_bounds_change_neither_the_move_nor_the_score() {
    let positions = [
        "rnbqk2r/ppp2ppp/4pn2/3P4/3P4/2Q5/PP2PPPP/R1B1KBNR b KQkq - 0 6",
        "r1bqk2r/pp2ppbp/n2p1np1/2pP4/2P1P3/2NB3P/PP3PP1/R1BQK1NR b KQkq - 0 7",
        "3q3r/5pk1/3P1Bp1/5b1p/p6P/8/PP3PP1/R1R3K1 b - - 0 33",
        "rnbqk2r/p1pp1ppp/1p2pn2/8/2PP4/P1P2N2/4PPPP/R1BQKB1R b KQkq - 0 6",
        // From random games (`positions_where(900, ..)`): two best moves,
        // or the second one point below the best, at depth 6.
        "rnbqkbnr/ppppp3/6pp/5p2/5P2/N3P2P/PPPP2PR/1RBQKBN1 b kq - 0 6",
        "rnbqkb1r/1ppppp2/6pp/pP6/6Pn/B1N2N2/P1PPPP1P/R1Q1KB1R b KQkq - 1 7",
        "r1bqkbnr/ppppp1pp/3n1p2/8/5P2/N1P1P3/PPQP2PP/R1B1KBNR b KQkq - 0 6",
        "1rbq1bnr/pppkp3/2nN1p1p/3p2P1/5BP1/3P3N/PPP1PK1P/R2Q1B1R b - - 2 11",
        // Two positions of lost clock games where depth 6's best is not
        // depth 5's (so not the root's probe's move either).
        "4b3/5k1p/4n3/8/8/1K6/8/6q1 w - - 0 78",
        "8/k4r2/8/8/8/8/2P2N1p/K7 w - - 0 63",
    ];
    let d = depth(6);
    let unbounded = uncut_pass(d);
    for fen in positions {
        let bounded = chess::search(fen, &[], d).unwrap();
        let plain = chess::search_with(fen, &[], d, |_| Ok(&unbounded)).unwrap();
        assert_eq!(
            (bounded.depth, plain.depth),
            (d, d),
            "{fen}: outgrew the cap"
        );
        assert_eq!(bounded.best, plain.best, "{fen}");
        let pos = chess::codec::parse_fen(fen).unwrap();
        let (uci, score) = bounded.best.expect("a legal move");
        claim_is_reached(fen, &pos, (&uci, score), d).unwrap();
    }
}

/// The reply program of `depth` without the root cut (at depth 6, without
/// its deep probe's bounds).
fn uncut_pass(depth: chess::Depth) -> chess::Pass {
    let program = chess::search::reply_program_cut(depth, chess::search::RootCut::Off).unwrap();
    let executor = regex_vm::Executor::new(&program, chess::config_for(depth)).unwrap();
    chess::Pass { program, executor }
}

/// The root's probe hint (`search::hint`, what each rung of the ladder
/// gives the next): whichever move it names, the search answers with the
/// move and score it answers without one. The hints: each of the
/// position's legal moves at depth 3 (where it is cheap: on all but the
/// first tactical position, where a depth-3 search takes about as long as
/// 25 on the others), and elsewhere the answer itself, a move no better
/// than the worst the 2-ply look sees, a move that is not legal there and
/// a square pair that is no move at all; on positions with several best
/// moves (where the root must still choose the same one of them) and
/// tactical ones.
#[test]
fn a_probe_hint_changes_neither_the_move_nor_the_score() {
    let ties = positions_where(900, 2, 22, |pos: &Chess| {
        best_moves(pos, depth(4)).is_some_and(|(best, _)| best.len() >= 2)
    });
    assert_eq!(ties.len(), 2, "only {} positions with ties", ties.len());
    let tactical = [
        "rr4k1/1pp1qppp/p1np1n2/2bNp1B1/2B1P1b1/P2P1N2/1PP1QPPP/R4RK1 b - - 1 11",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    for fen in ties.iter().map(String::as_str).chain(tactical) {
        let every_move_at_three = fen != tactical[0];
        let pos = chess::codec::parse_fen(fen).unwrap();
        let names: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        for plies in [3, 4, 5] {
            let d = depth(plies);
            let plain = chess::search(fen, &[], d).unwrap();
            assert_eq!(plain.depth, d, "{fen}: outgrew the cap");
            let (answer, _) = plain.best.clone().expect("a move");
            let mut hints: Vec<String> = if plies == 3 && every_move_at_three {
                names.clone()
            } else {
                vec![answer, names[0].clone(), names[names.len() - 1].clone()]
            };
            hints.extend(["a1a1".to_string(), "h8a1q".to_string()]);
            for hint in hints {
                let hinted = chess::search_hinted(fen, &[], d, &hint).unwrap();
                assert_eq!(hinted.depth, d, "{fen}: outgrew the cap with {hint}");
                assert_eq!(
                    hinted.best, plain.best,
                    "{fen} at depth {plies} with the hint {hint}"
                );
            }
        }
    }
}

#[test]
fn a_hint_that_is_not_a_move_name_is_an_error() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for bad in ["", "e2", "e2e4\nProbe:d2d4", "O-O"] {
        let got = chess::search_hinted(start, &[], depth(2), bad);
        assert!(
            matches!(got, Err(chess::Error::Hint(_))),
            "{bad:?}: {got:?}"
        );
    }
}
