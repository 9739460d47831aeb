//! The search on a clock (`chess::think`, `chess::play_turn_within`): a
//! deadline in the past answers with the first rung of the ladder, a stop
//! at any moment answers with a search that finished (the move and score
//! of one whole search of the depth it reports), and an answer that
//! cannot be bettered ends the climb.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use regex_chess_tests::depth;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use chess::search::clock::Budget;
use chess::search::deepen::{rungs_to, Ended, Limits};
use chess::Depth;
use regex_vm::{StopReason, Time};

/// The rook ending of `bench.epd` after its move: depth 5 takes a few
/// hundred milliseconds here, so a stop falls in every rung.
const ROOK_ENDING: &str = "8/8/2R1k3/8/8/4K3/8/5r2 b - - 1 1";

fn past() -> Limits {
    Limits {
        budget: Some(Budget {
            target: Duration::ZERO,
            limit: Duration::ZERO,
            banked: true,
        }),
        ..Limits::to_depth(Depth::DEFAULT)
    }
}

#[test]
fn a_deadline_in_the_past_answers_with_the_shallowest_search() {
    let shallow = chess::search(ROOK_ENDING, &[], depth(2)).unwrap();
    let thought = chess::think(ROOK_ENDING, &[], &past(), |_| {}).unwrap();
    assert_eq!(thought.rungs.len(), 1);
    assert_eq!(thought.answer().depth, 2);
    assert_eq!(thought.answer().answer, shallow.best);
    assert!(
        matches!(thought.ended, Ended::NotStarted { depth, .. } if depth == 3),
        "{:?}",
        thought.ended
    );
}

#[test]
fn a_stop_at_any_moment_answers_with_a_finished_search() {
    // What each depth answers when searched to its end.
    let whole: Vec<(Depth, Option<(String, u32)>)> = rungs_to(Depth::DEFAULT)
        .into_iter()
        .map(|d| (d, chess::search(ROOK_ENDING, &[], d).unwrap().best))
        .collect();
    let full = chess::think(ROOK_ENDING, &[], &Limits::to_depth(Depth::DEFAULT), |_| {}).unwrap();
    let total = full.answer().at;
    assert_eq!(full.ended, Ended::Top);
    assert_eq!(full.answer().depth, Depth::DEFAULT);
    let mut depths = Vec::new();
    for step in 0..12u32 {
        // Stops spread over the whole climb, and past its end.
        let after = total * step / 10;
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            flag: Some(Arc::clone(&flag)),
            ..Limits::to_depth(Depth::DEFAULT)
        };
        let raiser = thread::spawn(move || {
            thread::sleep(after);
            flag.store(true, Ordering::Relaxed);
        });
        let mut heard = Vec::new();
        let thought =
            chess::think(ROOK_ENDING, &[], &limits, |rung| heard.push(rung.depth)).unwrap();
        raiser.join().unwrap();
        let answer = thought.answer();
        let expected = &whole.iter().find(|(d, _)| *d == answer.depth).unwrap().1;
        assert_eq!(&answer.answer, expected, "stopped after {after:?}");
        assert_eq!(
            heard,
            thought.rungs.iter().map(|r| r.depth).collect::<Vec<_>>()
        );
        depths.push(answer.depth);
    }
    // The stops fell in more than one rung.
    depths.dedup();
    assert!(depths.len() >= 2, "{depths:?}");
}

/// Limits up to `top` within `limit` ticks of a clock that moves a tick
/// (1 ms) each time it is read: the climb reads it around each rung and
/// the executor before each rewrite of a rung with a deadline, so a limit
/// falls after a count of rewrites, the same on any machine at any load.
fn ticking(top: Depth, limit: u64) -> Limits {
    let time = Time::ticking(TICK);
    let limit = Duration::from_millis(limit);
    Limits {
        start: time.now(),
        time,
        budget: Some(Budget {
            target: limit,
            limit,
            banked: false,
        }),
        ..Limits::to_depth(top)
    }
}

/// One tick of [`ticking`]'s clock (its ticks are milliseconds).
const TICK: Duration = Duration::from_millis(1);

/// Ticks of [`ticking`]'s clock.
fn ticks(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap()
}

#[test]
fn a_budget_keeps_the_climb_within_its_limit() {
    // Kiwipete after Bxa6: thousands of rewrites at depth 3, more at 5.
    let fen = "r3k2r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R3K2R b KQkq - 0 1";
    // Up to depth 3 with a limit that never falls: when each rung ends.
    let whole = chess::think(fen, &[], &ticking(depth(3), 1 << 40), |_| {}).unwrap();
    assert_eq!(whole.ended, Ended::Top);
    let (two, three) = (&whole.rungs[0], &whole.rungs[1]);
    assert!(ticks(three.took) > 1_000, "{:?}", three.took);
    // A limit halfway through depth 3, then one just after it: the rung
    // under way is stopped, the one before answers as it did whole.
    for (limit, top, cut, answering) in [
        (ticks(two.at) + ticks(three.took) / 2, depth(3), 3, two),
        (ticks(three.at) + 50, Depth::DEFAULT, 5, three),
    ] {
        let thought = chess::think(fen, &[], &ticking(top, limit), |_| {}).unwrap();
        assert_eq!(
            thought.ended,
            Ended::Stopped {
                depth: depth(cut),
                reason: StopReason::Deadline
            },
            "limit {limit}"
        );
        assert_eq!(thought.answer().depth, answering.depth);
        assert_eq!(thought.answer().answer, answering.answer);
        // Stopped at the first rewrite past the limit: a few readings
        // after it (the climb's own, and the other half's when a stretch
        // runs on two halves of the state at once, each asking the stop).
        let elapsed = ticks(thought.elapsed);
        assert!(
            (limit..=limit + 8).contains(&elapsed),
            "{elapsed} ticks against a limit of {limit}"
        );
    }
}

#[test]
fn an_answer_that_cannot_be_bettered_ends_the_climb() {
    // Mate in one: nothing deeper plays better.
    let mate = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let thought = chess::think(mate, &[], &Limits::to_depth(Depth::DEFAULT), |_| {}).unwrap();
    assert_eq!(thought.ended, Ended::Settled);
    assert_eq!(thought.rungs.len(), 1);
    assert_eq!(thought.answer().answer, Some(("a1a8".into(), chess::MATE)));
    // A single legal move.
    let forced = "7k/R7/8/8/8/8/8/K7 b - - 0 1";
    assert_eq!(chess::legal_moves(forced).unwrap().len(), 1);
    let thought = chess::think(forced, &[], &Limits::to_depth(Depth::DEFAULT), |_| {}).unwrap();
    assert_eq!(thought.ended, Ended::Settled);
    assert_eq!(thought.answer().answer.as_ref().unwrap().0, "h8g8");
    // No legal move at all.
    let mated = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let thought = chess::think(mated, &[], &Limits::to_depth(Depth::DEFAULT), |_| {}).unwrap();
    assert_eq!(thought.answer().answer, None);
    assert_eq!(thought.rungs.len(), 1);
}

#[test]
fn a_turn_on_a_clock_shows_the_screen_of_a_finished_turn() {
    let start = chess::screen::start_screen(
        "8/8/4k3/8/2R5/4K3/8/5r2 w - - 0 1",
        Some(shakmaty::Color::Black),
    )
    .unwrap();
    // A deadline in the past: the first rung's screen.
    let mut shallow = start.clone();
    chess::play_turn(&mut shallow, Some("c4c6"), depth(2)).unwrap();
    let mut state = start.clone();
    let climb = chess::play_turn_within(&mut state, Some("c4c6"), &past()).unwrap();
    assert_eq!(climb.answer().depth, 2);
    assert_eq!(state, shallow);
    // No limit: the default depth's screen.
    let mut deep = start.clone();
    chess::play_turn(&mut deep, Some("c4c6"), Depth::DEFAULT).unwrap();
    let mut state = start.clone();
    let climb =
        chess::play_turn_within(&mut state, Some("c4c6"), &Limits::to_depth(Depth::DEFAULT))
            .unwrap();
    assert_eq!(climb.ended, Ended::Top);
    assert_eq!(state, deep);
    // An illegal line: the engine does not move, nothing deeper runs.
    let mut state = start.clone();
    let climb =
        chess::play_turn_within(&mut state, Some("c4c9"), &Limits::to_depth(Depth::DEFAULT))
            .unwrap();
    assert_eq!(climb.ended, Ended::Settled);
    assert_eq!(climb.rungs.len(), 1);
}
