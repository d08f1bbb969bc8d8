//! The discover era's own fixtures (2026-07-28): tools and a prompt that ask the client
//! for input by answering `input_required` (SEP-2322: the client retries with
//! `inputResponses`, and `requestState` when the server sent one), the diagnostic tools of
//! the stateless scenarios. Sampling and roots are
//! deprecated in 2026-07-28 (SEP-2577), and still served.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::v2026_07_28 as v;
use serde_json::{Map, Value, json};

/// What a tool or prompt of this module answers: done, or a question for the client.
pub enum Outcome {
    Done(String),
    Ask(Box<v::InputRequiredResult>),
}

/// The tools of this module, with their input schemas (object members besides `type`).
pub fn tools() -> Vec<(&'static str, &'static str, Map<String, Value>)> {
    [
        (
            "test_missing_capability",
            "Needs the client's sampling capability",
        ),
        (
            "test_streaming_elicitation",
            "Asks for a name while its request is open",
        ),
        (
            "test_logging_tool",
            "Logs only when the request asks for a log level",
        ),
        (
            "test_input_required_result_elicitation",
            "Asks for the user's name",
        ),
        (
            "test_input_required_result_sampling",
            "Asks the client's model a question",
        ),
        (
            "test_input_required_result_list_roots",
            "Asks for the client's roots",
        ),
        (
            "test_input_required_result_request_state",
            "Asks with a request state",
        ),
        (
            "test_input_required_result_multiple_inputs",
            "Asks three things at once",
        ),
        (
            "test_input_required_result_multi_round",
            "Asks in two rounds",
        ),
        (
            "test_input_required_result_tampered_state",
            "Refuses a tampered state",
        ),
        (
            "test_input_required_result_capabilities",
            "Asks only what the client can answer",
        ),
    ]
    .into_iter()
    .map(|(name, description)| (name, description, Map::new()))
    .collect()
}

/// The key that keeps `requestState` honest: the state is `payload.mac`, the MAC a keyed
/// hash of the payload with a key made once per process.
fn sign(payload: &str) -> String {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    let mac = KEY.get_or_init(RandomState::new).hash_one(payload);
    format!("{payload}.{mac:016x}")
}

/// The payload of a state this process signed, or an error naming what is wrong.
fn verify(state: &str) -> Result<&str, ErrorObject> {
    let payload = state.rsplit_once('.').map_or("", |(p, _)| p);
    if sign(payload) == state {
        Ok(payload)
    } else {
        Err(ErrorObject::invalid_params(
            "requestState was not issued by this server (or was altered)",
        ))
    }
}

fn elicit(message: &str, field: &str) -> v::InputRequest {
    let string = v::PrimitiveSchemaDefinition::from(v::StringSchema::default());
    let schema = v::ElicitRequestFormParamsRequestedSchema {
        required: Some(vec![field.into()]),
        ..v::ElicitRequestFormParamsRequestedSchema::new([(field.into(), string)].into())
    };
    let params = v::ElicitRequestFormParams::new(message, schema);
    v::ElicitRequest::new(params.into()).into()
}

fn sample(question: &str) -> v::InputRequest {
    let text = v::SamplingMessageContent::text(question);
    let messages = vec![v::SamplingMessage::new(text, v::Role::User)];
    v::CreateMessageRequest::new(v::CreateMessageRequestParams::new(100, messages)).into()
}

fn roots() -> v::InputRequest {
    v::ListRootsRequest::new().into()
}

/// An `input_required` result asking `requests`, with `state` signed when there is one.
fn ask(requests: Vec<(&str, v::InputRequest)>, state: Option<&str>) -> Outcome {
    let mut result = v::InputRequiredResult::new("input_required");
    let requests = requests.into_iter().map(|(k, r)| (k.to_string(), r));
    result.input_requests = Some(requests.collect());
    result.request_state = state.map(sign);
    Outcome::Ask(Box::new(result))
}

/// The text of a form answer's field, when the client accepted.
fn field(responses: &v::InputResponses, key: &str, name: &str) -> Option<String> {
    match responses.get(key)? {
        v::InputResponse::ElicitResult(r) if r.action == v::ElicitResultAction::Accept => {
            let value = r.content.as_ref()?.get(name)?;
            Some(match serde_json::to_value(value).ok()? {
                Value::String(s) => s,
                other => other.to_string(),
            })
        }
        _ => None,
    }
}

/// The answer of one of this module's tools (`None`: not one of them).
pub fn call(
    name: &str,
    responses: Option<&v::InputResponses>,
    state: Option<&str>,
    capabilities: &v::ClientCapabilities,
) -> Option<Result<Outcome, ErrorObject>> {
    let empty = BTreeMap::new();
    let r = responses.unwrap_or(&empty);
    let answered = |key: &str| r.contains_key(key);
    Some(Ok(match name {
        "test_missing_capability" => {
            if capabilities.sampling.is_none() {
                let error = ErrorObject::new(-32021, "this tool needs the sampling capability")
                    .with_data(json!({"requiredCapabilities": {"sampling": {}}}));
                return Some(Err(error));
            }
            Outcome::Done("The client can sample.".into())
        }
        "test_logging_tool" => Outcome::Done("Logging tool done.".into()),
        "test_streaming_elicitation" | "test_input_required_result_elicitation" => {
            match field(r, "user_name", "name") {
                Some(name) => Outcome::Done(format!("Hello, {name}!")),
                None => ask(
                    vec![("user_name", elicit("What is your name?", "name"))],
                    None,
                ),
            }
        }
        "test_input_required_result_sampling" => {
            if answered("capital_question") {
                Outcome::Done("The client's model answered.".into())
            } else {
                let question = sample("What is the capital of France?");
                ask(vec![("capital_question", question)], None)
            }
        }
        "test_input_required_result_list_roots" => match r.get("client_roots") {
            Some(v::InputResponse::ListRootsResult(roots)) => {
                Outcome::Done(format!("The client has {} roots.", roots.roots.len()))
            }
            _ => ask(vec![("client_roots", roots())], None),
        },
        "test_input_required_result_request_state" => match state {
            Some(state) if answered("confirm") => match verify(state) {
                Ok(payload) => Outcome::Done(format!("Confirmed with {payload}.")),
                Err(e) => return Some(Err(e)),
            },
            _ => ask(
                vec![("confirm", elicit("Confirm?", "ok"))],
                Some("state-ok"),
            ),
        },
        "test_input_required_result_tampered_state" => match state {
            Some(state) => match verify(state) {
                Ok(_) => Outcome::Done("The state came back as it was sent.".into()),
                Err(e) => return Some(Err(e)),
            },
            None => ask(
                vec![("confirm", elicit("Confirm?", "ok"))],
                Some("tamper-check"),
            ),
        },
        "test_input_required_result_multiple_inputs" => {
            let keys = ["user_name", "greeting", "client_roots"];
            match state.map(verify) {
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(_)) if keys.iter().all(|k| answered(k)) => {
                    Outcome::Done("All three inputs came.".into())
                }
                _ => ask(
                    vec![
                        ("user_name", elicit("What is your name?", "name")),
                        ("greeting", sample("Say hello.")),
                        ("client_roots", roots()),
                    ],
                    Some("multiple"),
                ),
            }
        }
        "test_input_required_result_multi_round" => {
            let round = state.map(verify).transpose();
            let round = match round {
                Ok(round) => round,
                Err(e) => return Some(Err(e)),
            };
            match (round, field(r, "step1", "name"), field(r, "step2", "color")) {
                (Some(payload), _, Some(color)) if payload.starts_with("round2:") => {
                    let name = &payload["round2:".len()..];
                    Outcome::Done(format!("{name} likes {color}."))
                }
                (Some("round1"), Some(name), _) => ask(
                    vec![("step2", elicit("What is your favourite colour?", "color"))],
                    Some(&format!("round2:{name}")),
                ),
                _ => ask(
                    vec![("step1", elicit("What is your name?", "name"))],
                    Some("round1"),
                ),
            }
        }
        "test_input_required_result_capabilities" => {
            let mut wanted = Vec::new();
            if capabilities.elicitation.is_some() {
                wanted.push(("user_name", elicit("What is your name?", "name")));
            }
            if capabilities.sampling.is_some() {
                wanted.push(("greeting", sample("Say hello.")));
            }
            if capabilities.roots.is_some() {
                wanted.push(("client_roots", roots()));
            }
            if wanted.is_empty() {
                let error =
                    ErrorObject::new(-32021, "this tool needs elicitation, sampling or roots")
                        .with_data(json!({"requiredCapabilities": {"elicitation": {}}}));
                return Some(Err(error));
            }
            if wanted.iter().all(|(k, _)| answered(k)) {
                Outcome::Done("Every input the client can give came.".into())
            } else {
                ask(wanted, None)
            }
        }
        _ => return None,
    }))
}

/// The prompt that asks for input first.
pub const PROMPT: &str = "test_input_required_result_prompt";

/// The answer of [`PROMPT`].
pub fn prompt(responses: Option<&v::InputResponses>) -> Outcome {
    let empty = BTreeMap::new();
    match field(responses.unwrap_or(&empty), "user_context", "context") {
        Some(context) => Outcome::Done(format!("Answer with this context: {context}")),
        None => ask(
            vec![(
                "user_context",
                elicit("What context should the prompt use?", "context"),
            )],
            None,
        ),
    }
}
