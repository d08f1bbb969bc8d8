//! The schema's own message type (`JsonRpcMessage`), decoded by `rt::path::from_str` and
//! written back, against the envelope (`rt::jsonrpc::decode`) on the same bytes: what the
//! envelope keeps, the schema's type keeps too, or the difference is listed here.

use mcp_spec_types::rt::jsonrpc::{self, Options};
use mcp_spec_types::rt::path;
use mcp_spec_types::v2025_11_25 as v;
use mcp_spec_types::v2025_11_25::methods::{ClientNotification, ClientRequest};
use serde_json::Value;

/// The bytes written back by the schema's type, and by the envelope, as JSON values.
fn both(text: &str) -> (Value, Value) {
    let schema: v::JsonRpcMessage = path::from_str(text).expect("the schema's type decodes it");
    let schema = serde_json::to_value(&schema).expect("it encodes");
    let envelope =
        jsonrpc::decode::<ClientRequest, ClientNotification>(text.as_bytes(), Options::default())
            .expect("the envelope decodes it");
    let envelope: Value =
        serde_json::from_slice(&jsonrpc::encode_to_vec(&envelope).expect("it encodes")).unwrap();
    (schema, envelope)
}

#[test]
fn an_error_keeps_data_null_either_way() {
    let text = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m","data":null}}"#;
    let original: Value = serde_json::from_str(text).unwrap();
    let (schema, envelope) = both(text);
    assert_eq!(schema, original);
    assert_eq!(envelope, original);
}

/// Known difference, left for later: an id written as a whole number in another form
/// (`1.0`, `1E2`, `-0`) is kept as written by the envelope (`Id::Written`), while the
/// schema's `RequestId` reads it as the integer and writes it back plainly. This test
/// fails when that changes, so that this note is removed with it.
#[test]
fn known_difference_an_id_written_otherwise_is_written_plainly_by_the_schema_type() {
    for (id, plain) in [("1.0", "1"), ("1E2", "100"), ("-0", "0")] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let (schema, envelope) = both(&text);
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(envelope, original, "the envelope keeps {id}");
        let plain: Value = serde_json::from_str(plain).unwrap();
        assert_eq!(
            schema["id"], plain,
            "the schema's type now keeps {id}: remove this known difference"
        );
    }
}
