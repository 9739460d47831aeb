//! What `fuzz` does with a disagreement: counts it, and prints and writes
//! the first of each kind as a reproducer (kind, FEN, move, both answers,
//! seed, game, a command that shows it again) to
//! `<out>/<kind>-<seed>-<game>.txt`; and the out directory's check before
//! a campaign starts. It never runs a check or a chess program: the
//! findings come from `fuzz::checks`.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};

use super::checks::{Finding, Ply};
use super::{Campaign, Kind, Settings};

/// Counts a disagreement; the first of its kind is printed and written to
/// the out directory.
pub(super) fn record(
    c: &Campaign,
    kind: Kind,
    game: u64,
    start: &str,
    ply: &Ply,
    found: &Finding,
) -> Result<()> {
    c.counters.disagreements[kind.index()].fetch_add(1, Ordering::Relaxed);
    if c.counters.reported[kind.index()].swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let s = &c.settings;
    let text = reproducer(kind, game, start, ply, found, s);
    let path = write_reproducer(&s.out, kind, s.seed, game, &text)?;
    // The reproducer is in its file whether or not anyone reads stdout.
    quiet_when_closed(c.bar.suspend(|| {
        let mut out = crate::textio::stdout();
        writeln!(out, "{kind} disagreement")?;
        write!(out, "{text}")?;
        writeln!(out, "written to {}", path.display())?;
        writeln!(out)
    }))
}

/// A report to a closed standard output is dropped; other write errors
/// stay errors.
pub(super) fn quiet_when_closed(written: Result<()>) -> Result<()> {
    match written {
        Err(e) if crate::textio::is_closed(&e) => Ok(()),
        other => other,
    }
}

/// The reproducer: one `key: value` per line.
fn reproducer(kind: Kind, game: u64, start: &str, ply: &Ply, f: &Finding, s: &Settings) -> String {
    let reference_name = match kind {
        Kind::Movegen => "shakmaty",
        _ => "reference",
    };
    let mut text = format!("kind: {kind}\nfen: {}\n", ply.fen);
    text += &format!("move: {}\n", f.mv.as_deref().unwrap_or("-"));
    text += &format!("regex program: {}\n", f.regex);
    text += &format!("{reference_name}: {}\n", f.reference);
    for note in &f.notes {
        text += &format!("note: {note}\n");
    }
    text += &format!(
        "seed: {}\ngame: {game}\nply: {}\nstart: {start}\n",
        s.seed, ply.index
    );
    if let Some(fault) = s.fault {
        text += &format!("injected fault: {fault} (not a bug of the regex program)\n");
    }
    let command = match kind {
        Kind::Movegen => format!("regex-chess moves --with-fen --fen '{}'", ply.fen),
        Kind::Reply => format!("regex-chess reply --fen '{}'", ply.fen),
        Kind::Verdict => format!(
            "printf '{}\\nquit\\n' | regex-chess play --ascii --engine-color none --fen '{}'",
            f.mv.as_deref().unwrap_or(""),
            ply.fen
        ),
        Kind::Screen => format!(
            "printf 'quit\\n' | regex-chess play --ascii --engine-color none --fen '{}'",
            ply.fen
        ),
    };
    if !command.is_empty() {
        text += &format!("reproduce: {command}\n");
    }
    text
}

/// Creates the out directory and checks that a file can be written there.
pub(super) fn prepare_out(out: &Path) -> Result<()> {
    let shown = crate::textio::quote(&out.to_string_lossy());
    std::fs::create_dir_all(out).with_context(|| format!("creating --out {shown}"))?;
    tempfile::NamedTempFile::new_in(out)
        .with_context(|| format!("--out {shown} cannot take reproducer files"))?;
    Ok(())
}

fn write_reproducer(out: &Path, kind: Kind, seed: u64, game: u64, text: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("creating the out directory {}", out.display()))?;
    let path = out.join(format!("{kind}-{seed}-{game}.txt"));
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}
