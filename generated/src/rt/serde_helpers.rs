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

/// A property name, borrowed from the input where it can be. Used by the generated
/// `Deserialize` of open objects.
#[doc(hidden)]
pub struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Key<'de> {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name, owned.
    pub fn into_string(self) -> String {
        self.0.into_owned()
    }

    /// The name, still borrowed from the input where it was.
    pub fn into_cow(self) -> std::borrow::Cow<'de, str> {
        self.0
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a property name")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Decodes the value of the property `name` into its slot; a second occurrence is an
/// error, as in serde's derived code.
#[doc(hidden)]
pub fn fill<'de, A, T>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    fill_seeded(slot, map, name, std::marker::PhantomData)
}

/// [`fill`] with the value decoded by `seed`.
fn fill_seeded<'de, A, S>(
    slot: &mut Option<S::Value>,
    map: &mut A,
    name: &'static str,
    seed: S,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    S: serde::de::DeserializeSeed<'de>,
{
    if slot.is_some() {
        return Err(<A::Error as serde::de::Error>::duplicate_field(name));
    }
    *slot = Some(map.next_value_seed(seed)?);
    Ok(())
}

/// Decodes the value of a property the type does not name into `extra`; a property given
/// twice is an error, as it is for a named one (keeping one of the two would lose the
/// other on the way back).
#[doc(hidden)]
pub fn fill_extra<'de, A>(
    extra: &mut serde_json::Map<String, serde_json::Value>,
    key: Key<'de>,
    map: &mut A,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
{
    if extra.contains_key(key.as_str()) {
        return Err(<A::Error as serde::de::Error>::custom(format_args!(
            "duplicate field `{}`",
            key.as_str()
        )));
    }
    let value = map.next_value()?;
    extra.insert(key.into_string(), value);
    Ok(())
}

/// The value of a required property, or the "missing field" error.
#[doc(hidden)]
pub fn take<T, E: serde::de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// Decodes the value of the array property `name` into its slot, as [`fill`] does; the
/// array grows 1, 2, 4, … elements rather than from 4, as a `Vec` does by default. For the
/// large elements of the generated types (a content block is some 300 bytes) that saves
/// a quarter of the memory of the common one-element array, and keeps it off the
/// allocator's large-chunk path.
#[doc(hidden)]
pub fn fill_seq<'de, A, T>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    fill_seeded(slot, map, name, Seq(std::marker::PhantomData))
}

/// [`fill_seq`] for an optional array property: `null` is absent, as for the others.
#[doc(hidden)]
pub fn fill_optional_seq<'de, A, T>(
    slot: &mut Option<Option<Vec<T>>>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    fill_seeded(slot, map, name, OptionalSeq(Seq(std::marker::PhantomData)))
}

/// Pushes `item` onto `items`, which grow 1, 2, 4, … elements rather than from four.
#[inline]
pub(crate) fn push_growing<T>(items: &mut Vec<T>, item: T) {
    if items.len() == items.capacity() {
        items.reserve_exact(items.len().max(1));
    }
    items.push(item);
}

/// A `Vec<T>` that grows from one element.
struct Seq<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde::de::DeserializeSeed<'de> for Seq<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Seq<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As serde says of a `Vec`.
        f.write_str("a sequence")
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            push_growing(&mut items, item);
        }
        Ok(items)
    }
}

/// An optional array (a [`Seq`]): `null` is `None`.
struct OptionalSeq<S>(S);

impl<'de, S, T> serde::de::DeserializeSeed<'de> for OptionalSeq<S>
where
    S: serde::de::DeserializeSeed<'de, Value = Vec<T>>,
{
    type Value = Option<Vec<T>>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S, T> serde::de::Visitor<'de> for OptionalSeq<S>
where
    S: serde::de::DeserializeSeed<'de, Value = Vec<T>>,
{
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As serde says of an `Option`.
        f.write_str("option")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Option<Vec<T>>, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Option<Vec<T>>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Vec<T>>, D::Error> {
        serde::de::DeserializeSeed::deserialize(self.0, deserializer).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;

    use super::*;

    const TEXTS: &[&str] = &[
        "[]",
        "[1]",
        "[1,2,3,4,5]",
        "[1,\"a\"]",
        "null",
        "{}",
        "\"a\"",
        "7",
    ];

    /// Decodes through a seed, serde_json's error without its position.
    fn with<'de, S: DeserializeSeed<'de>>(seed: S, text: &'de str) -> Result<S::Value, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        seed.deserialize(&mut de).map_err(|e| e.to_string())
    }

    #[test]
    fn arrays_decode_as_serde_decodes_a_vec() {
        for text in TEXTS {
            let ours = with(Seq::<u8>(std::marker::PhantomData), text);
            let serde = serde_json::from_str::<Vec<u8>>(text).map_err(|e| e.to_string());
            assert_eq!(ours, serde, "{text}");
            let ours = with(OptionalSeq(Seq::<u8>(std::marker::PhantomData)), text);
            let serde = serde_json::from_str::<Option<Vec<u8>>>(text).map_err(|e| e.to_string());
            assert_eq!(ours, serde, "{text}");
        }
    }

    #[test]
    fn arrays_grow_from_one_element() {
        let capacity = |text: &str| {
            with(Seq::<u8>(std::marker::PhantomData), text)
                .unwrap()
                .capacity()
        };
        assert_eq!(capacity("[]"), 0);
        assert_eq!(capacity("[1]"), 1);
        assert_eq!(capacity("[1,2,3]"), 4);
        assert_eq!(capacity("[1,2,3,4,5]"), 8);
    }
}
