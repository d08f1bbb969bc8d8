//! `rt::jsonrpc::decode` and `receive` decode a request or notification in one pass when
//! its members come in the usual order, and fall back to reading the envelope first
//! otherwise. Either way the outcome must be the one `decode_value` gives on the parsed
//! message: these inputs put the members in every order that matters, repeat them, and
//! break them. `receive_typed` decodes a result response in the same pass, by the method
//! the caller names for its id: its outcome must be that of `receive`, then `decode_text`.

use mcp_spec_types::rt::jsonrpc::{self, Message, Options, Received, UnknownMethods};
use mcp_spec_types::v2025_11_25::methods::{ClientNotification, ClientRequest};

const INPUTS: &[&str] = &[
    // The usual order: one pass.
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#,
    r#"{"jsonrpc":"2.0","id":"x","result":{"content":[]}}"#,
    // Other orders.
    r#"{"params":{"name":"echo"},"method":"tools/call","id":1,"jsonrpc":"2.0"}"#,
    r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"},"id":1}"#,
    r#"{"method":"notifications/progress","params":{"progressToken":1,"progress":1},"jsonrpc":"2.0"}"#,
    r#"{"result":{},"id":2,"jsonrpc":"2.0"}"#,
    // An `id` after params that decoded as a notification's.
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1},"id":3}"#,
    // A member after the result or the params that the one pass has already stored.
    r#"{"jsonrpc":"2.0","id":1,"result":{},"id":2}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{},"params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"id":2}"#,
    r#"{"id":1,"method":"tools/list","params":{},"jsonrpc":"2.0"}"#,
    r#"{"id":1,"method":"tools/list","params":{}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/no-such","params":{"a":1}}"#,
    // Repeated members.
    r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list","params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"name":"b"}}"#,
    // Broken members.
    r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["echo"]}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
    r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":7,"params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"no/such","params":{"a":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}} x"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}"#,
    // Members the protocol does not name are skipped either way.
    r#"{"jsonrpc":"2.0","x":[1,{"y":2}],"id":1,"method":"tools/list","params":{}}"#,
];

#[test]
fn one_pass_and_two_pass_agree() {
    let mut one_pass_shaped = 0;
    for input in INPUTS {
        for unknown_methods in [UnknownMethods::Reject, UnknownMethods::Keep] {
            let options = Options {
                unknown_methods,
                batches: false,
            };
            let decoded =
                jsonrpc::decode::<ClientRequest, ClientNotification>(input.as_bytes(), options);
            let expected = match serde_json::from_str::<serde_json::Value>(input) {
                Ok(value) => jsonrpc::decode_value(value, options),
                Err(_) => {
                    assert!(decoded.is_err(), "{input}: not JSON, yet {decoded:?}");
                    continue;
                }
            };
            match (&decoded, &expected) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{input}"),
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{input}"),
                (a, b) => panic!("{input}: decode {a:?}, decode_value {b:?}"),
            }
            let received =
                jsonrpc::receive::<ClientRequest, ClientNotification>(input.as_bytes(), options);
            match (received, &decoded) {
                (Ok(Received::Message(a)), Ok(b)) => assert_eq!(&a, b, "{input}"),
                (
                    Ok(Received::Result { id, result }),
                    Ok(Message::Response { id: i, result: r }),
                ) => {
                    assert_eq!(&id, i, "{input}");
                    let result: serde_json::Value = serde_json::from_str(result.get()).unwrap();
                    assert_eq!(&result, r, "{input}");
                }
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{input}"),
                (a, b) => panic!("{input}: receive {a:?}, decode {b:?}"),
            }
            one_pass_shaped += usize::from(decoded.is_ok());
        }
    }
    assert!(
        one_pass_shaped >= 10,
        "only {one_pass_shaped} inputs decoded"
    );
}

/// `receive_typed` decodes a result response by the method the caller names for its id,
/// in one pass in the usual member order: whatever the method, the order or the result, it
/// gives what `receive` and then `decode_text` give. Every official result response of
/// 2026-07-28, as compact text, with its members reversed and indented, against every
/// method; and the usual inputs above.
#[test]
fn typed_results_agree_with_decode_text() {
    use mcp_spec_types::rt::jsonrpc::{Id, Incoming, ResultSet};
    use mcp_spec_types::v2026_07_28::methods::{
        ClientNotification as CN, ClientRequest as CR, ClientResult, Method, ServerNotification,
        ServerRequest, ServerResult,
    };
    use serde_json::Value;

    fn texts(value: &Value) -> Vec<String> {
        let mut reversed = serde_json::Map::new();
        if let Value::Object(members) = value {
            for (k, v) in members.iter().rev() {
                reversed.insert(k.clone(), v.clone());
            }
        }
        vec![
            value.to_string(),
            Value::Object(reversed).to_string(),
            serde_json::to_string_pretty(value).unwrap(),
        ]
    }

    /// Compares the two ways for every method (and none); how many decoded a result.
    fn agree<R, N, S>(text: &str) -> usize
    where
        R: jsonrpc::MethodSet + std::fmt::Debug + PartialEq,
        N: jsonrpc::MethodSet + std::fmt::Debug + PartialEq,
        S: ResultSet<Method = Method> + std::fmt::Debug,
    {
        let options = Options::default();
        let mut decoded = 0;
        for method in Method::ALL.iter().copied().map(Some).chain([None]) {
            let mut asked = Vec::new();
            let typed = jsonrpc::receive_typed::<R, N, S>(text.as_bytes(), options, |id: &Id| {
                asked.push(id.clone());
                method
            });
            let received = jsonrpc::receive::<R, N>(text.as_bytes(), options);
            match (typed, received) {
                (Ok(Incoming::Message(a)), Ok(Received::Message(b))) => assert_eq!(a, b, "{text}"),
                (
                    Ok(Incoming::Result { id, result }),
                    Ok(Received::Result { id: i, result: raw }),
                ) => {
                    let expected = S::decode_text(method.expect("named"), raw);
                    assert_eq!(id, i, "{text}");
                    assert_eq!(
                        format!("{result:?}"),
                        format!("{expected:?}"),
                        "{text} as {method:?}"
                    );
                    // Asked once, for its id (a message naming two is asked of both, below).
                    if text.matches("\"id\"").count() == 1 {
                        assert_eq!(asked, [id], "{text}: asked once, for its id");
                    } else {
                        assert_eq!(asked.last(), Some(&id), "{text}");
                    }
                    decoded += usize::from(result.is_ok());
                }
                (
                    Ok(Incoming::Unmatched { id, result }),
                    Ok(Received::Result { id: i, result: raw }),
                ) => {
                    assert_eq!(method, None, "{text}");
                    assert_eq!((id, result.get()), (i, raw.get()), "{text}");
                }
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}"),
                (a, b) => panic!("{text} as {method:?}: receive_typed {a:?}, receive {b:?}"),
            }
        }
        decoded
    }

    let mut responses = 0;
    let mut decoded = 0;
    for example in mcp_tests::examples("2026-07-28") {
        if !example.definition.ends_with("ResultResponse") {
            continue;
        }
        responses += 1;
        for text in texts(&example.value) {
            decoded += agree::<ServerRequest, ServerNotification, ServerResult>(&text);
            decoded += agree::<CR, CN, ClientResult>(&text);
        }
    }
    for input in INPUTS {
        agree::<ServerRequest, ServerNotification, ServerResult>(input);
        agree::<CR, CN, ClientResult>(input);
    }
    println!("{responses} result responses, {decoded} (text, method) pairs decoded a result");
    assert!(responses >= 10, "only {responses} result responses");
    assert!(decoded >= 2 * responses, "only {decoded} results decoded");

    // A response that repeats its id: the pass asks for the first id before it finds the
    // second; the two-pass way then takes the last, as a parsed object would.
    use mcp_spec_types::v2025_11_25::methods as v1125;
    let mut asked = Vec::new();
    let twice = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]},"id":2}"#;
    let typed = jsonrpc::receive_typed::<
        v1125::ServerRequest,
        v1125::ServerNotification,
        v1125::ServerResult,
    >(twice, Options::default(), |id: &Id| {
        asked.push(id.clone());
        Some(v1125::Method::ListTools)
    });
    assert!(
        matches!(
            &typed,
            Ok(Incoming::Result {
                id: Id::Integer(2),
                result: Ok(v1125::ServerResult::ListTools(_))
            })
        ),
        "{typed:?}"
    );
    assert_eq!(asked, [Id::Integer(1), Id::Integer(2)]);
}
