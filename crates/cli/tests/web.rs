//! The page of `regex-chess web` in a real browser: headless Chromium,
//! driven by `puppeteer-core` (installed by `.ci/run` into `.ci/node`),
//! against a static server on a loopback port. What the page shows is
//! compared with the terminal's screens for the same lines, computed now by
//! `regex-chess play --ascii` fed by a pipe (nothing is written down here).
//! Without Chromium, node or the driver the test says SKIPPED, and fails
//! under `CI=true`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::Chess;

const FILES: &str = "  a b c d e f g h";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Chromium, node and the driver's folder, or why not.
fn tools() -> Result<(PathBuf, PathBuf, PathBuf), String> {
    let chromium = match std::env::var_os("CHROMIUM") {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => on_path("chromium")
            .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.is_file())),
    }
    .ok_or("no chromium (apt-get install chromium, or set CHROMIUM to its path)")?;
    let node = on_path("node").ok_or("no node on PATH (apt-get install nodejs)")?;
    let driver = workspace().join(".ci/node");
    if !driver
        .join("node_modules/puppeteer-core/package.json")
        .is_file()
    {
        return Err(format!(
            "no puppeteer-core in {} (npm install there, as .ci/run does)",
            driver.display()
        ));
    }
    Ok((chromium, node, driver))
}

/// Serves the files of `dir` on 127.0.0.1 (a free port) until the process
/// ends; returns the base URL.
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("the port").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    format!("http://127.0.0.1:{port}/")
}

fn answer(mut stream: TcpStream, dir: &Path) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header == "\r\n" || header == "\n" => break,
            Ok(_) => {}
        }
    }
    let target = request.split(' ').nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or("/");
    let name = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file = (!name.contains("..") && !name.contains('/'))
        .then(|| std::fs::read(dir.join(name)).ok())
        .flatten();
    let (status, kind, body) = match file {
        Some(body) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                _ => "application/octet-stream",
            };
            ("200 OK", kind, body)
        }
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

/// The terminal's last screen after `lines`, as `play --ascii` shows it
/// (the timing line left out: the page shows times elsewhere).
fn terminal_screen(args: &[&str], lines: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .arg("play")
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
    let all: Vec<&str> = text.split('\n').collect();
    let start = (0..all.len().saturating_sub(1))
        .rev()
        .find(|&i| all[i] == FILES && all[i + 1].starts_with("8 "))
        .expect("a screen in the output");
    let mut screen: Vec<&str> = all[start..]
        .iter()
        .copied()
        .filter(|l| !(l.starts_with("(engine reply: ") && l.ends_with(" ms)")))
        .collect();
    // At the end of its input the terminal ends the prompt's line.
    assert_eq!(screen.pop(), Some(""), "{text}");
    screen.join("\n")
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

/// The SAN of the moves a series of screens reports, by shakmaty.
fn sans(screens: &[&str]) -> Vec<String> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for screen in screens {
        let info = screen.split('\n').nth(12).expect("a last-moves line");
        for word in info.split(' ') {
            let uci = word.trim_end_matches('.');
            let Ok(parsed) = uci.parse::<UciMove>() else {
                continue;
            };
            let m = parsed.to_move(&pos).expect("a legal move on the screen");
            out.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
    }
    out
}

fn str_of<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("no {key} in {v}"))
}

fn board_seen(v: &serde_json::Value) -> BTreeMap<String, String> {
    serde_json::from_value(v["board"].clone()).expect("a board")
}

#[test]
fn browser_page_plays_like_the_terminal() {
    let (chromium, node, driver) = match tools() {
        Ok(t) => t,
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("the browser test needs its tools under CI: {why}")
        }
        Err(why) => {
            println!("SKIPPED browser_page_plays_like_the_terminal: {why}");
            return;
        }
    };
    let site = tempfile::tempdir().expect("a temp dir");
    let status = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .arg("web")
        .arg(site.path())
        .stdout(Stdio::null())
        .status()
        .expect("regex-chess web runs");
    assert!(status.success());
    let base = serve(site.path().to_path_buf());

    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let replays = [
        (
            "?moves=e2e4,g1f3".to_string(),
            terminal_screen(&[], &["e2e4", "g1f3"]),
        ),
        (
            format!("?fen={}&moves=f1c4", fen.replace(' ', "%20")),
            terminal_screen(&["--fen", fen], &["f1c4"]),
        ),
        (
            "?engine=white&moves=e7e5".to_string(),
            terminal_screen(&["--engine-color", "white"], &["e7e5"]),
        ),
    ];
    let start = terminal_screen(&[], &[]);
    let clicked = terminal_screen(&[], &["e2e4"]);
    let bad = terminal_screen(&[], &["e2e4", "e2e5"]);
    let san = terminal_screen(&[], &["e2e4", "e2e5", "g1f3"]);

    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
    let screenshot = out_dir.join("web.png");
    let _ = std::fs::remove_file(&screenshot);
    let plan = serde_json::json!({
        "driverDir": driver,
        "chromium": chromium,
        "base": base,
        "screenshot": screenshot,
        "replays": replays.iter().map(|(q, _)| q).collect::<Vec<_>>(),
    });
    let plan_file = site.path().join("plan.json");
    std::fs::write(&plan_file, plan.to_string()).expect("writing the plan");
    let run = Command::new(node)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web_driver.cjs"))
        .arg(&plan_file)
        .output()
        .expect("node runs");
    assert!(
        run.status.success(),
        "the browser driver failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let seen: serde_json::Value = serde_json::from_slice(&run.stdout).expect("the driver's JSON");
    assert_eq!(seen["errors"], serde_json::json!([]), "errors in the page");

    // Replays from the URL: the terminal's screen, byte for byte.
    for ((query, expected), got) in replays.iter().zip(seen["replays"].as_array().unwrap()) {
        assert_eq!(str_of(got, "screen"), expected, "replay {query}");
        assert_eq!(board_seen(got), board_of(expected), "board of {query}");
    }

    // The start, then e2 and e4 clicked: the engine's reply is on the
    // screen and the board, with the time and the rewrites of the pass.
    assert_eq!(str_of(&seen["start"], "screen"), start);
    assert_eq!(str_of(&seen["clicked"], "screen"), clicked);
    assert!(clicked.contains("The engine played "), "{clicked}");
    assert_eq!(board_seen(&seen["clicked"]), board_of(&clicked));
    let stats = str_of(&seen["clicked"], "stats");
    assert!(
        stats.starts_with("Engine reply: ")
            && stats.contains(" ms, ")
            && stats.contains(" rewrites ran"),
        "{stats}"
    );
    assert_eq!(str_of(&seen["clicked"], "url"), "/?moves=e2e4");

    // A bad move: the program's own reason, the same position.
    assert_eq!(str_of(&seen["bad"], "screen"), bad);
    assert_eq!(str_of(&seen["bad"], "message"), message_of(&bad));
    assert!(message_of(&bad).contains("e2e5"), "{bad}");
    assert_eq!(board_seen(&seen["bad"]), board_seen(&seen["clicked"]));

    // SAN typed as at the terminal.
    assert_eq!(str_of(&seen["san"], "screen"), san);
    let moves = sans(&[&clicked, &san]).join(" ");
    let pgn = str_of(&seen, "pgn");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    let movetext = pgn.trim_end().rsplit('\n').next().unwrap_or("");
    let numbered: Vec<String> = moves
        .split(' ')
        .collect::<Vec<_>>()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    assert_eq!(movetext, format!("{} *", numbered.join(" ")), "{pgn}");

    // Undo: back to the screen before the SAN move.
    assert_eq!(str_of(&seen["undone"], "screen"), bad);

    assert!(
        screenshot.is_file(),
        "no screenshot at {}",
        screenshot.display()
    );
    println!("screenshot: {}", screenshot.display());
}
