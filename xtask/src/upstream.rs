//! Where upstream schemas come from: GitHub (the default), a local folder or checkout, or a
//! static mirror over HTTP. Every source answers the same two questions: which versions
//! exist, and what are one version's `schema.json`, `schema.ts` and `examples/` files.
//! The specification's repository keeps its versions under `schema/`; an official
//! extension keeps its files in a folder of its own repository ([`Source::open_repo`],
//! [`Source::fetch_dir`]).
//!
//! Nothing here writes to disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_codegen::workspace::read_tree;
use serde_json::Value;

/// The upstream repository of the specification.
pub const REPOSITORY: &str = "modelcontextprotocol/modelcontextprotocol";
/// Default base of raw file downloads; `MCP_UPSTREAM_RAW` overrides it.
const RAW_BASE: &str = "https://raw.githubusercontent.com";
/// Default base of the GitHub REST API; `MCP_UPSTREAM_API` overrides it.
const API_BASE: &str = "https://api.github.com";
/// The largest body accepted from the network.
const MAX_BODY: u64 = 64 << 20;

/// One version as a source has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// Bytes of `<version>/schema.json`.
    pub schema: Vec<u8>,
    /// Bytes of `<version>/schema.ts`, the TypeScript `schema.json` is generated from;
    /// `None` when the source has none.
    pub ts: Option<Vec<u8>>,
    /// Files under `<version>/examples/`, keyed by relative path; `Some(empty)` when the
    /// version has none, `None` when the source cannot list them.
    pub examples: Option<BTreeMap<String, Vec<u8>>>,
}

/// Where the files were taken from, as the lock records it.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// `owner/repo`, or the folder or URL given with `--from`.
    pub repository: String,
    /// The resolved commit, or the ref given.
    pub reference: String,
    /// `YYYY-MM-DD` of the commit, or today when the source has no commits.
    pub date: String,
}

/// A place to read upstream schemas from.
pub enum Source {
    /// GitHub: the ref is resolved to a commit once, and every file is read at that commit.
    GitHub {
        /// HTTP client with the timeout.
        agent: ureq::Agent,
        /// Base of raw downloads (of the source's folder).
        raw: String,
        /// Paths of every file under the source's folder at the commit, relative to it.
        files: Vec<String>,
        /// Where and when.
        provenance: Provenance,
    },
    /// A folder laid out like upstream's `schema/` (or a checkout that contains one); for
    /// an extension, a checkout of its repository.
    Dir {
        /// The `schema/` folder.
        dir: PathBuf,
        /// Where and when.
        provenance: Provenance,
    },
    /// A static HTTP mirror of upstream's `schema/` folder (of an extension's repository).
    Url {
        /// HTTP client with the timeout.
        agent: ureq::Agent,
        /// The base URL, `{ref}` already substituted.
        base: String,
        /// Where and when.
        provenance: Provenance,
    },
}

impl Source {
    /// Opens the specification's schemas: `from` is `None` for GitHub, else a folder or an
    /// `http(s)://` URL. For GitHub and URLs `reference` defaults to `main`; a URL may
    /// contain `{ref}`.
    pub fn open(
        from: Option<&str>,
        reference: Option<&str>,
        timeout: Duration,
    ) -> Result<Source, String> {
        Source::open_repo(REPOSITORY, "schema", from, reference, timeout)
    }

    /// Opens `folder` (`schema`, or `""` for the whole repository) of the GitHub
    /// `repository` as [`open`](Source::open) does. A local folder given in `from` is that
    /// folder, or a checkout that contains it.
    pub fn open_repo(
        repository: &str,
        folder: &str,
        from: Option<&str>,
        reference: Option<&str>,
        timeout: Duration,
    ) -> Result<Source, String> {
        if !folder.is_empty() {
            check_relative(folder).map_err(|e| format!("the upstream folder {e}"))?;
        }
        if let Some(r) = reference {
            check_ref(r)?;
        }
        let agent = || -> ureq::Agent {
            ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .user_agent("mcp-codegen-xtask")
                .build()
                .into()
        };
        match from {
            None => {
                let reference = reference.unwrap_or("main");
                let api = env_or("MCP_UPSTREAM_API", API_BASE);
                let raw = env_or("MCP_UPSTREAM_RAW", RAW_BASE);
                let agent = agent();
                let commit_url = format!("{api}/repos/{repository}/commits/{reference}");
                let commit = get_json(&agent, &commit_url)?.ok_or_else(|| {
                    format!("{repository} has no ref `{reference}` ({commit_url})")
                })?;
                let sha = commit
                    .get("sha")
                    .and_then(Value::as_str)
                    .filter(|s| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()))
                    .ok_or_else(|| format!("{commit_url}: the answer has no commit `sha`"))?
                    .to_string();
                let date = commit
                    .pointer("/commit/committer/date")
                    .and_then(Value::as_str)
                    .and_then(|d| d.get(..10))
                    .ok_or_else(|| format!("{commit_url}: the answer has no commit date"))?
                    .to_string();
                let tree_url = format!("{api}/repos/{repository}/git/trees/{sha}?recursive=1");
                let tree =
                    get_json(&agent, &tree_url)?.ok_or_else(|| format!("{tree_url}: not found"))?;
                if tree.get("truncated").and_then(Value::as_bool) == Some(true) {
                    return Err(format!("{tree_url}: GitHub truncated the file listing"));
                }
                let files = tree
                    .get("tree")
                    .and_then(Value::as_array)
                    .ok_or_else(|| format!("{tree_url}: the answer has no `tree` array"))?
                    .iter()
                    .filter(|e| e.get("type").and_then(Value::as_str) == Some("blob"))
                    .filter_map(|e| e.get("path").and_then(Value::as_str))
                    .filter_map(|p| match folder {
                        "" => Some(p),
                        _ => p.strip_prefix(folder)?.strip_prefix('/'),
                    })
                    .map(str::to_string)
                    .collect();
                Ok(Source::GitHub {
                    agent,
                    raw: join(&format!("{raw}/{repository}/{sha}"), folder),
                    files,
                    provenance: Provenance {
                        repository: repository.to_string(),
                        reference: sha,
                        date,
                    },
                })
            }
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                let label = reference.unwrap_or("main");
                let base = url
                    .replace("{ref}", label)
                    .trim_end_matches('/')
                    .to_string();
                Ok(Source::Url {
                    agent: agent(),
                    provenance: Provenance {
                        repository: url.to_string(),
                        reference: label.to_string(),
                        date: today(),
                    },
                    base,
                })
            }
            Some(dir) => {
                if reference.is_some() {
                    return Err(
                        "--ref applies to GitHub and URL sources; for a local checkout, check \
                         the ref out first"
                            .to_string(),
                    );
                }
                let given = PathBuf::from(dir);
                let schema = if given.join(folder).is_dir() {
                    given.join(folder)
                } else {
                    given.clone()
                };
                if !schema.is_dir() {
                    return Err(format!("--from {dir}: no such folder"));
                }
                let (reference, date) =
                    git_head(&given).unwrap_or_else(|| ("local".into(), today()));
                Ok(Source::Dir {
                    dir: schema,
                    provenance: Provenance {
                        repository: dir.to_string(),
                        reference,
                        date,
                    },
                })
            }
        }
    }

    /// Where and when the files come from.
    pub fn provenance(&self) -> &Provenance {
        match self {
            Source::GitHub { provenance, .. }
            | Source::Dir { provenance, .. }
            | Source::Url { provenance, .. } => provenance,
        }
    }

    /// Every version the source has (a folder with a `schema.json`), or `None` when the
    /// source cannot list its folders (a static mirror).
    pub fn versions(&self) -> Result<Option<Vec<String>>, String> {
        match self {
            Source::GitHub { files, .. } => Ok(Some(
                files
                    .iter()
                    .filter_map(|p| p.strip_suffix("/schema.json"))
                    .filter(|v| !v.contains('/'))
                    .map(str::to_string)
                    .collect(),
            )),
            Source::Dir { dir, .. } => {
                let entries = std::fs::read_dir(dir)
                    .map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
                let mut out: Vec<String> = entries
                    .flatten()
                    .filter(|e| e.path().join("schema.json").is_file())
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .collect();
                out.sort();
                Ok(Some(out))
            }
            Source::Url { .. } => Ok(None),
        }
    }

    /// One version's files, or `None` when the source has no `<version>/schema.json`.
    pub fn fetch(&self, version: &str) -> Result<Option<Fetched>, String> {
        check_version_name(version)?;
        self.fetch_dir(version)
    }

    /// The files of the folder `dir` (relative to the source's, `""` for the source's
    /// own): its `schema.json`, `schema.ts` and `examples/`; `None` when it has no
    /// `schema.json`.
    pub fn fetch_dir(&self, dir: &str) -> Result<Option<Fetched>, String> {
        if !dir.is_empty() {
            check_relative(dir)?;
        }
        match self {
            Source::GitHub {
                agent, raw, files, ..
            } => {
                let Some(schema) = get(agent, &join(raw, &join(dir, "schema.json")))? else {
                    return Ok(None);
                };
                // The tree lists every file at the commit: a schema.ts it lists must arrive.
                let ts_rel = join(dir, "schema.ts");
                let ts = if files.contains(&ts_rel) {
                    let url = join(raw, &ts_rel);
                    Some(
                        get(agent, &url)?
                            .ok_or_else(|| format!("{url}: not found, though the tree lists it"))?,
                    )
                } else {
                    None
                };
                let prefix = join(dir, "examples/");
                let mut examples = BTreeMap::new();
                for rel in files.iter().filter_map(|p| p.strip_prefix(&prefix)) {
                    let url = join(raw, &format!("{prefix}{rel}"));
                    let body = get(agent, &url)?
                        .ok_or_else(|| format!("{url}: not found, though the tree lists it"))?;
                    examples.insert(rel.to_string(), body);
                }
                Ok(Some(Fetched {
                    schema,
                    ts,
                    examples: Some(examples),
                }))
            }
            Source::Dir { dir: base, .. } => {
                let here = base.join(dir);
                let path = here.join("schema.json");
                if !path.is_file() {
                    return Ok(None);
                }
                let schema = std::fs::read(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let ts_path = here.join("schema.ts");
                let ts = if ts_path.is_file() {
                    Some(
                        std::fs::read(&ts_path)
                            .map_err(|e| format!("cannot read {}: {e}", ts_path.display()))?,
                    )
                } else {
                    None
                };
                let examples = read_tree(&here.join("examples"))?;
                Ok(Some(Fetched {
                    schema,
                    ts,
                    examples: Some(examples),
                }))
            }
            Source::Url { agent, base, .. } => {
                let here = join(base, dir);
                let Some(schema) = get(agent, &format!("{here}/schema.json"))? else {
                    return Ok(None);
                };
                let ts = get(agent, &format!("{here}/schema.ts"))?;
                let index_url = format!("{here}/examples/index.txt");
                let examples = match get(agent, &index_url)? {
                    None => None,
                    Some(index) => {
                        let index = String::from_utf8(index)
                            .map_err(|_| format!("{index_url}: not UTF-8"))?;
                        let mut out = BTreeMap::new();
                        for rel in index.lines().map(str::trim).filter(|l| !l.is_empty()) {
                            let rel = rel.trim_start_matches("./");
                            check_relative(rel).map_err(|e| format!("{index_url}: {e}"))?;
                            let url = format!("{here}/examples/{rel}");
                            let body = get(agent, &url)?.ok_or_else(|| {
                                format!("{url}: not found, though {index_url} lists it")
                            })?;
                            out.insert(rel.to_string(), body);
                        }
                        Some(out)
                    }
                };
                Ok(Some(Fetched {
                    schema,
                    ts,
                    examples,
                }))
            }
        }
    }
}

/// `base/rel`, or `base` when `rel` is empty (a source's own folder), or `rel` when `base`
/// is.
fn join(base: &str, rel: &str) -> String {
    match (base, rel) {
        (_, "") => base.to_string(),
        ("", _) => rel.to_string(),
        _ => format!("{base}/{rel}"),
    }
}

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_string())
        .trim_end_matches('/')
        .to_string()
}

/// GETs a URL: `Ok(None)` on 404, an error naming the URL on anything else that is not 2xx,
/// on a network failure, a timeout, or a body cut short.
fn get(agent: &ureq::Agent, url: &str) -> Result<Option<Vec<u8>>, String> {
    let mut request = agent.get(url);
    if url.contains("/repos/") {
        request = request.header("Accept", "application/vnd.github+json");
        if let Ok(token) = std::env::var("GITHUB_TOKEN")
            && !token.is_empty()
        {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
    }
    let failed = |e: ureq::Error, what: &str| match e {
        ureq::Error::Timeout(_) => format!("GET {url}: timed out{what} (see --timeout)"),
        e if what.is_empty() => format!("GET {url}: {e}"),
        e => format!("GET {url}:{what}: {e}"),
    };
    let mut response = request.call().map_err(|e| failed(e, ""))?;
    let status = response.status().as_u16();
    if status == 404 {
        return Ok(None);
    }
    if !(200..300).contains(&status) {
        return Err(format!("GET {url}: HTTP {status}"));
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_vec()
        .map_err(|e| failed(e, " reading the body"))?;
    Ok(Some(body))
}

fn get_json(agent: &ureq::Agent, url: &str) -> Result<Option<Value>, String> {
    match get(agent, url)? {
        None => Ok(None),
        Some(body) => serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| format!("GET {url}: the answer is not JSON: {e}")),
    }
}

/// A ref goes into URLs: letters, digits and `._/-` only.
fn check_ref(r: &str) -> Result<(), String> {
    let ok = !r.is_empty()
        && !r.contains("..")
        && r.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--ref `{r}`: use a branch, tag or commit (letters, digits, `._/-`)"
        ))
    }
}

/// A version names a folder: `YYYY-MM-DD` or lower-case letters, digits and `-`.
pub fn check_version_name(v: &str) -> Result<(), String> {
    let ok = !v.is_empty()
        && !v.starts_with('-')
        && v.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{v}` is not a version name (expected e.g. `2025-06-18` or `draft`)"
        ))
    }
}

/// A relative path inside an examples folder: no `..`, no absolute path, no backslash.
fn check_relative(rel: &str) -> Result<(), String> {
    let bad = rel.starts_with('/')
        || rel.contains('\\')
        || rel
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == "..");
    if bad {
        Err(format!("`{rel}` is not a plain relative path"))
    } else {
        Ok(())
    }
}

/// The commit and commit date of a git checkout, if `dir` is one.
fn git_head(dir: &Path) -> Option<(String, String)> {
    let run = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    // Only a folder that is the top of its own checkout: a plain folder that happens to
    // sit inside another repository (this one) has no commit of its own.
    let top = run(&["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    Some((
        run(&["rev-parse", "HEAD"])?,
        run(&["log", "-1", "--format=%cs", "HEAD"])?,
    ))
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 → proleptic Gregorian (year, month, day), by 400-year eras of
/// 146 097 days whose years start on 1 March, so that leap days fall at the end.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468; // 0000-03-01 → 1970-01-01
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // 0 = March
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_417), (2025, 11, 25));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn names_and_paths() {
        assert!(check_version_name("2025-06-18").is_ok());
        assert!(check_version_name("draft").is_ok());
        assert!(check_version_name("../etc").is_err());
        assert!(check_version_name("Draft").is_err());
        assert!(check_ref("main").is_ok());
        assert!(check_ref("refs/tags/v1.0").is_ok());
        assert!(check_ref("a b").is_err());
        assert!(check_ref("x/../y").is_err());
        assert!(check_relative("Tool/x.json").is_ok());
        assert!(check_relative("../x.json").is_err());
        assert!(check_relative("/x.json").is_err());
    }
}
