//! The hand-written runtime that the generated MCP types build on: const markers, the
//! union decoder, small serde helpers, the JSON-RPC layer, the serving glue and a JSON
//! writer. Nothing here is specific to one protocol version, and nothing here is
//! generated.
//!
//! Users reach it as `mcp_spec_types::rt`, which re-exports this crate; depending on it
//! directly is only needed by crates of generated code of their own. The guide:
//! <https://github.com/mcp-codegen/mcp-codegen/blob/main/docs/README.md>.

/// The `serde` this crate is built with (the generated markers implement its traits).
pub use serde;
/// The `serde_json` this crate is built with.
pub use serde_json;

/// The version of the interface between this runtime and the code `mcp-codegen` generates
/// for it. Generated code checks it at compile time (a `const _: ()` that panics) and
/// fails, saying which runtime it needs, against a runtime of another interface. It
/// changes whenever generated code of one would not compile, or would behave otherwise,
/// against the other.
pub const CODEGEN_INTERFACE: u32 = 4;

/// `schemars`, for the `JsonSchema` impls of the runtime's macros (the runtime's feature
/// `schemars`).
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub use schemars;

/// The items given, when the runtime's feature `schemars` is on: how the runtime's macros
/// add `JsonSchema` impls, whatever the features of the crate that invokes them.
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! if_schemars {
    ($($item:item)*) => { $($item)* };
}

/// The items given, when the runtime's feature `schemars` is on: here it is off.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! if_schemars {
    ($($item:item)*) => {};
}

#[cfg(feature = "adapt")]
pub mod adapt;
#[cfg(feature = "adapt")]
pub mod bridge;
pub mod convert;
pub mod envelope;
pub mod extension;
pub mod json;
pub mod jsonrpc;
pub mod lifecycle;
pub mod method;
pub mod path;
pub mod pattern;
pub mod raw;
mod read;
pub mod router;
pub mod serde_helpers;
pub mod service;
pub mod setters;
pub mod strict;
pub mod union;
pub mod write;

use std::fmt;

/// A string that is not one of the values of a string enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    type_name: &'static str,
    value: String,
    expected: &'static [&'static str],
}

impl UnknownValue {
    /// Describes `value`, rejected by `type_name`, which accepts `expected`.
    pub fn new(type_name: &'static str, value: &str, expected: &'static [&'static str]) -> Self {
        UnknownValue {
            type_name,
            value: value.to_string(),
            expected,
        }
    }

    /// The rejected string.
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} value `{}`; expected one of ",
            self.type_name, self.value
        )?;
        serde_helpers::write_list(f, self.expected)
    }
}

impl std::error::Error for UnknownValue {}

#[doc(hidden)]
pub struct ConstStrVisitor(pub &'static str);

impl serde::de::Visitor<'_> for ConstStrVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the string {:?}", self.0)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        if v == self.0 {
            Ok(())
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
        }
    }
}

#[doc(hidden)]
pub struct ConstIntVisitor(pub i64);

impl serde::de::Visitor<'_> for ConstIntVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the integer {}", self.0)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        if v == self.0 {
            Ok(())
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
        }
    }
}

/// Defines a zero-sized marker that encodes as one string and decodes only from it.
#[macro_export]
macro_rules! const_str {
    ($name:ident, $value:literal) => {
        #[doc = concat!("The constant `\"", $value, "\"`: encodes as that string and decodes only from it.")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;

        impl $name {
            /// The one accepted value.
            pub const VALUE: &'static str = $value;
        }

        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> ::std::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> ::std::result::Result<Self, __D::Error> {
                deserializer.deserialize_str($crate::ConstStrVisitor($value)).map(|()| $name)
            }
        }

        // A constant is never a catch-all.
        impl $crate::strict::Check for $name {
            fn check(&self, _: &mut $crate::strict::Path, _: &mut $crate::strict::Found) {}
        }

        $crate::if_schemars! {
            impl $crate::schemars::JsonSchema for $name {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    concat!("Const_", stringify!($name)).into()
                }

                fn json_schema(_: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                    $crate::schemars::json_schema!({ "type": "string", "const": $value })
                }
            }
        }
    };
}

/// Defines a zero-sized marker that encodes as one integer and decodes only from it.
#[macro_export]
macro_rules! const_int {
    ($name:ident, $value:literal) => {
        #[doc = concat!("The constant `", stringify!($value), "`: encodes as that integer and decodes only from it.")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;

        impl $name {
            /// The one accepted value.
            pub const VALUE: i64 = $value;
        }

        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> ::std::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_i64($value)
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> ::std::result::Result<Self, __D::Error> {
                deserializer.deserialize_i64($crate::ConstIntVisitor($value)).map(|()| $name)
            }
        }

        // A constant is never a catch-all.
        impl $crate::strict::Check for $name {
            fn check(&self, _: &mut $crate::strict::Path, _: &mut $crate::strict::Found) {}
        }

        $crate::if_schemars! {
            impl $crate::schemars::JsonSchema for $name {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    concat!("Const_", stringify!($name)).into()
                }

                fn json_schema(_: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                    $crate::schemars::json_schema!({ "type": "integer", "const": $value })
                }
            }
        }
    };
}

#[doc(hidden)]
pub struct ConstBoolVisitor(pub bool);

impl serde::de::Visitor<'_> for ConstBoolVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the boolean {}", self.0)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        if v == self.0 {
            Ok(())
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Bool(v), &self))
        }
    }
}

/// Defines a zero-sized marker that encodes as one boolean and decodes only from it.
#[macro_export]
macro_rules! const_bool {
    ($name:ident, $value:literal) => {
        #[doc = concat!("The constant `", stringify!($value), "`: encodes as that boolean and decodes only from it.")]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;

        impl $name {
            /// The one accepted value.
            pub const VALUE: bool = $value;
        }

        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> ::std::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_bool($value)
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> ::std::result::Result<Self, __D::Error> {
                deserializer.deserialize_bool($crate::ConstBoolVisitor($value)).map(|()| $name)
            }
        }

        // A constant is never a catch-all.
        impl $crate::strict::Check for $name {
            fn check(&self, _: &mut $crate::strict::Path, _: &mut $crate::strict::Found) {}
        }

        $crate::if_schemars! {
            impl $crate::schemars::JsonSchema for $name {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    concat!("Const_", stringify!($name)).into()
                }

                fn json_schema(_: &mut $crate::schemars::SchemaGenerator) -> $crate::schemars::Schema {
                    $crate::schemars::json_schema!({ "type": "boolean", "const": $value })
                }
            }
        }
    };
}
