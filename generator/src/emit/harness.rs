//! The round-trip harness of one version in the `tests` crate (`tests/src/<version>.rs`).

use quote::{format_ident, quote};

use super::rust::{header, ident, module_name, pretty};
use crate::Error;
use crate::model::{Kind, Model, Origin};

/// Emits the test harness of one version: every definition by schema name, with a
/// function that decodes a JSON value as that definition and encodes it back.
pub fn emit_harness(model: &Model, source: &str) -> Result<String, Error> {
    let module = ident(&module_name(&model.version));
    let defs: Vec<(&str, &str)> = model
        .types
        .iter()
        .filter_map(|t| match &t.origin {
            Origin::Definition(d) => Some((d.as_str(), t.name.as_str())),
            Origin::Inline(_) | Origin::Results(_) => None,
        })
        .collect();
    let pairs = defs.iter().map(|(d, r)| quote!((#d, #r)));
    let arms = defs.iter().map(|(d, r)| {
        let r = ident(r);
        quote!(#d => crate::roundtrip::<m::#r>(value),)
    });
    let schemas = defs.iter().map(|(d, r)| {
        let r = ident(r);
        quote!(#d => schemars::SchemaGenerator::default().into_root_schema_for::<m::#r>(),)
    });
    let unions = model
        .types
        .iter()
        .filter_map(|t| match (&t.origin, &t.kind) {
            (Origin::Definition(d), Kind::Union { .. }) => {
                let r = ident(&t.name);
                Some(quote!(#d => m::#r::DECODE,))
            }
            _ => None,
        });
    let all_unions = model.types.iter().filter_map(|t| match &t.kind {
        Kind::Union { .. } => {
            let (n, r) = (&t.name, ident(&t.name));
            Some(quote!((#n, m::#r::DECODE),))
        }
        _ => None,
    });
    let string_enums = model.types.iter().filter_map(|t| match &t.kind {
        Kind::StringEnum { .. } => Some(t.name.as_str()),
        _ => None,
    });
    let checked_arms = model.types.iter().filter_map(|t| match &t.kind {
        Kind::Alias { .. } => None,
        _ => {
            let (n, r) = (&t.name, ident(&t.name));
            Some(quote!(#n => crate::checked::<m::#r>(value),))
        }
    });
    let result_encoder = |name: &str, client_sends: bool| {
        let f = format_ident!(
            "{}_value",
            if client_sends {
                "server_result"
            } else {
                "client_result"
            }
        );
        let e = ident(name);
        let arms = model
            .methods
            .iter()
            .filter(|m| m.kind == crate::model::MessageKind::Request)
            .filter(|m| match m.direction {
                crate::model::Direction::Both => true,
                crate::model::Direction::ClientToServer => client_sends,
                crate::model::Direction::ServerToClient => !client_sends,
            })
            .map(|m| {
                let v = ident(&m.marker_name());
                quote!(m::methods::#e::#v(x) => serde_json::to_value(x).unwrap(),)
            })
            .collect::<Vec<_>>();
        let body = if arms.is_empty() {
            quote!(match *r {})
        } else {
            quote!(match r { #( #arms )* })
        };
        quote! {
            fn #f(r: &m::methods::#e) -> serde_json::Value { #body }
        }
    };
    let server_results = result_encoder("ServerResult", true);
    let client_results = result_encoder("ClientResult", false);
    let doc = format!(
        " Every definition of protocol version `{}`, for tests.",
        model.version
    );
    let allow_deprecated = super::rust::allow_deprecated(model);
    let tokens = quote! {
        #![doc = #doc]
        #allow_deprecated
        use mcp_spec_types::#module as m;

        /// `(schema name, Rust name)` of every definition, sorted by Rust name.
        pub const DEFINITIONS: &[(&str, &str)] = &[ #( #pairs ),* ];

        /// `(Rust name, decoding facts)` of every union, definitions and inline ones.
        pub const UNIONS: &[(&str, mcp_spec_types::rt::union::Union)] = &[ #( #all_unions )* ];

        /// The Rust name of every string enum.
        pub const STRING_ENUMS: &[&str] = &[ #( #string_enums ),* ];

        /// Decodes `value` tolerantly as the type named `rust_name` (any generated type but
        /// an alias), and returns it encoded back with what a strict check finds in it;
        /// `None` if there is no such type.
        pub fn checked(rust_name: &str, value: serde_json::Value) -> Option<Result<(serde_json::Value, Vec<mcp_spec_types::rt::strict::Issue>), String>> {
            Some(match rust_name {
                #( #checked_arms )*
                _ => return None,
            })
        }

        /// Decodes `value` as the definition named `definition` and encodes it back;
        /// `None` if there is no such definition.
        pub fn roundtrip(definition: &str, value: serde_json::Value) -> Option<Result<serde_json::Value, String>> {
            Some(match definition {
                #( #arms )*
                _ => return None,
            })
        }

        /// The JSON Schema that `schemars` derives for the definition named `definition`.
        pub fn schema(definition: &str) -> Option<schemars::Schema> {
            Some(match definition {
                #( #schemas )*
                _ => return None,
            })
        }

        /// Decodes a message as a server (`client == false`) or client would, returning the
        /// method of a request or notification (or `""`) and the message encoded back.
        pub fn decode_message(bytes: &[u8], from_client: bool, keep: bool) -> Result<(String, serde_json::Value), mcp_spec_types::rt::jsonrpc::ProtocolError> {
            use mcp_spec_types::rt::jsonrpc::{self as j, MethodSet, Message};
            let unknown = if keep { j::UnknownMethods::Keep } else { j::UnknownMethods::Reject };
            fn method_of<R: MethodSet, N: MethodSet>(m: &Message<R, N>) -> String {
                match m {
                    Message::Request { request, .. } => request.method().to_string(),
                    Message::Notification { notification, .. } => notification.method().to_string(),
                    _ => String::new(),
                }
            }
            if from_client {
                let m = m::methods::decode_from_client(bytes, unknown)?;
                Ok((method_of(&m), serde_json::to_value(&m).unwrap()))
            } else {
                let m = m::methods::decode_from_server(bytes, unknown)?;
                Ok((method_of(&m), serde_json::to_value(&m).unwrap()))
            }
        }

        /// Decodes the result of a request of `method` through `ServerResult` (answered by
        /// the server) or `ClientResult`, and encodes it back.
        pub fn decode_result(method: &str, by_server: bool, raw: serde_json::Value) -> Result<serde_json::Value, String> {
            let method: m::methods::Method = method.parse().map_err(|e| format!("{e}"))?;
            let raw = mcp_spec_types::rt::jsonrpc::RawResult::from_value(&raw).map_err(|e| e.to_string())?;
            if by_server {
                let r = m::methods::ServerResult::decode(method, &raw).map_err(|e| e.to_string())?;
                same_encoding(server_result_value(&r), &r)
            } else {
                let r = m::methods::ClientResult::decode(method, &raw).map_err(|e| e.to_string())?;
                same_encoding(client_result_value(&r), &r)
            }
        }

        /// The result encoded variant by variant, checked against the enum's own encoding.
        fn same_encoding<T: serde::Serialize>(by_variant: serde_json::Value, whole: &T) -> Result<serde_json::Value, String> {
            let direct = serde_json::to_value(whole).map_err(|e| e.to_string())?;
            if direct == by_variant {
                Ok(by_variant)
            } else {
                Err(format!("the result enum encodes {direct}, its variant {by_variant}"))
            }
        }

        /// Every method the generated `Method` enum knows: string, direction, kind.
        pub fn methods() -> Vec<(&'static str, mcp_spec_types::rt::method::Direction, mcp_spec_types::rt::method::MessageKind)> {
            m::methods::Method::ALL.iter().map(|x| (x.as_str(), x.direction(), x.kind())).collect()
        }

        #server_results
        #client_results

        /// The decoding facts of the union definition named `definition`.
        pub fn union(definition: &str) -> Option<mcp_spec_types::rt::union::Union> {
            Some(match definition {
                #( #unions )*
                _ => return None,
            })
        }
    };
    Ok(header(source, &model.schema_sha256) + &pretty(tokens, "test harness")?)
}
