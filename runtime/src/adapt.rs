//! Adapters: a handler written for one protocol version serving, or answering, peers of an
//! older one. Each adapter is a [`Service`] in front of the newer version's service: it
//! reads a message as the older version does (its decoder: the same answers to malformed
//! messages, unknown methods and params that do not fit), makes each request and
//! notification the newer version's through the pair's generated [`Translation`] tables,
//! lets the newer service answer it, and makes the answer the older version's. What the
//! newer handler sends the older peer goes through the other table ([`outbound`]).
//!
//! The generated `convert::<older>_<newer>` module of each pair of consecutive versions
//! gives the tables and the constructors (`serve_older`, `answer_older`); adapters chain,
//! one pair at a time, down to the oldest version.
//!
//! What the older peer sends | what the newer service is given
//! --- | ---
//! a request both versions have | the same request, its params converted (-32602 if they do not convert); its result converted back (-32603 naming what the older version cannot carry), an error as it came
//! a request only the older version has | nothing: -32601, or an empty result for `ping`, as the older handler's defaults
//! a notification both have | the same notification, if its params convert
//! `initialize` (both in the `initialize` era) | the same request; the result says the older version
//!
//! Across the change of lifecycle (an `initialize`-era client, a `server/discover`-era
//! handler), the adapter speaks for the client through a [`Bridge`]: `initialize` is
//! answered from `server/discover`, each request carries what the client said once,
//! input the handler asks for in a result is asked of the client, and resource
//! subscriptions become a background `subscriptions/listen` (see [`bridge`]).
//!
//! Nothing here is generic over the handler: an adapter is compiled once per pair of
//! versions, whatever serves behind it.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value};

use crate::bridge::{self, Bridge, SpawnFn, Subscription};
use crate::convert::{Translation, outbound};
use crate::jsonrpc::{ErrorObject, Id, MethodSet};
use crate::service::{self, BoxFuture, Peer, Received, Serve, Service, call_text};

/// The older version's lifecycle request, answered with the version it was asked in.
use crate::lifecycle::INITIALIZE;
/// What the newer era asks instead of `initialize`.
const DISCOVER: &str = "server/discover";
/// The older era's log level, kept by the bridge.
const SET_LEVEL: &str = "logging/setLevel";
/// What the older era's resource subscriptions become ([`Subscription`]).
const LISTEN: &str = "subscriptions/listen";

/// Makes a server service of the newer version of a pair one for clients of the older,
/// with what runs resource subscriptions in the background across the eras.
pub type ServeOlderFn = fn(Arc<dyn Service>, Option<SpawnFn>) -> Arc<dyn Service>;

/// Makes a client service of the newer version of a pair one for servers of the older.
pub type AnswerOlderFn = fn(Arc<dyn Service>) -> Arc<dyn Service>;

/// A pair of consecutive versions whose server adapter serves clients of the older with
/// a server of the newer (the generated `convert::SERVING`, newest first): what a session
/// walks to serve every older version with one server handler. A list of its own, apart
/// from [`Answering`], so that a server's binary holds no client adapter (nothing
/// reaches them).
#[derive(Debug, Clone, Copy)]
pub struct Serving {
    /// The older version.
    pub older: &'static str,
    /// The newer version.
    pub newer: &'static str,
    /// A server service of `newer` made one for clients of `older` (`serve_older`), with
    /// what runs resource subscriptions in the background across the eras.
    pub serve_older: ServeOlderFn,
}

/// A pair of consecutive versions whose client adapter answers servers of the older with
/// a client of the newer (the generated `convert::ANSWERING`, newest first).
#[derive(Debug, Clone, Copy)]
pub struct Answering {
    /// The older version.
    pub older: &'static str,
    /// The newer version.
    pub newer: &'static str,
    /// A client service of `newer` made one for servers of `older` (`answer_older`).
    pub answer_older: AnswerOlderFn,
    /// What a client of `newer` sends a server of `older`, made that version's.
    pub to_older_server: &'static Translation,
}

/// A service of the newer version made one of the older: see the [module](self)
/// documentation. `R` and `N` are the requests and notifications the older peer sends
/// (its version's `methods::ClientRequest` and `methods::ClientNotification` for a
/// server, `ServerRequest` and `ServerNotification` for a client): how the adapter reads
/// them.
pub struct Adapter<R, N> {
    newer: Arc<dyn Service>,
    inbound: Translation,
    outbound: Translation,
    batches: bool,
    lifecycle: Lifecycle,
    read: PhantomData<fn() -> (R, N)>,
}

/// How the two versions' lifecycles meet.
enum Lifecycle {
    /// Both answer `initialize`.
    Same,
    /// The older answers `initialize`, the newer `server/discover`: the bridge speaks for
    /// the older client, one per connection.
    Across(Bridge),
}

impl<R, N> fmt::Debug for Adapter<R, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Adapter");
        d.field("older", &self.inbound.from)
            .field("newer", &self.inbound.to)
            .field("batches", &self.batches);
        if let Lifecycle::Across(bridge) = &self.lifecycle {
            d.field("bridge", bridge);
        }
        d.finish_non_exhaustive()
    }
}

impl<R, N> Adapter<R, N> {
    /// `newer`, for peers of the older version of a pair in one lifecycle era: `inbound`
    /// makes what the older peer sends the newer version's, `outbound` what the newer
    /// handler sends the older peer; `batches` is whether the older version allows them.
    pub fn new(
        newer: impl Service,
        inbound: Translation,
        outbound: Translation,
        batches: bool,
    ) -> Self {
        Adapter {
            newer: Arc::new(newer),
            inbound,
            outbound,
            batches,
            lifecycle: Lifecycle::Same,
            read: PhantomData,
        }
    }

    /// `newer`, a server of the `server/discover` era, for clients of the `initialize`
    /// era, through a [`Bridge`] of its own (one connection's): see [`new`](Self::new).
    /// Resource subscriptions are not offered until [`with_spawn`](Self::with_spawn).
    pub fn across(
        newer: impl Service,
        inbound: Translation,
        outbound: Translation,
        batches: bool,
    ) -> Self {
        Adapter {
            lifecycle: Lifecycle::Across(Bridge::new(inbound.to)),
            ..Adapter::new(newer, inbound, outbound, batches)
        }
    }

    /// This adapter, serving an older client's resource subscriptions across the eras
    /// with a `subscriptions/listen` that `spawn` runs in the background
    /// (`|f| { tokio::spawn(f); }`). It starts the connection afresh: call it before
    /// serving. Between two versions of one era it changes nothing.
    pub fn with_spawn(
        self,
        spawn: impl Fn(BoxFuture<'static, ()>) + Send + Sync + 'static,
    ) -> Self {
        self.spawning(Some(Arc::new(spawn)))
    }

    /// [`with_spawn`](Self::with_spawn) when there is something to spawn with.
    pub fn spawning(mut self, spawn: Option<SpawnFn>) -> Self {
        if let (Lifecycle::Across(_), Some(spawn)) = (&self.lifecycle, spawn) {
            self.lifecycle = Lifecycle::Across(Bridge::new(self.inbound.to).with_spawn(spawn));
        }
        self
    }
}

impl<R, N> Service for Adapter<R, N>
where
    R: MethodSet + Send + 'static,
    N: MethodSet + Send + 'static,
{
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        // Read now, in arrival order; answered in the future.
        let received = service::receive::<R, N>(message.as_bytes(), self.batches);
        Box::pin(async move {
            match received {
                Received::One(item) => self.one(&peer, item).await,
                Received::Batch(items) => {
                    let mut answers = Vec::new();
                    for item in items {
                        if let Some(answer) = self.one(&peer, item).await {
                            answers.push(answer);
                        }
                    }
                    service::batch_reply(answers)
                }
            }
        })
    }
}

impl<R: MethodSet, N: MethodSet> Adapter<R, N> {
    async fn one(&self, peer: &Peer, item: Serve<R, N>) -> Option<String> {
        match item {
            Serve::Request { id, request, .. } => {
                let method = request.method().to_owned();
                let answer = match params_of(&request) {
                    Ok(params) => self.request(peer, &id, &method, params).await,
                    Err(e) => Err(ErrorObject::internal_error(e.to_string())),
                };
                Some(match answer {
                    Ok(Answer::Result(result)) => service::respond(&id, Ok(result)),
                    Ok(Answer::Text(text)) => text,
                    Err(error) => service::refuse(&id, error),
                })
            }
            Serve::Notification { notification, .. } => {
                let method = notification.method().to_owned();
                if let Ok(params) = params_of(&notification) {
                    self.notification(peer, &method, params).await;
                }
                None
            }
            Serve::Answer(answer) => Some(answer),
            Serve::Ignore => None,
        }
    }

    async fn request(
        &self,
        peer: &Peer,
        id: &Id,
        method: &str,
        params: Option<Value>,
    ) -> Result<Answer, ErrorObject> {
        let bridge = match &self.lifecycle {
            Lifecycle::Same => return self.forward(peer, id, method, params).await,
            Lifecycle::Across(bridge) => bridge,
        };
        if let Some(change) = Subscription::of(method) {
            let newer = self.newer.clone();
            let peer = bridge::older_peer(&outbound(peer, self.outbound));
            bridge.resubscribe(change, &params, move |params, _| {
                let id = Id::String(LISTEN.into());
                let message = call_text(Some(&id), LISTEN, Some(&params))
                    .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
                Ok(Box::pin(async move {
                    let _ = newer.serve(peer, message).await;
                }))
            })?;
            return Ok(Answer::Result(Value::Object(Map::new())));
        }
        match method {
            INITIALIZE => {
                bridge.initialize(&params);
                let params = bridge.params_value(params)?;
                let params = self.params_up(method, params)?;
                let answer = self.newer_result(peer, id, DISCOVER, Some(params)).await?;
                let answer = match answer {
                    Ok(result) => result,
                    Err(text) => return Ok(Answer::Text(text)),
                };
                let result = bridge.initialize_result(&answer, self.inbound.from)?;
                self.result_down(method, result).map(Answer::Result)
            }
            SET_LEVEL => {
                bridge.set_level(&params)?;
                Ok(Answer::Result(Value::Object(Map::new())))
            }
            _ if self.inbound.methods.contains(&method) => {
                let mut params = bridge.params_value(params)?;
                let peer = outbound(peer, self.outbound);
                for _ in 0..bridge::MAX_ROUNDS {
                    let converted = self.params_up(method, params.clone())?;
                    let result = match self
                        .newer_result(&peer, id, method, Some(converted))
                        .await?
                    {
                        Ok(result) => result,
                        Err(text) => return Ok(Answer::Text(text)),
                    };
                    if !bridge::asks_input(&result) {
                        return self.result_down(method, result).map(Answer::Result);
                    }
                    bridge::ask(&result, &mut params, &peer).await?;
                }
                Err(ErrorObject::internal_error(format!(
                    "the handler still asked for input after {} rounds",
                    bridge::MAX_ROUNDS
                )))
            }
            _ => self.unknown(method),
        }
    }

    /// A request the newer version does not have: an empty result where the older
    /// handler answers it so by default (`ping`), -32601 otherwise.
    fn unknown(&self, method: &str) -> Result<Answer, ErrorObject> {
        if self.inbound.answered.contains(&method) {
            return Ok(Answer::Result(Value::Object(Map::new())));
        }
        Err(service::method_not_found(method))
    }

    /// A request between two versions of one era.
    async fn forward(
        &self,
        peer: &Peer,
        id: &Id,
        method: &str,
        params: Option<Value>,
    ) -> Result<Answer, ErrorObject> {
        if !self.inbound.methods.contains(&method) {
            return self.unknown(method);
        }
        let params = params.map(|p| self.params_up(method, p)).transpose()?;
        let peer = outbound(peer, self.outbound);
        let result = match self.newer_result(&peer, id, method, params).await? {
            Ok(result) => result,
            Err(text) => return Ok(Answer::Text(text)),
        };
        let mut result = self.result_down(method, result)?;
        if method == INITIALIZE
            && let Value::Object(result) = &mut result
        {
            result.insert(bridge::VERSION_MEMBER.into(), self.inbound.from.into());
        }
        Ok(Answer::Result(result))
    }

    async fn notification(&self, peer: &Peer, method: &str, params: Option<Value>) {
        if !self.inbound.methods.contains(&method) {
            return;
        }
        // A notification whose params do not convert is not passed on.
        let params = match params.map(|p| (self.inbound.params)(method, p)) {
            None => None,
            Some(Some(Ok(p))) => Some(p),
            Some(_) => return,
        };
        let Ok(message) = call_text(None, method, params.as_ref()) else {
            return;
        };
        let peer = outbound(peer, self.outbound);
        let _ = self.newer.clone().serve(peer, message).await;
    }

    /// The older peer's params as the newer version's: -32602 naming what does not fit.
    fn params_up(&self, method: &str, params: Value) -> Result<Value, ErrorObject> {
        match (self.inbound.params)(method, params) {
            Some(Ok(params)) => Ok(params),
            Some(Err(e)) => Err(ErrorObject::invalid_params(e.to_string())),
            None => Err(service::method_not_found(method)),
        }
    }

    /// The newer handler's result as the older version's: -32603 naming what the older
    /// version cannot carry.
    fn result_down(&self, method: &str, result: Value) -> Result<Value, ErrorObject> {
        let older = self.inbound.from;
        match (self.inbound.result)(method, result) {
            Some(Ok(result)) => Ok(result),
            Some(Err(e)) => Err(ErrorObject::internal_error(format!(
                "the `{method}` result cannot be expressed in {older}: {e}"
            ))),
            None => Err(ErrorObject::internal_error(format!(
                "the `{method}` result has no conversion into {older}"
            ))),
        }
    }

    /// Asks the newer service: its result, or its error response as it came.
    async fn newer_result(
        &self,
        peer: &Peer,
        id: &Id,
        method: &str,
        params: Option<Value>,
    ) -> Result<Result<Value, String>, ErrorObject> {
        let message = call_text(Some(id), method, params.as_ref())
            .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
        let Some(answer) = self.newer.clone().serve(peer.clone(), message).await else {
            return Err(ErrorObject::internal_error(format!(
                "the `{method}` request got no answer"
            )));
        };
        let mut response: Value = serde_json::from_str(&answer)
            .map_err(|e| ErrorObject::internal_error(format!("the `{method}` answer: {e}")))?;
        match response.get_mut("result") {
            Some(result) => Ok(Ok(result.take())),
            None => Ok(Err(answer)),
        }
    }
}

/// What a request is answered with: a result to encode, or the newer service's error
/// response as it came (its id is the request's).
enum Answer {
    Result(Value),
    Text(String),
}

/// The `params` of a request or notification as JSON (`None` when it has none).
fn params_of<M: MethodSet>(message: &M) -> Result<Option<Value>, serde_json::Error> {
    struct Params<'a, M>(&'a M);
    impl<M: MethodSet> Serialize for Params<'_, M> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(None)?;
            self.0.write_params(&mut map)?;
            map.end()
        }
    }
    match crate::write::to_value(&Params(message))? {
        Value::Object(mut map) => Ok(map.remove("params")),
        _ => Ok(None),
    }
}
