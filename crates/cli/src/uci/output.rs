//! The lines `regex-chess uci` writes about a search: an `info` line per
//! finished depth, an `info string` saying why no deeper one answered, the
//! `bestmove` line, a score in UCI's `cp`/`mate` form, and `info string`
//! messages kept on one line. Text only: it runs no search and reads no
//! input.

use std::time::Duration;

use chess::search::deepen::Ended;
use chess::vocabulary::mate_in;
use chess::EVEN;
use regex_vm::{Stats, StopReason};

/// The UCI score of a search score, from the mover's view: `mate N` for a
/// mate the mover gives with its `N`th move (`mate -N`: the mover is
/// mated by the opponent's `N`th move), otherwise centipawns,
/// `(score - EVEN) * 10`. Which scores are mates is [`mate_in`]'s to say.
pub(crate) fn score_text(score: u32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", centipawns(score)),
    }
}

/// A search score that is not a mate in centipawns from the mover's view,
/// `(score - EVEN) * 10` (scores are in tens of centipawns about `EVEN`).
pub(crate) fn centipawns(score: u32) -> i64 {
    (i64::from(score) - i64::from(EVEN)) * 10
}

/// The `info` line of a finished search of `depth` plies that found
/// `best` by `at` (time since `go`): `nodes` are the most positions
/// (threads) it held at once, the string the rewrites it applied.
pub(crate) fn info_line(
    depth: chess::Depth,
    best: &Option<(String, u32)>,
    at: Duration,
    stats: &Stats,
) -> String {
    let (ms, nodes, rewrites) = (at.as_millis(), stats.peak_threads, stats.executed);
    match best {
        Some((_, score)) => format!(
            "info depth {depth} score {} time {ms} nodes {nodes} string {rewrites} rewrites",
            score_text(*score)
        ),
        None => format!(
            "info depth 0 time {ms} nodes {nodes} string no legal move, {rewrites} rewrites"
        ),
    }
}

/// The `bestmove` line of an answer (`0000` without a legal move).
pub(crate) fn bestmove_line(best: &Option<(String, u32)>) -> String {
    match best {
        Some((uci, _)) => format!("bestmove {uci}"),
        None => "bestmove 0000".into(),
    }
}

/// Why no deeper search answered, as an `info string`; nothing when the
/// deepest one asked for did.
pub(crate) fn ended_line(ended: &Ended) -> Option<String> {
    let text = match ended {
        Ended::Top | Ended::Settled => return None,
        Ended::Stopped {
            depth,
            reason: StopReason::Deadline,
        } => format!("depth {depth} stopped at the move's time limit"),
        Ended::Stopped {
            depth,
            reason: StopReason::Flag,
        } => format!("depth {depth} stopped"),
        Ended::NotStarted { depth, expected } => format!(
            "depth {depth} not started: expected to take {} ms",
            expected.as_millis()
        ),
        Ended::TooLarge { depth } => format!("depth {depth} outgrew its memory cap"),
        // Said by its `skipped_line`.
        Ended::NotBuilt { .. } => return None,
    };
    Some(info_string(&text))
}

/// The `info string` of a rung skipped on a clock because its program was
/// still being built.
pub(crate) fn skipped_line(depth: chess::Depth) -> String {
    info_string(&format!(
        "depth {depth} skipped: its program is still being built"
    ))
}

/// The lines of a search that failed: why, then `bestmove 0000`.
pub(crate) fn failure_lines(message: &str) -> Vec<String> {
    vec![
        info_string(&format!("search failed: {message}")),
        "bestmove 0000".into(),
    ]
}

/// `info string <message>`, kept on one line.
pub(crate) fn info_string(message: &str) -> String {
    format!("info string {}", message.replace(['\r', '\n'], " "))
}

#[cfg(test)]
mod tests {
    use chess::vocabulary::mate_at;

    use super::*;

    #[test]
    fn score_text_is_centipawns_or_mate() {
        assert_eq!(score_text(5000), "cp 0");
        assert_eq!(score_text(5012), "cp 120");
        assert_eq!(score_text(4990), "cp -100");
        assert_eq!(score_text(9000), "mate 1");
        assert_eq!(score_text(mate_at(3)), "mate 2");
        assert_eq!(score_text(2 * EVEN - mate_at(2)), "mate -1");
    }

    #[test]
    fn report_format() {
        let stats = Stats {
            peak_threads: 600,
            executed: 1234,
            ..Stats::default()
        };
        let best = Some(("e7e5".to_string(), 4997));
        assert_eq!(
            info_line(
                chess::Depth::MIN,
                &best,
                Duration::from_micros(87_600),
                &stats
            ),
            "info depth 2 score cp -30 time 87 nodes 600 string 1234 rewrites"
        );
        assert_eq!(bestmove_line(&best), "bestmove e7e5");
        assert_eq!(
            info_line(chess::Depth::MIN, &None, Duration::from_millis(3), &stats),
            "info depth 0 time 3 nodes 600 string no legal move, 1234 rewrites"
        );
        assert_eq!(bestmove_line(&None), "bestmove 0000");
        assert_eq!(
            failure_lines("the regex VM stopped"),
            [
                "info string search failed: the regex VM stopped",
                "bestmove 0000"
            ]
        );
        assert_eq!(ended_line(&Ended::Top), None);
        assert_eq!(
            ended_line(&Ended::NotStarted {
                depth: chess::Depth::DEFAULT,
                expected: Duration::from_millis(2400)
            })
            .as_deref(),
            Some("info string depth 5 not started: expected to take 2400 ms")
        );
        assert_eq!(
            ended_line(&Ended::Stopped {
                depth: chess::Depth::new(3).unwrap(),
                reason: StopReason::Deadline
            })
            .as_deref(),
            Some("info string depth 3 stopped at the move's time limit")
        );
    }
}
