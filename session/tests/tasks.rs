//! The tasks extension end to end over Streamable HTTP, both sides on the session crate: a
//! 2026-07-28 server with `mcp_spec_types::ext::tasks::handlers::Server` in front of its
//! handler, and a client that creates a task with `tools/call`, polls it with
//! `tasks/get`, answers its input with `tasks/update` and cancels another with
//! `tasks/cancel`, each request with the `Mcp-Name` the extension asks for (the server
//! checks it). A client that does not declare the extension gets the call's own answer,
//! and -32021 for the extension's requests.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use mcp_spec_session::Versions;
use mcp_spec_session::http::HttpServer;
use mcp_spec_session::http_client::HttpClient;
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::ext::tasks as t;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{CallError, Peer, RequestContext};
use mcp_spec_types::v2026_07_28 as v;
use mcp_spec_types::version::RequireVersion;
use serde_json::{Map, Value, json};

/// The core handler: one tool, `job`, answered at once.
struct Core;

impl v::handlers::ServerHandler for Core {
    async fn discover(
        &self,
        _: v::RequestParams,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::DiscoverResult, ErrorObject> {
        let capabilities = v::ServerCapabilities {
            tools: Some(Default::default()),
            ..Default::default()
        };
        let scope = v::DiscoverResultCacheScope::Private;
        let versions = vec!["2026-07-28".to_string()];
        let meta = v::ResultMetaObject {
            io_modelcontextprotocol_server_info: Some(v::Implementation::new("tasks-test", "1")),
            ..Default::default()
        };
        Ok(v::DiscoverResult {
            meta: Some(meta),
            ..v::DiscoverResult::new("complete", scope, capabilities, versions, 0)
        })
    }

    async fn call_tool(
        &self,
        params: v::CallToolRequestParams,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        Ok(v::CallToolResult::text(format!("{} done at once", params.name)).into())
    }
}

/// A task: asked for a name until answered, or cancelled.
#[derive(Debug, Clone)]
enum State {
    Asking,
    Done(String),
    Cancelled,
}

#[derive(Debug, Default, Clone)]
struct Tasks(Arc<Mutex<HashMap<String, State>>>);

const AT: &str = "2026-11-28T10:00:00Z";

fn ask() -> v::InputRequest {
    serde_json::from_value(json!({"method": "elicitation/create", "params": {
        "mode": "form", "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }}))
    .unwrap()
}

impl t::handlers::ServerHandler for Tasks {
    async fn call_tool(
        &self,
        params: &v::CallToolRequestParams,
        cx: RequestContext<Peer>,
    ) -> Result<Option<t::CreateTaskResult>, ErrorObject> {
        let declared =
            mcp_spec_types::rt::extension::declared(cx.meta.as_ref(), t::handlers::EXTENSION);
        if params.name != "job" || !declared {
            return Ok(None);
        }
        let mut tasks = self.0.lock().unwrap();
        let id = format!("task-{}", tasks.len() + 1);
        tasks.insert(id.clone(), State::Asking);
        Ok(Some(t::CreateTaskResult::new(
            AT,
            AT,
            id,
            t::TaskStatus::Working,
            Some(60_000),
        )))
    }

    async fn get_task(
        &self,
        params: t::GetTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::GetTaskResult, ErrorObject> {
        let tasks = self.0.lock().unwrap();
        let id = params.task_id;
        let state = tasks
            .get(&id)
            .ok_or_else(|| ErrorObject::invalid_params(format!("no task {id}")))?;
        Ok(match state {
            State::Asking => {
                t::GetTaskResult::GetTaskResultInputRequired(t::GetTaskResultInputRequired::new(
                    AT,
                    AT,
                    id,
                    BTreeMap::from([("name".to_string(), ask())]),
                    Some(60_000),
                ))
            }
            State::Done(text) => {
                let result = v::CallToolResult::text(text.clone());
                let Value::Object(result) = serde_json::to_value(result).unwrap() else {
                    unreachable!("a result is an object")
                };
                t::GetTaskResult::GetTaskResultCompleted(t::GetTaskResultCompleted::new(
                    AT,
                    AT,
                    id,
                    result,
                    Some(60_000),
                ))
            }
            State::Cancelled => t::GetTaskResult::GetTaskResultCancelled(
                t::GetTaskResultCancelled::new(AT, AT, id, Some(60_000)),
            ),
        })
    }

    async fn update_task(
        &self,
        params: t::UpdateTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::UpdateTaskResult, ErrorObject> {
        let mut tasks = self.0.lock().unwrap();
        if let (Some(state @ State::Asking), Some(answer)) = (
            tasks.get_mut(&params.task_id),
            params.input_responses.get("name"),
        ) {
            let name = answer["content"]["name"].as_str().unwrap_or("nobody");
            *state = State::Done(format!("Hello, {name}"));
        }
        Ok(t::UpdateTaskResult::new())
    }

    async fn cancel_task(
        &self,
        params: t::CancelTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::CancelTaskResult, ErrorObject> {
        if let Some(state) = self.0.lock().unwrap().get_mut(&params.task_id) {
            *state = State::Cancelled;
        }
        Ok(t::CancelTaskResult::new())
    }
}

async fn start(tasks: Tasks) -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let versions = move || {
        let policy = RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
        let core = Arc::new(v::handlers::Server::new(Core).with_policy(policy));
        Versions::new().with(
            ProtocolVersion::V2026_07_28,
            t::handlers::Server::new(tasks.clone(), core),
        )
    };
    tokio::spawn(HttpServer::new(versions).serve(listener));
    format!("http://127.0.0.1:{port}/mcp")
}

/// The `_meta` of every request: 2026-07-28, declaring the extension or not.
fn envelope(declares: bool) -> Map<String, Value> {
    let extensions = if declares {
        json!({"io.modelcontextprotocol/tasks": {}})
    } else {
        json!({})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
    })
    .as_object()
    .unwrap()
    .clone()
}

struct NoHandler;
impl v::handlers::ClientHandler for NoHandler {}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_creates_polls_updates_and_cancels_tasks_over_http() {
    let url = start(Tasks::default()).await;
    let client = HttpClient::connect(&url, v::handlers::Client::new(NoHandler));
    let peer = client.session().peer().with_envelope(envelope(true));

    // The server declares the extension.
    let discover: v::DiscoverResult = peer.request::<v::methods::Discover>(None).await.unwrap();
    let extensions = discover.capabilities.extensions.unwrap_or_default();
    assert!(
        extensions.contains_key(t::handlers::EXTENSION),
        "{extensions:?}"
    );

    // A call answered with a task, decoded by the extension's method.
    let call = v::CallToolRequestParams::new("job", v::RequestMetaObject::default());
    let outcome = peer
        .request::<t::methods::CallTool>(Some(&call))
        .await
        .unwrap();
    let t::CallToolOutcome::CreateTaskResult(task) = outcome else {
        panic!("not a task: {outcome:?}")
    };
    assert_eq!(task.task_id, "task-1");

    // Polled: it asks for input.
    let get = t::GetTaskRequestParams::new("task-1");
    let state = peer
        .request::<t::methods::GetTask>(Some(&get))
        .await
        .unwrap();
    let t::GetTaskResult::GetTaskResultInputRequired(asking) = state else {
        panic!("{state:?}")
    };
    assert!(asking.input_requests.contains_key("name"));

    // Answered, then polled to its result.
    let answer: Map<String, Value> =
        serde_json::from_value(json!({"name": {"action": "accept", "content": {"name": "Ada"}}}))
            .unwrap();
    let update = t::UpdateTaskRequestParams::new("task-1", answer);
    peer.request::<t::methods::UpdateTask>(Some(&update))
        .await
        .unwrap();
    let state = peer
        .request::<t::methods::GetTask>(Some(&get))
        .await
        .unwrap();
    let t::GetTaskResult::GetTaskResultCompleted(done) = state else {
        panic!("{state:?}")
    };
    assert_eq!(done.result["content"][0]["text"], "Hello, Ada");

    // Another, cancelled.
    let outcome = peer
        .request::<t::methods::CallTool>(Some(&call))
        .await
        .unwrap();
    let t::CallToolOutcome::CreateTaskResult(second) = outcome else {
        panic!("{outcome:?}")
    };
    let cancel = t::CancelTaskRequestParams::new(second.task_id.clone());
    peer.request::<t::methods::CancelTask>(Some(&cancel))
        .await
        .unwrap();
    let get = t::GetTaskRequestParams::new(second.task_id);
    let state = peer
        .request::<t::methods::GetTask>(Some(&get))
        .await
        .unwrap();
    assert!(
        matches!(state, t::GetTaskResult::GetTaskResultCancelled(_)),
        "{state:?}"
    );

    // A client that does not declare the extension: the call's own answer, and -32021.
    let plain = client.session().peer().with_envelope(envelope(false));
    let outcome = plain
        .request::<t::methods::CallTool>(Some(&call))
        .await
        .unwrap();
    assert!(
        matches!(outcome, t::CallToolOutcome::CallToolResult(_)),
        "{outcome:?}"
    );
    let get = t::GetTaskRequestParams::new("task-1");
    match plain.request::<t::methods::GetTask>(Some(&get)).await {
        Err(CallError::Rejected(e)) => {
            assert_eq!(e.code, -32021, "{e:?}");
            assert_eq!(
                e.data.unwrap()["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
                json!({})
            );
        }
        other => panic!("{other:?}"),
    }
    client.close().await;
}

/// Over HTTP the server holds a task request's `Mcp-Name` to its `taskId` (the client
/// above sent it right, or its requests would have failed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_request_names_its_task_in_mcp_name() {
    let url = start(Tasks::default()).await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get",
        "params": {"taskId": "task-9", "_meta": Value::Object(envelope(true))}});
    let post = |name: &'static str| {
        let body = body.clone();
        let url = url.clone();
        async move {
            let response = reqwest::Client::new()
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tasks/get")
                .header("mcp-name", name)
                .body(body.to_string())
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let value: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
            (status, value)
        }
    };
    let (status, value) = post("task-1").await;
    assert_eq!(
        (status, value["error"]["code"].as_i64()),
        (400, Some(-32020)),
        "{value}"
    );
    // The right name passes the check; the task is unknown: -32602.
    let (_, value) = post("task-9").await;
    assert_eq!(value["error"]["code"].as_i64(), Some(-32602), "{value}");
}

/// A 2025-11-25 client's tasks, served by the same extension handler through
/// `Versions::every_version_with_tasks`: the task created by a `tools/call` with `task`,
/// its input asked of the client by `tasks/result`, its result; a call without `task`
/// answered in place; `tasks/list`, which the extension dropped, refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_clients_tasks_are_served_by_the_extensions_handler() {
    use mcp_spec_types::v2025_11_25 as old;

    struct Answers;
    impl old::handlers::ClientHandler for Answers {
        async fn elicit(
            &self,
            _: old::ElicitRequestParams,
            _: RequestContext<old::handlers::ServerPeer>,
        ) -> Result<old::ElicitOutcome, ErrorObject> {
            let result: old::ElicitResult =
                serde_json::from_value(json!({"action": "accept", "content": {"name": "Grace"}}))
                    .unwrap();
            Ok(result.into())
        }
    }

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let tasks = Tasks::default();
    let make =
        move || Versions::every_version_with_tasks(Core, tasks.clone(), mcp_spec_session::Tokio);
    tokio::spawn(HttpServer::new(make).serve(listener));
    let url = format!("http://127.0.0.1:{port}/mcp");
    let client = HttpClient::connect(&url, old::handlers::Client::new(Answers));
    let server = old::handlers::ServerPeer(client.session().peer());
    let caps = old::ClientCapabilities {
        elicitation: Some(Default::default()),
        ..Default::default()
    };
    let info = old::Implementation::new("tasks-2025-11-25", "1");
    let hello = old::InitializeRequestParams::new("2025-11-25", caps, info);
    let answer = server.initialize(&hello).await.unwrap();
    assert_eq!(answer.protocol_version, "2025-11-25");
    let declared = serde_json::to_value(&answer.capabilities.tasks).unwrap();
    assert_eq!(
        declared["requests"]["tools"]["call"],
        json!({}),
        "{declared}"
    );
    server.notify_initialized(None).await.unwrap();

    let mut call = old::CallToolRequestParams::new("job");
    call.task = Some(old::TaskMetadata {
        ttl: Some(60_000),
        ..Default::default()
    });
    let old::CallToolOutcome::CreateTaskResult(created) = server.call_tool(&call).await.unwrap()
    else {
        panic!("not a task")
    };
    let id = created.task.task_id.clone();
    assert_eq!((id.as_str(), created.task.ttl), ("task-1", Some(60_000)));
    let state = server
        .get_task(&old::GetTaskRequestParams::new(id.clone()))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&state.status).unwrap(),
        "input_required"
    );
    // The input is asked of the client, and the task ends with its answer.
    let payload = server
        .get_task_payload(&old::GetTaskPayloadRequestParams::new(id))
        .await
        .unwrap();
    let payload = serde_json::to_value(payload).unwrap();
    assert_eq!(payload["content"][0]["text"], "Hello, Grace", "{payload}");
    assert!(payload.get("resultType").is_none(), "{payload}");

    // Without `task`, the call is the handler's own.
    let plain = old::CallToolRequestParams::new("job");
    let old::CallToolOutcome::CallToolResult(done) = server.call_tool(&plain).await.unwrap() else {
        panic!("a task")
    };
    assert_eq!(
        serde_json::to_value(&done.content).unwrap()[0]["text"],
        "job done at once"
    );
    match server.list_tasks(None).await {
        Err(CallError::Rejected(e)) => {
            assert_eq!(e.code, -32601);
            assert!(e.message.contains("no counterpart"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
    client.close().await;
}
