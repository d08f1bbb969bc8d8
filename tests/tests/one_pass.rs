//! `rt::jsonrpc::decode` and `receive` decode a request or notification in one pass when
//! its members come in the usual order, and fall back to reading the envelope first
//! otherwise. Either way the outcome must be the one `decode_value` gives on the parsed
//! message: these inputs put the members in every order that matters, repeat them, and
//! break them.

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
