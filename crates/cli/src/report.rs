//! The trace's report: an SVG plot and an HTML page, made as text.
//!
//! It owns the drawing of a traced turn (or a traced pass of any program
//! file, [`Subject`] says which): state bytes and thread counts after
//! each phase (one point per phase and series, the peak inside the
//! phase as a thin bar), and a self-contained page with the plot and the
//! phase table (no script, no style sheet or font from the network). Both
//! are well-formed XML so that any XML parser reads them, and are written
//! into the trace's directory by [`write`]. It runs nothing and knows of
//! the turn only the figures `trace_turn` and `trace_program` hand it.

use std::fmt::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::phases::{file_name, Phase, PhaseRun};

const WIDTH: f64 = 820.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 20.0;
/// Top and bottom of the bytes panel, then of the threads panel.
const BYTES_PANEL: (f64, f64) = (46.0, 196.0);
const THREADS_PANEL: (f64, f64) = (236.0, 366.0);
const HEIGHT: f64 = 410.0;

/// What a trace ran: it sets the page's and the plot's words.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Subject<'a> {
    /// One turn of the chess program from this position (and move).
    Turn {
        /// The position, and the move when one was played.
        position: &'a str,
    },
    /// One pass of a program file.
    Program {
        /// The file, as given.
        file: &'a str,
        /// The pass (1-based).
        pass: usize,
    },
}

impl Subject<'_> {
    fn plot_title(&self) -> String {
        match self {
            Subject::Turn { .. } => "One turn of the regex CPU, phase by phase".to_string(),
            Subject::Program { file, pass } => format!("Pass {pass} of {file}, phase by phase"),
        }
    }
}

/// Text for XML: `& < > "` escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A round tick step giving about four steps up to `max`.
fn tick_step(max: f64) -> f64 {
    let raw = (max / 4.0).max(1.0);
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let head = digits.len() % 3;
    let mut groups: Vec<&str> = Vec::new();
    if head > 0 {
        groups.push(&digits[..head]);
    }
    groups.extend(
        digits.as_bytes()[head..]
            .chunks(3)
            .filter_map(|c| std::str::from_utf8(c).ok()),
    );
    groups.join(",")
}

/// One panel's axis: horizontal grid lines with labels; returns the
/// value-to-y mapping's top value.
fn axis(
    svg: &mut String,
    panel: (f64, f64),
    max: f64,
    label: &str,
    unit: impl Fn(f64) -> String,
) -> f64 {
    let step = tick_step(max);
    let top = (max / step).ceil().max(1.0) * step;
    let (y0, y1) = panel;
    let mut v = 0.0;
    while v <= top + step / 2.0 {
        let y = y1 - (v / top) * (y1 - y0);
        let _ = write!(
            svg,
            r##"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" font-size="10">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 3.5,
            escape(&unit(v))
        );
        v += step;
    }
    let _ = write!(
        svg,
        r#"<text x="{LEFT}" y="{:.1}" font-size="12" font-weight="bold">{}</text>"#,
        y0 - 10.0,
        escape(label)
    );
    top
}

/// The plot: state bytes (top) and threads (bottom) after each phase.
pub(crate) fn svg(subject: Subject<'_>, phases: &[Phase], runs: &[PhaseRun]) -> String {
    let n = runs.len().max(1) as f64;
    let band = (WIDTH - LEFT - RIGHT) / n;
    let x = |i: usize| LEFT + band * (i as f64 + 0.5);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><rect width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{:.1}" y="18" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(&subject.plot_title())
    );
    // Ply bands: the search's phases shaded, so the breathing lines up.
    for (i, p) in phases.iter().enumerate().take(runs.len()) {
        if p.name.starts_with("ply") || p.name.starts_with("reply") {
            let _ = write!(
                svg,
                r##"<rect class="band" x="{:.1}" y="{}" width="{band:.1}" height="{}" fill="#f3efe2"/>"##,
                x(i) - band / 2.0,
                BYTES_PANEL.0,
                THREADS_PANEL.1 - BYTES_PANEL.0
            );
        }
    }
    let max_bytes = runs
        .iter()
        .map(|r| r.peak_bytes.max(r.bytes))
        .max()
        .unwrap_or(0) as f64;
    let top = axis(&mut svg, BYTES_PANEL, max_bytes, "state size", |v| {
        if v >= 10_000.0 {
            format!("{:.0} KB", v / 1000.0)
        } else {
            format!("{v:.0} B")
        }
    });
    let y_bytes = |v: usize| BYTES_PANEL.1 - (v as f64 / top) * (BYTES_PANEL.1 - BYTES_PANEL.0);
    let max_threads = runs
        .iter()
        .map(|r| r.peak_threads.max(r.active + r.paused))
        .max()
        .unwrap_or(0) as f64;
    let ttop = axis(
        &mut svg,
        THREADS_PANEL,
        max_threads,
        "threads (active: dashed)",
        |v| format!("{v:.0}"),
    );
    let y_threads =
        |v: usize| THREADS_PANEL.1 - (v as f64 / ttop) * (THREADS_PANEL.1 - THREADS_PANEL.0);
    // Peaks inside each phase.
    for (i, r) in runs.iter().enumerate() {
        let _ = write!(
            svg,
            r##"<line class="peak" x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#9bb7d4" stroke-width="3"/><line class="peak" x1="{0:.1}" y1="{3:.1}" x2="{0:.1}" y2="{4:.1}" stroke="#e0a88f" stroke-width="3"/>"##,
            x(i),
            y_bytes(r.bytes),
            y_bytes(r.peak_bytes),
            y_threads(r.active + r.paused),
            y_threads(r.peak_threads),
        );
    }
    let line = |f: &dyn Fn(usize, &PhaseRun) -> f64| -> String {
        runs.iter()
            .enumerate()
            .map(|(i, r)| format!("{:.1},{:.1}", x(i), f(i, r)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = write!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#2b6cb0" stroke-width="1.5"/><polyline points="{}" fill="none" stroke="#c05621" stroke-width="1.5"/><polyline points="{}" fill="none" stroke="#c05621" stroke-width="1" stroke-dasharray="4 3"/>"##,
        line(&|_, r| y_bytes(r.bytes)),
        line(&|_, r| y_threads(r.active + r.paused)),
        line(&|_, r| y_threads(r.active)),
    );
    for (i, r) in runs.iter().enumerate() {
        let name = phases.get(i).map(|p| p.name.as_str()).unwrap_or("?");
        let _ = write!(
            svg,
            r##"<circle class="bytes" data-phase="{i}" cx="{:.1}" cy="{:.1}" r="3" fill="#2b6cb0"><title>{}</title></circle>"##,
            x(i),
            y_bytes(r.bytes),
            escape(&format!(
                "{i:02} {name}: {} bytes after, peak {}",
                thousands(r.bytes),
                thousands(r.peak_bytes)
            ))
        );
        let _ = write!(
            svg,
            r##"<circle class="threads" data-phase="{i}" cx="{:.1}" cy="{:.1}" r="3" fill="#c05621"><title>{}</title></circle>"##,
            x(i),
            y_threads(r.active + r.paused),
            escape(&format!(
                "{i:02} {name}: {} active, {} paused after, peak {}",
                r.active, r.paused, r.peak_threads
            ))
        );
    }
    // Phase numbers along the bottom, every one or every few.
    let every = (runs.len() / 40).max(1);
    for i in (0..runs.len()).step_by(every) {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="9">{i}</text>"#,
            x(i),
            THREADS_PANEL.1 + 12.0
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="11">{}</text></svg>"#,
        WIDTH / 2.0,
        THREADS_PANEL.1 + 32.0,
        match subject {
            Subject::Turn { .. } =>
                "phase (shaded: the search's plies; bars: the peak inside a phase)",
            Subject::Program { .. } => "phase (bars: the peak inside a phase)",
        }
    );
    svg
}

/// The page: a title, the plot, the phase table with links to the states.
pub(crate) fn html(subject: Subject<'_>, phases: &[Phase], runs: &[PhaseRun], svg: &str) -> String {
    let (title, heading, lead, opener, instrs) = match subject {
        Subject::Turn { position } => (
            position.to_string(),
            "One turn, phase by phase",
            format!(
                "Position: <code>{}</code>. Each phase runs the turn program's rewrites from one marker \
                 instruction to the next",
                escape(position)
            ),
            "first instruction",
            "instructions",
        ),
        Subject::Program { file, pass } => (
            format!("{file}, pass {pass}"),
            "One pass, phase by phase",
            format!(
                "Program: <code>{}</code>, pass {pass}. Each phase runs a range of the program's rewrites",
                escape(file)
            ),
            "first pattern",
            "rewrites",
        ),
    };
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>regex-chess trace: {}</title>\
         <style>body {{ font-family: sans-serif; margin: 2em; }} table {{ border-collapse: collapse; }} \
         td, th {{ padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }} \
         td.name, th.name {{ text-align: left; white-space: nowrap; }} tr.phase td {{ font-variant-numeric: tabular-nums; }}</style></head>\n<body><h1>{heading}</h1>\n\
         <p>{lead}; the figures are the state's after the phase. Grey rows ran no rewrite \
         (a branch no thread took).</p>\n{svg}\n<table><thead><tr>\
         <th>#</th><th class=\"name\">phase</th><th class=\"name\">{opener}</th><th>{instrs}</th>\
         <th>rewrites</th><th>run</th><th>skipped</th><th>changed</th><th>bytes</th><th>peak bytes</th>\
         <th>active</th><th>paused</th><th>peak threads</th><th>ms</th><th class=\"name\">state</th></tr></thead><tbody>\n",
        escape(&title),
    );
    for (i, (p, r)) in phases.iter().zip(runs).enumerate() {
        let file = file_name(i, p);
        let _ = writeln!(
            page,
            "<tr class=\"phase\"{}><td>{i}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{}..{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{:.3}</td><td class=\"name\"><a href=\"{}\">{}</a></td></tr>",
            if r.executed == 0 {
                " style=\"color: #999\""
            } else {
                ""
            },
            escape(&p.name),
            escape(&p.opener),
            p.instrs.start,
            p.instrs.end,
            p.rewrites.len(),
            r.executed,
            r.skipped,
            r.changed,
            r.bytes,
            r.peak_bytes,
            r.active,
            r.paused,
            r.peak_threads,
            r.time.as_secs_f64() * 1e3,
            escape(&file),
            escape(&file)
        );
    }
    page.push_str("</tbody></table>\n</body></html>\n");
    page
}

/// Writes the plot (`trace.svg`) and the page (`index.html`) of `subject`
/// into `dir`, and says so on standard error.
pub(crate) fn write(
    dir: &Path,
    subject: Subject<'_>,
    phases: &[Phase],
    runs: &[PhaseRun],
) -> Result<()> {
    let svg = svg(subject, phases, runs);
    let svg_path = dir.join("trace.svg");
    std::fs::write(&svg_path, &svg).with_context(|| format!("writing {}", svg_path.display()))?;
    let page = html(subject, phases, runs, &svg);
    let html_path = dir.join("index.html");
    std::fs::write(&html_path, page).with_context(|| format!("writing {}", html_path.display()))?;
    eprintln!("wrote {} and {}", html_path.display(), svg_path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(400.0), 100.0);
        assert_eq!(tick_step(9.0), 2.5);
        assert_eq!(tick_step(350_000.0), 100_000.0);
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(123456), "123,456");
        assert_eq!(thousands(12), "12");
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
