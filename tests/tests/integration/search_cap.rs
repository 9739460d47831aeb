//! A search whose state outgrows its cap answers one ply shallower instead
//! of failing, and says so; at the shallowest depth the cap's error
//! reaches the caller.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::{search, search_with, Error, Pass};
use regex_chess_tests::depth;
use regex_vm::{ExecError, Executor};

/// The reply pass of `depth` with the state capped at `cap` bytes.
fn capped(plies: u32, cap: usize) -> Pass {
    let depth = regex_chess_tests::depth(plies);
    let program = search::reply_program(depth).unwrap();
    let mut config = chess::config_for(depth);
    config.max_state_bytes = cap;
    let executor = Executor::new(&program, config).unwrap();
    Pass { program, executor }
}

#[test]
fn a_search_over_its_cap_answers_one_ply_shallower() {
    let fen = "8/8/4k3/2R5/8/4K3/8/5r2 b - - 1 1";
    let shallow = chess::search(fen, &[], depth(2)).unwrap();
    let deep = chess::search(fen, &[], depth(3)).unwrap();
    assert_eq!((shallow.depth, deep.depth), (depth(2), depth(3)));
    // A cap the 2-ply search fits in and the 3-ply search does not.
    let cap = 2 * shallow.stats.peak_state_bytes;
    assert!(
        deep.stats.peak_state_bytes > cap,
        "the 3-ply search peaked at {} bytes, under the test's cap {cap}",
        deep.stats.peak_state_bytes
    );
    let passes = [capped(2, cap), capped(3, cap)];
    let got = search_with(
        fen,
        &[],
        depth(3),
        |d| Ok(&passes[(d.plies() - 2) as usize]),
    )
    .unwrap();
    assert_eq!(got.depth, 2);
    assert_eq!(got.best, shallow.best);

    // Nothing shallower to fall back on: the error is the cap's.
    let err = search_with(fen, &[], depth(2), |_| Ok(&passes[0])).map(|_| ());
    assert!(err.is_ok(), "{err:?}");
    let tiny = capped(2, 1 << 10);
    let err = search_with(fen, &[], depth(2), |_| Ok(&tiny)).unwrap_err();
    assert!(
        matches!(err, Error::Exec(ExecError::StateTooLarge { .. })),
        "{err}"
    );
}
