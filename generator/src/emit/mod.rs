//! Emitting: a [`Model`] becomes Rust source, through `quote` and `prettyplease`. One
//! module per kind of output file: `types` (a version's `mod.rs` and `consts.rs`, with
//! the constructors of `build`),
//! `methods` (`methods.rs`), `handlers` (`handlers.rs`, with the `Router` of `router`), `harness` (the round-trip
//! harness of the `tests` crate) and `versions` (`protocol_version.rs`); the helpers they
//! share (identifiers, headers, printing) are in `rust`, which depends on none of them. Questions about the model (which
//! methods a side sends, a method's marker name) are answered by the model itself.

mod build;
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
