//! The type-mapping rules, positive and negative, on the generated crate.

use mcp_spec_types::rt::path;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};

/// Decodes with path tracking and encodes back; the round trip must be exact.
fn exact<T: DeserializeOwned + Serialize>(value: Value) -> T {
    let typed: T =
        path::from_value(value.clone()).unwrap_or_else(|e| panic!("{value} should decode: {e}"));
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(back, value, "round trip changed the value");
    typed
}

/// Decoding must fail, with the error at `path` and its message containing `needle`.
fn rejects<T: DeserializeOwned + std::fmt::Debug>(value: Value, at: &str, needle: &str) -> String {
    let err = match path::from_value::<T>(value.clone()) {
        Ok(v) => panic!("{value} should not decode, got {v:?}"),
        Err(e) => e,
    };
    let text = err.to_string();
    assert_eq!(err.path(), at, "error path for {value}: {text}");
    assert!(
        text.contains(needle),
        "error for {value} should mention {needle:?}: {text}"
    );
    text
}

mod consts_are_enforced {
    use super::*;
    use mcp_spec_types::v2025_11_25 as m;

    fn call() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo"}})
    }

    #[test]
    fn valid_request_round_trips() {
        let req: m::CallToolRequest = exact(call());
        assert_eq!(req.params.name, "echo");
    }

    #[test]
    fn wrong_jsonrpc_version() {
        let mut v = call();
        v["jsonrpc"] = json!("1.0");
        rejects::<m::CallToolRequest>(v, "jsonrpc", "expected the string \"2.0\"");
    }

    #[test]
    fn missing_jsonrpc() {
        let mut v = call();
        v.as_object_mut().unwrap().remove("jsonrpc");
        rejects::<m::CallToolRequest>(v, "jsonrpc", "missing field `jsonrpc`");
    }

    #[test]
    fn wrong_method() {
        let mut v = call();
        v["method"] = json!("bogus");
        rejects::<m::CallToolRequest>(v, "method", "expected the string \"tools/call\"");
    }

    #[test]
    fn wrong_type_tag_on_a_struct() {
        rejects::<m::TextContent>(json!({"type": "image", "text": "x"}), "type", "\"text\"");
    }

    #[test]
    fn integer_const() {
        let ok = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32042, "message": "m",
            "data": {"elicitations": []}}});
        exact::<m::UrlElicitationRequiredError>(ok.clone());
        let mut bad = ok;
        bad["error"]["code"] = json!(-32000);
        rejects::<m::UrlElicitationRequiredError>(bad, "error.code", "-32042");
    }

    #[test]
    fn const_markers_construct_by_default() {
        let text = m::TextContent {
            text: "hi".into(),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&text).unwrap(),
            json!({"type": "text", "text": "hi"})
        );
        assert_eq!(m::consts::ToolsCall::VALUE, "tools/call");
    }
}

mod tagged_unions {
    use super::*;
    use mcp_spec_types::v2025_11_25 as m;

    #[test]
    fn every_content_block_arm() {
        let cases = [
            (json!({"type": "text", "text": "t"}), "TextContent"),
            (
                json!({"type": "image", "data": "AA==", "mimeType": "image/png"}),
                "ImageContent",
            ),
            (
                json!({"type": "audio", "data": "AA==", "mimeType": "audio/wav"}),
                "AudioContent",
            ),
            (
                json!({"type": "resource_link", "uri": "file:///a", "name": "a"}),
                "ResourceLink",
            ),
            (
                json!({"type": "resource", "resource": {"uri": "file:///a", "text": "x"}}),
                "EmbeddedResource",
            ),
        ];
        for (value, arm) in cases {
            let block: m::ContentBlock = exact(value);
            let got = match block {
                m::ContentBlock::TextContent(_) => "TextContent",
                m::ContentBlock::ImageContent(_) => "ImageContent",
                m::ContentBlock::AudioContent(_) => "AudioContent",
                m::ContentBlock::ResourceLink(_) => "ResourceLink",
                m::ContentBlock::EmbeddedResource(_) => "EmbeddedResource",
                m::ContentBlock::Unknown(_) => "Unknown",
            };
            assert_eq!(got, arm);
        }
    }

    #[test]
    fn unknown_tag_is_kept_and_strictly_reported() {
        let block: m::ContentBlock = exact(json!({"type": "video", "frames": [1, 2]}));
        assert!(matches!(block, m::ContentBlock::Unknown(_)));
        let e = mcp_spec_types::rt::strict::from_str::<m::ContentBlock>(r#"{"type":"video"}"#)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "at the root: ContentBlock has no arm for `type` \"video\""
        );
    }

    #[test]
    fn a_known_tag_with_a_bad_field_is_an_error_of_that_arm() {
        let e = rejects::<m::ContentBlock>(
            json!({"type": "audio", "data": 5, "mimeType": "a"}),
            "data",
            "AudioContent",
        );
        assert!(
            e.starts_with("at `data`: ContentBlock (as AudioContent)"),
            "{e}"
        );
    }

    #[test]
    fn nested_path_points_into_the_array() {
        let v = json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": 7}]});
        let e = rejects::<m::CallToolResult>(v, "content[1].text", "TextContent");
        assert!(
            e.starts_with("at `content[1].text`: ContentBlock (as TextContent)"),
            "{e}"
        );
    }

    #[test]
    fn elicit_mode_absent_means_form() {
        let form = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
        assert!(matches!(
            exact::<m::ElicitRequestParams>(form.clone()),
            m::ElicitRequestParams::ElicitRequestFormParams(_)
        ));
        let mut explicit = form;
        explicit["mode"] = json!("form");
        assert!(matches!(
            exact::<m::ElicitRequestParams>(explicit),
            m::ElicitRequestParams::ElicitRequestFormParams(_)
        ));
        let url = json!({"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e"});
        assert!(matches!(
            exact::<m::ElicitRequestParams>(url),
            m::ElicitRequestParams::ElicitRequestUrlParams(_)
        ));
    }

    #[test]
    fn sampling_content_single_or_array() {
        let one: m::SamplingMessageContent = exact(json!({"type": "text", "text": "a"}));
        assert!(matches!(one, m::SamplingMessageContent::TextContent(_)));
        let many: m::SamplingMessageContent = exact(json!([{"type": "text", "text": "a"}]));
        assert!(matches!(many, m::SamplingMessageContent::Array(_)));
        let tool_use: m::SamplingMessageContent =
            exact(json!({"type": "tool_use", "id": "1", "name": "n", "input": {}}));
        assert!(matches!(
            tool_use,
            m::SamplingMessageContent::ToolUseContent(_)
        ));
    }
}

mod untagged_unions {
    use super::*;
    use mcp_spec_types::{v2025_03_26 as old, v2025_11_25 as m};

    #[test]
    fn request_id_and_progress_token_by_json_kind() {
        assert_eq!(
            exact::<m::RequestId>(json!("a")),
            m::RequestId::String("a".into())
        );
        assert_eq!(exact::<m::RequestId>(json!(7)), m::RequestId::Integer(7));
        assert_eq!(
            exact::<m::ProgressToken>(json!("p")),
            m::ProgressToken::String("p".into())
        );
        assert_eq!(
            exact::<m::ProgressToken>(json!(-1)),
            m::ProgressToken::Integer(-1)
        );
        rejects::<m::RequestId>(
            json!(1.5),
            "",
            "expected a string or an integer, found a number",
        );
        rejects::<m::RequestId>(json!(null), "", "found null");
    }

    #[test]
    fn request_id_at_the_i64_bounds() {
        assert_eq!(
            exact::<m::RequestId>(json!(i64::MAX)),
            m::RequestId::Integer(i64::MAX)
        );
        assert_eq!(
            exact::<m::RequestId>(json!(i64::MIN)),
            m::RequestId::Integer(i64::MIN)
        );
        assert!(path::from_value::<m::RequestId>(json!(u64::MAX)).is_err());
    }

    #[test]
    fn resource_contents_by_required_keys() {
        let text = exact::<m::EmbeddedResourceResource>(json!({"uri": "u", "text": "t"}));
        assert!(matches!(
            text,
            m::EmbeddedResourceResource::TextResourceContents(_)
        ));
        let blob = exact::<m::EmbeddedResourceResource>(json!({"uri": "u", "blob": "AA=="}));
        assert!(matches!(
            blob,
            m::EmbeddedResourceResource::BlobResourceContents(_)
        ));
        rejects::<m::EmbeddedResourceResource>(json!({"uri": "u"}), "", "no arm fits");
        rejects::<m::EmbeddedResourceResource>(
            json!({"uri": "u", "text": "t", "blob": "b"}),
            "",
            "ambiguous",
        );
    }

    #[test]
    fn every_primitive_schema_definition_arm() {
        use m::PrimitiveSchemaDefinition as P;
        type Case = (Value, fn(&P) -> bool);
        let cases: Vec<Case> = vec![
            (json!({"type": "string"}), |p| {
                matches!(p, P::StringSchema(_))
            }),
            (json!({"type": "string", "format": "email"}), |p| {
                matches!(p, P::StringSchema(_))
            }),
            (json!({"type": "number"}), |p| {
                matches!(p, P::NumberSchema(_))
            }),
            (json!({"type": "integer", "minimum": 1}), |p| {
                matches!(p, P::NumberSchema(_))
            }),
            (json!({"type": "boolean", "default": true}), |p| {
                matches!(p, P::BooleanSchema(_))
            }),
            (json!({"type": "string", "enum": ["a", "b"]}), |p| {
                matches!(p, P::UntitledSingleSelectEnumSchema(_))
            }),
            (
                json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
                |p| matches!(p, P::TitledSingleSelectEnumSchema(_)),
            ),
            (
                json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}),
                |p| matches!(p, P::UntitledMultiSelectEnumSchema(_)),
            ),
            (
                json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}),
                |p| matches!(p, P::TitledMultiSelectEnumSchema(_)),
            ),
            (
                json!({"type": "string", "enum": ["a"], "enumNames": ["A"]}),
                |p| matches!(p, P::LegacyTitledEnumSchema(_)),
            ),
        ];
        for (value, check) in cases {
            let p: P = exact(value.clone());
            assert!(check(&p), "{value} decoded as {p:?}");
        }
    }

    #[test]
    fn json_rpc_message_with_batches() {
        use old::JsonRpcMessage as M;
        let req = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let res = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
        let err = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "m"}});
        assert!(matches!(exact::<M>(req.clone()), M::JsonRpcRequest(_)));
        assert!(matches!(
            exact::<M>(note.clone()),
            M::JsonRpcNotification(_)
        ));
        assert!(matches!(exact::<M>(res.clone()), M::JsonRpcResponse(_)));
        assert!(matches!(exact::<M>(err.clone()), M::JsonRpcError(_)));
        assert!(matches!(
            exact::<M>(json!([req, note])),
            M::JsonRpcBatchRequest(_)
        ));
        assert!(matches!(
            exact::<M>(json!([res, err])),
            M::JsonRpcBatchResponse(_)
        ));
        rejects::<M>(json!([]), "", "empty array");
    }

    #[test]
    fn client_result_most_specific_arm() {
        use m::AnyClientResult as R;
        assert!(matches!(exact::<R>(json!({})), R::ResultObject(_)));
        assert!(matches!(
            exact::<R>(json!({"roots": []})),
            R::ListRootsResult(_)
        ));
        assert!(matches!(
            exact::<R>(json!({"action": "cancel"})),
            R::ElicitResult(_)
        ));
        let create =
            json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "x"}});
        assert!(matches!(exact::<R>(create), R::CreateMessageResult(_)));
        // GetTaskResult and CancelTaskResult are the same shape: the override table
        // makes decoding choose GetTaskResult.
        let task = json!({"taskId": "t", "status": "working", "createdAt": "c", "lastUpdatedAt": "l", "ttl": null});
        assert!(matches!(exact::<R>(task), R::GetTaskResult(_)));
    }

    #[test]
    fn implied_result_type_tag() {
        use mcp_spec_types::v2026_07_28 as n;
        use n::CallToolOutcome as R;
        let input = json!({"resultType": "input_required", "requestState": "s"});
        assert!(matches!(exact::<R>(input), R::InputRequiredResult(_)));
        let done = json!({"resultType": "complete", "content": []});
        assert!(matches!(exact::<R>(done), R::CallToolResult(_)));
        // Absent means complete, so the arm is CallToolResult, whose schema in this
        // version requires `resultType`: the error comes from that arm.
        let e = rejects::<R>(
            json!({"content": []}),
            "resultType",
            "missing field `resultType`",
        );
        assert!(e.contains("as CallToolResult"), "{e}");
    }
}

mod presence_and_nullability {
    use super::*;
    use mcp_spec_types::v2025_11_25 as m;

    fn task() -> Value {
        json!({"taskId": "t", "status": "working", "createdAt": "c", "lastUpdatedAt": "l", "ttl": null})
    }

    #[test]
    fn required_nullable_null_survives() {
        let t: m::Task = exact(task());
        assert_eq!(t.ttl, None);
        let mut with_ttl = task();
        with_ttl["ttl"] = json!(60000);
        assert_eq!(exact::<m::Task>(with_ttl).ttl, Some(60000));
    }

    #[test]
    fn required_nullable_absent_is_an_error() {
        let mut v = task();
        v.as_object_mut().unwrap().remove("ttl");
        rejects::<m::Task>(v, "ttl", "missing field `ttl`");
    }

    #[test]
    fn absent_array_is_not_an_empty_array() {
        let absent: m::Tool = exact(json!({"name": "t", "inputSchema": {"type": "object"}}));
        assert_eq!(absent.icons, None);
        let empty: m::Tool =
            exact(json!({"name": "t", "inputSchema": {"type": "object"}, "icons": []}));
        assert_eq!(empty.icons, Some(vec![]));
    }

    #[test]
    fn empty_capability_object_survives() {
        let caps: m::ClientCapabilities =
            exact(json!({"sampling": {}, "roots": {"listChanged": true}}));
        assert!(caps.sampling.is_some());
        let none: m::ClientCapabilities = exact(json!({}));
        assert!(none.sampling.is_none());
    }

    #[test]
    fn missing_required_field_is_named() {
        rejects::<m::Tool>(
            json!({"inputSchema": {"type": "object"}}),
            "name",
            "missing field `name`",
        );
    }

    #[test]
    fn wrong_type_deep_inside_is_located() {
        let v = json!({"name": "t", "inputSchema": {"type": "object", "required": ["a", 5]}});
        rejects::<m::Tool>(v, "inputSchema.required[1]", "expected a string");
    }
}

mod open_objects {
    use super::*;
    use mcp_spec_types::v2025_11_25 as m;

    #[test]
    fn unknown_keys_survive_everywhere() {
        let v = json!({
            "jsonrpc": "2.0", "id": "x", "method": "tools/call", "vendor": {"a": 1},
            "params": {"name": "n", "_meta": {"progressToken": 1, "com.example/trace": "t"}, "extra": true}
        });
        let req: m::CallToolRequest = exact(v);
        assert_eq!(req.extra["vendor"], json!({"a": 1}));
    }

    #[test]
    fn result_object_keeps_everything() {
        let r: m::ResultObject =
            exact(json!({"_meta": {"k": [1, 2]}, "anything": {"nested": null}}));
        assert!(r.extra.contains_key("anything"));
    }
}

mod numbers {
    use super::*;
    use mcp_spec_types::{v2025_11_25 as m, v2026_07_28 as n};

    #[test]
    fn numbers_write_back_what_they_read() {
        for raw in ["50", "0.5", "1", "0", "1e-7", "0.30000000000000004"] {
            let v: Value = serde_json::from_str(&format!(r#"{{"costPriority": {raw}}}"#)).unwrap();
            let prefs: m::ModelPreferences = exact(v);
            let text = serde_json::to_string(&prefs).unwrap();
            let expected =
                serde_json::to_string(&serde_json::from_str::<Value>(raw).unwrap()).unwrap();
            assert_eq!(text, format!(r#"{{"costPriority":{expected}}}"#));
        }
        let fifty =
            serde_json::to_string(&exact::<m::ModelPreferences>(json!({"costPriority": 50})))
                .unwrap();
        assert_eq!(fifty, r#"{"costPriority":50}"#);
    }

    #[test]
    fn integers_are_i64_and_checked() {
        let v = json!({"progressToken": 1, "progress": 2, "total": 3});
        exact::<m::ProgressNotificationParams>(v);
        rejects::<m::Task>(
            json!({"taskId": "t", "status": "working", "createdAt": "c", "lastUpdatedAt": "l", "ttl": 1.5}),
            "ttl",
            "invalid type",
        );
    }

    #[test]
    fn minimum_zero_integers_are_unsigned() {
        // 2026-07-28 declares `ttlMs` with `minimum: 0`.
        let ok =
            json!({"resultType": "complete", "contents": [], "cacheScope": "public", "ttlMs": 0});
        let r: n::ReadResourceResult = exact(ok.clone());
        let _: u64 = r.ttl_ms;
        let mut neg = ok;
        neg["ttlMs"] = json!(-1);
        rejects::<n::ReadResourceResult>(neg, "ttlMs", "invalid value");
    }
}

mod string_enums {
    use super::*;
    use mcp_spec_types::v2025_11_25 as m;

    #[test]
    fn from_str_display_all() {
        for level in m::LoggingLevel::ALL {
            let s = level.to_string();
            assert_eq!(&s.parse::<m::LoggingLevel>().unwrap(), level);
            assert_eq!(serde_json::to_value(level).unwrap(), json!(s));
        }
        assert_eq!(m::LoggingLevel::ALL.len(), 8);
        let err = "loud".parse::<m::LoggingLevel>().unwrap_err();
        assert_eq!(err.value(), "loud");
        assert!(err.to_string().contains("`warning`"), "{err}");
    }

    #[test]
    fn unknown_value_is_kept_and_strictly_reported_at_its_path() {
        let v = json!({"level": "loud", "data": 1});
        let params: m::LoggingMessageNotificationParams = exact(v.clone());
        assert_eq!(params.level, m::LoggingLevel::Unknown("loud".to_string()));
        let e = mcp_spec_types::rt::strict::from_str::<m::LoggingMessageNotificationParams>(
            &v.to_string(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "at `level`: LoggingLevel has no value \"loud\""
        );
        rejects::<m::Role>(
            json!(7),
            "",
            "expected a string: one of `assistant`, `user`",
        );
    }
}
