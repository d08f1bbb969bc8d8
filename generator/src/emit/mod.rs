//! Emitting: a [`Model`] becomes Rust source, through `quote` and `prettyplease`. One
//! module per kind of output file: `types` (a version's `mod.rs` and `consts.rs`, with
//! the constructors of `constructors`), `methods` (`methods.rs`), `handlers`
//! (`handlers.rs`, with the `Router` of `router`), `convert` (`convert.rs`: the
//! conversions between consecutive versions and their adapter tables), `harness` (the
//! round-trip harness of the `tests` crate) and `versions` (`protocol_version.rs`); the
//! helpers they share (identifiers, headers, printing, the runtime's table macros) are in
//! `rust`, which depends on none of them. Questions about the model (which methods a side
//! sends, a method's marker name) are answered by the model itself.

mod constructors;
mod convert;
mod ext_handlers;
mod handlers;
mod harness;
mod methods;
mod router;
mod rust;
mod share;
mod types;
mod versions;

pub use convert::{Conversion, conversions, emit_conversions, emit_convert_harness};
pub use harness::emit_harness;
pub use rust::{GENERATOR, REPOSITORY_COMMAND, header, header_by, module_name};
pub use share::{Plan, Same, emit_shared, plan, same_items};
pub use types::Shared;
pub use versions::emit_protocol_versions;

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::Error;
use crate::model::Model;
use crate::settings::{self, Layout, Resolved, Settings};

/// Where a generated doc example reaches the module and the runtime from
/// (`mcp_spec_types::v2025_11_25`, `mcp_spec_types::rt`).
#[derive(Debug, Clone)]
pub struct DocPaths {
    /// The module.
    pub module: String,
    /// The runtime.
    pub runtime: String,
}

/// The version whose module `model`'s re-exports, if any: the first of `earlier` whose
/// schema file is byte-identical (the same sha256) and whose model, what every emitter
/// reads (`schema.ts` facts included), is the same but for the version's name. Such a
/// version is one module under two names: generating it twice would double what a user
/// compiles for nothing, and the two would be different types.
pub fn same_as<'a>(model: &Model, earlier: &'a [Model]) -> Option<&'a Model> {
    earlier.iter().find(|other| {
        if other.schema_sha256 != model.schema_sha256 {
            return false;
        }
        let mut renamed = model.clone();
        renamed.version = other.version.clone();
        renamed.notes = other.notes.clone();
        renamed == **other
    })
}

/// The `mod.rs` of a version that is another's ([`same_as`]): that module, re-exported under
/// this version's name. `ts_note` says how the two `schema.ts` files compare.
pub fn alias_module(
    model: &Model,
    target: &Model,
    source: &str,
    ts_note: &str,
) -> Result<String, Error> {
    let target_mod = rust::ident(&module_name(&target.version));
    let doc = format!(
        " Types of MCP protocol version `{}`: its schema is byte-identical to `{}`'s (sha256 \
         `{}`), so this module is [`{}`](crate::{}) re-exported under its own name (the \
         feature `{}` turns that module on), and a value of one is a value of the other. {} It \
         is generated in full again the day the two versions' files differ.",
        model.version,
        target.version,
        model.schema_sha256,
        module_name(&target.version),
        module_name(&target.version),
        module_name(&model.version),
        ts_note,
    );
    let tokens = quote::quote! {
        #![doc = #doc]
        pub use crate::#target_mod::*;
    };
    Ok(rust::header(source, &model.schema_sha256) + &rust::pretty(tokens, "alias module")?)
}

/// The map type and whether free-form JSON is held as text, as `settings` say: what every
/// module's types are emitted with (a version's, and the shared modules').
fn holders(settings: &Settings) -> Result<(TokenStream, bool), Error> {
    let map: syn::Path = syn::parse_str(
        settings
            .map_type
            .as_deref()
            .unwrap_or("::std::collections::BTreeMap"),
    )
    .map_err(|e| Error::msg(format!("settings: map_type: {e}")))?;
    Ok((quote!(#map), settings.free_form == settings::FreeForm::Raw))
}

/// Emits the files of one version's module for this repository's crate, as `(file name,
/// contents)` pairs: [`emit_with`] and [`Settings::repository`].
pub fn emit(model: &Model, source: &str) -> Result<Vec<(String, String)>, Error> {
    emit_sharing(model, source, &Shared::default())
}

/// [`emit`], with the types and const markers of `shared` re-exported from the module that
/// defines them for several versions ([`plan`]) instead of defined here.
pub fn emit_sharing(
    model: &Model,
    source: &str,
    shared: &Shared,
) -> Result<Vec<(String, String)>, Error> {
    let settings = Settings::repository(&module_name(&model.version));
    emit_module(model, source, &settings, &BTreeMap::new(), shared)
}

/// Which of a version's submodules are emitted under `settings`: `consts` when the model
/// has constants; `methods` when asked for and the schema has methods; `handlers` when
/// asked for, with the methods, and the schema has a lifecycle request.
pub fn submodules(model: &Model, settings: &Settings) -> Vec<&'static str> {
    let lifecycle = crate::overrides::LIFECYCLE;
    let methods = settings.layers.methods && !model.methods.is_empty();
    // A version's handlers need its lifecycle; an extension's are served beside its core's.
    let extension = crate::overrides::extension(&model.version).is_some_and(|e| e.core.is_some());
    let handlers = methods
        && settings.layers.handlers
        && (extension
            || model
                .methods
                .iter()
                .any(|m| m.method == lifecycle.initialize || m.method == lifecycle.discover));
    let mut out = Vec::new();
    if !model.consts.is_empty() {
        out.push("consts");
    }
    if handlers {
        out.push("handlers");
    }
    if methods {
        out.push("methods");
    }
    out
}

/// Emits the files of one schema's module under `settings` (`replacements`: definitions
/// the schema itself maps to a Rust type, by `x-rust-type`): in a [`Layout::Tree`],
/// `mod.rs` and its submodules' files; in a [`Layout::File`], `<module>.rs`. The one path
/// of every module the generator writes, this repository's included.
pub fn emit_with(
    model: &Model,
    source: &str,
    settings: &Settings,
    replacements: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, Error> {
    emit_module(model, source, settings, replacements, &Shared::default())
}

/// [`emit_with`], with what `shared` names re-exported instead of defined.
fn emit_module(
    model: &Model,
    source: &str,
    settings: &Settings,
    replacements: &BTreeMap<String, String>,
    shared: &Shared,
) -> Result<Vec<(String, String)>, Error> {
    settings.validate()?;
    let resolved = Resolved::new(settings, model, replacements)?;
    let module = settings
        .module
        .clone()
        .unwrap_or_else(|| module_name(&model.version));
    let doc_paths = settings.doc_module.as_ref().map(|m| DocPaths {
        module: m.clone(),
        runtime: match settings.runtime.strip_prefix("crate::") {
            Some(rest) => format!("{}::{rest}", m.split("::").next().unwrap_or(m)),
            None => settings.runtime.trim_start_matches("::").to_string(),
        },
    });
    let submodules = submodules(model, settings);
    let (map_type, raw) = holders(settings)?;
    let interface = settings::RUNTIME_INTERFACE;
    let needs = format!(
        "this module was generated by {GENERATOR} for the runtime interface {interface} \
         (mcp_spec_rt::CODEGEN_INTERFACE): the mcp-spec-rt in this build has another; \
         depend on the mcp-spec-rt released with the generator, or regenerate with the \
         generator released with your mcp-spec-rt"
    );
    let interface = proc_macro2::Literal::u32_unsuffixed(interface);
    let check = quote! {
        const _: () = if crate::rt::CODEGEN_INTERFACE != #interface {
            ::core::panic!(#needs)
        };
    };
    let mut files: Vec<(&str, TokenStream)> = vec![(
        "mod",
        types::module_tokens(model, &submodules, &map_type, raw, &check, shared),
    )];
    for sub in &submodules {
        let tokens = match *sub {
            "consts" => types::consts_tokens(model, shared),
            "methods" => methods::emit_methods(model, source)?,
            _ => match crate::overrides::extension(&model.version) {
                Some(ext) if ext.core.is_some() => ext_handlers::emit_ext_handlers(model, ext),
                _ => handlers::emit_handlers(model, doc_paths.as_ref(), raw),
            },
        };
        files.push((sub, tokens));
    }
    let mut parsed = Vec::new();
    for (name, tokens) in files {
        let what = format!("{name} of {}", model.version);
        // The runtime's path first: a replacement's path is the user's, never moved.
        let mut file = rust::parse(settings::reroot_tokens(tokens, &settings.runtime), &what)?;
        if !resolved.is_empty() {
            if name == "mod" {
                resolved.replace_items(&mut file)?;
            }
            let renamed = settings::rename_tokens(quote!(#file), &resolved.renames, name == "mod");
            file = rust::parse(renamed, &what)?;
            if name == "mod" {
                resolved.add_attributes(&mut file)?;
            }
        }
        settings::json_schema(&mut file, settings.json_schema);
        parsed.push((name, file));
    }
    let header = header_by(&settings.command, source, &model.schema_sha256);
    match settings.layout {
        Layout::Tree => Ok(parsed
            .into_iter()
            .map(|(name, file)| {
                (
                    format!("{name}.rs"),
                    header.clone() + &rust::pretty_file(&file),
                )
            })
            .collect()),
        Layout::File => {
            let mut parts = parsed.into_iter();
            let (_, mut root) = parts.next().ok_or_else(|| Error::msg("no module"))?;
            let mut subs: BTreeMap<&str, syn::File> = parts.collect();
            for item in &mut root.items {
                if let syn::Item::Mod(m) = item {
                    if m.content.is_none() {
                        let name = m.ident.to_string();
                        if let Some(sub) = subs.remove(name.as_str()) {
                            m.attrs.extend(sub.attrs);
                            m.content = Some((Default::default(), sub.items));
                            m.semi = None;
                        }
                    }
                }
            }
            let ident = rust::ident(&module);
            let (attrs, items) = (root.attrs, root.items);
            let wrapped: syn::File = syn::parse_quote! {
                pub mod #ident {
                    #( #attrs )*
                    #( #items )*
                }
            };
            Ok(vec![(
                format!("{module}.rs"),
                header + &rust::pretty_file(&wrapped),
            )])
        }
    }
}
