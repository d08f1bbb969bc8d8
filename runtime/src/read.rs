//! The one decoder: a type read from JSON text in the same pass that checks the text.
//!
//! The [JSON layer](super::json)'s parser is a serde [`Deserializer`](de::Deserializer)
//! here: every byte it hands a type was checked as it was read (UTF-8 came with the
//! `&str`; syntax, numbers a double holds, no lone surrogate, no member name given twice in
//! any object, the nesting limit), and a value a type skips is checked by the same code
//! that checks a whole message. So no text is read twice to be trusted.
//!
//! Errors: the parser notes, as an error comes out through the objects and arrays around
//! it, the member or index of each ([`Parser::steps`]), which gives the path of an error
//! of the schema without decoding anything again. When decoding fails, the text is
//! checked whole ([`json::check_value`](super::json::check_value)): a fault of the JSON
//! layer anywhere in it is the answer, as it was before anything was decoded, so the same
//! text gives the same error by every entry point, whatever part of it a type read first.
//!
//! A union ([`union`](super::union)) is handed the text at its value (as the variant of
//! its `EnumAccess`, a borrowed string) to choose its arm from, which reads the value only
//! as far as the choice needs (a tag that comes first: the tag alone), and the arm is then
//! decoded from the parser in place.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde_json::Error;

use super::json::{Fault, Key, Names, Note, Parser, Step};

/// The name under which `serde_json`'s [`RawValue`](serde_json::value::RawValue) asks a
/// deserializer for the raw text of a value.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A fault of the JSON layer, as the error a type's decoder passes on. Only that there is
/// one matters: the text is checked whole to say what and where (module docs).
#[cold]
fn fault(f: Fault<'_>) -> Error {
    <Error as de::Error>::custom(f.what())
}

/// A number as serde_json hands it to a visitor: an integer that fits `u64` or `i64`
/// written as digits alone, anything else a double (`-0` included).
enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl<'de> Parser<'de> {
    /// Reads a number (at its first character).
    fn read_number(&mut self) -> Result<Number, Fault<'de>> {
        let start = self.at;
        let negative = self.bytes.get(self.at) == Some(&b'-');
        match self.number()? {
            Some(n) if !negative => return Ok(Number::U64(n)),
            Some(0) => return Ok(Number::F64(-0.0)),
            Some(n) if n <= 1 << 63 => return Ok(Number::I64((n as i64).wrapping_neg())),
            _ => {}
        }
        // The nearest double, as serde_json reads it with `float_roundtrip` (which this
        // crate turns on), so that it is the same bits either way and writes back as read.
        match self.text[start..self.at].parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number::F64(f)),
            _ => {
                self.at = start;
                Err(self.fail("number out of range"))
            }
        }
    }

    /// Reads a string (at its quote): borrowed when it has no escapes.
    pub(crate) fn read_string(&mut self) -> Result<std::borrow::Cow<'de, str>, Fault<'de>> {
        let (raw, escaped) = self.string()?;
        Ok(if escaped {
            std::borrow::Cow::Owned(super::json::unescape(raw))
        } else {
            std::borrow::Cow::Borrowed(raw)
        })
    }

    /// The error `e` of a visitor given an object or array at `start`: one it refused
    /// before reading anything (`untouched`) is placed at its bracket, as serde_json
    /// places it (the reading stops here either way).
    #[cold]
    fn refused(&mut self, untouched: bool, start: usize, e: Error) -> Error {
        if untouched {
            self.at = start;
        }
        e
    }

    /// The error `e` of a union whose value starts at `start`, placed where a union has
    /// always placed it: after its value, whatever part of the value its arm read.
    #[cold]
    fn after_union(&mut self, start: usize, e: Error) -> Error {
        let mut value = Parser::new(&self.text[start..], 0);
        if value.value(Note::No).is_ok() {
            self.at = start + value.at;
        }
        e
    }

    /// Moves past one value by its structure alone (strings, brackets), checking nothing:
    /// to find what follows a value that is read later, in place, checked then. `None`
    /// where the structure does not close (the reading that follows says what is wrong).
    pub(crate) fn skim(&mut self) -> Option<&'de str> {
        self.ws();
        let start = self.at;
        let mut open = 0usize;
        loop {
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    self.skim_string()?;
                }
                b'{' | b'[' => {
                    open += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    open = open.checked_sub(1)?;
                    self.at += 1;
                }
                b',' | b':' if open > 0 => self.at += 1,
                b' ' | b'\t' | b'\n' | b'\r' if open > 0 => self.at += 1,
                b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => return None,
                _ => {
                    // A scalar: up to what ends it.
                    while !matches!(
                        self.bytes.get(self.at),
                        None | Some(
                            b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b':' | b'"'
                        )
                    ) {
                        self.at += 1;
                    }
                }
            }
            if open == 0 {
                return Some(&self.text[start..self.at]);
            }
        }
    }

    /// Moves past the rest of a string (after its opening quote), checking nothing.
    fn skim_string(&mut self) -> Option<()> {
        loop {
            self.plain();
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// Skips one value, checking it: its text.
    pub(crate) fn skip(&mut self) -> Result<&'de str, Fault<'de>> {
        self.ws();
        let start = self.at;
        self.value(Note::No)?;
        Ok(&self.text[start..self.at])
    }

    /// Decodes one value of `seed` and checks that nothing but whitespace follows.
    pub(crate) fn whole<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let value = seed.deserialize(&mut *self)?;
        self.ws();
        if self.at < self.bytes.len() {
            return Err(fault(self.fail("trailing characters")));
        }
        Ok(value)
    }

    /// The object at its `{`, given to `visitor`. Compiled once per visitor (once per
    /// generated type), so all but the visitor's call is in the functions it calls.
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let start = self.at;
        self.open().map_err(fault)?;
        // Built here, not returned by a function: it is too large to be moved cheaply.
        let mut members = Members {
            p: &mut *self,
            first: true,
            done: false,
            names: Names::new(),
            key: Key::default(),
        };
        match visitor.visit_map(&mut members) {
            Ok(value) => members.finish().map(|()| value),
            Err(e) => Err(members.abandon(start, e)),
        }
    }

    /// The array at its `[`, given to `visitor` (as [`visit_object`](Self::visit_object)).
    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let start = self.at;
        let mut items = Items::open(self).map_err(fault)?;
        match visitor.visit_seq(&mut items) {
            Ok(value) => items.finish().map(|()| value),
            Err(e) => Err(items.abandon(start, e)),
        }
    }

    /// The error a visitor that takes only an object (or only an array) gives the value
    /// here, read as [`deserialize_any`](de::Deserializer::deserialize_any) reads it for
    /// any visitor.
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, expected: &dyn de::Expected) -> Error {
        /// A visitor that takes nothing, expecting what `0` expects.
        struct Refuse<'x>(&'x dyn de::Expected);
        impl<'de> Visitor<'de> for Refuse<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
        match de::Deserializer::deserialize_any(self, Refuse(expected)) {
            Err(e) => e,
            Ok(()) => de::Error::invalid_type(de::Unexpected::Map, expected),
        }
    }

    /// The path of the error being returned, from the steps noted on its way out.
    pub(crate) fn path(&self) -> String {
        let mut path = String::new();
        for step in self.steps.iter().rev() {
            match step {
                Step::Key(key) => super::path::push_key(&mut path, &key.name()),
                Step::Index(i) => super::path::push_index(&mut path, *i),
            }
        }
        path
    }
}

impl<'de> de::Deserializer<'de> for &mut Parser<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'{') => self.visit_object(visitor),
            Some(b'[') => self.visit_array(visitor),
            Some(b'"') => match self.read_string().map_err(fault)? {
                std::borrow::Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                std::borrow::Cow::Owned(s) => visitor.visit_string(s),
            },
            Some(b't') => {
                self.literal(b"true").map_err(fault)?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false").map_err(fault)?;
                visitor.visit_bool(false)
            }
            Some(b'n') => {
                self.literal(b"null").map_err(fault)?;
                visitor.visit_unit()
            }
            Some(b'-' | b'0'..=b'9') => match self.read_number().map_err(fault)? {
                Number::U64(n) => visitor.visit_u64(n),
                Number::I64(n) => visitor.visit_i64(n),
                Number::F64(n) => visitor.visit_f64(n),
            },
            Some(_) => Err(fault(self.fail("expected a value"))),
            None => Err(fault(self.fail("EOF while parsing a value"))),
        }
    }

    /// An object, as every generated type with properties asks for one: anything else is
    /// refused by code compiled once, not once per type.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.ws();
        if self.bytes.get(self.at) == Some(&b'{') {
            self.visit_object(visitor)
        } else {
            Err(self.refuse(&visitor))
        }
    }

    /// An array, as every `Vec` asks for one: anything else is refused as
    /// [`deserialize_map`](de::Deserializer::deserialize_map) refuses what is not an object.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.ws();
        if self.bytes.get(self.at) == Some(&b'[') {
            self.visit_array(visitor)
        } else {
            Err(self.refuse(&visitor))
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.ws();
        if self.bytes.get(self.at) == Some(&b'n') {
            self.literal(b"null").map_err(fault)?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match name {
            super::path::UNION => visitor.visit_enum(Union { p: self, start: 0 }),
            RAW_VALUE_TOKEN => {
                let raw = self.skip().map_err(fault)?;
                let entry = std::iter::once((RAW_VALUE_TOKEN, raw));
                visitor.visit_map(de::value::MapDeserializer::new(entry))
            }
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'"') => match self.read_string().map_err(fault)? {
                std::borrow::Cow::Borrowed(s) => {
                    visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s))
                }
                std::borrow::Cow::Owned(s) => visitor.visit_enum(s.into_deserializer()),
            },
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.skip().map_err(fault)?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct tuple tuple_struct struct identifier
    }
}

/// The members of the object being read.
pub(crate) struct Members<'p, 'de> {
    p: &'p mut Parser<'de>,
    first: bool,
    /// Whether its `}` was read.
    done: bool,
    names: Names<'de>,
    /// The member whose value is next.
    key: Key<'de>,
}

impl<'p, 'de> Members<'p, 'de> {
    /// The members of the object at `p` (at its `{`, which it reads).
    pub(crate) fn open(p: &'p mut Parser<'de>) -> Result<Self, Fault<'de>> {
        p.open()?;
        Ok(Members {
            p,
            first: true,
            done: false,
            names: Names::new(),
            key: Key::default(),
        })
    }

    /// The parser, at the value of the member [`next_name`](Self::next_name) gave.
    pub(crate) fn parser(&mut self) -> &mut Parser<'de> {
        self.p
    }

    /// Reads up to the next member's value: its name, or `None` at the end.
    pub(crate) fn next_name(&mut self) -> Result<Option<Key<'de>>, Fault<'de>> {
        if self.done {
            return Ok(None);
        }
        let p = &mut *self.p;
        if self.first {
            self.first = false;
            if p.bytes.get(p.at) == Some(&b'}') {
                return Ok(self.close());
            }
        } else {
            p.ws();
            match p.bytes.get(p.at) {
                Some(b',') => {
                    p.at += 1;
                    p.ws();
                }
                Some(b'}') => return Ok(self.close()),
                Some(_) => return Err(p.fail("expected `,` or `}`")),
                None => return Err(p.fail("EOF while parsing a value")),
            }
        }
        let p = &mut *self.p;
        if p.bytes.get(p.at) != Some(&b'"') {
            return Err(p.fail("expected a member name"));
        }
        let (raw, escaped) = p.string()?;
        let key = Key { raw, escaped };
        if self.names.repeated(key) {
            let what = format!("duplicate member `{}`", key.name());
            p.steps.push(Step::Key(key));
            return Err(p.fail(&what));
        }
        p.ws();
        if p.bytes.get(p.at) != Some(&b':') {
            return Err(p.fail("expected `:`"));
        }
        p.at += 1;
        self.key = key;
        Ok(Some(key))
    }

    /// Whether the member whose value is next is `_meta` (then at its value).
    #[inline(never)]
    fn meta_start(&mut self) -> bool {
        let meta = self.key.name() == super::jsonrpc::META;
        if meta {
            self.p.ws();
        }
        meta
    }

    /// The error `e` of the value of the member whose value is next, on its way out.
    #[cold]
    #[inline(never)]
    fn in_member(&mut self, e: Error) -> Error {
        self.p.steps.push(Step::Key(self.key));
        e
    }

    /// Reads the `}`.
    fn close(&mut self) -> Option<Key<'de>> {
        self.p.at += 1;
        self.p.depth -= 1;
        self.done = true;
        None
    }

    /// The members the visitor left, checked and skipped, and the `}`.
    #[inline(never)]
    fn finish(&mut self) -> Result<(), Error> {
        while self.next_name().map_err(fault)?.is_some() {
            self.p.skip().map_err(fault)?;
        }
        Ok(())
    }

    /// The error `e` the visitor gave, placed (see [`Parser::refused`]).
    #[cold]
    #[inline(never)]
    fn abandon(&mut self, start: usize, e: Error) -> Error {
        self.p.refused(self.first, start, e)
    }
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(key) = self.next_name().map_err(fault)? else {
            return Ok(None);
        };
        let name = if key.escaped {
            seed.deserialize(super::json::unescape(key.raw).into_deserializer())
        } else {
            seed.deserialize(de::value::BorrowedStrDeserializer::new(key.raw))
        };
        match name {
            Ok(name) => Ok(Some(name)),
            Err(e) => {
                self.p.steps.push(Step::Key(key));
                Err(e)
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        // Only the members of a message's params are looked at for `_meta`.
        let meta = self.p.depth == self.p.meta_depth && self.meta_start();
        let start = self.p.at;
        match seed.deserialize(&mut *self.p) {
            Ok(value) => {
                if meta {
                    self.p.meta = Some(&self.p.text[start..self.p.at]);
                }
                Ok(value)
            }
            Err(e) => Err(self.in_member(e)),
        }
    }
}

/// The elements of the array being read.
struct Items<'p, 'de> {
    p: &'p mut Parser<'de>,
    index: usize,
    first: bool,
    /// Whether its `]` was read.
    done: bool,
}

impl<'p, 'de> Items<'p, 'de> {
    /// The elements of the array at `p` (at its `[`, which it reads).
    #[inline(never)]
    fn open(p: &'p mut Parser<'de>) -> Result<Self, Fault<'de>> {
        p.open()?;
        Ok(Items {
            p,
            index: 0,
            first: true,
            done: false,
        })
    }

    /// The error `e` the visitor gave, placed (see [`Parser::refused`]).
    #[cold]
    #[inline(never)]
    fn abandon(self, start: usize, e: Error) -> Error {
        self.p.refused(self.first, start, e)
    }

    /// Reads up to the next element: whether there is one.
    fn next(&mut self) -> Result<bool, Fault<'de>> {
        if self.done {
            return Ok(false);
        }
        let p = &mut *self.p;
        if self.first {
            self.first = false;
            if p.bytes.get(p.at) == Some(&b']') {
                return Ok(self.close());
            }
            return Ok(true);
        }
        p.ws();
        match p.bytes.get(p.at) {
            Some(b',') => {
                p.at += 1;
                self.index += 1;
                Ok(true)
            }
            Some(b']') => Ok(self.close()),
            Some(_) => {
                p.steps.push(Step::Index(self.index));
                Err(p.fail("expected `,` or `]`"))
            }
            None => {
                p.steps.push(Step::Index(self.index));
                Err(p.fail("EOF while parsing a value"))
            }
        }
    }

    /// Reads the `]`.
    fn close(&mut self) -> bool {
        self.p.at += 1;
        self.p.depth -= 1;
        self.done = true;
        false
    }

    /// The elements the visitor left, checked and skipped, and the `]`.
    #[inline(never)]
    fn finish(mut self) -> Result<(), Error> {
        while self.next().map_err(fault)? {
            self.p.skip().map_err(fault)?;
        }
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if !self.next().map_err(fault)? {
            return Ok(None);
        }
        match seed.deserialize(&mut *self.p) {
            Ok(value) => Ok(Some(value)),
            Err(e) => {
                self.p.steps.push(Step::Index(self.index));
                Err(e)
            }
        }
    }
}

/// A union's value, as this parser hands it over: the union chooses its arm from the text
/// at the value (`variant_seed`: the rest of the text, unread, as a borrowed string), then
/// the arm is decoded in place.
struct Union<'p, 'de> {
    p: &'p mut Parser<'de>,
    /// Where the value starts.
    start: usize,
}

impl<'de> de::EnumAccess<'de> for Union<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        self.p.ws();
        let start = self.p.at;
        let text = de::value::BorrowedStrDeserializer::<Error>::new(&self.p.text[start..]);
        match seed.deserialize(text) {
            Ok(chosen) => Ok((chosen, Union { start, ..self })),
            Err(e) => Err(self.p.after_union(start, e)),
        }
    }
}

impl<'de> de::VariantAccess<'de> for Union<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Err(de::Error::custom("a union's arm holds a value"))
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        let start = self.start;
        seed.deserialize(&mut *self.p)
            .map_err(|e| self.p.after_union(start, e))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::custom("a union's arm holds a value"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::custom("a union's arm holds a value"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// A double is read as the nearest one, so it writes back as it was written, here and
    /// through `serde_json` alike, in every crate that decodes through the runtime (the
    /// TypeScript SDK sent the first; serde_json without `float_roundtrip` reads it one
    /// unit off, and it wrote back as `8.024155949938942e-13`).
    #[test]
    fn a_double_writes_back_as_it_was_written() {
        for text in [
            "8.024155949938941e-13",
            "0.30000000000000004",
            "1.7976931348623157e+308",
            "5e-324",
            "-2.2250738585072014e-308",
            "123456.789",
        ] {
            let ours: Value = crate::path::from_str(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours.to_string(), text, "{text}");
            assert_eq!(theirs.to_string(), text, "{text}");
        }
        for text in ["1e309", "-1e400"] {
            let e = crate::path::from_str::<Value>(text).unwrap_err();
            assert!(e.to_string().contains("number out of range"), "{text}: {e}");
        }
    }
}
