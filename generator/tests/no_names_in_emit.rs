//! The emitters spell no protocol name: no string literal in `generator/src/emit/` is a
//! method name or a member name of a vendored schema. What they build on by name comes
//! from the model or from `overrides.rs`, where each name says why it is there.
//!
//! Comments and raw strings (a doc example's text) are not read; the JSON-RPC envelope's
//! own members are the runtime's (`rt::jsonrpc::PARAMS`).

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use serde_json::Value;

/// Every method name (`"method": {"const": ..}`) and member name (a key of a
/// `properties`) in `value`.
fn names(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
                if let Some(Value::String(m)) = props.get("method").and_then(|m| m.get("const")) {
                    out.insert(m.clone());
                }
            }
            map.values().for_each(|v| names(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| names(v, out)),
        _ => {}
    }
}

/// The plain string literals of Rust source `text` (not in comments, not raw strings),
/// each with its line.
fn literals(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            // A raw string: `r"..."` or `r#"..."#`, any number of `#`.
            b'r' if (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_')
                && matches!(bytes.get(i + 1), Some(b'"' | b'#')) =>
            {
                let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let start = i + 2 + hashes;
                    let end = start + text[start..].find(&close).expect("a closed raw string");
                    line += text[i..end].matches('\n').count();
                    i = end + close.len();
                    continue;
                }
            }
            // A char literal holding a quote: `'"'`.
            b'\'' if bytes.get(i + 1) == Some(&b'"') && bytes.get(i + 2) == Some(&b'\'') => {
                i += 3;
                continue;
            }
            b'"' => {
                let (start, mut j) = (i + 1, i + 1);
                while bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                out.push((line, text[start..j].to_string()));
                line += text[start..j].matches('\n').count();
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[test]
fn the_emitters_spell_no_method_or_member_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut protocol = BTreeSet::new();
    for entry in fs::read_dir(root.join("schema")).unwrap() {
        let schema = entry.unwrap().path().join("schema.json");
        if schema.exists() {
            let value: Value = serde_json::from_str(&fs::read_to_string(&schema).unwrap()).unwrap();
            names(&value, &mut protocol);
        }
    }
    // The scan sees what it looks for: the names the router emitter builds on.
    for known in [
        "initialize",
        "tools/call",
        "resultType",
        "inputSchema",
        "params",
        "name",
    ] {
        assert!(
            protocol.contains(known),
            "{known} is not among the schemas' names"
        );
    }

    let emit = root.join("generator/src/emit");
    let mut found = Vec::new();
    let mut files = 0;
    for entry in fs::read_dir(&emit).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        files += 1;
        for (line, literal) in literals(&text) {
            if protocol.contains(&literal) {
                let file = path.file_name().unwrap().to_string_lossy();
                found.push(format!("emit/{file}:{line}: \"{literal}\""));
            }
        }
    }
    assert!(files >= 10, "read {files} files of {}", emit.display());
    assert!(
        found.is_empty(),
        "protocol names spelled in the emitters (take them from the model or overrides.rs):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    let text = "// \"comment\"\nlet a = \"tools/call\";\nlet b = r#\"{\"name\": 1}\"#;\nlet c = '\"';\nlet d = \"x\\\"y\";";
    assert_eq!(
        literals(text),
        vec![(2, "tools/call".to_string()), (5, "x\\\"y".to_string())]
    );
}
