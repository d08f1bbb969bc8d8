//! A version's `methods.rs`: a marker type per method, the method enum, the method sets
//! each side sends (requests, notifications, results) with their decoders, and the error
//! codes.

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::rust::{ident, params_type, result_type, wire_text_impls};
use crate::Error;
use crate::model::{MethodDef, Model, Origin};

/// Emits `methods.rs`: one marker type per method implementing `rt::method::Request` or
/// `rt::method::Notification`, and the `Method` enum.
pub(super) fn emit_methods(model: &Model, source: &str) -> Result<TokenStream, Error> {
    use crate::model::{Direction, MessageKind};
    let mut markers = Vec::new();
    let mut seen = BTreeMap::new();
    for m in &model.methods {
        let name = m.marker_name();
        if let Some(other) = seen.insert(name.clone(), m.method.clone()) {
            return Err(Error::msg(format!(
                "{source}: methods `{other}` and `{}` would share the marker `{name}`",
                m.method
            )));
        }
        markers.push((name, m));
    }
    let direction = |d: Direction| match d {
        Direction::ClientToServer => quote!(crate::rt::method::Direction::ClientToServer),
        Direction::ServerToClient => quote!(crate::rt::method::Direction::ServerToClient),
        Direction::Both => quote!(crate::rt::method::Direction::Both),
    };
    let items = markers.iter().map(|(name, m)| {
        let marker = ident(name);
        let method = &m.method;
        let dir = direction(m.direction);
        let message = ident(&m.definition);
        let params = params_type(m).unwrap_or_else(|| quote!(()));
        let required = m.params_required;
        let who = match m.direction {
            Direction::ClientToServer => "the client sends to the server",
            Direction::ServerToClient => "the server sends to the client",
            Direction::Both => "either side sends",
        };
        match m.kind {
            MessageKind::Request => {
                let result = result_type(m);
                let results = m
                    .results
                    .iter()
                    .map(|r| format!("[`{r}`](super::{r})"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                let doc = format!(
                    " `{method}`: a request {who} ([`{}`](super::{})), answered by {results}.",
                    m.definition, m.definition
                );
                quote! {
                    #[doc = #doc]
                    #[derive(Debug)]
                    pub enum #marker {}
                    impl crate::rt::method::Request for #marker {
                        const METHOD: &'static str = #method;
                        const DIRECTION: crate::rt::method::Direction = #dir;
                        const PARAMS_REQUIRED: bool = #required;
                        type Message = super::#message;
                        type Params = #params;
                        type Result = #result;
                    }
                }
            }
            MessageKind::Notification => {
                let doc = format!(
                    " `{method}`: a notification {who} ([`{}`](super::{})).",
                    m.definition, m.definition
                );
                quote! {
                    #[doc = #doc]
                    #[derive(Debug)]
                    pub enum #marker {}
                    impl crate::rt::method::Notification for #marker {
                        const METHOD: &'static str = #method;
                        const DIRECTION: crate::rt::method::Direction = #dir;
                        const PARAMS_REQUIRED: bool = #required;
                        type Message = super::#message;
                        type Params = #params;
                    }
                }
            }
        }
    });
    let variants: Vec<Ident> = markers.iter().map(|(n, _)| ident(n)).collect();
    let strings: Vec<&str> = markers.iter().map(|(_, m)| m.method.as_str()).collect();
    let dirs = markers.iter().map(|(_, m)| direction(m.direction));
    let kinds = markers.iter().map(|(_, m)| match m.kind {
        MessageKind::Request => quote!(crate::rt::method::MessageKind::Request),
        MessageKind::Notification => quote!(crate::rt::method::MessageKind::Notification),
    });
    let variant_docs = strings.iter().map(|s| format!(" `{s}`"));
    let text_impls = wire_text_impls(
        &format_ident!("Method"),
        "JSON-RPC method",
        &variants,
        &strings,
    );
    let module_doc = format!(
        " The {} JSON-RPC methods of {}: a marker type per method, \
         implementing [`Request`](crate::rt::method::Request) or \
         [`Notification`](crate::rt::method::Notification), and the [`Method`] enum.",
        model.methods.len(),
        model.described()
    );
    let sets = method_sets(model);
    let batches = model
        .types
        .iter()
        .any(|t| matches!(&t.origin, Origin::Definition(d) if d.starts_with("JSONRPCBatch")));
    let error_codes = error_codes(model);
    let allow_deprecated = super::rust::allow_deprecated(model);
    let tokens = quote! {
        #![doc = #module_doc]
        #allow_deprecated
        #( #items )*

        #sets

        /// Whether this protocol version allows JSON-RPC batches.
        pub const BATCHES: bool = #batches;

        /// What a server receives: client requests and notifications, responses to its own requests.
        pub type ClientMessage = crate::rt::jsonrpc::Message<ClientRequest, ClientNotification>;

        /// What a client receives: server requests and notifications, responses to its own requests.
        pub type ServerMessage = crate::rt::jsonrpc::Message<ServerRequest, ServerNotification>;

        /// This version's decoding options: unknown methods rejected, batches as the
        /// version allows them. (`Options::default()` allows no batch: right for every
        /// version but 2025-03-26; these are right for this one.)
        pub const OPTIONS: crate::rt::jsonrpc::Options = crate::rt::jsonrpc::Options {
            unknown_methods: crate::rt::jsonrpc::UnknownMethods::Reject,
            batches: BATCHES,
        };

        /// What a server receives, its responses included: a client's request or
        /// notification, or the response to a request the server sent, its result decoded
        /// by the method `method_of` gives for the response's id (`None`: the raw result
        /// is kept, as [`decode_from_client`] keeps it).
        pub fn receive_from_client(
            bytes: impl AsRef<[u8]>,
            unknown_methods: crate::rt::jsonrpc::UnknownMethods,
            method_of: impl FnMut(&crate::rt::jsonrpc::Id) -> ::std::option::Option<Method>,
        ) -> ::std::result::Result<
            crate::rt::jsonrpc::Incoming<ClientRequest, ClientNotification, ClientResult>,
            crate::rt::jsonrpc::ProtocolError,
        > {
            crate::rt::jsonrpc::receive_typed(bytes.as_ref(), crate::rt::jsonrpc::Options { unknown_methods, batches: BATCHES }, method_of)
        }

        /// What a client receives, its responses included: a server's request or
        /// notification, or the response to a request the client sent, its result decoded
        /// by the method `method_of` gives for the response's id (`None`: the raw result
        /// is kept, as [`decode_from_server`] keeps it).
        pub fn receive_from_server(
            bytes: impl AsRef<[u8]>,
            unknown_methods: crate::rt::jsonrpc::UnknownMethods,
            method_of: impl FnMut(&crate::rt::jsonrpc::Id) -> ::std::option::Option<Method>,
        ) -> ::std::result::Result<
            crate::rt::jsonrpc::Incoming<ServerRequest, ServerNotification, ServerResult>,
            crate::rt::jsonrpc::ProtocolError,
        > {
            crate::rt::jsonrpc::receive_typed(bytes.as_ref(), crate::rt::jsonrpc::Options { unknown_methods, batches: BATCHES }, method_of)
        }

        /// Decodes a message a client sent (see [`crate::rt::jsonrpc`] for the rules).
        pub fn decode_from_client(
            bytes: impl AsRef<[u8]>,
            unknown_methods: crate::rt::jsonrpc::UnknownMethods,
        ) -> ::std::result::Result<ClientMessage, crate::rt::jsonrpc::ProtocolError> {
            crate::rt::jsonrpc::decode(bytes.as_ref(), crate::rt::jsonrpc::Options { unknown_methods, batches: BATCHES })
        }

        /// Decodes a message a server sent (see [`crate::rt::jsonrpc`] for the rules).
        pub fn decode_from_server(
            bytes: impl AsRef<[u8]>,
            unknown_methods: crate::rt::jsonrpc::UnknownMethods,
        ) -> ::std::result::Result<ServerMessage, crate::rt::jsonrpc::ProtocolError> {
            crate::rt::jsonrpc::decode(bytes.as_ref(), crate::rt::jsonrpc::Options { unknown_methods, batches: BATCHES })
        }

        #error_codes

        /// Every method of this version.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Method {
            #( #[doc = #variant_docs] #variants, )*
        }

        impl Method {
            /// Every method, sorted by method string.
            pub const ALL: &'static [Method] = &[ #( Method::#variants ),* ];

            /// The method string.
            pub const fn as_str(self) -> &'static str {
                match self { #( Method::#variants => #strings, )* }
            }

            /// Who sends it.
            pub const fn direction(self) -> crate::rt::method::Direction {
                match self { #( Method::#variants => #dirs, )* }
            }

            /// Request or notification.
            pub const fn kind(self) -> crate::rt::method::MessageKind {
                match self { #( Method::#variants => #kinds, )* }
            }
        }

                #text_impls
    };
    Ok(tokens)
}

/// The sets of methods each side handles, and the result enums, for `methods.rs`.
fn method_sets(model: &Model) -> TokenStream {
    use crate::model::{Carried, MessageKind, Sender};
    let (request, notification) = (MessageKind::Request, MessageKind::Notification);
    let client_requests = model.method_set(request, Sender::Client, Carried::AsMessages);
    let server_requests = model.method_set(request, Sender::Server, Carried::AsMessages);
    let server_answers = model.method_set(request, Sender::Client, Carried::AlsoInResults);
    let client_answers = model.method_set(request, Sender::Server, Carried::AlsoInResults);
    let client_notifications = model.method_set(notification, Sender::Client, Carried::AsMessages);
    let server_notifications = model.method_set(notification, Sender::Server, Carried::AsMessages);
    let sets = [
        method_enum(
            "ClientRequest",
            " The requests a client sends: what a server decodes.",
            &client_requests,
        ),
        method_enum(
            "ServerRequest",
            " The JSON-RPC requests a server sends: what a client decodes.",
            &server_requests,
        ),
        method_enum(
            "ClientNotification",
            " The notifications a client sends.",
            &client_notifications,
        ),
        method_enum(
            "ServerNotification",
            " The notifications a server sends.",
            &server_notifications,
        ),
        result_enum(
            "ServerResult",
            " The results a server sends, one variant per request it answers.",
            &server_answers,
        ),
        result_enum(
            "ClientResult",
            " The results a client sends, one variant per request it answers.",
            &client_answers,
        ),
    ];
    quote!( #( #sets )* )
}

/// The enum of a method set (`ClientRequest`: one variant per method, with its params),
/// and its `MethodSet` implementation: decoding params by method, writing them, naming
/// the method.
fn method_enum(name: &str, doc: &str, methods: &[&MethodDef]) -> TokenStream {
    let enum_name = ident(name);
    let mut variants = Vec::new();
    let mut decode_arms = Vec::new();
    let mut write_arms = Vec::new();
    let mut method_arms = Vec::new();
    for m in methods {
        let v = ident(&m.marker_name());
        let method = &m.method;
        let vdoc = format!(" `{method}`");
        match (params_type(m), m.params_required) {
            (Some(t), true) => {
                variants.push(quote!(#[doc = #vdoc] #v(#t),));
                decode_arms
                    .push(quote!(#method => Self::#v(crate::rt::jsonrpc::required(params)?),));
                write_arms.push(
                    quote!(Self::#v(p) => map.serialize_entry(crate::rt::jsonrpc::PARAMS, p),),
                );
            }
            (Some(t), false) => {
                variants.push(quote!(#[doc = #vdoc] #v(::std::option::Option<#t>),));
                decode_arms
                    .push(quote!(#method => Self::#v(crate::rt::jsonrpc::optional(params)?),));
                write_arms.push(quote!(Self::#v(Some(p)) => map.serialize_entry(crate::rt::jsonrpc::PARAMS, p),));
                write_arms.push(quote!(Self::#v(None) => Ok(()),));
            }
            (None, _) => {
                variants.push(quote!(#[doc = #vdoc] #v,));
                decode_arms.push(quote!(#method => { crate::rt::jsonrpc::optional::<serde::de::IgnoredAny>(params)?; Self::#v }));
                write_arms.push(quote!(Self::#v => Ok(()),));
            }
        }
        method_arms.push(quote!(Self::#v { .. } => #method,));
    }
    let decode_body = if decode_arms.is_empty() {
        quote! {
            let _ = (method, params);
            Ok(None)
        }
    } else {
        quote! {
            Ok(Some(match method {
                #( #decode_arms )*
                _ => return Ok(None),
            }))
        }
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub enum #enum_name {
            #( #variants )*
            /// A method this side does not know, kept with its raw params; produced
            /// only when decoding with [`UnknownMethods::Keep`](crate::rt::jsonrpc::UnknownMethods::Keep).
            Other {
                /// The method string.
                method: ::std::string::String,
                /// The raw params.
                params: ::std::option::Option<serde_json::Value>,
            },
        }
        impl crate::rt::jsonrpc::MethodSet for #enum_name {
            const NAME: &'static str = #name;
            fn decode_checked(method: &str, params: crate::rt::jsonrpc::Payload<'_, '_>)
                -> ::std::result::Result<::std::option::Option<Self>, crate::rt::path::DecodeError> {
                #decode_body
            }
            fn write_params<M: serde::ser::SerializeMap>(&self, map: &mut M) -> ::std::result::Result<(), M::Error> {
                match self {
                    #( #write_arms )*
                    Self::Other { params: Some(p), .. } => map.serialize_entry(crate::rt::jsonrpc::PARAMS, p),
                    Self::Other { params: None, .. } => Ok(()),
                }
            }
            fn other(method: ::std::string::String, params: ::std::option::Option<serde_json::Value>) -> Self {
                Self::Other { method, params }
            }
            fn method(&self) -> &str {
                match self {
                    #( #method_arms )*
                    Self::Other { method, .. } => method,
                }
            }
        }
    }
}

/// The enum of the results a side sends (`ServerResult`: one variant per request it
/// answers, with its result type), its decoder by method, and its encoding.
fn result_enum(name: &str, doc: &str, methods: &[&MethodDef]) -> TokenStream {
    let enum_name = ident(name);
    let variants = methods.iter().map(|m| {
        let v = ident(&m.marker_name());
        let vdoc = format!(" The result of `{}`.", m.method);
        let result = result_type(m);
        quote!(#[doc = #vdoc] #v(#result),)
    });
    let arms = methods.iter().map(|m| {
        let v = ident(&m.marker_name());
        quote!(Method::#v => crate::rt::jsonrpc::decode_result_checked::<#v>(raw).map(Self::#v),)
    });
    let ser_arms = methods.iter().map(|m| {
        let v = ident(&m.marker_name());
        quote!(Self::#v(r) => r.serialize(serializer),)
    });
    let refuse = quote! {
        Err(crate::rt::jsonrpc::result_error(
            other.as_str(),
            crate::rt::path::DecodeError::custom(concat!("not a request answered in a ", #name)),
            &raw,
        ))
    };
    // No request answered on this side (an extension's client answers none): every
    // method is refused, with no match of one arm.
    let decode_body = if methods.is_empty() {
        quote!(let other = method; #refuse)
    } else {
        quote! {
            match method {
                #( #arms )*
                #[allow(unreachable_patterns)]
                other => #refuse,
            }
        }
    };
    let ser_body = if methods.is_empty() {
        quote!(let _ = serializer; match *self {})
    } else {
        quote!(match self { #( #ser_arms )* })
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub enum #enum_name {
            #( #variants )*
        }
        impl #enum_name {
            /// Decodes the `result` of a response to a request of `method`; a method
            /// this side does not answer, or a result that does not fit, is an error
            /// that keeps the raw result.
            pub fn decode(method: Method, raw: &crate::rt::jsonrpc::RawResult) -> ::std::result::Result<Self, crate::rt::jsonrpc::ResultError> {
                <Self as crate::rt::jsonrpc::ResultSet>::decode(method, raw)
            }
        }
        impl crate::rt::jsonrpc::ResultSet for #enum_name {
            type Method = Method;
            fn decode_checked(method: Method, raw: crate::rt::jsonrpc::Payload<'_, '_>) -> ::std::result::Result<Self, crate::rt::jsonrpc::ResultError> {
                #decode_body
            }
        }
        /// Encodes the result itself, as the `result` of a response.
        impl serde::Serialize for #enum_name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                #ser_body
            }
        }
    }
}

/// The MCP-specific error codes the schema fixes with a `const` (`URLElicitationRequiredError`
/// → `URL_ELICITATION_REQUIRED = -32042`).
fn error_codes(model: &Model) -> TokenStream {
    let codes: Vec<(String, i64, String)> = model
        .error_codes()
        .into_iter()
        .map(|(schema, rust, code)| {
            let stem = schema.strip_suffix("Error").unwrap_or(&schema);
            let name = crate::names::field_name(stem)
                .trim_start_matches("r#")
                .to_ascii_uppercase();
            (name, code, rust)
        })
        .collect();
    let items = codes.iter().map(|(name, code, ty)| {
        let n = ident(name);
        let doc = format!(" The code of [`{ty}`](super::super::{ty}).");
        let code = proc_macro2::Literal::i64_unsuffixed(*code);
        quote!(#[doc = #doc] pub const #n: i64 = #code;)
    });
    quote! {
        /// Error codes: JSON-RPC's standard ones, and those the schema of this version fixes.
        pub mod error_codes {
            pub use crate::rt::jsonrpc::codes::*;
            #( #items )*
        }
    }
}
