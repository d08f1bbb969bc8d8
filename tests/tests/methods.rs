//! The method table of every version, checked against the schema read independently of
//! the generator. (Its snapshot, the review form of a change upstream, is part of the
//! compact model snapshot: `generator/tests/snapshots/model_snapshots__model-*.snap`.)

use std::collections::BTreeMap;

use mcp_codegen::model::{Direction, MessageKind, Model};
use mcp_codegen::workspace;
use mcp_tests::root;
use serde_json::Value;

fn models() -> Vec<Model> {
    let inputs = workspace::inputs(&root()).unwrap();
    mcp_codegen::generate(&inputs).unwrap().models
}

/// `(method, direction)` of every member of the direction unions, straight from the JSON.
fn expected(version: &str) -> BTreeMap<String, (MessageKind, Direction)> {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join(format!("schema/{version}/schema.json"))).unwrap(),
    )
    .unwrap();
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .unwrap();
    let method_of = |def: &Value| {
        def["properties"]["method"]["const"]
            .as_str()
            .map(str::to_string)
    };
    let mut out: BTreeMap<String, (MessageKind, Direction)> = BTreeMap::new();
    for (union, kind, direction) in [
        (
            "ClientRequest",
            MessageKind::Request,
            Direction::ClientToServer,
        ),
        (
            "ServerRequest",
            MessageKind::Request,
            Direction::ServerToClient,
        ),
        (
            "InputRequest",
            MessageKind::Request,
            Direction::ServerToClient,
        ),
        (
            "ClientNotification",
            MessageKind::Notification,
            Direction::ClientToServer,
        ),
        (
            "ServerNotification",
            MessageKind::Notification,
            Direction::ServerToClient,
        ),
    ] {
        let Some(u) = defs.get(union) else { continue };
        let members: Vec<&Value> = match u.get("anyOf").and_then(Value::as_array) {
            Some(arms) => arms
                .iter()
                .map(|a| &defs[a["$ref"].as_str().unwrap().rsplit('/').next().unwrap()])
                .collect(),
            None => match u.get("$ref").and_then(Value::as_str) {
                Some(r) => vec![&defs[r.rsplit('/').next().unwrap()]],
                None => vec![u],
            },
        };
        for m in members {
            let method =
                method_of(m).unwrap_or_else(|| panic!("{version} {union}: arm without method"));
            out.entry(method)
                .and_modify(|(_, d)| {
                    if *d != direction {
                        *d = Direction::Both
                    }
                })
                .or_insert((kind, direction));
        }
    }
    out
}

#[test]
fn method_tables_match_the_schema() {
    let mut report = Vec::new();
    for model in models() {
        let want = expected(&model.version);
        let got: BTreeMap<String, (MessageKind, Direction)> = model
            .methods
            .iter()
            .map(|m| (m.method.clone(), (m.kind, m.direction)))
            .collect();
        assert_eq!(got, want, "{}", model.version);
        for m in &model.methods {
            if m.kind == MessageKind::Request {
                assert!(
                    !m.results.is_empty(),
                    "{} {} has no result",
                    model.version,
                    m.method
                );
                for r in &m.results {
                    assert!(
                        model.get(r).is_some(),
                        "{} {}: result {r} is no type",
                        model.version,
                        m.method
                    );
                }
            }
        }
        let count = |k, d| want.values().filter(|v| **v == (k, d)).count();
        report.push(format!(
            "{}: {} methods; requests c→s {}, s→c {}, both {}; notifications c→s {}, s→c {}, both {}",
            model.version,
            want.len(),
            count(MessageKind::Request, Direction::ClientToServer),
            count(MessageKind::Request, Direction::ServerToClient),
            count(MessageKind::Request, Direction::Both),
            count(MessageKind::Notification, Direction::ClientToServer),
            count(MessageKind::Notification, Direction::ServerToClient),
            count(MessageKind::Notification, Direction::Both),
        ));
    }
    println!("{}", report.join("\n"));
}

/// The generated `Method` enum and marker types agree with the model, in every version.
#[test]
fn generated_method_enums_match_the_model() {
    use mcp_spec_types::rt::method::{Direction as D, MessageKind as K};
    for (model, h) in models().iter().zip(mcp_tests::VERSIONS) {
        assert_eq!(model.version, h.version);
        let generated = (h.methods)();
        let expected: Vec<(&str, D, K)> = model
            .methods
            .iter()
            .map(|m| {
                let d = match m.direction {
                    Direction::ClientToServer => D::ClientToServer,
                    Direction::ServerToClient => D::ServerToClient,
                    Direction::Both => D::Both,
                };
                let k = match m.kind {
                    MessageKind::Request => K::Request,
                    MessageKind::Notification => K::Notification,
                };
                (m.method.as_str(), d, k)
            })
            .collect();
        assert_eq!(generated, expected, "{}", model.version);
    }
}

#[test]
fn method_enum_and_markers() {
    use mcp_spec_types::rt::method::{Direction, Notification, Request};
    use mcp_spec_types::v2025_11_25::{self as m, methods};
    for method in methods::Method::ALL {
        assert_eq!(method.as_str().parse::<methods::Method>().unwrap(), *method);
        assert_eq!(method.to_string(), method.as_str());
    }
    let err = "tools/bogus".parse::<methods::Method>().unwrap_err();
    assert!(err.to_string().contains("`tools/call`"), "{err}");
    assert_eq!(methods::Method::ALL.len(), 31);

    assert_eq!(<methods::CallTool as Request>::METHOD, "tools/call");
    assert_eq!(
        <methods::CallTool as Request>::METHOD,
        m::consts::ToolsCall::VALUE
    );
    assert_eq!(
        <methods::CallTool as Request>::DIRECTION,
        Direction::ClientToServer
    );
    const { assert!(<methods::CallTool as Request>::PARAMS_REQUIRED) };
    assert_eq!(<methods::Ping as Request>::DIRECTION, Direction::Both);
    const { assert!(!<methods::Ping as Request>::PARAMS_REQUIRED) };
    assert_eq!(
        <methods::Progress as Notification>::METHOD,
        "notifications/progress"
    );

    // Typed params and results through the traits.
    fn params_of<R: Request>(v: serde_json::Value) -> R::Params {
        serde_json::from_value(v).unwrap()
    }
    fn result_of<R: Request>(v: serde_json::Value) -> R::Result {
        serde_json::from_value(v).unwrap()
    }
    let p: m::CallToolRequestParams =
        params_of::<methods::CallTool>(serde_json::json!({"name": "x"}));
    assert_eq!(p.name, "x");
    // tools/call may be task-augmented in 2025-11-25: its result is CallToolResult or
    // CreateTaskResult, told apart by their required fields.
    let r = result_of::<methods::CallTool>(serde_json::json!({"content": []}));
    assert!(matches!(r, m::CallToolOutcome::CallToolResult(_)));
    let task = serde_json::json!({"task": {"taskId": "t", "status": "working", "createdAt": "c",
        "lastUpdatedAt": "l", "ttl": null}});
    let r = result_of::<methods::CallTool>(task);
    assert!(matches!(r, m::CallToolOutcome::CreateTaskResult(_)));
}
