//! The opponent of `match`: any UCI engine, spoken to over a pipe.
//!
//! This module owns the child process and the protocol with it: the
//! handshake (`uci`, the options it advertises, `setoption`, `isready`),
//! `ucinewgame`, and one `position` + `go` per move, returning the
//! text after `bestmove`. It judges nothing about chess (the arena checks
//! every move with shakmaty). Memory stays bounded whatever the engine
//! prints: lines are read at most [`MAX_LINE`] bytes at a time through a
//! bounded channel, and only the last bytes of its stderr are kept, to
//! explain a crash. Every piece of the engine's output that reaches an
//! error is quoted through [`quote`] (at most 100 characters).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

use super::quote;

/// The longest line read from the engine; a longer one is an error.
pub(super) const MAX_LINE: u64 = 64 * 1024;
/// How many bytes of the engine's stderr are kept to explain a crash.
const STDERR_TAIL: usize = 300;
/// How long the engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// How much longer than its time the engine may take before `bestmove`.
const GRACE: Duration = Duration::from_secs(10);

/// A running UCI engine.
pub(super) struct Opponent {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, String>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    stderr_reader: thread::JoinHandle<()>,
    /// The name the engine gave in `id name`, or its command.
    pub name: String,
}

impl Opponent {
    /// Starts `command` (a program and its arguments, split at whitespace),
    /// does the UCI handshake and sets `options` (each must be one the
    /// engine advertises, compared without case as UCI says).
    ///
    /// # Errors
    ///
    /// The command cannot be started, the engine does not answer `uciok`
    /// or `readyok` in time, exits, or does not offer an option.
    pub(super) fn start(command: &str, options: &[(String, String)]) -> Result<Opponent> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| anyhow!("--opponent is empty: give the command of a UCI engine"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start the opponent {}", quote(command)))?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => bail!("the opponent {} has no pipes", quote(command)),
            };
        let (tx, lines) = sync_channel(256);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) if !buf.ends_with(b"\n") && buf.len() as u64 == MAX_LINE => {
                        let _ = tx.send(Err(format!("a line longer than {MAX_LINE} bytes")));
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(format!("reading its output failed: {e}")));
                        break;
                    }
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = thread::spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                if let Ok(mut t) = tail.lock() {
                    t.extend_from_slice(&chunk[..n]);
                    let excess = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..excess);
                }
            }
        });
        let mut opponent = Opponent {
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_reader,
            name: command.to_string(),
        };
        opponent.handshake(options)?;
        Ok(opponent)
    }

    fn handshake(&mut self, options: &[(String, String)]) -> Result<()> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut offered = HashSet::new();
        loop {
            let line = self.read_line(deadline, "uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => break,
                (Some("id"), Some("name")) => {
                    let name: String = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        self.name = name.chars().take(100).collect();
                    }
                }
                (Some("option"), Some("name")) => {
                    let rest = line.split_once("name").map_or("", |(_, r)| r);
                    let name = rest.split(" type ").next().unwrap_or("").trim();
                    offered.insert(name.to_lowercase());
                }
                _ => {}
            }
        }
        for (name, value) in options {
            if !offered.contains(&name.to_lowercase()) {
                bail!(
                    "the opponent {} offers no option {}",
                    quote(&self.name),
                    quote(name)
                );
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready()
    }

    /// Sends `isready` and waits for `readyok`.
    fn ready(&mut self) -> Result<()> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.read_line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    ///
    /// The engine exits or does not answer `readyok` in time.
    pub(super) fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's `bestmove` text after `moves` (UCI) from `start_fen`
    /// (`None`: the standard start), given `go` with `limits` (`movetime
    /// 50`, or the clocks: `wtime .. btime .. winc .. binc ..`), which may
    /// take up to `expected`.
    ///
    /// # Errors
    ///
    /// The engine exits, prints an over-long line, or does not answer
    /// `bestmove` within `expected` plus ten seconds.
    pub(super) fn best_move(
        &mut self,
        start_fen: Option<&str>,
        moves: &[String],
        limits: &str,
        expected: Duration,
    ) -> Result<String> {
        let mut position = match start_fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        self.send(&format!("go {limits}"))?;
        let deadline = Instant::now() + expected + GRACE;
        loop {
            let line = self.read_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                return Ok(words.next().unwrap_or("").to_string());
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.gone(&format!("cannot be written to ({e})")))
    }

    /// The next line, or an error if none comes before `deadline`.
    fn read_line(&mut self, deadline: Instant, awaited: &str) -> Result<String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(problem)) => Err(self.gone(&problem)),
            Err(RecvTimeoutError::Timeout) => Err(anyhow!(
                "the opponent {} did not answer `{awaited}` in time",
                quote(&self.name)
            )),
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.gone(&format!("closed its output while we awaited `{awaited}`")))
            }
        }
    }

    /// An error saying the engine failed, with its exit status and the end
    /// of its stderr when it has exited.
    fn gone(&mut self, what: &str) -> anyhow::Error {
        // Give a dying process a moment to be reaped, to report its status.
        let start = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() < Duration::from_millis(300) => {
                    thread::sleep(Duration::from_millis(10));
                }
                _ => break None,
            }
        };
        let mut message = format!("the opponent {} {what}", quote(&self.name));
        if let Some(status) = status {
            message.push_str(&format!("; it exited ({status})"));
            // Its stderr is closed now: let the reader take the last bytes.
            let start = Instant::now();
            while !self.stderr_reader.is_finished() && start.elapsed() < Duration::from_millis(300)
            {
                thread::sleep(Duration::from_millis(5));
            }
        }
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| String::from_utf8_lossy(&t).trim().to_string())
            .unwrap_or_default();
        if !tail.is_empty() {
            let last: String = {
                let chars: Vec<char> = tail.chars().collect();
                chars[chars.len().saturating_sub(100)..].iter().collect()
            };
            message.push_str(&format!("; its stderr ends {}", quote(&last)));
        }
        anyhow!(message)
    }
}

impl Drop for Opponent {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(500) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
