//! `protocol_version.rs`: the `ProtocolVersion` enum of every version generated.

use proc_macro2::Ident;
use quote::{format_ident, quote};

use super::rust::{ident, module_name, pretty, wire_text_impls};
use crate::Error;
use crate::model::Model;

/// The `ProtocolVersion` variant of a version: `2025-06-18` → `V2025_06_18` (the module
/// name, with underscores between digits kept).
fn variant(version: &str) -> Ident {
    let module = module_name(version);
    ident(&(module[..1].to_ascii_uppercase() + &module[1..]))
}

/// Whether a version is of the discover era: it has the discover-era handshake and not
/// the initialize-era one.
pub(super) fn is_discover(model: &Model) -> bool {
    let lifecycle = crate::overrides::LIFECYCLE;
    model.methods.iter().any(|x| x.method == lifecycle.discover)
        && !model
            .methods
            .iter()
            .any(|x| x.method == lifecycle.initialize)
}

/// Emits `protocol_version.rs`: the `ProtocolVersion` enum of every version generated,
/// with the facts the negotiation helpers need (order, release, lifecycle era).
pub fn emit_protocol_versions(models: &[Model], header_text: &str) -> Result<String, Error> {
    let mut versions: Vec<&Model> = models.iter().collect();
    // Dated versions in date order, then `draft`.
    versions.sort_by_key(|m| (m.version == "draft", m.version.clone()));
    let variants: Vec<Ident> = versions.iter().map(|m| variant(&m.version)).collect();
    let strings: Vec<&str> = versions.iter().map(|m| m.version.as_str()).collect();
    let released: Vec<bool> = versions.iter().map(|m| m.version != "draft").collect();
    let discover: Vec<bool> = versions.iter().map(|m| is_discover(m)).collect();
    // The newest released version; with only `draft` given, `draft` itself.
    let latest = versions
        .iter()
        .zip(&variants)
        .rev()
        .find(|(m, _)| m.version != "draft")
        .or_else(|| versions.iter().zip(&variants).next_back())
        .map(|(_, v)| v.clone())
        .ok_or_else(|| Error::msg("no protocol version to generate"))?;
    let docs = versions.iter().map(|m| format!(" `{}`", m.version));
    let text_impls = wire_text_impls(
        &format_ident!("ProtocolVersion"),
        "protocol version",
        &variants,
        &strings,
    );
    let tokens = quote! {
        /// A protocol version this crate knows, ordered by date (`draft` last).
        ///
        /// Unlike the version modules, this enum does not depend on cargo features.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ProtocolVersion {
            #( #[doc = #docs] #variants, )*
        }

        impl ProtocolVersion {
            /// Every version, oldest first.
            pub const ALL: &'static [ProtocolVersion] = &[ #( ProtocolVersion::#variants ),* ];

            /// The newest released version.
            pub const LATEST_RELEASED: ProtocolVersion = ProtocolVersion::#latest;

            /// The wire spelling, e.g. `2025-06-18`.
            pub const fn as_str(self) -> &'static str {
                match self { #( ProtocolVersion::#variants => #strings, )* }
            }

            /// Whether the version is released (not `draft`).
            pub const fn is_released(self) -> bool {
                match self { #( ProtocolVersion::#variants => #released, )* }
            }

            /// The lifecycle the version uses: `initialize`, or `server/discover` with a
            /// protocol version on every request.
            pub const fn era(self) -> crate::version::Era {
                match self {
                    #( ProtocolVersion::#variants => if #discover { crate::version::Era::Discover } else { crate::version::Era::Initialize }, )*
                }
            }
        }

                #text_impls
    };
    Ok(header_text.to_string() + &pretty(tokens, "protocol versions")?)
}
