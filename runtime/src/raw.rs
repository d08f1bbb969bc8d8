//! Free-form JSON held as its text, read on demand: what a crate seeded for a proxy or a
//! gateway holds where the schema allows any value, with the generator's setting
//! `free_form: raw`: a [`RawJson`] where any value is allowed (a member an open object
//! does not name), a [`RawObject`] where any object is (a tool's arguments, each of a
//! schema's properties, `_meta`, `structuredContent` before 2026-07-28, a request's
//! `params` in 2026-07-28's own definitions).
//!
//! Both are checked as JSON when decoded (a `serde_json` [`RawValue`]), and a
//! [`RawObject`] is checked to be an object, but neither is parsed into a tree: they keep
//! the text as it came, whitespace and member order included, and write it back as it is.
//! Where a union's value is read into a `serde_json::Value` before its arm is chosen
//! (through `serde_json::from_value`, or a deserializer other than `serde_json`'s text
//! reader and this runtime's decoder, which both hand the arm the text), the text is
//! written again from that value: compact, members in their order, numbers as
//! `serde_json` reads them. `parse` reads it as a type when one is wanted.

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

    /// The value as a [`serde_json::Value`]. An error where `serde_json` cannot hold what
    /// the text says, though it is JSON: a number beyond a double's range (`1e400`), or
    /// nesting deeper than its limit of 128 (text that `serde_json` checked, not this
    /// runtime's decoder, which refuses both).
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        self.parse()
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

/// Any JSON object, as its text; see the [module docs](self). One text, where a map of
/// texts would be one per member: a proxy forwards the object as it came (members in
/// their order, none of them read), and a gateway that wants a member reads the object
/// with [`parse`](RawObject::parse).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawObject(RawJson);

impl RawObject {
    /// The object's text, as it came.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Reads the object as `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        self.0.parse()
    }

    /// The object's members, as `serde_json` values; an error as
    /// [`RawJson::to_value`]'s.
    pub fn to_map(&self) -> Result<serde_json::Map<String, serde_json::Value>, serde_json::Error> {
        self.parse()
    }

    /// An object from JSON text, checked: JSON, and an object.
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        RawObject::checked(RawJson::from_text(text)?)
    }

    /// `value`, written as compact JSON, which must be an object.
    pub fn from_value<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        RawObject::checked(RawJson::from_value(value)?)
    }

    /// The object as any JSON value.
    pub fn into_raw(self) -> RawJson {
        self.0
    }

    /// `raw`, if it is an object; the error says what it is instead.
    fn checked<E: serde::de::Error>(raw: RawJson) -> Result<Self, E> {
        match raw.get().as_bytes().first() {
            Some(b'{') => Ok(RawObject(raw)),
            first => Err(E::invalid_type(
                serde::de::Unexpected::Other(first.map_or("nothing", |b| crate::json::kind(*b))),
                &"a JSON object",
            )),
        }
    }
}

/// `{}`.
impl Default for RawObject {
    fn default() -> Self {
        RawObject(RawJson(
            RawValue::from_string("{}".into()).expect("`{}` is JSON"),
        ))
    }
}

impl fmt::Debug for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl fmt::Display for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl From<serde_json::Map<String, serde_json::Value>> for RawObject {
    fn from(map: serde_json::Map<String, serde_json::Value>) -> Self {
        // A map always writes as a JSON object.
        RawObject::from_value(&map).unwrap_or_default()
    }
}

impl From<RawObject> for RawJson {
    fn from(object: RawObject) -> Self {
        object.0
    }
}

impl Serialize for RawObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        RawObject::checked(RawJson::deserialize(deserializer)?)
    }
}

/// As [`RawJson`]'s: whatever members the peer sent.
impl crate::strict::Check for RawObject {}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for RawJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyValue".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!(true)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for RawObject {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyObject".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
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
        assert_eq!(raw.to_value().unwrap()["b"][1], serde_json::json!(2.5));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let deep = RawJson::from_text(deep).unwrap();
        assert!(deep.to_value().is_err(), "deeper than serde_json's limit");
        let parsed: std::collections::BTreeMap<String, serde_json::Value> = raw.parse().unwrap();
        assert_eq!(parsed.len(), 2);
    }

    #[test]
    fn refuses_what_is_not_json() {
        assert!(serde_json::from_str::<RawJson>("{").is_err());
        assert!(RawJson::from_text("[1,").is_err());
        assert_eq!(RawJson::default().get(), "null");
    }

    #[test]
    fn an_object_keeps_its_text_and_refuses_any_other_value() {
        let text = r#"{ "z": {"b": 1, "a": [2.50]}, "a" : null }"#;
        let object: RawObject = serde_json::from_str(text).unwrap();
        assert_eq!(object.get(), text.trim_start());
        assert_eq!(serde_json::to_string(&object).unwrap(), text.trim_start());
        assert_eq!(
            object.to_map().unwrap().keys().collect::<Vec<_>>(),
            ["a", "z"]
        );
        assert!(
            RawObject::from_text(r#"{"n": 1e400}"#)
                .unwrap()
                .to_map()
                .is_err()
        );
        for (other, kind) in [
            ("[1]", "an array"),
            ("\"x\"", "a string"),
            ("null", "null"),
            ("7", "a number"),
        ] {
            let e = serde_json::from_str::<RawObject>(other)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("invalid type: {kind}, expected a JSON object")),
                "{other}: {e}"
            );
            assert!(RawObject::from_text(other).is_err(), "{other}");
        }
        assert_eq!(RawObject::default().get(), "{}");
        assert!(RawObject::from_value(&[1, 2]).is_err());
        let map = serde_json::json!({"k": [1, "two"]})
            .as_object()
            .unwrap()
            .clone();
        assert_eq!(RawObject::from(map).get(), r#"{"k":[1,"two"]}"#);
    }
}
