//! `listing` and `trace` through the binary: what they show is the program
//! `dump` writes and the turn `play` plays; the report parses as XML.

use chess::codec::START_FEN;
use std::io::Read;
use std::process::Stdio;

use crate::common::{bin, run};

/// The listing's per-kind rows: (name, count, rewrites, patterns).
fn kinds(listing: &str) -> Vec<(String, usize, usize, usize)> {
    listing
        .lines()
        .filter_map(|l| l.strip_prefix("# per kind: "))
        .filter_map(|row| {
            let f: Vec<&str> = row.split_whitespace().collect();
            match f.as_slice() {
                [name, c, r, p] => Some((
                    name.to_string(),
                    c.parse().ok()?,
                    r.parse().ok()?,
                    p.parse().ok()?,
                )),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn listing_shows_the_dumped_program_in_order_and_its_kinds_add_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("turn.json");
    let (ok, _, err) = run(&["dump", file.to_str().expect("utf-8 path")]);
    assert!(ok, "{err}");
    let dumped = regex_vm::format::from_json_file(&file).expect("reads back");
    let (ok, listing, err) = run(&["listing", "--rewrites"]);
    assert!(ok, "{err}");
    let shown: Vec<&str> = listing.lines().filter(|l| l.starts_with("    [")).collect();
    let expected: Vec<String> = dumped
        .rewrites()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "    [{i:05}] {:?} -> {:?}",
                r.pattern,
                r.replacement.to_rust()
            )
        })
        .collect();
    assert_eq!(shown.len(), expected.len());
    for (i, (s, e)) in shown.iter().zip(&expected).enumerate() {
        assert_eq!(s, e, "rewrite {i}");
    }
    // Instruction lines: `007: name ...  (N rewrites)`, numbered in order,
    // whose rewrite counts cover the program.
    let instrs: Vec<&str> = listing
        .lines()
        .filter(|l| l.len() > 4 && l.as_bytes()[..3].iter().all(u8::is_ascii_digit))
        .collect();
    for (i, l) in instrs.iter().enumerate() {
        assert!(l.starts_with(&format!("{i:03}: ")), "{l}");
    }
    let per_instr: usize = instrs
        .iter()
        .filter_map(|l| {
            l.rsplit_once('(')?
                .1
                .strip_suffix(" rewrites)")?
                .parse::<usize>()
                .ok()
        })
        .sum();
    assert_eq!(per_instr, dumped.len());
    let rows = kinds(&listing);
    let (total, body) = rows.split_last().expect("a summary");
    assert_eq!(total.0, "total");
    let count: usize = body.iter().map(|k| k.1).sum();
    let rewrites: usize = body.iter().map(|k| k.2).sum();
    assert_eq!(count, instrs.len());
    assert_eq!(total.1, instrs.len());
    assert_eq!(rewrites, dumped.len());
    assert_eq!(total.2, dumped.len());
    assert_eq!(total.3, dumped.distinct_patterns());
    // Without --rewrites: the same instructions and summary, no rewrite.
    let (ok, short, _) = run(&["listing"]);
    assert!(ok);
    assert!(!short.lines().any(|l| l.starts_with("    [")));
    assert_eq!(kinds(&short), rows);
}

#[test]
fn listing_of_each_program_adds_up() {
    for program in ["moves", "reply"] {
        let (ok, listing, err) = run(&["listing", "--program", program]);
        assert!(ok, "{err}");
        let rows = kinds(&listing);
        let (total, body) = rows.split_last().expect("a summary");
        assert_eq!(
            body.iter().map(|k| k.1).sum::<usize>(),
            total.1,
            "{program}"
        );
        assert_eq!(
            body.iter().map(|k| k.2).sum::<usize>(),
            total.2,
            "{program}"
        );
        let header = listing.lines().next().expect("a header");
        assert!(
            header.contains(&format!("{} instructions, {} rewrites", total.1, total.2)),
            "{header}"
        );
    }
    let (ok, _, err) = run(&["listing", "--program", "nope"]);
    assert!(!ok);
    assert!(err.contains("nope"), "{err}");
}

#[test]
fn listing_into_a_closed_pipe_ends_quietly() {
    let mut child = bin()
        .args(["listing", "--rewrites"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdout = child.stdout.take().expect("piped");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("stderr");
    let status = child.wait().expect("exits");
    assert!(status.success(), "{status:?} {err}");
    assert!(err.is_empty(), "{err}");
}

/// Elements of a parsed document with this tag name and class.
fn count(doc: &roxmltree::Document, tag: &str, class: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && n.attribute("class") == Some(class))
        .map(|n| n.attribute("data-phase").unwrap_or("").to_string())
        .collect()
}

#[test]
fn trace_report_parses_holds_a_point_per_phase_and_ends_as_play_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("report");
    let (ok, table, err) = run(&[
        "trace",
        "--move",
        "e2e4",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(ok, "{err}");
    // Table rows: `  7  ply 1 (white) ...`, numbered from 0.
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .collect();
    assert!(rows.len() > 5, "{table}");
    for (i, r) in rows.iter().enumerate() {
        assert!(r.trim_start().starts_with(&format!("{i} ")), "{r}");
    }
    let n = rows.len();
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    // The page starts with `<!DOCTYPE html>`, a DTD to an XML parser.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc =
        roxmltree::Document::parse_with_options(&html, options).expect("index.html is well-formed");
    assert_eq!(doc.root_element().tag_name().name(), "html");
    let phases: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    assert_eq!(count(&doc, "circle", "bytes"), phases);
    assert_eq!(count(&doc, "circle", "threads"), phases);
    assert_eq!(count(&doc, "tr", "phase").len(), n);
    // Nothing to fetch at view time: the only URL is the SVG namespace.
    let offline = html.replace("http://www.w3.org/2000/svg", "");
    assert!(!offline.contains("http") && !offline.contains("src="));
    let svg = std::fs::read_to_string(out.join("trace.svg")).expect("trace.svg");
    let svg_doc = roxmltree::Document::parse(&svg).expect("trace.svg is well-formed");
    assert_eq!(svg_doc.root_element().tag_name().name(), "svg");
    assert_eq!(count(&svg_doc, "circle", "bytes"), phases);
    // One state file per phase; the last one is what `play` shows.
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .expect("dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".txt") && f != "start.txt")
        .collect();
    files.sort();
    assert_eq!(files.len(), n);
    let last = std::fs::read_to_string(out.join(&files[n - 1])).expect("last state");
    let mut played =
        chess::screen::start_screen(env_start(), Some(shakmaty::Color::Black)).expect("valid");
    chess::play_turn(&mut played, Some("e2e4"), chess::Depth::FAST).expect("plays");
    assert_eq!(last, played);
    let start = std::fs::read_to_string(out.join("start.txt")).expect("start state");
    assert!(start.ends_with("e2e4\n"), "{start}");
}

fn env_start() -> &'static str {
    START_FEN
}

#[test]
fn trace_refuses_bad_input_clearly() {
    let (ok, out, err) = run(&["trace", "--fen", "not a fen"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("not a fen"), "{err}");
    let (ok, out, err) = run(&["trace", "--step"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--step needs a terminal"), "{err}");
}
