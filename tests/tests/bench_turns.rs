//! Every benchmark turn ends in the same bytes with the executor's fast
//! paths (pieces, reach, literal skips, parallel pieces) as with the plain
//! loop.

use regex_chess_tests::naive;
use regex_vm::{Config, Executor};

#[test]
fn fast_paths_and_naive_loop_agree_on_every_bench_turn() {
    let program = &chess::turn_pass().unwrap().program;
    let slow = Executor::new(program, naive()).unwrap();
    let fast = Executor::new(program, Config::default()).unwrap();
    // The two-halves path, which the default threshold keeps for states
    // bigger than these turns reach.
    let split = Executor::new(
        program,
        Config {
            split_bytes: 4 << 10,
            ..Config::default()
        },
    )
    .unwrap();
    let suite = include_str!("../data/bench.epd");
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
        let (mut a, mut b, mut c) = (start.clone(), start.clone(), start);
        let sa = fast.run(&mut a).unwrap();
        let sb = slow.run(&mut b).unwrap();
        split.run(&mut c).unwrap();
        assert!(
            a == b,
            "{fen} {mv}: the fast executor differs from the plain loop"
        );
        assert!(
            c == b,
            "{fen} {mv}: the two-halves executor differs from the plain loop"
        );
        assert!(a.contains("You played"), "{fen} {mv}");
        assert!(sa.skipped > 0 && sb.skipped == 0);
        assert_eq!(sa.peak_state_bytes, sb.peak_state_bytes);
        assert_eq!(sa.peak_threads, sb.peak_threads, "{fen} {mv}");
        turns += 1;
    }
    assert_eq!(turns, 10);
}

/// Every rewrite the lowering declares thread-local is one the executor's
/// own analysis also proves cannot cross a thread.
#[test]
fn declared_scopes_agree_with_the_executors_analysis() {
    use regex_vm::analysis::{analyse, Reach};
    let program = &chess::turn_pass().unwrap().program;
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
