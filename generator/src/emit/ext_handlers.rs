//! Emits `handlers.rs` of an official extension's module: the extension served and heard
//! beside the service of the version it is built on.
//!
//! - `ServerHandler`: a method per request of the extension a client sends, and for each
//!   core request the extension may answer with a result of its own
//!   ([`Extension::answers`]), a method that answers `Some` of that result or `None` to
//!   leave the request to the core; an `on_*` method per notification a client sends.
//! - `ClientHandler`: the mirror, for what a server sends.
//! - `Server<H>` and `Client<H>`: services that wrap the version's service, serve what the
//!   extension defines (-32021 when the request's client did not declare the extension),
//!   and hand everything else to the version's service; the server declares the
//!   extension in its `server/discover` result.

use proc_macro2::TokenStream;
use quote::quote;

use super::rust::{handler_fn_name, ident, params_type};
use crate::model::{MessageKind, MethodDef, Model, Sender};
use crate::overrides::Extension;

/// Which side a trait is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Server,
}

/// The requests the side answers and the notifications it hears, of the extension's own,
/// and the core requests it may answer with a result of its own.
struct Sets<'a> {
    requests: Vec<&'a MethodDef>,
    answered: Vec<(&'a MethodDef, &'static str)>,
    notifications: Vec<&'a MethodDef>,
}

fn sets<'a>(model: &'a Model, ext: &Extension, side: Side) -> Sets<'a> {
    let sender = match side {
        Side::Server => Sender::Client,
        Side::Client => Sender::Server,
    };
    let answers = |m: &MethodDef| {
        ext.answers
            .iter()
            .find(|(a, _)| *a == m.method)
            .map(|(_, r)| *r)
    };
    let all = model.method_set(
        MessageKind::Request,
        sender,
        crate::model::Carried::AsMessages,
    );
    Sets {
        requests: all
            .iter()
            .copied()
            .filter(|m| answers(m).is_none())
            .collect(),
        answered: all.iter().filter_map(|m| Some((*m, answers(m)?))).collect(),
        notifications: model.method_set(
            MessageKind::Notification,
            sender,
            crate::model::Carried::AsMessages,
        ),
    }
}

/// The argument of a handler method for a method's params.
fn arg(m: &MethodDef) -> TokenStream {
    let t = params_type(m).unwrap_or_else(|| quote!(serde_json::Value));
    if m.params_required {
        quote!(params: #t,)
    } else {
        quote!(params: ::std::option::Option<#t>,)
    }
}

fn result_of(m: &MethodDef) -> TokenStream {
    super::rust::result_type(m)
}

fn handler_trait(side: Side, sets: &Sets<'_>, ext: &Extension) -> TokenStream {
    let (name, doc) = match side {
        Side::Server => (
            quote!(ServerHandler),
            format!(
                " What a server answers of the extension `{}`, beside its handler of the \
                 version the extension is built on: a method per request of the extension, \
                 each answering -32601 (method not found) until implemented.",
                ext.name
            ),
        ),
        Side::Client => (
            quote!(ClientHandler),
            format!(
                " What a client hears of the extension `{}`, beside its handler of the \
                 version the extension is built on. Every method has a default: a request \
                 answers -32601, a notification is ignored.",
                ext.name
            ),
        ),
    };
    let mut items = Vec::new();
    for m in &sets.requests {
        let f = ident(&handler_fn_name(m));
        let method = &m.method;
        let param = arg(m);
        let result = result_of(m);
        let doc = format!(" `{method}`.");
        items.push(quote! {
            #[doc = #doc]
            fn #f(&self, #param cx: RequestContext<crate::rt::service::Peer>)
                -> impl ::std::future::Future<Output = ::std::result::Result<#result, crate::rt::jsonrpc::ErrorObject>> + Send {
                let _ = (params, cx);
                async move { ::std::result::Result::Err(crate::rt::service::method_not_found(#method)) }
            }
        });
    }
    for (m, own) in &sets.answered {
        let f = ident(&handler_fn_name(m));
        let method = &m.method;
        let t = params_type(m).unwrap_or_else(|| quote!(serde_json::Value));
        let own_ty = ident(own);
        let doc = format!(
            " `{method}`, asked of the extension first: `Ok(Some(..))` answers it with the \
             extension's [`{own}`](super::{own}), `Ok(None)` (the default) leaves it to the \
             version's service, `Err` refuses it. Whether the request's client declared the \
             extension is `crate::rt::extension::declared(cx.meta.as_ref(), EXTENSION)`: a \
             client that did not is never sent `{own}` (`Some` is answered -32021, missing \
             capability, instead), so a handler that cannot serve it otherwise answers \
             `Some` or that error, and one that can answers `None`."
        );
        items.push(quote! {
            #[doc = #doc]
            fn #f(&self, params: &#t, cx: RequestContext<crate::rt::service::Peer>)
                -> impl ::std::future::Future<Output = ::std::result::Result<::std::option::Option<super::#own_ty>, crate::rt::jsonrpc::ErrorObject>> + Send {
                let _ = (params, cx);
                async move { ::std::result::Result::Ok(::std::option::Option::None) }
            }
        });
    }
    for m in &sets.notifications {
        let f = ident(&handler_fn_name(m));
        let doc = format!(" `{}`: ignored by default.", m.method);
        let param = arg(m);
        items.push(quote! {
            #[doc = #doc]
            fn #f(&self, #param cx: NotificationContext<crate::rt::service::Peer>)
                -> impl ::std::future::Future<Output = ()> + Send {
                let _ = (params, cx);
                async move {}
            }
        });
    }
    quote! {
        #[doc = #doc]
        pub trait #name: Send + Sync + 'static {
            #( #items )*
        }
    }
}

/// A side's service: the struct, and its `rt::extension::Layer`
/// impl with the rows (each method to its handler's function); the routing is the
/// runtime's (`rt::extension::serve`).
fn service(side: Side, sets: &Sets<'_>, ext: &Extension) -> TokenStream {
    let (name, handler_trait, request_set, notification_set, what, server) = match side {
        Side::Server => (
            quote!(Server),
            quote!(ServerHandler),
            quote!(super::methods::ClientRequest),
            quote!(super::methods::ClientNotification),
            "server",
            true,
        ),
        Side::Client => (
            quote!(Client),
            quote!(ClientHandler),
            quote!(super::methods::ServerRequest),
            quote!(super::methods::ServerNotification),
            "client",
            false,
        ),
    };
    let own: Vec<&str> = sets
        .requests
        .iter()
        .chain(&sets.notifications)
        .map(|m| m.method.as_str())
        .collect();
    let answered: Vec<&str> = sets
        .answered
        .iter()
        .map(|(m, _)| m.method.as_str())
        .collect();
    let request_arms = sets.requests.iter().map(|m| {
        let v = ident(&m.marker_name());
        let f = ident(&handler_fn_name(m));
        quote!(#request_set::#v(params) => crate::rt::service::respond(&id, self.handler.#f(params, cx).await),)
    });
    let answered_arms = sets.answered.iter().map(|(m, _)| {
        let v = ident(&m.marker_name());
        let f = ident(&handler_fn_name(m));
        quote! {
            #request_set::#v(params) => self.handler.#f(&params, cx).await.map(|own| {
                own.map(|own| crate::rt::service::respond(&id, ::std::result::Result::<_, crate::rt::jsonrpc::ErrorObject>::Ok(own)))
            }),
        }
    });
    let notification_arms = sets.notifications.iter().map(|m| {
        let v = ident(&m.marker_name());
        let f = ident(&handler_fn_name(m));
        quote!(#notification_set::#v(params) => self.handler.#f(params, cx).await,)
    });
    let version = ext.core.unwrap_or_default();
    let (policy_default, policy_doc) = match side {
        Side::Server => (
            quote!(crate::rt::lifecycle::RequireEnvelope),
            format!(
                " The handler behind the rule of {version} ([`RequireEnvelope`](crate::rt::lifecycle::RequireEnvelope)): every request carries the version and the client's capabilities in its `_meta`."
            ),
        ),
        Side::Client => (
            quote!(crate::rt::service::Open),
            " The handler behind the [`Open`](crate::rt::service::Open) policy.".to_string(),
        ),
    };
    let policy_new = match side {
        Side::Server => quote!(crate::rt::lifecycle::RequireEnvelope::new(&[#version])),
        Side::Client => quote!(crate::rt::service::Open),
    };
    let doc = format!(
        " A {what} of the extension `{}` in front of `inner`, the {what}'s service of the \
         version the extension is built on ({version}): what the extension defines goes \
         to the handler, {}everything else to `inner`.",
        ext.name,
        match side {
            Side::Server => {
                "after the request's client is checked to declare the extension \
                 (-32021 otherwise); the core requests the extension may answer go to the \
                 handler first; `server/discover` is answered \
                 by `inner` with the extension declared in its capabilities; "
            }
            Side::Client => "",
        }
    );
    quote! {
        #[doc = #doc]
        pub struct #name<H, P = #policy_default> {
            /// The handler of the extension.
            pub handler: H,
            /// The policy in front of it.
            pub policy: P,
            /// The service of the version the extension is built on.
            pub inner: ::std::sync::Arc<dyn crate::rt::service::Service>,
        }

        impl<H: #handler_trait> #name<H> {
            #[doc = #policy_doc]
            pub fn new(handler: H, inner: ::std::sync::Arc<dyn crate::rt::service::Service>) -> Self {
                #name { handler, policy: #policy_new, inner }
            }
        }

        impl<H: #handler_trait, P: Policy> #name<H, P> {
            /// The same handler behind another policy.
            pub fn with_policy<Q: Policy>(self, policy: Q) -> #name<H, Q> {
                #name { handler: self.handler, policy, inner: self.inner }
            }
        }

        impl<H: #handler_trait, P: Policy + 'static> crate::rt::extension::Layer for #name<H, P> {
            type Requests = #request_set;
            type Notifications = #notification_set;
            type Policy = P;
            const EXTENSION: &'static str = EXTENSION;
            const OWN: &'static [&'static str] = &[#( #own ),*];
            const ANSWERED: &'static [&'static str] = &[#( #answered ),*];
            const SERVER: bool = #server;
            fn policy(&self) -> &P {
                &self.policy
            }
            fn inner(&self) -> &::std::sync::Arc<dyn crate::rt::service::Service> {
                &self.inner
            }
            fn request(
                &self,
                id: crate::rt::jsonrpc::Id,
                request: #request_set,
                cx: RequestContext<crate::rt::service::Peer>,
            ) -> crate::rt::service::BoxFuture<'_, ::std::string::String> {
                ::std::boxed::Box::pin(async move {
                    match request {
                        #( #request_arms )*
                        other => crate::rt::service::refuse(&id, crate::rt::service::method_not_found(other.method())),
                    }
                })
            }
            fn answer(
                &self,
                id: crate::rt::jsonrpc::Id,
                request: #request_set,
                cx: RequestContext<crate::rt::service::Peer>,
            ) -> crate::rt::service::BoxFuture<'_, ::std::result::Result<::std::option::Option<::std::string::String>, crate::rt::jsonrpc::ErrorObject>> {
                ::std::boxed::Box::pin(async move {
                    match request {
                        #( #answered_arms )*
                        _ => ::std::result::Result::Ok(::std::option::Option::None),
                    }
                })
            }
            fn notification(
                &self,
                notification: #notification_set,
                cx: NotificationContext<crate::rt::service::Peer>,
            ) -> crate::rt::service::BoxFuture<'_, ()> {
                ::std::boxed::Box::pin(async move {
                    match notification {
                        #( #notification_arms )*
                        _ => {}
                    }
                })
            }
        }

        impl<H: #handler_trait, P: Policy + 'static> crate::rt::service::Service for #name<H, P> {
            fn serve(
                self: ::std::sync::Arc<Self>,
                peer: crate::rt::service::Peer,
                message: ::std::string::String,
            ) -> crate::rt::service::BoxFuture<'static, ::std::option::Option<::std::string::String>> {
                crate::rt::extension::serve(self, peer, message)
            }
        }
    }
}

/// Emits `handlers.rs` of an extension's module.
pub(super) fn emit_ext_handlers(model: &Model, ext: &Extension) -> TokenStream {
    let server = sets(model, ext, Side::Server);
    let client = sets(model, ext, Side::Client);
    let id = ext.id.unwrap_or_default();
    let named_methods = ext.named.iter().map(|(m, _)| *m);
    let named_params = ext.named.iter().map(|(_, p)| *p);
    let doc = format!(
        " Serving and hearing the extension `{}` beside the service of {}: wrap that \
         version's service (its `handlers::Server::new(handler)`) in [`Server`] with a \
         [`ServerHandler`] of the extension, and a client's in [`Client`] with a \
         [`ClientHandler`]. A client calls the extension's requests with the markers of \
         [`methods`](super::methods) (`peer.request::<methods::GetTask>(params)`).",
        ext.name,
        ext.core.unwrap_or("its version")
    );
    let traits = [
        handler_trait(Side::Server, &server, ext),
        handler_trait(Side::Client, &client, ext),
    ];
    let services = [
        service(Side::Server, &server, ext),
        service(Side::Client, &client, ext),
    ];
    quote! {
        #![doc = #doc]
        #![allow(clippy::match_single_binding, clippy::single_match, unused_variables, unreachable_patterns)]
        use crate::rt::jsonrpc::MethodSet;
        use crate::rt::service::{NotificationContext, Policy, RequestContext};

        /// The extension's identifier: the key under `capabilities.extensions`.
        pub const EXTENSION: &str = #id;

        /// The extension's requests whose param Streamable HTTP repeats in the `Mcp-Name`
        /// header: `(method, param)`.
        pub const NAMED: &[(&str, &str)] = &[#( (#named_methods, #named_params) ),*];

        #( #traits )*
        #( #services )*
    }
}
