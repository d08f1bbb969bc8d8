//! Helpers shared by the xtask tests: scratch workspaces, running the xtask binary, and a
//! small HTTP server on 127.0.0.1 that can misbehave on purpose.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use mcp_codegen::workspace::read_tree;

/// The repository this test belongs to.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A fresh scratch folder named after the test, with a copy of the vendored `schema/`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(&repo().join("schema"), &dir.join("schema"));
    dir
}

/// The files of `dir`, by name.
pub fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

/// Copies every file under `from` to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in read_tree(from).unwrap() {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// Every file under a folder with its bytes: equal snapshots mean nothing changed on disk.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    read_tree(dir).unwrap()
}

/// Result of one xtask run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs the xtask binary on a scratch workspace with extra environment variables.
pub fn xtask(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let started = std::time::Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xtask"));
    cmd.arg("--root").arg(root).args(args);
    cmd.env_remove("MCP_UPSTREAM_RAW")
        .env_remove("MCP_UPSTREAM_API")
        .env_remove("GITHUB_TOKEN");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("run xtask");
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// How the server answers one path.
#[derive(Clone)]
pub enum Reply {
    /// A status and a body with its true length.
    Body(u16, Vec<u8>),
    /// 200 with a `Content-Length` larger than the bytes sent, then the connection closes.
    Truncated(Vec<u8>),
    /// Accepts the request and never answers (until the test process ends).
    Hang,
    /// Sends the head and half the body, then stalls (until the test process ends).
    Stall(Vec<u8>),
}

/// An HTTP/1.1 server on 127.0.0.1 answering from a table; unknown paths get 404.
pub struct Server {
    pub base: String,
    routes: Arc<Mutex<HashMap<String, Reply>>>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes: Arc<Mutex<HashMap<String, Reply>>> = Arc::default();
        let table = routes.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let table = table.clone();
                thread::spawn(move || serve(stream, &table));
            }
        });
        Server { base, routes }
    }

    pub fn route(&self, path: &str, reply: Reply) {
        self.routes.lock().unwrap().insert(path.to_string(), reply);
    }

    pub fn ok(&self, path: &str, body: impl Into<Vec<u8>>) {
        self.route(path, Reply::Body(200, body.into()));
    }
}

fn serve(stream: TcpStream, table: &Mutex<HashMap<String, Reply>>) {
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut stream = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header == "\r\n" || header == "\n" {
                break;
            }
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let reply = table.lock().unwrap().get(&path).cloned();
        let reply = reply.unwrap_or(Reply::Body(404, b"404: Not Found".to_vec()));
        match reply {
            Reply::Body(status, body) => {
                let head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nContent-Type: text/plain\r\n\r\n",
                    body.len()
                );
                // One write: a head and body sent apart meet delayed ACKs (40 ms a request).
                let mut message = head.into_bytes();
                message.extend_from_slice(&body);
                if stream.write_all(&message).is_err() {
                    return;
                }
            }
            Reply::Truncated(body) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len() * 2 + 10
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
                return;
            }
            Reply::Stall(body) => {
                let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body[..body.len() / 2]);
                let _ = stream.flush();
                thread::sleep(Duration::from_secs(120));
                return;
            }
            Reply::Hang => {
                thread::sleep(Duration::from_secs(120));
                return;
            }
        }
    }
}

/// A fake GitHub on the server: the commits and trees API and raw downloads for one
/// commit, serving `files` (paths relative to the repository's `schema/` folder), and
/// each official extension's repository with the files of `ext/<name>/`. Returns the
/// environment that points xtask at it.
pub fn fake_github(
    server: &Server,
    reference: &str,
    sha: &str,
    date: &str,
    files: &BTreeMap<String, Vec<u8>>,
) -> Vec<(&'static str, String)> {
    let schema: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(rel, bytes)| (format!("schema/{rel}"), bytes.clone()))
        .collect();
    let spec = "modelcontextprotocol/modelcontextprotocol";
    fake_repo(server, spec, reference, sha, date, &schema);
    // Each official extension's repository, at the same ref: its files (those of
    // `ext/<name>/` in `files`, its history aside) in the folder its lock entry names.
    let lock = mcp_codegen::workspace::read_lock(&repo()).unwrap();
    for e in &lock.extensions {
        let vendored = e.path.strip_prefix("schema/").unwrap();
        let vendored = vendored.strip_suffix("schema.json").unwrap();
        let folder = e.upstream.as_deref().unwrap();
        let mut repo_files = BTreeMap::new();
        for (rel, bytes) in files {
            if let Some(inner) = rel.strip_prefix(vendored) {
                let path = match folder {
                    "" => inner.to_string(),
                    _ => format!("{folder}/{inner}"),
                };
                repo_files.insert(path, bytes.clone());
            }
        }
        fake_repo(server, &e.repository, reference, sha, date, &repo_files);
    }
    vec![
        ("MCP_UPSTREAM_API", format!("{}/api", server.base)),
        ("MCP_UPSTREAM_RAW", format!("{}/raw", server.base)),
    ]
}

/// One more repository on the fake GitHub of [`fake_github`]: `files` by their path in it.
pub fn fake_repo(
    server: &Server,
    repo: &str,
    reference: &str,
    sha: &str,
    date: &str,
    files: &BTreeMap<String, Vec<u8>>,
) {
    server.ok(
        &format!("/api/repos/{repo}/commits/{reference}"),
        format!(r#"{{"sha":"{sha}","commit":{{"committer":{{"date":"{date}T12:00:00Z"}}}}}}"#),
    );
    let mut tree = vec![serde_json::json!({"path": "README.md", "type": "blob"})];
    for (rel, bytes) in files {
        tree.push(serde_json::json!({"path": rel, "type": "blob"}));
        server.ok(&format!("/raw/{repo}/{sha}/{rel}"), bytes.clone());
    }
    server.ok(
        &format!("/api/repos/{repo}/git/trees/{sha}?recursive=1"),
        serde_json::json!({"sha": "t", "tree": tree, "truncated": false}).to_string(),
    );
}

/// Upstream's `schema/` folder as this repository vendors it, keyed like `fake_github` wants.
pub fn vendored_upstream() -> BTreeMap<String, Vec<u8>> {
    read_tree(&repo().join("schema"))
        .unwrap()
        .into_iter()
        .filter(|(k, _)| k != "lock.json")
        .collect()
}
