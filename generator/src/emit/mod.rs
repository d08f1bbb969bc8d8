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
mod handlers;
mod harness;
mod methods;
mod router;
mod rust;
mod types;
mod versions;

pub use convert::{Conversion, conversions, emit_conversions, emit_convert_harness};
pub use harness::emit_harness;
pub use rust::{header, module_name};
pub use versions::emit_protocol_versions;

use crate::Error;
use crate::model::Model;

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

/// Emits the files of one version's module, as `(file name, contents)` pairs.
pub fn emit(model: &Model, source: &str) -> Result<Vec<(String, String)>, Error> {
    Ok(vec![
        ("mod.rs".to_string(), types::module_file(model, source)?),
        ("consts.rs".to_string(), types::consts_file(model, source)?),
        (
            "methods.rs".to_string(),
            methods::emit_methods(model, source)?,
        ),
        (
            "handlers.rs".to_string(),
            handlers::emit_handlers(model, source)?,
        ),
    ])
}
