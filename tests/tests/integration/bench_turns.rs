//! Every benchmark turn ends in the same bytes with the executor's fast
//! paths (gates, engine paths, thread skips, places cut to their piece,
//! two-halves stretches on two cores or one) as with the plain loop, with
//! the same counts and peaks.

use regex_chess_tests::naive;
use regex_vm::{Config, Executor};

#[test]
fn fast_paths_and_naive_loop_agree_on_every_bench_turn() {
    let program = &chess::turn_pass(chess::Depth::FAST).unwrap().program;
    let slow = Executor::new(program, naive()).unwrap();
    let fast = Executor::new(program, Config::default()).unwrap();
    // The two-halves path from smaller states than by default, and the
    // one-rewrite-at-a-time loop with no second core.
    let split = Executor::new(
        program,
        Config {
            split_bytes: 2 << 10,
            ..Config::default()
        },
    )
    .unwrap();
    let single = Executor::new(
        program,
        Config {
            parallel: false,
            ..Config::default()
        },
    )
    .unwrap();
    let suite = include_str!("../../data/bench.epd");
    let mut turns = 0;
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let mv = fields
            .find_map(|f| f.trim().strip_prefix("move "))
            .unwrap()
            .trim();
        let pos = chess::codec::parse_fen(fen).unwrap();
        let engine = !shakmaty::Position::turn(&pos);
        let start = chess::screen::start_screen(fen, Some(engine)).unwrap() + mv + "\n";
        let (mut a, mut b, mut c, mut d) = (start.clone(), start.clone(), start.clone(), start);
        let sa = fast.run(&mut a).unwrap();
        let sb = slow.run(&mut b).unwrap();
        let sc = split.run(&mut c).unwrap();
        let sd = single.run(&mut d).unwrap();
        assert!(
            a == b,
            "{fen} {mv}: the fast executor differs from the plain loop"
        );
        assert!(
            c == b,
            "{fen} {mv}: the two-halves executor differs from the plain loop"
        );
        assert!(d == b, "{fen} {mv}: the one-core executor differs");
        assert!(a.contains("You played"), "{fen} {mv}");
        assert!(sa.skipped > 0 && sb.skipped == 0);
        assert_eq!(sa.peak_state_bytes, sb.peak_state_bytes);
        assert_eq!(sa.peak_threads, sb.peak_threads, "{fen} {mv}");
        // Halves count changes and peaks as the whole state would; a
        // rewrite counts as run when it ran on either half, which it can
        // only do when it would have run on the whole.
        for s in [&sa, &sc] {
            assert_eq!(s.changed, sd.changed, "{fen} {mv}");
            assert!(s.executed <= sd.executed, "{fen} {mv}");
            assert_eq!(s.executed + s.skipped, sd.executed + sd.skipped);
            assert_eq!(s.peak_state_bytes, sb.peak_state_bytes, "{fen} {mv}");
            assert_eq!(s.peak_threads, sb.peak_threads, "{fen} {mv}");
        }
        turns += 1;
    }
    assert!(turns > 0, "no turns read from bench.epd");
}

/// Every rewrite the lowering declares thread-local is one the executor's
/// own analysis also proves cannot cross a thread.
#[test]
fn declared_scopes_agree_with_the_executors_analysis() {
    use regex_vm::analysis::{analyse, Reach};
    let program = &chess::turn_pass(chess::Depth::FAST).unwrap().program;
    let mut local = 0;
    for r in program.rewrites() {
        if r.scope == regex_vm::Scope::ActiveThread {
            local += 1;
            assert_ne!(
                analyse(&r.pattern).reach,
                Reach::Global,
                "{:?} ({:?})",
                r.pattern,
                r.origin
            );
        }
    }
    assert!(local > 3000, "{local}");
}
