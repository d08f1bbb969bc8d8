//! The generator's files depend on each other one way: no file reaches, through the items
//! it uses of other files, back to itself. Read from the sources: a file of module `a`
//! that names `crate::b` (or, in `emit/`, `super::b`) uses `b`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The module of every source file (`emit::router`, `diff`), and the modules it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for inner in fs::read_dir(&path).unwrap() {
                files.push(inner.unwrap().path());
            }
        } else {
            files.push(path);
        }
    }
    let module_of = |path: &Path| {
        let rel = path.strip_prefix(&src).unwrap().with_extension("");
        let rel = rel.to_string_lossy().replace('/', "::");
        rel.strip_suffix("::mod").unwrap_or(&rel).to_string()
    };
    let modules: BTreeSet<String> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| module_of(p))
        .filter(|m| m != "lib")
        .collect();
    let mut graph = BTreeMap::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let module = module_of(path);
        if module == "lib" {
            continue;
        }
        let text = fs::read_to_string(path).unwrap();
        // Tests inside a file may use anything.
        let text = text.split("#[cfg(test)]").next().unwrap();
        let parent = module.rsplit_once("::").map(|(p, _)| p.to_string());
        let mut uses = BTreeSet::new();
        for other in &modules {
            if *other == module || module.starts_with(&format!("{other}::")) {
                continue;
            }
            let mut names = vec![format!("crate::{other}::"), format!("crate::{other}}}")];
            names.push(format!("crate::{other};"));
            names.push(format!("crate::{other},"));
            if let (Some(parent), Some((p, name))) = (&parent, other.rsplit_once("::"))
                && p == parent
            {
                names.push(format!("super::{name}::"));
                names.push(format!("super::{name};"));
                names.push(format!("super::{name},"));
                names.push(format!("super::{{{name}"));
            }
            if names.iter().any(|n| text.contains(n.as_str())) {
                uses.insert(other.clone());
            }
        }
        graph.insert(module, uses);
    }
    graph
}

#[test]
fn no_file_reaches_itself() {
    let graph = graph();
    assert!(graph.contains_key("emit::router") && graph.contains_key("diff"));
    assert!(
        graph["emit::convert"].contains("compat"),
        "the reading works"
    );
    let mut circles = Vec::new();
    for start in graph.keys() {
        // Every module reachable from `start`, with the way there.
        let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut todo: Vec<(&str, Vec<&str>)> = vec![(start.as_str(), vec![start.as_str()])];
        while let Some((at, way)) = todo.pop() {
            for next in graph.get(at).into_iter().flatten() {
                let mut longer = way.clone();
                longer.push(next.as_str());
                if next == start {
                    circles.push(longer.join(" -> "));
                    continue;
                }
                if !seen.contains_key(next.as_str()) {
                    seen.insert(next.as_str(), longer.clone());
                    todo.push((next.as_str(), longer));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "circles between files:\n{}",
        circles.join("\n")
    );
}
