//! Free-form JSON held as its text, read on demand: what a crate seeded for a proxy or a
//! gateway holds where the schema allows any value (a tool's arguments, a schema's
//! properties, `_meta`), with the generator's setting `free_form: raw`.
//!
//! A [`RawJson`] is checked as JSON when decoded (it is a `serde_json`
//! [`RawValue`]), but not parsed into a tree: it keeps the
//! text as it came, whitespace and member order included, and writes it back as it is.
//! Inside an arm of a union, which is read whole before its arm is chosen, the text is
//! written again from what was read: compact, members in their order, numbers as
//! `serde_json` reads them. [`RawJson::parse`] reads it as a type when one is wanted.

use std::fmt;

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

/// Any JSON value, as its text; see the [module docs](self).
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The value's text, as it came.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Reads the value as `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }

    /// The value as a [`serde_json::Value`].
    pub fn to_value(&self) -> serde_json::Value {
        // The text was checked as JSON when it was read or made.
        serde_json::from_str(self.0.get()).unwrap_or(serde_json::Value::Null)
    }

    /// A value from JSON text, checked.
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text.into()).map(RawJson)
    }

    /// `value`, written as compact JSON.
    pub fn from_value<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(RawJson)
    }
}

/// `null`.
impl Default for RawJson {
    fn default() -> Self {
        RawJson(RawValue::NULL.to_owned())
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

/// The same text (two texts of one value, spaced otherwise, differ: compare
/// [`to_value`](RawJson::to_value)s for that).
impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Eq for RawJson {}

impl std::hash::Hash for RawJson {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.get().hash(state);
    }
}

impl From<serde_json::Value> for RawJson {
    fn from(value: serde_json::Value) -> Self {
        // A `Value` always writes as JSON.
        RawJson::from_value(&value).unwrap_or_default()
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(RawJson)
    }
}

/// The text is whatever the peer sent: a catch-all by design, not one the strict decoder
/// reports (as a `serde_json::Value` is not).
impl crate::strict::Check for RawJson {}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for RawJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyValue".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_text_and_writes_it_back() {
        let text = r#"{"b" : [1, 2.50, "x"], "a":null}"#;
        let raw: RawJson = serde_json::from_str(text).unwrap();
        assert_eq!(raw.get(), text);
        assert_eq!(serde_json::to_string(&raw).unwrap(), text);
        assert_eq!(raw.to_value()["b"][1], serde_json::json!(2.5));
        let parsed: std::collections::BTreeMap<String, serde_json::Value> = raw.parse().unwrap();
        assert_eq!(parsed.len(), 2);
    }

    #[test]
    fn refuses_what_is_not_json() {
        assert!(serde_json::from_str::<RawJson>("{").is_err());
        assert!(RawJson::from_text("[1,").is_err());
        assert_eq!(RawJson::default().get(), "null");
    }
}
