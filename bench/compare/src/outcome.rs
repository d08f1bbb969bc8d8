//! What each decoder makes of each message: rejected, mis-routed, untyped, changed on a
//! round trip; and whether the schema says the message is valid at all.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use serde_json::Value;

use crate::corpus::{Schema, VERSIONS};
use crate::{Case, Decoder, Kind, Route, Target};

/// The results each result type answers (after our generator's `methods` docs, every
/// version): `ListToolsResult` answers `tools/list`. `Result` is the generic result that
/// the unions of rust-mcp-schema and typify hold, which is what `EmptyResult` is.
const RESULTS: &[(&str, &[&str])] = &[
    ("CompleteResult", &["completion/complete"]),
    ("ElicitResult", &["elicitation/create"]),
    (
        "CreateTaskResult",
        &["elicitation/create", "sampling/createMessage", "tools/call"],
    ),
    ("InitializeResult", &["initialize"]),
    (
        "EmptyResult",
        &[
            "logging/setLevel",
            "ping",
            "resources/subscribe",
            "resources/unsubscribe",
        ],
    ),
    (
        "Result",
        &[
            "logging/setLevel",
            "ping",
            "resources/subscribe",
            "resources/unsubscribe",
        ],
    ),
    ("GetPromptResult", &["prompts/get"]),
    (
        "InputRequiredResult",
        &["prompts/get", "resources/read", "tools/call"],
    ),
    ("ListPromptsResult", &["prompts/list"]),
    ("ListResourcesResult", &["resources/list"]),
    ("ReadResourceResult", &["resources/read"]),
    ("ListResourceTemplatesResult", &["resources/templates/list"]),
    ("ListRootsResult", &["roots/list"]),
    ("CreateMessageResult", &["sampling/createMessage"]),
    ("DiscoverResult", &["server/discover"]),
    ("SubscriptionsListenResult", &["subscriptions/listen"]),
    ("CancelTaskResult", &["tasks/cancel"]),
    ("GetTaskResult", &["tasks/get"]),
    ("ListTasksResult", &["tasks/list"]),
    ("GetTaskPayloadResult", &["tasks/result"]),
    ("CallToolResult", &["tools/call"]),
    ("ListToolsResult", &["tools/list"]),
    // rmcp's acknowledgement of `tasks/update` / `tasks/cancel` (2026-07-28 tasks).
    ("TaskAckResult", &["tasks/cancel", "tasks/update"]),
];

/// The methods a variant holding type `name` stands for: a request or notification type
/// of any version's schema (`CallToolRequest` → `tools/call`), or a result type
/// ([`RESULTS`]). Empty for a name known nowhere.
pub fn methods_of(name: &str) -> BTreeSet<String> {
    static MAP: OnceLock<HashMap<String, BTreeSet<String>>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map: HashMap<String, BTreeSet<String>> = HashMap::new();
        for version in VERSIONS {
            if let Ok(schema) = Schema::load(version) {
                for (def, method) in schema.methods() {
                    map.entry(def).or_default().insert(method);
                }
            }
        }
        for (name, methods) in RESULTS {
            map.entry(name.to_string())
                .or_default()
                .extend(methods.iter().map(|m| m.to_string()));
        }
        map
    });
    map.get(name).cloned().unwrap_or_default()
}

/// Whether the schema of a message's version says it is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validity {
    /// Valid against the definition of its method (its result type, for a result).
    Valid,
    /// Not valid, with the first violations.
    Invalid(String),
    /// No definition to check it against (a method the version does not have).
    Unknown(String),
}

/// Checks messages against the definitions of their version's schema, with `jsonschema`
/// (formats not checked).
#[derive(Default)]
pub struct Oracle {
    schemas: HashMap<&'static str, Option<Schema>>,
    validators: HashMap<(&'static str, String), Option<jsonschema::Validator>>,
}

impl Oracle {
    /// Whether `case` is valid for its version.
    pub fn check(&mut self, case: &Case) -> Validity {
        let Ok(message) = serde_json::from_slice::<Value>(&case.bytes) else {
            return Validity::Invalid("not JSON".into());
        };
        if message.get("jsonrpc") != Some(&Value::from("2.0")) {
            return Validity::Invalid("`jsonrpc` is not \"2.0\"".into());
        }
        let version = case.version;
        if self.schema(version).is_none() {
            return Validity::Unknown(format!("no schema for {version}"));
        }
        let (definitions, instance): (Vec<String>, &Value) = match case.kind {
            Kind::Request | Kind::Notification => {
                let method = case.method.as_deref().unwrap_or_default();
                let schema = self.schema(version).expect("checked above");
                let suffix = if case.kind == Kind::Request {
                    "Request"
                } else {
                    "Notification"
                };
                let defs: Vec<String> = schema
                    .methods()
                    .into_iter()
                    .filter(|(def, m)| m == method && def.ends_with(suffix))
                    .map(|(def, _)| def)
                    .collect();
                (defs, &message)
            }
            Kind::Result => {
                let method = case.method.as_deref().unwrap_or_default();
                let schema = self.schema(version).expect("checked above");
                let defs: Vec<String> = RESULTS
                    .iter()
                    .filter(|(name, methods)| *name != "Result" && methods.contains(&method))
                    .map(|(name, _)| name.to_string())
                    .filter(|name| schema.defs().any(|(def, _)| def == name))
                    .collect();
                // The versions before `EmptyResult` answer those methods with `Result`.
                let defs = if defs.is_empty()
                    && RESULTS[4].1.contains(&method)
                    && schema.defs().any(|(def, _)| def == "Result")
                {
                    vec!["Result".to_string()]
                } else {
                    defs
                };
                (defs, &message["result"])
            }
            Kind::Error => {
                let schema = self.schema(version).expect("checked above");
                let defs = ["JSONRPCErrorResponse", "JSONRPCError"]
                    .into_iter()
                    .find(|name| schema.defs().any(|(def, _)| def == name))
                    .map(|name| vec![name.to_string()])
                    .unwrap_or_default();
                (defs, &message)
            }
        };
        if definitions.is_empty() {
            return Validity::Unknown(format!(
                "no definition for {} `{}` in {version}",
                case.kind.group(),
                case.method.as_deref().unwrap_or_default()
            ));
        }
        let mut violations = Vec::new();
        for definition in &definitions {
            let Some(validator) = self.validator(version, definition) else {
                return Validity::Unknown(format!("no validator for {definition}"));
            };
            let errors: Vec<String> = validator
                .iter_errors(instance)
                .take(2)
                .map(|e| format!("{e} at `{}`", e.instance_path()))
                .collect();
            if errors.is_empty() {
                return Validity::Valid;
            }
            violations.push(format!("{definition}: {}", errors.join("; ")));
        }
        Validity::Invalid(violations.join(" | "))
    }

    fn schema(&mut self, version: &'static str) -> Option<&Schema> {
        self.schemas
            .entry(version)
            .or_insert_with(|| Schema::load(version).ok())
            .as_ref()
    }

    fn validator(&mut self, version: &'static str, def: &str) -> Option<&jsonschema::Validator> {
        let key = (version, def.to_string());
        if !self.validators.contains_key(&key) {
            let built = self.schema(version).and_then(|schema| {
                let mut doc = schema.doc.clone();
                doc["$ref"] = Value::from(format!("#/{}/{def}", schema.pointer));
                let draft = if schema.pointer == "$defs" {
                    jsonschema::Draft::Draft202012
                } else {
                    jsonschema::Draft::Draft7
                };
                jsonschema::options()
                    .with_draft(draft)
                    .should_validate_formats(false)
                    .build(&doc)
                    .ok()
            });
            self.validators.insert(key.clone(), built);
        }
        self.validators.get(&key).and_then(Option::as_ref)
    }
}

/// The counts of one decoder on one group of messages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Messages in the group.
    pub messages: usize,
    /// Messages the schema does not say are valid (invalid, or not checkable): not
    /// counted as rejected when a decoder fails on them.
    pub not_valid: usize,
    /// Valid messages it failed to decode.
    pub rejected: usize,
    /// Decoded into a variant of another kind or method; `None`: n/a (no variants).
    pub misrouted: Option<usize>,
    /// Decoded into a catch-all variant (`CustomRequest`, ...); `None`: n/a.
    pub untyped: Option<usize>,
    /// Decoded, encoded again, and not the same JSON value; `None`: n/a (no encoder).
    pub changed: Option<usize>,
}

/// One failure, for the details under the table.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The decoder.
    pub decoder: &'static str,
    /// `rejected`, `mis-routed`, `untyped`, `changed`, `accepted invalid`.
    pub what: &'static str,
    /// The case.
    pub case: String,
    /// What happened.
    pub detail: String,
}

/// Runs decoder `D` over `cases` (all of one version it supports), each with its
/// validity, and counts.
pub fn tally<D: Decoder>(
    cases: &[&Case],
    validity: &[Validity],
    findings: &mut Vec<Finding>,
) -> Tally {
    let mut t = Tally {
        messages: cases.len(),
        ..Tally::default()
    };
    let mut find = |what: &'static str, case: &Case, detail: String| {
        findings.push(Finding {
            decoder: D::NAME,
            what,
            case: case.name.clone(),
            detail,
        });
    };
    for (case, validity) in cases.iter().zip(validity) {
        let valid = *validity == Validity::Valid;
        if !valid {
            t.not_valid += 1;
        }
        let decoded = match D::decode(case) {
            Ok(d) => d,
            Err(e) => {
                if valid {
                    t.rejected += 1;
                    find("rejected", case, e);
                }
                continue;
            }
        };
        match D::route(&decoded) {
            Route::NotApplicable => {}
            Route::To(kind, target) => {
                let misrouted = t.misrouted.get_or_insert(0);
                let untyped = t.untyped.get_or_insert(0);
                let truth = case.method.as_deref();
                let wrong = if kind != case.kind {
                    Some(format!("decoded as a {:?} ({target:?})", kind))
                } else {
                    match (&target, truth) {
                        (Target::Method(m), Some(truth)) if m != truth => {
                            Some(format!("decoded as `{m}`"))
                        }
                        (Target::Type(name), Some(truth)) => {
                            let methods = methods_of(name);
                            (!methods.contains(truth)).then(|| {
                                if methods.is_empty() {
                                    format!("decoded as {name} (a type of no known method)")
                                } else {
                                    format!("decoded as {name} ({})", join(&methods))
                                }
                            })
                        }
                        _ => None,
                    }
                };
                if let Some(why) = wrong {
                    *misrouted += 1;
                    find(
                        "mis-routed",
                        case,
                        format!("`{}`: {why}", truth.unwrap_or("error")),
                    );
                } else if let Target::CatchAll(name) = &target {
                    *untyped += 1;
                    find(
                        "untyped",
                        case,
                        format!("`{}` decoded as {name}", truth.unwrap_or_default()),
                    );
                }
            }
        }
        if let Some(encoded) = D::encode(&decoded) {
            let changed = t.changed.get_or_insert(0);
            let before: Value = serde_json::from_slice(&case.bytes).expect("decoded, so JSON");
            match encoded
                .map_err(|e| format!("cannot encode: {e}"))
                .and_then(|b| {
                    serde_json::from_slice::<Value>(&b)
                        .map_err(|e| format!("encodes not JSON: {e}"))
                }) {
                Ok(after) => {
                    if let Some(diff) = first_diff(&before, &after, &mut String::new()) {
                        *changed += 1;
                        find("changed", case, diff);
                    }
                }
                Err(e) => {
                    *changed += 1;
                    find("changed", case, e);
                }
            }
        }
        if let Validity::Invalid(why) = validity {
            find("accepted invalid", case, why.clone());
        }
    }
    t
}

fn join(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// The first place where `a` and `b` differ, as a JSON pointer and the two values.
pub fn first_diff(a: &Value, b: &Value, path: &mut String) -> Option<String> {
    fn short(v: Option<&Value>) -> String {
        match v {
            None => "absent".into(),
            Some(v) => {
                let s = v.to_string();
                if s.chars().count() > 60 {
                    format!("{}…", s.chars().take(60).collect::<String>())
                } else {
                    s
                }
            }
        }
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let len = path.len();
                path.push('/');
                path.push_str(k);
                let d = match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_diff(p, q, path),
                    (p, q) => Some(format!("{path}: {} -> {}", short(p), short(q))),
                };
                if d.is_some() {
                    return d;
                }
                path.truncate(len);
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                if let Some(d) = first_diff(p, q, path) {
                    return Some(d);
                }
                path.truncate(len);
            }
            None
        }
        _ if a == b => None,
        _ => Some(format!(
            "{}: {} -> {}",
            if path.is_empty() { "/" } else { path },
            short(Some(a)),
            short(Some(b))
        )),
    }
}

/// Groups of cases: (corpus, version, kind) → cases, in table order.
pub fn groups<'a>(
    corpus: &'static str,
    cases: &'a [Case],
) -> BTreeMap<(&'static str, usize, Kind), Vec<&'a Case>> {
    let mut out: BTreeMap<_, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        let v = VERSIONS
            .iter()
            .position(|v| *v == case.version)
            .unwrap_or(VERSIONS.len());
        out.entry((corpus, v, case.kind)).or_default().push(case);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn first_diff_tells_integers_from_floats() {
        let d = first_diff(&json!({"a": [1]}), &json!({"a": [1.0]}), &mut String::new());
        assert_eq!(d.as_deref(), Some("/a/0: 1 -> 1.0"));
        assert_eq!(
            first_diff(&json!({"a": 1}), &json!({"a": 1}), &mut String::new()),
            None
        );
        assert_eq!(
            first_diff(&json!({"a": 1}), &json!({}), &mut String::new()).as_deref(),
            Some("/a: 1 -> absent")
        );
    }

    #[test]
    fn types_map_to_their_methods() {
        assert!(methods_of("CallToolRequest").contains("tools/call"));
        assert!(methods_of("ListToolsResult").contains("tools/list"));
        assert!(methods_of("ProgressNotification").contains("notifications/progress"));
        assert!(methods_of("NoSuchThing").is_empty());
    }
}
