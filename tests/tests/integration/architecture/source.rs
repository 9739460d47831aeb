//! The Rust side of the architecture test: the workspace's members, its
//! source files read as text (comments and literals blanked), the items
//! each defines, and whether a path such as `chess::Depth::DEFAULT`
//! names one of them. The rule it implements is stated in the test's own
//! doc (`architecture.rs`); this module reads no doc.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// First path segments outside the workspace besides its dependencies'
/// crate names: the standard library and the primitive and prelude types.
const OUTSIDE: [&str; 24] = [
    "std", "core", "alloc", "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16",
    "i32", "i64", "i128", "f32", "f64", "bool", "char", "str", "String", "Vec", "Option", "Result",
];

/// The workspace members, as listed in the root `Cargo.toml`.
pub(crate) fn members(root: &Path) -> Vec<String> {
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
pub(crate) fn rust_files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    walk(dir, prefix, &mut |path| {
        if path.ends_with(".rs") {
            out.insert(path.to_string());
        }
    });
}

/// Calls `visit` with the path of every file under `dir` (below it, with
/// `/`, after `prefix`), `target/` and `.git/` aside.
fn walk(dir: &Path, prefix: &str, visit: &mut dyn FnMut(&str)) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                walk(&path, &format!("{prefix}{name}/"), visit);
            }
        } else {
            visit(&format!("{prefix}{name}"));
        }
    }
}

pub(crate) fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

pub(crate) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `src` with comments and the insides of string and character literals
/// turned into spaces, byte for byte, so that braces and keywords in the
/// result are code.
pub(crate) fn blank(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let wipe = |from: usize, to: usize, out: &mut Vec<u8>| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let ident = |i: usize| i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_');
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !ident(i - 1);
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            wipe(i, end, &mut out);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            wipe(i, j, &mut out);
            i = j;
        } else if starts_word && (b[i] == b'r' || b[i..].starts_with(b"br")) {
            let r = if b[i] == b'r' { i } else { i + 1 };
            let hashes = b[r + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(r + 1 + hashes) == Some(&b'"') {
                let body = r + 2 + hashes;
                let mut closing = vec![b'"'];
                closing.extend(std::iter::repeat_n(b'#', hashes));
                let end = b[body..]
                    .windows(closing.len())
                    .position(|w| w == closing.as_slice())
                    .map_or(b.len(), |n| body + n);
                wipe(body, end, &mut out);
                i = (end + closing.len()).min(b.len());
            } else {
                i += 1;
            }
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let j = j.min(b.len());
            wipe(i + 1, j, &mut out);
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}', 'é'), else a lifetime.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b.get(i + 3..)
                    .and_then(|rest| rest.iter().position(|&c| c == b'\''))
                    .map(|n| i + 3 + n)
            } else {
                let len = src[i + 1..].chars().next().map_or(0, char::len_utf8);
                (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
            };
            match end {
                Some(end) => {
                    wipe(i + 1, end, &mut out);
                    i = end + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written")
}

/// The byte after the `}` that closes the `{` at `open` (nesting counted
/// on blanked text), or the text's end.
pub(crate) fn close_of(text: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in text.bytes().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// `text[range]` with everything nested deeper than its own level (inside
/// `{}`, and also `()` and `[]` when `all_brackets`) turned into spaces.
pub(crate) fn top_level(text: &str, range: Range<usize>, all_brackets: bool) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(range.len());
    for c in text[range].chars() {
        let opens = c == '{' || (all_brackets && (c == '(' || c == '['));
        let closes = c == '}' || (all_brackets && (c == ')' || c == ']'));
        if closes {
            depth = depth.saturating_sub(1);
        }
        if depth == 0 || c == '\n' {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
        if opens {
            depth += 1;
        }
    }
    out
}

/// The identifiers of `text` with their byte offsets.
pub(crate) fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (start, is_ident_char(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The keywords that define a named item.
const ITEM_KEYWORDS: [&str; 9] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
];

/// The items `level` defines at its own level (`level` cut from `full`
/// by [`top_level`], or `full` itself for every depth):
/// `(keyword, name, offset of the name)`, `macro_rules!` as the keyword
/// `macro`, and the leaves of a `pub use` (their last segment or their
/// `as` name, read from `full`, where the braces are kept) as `use`.
pub(crate) fn items(level: &str, full: &str) -> Vec<(&'static str, String, usize)> {
    let w = words(level);
    let mut out = Vec::new();
    for (k, &(at, word)) in w.iter().enumerate() {
        let before = level[..at].trim_end();
        let next = w.get(k + 1);
        if let Some(&keyword) = ITEM_KEYWORDS.iter().find(|&&kw| kw == word) {
            // `'static` is a lifetime, not an item.
            let lifetime = level[..at].ends_with('\'');
            if let (Some(&(name_at, name)), false) = (next, lifetime) {
                let adjacent = level[at + word.len()..name_at].trim().is_empty();
                if adjacent && !ITEM_KEYWORDS.contains(&name) && name.starts_with(is_ident_start) {
                    out.push((keyword, name.to_string(), name_at));
                }
            }
        } else if word == "macro_rules" {
            if let Some(&(name_at, name)) = next {
                out.push(("macro", name.to_string(), name_at));
            }
        } else if word == "use" && (before.ends_with("pub") || before.ends_with("pub(crate)")) {
            let end = full[at..].find(';').map_or(full.len(), |n| at + n);
            for leaf in full[at + 3..end].split(['{', '}', ',']) {
                let leaf = leaf.trim();
                let name = match leaf.split_once(" as ") {
                    Some((_, alias)) => alias.trim(),
                    None => leaf.rsplit("::").next().unwrap_or(leaf),
                };
                if name.starts_with(is_ident_start) && name.chars().all(is_ident_char) {
                    out.push(("use", name.to_string(), at));
                }
            }
        }
    }
    out
}

/// One `.rs` file under a member's `src/`, blanked.
pub(crate) struct Source {
    /// The path below the repository root.
    path: PathBuf,
    /// The member's `src/` folder it is in.
    src: PathBuf,
    text: String,
    /// The items it defines at any depth (see [`items`]).
    defs: Vec<(&'static str, String, usize)>,
    /// Its `impl` blocks (see [`impl_blocks`]).
    impls: Vec<(usize, String)>,
}

/// Where the walk along a path stands.
#[derive(Debug, Clone)]
pub(crate) enum Scope {
    /// A module: a file (its index), the range of its items (the whole
    /// file, or an inline `mod`'s braces) and the folder of its child
    /// module files.
    Module {
        file: usize,
        range: Range<usize>,
        dir: PathBuf,
    },
    /// A struct, enum, union, trait or type alias, by name, in the crate
    /// of the `src/` folder.
    Type { name: String, src: PathBuf },
    /// A function, constant, static, macro, variant, field or method:
    /// nothing is below it.
    Leaf,
}

/// The workspace's Rust sources and how its crates are named.
pub(crate) struct Workspace {
    root: PathBuf,
    sources: Vec<Source>,
    /// Crate names (package and `[lib]` names with `_`, and the member's
    /// folder name) to the crate's root file.
    crates: Vec<(String, PathBuf)>,
    /// Names whose paths are outside the workspace.
    pub(crate) outside: BTreeSet<String>,
    /// The name of every file of the repository (`target/` and `.git/`
    /// aside).
    file_names: BTreeSet<String>,
}

impl Workspace {
    pub(crate) fn load(root: &Path) -> Workspace {
        let mut sources = Vec::new();
        let mut crates = Vec::new();
        for member in members(root) {
            let src = Path::new(&member).join("src");
            let mut files = BTreeSet::new();
            rust_files(&root.join(&src), "", &mut files);
            for file in files {
                let path = src.join(file);
                let text = std::fs::read_to_string(root.join(&path)).expect("a source file");
                let text = blank(&text);
                sources.push(Source {
                    path,
                    src: src.clone(),
                    defs: items(&text, &text),
                    impls: impl_blocks(&text),
                    text,
                });
            }
            let lib = src.join("lib.rs");
            let crate_root = if root.join(&lib).exists() {
                lib
            } else {
                src.join("main.rs")
            };
            let manifest =
                std::fs::read_to_string(root.join(&member).join("Cargo.toml")).expect("Cargo.toml");
            let mut names = vec![member.rsplit('/').next().unwrap_or(&member).to_string()];
            let mut section = "";
            for line in manifest.lines().map(str::trim) {
                if line.starts_with('[') {
                    section = line;
                } else if let Some(value) = line.strip_prefix("name = ") {
                    if section == "[package]" || section == "[lib]" {
                        names.push(value.trim_matches('"').replace('-', "_"));
                    }
                }
            }
            for name in names {
                crates.push((name, crate_root.clone()));
            }
        }
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
        let deps = manifest
            .split("[workspace.dependencies]")
            .nth(1)
            .expect("a [workspace.dependencies] table");
        let mut outside: BTreeSet<String> = OUTSIDE.iter().map(|s| (*s).to_string()).collect();
        for line in deps.lines().take_while(|l| !l.starts_with('[')) {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().replace('-', "_");
                let ours = crates.iter().any(|(c, _)| *c == name);
                if !name.is_empty() && !name.starts_with('#') && !ours {
                    outside.insert(name);
                }
            }
        }
        let mut file_names = BTreeSet::new();
        walk(root, "", &mut |path| {
            file_names.insert(path.rsplit('/').next().unwrap_or(path).to_string());
        });
        Workspace {
            root: root.to_path_buf(),
            sources,
            crates,
            outside,
            file_names,
        }
    }

    fn file_index(&self, path: &Path) -> Option<usize> {
        self.sources.iter().position(|s| s.path == path)
    }

    /// The module of the file at `path`, its whole text.
    fn module_of(&self, path: &Path) -> Option<Scope> {
        let file = self.file_index(path)?;
        let name = path.file_name()?.to_str()?;
        let parent = path.parent()?;
        let dir = if ["lib.rs", "main.rs", "mod.rs"].contains(&name) {
            parent.to_path_buf()
        } else {
            parent.join(name.trim_end_matches(".rs"))
        };
        Some(Scope::Module {
            file,
            range: 0..self.sources[file].text.len(),
            dir,
        })
    }

    /// Where a path's first segment can start: a crate's root module,
    /// every module file of that name, every type of that name.
    fn roots(&self, first: &str) -> Vec<Scope> {
        let mut out: Vec<Scope> = self
            .crates
            .iter()
            .filter(|(name, _)| name == first)
            .filter_map(|(_, path)| self.module_of(path))
            .collect();
        for source in &self.sources {
            let named_file = source.path.file_name() == Some(format!("{first}.rs").as_ref());
            let named_dir = source.path.ends_with(format!("{first}/mod.rs"));
            if named_file || named_dir {
                out.extend(self.module_of(&source.path));
            }
            let defines = source
                .defs
                .iter()
                .any(|(kw, name, _)| name == first && is_type_keyword(kw));
            if defines {
                out.push(Scope::Type {
                    name: first.to_string(),
                    src: source.src.clone(),
                });
            }
        }
        out
    }

    /// The scopes `segment` names below `scope`.
    fn step(&self, scope: &Scope, segment: &str) -> Vec<Scope> {
        match scope {
            Scope::Module { file, range, dir } => {
                let source = &self.sources[*file];
                let level = top_level(&source.text, range.clone(), false);
                let mut out = Vec::new();
                for (keyword, name, at) in items(&level, &source.text[range.clone()]) {
                    if name != segment {
                        continue;
                    }
                    let at = range.start + at;
                    match keyword {
                        "mod" => out.extend(self.child_module(source, at, dir, segment)),
                        "use" => {
                            // A re-export is not followed to what it names:
                            // it may stand for an item, a type, or a module
                            // of that name anywhere in the workspace (e.g.
                            // `pub use board::codec;` makes `chess::codec`).
                            out.push(Scope::Leaf);
                            out.push(Scope::Type {
                                name: name.clone(),
                                src: source.src.clone(),
                            });
                            out.extend(self.roots(&name));
                        }
                        kw if is_type_keyword(kw) => out.push(Scope::Type {
                            name: name.clone(),
                            src: source.src.clone(),
                        }),
                        _ => out.push(Scope::Leaf),
                    }
                }
                out
            }
            Scope::Type { name, src } => {
                if self.members_of(name, src).contains(segment) {
                    vec![Scope::Leaf]
                } else {
                    Vec::new()
                }
            }
            Scope::Leaf => Vec::new(),
        }
    }

    /// The module `mod name` at `at` declares: its inline braces, or the
    /// file `dir/name.rs` or `dir/name/mod.rs`.
    fn child_module(&self, source: &Source, at: usize, dir: &Path, name: &str) -> Option<Scope> {
        let after = &source.text[at + name.len()..];
        let brace = after.find(['{', ';'])?;
        if after.as_bytes()[brace] == b'{' {
            let open = at + name.len() + brace;
            let file = self.file_index(&source.path)?;
            return Some(Scope::Module {
                file,
                range: open + 1..close_of(&source.text, open) - 1,
                dir: dir.join(name),
            });
        }
        let flat = dir.join(format!("{name}.rs"));
        let nested = dir.join(name).join("mod.rs");
        self.module_of(&flat).or_else(|| self.module_of(&nested))
    }

    /// The names below type `name` in the crate of `src`: an enum's
    /// variants, a struct's or union's named fields, a trait's items, and
    /// the functions, constants and types of every `impl` block whose type
    /// is `name` (generic arguments aside).
    fn members_of(&self, name: &str, src: &Path) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for source in self.sources.iter().filter(|s| s.src == src) {
            let text = &source.text;
            for (keyword, item, at) in &source.defs {
                let (keyword, at) = (*keyword, *at);
                if item != name || !is_type_keyword(keyword) || keyword == "type" {
                    continue;
                }
                let after = &text[at + item.len()..];
                let Some(open) = after.find(['{', ';', '(']) else {
                    continue;
                };
                if after.as_bytes()[open] != b'{' {
                    continue;
                }
                let open = at + item.len() + open;
                let body = open + 1..close_of(text, open) - 1;
                if keyword == "trait" {
                    let level = top_level(text, body.clone(), false);
                    out.extend(items(&level, &text[body]).into_iter().map(|(_, n, _)| n));
                    continue;
                }
                let level = top_level(text, body, true);
                for piece in level.split(',') {
                    let mut w = words(piece)
                        .into_iter()
                        .filter(|(_, w)| !["pub", "crate", "super"].contains(w));
                    let Some((offset, first)) = w.next() else {
                        continue;
                    };
                    let is_field = piece[offset + first.len()..].trim_start().starts_with(':');
                    if keyword == "enum" || is_field {
                        out.insert(first.to_string());
                    }
                }
            }
            for (open, self_type) in &source.impls {
                if self_type == name {
                    let body = open + 1..close_of(text, *open) - 1;
                    let level = top_level(text, body.clone(), false);
                    out.extend(items(&level, &text[body]).into_iter().map(|(_, n, _)| n));
                }
            }
        }
        out
    }

    /// Whether the path `segments` names an item of the workspace.
    pub(crate) fn resolves(&self, segments: &[String]) -> bool {
        let mut scopes = self.roots(&segments[0]);
        for segment in &segments[1..] {
            scopes = scopes.iter().flat_map(|s| self.step(s, segment)).collect();
        }
        !scopes.is_empty()
    }

    /// Whether the file path `path` exists: from the repository root, or
    /// below one member's `src/`; a bare `name.rs` anywhere in the
    /// repository; `dir/*` is `dir/`.
    pub(crate) fn file_exists(&self, path: &str) -> bool {
        let path = path.trim_end_matches('*');
        if !path.contains('/') {
            return self.file_names.contains(path);
        }
        let mut bases = vec![self.root.clone()];
        bases.extend(
            self.crates
                .iter()
                .filter_map(|(_, p)| p.parent())
                .map(|p| self.root.join(p)),
        );
        bases.iter().any(|base| base.join(path).exists())
    }
}

pub(crate) fn is_type_keyword(keyword: &str) -> bool {
    ["struct", "enum", "union", "trait", "type"].contains(&keyword)
}

/// Every `impl` block of `text` (an `impl` where an item starts: after
/// `}`, `;`, `]`, `{` or the text's start): the offset of its `{` and the
/// last identifier of its type (after `for` when it has one), generic
/// arguments and `where` clauses aside.
pub(crate) fn impl_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, word) in words(text) {
        let before = text[..at].trim_end();
        let item_start = before.is_empty() || before.ends_with(['}', ';', ']', '{']);
        if word != "impl" || !item_start {
            continue;
        }
        let Some(open) = text[at..].find(['{', ';']).map(|n| at + n) else {
            continue;
        };
        if text.as_bytes()[open] != b'{' {
            continue;
        }
        let mut header = String::new();
        let mut angle = 0usize;
        for c in text[at + 4..open].chars() {
            match c {
                '<' => angle += 1,
                '>' if angle > 0 => angle -= 1,
                _ if angle == 0 => header.push(c),
                _ => {}
            }
        }
        let header = header.split(" where ").next().unwrap_or_default();
        let self_type = header.rsplit(" for ").next().unwrap_or_default();
        if let Some((_, name)) = words(self_type).last() {
            out.push((open, (*name).to_string()));
        }
    }
    out
}

#[test]
fn blank_leaves_code_and_hides_comments_and_literals() {
    let src = "fn a() { let s = \"} fn b\"; } // fn c\n/* fn d /* } */ */ const E: char = '}';\nfn f<'a>(x: &'a str) { r#\"fn g\"#; b'{'; }";
    let blanked = blank(src);
    assert_eq!(blanked.len(), src.len());
    let level = top_level(&blanked, 0..blanked.len(), false);
    let names: Vec<String> = items(&level, &blanked)
        .into_iter()
        .map(|(_, n, _)| n)
        .collect();
    assert_eq!(names, ["a", "E", "f"]);
}
