//! Constructors of the generated types: `new` from a struct's required properties, and
//! the shortcuts the common values want (`ContentBlock::text`, `CallToolResult::text`,
//! `::error`, `::structured`). Each shortcut is emitted only where the model has the shape
//! it builds, so a schema without them (a fixture, a future version) simply has none.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::rust::ident;
use crate::model::{Field, Kind, TypeDef, TypeRef, Variant};
use crate::overrides::{TOOL_SHAPES, TOOLS};

/// The generated types by Rust name.
pub(super) type Types<'m> = BTreeMap<&'m str, &'m TypeDef>;

/// The parameters of a struct's `new`: its required properties that are not constants,
/// the strings first (a name, a URI, a text: what identifies the value), then the rest,
/// each in field order: `Tool::new(name, input_schema)`.
pub(super) fn params(fields: &[Field]) -> impl Iterator<Item = &Field> {
    let required = || {
        fields
            .iter()
            .filter(|f| f.required && !matches!(f.ty, TypeRef::Const(_)))
    };
    required()
        .filter(|f| takes_into_string(f))
        .chain(required().filter(|f| !takes_into_string(f)))
}

/// Whether `f` is passed to `new` as `impl Into<String>`.
fn takes_into_string(f: &Field) -> bool {
    f.ty == TypeRef::String && !f.nullable
}

/// `impl Name { pub fn new(required...) -> Self }`: every optional property absent,
/// every constant its value, `extra` empty. `ty` spells the type a field's argument takes:
/// the field's own type, unboxed (a boxed field is boxed here).
pub(super) fn constructor(
    t: &TypeDef,
    fields: &[Field],
    open: bool,
    ty: impl Fn(&Field) -> TokenStream,
) -> TokenStream {
    let name = ident(&t.name);
    let args = params(fields).map(|f| argument(f, &ty));
    // A struct with `Default` fills the rest from it; one without spells every field.
    let spelled = |f: &&Field| !t.default || (f.required && !matches!(f.ty, TypeRef::Const(_)));
    let inits = fields.iter().filter(spelled).map(|f| {
        let field = ident(&f.name);
        let value = match (&f.ty, f.required) {
            (TypeRef::Const(_), _) => quote!(::std::default::Default::default()),
            (_, false) => quote!(::std::option::Option::None),
            _ if takes_into_string(f) => quote!(#field.into()),
            (_, true) if f.boxed && !f.nullable => quote!(::std::boxed::Box::new(#field)),
            _ => return quote!(#field,),
        };
        quote!(#field: #value,)
    });
    let rest = if t.default {
        Some(quote!(..::std::default::Default::default()))
    } else {
        open.then(|| quote!(extra: ::std::default::Default::default(),))
    };
    let required: Vec<String> = params(fields).map(|f| format!("`{}`", f.wire)).collect();
    let doc = match required.as_slice() {
        [] => format!(" A `{}` with no property set.", t.name),
        _ => format!(
            " A `{}` from its required properties ({}); the optional ones absent.",
            t.name,
            required.join(", ")
        ),
    };
    let allow = (params(fields).count() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let tagged = tagged_constructor(t, fields, &ty);
    quote! {
        impl #name {
            #[doc = #doc]
            #allow
            pub fn new(#( #args ),*) -> Self {
                Self { #( #inits )* #rest }
            }
            #tagged
        }
    }
}

/// A constructor's parameter for field `f`: a string as `impl Into<String>`, anything else
/// as the type `ty` spells.
fn argument(f: &Field, ty: &impl Fn(&Field) -> TokenStream) -> TokenStream {
    let arg = ident(&f.name);
    if takes_into_string(f) {
        quote!(#arg: impl ::std::convert::Into<::std::string::String>)
    } else {
        let t = ty(f);
        quote!(#arg: #t)
    }
}

/// A constructor named after the value of a tag the schema states in prose
/// (`overrides::IMPLIED_TAGS`), for a struct whose `new` takes that tag as a string:
/// `ReadResourceResult::complete(..)` is `new("complete", ..)`, the value every result
/// but the tag's own definition has; `InputRequiredResult::input_required(..)` that
/// definition's.
fn tagged_constructor(
    t: &TypeDef,
    fields: &[Field],
    ty: &impl Fn(&Field) -> TokenStream,
) -> TokenStream {
    let tag = crate::overrides::IMPLIED_TAGS
        .iter()
        .find_map(|(def, property, value, other, _)| {
            let f = params(fields).find(|f| f.wire == *property && takes_into_string(f))?;
            Some((f, if *def == t.name { *value } else { *other }))
        });
    let Some((tag, value)) = tag else {
        return quote!();
    };
    let rest: Vec<&Field> = params(fields).filter(|f| f.wire != tag.wire).collect();
    let args = rest.iter().map(|f| argument(f, ty));
    let passed = params(fields).map(|f| {
        if f.wire == tag.wire {
            quote!(#value)
        } else {
            let arg = ident(&f.name);
            quote!(#arg)
        }
    });
    let name = ident(&crate::names::field_name(value));
    let doc = format!(
        " [`new`](Self::new) with `{}` set to `\"{value}\"`.",
        tag.wire
    );
    let allow = (rest.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    quote! {
        #[doc = #doc]
        #allow
        pub fn #name(#( #args ),*) -> Self {
            Self::new(#( #passed ),*)
        }
    }
}

/// The arm of `variants` that holds a `TextContent` whose `new` takes its text alone.
fn text_arm<'v>(variants: &'v [Variant], types: &Types<'_>) -> Option<&'v Variant> {
    variants.iter().find(|v| {
        let (text_content, text) = TOOL_SHAPES.text_content;
        v.ty == TypeRef::Named(text_content.into())
            && types.get(text_content).is_some_and(|t| {
                let Kind::Struct { fields, .. } = &t.kind else {
                    return false;
                };
                let args: Vec<&Field> = params(fields).collect();
                matches!(args.as_slice(), [f] if f.wire == text && takes_into_string(f))
            })
    })
}

/// `text(..)` on a union with a text arm: `ContentBlock::text("hi")`.
pub(super) fn union_shortcuts(t: &TypeDef, variants: &[Variant], types: &Types<'_>) -> TokenStream {
    let Some(arm) = text_arm(variants, types) else {
        return quote!();
    };
    let name = ident(&t.name);
    let variant = ident(&arm.name);
    let text_content = ident(TOOL_SHAPES.text_content.0);
    let doc = format!(
        " A text block: a [`{}`] holding `text`, nothing else.",
        TOOL_SHAPES.text_content.0
    );
    let block = if arm.boxed {
        quote!(::std::boxed::Box::new(#text_content::new(text)))
    } else {
        quote!(#text_content::new(text))
    };
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn text(text: impl ::std::convert::Into<::std::string::String>) -> Self {
                Self::#variant(#block)
            }
        }
    }
}

/// `text`, `error` and `structured` on a `CallToolResult` whose `content` is a list of a
/// union with a text arm (and whose other required properties are known).
pub(super) fn call_tool_result_shortcuts(
    t: &TypeDef,
    fields: &[Field],
    types: &Types<'_>,
) -> TokenStream {
    if t.name != TOOL_SHAPES.result {
        return quote!();
    }
    let content_union = fields.iter().find_map(|f| match (&f.ty, f.wire.as_str()) {
        (TypeRef::Array(inner), wire) if wire == TOOL_SHAPES.content => match &**inner {
            TypeRef::Named(n) => types.get(n.as_str()).copied(),
            _ => None,
        },
        _ => None,
    });
    let Some(union) = content_union else {
        return quote!();
    };
    let Kind::Union { variants, .. } = &union.kind else {
        return quote!();
    };
    if text_arm(variants, types).is_none() {
        return quote!();
    }
    let union_name = ident(&union.name);
    // `new`'s arguments: the content, and a tag the schema states in prose (2026-07-28's
    // `resultType`), set to the value of a finished result (`overrides::IMPLIED_TAGS`).
    let finished = |wire: &str| {
        crate::overrides::IMPLIED_TAGS
            .iter()
            .find(|(_, property, ..)| *property == wire)
            .map(|(_, _, _, other, _)| *other)
    };
    let mut args = Vec::new();
    for f in params(fields) {
        match (f.wire.as_str(), finished(&f.wire)) {
            (wire, _) if wire == TOOL_SHAPES.content => {
                args.push(quote!(::std::vec![#union_name::text(text)]))
            }
            (_, Some(value)) if takes_into_string(f) => args.push(quote!(#value)),
            _ => return quote!(),
        }
    }
    let error = fields
        .iter()
        .find(|f| f.wire == TOOL_SHAPES.is_error && !f.required)
        .map(|f| {
            let field = ident(&f.name);
            quote! {
                /// A tool's own failure, reported to the model: one text block and `isError:
                /// true`. This, not a JSON-RPC error, is how a tool that ran and failed
                /// answers; a JSON-RPC error says the call itself could not be made.
                pub fn error(text: impl ::std::convert::Into<::std::string::String>) -> Self {
                    let mut result = Self::text(text);
                    result.#field = ::std::option::Option::Some(true);
                    result
                }
            }
        });
    let structured = fields
        .iter()
        .find(|f| f.wire == TOOL_SHAPES.structured && !f.required)
        .and_then(|f| {
            // What the field holds: any JSON value, or (before 2026-07-28) an object.
            let held = match &f.ty {
                TypeRef::Any => quote!(value),
                TypeRef::Map(inner) if **inner == TypeRef::Any => quote! {
                    match value {
                        serde_json::Value::Object(map) => map,
                        _ => return ::std::result::Result::Err(crate::rt::path::DecodeError::custom(
                            "structured content must be a JSON object",
                        )),
                    }
                },
                _ => return None,
            };
            Some((f, held))
        })
        .map(|(f, held)| {
            let field = ident(&f.name);
            quote! {
                /// Structured output: `value` encoded as `structuredContent`, and its JSON
                /// text as a text block, for clients that read only `content` (as the
                /// specification recommends). An error if `value` does not encode as
                /// JSON (or, where the version requires one, as an object).
                pub fn structured<T: serde::Serialize + ?Sized>(
                    value: &T,
                ) -> ::std::result::Result<Self, crate::rt::path::DecodeError> {
                    let value = serde_json::to_value(value).map_err(crate::rt::path::DecodeError::custom)?;
                    let mut result = Self::text(value.to_string());
                    result.#field = ::std::option::Option::Some(#held);
                    ::std::result::Result::Ok(result)
                }
            }
        });
    let name = ident(&t.name);
    quote! {
        impl #name {
            /// A result of one text block.
            pub fn text(text: impl ::std::convert::Into<::std::string::String>) -> Self {
                Self::new(#( #args ),*)
            }
            #error
            #structured
        }
    }
}

/// `Tool::for_input::<Args>(name)` (with the `schemars` feature): a tool whose input
/// schema is the JSON Schema of a Rust type; `with_output::<Out>()` where the version has
/// output schemas.
pub(super) fn tool_shortcuts(t: &TypeDef, fields: &[Field]) -> TokenStream {
    if t.name != TOOLS.item {
        return quote!();
    }
    let args: Vec<&Field> = params(fields).collect();
    let [name, input] = args.as_slice() else {
        return quote!();
    };
    let (input_schema, output_schema) = TOOL_SHAPES.schemas;
    if name.wire != TOOLS.key || !takes_into_string(name) || input.wire != input_schema {
        return quote!();
    }
    let output = fields
        .iter()
        .find(|f| f.wire == output_schema && !f.required)
        .map(|f| {
            let field = ident(&f.name);
            quote! {
                /// This tool with `Out`'s JSON Schema as its output schema (the shape of
                /// its `structuredContent`).
                pub fn with_output<Out: schemars::JsonSchema>(
                    mut self,
                ) -> ::std::result::Result<Self, crate::rt::path::DecodeError> {
                    self.#field = ::std::option::Option::Some(crate::rt::path::from_value(
                        schemars::SchemaGenerator::default().into_root_schema_for::<Out>().to_value(),
                    )?);
                    ::std::result::Result::Ok(self)
                }
            }
        });
    let tool = ident(&t.name);
    quote! {
        #[cfg(feature = "schemars")]
        impl #tool {
            /// A tool named `name` whose input schema is `Args`'s JSON Schema, as `schemars`
            /// derives it; decode a call's arguments into `Args` with
            /// `CallToolRequestParams::arguments_as`. An error if the schema is not one of
            /// an object (`Args` is not a struct or a map).
            pub fn for_input<Args: schemars::JsonSchema>(
                name: impl ::std::convert::Into<::std::string::String>,
            ) -> ::std::result::Result<Self, crate::rt::path::DecodeError> {
                let schema = schemars::SchemaGenerator::default().into_root_schema_for::<Args>();
                ::std::result::Result::Ok(Self::new(name, crate::rt::path::from_value(schema.to_value())?))
            }
            #output
        }
    }
}

/// `CallToolRequestParams::arguments_as::<T>()`: the arguments decoded into a Rust type.
pub(super) fn call_tool_params_shortcuts(t: &TypeDef, fields: &[Field]) -> TokenStream {
    if t.name != TOOLS.params {
        return quote!();
    }
    let Some(arguments) = fields.iter().find(|f| {
        f.wire == TOOL_SHAPES.arguments
            && !f.required
            && matches!(&f.ty, TypeRef::Map(inner) if **inner == TypeRef::Any)
    }) else {
        return quote!();
    };
    let field = ident(&arguments.name);
    let params = ident(&t.name);
    quote! {
        impl #params {
            /// The arguments decoded as `T` (absent arguments as an empty object), with the
            /// path of whatever does not fit; a handler answers that error with
            /// `ErrorObject::invalid_params(e.to_string())` (-32602).
            pub fn arguments_as<T: serde::de::DeserializeOwned>(
                &self,
            ) -> ::std::result::Result<T, crate::rt::path::DecodeError> {
                let arguments = self.#field.clone().unwrap_or_default();
                crate::rt::path::from_value(serde_json::Value::Object(arguments))
            }
        }
    }
}
