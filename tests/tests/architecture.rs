//! The layout section of `docs/ARCHITECTURE.md` is a true map: under each
//! workspace member's entry it names every module file of that member
//! (`src/**/*.rs`, by its path below `src/`), and every `.rs` name it
//! gives there is a file that exists. It reads the workspace's
//! `Cargo.toml` and the files on disk; it checks nothing else of the docs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The workspace members, as listed in the root `Cargo.toml`.
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let start = manifest.find("members").expect("a members list");
    let list = &manifest[start..];
    let list = &list[list.find('[').expect("[") + 1..list.find(']').expect("]")];
    let members: Vec<String> = list
        .split(',')
        .map(|m| m.trim().trim_matches('"').trim_end_matches('/').to_string())
        .filter(|m| !m.is_empty())
        .collect();
    assert!(!members.is_empty(), "no members read from Cargo.toml");
    members
}

/// Every `.rs` file under `dir`, as a path relative to it with `/`.
fn rust_files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".rs") {
            out.insert(format!("{prefix}{name}"));
        }
    }
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
