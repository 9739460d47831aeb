//! The loop of `regex-chess uci`: input read on a thread of its own, each
//! `go`'s search run on another, and the order in which lines are carried
//! out while a search runs.
//!
//! It owns the threads and the queue of lines; what a line means is
//! `uci::handle`'s, and what a search prints `uci::Job`'s. While a search
//! runs, `stop`, `ponderhit`, `isready` and `quit` are answered as they
//! come up in the queue (the first two and the last raise the search's
//! flag, so it answers at once with the deepest finished depth); any
//! other line waits for the search's end, as UCI says a GUI sends none
//! then. A bounded number of lines wait: past it, the reader stops
//! reading, and the input waits in its pipe.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use anyhow::Result;

use super::{command_of, handle, info_string, Session, MAX_LINE};
use crate::textio::{self, Line};

/// What the loop of [`serve`] hears.
enum Event {
    /// A line of input, read at that instant.
    Line(Line, Instant),
    /// The input ended (or could not be read, with why).
    End(Option<String>),
    /// A line the search printed.
    Info(String),
    /// The search ended with this `bestmove` line.
    Done(String),
}

/// The search running, seen from the loop.
struct Running {
    flag: Arc<AtomicBool>,
    /// Its `bestmove` waits for `stop`.
    wait: bool,
}

/// How many input lines may wait to be carried out before the reader
/// stops reading (each at most [`MAX_LINE`] bytes).
const QUEUED_LINES: usize = 16;

/// Runs the protocol over any input and output until `quit` or the end of
/// the input, flushing after each answer. The input is read on a thread of
/// its own and each search runs on another. At the end of the input a
/// search waiting for `stop` is stopped, and every search is answered.
///
/// # Errors
///
/// Writing failed ([`textio::Closed`] when the reader of the output went
/// away).
pub(crate) fn serve(input: impl BufRead + Send + 'static, mut output: impl Write) -> Result<()> {
    let (tx, rx) = channel::<Event>();
    // One token per line read and not yet carried out: a flood of input
    // waits in the pipe instead of in memory.
    let (tokens, taken) = sync_channel::<()>(QUEUED_LINES);
    spawn_reader(input, tx.clone(), tokens);
    run_loop(&rx, &tx, &taken, &mut output)
}

/// Reads `input` line by line into `tx` (taking a token for each), then
/// [`Event::End`].
fn spawn_reader(
    mut input: impl BufRead + Send + 'static,
    tx: Sender<Event>,
    tokens: SyncSender<()>,
) {
    thread::spawn(move || loop {
        match textio::read_line(&mut input, MAX_LINE) {
            Ok(Some(line)) => {
                if tokens.send(()).is_err() || tx.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            Ok(None) => {
                let _ = tx.send(Event::End(None));
                return;
            }
            Err(e) => {
                let _ = tx.send(Event::End(Some(format!("reading standard input: {e}"))));
                return;
            }
        }
    });
}

/// What waits in the loop's queue: a line, or the end of the input.
enum Queued {
    Line(Line, Instant),
    End,
}

/// The loop of [`serve`]: lines are carried out in the order they came.
/// While a search runs, `stop`, `ponderhit`, `isready` and `quit` are
/// answered as they come up; any other line waits for the search's end.
/// The end of the input stops a search that waits for `stop`; any other
/// runs to its end. Nothing after `quit` is carried out.
fn run_loop(
    rx: &Receiver<Event>,
    tx: &Sender<Event>,
    taken: &Receiver<()>,
    output: &mut impl Write,
) -> Result<()> {
    let mut session = Session::new();
    let mut running: Option<Running> = None;
    let mut waiting: VecDeque<Queued> = VecDeque::new();
    loop {
        while !session.quitting() {
            match (&mut running, waiting.front()) {
                (None, Some(Queued::Line(..))) => {
                    let Some(Queued::Line(line, at)) = waiting.pop_front() else {
                        break;
                    };
                    let _ = taken.try_recv();
                    let ending = waiting.iter().any(|q| matches!(q, Queued::End));
                    running = take_line(line, at, &mut session, tx, output, ending)?;
                    if running.is_none() && session.quitting() {
                        return Ok(());
                    }
                }
                (None, Some(Queued::End)) => {
                    let pending: Vec<String> = session.take_pending().into_iter().collect();
                    return write_lines(output, &pending);
                }
                (Some(run), Some(Queued::Line(Line::Text(text), _))) => {
                    match command_of(text) {
                        Some("stop" | "ponderhit") => {
                            run.wait = false;
                            run.flag.store(true, Ordering::Relaxed);
                        }
                        Some("quit") => {
                            run.wait = false;
                            run.flag.store(true, Ordering::Relaxed);
                            session.set_quitting();
                        }
                        Some("isready") => write_lines(output, &["readyok".to_string()])?,
                        // Waits for the search's end.
                        _ => break,
                    }
                    waiting.pop_front();
                    let _ = taken.try_recv();
                }
                (Some(_), Some(Queued::Line(Line::NotUtf8 | Line::TooLong(_), _))) => {
                    if let Some(Queued::Line(line, at)) = waiting.pop_front() {
                        let _ = taken.try_recv();
                        take_line(line, at, &mut session, tx, output, false)?;
                    }
                }
                _ => break,
            }
        }
        // The end of the input, even behind lines that wait, stops a
        // search that would wait for `stop` forever.
        if let Some(run) = &mut running {
            if run.wait && waiting.iter().any(|q| matches!(q, Queued::End)) {
                run.wait = false;
                run.flag.store(true, Ordering::Relaxed);
            }
        }
        // Every sender gone: nothing more can come.
        let Ok(event) = rx.recv() else { return Ok(()) };
        match event {
            Event::Line(line, at) => waiting.push_back(Queued::Line(line, at)),
            Event::End(problem) => {
                if let Some(problem) = problem {
                    write_lines(output, &[info_string(&problem)])?;
                }
                waiting.push_back(Queued::End);
            }
            Event::Info(line) => write_lines(output, &[line])?,
            Event::Done(best) => {
                let wait = running.take().is_some_and(|r| r.wait);
                if wait {
                    session.hold(best);
                } else {
                    write_lines(output, &[best])?;
                }
                if session.quitting() {
                    return Ok(());
                }
            }
        }
    }
}

/// Carries out one line when no search runs; starts the search of a `go`
/// on a thread of its own and returns it (stopped at once when the input
/// has ended and it would wait for `stop`).
fn take_line(
    line: Line,
    at: Instant,
    session: &mut Session,
    tx: &Sender<Event>,
    output: &mut impl Write,
    ending: bool,
) -> Result<Option<Running>> {
    let handled = match line {
        Line::Text(text) => handle(&text, session, at),
        Line::NotUtf8 => vec![info_string("ignoring a line that is not UTF-8")].into(),
        Line::TooLong(n) => vec![info_string(&format!(
            "ignoring a line of {n} bytes (the limit is {MAX_LINE})"
        ))]
        .into(),
    };
    write_lines(output, &handled.lines)?;
    let Some(job) = handled.job else {
        return Ok(None);
    };
    let mut run = Running {
        flag: job.flag(),
        wait: job.wait,
    };
    if ending && run.wait {
        run.wait = false;
        run.flag.store(true, Ordering::Relaxed);
    }
    let tx = tx.clone();
    thread::spawn(move || {
        let emit_tx = tx.clone();
        let best = job.run(&mut |line| {
            let _ = emit_tx.send(Event::Info(line));
        });
        let _ = tx.send(Event::Done(best));
    });
    Ok(Some(run))
}

/// Prints lines and flushes.
fn write_lines(output: &mut impl Write, lines: &[String]) -> Result<()> {
    for line in lines {
        writeln!(output, "{line}").map_err(textio::write_error)?;
    }
    output.flush().map_err(textio::write_error)
}
