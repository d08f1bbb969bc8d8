//! `convert.rs`: conversions between the types of consecutive versions, for every
//! definition both have. Which direction is `From` and which `TryFrom` comes from
//! [`compat`](crate::compat), the relation the version diffs classify changes by: `From`
//! where every value of the source's schema is one of the target's, `TryFrom` (whose
//! error names the place and what the target cannot carry) where not. Both go through
//! the runtime's `rt::convert`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::rust::{CONVERSION_PAIR, CONVERSIONS, OUTBOUND, ident, module_name, pretty};
use crate::Error;
use crate::compat::{Fits, Misfit};
use crate::model::{Kind, MessageKind, MethodDef, Model, TypeRef};

/// One definition of a pair of versions, and how it converts each way.
pub struct Conversion {
    /// The definition's name (the same in both versions).
    pub name: String,
    /// Older → newer: lossless, or the first place a value need not fit.
    pub up: Result<(), Misfit>,
    /// Newer → older.
    pub down: Result<(), Misfit>,
}

/// The definitions both `old` and `new` have, as distinct Rust types (an alias is its
/// target's), with how each converts.
pub fn conversions(old: &Model, new: &Model) -> Vec<Conversion> {
    let distinct = |kind: &Kind| !matches!(kind, Kind::Alias { newtype: false, .. });
    old.types
        .iter()
        .filter(|a| distinct(&a.kind))
        .filter(|a| {
            new.types
                .iter()
                .any(|b| b.name == a.name && distinct(&b.kind))
        })
        .map(|a| Conversion {
            name: a.name.clone(),
            up: Fits::new(old, new).named(&a.name, &a.name),
            down: Fits::new(new, old).named(&a.name, &a.name),
        })
        .collect()
}

/// Emits `convert.rs` for `models` in date order (`draft` last): each consecutive pair's
/// impls, behind both versions' features.
pub fn emit_conversions(models: &[Model], header_text: &str) -> Result<String, Error> {
    let mut pairs = Vec::new();
    let mut table = vec![
        "| from | to | definitions | `From` up | `TryFrom` up | `From` down | `TryFrom` down |"
            .to_string(),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |".to_string(),
    ];
    for pair in models.windows(2) {
        let (old, new) = (&pair[0], &pair[1]);
        let (old_mod, new_mod) = (module_name(&old.version), module_name(&new.version));
        if super::same_as(new, std::slice::from_ref(old)).is_some() {
            // One module under two names: its types are the same types.
            table.push(format!(
                "| `{}` | `{}` | the same types: `{new_mod}` is `{old_mod}` re-exported | | | | |",
                old.version, new.version
            ));
            continue;
        }
        let list = conversions(old, new);
        let lossless = |r: &Result<(), Misfit>| r.is_ok();
        let up_from = list.iter().filter(|c| lossless(&c.up)).count();
        let down_from = list.iter().filter(|c| lossless(&c.down)).count();
        table.push(format!(
            "| `{}` | `{}` | {} | {} | {} | {} | {} |",
            old.version,
            new.version,
            list.len(),
            up_from,
            list.len() - up_from,
            down_from,
            list.len() - down_from
        ));
        // One row a definition, expanded by the runtime's `conversions!`.
        let how = |r: &Result<(), Misfit>| match r {
            Ok(()) => quote!(lossless),
            Err(misfit) => {
                let why = misfit.to_string();
                quote!(lossy(#why))
            }
        };
        let rows = list.iter().map(|c| {
            let (ty, up, down) = (ident(&c.name), how(&c.up), how(&c.down));
            quote!(#ty: #up #down)
        });
        let (old_v, new_v) = (&old.version, &new.version);
        let conversions = format_ident!("{}", CONVERSIONS);
        let impls = quote! {
            crate::rt::#conversions! {
                old #old_v => new #new_v { #( #rows ),* }
            }
        };
        let (old_feature, new_feature) = (&old_mod, &new_mod);
        let module = ident(&format!("{old_mod}_{new_mod}"));
        let (old_ident, new_ident) = (ident(&old_mod), ident(&new_mod));
        let doc = format!(" `{}` ⇄ `{}`.", old.version, new.version);
        let serve = if has(new, "server/discover") {
            serve_older_discover(old, new)
        } else {
            older_adapter(old, new, Side::Server)
        };
        let answer = older_adapter(old, new, Side::Client);
        let mut adapter = TokenStream::new();
        for (side, tokens) in [(Side::Server, serve), (Side::Client, answer)] {
            if !tokens.is_empty() {
                adapter.extend(outbound(old, new, side));
                adapter.extend(tokens);
            }
        }
        if !adapter.is_empty() {
            adapter = quote! {
                use crate::rt::service::{NotificationContext, RequestContext};
                #adapter
            };
        }
        pairs.push(quote! {
            #[doc = #doc]
            #[cfg(all(feature = "convert", feature = #old_feature, feature = #new_feature))]
            pub mod #module {
                use crate::#old_ident as old;
                use crate::#new_ident as new;
                #impls
                #adapter
            }
        });
    }
    let table = table.into_iter().map(|line| format!(" {line}"));
    let tokens = quote! {
        //! Conversions between consecutive protocol versions, for every definition both
        //! have: `From` in a direction where every value of the source's schema is one of
        //! the target's (the version diff's "nobody" for that direction), `TryFrom` where
        //! not, whose error names the place and what the target cannot carry. Members a
        //! version does not declare are kept in `extra`, as a peer would send them; a
        //! conversion across several versions chains these, or calls
        //! [`rt::convert`](crate::rt::convert) directly. Each pair is there with the
        //! `convert` feature and both versions' features on.
        //!
        #( #![doc = #table] )*
        #![allow(deprecated)]

        #( #pairs )*
    };
    Ok(header_text.to_string() + &pretty(tokens, "convert")?)
}

/// Emits `tests/src/convert.rs`: for each consecutive pair, every definition both have
/// with how it converts each way, and a function that decodes a JSON value as one
/// version's type, converts it with the generated impl (`TryFrom`, which a `From` impl
/// gives too) and encodes the result.
pub fn emit_convert_harness(models: &[Model], header_text: &str) -> Result<String, Error> {
    let mut names = Vec::new();
    // A version that is another's module re-exported has no conversions of its own.
    let distinct = models
        .windows(2)
        .filter(|pair| super::same_as(&pair[1], std::slice::from_ref(&pair[0])).is_none());
    let pairs = distinct.map(|pair| {
        let (old, new) = (&pair[0], &pair[1]);
        let (old_mod, new_mod) = (module_name(&old.version), module_name(&new.version));
        let name = ident(&format!("{old_mod}_{new_mod}").to_uppercase());
        names.push(name.clone());
        let (old_mod, new_mod) = (ident(&old_mod), ident(&new_mod));
        let (old_v, new_v) = (&old.version, &new.version);
        let how = |r: &Result<(), Misfit>| match r {
            Ok(()) => quote!(lossless),
            Err(m) => {
                let (path, why) = (&m.path, &m.why);
                let value = match &m.witness {
                    Some(w) => {
                        let text = w.to_string();
                        quote!(Some(#text))
                    }
                    None => quote!(None),
                };
                quote!(lossy(#path, #why, #value))
            }
        };
        let rows = conversions(old, new).into_iter().map(|c| {
            let (ty, up, down) = (ident(&c.name), how(&c.up), how(&c.down));
            quote!(#ty: #up #down)
        });
        let pair_macro = format_ident!("{}", CONVERSION_PAIR);
        quote! {
            crate::#pair_macro! {
                #name: #old_mod #old_v => #new_mod #new_v { #( #rows ),* }
            }
        }
    });
    let pairs: Vec<TokenStream> = pairs.collect();
    let tokens = quote! {
        //! The conversions between consecutive versions, for the tests: each pair's
        //! definitions with whether each direction is lossless (a `From` impl), the values
        //! a lossy direction must refuse, and a function that converts a JSON value of one
        //! version's definition into the other's (`crate::conversion_pair!`).
        #![allow(deprecated)]

        pub use crate::{Pair, Witness};

        #( #pairs )*

        /// Every pair, oldest first.
        pub const PAIRS: &[Pair] = &[ #( #names ),* ];
    };
    Ok(header_text.to_string() + &pretty(tokens, "convert harness")?)
}

/// `TO_OLDER_CLIENT` (what a newer server handler sends its older client) or
/// `TO_OLDER_SERVER` (what a newer client sends its older server): the params of its
/// requests and notifications, and its requests' results back, per method both versions
/// have, for `rt::convert::outbound`. Between a client of the `server/discover` era and a
/// server of the `initialize` era, params lose the newer era's envelope
/// (`rt::bridge::without_envelope`) and results get what the newer era requires and the
/// older one does not write (`rt::bridge::older_result`).
fn outbound(old: &Model, new: &Model, side: Side) -> TokenStream {
    let (_, _, _, name) = side.names();
    // With the discover era's input requests: an adapter sends them to an older client as
    // requests of its own.
    let sent = |m: &Model, kind| -> Vec<MethodDef> {
        m.method_set(kind, !side.answers_client(), false)
            .into_iter()
            .cloned()
            .collect()
    };
    let across = side == Side::Client && has(old, "initialize") && !has(new, "initialize");
    let mut rows = Vec::new();
    for kind in [MessageKind::Request, MessageKind::Notification] {
        let newer = sent(new, kind);
        for m in sent(old, kind) {
            let Some(n) = newer.iter().find(|x| x.method == m.method) else {
                continue;
            };
            let method = m.method.as_str();
            let params = match (&m.params, &n.params) {
                (Some(TypeRef::Named(a)), Some(TypeRef::Named(b))) => {
                    let (a, b) = (ident(a), ident(b));
                    quote!((#b => #a))
                }
                _ => quote!(_),
            };
            let result = match (m.result.as_deref(), n.result.as_deref()) {
                (Some(a), Some(b)) => {
                    let cache = declares(new, b, "cacheScope");
                    let (a, b) = (ident(a), ident(b));
                    if across {
                        quote!(-> (#a => #b, #cache))
                    } else {
                        quote!(-> (#a => #b))
                    }
                }
                _ => quote!(),
            };
            rows.push(quote!(#method: #params #result));
        }
    }
    let to = match side {
        Side::Server => quote!(to_client),
        Side::Client => quote!(to_server),
    };
    let era = if across {
        quote!(across)
    } else {
        quote!(plain)
    };
    let (from, to_v) = (&new.version, &old.version);
    let outbound = format_ident!("{}", OUTBOUND);
    quote! {
        crate::rt::#outbound! {
            #to #name: new #from => old #to_v, #era { #( #rows ),* }
        }
    }
}

/// The side of a connection an adapter's handler is on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A server handler (the adapter serves older clients).
    Server,
    /// A client handler (the adapter answers older servers).
    Client,
}

impl Side {
    /// Whether the requests this side's handler answers are the client's.
    fn answers_client(self) -> bool {
        self == Side::Server
    }
    /// The handler trait, the type of the peer in its context, the adapter's name, and the
    /// table of what the handler sends that peer.
    fn names(self) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
        match self {
            Side::Server => (
                quote!(ServerHandler),
                quote!(ClientPeer),
                quote!(ServeOlder),
                quote!(TO_OLDER_CLIENT),
            ),
            Side::Client => (
                quote!(ClientHandler),
                quote!(ServerPeer),
                quote!(AnswerOlder),
                quote!(TO_OLDER_SERVER),
            ),
        }
    }
}

/// `ServeOlder<H>` (a server handler of the older version made of one of the newer, for a
/// pair in the same lifecycle era: both answer `initialize`), or `AnswerOlder<H>` (a client
/// handler of the older version made of one of the newer, for any pair whose older version
/// answers `initialize`). Each request the older version has and the newer handler answers
/// too is forwarded: params converted up (-32602 if they do not convert), the newer handler
/// called, its result converted down (-32603 naming what the older version cannot carry).
/// A server's `initialize` answers with the older version.
fn older_adapter(old: &Model, new: &Model, side: Side) -> TokenStream {
    let (lifecycle_old, lifecycle_new) = (has(old, "initialize"), has(new, "initialize"));
    if !lifecycle_old || (side == Side::Server && !lifecycle_new) {
        return quote!();
    }
    let (handler, peer, adapter, table) = side.names();
    let protocol_version = old
        .types
        .iter()
        .find(|t| t.name == "InitializeResult")
        .and_then(|t| match &t.kind {
            Kind::Struct { fields, .. } => fields
                .iter()
                .find(|f| f.wire == "protocolVersion" && f.required && f.ty == TypeRef::String)
                .map(|f| ident(&f.name)),
            _ => None,
        });
    let version = &old.version;
    let mut forwarded = Vec::new();
    let ((old_answers, old_hears), (new_answers, new_hears)) =
        (served(old, side), served(new, side));
    for m in old_answers {
        let Some(n) = new_answers.iter().find(|x| x.method == m.method) else {
            continue;
        };
        let (Some(old_result), true) = (m.result.as_deref(), n.result.is_some()) else {
            continue;
        };
        let f = ident(&super::handlers::handler_fn_name(&m));
        let g = ident(&super::handlers::handler_fn_name(n));
        let old_result = ident(old_result);
        let method = &m.method;
        // What the older handler takes, and the newer one's params made from it.
        let Some((param, up)) = params_up(&m, n) else {
            continue;
        };
        let call = up.map(|up| quote!(#up?,));
        let fix_version = (side == Side::Server && m.method == "initialize")
            .then_some(protocol_version.as_ref())
            .flatten()
            .map(|field| quote!(result.#field = #version.into();));
        forwarded.push(quote! {
            async fn #f(&self, #param cx: RequestContext<old::handlers::#peer>)
                -> ::std::result::Result<old::#old_result, crate::rt::jsonrpc::ErrorObject>
            {
                let answer = self.0.#g(#call newer(cx)).await?;
                #[allow(unused_mut)]
                let mut result = crate::rt::convert::result_down::<_, old::#old_result>(&answer, #method, #version)?;
                #fix_version
                Ok(result)
            }
        });
    }
    forwarded.extend(forward_notifications(
        &old_hears,
        &new_hears,
        side,
        quote!(self.0),
    ));
    let (old_v, new_v) = (&old.version, &new.version);
    let doc = match side {
        Side::Server => format!(
            " Serves clients of `{old_v}` with a server handler written for `{new_v}`: each \
             request both versions have is converted up, answered by the newer handler, and \
             its result converted down; a request only `{old_v}` has is answered by the older \
             trait's default (-32601). Params that do not convert are -32602; a result the \
             older version cannot carry is -32603, naming what. `initialize` answers with \
             `{old_v}`. The handler calls the client back with its own version's types, \
             converted for it ([`TO_OLDER_CLIENT`]). Chains: `ServeOlder(ServeOlder(h))` \
             through the pair before."
        ),
        Side::Client => format!(
            " Answers servers of `{old_v}` with a client handler written for `{new_v}`: each \
             request both versions have (sampling, elicitation, roots) is converted up, \
             answered by the newer handler, and its result converted down; a request only \
             `{old_v}` has is answered by the older trait's default. Params that do not \
             convert are -32602; a result the older version cannot carry is -32603, naming \
             what. The handler calls the server back with its own version's types, converted \
             for it ([`TO_OLDER_SERVER`], which also makes a newer client's own calls to an \
             older server: `new::handlers::ServerPeer(rt::convert::outbound(&peer, \
             TO_OLDER_SERVER))`). Chains: `AnswerOlder(AnswerOlder(h))` through the pair \
             before."
        ),
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Default)]
        pub struct #adapter<H>(pub H);

        const _: () = {
            /// The newer handler's context: the same request on the same connection, whose
            /// calls back are converted for the older peer.
            fn newer(cx: RequestContext<old::handlers::#peer>) -> RequestContext<new::handlers::#peer> {
                let peer = crate::rt::convert::outbound(&cx.peer.0, #table);
                RequestContext { id: cx.id, meta: cx.meta, peer: new::handlers::#peer(peer) }
            }

            impl<H: new::handlers::#handler> old::handlers::#handler for #adapter<H> {
                #( #forwarded )*
            }
        };
    }
}

/// Whether the type `name` of `m`, or one of its union's arms, declares the member `wire`.
fn declares(m: &Model, name: &str, wire: &str) -> bool {
    match m.types.iter().find(|t| t.name == name).map(|t| &t.kind) {
        Some(Kind::Struct { fields, .. }) => fields.iter().any(|f| f.wire == wire),
        Some(Kind::Union { variants, .. }) => variants.iter().any(|v| match &v.ty {
            TypeRef::Named(n) => declares(m, n, wire),
            _ => false,
        }),
        Some(Kind::Alias {
            target: TypeRef::Named(n),
            ..
        }) => declares(m, n, wire),
        _ => false,
    }
}

/// Whether `m` has the method `method`.
fn has(m: &Model, method: &str) -> bool {
    m.methods.iter().any(|x| x.method == method)
}

/// The requests and the notifications a server handler of `m` answers.
fn served(m: &Model, side: Side) -> (Vec<MethodDef>, Vec<MethodDef>) {
    // As the handler traits have them: with the input requests a discover-era client
    // answers inside results.
    let set = |kind, jsonrpc_only| {
        m.method_set(kind, side.answers_client(), jsonrpc_only)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    (
        set(MessageKind::Request, false),
        set(MessageKind::Notification, true),
    )
}

/// The notification methods of an adapter: each the older version hears and the newer
/// handler too, its params converted up (a notification whose params do not convert is
/// not passed on), the handler (`handler`, an expression on `self`) given a peer through
/// the side's outbound table.
fn forward_notifications(
    old_hears: &[MethodDef],
    new_hears: &[MethodDef],
    side: Side,
    handler: TokenStream,
) -> Vec<TokenStream> {
    let (_, peer, _, table) = side.names();
    let mut forwarded = Vec::new();
    for m in old_hears {
        let Some(n) = new_hears.iter().find(|x| x.method == m.method) else {
            continue;
        };
        let f = ident(&super::handlers::handler_fn_name(m));
        let g = ident(&super::handlers::handler_fn_name(n));
        let Some((param, up)) = params_up(m, n) else {
            continue;
        };
        let call = up.map(|up| quote!(match #up { Ok(p) => p, Err(_) => return },));
        forwarded.push(quote! {
            async fn #f(&self, #param cx: NotificationContext<old::handlers::#peer>) {
                let peer = crate::rt::convert::outbound(&cx.peer.0, #table);
                let cx = NotificationContext { meta: cx.meta, peer: new::handlers::#peer(peer) };
                #handler.#g(#call cx).await
            }
        });
    }
    forwarded
}

/// An older method's parameter as the trait declares it, and the params to give
/// `rt::bridge` (`&()`, written as `null`, where there are none); `None` for params of
/// another shape.
fn old_param(m: &MethodDef) -> Option<(TokenStream, TokenStream)> {
    match (&m.params, m.params_required) {
        (None, _) => Some((quote!(), quote!(&()))),
        (Some(TypeRef::Named(a)), true) => {
            let a = ident(a);
            Some((quote!(params: old::#a,), quote!(&params)))
        }
        (Some(TypeRef::Named(a)), false) => {
            let a = ident(a);
            Some((
                quote!(params: ::std::option::Option<old::#a>,),
                quote!(&params),
            ))
        }
        _ => None,
    }
}

/// `ServeOlder<H>` across the lifecycle change: a server handler of an `initialize`-era
/// version made of one of the `server/discover` era, through `rt::bridge` (which says
/// what each side's lifecycle becomes in the other). Each request both versions answer is
/// forwarded with the bridge's `_meta`, input the handler asks for is asked of the
/// client, and the result converted down. `initialize` is answered from `server/discover`,
/// `logging/setLevel` sets the level the bridge passes on, and `resources/subscribe` /
/// `unsubscribe` drive a background `subscriptions/listen` — each where the two models
/// have those methods.
fn serve_older_discover(old: &Model, new: &Model) -> TokenStream {
    if !has(old, "initialize") || has(old, "server/discover") {
        return quote!();
    }
    let (old_answers, old_hears) = served(old, Side::Server);
    let (new_answers, new_hears) = served(new, Side::Server);
    let find = |set: &[MethodDef], method: &str| set.iter().find(|x| x.method == method).cloned();
    let (version, new_version) = (&old.version, &new.version);
    let mut methods = Vec::new();
    for m in &old_answers {
        let Some(old_result) = m.result.as_deref().map(ident) else {
            continue;
        };
        let Some((param, arg)) = old_param(m) else {
            continue;
        };
        let f = ident(&super::handlers::handler_fn_name(m));
        let signature = quote! {
            async fn #f(&self, #param cx: RequestContext<old::handlers::ClientPeer>)
                -> ::std::result::Result<old::#old_result, crate::rt::jsonrpc::ErrorObject>
        };
        let forward = |n: &MethodDef| {
            let g = ident(&super::handlers::handler_fn_name(n));
            quote! {{
                let peer = crate::rt::convert::outbound(&cx.peer.0, TO_OLDER_CLIENT);
                self.bridge.call(#arg, &peer, |params, meta| self.handler.#g(params, newer(&cx, &peer, meta))).await?
            }}
        };
        let method = m.method.as_str();
        let body = match (method, find(&new_answers, method)) {
            (_, Some(n)) if n.params.is_some() && n.result.is_some() => {
                let call = forward(&n);
                quote! {
                    let answer = #call;
                    crate::rt::convert::result_down::<_, old::#old_result>(&answer, #method, #version)
                }
            }
            ("initialize", None) => match find(&new_answers, "server/discover") {
                Some(n) if n.params.is_some() && m.params_required => {
                    let call = forward(&n);
                    quote! {
                        self.bridge.initialize(&params);
                        let answer = #call;
                        let result = self.bridge.initialize_result(&answer, #version)?;
                        crate::rt::convert::result_down::<_, old::#old_result>(&result, #method, #version)
                    }
                }
                _ => continue,
            },
            ("logging/setLevel", None) if m.params_required => quote! {
                let _ = cx;
                self.bridge.set_level(&params)?;
                Ok(::std::default::Default::default())
            },
            ("resources/subscribe" | "resources/unsubscribe", None)
                if m.params_required && find(&new_answers, "subscriptions/listen").is_some() =>
            {
                let subscribe = method == "resources/subscribe";
                quote! {
                    self.listen(#subscribe, &params, &cx)?;
                    Ok(::std::default::Default::default())
                }
            }
            _ => continue,
        };
        methods.push(quote! { #signature { #body } });
    }
    methods.extend(forward_notifications(
        &old_hears,
        &new_hears,
        Side::Server,
        quote!(self.handler),
    ));
    // The background listener behind `resources/subscribe`.
    let listen = find(&new_answers, "subscriptions/listen").and_then(|n| {
        let Some(TypeRef::Named(p)) = &n.params else {
            return None;
        };
        let (p, g) = (ident(p), ident(&super::handlers::handler_fn_name(&n)));
        Some(quote! {
            impl<H: new::handlers::ServerHandler + 'static> ServeOlder<H> {
                /// Changes the subscribed URIs and restarts the handler's listener for them.
                fn listen<S: crate::serde::Serialize>(
                    &self,
                    subscribe: bool,
                    params: &S,
                    cx: &RequestContext<old::handlers::ClientPeer>,
                ) -> ::std::result::Result<(), crate::rt::jsonrpc::ErrorObject> {
                    let handler = self.handler.clone();
                    let peer = crate::rt::convert::outbound(&cx.peer.0, TO_OLDER_CLIENT);
                    let peer = crate::rt::bridge::older_peer(&peer);
                    self.bridge.resubscribe(subscribe, params, move |params, meta| {
                        let params = crate::rt::convert::params_up::<_, new::#p>(&params)?;
                        let cx = RequestContext {
                            id: crate::rt::jsonrpc::Id::String("subscriptions/listen".into()),
                            meta: ::std::option::Option::Some(meta),
                            peer: new::handlers::ClientPeer(peer),
                        };
                        ::std::result::Result::Ok(::std::boxed::Box::pin(async move {
                            let _ = handler.#g(params, cx).await;
                        }))
                    })
                }
            }
        })
    });
    let doc = format!(
        " Serves clients of `{version}` with a server handler written for `{new_version}`, \
         across the change of lifecycle (what each side's becomes in the other is in \
         [`rt::bridge`](crate::rt::bridge)): each request both versions have gets the \
         client's capabilities, info and log level in its `_meta`, input the handler asks \
         for is asked of the client, and the result is converted down; `initialize` is \
         answered from `server/discover`. A request only `{version}` has, and that the \
         bridge does not make of the newer one's, is answered by the older trait's default \
         (-32601). Params that do not convert are -32602; a result the older version cannot \
         carry is -32603, naming what. One per connection: it remembers what the client \
         said. What the handler sends the client is converted for it ([`TO_OLDER_CLIENT`])."
    );
    let new_doc = format!(
        " Serves `handler` to one connection of `{version}` clients; resource \
         subscriptions are not offered."
    );
    quote! {
        use crate::rt::service::Meta;
        use ::std::sync::Arc;

        #[doc = #doc]
        pub struct ServeOlder<H> {
            handler: Arc<H>,
            bridge: Arc<crate::rt::bridge::Bridge>,
        }

        impl<H> ServeOlder<H> {
            #[doc = #new_doc]
            pub fn new(handler: H) -> Self {
                ServeOlder {
                    handler: Arc::new(handler),
                    bridge: Arc::new(crate::rt::bridge::Bridge::new(#new_version)),
                }
            }

            /// This adapter, serving resource subscriptions with a `subscriptions/listen`
            /// that `spawn` runs in the background (`|f| { tokio::spawn(f); }`). Call it
            /// before serving: it starts the connection afresh.
            pub fn with_spawn(
                self,
                spawn: impl Fn(crate::rt::service::BoxFuture<'static, ()>) + Send + Sync + 'static,
            ) -> Self {
                let bridge = crate::rt::bridge::Bridge::new(#new_version).with_spawn(Arc::new(spawn));
                ServeOlder { handler: self.handler, bridge: Arc::new(bridge) }
            }
        }

        impl<H> ::std::clone::Clone for ServeOlder<H> {
            fn clone(&self) -> Self {
                ServeOlder { handler: self.handler.clone(), bridge: self.bridge.clone() }
            }
        }

        impl<H> ::std::fmt::Debug for ServeOlder<H> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("ServeOlder").field("bridge", &self.bridge).finish_non_exhaustive()
            }
        }

        /// The newer handler's context: the same request on the same connection, with the
        /// `_meta` the bridge gave it, and `peer` (the client, through [`TO_OLDER_CLIENT`]).
        fn newer(cx: &RequestContext<old::handlers::ClientPeer>, peer: &crate::rt::service::Peer, meta: Meta) -> RequestContext<new::handlers::ClientPeer> {
            RequestContext { id: cx.id.clone(), meta: ::std::option::Option::Some(meta), peer: new::handlers::ClientPeer(peer.clone()) }
        }

        #listen

        impl<H: new::handlers::ServerHandler + 'static> old::handlers::ServerHandler for ServeOlder<H> {
            #( #methods )*
        }
    }
}

/// What an older handler's method takes for `m`'s params, and an expression giving the
/// newer method's (`n`'s) params from them as a `Result<_, ErrorObject>` (-32602 where they
/// do not convert); no expression where neither method has params. `None` for params of
/// another shape (the method is not forwarded: the older trait's default answers).
fn params_up(m: &MethodDef, n: &MethodDef) -> Option<(TokenStream, Option<TokenStream>)> {
    let named = |t: &Option<TypeRef>| match t {
        Some(TypeRef::Named(n)) => Some(ident(n)),
        _ => None,
    };
    if m.params.is_none() && n.params.is_none() {
        return Some((quote!(), None));
    }
    let (a, b) = (named(&m.params)?, named(&n.params)?);
    let up = quote!(crate::rt::convert::params_up::<_, new::#b>);
    Some(match (m.params_required, n.params_required) {
        (true, true) => (quote!(params: old::#a,), Some(quote!(#up(&params)))),
        (true, false) => (
            quote!(params: old::#a,),
            Some(quote!(#up(&params).map(::std::option::Option::Some))),
        ),
        (false, false) => (
            quote!(params: ::std::option::Option<old::#a>,),
            Some(quote!(params.as_ref().map(#up).transpose())),
        ),
        (false, true) => (
            quote!(params: ::std::option::Option<old::#a>,),
            Some(quote!(match &params {
                ::std::option::Option::Some(p) => #up(p),
                ::std::option::Option::None => crate::rt::path::from_str::<new::#b>("{}")
                    .map_err(|e| crate::rt::jsonrpc::ErrorObject::invalid_params(e.to_string())),
            })),
        ),
    })
}
