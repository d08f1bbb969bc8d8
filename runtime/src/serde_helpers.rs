//! The serde impls of the generated types, as macros the generated modules invoke after
//! each declaration ([`open_object!`](crate::open_object), [`closed_object!`](crate::closed_object),
//! [`wire_enum!`](crate::wire_enum)), and the helpers they call by path. The generated
//! crate derives no serde trait: it does not need `serde_derive` (nor `syn`) to build.

use serde::{Deserialize, Deserializer};

/// `Deserialize` and `Serialize` for a generated struct whose schema allows properties it
/// does not name (an open object): one pass over the properties, each named one decoded
/// into its field, every other one kept in the struct's `extra` map. serde's `flatten` would
/// read the whole object into a buffer first. Encoding writes the fields in their order
/// (an absent optional one not at all), then `extra`. The generated modules invoke it after
/// each such struct:
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
    ($name:ident { $( $field:ident : $wire:literal $($how:ident)? $(=> $rule:expr)? ),* $(,)? }) => {
        $crate::__object_deserialize!($name { $( $field : $wire $($how)? ),* } extra);
        $crate::__object_serialize!($name { $( $field : $wire $($how)? ),* } extra);
        $crate::__object_check!($name { $( $field : $wire $(=> $rule)? ),* } extra);
    };
}

/// [`open_object!`](crate::open_object) for a struct whose schema names every property it
/// allows (`additionalProperties: false`): a property it does not name is an error (serde's
/// "unknown field" error, listing the named ones); there is no `extra`.
#[macro_export]
macro_rules! closed_object {
    ($name:ident { $( $field:ident : $wire:literal $($how:ident)? $(=> $rule:expr)? ),* $(,)? }) => {
        $crate::__object_deserialize!($name { $( $field : $wire $($how)? ),* });
        $crate::__object_serialize!($name { $( $field : $wire $($how)? ),* });
        $crate::__object_check!($name { $( $field : $wire $(=> $rule)? ),* });
    };
}

/// `Serialize`, `Deserialize` and [`Check`](crate::strict::Check) of a newtype
/// (`struct Name(pub Inner)`), each the inner value's: the generator makes one of a schema
/// type that holds itself through an array or a map, which a type alias cannot.
///
/// ```ignore
/// pub struct Tags(pub BTreeMap<String, Tags>);
/// crate::rt::newtype!(Tags);
/// ```
#[macro_export]
macro_rules! newtype {
    ($name:ident) => {
        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                $crate::serde::Serialize::serialize(&self.0, serializer)
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                $crate::serde::Deserialize::deserialize(deserializer).map($name)
            }
        }

        impl $crate::strict::Check for $name {
            fn check(&self, path: &mut $crate::strict::Path, found: &mut $crate::strict::Found) {
                $crate::strict::Check::check(&self.0, path, found)
            }
        }
    };
}

/// The [`Check`](crate::strict::Check) of [`open_object!`](crate::open_object) and
/// [`closed_object!`](crate::closed_object): each field at its property, a string field
/// against its [`Text`](crate::strict::Text) rule when it has one (`=>` after the
/// property's name), and `extra` holds no catch-all.
#[doc(hidden)]
#[macro_export]
macro_rules! __object_check {
    ($name:ident { $( $field:ident : $wire:literal $(=> $rule:expr)? ),* } $($extra:ident)?) => {
        impl $crate::strict::Check for $name {
            fn check(&self, path: &mut $crate::strict::Path, found: &mut $crate::strict::Found) {
                $(
                    $crate::strict::field(&self.$field, $wire, path, found);
                    $( $crate::strict::text(&self.$field, $wire, &$rule, path, found); )?
                )*
                $( $crate::strict::extra_undeclared(&self.$extra, path, found); )?
                let _ = (path, found);
            }
        }
    };
}

/// The `Deserialize` of [`open_object!`](crate::open_object) (with `extra`) and
/// [`closed_object!`](crate::closed_object) (without).
#[doc(hidden)]
#[macro_export]
macro_rules! __object_deserialize {
    ($name:ident { $( $field:ident : $wire:literal $($how:ident)? ),* } $($extra:ident)?) => {
        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                struct __Visitor;
                impl<'de> $crate::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(::std::concat!("an object (", ::std::stringify!($name), ")"))
                    }
                    fn visit_map<__A: $crate::serde::de::MapAccess<'de>>(
                        self,
                        mut map: __A,
                    ) -> ::std::result::Result<$name, __A::Error> {
                        $( let mut $field = ::std::option::Option::None; )*
                        $( let mut $extra = ::std::default::Default::default(); )?
                        while let ::std::option::Option::Some(key) =
                            map.next_key::<$crate::serde_helpers::Key<'de>>()?
                        {
                            match key.as_str() {
                                $( $wire => $crate::__object_fill!($field, map, $wire $(, $how)?), )*
                                _ => $crate::__object_other!(map, key, [$( $wire ),*] $(, $extra)?),
                            }
                        }
                        ::std::result::Result::Ok($name {
                            $( $field: $crate::__open_object_field!($field, $wire $(, $how)?), )*
                            $( $extra, )?
                        })
                    }
                }
                deserializer.deserialize_map(__Visitor)
            }
        }
    };
}

/// A property the struct does not name: kept in `extra`, or an error without one.
#[doc(hidden)]
#[macro_export]
macro_rules! __object_other {
    ($map:ident, $key:ident, [$( $wire:literal ),*]) => {
        return ::std::result::Result::Err(<__A::Error as $crate::serde::de::Error>::unknown_field(
            $key.as_str(),
            &[$( $wire ),*],
        ))
    };
    ($map:ident, $key:ident, [$( $wire:literal ),*], $extra:ident) => {
        $crate::serde_helpers::fill_extra(&mut $extra, $key, &mut $map)?
    };
}

/// The `Serialize` of [`open_object!`](crate::open_object) and
/// [`closed_object!`](crate::closed_object).
#[doc(hidden)]
#[macro_export]
macro_rules! __object_serialize {
    ($name:ident { $( $field:ident : $wire:literal $($how:ident)? ),* } $($extra:ident)?) => {
        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                use $crate::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                $( $crate::__object_entry!(map, &self.$field, $wire $(, $how)?); )*
                $(
                    if !self.$extra.is_empty() {
                        $crate::serde_helpers::write_extra(&mut map, &self.$extra)?;
                    }
                )?
                map.end()
            }
        }
    };
}

/// How [`open_object!`](crate::open_object) writes a field: always, or only when present.
#[doc(hidden)]
#[macro_export]
macro_rules! __object_entry {
    ($map:ident, $value:expr, $wire:literal $(, int)?) => {
        $map.serialize_entry($wire, $value)?
    };
    ($map:ident, $value:expr, $wire:literal, $how:ident) => {
        if let ::std::option::Option::Some(value) = $value {
            $map.serialize_entry($wire, value)?;
        }
    };
}

/// How [`open_object!`](crate::open_object) reads a property into its slot: an integer
/// property as JSON Schema counts integers (`1.0`, `1E2` and `-0` too), any other as its
/// type decodes.
#[doc(hidden)]
#[macro_export]
macro_rules! __object_fill {
    ($slot:ident, $map:ident, $wire:literal, int) => {
        $crate::serde_helpers::fill_int(&mut $slot, &mut $map, $wire)?
    };
    ($slot:ident, $map:ident, $wire:literal, optional_int) => {
        $crate::serde_helpers::fill_int(&mut $slot, &mut $map, $wire)?
    };
    ($slot:ident, $map:ident, $wire:literal, optional_nullable_int) => {
        $crate::serde_helpers::fill_int(&mut $slot, &mut $map, $wire)?
    };
    ($slot:ident, $map:ident, $wire:literal $(, $how:ident)?) => {
        $crate::serde_helpers::fill(&mut $slot, &mut $map, $wire)?
    };
}

/// `Serialize`, `Deserialize`, [`Display`](std::fmt::Display),
/// [`FromStr`](std::str::FromStr) and [`Check`](crate::strict::Check) for a generated
/// string enum, and its `ALL` and `as_str`: each variant is written as its wire string; any
/// other string decodes into the catch-all variant (`..Unknown`, holding the `String`),
/// which writes it back as it came and which [`strict`](crate::strict) reports. `FromStr`
/// is strict: it accepts the defined values only.
///
/// ```ignore
/// crate::rt::wire_enum! {
///     Role { Assistant: "assistant", User: "user", ..Unknown }
/// }
/// ```
#[macro_export]
macro_rules! wire_enum {
    ($name:ident { $( $variant:ident : $wire:literal ),* , .. $unknown:ident $(,)? }) => {
        impl $name {
            /// Every value this version defines, in wire order.
            pub const ALL: &'static [Self] = &[ $( Self::$variant ),* ];
            /// The wire spelling (of a value this version does not define, as it came).
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )*
                    Self::$unknown(value) => value,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::UnknownValue;
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                match s {
                    $( $wire => ::std::result::Result::Ok(Self::$variant), )*
                    _ => ::std::result::Result::Err($crate::UnknownValue::new(
                        ::std::stringify!($name),
                        s,
                        &[$( $wire ),*],
                    )),
                }
            }
        }

        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                const WIRE: &[&str] = &[$( $wire ),*];
                ::std::result::Result::Ok(
                    match $crate::serde_helpers::wire_value(deserializer, WIRE)? {
                        ::std::result::Result::Ok(index) => Self::ALL[index].clone(),
                        ::std::result::Result::Err(other) => Self::$unknown(other),
                    },
                )
            }
        }

        impl $crate::strict::Check for $name {
            fn check(&self, path: &mut $crate::strict::Path, found: &mut $crate::strict::Found) {
                if let Self::$unknown(value) = self {
                    $crate::strict::unknown_value(::std::stringify!($name), value, path, found);
                }
            }
        }
    };
}

/// The index in `wire` of the string `deserializer` holds, or the string itself if it is
/// none of them.
#[doc(hidden)]
pub fn wire_value<'de, D: Deserializer<'de>>(
    deserializer: D,
    wire: &'static [&'static str],
) -> Result<Result<usize, String>, D::Error> {
    struct WireVisitor(&'static [&'static str]);
    impl serde::de::Visitor<'_> for WireVisitor {
        type Value = Result<usize, String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string: one of ")?;
            write_list(f, self.0)?;
            f.write_str(", or another")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(self
                .0
                .iter()
                .position(|w| *w == v)
                .ok_or_else(|| v.to_string()))
        }
    }
    deserializer.deserialize_str(WireVisitor(wire))
}

/// `` `a`, `b` `` (for error messages).
pub(crate) fn write_list(f: &mut std::fmt::Formatter<'_>, items: &[&str]) -> std::fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "`{item}`")?;
    }
    Ok(())
}

/// How [`open_object!`](crate::open_object) finishes a field from its slot.
#[doc(hidden)]
#[macro_export]
macro_rules! __open_object_field {
    ($slot:ident, $wire:literal) => {
        $crate::serde_helpers::take($slot, $wire)?
    };
    ($slot:ident, $wire:literal, int) => {
        $crate::serde_helpers::take($slot, $wire)?
    };
    ($slot:ident, $wire:literal, optional) => {
        $crate::serde_helpers::flatten($slot)
    };
    ($slot:ident, $wire:literal, optional_int) => {
        $crate::serde_helpers::flatten($slot)
    };
    ($slot:ident, $wire:literal, optional_nullable) => {
        $slot
    };
    ($slot:ident, $wire:literal, optional_nullable_int) => {
        $slot
    };
}

/// An optional property's slot: absent, or `null`, is `None`.
#[doc(hidden)]
pub fn flatten<T>(slot: Option<Option<T>>) -> Option<T> {
    slot.flatten()
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

/// An integer as JSON Schema counts integers: any number without a fractional part
/// (`1.0`, `1E2` and `-0` too), within the type's range; written with a fraction or an
/// exponent, less than 2^53 in size (where a double holds every integer). `Option`s of them read `null` as
/// `None`.
#[doc(hidden)]
pub trait Integer: Sized {
    /// Decodes one.
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// The integer a number written with a fraction or an exponent (read as a double) stands
/// for: a whole double less than 2^53 in size, the range in which a double holds every
/// integer, so the same text gives the same integer on every path (integer properties and
/// arms here, the envelope's id in `jsonrpc`); `-0` is 0.
pub(crate) fn exact_integer(v: f64) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    (v.fract() == 0.0 && v.abs() < EXACT).then_some(v as i64)
}

struct IntegerVisitor<T>(std::marker::PhantomData<T>);

impl<T: TryFrom<i64> + TryFrom<u64>> serde::de::Visitor<'_> for IntegerVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an integer that fits {}", std::any::type_name::<T>())
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<T, E> {
        T::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<T, E> {
        T::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<T, E> {
        match exact_integer(v) {
            Some(i) if i < 0 => self.visit_i64(i),
            Some(i) => self.visit_u64(i.unsigned_abs()),
            None if v.fract() != 0.0 || !v.is_finite() => {
                Err(E::invalid_type(serde::de::Unexpected::Float(v), &self))
            }
            None => Err(E::invalid_value(serde::de::Unexpected::Float(v), &self)),
        }
    }
}

impl Integer for i64 {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_i64(IntegerVisitor(std::marker::PhantomData))
    }
}

impl Integer for u64 {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_u64(IntegerVisitor(std::marker::PhantomData))
    }
}

impl<T: Integer> Integer for Option<T> {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OptionVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Integer> serde::de::Visitor<'de> for OptionVisitor<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an integer or null")
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
                T::decode(d).map(Some)
            }
        }
        deserializer.deserialize_option(OptionVisitor(std::marker::PhantomData))
    }
}

struct IntegerSeed<T>(std::marker::PhantomData<T>);

impl<'de, T: Integer> serde::de::DeserializeSeed<'de> for IntegerSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::decode(deserializer)
    }
}

/// [`fill`] for an integer property.
#[doc(hidden)]
#[inline(never)]
pub fn fill_int<'de, A, T>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Integer,
{
    fill_with(slot, map, name, IntegerSeed(std::marker::PhantomData))
}

/// Decodes the value of the property `name` into its slot; a second occurrence is an
/// error, as in serde's derived code. Out of line: one copy for each input and field type,
/// which every struct with a field of that type calls, instead of one inside each struct's
/// decoder (their code a third smaller, at 0.1-0.3% more instructions on the recorded
/// traffic).
#[doc(hidden)]
#[inline(never)]
pub fn fill<'de, A, T>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    fill_with(slot, map, name, std::marker::PhantomData)
}

/// The value of the property `name`, read with `seed`, into its slot; a second
/// occurrence is an error.
#[inline]
fn fill_with<'de, A, S>(
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

/// The members of an open object that it does not name, kept in order to be written back:
/// a `serde_json::Map` of `Value`s, or (a crate seeded with free-form JSON as text) a map
/// of [`RawJson`](crate::raw::RawJson)s.
#[doc(hidden)]
pub trait Extra: Default {
    /// Whether a member of this name is kept.
    fn has(&self, key: &str) -> bool;
    /// Decodes the next value of `map` as the member `key`.
    fn fill<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        key: String,
        map: &mut A,
    ) -> Result<(), A::Error>;
    /// The members' names.
    fn names(&self) -> Vec<&str>;
}

/// `has` and `fill` of a map of `String` to values that decode themselves.
macro_rules! extra_members {
    () => {
        fn has(&self, key: &str) -> bool {
            self.contains_key(key)
        }

        fn fill<'de, A: serde::de::MapAccess<'de>>(
            &mut self,
            key: String,
            map: &mut A,
        ) -> Result<(), A::Error> {
            let value = map.next_value()?;
            self.insert(key, value);
            Ok(())
        }
    };
}

impl Extra for serde_json::Map<String, serde_json::Value> {
    extra_members!();

    fn names(&self) -> Vec<&str> {
        self.keys().map(String::as_str).collect()
    }
}

impl Extra for std::collections::BTreeMap<String, crate::raw::RawJson> {
    extra_members!();

    fn names(&self) -> Vec<&str> {
        self.keys().map(String::as_str).collect()
    }
}

/// The names in order, so that what is reported of them comes in a fixed order.
impl<S: std::hash::BuildHasher + Default> Extra
    for std::collections::HashMap<String, crate::raw::RawJson, S>
{
    extra_members!();

    fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}

/// Decodes the value of a property the type does not name into `extra`; a property given
/// twice is an error, as it is for a named one (keeping one of the two would lose the
/// other on the way back).
#[doc(hidden)]
pub fn fill_extra<'de, A, E>(extra: &mut E, key: Key<'de>, map: &mut A) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    E: Extra,
{
    if extra.has(key.as_str()) {
        return Err(<A::Error as serde::de::Error>::custom(format_args!(
            "duplicate field `{}`",
            key.as_str()
        )));
    }
    extra.fill(key.into_string(), map)
}

/// Writes the members an open object holds without naming them, after its fields: one
/// copy of the loop for each serializer and catch-all type, not one for each struct (the
/// generated serializers shrink by half).
#[doc(hidden)]
#[inline(never)]
pub fn write_extra<M, K, V, I>(map: &mut M, extra: I) -> Result<(), M::Error>
where
    M: serde::ser::SerializeMap,
    K: serde::Serialize,
    V: serde::Serialize,
    I: IntoIterator<Item = (K, V)>,
{
    for (key, value) in extra {
        map.serialize_entry(&key, &value)?;
    }
    Ok(())
}

/// The value of a required property, or the "missing field" error.
#[doc(hidden)]
pub fn take<T, E: serde::de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Open {
        name: String,
        size: Option<i64>,
        note: Option<Option<String>>,
        extra: serde_json::Map<String, serde_json::Value>,
    }
    crate::open_object! {
        Open {
            name: "name",
            size: "size" optional,
            note: "note" optional_nullable,
        }
    }

    #[derive(Debug, PartialEq)]
    struct Closed {
        name: String,
        size: Option<i64>,
    }
    crate::closed_object! {
        Closed {
            name: "name",
            size: "size" optional,
        }
    }

    #[derive(Debug, Clone, PartialEq)]
    enum Role {
        Assistant,
        User,
        Unknown(String),
    }
    crate::wire_enum! {
        Role {
            Assistant: "assistant",
            User: "user",
            ..Unknown
        }
    }

    fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(v: serde_json::Value) -> String {
        crate::path::from_value::<T>(v).unwrap_err().to_string()
    }

    #[test]
    fn open_object_keeps_what_it_does_not_name_and_writes_it_back_after_the_fields() {
        let text = r#"{"z":1,"note":null,"name":"a","x":[true]}"#;
        let open: Open = serde_json::from_str(text).unwrap();
        assert_eq!(open.name, "a");
        assert_eq!(open.size, None);
        assert_eq!(open.note, Some(None));
        assert_eq!(open.extra.len(), 2);
        assert_eq!(
            serde_json::to_string(&open).unwrap(),
            r#"{"name":"a","note":null,"x":[true],"z":1}"#
        );
        let absent: Open = serde_json::from_str(r#"{"name":"a","size":null}"#).unwrap();
        assert_eq!((absent.size, &absent.note), (None, &None));
        assert_eq!(serde_json::to_value(&absent).unwrap(), json!({"name": "a"}));
        let e = error::<Open>(json!({"size": 1}));
        assert!(e.contains("missing field `name`"), "{e}");
        assert!(error::<Open>(json!({"name": "a", "name2": 1, "size": "1"})).contains("size"));
    }

    #[test]
    fn closed_object_rejects_a_property_it_does_not_name() {
        let closed: Closed = serde_json::from_str(r#"{"size":2,"name":"a"}"#).unwrap();
        assert_eq!(
            closed,
            Closed {
                name: "a".into(),
                size: Some(2)
            }
        );
        assert_eq!(
            serde_json::to_string(&closed).unwrap(),
            r#"{"name":"a","size":2}"#
        );
        let e = error::<Closed>(json!({"name": "a", "other": 1}));
        assert!(
            e.contains("unknown field `other`, expected `name` or `size`"),
            "{e}"
        );
        assert!(error::<Closed>(json!(["a", 2])).contains("an object (Closed)"));
    }

    #[test]
    fn wire_enum_reads_and_writes_the_wire_strings_and_keeps_any_other() {
        assert_eq!(serde_json::to_string(&Role::User).unwrap(), r#""user""#);
        assert_eq!(
            serde_json::from_str::<Role>(r#""assistant""#).unwrap(),
            Role::Assistant
        );
        assert_eq!(Role::ALL, &[Role::Assistant, Role::User]);
        assert_eq!(Role::User.to_string(), "user");
        assert_eq!("user".parse::<Role>().unwrap(), Role::User);
        // A value the enum does not define: kept, written back, reported strictly.
        let other: Role = serde_json::from_str(r#""narrator""#).unwrap();
        assert_eq!(other, Role::Unknown("narrator".to_string()));
        assert_eq!(other.as_str(), "narrator");
        assert_eq!(serde_json::to_string(&other).unwrap(), r#""narrator""#);
        assert_eq!(crate::strict::issues(&other).len(), 1);
        assert!(crate::strict::issues(&Role::User).is_empty());
        // `FromStr` is strict.
        assert_eq!(
            "User".parse::<Role>().unwrap_err().to_string(),
            "unknown Role value `User`; expected one of `assistant`, `user`"
        );
        // Not a string: an error that says what is accepted.
        let e = error::<Role>(json!({"user": null}));
        assert!(
            e.contains("expected a string: one of `assistant`, `user`, or another"),
            "{e}"
        );
    }
}
