//! The order of a message's members does not matter: every permutation of the members of
//! the envelope (and of the params) decodes to the same message, through every entry
//! point (the differential harness), and comes back as it came.

use mcp_spec_types::rt::jsonrpc::{self, Message, Options};
use mcp_spec_types::v2025_11_25::methods::{
    ClientNotification, ClientRequest, ServerNotification, ServerRequest,
};
use serde_json::Value;

/// Every order of `items` (few of them).
fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first.clone());
            out.push(p);
        }
    }
    out
}

/// The object `members` written in the given order.
fn object(members: &[(String, String)]) -> String {
    let inner: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// Every order of the envelope's members, and of the params' members within.
fn orders(text: &str) -> Vec<String> {
    let Value::Object(top) = serde_json::from_str::<Value>(text).unwrap() else {
        panic!("an object");
    };
    let params: Vec<String> = match top.get("params") {
        Some(Value::Object(p)) => {
            let members: Vec<(String, String)> =
                p.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            permutations(&members).iter().map(|m| object(m)).collect()
        }
        _ => vec![String::new()],
    };
    let mut out = Vec::new();
    for p in &params {
        let members: Vec<(String, String)> = top
            .iter()
            .map(|(k, v)| {
                let v = if k == "params" && !p.is_empty() {
                    p.clone()
                } else {
                    v.to_string()
                };
                (k.clone(), v)
            })
            .collect();
        for m in permutations(&members) {
            out.push(object(&m));
        }
    }
    out
}

/// The same message: equal, a raw result compared as a value (its own members are in
/// another order too).
fn same<R, N>(
    a: &Result<Message<R, N>, jsonrpc::ProtocolError>,
    b: &Result<Message<R, N>, jsonrpc::ProtocolError>,
    order: &str,
) where
    R: jsonrpc::MethodSet + PartialEq + std::fmt::Debug,
    N: jsonrpc::MethodSet + PartialEq + std::fmt::Debug,
{
    match (a, b) {
        (
            Ok(Message::Response { id, result, extra }),
            Ok(Message::Response {
                id: i,
                result: r,
                extra: e,
            }),
        ) => assert_eq!(
            (id, result.to_value(), extra),
            (i, r.to_value(), e),
            "{order}"
        ),
        _ => assert_eq!(a, b, "{order}"),
    }
}

const CLIENT: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1},"_meta":{"progressToken":"p"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":2}}"#,
    r#"{"jsonrpc":"2.0","id":"x","result":{"content":[]},"vendor":{"k":[1]}}"#,
    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"m","data":null},"trace":"t"}"#,
    r#"{"jsonrpc":"2.0","method":"vendor/thing","params":{"a":1},"id":3}"#,
];

const SERVER: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"x":1}}}"#,
];

#[test]
fn every_member_order_decodes_alike_through_every_entry_point() {
    let options = Options::default();
    let mut orders_run = 0;
    let mut tally = mcp_tests::fuzz::Tally::default();
    for text in CLIENT {
        let first = jsonrpc::decode::<ClientRequest, ClientNotification>(text.as_bytes(), options);
        for order in orders(text) {
            let again =
                jsonrpc::decode::<ClientRequest, ClientNotification>(order.as_bytes(), options);
            same(&again, &first, &order);
            mcp_tests::fuzz::run(&mut tally, order.as_bytes());
            orders_run += 1;
        }
    }
    for text in SERVER {
        let first = jsonrpc::decode::<ServerRequest, ServerNotification>(text.as_bytes(), options);
        assert!(
            matches!(first, Ok(ref m) if !matches!(m, Message::Batch(_))),
            "{text}: {first:?}"
        );
        for order in orders(text) {
            let again =
                jsonrpc::decode::<ServerRequest, ServerNotification>(order.as_bytes(), options);
            same(&again, &first, &order);
            mcp_tests::fuzz::run(&mut tally, order.as_bytes());
            orders_run += 1;
        }
    }
    println!(
        "{orders_run} member orders, {} comparisons, {} disagreements",
        tally.comparisons,
        tally.disagreements.len()
    );
    assert!(orders_run > 300, "{orders_run}");
    assert!(
        tally.disagreements.is_empty(),
        "{}",
        tally.disagreements.join("\n")
    );
}
