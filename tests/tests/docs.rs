//! The documentation says only what the repository has (issue 36).
//!
//! Over README.md, docs/*.md, ARCHITECTURE.md, CHANGELOG.md (when there is one) and
//! bench/README.md:
//!
//! - every repository path named in backticks (`session/tests/http.rs`, `bench/README.md`,
//!   `schema/<version>/schema.json`, a bare `overrides.rs`) or in a relative link exists;
//! - every Rust path named in backticks (`mcp_spec_session::http::HttpServer`,
//!   `rt::service::Policy`, `Versions::every_version`) names an item of the source: its
//!   crate or module is found as a folder or file, and the last segment is defined there (a
//!   `fn`, `struct`, `enum`, `trait`, `type`, `const`, `static`, `mod`, `macro_rules!`, a
//!   `pub use`, a const marker made by a macro, an enum variant or a field).
//!
//! Over README.md and docs/*.md: every fenced block that holds Rust is ```` ```rust ```` or
//! ```` ```rust,no_run ````, and each of those files is a doctest of this crate
//! (`tests/src/lib.rs`), so `cargo test --workspace` compiles every block.
//!
//! The resolver reads the source as tokens, not as Rust: a member of a type (`Type::name`)
//! is looked for in every file of the type's crate (and of the runtime, which the types
//! crate re-exports), not in the type's own `impl`s.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates whose names a doc may start a Rust path with, and their source folders.
const CRATES: &[(&str, &str)] = &[
    ("mcp_spec_types", "generated/src"),
    ("mcp_spec_rt", "runtime/src"),
    ("rt", "runtime/src"),
    ("mcp_spec_session", "session/src"),
    ("mcp_codegen", "generator/src"),
    ("mcp_bench", "bench/src"),
    ("mcp_tests", "tests/src"),
    ("xtask", "xtask/src"),
];

/// Crates of other people, the prelude's types and variants, and tool attributes: a Rust
/// path starting with one of these is not ours to check.
const EXTERNAL: &[&str] = &[
    "std",
    "core",
    "alloc",
    "serde",
    "serde_json",
    "schemars",
    "tokio",
    "axum",
    "hyper",
    "reqwest",
    "futures",
    "jsonschema",
    "proptest",
    "criterion",
    "insta",
    "syn",
    "quote",
    "clap",
    "ureq",
    "rmcp",
    "rust_mcp_schema",
    "Box",
    "Option",
    "Some",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "rustfmt",
    "clippy",
];

/// Mentions that name nothing in the tree, on purpose: `(document, mention, reason)`.
/// Each entry must still be needed: one that now resolves, or is no longer mentioned,
/// fails the check, so that the list stays true.
const NOT_IN_THE_TREE: &[(&str, &str, &str)] = &[];

/// Extensions of the files a bare file name in backticks (`overrides.rs`) may name.
const FILE_EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "json", "jsonl", "sh", "yml", "yaml", "py", "ts", "snap", "lock",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is one level below the workspace root")
        .to_path_buf()
}

/// The documents checked, relative to the root.
fn documents(root: &Path) -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let mut pages: Vec<String> = fs::read_dir(root.join("docs"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".md"))
                .map(|n| format!("docs/{n}"))
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    docs.extend(pages);
    docs.push("ARCHITECTURE.md".into());
    if root.join("CHANGELOG.md").exists() {
        docs.push("CHANGELOG.md".into());
    }
    docs.push("bench/README.md".into());
    docs
}

// ---------------------------------------------------------------------------------------
// Markdown: fenced blocks, code spans, links.

/// A fenced block: its first line (1-based), its info string and its text.
struct Fence {
    line: usize,
    info: String,
    body: String,
}

/// What a document holds that the checks read.
#[derive(Default)]
struct Markdown {
    fences: Vec<Fence>,
    /// Code spans, with their line, newlines made spaces.
    spans: Vec<(usize, String)>,
    /// Link targets, with their line.
    links: Vec<(usize, String)>,
}

fn parse_markdown(text: &str) -> Markdown {
    let mut md = Markdown::default();
    let mut paragraph = String::new();
    let mut paragraph_line = 0;
    let mut fence: Option<(char, usize, Fence)> = None;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim_start();
        if let Some((marker, len, f)) = &mut fence {
            let run = trimmed.chars().take_while(|c| c == marker).count();
            if run >= *len && trimmed[run..].trim().is_empty() {
                let (_, _, f) = fence.take().expect("a fence is open");
                md.fences.push(f);
            } else {
                f.body.push_str(line);
                f.body.push('\n');
            }
            continue;
        }
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(marker) = marker {
            let run = trimmed.chars().take_while(|c| *c == marker).count();
            if run >= 3 {
                spans_and_links(&paragraph, paragraph_line, &mut md);
                paragraph.clear();
                let info = trimmed[run..].trim().to_string();
                let body = String::new();
                fence = Some((
                    marker,
                    run,
                    Fence {
                        line: number,
                        info,
                        body,
                    },
                ));
                continue;
            }
        }
        if trimmed.is_empty() {
            spans_and_links(&paragraph, paragraph_line, &mut md);
            paragraph.clear();
            continue;
        }
        // A link reference definition: `[name]: target`.
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]: ") {
                md.links.push((number, target.trim().to_string()));
                continue;
            }
        }
        if paragraph.is_empty() {
            paragraph_line = number;
        }
        paragraph.push_str(line);
        paragraph.push('\n');
    }
    spans_and_links(&paragraph, paragraph_line, &mut md);
    md
}

/// The code spans and inline links of one paragraph (a code span does not cross a blank
/// line; a link inside a code span is not a link).
fn spans_and_links(paragraph: &str, first_line: usize, md: &mut Markdown) {
    let b = paragraph.as_bytes();
    let line_at = |at: usize| first_line + paragraph[..at].matches('\n').count();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let n = b[i..].iter().take_while(|c| **c == b'`').count();
            let mut j = i + n;
            let mut close = None;
            while j < b.len() {
                if b[j] == b'`' {
                    let m = b[j..].iter().take_while(|c| **c == b'`').count();
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(j) => {
                    let span = paragraph[i + n..j].replace('\n', " ");
                    md.spans.push((line_at(i), span.trim().to_string()));
                    i = j + n;
                }
                None => i += n,
            }
        } else if b[i] == b']' && b.get(i + 1) == Some(&b'(') {
            match paragraph[i + 2..].find(')') {
                Some(end) => {
                    let target = &paragraph[i + 2..i + 2 + end];
                    md.links.push((line_at(i), target.trim().to_string()));
                    i += 2 + end + 1;
                }
                None => i += 2,
            }
        } else {
            i += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rust source as tokens.

/// Identifiers (`r#type` as `type`), `::`, and single punctuation characters; comments,
/// strings, characters and lifetimes left out.
fn tokens(source: &str) -> Vec<String> {
    let c: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_start = |ch: char| ch.is_alphabetic() || ch == '_';
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if (ch == 'r' || ch == 'b')
            && raw_string_start(&c[i..]).is_some()
            && !c[..i].last().is_some_and(|p| ident_char(*p))
        {
            let (skip, hashes) = raw_string_start(&c[i..]).expect("checked");
            i += skip;
            // Find `"` followed by `hashes` hashes.
            while i < c.len() {
                if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if ch == 'r' && next == Some('#') && c.get(i + 2).is_some_and(|x| ident_start(*x)) {
            let start = i + 2;
            i = start;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if ch == '"' || (ch == 'b' && next == Some('"')) {
            i += if ch == 'b' { 2 } else { 1 };
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if ch == '\'' {
            // A character ('a', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ident_start(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if ch == ':' && next == Some(':') {
            out.push("::".into());
            i += 2;
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}

/// `r"`, `r#"`, `br"`, `br##"`...: the length of the opening and its count of `#`.
fn raw_string_start(c: &[char]) -> Option<(usize, usize)> {
    let mut i = 0;
    if c.first() == Some(&'b') {
        i += 1;
    }
    if c.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = c[i..].iter().take_while(|ch| **ch == '#').count();
    i += hashes;
    (c.get(i) == Some(&'"')).then_some((i + 1, hashes))
}

/// How a file defines a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Def {
    /// `mod name`.
    Module,
    /// `struct`, `enum`, `trait`, `type`, `union`, or a const marker a macro makes
    /// (`const_str!(Text, "text")`).
    Type,
    /// `fn`, `const`, `static`, `macro_rules!`.
    Value,
    /// A name in a `pub use`.
    ReExport,
    /// An enum variant or a field.
    Member,
}

/// Every name a file defines, and how: one pass over its tokens.
fn definitions(toks: &[String]) -> BTreeMap<String, Vec<Def>> {
    let mut found: BTreeMap<String, Vec<Def>> = BTreeMap::new();
    let t = |i: usize| toks.get(i).map(String::as_str).unwrap_or("");
    let mut in_pub_use = false;
    for (i, name) in toks.iter().enumerate() {
        if name == "use" && t(i.wrapping_sub(1)) == "pub" {
            in_pub_use = true;
        }
        if in_pub_use && name == ";" {
            in_pub_use = false;
        }
        if !name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            continue;
        }
        let before = t(i.wrapping_sub(1));
        let after = t(i + 1);
        let mut add = |d: Def| found.entry(name.clone()).or_default().push(d);
        if in_pub_use {
            add(Def::ReExport);
        }
        match before {
            "mod" => add(Def::Module),
            "struct" | "enum" | "trait" | "type" | "union" => add(Def::Type),
            "fn" | "const" | "static" => add(Def::Value),
            "!" if t(i.wrapping_sub(2)) == "macro_rules" => add(Def::Value),
            "(" if t(i.wrapping_sub(2)) == "!" => add(Def::Type),
            // A setter the runtime's `setters!` makes of a generated row
            // (`plain with_description(description: String) "description"`).
            "plain" | "boxed" | "nullable" | "nullable_boxed" if after == "(" => add(Def::Value),
            "{" | "," | "]" | "pub" if ["(", "{", ",", "=", "}", ":"].contains(&after) => {
                add(Def::Member)
            }
            _ => {}
        }
    }
    found
}

// ---------------------------------------------------------------------------------------
// The source index and the resolver.

struct File {
    /// Relative to the root.
    path: String,
    krate: usize,
    /// What it defines, by name.
    defs: BTreeMap<String, Vec<Def>>,
    /// Its inline modules (`mod name { .. }`).
    inline: BTreeSet<String>,
    /// The paths of its `pub use path::*;`.
    globs: Vec<Vec<String>>,
    /// Its crates re-exported under another name (`pub use mcp_spec_rt as rt;`): name,
    /// crate.
    aliases: Vec<(String, String)>,
}

impl File {
    fn new(path: String, krate: usize, text: &str) -> File {
        let toks = tokens(text);
        let inline = toks
            .windows(3)
            .filter(|w| w[0] == "mod" && w[2] == "{")
            .map(|w| w[1].clone())
            .collect();
        let aliases = toks
            .windows(6)
            .filter(|w| w[0] == "pub" && w[1] == "use" && w[3] == "as" && w[5] == ";")
            .map(|w| (w[4].clone(), w[2].clone()))
            .collect();
        File {
            path,
            krate,
            defs: definitions(&toks),
            inline,
            globs: glob_reexports(&toks),
            aliases,
        }
    }

    fn defs(&self, name: &str) -> &[Def] {
        self.defs.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// A module: its crate, its path inside it, the file that holds it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    krate: usize,
    segments: Vec<String>,
    file: usize,
}

struct Source {
    /// The crates' folders, relative to the root.
    crates: Vec<&'static str>,
    files: Vec<File>,
    by_path: BTreeMap<String, usize>,
}

impl Source {
    fn read(root: &Path) -> Source {
        let mut crates: Vec<&'static str> = CRATES.iter().map(|(_, dir)| *dir).collect();
        crates.dedup();
        let mut files = Vec::new();
        for (k, dir) in crates.iter().enumerate() {
            for path in walk(&root.join(dir)) {
                if path.extension().is_some_and(|e| e == "rs") {
                    let text = fs::read_to_string(&path).expect("a source file reads");
                    files.push(File::new(relative(root, &path), k, &text));
                }
            }
        }
        let by_path = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        Source {
            crates,
            files,
            by_path,
        }
    }

    fn crate_root(&self, name: &str) -> Option<Module> {
        let dir = CRATES.iter().find(|(n, _)| *n == name)?.1;
        let krate = self.crates.iter().position(|d| *d == dir)?;
        ["lib.rs", "main.rs"].iter().find_map(|f| {
            let file = *self.by_path.get(&format!("{dir}/{f}"))?;
            Some(Module {
                krate,
                segments: vec![],
                file,
            })
        })
    }

    /// The submodule `name` of `m`: a file of its own, or inline (`mod name { .. }`, read
    /// as the file that holds it).
    fn submodule(&self, m: &Module, name: &str) -> Option<Module> {
        let dir = self.crates[m.krate];
        let mut segments = m.segments.clone();
        segments.push(name.to_string());
        let base = format!("{dir}/{}", segments.join("/"));
        let file = [format!("{base}.rs"), format!("{base}/mod.rs")]
            .iter()
            .find_map(|p| self.by_path.get(p).copied())
            .or_else(|| self.files[m.file].inline.contains(name).then_some(m.file))?;
        Some(Module {
            krate: m.krate,
            segments,
            file,
        })
    }

    /// Every module named `name`, in any crate.
    fn modules_named(&self, name: &str) -> Vec<Module> {
        let mut found = BTreeSet::new();
        for (i, f) in self.files.iter().enumerate() {
            let dir = self.crates[f.krate];
            let inner = &f.path[dir.len() + 1..];
            let inner = inner.strip_suffix(".rs").expect("a .rs file");
            let mut segments: Vec<String> = inner.split('/').map(String::from).collect();
            if matches!(
                segments.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                segments.pop();
            }
            if segments.last().map(String::as_str) == Some(name) {
                found.insert(Module {
                    krate: f.krate,
                    segments: segments.clone(),
                    file: i,
                });
            }
            if f.inline.contains(name) {
                segments.push(name.to_string());
                found.insert(Module {
                    krate: f.krate,
                    segments,
                    file: i,
                });
            }
        }
        found.into_iter().collect()
    }

    /// The crates in which a type named `name` is defined.
    fn crates_defining_type(&self, name: &str) -> BTreeSet<usize> {
        self.files
            .iter()
            .filter(|f| f.defs(name).contains(&Def::Type))
            .map(|f| f.krate)
            .collect()
    }

    /// What module `m` defines as `name`, following `pub use ...::*` (a few levels).
    fn defs_in(&self, m: &Module, name: &str, depth: usize) -> Vec<Def> {
        let file = &self.files[m.file];
        let mut defs = file.defs(name).to_vec();
        if defs.is_empty() && depth < 4 {
            for glob in &file.globs {
                if let Some(target) = self.resolve_use(m, glob) {
                    defs.extend(self.defs_in(&target, name, depth + 1));
                }
            }
        }
        defs
    }

    /// The module a `use` path names, from inside `m` (`crate::a::b`, `a::b`).
    fn resolve_use(&self, m: &Module, path: &[String]) -> Option<Module> {
        let (first, rest) = path.split_first()?;
        let mut at = match first.as_str() {
            "crate" => Module {
                segments: vec![],
                file: self.crate_root_of(m.krate)?,
                krate: m.krate,
            },
            _ => self.submodule(m, first).or_else(|| {
                let name = CRATES.iter().find(|(n, _)| n == first)?.0;
                self.crate_root(name)
            })?,
        };
        for s in rest {
            at = self.step_module(&at, s)?;
        }
        Some(at)
    }

    fn crate_root_of(&self, krate: usize) -> Option<usize> {
        let dir = self.crates[krate];
        ["lib.rs", "main.rs"]
            .iter()
            .find_map(|f| self.by_path.get(&format!("{dir}/{f}")).copied())
    }

    /// One step down from module `m` to the module `name`: a submodule, or a crate
    /// re-exported under that name (`pub use mcp_spec_rt as rt;`).
    fn step_module(&self, m: &Module, name: &str) -> Option<Module> {
        self.submodule(m, name).or_else(|| {
            let aliases = &self.files[m.file].aliases;
            aliases
                .iter()
                .find(|(alias, _)| alias == name)
                .and_then(|(_, krate)| self.crate_root(krate))
        })
    }

    /// Whether `name` is a member (a method, constant, variant or field) of a type of
    /// crate `krate`: defined in any of its files, or in the runtime's.
    fn is_member(&self, krate: usize, name: &str) -> bool {
        let runtime = self.crates.iter().position(|d| *d == "runtime/src");
        self.files
            .iter()
            .filter(|f| f.krate == krate || Some(f.krate) == runtime)
            .any(|f| {
                f.defs(name)
                    .iter()
                    .any(|d| matches!(d, Def::Value | Def::Member | Def::Type))
            })
    }

    /// Walks `rest` from module `m`; `Err` says where it stops.
    fn walk(&self, m: &Module, rest: &[String]) -> Result<(), String> {
        let Some((first, after)) = rest.split_first() else {
            return Ok(());
        };
        if let Some(sub) = self.step_module(m, first) {
            return self.walk(&sub, after);
        }
        let here = &self.files[m.file].path;
        let defs = self.defs_in(m, first, 0);
        if defs.is_empty() {
            return Err(format!("`{first}` is not defined in {here}"));
        }
        if after.is_empty() || EXTERNAL.contains(&first.as_str()) {
            return Ok(());
        }
        // A type: what follows is its members.
        match after.last() {
            Some(last) if self.is_member(m.krate, last) => Ok(()),
            Some(last) => Err(format!(
                "`{first}` is defined in {here}, but no `{last}` is defined in its crate"
            )),
            None => Ok(()),
        }
    }

    /// Checks one Rust path; `Ok(false)` if it is not ours to check.
    fn check(&self, path: &[String]) -> Result<bool, String> {
        let first = path[0].as_str();
        if EXTERNAL.contains(&first) || ["crate", "self", "super", "Self"].contains(&first) {
            return Ok(false);
        }
        if let Some(root) = self.crate_root(first) {
            return self.walk(&root, &path[1..]).map(|()| true);
        }
        let modules = self.modules_named(first);
        let mut errors = Vec::new();
        for m in &modules {
            match self.walk(m, &path[1..]) {
                Ok(()) => return Ok(true),
                Err(e) => errors.push(e),
            }
        }
        let crates = self.crates_defining_type(first);
        for k in &crates {
            let last = path.last().expect("a path has segments");
            if self.is_member(*k, last) {
                return Ok(true);
            }
            errors.push(format!(
                "no `{last}` is defined in the crate of `{first}` ({})",
                self.crates[*k]
            ));
        }
        if modules.is_empty() && crates.is_empty() {
            errors.push(format!("no module or type `{first}` in any crate"));
        }
        Err(errors.join("; "))
    }
}

/// The paths of the `pub use path::*;` statements of a file.
fn glob_reexports(toks: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < toks.len() {
        if toks[i] == "pub" && toks[i + 1] == "use" {
            let mut path = Vec::new();
            let mut j = i + 2;
            while j < toks.len() && toks[j] != ";" {
                if toks[j] != "::" && toks[j] != "*" {
                    path.push(toks[j].clone());
                }
                j += 1;
            }
            if toks[i + 2..j].ends_with(&["::".to_string(), "*".to_string()]) {
                out.push(path);
            }
            i = j;
        }
        i += 1;
    }
    out
}

/// The Rust paths (two segments or more) in a code span: `a::b::C`, each name of
/// `a::{b, c}`, up to a turbofish or a glob.
fn rust_paths(span: &str) -> Vec<Vec<String>> {
    if !span.contains("::") {
        return vec![];
    }
    let toks = tokens(span);
    let is_ident = |t: &str| {
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let starts = is_ident(&toks[i]) && (i == 0 || !matches!(toks[i - 1].as_str(), "::" | "."));
        if !starts {
            i += 1;
            continue;
        }
        let mut path = vec![toks[i].clone()];
        let mut j = i + 1;
        while j + 1 < toks.len() && toks[j] == "::" {
            if is_ident(&toks[j + 1]) {
                path.push(toks[j + 1].clone());
                j += 2;
            } else if toks[j + 1] == "{" {
                // `a::{b, c::d}`: each item on its own.
                let mut k = j + 2;
                let mut item = Vec::new();
                while k < toks.len() && toks[k] != "}" {
                    match toks[k].as_str() {
                        "," => out.push([path.clone(), std::mem::take(&mut item)].concat()),
                        "::" => {}
                        t if is_ident(t) => item.push(t.to_string()),
                        _ => {}
                    }
                    k += 1;
                }
                out.push([path.clone(), item].concat());
                path.clear();
                j = k;
                break;
            } else {
                break;
            }
        }
        if path.len() >= 2 {
            out.push(path);
        }
        i = j.max(i + 1);
    }
    out.retain(|p| p.len() >= 2 && p.iter().all(|s| s != "self"));
    out
}

// ---------------------------------------------------------------------------------------
// Repository paths.

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        if name == "target" || name == ".git" || name == "node_modules" {
            continue;
        }
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("under the root")
        .to_string_lossy()
        .replace('\\', "/")
}

/// Whether `pattern` (`*` for any run of characters) matches `name`.
fn glob_match(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the path of `components` exists under `base` (a component may hold `*`; an
/// empty last component asks for a folder).
fn exists(base: &Path, components: &[&str]) -> bool {
    match components.split_first() {
        None => base.exists(),
        Some((&"", [])) => base.is_dir(),
        Some((c, rest)) if c.contains('*') => fs::read_dir(base).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| glob_match(c, &e.file_name().to_string_lossy()) && exists(&e.path(), rest))
        }),
        Some((c, rest)) => exists(&base.join(c), rest),
    }
}

/// A repository path a word of a code span names, with the folder it is relative to, or
/// `None` if the word is no path (`tools/call`, `io.modelcontextprotocol/protocolVersion`)
/// or a build output under `target/`, which a fresh clone does not have.
fn as_repo_path(word: &str, root: &Path, doc_dir: &Path) -> Option<(PathBuf, String)> {
    let word = word.trim_matches(|c| matches!(c, ',' | ';' | ':' | '(' | ')' | '.' | '"'));
    let word = word.strip_prefix("./").unwrap_or(word);
    if word.is_empty()
        || word.contains("::")
        || word.contains("://")
        || word.starts_with('-')
        || word.starts_with("..")
        || word.contains(['=', '$', '@', '|', '&', '\''])
    {
        return None;
    }
    // Placeholders (`<version>`, `{ref}`) stand for any name.
    let mut pattern = String::new();
    let mut skip = None;
    for ch in word.chars() {
        match (skip, ch) {
            (None, '<') => skip = Some('>'),
            (None, '{') => skip = Some('}'),
            (Some(end), c) if c == end => {
                skip = None;
                pattern.push('*');
            }
            (Some(_), _) => {}
            (None, c) => pattern.push(c),
        }
    }
    if let Some((first, _)) = pattern.split_once('/') {
        if first.is_empty() || first.contains('*') || first == "target" {
            return None;
        }
        if root.join(first).exists() {
            return Some((root.to_path_buf(), pattern));
        }
        if doc_dir.join(first).exists() {
            return Some((doc_dir.to_path_buf(), pattern));
        }
        return None;
    }
    let file_name = pattern
        .chars()
        .all(|c| c.is_alphanumeric() || "_-.".contains(c));
    let ext = pattern.rsplit_once('.').map(|(_, e)| e);
    (file_name && ext.is_some_and(|e| FILE_EXTENSIONS.contains(&e)))
        .then(|| (PathBuf::new(), pattern))
}

// ---------------------------------------------------------------------------------------
// The checks.

/// What checking the documents found.
#[derive(Default)]
struct Report {
    names: usize,
    distinct_names: BTreeSet<String>,
    paths: usize,
    distinct_paths: BTreeSet<String>,
    /// The entries of [`NOT_IN_THE_TREE`] that were needed: `(document, mention)`.
    exempted: BTreeSet<(String, String)>,
    errors: Vec<String>,
}

impl Report {
    /// Records a mention that does not resolve: an error, unless listed.
    fn unresolved(&mut self, doc: &str, mention: &str, error: String) {
        if NOT_IN_THE_TREE
            .iter()
            .any(|(d, m, _)| *d == doc && *m == mention)
        {
            self.exempted.insert((doc.to_string(), mention.to_string()));
        } else {
            self.errors.push(error);
        }
    }

    /// Records a mention that resolves: an error if it is listed as one that does not.
    fn resolved(&mut self, doc: &str, mention: &str, line: usize) {
        if NOT_IN_THE_TREE
            .iter()
            .any(|(d, m, _)| *d == doc && *m == mention)
        {
            self.errors.push(format!(
                "{doc}:{line}: `{mention}` exists: take it out of NOT_IN_THE_TREE"
            ));
        }
    }
}

/// Checks the paths and Rust names of one document's text (`doc` is its path relative to
/// the root, for its folder and the messages).
fn check_document(
    root: &Path,
    source: &Source,
    file_names: &BTreeSet<String>,
    doc: &str,
    text: &str,
    report: &mut Report,
) {
    let md = parse_markdown(text);
    let doc_dir = root
        .join(doc)
        .parent()
        .expect("a file has a folder")
        .to_path_buf();
    for (line, target) in &md.links {
        let target = target.split_whitespace().next().unwrap_or("");
        let target = target.trim_matches(|c| c == '<' || c == '>');
        let target = target.split('#').next().unwrap_or("");
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        report.paths += 1;
        let resolved = doc_dir.join(target);
        let key = fs::canonicalize(&resolved)
            .ok()
            .and_then(|p| fs::canonicalize(root).ok().map(|r| (p, r)))
            .and_then(|(p, r)| {
                p.strip_prefix(&r)
                    .ok()
                    .map(|p| p.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| target.to_string());
        report.distinct_paths.insert(key);
        if resolved.exists() {
            report.resolved(doc, target, *line);
        } else {
            let error = format!("{doc}:{line}: the link target {target} does not exist");
            report.unresolved(doc, target, error);
        }
    }
    for (line, span) in &md.spans {
        for word in span.split_whitespace() {
            let Some((base, pattern)) = as_repo_path(word, root, &doc_dir) else {
                continue;
            };
            report.paths += 1;
            report.distinct_paths.insert(pattern.clone());
            let found = if base.as_os_str().is_empty() {
                file_names.contains(&pattern)
            } else {
                let components: Vec<&str> = pattern.split('/').collect();
                exists(&base, &components)
            };
            if found {
                report.resolved(doc, &pattern, *line);
            } else {
                let error = format!("{doc}:{line}: `{pattern}` does not exist");
                report.unresolved(doc, &pattern, error);
            }
        }
        for path in rust_paths(span) {
            let name = path.join("::");
            match source.check(&path) {
                Ok(false) => {}
                Ok(true) => {
                    report.resolved(doc, &name, *line);
                    report.names += 1;
                    report.distinct_names.insert(name);
                }
                Err(why) => {
                    let error = format!("{doc}:{line}: `{name}`: {why}");
                    report.unresolved(doc, &name, error);
                }
            }
        }
    }
}

/// The fenced blocks of a compiled document: Rust only as ```rust or ```rust,no_run.
fn check_fences(doc: &str, text: &str, errors: &mut Vec<String>) {
    const NOT_RUST: &[&str] = &["sh", "toml", "text", "json", "console"];
    let looks_like_rust = |body: &str| {
        body.lines().any(|l| {
            let l = l.trim_start();
            [
                "use ",
                "fn ",
                "let ",
                "impl ",
                "async fn ",
                "pub fn ",
                "#[",
                "struct ",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
    };
    for f in parse_markdown(text).fences {
        let info = f.info.replace(' ', "");
        let at = format!("{doc}:{}", f.line);
        match info.as_str() {
            "rust" | "rust,no_run" => {}
            "" => errors.push(format!(
                "{at}: a fence without a language is compiled as Rust: name it"
            )),
            lang if NOT_RUST.contains(&lang) => {
                if looks_like_rust(&f.body) {
                    errors.push(format!(
                        "{at}: Rust code in a ```{lang} block is not compiled: use ```rust or ```rust,no_run"
                    ));
                }
            }
            other => errors.push(format!(
                "{at}: ```{other}: Rust blocks are ```rust or ```rust,no_run (compiled), \
                 other blocks one of {NOT_RUST:?}"
            )),
        }
    }
}

fn file_names(root: &Path) -> BTreeSet<String> {
    walk(root)
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

#[test]
fn docs_name_what_exists() {
    let root = root();
    let source = Source::read(&root);
    let names = file_names(&root);
    let mut report = Report::default();
    let docs = documents(&root);
    for doc in &docs {
        let text = fs::read_to_string(root.join(doc)).expect("a document reads");
        check_document(&root, &source, &names, doc, &text, &mut report);
    }
    for (doc, mention, _) in NOT_IN_THE_TREE {
        if !report
            .exempted
            .contains(&(doc.to_string(), mention.to_string()))
        {
            report.errors.push(format!(
                "{doc} no longer mentions `{mention}`: take it out of NOT_IN_THE_TREE"
            ));
        }
    }
    println!(
        "{} documents: {} Rust names verified ({} distinct), {} repository paths verified ({} distinct)",
        docs.len(),
        report.names,
        report.distinct_names.len(),
        report.paths,
        report.distinct_paths.len()
    );
    if std::env::var_os("MCP_DOCS_LIST").is_some() {
        for name in &report.distinct_names {
            println!("name {name}");
        }
        for path in &report.distinct_paths {
            println!("path {path}");
        }
    }
    assert!(
        report.errors.is_empty(),
        "{} problems:\n{}",
        report.errors.len(),
        report.errors.join("\n")
    );
}

#[test]
fn every_rust_block_of_the_guide_is_compiled() {
    let root = root();
    let lib = fs::read_to_string(root.join("tests/src/lib.rs")).expect("lib.rs reads");
    let mut errors = Vec::new();
    for doc in documents(&root) {
        if doc != "README.md" && !doc.starts_with("docs/") {
            continue;
        }
        let text = fs::read_to_string(root.join(&doc)).expect("a document reads");
        check_fences(&doc, &text, &mut errors);
        let included = format!("#[doc = include_str!(\"../../{doc}\")]");
        if !lib.contains(&included) {
            errors.push(format!(
                "{doc} is not a doctest: tests/src/lib.rs needs `{included}`"
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_checker_finds_what_does_not_exist() {
    let root = root();
    let source = Source::read(&root);
    let names = file_names(&root);
    let text = "\
Real: `session/tests/http.rs`, `generator/src/diff.rs`, [bench](bench/README.md),
`schema/<version>/schema.json`, `overrides.rs`, `mcp_spec_session::http::HttpServer`,
`rt::service::Policy`, `version::InitializeFirst`, `Versions::every_version`,
`mcp_spec_types::rt::path::{from_str, from_slice}`, `methods::error_codes::PARSE`,
`v2026_07_28::consts::Text`, `draft::CallToolResult`, `Id::Written`, `tools/call`,
`serde_json::Value`, `params._meta`.

Invented: `session/tests/no_such_file.rs`, [gone](docs/no-such-page.md), `no_such_file.rs`,
`mcp_spec_session::http::NoSuchServer`, `rt::service::NoSuchPolicy`,
`Versions::no_such_method`, `no_such_module::Thing`.
";
    let mut report = Report::default();
    check_document(&root, &source, &names, "README.md", text, &mut report);
    let errors = report.errors.join("\n");
    for invented in [
        "session/tests/no_such_file.rs",
        "docs/no-such-page.md",
        "`no_such_file.rs`",
        "`mcp_spec_session::http::NoSuchServer`",
        "`rt::service::NoSuchPolicy`",
        "`Versions::no_such_method`",
        "`no_such_module::Thing`",
    ] {
        assert!(
            errors.contains(invented),
            "{invented} not reported:\n{errors}"
        );
    }
    assert_eq!(report.errors.len(), 7, "only the invented ones:\n{errors}");
    assert_eq!(report.names, 10, "{:?}", report.distinct_names);
    assert_eq!(report.paths, 8, "{:?}", report.distinct_paths);

    let mut fences = Vec::new();
    check_fences("x.md", "```rust,ignore\nfn main() {}\n```\n", &mut fences);
    check_fences("x.md", "```text\nuse a::b;\n```\n", &mut fences);
    check_fences("x.md", "```\nfn main() {}\n```\n", &mut fences);
    check_fences("x.md", "```rust,no_run\nfn main() {}\n```\n", &mut fences);
    assert_eq!(fences.len(), 3, "{fences:?}");
}
