//! The lines `regex-chess uci` writes about a search: the `info` and
//! `bestmove` lines of an [`Outcome`], a score in UCI's `cp`/`mate` form,
//! and `info string` messages kept on one line. Text only: it runs no
//! search and reads no input.

use std::time::Duration;

use chess::search::mate_in;
use chess::EVEN;

/// What a search found, for [`report`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    /// The move (UCI) and its score, `None` without a legal move.
    pub best: Option<(String, u32)>,
    /// Plies searched.
    pub depth: u32,
    /// Positions searched: the most threads the search held at once (it
    /// expands every line of play side by side).
    pub nodes: usize,
    /// Rewrites the regex engine applied.
    pub rewrites: usize,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// The UCI score of a search score, from the mover's view: `mate N` for a
/// mate the mover gives with its `N`th move (`mate -N`: the mover is
/// mated by the opponent's `N`th move), otherwise centipawns,
/// `(score - EVEN) * 10`. Which scores are mates is [`mate_in`]'s to say.
pub(crate) fn score_text(score: u32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", (i64::from(score) - i64::from(EVEN)) * 10),
    }
}

/// The `info` lines and the `bestmove` line (last) of a search.
pub(crate) fn report(outcome: &Result<Outcome, String>) -> Vec<String> {
    match outcome {
        Ok(Outcome {
            best: Some((uci, score)),
            depth,
            nodes,
            rewrites,
            elapsed,
        }) => vec![
            format!(
                "info depth {} score {} time {} nodes {nodes} string {rewrites} rewrites",
                depth,
                score_text(*score),
                elapsed.as_millis()
            ),
            format!("bestmove {uci}"),
        ],
        Ok(Outcome {
            best: None,
            nodes,
            rewrites,
            elapsed,
            ..
        }) => vec![
            format!(
                "info depth 0 time {} nodes {nodes} string no legal move, {rewrites} rewrites",
                elapsed.as_millis()
            ),
            "bestmove 0000".into(),
        ],
        Err(message) => vec![
            info_string(&format!("search failed: {message}")),
            "bestmove 0000".into(),
        ],
    }
}

/// `info string <message>`, kept on one line.
pub(crate) fn info_string(message: &str) -> String {
    format!("info string {}", message.replace(['\r', '\n'], " "))
}

#[cfg(test)]
mod tests {
    use chess::search::mate_at;

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
        let found = Ok(Outcome {
            best: Some(("e7e5".into(), 4997)),
            depth: 2,
            nodes: 600,
            rewrites: 1234,
            elapsed: Duration::from_micros(87_600),
        });
        assert_eq!(
            report(&found),
            [
                "info depth 2 score cp -30 time 87 nodes 600 string 1234 rewrites",
                "bestmove e7e5"
            ]
        );
        let none = Ok(Outcome {
            best: None,
            depth: 2,
            nodes: 1,
            rewrites: 10,
            elapsed: Duration::from_millis(3),
        });
        assert_eq!(report(&none).last().unwrap(), "bestmove 0000");
        let failed = Err("the regex VM stopped".to_string());
        assert_eq!(
            report(&failed),
            [
                "info string search failed: the regex VM stopped",
                "bestmove 0000"
            ]
        );
    }
}
