//! `regex-chess uci` as a GUI drives it: a scripted session over a pipe,
//! whole games through python-chess's UCI client against a random mover
//! and, when a `stockfish` binary is installed, against Stockfish.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use chess::codec::START_FEN;
use chess::search::deepen::TIMED_TOP;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::common::{bin, missing, python_chess, stockfish, BIN};

/// What a finished child process left.
struct Finished {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Waits for `child`, killing it after `limit` (so a hung engine fails the
/// test instead of hanging it); stdout and stderr are drained meanwhile.
fn finish(mut child: Child, limit: Duration, what: &str) -> Finished {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
        thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{what} did not finish within {limit:?}; stderr:\n{}",
                err.join().unwrap_or_default()
            );
        }
        thread::sleep(Duration::from_millis(20));
    };
    Finished {
        success: status.success(),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// Runs `regex-chess uci` with `script` on stdin (then end of input).
fn session(script: &str) -> Finished {
    let mut child = bin()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(script.as_bytes())
        .expect("writing the script");
    drop(stdin);
    finish(child, Duration::from_secs(60), "the UCI session")
}

fn position(fen: &str, moves: &[&str]) -> Chess {
    let mut pos: Chess = fen
        .parse::<Fen>()
        .expect("FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    for m in moves {
        let mv = m
            .parse::<UciMove>()
            .expect("UCI")
            .to_move(&pos)
            .expect("legal");
        pos = pos.play(mv).expect("legal");
    }
    pos
}

/// Panics unless `line` is `bestmove <m>` with `m` legal in `pos`.
fn assert_legal_bestmove(line: &str, pos: &Chess) {
    let uci = line
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove line: {line:?}"));
    let legal = uci
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(pos).ok());
    assert!(
        legal.is_some(),
        "bestmove {uci} is not legal in {}",
        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
    );
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn scripted_session_over_a_pipe() {
    let script = format!(
        "uci\n\
         isready\n\
         ucinewgame\n\
         position startpos moves e2e4\n\
         go wtime 6000 btime 6000 winc 0 binc 0\n\
         position startpos moves e2e4 e7e9\n\
         position fen this is not a fen\n\
         position sideways\n\
         setoption name Hash value 16\n\
         bogus command\n\
         go movetime 100\n\
         go infinite\n\
         isready\n\
         stop\n\
         position fen {KIWIPETE} moves e1g1\n\
         go depth 1\n\
         quit\n\
         isready\n"
    );
    let run = session(&script);
    assert!(run.success, "exit status; stderr:\n{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| *l == needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{}", run.stdout))
    };
    assert!(lines[0].starts_with("id name regex-chess "), "{lines:?}");
    let uciok = at("uciok");
    let readyok = at("readyok");
    assert!(uciok < readyok);

    // Three malformed `position` lines and an unknown option, four
    // messages; nothing else but the searches' notes on the depths they
    // did not finish.
    let infos: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.starts_with("info string depth "))
        .collect();
    assert_eq!(infos.len(), 4, "{}", run.stdout);
    assert!(infos[0].contains("illegal move \"e7e9\""), "{infos:?}");
    assert!(infos[1].contains("invalid FEN"), "{infos:?}");
    assert!(infos[3].contains("no option named \"Hash\""), "{infos:?}");
    let depth_option = format!(
        "option name Depth type spin default {} min {} max {}",
        chess::search::deepen::TIMED_TOP,
        chess::Depth::MIN,
        chess::Depth::MAX
    );
    assert!(lines.contains(&depth_option.as_str()), "{lines:?}");

    let best: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove"))
        .map(|(i, l)| (i, *l))
        .collect();
    assert_eq!(best.len(), 4, "{}", run.stdout);
    // Each `go` prints a line for each depth it finished before its
    // bestmove: a clock of 6 s gives a 200 ms target, and a movetime of
    // 100 ms 50 ms, in which depth 2 or 3 answers (the choice itself is
    // unit-tested in uci.rs and chess::search::deepen).
    for (i, _) in &best[..2] {
        let last_info = lines[..*i]
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .expect("an info line");
        let info: Vec<&str> = last_info.split(' ').collect();
        assert!(
            matches!(
                info[..],
                [
                    "info",
                    "depth",
                    "2" | "3",
                    "score",
                    "cp" | "mate",
                    _,
                    "time",
                    _,
                    "nodes",
                    _,
                    "string",
                    _,
                    "rewrites"
                ]
            ),
            "{info:?}"
        );
        assert!(info[5].parse::<i64>().is_ok(), "{info:?}");
        assert!(info[7].parse::<u64>().is_ok(), "{info:?}");
        assert!(info[9].parse::<u64>().unwrap_or(0) > 0, "{info:?}");
    }
    let after_e4 = position(START_FEN, &["e2e4"]);
    assert_legal_bestmove(best[0].1, &after_e4);
    // The moves before e7e9 were played; the rejected lines after it left
    // that position in place.
    assert_legal_bestmove(best[1].1, &after_e4);
    // `go infinite` answers only at `stop`, after the `readyok` between.
    let second_readyok = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == "readyok")
        .nth(1)
        .map(|(i, _)| i)
        .expect("a second readyok");
    assert!(second_readyok < best[2].0, "{}", run.stdout);
    assert_legal_bestmove(best[2].1, &after_e4);
    assert_legal_bestmove(best[3].1, &position(KIWIPETE, &["e1g1"]));
    // Nothing after `quit`.
    assert_eq!(run.stdout.matches("readyok").count(), 2, "{}", run.stdout);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

/// An engine spoken to line by line, each of its lines read with the
/// instant it arrived.
struct Live {
    child: Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<(String, Instant)>,
}

impl Live {
    fn start() -> Live {
        let mut child = bin()
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
        }
    }

    /// Sends a line; returns when it was sent.
    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").expect("writing to the engine");
        self.stdin.flush().expect("flushing");
        Instant::now()
    }

    /// The next line starting with `prefix` and when it came (the lines
    /// before it are dropped); fails after `limit`.
    fn until(&mut self, prefix: &str, limit: Duration) -> (String, Instant) {
        let end = Instant::now() + limit;
        loop {
            let wait = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok((line, at)) if line.starts_with(prefix) => return (line, at),
                Ok(_) => {}
                Err(e) => panic!("no line starting {prefix:?} within {limit:?}: {e}"),
            }
        }
    }

    /// Every line up to and including the next one starting with
    /// `prefix`; fails after `limit` (a guard against a hang, not a
    /// measure of speed).
    fn lines_until(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut said = Vec::new();
        loop {
            let wait = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok((line, _)) => {
                    let last = line.starts_with(prefix);
                    said.push(line);
                    if last {
                        return said;
                    }
                }
                Err(e) => panic!("no line starting {prefix:?} within {limit:?}: {e}; {said:#?}"),
            }
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `go` on a clock sent at once after launch, or at once after the
/// `readyok` a GUI such as python-chess waits for before its first `go`,
/// answers from the first rung without waiting for the deeper rungs'
/// programs, still being built: it says which it skipped. (Those take
/// seconds of CPU to build, the first rung's search tens of milliseconds,
/// so the climb reaches a deeper rung long before its program is ready.)
#[test]
fn a_first_go_does_not_wait_for_the_deeper_programs() {
    for ready_first in [false, true] {
        let mut engine = Live::start();
        engine.send("uci");
        if ready_first {
            engine.send("ucinewgame");
            engine.send("isready");
            engine.until("readyok", Duration::from_secs(60));
        }
        engine.send("position startpos");
        engine.send("go wtime 10000 btime 10000 winc 100 binc 100");
        let mut said = Vec::new();
        let best = loop {
            let (line, _) = engine.until("", Duration::from_secs(60));
            if line.starts_with("bestmove") {
                break line;
            }
            if line.starts_with("info") {
                said.push(line);
            }
        };
        engine.send("quit");
        assert_legal_bestmove(&best, &position(START_FEN, &[]));
        let finished: Vec<&str> = said
            .iter()
            .filter_map(|l| l.strip_prefix("info depth ")?.split(' ').next())
            .collect();
        let skipped: Vec<&str> = said
            .iter()
            .filter_map(|l| {
                let rest = l.strip_prefix("info string depth ")?;
                let (depth, why) = rest.split_once(' ')?;
                (why == "skipped: its program is still being built").then_some(depth)
            })
            .collect();
        assert_eq!(finished.first(), Some(&"2"), "{said:#?}");
        assert!(!skipped.is_empty(), "ready first: {ready_first}; {said:#?}");
        assert!(
            skipped
                .iter()
                .all(|d| ["3", "5", "6"].contains(d) && !finished.contains(d)),
            "{said:#?}"
        );
    }
}

/// A `go` on a time limit ends its search because of the time (a depth
/// stopped at the limit, or not started because it would not fit), and
/// `stop` interrupts a search in the middle of a depth, with `isready`
/// answered while it runs. Checked by what the engine says, not by a
/// stopwatch: how long a move takes here is `match --tc`'s to measure.
#[test]
fn go_ends_at_its_time_and_stop_interrupts_the_search() {
    const HANG: Duration = Duration::from_secs(300);
    let mut engine = Live::start();
    engine.send("uci");
    engine.until("uciok", HANG);
    // A fixed-depth search waits for its program: every rung is built
    // before the timed searches, so none is skipped for being unbuilt.
    engine.send("position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    engine.send(&format!("go depth {TIMED_TOP}"));
    engine.until("bestmove", HANG);
    // Kiwipete: depth 5 takes seconds here, depth 3 hundreds of
    // milliseconds.
    engine.send(&format!("position fen {KIWIPETE}"));
    let kiwipete = position(KIWIPETE, &[]);
    let ended_by_time = |said: &[String]| {
        said.iter().any(|l| {
            l.starts_with("info string depth ")
                && (l.ends_with(" stopped at the move's time limit")
                    || l.contains(" not started: "))
        })
    };
    for go in [
        "go movetime 200",
        "go wtime 3000 btime 3000 winc 100 binc 100",
    ] {
        engine.send(go);
        let said = engine.lines_until("bestmove", HANG);
        assert_legal_bestmove(said.last().expect("bestmove"), &kiwipete);
        assert!(ended_by_time(&said), "{go}: {said:#?}");
    }

    engine.send("go infinite");
    let (first, _) = engine.until("info depth ", HANG);
    assert!(first.starts_with("info depth 2 "), "{first}");
    engine.send("isready");
    let said = engine.lines_until("readyok", HANG);
    assert!(said.iter().all(|l| !l.starts_with("bestmove")), "{said:#?}");
    engine.send("stop");
    let said = engine.lines_until("bestmove", HANG);
    assert_legal_bestmove(said.last().expect("bestmove"), &kiwipete);
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string depth ") && l.ends_with(" stopped")),
        "stop ends the depth it interrupts: {said:#?}"
    );
    engine.send("quit");
}

#[test]
fn illegal_move_plays_the_moves_before_it() {
    // Black to move after e2e4: the answer is a black move, not a white one
    // of the previous position.
    let run = session("position startpos\nposition startpos moves e2e4 junk\ngo\nquit\n");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("info string position: illegal move \"junk\" (move 2"),
        "{}",
        run.stdout
    );
    assert_legal_bestmove(lines.last().unwrap(), &position(START_FEN, &["e2e4"]));
}

#[test]
fn go_infinite_answers_at_quit_and_at_end_of_input() {
    for script in ["go infinite\nquit\n", "go infinite\n", "go ponder\nquit\n"] {
        let run = session(script);
        assert!(run.success, "{script:?}: {}", run.stderr);
        let best: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(best.len(), 1, "{script:?}: {}", run.stdout);
        assert_legal_bestmove(best[0], &position(START_FEN, &[]));
    }
}

#[test]
fn huge_line_is_refused_in_bounded_memory() {
    // 64 MB of one line: read in pieces, never held whole.
    let mut child = bin()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let pid = child.id();
    let writer = thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..64 {
            stdin.write_all(&chunk).expect("writing");
        }
        stdin.write_all(b"\n").expect("writing");
        // The engine's peak memory once it has read the line (before
        // `isready` builds the programs).
        thread::sleep(Duration::from_millis(300));
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        stdin.write_all(b"isready\n").expect("writing");
        drop(stdin);
        status
    });
    let run = finish(child, Duration::from_secs(60), "the UCI session");
    let status = writer.join().expect("writer");
    assert!(run.success, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "info string ignoring a line of {} bytes (the limit is 1048576)\nreadyok\n",
            64 << 20
        )
    );
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .expect("VmHWM in /proc/PID/status");
    assert!(
        peak_kb < 48 * 1024,
        "peak RSS {peak_kb} kB for a 64 MB line"
    );
}

#[test]
fn end_of_input_without_quit_exits_cleanly() {
    let run = session("uci\nposition startpos moves f2f3 e7e5 g2g4 d8h4\ngo\n");
    assert!(run.success, "{}", run.stderr);
    assert!(run.stdout.ends_with("bestmove 0000\n"), "{}", run.stdout);
}

/// Runs `uci_python.py` and returns its summary line.
fn play_with_python(args: &[&str]) -> String {
    if !python_chess() {
        missing(
            "python-chess",
            "the python-chess game (python3 -m pip install chess, as .ci/run does)",
        );
        return String::new();
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/uci_python.py");
    let child = Command::new("python3")
        .arg(&script)
        .arg(BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let run = finish(child, Duration::from_secs(300), "the python-chess game");
    assert!(
        run.success,
        "python-chess game {args:?} failed:\n{}\n{}",
        run.stdout, run.stderr
    );
    let summary = run.stdout.trim().to_string();
    println!("{summary}");
    assert!(summary.contains("all legal"), "{summary}");
    summary
}

#[test]
fn python_chess_game_against_a_random_mover() {
    play_with_python(&["random", "40", "7", "white"]);
}

#[test]
fn python_chess_game_from_a_fen_as_black() {
    // `position fen ... moves ...` with castling, en passant and
    // promotions nearby.
    play_with_python(&["random", "16", "11", "black", KIWIPETE]);
}

#[test]
fn python_chess_game_against_stockfish() {
    let Some(stockfish) = stockfish() else {
        missing(
            "stockfish",
            "the game against it (apt-get install stockfish)",
        );
        return;
    };
    let stockfish = stockfish.to_string_lossy().into_owned();
    play_with_python(&[stockfish.as_str(), "20", "3", "black"]);
}
