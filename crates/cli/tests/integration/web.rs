//! The page of `regex-chess web` in a real browser: headless Chromium,
//! driven by `puppeteer-core` (installed by `.ci/run` into `.ci/node`),
//! against a static server on a loopback port. What the page shows is
//! compared with the terminal's screens for the same lines, computed now by
//! `regex-chess play --ascii` fed by a pipe (nothing is written down here).
//! The harness (the tools, the server, the driver) is `web/browser.rs`.
//! Without Chromium, node or the driver a browser test says SKIPPED
//! (`common::missing`), and fails under `CI=true`.

mod browser;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use chess::codec::START_FEN;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use crate::common::bin;
use browser::{node_output, workspace, write_site, Browser};

const FILES: &str = "  a b c d e f g h";

/// The depth a page's stats line says the engine's reply came from.
fn reply_depth(stats: &str) -> &str {
    stats
        .strip_prefix("Engine reply (depth ")
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no reply depth in {stats:?}"))
}

/// The terminal's screens for `lines` (the first, then one after each
/// line), as `play --ascii` shows them (the timing line left out: the page
/// shows times elsewhere), the engine searching depth 2, the page's level
/// 1 (the replays below ask for it, to keep the test short).
fn terminal_screens(args: &[&str], lines: &[&str]) -> Vec<String> {
    terminal_screens_at(&["--depth", "2"], args, lines)
}

/// As [`terminal_screens`], `play` given `depth` (nothing: the engine's
/// default strength, the page's untimed level 5).
fn terminal_screens_at(depth: &[&str], args: &[&str], lines: &[&str]) -> Vec<String> {
    let mut child = bin()
        .arg("play")
        .args(depth)
        .arg("--ascii")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("regex-chess play runs");
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writing the moves");
    let out = child.wait_with_output().expect("regex-chess play ends");
    assert!(out.status.success(), "play {args:?} failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let all: Vec<&str> = text
        .split('\n')
        .filter(|l| !(l.starts_with("(engine reply: ") && l.ends_with(" ms)")))
        .collect();
    let starts: Vec<usize> = (0..all.len().saturating_sub(1))
        .filter(|&i| all[i] == FILES && all[i + 1].starts_with("8 "))
        .collect();
    assert_eq!(starts.len(), lines.len() + 1, "{text}");
    starts
        .iter()
        .map(|&start| {
            // A screen ends with its last line: the prompt (the person's
            // line is echoed after it) or `Game over.`.
            let last = all[start..]
                .iter()
                .position(|l| l.starts_with("Your move: ") || *l == "Game over.")
                .expect("a last line")
                + start;
            let mut screen = all[start..last].join("\n");
            screen.push('\n');
            screen.push_str(if all[last] == "Game over." {
                "Game over."
            } else {
                "Your move: "
            });
            screen
        })
        .collect()
}

/// The pieces on a screen's board by square.
fn board_of(screen: &str) -> BTreeMap<String, String> {
    let mut board = BTreeMap::new();
    for line in screen.split('\n').skip(1).take(8) {
        let cells: Vec<&str> = line.split(' ').collect();
        for (f, cell) in cells[1..9].iter().enumerate() {
            if *cell != "." {
                let file = char::from(b'a' + f as u8);
                board.insert(format!("{file}{}", cells[0]), cell.to_string());
            }
        }
    }
    board
}

/// The message line of a screen (the line above the prompt).
fn message_of(screen: &str) -> &str {
    let lines: Vec<&str> = screen.split('\n').collect();
    lines[lines.len() - 2]
}

/// The movetext of the game a series of screens reports (each new
/// last-moves line read once), written by shakmaty from `fen`.
fn movetext(fen: &str, screens: &[String]) -> String {
    let setup: shakmaty::fen::Fen = fen.parse().expect("a FEN");
    let mut pos: Chess = setup
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("a legal position");
    let mut number = pos.fullmoves().get();
    let mut words = Vec::new();
    let mut last_info = None;
    for screen in screens {
        // The lines under the board that report moves ("... played e2e4").
        let info: Vec<&str> = screen
            .split('\n')
            .skip(10)
            .filter(|l| l.contains(" played "))
            .collect();
        if last_info.as_ref() == Some(&info) {
            continue;
        }
        last_info = Some(info.clone());
        let words_of_info: Vec<&str> = info.iter().flat_map(|l| l.split(' ')).collect();
        for (i, _) in words_of_info
            .iter()
            .enumerate()
            .filter(|(_, w)| **w == "played")
        {
            // The coordinates, or the SAN followed by them in brackets.
            let Some(uci) = words_of_info[i + 1..]
                .iter()
                .take(2)
                .find_map(|w| w.trim_matches(['(', ')', ',', '.']).parse::<UciMove>().ok())
            else {
                continue;
            };
            let m = uci.to_move(&pos).expect("a legal move on the screen");
            let white = pos.turn() == shakmaty::Color::White;
            if white {
                words.push(format!("{number}."));
            } else if words.is_empty() {
                words.push(format!("{number}..."));
            }
            words.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
            if !white {
                number += 1;
            }
        }
    }
    words.push(pos.outcome().as_str().to_string());
    words.join(" ")
}

/// The movetext line of a PGN file.
fn movetext_of(pgn: &str) -> &str {
    pgn.trim_end().rsplit('\n').next().unwrap_or("")
}

fn str_of<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("no {key} in {v}"))
}

fn board_seen(v: &serde_json::Value) -> BTreeMap<String, String> {
    serde_json::from_value(v["board"].clone()).expect("a board")
}

/// The level (1-based) of the site's `screen.js` that climbs to `top`
/// with no time limit.
fn untimed_level(site: &Path, top: chess::Depth) -> usize {
    let value = screen_value(site);
    let levels = value["engine"]["levels"].as_array().expect("the levels");
    levels
        .iter()
        .position(|l| {
            l["budget"].is_null()
                && l["rungs"].as_array().and_then(|r| r.last()) == Some(&top.plies().into())
        })
        .expect("an untimed level")
        + 1
}

#[test]
fn browser_page_plays_like_the_terminal() {
    let Some(browser) = Browser::open("the browser test") else {
        return;
    };

    let start_fen = START_FEN;
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let promotion = "8/P5k1/8/8/8/8/7P/4K3 w - - 0 1";
    let en_passant = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    let url_fen = |f: &str| f.replace(' ', "%20");
    // (query, start FEN, the terminal's screens for the same game)
    // Level 1 (depth 2) in the replays: the deeper rungs take seconds a
    // move in a browser.
    let replays = [
        (
            "?level=1&moves=e2e4,g1f3".to_string(),
            start_fen,
            terminal_screens(&[], &["e2e4", "g1f3"]),
        ),
        (
            format!("?level=1&fen={}&moves=f1c4", url_fen(fen)),
            fen,
            terminal_screens(&["--fen", fen], &["f1c4"]),
        ),
        (
            "?level=1&engine=white&moves=e7e5".to_string(),
            start_fen,
            // `--flip`: the terminal draws black's side for a person playing
            // black; the screen the program produced has white's.
            terminal_screens(&["--engine-color", "white", "--flip"], &["e7e5"]),
        ),
        (
            "?level=1&engine=none&moves=e2e4,e7e5,g1f3".to_string(),
            start_fen,
            terminal_screens(&["--engine-color", "none"], &["e2e4", "e7e5", "g1f3"]),
        ),
        (
            format!("?level=1&fen={}&moves=a1a8", url_fen(mate)),
            mate,
            terminal_screens(&["--fen", mate], &["a1a8"]),
        ),
        (
            format!("?level=1&fen={}&moves=e5d6", url_fen(en_passant)),
            en_passant,
            terminal_screens(&["--fen", en_passant], &["e5d6"]),
        ),
    ];
    // The session of clicks and typing plays at the page's untimed depth
    // 5: the terminal's default engine (the default level, on a clock,
    // answers from the depth its time reaches; the test below).
    let untimed = untimed_level(browser.site.path(), chess::Depth::DEFAULT);
    let session = terminal_screens_at(&[], &[], &["e2e4", "e2e5", "Nf3"]);
    let promoted = terminal_screens(&["--fen", promotion], &["a7a8n"]);

    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
    let screenshot = out_dir.join("web.png");
    let _ = std::fs::remove_file(&screenshot);
    let seen = browser.drive(serde_json::json!({
        "screenshot": screenshot,
        "replays": replays.iter().map(|(q, _, _)| q).collect::<Vec<_>>(),
        "badFen": "?fen=8/8/8/8%20w%20-%20-%200%201",
        "session": format!("?level={untimed}"),
        "timed": format!("?level=4&fen={}&moves=a7a8n", url_fen(promotion)),
        "promotion": {
            "query": format!("?level=1&fen={}", url_fen(promotion)),
            "from": "a7",
            "to": "a8",
            "role": "n",
        },
    }));

    // Replays from the URL: the terminal's screen byte for byte, its board,
    // and the game as PGN.
    let got = seen["replays"].as_array().expect("the replays");
    assert_eq!(got.len(), replays.len());
    for ((query, start, screens), got) in replays.iter().zip(got) {
        let expected = screens.last().expect("a screen");
        assert_eq!(str_of(got, "screen"), expected, "replay {query}");
        assert_eq!(board_seen(got), board_of(expected), "board of {query}");
        let pgn = str_of(got, "pgn");
        assert_eq!(
            movetext_of(pgn),
            movetext(start, screens),
            "PGN of {query}:\n{pgn}"
        );
        // The board from the person's side.
        let corner = if query.contains("engine=white") {
            "h1"
        } else {
            "a8"
        };
        assert_eq!(str_of(got, "corner"), corner, "board of {query}");
        assert_eq!(
            pgn.contains(&format!("[FEN \"{start}\"]")),
            *start != start_fen,
            "{pgn}"
        );
    }
    assert!(replays[5].2[0].contains("En passant: d6."));
    let mated = &replays[4].2[1];
    assert!(mated.ends_with("Game over."), "{mated}");
    assert!(movetext(mate, &replays[4].2).ends_with("1-0"));

    // A bad FEN in the URL: said so, no game.
    let message = str_of(&seen["badFen"], "message");
    assert!(message.starts_with("bad FEN: "), "{message}");
    assert_eq!(str_of(&seen["badFen"], "screen"), "");

    // The start, then e2 and e4 clicked at the untimed depth 5: the
    // terminal's default engine's reply is on the screen and the board,
    // with the time and the rewrites of the pass.
    let [start, clicked, bad, san] = &session[..] else {
        panic!("four screens expected");
    };
    assert_eq!(str_of(&seen["start"], "screen"), start);
    assert_eq!(str_of(&seen["clicked"], "screen"), clicked);
    // The engine has replied: white is to move again.
    assert!(clicked.contains("\nWhite to move"), "{clicked}");
    assert_eq!(board_seen(&seen["clicked"]), board_of(clicked));
    let stats = str_of(&seen["clicked"], "stats");
    assert!(
        stats.starts_with(&format!("Engine reply (depth {}): ", chess::Depth::DEFAULT))
            && stats.contains(" ms, ")
            && stats.contains(" rewrites ran"),
        "{stats}"
    );
    let at_level = |moves: &str| format!("/?level={untimed}&moves={moves}");
    assert_eq!(str_of(&seen["clicked"], "url"), at_level("e2e4"));
    println!("after e2e4 clicked: {stats}");
    // Its last rung (depth 5) was given the move depth 3 plays there as
    // its hint line, as `chess::play_turn_within` gives it.
    let mut below = chess::turn::default_start_screen();
    chess::play_turn(&mut below, Some("e2e4"), chess::Depth::new(3).unwrap()).unwrap();
    let below = chess::screen::parse_screen(&below).unwrap().info;
    assert_eq!(
        Some(str_of(&seen["clicked"], "hint")),
        chess::turn::engine_move(&below),
        "{below}"
    );
    // Thinking, the page said so and turned the board over when asked.
    let thinking = &seen["thinking"];
    assert_eq!(str_of(thinking, "status"), "thinking");
    assert!(
        str_of(thinking, "turn").starts_with("Thinking…"),
        "{thinking}"
    );
    assert_eq!(str_of(thinking, "corner"), "h1");

    // "Move now" once the first depth is done: the screen of a depth that
    // finished (not the default's 5), as the terminal shows it at that
    // depth.
    let moved = &seen["movedNow"];
    assert_eq!(moved["climb"]["ended"]["reason"], "moveNow", "{moved}");
    let stats = str_of(moved, "stats");
    let depth = reply_depth(stats);
    assert!(depth == "2" || depth == "3", "{stats}");
    let at_depth = terminal_screens_at(&["--depth", depth], &[], &["d2d4"]);
    assert_eq!(str_of(moved, "screen"), at_depth[1], "{stats}");

    // A bad move: the program's own reason, the same position.
    assert_eq!(str_of(&seen["bad"], "screen"), bad);
    assert_eq!(str_of(&seen["bad"], "message"), message_of(bad));
    assert!(message_of(bad).contains("e2e5"), "{bad}");
    assert_eq!(board_seen(&seen["bad"]), board_seen(&seen["clicked"]));
    assert_eq!(str_of(&seen["bad"], "url"), at_level("e2e4"));

    // SAN typed as at the terminal; the PGN so far.
    assert_eq!(str_of(&seen["san"], "screen"), san);
    assert_eq!(str_of(&seen["san"], "url"), at_level("e2e4,g1f3"));
    let pgn = str_of(&seen["san"], "pgn");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert_eq!(movetext_of(pgn), movetext(start_fen, &session), "{pgn}");

    // Undo: back to the position before the SAN move, on the screen that
    // ended the move before it, not the mistyped move's refusal (as the
    // terminal's undo shows it).
    assert_eq!(
        str_of(&seen["undone"], "screen"),
        str_of(&seen["clicked"], "screen")
    );
    assert!(!str_of(&seen["undone"], "screen").contains("e2e5"));
    assert!(!str_of(&seen["undone"], "message").contains("e2e5"));
    assert_eq!(str_of(&seen["undone"], "url"), at_level("e2e4"));
    assert_eq!(str_of(&seen["flipped"], "corner"), "h1");
    assert_eq!(board_seen(&seen["flipped"]), board_of(bad));

    // A pawn dragged to the last rank: a click on the board closes the
    // chooser without a pass; then again, and a knight chosen.
    assert_eq!(seen["cancelled"]["passes"], 0);
    assert_eq!(seen["cancelled"]["chooserHidden"], true);
    assert_eq!(str_of(&seen["cancelled"], "screen"), &promoted[0]);
    let expected = promoted.last().expect("a screen");
    assert_eq!(str_of(&seen["promoted"], "screen"), expected);
    assert!(expected.contains("played a7a8n"), "{expected}");
    assert_eq!(
        movetext_of(str_of(&seen["promoted"], "pgn")),
        movetext(promotion, &promoted)
    );

    // Level 4 (up to depth 6, 5 s a move) in an ending: the screen of the
    // depth it reached, as the terminal shows it at that depth. Which
    // depth finishes in 5 s depends on the machine; it is printed.
    let timed = &seen["timed"];
    let stats = str_of(timed, "stats");
    let depth = reply_depth(stats);
    assert!(["2", "3", "5", "6"].contains(&depth), "{stats}");
    let at_depth = terminal_screens_at(&["--depth", depth], &["--fen", promotion], &["a7a8n"]);
    assert_eq!(str_of(timed, "screen"), at_depth[1], "{stats}");
    println!("level 4 after a7a8n: {stats}");

    assert!(
        screenshot.is_file(),
        "no screenshot at {}",
        screenshot.display()
    );
    println!("screenshot: {}", screenshot.display());
}

/// A position of the bench suite (`tests/data/bench.epd`) by its id: its
/// FEN and the move played in it.
fn bench_turn(id: &str) -> (String, String) {
    let suite = std::fs::read_to_string(workspace().join("tests/data/bench.epd"))
        .expect("tests/data/bench.epd");
    let line = suite
        .lines()
        .find(|l| l.ends_with(&format!(";id {id}")))
        .unwrap_or_else(|| panic!("no {id} in bench.epd"));
    let mut fields = line.split(" ;");
    let fen = fields.next().expect("a FEN").trim().to_string();
    let mv = fields
        .find_map(|f| f.strip_prefix("move "))
        .expect("a move")
        .to_string();
    (fen, mv)
}

/// The page opened on the bench's heaviest middlegame (the one whose
/// reply the untimed depth 5 took longest on) at its default level, the
/// move played from the URL: the level thinks on the clock of `play
/// --movetime 5000`, and the page's own account of its climb says so.
/// Its rungs had the level's limit as their deadline; the reply is the
/// screen of the deepest rung that finished, byte for byte the terminal's
/// at that depth (so a legal move, from a whole search), and no deeper
/// rung answered because the limit came first (it was given up there,
/// not started, or its program was still loading) or the top rung
/// finished. An untimed default level reports no limit and fails here.
/// How long it took from opening the page is printed, not judged.
#[test]
fn browser_default_level_thinks_on_a_clock() {
    let Some(browser) = Browser::open("the browser clock test") else {
        return;
    };
    let value = screen_value(browser.site.path());
    let engine = &value["engine"];
    let default = &engine["levels"][engine["defaultLevel"].as_u64().unwrap() as usize - 1];
    let budget = chess::search::clock::budget(&chess::search::clock::Clock {
        movetime: Some(std::time::Duration::from_millis(5_000)),
        ..chess::search::clock::Clock::default()
    })
    .expect("a budget");
    let limit = u64::try_from(budget.limit.as_millis()).unwrap();
    assert_eq!(default["budget"]["limitMs"], limit, "{default}");

    let (fen, mv) = bench_turn("middlegame-1");
    let query = format!("?fen={}&moves={mv}", fen.replace(' ', "%20"));
    let seen = browser.drive(serde_json::json!({ "clock": query }));
    let clock = &seen["clock"];
    let climb = &clock["climb"];
    assert_eq!(climb["limitMs"], limit, "{climb}");
    let rungs = climb["rungs"].as_array().expect("the finished rungs");
    let depths: Vec<&serde_json::Value> = rungs.iter().map(|r| &r["depth"]).collect();
    let level_rungs = default["rungs"].as_array().expect("the level's rungs");
    assert!(
        !depths.is_empty() && depths.iter().zip(level_rungs).all(|(d, r)| *d == r),
        "{climb}"
    );
    let stats = str_of(clock, "stats");
    let depth = reply_depth(stats);
    assert_eq!(depths.last().unwrap().to_string(), depth, "{stats}");
    let ended = &climb["ended"];
    match ended["reason"].as_str().expect("why the climb ended") {
        "top" => assert_eq!(depths.len(), level_rungs.len(), "{climb}"),
        "stopped" => assert!(ended["at"].as_u64().unwrap() >= limit, "{climb}"),
        "notStarted" | "notLoaded" => {}
        other => panic!("the climb ended by {other}: {climb}"),
    }
    if ended["reason"] != "top" {
        let next = &level_rungs[depths.len()];
        assert_eq!(&ended["depth"], next, "{climb}");
    }
    let at_depth = terminal_screens_at(&["--depth", depth], &["--fen", &fen], &[&mv]);
    assert!(
        at_depth[1].contains("The engine played "),
        "{}",
        at_depth[1]
    );
    assert_eq!(str_of(clock, "screen"), at_depth[1], "{stats}");
    println!(
        "default level, middlegame-1 after {mv}: {stats} ({} ms from opening the page; climb {climb})",
        clock["sinceOpen"]
    );
}

#[test]
fn web_writes_the_site_with_the_dumped_turn_program() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let site = dir.path().join("site");
    write_site(&site);
    for name in [
        "index.html",
        "app.js",
        "workers.js",
        "worker.js",
        "style.css",
        "screen.js",
        "turn2.js",
        "turn3.js",
        "turn5.js",
        "turn6.js",
        "moves.js",
    ] {
        assert!(site.join(name).is_file(), "no {name}");
    }
    // Each turnN.js is the module `dump --depth N` writes.
    for depth in chess::search::deepen::rungs_to(chess::search::deepen::TIMED_TOP) {
        let dumped = dir.path().join(format!("dumped{depth}.js"));
        let status = bin()
            .args(["dump", "--depth", &depth.to_string()])
            .arg(&dumped)
            .stdout(Stdio::null())
            .status()
            .expect("regex-chess dump runs");
        assert!(status.success());
        assert!(
            std::fs::read(site.join(format!("turn{depth}.js"))).unwrap()
                == std::fs::read(&dumped).unwrap(),
            "turn{depth}.js differs from the dumped module"
        );
    }
    // The page's levels: its default thinks on a clock; one climbs to
    // the terminal's default depth without a time limit.
    let value = screen_value(&site);
    let engine = &value["engine"];
    let levels = engine["levels"].as_array().unwrap();
    let default = &levels[engine["defaultLevel"].as_u64().unwrap() as usize - 1];
    assert!(!default["budget"].is_null(), "{default}");
    let untimed = &levels[untimed_level(&site, chess::Depth::DEFAULT) - 1];
    assert_eq!(untimed["budget"], serde_json::Value::Null);
    // The levels with a time a move climb as the terminal does on a
    // clock: up to depth 6.
    let timed: Vec<&serde_json::Value> = levels.iter().filter(|l| !l["budget"].is_null()).collect();
    assert!(timed.len() >= 2);
    for level in timed {
        assert_eq!(
            level["rungs"].as_array().unwrap().last().unwrap(),
            &serde_json::json!(chess::search::deepen::TIMED_TOP.plies()),
            "{level}"
        );
    }
    // Nothing in the page reaches out of the site.
    for name in [
        "index.html",
        "app.js",
        "workers.js",
        "worker.js",
        "style.css",
    ] {
        let text = std::fs::read_to_string(site.join(name)).unwrap();
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{name}"
        );
    }
}

/// One pass of a turn module over a text, in node, as the page's worker
/// runs it (`String.prototype.replace` with each rewrite in order).
const NODE_PASS: &str = r#"
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [module, input] = process.argv.slice(2);
const { rewrites } = await import(pathToFileURL(module).href);
let state = readFileSync(input, "utf8");
for (const [pattern, replacement] of rewrites) state = state.replace(pattern, replacement);
process.stdout.write(state);
"#;

/// The value the site's `screen.js` exports.
fn screen_value(site: &Path) -> serde_json::Value {
    let screen = std::fs::read_to_string(site.join("screen.js")).expect("screen.js");
    let json = screen
        .split_once("export const screen = ")
        .map(|(_, j)| j.trim_end().trim_end_matches(';'))
        .expect("screen.js exports `screen`");
    serde_json::from_str(json).expect("screen.js's JSON")
}

/// `turn6.js`, which only the page's timed levels reach (and rarely in
/// the browser tests), run by JavaScript's `RegExp` in
/// node on the page's own start screen and `e2e4`: the engine's reply is
/// the terminal's at `--depth 6`, byte for byte (the page, as the
/// terminal, does not show the program's history line).
#[test]
fn depth_6_turn_module_under_node_plays_like_the_terminal() {
    if !crate::common::needs("node", "the depth-6 turn module was not run") {
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let site = dir.path().join("site");
    write_site(&site);
    let start = screen_value(&site)["standardStart"]["black"]
        .as_str()
        .expect("the start screen")
        .to_string();
    let input = dir.path().join("input.txt");
    std::fs::write(&input, format!("{start}e2e4\n")).unwrap();
    let script = dir.path().join("pass.mjs");
    std::fs::write(&script, NODE_PASS).unwrap();
    let module = site.join("turn6.js");
    let out = node_output(
        Path::new("node"),
        &[&script, &module, &input],
        "node's pass of turn6.js",
    );
    let got = String::from_utf8(out).expect("UTF-8 output");
    let shown: Vec<&str> = got
        .split('\n')
        .filter(|l| !l.starts_with(chess::ending::HISTORY_PREFIX))
        .collect();
    let at_6 = terminal_screens_at(&["--depth", "6"], &[], &["e2e4"]);
    assert!(at_6[1].contains("The engine played "), "{}", at_6[1]);
    assert_eq!(shown.join("\n"), at_6[1]);
    // Not depth 5's screen: the same move here, another score.
    let at_5 = terminal_screens_at(&["--depth", "5"], &[], &["e2e4"]);
    assert_ne!(at_5[1], at_6[1]);
}

#[test]
fn web_into_a_file_is_an_error() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("taken");
    std::fs::write(&file, "x").unwrap();
    let out = bin()
        .arg("web")
        .arg(&file)
        .output()
        .expect("regex-chess web runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: creating "), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}
