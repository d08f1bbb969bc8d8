//! Emits `handlers.rs` of a version module: the `ServerHandler` and `ClientHandler`
//! traits, the `serve_client_message` / `serve_server_message` dispatch functions, and the
//! typed peers `ServerPeer` (what a client calls) and `ClientPeer` (what a server calls).
//!
//! Everything is derived from the method table: a handler method per request the side
//! answers, an `on_*` method per notification it receives, a peer method per request or
//! notification it sends. Dispatch decodes by method with the version's method sets, asks
//! the [`Policy`](../../mcp_spec_types/rt/service/trait.Policy.html) first, and answers
//! with the JSON-RPC codes for protocol errors.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::DocPaths;
use super::rust::{handler_fn_name, ident, params_arg, params_type, result_type};
use crate::model::{Carried, MessageKind, MethodDef, Model, Sender, TypeRef};
use crate::names::field_name;

/// Which side a trait or peer is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Server,
}

fn peer_fn_name(m: &MethodDef) -> String {
    let base = field_name(&m.marker_name());
    match m.kind {
        MessageKind::Request => base.trim_start_matches("r#").to_string(),
        MessageKind::Notification => format!("notify_{}", base.trim_start_matches("r#")),
    }
}

/// Emits `handlers.rs` for one version.
/// With `raw` (free-form JSON as text) there is no `Router`: it decodes tool arguments.
pub(super) fn emit_handlers(model: &Model, doc_paths: Option<&DocPaths>, raw: bool) -> TokenStream {
    // What each side answers (including the input requests a client answers inside a
    // result in the discover era) and receives as notifications: what the other side sends.
    // The other side sends what a side answers and hears.
    let other = |side: Side| match side {
        Side::Server => Sender::Client,
        Side::Client => Sender::Server,
    };
    let answers =
        |side: Side, carried: Carried| model.method_set(MessageKind::Request, other(side), carried);
    let hears =
        |side: Side| model.method_set(MessageKind::Notification, other(side), Carried::AsMessages);
    let server_trait = handler_trait(
        Side::Server,
        &answers(Side::Server, Carried::AlsoInResults),
        &hears(Side::Server),
        model,
    );
    let client_trait = handler_trait(
        Side::Client,
        &answers(Side::Client, Carried::AlsoInResults),
        &hears(Side::Client),
        model,
    );
    let server_dispatch = dispatch(
        Side::Server,
        &answers(Side::Server, Carried::AsMessages),
        &hears(Side::Server),
    );
    let client_dispatch = dispatch(
        Side::Client,
        &answers(Side::Client, Carried::AsMessages),
        &hears(Side::Client),
    );
    // A peer offers what the side it stands for answers.
    let server_peer = peer(
        Side::Server,
        &answers(Side::Server, Carried::AsMessages),
        &hears(Side::Server),
    );
    let client_peer = peer(
        Side::Client,
        &answers(Side::Client, Carried::AsMessages),
        &hears(Side::Client),
    );
    let doc = format!(
        " Serving and calling MCP `{}`: the handler traits, the dispatch functions and \
         the typed peers.",
        model.version
    );
    let services = services(model);
    let router = if raw {
        TokenStream::new()
    } else {
        super::router::router(
            model,
            &answers(Side::Server, Carried::AsMessages),
            doc_paths,
        )
    };
    let answer_inputs = answer_inputs(model, &answers(Side::Client, Carried::AlsoInResults));
    let router_doc = (!router.is_empty()).then(|| {
        quote! {
            #![doc = ""]
            #![doc = " A server that is tools, resources and prompts, each an async function, needs no handler of its own: [`Router`] is one, assembled from them."]
        }
    });
    let allow_deprecated = super::rust::allow_deprecated(model);
    let tokens = quote! {
        #![doc = #doc]
        #![doc = ""]
        #![doc = " A server implements [`ServerHandler`] and feeds every incoming request and notification to [`serve_client_message`]; responses to its own requests go to whoever awaits them (see [`route`](crate::rt::service::route)). It calls the client through [`ClientPeer`]. A client mirrors this with [`ClientHandler`], [`serve_server_message`] and [`ServerPeer`]."]
        #router_doc
        #![allow(clippy::too_many_arguments, clippy::match_single_binding, unused_variables)]
        #allow_deprecated
        use crate::rt::service::{NotificationContext, Policy, RequestContext};

        #server_trait
        #client_trait
        #server_dispatch
        #client_dispatch
        #services
        #router
        #answer_inputs
        #server_peer
        #client_peer
    };
    tokens
}

fn handler_trait(
    side: Side,
    requests: &[&MethodDef],
    notes: &[&MethodDef],
    model: &Model,
) -> TokenStream {
    let version = &model.version;
    let (name, peer, doc) = match side {
        Side::Server => (
            quote!(ServerHandler),
            quote!(ClientPeer),
            format!(
                " What a server answers in `{version}`: one method per request a client \
                 sends, one `on_*` method per notification. Every method has a default: \
                 `ping` answers an empty result, as the specification requires; other \
                 requests answer -32601 (method not found) naming the method; \
                 notifications are ignored. Implement the ones you serve."
            ),
        ),
        Side::Client => (
            quote!(ClientHandler),
            quote!(ServerPeer),
            format!(
                " What a client answers in `{version}`: one method per request a server \
                 sends (in the discover era, also the input requests a server embeds in an \
                 `InputRequiredResult`), one `on_*` method per notification. Defaults as \
                 for [`ServerHandler`]."
            ),
        ),
    };
    let mut items = Vec::new();
    // The same methods on an `Arc` of a handler: each calls the handler's own.
    let mut shared = Vec::new();
    for m in requests {
        let f = ident(&handler_fn_name(m));
        let method = &m.method;
        let param = params_arg(m).map(|t| quote!(params: #t,));
        let arg = m.params.is_some().then(|| quote!(params,));
        let result = result_type(m);
        shared.push(quote! {
            fn #f(&self, #param cx: RequestContext<#peer>)
                -> impl ::std::future::Future<Output = ::std::result::Result<#result, crate::rt::jsonrpc::ErrorObject>> + Send {
                H::#f(self, #arg cx)
            }
        });
        let doc = format!(
            " `{method}`{}.",
            if m.is_input_request_only() {
                " (an input request: it arrives inside an `InputRequiredResult`, and its answer goes back in the retried request's `inputResponses`)"
            } else {
                ""
            }
        );
        let param = params_arg(m).map(|t| quote!(params: #t,));
        let result = result_type(m);
        // A request the specification requires an answer to (`ping`, see
        // `overrides::ANSWERED_BY_DEFAULT`) defaults to an empty result; any other to -32601.
        let doc = if method == crate::overrides::CALL_TOOL {
            format!(
                "{doc} A tool that runs and fails answers `Ok` with an error result \
                 (`CallToolResult::error`, `isError: true`), which the model sees; `Err` is \
                 for a call that cannot be made (an unknown tool: -32602)."
            )
        } else {
            doc
        };
        let (doc, body) = if crate::overrides::answered_by_default(method) {
            (
                format!(
                    "{doc} Answered with an empty result by default, as the specification requires."
                ),
                empty_result(m, model),
            )
        } else {
            (
                doc,
                quote!(async move { Err(crate::rt::service::method_not_found(#method)) }),
            )
        };
        items.push(quote! {
            #[doc = #doc]
            fn #f(&self, #param cx: RequestContext<#peer>)
                -> impl ::std::future::Future<Output = ::std::result::Result<#result, crate::rt::jsonrpc::ErrorObject>> + Send {
                #body
            }
        });
    }
    for m in notes {
        let f = ident(&handler_fn_name(m));
        let method = &m.method;
        let doc = format!(" `{method}`.");
        let param = params_arg(m).map(|t| quote!(params: #t,));
        let arg = m.params.is_some().then(|| quote!(params,));
        shared.push(quote! {
            fn #f(&self, #param cx: NotificationContext<#peer>) -> impl ::std::future::Future<Output = ()> + Send {
                H::#f(self, #arg cx)
            }
        });
        items.push(quote! {
            #[doc = #doc]
            fn #f(&self, #param cx: NotificationContext<#peer>) -> impl ::std::future::Future<Output = ()> + Send {
                async {}
            }
        });
    }
    quote! {
        #[doc = #doc]
        pub trait #name: Send + Sync {
            #( #items )*
        }

        /// A shared handler is one: several services (a version's, an adapter's) may
        /// serve the same one.
        impl<H: #name> #name for ::std::sync::Arc<H> {
            #( #shared )*
        }
    }
}

fn dispatch(side: Side, requests: &[&MethodDef], notes: &[&MethodDef]) -> TokenStream {
    let (fn_name, one_name, handler, peer, req_set, note_set, from) = match side {
        Side::Server => (
            quote!(serve_client_message),
            quote!(serve_client_one),
            quote!(ServerHandler),
            quote!(ClientPeer),
            quote!(super::methods::ClientRequest),
            quote!(super::methods::ClientNotification),
            "a client",
        ),
        Side::Client => (
            quote!(serve_server_message),
            quote!(serve_server_one),
            quote!(ClientHandler),
            quote!(ServerPeer),
            quote!(super::methods::ServerRequest),
            quote!(super::methods::ServerNotification),
            "a server",
        ),
    };
    let request_arms = requests.iter().map(|m| {
        let v = ident(&m.marker_name());
        let f = ident(&handler_fn_name(m));
        if m.params.is_some() {
            quote!(#req_set::#v(params) => crate::rt::service::respond(&id, handler.#f(params, cx).await),)
        } else {
            quote!(#req_set::#v => crate::rt::service::respond(&id, handler.#f(cx).await),)
        }
    });
    let note_arms = notes.iter().map(|m| {
        let v = ident(&m.marker_name());
        let f = ident(&handler_fn_name(m));
        if m.params.is_some() {
            quote!(#note_set::#v(params) => handler.#f(params, cx).await,)
        } else {
            quote!(#note_set::#v => handler.#f(cx).await,)
        }
    });
    let doc = format!(
        " Handles one message {from} sent (JSON text): decodes it by method, asks `policy`, \
         calls `handler`, and returns the response to send back, if any. Malformed JSON \
         answers -32700, an invalid message -32600, an unknown method -32601, params that \
         do not fit -32602 (with the JSON path); notifications are never answered. \
         Responses to this side's own requests are not handled here: [`route`](crate::rt::service::route) \
         them to their callers first. A batch (in versions that allow them) is answered \
         with a batch."
    );
    quote! {
        #[doc = #doc]
        pub async fn #fn_name<H: #handler, P: Policy>(handler: &H, policy: &P, peer: &#peer, message: &[u8]) -> ::std::option::Option<::std::string::String> {
            match crate::rt::service::receive::<#req_set, #note_set>(message, super::methods::BATCHES) {
                crate::rt::service::Received::One(item) => #one_name(handler, policy, peer, item).await,
                crate::rt::service::Received::Batch(items) => {
                    let mut answers = ::std::vec::Vec::new();
                    for item in items {
                        if let Some(answer) = #one_name(handler, policy, peer, item).await {
                            answers.push(answer);
                        }
                    }
                    crate::rt::service::batch_reply(answers)
                }
            }
        }

        async fn #one_name<H: #handler, P: Policy>(handler: &H, policy: &P, peer: &#peer, item: crate::rt::service::Serve<#req_set, #note_set>) -> ::std::option::Option<::std::string::String> {
            use crate::rt::jsonrpc::MethodSet as _;
            match item {
                crate::rt::service::Serve::Request { id, request, meta } => {
                    if let Err(error) = policy.check_request(request.method(), meta.as_ref()) {
                        return Some(crate::rt::service::refuse(&id, error));
                    }
                    let peer = #peer(policy.request_peer(meta.as_ref(), &peer.0));
                    let cx = RequestContext { id: id.clone(), meta, peer };
                    Some(match request {
                        #( #request_arms )*
                        #[allow(unreachable_patterns)]
                        other => {
                            let _ = cx;
                            crate::rt::service::refuse(&id, crate::rt::service::method_not_found(other.method()))
                        }
                    })
                }
                crate::rt::service::Serve::Notification { notification, meta } => {
                    if !policy.check_notification(notification.method(), meta.as_ref()) {
                        return None;
                    }
                    let cx = NotificationContext { meta, peer: peer.clone() };
                    match notification {
                        #( #note_arms )*
                        #[allow(unreachable_patterns)]
                        _ => { let _ = cx; }
                    }
                    None
                }
                crate::rt::service::Serve::Answer(answer) => Some(answer),
                crate::rt::service::Serve::Ignore => None,
            }
        }
    }
}

fn peer(side: Side, requests: &[&MethodDef], notes: &[&MethodDef]) -> TokenStream {
    // `side` is the side the peer stands for: a ServerPeer calls a server.
    let (name, doc) = match side {
        Side::Server => (
            quote!(ServerPeer),
            " A server, as its client sees it: one typed method per request the server \
             answers, one `notify_*` per notification it receives.",
        ),
        Side::Client => (
            quote!(ClientPeer),
            " A client, as its server sees it: one typed method per JSON-RPC request the \
             client answers, one `notify_*` per notification it receives.",
        ),
    };
    let mut items = Vec::new();
    let arg_and_pass = |m: &MethodDef| match (params_type(m), m.params_required) {
        (Some(t), true) => (quote!(params: &#t), quote!(Some(params))),
        (Some(t), false) => (quote!(params: ::std::option::Option<&#t>), quote!(params)),
        (None, _) => (quote!(), quote!(None)),
    };
    for m in requests {
        let f = ident(&peer_fn_name(m));
        let marker = ident(&m.marker_name());
        let doc = format!(" Sends `{}` and decodes its result.", m.method);
        let (arg, pass) = arg_and_pass(m);
        let result = result_type(m);
        items.push(quote! {
            #[doc = #doc]
            pub async fn #f(&self, #arg) -> ::std::result::Result<#result, crate::rt::service::CallError> {
                self.0.request::<super::methods::#marker>(#pass).await
            }
        });
    }
    for m in notes {
        let f = ident(&peer_fn_name(m));
        let marker = ident(&m.marker_name());
        let doc = format!(" Sends the notification `{}`.", m.method);
        let (arg, pass) = arg_and_pass(m);
        items.push(quote! {
            #[doc = #doc]
            pub async fn #f(&self, #arg) -> ::std::result::Result<(), crate::rt::service::CallError> {
                self.0.notify::<super::methods::#marker>(#pass).await
            }
        });
    }
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone)]
        pub struct #name(pub crate::rt::service::Peer);

        impl #name {
            #( #items )*
        }
    }
}

/// The body of a default that answers an empty result: the result type's `Default`, or,
/// for a type without one (a union, in some draft revisions), `{}` decoded into it.
fn empty_result(m: &MethodDef, model: &Model) -> TokenStream {
    let has_default = m
        .result
        .as_deref()
        .is_some_and(|r| model.types.iter().any(|t| t.name == r && t.default));
    if has_default {
        quote!(async move { Ok(::std::default::Default::default()) })
    } else {
        quote! {
            async move {
                crate::rt::path::from_str("{}").map_err(|e| {
                    crate::rt::jsonrpc::ErrorObject::internal_error(::std::format!("no empty result: {e}"))
                })
            }
        }
    }
}

/// `Server` and `Client`: a handler and its policy as one
/// [`Service`](crate::rt::service::Service), what a session engine serves a connection
/// with (each message through this version's dispatch function).
fn services(model: &Model) -> TokenStream {
    // A server's default policy is its era's lifecycle; a client's enforces nothing.
    let open = (
        quote!(crate::rt::service::Open),
        quote!(crate::rt::service::Open),
        " The handler, behind the [`Open`](crate::rt::service::Open) policy.".to_string(),
    );
    let lifecycle = crate::overrides::LIFECYCLE;
    let has = |method: &str| model.methods.iter().any(|m| m.method == method);
    let (server_policy, server_new, server_doc) = if !has(lifecycle.initialize)
        && !has(lifecycle.discover)
    {
        // No lifecycle to follow (a schema that is not a protocol version's).
        open.clone()
    } else if super::versions::is_discover(model) {
        let version = model.version.as_str();
        (
            quote!(crate::rt::lifecycle::RequireEnvelope),
            quote!(crate::rt::lifecycle::RequireEnvelope::new(&[#version])),
            format!(
                " The handler, behind this era's rule ([`RequireEnvelope`](crate::rt::lifecycle::RequireEnvelope) \
                 of {version}): every request carries this version and the client's capabilities in \
                 its `_meta`, and what the handler logs goes out at the level the request asks for. \
                 `with_policy(Open)` turns both off."
            ),
        )
    } else {
        (
            quote!(crate::rt::lifecycle::InitializeFirst),
            quote!(crate::rt::lifecycle::InitializeFirst::new()),
            " The handler, behind this era's lifecycle ([`InitializeFirst`](crate::rt::lifecycle::InitializeFirst)): \
             only `ping` before `initialize`, which comes once. `with_policy(Open)` turns it off."
                .to_string(),
        )
    };
    let server_default = (server_policy, server_new, server_doc);
    let one = |name: &str,
               handler: &str,
               dispatch: &str,
               peer: &str,
               what: &str,
               policy: &(TokenStream, TokenStream, String)| {
        let (policy_ty, policy_new, new_doc) = policy;
        let name = format_ident!("{}", name);
        let handler = format_ident!("{}", handler);
        let dispatch = format_ident!("{}", dispatch);
        let peer = format_ident!("{}", peer);
        let doc = format!(
            " A {what}'s handler and policy, ready for a session engine: every message is \
             served by [`{dispatch}`]."
        );
        quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, Default)]
            pub struct #name<H, P = #policy_ty> {
                /// The handler.
                pub handler: H,
                /// The policy in front of it.
                pub policy: P,
            }

            impl<H: #handler> #name<H> {
                #[doc = #new_doc]
                pub fn new(handler: H) -> Self {
                    #name { handler, policy: #policy_new }
                }
            }

            impl<H: #handler, P: Policy> #name<H, P> {
                /// The same handler behind another policy.
                pub fn with_policy<Q: Policy>(self, policy: Q) -> #name<H, Q> {
                    #name { handler: self.handler, policy }
                }
            }

            impl<H: #handler + 'static, P: Policy + 'static> crate::rt::service::Service for #name<H, P> {
                fn serve(
                    self: ::std::sync::Arc<Self>,
                    peer: crate::rt::service::Peer,
                    message: ::std::string::String,
                ) -> crate::rt::service::BoxFuture<'static, ::std::option::Option<::std::string::String>> {
                    ::std::boxed::Box::pin(async move {
                        #dispatch(&self.handler, &self.policy, &#peer(peer), message.as_bytes()).await
                    })
                }
            }
        }
    };
    let server = one(
        "Server",
        "ServerHandler",
        "serve_client_message",
        "ClientPeer",
        "server",
        &server_default,
    );
    let client = one(
        "Client",
        "ClientHandler",
        "serve_server_message",
        "ServerPeer",
        "client",
        &open,
    );
    quote! { #server #client }
}

/// `answer_inputs`: a client handler answering the input requests of an `input_required`
/// result (the discover era), each by the handler's method for it, as the result's union
/// (`InputResponse`) holds it. Nothing where the model has no input requests, or one
/// whose answer that union cannot hold.
fn answer_inputs(model: &Model, client_answers: &[&MethodDef]) -> TokenStream {
    let union = |name: &str| {
        model
            .types
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| match &t.kind {
                crate::model::Kind::Union { variants, .. } => Some(variants.clone()),
                _ => None,
            })
    };
    let (Some(requests), Some(responses)) = (
        union(crate::overrides::INPUT_REQUEST_UNION),
        union(crate::overrides::INPUT_RESPONSE_UNION),
    ) else {
        return quote!();
    };
    let mut arms = Vec::new();
    for request in &requests {
        let TypeRef::Named(definition) = &request.ty else {
            return quote!();
        };
        let Some(m) = client_answers.iter().find(|m| &m.definition == definition) else {
            return quote!();
        };
        let Some(response) = m.result.as_deref().and_then(|r| {
            responses
                .iter()
                .find(|v| v.ty == TypeRef::Named(r.to_string()))
        }) else {
            return quote!();
        };
        let (arm, answer) = (ident(&request.name), ident(&response.name));
        let f = ident(&handler_fn_name(m));
        let params = m.params.is_some().then(|| quote!(r.params.clone(),));
        let value = quote!(handler.#f(#params cx).await?);
        let value = if response.boxed {
            quote!(::std::boxed::Box::new(#value))
        } else {
            value
        };
        arms.push(quote! {
            super::InputRequest::#arm(r) => super::InputResponse::#answer(#value),
        });
    }
    quote! {
        /// Answers the input requests of an `input_required` result with `handler`, as
        /// its client must before it retries the request with them (`inputResponses`):
        /// each by the handler's method for it, under the same key (the context's id is
        /// the key). The first error ends it; a request of a kind this version does not
        /// know is -32601.
        pub async fn answer_inputs<H: ClientHandler>(
            handler: &H,
            requests: &::std::collections::BTreeMap<::std::string::String, super::InputRequest>,
            peer: &ServerPeer,
        ) -> ::std::result::Result<
            ::std::collections::BTreeMap<::std::string::String, super::InputResponse>,
            crate::rt::jsonrpc::ErrorObject,
        > {
            let mut answers = ::std::collections::BTreeMap::new();
            for (key, request) in requests {
                let cx = RequestContext {
                    id: crate::rt::jsonrpc::Id::String(key.clone()),
                    meta: ::std::option::Option::None,
                    peer: peer.clone(),
                };
                let answer = match request {
                    #( #arms )*
                    super::InputRequest::Unknown(other) => {
                        return ::std::result::Result::Err(crate::rt::jsonrpc::ErrorObject::method_not_found(
                            ::std::format!("an input request of no kind this version knows: {other}"),
                        ));
                    }
                };
                answers.insert(key.clone(), answer);
            }
            ::std::result::Result::Ok(answers)
        }

        /// A [`Client`] that also answers this era's input requests when they come as
        /// requests of their own, as a server of an older version sends them: what the
        /// adapters of `convert` (`answer_older`) put a client handler of this version
        /// behind. A server of this version sends them inside results only. The
        /// handler's context id is the request's id, as text.
        #[derive(Debug)]
        pub struct AnsweringInputs<H, P = crate::rt::service::Open>(pub ::std::sync::Arc<Client<H, P>>);

        impl<H: ClientHandler, P: Policy> Client<H, P> {
            /// This client, also answering input requests sent as requests
            /// ([`AnsweringInputs`]).
            pub fn answering_inputs(self) -> AnsweringInputs<H, P> {
                AnsweringInputs(::std::sync::Arc::new(self))
            }
        }

        impl<H: ClientHandler + 'static, P: Policy + 'static> crate::rt::service::Service for AnsweringInputs<H, P> {
            fn serve(
                self: ::std::sync::Arc<Self>,
                peer: crate::rt::service::Peer,
                message: ::std::string::String,
            ) -> crate::rt::service::BoxFuture<'static, ::std::option::Option<::std::string::String>> {
                match crate::rt::service::request_as::<super::InputRequest>(&message) {
                    ::std::option::Option::Some((id, ::std::result::Result::Ok(request)))
                        if !::std::matches!(request, super::InputRequest::Unknown(_)) =>
                    {
                        ::std::boxed::Box::pin(async move {
                            let key = id.to_string();
                            let requests = ::std::collections::BTreeMap::from([(key.clone(), request)]);
                            let answer = answer_inputs(&self.0.handler, &requests, &ServerPeer(peer))
                                .await
                                .map(|mut answers| answers.remove(&key));
                            ::std::option::Option::Some(crate::rt::service::respond(&id, answer))
                        })
                    }
                    ::std::option::Option::Some((id, ::std::result::Result::Err(error))) => {
                        ::std::boxed::Box::pin(async move {
                            ::std::option::Option::Some(crate::rt::service::refuse(&id, error))
                        })
                    }
                    _ => crate::rt::service::Service::serve(self.0.clone(), peer, message),
                }
            }
        }
    }
}
