//! `docs/ARCHITECTURE.md` is a true map. Two checks, each reading the doc,
//! the root `Cargo.toml` and the files on disk:
//!
//! 1. The layout section names every module file of every workspace member
//!    (`src/**/*.rs`, by its path below `src/`), and every `.rs` name it
//!    gives there is a file that exists.
//! 2. Every code path the doc names exists. The spans read are the
//!    backticked ones outside fenced blocks (a span may run over a line
//!    break), and the entries of a heading's trailing `(a, b, c)` list
//!    that hold no backtick. A span is
//!    - a **Rust path** when it starts with at least two identifiers joined
//!      by `::` (`chess::Depth::DEFAULT`, `Budget::worth_starting`;
//!      the path is that leading run, so `clock::budget(&Clock)` is
//!      `clock::budget` and `Config::parallel = false` is
//!      `Config::parallel`). A path whose first segment is a dependency
//!      of the workspace (`[workspace.dependencies]`), `std`, `core`,
//!      `alloc` or a primitive or prelude type is outside and not
//!      checked (`std::io::Error`, `rayon::join`);
//!    - else a **file path** when it is made of path characters only
//!      (letters, digits, `_ - . / *`) with a letter, and has a `/` and
//!      ends in `/`, `/*` or a known extension (`.rs`, `.md`, `.py`,
//!      `.js`, ...) or starts with a dot (`.ci/run`), or is a bare
//!      `name.rs`;
//!    - else prose (shell commands, regex text, variable names, single
//!      identifiers such as `probe`), not checked.
//!
//!    A file path must exist from the repository root or below one
//!    member's `src/` (`exec/prepare.rs`); a bare `name.rs` must be the
//!    name of a file somewhere in the repository; `dir/*` is `dir/`.
//!
//!    A Rust path must name an item defined in the workspace's `src/`
//!    trees. Its first segment is a crate (a member's package or `[lib]`
//!    name with `_`, or its folder's name: `chess`, `regex_vm`, `vm`,
//!    `asm`, `cli`), or any module file of that name (`search` is
//!    `chess/src/search/mod.rs`, `places` is `pyre/places.rs`), or any type of
//!    that name. Each later segment must be, below a module, a `mod`
//!    declared at that module's top level (then its file `name.rs` or
//!    `name/mod.rs`, or its inline braces) or an item defined there (`fn`,
//!    `struct`, `enum`, `union`, `trait`, `type`, `const`, `static`,
//!    `macro_rules!`) or re-exported there by a `pub use`; below a type,
//!    a variant of the enum, a named field of the struct, an item of the
//!    trait, or a `fn`, `const` or `type` of any `impl` block of that
//!    type's name in the same crate. Nothing can be below a function,
//!    constant, variant or field.
//!
//! What the second check does not do: it reads source text, not a
//! compiled crate. Comments and string and character literals are blanked
//! first, then items are found by keyword and braces. So it does not check
//! visibility (a `pub(crate)` item resolves), does not follow a `pub use`
//! to its target (the re-exported name resolves as itself), does not tell
//! two types of one name apart (an `impl` of any type of that name in the
//! crate counts), ignores `cfg` (test modules count) and macro-generated
//! items, and reads no path that is not backticked or in a heading's list
//! (prose such as "the probe cut" is not a path). It prints every span
//! that does not resolve, with its line.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod source;

use source::{is_ident_char, is_ident_start, members, rust_files, Workspace};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The fenced block of the "Layout and data flow" section, cut into one
/// entry per member: the lines from one that starts with `member/` to the
/// next line that starts at the margin.
fn layout_entries(doc: &str, members: &[String]) -> Vec<(String, String)> {
    let section = &doc[doc
        .find("## Layout and data flow")
        .expect("the layout section")..];
    let block = &section[section.find("```\n").expect("a fenced block") + 4..];
    let block = &block[..block.find("```").expect("the block's end")];
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        let starts_entry = !line.starts_with(' ') && !line.is_empty();
        if starts_entry {
            let member = members
                .iter()
                .find(|m| line.starts_with(&format!("{m}/")))
                .unwrap_or_else(|| panic!("layout line names no member: {line:?}"));
            entries.push((member.clone(), String::new()));
        }
        let (_, text) = entries
            .last_mut()
            .unwrap_or_else(|| panic!("layout text before any member: {line:?}"));
        text.push_str(line);
        text.push('\n');
    }
    entries
}

/// The `.rs` names in `text`: runs of path characters ending in `.rs`.
fn named_files(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_/.".contains(c)))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.ends_with(".rs"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_layout_names_every_module_file_and_no_missing_one() {
    let root = root();
    let members = members(&root);
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("the doc");
    let entries = layout_entries(&doc, &members);
    let mut problems = Vec::new();
    for member in &members {
        let text: String = entries
            .iter()
            .filter(|(m, _)| m == member)
            .map(|(_, t)| t.as_str())
            .collect();
        if text.is_empty() {
            problems.push(format!("{member}: no entry in the layout"));
            continue;
        }
        let named = named_files(&text);
        let mut files = BTreeSet::new();
        rust_files(&root.join(member).join("src"), "", &mut files);
        assert!(!files.is_empty(), "{member}/src has no .rs file");
        for file in files.difference(&named) {
            problems.push(format!("{member}/src/{file} is not named in the layout"));
        }
        for name in named.difference(&files) {
            problems.push(format!(
                "the layout names {name} under {member}, but {member}/src/{name} does not exist"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/ARCHITECTURE.md's layout is out of date:\n{}",
        problems.join("\n")
    );
}

#[test]
fn named_files_reads_paths_out_of_prose() {
    let names = named_files("exec/ (x): exec/mod.rs (Executor), gate.rs. lib.rs");
    let want: BTreeSet<String> = ["exec/mod.rs", "gate.rs", "lib.rs"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    assert_eq!(names, want);
}

// ---------------------------------------------------------------------
// Every code path the doc names exists.
// ---------------------------------------------------------------------

/// The file extensions that make a span with a `/` a file path.
const FILE_EXTENSIONS: [&str; 11] = [
    "rs", "md", "py", "js", "cjs", "toml", "epd", "json", "html", "css", "svg",
];

/// A backticked span of the doc (or an entry of a heading's parenthesised
/// list), with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    line: usize,
    text: String,
}

/// What a span names, by the rule in the module's doc.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Named {
    /// A file or folder of the repository.
    File(String),
    /// An item of the workspace's Rust code, as its segments.
    Rust(Vec<String>),
    /// A Rust path whose first segment is outside the workspace.
    Outside,
    /// Not a code path.
    Prose,
}

/// The backticked spans of `doc` outside fenced blocks (a run of `n`
/// backticks opens a span that the next run of exactly `n` closes; a span
/// may run over a line break, read as a space), then the entries of every
/// heading's trailing `(a, b, c)` list that hold no backtick.
fn spans(doc: &str) -> Vec<Span> {
    let mut text = String::new();
    let mut in_fence = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            text.push('\n');
            continue;
        }
        if !in_fence {
            text.push_str(line);
        }
        text.push('\n');
    }
    let bytes = text.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let open = run_at(i);
        let start = i + open;
        let mut j = start;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let n = run_at(j);
                if n == open {
                    close = Some(j);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        let Some(end) = close else { break };
        out.push(Span {
            line: text[..i].matches('\n').count() + 1,
            text: text[start..end].replace('\n', " ").trim().to_string(),
        });
        i = end + open;
    }
    for (n, line) in doc.lines().enumerate() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let Some(open) = heading.rfind('(') else {
            continue;
        };
        let Some(list) = heading[open + 1..].strip_suffix(')') else {
            continue;
        };
        for entry in list.split(',').map(str::trim) {
            if !entry.contains('`') && !entry.is_empty() {
                out.push(Span {
                    line: n + 1,
                    text: entry.to_string(),
                });
            }
        }
    }
    out
}

/// The Rust path a span starts with: identifiers joined by `::`, at least
/// two, taken as far as they go (a call's arguments, `= value` or `/Other`
/// after it are not read).
fn leading_rust_path(span: &str) -> Option<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = span;
    loop {
        if !rest.starts_with(is_ident_start) {
            break;
        }
        let len = rest.find(|c| !is_ident_char(c)).unwrap_or(rest.len());
        segments.push(rest[..len].to_string());
        rest = &rest[len..];
        match rest.strip_prefix("::") {
            Some(r) if r.starts_with(is_ident_start) => rest = r,
            _ => break,
        }
    }
    (segments.len() >= 2).then_some(segments)
}

/// Whether `span` is a file path: path characters only, and either a `/`
/// with a trailing `/`, `/*` or `.ext` (`ext` one of [`FILE_EXTENSIONS`])
/// or a start at `./`, `../` or a dot-folder; or a bare `name.rs`.
fn is_file_path(span: &str) -> bool {
    let path_chars = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-./*".contains(c));
    if !path_chars || !span.chars().any(|c| c.is_ascii_alphabetic()) || span.starts_with('/') {
        return false;
    }
    let extension = span
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext));
    if !span.contains('/') {
        return span.ends_with(".rs") && extension && !span.contains('*');
    }
    span.ends_with('/') || span.ends_with("/*") || extension || span.starts_with('.')
}

/// What `span` names: a Rust path first (`outside` holds the first
/// segments that are not the workspace's), then a file path, else prose.
fn classify(span: &str, outside: &BTreeSet<String>) -> Named {
    if let Some(segments) = leading_rust_path(span) {
        if outside.contains(&segments[0]) {
            return Named::Outside;
        }
        return Named::Rust(segments);
    }
    if is_file_path(span) {
        return Named::File(span.to_string());
    }
    Named::Prose
}

#[test]
fn every_code_path_the_doc_names_exists() {
    let root = root();
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("the doc");
    let workspace = Workspace::load(&root);
    let (mut files, mut rust, mut problems) = (0, 0, Vec::new());
    for span in spans(&doc) {
        match classify(&span.text, &workspace.outside) {
            Named::File(path) => {
                files += 1;
                if !workspace.file_exists(&path) {
                    problems.push(format!(
                        "docs/ARCHITECTURE.md:{}: `{}`: no such file or folder",
                        span.line, span.text
                    ));
                }
            }
            Named::Rust(segments) => {
                rust += 1;
                if !workspace.resolves(&segments) {
                    problems.push(format!(
                        "docs/ARCHITECTURE.md:{}: `{}`: {} is not an item of the workspace",
                        span.line,
                        span.text,
                        segments.join("::")
                    ));
                }
            }
            Named::Outside | Named::Prose => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} code paths in docs/ARCHITECTURE.md do not resolve:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The rule must keep reading paths: a doc whose spans all count as
    // prose would pass with nothing checked.
    assert!(
        files >= 30 && rust >= 60,
        "only {files} file paths and {rust} Rust paths read"
    );
}

#[test]
fn spans_are_read_across_lines_fences_and_double_backticks() {
    let doc = "a `x::y` b ``a ` b`` c `two\nlines`\n```\n`fenced`\n```\n## H (p/q.rs, `r`, s.rs)\n";
    let got: Vec<(usize, String)> = spans(doc).into_iter().map(|s| (s.line, s.text)).collect();
    let want = [
        (1, "x::y"),
        (1, "a ` b"),
        (1, "two lines"),
        (6, "r"),
        (6, "p/q.rs"),
        (6, "s.rs"),
    ];
    let want: Vec<(usize, String)> = want.iter().map(|(l, t)| (*l, (*t).to_string())).collect();
    assert_eq!(got, want);
}

#[test]
fn spans_are_told_apart_by_the_rule() {
    let outside: BTreeSet<String> = ["std", "rayon"].iter().map(|s| (*s).to_string()).collect();
    let rust = |s: &[&str]| Named::Rust(s.iter().map(|s| (*s).to_string()).collect());
    let file = |s: &str| Named::File(s.to_string());
    let cases = [
        (
            "chess::Depth::DEFAULT",
            rust(&["chess", "Depth", "DEFAULT"]),
        ),
        (
            "clock::budget(&Clock) -> Option<Budget>",
            rust(&["clock", "budget"]),
        ),
        ("Config::parallel = false", rust(&["Config", "parallel"])),
        ("FormatError::Io/Json", rust(&["FormatError", "Io"])),
        ("rayon::join", Named::Outside),
        ("std::io::Error", Named::Outside),
        ("chess/src/game/turn.rs", file("chess/src/game/turn.rs")),
        ("crates/cli/web/*", file("crates/cli/web/*")),
        ("backtrack/", file("backtrack/")),
        ("lib.rs", file("lib.rs")),
        (".ci/run", file(".ci/run")),
        ("turn2.js", Named::Prose),
        ("Not/And/Or", Named::Prose),
        ("dump --depth 2/3/5", Named::Prose),
        ("/([^%\\n]{8})/", Named::Prose),
        ("//", Named::Prose),
        ("::x", Named::Prose),
        ("probe", Named::Prose),
    ];
    for (span, want) in cases {
        assert_eq!(classify(span, &outside), want, "{span:?}");
    }
}

#[test]
fn renamed_and_missing_items_do_not_resolve() {
    let workspace = Workspace::load(&root());
    let path = |p: &str| p.split("::").map(str::to_string).collect::<Vec<_>>();
    for good in [
        "chess::Depth::DEFAULT",
        "regex_vm::ExecError::FancyRegex",
        "deepen::climb",
        "Budget::worth_starting",
        "chess::perft_batched",
        "regex_vm::Stop",
        "Stats::peak_threads",
        "chess::Error::BadOutput",
        "vm::format::to_js",
    ] {
        assert!(workspace.resolves(&path(good)), "{good} should resolve");
    }
    for bad in [
        "chess::perft_with_progress",
        "regex_vm::ExecError::Backtrack",
        "chess::search::NO_SUCH_DEPTH",
        "Budget::no_such_method",
        "deepen::climb::below",
        "no_such_module::item",
        "chess::eval::EVEN::x",
    ] {
        assert!(!workspace.resolves(&path(bad)), "{bad} should not resolve");
    }
    assert!(workspace.file_exists("chess/src/game/turn.rs"));
    assert!(workspace.file_exists("exec/prepare.rs"));
    assert!(!workspace.file_exists("chess/src/no_such.rs"));
    assert!(!workspace.file_exists("no_such.rs"));
}
