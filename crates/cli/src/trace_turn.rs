//! `regex-chess trace`: one turn of the turn program, phase by phase (and
//! the subcommand's arguments, which `trace_program` shares).
//!
//! It owns the cutting of the turn program into named phases and the
//! running of one turn through them (the phases' executors are
//! `phases`'s; a pass of any program file, cut by rewrite index, is
//! `trace_program`'s). A phase starts at a marker instruction, named by
//! the chess program's own special instructions (`boot`/`sanitize`/
//! `parse_screen`: parse; `select_*`: a move generation, called ply 1 when
//! the next marker is an evaluation `eval_*`, ply 2 when it is a reply
//! evaluation `delta_*`; `keep_*`: keep-best; `move_parts`: notation;
//! `render`), and runs to the next marker; the plain instructions between
//! (if/else bookkeeping, variables) belong to the phase before them. The
//! names come from the instruction names only, so a changed chess program
//! gets phases cut the same way without a change here.
//!
//! Each phase's rewrites run on an executor of their own (built before
//! the turn starts), one after the other on the same state: the rewrites
//! applied, in order, are the whole program's, so the final state is the
//! one `play` reaches. It never edits the VM or the chess program; the
//! HTML report and its plot are `report`'s.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use shakmaty::Color;

use crate::listing::{self, Assembled, Which};
use crate::phases::{file_name, Phase, PhaseRun, Tracer};

/// Arguments of `trace`.
#[derive(clap::Args, Debug)]
pub(crate) struct TraceArgs {
    /// The position (FEN). Without --move the engine plays its side to
    /// move; with --move you play that side and the engine replies.
    #[arg(long, default_value = crate::START_FEN)]
    pub fen: String,
    /// Your move (UCI like e2e4, or SAN like Nf3), played before the
    /// engine's reply.
    #[arg(long = "move")]
    pub mv: Option<String>,
    /// Write the state after each phase (NN-name.txt), index.html (the
    /// table and a plot) and trace.svg (the plot) to this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Pause after each phase (terminal only): show the first threads,
    /// continue on Enter.
    #[arg(long)]
    pub step: bool,
    /// Search depth (plies; 4 is two full-width plies and two capture plies,
    /// 5 three and two).
    #[arg(long, default_value_t = chess::Depth::FAST)]
    pub depth: chess::Depth,
    /// Instead of a turn, trace a pass of this program file (JSON or a
    /// `.js` dump, as `run` reads it), cut into phases by rewrite index.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "mv", "step", "depth"])]
    pub program: Option<PathBuf>,
    /// With `--program`: its input, one line per pass after the first (as
    /// `run` reads standard input).
    #[arg(long, value_name = "FILE", requires = "program")]
    pub input: Option<PathBuf>,
    /// With `--program`: the pass to trace (1 is the pass from the empty
    /// state; the last by default); the passes before it run untraced.
    #[arg(long, requires = "program")]
    pub pass: Option<usize>,
    /// With `--program`: cut the program into this many phases of equal
    /// rewrite counts.
    #[arg(long, default_value_t = 20, requires = "program")]
    pub phases: usize,
    /// With `--program`: cut at these rewrite indices instead
    /// (`--cuts 100,2500`).
    #[arg(
        long,
        value_delimiter = ',',
        requires = "program",
        conflicts_with = "phases"
    )]
    pub cuts: Vec<usize>,
}

/// What a marker instruction starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Parse,
    MoveGen,
    Eval,
    ReplyEval,
    KeepBest,
    Notation,
    Render,
}

/// The marker an instruction name is, if any.
fn marker(name: &str) -> Option<Marker> {
    Some(match name {
        "boot" | "sanitize" | "parse_screen" => Marker::Parse,
        "move_parts" => Marker::Notation,
        "render" => Marker::Render,
        n if n.starts_with("select_") => Marker::MoveGen,
        n if n.starts_with("eval_") => Marker::Eval,
        n if n.starts_with("delta_") => Marker::ReplyEval,
        n if n.starts_with("keep_") => Marker::KeepBest,
        _ => return None,
    })
}

/// Cuts a program into phases: consecutive, covering every instruction and
/// every rewrite once, in order.
///
/// # Errors
///
/// When the rewrites are not in instruction order (the lowering keeps them
/// so).
pub(crate) fn phases(a: &Assembled) -> Result<Vec<Phase>> {
    let names: Vec<String> = a.ir.instrs.iter().map(|i| i.name()).collect();
    let marks: Vec<Option<Marker>> = names.iter().map(|n| marker(n)).collect();
    let mut starts: Vec<usize> = (0..names.len())
        .filter(|&i| marks[i].is_some() && (i == 0 || marks[i - 1] != marks[i]))
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let origins = listing::origins(&a.program)?;
    anyhow::ensure!(
        origins.windows(2).all(|w| w[0] <= w[1]),
        "the rewrites are not in instruction order"
    );
    let mut out = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(names.len());
        let first = origins.partition_point(|&o| o < start);
        let last = origins.partition_point(|&o| o < end);
        let next = starts.get(k + 1).and_then(|&s| marks[s]);
        let colour = match names[start].rsplit('_').next() {
            Some("w") => " (white)",
            Some("b") => " (black)",
            _ => "",
        };
        let name = match (marks[start], next) {
            (Some(Marker::Parse), _) => "parse".to_string(),
            (Some(Marker::MoveGen), Some(Marker::Eval)) => format!("ply 1{colour}"),
            (Some(Marker::MoveGen), Some(Marker::ReplyEval)) => format!("ply 2{colour}"),
            (Some(Marker::MoveGen), _) => format!("move generation{colour}"),
            (Some(Marker::Eval), _) => format!("evaluation{colour}"),
            (Some(Marker::ReplyEval), _) => format!("reply evaluation{colour}"),
            (Some(Marker::KeepBest), _) => "keep-best".to_string(),
            (Some(Marker::Notation), _) => "notation".to_string(),
            (Some(Marker::Render), _) => "render".to_string(),
            (None, _) => "start".to_string(),
        };
        out.push(Phase {
            name,
            opener: names[start].clone(),
            instrs: start..end,
            rewrites: first..last,
        });
    }
    Ok(out)
}

/// The screen a trace starts from, and the line the turn gets: with a move,
/// the person plays the side to move and the engine the other; without,
/// the engine plays the side to move.
///
/// # Errors
///
/// For an invalid FEN.
pub(crate) fn start(fen: &str, mv: Option<&str>) -> Result<(String, Option<String>)> {
    let to_move = match fen.split_whitespace().nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    };
    let engine = if mv.is_some() { !to_move } else { to_move };
    let screen = chess::screen::start_screen(fen, Some(engine))
        .with_context(|| format!("position {fen:?}"))?;
    let line = match mv {
        None => None,
        Some(m) => Some(match crate::move_text::read_move(fen, m)? {
            crate::move_text::Reading::Send(line) => line,
            crate::move_text::Reading::Say(why) => anyhow::bail!("{why}"),
        }),
    };
    Ok((screen, line))
}

/// The state's text before its first thread, and its first `n` threads,
/// each cut to `lines` lines.
pub(crate) fn first_threads(state: &str, n: usize, lines: usize) -> String {
    let bytes = state.as_bytes();
    let heads: Vec<usize> = thread_starts(bytes);
    let mut out = String::new();
    let prefix_end = heads.first().copied().unwrap_or(state.len());
    let cut = |text: &str, out: &mut String| {
        let all: Vec<&str> = text.lines().collect();
        for l in all.iter().take(lines) {
            out.push_str(l);
            out.push('\n');
        }
        if all.len() > lines {
            out.push_str(&format!("... ({} more lines)\n", all.len() - lines));
        }
    };
    if prefix_end > 0 {
        out.push_str("[text before the threads]\n");
        cut(&state[..prefix_end], &mut out);
    }
    for (k, &h) in heads.iter().enumerate().take(n) {
        let end = heads.get(k + 1).copied().unwrap_or(state.len());
        cut(&state[h..end], &mut out);
    }
    if heads.len() > n {
        out.push_str(&format!("... ({} more threads)\n", heads.len() - n));
    }
    out
}

/// Where each thread starts: a `%` not right after a `%`.
fn thread_starts(bytes: &[u8]) -> Vec<usize> {
    (0..bytes.len())
        .filter(|&i| bytes[i] == b'%' && (i == 0 || bytes[i - 1] != b'%'))
        .collect()
}

fn header(out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{:>3}  {:<24} {:>11} {:>8} {:>6} {:>6} {:>8} {:>7} {:>7} {:>9}",
        "#", "phase", "instrs", "rewrites", "run", "skip", "bytes", "active", "paused", "ms"
    )
}

fn row(out: &mut impl Write, i: usize, p: &Phase, r: &PhaseRun) -> io::Result<()> {
    writeln!(
        out,
        "{i:>3}  {:<24} {:>11} {:>8} {:>6} {:>6} {:>8} {:>7} {:>7} {:>9.3}",
        p.name,
        format!("{}..{}", p.instrs.start, p.instrs.end),
        p.rewrites.len(),
        r.executed,
        r.skipped,
        r.bytes,
        r.active,
        r.paused,
        r.time.as_secs_f64() * 1e3
    )
}

/// Runs `trace`.
pub(crate) fn run(args: TraceArgs) -> Result<()> {
    let interactive = io::stdin().is_terminal() && io::stdout().is_terminal();
    anyhow::ensure!(
        !args.step || interactive,
        "--step needs a terminal on standard input and output"
    );
    let (mut state, line) = start(&args.fen, args.mv.as_deref())?;
    let a = listing::assemble(Which::Turn, args.depth)?;
    let t0 = Instant::now();
    let tracer = Tracer::with_phases(&a.program, phases(&a)?, &chess::config_for(args.depth))?;
    let build = t0.elapsed();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    if let Some(line) = &line {
        state.push_str(line);
        state.push('\n');
    }
    let before = state.clone();
    let mut out = io::BufWriter::new(crate::textio::stdout());
    let mut stepping = args.step;
    let mut shown = || -> Result<Vec<PhaseRun>> {
        writeln!(
            out,
            "turn program: {} instructions, {} rewrites, {} phases (compiled in {} ms)",
            a.ir.instrs.len(),
            a.program.len(),
            tracer.phases.len(),
            build.as_millis()
        )?;
        header(&mut out)?;
        out.flush()?;
        let runs = tracer.run(&mut state, |i, r, s| {
            let p = &tracer.phases[i];
            row(&mut out, i, p, r)?;
            out.flush()?;
            if let Some(dir) = &args.out {
                let path = dir.join(file_name(i, p));
                std::fs::write(&path, s).with_context(|| format!("writing {}", path.display()))?;
            }
            if stepping {
                if r.changed == 0 {
                    writeln!(out, "(no rewrite changed the state)")?;
                } else {
                    write!(out, "{}", first_threads(s, 3, 12))?;
                }
                write!(
                    out,
                    "-- Enter: next phase, q then Enter: run to the end -- "
                )?;
                out.flush()?;
                let mut answer = String::new();
                io::stdin()
                    .lock()
                    .read_line(&mut answer)
                    .context("reading the terminal")?;
                if answer.trim() == "q" || answer.is_empty() {
                    stepping = false;
                }
            }
            Ok(())
        })?;
        let sum = |f: fn(&PhaseRun) -> usize| runs.iter().map(f).sum::<usize>();
        writeln!(
            out,
            "total: {} rewrites, {} run, {} skipped, {} changed, {:.3} ms; peak {} bytes, {} threads",
            a.program.len(),
            sum(|r| r.executed),
            sum(|r| r.skipped),
            sum(|r| r.changed),
            runs.iter().map(|r| r.time.as_secs_f64()).sum::<f64>() * 1e3,
            runs.iter().map(|r| r.peak_bytes).max().unwrap_or(0),
            runs.iter().map(|r| r.peak_threads).max().unwrap_or(0),
        )?;
        if let Some(l) = state.split('\n').nth(12) {
            writeln!(out, "screen: {l}")?;
        }
        out.flush()?;
        Ok(runs)
    };
    // A closed pipe is `textio::Closed`: `main` ends quietly.
    let runs = shown()?;
    if let Some(dir) = &args.out {
        let title = match &line {
            Some(l) => format!("{} then {l}", args.fen),
            None => args.fen.clone(),
        };
        let start_path = dir.join("start.txt");
        std::fs::write(&start_path, &before)
            .with_context(|| format!("writing {}", start_path.display()))?;
        let subject = crate::report::Subject::Turn { position: &title };
        crate::report::write(dir, subject, &tracer.phases, &runs)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::{Config, Executor};

    fn turn() -> Assembled {
        listing::assemble(Which::Turn, chess::Depth::FAST).expect("assembles")
    }

    #[test]
    fn phases_cover_the_program_in_order() {
        let a = turn();
        let ps = phases(&a).expect("phases");
        assert_eq!(ps.first().map(|p| p.instrs.start), Some(0));
        assert_eq!(ps.last().map(|p| p.instrs.end), Some(a.ir.instrs.len()));
        assert_eq!(ps.last().map(|p| p.rewrites.end), Some(a.program.len()));
        for w in ps.windows(2) {
            assert_eq!(w[0].instrs.end, w[1].instrs.start);
            assert_eq!(w[0].rewrites.end, w[1].rewrites.start);
        }
        // Every marker instruction of the program starts a phase or
        // continues one of its own kind.
        let names: Vec<String> = a.ir.instrs.iter().map(|i| i.name()).collect();
        for p in &ps {
            assert!(!p.instrs.is_empty(), "{p:?}");
            let kind = marker(&names[p.instrs.start]);
            for i in p.instrs.clone().skip(1) {
                let m = marker(&names[i]);
                assert!(m.is_none() || m == kind, "{} inside {p:?}", names[i]);
            }
        }
        // The search is there: as many ply-1 and ply-2 phases as the
        // program has full evaluations and reply evaluations.
        let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
        let named = |prefix: &str| ps.iter().filter(|p| p.name.starts_with(prefix)).count();
        assert_eq!(named("ply 1"), count("eval_"));
        assert_eq!(named("ply 2"), count("delta_"));
        assert_eq!(
            named("ply 1") + named("ply 2") + named("move generation"),
            count("select_")
        );
        assert_eq!(ps[0].name, "parse");
        assert_eq!(ps.last().map(|p| p.name.as_str()), Some("render"));
    }

    /// A traced turn and a whole-program run of the same turn, both on
    /// `config`. The bytes, changes, peaks and thread counts agree on any
    /// executor; the counts of rewrites run and skipped agree only
    /// `with_counts`: on the table of threads a rewrite counts as run when
    /// a thread of its kind is there, so those counts depend on where a
    /// stretch begins, and a trace cuts stretches at its phases.
    fn both_ways(
        tracer: &Tracer,
        whole: &Executor,
        fen: &str,
        mv: Option<&str>,
        with_counts: bool,
    ) {
        let (screen, line) = start(fen, mv).expect("valid");
        let mut traced = screen.clone();
        if let Some(l) = &line {
            traced.push_str(l);
            traced.push('\n');
        }
        let mut after = Vec::new();
        let runs = tracer
            .run(&mut traced, |_, _, s| {
                after.push(s.to_string());
                Ok(())
            })
            .expect("runs");
        let mut played = screen;
        if let Some(l) = &line {
            played.push_str(l);
            played.push('\n');
        }
        let whole = whole.run(&mut played).expect("plays");
        assert_eq!(traced, played, "{fen} {mv:?}");
        assert_eq!(after.last(), Some(&played));
        assert_eq!(runs.len(), tracer.phases.len());
        let sum = |f: fn(&PhaseRun) -> usize| runs.iter().map(f).sum::<usize>();
        let rules: usize = tracer.phases.iter().map(|p| p.rewrites.len()).sum();
        assert_eq!(rules, whole.rewrites);
        assert_eq!(
            sum(|r| r.executed) + sum(|r| r.skipped),
            whole.executed + whole.skipped,
            "{fen} {mv:?}"
        );
        if with_counts {
            assert_eq!(sum(|r| r.executed), whole.executed, "{fen} {mv:?}");
            assert_eq!(sum(|r| r.skipped), whole.skipped, "{fen} {mv:?}");
        }
        assert_eq!(sum(|r| r.changed), whole.changed, "{fen} {mv:?}");
        let peak = |f: fn(&PhaseRun) -> usize| runs.iter().map(f).max().unwrap_or(0);
        assert_eq!(peak(|r| r.peak_bytes), whole.peak_state_bytes);
        assert_eq!(peak(|r| r.peak_threads), whole.peak_threads);
        let last = runs.last().expect("a phase");
        assert_eq!(
            (last.active, last.paused),
            (whole.active_threads, whole.paused_threads)
        );
        for (r, s) in runs.iter().zip(&after) {
            assert_eq!(r.bytes, s.len());
        }
    }

    #[test]
    fn traced_turn_ends_where_play_does_and_counts_the_same() {
        let a = turn();
        let table_off = Config {
            thread_table: false,
            ..Config::default()
        };
        for (config, with_counts) in [(Config::default(), false), (table_off, true)] {
            let tracer = Tracer::with_phases(&a.program, phases(&a).expect("cuts"), &config)
                .expect("compiles");
            let whole = Executor::new(&a.program, config).expect("compiles");
            let ways =
                |fen: &str, mv: Option<&str>| both_ways(&tracer, &whole, fen, mv, with_counts);
            // The engine to move, then a person's move and the engine's reply.
            ways(crate::START_FEN, None);
            ways(crate::START_FEN, Some("e2e4"));
            ways(
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                Some("Bb5"),
            );
            // A bad line: the same position comes back with a message.
            ways(crate::START_FEN, Some("e2e5"));
        }
    }

    #[test]
    fn first_threads_shows_the_prefix_and_cuts() {
        let s = "screen\n%%\n#stack:\n#a:1\n%t\n#stack:\nx\n#b:2\n%%\n#stack:\n";
        let shown = first_threads(s, 2, 2);
        assert_eq!(
            shown,
            "[text before the threads]\nscreen\n%%\n#stack:\n... (1 more lines)\n\
             %t\n#stack:\n... (2 more lines)\n... (1 more threads)\n"
        );
    }
}
