//! Field helpers that derived serde code calls by path, and [`open_object!`](crate::open_object),
//! the `Deserialize` of the generated open objects.

use serde::{Deserialize, Deserializer};

/// `Deserialize` for a generated struct whose schema allows properties it does not name
/// (an open object): one pass over the properties, each named one decoded into its field,
/// every other one kept in the struct's `extra` map. serde's `flatten` would read the whole
/// object into a buffer first. The generated modules invoke it after each such struct:
///
/// ```ignore
/// crate::rt::open_object! {
///     TextContent {
///         r#type: "type",
///         meta: "_meta" optional,
///         annotations: "annotations" optional,
///         text: "text",
///     }
/// }
/// ```
///
/// Each field names its property on the wire and how it is filled: required (absence is
/// a "missing field" error; a required property that may be `null` is an `Option` filled
/// the same way), `optional` (an `Option`: absence and `null` are `None`) or
/// `optional_nullable` (an `Option<Option<_>>`: absence is `None`, `null` is
/// `Some(None)`). A property given twice is an error, whether named or not. The field
/// types come from the struct.
#[macro_export]
macro_rules! open_object {
    ($name:ident { $( $field:ident : $wire:literal $($how:ident)? ),* $(,)? }) => {
        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                struct Visitor;
                impl<'de> $crate::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(::std::concat!("an object (", ::std::stringify!($name), ")"))
                    }
                    fn visit_map<A: $crate::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> ::std::result::Result<$name, A::Error> {
                        $( let mut $field = ::std::option::Option::None; )*
                        let mut extra = $crate::serde_json::Map::new();
                        while let ::std::option::Option::Some(key) =
                            map.next_key::<$crate::serde_helpers::Key<'de>>()?
                        {
                            match key.as_str() {
                                $( $wire => $crate::serde_helpers::fill(&mut $field, &mut map, $wire)?, )*
                                _ => $crate::serde_helpers::fill_extra(&mut extra, key, &mut map)?,
                            }
                        }
                        ::std::result::Result::Ok($name {
                            $( $field: $crate::__open_object_field!($field, $wire $(, $how)?), )*
                            extra,
                        })
                    }
                }
                deserializer.deserialize_map(Visitor)
            }
        }
    };
}

/// How [`open_object!`](crate::open_object) finishes a field from its slot.
#[doc(hidden)]
#[macro_export]
macro_rules! __open_object_field {
    ($slot:ident, $wire:literal) => {
        $crate::serde_helpers::take($slot, $wire)?
    };
    ($slot:ident, $wire:literal, optional) => {
        $crate::serde_helpers::flatten($slot)
    };
    ($slot:ident, $wire:literal, optional_nullable) => {
        $slot
    };
}

/// An optional property's slot: absent, or `null`, is `None`.
#[doc(hidden)]
pub fn flatten<T>(slot: Option<Option<T>>) -> Option<T> {
    slot.flatten()
}

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
    if slot.is_some() {
        return Err(<A::Error as serde::de::Error>::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
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
