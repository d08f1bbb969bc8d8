//! The official extensions' modules of `mcp-spec-types` (`ext::tasks`, `ext::server_card`)
//! on upstream's own messages: every JSON example of the tasks extension's specification
//! (`tests/data/ext/tasks.md`, vendored byte for byte) decodes by its method and writes
//! back as it came; the server card's official instances decode or are refused with their
//! path; the core definitions the tasks schema copies are 2026-07-28's types.

use std::any::TypeId;
use std::collections::BTreeMap;
use std::path::Path;

use mcp_spec_types::ext::{server_card, tasks};
use mcp_spec_types::rt::jsonrpc::{self, Message, RawResult};
use mcp_spec_types::rt::strict;
use mcp_spec_types::v2026_07_28 as core;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The JSON-RPC messages of the specification's code blocks, in order: `json`, and
/// `jsonl` and `jsonc` with their `//` comment lines and trailing commas left out (a
/// block that is no message, a fragment of capabilities, is skipped).
fn spec_examples() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("tests/data/ext/tasks.md")).unwrap();
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match (&mut block, line.trim()) {
            (None, "```json" | "```jsonl" | "```jsonc") => block = Some(String::new()),
            (Some(b), "```") => {
                let mut clean = String::new();
                for c in b.chars() {
                    if matches!(c, '}' | ']') && clean.trim_end().ends_with(',') {
                        let keep = clean.trim_end().len() - 1;
                        clean.truncate(keep);
                    }
                    clean.push(c);
                }
                let v: Value =
                    serde_json::from_str(&clean).unwrap_or_else(|e| panic!("{e}:\n{clean}"));
                if v.get("jsonrpc").is_some() {
                    out.push(v);
                }
                block = None;
            }
            (Some(_), l) if l.starts_with("//") => {}
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

/// What an example is and how it decoded: `request tools/call`, `result tasks/get working`.
fn decode(example: &Value, methods_by_id: &mut BTreeMap<String, String>) -> String {
    let text = example.to_string();
    let id = example.get("id").map(Value::to_string).unwrap_or_default();
    if let Some(method) = example.get("method").and_then(Value::as_str) {
        let message = match jsonrpc::decode::<
            tasks::methods::ClientRequest,
            tasks::methods::ServerNotification,
        >(text.as_bytes(), jsonrpc::Options::default())
        {
            Ok(message) => message,
            Err(e) => {
                methods_by_id.insert(id, method.to_string());
                return format!("refused {method} ({}) at {:?}", e.code, e.path);
            }
        };
        let what = match &message {
            Message::Request { request, .. } => {
                assert!(
                    !matches!(request, tasks::methods::ClientRequest::Other { .. }),
                    "{method} is not one of the module's requests"
                );
                methods_by_id.insert(id, method.to_string());
                format!("request {method}")
            }
            Message::Notification { notification, .. } => {
                assert!(
                    !matches!(
                        notification,
                        tasks::methods::ServerNotification::Other { .. }
                    ),
                    "{method} is not one of the module's notifications"
                );
                format!("notification {method}")
            }
            other => panic!("{method}: {other:?}"),
        };
        assert_eq!(
            &serde_json::to_value(&message).unwrap(),
            example,
            "{what} writes back otherwise"
        );
        return what;
    }
    if let Some(error) = example.get("error") {
        let message = jsonrpc::decode::<
            tasks::methods::ClientRequest,
            tasks::methods::ServerNotification,
        >(text.as_bytes(), jsonrpc::Options::default())
        .unwrap();
        assert!(matches!(message, Message::Error { .. }), "{message:?}");
        assert_eq!(&serde_json::to_value(&message).unwrap(), example);
        return format!("error {}", error["code"]);
    }
    let method = methods_by_id
        .get(&id)
        .unwrap_or_else(|| panic!("a result to id {id}, which no request of the text has"));
    let result = &example["result"];
    let raw = RawResult::from_text(&result.to_string()).unwrap();
    let method_enum: tasks::methods::Method = method.parse().unwrap();
    let decoded = match tasks::methods::ServerResult::decode(method_enum, &raw) {
        Ok(decoded) => decoded,
        Err(e) => return format!("refused result {method} at `{}`", e.error.path()),
    };
    let (back, arm) = match &decoded {
        tasks::methods::ServerResult::CallTool(o) => (
            serde_json::to_value(o).unwrap(),
            match o {
                tasks::CallToolOutcome::CreateTaskResult(t) => {
                    format!("task {}", t.status.as_str())
                }
                tasks::CallToolOutcome::CallToolResult(_) => "CallToolResult".to_string(),
                other => format!("{other:?}"),
            },
        ),
        tasks::methods::ServerResult::GetTask(r) => (
            serde_json::to_value(r).unwrap(),
            match r {
                tasks::GetTaskResult::GetTaskResultWorking(_) => "working",
                tasks::GetTaskResult::GetTaskResultInputRequired(_) => "input_required",
                tasks::GetTaskResult::GetTaskResultCompleted(_) => "completed",
                tasks::GetTaskResult::GetTaskResultFailed(_) => "failed",
                tasks::GetTaskResult::GetTaskResultCancelled(_) => "cancelled",
                other => panic!("tasks/get (id {id}) decoded to no status's arm: {other:?}"),
            }
            .to_string(),
        ),
        tasks::methods::ServerResult::UpdateTask(r) => {
            (serde_json::to_value(r).unwrap(), "ack".into())
        }
        tasks::methods::ServerResult::CancelTask(r) => {
            (serde_json::to_value(r).unwrap(), "ack".into())
        }
    };
    assert_eq!(
        &back, result,
        "the result of {method} (id {id}) writes back otherwise"
    );
    format!("result {method} {arm}")
}

#[test]
fn the_specifications_examples_decode_by_method_and_write_back() {
    let examples = spec_examples();
    let mut methods_by_id = BTreeMap::new();
    let outcomes: Vec<String> = examples
        .iter()
        .map(|e| decode(e, &mut methods_by_id))
        .collect();
    for (i, o) in outcomes.iter().enumerate() {
        println!("{i:>2}. {o}");
    }
    // Every block of the text, in its order.
    assert_eq!(
        outcomes,
        [
            "error -32021",
            // The text's tool calls are not 2026-07-28 requests: that version requires
            // `_meta` in a request's params, with the protocol version; the first has no
            // `_meta`, the second only the client's capabilities.
            "refused tools/call (-32602) at Some(\"params._meta\")",
            "result tools/call task working",
            "error -32021",
            "notification notifications/tasks",
            "refused tools/call (-32602) at Some(\"params._meta.io.modelcontextprotocol/protocolVersion\")",
            "result tools/call task working",
            "request tasks/get",
            "result tasks/get working",
            "request tasks/get",
            "result tasks/get input_required",
            "request tasks/get",
            "result tasks/get input_required",
            "request tasks/update",
            "result tasks/update ack",
            "request tasks/get",
            "result tasks/get working",
            "request tasks/get",
            "result tasks/get completed",
            "error -32602",
            "error -32602",
            // The text's two examples of a task's execution outcome (ids 4 and 5, the ids
            // of its earlier `tasks/get`s) say `resultType: "task"`, which the same text
            // reserves for `CreateTaskResult` and forbids on `tasks/get`'s result ("MUST
            // be set to `complete`"); the schema says so too. Refused, where it is wrong.
            "refused result tasks/get at `resultType`",
            "refused result tasks/get at `resultType`",
        ]
    );
}

/// A tool call's answer, decoded by the extension's module: the core's results, or a task.
#[test]
fn a_tool_call_is_answered_by_a_result_or_a_task() {
    let decode = |v: Value| {
        let raw = RawResult::from_text(&v.to_string()).unwrap();
        match tasks::methods::ServerResult::decode(tasks::methods::Method::CallTool, &raw).unwrap()
        {
            tasks::methods::ServerResult::CallTool(o) => o,
            other => panic!("{other:?}"),
        }
    };
    let done = decode(serde_json::json!({"resultType": "complete", "content": []}));
    assert!(
        matches!(done, tasks::CallToolOutcome::CallToolResult(_)),
        "{done:?}"
    );
    let input = decode(serde_json::json!({"resultType": "input_required", "inputRequests": {}}));
    assert!(
        matches!(input, tasks::CallToolOutcome::InputRequiredResult(_)),
        "{input:?}"
    );
    let task = decode(serde_json::json!({
        "resultType": "task", "taskId": "t1", "status": "working",
        "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z", "ttlMs": null
    }));
    let tasks::CallToolOutcome::CreateTaskResult(t) = &task else {
        panic!("{task:?}")
    };
    assert_eq!((t.task_id.as_str(), t.ttl_ms), ("t1", None));
    // The core module's outcome keeps a task as a value it does not know, and a strict
    // read says so; the extension's module knows it.
    let raw = RawResult::from_text(&serde_json::to_string(&task).unwrap()).unwrap();
    let core_outcome =
        core::methods::ServerResult::decode(core::methods::Method::CallTool, &raw).unwrap();
    assert!(
        matches!(
            core_outcome,
            core::methods::ServerResult::CallTool(core::CallToolOutcome::Unknown(_))
        ),
        "{core_outcome:?}"
    );
}

/// The core definitions the tasks schema copies in are 2026-07-28's types, not new ones.
#[test]
fn the_copied_definitions_are_the_core_types() {
    macro_rules! same {
        ($($t:ident),*) => {
            $(assert_eq!(TypeId::of::<tasks::$t>(), TypeId::of::<core::$t>(), stringify!($t));)*
        };
    }
    same!(
        Tool,
        ContentBlock,
        ErrorObject,
        InputRequests,
        InputResponses,
        ElicitRequest,
        Implementation,
        ResultObject,
        JsonRpcRequest,
        CallToolRequest,
        CallToolResult,
        InputRequiredResult
    );
    // The module's own response to `tools/call` is not the core's: its result may be a task.
    assert_ne!(
        TypeId::of::<tasks::CallToolResultResponse>(),
        TypeId::of::<core::CallToolResultResponse>()
    );
}

/// Every official server card instance: each valid one decodes strictly and writes back
/// the same JSON; each invalid one is refused, saying where.
#[test]
fn the_server_cards_official_instances() {
    let dir = root().join("schema/ext/server-card/examples/ServerCard");
    let listed = |kind: &str| {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(kind))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        files
    };
    let (valid, invalid) = (listed("valid"), listed("invalid"));
    assert_eq!((valid.len(), invalid.len()), (2, 5));
    for file in &valid {
        let text = std::fs::read_to_string(file).unwrap();
        let card: server_card::ServerCard =
            strict::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let came: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::to_value(&card).unwrap(),
            came,
            "{}",
            file.display()
        );
    }
    let mut refused = Vec::new();
    for file in &invalid {
        let text = std::fs::read_to_string(file).unwrap();
        let e = strict::from_str::<server_card::ServerCard>(&text)
            .err()
            .unwrap_or_else(|| panic!("{} decoded", file.display()));
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        refused.push(format!("{name}: {e}"));
    }
    for (i, prefix) in [
        "bad-name-pattern.json: at `name`: \"no-slash-in-name\" does not match the pattern",
        "date-versioned-schema.json: at `$schema`:",
        "missing-name.json: at `name`: missing field `name`",
        "missing-schema.json: at `$schema`: missing field `$schema`",
        "wrong-schema-name.json: at `$schema`:",
    ]
    .iter()
    .enumerate()
    {
        assert!(refused[i].starts_with(prefix), "{}", refused[i]);
    }
}
