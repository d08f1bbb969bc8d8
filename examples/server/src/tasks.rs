//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the example server:
//! the fixtures the official conformance suite's `tasks-*` scenarios call, served by a
//! [`ServerHandler`] of `mcp_spec_types::ext::tasks` in front of the server's 2026-07-28
//! handler.
//!
//! A client that declares the extension in a request gets a task for a tool that runs
//! long (`slow_compute`, `failing_job`, `protocol_error_job`, `confirm_delete`,
//! `multi_input`, `test_tool_with_task` once its input is gathered): a
//! `CreateTaskResult` at once, then `tasks/get` for its state, `tasks/update` for the
//! input it asks, `tasks/cancel`. A client that does not gets the answer in the call
//! itself where the tool can give one (`slow_compute`), and -32021 where it cannot (the
//! others: their tasks are required). A `subscriptions/listen` that names tasks
//! (`notifications.taskIds`) gets `notifications/tasks` at each change of their state
//! ([`Tasks::follow`]).
//!
//! Bounds: [`MAX_TASKS`] tasks kept at once (beyond, the one that ended first is forgotten;
//! with that many running, a new one is refused with -32603), each kept [`TTL_MS`] from its
//! creation (then forgotten, and its work, if it waits for input, stopped); a
//! `slow_compute` runs at most [`MAX_SECONDS`].

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_spec_types::ext::tasks as t;
use mcp_spec_types::rt::extension::{declared, missing};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Peer, RequestContext};
use mcp_spec_types::v2026_07_28 as v;
use serde_json::{Map, Value, json};
use t::handlers::{EXTENSION, ServerHandler};

/// Tasks kept at once.
pub const MAX_TASKS: usize = 256;
/// How long a task is kept from its creation, in milliseconds (its `ttlMs`).
pub const TTL_MS: i64 = 10 * 60 * 1000;
/// The polling interval the server suggests, in milliseconds.
pub const POLL_MS: i64 = 200;
/// The longest `slow_compute` runs, in seconds.
pub const MAX_SECONDS: u64 = 600;

/// The tools whose work is a task: a client that does not declare the extension cannot
/// call them, but `slow_compute`, which answers in the call itself.
const TASK_TOOLS: &[&str] = &[
    "slow_compute",
    "failing_job",
    "protocol_error_job",
    "confirm_delete",
    "multi_input",
    "test_tool_with_task",
];

/// The tools of the tasks scenarios, for `tools/list`.
pub fn tools() -> Vec<v::Tool> {
    let tool = |name: &str, description: &str, properties: Value| {
        let schema = serde_json::from_value(json!({"type": "object", "properties": properties}))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        v::Tool {
            description: Some(description.into()),
            ..v::Tool::new(name, schema)
        }
    };
    vec![
        tool(
            "greet",
            "Greets, at once",
            json!({"name": {"type": "string"}}),
        ),
        tool(
            "slow_compute",
            "Sleeps `seconds` (at most 600), then answers; a task for a client that declares the tasks extension",
            json!({"seconds": {"type": "number"}, "label": {"type": "string"}}),
        ),
        tool(
            "failing_job",
            "A task whose tool fails after a second",
            json!({}),
        ),
        tool(
            "protocol_error_job",
            "A task that fails with a protocol error",
            json!({}),
        ),
        tool(
            "confirm_delete",
            "A task that asks the user to confirm",
            json!({}),
        ),
        tool(
            "multi_input",
            "A task that asks two questions at once",
            json!({}),
        ),
        tool(
            "test_tool_with_task",
            "Asks for the user's name in the call, then becomes a task",
            json!({}),
        ),
    ]
}

/// The answer of a task tool in the call itself (a client that did not declare the
/// extension, or a first round of input): `None` for a tool that is not one of them.
pub async fn call_in_place(
    name: &str,
    args: &Map<String, Value>,
    input: Option<&v::InputResponses>,
) -> Option<Result<v::CallToolOutcome, ErrorObject>> {
    let text = |text: String| {
        let result = v::CallToolResult::new("complete", vec![v::ContentBlock::text(text)]);
        Some(Ok(result.into()))
    };
    match name {
        "greet" => text(greeting(args)),
        "slow_compute" => {
            tokio::time::sleep(Duration::from_secs(seconds(args))).await;
            text(computed(args))
        }
        // A tool that asks its input in the call first (SEP-2322), then becomes a task.
        "test_tool_with_task" if input.is_none_or(|i| !i.contains_key(USER_NAME)) => {
            let mut result = v::InputRequiredResult::new("input_required");
            result.input_requests = Some(BTreeMap::from([(
                USER_NAME.to_string(),
                elicit("What is your name?", "name", "string"),
            )]));
            Some(Ok(result.into()))
        }
        _ if TASK_TOOLS.contains(&name) => Some(Err(missing(EXTENSION))),
        _ => None,
    }
}

const USER_NAME: &str = "user_name";

fn greeting(args: &Map<String, Value>) -> String {
    let name = args.get("name").and_then(Value::as_str).unwrap_or("World");
    format!("Hello, {name}!")
}

fn seconds(args: &Map<String, Value>) -> u64 {
    let s = args.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
    (s.max(0.0) as u64).min(MAX_SECONDS)
}

fn computed(args: &Map<String, Value>) -> String {
    let label = args.get("label").and_then(Value::as_str).unwrap_or("");
    format!("Computed {label} in {} s", seconds(args))
}

/// An elicitation of one field, as an input request.
fn elicit(message: &str, field: &str, kind: &str) -> v::InputRequest {
    serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {field: {"type": kind}},
                "required": [field]
            }
        }
    }))
    .unwrap_or_else(|e| panic!("an elicitation is an input request: {e}"))
}

/// What one answer to an elicitation says, for a result's text.
fn answered(response: &v::InputResponse) -> String {
    let value = serde_json::to_value(response).unwrap_or_default();
    match value.get("content") {
        Some(content) => content.to_string(),
        None => value
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or("no answer")
            .to_string(),
    }
}

/// The state of a task.
#[derive(Debug, Clone)]
enum Status {
    Working,
    InputRequired,
    Completed(Map<String, Value>),
    Failed(v::ErrorObject),
    Cancelled,
}

impl Status {
    fn terminal(&self) -> bool {
        matches!(
            self,
            Status::Completed(_) | Status::Failed(_) | Status::Cancelled
        )
    }
}

#[derive(Debug)]
struct Entry {
    status: Status,
    created_at: String,
    updated_at: String,
    born: Instant,
    /// Input asked and not yet answered, by key.
    pending: BTreeMap<String, v::InputRequest>,
    /// Answers given and not yet taken by the work.
    answers: BTreeMap<String, v::InputResponse>,
    wake: Arc<tokio::sync::Notify>,
}

/// The tasks of the server, shared by every connection (a task outlives the request
/// that created it).
#[derive(Debug, Default, Clone)]
pub struct Tasks {
    tasks: Arc<Mutex<HashMap<String, Entry>>>,
}

/// Now, as ISO 8601 in UTC to the second.
fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

/// A task id no one can guess: 128 bits from the operating system.
fn task_id() -> Result<String, ErrorObject> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ErrorObject::internal_error(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn unknown(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Failed to retrieve task: no task `{id}` (unknown, or expired)"
    ))
}

impl Tasks {
    /// The tasks, the expired ones gone (their work, if it waits for input, woken to see
    /// it is gone).
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        let ttl = Duration::from_millis(TTL_MS as u64);
        tasks.retain(|_, e| {
            let keep = e.born.elapsed() < ttl;
            if !keep {
                e.wake.notify_one();
            }
            keep
        });
        tasks
    }

    /// A new task, working. With [`MAX_TASKS`] kept, the one that ended first is
    /// forgotten to make room; with that many running, the new one is refused.
    fn create(&self) -> Result<(String, String), ErrorObject> {
        let id = task_id()?;
        let at = now();
        let mut tasks = self.lock();
        if tasks.len() >= MAX_TASKS {
            let oldest_ended = tasks
                .iter()
                .filter(|(_, e)| e.status.terminal())
                .min_by_key(|(_, e)| e.born)
                .map(|(id, _)| id.clone());
            match oldest_ended {
                Some(old) => {
                    tasks.remove(&old);
                }
                None => {
                    return Err(ErrorObject::internal_error(format!(
                        "too many tasks: this server runs {MAX_TASKS} at once; try again when one ends"
                    )));
                }
            }
        }
        tasks.insert(
            id.clone(),
            Entry {
                status: Status::Working,
                created_at: at.clone(),
                updated_at: at.clone(),
                born: Instant::now(),
                pending: BTreeMap::new(),
                answers: BTreeMap::new(),
                wake: Arc::new(tokio::sync::Notify::new()),
            },
        );
        Ok((id, at))
    }

    /// Ends a task that is still running (one cancelled stays cancelled).
    fn finish(&self, id: &str, status: Status) {
        if let Some(e) = self.lock().get_mut(id) {
            if !e.status.terminal() {
                e.status = status;
                e.pending.clear();
                e.updated_at = now();
            }
        }
    }

    fn cancelled(&self, id: &str) -> bool {
        self.lock()
            .get(id)
            .is_none_or(|e| matches!(e.status, Status::Cancelled))
    }

    /// Asks the client for input and waits until every request is answered (`None`: the
    /// task was cancelled or is gone).
    async fn ask(
        &self,
        id: &str,
        requests: BTreeMap<String, v::InputRequest>,
    ) -> Option<BTreeMap<String, v::InputResponse>> {
        let keys: Vec<String> = requests.keys().cloned().collect();
        let wake = {
            let mut tasks = self.lock();
            let e = tasks.get_mut(id)?;
            // A task cancelled before its work asks stays cancelled.
            if e.status.terminal() {
                return None;
            }
            e.pending = requests;
            e.status = Status::InputRequired;
            e.updated_at = now();
            e.wake.clone()
        };
        loop {
            let notified = wake.notified();
            {
                let mut tasks = self.lock();
                let e = tasks.get_mut(id)?;
                if e.status.terminal() {
                    return None;
                }
                if keys.iter().all(|k| e.answers.contains_key(k)) {
                    e.status = Status::Working;
                    e.updated_at = now();
                    return Some(std::mem::take(&mut e.answers));
                }
            }
            notified.await;
        }
    }

    /// Sleeps `seconds`, a tenth of a second at a time; `false` when the task was
    /// cancelled meanwhile.
    async fn sleep(&self, id: &str, seconds: u64) -> bool {
        let until = Instant::now() + Duration::from_secs(seconds);
        while Instant::now() < until {
            if self.cancelled(id) {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        !self.cancelled(id)
    }

    /// The work of a task tool, on its own.
    async fn run(
        self,
        id: String,
        name: String,
        args: Map<String, Value>,
        input: Option<v::InputResponses>,
    ) {
        let done = |text: String, is_error: bool| {
            let mut result = v::CallToolResult::new("complete", vec![v::ContentBlock::text(text)]);
            result.is_error = Some(is_error);
            match serde_json::to_value(result) {
                Ok(Value::Object(map)) => Status::Completed(map),
                _ => Status::Failed(v::ErrorObject::new("the result did not encode", -32603)),
            }
        };
        let status = match name.as_str() {
            "slow_compute" => {
                if !self.sleep(&id, seconds(&args)).await {
                    return;
                }
                done(computed(&args), false)
            }
            "failing_job" => {
                if !self.sleep(&id, 1).await {
                    return;
                }
                done("failing_job failed, as it always does".into(), true)
            }
            "protocol_error_job" => {
                if !self.sleep(&id, 1).await {
                    return;
                }
                Status::Failed(v::ErrorObject::new(
                    "protocol_error_job: the work broke down",
                    -32603,
                ))
            }
            "confirm_delete" => {
                let ask = BTreeMap::from([(
                    format!("confirm-{id}"),
                    elicit("Delete everything?", "confirm", "boolean"),
                )]);
                let Some(answers) = self.ask(&id, ask).await else {
                    return;
                };
                let answer = answers.values().next().map(answered).unwrap_or_default();
                done(format!("confirm_delete: the user answered {answer}"), false)
            }
            "multi_input" => {
                let ask = BTreeMap::from([
                    (
                        format!("first-{id}"),
                        elicit("First question?", "first", "string"),
                    ),
                    (
                        format!("second-{id}"),
                        elicit("Second question?", "second", "string"),
                    ),
                ]);
                let Some(answers) = self.ask(&id, ask).await else {
                    return;
                };
                let text: Vec<String> = answers
                    .iter()
                    .map(|(k, a)| format!("{k}: {}", answered(a)))
                    .collect();
                done(format!("multi_input: {}", text.join("; ")), false)
            }
            "test_tool_with_task" => {
                let name = input
                    .as_ref()
                    .and_then(|i| i.get(USER_NAME))
                    .map(answered)
                    .unwrap_or_default();
                if !self.sleep(&id, 1).await {
                    return;
                }
                done(format!("Hello from the task, {name}"), false)
            }
            _ => Status::Failed(v::ErrorObject::new(
                format!("no task work for `{name}`"),
                -32603,
            )),
        };
        self.finish(&id, status);
    }

    /// The task as `tasks/get` answers it.
    fn detailed(&self, id: &str) -> Result<t::GetTaskResult, ErrorObject> {
        let tasks = self.lock();
        let e = tasks.get(id).ok_or_else(|| unknown(id))?;
        let (c, u, ttl) = (e.created_at.clone(), e.updated_at.clone(), Some(TTL_MS));
        let poll = Some(POLL_MS);
        Ok(match &e.status {
            Status::Working => t::GetTaskResult::GetTaskResultWorking(t::GetTaskResultWorking {
                poll_interval_ms: poll,
                ..t::GetTaskResultWorking::new(c, u, id, ttl)
            }),
            Status::InputRequired => {
                t::GetTaskResult::GetTaskResultInputRequired(t::GetTaskResultInputRequired {
                    poll_interval_ms: poll,
                    ..t::GetTaskResultInputRequired::new(c, u, id, e.pending.clone(), ttl)
                })
            }
            Status::Completed(result) => {
                t::GetTaskResult::GetTaskResultCompleted(t::GetTaskResultCompleted {
                    poll_interval_ms: poll,
                    ..t::GetTaskResultCompleted::new(c, u, id, result.clone(), ttl)
                })
            }
            Status::Failed(error) => {
                t::GetTaskResult::GetTaskResultFailed(t::GetTaskResultFailed {
                    poll_interval_ms: poll,
                    status_message: Some(error.message.clone()),
                    ..t::GetTaskResultFailed::new(c, u, id, error.clone(), ttl)
                })
            }
            Status::Cancelled => {
                t::GetTaskResult::GetTaskResultCancelled(t::GetTaskResultCancelled {
                    poll_interval_ms: poll,
                    ..t::GetTaskResultCancelled::new(c, u, id, ttl)
                })
            }
        })
    }
}

impl Tasks {
    /// The ids of `ids` this server knows, for a listener's acknowledgement (at most
    /// [`MAX_TASKS`]).
    pub fn known(&self, ids: &[String]) -> Vec<String> {
        let tasks = self.lock();
        let known: std::collections::BTreeSet<&String> =
            ids.iter().filter(|id| tasks.contains_key(*id)).collect();
        known.into_iter().cloned().collect()
    }

    /// Sends `notifications/tasks` to `peer` for each task of `ids` whenever its state
    /// changes (the first state included), each the task as `tasks/get` would give it; it
    /// looks every 100 ms while one of them runs, and returns when every one has ended
    /// and been sent (or is gone).
    pub async fn follow(&self, ids: Vec<String>, peer: &Peer) {
        let mut sent: HashMap<String, String> = HashMap::new();
        loop {
            let mut running = false;
            for id in &ids {
                let Ok(state) = self.detailed(id) else {
                    continue;
                };
                let Ok(Value::Object(mut params)) = serde_json::to_value(&state) else {
                    continue;
                };
                // A notification's params say no `resultType`.
                params.remove("resultType");
                let status = params
                    .get("status")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                running |= matches!(status, "working" | "input_required");
                let seen = format!(
                    "{status} {}",
                    params
                        .get("lastUpdatedAt")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                );
                if sent.get(id) != Some(&seen) {
                    let Ok(params) = serde_json::from_value::<t::TaskStatusNotificationParams>(
                        Value::Object(params),
                    ) else {
                        continue;
                    };
                    if peer
                        .notify::<t::methods::TaskStatus>(Some(&params))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    sent.insert(id.clone(), seen);
                }
            }
            if !running {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl ServerHandler for Tasks {
    async fn call_tool(
        &self,
        params: &v::CallToolRequestParams,
        cx: RequestContext<Peer>,
    ) -> Result<Option<t::CreateTaskResult>, ErrorObject> {
        let name = params.name.as_str();
        if !TASK_TOOLS.contains(&name) || !declared(cx.meta.as_ref(), EXTENSION) {
            // The call answers itself, or says the extension is needed.
            return Ok(None);
        }
        let input = params.input_responses.clone();
        if name == "test_tool_with_task"
            && input.as_ref().is_none_or(|i| !i.contains_key(USER_NAME))
        {
            // Its input is asked in the call first.
            return Ok(None);
        }
        let (id, at) = self.create()?;
        let args = params.arguments.clone().unwrap_or_default();
        tokio::spawn(self.clone().run(id.clone(), name.to_string(), args, input));
        Ok(Some(t::CreateTaskResult {
            poll_interval_ms: Some(POLL_MS),
            ..t::CreateTaskResult::new(at.clone(), at, id, t::TaskStatus::Working, Some(TTL_MS))
        }))
    }

    async fn get_task(
        &self,
        params: t::GetTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::GetTaskResult, ErrorObject> {
        self.detailed(&params.task_id)
    }

    async fn update_task(
        &self,
        params: t::UpdateTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::UpdateTaskResult, ErrorObject> {
        let mut tasks = self.lock();
        let e = tasks
            .get_mut(&params.task_id)
            .ok_or_else(|| unknown(&params.task_id))?;
        // Answers to what is not asked (never, or answered already) are ignored unread;
        // an answer to what is asked must be one.
        let mut answers = BTreeMap::new();
        for (key, response) in params.input_responses {
            if e.pending.contains_key(&key) {
                let response =
                    mcp_spec_types::rt::path::from_str::<v::InputResponse>(&response.to_string())
                        .map_err(|err| {
                        ErrorObject::invalid_params(format!("inputResponses[{key:?}]: {err}"))
                    })?;
                answers.insert(key, response);
            }
        }
        for (key, response) in answers {
            e.pending.remove(&key);
            e.answers.insert(key, response);
        }
        e.updated_at = now();
        e.wake.notify_one();
        Ok(t::UpdateTaskResult::new())
    }

    async fn cancel_task(
        &self,
        params: t::CancelTaskRequestParams,
        _: RequestContext<Peer>,
    ) -> Result<t::CancelTaskResult, ErrorObject> {
        let mut tasks = self.lock();
        let e = tasks
            .get_mut(&params.task_id)
            .ok_or_else(|| unknown(&params.task_id))?;
        if !e.status.terminal() {
            e.status = Status::Cancelled;
            e.pending.clear();
            e.updated_at = now();
            e.wake.notify_one();
        }
        Ok(t::CancelTaskResult::new())
    }
}
