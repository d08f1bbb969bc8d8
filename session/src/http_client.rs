//! Streamable HTTP for a client: every message to the server is a `POST` to its URL; the
//! answer to a request comes back on that POST, as JSON or as a server-sent-event stream
//! (which may carry the server's notifications and requests first). Both lifecycle eras:
//!
//! - the session id the server gives in answer to `initialize` (`Mcp-Session-Id`) goes
//!   on every later POST, and the protocol version `initialize` settled on goes in
//!   `Mcp-Protocol-Version`; once `notifications/initialized` is sent, a `GET` stream is
//!   opened for what the server sends outside any request (a server that offers none
//!   answers 405, and that is that);
//! - a notification or a response is POSTed, and answered, before the next message goes
//!   (so `notifications/initialized` reaches the server before the requests after it,
//!   and the `GET` stream is open by then); a request's POST is sent in its own task, so
//!   a message sent after a request may overtake it;
//! - a request that carries its protocol version in `_meta` (the discover era) gets it
//!   in `Mcp-Protocol-Version`;
//! - every POST names its method in `Mcp-Method`, and `tools/call`, `prompts/get` and
//!   `resources/read` their tool, prompt or resource in `Mcp-Name`;
//! - a tool whose input schema marks a property with `x-mcp-header` (learnt from every
//!   `tools/list` answer) gets that argument in `Mcp-Param-<name>` on `tools/call`: as
//!   text when it is printable ASCII without space at either end, else as
//!   `=?base64?...?=`; an argument that is null or absent sends no header. A tool whose
//!   declarations break the rules (an empty or duplicate name, a character outside
//!   printable ASCII or a `:`, a property that is not a string, integer or boolean) is
//!   listed by [`HttpClient::invalid_tools`] and gets no such headers.
//!
//! An event stream that ends before the answer to its request came is resumed: after the
//! `retry` the server asked for (else one second), a `GET` with `Last-Event-ID` continues
//! it, up to three times. An HTTP failure, or a status with no JSON-RPC answer in it, fails
//! the request with an error that says what happened (-32603, with the status).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_channel::mpsc;
use futures_util::{Stream, StreamExt};
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id};
use mcp_spec_types::rt::service::{Route, Service, TransportError, refuse, route};
use mcp_spec_types::version::PROTOCOL_VERSION_META_KEY;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderValue};
use serde_json::Value;
#[cfg(test)]
use serde_json::json;

use crate::wire::{
    METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER, answers, named,
};
use crate::{Builder, Session, Tokio};

/// How many times in a row an event stream that ended early is resumed without bringing
/// anything new.
const RESUMES: usize = 3;
/// The longest wait before a resumption the client accepts from a server's `retry`.
const MAX_RETRY: Duration = Duration::from_secs(30);

/// What the connection has learnt from the server.
#[derive(Default)]
struct Learnt {
    session: Option<String>,
    version: Option<String>,
    /// The id of the `initialize` request in flight, whose answer settles the version.
    initialize: Option<Id>,
    get_opened: bool,
    /// The ids of the `tools/list` requests in flight, whose answers say which arguments
    /// go in headers.
    tool_lists: Vec<Id>,
    /// Per tool: (argument, header name after `Mcp-Param-`).
    param_headers: std::collections::HashMap<String, Vec<(String, String)>>,
    invalid_tools: std::collections::BTreeSet<String>,
}

struct Shared {
    url: String,
    http: reqwest::Client,
    headers: HeaderMap,
    learnt: Mutex<Learnt>,
    /// To the session: waits while it is serving [`Limits::requests_in_flight`] and has
    /// [`Limits::outgoing`] more queued.
    incoming: tokio::sync::mpsc::Sender<String>,
    /// The longest message taken from the server ([`Limits::message_size`]).
    max: usize,
    /// The authorization, when the server may ask for one.
    #[cfg(feature = "auth-client")]
    auth: Option<crate::auth_client::OAuth>,
}

/// A client's connection to a Streamable HTTP server: [`session`](HttpClient::session)
/// calls the server; [`close`](HttpClient::close) ends the session (`DELETE` when the
/// server gave one) and fails what is still pending.
pub struct HttpClient {
    shared: Arc<Shared>,
    session: Session,
    task: tokio::task::JoinHandle<()>,
    stop: Option<futures_channel::oneshot::Sender<()>>,
}

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient")
            .field("url", &self.shared.url)
            .field("session", &self.lock().session)
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// Connects to the server at `url`, serving its requests with `service` (a version's
    /// `handlers::Client::new(handler)`). Nothing is sent yet: the first request is.
    /// Call it inside a tokio runtime (it starts the connection's tasks; outside one it
    /// panics, as `tokio::spawn` does).
    pub fn connect<S: Service>(url: &str, service: S) -> Self {
        HttpClient::connect_with(Session::builder(), url, HeaderMap::new(), service)
    }

    /// [`connect`](HttpClient::connect) with other session limits or an observer, and
    /// `headers` sent on every request (an `Authorization`, say).
    pub fn connect_with<S: Service>(
        builder: Builder,
        url: &str,
        headers: HeaderMap,
        service: S,
    ) -> Self {
        HttpClient::start(
            builder,
            url,
            headers,
            service,
            #[cfg(feature = "auth-client")]
            None,
        )
    }

    /// [`connect_with`](HttpClient::connect_with) to a server that may require
    /// authorization: a request it answers 401 (or 403 `insufficient_scope`) is
    /// authorized with `auth` and sent again, as the
    /// [`auth_client`](crate::auth_client) module describes; every request carries the
    /// token `auth` keeps for this server.
    #[cfg(feature = "auth-client")]
    pub fn connect_authorized<S: Service>(
        builder: Builder,
        url: &str,
        headers: HeaderMap,
        service: S,
        auth: crate::auth_client::OAuth,
    ) -> Self {
        HttpClient::start(builder, url, headers, service, Some(auth))
    }

    fn start<S: Service>(
        builder: Builder,
        url: &str,
        headers: HeaderMap,
        service: S,
        #[cfg(feature = "auth-client")] auth: Option<crate::auth_client::OAuth>,
    ) -> Self {
        let limits = builder.limits_of();
        let (incoming, mut received) = tokio::sync::mpsc::channel(limits.outgoing.max(1));
        let shared = Arc::new(Shared {
            url: url.to_string(),
            http: reqwest::Client::new(),
            headers,
            learnt: Mutex::new(Learnt::default()),
            incoming,
            max: limits.message_size,
            #[cfg(feature = "auth-client")]
            auth,
        });
        // One writer, so that the server sees messages in the order they were sent: a
        // notification or a response is POSTed before anything after it; a request's POST
        // goes on by itself once sent (its answer may take long).
        let (outgoing, mut queue) = mpsc::unbounded::<String>();
        let writer = shared.clone();
        tokio::spawn(async move {
            while let Some(text) = queue.next().await {
                if matches!(route(text.as_bytes()), Route::Request(_)) {
                    tokio::spawn(post(writer.clone(), text));
                } else {
                    post(writer.clone(), text).await;
                }
            }
        });
        let session = builder.build(move |text| {
            let sent = outgoing
                .unbounded_send(text)
                .map_err(|_| TransportError::new("the connection is closed"));
            Box::pin(std::future::ready(sent))
        });
        let (stop, stopped) = futures_channel::oneshot::channel::<()>();
        let run = session.clone();
        let received = futures_util::stream::poll_fn(move |cx| received.poll_recv(cx));
        let received = received.take_until(stopped);
        let task = tokio::spawn(async move {
            run.run(received, Arc::new(service), &Tokio).await;
        });
        HttpClient {
            shared,
            session,
            task,
            stop: Some(stop),
        }
    }

    /// The session: its [`peer`](Session::peer) calls the server.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The tools of the server whose `x-mcp-header` declarations break the rules (see
    /// the module's documentation): a client should not call them.
    pub fn invalid_tools(&self) -> Vec<String> {
        self.lock().invalid_tools.iter().cloned().collect()
    }

    /// The session id the server gave, if any.
    pub fn session_id(&self) -> Option<String> {
        self.lock().session.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Learnt> {
        self.shared.learnt.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the connection: `DELETE` on the session the server gave (if any), and every
    /// call still waiting fails.
    pub async fn close(mut self) {
        let session = self.lock().session.clone();
        if let Some(session) = session {
            let headers = self.shared.headers(&Outgoing::none());
            let _ = self
                .shared
                .http
                .delete(&self.shared.url)
                .headers(headers)
                .header(SESSION_HEADER, session)
                .send()
                .await;
        }
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// What the headers of one POST say about its message.
struct Outgoing {
    id: Option<Id>,
    method: Option<String>,
    name: Option<String>,
    version: Option<String>,
    arguments: Option<Value>,
}

impl Outgoing {
    /// The headers of a message-less request (`GET`, `DELETE`).
    fn none() -> Outgoing {
        Outgoing {
            id: None,
            method: None,
            name: None,
            version: None,
            arguments: None,
        }
    }
}

fn outgoing(text: &str) -> Outgoing {
    let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let method = value
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let params = value.get("params");
    let name = named(method.as_deref(), params);
    let version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY));
    Outgoing {
        id: match route(text.as_bytes()) {
            Route::Request(id) => Some(id),
            _ => None,
        },
        method,
        name: name.and_then(Value::as_str).map(str::to_owned),
        version: version.and_then(Value::as_str).map(str::to_owned),
        arguments: params.and_then(|p| p.get("arguments")).cloned(),
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Learnt> {
        self.learnt.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands a message from the server to the session, learning the version from the
    /// answer to `initialize`.
    async fn receive(&self, text: String) {
        if let Route::Response(id) = route(text.as_bytes()) {
            let mut learnt = self.lock();
            if learnt.initialize.as_ref() == Some(&id) {
                learnt.initialize = None;
                let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if let Some(v) = value
                    .pointer("/result/protocolVersion")
                    .and_then(Value::as_str)
                {
                    learnt.version = Some(v.to_string());
                }
            }
            if let Some(i) = learnt.tool_lists.iter().position(|t| *t == id) {
                learnt.tool_lists.swap_remove(i);
                let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                for tool in value
                    .pointer("/result/tools")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let Some(name) = tool.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    match param_headers(tool.get("inputSchema")) {
                        Ok(headers) => {
                            learnt.invalid_tools.remove(name);
                            learnt.param_headers.insert(name.to_string(), headers);
                        }
                        Err(()) => {
                            learnt.param_headers.remove(name);
                            learnt.invalid_tools.insert(name.to_string());
                        }
                    }
                }
            }
        }
        let _ = self.incoming.send(text).await;
    }

    /// Fails the request `id` with `message` (an HTTP failure: no JSON-RPC answer came).
    async fn fail(&self, id: &Option<Id>, message: String) {
        if let Some(id) = id {
            self.receive(refuse(id, ErrorObject::internal_error(message)))
                .await;
        }
    }

    fn headers(&self, out: &Outgoing) -> HeaderMap {
        let mut headers = self.headers.clone();
        #[cfg(feature = "auth-client")]
        authorization(
            &mut headers,
            self.auth.as_ref().map(|a| a.bearer(&self.url)).as_ref(),
        );
        let learnt = self.lock();
        let mut set = |name: &'static str, value: Option<&str>| {
            if let Some(value) = value.and_then(|v| HeaderValue::from_str(v).ok()) {
                headers.insert(name, value);
            }
        };
        set(SESSION_HEADER, learnt.session.as_deref());
        set(
            PROTOCOL_VERSION_HEADER,
            out.version.as_deref().or(learnt.version.as_deref()),
        );
        set(METHOD_HEADER, out.method.as_deref());
        set(NAME_HEADER, out.name.as_deref());
        let declared = out.name.as_ref().and_then(|n| learnt.param_headers.get(n));
        if let (Some("tools/call"), Some(declared)) = (out.method.as_deref(), declared) {
            for (argument, header) in declared {
                let value = out.arguments.as_ref().and_then(|a| a.get(argument));
                let Some(text) = value.and_then(header_value) else {
                    continue;
                };
                let name = reqwest::header::HeaderName::from_bytes(
                    format!("mcp-param-{header}").as_bytes(),
                );
                if let (Ok(name), Ok(value)) = (name, HeaderValue::from_str(&text)) {
                    headers.insert(name, value);
                }
            }
        }
        headers
    }
}

/// Sends one message and hands what answers it to the session.
async fn post(shared: Arc<Shared>, text: String) {
    let out = outgoing(&text);
    match (out.method.as_deref(), &out.id) {
        (Some("initialize"), id) => shared.lock().initialize = id.clone(),
        (Some("tools/list"), Some(id)) => shared.lock().tool_lists.push(id.clone()),
        _ => {}
    }
    #[cfg(feature = "auth-client")]
    let mut renewed = Renewed::default();
    // Sent again only when authorization asks for it.
    #[cfg_attr(not(feature = "auth-client"), allow(clippy::never_loop))]
    let response = loop {
        #[cfg(feature = "auth-client")]
        let bearer = shared.auth.as_ref().map(|a| a.bearer(&shared.url));
        #[cfg_attr(not(feature = "auth-client"), allow(unused_mut))]
        let mut headers = shared.headers(&out);
        #[cfg(feature = "auth-client")]
        authorization(&mut headers, bearer.as_ref());
        let response = shared
            .http
            .post(&shared.url)
            .headers(headers)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .body(text.clone())
            .send()
            .await;
        let response = match response {
            Ok(r) => r,
            Err(e) => {
                return shared
                    .fail(&out.id, format!("POST {}: {e}", shared.url))
                    .await;
            }
        };
        #[cfg(feature = "auth-client")]
        if let (Some(auth), Some(bearer)) = (&shared.auth, &bearer) {
            match renewed.renew(auth, &shared.url, bearer, &response).await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => {
                    return shared
                        .fail(&out.id, format!("authorizing with {}: {e}", shared.url))
                        .await;
                }
            }
        }
        break response;
    };
    if let Some(session) = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
    {
        shared.lock().session = Some(session.to_string());
    }
    let status = response.status();
    let sse = is_event_stream(response.headers());
    if sse {
        let ended = read_events(&shared, response.bytes_stream(), &out.id).await;
        if let (Some(id), Some(ended)) = (&out.id, ended) {
            let retry = ended.retry.unwrap_or(Duration::from_secs(1));
            let resume = Resume {
                last_event: ended.last_event,
                retry,
            };
            resume_stream(&shared, id, resume).await;
        }
    } else {
        let body = match read_body(response, shared.max).await {
            Ok(body) => body,
            Err(why) => return shared.fail(&out.id, why).await,
        };
        if body.trim().is_empty() {
            if out.id.is_some() {
                shared
                    .fail(&out.id, format!("HTTP {status} with no answer"))
                    .await;
            }
        } else if answers_post(&body, &out.id) {
            shared.receive(body).await;
        } else {
            // JSON that is not the answer (an authorization server's error, a proxy's
            // page), or not JSON at all: the call fails with what came.
            shared.fail(&out.id, format!("HTTP {status}: {body}")).await;
        }
    }
    if out.method.as_deref() == Some("notifications/initialized") {
        open_get(shared).await;
    }
}

/// Sets (or, with no token, removes) `Authorization: Bearer`.
#[cfg(feature = "auth-client")]
fn authorization(headers: &mut HeaderMap, bearer: Option<&crate::auth_client::Bearer>) {
    let token = bearer.and_then(|b| b.token.as_deref());
    match token.and_then(|t| HeaderValue::from_str(&format!("Bearer {t}")).ok()) {
        Some(mut value) => {
            value.set_sensitive(true);
            headers.insert(reqwest::header::AUTHORIZATION, value);
        }
        None if bearer.is_some() => {
            headers.remove(reqwest::header::AUTHORIZATION);
        }
        None => {}
    }
}

/// What one POST has done to be authorized.
#[cfg(feature = "auth-client")]
#[derive(Default)]
struct Renewed {
    /// Authorized after a 401 (once: a new token refused fails the request).
    unauthorized: bool,
    /// Step-ups after 403 `insufficient_scope`.
    step_ups: u32,
}

#[cfg(feature = "auth-client")]
impl Renewed {
    /// Whether `response` asks for authorization this POST may still try (then tried:
    /// `Ok(true)` means send it again).
    async fn renew(
        &mut self,
        auth: &crate::auth_client::OAuth,
        url: &str,
        bearer: &crate::auth_client::Bearer,
        response: &reqwest::Response,
    ) -> Result<bool, crate::auth_client::AuthError> {
        let values = response
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok());
        let challenge = crate::auth_client::Challenge::parse(values);
        let step_up = match response.status().as_u16() {
            401 if !self.unauthorized => {
                self.unauthorized = true;
                false
            }
            403 if challenge.error.as_deref() == Some("insufficient_scope")
                && self.step_ups < auth.step_ups() =>
            {
                self.step_ups += 1;
                true
            }
            _ => return Ok(false),
        };
        auth.renew(url, bearer, &challenge, step_up).await?;
        Ok(true)
    }
}

/// A response's body as text, when it is at most `max` bytes.
async fn read_body(response: reqwest::Response, max: usize) -> Result<String, String> {
    let mut body = std::pin::pin!(response.bytes_stream());
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| format!("reading the answer: {e}"))?;
        if bytes.len() + chunk.len() > max {
            return Err(format!(
                "the answer is longer than {max} bytes (Limits::message_size)"
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn is_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

/// Where to resume a stream that ended before its answer came.
struct Resume {
    last_event: Option<String>,
    retry: Duration,
}

/// What one event stream said about resuming it.
struct Ended {
    last_event: Option<String>,
    retry: Option<Duration>,
}

/// Reads an event stream, handing each message to the session. `None` once the answer to
/// `id` came (or there is no `id` to wait for); else what the stream said about resuming.
async fn read_events(
    shared: &Shared,
    body: impl Stream<Item = reqwest::Result<bytes::Bytes>>,
    id: &Option<Id>,
) -> Option<Ended> {
    let mut body = std::pin::pin!(body);
    let mut buffer: Vec<u8> = Vec::new();
    // Where the search for the next line break goes on from: a long line is scanned once.
    let mut scanned = 0;
    let mut data = String::new();
    let mut ended = Ended {
        last_event: None,
        retry: None,
    };
    let mut answered = false;
    while let Some(Ok(chunk)) = body.next().await {
        buffer.extend_from_slice(&chunk);
        while let Some(end) = buffer[scanned..].iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=scanned + end).collect();
            scanned = 0;
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                // The end of an event.
                if !data.trim().is_empty() {
                    let message = std::mem::take(&mut data);
                    answered |= id.as_ref().is_some_and(|id| answers(&message, id));
                    shared.receive(message).await;
                }
                data.clear();
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "data" => {
                    if !data.is_empty() {
                        data.push('\n');
                    }
                    data.push_str(value);
                }
                "id" => ended.last_event = Some(value.to_string()),
                "retry" => {
                    if let Ok(ms) = value.parse() {
                        ended.retry = Some(Duration::from_millis(ms));
                    }
                }
                _ => {}
            }
        }
        scanned = buffer.len();
        if answered {
            return None;
        }
        if buffer.len() + data.len() > shared.max {
            // An event longer than a message may be: not read further.
            let why = format!(
                "an event of the answer's stream is longer than {} bytes (Limits::message_size)",
                shared.max
            );
            shared.fail(id, why).await;
            return None;
        }
    }
    (id.is_some() && !answered).then_some(ended)
}

/// Whether `body` (the JSON body of a POST's answer) is the answer to request `id` (or,
/// with no request, any JSON at all).
fn answers_post(body: &str, id: &Option<Id>) -> bool {
    match id {
        Some(id) => answers(body, id),
        None => serde_json::from_str::<Value>(body).is_ok(),
    }
}

/// Resumes the stream of request `id` with `GET` and `Last-Event-ID` until its answer
/// comes, or fails the request.
async fn resume_stream(shared: &Shared, id: &Id, mut resume: Resume) {
    let mut fruitless = 0;
    while fruitless < RESUMES {
        if resume.last_event.is_none() {
            // Nothing to resume from: a GET would be a new stream, not this one.
            return shared
                .fail(
                    &Some(id.clone()),
                    "the answer's stream ended early and carried no event id to resume it from"
                        .to_string(),
                )
                .await;
        }
        tokio::time::sleep(resume.retry.min(MAX_RETRY)).await;
        let mut request = shared
            .http
            .get(&shared.url)
            .headers(shared.headers(&Outgoing::none()))
            .header(ACCEPT, "text/event-stream");
        if let Some(last) = &resume.last_event {
            request = request.header("last-event-id", last);
        }
        let response = match request.send().await {
            Ok(r) if r.status().is_success() && is_event_stream(r.headers()) => r,
            Ok(r) => {
                let status = r.status();
                return shared
                    .fail(
                        &Some(id.clone()),
                        format!(
                            "the answer's stream ended early and GET to resume it got HTTP {status}"
                        ),
                    )
                    .await;
            }
            Err(e) => {
                return shared
                    .fail(&Some(id.clone()), format!("GET {}: {e}", shared.url))
                    .await;
            }
        };
        let retry = resume.retry;
        match read_events(shared, response.bytes_stream(), &Some(id.clone())).await {
            None => return,
            Some(next) => {
                // A resumption that brought events starts the count again.
                let moved = next.last_event.is_some() && next.last_event != resume.last_event;
                fruitless = if moved { 0 } else { fruitless + 1 };
                resume = Resume {
                    last_event: next.last_event.or(resume.last_event),
                    retry: next.retry.unwrap_or(retry),
                }
            }
        }
    }
    shared
        .fail(
            &Some(id.clone()),
            format!("the answer's stream was resumed {RESUMES} times in a row with nothing new"),
        )
        .await;
}

/// Opens the `GET` stream of the session (once), for what the server sends outside any
/// request, in the background. A server that offers none says so (405), and that ends it.
async fn open_get(shared: Arc<Shared>) {
    {
        let mut learnt = shared.lock();
        if learnt.get_opened || learnt.session.is_none() {
            return;
        }
        learnt.get_opened = true;
    }
    let request = shared
        .http
        .get(&shared.url)
        .headers(shared.headers(&Outgoing::none()))
        .header(ACCEPT, "text/event-stream");
    // Waited for (a while), so that the stream is there before the next message goes.
    let Ok(Ok(response)) = tokio::time::timeout(Duration::from_secs(2), request.send()).await
    else {
        return;
    };
    if response.status().is_success() && is_event_stream(response.headers()) {
        tokio::spawn(async move {
            read_events(&shared, response.bytes_stream(), &None).await;
        });
    }
}

/// A tool's `x-mcp-header` declarations: (argument, header name), or `Err` when one
/// breaks the rules.
fn param_headers(schema: Option<&Value>) -> Result<Vec<(String, String)>, ()> {
    let mut found: Vec<(String, String)> = Vec::new();
    let properties = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    for (argument, property) in properties.into_iter().flatten() {
        let Some(header) = property.get("x-mcp-header") else {
            continue;
        };
        let header = header.as_str().ok_or(())?;
        let allowed = |c: char| c.is_ascii_graphic() && c != ':';
        let primitive = matches!(
            property.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "boolean")
        );
        let unique = !found.iter().any(|(_, h)| h.eq_ignore_ascii_case(header));
        if header.is_empty() || !header.chars().all(allowed) || !primitive || !unique {
            return Err(());
        }
        found.push((argument.clone(), header.to_string()));
    }
    Ok(found)
}

/// An argument as an `Mcp-Param-*` header value; `None` for null (no header).
fn header_value(value: &Value) -> Option<String> {
    Some(match value {
        Value::Null => return None,
        Value::String(s) => {
            let plain = s.chars().all(|c| (' '..='~').contains(&c))
                && !s.starts_with(' ')
                && !s.ends_with(' ');
            if plain {
                s.clone()
            } else {
                format!("=?base64?{}?=", base64(s.as_bytes()))
            }
        }
        other => other.to_string(),
    })
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_rfc_4648_says() {
        // RFC 4648, section 10.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn header_values() {
        assert_eq!(header_value(&json!("us-west1")).unwrap(), "us-west1");
        assert_eq!(header_value(&json!("us west 1")).unwrap(), "us west 1");
        assert_eq!(
            header_value(&json!(" padded ")).unwrap(),
            "=?base64?IHBhZGRlZCA=?="
        );
        assert_eq!(header_value(&json!("a\tb")).unwrap(), "=?base64?YQli?=");
        assert_eq!(header_value(&json!("")).unwrap(), "");
        assert_eq!(header_value(&json!(42)).unwrap(), "42");
        assert_eq!(header_value(&json!(false)).unwrap(), "false");
        assert_eq!(header_value(&Value::Null), None);
    }

    #[test]
    fn declarations_that_break_the_rules() {
        let tool = |props: Value| param_headers(Some(&json!({"properties": props})));
        let ok = tool(json!({"r": {"type": "string", "x-mcp-header": "Region"}}));
        assert_eq!(ok, Ok(vec![("r".into(), "Region".into())]));
        for bad in [
            json!({"r": {"type": "string", "x-mcp-header": ""}}),
            json!({"r": {"type": "object", "x-mcp-header": "R"}}),
            json!({"r": {"type": "number", "x-mcp-header": "R"}}),
            json!({"r": {"type": "string", "x-mcp-header": "A B"}}),
            json!({"r": {"type": "string", "x-mcp-header": "a:b"}}),
            json!({"r": {"type": "string", "x-mcp-header": "Région"}}),
            json!({"a": {"type": "string", "x-mcp-header": "My"}, "b": {"type": "string", "x-mcp-header": "my"}}),
        ] {
            assert_eq!(tool(bad.clone()), Err(()), "{bad}");
        }
    }
}
