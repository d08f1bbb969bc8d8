//! Compact JSON out of any [`Serialize`] value, byte for byte what [`serde_json::to_vec`]
//! writes.
//!
//! Much of the time `serde_json` spends writing a message goes to its strings: it looks
//! at every byte of every string (property names included) for one that needs an escape,
//! and pushes each piece through `io::Write`. [`to_vec`] looks at eight bytes at a time
//! (a string shorter than that byte by byte) and copies each run that needs no escape
//! with one `extend_from_slice`. Integers are written here too; floating-point numbers
//! are handed to `serde_json`'s own writer, so that they come out exactly as it writes
//! them. How it compares with `serde_json::to_vec` of the same message as a `Value` is in
//! `docs/performance.md`.
//!
//! The output is the same as `serde_json::to_vec`'s for every value this crate
//! defines, and for any other value whose map keys are strings, integers, booleans or
//! characters (what `serde_json` accepts as keys besides floating-point numbers, which
//! are refused here). `serde_json::value::RawValue` is written as it is, as
//! `serde_json` does (recognised by the shape serde_json gives it, not by its private
//! names). The tests hold the two writers to the same bytes on every value
//! the round-trip tests decode (the official examples, the generated property values)
//! and on every message and result the fuzz harness decodes.

use serde::Serialize;
use serde::ser::{self, Error as _, Impossible};

/// Writes `value` as compact JSON: the bytes [`serde_json::to_vec`] writes.
///
/// # Errors
/// The errors `value`'s `Serialize` implementation raises, and a map key that is not a
/// string, an integer, a boolean or a character.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    write(&mut out, value)?;
    Ok(out)
}

/// `value` as a [`serde_json::Value`]: written by [`to_vec`], then read. Slower than
/// [`serde_json::to_value`] by the read, but a type's `Serialize` is compiled for one
/// serializer, this one, rather than for a second (the runtime's conversions and
/// adapters, and a peer's outgoing params, go through here).
///
/// # Errors
/// As [`to_vec`].
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<serde_json::Value, serde_json::Error> {
    parse(&to_vec(value)?)
}

/// Compact JSON read back as a value; what [`to_value`] does once for every type.
fn parse(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_slice(bytes)
}

/// Appends `value` as compact JSON to `out` (see [`to_vec`]). On an error, `out` keeps
/// what was written before it.
///
/// # Errors
/// As [`to_vec`].
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), serde_json::Error> {
    value.serialize(&mut Writer { out })
}

/// The serializer: a buffer to append to.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

/// For each byte, whether a JSON string must escape it: a control character, `"` or `\`.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

fn needs_escape(byte: u8) -> bool {
    NEEDS_ESCAPE[usize::from(byte)]
}

/// Whether any of the eight bytes in `word` needs an escape. Exact: each test below is
/// non-zero only if some byte matches it (a borrow starts only at such a byte).
fn any_needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let is_quote = quote.wrapping_sub(ONES) & !quote;
    let is_backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | is_quote | is_backslash) & HIGHS != 0
}

/// The first byte at or after `from` that needs an escape: eight bytes are tested at a
/// time, the last few (fewer than eight) one by one.
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        if any_needs_escape(u64::from_le_bytes(*chunk)) {
            return chunk.iter().position(|&b| needs_escape(b)).map(|k| at + k);
        }
        at += 8;
    }
    bytes
        .get(at..)?
        .iter()
        .position(|&b| needs_escape(b))
        .map(|k| at + k)
}

/// Appends `text` as a JSON string, quotes included, escaped as `serde_json` escapes.
fn write_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // A short string (most property names) is looked at byte by byte: cheaper than
    // setting up the word test.
    if bytes.len() < 8 && !bytes.iter().any(|&b| needs_escape(b)) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    // Bytes before `start` are written.
    let mut start = 0;
    while let Some(at) = next_escape(bytes, start) {
        out.extend_from_slice(&bytes[start..at]);
        write_escape(out, bytes[at]);
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The escape of one byte, as `serde_json` writes it: the short form where JSON has one,
/// otherwise `\u00` and two lowercase hex digits.
fn write_escape(out: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

/// Appends the decimal digits of `value`.
fn write_u64(out: &mut Vec<u8>, mut value: u64) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    while value >= 100 {
        let pair = (value % 100) as usize * 2;
        value /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if value >= 10 {
        let pair = value as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        // `value` < 10 here.
        buf[at] = b'0' + value as u8;
    }
    out.extend_from_slice(&buf[at..]);
}

fn write_i64(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    write_u64(out, value.unsigned_abs());
}

/// Hands a value to `serde_json`'s own writer: floating-point numbers and 128-bit
/// integers, so that their text is exactly `serde_json`'s.
fn with_serde_json(
    out: &mut Vec<u8>,
    write: impl FnOnce(&mut serde_json::Serializer<&mut Vec<u8>>) -> Result<(), serde_json::Error>,
) -> Result<(), serde_json::Error> {
    write(&mut serde_json::Serializer::new(out))
}

impl<'a, 'w> ser::Serializer for &'a mut Writer<'w> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'a, 'w>;
    type SerializeTuple = Compound<'a, 'w>;
    type SerializeTupleStruct = Compound<'a, 'w>;
    type SerializeTupleVariant = Compound<'a, 'w>;
    type SerializeMap = Compound<'a, 'w>;
    type SerializeStruct = Compound<'a, 'w>;
    type SerializeStructVariant = Compound<'a, 'w>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Self::Error> {
        self.out
            .extend_from_slice(if v { b"true" as &[u8] } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Self::Error> {
        write_i64(self.out, v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Self::Error> {
        write_i64(self.out, v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Self::Error> {
        write_i64(self.out, v.into());
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Self::Error> {
        write_i64(self.out, v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Self::Error> {
        with_serde_json(self.out, |s| ser::Serializer::serialize_i128(s, v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Self::Error> {
        write_u64(self.out, v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Self::Error> {
        write_u64(self.out, v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Self::Error> {
        write_u64(self.out, v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Self::Error> {
        write_u64(self.out, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Self::Error> {
        with_serde_json(self.out, |s| ser::Serializer::serialize_u128(s, v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Self::Error> {
        with_serde_json(self.out, |s| ser::Serializer::serialize_f32(s, v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Self::Error> {
        with_serde_json(self.out, |s| ser::Serializer::serialize_f64(s, v))
    }
    fn serialize_char(self, v: char) -> Result<(), Self::Error> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Self::Error> {
        // As serde_json: an array of numbers.
        self.out.push(b'[');
        for (k, byte) in v.iter().enumerate() {
            if k > 0 {
                self.out.push(b',');
            }
            write_u64(self.out, (*byte).into());
        }
        self.out.push(b']');
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Self::Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), Self::Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Self::Error> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Self::Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'w>, Self::Error> {
        self.out.push(b'[');
        Ok(Compound::new(self, b"]"))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'w>, Self::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w>, Self::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w>, Self::Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::new(self, b"]}"))
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'w>, Self::Error> {
        self.out.push(b'{');
        Ok(Compound::new(self, b"}"))
    }
    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w>, Self::Error> {
        // `serde_json` writes a `RawValue` (and a `Number` under its `arbitrary_precision`
        // feature) as a struct of one field whose key is the struct's own name, a private
        // marker that starts with `$`; the field's string is JSON text, written as it is.
        // Recognised by that shape, not by serde_json's private names: whether it is one
        // is known at the field, so the brace waits for it.
        if len == 1 && name.starts_with('$') {
            return Ok(Compound {
                writer: self,
                first: true,
                close: b"}",
                marker: Some(name),
            });
        }
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w>, Self::Error> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":{");
        Ok(Compound::new(self, b"}}"))
    }
}

/// An array or object being written: whether the next element is the first (no comma
/// before it), and what closes it.
struct Compound<'a, 'w> {
    writer: &'a mut Writer<'w>,
    first: bool,
    close: &'static [u8],
    /// A struct that may be serde_json's raw-text marker (see `serialize_struct`): its
    /// name, until the first field says whether it is; its `{` is not written yet.
    marker: Option<&'static str>,
}

impl<'a, 'w> Compound<'a, 'w> {
    fn new(writer: &'a mut Writer<'w>, close: &'static [u8]) -> Self {
        Compound {
            writer,
            first: true,
            close,
            marker: None,
        }
    }

    #[inline]
    fn comma(&mut self) {
        if !std::mem::replace(&mut self.first, false) {
            self.writer.out.push(b',');
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), serde_json::Error> {
        self.comma();
        key.serialize(KeyWriter {
            out: &mut *self.writer.out,
        })?;
        self.writer.out.push(b':');
        Ok(())
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        if let Some(marker) = self.marker.take() {
            if key == marker {
                self.close = b"";
                return value.serialize(RawWriter {
                    out: &mut *self.writer.out,
                });
            }
            self.writer.out.push(b'{');
        }
        self.comma();
        write_str(self.writer.out, key);
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn close(self) -> Result<(), serde_json::Error> {
        if self.marker.is_some() {
            // A `$`-named struct that wrote no field: an empty object.
            self.writer.out.push(b'{');
        }
        self.writer.out.extend_from_slice(self.close);
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        value.serialize(&mut *self.writer)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

/// `Serializer` methods of a writer of one kind of value that refuse these scalars, each
/// with the error `$error()`.
macro_rules! refuse_scalars {
    ($error:ident: $($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method(self, _v: $ty) -> Result<(), Self::Error> {
                Err($error())
            }
        )*
    };
}

/// The `Serializer` items of a writer of one kind of value (a map key, a raw value) that
/// refuse bytes, `null`, an option, a unit, and every compound value, each with the error
/// `$error()`.
macro_rules! refuse_compounds {
    ($error:ident) => {
        type SerializeSeq = Impossible<(), serde_json::Error>;
        type SerializeTuple = Impossible<(), serde_json::Error>;
        type SerializeTupleStruct = Impossible<(), serde_json::Error>;
        type SerializeTupleVariant = Impossible<(), serde_json::Error>;
        type SerializeMap = Impossible<(), serde_json::Error>;
        type SerializeStruct = Impossible<(), serde_json::Error>;
        type SerializeStructVariant = Impossible<(), serde_json::Error>;

        fn serialize_bytes(self, _v: &[u8]) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_none(self) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_unit(self) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _value: &T,
        ) -> Result<(), Self::Error> {
            Err($error())
        }
        fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Self::Error> {
            Err($error())
        }
        fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Self::Error> {
            Err($error())
        }
        fn serialize_tuple_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleStruct, Self::Error> {
            Err($error())
        }
        fn serialize_tuple_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleVariant, Self::Error> {
            Err($error())
        }
        fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Self::Error> {
            Err($error())
        }
        fn serialize_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeStruct, Self::Error> {
            Err($error())
        }
        fn serialize_struct_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeStructVariant, Self::Error> {
            Err($error())
        }
    };
}

fn key_must_be_a_string() -> serde_json::Error {
    serde_json::Error::custom("key must be a string")
}

/// Writes a map key: a string as it is; an integer, a boolean or a character as a string
/// of its text, as `serde_json` does. Anything else is refused.
struct KeyWriter<'a> {
    out: &'a mut Vec<u8>,
}

impl KeyWriter<'_> {
    fn quoted(self, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), serde_json::Error> {
        self.out.push(b'"');
        write(self.out);
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    refuse_compounds!(key_must_be_a_string);
    refuse_scalars!(key_must_be_a_string: serialize_f32(f32), serialize_f64(f64));

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Self::Error> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Self::Error> {
        self.quoted(|out| out.extend_from_slice(if v { b"true" as &[u8] } else { b"false" }))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Self::Error> {
        self.quoted(|out| write_i64(out, v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Self::Error> {
        self.quoted(|out| write_i64(out, v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Self::Error> {
        self.quoted(|out| write_i64(out, v.into()))
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Self::Error> {
        self.quoted(|out| write_i64(out, v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Self::Error> {
        self.quoted(|out| write_u64(out, v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Self::Error> {
        self.quoted(|out| write_u64(out, v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Self::Error> {
        self.quoted(|out| write_u64(out, v.into()))
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Self::Error> {
        self.quoted(|out| write_u64(out, v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Self::Error> {
        self.out.push(b'"');
        with_serde_json(self.out, |s| ser::Serializer::serialize_i128(s, v))?;
        self.out.push(b'"');
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Self::Error> {
        self.out.push(b'"');
        with_serde_json(self.out, |s| ser::Serializer::serialize_u128(s, v))?;
        self.out.push(b'"');
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Self::Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
}

/// Writes the text of a `RawValue` (a string of JSON) as it is.
struct RawWriter<'a> {
    out: &'a mut Vec<u8>,
}

fn not_raw() -> serde_json::Error {
    serde_json::Error::custom("expected the text of a RawValue")
}

impl ser::Serializer for RawWriter<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    refuse_compounds!(not_raw);
    refuse_scalars!(not_raw:
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char)
    );

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        self.out.extend_from_slice(v.as_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
    ) -> Result<(), Self::Error> {
        Err(not_raw())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<(), Self::Error> {
        Err(not_raw())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// Every string of one to three characters over an alphabet with every kind of byte
    /// (plain, each escape, a control character, non-ASCII), placed at every offset in
    /// runs longer than one word: the writers agree on each.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let alphabet = [
            'a', '"', '\\', '\n', '\u{1}', '\u{1f}', ' ', '\u{7f}', 'é', '😀', '\t', '\u{8}',
            '\u{c}', '\r', '/',
        ];
        let mut checked = 0;
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    for pad in [0, 1, 5, 7, 8, 9, 15, 16, 17] {
                        let text: String =
                            "x".repeat(pad) + &String::from_iter([a, b, c]) + &"y".repeat(pad);
                        assert_eq!(
                            to_vec(&text).unwrap(),
                            serde_json::to_vec(&text).unwrap(),
                            "{text:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, alphabet.len().pow(3) * 9);
        // Every byte value that is a character on its own, in a long run.
        let all: String = (0u8..0x80).map(char::from).collect::<String>().repeat(3);
        assert_eq!(to_vec(&all).unwrap(), serde_json::to_vec(&all).unwrap());
    }

    #[test]
    fn the_word_test_finds_exactly_the_bytes_that_need_an_escape() {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = byte;
                assert_eq!(
                    any_needs_escape(u64::from_le_bytes(word)),
                    needs_escape(byte),
                    "byte {byte:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them() {
        for v in [
            0u64,
            1,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            12345,
            u64::from(u32::MAX),
            u64::MAX,
            u64::MAX - 1,
        ] {
            assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap());
        }
        for v in [
            0i64,
            -1,
            -9,
            -10,
            -100,
            i64::MIN,
            i64::MAX,
            i64::from(i32::MIN),
        ] {
            assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap());
        }
        for v in [
            0.0f64,
            -0.0,
            1.5,
            1e300,
            -2.5e-300,
            f64::NAN,
            f64::INFINITY,
            0.1 + 0.2,
        ] {
            assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap(), "{v}");
        }
        assert_eq!(
            to_vec(&1.1f32).unwrap(),
            serde_json::to_vec(&1.1f32).unwrap()
        );
        assert_eq!(
            to_vec(&i128::MIN).unwrap(),
            serde_json::to_vec(&i128::MIN).unwrap()
        );
        assert_eq!(
            to_vec(&u128::MAX).unwrap(),
            serde_json::to_vec(&u128::MAX).unwrap()
        );
        for v in [0u8, 7, 200] {
            assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap());
        }
    }

    #[derive(Serialize)]
    enum Shapes {
        Unit,
        Newtype(u8),
        Tuple(u8, &'static str),
        Struct { a: Option<u8>, b: () },
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Wrapper(&'static str);

    #[derive(Serialize)]
    struct Pair(i8, bool);

    #[derive(Serialize)]
    struct Flattened {
        id: u8,
        #[serde(flatten)]
        rest: BTreeMap<String, serde_json::Value>,
    }

    #[test]
    fn every_shape_serde_has_is_written_as_serde_json_writes_it() {
        fn same<T: Serialize>(value: T) {
            assert_eq!(
                String::from_utf8(to_vec(&value).unwrap()).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
        }
        same(Shapes::Unit);
        same(Shapes::Newtype(3));
        same(Shapes::Tuple(1, "x"));
        same(Shapes::Struct { a: None, b: () });
        same(Shapes::Struct { a: Some(2), b: () });
        same(Unit);
        same(Wrapper("w"));
        same(Pair(-1, true));
        same(vec![Shapes::Unit, Shapes::Newtype(0)]);
        same(Vec::<u8>::new());
        same(serde_bytes_like());
        same(('c', "tuple", 1u16));
        same(Flattened {
            id: 1,
            rest: BTreeMap::from([("k".to_owned(), json!([1, {"a": null}]))]),
        });
        same(BTreeMap::from([(1u32, "one"), (20, "twenty")]));
        same(BTreeMap::from([(-1i64, 1)]));
        same(BTreeMap::from([(true, 1)]));
        same(BTreeMap::from([('k', 1)]));
        same(BTreeMap::from([(Wrapper("key"), 1)]));
        same(json!({"a": [1, -2, 3.5, "s\"\n", null, true, {}], "b": {"c": []}, "é": "😀"}));
        same(serde_json::value::RawValue::from_string(r#"{ "raw" : [1, 2] }"#.to_owned()).unwrap());
        // Structs named like a private marker that are not serde_json's raw text: objects.
        same(Dollar(&[("$other", "v")]));
        same(Dollar(&[("$Dollar", "v"), ("x", "y")]));
        same(Dollar(&[]));
        same(vec![Dollar(&[("k", "v")]), Dollar(&[])]);
    }

    /// A struct serialized under the name `$Dollar` with the given fields.
    struct Dollar(&'static [(&'static str, &'static str)]);

    impl Serialize for Dollar {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("$Dollar", self.0.len())?;
            for (k, v) in self.0 {
                st.serialize_field(k, v)?;
            }
            st.end()
        }
    }

    impl PartialEq for Wrapper {
        fn eq(&self, other: &Self) -> bool {
            self.0 == other.0
        }
    }
    impl Eq for Wrapper {}
    impl PartialOrd for Wrapper {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Wrapper {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.cmp(other.0)
        }
    }

    /// A value that serializes as bytes.
    fn serde_bytes_like() -> impl Serialize {
        struct Bytes;
        impl Serialize for Bytes {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_bytes(&[0, 1, 255])
            }
        }
        Bytes
    }

    #[test]
    fn keys_that_are_not_strings_are_refused_with_serde_jsons_message() {
        let map = BTreeMap::from([((1, 2), 3)]);
        let ours = to_vec(&map).unwrap_err().to_string();
        let theirs = serde_json::to_vec(&map).unwrap_err().to_string();
        assert_eq!(ours, theirs);
        assert_eq!(ours, "key must be a string");
    }

    #[test]
    fn errors_raised_by_a_value_come_through() {
        struct Fails;
        impl Serialize for Fails {
            fn serialize<S: ser::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(S::Error::custom("no"))
            }
        }
        assert_eq!(to_vec(&vec![Fails]).unwrap_err().to_string(), "no");
        let mut out = b"kept".to_vec();
        assert!(write(&mut out, &(1, Fails)).is_err());
        assert!(out.starts_with(b"kept[1,"));
    }
}
