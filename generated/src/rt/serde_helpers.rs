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
