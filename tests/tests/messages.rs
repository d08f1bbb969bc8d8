//! The JSON-RPC entry point of every version: every method decodes to its own variant
//! and encodes back; envelopes are checked; errors carry the right code and path;
//! results are decoded by the method of the request they answer.

use mcp_codegen::model::{ConstValue, Direction, Kind, MessageKind, Model, Origin, TypeRef};
use mcp_codegen::workspace;
use mcp_tests::{Harness, VERSIONS, root};
use serde_json::{Map, Value, json};

fn models() -> Vec<Model> {
    let inputs = workspace::inputs(&root()).unwrap();
    mcp_codegen::generate(&inputs).unwrap().models
}

/// A small valid value of a type: required fields only, the first value of enums, the
/// first arm of unions that decoding would choose.
fn sample(model: &Model, ty: &TypeRef, depth: usize) -> Value {
    assert!(depth < 24, "sample recursion too deep at {ty:?}");
    match ty {
        TypeRef::String => json!("s"),
        TypeRef::Integer | TypeRef::Unsigned => json!(1),
        TypeRef::Number => json!(0.5),
        TypeRef::Boolean => json!(true),
        TypeRef::Any => json!({}),
        TypeRef::Array(_) => json!([]),
        TypeRef::Map(_) => json!({}),
        TypeRef::Const(c) => match &model.consts.iter().find(|k| &k.name == c).unwrap().value {
            ConstValue::String(s) => json!(s),
            ConstValue::Integer(i) => json!(i),
            ConstValue::Boolean(b) => json!(b),
        },
        TypeRef::Named(n) => {
            let t = model.get(n).unwrap();
            match &t.kind {
                Kind::Struct { fields, .. } => {
                    let mut out = Map::new();
                    for f in fields.iter().filter(|f| f.required) {
                        let v = if f.nullable {
                            Value::Null
                        } else {
                            sample(model, &f.ty, depth + 1)
                        };
                        out.insert(f.wire.clone(), v);
                    }
                    Value::Object(out)
                }
                Kind::StringEnum { values } => json!(values[0]),
                Kind::Alias { target, .. } => sample(model, target, depth + 1),
                Kind::Union { .. } => union_arms(model, n, depth).remove(0),
            }
        }
    }
}

/// A sample of every arm of a union that decoding can choose, with the tag (if the
/// union has one) set to the arm's first tag value.
fn union_arms(model: &Model, union: &str, depth: usize) -> Vec<Value> {
    let Kind::Union { variants, tag } = &model.get(union).unwrap().kind else {
        panic!("{union} is not a union")
    };
    variants
        .iter()
        .filter(|v| v.signature.shadowed_by.is_none())
        .map(|v| {
            let mut value = sample(model, &v.ty, depth + 1);
            if let (Some(tag), Some(first), Value::Object(map)) =
                (tag, v.signature.tags.first(), &mut value)
            {
                map.insert(tag.clone(), json!(first));
            }
            value
        })
        .collect()
}

fn harness(version: &str) -> &'static Harness {
    VERSIONS.iter().find(|h| h.version == version).unwrap()
}

fn message(method: &str, id: Option<Value>, params: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), json!("2.0"));
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    m.insert("method".into(), json!(method));
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}

/// Every method of every version, sent by each side that may send it, decodes to the
/// variant of that method and encodes back to the same JSON.
#[test]
fn every_method_decodes_to_its_variant_and_round_trips() {
    let mut cases = 0;
    let mut negatives = 0;
    for model in models() {
        let h = harness(&model.version);
        for m in &model.methods {
            let jsonrpc_request = !m.via.iter().all(|v| v == "InputRequest");
            if m.kind == MessageKind::Request && !jsonrpc_request {
                continue;
            }
            let senders: &[bool] = match m.direction {
                Direction::ClientToServer => &[true],
                Direction::ServerToClient => &[false],
                Direction::Both => &[true, false],
            };
            let params = m.params.as_ref().map(|p| sample(&model, p, 0));
            let mut variants = vec![params.clone()];
            if !m.params_required {
                variants.push(None);
            }
            for from_client in senders {
                for p in &variants {
                    let id = (m.kind == MessageKind::Request).then(|| json!(7));
                    let msg = message(&m.method, id, p.clone());
                    let bytes = serde_json::to_vec(&msg).unwrap();
                    let (method, back) = (h.decode_message)(&bytes, *from_client, false)
                        .unwrap_or_else(|e| panic!("{} {msg}: {e}", model.version));
                    assert_eq!(method, m.method, "{} {msg}", model.version);
                    assert_eq!(back, msg, "{} round trip", model.version);
                    cases += 1;
                }
                negatives += negative_cases(&model, h, m, params.clone(), *from_client);
            }
        }
    }
    println!("{cases} method messages decoded and re-encoded, {negatives} negative cases");
    assert!(cases > 150);
}

/// The envelope and params mutations of one valid message, each with its expected code.
fn negative_cases(
    model: &Model,
    h: &Harness,
    m: &mcp_codegen::model::MethodDef,
    params: Option<Value>,
    from_client: bool,
) -> usize {
    let is_request = m.kind == MessageKind::Request;
    let valid = message(&m.method, is_request.then(|| json!(1)), params.clone());
    let decode = |v: &Value| (h.decode_message)(v.to_string().as_bytes(), from_client, false);
    let expect = |v: Value, code: i64, what: &str| {
        let e = decode(&v)
            .err()
            .unwrap_or_else(|| panic!("{} {}: {what} decoded: {v}", model.version, m.method));
        assert_eq!(e.code, code, "{} {}: {what}: {e}", model.version, m.method);
    };
    let mut n = 0;
    let without = |key: &str| {
        let mut v = valid.clone();
        v.as_object_mut().unwrap().remove(key);
        v
    };
    expect(without("jsonrpc"), -32600, "missing jsonrpc");
    let no_method = without("method");
    n += 1;
    if is_request {
        expect(no_method, -32600, "missing method");
        n += 1;
    }
    let mut v = valid.clone();
    v["jsonrpc"] = json!("1.0");
    expect(v, -32600, "jsonrpc 1.0");
    n += 1;
    if is_request {
        for id in [json!(i64::MAX), json!(i64::MIN), json!("req-1")] {
            let mut v = valid.clone();
            v["id"] = id;
            let (_, back) = decode(&v).unwrap();
            assert_eq!(back, v);
            n += 1;
        }
        let mut v = valid.clone();
        v["id"] = Value::Null;
        expect(v, -32600, "null id");
        n += 1;
    }
    if m.params_required {
        expect(without("params"), -32602, "missing params");
        n += 1;
    }
    if let Some(Value::Object(p)) = &params {
        // Unknown keys in params are kept (params objects are open).
        let mut v = valid.clone();
        v["params"]["x-vendor"] = json!({"k": [1]});
        let (_, back) = decode(&v).unwrap();
        assert_eq!(
            back, v,
            "{} {}: unknown params key",
            model.version, m.method
        );
        n += 1;
        // A wrong type in a required params field: -32602 naming the field.
        let typed_field = match m.params.as_ref() {
            Some(TypeRef::Named(n)) => match &model.get(n).unwrap().kind {
                Kind::Struct { fields, .. } => fields
                    .iter()
                    .find(|f| f.required && f.ty != TypeRef::Any && p.contains_key(&f.wire))
                    .map(|f| f.wire.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(key) = typed_field {
            let mut v = valid.clone();
            // No MCP type accepts `true` where a string, number, object or array is due.
            v["params"][&key] = json!(true);
            let e = decode(&v).unwrap_err();
            assert_eq!(
                e.code, -32602,
                "{} {} wrong type: {e}",
                model.version, m.method
            );
            let path = e.path.clone().unwrap_or_default();
            assert!(
                path.starts_with(&format!("params.{key}")),
                "{} {}: {path}",
                model.version,
                m.method
            );
            n += 1;
        }
    }
    n
}

/// A method sent in the wrong direction is unknown to the receiver: -32601.
#[test]
fn methods_are_decoded_only_in_their_direction() {
    let h = harness("2025-11-25");
    let create = message(
        "sampling/createMessage",
        Some(json!(1)),
        Some(json!({"messages": [], "maxTokens": 1})),
    );
    let e = (h.decode_message)(create.to_string().as_bytes(), true, false).unwrap_err();
    assert_eq!(e.code, -32601, "{e}");
    assert_eq!(e.id, Some(mcp_spec_types::rt::jsonrpc::Id::Integer(1)));
    assert!((h.decode_message)(create.to_string().as_bytes(), false, false).is_ok());
}

fn decode_err(version: &str, msg: &str) -> mcp_spec_types::rt::jsonrpc::ProtocolError {
    (harness(version).decode_message)(msg.as_bytes(), true, false).unwrap_err()
}

#[test]
fn envelope_errors() {
    let v = "2025-11-25";
    let cases = [
        ("{", -32700, None),
        ("[1", -32700, Some("[0]")),
        ("42", -32600, None),
        (r#"{"id": 1, "method": "ping"}"#, -32600, None),
        (
            r#"{"jsonrpc": "1.0", "id": 1, "method": "ping"}"#,
            -32600,
            Some("jsonrpc"),
        ),
        (r#"{"jsonrpc": "2.0", "id": 1}"#, -32600, None),
        (
            r#"{"jsonrpc": "2.0", "id": null, "method": "ping"}"#,
            -32600,
            Some("id"),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}"#,
            -32600,
            Some("id"),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": 5}"#,
            -32600,
            Some("method"),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}"#,
            -32600,
            Some("params"),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "bogus"}"#,
            -32601,
            None,
        ),
        (
            r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}]"#,
            -32600,
            None,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}}"#,
            -32600,
            None,
        ),
    ];
    for (msg, code, path) in cases {
        let e = decode_err(v, msg);
        assert_eq!(e.code, code, "{msg}: {e}");
        assert_eq!(e.path.as_deref(), path, "{msg}: {e}");
    }
}

#[test]
fn ids_at_the_bounds_and_strings() {
    for id in [
        json!(i64::MAX),
        json!(i64::MIN),
        json!(0),
        json!("abc"),
        json!(""),
    ] {
        let msg = message("ping", Some(id.clone()), None);
        let (method, back) =
            (harness("2025-06-18").decode_message)(msg.to_string().as_bytes(), true, false)
                .unwrap();
        assert_eq!(method, "ping");
        assert_eq!(back["id"], id);
    }
    let too_big = r#"{"jsonrpc": "2.0", "id": 18446744073709551615, "method": "ping"}"#;
    assert_eq!(decode_err("2025-06-18", too_big).code, -32600);
}

#[test]
fn invalid_params_carry_code_and_path() {
    let v = "2025-11-25";
    let missing = r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {}}"#;
    let e = decode_err(v, missing);
    assert_eq!(
        (e.code, e.path.as_deref()),
        (-32602, Some("params.name")),
        "{e}"
    );
    assert!(e.message.contains("missing field `name`"), "{e}");
    assert_eq!(e.id, Some(mcp_spec_types::rt::jsonrpc::Id::Integer(3)));

    let absent = r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call"}"#;
    assert_eq!(decode_err(v, absent).code, -32602);

    let deep = r#"{"jsonrpc": "2.0", "id": 3, "method": "completion/complete",
        "params": {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": 5}}}"#;
    let e = decode_err(v, deep);
    assert_eq!(
        (e.code, e.path.as_deref()),
        (-32602, Some("params.argument.value")),
        "{e}"
    );

    let bad_meta = r#"{"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": "half"}}"#;
    let e = decode_err(v, bad_meta);
    assert_eq!(
        (e.code, e.path.as_deref()),
        (-32602, Some("params.progress")),
        "{e}"
    );
    assert_eq!(e.id, None);
    let response: serde_json::Value = serde_json::from_str(&e.to_response()).unwrap();
    assert_eq!(response["id"], serde_json::Value::Null);
    assert_eq!(response["error"]["code"], -32602);
    assert_eq!(response["error"]["data"]["path"], "params.progress");
}

#[test]
fn unknown_methods_can_be_kept_but_known_ones_never_fall_through() {
    let h = harness("2025-11-25");
    let custom = r#"{"jsonrpc": "2.0", "id": 1, "method": "vendor/thing", "params": {"a": 1}}"#;
    assert_eq!(
        (h.decode_message)(custom.as_bytes(), true, false)
            .unwrap_err()
            .code,
        -32601
    );
    let (method, back) = (h.decode_message)(custom.as_bytes(), true, true).unwrap();
    assert_eq!(method, "vendor/thing");
    assert_eq!(back, serde_json::from_str::<Value>(custom).unwrap());
    // A known method with bad params is -32602 even when unknown methods are kept.
    let bad = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 5}}"#;
    assert_eq!(
        (h.decode_message)(bad.as_bytes(), true, true)
            .unwrap_err()
            .code,
        -32602
    );
}

#[test]
fn unknown_fields_are_kept_where_open() {
    let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "n", "arguments": {"x": [1, 2]}, "_meta": {"progressToken": "t", "vendor/k": 1}, "extra": true}});
    let (_, back) =
        (harness("2025-11-25").decode_message)(msg.to_string().as_bytes(), true, false).unwrap();
    assert_eq!(back, msg);
}

#[test]
fn responses_and_batches() {
    let h = harness("2025-03-26");
    let res = r#"{"jsonrpc": "2.0", "id": "a", "result": {"x": 1}}"#;
    let (method, back) = (h.decode_message)(res.as_bytes(), true, false).unwrap();
    assert_eq!(method, "");
    assert_eq!(back, serde_json::from_str::<Value>(res).unwrap());
    let err = r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "m"}}"#;
    assert!((h.decode_message)(err.as_bytes(), true, false).is_ok());
    let batch = r#"[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}]"#;
    let (_, back) = (h.decode_message)(batch.as_bytes(), true, false).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(batch).unwrap());
    assert_eq!(
        (h.decode_message)(b"[]", true, false).unwrap_err().code,
        -32600
    );
    // Batches are not part of 2025-06-18.
    assert_eq!(
        (harness("2025-06-18").decode_message)(batch.as_bytes(), true, false)
            .unwrap_err()
            .code,
        -32600
    );
}

/// The result of every request of every version decodes by the method of the request,
/// into the right type, and encodes back; a result that does not fit is an error that
/// keeps the raw value.
#[test]
fn results_decode_by_method() {
    let mut cases = 0;
    for model in models() {
        let h = harness(&model.version);
        for m in model
            .methods
            .iter()
            .filter(|m| m.kind == MessageKind::Request)
        {
            let answerers: &[bool] = match m.direction {
                Direction::ClientToServer => &[true],
                Direction::ServerToClient => &[false],
                Direction::Both => &[true, false],
            };
            let result = m.result.as_ref().unwrap();
            let values = match &model.get(result).unwrap().kind {
                Kind::Union { .. } => union_arms(&model, result, 0),
                _ => vec![sample(&model, &TypeRef::Named(result.clone()), 0)],
            };
            assert!(
                values.len() >= m.results.len(),
                "{} {}: an arm is missing",
                model.version,
                m.method
            );
            for value in values {
                for by_server in answerers {
                    let back = (h.decode_result)(&m.method, *by_server, value.clone())
                        .unwrap_or_else(|e| panic!("{} {} {value}: {e}", model.version, m.method));
                    assert_eq!(back, value, "{} {}", model.version, m.method);
                    cases += 1;
                }
            }
        }
    }
    println!("{cases} results decoded by method");
    assert!(cases >= 100, "only {cases} results checked");
}

#[test]
fn typed_result_decoding_and_mismatch() {
    use mcp_spec_types::rt::jsonrpc::{RawResult, decode_result};
    use mcp_spec_types::v2026_07_28::{self as m, methods};
    let raw = |v: &serde_json::Value| RawResult::from_value(v).unwrap();
    let done = json!({"resultType": "complete", "content": [{"type": "text", "text": "hi"}]});
    let r = decode_result::<methods::CallTool>(&raw(&done)).unwrap();
    assert!(matches!(r, m::CallToolOutcome::CallToolResult(_)));
    let more = json!({"resultType": "input_required", "requestState": "s"});
    let r = decode_result::<methods::CallTool>(&raw(&more)).unwrap();
    assert!(matches!(r, m::CallToolOutcome::InputRequiredResult(_)));
    let wrong = json!({"resultType": "complete", "tools": []});
    let e = decode_result::<methods::CallTool>(&raw(&wrong)).unwrap_err();
    assert_eq!(e.raw.to_value(), wrong);
    assert_eq!(e.method, "tools/call");
    assert!(e.to_string().contains("missing field `content`"), "{e}");
    let tools = json!({"resultType": "complete", "tools": [], "cacheScope": "private", "ttlMs": 0});
    let by_value = methods::ServerResult::decode(methods::Method::ListTools, &raw(&tools));
    assert!(
        matches!(by_value, Ok(methods::ServerResult::ListTools(_))),
        "{by_value:?}"
    );
    let e = methods::ServerResult::decode(methods::Method::ListRoots, &raw(&json!({"roots": []})))
        .unwrap_err();
    assert!(e.to_string().contains("not a request answered"), "{e}");
}

/// The official examples of requests, notifications, responses and errors of
/// 2026-07-28 decode through the message entry point, not only through their own types.
#[test]
fn official_messages_decode_through_the_entry_point() {
    let model = models()
        .into_iter()
        .find(|m| m.version == "2026-07-28")
        .unwrap();
    let h = harness("2026-07-28");
    let dir = root().join("schema/2026-07-28/examples");
    let mut checked = 0;
    for folder in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = folder.file_name().to_string_lossy().to_string();
        let method = model.methods.iter().find(|m| {
            matches!(&model.get(&m.definition).unwrap().origin, Origin::Definition(d) if *d == name)
        });
        let envelope =
            name.ends_with("ResultResponse") || name.ends_with("Error") && name != "Error";
        if method.is_none() && !envelope {
            continue;
        }
        for file in std::fs::read_dir(folder.path()).unwrap().flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            if value.get("jsonrpc").is_none() {
                continue; // an input request: not a JSON-RPC message in this version
            }
            let from_client = method.is_none_or(|m| m.direction != Direction::ServerToClient);
            let (got, back) = (h.decode_message)(text.as_bytes(), from_client, false)
                .unwrap_or_else(|e| panic!("{name}/{:?}: {e}", file.file_name()));
            if let Some(m) = method {
                assert_eq!(got, m.method, "{name}");
            }
            assert_eq!(back, value, "{name} round trip");
            checked += 1;
        }
    }
    println!("{checked} official messages decoded through the entry point");
    assert!(checked >= 30, "only {checked}");
}
