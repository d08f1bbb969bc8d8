//! The messages compared: the official examples, the synthetic large messages of the codec
//! benchmarks (`mcp-bench`), and recorded traffic when there is some.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{Case, Kind, Side, ours};

/// Every protocol version, oldest first.
pub const VERSIONS: [&str; 6] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

/// The static name of a version string, if it is one of [`VERSIONS`].
pub fn version(name: &str) -> Option<&'static str> {
    VERSIONS.iter().copied().find(|v| *v == name)
}

/// A named set of messages (`examples`, `synthetic`, `traffic`).
#[derive(Debug, Clone)]
pub struct Corpus {
    /// `examples`, `synthetic`, `traffic`.
    pub name: &'static str,
    /// The messages.
    pub cases: Vec<Case>,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("bench/compare lives two levels below the workspace root")
}

/// Every corpus: examples, adopted examples, synthetic, and traffic when
/// `tests/data/traffic/` has some.
pub fn all() -> Vec<Corpus> {
    let examples = examples();
    let adopted = adopted(&examples);
    let mut out = vec![examples, adopted, synthetic()];
    match traffic(&workspace_root().join("tests/data/traffic")) {
        Ok(corpus) => out.push(corpus),
        Err(why) => eprintln!("traffic corpus skipped: {why}"),
    }
    out
}

/// The schema of one version, read once: its definitions.
pub struct Schema {
    /// The whole document.
    pub doc: Value,
    /// `definitions` (draft-07) or `$defs` (2020-12).
    pub pointer: &'static str,
}

impl Schema {
    /// Reads `schema/<version>/schema.json`.
    pub fn load(version: &str) -> Result<Schema, String> {
        let path = workspace_root()
            .join("schema")
            .join(version)
            .join("schema.json");
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let doc: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        let pointer = if doc.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        Ok(Schema { doc, pointer })
    }

    /// The definitions.
    pub fn defs(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.doc
            .get(self.pointer)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
    }

    /// The `method` const of definition `name` (`CallToolRequest` → `tools/call`).
    pub fn method_of(&self, name: &str) -> Option<&str> {
        self.doc
            .get(self.pointer)?
            .get(name)?
            .pointer("/properties/method/const")
            .and_then(Value::as_str)
    }

    /// Every definition with a `method` const, and the const.
    pub fn methods(&self) -> BTreeMap<String, String> {
        self.defs()
            .filter_map(|(name, def)| {
                def.pointer("/properties/method/const")
                    .and_then(Value::as_str)
                    .map(|m| (name.clone(), m.to_string()))
            })
            .collect()
    }
}

/// The official examples under `schema/<version>/examples/<Definition>/*.json` that are
/// whole JSON-RPC messages, every version that has them.
pub fn examples() -> Corpus {
    let mut cases = Vec::new();
    let mut notes = Vec::new();
    for version in VERSIONS {
        let dir = workspace_root()
            .join("schema")
            .join(version)
            .join("examples");
        if !dir.is_dir() {
            continue;
        }
        let schema = match Schema::load(version) {
            Ok(s) => s,
            Err(e) => {
                notes.push(e);
                continue;
            }
        };
        let mut files = Vec::new();
        for folder in fs::read_dir(&dir).into_iter().flatten().flatten() {
            for item in fs::read_dir(folder.path()).into_iter().flatten().flatten() {
                if item.path().extension().is_some_and(|e| e == "json") {
                    files.push(item.path());
                }
            }
        }
        files.sort();
        for path in files {
            let definition = path
                .parent()
                .and_then(Path::file_name)
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            let name = format!(
                "{version}/{definition}/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            let Ok(bytes) = fs::read(&path) else {
                notes.push(format!("{name}: unreadable"));
                continue;
            };
            let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
                notes.push(format!("{name}: not JSON"));
                continue;
            };
            if value.get("jsonrpc").is_none() {
                continue;
            }
            match classify(version, &value, &definition, &schema) {
                Ok((kind, from, method)) => cases.push(Case {
                    name,
                    // As a sender writes it: the same members in the same order,
                    // without the indentation.
                    bytes: serde_json::to_vec(&value).expect("a Value serializes"),
                    from,
                    version,
                    kind,
                    method,
                }),
                Err(why) => notes.push(format!("{name}: {why}")),
            }
        }
    }
    Corpus {
        name: "examples",
        cases,
        notes,
    }
}

/// The official examples of the oldest version that has them (2026-07-28), given to
/// each older version that has none, where that version's schema says they are valid
/// (its methods, its definitions; unknown members are allowed by those schemas). So
/// that the decoders of older versions (rust-mcp-schema 2025-11-25, typify 2025-06-18)
/// meet real messages, not only the synthetic ones.
pub fn adopted(examples: &Corpus) -> Corpus {
    let mut oracle = crate::outcome::Oracle::default();
    let Some(source) = VERSIONS
        .iter()
        .copied()
        .find(|v| examples.cases.iter().any(|c| c.version == *v))
    else {
        return Corpus {
            name: "adopted",
            cases: Vec::new(),
            notes: vec!["no examples to adopt".into()],
        };
    };
    let mut cases = Vec::new();
    let mut notes = Vec::new();
    for version in VERSIONS
        .iter()
        .copied()
        .take_while(|v| *v != source)
        .filter(|v| !examples.cases.iter().any(|c| c.version == *v))
    {
        let Ok(schema) = Schema::load(version) else {
            continue;
        };
        let mut kept = 0;
        let mut left = 0;
        for example in examples.cases.iter().filter(|c| c.version == source) {
            let value: Value = serde_json::from_slice(&example.bytes).expect("examples are JSON");
            let definition = example.name.split('/').nth(1).unwrap_or_default();
            let Ok((kind, from, method)) = classify(version, &value, definition, &schema) else {
                left += 1;
                continue;
            };
            let case = Case {
                name: format!("{version}<-{}", example.name),
                bytes: example.bytes.clone(),
                from,
                version,
                kind,
                method,
            };
            if oracle.check(&case) == crate::outcome::Validity::Valid {
                kept += 1;
                cases.push(case);
            } else {
                left += 1;
            }
        }
        notes.push(format!(
            "{version}: {kept} of the {source} examples adopted, {left} not valid there"
        ));
    }
    Corpus {
        name: "adopted",
        cases,
        notes,
    }
}

/// The kind, the writer and the method (answered) of an example message.
fn classify(
    version: &'static str,
    value: &Value,
    definition: &str,
    schema: &Schema,
) -> Result<(Kind, Side, Option<String>), String> {
    let kind = Kind::of(value).ok_or("not a request, notification or response")?;
    match kind {
        Kind::Request | Kind::Notification => {
            let method = value["method"].as_str().ok_or("`method` is not a string")?;
            let from = ours::sender(version, method, kind)
                .ok_or_else(|| format!("method `{method}` unknown to {version}"))?;
            Ok((kind, from, Some(method.to_string())))
        }
        Kind::Result => {
            // `ListToolsResultResponse` answers `ListToolsRequest`.
            let request = definition
                .strip_suffix("ResultResponse")
                .map(|x| format!("{x}Request"))
                .ok_or_else(|| format!("a result under `{definition}`: which method?"))?;
            let method = schema
                .method_of(&request)
                .ok_or_else(|| format!("no method const on `{request}`"))?;
            let sender = ours::sender(version, method, Kind::Request)
                .ok_or_else(|| format!("method `{method}` unknown to {version}"))?;
            let from = match sender {
                Side::Client => Side::Server,
                Side::Server => Side::Client,
            };
            Ok((kind, from, Some(method.to_string())))
        }
        // An error answers a request whose method the example does not say.
        Kind::Error => Ok((kind, Side::Server, None)),
    }
}

/// The synthetic large messages of the codec benchmarks (`mcp_bench::corpus`), every
/// version: `tools_list_1000`, `resources_read_1mb`, `progress_10000`,
/// `text_blocks_500`, `structured_deep_64`.
pub fn synthetic() -> Corpus {
    struct Collect(Vec<Case>, Vec<String>);
    impl mcp_bench::EachVersion for Collect {
        fn visit<T: mcp_bench::Typed>(&mut self) {
            let corpus = match mcp_bench::corpus::<T>() {
                Ok(c) => c,
                Err(e) => {
                    self.1.push(format!("{}: {e}", T::VERSION));
                    return;
                }
            };
            // The recorded traffic is a corpus of its own (`traffic`), read as it was
            // recorded, rejections included.
            let synthetic =
                |g: &&mcp_bench::Group| g.name != "examples" && !g.name.starts_with("traffic");
            for group in corpus.groups.iter().filter(synthetic) {
                for (i, entry) in group.entries.iter().enumerate() {
                    let Some(kind) = serde_json::from_slice::<Value>(&entry.bytes)
                        .ok()
                        .as_ref()
                        .and_then(Kind::of)
                    else {
                        self.1.push(format!("{}: not a message", entry.name));
                        continue;
                    };
                    let method = match kind {
                        Kind::Result => entry.answers.clone(),
                        Kind::Request | Kind::Notification => {
                            serde_json::from_slice::<Value>(&entry.bytes)
                                .ok()
                                .and_then(|v| v["method"].as_str().map(str::to_string))
                        }
                        Kind::Error => None,
                    };
                    self.0.push(Case {
                        name: format!("{}/{}#{i}", T::VERSION, group.name),
                        bytes: entry.bytes.clone(),
                        from: match entry.from {
                            mcp_bench::Side::Client => Side::Client,
                            mcp_bench::Side::Server => Side::Server,
                        },
                        version: T::VERSION,
                        kind,
                        method,
                    });
                }
            }
        }
    }
    let mut collect = Collect(Vec::new(), Vec::new());
    mcp_bench::each_version(&mut collect);
    Corpus {
        name: "synthetic",
        cases: collect.0,
        notes: collect.1,
    }
}

/// One line of `tests/data/traffic/<session>.jsonl`.
#[derive(serde::Deserialize)]
struct Line {
    session: String,
    #[serde(default)]
    peer: Option<String>,
    version: Option<String>,
    from: String,
    answers: Option<String>,
    text: String,
}

/// Recorded traffic: every `*.jsonl` under `dir`, one message a line (see [`Line`]). An
/// error when the folder is absent or holds no message.
pub fn traffic(dir: &Path) -> Result<Corpus, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    let mut notes = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let stem = file.file_stem().unwrap_or_default().to_string_lossy();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{stem}:{}", n + 1);
            match traffic_case(&at, line) {
                Ok(case) => cases.push(case),
                Err(why) => notes.push(format!("{at}: {why}")),
            }
        }
    }
    if cases.is_empty() {
        return Err(format!("no message under {}", dir.display()));
    }
    Ok(Corpus {
        name: "traffic",
        cases,
        notes,
    })
}

fn traffic_case(at: &str, line: &str) -> Result<Case, String> {
    let line: Line = serde_json::from_str(line).map_err(|e| format!("not a traffic line: {e}"))?;
    let named = line
        .version
        .ok_or("no protocol version (outside any session)")?;
    let version = version(&named).ok_or_else(|| format!("protocol version `{named}` unknown"))?;
    let from = match line.from.as_str() {
        "client" => Side::Client,
        "server" => Side::Server,
        other => return Err(format!("`from` is `{other}`")),
    };
    let value: Value =
        serde_json::from_str(&line.text).map_err(|e| format!("the message is not JSON: {e}"))?;
    let kind = Kind::of(&value).ok_or("not a single request, notification or response")?;
    let method = match kind {
        Kind::Request | Kind::Notification => value["method"].as_str().map(str::to_string),
        Kind::Result => Some(
            line.answers
                .ok_or("a result response without the method it answers")?,
        ),
        Kind::Error => line.answers,
    };
    Ok(Case {
        name: format!(
            "{at} ({}{})",
            line.session,
            line.peer.map(|p| format!(", {p}")).unwrap_or_default()
        ),
        bytes: line.text.into_bytes(),
        from,
        version,
        kind,
        method,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_traffic_is_an_error_not_a_panic() {
        assert!(traffic(Path::new("/nonexistent/traffic")).is_err());
    }

    #[test]
    fn traffic_lines_become_cases() {
        let dir = std::env::temp_dir().join(format!("mcp-compare-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let lines = [
            r#"{"session":"s","peer":"p","version":"2025-11-25","from":"client","answers":null,"text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"}"#,
            r#"{"session":"s","peer":"p","version":"2025-11-25","from":"server","answers":"tools/list","text":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}"}"#,
            r#"{"session":"s","version":"1999-01-01","from":"server","answers":null,"text":"{}"}"#,
        ];
        fs::write(dir.join("s.jsonl"), lines.join("\n")).unwrap();
        let corpus = traffic(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(corpus.cases.len(), 2);
        assert_eq!(corpus.notes.len(), 1);
        assert_eq!(corpus.cases[0].kind, Kind::Request);
        assert_eq!(corpus.cases[1].method.as_deref(), Some("tools/list"));
        assert_eq!(corpus.cases[1].from, Side::Server);
    }
}
