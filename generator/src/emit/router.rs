//! `Router`, emitted into `handlers.rs`: a `ServerHandler` assembled from tools, resources
//! and prompts, each a function found by name (or URI), with the capabilities and the
//! `initialize` answer derived from what was registered. It is what a small server needs
//! instead of eight handler methods and a `match` on tool names.
//!
//! Emitted only where the model has every shape it builds on: a lifecycle it knows
//! (`initialize`, or `server/discover` with the server's info in the result's `_meta`),
//! the list results built from their one list (and, in the discover era, `resultType`,
//! `cacheScope` and `ttlMs`), a `CallToolResult` with `text` and `error`,
//! `CallToolRequestParams::arguments_as`, the capabilities it declares. A schema without
//! one of them (a fixture, an old draft) simply has no `Router`.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::constructors;
use super::rust::{ident, result_type};
use crate::model::{Field, Kind, MethodDef, Model, TypeDef, TypeRef};

/// The struct fields of a type by name.
fn fields<'m>(types: &BTreeMap<&str, &'m TypeDef>, name: &str) -> Option<&'m [Field]> {
    match &types.get(name)?.kind {
        Kind::Struct { fields, .. } => Some(fields),
        _ => None,
    }
}

/// `Type::new(..)` with each argument given by `arg` from the property's wire name; `None`
/// when `new` takes a property `arg` does not know.
fn new_call(
    types: &BTreeMap<&str, &TypeDef>,
    name: &str,
    arg: impl Fn(&str) -> Option<TokenStream>,
) -> Option<TokenStream> {
    let args = constructors::params(fields(types, name)?)
        .map(|f| arg(&f.wire))
        .collect::<Option<Vec<_>>>()?;
    let ty = ident(name);
    Some(quote!(super::#ty::new(#( #args ),*)))
}

/// The Rust name of `ty`'s required string property `wire` (a tool's `name`, a
/// resource's `uri`).
fn string_key(types: &BTreeMap<&str, &TypeDef>, ty: &str, wire: &str) -> Option<TokenStream> {
    let f = fields(types, ty)?.iter().find(|f| f.wire == wire)?;
    (f.required && !f.nullable && f.ty == TypeRef::String).then(|| {
        let i = ident(&f.name);
        quote!(#i)
    })
}

/// `Router` and its `ServerHandler` impl, or nothing where the model lacks a shape.
pub(super) fn router(model: &Model, server_answers: &[&MethodDef]) -> TokenStream {
    emit(model, server_answers).unwrap_or_default()
}

fn emit(model: &Model, server_answers: &[&MethodDef]) -> Option<TokenStream> {
    let types: BTreeMap<&str, &TypeDef> =
        model.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let method = |name: &str| server_answers.iter().copied().find(|m| m.method == name);
    // The signature of the trait's method, as `handlers::handler_trait` spells it.
    let sig = |m: &MethodDef| {
        let f = ident(&super::rust::handler_fn_name(m));
        let param = super::rust::params_arg(m).map(|t| quote!(params: #t,));
        let result = result_type(m);
        quote! {
            async fn #f(&self, #param cx: RequestContext<ClientPeer>)
                -> ::std::result::Result<#result, crate::rt::jsonrpc::ErrorObject>
        }
    };
    let named =
        |m: &MethodDef, ty: &str| m.params_required && m.params == Some(TypeRef::Named(ty.into()));

    let version = &model.version;
    // What the discover era's results say besides their content: complete, the same for
    // every client (what a `Router` holds is fixed), and not to be cached for long.
    let enum_value = |ty: &str, wire: &str, value: &str| {
        let f = fields(&types, ty)?.iter().find(|f| f.wire == wire)?;
        let TypeRef::Named(e) = &f.ty else {
            return None;
        };
        match &types.get(e.as_str())?.kind {
            Kind::StringEnum { values } if values.iter().any(|v| v == value) => {
                let (e, v) = (ident(e), ident(&crate::names::variant_name(value)));
                Some(quote!(super::#e::#v))
            }
            _ => None,
        }
    };
    let result_common = |ty: &str, wire: &str| match wire {
        "resultType" => Some(quote!("complete")),
        "cacheScope" => enum_value(ty, wire, "public"),
        "ttlMs" => Some(quote!(0)),
        _ => None,
    };
    let new_result = |ty: &str, arg: &dyn Fn(&str) -> Option<TokenStream>| {
        new_call(&types, ty, |wire| {
            arg(wire).or_else(|| result_common(ty, wire))
        })
    };

    // The lifecycle: `initialize` (the version, the capabilities of what was registered,
    // the info), or `server/discover` (the same, the info in the result's `_meta`).
    let lifecycle = match (method("initialize"), method("server/discover")) {
        (Some(initialize), _) => {
            let init_result = new_result(initialize.result.as_deref()?, &|wire| match wire {
                "protocolVersion" => Some(quote!(#version)),
                "capabilities" => Some(quote!(capabilities)),
                "serverInfo" => Some(quote!(self.info.clone())),
                _ => None,
            })?;
            let sig = sig(initialize);
            quote! {
                #sig {
                    let capabilities = self.capabilities();
                    Ok(#init_result)
                }
            }
        }
        (None, Some(discover)) => {
            let result = discover.result.as_deref()?;
            let discovered = new_result(result, &|wire| match wire {
                "capabilities" => Some(quote!(capabilities)),
                "supportedVersions" => Some(quote!(::std::vec![#version.into()])),
                _ => None,
            })?;
            // `_meta` carries the server's info, in a type that has nothing required.
            let meta = fields(&types, result)?
                .iter()
                .find(|f| f.wire == "_meta" && !f.required)?;
            let TypeRef::Named(meta_ty) = &meta.ty else {
                return None;
            };
            let info = fields(&types, meta_ty)?
                .iter()
                .find(|f| f.wire == "io.modelcontextprotocol/serverInfo" && !f.required)?;
            if !types.get(meta_ty.as_str())?.default
                || info.ty != TypeRef::Named("Implementation".into())
            {
                return None;
            }
            let (meta_field, meta_ty, info_field) =
                (ident(&meta.name), ident(meta_ty), ident(&info.name));
            let result = ident(result);
            let sig = sig(discover);
            quote! {
                #sig {
                    let capabilities = self.capabilities();
                    let meta = super::#meta_ty {
                        #info_field: ::std::option::Option::Some(self.info.clone()),
                        ..::std::default::Default::default()
                    };
                    Ok(super::#result { #meta_field: ::std::option::Option::Some(meta), ..#discovered })
                }
            }
        }
        _ => return None,
    };
    let caps = types.get("ServerCapabilities").filter(|t| t.default)?;
    let Kind::Struct {
        fields: cap_fields, ..
    } = &caps.kind
    else {
        return None;
    };
    let capability = |wire: &str| {
        let f = cap_fields.iter().find(|f| f.wire == wire && !f.required)?;
        let defaults = match &f.ty {
            TypeRef::Named(n) => types.get(n.as_str()).is_some_and(|t| t.default),
            TypeRef::Map(_) => true,
            _ => false,
        };
        defaults.then(|| ident(&f.name))
    };
    let (cap_tools, cap_resources, cap_prompts, cap_logging) = (
        capability("tools")?,
        capability("resources")?,
        capability("prompts")?,
        capability("logging")?,
    );

    // Tools: a `CallToolResult` with `text` and `error`, arguments decoded by
    // `arguments_as`, a result the trait's answer converts from.
    let list_tools = method("tools/list")?;
    let call_tool = method("tools/call")?;
    if !named(call_tool, "CallToolRequestParams") {
        return None;
    }
    let result_fields = fields(&types, "CallToolResult")?;
    let has_error = result_fields
        .iter()
        .any(|f| f.wire == "isError" && !f.required)
        && !constructors::call_tool_result_shortcuts(
            types["CallToolResult"],
            result_fields,
            &types,
        )
        .is_empty();
    let has_arguments_as = !constructors::call_tool_params_shortcuts(
        types["CallToolRequestParams"],
        fields(&types, "CallToolRequestParams")?,
    )
    .is_empty();
    let converts = match call_tool.result.as_deref()? {
        "CallToolResult" => true,
        other => matches!(&types.get(other)?.kind, Kind::Union { variants, .. }
            if variants.iter().filter(|v| v.ty == TypeRef::Named("CallToolResult".into())).count() == 1),
    };
    if !(has_error && has_arguments_as && converts) {
        return None;
    }
    let call_name = string_key(&types, "CallToolRequestParams", "name")?;
    let tool_name = string_key(&types, "Tool", "name")?;
    let tools_list = new_result(list_tools.result.as_deref()?, &|wire| {
        (wire == "tools").then(|| quote!(self.tools.iter().map(|e| e.item.clone()).collect()))
    })?;

    // Resources, found by URI; templates, if the version lists them, are none.
    let list_resources = method("resources/list")?;
    let read_resource = method("resources/read")?;
    if !named(read_resource, "ReadResourceRequestParams") || read_resource.result.is_none() {
        return None;
    }
    let read_uri = string_key(&types, "ReadResourceRequestParams", "uri")?;
    let resource_uri = string_key(&types, "Resource", "uri")?;
    let resources_list = new_result(list_resources.result.as_deref()?, &|wire| {
        (wire == "resources")
            .then(|| quote!(self.resources.iter().map(|e| e.item.clone()).collect()))
    })?;
    let templates = method("resources/templates/list").and_then(|m| {
        let list = new_result(m.result.as_deref()?, &|wire| {
            (wire == "resourceTemplates").then(|| quote!(::std::vec::Vec::new()))
        })?;
        let sig = sig(m);
        Some(quote! {
            /// No templates: a `Router` serves fixed URIs.
            #sig {
                Ok(#list)
            }
        })
    });

    // Prompts, found by name.
    let list_prompts = method("prompts/list")?;
    let get_prompt = method("prompts/get")?;
    if !named(get_prompt, "GetPromptRequestParams") || get_prompt.result.is_none() {
        return None;
    }
    let get_name = string_key(&types, "GetPromptRequestParams", "name")?;
    let prompt_name = string_key(&types, "Prompt", "name")?;
    let prompts_list = new_result(list_prompts.result.as_deref()?, &|wire| {
        (wire == "prompts").then(|| quote!(self.prompts.iter().map(|e| e.item.clone()).collect()))
    })?;

    // `logging/setLevel`, where the version has it (the discover era sends the level
    // with each request instead): accepting a level answers the empty result.
    let set_level = match method("logging/setLevel") {
        Some(m) => {
            types.get(m.result.as_deref()?).filter(|t| t.default)?;
            let sig = sig(m);
            quote! {
                #sig {
                    if self.logging {
                        Ok(::std::default::Default::default())
                    } else {
                        Err(crate::rt::service::method_not_found("logging/setLevel"))
                    }
                }
            }
        }
        None => quote!(),
    };

    let discover_era = method("initialize").is_none();
    let answers_doc = if discover_era {
        " It answers `server/discover` with this version, the capabilities of what it holds \
         (`tools`, `resources`, `prompts`, and `logging` once [`logging`](Router::logging) was \
         asked for), and the [`Implementation`](super::Implementation) it was made with in the \
         result's `_meta`; it lists everything it holds in one page, as the same for every \
         client (`cacheScope` `public`) and not to be kept (`ttlMs` 0)."
    } else {
        " It answers `initialize` with this version, the [`Implementation`](super::Implementation) \
         it was made with, and the capabilities of what it holds (`tools`, `resources`, \
         `prompts`, and `logging` once [`logging`](Router::logging) was asked for); it \
         lists everything it holds in one page."
    };
    let logging_doc = if discover_era {
        " Declares the `logging` capability. In this era a request says the level it wants \
         in its `_meta` (`io.modelcontextprotocol/logLevel`), and a function logs through \
         `cx.peer.notify_logging_message` only when it does."
    } else {
        " Declares the `logging` capability and accepts `logging/setLevel`. The level is not \
         applied to what the functions send: they log through \
         `cx.peer.notify_logging_message`."
    };
    let (sig_list_tools, sig_call, sig_list_resources, sig_read) = (
        sig(list_tools),
        sig(call_tool),
        sig(list_resources),
        sig(read_resource),
    );
    let (sig_list_prompts, sig_get) = (sig(list_prompts), sig(get_prompt));
    let (read_result, prompt_result) = (
        ident(read_resource.result.as_deref()?),
        ident(get_prompt.result.as_deref()?),
    );
    let module = super::rust::module_name(version);
    let example = format!(
        r##" ```
 use mcp_spec_types::rt::jsonrpc::ErrorObject;
 use mcp_spec_types::rt::service::RequestContext;
 use mcp_spec_types::{module}::handlers::{{ClientPeer, Router}};
 use mcp_spec_types::{module}::*;
 use std::collections::BTreeMap;

 // The arguments: any `Deserialize` type, usually a `#[derive(Deserialize)]` struct.
 async fn greet(args: BTreeMap<String, String>, _: RequestContext<ClientPeer>) -> Result<CallToolResult, ErrorObject> {{
     let name = args.get("name").map_or("world", String::as_str);
     Ok(CallToolResult::text(format!("Hello, {{name}}!")))
 }}

 let schema = serde_json::from_str(r#"{{"type": "object", "properties": {{"name": {{"type": "string"}}}}}}"#).unwrap();
 let router = Router::new(Implementation::new("hello", "1.0.0"))
     .tool(Tool::new("greet", schema), greet)
     .logging();
 // Serve it: `Server::new(router)`, on a session engine.
 ```"##
    );

    Some(quote! {
        /// A function of a [`Router`], boxed: what it is called with, what it answers.
        type RouterFn<P, R> = ::std::boxed::Box<
            dyn Fn(P, RequestContext<ClientPeer>) -> crate::rt::service::BoxFuture<
                'static,
                ::std::result::Result<R, crate::rt::jsonrpc::ErrorObject>,
            > + Send + Sync,
        >;

        /// What a [`Router`] lists, the key it is found by, and its function.
        struct RouterEntry<T, P, R> {
            key: ::std::string::String,
            item: T,
            call: RouterFn<P, R>,
        }

        /// Adds `entry`, or puts it in the place of the one with its key.
        fn router_place<T, P, R>(list: &mut ::std::vec::Vec<RouterEntry<T, P, R>>, entry: RouterEntry<T, P, R>) {
            match list.iter_mut().find(|e| e.key == entry.key) {
                ::std::option::Option::Some(slot) => *slot = entry,
                ::std::option::Option::None => list.push(entry),
            }
        }

        /// A [`ServerHandler`] assembled from parts: tools, resources and prompts, each
        /// with the function that serves it, found by name (a resource by URI).
        ///
        #[doc = #answers_doc]
        ///
        /// A tool's arguments are decoded into the type its function takes; arguments that do not fit are answered as a tool error
        /// (`isError`, with the path of what does not fit) that the model can correct, as
        /// the specification asks of input validation since 2025-11-25. An unknown tool
        /// or prompt is -32602, an unknown resource -32002. What a `Router` cannot do
        /// (resource templates, completion, subscriptions, pagination) takes a
        /// [`ServerHandler`] of one's own.
        ///
        /// Registering a second tool, resource or prompt with the same key replaces the
        /// first in its place.
        ///
        #[doc = #example]
        pub struct Router {
            info: super::Implementation,
            tools: ::std::vec::Vec<RouterEntry<super::Tool, super::CallToolRequestParams, super::CallToolResult>>,
            resources: ::std::vec::Vec<RouterEntry<super::Resource, super::ReadResourceRequestParams, super::#read_result>>,
            prompts: ::std::vec::Vec<RouterEntry<super::Prompt, super::GetPromptRequestParams, super::#prompt_result>>,
            logging: bool,
        }

        impl ::std::fmt::Debug for Router {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("Router")
                    .field("info", &self.info)
                    .field("tools", &self.tools.iter().map(|e| &e.key).collect::<::std::vec::Vec<_>>())
                    .field("resources", &self.resources.iter().map(|e| &e.key).collect::<::std::vec::Vec<_>>())
                    .field("prompts", &self.prompts.iter().map(|e| &e.key).collect::<::std::vec::Vec<_>>())
                    .field("logging", &self.logging)
                    .finish()
            }
        }

        impl Router {
            /// A router holding nothing yet, that introduces itself as `info`.
            pub fn new(info: super::Implementation) -> Self {
                Router {
                    info,
                    tools: ::std::vec::Vec::new(),
                    resources: ::std::vec::Vec::new(),
                    prompts: ::std::vec::Vec::new(),
                    logging: false,
                }
            }

            /// Adds `tool`, served by `f` with the call's arguments decoded as `A` (an
            /// absent `arguments` as an empty object). With the `schemars` feature,
            /// `Tool::for_input::<A>(name)` gives the tool the input schema of `A`.
            pub fn tool<A, F, Fut>(mut self, tool: super::Tool, f: F) -> Self
            where
                A: serde::de::DeserializeOwned + Send + 'static,
                F: Fn(A, RequestContext<ClientPeer>) -> Fut + Send + Sync + 'static,
                Fut: ::std::future::Future<
                    Output = ::std::result::Result<super::CallToolResult, crate::rt::jsonrpc::ErrorObject>,
                > + Send + 'static,
            {
                let call: RouterFn<super::CallToolRequestParams, super::CallToolResult> =
                    ::std::boxed::Box::new(move |params: super::CallToolRequestParams, cx| {
                        match params.arguments_as::<A>() {
                            ::std::result::Result::Ok(args) => ::std::boxed::Box::pin(f(args, cx)),
                            ::std::result::Result::Err(e) => {
                                let result = super::CallToolResult::error(::std::format!("invalid arguments: {e}"));
                                ::std::boxed::Box::pin(async move { ::std::result::Result::Ok(result) })
                            }
                        }
                    });
                let key = tool.#tool_name.clone();
                router_place(&mut self.tools, RouterEntry { key, item: tool, call });
                self
            }

            /// Adds `resource`, read by `f`.
            pub fn resource<F, Fut>(mut self, resource: super::Resource, f: F) -> Self
            where
                F: Fn(super::ReadResourceRequestParams, RequestContext<ClientPeer>) -> Fut + Send + Sync + 'static,
                Fut: ::std::future::Future<
                    Output = ::std::result::Result<super::#read_result, crate::rt::jsonrpc::ErrorObject>,
                > + Send + 'static,
            {
                let call: RouterFn<super::ReadResourceRequestParams, super::#read_result> =
                    ::std::boxed::Box::new(move |params, cx| ::std::boxed::Box::pin(f(params, cx)));
                let key = resource.#resource_uri.clone();
                router_place(&mut self.resources, RouterEntry { key, item: resource, call });
                self
            }

            /// Adds `prompt`, got by `f`.
            pub fn prompt<F, Fut>(mut self, prompt: super::Prompt, f: F) -> Self
            where
                F: Fn(super::GetPromptRequestParams, RequestContext<ClientPeer>) -> Fut + Send + Sync + 'static,
                Fut: ::std::future::Future<
                    Output = ::std::result::Result<super::#prompt_result, crate::rt::jsonrpc::ErrorObject>,
                > + Send + 'static,
            {
                let call: RouterFn<super::GetPromptRequestParams, super::#prompt_result> =
                    ::std::boxed::Box::new(move |params, cx| ::std::boxed::Box::pin(f(params, cx)));
                let key = prompt.#prompt_name.clone();
                router_place(&mut self.prompts, RouterEntry { key, item: prompt, call });
                self
            }

            #[doc = #logging_doc]
            pub fn logging(mut self) -> Self {
                self.logging = true;
                self
            }
        }

        impl Router {
            /// The capabilities of what it holds.
            #[allow(deprecated)]
            fn capabilities(&self) -> super::ServerCapabilities {
                let mut capabilities = super::ServerCapabilities::default();
                if !self.tools.is_empty() {
                    capabilities.#cap_tools = ::std::option::Option::Some(::std::default::Default::default());
                }
                if !self.resources.is_empty() {
                    capabilities.#cap_resources = ::std::option::Option::Some(::std::default::Default::default());
                }
                if !self.prompts.is_empty() {
                    capabilities.#cap_prompts = ::std::option::Option::Some(::std::default::Default::default());
                }
                if self.logging {
                    capabilities.#cap_logging = ::std::option::Option::Some(::std::default::Default::default());
                }
                capabilities
            }
        }

        impl ServerHandler for Router {
            #lifecycle

            #sig_list_tools {
                Ok(#tools_list)
            }

            #sig_call {
                let ::std::option::Option::Some(entry) = self.tools.iter().find(|e| e.key == params.#call_name) else {
                    return Err(crate::rt::jsonrpc::ErrorObject::invalid_params(
                        ::std::format!("unknown tool `{}`", params.#call_name),
                    ));
                };
                Ok(::std::convert::Into::into((entry.call)(params, cx).await?))
            }

            #sig_list_resources {
                Ok(#resources_list)
            }

            #templates

            #sig_read {
                let ::std::option::Option::Some(entry) = self.resources.iter().find(|e| e.key == params.#read_uri) else {
                    return Err(crate::rt::jsonrpc::ErrorObject::new(
                        -32002,
                        ::std::format!("resource not found: {}", params.#read_uri),
                    ));
                };
                (entry.call)(params, cx).await
            }

            #sig_list_prompts {
                Ok(#prompts_list)
            }

            #sig_get {
                let ::std::option::Option::Some(entry) = self.prompts.iter().find(|e| e.key == params.#get_name) else {
                    return Err(crate::rt::jsonrpc::ErrorObject::invalid_params(
                        ::std::format!("unknown prompt `{}`", params.#get_name),
                    ));
                };
                (entry.call)(params, cx).await
            }

            #set_level
        }
    })
}
