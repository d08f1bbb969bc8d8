//! The tasks of a 2025-11-25 client, served by the handler of the tasks extension written
//! for 2026-07-28 (`mcp_spec_types::ext::tasks::handlers::ServerHandler`), in front of
//! the 2025-11-25 adapter of [`Versions::every_version_with_tasks`].
//!
//! 2025-11-25 has tasks in its core schema, the extension's ancestor: where the two map,
//! a 2025-11-25 request is served by the extension's handler and its answer written in
//! 2025-11-25's shapes, and where they do not, the answer says so. The table of both is in
//! the guide (`docs/serving.md`, "A 2025-11-25 client's tasks").

use std::sync::Arc;
use std::time::Duration;

use mcp_spec_types::ext::tasks as t;
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id};
use mcp_spec_types::rt::service::{
    BoxFuture, Meta, Peer, Received, RequestContext, Serve, Service, inspect, method_not_found,
    receive, refuse, respond,
};
use mcp_spec_types::v2025_11_25 as old;
use serde_json::{Map, Value, json};
use t::handlers::ServerHandler;

/// How long `tasks/result` waits for a task to end before it answers -32603; the task
/// goes on, and the client may ask again.
pub const TASK_RESULT_WAIT: Duration = Duration::from_secs(300);

/// Rounds of input one `tasks/result` may ask the client for.
pub const TASK_INPUT_ROUNDS: usize = 16;

/// The 2025-11-25 service with the tasks of its clients served by `tasks`.
pub(crate) struct OlderTasks<T> {
    pub(crate) tasks: T,
    pub(crate) inner: Arc<dyn Service>,
    /// The capabilities the client declared at `initialize` (one value per connection).
    pub(crate) capabilities: std::sync::Mutex<Map<String, Value>>,
}

impl<T> OlderTasks<T> {
    pub(crate) fn new(tasks: T, inner: Arc<dyn Service>) -> Self {
        OlderTasks {
            tasks,
            inner,
            capabilities: Default::default(),
        }
    }

    fn capabilities(&self) -> Map<String, Value> {
        self.capabilities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The `_meta` the extension's handler sees for a 2025-11-25 client's request: the
    /// handler's version, and the capabilities the client declared at `initialize` with the
    /// extension among them (a 2025-11-25 client that asks for a task uses tasks).
    fn envelope(&self) -> Meta {
        let mut capabilities = self.capabilities();
        let extensions = capabilities
            .entry("extensions")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(extensions) = extensions.as_object_mut() {
            extensions.insert(t::handlers::EXTENSION.into(), json!({}));
        }
        let mut meta = Map::new();
        meta.insert(
            "io.modelcontextprotocol/protocolVersion".into(),
            "2026-07-28".into(),
        );
        meta.insert(
            "io.modelcontextprotocol/clientCapabilities".into(),
            Value::Object(capabilities),
        );
        Meta::from(meta)
    }

    fn cx(&self, id: &Id, peer: &Peer) -> RequestContext<Peer> {
        RequestContext {
            id: id.clone(),
            meta: Some(self.envelope()),
            peer: peer.clone(),
        }
    }
}

/// The capability a client declares to be sent an input request of `method`.
fn capability_of(method: &str) -> Option<&'static str> {
    match method {
        "elicitation/create" => Some("elicitation"),
        "sampling/createMessage" => Some("sampling"),
        "roots/list" => Some("roots"),
        _ => None,
    }
}

/// A task of the extension as 2025-11-25 writes one: a tool call that ended with an error
/// result (`isError`) is `failed` there, `completed` in the extension.
fn task_of(r: &t::GetTaskResult) -> Result<old::Task, ErrorObject> {
    let value = serde_json::to_value(r).map_err(|e| ErrorObject::internal_error(e.to_string()))?;
    let tool_error = value.pointer("/result/isError") == Some(&Value::Bool(true));
    let status = match value.get("status") {
        Some(Value::String(s)) if s == "completed" && tool_error => json!("failed"),
        other => other.cloned().unwrap_or(Value::Null),
    };
    let status: old::TaskStatus = serde_json::from_value(status)
        .map_err(|e| ErrorObject::internal_error(format!("a task's status: {e}")))?;
    let text = |k: &str| {
        value
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let int = |k: &str| value.get(k).and_then(Value::as_i64);
    Ok(old::Task {
        created_at: text("createdAt"),
        last_updated_at: text("lastUpdatedAt"),
        poll_interval: int("pollIntervalMs"),
        status,
        status_message: value
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(String::from),
        task_id: text("taskId"),
        ttl: int("ttlMs"),
        extra: Map::new(),
    })
}

impl<T: ServerHandler + Clone> OlderTasks<T> {
    async fn call(
        &self,
        id: &Id,
        peer: &Peer,
        p: old::CallToolRequestParams,
    ) -> Option<Result<Value, ErrorObject>> {
        p.task.as_ref()?;
        let mut value = json!({"name": p.name, "_meta": Value::Object(self.envelope().to_map())});
        if let Some(args) = &p.arguments {
            value["arguments"] = Value::Object(args.clone());
        }
        let newer: mcp_spec_types::v2026_07_28::CallToolRequestParams =
            match serde_json::from_value(value) {
                Ok(p) => p,
                Err(e) => return Some(Err(ErrorObject::invalid_params(e.to_string()))),
            };
        let created = match self.tasks.call_tool(&newer, self.cx(id, peer)).await {
            Ok(Some(created)) => created,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let task = old::Task {
            created_at: created.created_at,
            last_updated_at: created.last_updated_at,
            poll_interval: created.poll_interval_ms,
            status: serde_json::to_value(&created.status)
                .and_then(serde_json::from_value)
                .unwrap_or(old::TaskStatus::Working),
            status_message: created.status_message,
            task_id: created.task_id,
            ttl: created.ttl_ms,
            extra: Map::new(),
        };
        Some(
            serde_json::to_value(old::CreateTaskResult::new(task))
                .map_err(|e| ErrorObject::internal_error(e.to_string())),
        )
    }

    async fn get(
        &self,
        id: &Id,
        peer: &Peer,
        task_id: &str,
    ) -> Result<t::GetTaskResult, ErrorObject> {
        let p = t::GetTaskRequestParams::new(task_id);
        self.tasks.get_task(p, self.cx(id, peer)).await
    }

    /// `tasks/result`: polls until the task ends, asking the client for what it asks; at
    /// most [`TASK_RESULT_WAIT`] in all, the client's answers included.
    async fn result(&self, id: &Id, peer: &Peer, task_id: &str) -> Result<Value, ErrorObject> {
        let work = Box::pin(self.wait_result(id, peer, task_id));
        let limit = futures_timer::Delay::new(TASK_RESULT_WAIT);
        match futures_util::future::select(work, limit).await {
            futures_util::future::Either::Left((result, _)) => result,
            futures_util::future::Either::Right(_) => Err(ErrorObject::internal_error(format!(
                "the task {task_id} did not end within {} s; ask again",
                TASK_RESULT_WAIT.as_secs()
            ))),
        }
    }

    async fn wait_result(&self, id: &Id, peer: &Peer, task_id: &str) -> Result<Value, ErrorObject> {
        let mut rounds = 0;
        // Keys asked already: a poll that shows them again (the update is eventually
        // consistent) does not ask the user twice.
        let mut asked = std::collections::BTreeSet::new();
        loop {
            let state = self.get(id, peer, task_id).await?;
            let poll = match &state {
                t::GetTaskResult::GetTaskResultCompleted(done) => {
                    let mut result = Value::Object(done.result.clone());
                    // 2025-11-25's results say no `resultType`.
                    if let Some(m) = result.as_object_mut() {
                        m.remove("resultType");
                    }
                    return Ok(result);
                }
                t::GetTaskResult::GetTaskResultFailed(failed) => {
                    let e = &failed.error;
                    let error = ErrorObject::new(e.code, e.message.clone());
                    return Err(match &e.data {
                        Some(data) => error.with_data(data.clone()),
                        None => error,
                    });
                }
                t::GetTaskResult::GetTaskResultCancelled(_) => {
                    return Err(ErrorObject::internal_error(format!(
                        "the task {task_id} was cancelled"
                    )));
                }
                t::GetTaskResult::GetTaskResultInputRequired(asking) => {
                    let new: Vec<_> = asking
                        .input_requests
                        .iter()
                        .filter(|(key, _)| !asked.contains(*key))
                        .collect();
                    if !new.is_empty() {
                        rounds += 1;
                        if rounds > TASK_INPUT_ROUNDS {
                            return Err(ErrorObject::internal_error(format!(
                                "the task {task_id} asked for input more than {TASK_INPUT_ROUNDS} times"
                            )));
                        }
                        let declared = self.capabilities();
                        let mut answers = Map::new();
                        for (key, request) in new {
                            let request = serde_json::to_value(request)
                                .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
                            let method = request
                                .get("method")
                                .and_then(Value::as_str)
                                .unwrap_or_default();
                            if !capability_of(method).is_some_and(|c| declared.contains_key(c)) {
                                return Err(ErrorObject::internal_error(format!(
                                    "the task {task_id} asks for `{method}`, which this client did \
                                     not declare it answers"
                                )));
                            }
                            // A request made for a task says so (2025-11-25's `related-task`).
                            let mut params =
                                request.get("params").cloned().unwrap_or_else(|| json!({}));
                            if let Some(p) = params.as_object_mut() {
                                let meta = p.entry("_meta").or_insert_with(|| json!({}));
                                if let Some(m) = meta.as_object_mut() {
                                    m.insert(
                                        "io.modelcontextprotocol/related-task".into(),
                                        json!({"taskId": task_id}),
                                    );
                                }
                            }
                            let answer =
                                peer.request_raw(method, Some(params)).await.map_err(|e| {
                                    ErrorObject::internal_error(format!(
                                        "asking the client ({method}): {e}"
                                    ))
                                })?;
                            answers.insert(key.clone(), answer.to_value());
                            asked.insert(key.clone());
                        }
                        let update = t::UpdateTaskRequestParams::new(task_id, answers);
                        self.tasks.update_task(update, self.cx(id, peer)).await?;
                    }
                    asking.poll_interval_ms
                }
                t::GetTaskResult::GetTaskResultWorking(w) => w.poll_interval_ms,
                t::GetTaskResult::Unknown(v) => {
                    return Err(ErrorObject::internal_error(format!(
                        "a task in a state 2025-11-25 does not know: {v}"
                    )));
                }
            };
            let wait = poll.unwrap_or(200).clamp(10, 5_000) as u64;
            futures_timer::Delay::new(Duration::from_millis(wait)).await;
        }
    }

    /// A request of the tasks of 2025-11-25, decoded by that version's decoder: its
    /// answer, or `None` for one the adapter serves (a call the handler makes no task of).
    async fn serve_request(
        &self,
        id: &Id,
        peer: &Peer,
        request: old::methods::ClientRequest,
    ) -> Option<Result<Value, ErrorObject>> {
        use old::methods::ClientRequest as R;
        let encode = |v: Result<t::GetTaskResult, ErrorObject>| {
            v.and_then(|r| task_of(&r)).and_then(|task| {
                serde_json::to_value(task).map_err(|e| ErrorObject::internal_error(e.to_string()))
            })
        };
        Some(match request {
            R::CallTool(p) => return self.call(id, peer, p).await,
            R::GetTask(p) => encode(self.get(id, peer, &p.task_id).await),
            R::GetTaskPayload(p) => self.result(id, peer, &p.task_id).await,
            R::CancelTask(p) => {
                let cancel = t::CancelTaskRequestParams::new(p.task_id.clone());
                match self.tasks.cancel_task(cancel, self.cx(id, peer)).await {
                    Ok(_) => encode(self.get(id, peer, &p.task_id).await),
                    Err(e) => Err(e),
                }
            }
            R::ListTasks(_) => Err(ErrorObject::new(
                method_not_found("tasks/list").code,
                "tasks/list has no counterpart in the tasks extension this server implements \
                 (2026-07-28): a client polls the tasks it created by their ids",
            )),
            _ => return None,
        })
    }
}

/// Declares 2025-11-25's task capabilities in an `initialize` answer: `tools/call` may be
/// a task, and a task may be cancelled.
fn declare(answer: String) -> String {
    mcp_spec_types::rt::extension::with_capability(
        answer,
        &["tasks"],
        json!({"cancel": {}, "requests": {"tools": {"call": {}}}}),
    )
}

impl<T: ServerHandler + Clone> Service for OlderTasks<T> {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        let head = inspect(message.as_bytes());
        let method = head.method().map(String::from);
        let id = match &head.route {
            mcp_spec_types::rt::service::Route::Request(id) => Some(id.clone()),
            _ => None,
        };
        match (method.as_deref(), id) {
            (Some("initialize"), _) => {
                // What the client declares is what its tasks may ask of it.
                if let Some(Value::Object(c)) = head
                    .param("capabilities")
                    .and_then(|c| serde_json::from_str(c).ok())
                {
                    *self.capabilities.lock().unwrap_or_else(|e| e.into_inner()) = c;
                }
                let inner = self.inner.clone();
                Box::pin(async move { inner.serve(peer, message).await.map(declare) })
            }
            // A call without `task` is the adapter's, unread here.
            (Some("tools/call"), _) if head.param("task").is_none() => {
                self.inner.clone().serve(peer, message)
            }
            // A request (it has an id) of 2025-11-25's tasks.
            (
                Some("tools/call" | "tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/list"),
                Some(_),
            ) => {
                Box::pin(async move {
                    let decoded = receive::<
                        old::methods::ClientRequest,
                        old::methods::ClientNotification,
                    >(message.as_bytes(), false);
                    let (id, request) = match decoded {
                        Received::One(Serve::Request { id, request, .. }) => (id, request),
                        // Params that do not fit: the decoder's -32602, with their path.
                        Received::One(Serve::Answer(answer)) => return Some(answer),
                        _ => return self.inner.clone().serve(peer, message).await,
                    };
                    match self.serve_request(&id, &peer, request).await {
                        Some(Ok(result)) => Some(respond(&id, Ok::<_, ErrorObject>(result))),
                        Some(Err(e)) => Some(refuse(&id, e)),
                        None => self.inner.clone().serve(peer, message).await,
                    }
                })
            }
            _ => self.inner.clone().serve(peer, message),
        }
    }
}
