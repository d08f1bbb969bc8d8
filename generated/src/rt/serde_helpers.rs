//! Field helpers that derived serde code calls by path.

use serde::{Deserialize, Deserializer};

/// A required field that may be `null`: unlike a plain `Option`, absence is an error,
/// so `"ttl": null` and a missing `ttl` are told apart.
pub fn required_nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// An optional field that may be `null`: absent is `None`, `null` is `Some(None)`.
/// Use with `#[serde(default)]`.
pub fn optional_nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// The JSON Schema of a required property that may be `null`: the inner type or `null`,
/// and never optional (the `schemars` derive would make a plain `Option` optional).
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub struct RequiredNullable<T>(std::marker::PhantomData<T>);

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for RequiredNullable<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Nullable_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let inner = generator.subschema_for::<T>();
        schemars::json_schema!({ "anyOf": [inner, { "type": "null" }] })
    }
}
