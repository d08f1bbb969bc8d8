//! A JSON value read whole, for a union to choose its arm from before decoding it.
//!
//! [`serde_json::Value`] would do, but it is dear to build for this: every string and
//! every property name is copied into a new `String`, and every object allocates a
//! `BTreeMap` node. A [`Content`] borrows its strings and property names from the input
//! wherever the input allows (text without escapes, or a borrowed `Value`), keeps an
//! object as a `Vec` of its members in order, and is then read once, by the chosen arm's
//! decoder ([`Content`] is a [`Deserializer`]), which copies each string once into its
//! field. A text content block, `{"type":"text","text":"…"}`, costs one allocation for
//! its members and one for its text, where a `Value` took five.
//!
//! It replays the value as it was read: members in their order (a property given twice
//! is given twice), numbers as [`serde_json::Number`] (so as `serde_json` itself reads
//! them), errors as `serde_json::Error` with the same messages a `Value` gives.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::{Error, Number};

use super::serde_helpers::Key;

/// A JSON value read whole; see the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Content<'de> {
    Null,
    Bool(bool),
    Number(Number),
    /// A string borrowed from the input.
    Str(&'de str),
    /// A string that had escapes, or came owned.
    String(String),
    Seq(Vec<Content<'de>>),
    /// An object's members, in order.
    Map(Vec<(Cow<'de, str>, Content<'de>)>),
}

/// The name under which `serde_json`'s [`RawValue`](serde_json::value::RawValue) asks a
/// deserializer for the text of a value (`serde_json::Value` answers it the same way).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

impl Content<'_> {
    /// Writes the value as compact JSON: members in their order, numbers as read.
    fn write_json(&self, out: &mut String) {
        let string = |s: &str, out: &mut String| {
            // A `str` always writes as JSON.
            out.push_str(&serde_json::to_string(s).unwrap_or_default());
        };
        match self {
            Content::Null => out.push_str("null"),
            Content::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Content::Number(n) => out.push_str(&n.to_string()),
            Content::Str(s) => string(s, out),
            Content::String(s) => string(s, out),
            Content::Seq(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Content::Map(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(key, out);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }

    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Content::Null => Unexpected::Unit,
            Content::Bool(b) => Unexpected::Bool(*b),
            Content::Number(n) => {
                if let Some(u) = n.as_u64() {
                    Unexpected::Unsigned(u)
                } else if let Some(i) = n.as_i64() {
                    Unexpected::Signed(i)
                } else {
                    Unexpected::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Content::Str(s) => Unexpected::Str(s),
            Content::String(s) => Unexpected::Str(s),
            Content::Seq(_) => Unexpected::Seq,
            Content::Map(_) => Unexpected::Map,
        }
    }
}

/// Builds a [`Content`] from any deserializer.
pub(crate) struct ContentVisitor;

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = Content<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Content<'de>, E> {
        Ok(Content::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Content<'de>, E> {
        Ok(Content::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Content<'de>, E> {
        Ok(Content::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Content<'de>, E> {
        // As a `Value` holds it; JSON text has no NaN or infinity.
        Ok(Number::from_f64(v).map_or(Content::Null, Content::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Content<'de>, E> {
        Ok(Content::String(v.to_string()))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Content<'de>, E> {
        Ok(Content::Str(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Content<'de>, E> {
        Ok(Content::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Content<'de>, E> {
        Ok(Content::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Content<'de>, E> {
        Ok(Content::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Content<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(ContentSeed)? {
            items.push(item);
        }
        Ok(Content::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1024));
        while let Some(key) = map.next_key::<Key<'de>>()? {
            members.push((key.into_cow(), map.next_value_seed(ContentSeed)?));
        }
        Ok(Content::Map(members))
    }
}

/// Reads one [`Content`].
pub(crate) struct ContentSeed;

impl<'de> DeserializeSeed<'de> for ContentSeed {
    type Value = Content<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Content<'de>, D::Error> {
        deserializer.deserialize_any(ContentVisitor)
    }
}

impl<'de> Deserialize<'de> for Content<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ContentVisitor)
    }
}

/// A property name as a deserializer: borrowed or owned, as it was read.
fn key_deserializer<'de, S: DeserializeSeed<'de>>(
    key: Cow<'de, str>,
    seed: S,
) -> Result<S::Value, Error> {
    match key {
        Cow::Borrowed(k) => seed.deserialize(BorrowedStrDeserializer::new(k)),
        Cow::Owned(k) => seed.deserialize(StringDeserializer::new(k)),
    }
}

fn visit_seq<'de, V: Visitor<'de>>(
    items: Vec<Content<'de>>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = Items(items.into_iter());
    let value = visitor.visit_seq(&mut seq)?;
    seq.end(len)?;
    Ok(value)
}

fn visit_map<'de, V: Visitor<'de>>(
    members: Vec<(Cow<'de, str>, Content<'de>)>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = members.len();
    let mut map = Members {
        members: members.into_iter(),
        value: None,
    };
    let value = visitor.visit_map(&mut map)?;
    map.end(len)?;
    Ok(value)
}

// The checks after a visit are compiled once, not once per visitor.
impl Items<'_> {
    #[inline(never)]
    fn end(self, len: usize) -> Result<(), Error> {
        match self.0.len() {
            0 => Ok(()),
            _ => Err(de::Error::invalid_length(len, &"fewer elements in array")),
        }
    }
}

impl Members<'_> {
    #[inline(never)]
    fn end(self, len: usize) -> Result<(), Error> {
        match self.members.len() {
            0 => Ok(()),
            _ => Err(de::Error::invalid_length(len, &"fewer elements in map")),
        }
    }
}

struct Items<'de>(std::vec::IntoIter<Content<'de>>);

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|item| seed.deserialize(item)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// The members of an object read whole.
struct Members<'de> {
    members: std::vec::IntoIter<(Cow<'de, str>, Content<'de>)>,
    value: Option<Content<'de>>,
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.members.next() {
            Some((key, value)) => {
                self.value = Some(value);
                key_deserializer(key, seed).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// An enum written as a one-member object: the member's name is the variant.
struct Variant<'de> {
    name: Cow<'de, str>,
    value: Content<'de>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Content<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Content<'de>), Error> {
        Ok((key_deserializer(self.name, seed)?, self.value))
    }
}

impl<'de> VariantAccess<'de> for Content<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        <()>::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Seq(items) => visit_seq(items, visitor),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"tuple variant",
            )),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Content::Map(members) => visit_map(members, visitor),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"struct variant",
            )),
        }
    }
}

/// A number method: the number's own (as a `Value` does); anything else is the wrong type.
macro_rules! number_method {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self {
                    Content::Number(n) => n.$method(visitor),
                    other => Err(other.invalid(&visitor)),
                }
            }
        )*
    };
}

impl Content<'_> {
    /// The error for a value of the wrong type. Not generic over the visitor, so that each
    /// `deserialize_*` below compiles to the one visit it expects and this call (as a
    /// `Value` does): forwarding them all to `deserialize_any` would compile every visit
    /// for every visitor.
    fn invalid(&self, expected: &dyn de::Expected) -> Error {
        de::Error::invalid_type(self.unexpected(), expected)
    }
}

impl<'de> Deserializer<'de> for Content<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Null => visitor.visit_unit(),
            Content::Bool(b) => visitor.visit_bool(b),
            Content::Number(n) => n.deserialize_any(visitor),
            Content::Str(s) => visitor.visit_borrowed_str(s),
            Content::String(s) => visitor.visit_string(s),
            Content::Seq(items) => visit_seq(items, visitor),
            Content::Map(members) => visit_map(members, visitor),
        }
    }

    number_method!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Bool(b) => visitor.visit_bool(b),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Str(s) => visitor.visit_borrowed_str(s),
            Content::String(s) => visitor.visit_string(s),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Str(s) => visitor.visit_borrowed_str(s),
            Content::String(s) => visitor.visit_string(s),
            Content::Seq(items) => visit_seq(items, visitor),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Null => visitor.visit_unit(),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE_TOKEN {
            // A `RawValue` (`rt::raw::RawJson`) inside a union's arm: its text, written
            // again from what was read (compact, members in order).
            let mut text = String::new();
            self.write_json(&mut text);
            let entry = std::iter::once((RAW_VALUE_TOKEN, text));
            return visitor.visit_map(de::value::MapDeserializer::new(entry));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Seq(items) => visit_seq(items, visitor),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Content::Map(members) => visit_map(members, visitor),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Content::Seq(items) => visit_seq(items, visitor),
            Content::Map(members) => visit_map(members, visitor),
            other => Err(other.invalid(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Content::Str(s) => visitor.visit_enum(BorrowedStrDeserializer::new(s)),
            Content::String(s) => visitor.visit_enum(StringDeserializer::new(s)),
            Content::Map(mut members) if members.len() == 1 => {
                let (name, value) = members.pop().expect("one member");
                visitor.visit_enum(Variant { name, value })
            }
            Content::Map(_) => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(other.invalid(&"string or map")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        drop(self);
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    //! A `Content` replays what it read: anything decoded from it is what decoding a
    //! `Value` of the same text gives, errors included.

    use super::*;
    use crate::union::{Json, View};
    use serde_json::Value;

    /// A `RawJson` (a `RawValue`) read from a `Content`, as a union's arm reads it: its
    /// text written again compactly, members in order, and what it is cannot be read
    /// from it (a bare string is not an object's text).
    #[test]
    fn raw_json_reads_its_text_from_a_content() {
        use crate::raw::RawJson;
        let text = r#"{ "b" : [1, -2.5, "x\"y", null, true], "a" : {} }"#;
        let content: Content<'_> = serde_json::from_str(text).expect("JSON");
        let raw = RawJson::deserialize(content).expect("a RawJson reads from a Content");
        assert_eq!(raw.get(), r#"{"b":[1,-2.5,"x\"y",null,true],"a":{}}"#);
        let straight: RawJson = serde_json::from_str(text).unwrap();
        assert_eq!(raw.to_value(), straight.to_value());
        // Inside a struct read from a Content, as a member.
        #[derive(serde::Deserialize)]
        struct Holder {
            inner: RawJson,
        }
        let content: Content<'_> = serde_json::from_str(r#"{"inner": [1, {"k": 2}]}"#).unwrap();
        let holder = Holder::deserialize(content).unwrap();
        assert_eq!(holder.inner.get(), r#"[1,{"k":2}]"#);
    }

    /// Decodes `text` as `T` through a `Content` read from the text and from a `Value`. A
    /// value must be what decoding the text straight (or the `Value`) gives. An error must be what decoding
    /// a `Value` of the text gives (the buffer a union used before) or what decoding the
    /// text straight gives, without its position: the two differ where a `Value` has
    /// sorted the members (the first unknown one is another), or where serde_json's text
    /// decoder words an error its own way.
    fn agree<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) {
        let what = || format!("{text} as {}", std::any::type_name::<T>());
        let value: Value = serde_json::from_str(text).expect("JSON");
        let from_value = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
        let straight = serde_json::from_str::<T>(text).map_err(|e| {
            let s = e.to_string();
            s.split(" at line ").next().unwrap_or_default().to_string()
        });
        let from_text: Content<'_> = serde_json::from_str(text).expect("JSON");
        let from_content = Content::deserialize(&value).expect("a value reads");
        let cases = [
            (from_text, &straight, "from the text"),
            // A `Value` has already kept the last of a property given twice.
            (from_content, &from_value, "from a Value"),
        ];
        for (content, same, how) in cases {
            let through = T::deserialize(content).map_err(|e| e.to_string());
            match &through {
                Ok(_) => assert_eq!(&through, same, "{} ({how})", what()),
                Err(_) => assert!(
                    through == from_value || through == straight,
                    "{} ({how}): {through:?}, not {from_value:?} or {straight:?}",
                    what()
                ),
            }
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Level {
        Info,
        Warn,
        Tuple(i64, i64),
        Newtype(String),
        Struct { a: u8 },
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Closed {
        a: u8,
        b: Option<String>,
        c: (i64, bool),
        level: Level,
    }

    const TEXTS: &[&str] = &[
        "null",
        "true",
        "0",
        "-1",
        "255",
        "256",
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        r#""plain""#,
        r#""esc\"aped\n""#,
        r#""info""#,
        r#""nope""#,
        "[]",
        "[1,2]",
        "[1,true]",
        "[1,2,3]",
        "{}",
        r#"{"info":null}"#,
        r#"{"tuple":[1,2]}"#,
        r#"{"tuple":[1]}"#,
        r#"{"newtype":"x"}"#,
        r#"{"struct":{"a":1}}"#,
        r#"{"struct":{"a":1},"info":null}"#,
        r#"{"a":1,"b":null,"c":[2,false],"level":"warn"}"#,
        r#"{"a":1,"b":"x","c":[2,false],"level":{"tuple":[3,4]}}"#,
        r#"{"a":300,"c":[2,false],"level":"info"}"#,
        r#"{"a":1,"c":[2,false],"level":"info","z":0}"#,
        r#"{"a":1,"a":2,"c":[2,false],"level":"info"}"#,
        r#"{"a":1,"c":[2,false,3],"level":"info"}"#,
        r#"{"k\u00e9y":{"deep":[{"x":[null]}]}}"#,
    ];

    #[test]
    fn content_replays_what_it_read() {
        for text in TEXTS {
            agree::<Value>(text);
            agree::<Option<Value>>(text);
            agree::<u8>(text);
            agree::<i64>(text);
            agree::<u64>(text);
            agree::<f64>(text);
            agree::<String>(text);
            agree::<bool>(text);
            agree::<()>(text);
            agree::<Vec<i64>>(text);
            agree::<(i64, bool)>(text);
            agree::<Level>(text);
            agree::<Closed>(text);
            agree::<std::collections::BTreeMap<String, Value>>(text);
            agree::<serde_json::Number>(text);
            agree::<serde::de::IgnoredAny>(text);
        }
    }

    #[test]
    fn strings_and_names_are_borrowed_where_the_text_allows() {
        let text = r#"{"plain":"text","esc\"":"a\nb","list":["x"]}"#;
        let content: Content<'_> = serde_json::from_str(text).unwrap();
        let Content::Map(members) = &content else {
            panic!("an object: {content:?}");
        };
        assert!(matches!(
            &members[0],
            (Cow::Borrowed("plain"), Content::Str("text"))
        ));
        assert!(
            matches!(&members[1], (Cow::Owned(k), Content::String(v)) if k == "esc\"" && v == "a\nb")
        );
        assert!(matches!(&members[2].1, Content::Seq(items) if items == &[Content::Str("x")]));
        assert_eq!(content.kind(), Json::Object);
        assert_eq!(content.member("plain").and_then(View::text), Some("text"));
        assert_eq!(
            content.member_names().collect::<Vec<_>>(),
            ["plain", "esc\"", "list"]
        );
        assert_eq!(
            content.member("list").and_then(View::first_item),
            Some(&Content::Str("x"))
        );
    }
}
