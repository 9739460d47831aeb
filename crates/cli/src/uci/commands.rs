//! The commands `regex-chess uci` reads: the arguments of `position` and
//! of `go`, parsed into [`PositionCmd`] and [`GoCmd`]. Parsing only: a
//! FEN is not validated and no move is played here; the session in `uci`
//! does that with the regex programs.

use super::START_FEN;
use crate::textio::quote;

/// A parsed `position` command (not yet played).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PositionCmd {
    /// The FEN to start from (`startpos` is [`START_FEN`]).
    pub base: String,
    /// The moves to play, lowercase.
    pub moves: Vec<String>,
}

/// Parses the arguments of `position`: `startpos` or `fen <fields>`, then
/// optionally `moves <m1> <m2> ...`. The FEN is not validated here.
///
/// # Errors
///
/// A one-line message naming what is missing or unexpected.
pub(crate) fn parse_position(args: &[&str]) -> Result<PositionCmd, String> {
    let (base, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (START_FEN.to_string(), rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("`position fen` needs a FEN".into());
            }
            (rest[..end].join(" "), &rest[end..])
        }
        Some((other, _)) => {
            return Err(format!(
                "`position` expects `startpos` or `fen`, not {}",
                quote(other)
            ))
        }
        None => return Err("`position` expects `startpos` or `fen`".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_ascii_lowercase()).collect(),
        Some((other, _)) => return Err(format!("expected `moves`, found {}", quote(other))),
    };
    Ok(PositionCmd { base, moves })
}

/// A parsed `go` command: its limits, and whether the answer must wait
/// for `stop` / `ponderhit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct GoCmd {
    /// `infinite` or `ponder`: hold `bestmove` back.
    pub wait: bool,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `wtime MS`.
    pub wtime: Option<u64>,
    /// `btime MS`.
    pub btime: Option<u64>,
    /// `winc MS`.
    pub winc: Option<u64>,
    /// `binc MS`.
    pub binc: Option<u64>,
    /// `movestogo N`.
    pub movestogo: Option<u32>,
    /// Messages about arguments that made no sense (the search runs anyway).
    pub warnings: Vec<String>,
}

/// Parses the arguments of `go`.
pub(crate) fn parse_go(args: &[&str]) -> GoCmd {
    const NUMBERS: &[&str] = &[
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
    ];
    let mut go = GoCmd::default();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        i += 1;
        match token {
            "infinite" | "ponder" => go.wait = true,
            "searchmoves" => {
                // Every following token that is not a keyword is a move.
                while i < args.len() && !NUMBERS.contains(&args[i]) && !is_go_flag(args[i]) {
                    i += 1;
                }
                go.warnings
                    .push("searchmoves is not supported; searching all moves".into());
            }
            _ if NUMBERS.contains(&token) => match args.get(i) {
                Some(value) if value.parse::<i64>().is_ok() => {
                    i += 1;
                    // Negative clocks (a GUI past its flag) count as 0.
                    let n = value.parse::<i64>().map_or(0, |v| v.max(0) as u64);
                    let small = u32::try_from(n).unwrap_or(u32::MAX);
                    match token {
                        "depth" => go.depth = Some(small),
                        "movetime" => go.movetime = Some(n),
                        "wtime" => go.wtime = Some(n),
                        "btime" => go.btime = Some(n),
                        "winc" => go.winc = Some(n),
                        "binc" => go.binc = Some(n),
                        "movestogo" => go.movestogo = Some(small),
                        // The limits the engine does not have: said so,
                        // as `searchmoves` is, and searched without them.
                        _ => go
                            .warnings
                            .push(format!("go {token} is not supported; searching without it")),
                    }
                }
                _ => go.warnings.push(format!("go {token}: expected a number")),
            },
            _ => go.warnings.push(format!("go: ignoring {}", quote(token))),
        }
    }
    go
}

fn is_go_flag(token: &str) -> bool {
    matches!(token, "infinite" | "ponder" | "searchmoves")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FEN with an en passant field: six fields for `position fen`.
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

    #[test]
    fn parse_position_startpos_and_fen() {
        assert_eq!(
            parse_position(&["startpos"]),
            Ok(PositionCmd {
                base: START_FEN.into(),
                moves: vec![]
            })
        );
        assert_eq!(
            parse_position(&["startpos", "moves", "e2e4", "E7E5"]),
            Ok(PositionCmd {
                base: START_FEN.into(),
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        let fen: Vec<&str> = AFTER_E4.split(' ').collect();
        let mut args = vec!["fen"];
        args.extend(&fen);
        args.extend(["moves", "c7c5"]);
        assert_eq!(
            parse_position(&args),
            Ok(PositionCmd {
                base: AFTER_E4.into(),
                moves: vec!["c7c5".into()]
            })
        );
    }

    #[test]
    fn parse_position_rejects_malformed_lines() {
        for args in [
            &[][..],
            &["startfen"][..],
            &["fen"][..],
            &["fen", "moves", "e2e4"][..],
            &["startpos", "e2e4"][..],
        ] {
            assert!(parse_position(args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn parse_go_accepts_limits_and_flags_waiting() {
        let go = parse_go(&[
            "wtime",
            "300000",
            "btime",
            "-5",
            "winc",
            "0",
            "binc",
            "0",
            "movestogo",
            "40",
            "depth",
            "2",
            "nodes",
            "100",
            "movetime",
            "50",
            "mate",
            "1",
        ]);
        assert_eq!(
            go,
            GoCmd {
                depth: Some(2),
                movetime: Some(50),
                wtime: Some(300_000),
                // A clock past its flag counts as 0.
                btime: Some(0),
                winc: Some(0),
                binc: Some(0),
                movestogo: Some(40),
                warnings: vec![
                    "go nodes is not supported; searching without it".into(),
                    "go mate is not supported; searching without it".into(),
                ],
                ..GoCmd::default()
            }
        );
        assert!(parse_go(&["infinite"]).wait);
        assert!(parse_go(&["ponder", "wtime", "10"]).wait);
        let go = parse_go(&["depth", "x", "searchmoves", "e2e4", "d2d4", "infinite"]);
        assert!(go.wait);
        assert_eq!(go.warnings.len(), 3, "{:?}", go.warnings);
    }
}
