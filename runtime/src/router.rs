//! A server assembled from parts: tools, resources and prompts, each an async function
//! found by its key (a tool's or prompt's name, a resource's URI). Written once, for
//! every version: a version module says which of its types are the parts ([`Parts`]) and
//! answers its own lifecycle and lists through the methods here (each version's
//! `handlers::Router` is a [`Router`] of that version's parts).
//!
//! What it decides, the same in every version: a tool's arguments that do not fit the
//! type its function takes are answered as a tool error (`isError`, with the path of what
//! does not fit), which the model can correct; an unknown tool or prompt is -32602, an
//! unknown resource -32002; registering a second part with the same key replaces the
//! first in its place; everything it holds is listed in one page.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;

use crate::jsonrpc::ErrorObject;
use crate::service::{BoxFuture, RequestContext, method_not_found};

/// The error code of a resource that is not there (`resources/read` of a URI the server
/// does not hold), as the specification gives it.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

/// Which of a version's types a [`Router`] is made of, and the little it needs to know of
/// them. Each version module with a `Router` implements it (generated, one line a type).
pub trait Parts: Send + Sync + 'static {
    /// The typed client a function answers with (`handlers::ClientPeer`).
    type Peer: Send + 'static;
    /// How the server introduces itself (`Implementation`).
    type Info: Clone + fmt::Debug + Send + Sync + 'static;
    /// A tool as listed (`Tool`).
    type Tool: Clone + Send + Sync + 'static;
    /// The params of a tool call (`CallToolRequestParams`).
    type Call: Send + 'static;
    /// What a tool function answers (`CallToolResult`).
    type Called: Send + 'static;
    /// A resource as listed (`Resource`).
    type Resource: Clone + Send + Sync + 'static;
    /// The params of a read (`ReadResourceRequestParams`).
    type Read: Send + 'static;
    /// What a resource function answers.
    type ReadOut: Send + 'static;
    /// A prompt as listed (`Prompt`).
    type Prompt: Clone + Send + Sync + 'static;
    /// The params of a get (`GetPromptRequestParams`).
    type Get: Send + 'static;
    /// What a prompt function answers.
    type GetOut: Send + 'static;

    /// A tool's name.
    fn tool_key(tool: &Self::Tool) -> &str;
    /// The name of the tool a call asks for.
    fn call_key(params: &Self::Call) -> &str;
    /// A resource's URI.
    fn resource_key(resource: &Self::Resource) -> &str;
    /// The URI a read asks for.
    fn read_key(params: &Self::Read) -> &str;
    /// A prompt's name.
    fn prompt_key(prompt: &Self::Prompt) -> &str;
    /// The name of the prompt a get asks for.
    fn get_key(params: &Self::Get) -> &str;
    /// A call's arguments as `A` (an absent `arguments` as an empty object), or what does
    /// not fit, with its path.
    fn arguments<A: DeserializeOwned>(params: &Self::Call) -> Result<A, String>;
    /// A tool result that says the call failed (`isError`), with `message` as its text.
    fn tool_error(message: String) -> Self::Called;
}

/// A function of a [`Router`], boxed: what it is called with, what it answers.
type PartFn<Peer, P, R> = Box<
    dyn Fn(P, RequestContext<Peer>) -> BoxFuture<'static, Result<R, ErrorObject>> + Send + Sync,
>;

/// What a [`Router`] lists, the key it is found by, and its function.
struct Entry<Peer, T, P, R> {
    key: String,
    item: T,
    call: PartFn<Peer, P, R>,
}

/// A tool of a [`Router`] of `P`.
type ToolEntry<P> =
    Entry<<P as Parts>::Peer, <P as Parts>::Tool, <P as Parts>::Call, <P as Parts>::Called>;
/// A resource of a [`Router`] of `P`.
type ResourceEntry<P> =
    Entry<<P as Parts>::Peer, <P as Parts>::Resource, <P as Parts>::Read, <P as Parts>::ReadOut>;
/// A prompt of a [`Router`] of `P`.
type PromptEntry<P> =
    Entry<<P as Parts>::Peer, <P as Parts>::Prompt, <P as Parts>::Get, <P as Parts>::GetOut>;

/// The keys of `list`, in order.
fn keys<Peer, T, P, R>(list: &[Entry<Peer, T, P, R>]) -> Vec<&str> {
    list.iter().map(|e| e.key.as_str()).collect()
}

/// Adds `item` with its function, keyed by `key`, or puts it in the place of the one
/// with that key.
fn add<Peer, T, P, R>(
    list: &mut Vec<Entry<Peer, T, P, R>>,
    key: String,
    item: T,
    call: PartFn<Peer, P, R>,
) {
    let entry = Entry { key, item, call };
    match list.iter_mut().find(|e| e.key == entry.key) {
        Some(slot) => *slot = entry,
        None => list.push(entry),
    }
}

/// Answers `params` by the function of the entry its key (`key_of`) names, or with
/// `missing(key)`.
fn serve<Peer, T, P, R: 'static>(
    list: &[Entry<Peer, T, P, R>],
    params: P,
    cx: RequestContext<Peer>,
    key_of: fn(&P) -> &str,
    missing: fn(&str) -> ErrorObject,
) -> BoxFuture<'static, Result<R, ErrorObject>> {
    match list.iter().find(|e| e.key == key_of(&params)) {
        Some(entry) => (entry.call)(params, cx),
        None => {
            let error = missing(key_of(&params));
            Box::pin(async move { Err(error) })
        }
    }
}

/// What a [`Router`] holds, for the capabilities its version declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Held {
    /// At least one tool.
    pub tools: bool,
    /// At least one resource.
    pub resources: bool,
    /// At least one prompt.
    pub prompts: bool,
    /// [`Router::logging`] was asked for.
    pub logging: bool,
}

/// A server handler assembled from tools, resources and prompts of the version `P`; see
/// the module documentation for what it answers, and each version's `handlers::Router`
/// for its lifecycle.
pub struct Router<P: Parts> {
    info: P::Info,
    tools: Vec<ToolEntry<P>>,
    resources: Vec<ResourceEntry<P>>,
    prompts: Vec<PromptEntry<P>>,
    logging: bool,
    instructions: Option<String>,
    parts: PhantomData<fn() -> P>,
}

impl<P: Parts> fmt::Debug for Router<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Router")
            .field("info", &self.info)
            .field("tools", &keys(&self.tools))
            .field("resources", &keys(&self.resources))
            .field("prompts", &keys(&self.prompts))
            .field("logging", &self.logging)
            .field("instructions", &self.instructions)
            .finish()
    }
}

impl<P: Parts> Router<P> {
    /// A router holding nothing yet, that introduces itself as `info`.
    pub fn new(info: P::Info) -> Self {
        Router {
            info,
            tools: Vec::new(),
            resources: Vec::new(),
            prompts: Vec::new(),
            logging: false,
            instructions: None,
            parts: PhantomData,
        }
    }

    /// Adds `tool`, served by `f` with the call's arguments decoded as `A` (an absent
    /// `arguments` as an empty object); arguments that do not fit are answered as a tool
    /// error without calling `f`. With the `schemars` feature, `Tool::for_input::<A>(name)`
    /// gives the tool the input schema of `A`. `f` answers with the tool's result
    /// (`CallToolResult`), as a resource's and a prompt's function answer with theirs.
    pub fn tool<A, F, Fut, R>(mut self, tool: P::Tool, f: F) -> Self
    where
        A: DeserializeOwned + Send + 'static,
        F: Fn(A, RequestContext<P::Peer>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
        R: Into<P::Called>,
    {
        let call: PartFn<P::Peer, P::Call, P::Called> =
            Box::new(move |params, cx| match P::arguments::<A>(&params) {
                Ok(args) => {
                    let answer = f(args, cx);
                    Box::pin(async move { answer.await.map(Into::into) })
                }
                Err(e) => {
                    let result = P::tool_error(format!("invalid arguments: {e}"));
                    Box::pin(async move { Ok(result) })
                }
            });
        let key = P::tool_key(&tool).to_string();
        add(&mut self.tools, key, tool, call);
        self
    }

    /// Adds `resource`, read by `f`, which answers with the read's result
    /// (`ReadResourceResult`, or anything the version's answer to a read is made from).
    pub fn resource<F, Fut, R>(mut self, resource: P::Resource, f: F) -> Self
    where
        F: Fn(P::Read, RequestContext<P::Peer>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
        R: Into<P::ReadOut>,
    {
        let call: PartFn<P::Peer, P::Read, P::ReadOut> = Box::new(move |params, cx| {
            let answer = f(params, cx);
            Box::pin(async move { answer.await.map(Into::into) })
        });
        let key = P::resource_key(&resource).to_string();
        add(&mut self.resources, key, resource, call);
        self
    }

    /// Adds `prompt`, got by `f`, which answers with the prompt's result
    /// (`GetPromptResult`, or anything the version's answer to a get is made from).
    pub fn prompt<F, Fut, R>(mut self, prompt: P::Prompt, f: F) -> Self
    where
        F: Fn(P::Get, RequestContext<P::Peer>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
        R: Into<P::GetOut>,
    {
        let call: PartFn<P::Peer, P::Get, P::GetOut> = Box::new(move |params, cx| {
            let answer = f(params, cx);
            Box::pin(async move { answer.await.map(Into::into) })
        });
        let key = P::prompt_key(&prompt).to_string();
        add(&mut self.prompts, key, prompt, call);
        self
    }

    /// Declares the `logging` capability. The functions log through their context's
    /// peer (`cx.peer.notify_logging_message(..)`). Where each request says the level it
    /// wants in its `_meta` (2026-07-28 on), the version's default policy sends a log
    /// message only when the request asked for that level or a less severe one
    /// ([`envelope::log_filtered`](crate::envelope::log_filtered)). Where the version has
    /// a request that sets the level, it is accepted ([`Router::set_level`]).
    pub fn logging(mut self) -> Self {
        self.logging = true;
        self
    }

    /// What the server tells the client about how to use it (the `instructions` of the
    /// `initialize` or `server/discover` result).
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The instructions given with [`Router::instructions`], if any.
    pub fn instructions_given(&self) -> Option<&str> {
        self.instructions.as_deref()
    }

    /// How the server introduces itself.
    pub fn info(&self) -> &P::Info {
        &self.info
    }

    /// What it holds, for its capabilities.
    pub fn held(&self) -> Held {
        Held {
            tools: !self.tools.is_empty(),
            resources: !self.resources.is_empty(),
            prompts: !self.prompts.is_empty(),
            logging: self.logging,
        }
    }

    /// Its tools, in the order they were added.
    pub fn tools(&self) -> Vec<P::Tool> {
        self.tools.iter().map(|e| e.item.clone()).collect()
    }

    /// Its resources, in the order they were added.
    pub fn resources(&self) -> Vec<P::Resource> {
        self.resources.iter().map(|e| e.item.clone()).collect()
    }

    /// Its prompts, in the order they were added.
    pub fn prompts(&self) -> Vec<P::Prompt> {
        self.prompts.iter().map(|e| e.item.clone()).collect()
    }

    /// Answers a tool call by the function of the tool it names; -32602 for a tool it
    /// does not hold.
    pub fn serve_tool(
        &self,
        params: P::Call,
        cx: RequestContext<P::Peer>,
    ) -> BoxFuture<'static, Result<P::Called, ErrorObject>> {
        serve(&self.tools, params, cx, P::call_key, |key| {
            ErrorObject::invalid_params(format!("unknown tool `{key}`"))
        })
    }

    /// Answers a read by the function of the resource it names; -32002 for a URI it does
    /// not hold.
    pub fn serve_resource(
        &self,
        params: P::Read,
        cx: RequestContext<P::Peer>,
    ) -> BoxFuture<'static, Result<P::ReadOut, ErrorObject>> {
        serve(&self.resources, params, cx, P::read_key, |key| {
            ErrorObject::new(RESOURCE_NOT_FOUND, format!("resource not found: {key}"))
        })
    }

    /// Answers a get by the function of the prompt it names; -32602 for a prompt it does
    /// not hold.
    pub fn serve_prompt(
        &self,
        params: P::Get,
        cx: RequestContext<P::Peer>,
    ) -> BoxFuture<'static, Result<P::GetOut, ErrorObject>> {
        serve(&self.prompts, params, cx, P::get_key, |key| {
            ErrorObject::invalid_params(format!("unknown prompt `{key}`"))
        })
    }

    /// Whether a request that sets the logging level (named `method`) is accepted: once
    /// [`Router::logging`] was asked for; before, it is a method the server does not have.
    pub fn set_level(&self, method: &str) -> Result<(), ErrorObject> {
        if self.logging {
            Ok(())
        } else {
            Err(method_not_found(method))
        }
    }
}

/// A version's [`Parts`] as one row a part, and the capabilities of what a [`Router`]
/// holds: what each version module with a `Router` generates. Each part names its item
/// type and the field it is keyed by, the type of the serving request's params and the
/// field that names the item, and what its function answers; tool calls decode their
/// arguments with the params' `arguments_as` and report a failure with the result's
/// `error` (the generated shortcuts). `capabilities` names the version's capabilities
/// type and its field for tools, resources, prompts and logging; the macro writes
/// `router_capabilities(Held) -> Capabilities`.
///
/// ```ignore
/// crate::rt::router_parts! {
///     RouterParts for ClientPeer {
///         info: super::Implementation,
///         tools: super::Tool[name] by super::CallToolRequestParams[name] => super::CallToolResult,
///         resources: super::Resource[uri] by super::ReadResourceRequestParams[uri] => super::ReadResourceResult,
///         prompts: super::Prompt[name] by super::GetPromptRequestParams[name] => super::GetPromptResult,
///         capabilities: super::ServerCapabilities[tools, resources, prompts, logging],
///     }
/// }
/// ```
#[macro_export]
macro_rules! router_parts {
    ($parts:ident for $peer:ty {
        info: $info:ty,
        tools: $tool:ty[$tool_key:ident] by $call:ty[$call_key:ident] => $called:ty,
        resources: $resource:ty[$resource_key:ident] by $read:ty[$read_key:ident] => $read_out:ty,
        prompts: $prompt:ty[$prompt_key:ident] by $get:ty[$get_key:ident] => $get_out:ty,
        capabilities: $caps:ty[$cap_tools:ident, $cap_resources:ident, $cap_prompts:ident, $cap_logging:ident] $(,)?
    }) => {
        /// The types a [`Router`] of this version is made of.
        #[derive(Debug, Clone, Copy)]
        pub struct $parts;

        impl $crate::router::Parts for $parts {
            type Peer = $peer;
            type Info = $info;
            type Tool = $tool;
            type Call = $call;
            type Called = $called;
            type Resource = $resource;
            type Read = $read;
            type ReadOut = $read_out;
            type Prompt = $prompt;
            type Get = $get;
            type GetOut = $get_out;

            #[inline]
            fn tool_key(tool: &Self::Tool) -> &str {
                &tool.$tool_key
            }
            #[inline]
            fn call_key(params: &Self::Call) -> &str {
                &params.$call_key
            }
            #[inline]
            fn resource_key(resource: &Self::Resource) -> &str {
                &resource.$resource_key
            }
            #[inline]
            fn read_key(params: &Self::Read) -> &str {
                &params.$read_key
            }
            #[inline]
            fn prompt_key(prompt: &Self::Prompt) -> &str {
                &prompt.$prompt_key
            }
            #[inline]
            fn get_key(params: &Self::Get) -> &str {
                &params.$get_key
            }
            fn arguments<A: $crate::serde::de::DeserializeOwned>(
                params: &Self::Call,
            ) -> ::std::result::Result<A, ::std::string::String> {
                params.arguments_as::<A>().map_err(|e| e.to_string())
            }
            fn tool_error(message: ::std::string::String) -> Self::Called {
                <$called>::error(message)
            }
        }

        /// The capabilities of what a [`Router`] holds.
        #[allow(deprecated)]
        fn router_capabilities(held: $crate::router::Held) -> $caps {
            let mut capabilities = <$caps>::default();
            if held.tools {
                capabilities.$cap_tools =
                    ::std::option::Option::Some(::std::default::Default::default());
            }
            if held.resources {
                capabilities.$cap_resources =
                    ::std::option::Option::Some(::std::default::Default::default());
            }
            if held.prompts {
                capabilities.$cap_prompts =
                    ::std::option::Option::Some(::std::default::Default::default());
            }
            if held.logging {
                capabilities.$cap_logging =
                    ::std::option::Option::Some(::std::default::Default::default());
            }
            capabilities
        }
    };
}
