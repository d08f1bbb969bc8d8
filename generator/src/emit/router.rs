//! `Router`, emitted into `handlers.rs`: the runtime's generic `rt::router::Router` (written
//! once, by hand: the parts, their keys, the unknown-part errors, the tool errors of
//! arguments that do not fit) made of this version's types, and its `ServerHandler` impl:
//! the lifecycle answer, the lists and the capabilities, which differ per version. Every
//! name it builds on comes from `overrides.rs` (`TOOLS`, `RESOURCES`, `PROMPTS`,
//! `TOOL_SHAPES`, `SERVED`, `LIFECYCLE`) or the model.
//!
//! Emitted only where the model has every shape it builds on: a lifecycle it knows
//! (`initialize`, or `server/discover` with the server's info in the result's `_meta`),
//! the list results built from their one list (and, in the discover era, the result
//! members `SERVED.result_common` fills), a tool result with `text` and `error`, the call
//! params' `arguments_as`, the capabilities it declares. A schema without one of them (a
//! fixture, an old draft) simply has no `Router`.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::DocPaths;
use super::constructors;
use super::rust::{ident, result_type};
use crate::model::{Field, Kind, MethodDef, Model, TypeDef, TypeRef};
use crate::overrides::{LIFECYCLE, PROMPTS, Part, RESOURCES, SERVED, TOOL_SHAPES, TOOLS};

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
pub(super) fn router(
    model: &Model,
    server_answers: &[&MethodDef],
    doc_paths: Option<&DocPaths>,
) -> TokenStream {
    let shapes = Shapes {
        types: model.types.iter().map(|t| (t.name.as_str(), t)).collect(),
        server_answers,
        version: &model.version,
        doc_paths,
    };
    shapes.emit().unwrap_or_default()
}

/// What the router emitter reads of one version: its types by name, the requests its
/// server answers, its version, and where its example finds the module and the runtime
/// (none: no example).
struct Shapes<'m> {
    types: BTreeMap<&'m str, &'m TypeDef>,
    server_answers: &'m [&'m MethodDef],
    version: &'m str,
    doc_paths: Option<&'m DocPaths>,
}

/// What the emitter found of one kind of part: its list request, its serving request, the
/// list built from what the router holds, the item's key field and the params' one.
struct PartFound<'m> {
    list: &'m MethodDef,
    serve: &'m MethodDef,
    listed: TokenStream,
    key: TokenStream,
    params_key: TokenStream,
}

impl<'m> Shapes<'m> {
    /// The request `name` the server answers.
    fn method(&self, name: &str) -> Option<&'m MethodDef> {
        self.server_answers
            .iter()
            .copied()
            .find(|m| m.method == name)
    }

    /// The signature of the trait's method, as `handlers::handler_trait` spells it.
    fn sig(&self, m: &MethodDef) -> TokenStream {
        let f = ident(&super::rust::handler_fn_name(m));
        let param = super::rust::params_arg(m).map(|t| quote!(params: #t,));
        let result = result_type(m);
        quote! {
            async fn #f(&self, #param cx: RequestContext<ClientPeer>)
                -> ::std::result::Result<#result, crate::rt::jsonrpc::ErrorObject>
        }
    }

    /// The value `value` of the string enum of `ty`'s member `wire`.
    fn enum_value(&self, ty: &str, wire: &str, value: &str) -> Option<TokenStream> {
        let f = fields(&self.types, ty)?.iter().find(|f| f.wire == wire)?;
        let TypeRef::Named(e) = &f.ty else {
            return None;
        };
        match &self.types.get(e.as_str())?.kind {
            Kind::StringEnum { values } if values.iter().any(|v| v == value) => {
                let (e, v) = (ident(e), ident(&crate::names::variant_name(value)));
                Some(quote!(super::#e::#v))
            }
            _ => None,
        }
    }

    /// What a discover-era result says besides its content, as `SERVED.result_common`
    /// gives it: a string, a number, or a value of the member's string enum.
    fn result_common(&self, ty: &str, wire: &str) -> Option<TokenStream> {
        let (_, value) = SERVED.result_common.iter().find(|(m, _)| *m == wire)?;
        let f = fields(&self.types, ty)?.iter().find(|f| f.wire == wire)?;
        match &f.ty {
            TypeRef::String => Some(quote!(#value)),
            TypeRef::Integer | TypeRef::Unsigned => {
                let n: u64 = value.parse().ok()?;
                let n = proc_macro2::Literal::u64_unsuffixed(n);
                Some(quote!(#n))
            }
            TypeRef::Named(_) => self.enum_value(ty, wire, value),
            _ => None,
        }
    }

    /// `ty::new(..)`, each argument from `arg` or [`Shapes::result_common`].
    fn new_result(
        &self,
        ty: &str,
        arg: &dyn Fn(&str) -> Option<TokenStream>,
    ) -> Option<TokenStream> {
        new_call(&self.types, ty, |wire| {
            arg(wire).or_else(|| self.result_common(ty, wire))
        })
    }

    /// The lifecycle: `initialize` (the version, the capabilities of what was registered,
    /// the info), or `server/discover` (the same, the info in the result's `_meta`).
    fn lifecycle(&self) -> Option<TokenStream> {
        let version = self.version;
        if let Some(initialize) = self.method(LIFECYCLE.initialize) {
            let [version_member, capabilities_member, info_member] = SERVED.initialize;
            let init_result = self.new_result(initialize.result.as_deref()?, &|wire| {
                if wire == version_member {
                    Some(quote!(#version))
                } else if wire == capabilities_member {
                    Some(quote!(router_capabilities(self.held())))
                } else if wire == info_member {
                    Some(quote!(self.info().clone()))
                } else {
                    None
                }
            })?;
            let init_ty = ident(initialize.result.as_deref()?);
            let sig = self.sig(initialize);
            let instructions = self.instructions(initialize.result.as_deref()?);
            let answer = if instructions.is_empty() {
                init_result
            } else {
                quote!(super::#init_ty { #instructions ..#init_result })
            };
            return Some(quote! {
                #sig {
                    Ok(#answer)
                }
            });
        }
        let discover = self.method(LIFECYCLE.discover)?;
        let [versions_member, capabilities_member, meta_member, info_key] = SERVED.discover;
        let result = discover.result.as_deref()?;
        let discovered = self.new_result(result, &|wire| {
            if wire == versions_member {
                Some(quote!(::std::vec![#version.into()]))
            } else if wire == capabilities_member {
                Some(quote!(router_capabilities(self.held())))
            } else {
                None
            }
        })?;
        // `_meta` carries the server's info, in a type that has nothing required.
        let meta = fields(&self.types, result)?
            .iter()
            .find(|f| f.wire == meta_member && !f.required)?;
        let TypeRef::Named(meta_ty) = &meta.ty else {
            return None;
        };
        let info = fields(&self.types, meta_ty)?
            .iter()
            .find(|f| f.wire == info_key && !f.required)?;
        if !self.types.get(meta_ty.as_str())?.default
            || info.ty != TypeRef::Named(SERVED.info.into())
        {
            return None;
        }
        let (meta_field, meta_ty, info_field) =
            (ident(&meta.name), ident(meta_ty), ident(&info.name));
        let instructions = self.instructions(result);
        let result = ident(result);
        let sig = self.sig(discover);
        Some(quote! {
            #sig {
                let meta = super::#meta_ty {
                    #info_field: ::std::option::Option::Some(self.info().clone()),
                    ..::std::default::Default::default()
                };
                Ok(super::#result { #meta_field: ::std::option::Option::Some(meta), #instructions ..#discovered })
            }
        })
    }

    /// The lifecycle result's instructions set from the `Router`'s (`field: value,`), if
    /// the result has an optional text member for them.
    fn instructions(&self, result: &str) -> TokenStream {
        let Some(f) = fields(&self.types, result).and_then(|fs| {
            fs.iter()
                .find(|f| f.wire == SERVED.instructions && !f.required && f.ty == TypeRef::String)
        }) else {
            return quote!();
        };
        let field = ident(&f.name);
        quote!(#field: self.instructions_given().map(::std::string::ToString::to_string),)
    }

    /// The capabilities type and its fields for tools, resources, prompts and logging,
    /// each optional with a default.
    fn capabilities(&self) -> Option<TokenStream> {
        let (capabilities_ty, logging) = SERVED.capabilities;
        let caps = self.types.get(capabilities_ty).filter(|t| t.default)?;
        let Kind::Struct {
            fields: cap_fields, ..
        } = &caps.kind
        else {
            return None;
        };
        let capability = |wire: &str| {
            let f = cap_fields.iter().find(|f| f.wire == wire && !f.required)?;
            let defaults = match &f.ty {
                TypeRef::Named(n) => self.types.get(n.as_str()).is_some_and(|t| t.default),
                TypeRef::Map(_) => true,
                _ => false,
            };
            defaults.then(|| ident(&f.name))
        };
        let fields = [
            capability(TOOLS.capability)?,
            capability(RESOURCES.capability)?,
            capability(PROMPTS.capability)?,
            capability(logging)?,
        ];
        let ty = ident(capabilities_ty);
        Some(quote!(super::#ty[#( #fields ),*]))
    }

    /// A part: its list request and the list built from what the router holds (`held`),
    /// its serving request (params of the part's own type, with a result), its keys.
    fn part(&self, part: &Part, held: TokenStream) -> Option<PartFound<'m>> {
        let list = self.method(part.list)?;
        let serve = self.method(part.serve)?;
        let named =
            serve.params_required && serve.params == Some(TypeRef::Named(part.params.into()));
        if !named || serve.result.is_none() {
            return None;
        }
        let listed = self.new_result(list.result.as_deref()?, &|wire| {
            (wire == part.listed).then(|| held.clone())
        })?;
        Some(PartFound {
            list,
            serve,
            listed,
            key: string_key(&self.types, part.item, part.key)?,
            params_key: string_key(&self.types, part.params, part.params_key)?,
        })
    }

    /// Whether tools fit: a result with `text` and `error`, arguments decoded by
    /// `arguments_as`, a result the trait's answer (`call`'s) converts from.
    fn tools_fit(&self, call: &MethodDef) -> Option<bool> {
        let tool_result = TOOL_SHAPES.result;
        let result_fields = fields(&self.types, tool_result)?;
        let has_error = result_fields
            .iter()
            .any(|f| f.wire == TOOL_SHAPES.is_error && !f.required)
            && !constructors::call_tool_result_shortcuts(
                self.types[tool_result],
                result_fields,
                &self.types,
            )
            .is_empty();
        let has_arguments_as = !constructors::call_tool_params_shortcuts(
            self.types[TOOLS.params],
            fields(&self.types, TOOLS.params)?,
        )
        .is_empty();
        let converts = match call.result.as_deref()? {
            r if r == tool_result => true,
            other => matches!(&self.types.get(other)?.kind, Kind::Union { variants, .. }
                if variants.iter().filter(|v| v.ty == TypeRef::Named(tool_result.into())).count() == 1),
        };
        Some(has_error && has_arguments_as && converts)
    }

    /// Templates, if the version lists them, are none: a `Router` serves fixed URIs.
    fn templates(&self) -> Option<TokenStream> {
        let (templates_method, templates_member) = SERVED.templates;
        let m = self.method(templates_method)?;
        let list = self.new_result(m.result.as_deref()?, &|wire| {
            (wire == templates_member).then(|| quote!(::std::vec::Vec::new()))
        })?;
        let sig = self.sig(m);
        Some(quote! {
            /// No templates: a `Router` serves fixed URIs.
            #sig {
                Ok(#list)
            }
        })
    }

    /// The request that sets the logging level, where the version has it (the discover
    /// era sends the level with each request instead): accepted once `logging()` was.
    /// `None` where it has one the router cannot answer.
    fn set_level(&self) -> Option<TokenStream> {
        let Some(m) = self.method(SERVED.set_level) else {
            return Some(quote!());
        };
        self.types.get(m.result.as_deref()?).filter(|t| t.default)?;
        let sig = self.sig(m);
        let name = &m.method;
        Some(quote! {
            #sig {
                self.set_level(#name).map(|()| ::std::default::Default::default())
            }
        })
    }

    /// The `Router` alias's documentation: what it answers, in this era.
    fn answers_doc(&self) -> String {
        if self.method(LIFECYCLE.initialize).is_none() {
            format!(
                " It answers `{}` with this version, the capabilities of what it holds, and \
                 the [`{info}`](super::{info}) it was made with in the result's `_meta`; it \
                 lists everything it holds in one page, as the same for every client and not \
                 to be kept.",
                LIFECYCLE.discover,
                info = SERVED.info
            )
        } else {
            format!(
                " It answers `{}` with this version, the [`{info}`](super::{info}) it was made \
                 with, and the capabilities of what it holds; it lists everything it holds in \
                 one page.",
                LIFECYCLE.initialize,
                info = SERVED.info
            )
        }
    }

    fn emit(&self) -> Option<TokenStream> {
        let lifecycle = self.lifecycle()?;
        let capabilities = self.capabilities()?;
        let tools = self.part(&TOOLS, quote!(self.tools()))?;
        let resources = self.part(&RESOURCES, quote!(self.resources()))?;
        let prompts = self.part(&PROMPTS, quote!(self.prompts()))?;
        if !self.tools_fit(tools.serve)? {
            return None;
        }
        let templates = self.templates();
        let set_level = self.set_level()?;
        let answers_doc = self.answers_doc();
        let example = match self.doc_paths {
            Some(paths) => example(paths),
            None => String::new(),
        };

        let [
            sig_list_tools,
            sig_call,
            sig_list_resources,
            sig_read,
            sig_list_prompts,
            sig_get,
        ] = [
            tools.list,
            tools.serve,
            resources.list,
            resources.serve,
            prompts.list,
            prompts.serve,
        ]
        .map(|m| self.sig(m));
        let (read_result, prompt_result) = (
            ident(resources.serve.result.as_deref()?),
            ident(prompts.serve.result.as_deref()?),
        );
        let [info, tool, call, called, resource, read, prompt, get] = [
            SERVED.info,
            TOOLS.item,
            TOOLS.params,
            TOOL_SHAPES.result,
            RESOURCES.item,
            RESOURCES.params,
            PROMPTS.item,
            PROMPTS.params,
        ]
        .map(ident);
        let (tool_key, call_key, tools_list) = (&tools.key, &tools.params_key, &tools.listed);
        let (resource_key, read_key, resources_list) =
            (&resources.key, &resources.params_key, &resources.listed);
        let (prompt_key, get_key, prompts_list) =
            (&prompts.key, &prompts.params_key, &prompts.listed);

        Some(quote! {
            /// A [`ServerHandler`] assembled from parts: tools, resources and prompts, each
            /// with the function that serves it, found by name (a resource by URI): the
            /// runtime's [`Router`](crate::rt::router::Router) made of this version's types
            /// ([`RouterParts`]).
            ///
            #[doc = #answers_doc]
            ///
            /// A tool's arguments are decoded into the type its function takes; arguments that
            /// do not fit are answered as a tool error (`isError`, with the path of what does
            /// not fit) that the model can correct, as the specification asks of input
            /// validation since 2025-11-25. An unknown tool or prompt is -32602, an unknown
            /// resource -32002. What a `Router` cannot do (resource templates, completion,
            /// subscriptions, pagination) takes a [`ServerHandler`] of one's own.
            ///
            /// Registering a second tool, resource or prompt with the same key replaces the
            /// first in its place.
            ///
            #[doc = #example]
            pub type Router = crate::rt::router::Router<RouterParts>;

            crate::rt::router_parts! {
                RouterParts for ClientPeer {
                    info: super::#info,
                    tools: super::#tool[#tool_key] by super::#call[#call_key] => super::#called,
                    resources: super::#resource[#resource_key] by super::#read[#read_key] => super::#read_result,
                    prompts: super::#prompt[#prompt_key] by super::#get[#get_key] => super::#prompt_result,
                    capabilities: #capabilities,
                }
            }

            impl ServerHandler for Router {
                #lifecycle

                #sig_list_tools {
                    Ok(#tools_list)
                }

                #sig_call {
                    Ok(::std::convert::Into::into(self.serve_tool(params, cx).await?))
                }

                #sig_list_resources {
                    Ok(#resources_list)
                }

                #templates

                #sig_read {
                    self.serve_resource(params, cx).await
                }

                #sig_list_prompts {
                    Ok(#prompts_list)
                }

                #sig_get {
                    self.serve_prompt(params, cx).await
                }

                #set_level
            }
        })
    }
}

/// The `Router` alias's example, for the module and runtime at `paths`.
fn example(paths: &DocPaths) -> String {
    let DocPaths { module, runtime } = paths;
    format!(
        r##" ```
 use {runtime}::jsonrpc::ErrorObject;
 use {runtime}::service::RequestContext;
 use {module}::handlers::{{ClientPeer, Router}};
 use {module}::*;
 use std::collections::BTreeMap;

 // The arguments: any `Deserialize` type, usually a `#[derive(Deserialize)]` struct.
 async fn greet(args: BTreeMap<String, String>, _: RequestContext<ClientPeer>) -> Result<CallToolResult, ErrorObject> {{
     let name = args.get("name").map_or("world", String::as_str);
     Ok(CallToolResult::text(format!("Hello, {{name}}!")))
 }}

 let schema = {runtime}::serde_json::from_str(r#"{{"type": "object", "properties": {{"name": {{"type": "string"}}}}}}"#).unwrap();
 let router = Router::new(Implementation::new("hello", "1.0.0"))
     .tool(Tool::new("greet", schema), greet)
     .logging();
 // Serve it: `Server::new(router)`, on a session engine.
 ```"##
    )
}
