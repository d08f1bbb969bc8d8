//! The traffic log: when the environment variable `MCP_TRAFFIC_LOG` names a file, every
//! message that crosses a transport of the examples (the session's tap) is appended to it
//! as one JSON line, `{"dir":"in","text":"..."}` (`"out"` for what we write), the text
//! exactly as read or written. The HTTP server adds the MCP session it belongs to:
//! `{"dir":"in","session":"1f2e-0","text":"..."}` (`null` outside any).
//! `interop/record` turns these logs into the corpus under `tests/data/traffic/`. The
//! example client uses this file too (`#[path]`).

use mcp_spec_session::Flow;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Mutex, OnceLock};

static LOG: OnceLock<Option<Mutex<File>>> = OnceLock::new();

fn log() -> Option<&'static Mutex<File>> {
    LOG.get_or_init(|| {
        let path = std::env::var_os("MCP_TRAFFIC_LOG").filter(|p| !p.is_empty())?;
        match OpenOptions::new().create(true).append(true).open(&path) {
            Ok(file) => Some(Mutex::new(file)),
            Err(e) => {
                eprintln!(
                    "MCP_TRAFFIC_LOG: cannot open {}: {e}",
                    path.to_string_lossy()
                );
                None
            }
        }
    })
    .as_ref()
}

/// Appends `text` to the log as a JSON string.
fn push_string(line: &mut String, text: &str) {
    line.push('"');
    for c in text.chars() {
        match c {
            '"' => line.push_str("\\\""),
            '\\' => line.push_str("\\\\"),
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            '\t' => line.push_str("\\t"),
            c if c < ' ' => line.push_str(&format!("\\u{:04x}", c as u32)),
            c => line.push(c),
        }
    }
    line.push('"');
}

/// Whether the log is on.
pub fn on() -> bool {
    log().is_some()
}

/// Records one message; `session` is the HTTP session, if the transport has sessions
/// (`Some(None)`: not in one).
pub fn record(direction: Flow, session: Option<Option<&str>>, text: &str) {
    let Some(log) = log() else { return };
    let dir = match direction {
        Flow::In => "in",
        Flow::Out => "out",
    };
    let mut line = String::with_capacity(text.len() + 32);
    line.push_str("{\"dir\":");
    push_string(&mut line, dir);
    match session {
        None => {}
        Some(None) => line.push_str(",\"session\":null"),
        Some(Some(s)) => {
            line.push_str(",\"session\":");
            push_string(&mut line, s);
        }
    }
    line.push_str(",\"text\":");
    push_string(&mut line, text);
    line.push_str("}\n");
    // One write per line, under the lock: lines never interleave.
    let mut file = log.lock().unwrap_or_else(|e| e.into_inner());
    let _ = file.write_all(line.as_bytes());
}
