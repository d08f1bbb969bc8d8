//! Decoding that reports where in the document an error is, as a JSON path
//! (`params.content[0].text`).
//!
//! [`from_str`], [`from_slice`] and [`from_value`] decode any generated type like their
//! `serde_json` namesakes; on error they return a [`DecodeError`] whose
//! [`path`](DecodeError::path) names the offending field. The path is tracked by a thin
//! wrapper around the deserializer that records the position of the innermost error.

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use super::content::{Content, ContentSeed};

/// A decoding error and the JSON path where it happened.
#[derive(Debug)]
pub struct DecodeError {
    path: String,
    inner: serde_json::Error,
    /// Whether the JSON layer refused the text.
    json: bool,
    /// Where the JSON layer found the fault (line, column).
    at: Option<(usize, usize)>,
}

impl DecodeError {
    /// The JSON path of the offending value, e.g. `params.content[0].text`; empty for the
    /// document itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The underlying `serde_json` error (with line and column when decoding text).
    pub fn inner(&self) -> &serde_json::Error {
        &self.inner
    }

    /// The line (from 1) of the fault in the text; 0 where there is no text (a value).
    pub fn line(&self) -> usize {
        self.at.map_or(self.inner.line(), |(line, _)| line)
    }

    /// The column (from 1) of the fault in its line; 0 where there is no text.
    pub fn column(&self) -> usize {
        self.at.map_or(self.inner.column(), |(_, column)| column)
    }

    /// Whether the input was not JSON at all, or was cut short (as opposed to JSON that
    /// does not fit the type).
    pub fn is_syntax(&self) -> bool {
        self.json
            || matches!(
                self.inner.classify(),
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof
            )
    }

    /// The JSON layer's error.
    pub(crate) fn json(e: super::json::JsonError) -> Self {
        DecodeError {
            path: e.path().to_string(),
            inner: <serde_json::Error as de::Error>::custom(format_args!(
                "{} at line {} column {}",
                e.what(),
                e.line(),
                e.column()
            )),
            json: true,
            at: Some((e.line(), e.column())),
        }
    }
}

impl DecodeError {
    /// The same error without serde_json's "at line L column C": positions inside a part
    /// of a message (its `params`) would not point into the message.
    pub(crate) fn without_position(self) -> Self {
        if self.inner.line() == 0 {
            return self;
        }
        let text = self.inner.to_string();
        DecodeError {
            inner: <serde_json::Error as de::Error>::custom(strip_position(&text)),
            path: self.path,
            json: self.json,
            at: self.at,
        }
    }

    /// An error with no path, from a message.
    pub fn custom(message: impl fmt::Display) -> Self {
        DecodeError {
            path: String::new(),
            inner: <serde_json::Error as de::Error>::custom(message),
            json: false,
            at: None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.inner)
        } else {
            write!(f, "at `{}`: {}", self.path, self.inner)
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.inner)
    }
}

/// The path of a "missing field" error, the field named: where the error is seen (the
/// object) and the field's own name (`content[0]` and `text` make `content[0].text`).
fn missing_field_path(path: String, text: &str) -> String {
    let name = strip_position(text)
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'));
    match name {
        Some(name) if path.is_empty() => name.to_string(),
        Some(name) => format!("{path}.{name}"),
        None => path,
    }
}

/// An error's text without the " at line L column C" serde_json ends it with, if it does.
pub(crate) fn strip_position(text: &str) -> &str {
    let Some(at) = text.rfind(" at line ") else {
        return text;
    };
    let mut words = text[at + " at line ".len()..].split(' ');
    let number =
        |w: Option<&str>| w.is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    if number(words.next())
        && words.next() == Some("column")
        && number(words.next())
        && words.next().is_none()
    {
        &text[..at]
    } else {
        text
    }
}

/// Decodes `T` from JSON text, reporting the path of any error.
///
/// The text is checked by the JSON layer first ([the `json` module](super::json): syntax, UTF-8, lone
/// surrogates, numbers, repeated member names, nesting), as every message is, so that
/// the same text gives the same outcome here as inside a message; then decoded.
///
/// The decoding is untracked first; only when that fails is the document read again,
/// whole, and decoded from what was read, tracking the path, to say where. The error
/// reported is the first attempt's, with the path the second found; a missing property
/// names the property itself (`content[0].text`).
pub fn from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, DecodeError> {
    super::json::check(text).map_err(DecodeError::json)?;
    from_checked(text)
}

/// [`from_str`] of text the JSON layer has checked already (a part of a message).
#[doc(hidden)]
pub fn from_checked<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, DecodeError> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(first) => Err(retry::<T>(text, first)),
    }
}

/// Decodes `T` from JSON bytes, reporting the path of any error: as [`from_str`], bytes
/// that are not UTF-8 being a fault of the JSON layer.
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, DecodeError> {
    let (text, _) = super::json::check_bytes(bytes).map_err(DecodeError::json)?;
    from_checked(text)
}

/// The error of a document that failed to decode as `T` untracked (`first`), with the
/// path of the value at fault: the second attempt, tracking the path.
///
/// It decodes the document again from a `Content` read whole, not from the text, so
/// that each type's decoder is compiled for one tracked input, the one a union's buffer
/// already needs, rather than once more for text (with one version, that took the
/// crate's LLVM IR from 758,765 lines to 547,306). Only the decoding of `T` is generic:
/// reading the text and choosing the error are compiled once, not once per type.
#[inline(never)]
fn retry<'de, T: Deserialize<'de>>(text: &'de str, first: serde_json::Error) -> DecodeError {
    match read_whole(text, first) {
        Ok((content, first)) => {
            let second = decode_seed(PhantomData::<T>, content).err();
            second_attempt(first, second)
        }
        Err(error) => error,
    }
}

/// The text read tracked, as one value, so that a syntax error says where it is; or
/// the error to report.
fn read_whole<'de>(
    text: &'de str,
    first: serde_json::Error,
) -> Result<(Content<'de>, serde_json::Error), DecodeError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let content = decode_seed(ContentSeed, &mut de).and_then(|content| {
        de.end().map_err(|inner| DecodeError {
            path: String::new(),
            inner,
            json: false,
            at: None,
        })?;
        Ok(content)
    });
    match content {
        Ok(content) => Ok((content, first)),
        // The first attempt stopped at a wrong value before the syntax error: its error
        // is the one (without a path: the value was not read whole). An error that ends
        // with the syntax error's own words is that error (text the JSON layer checked,
        // as every entry point's is, has none).
        Err(e)
            if (first.line(), first.column()) < (e.inner.line(), e.inner.column())
                && !strip_position(&first.to_string())
                    .ends_with(strip_position(&e.inner.to_string())) =>
        {
            Err(first_error(first))
        }
        Err(e) => Err(e),
    }
}

/// The error of the first attempt, with the path the second found, or the second's
/// where they do not say the same.
fn second_attempt(first: serde_json::Error, second: Option<DecodeError>) -> DecodeError {
    match second {
        Some(second) => {
            let same = strip_position(&first.to_string()) == second.inner.to_string();
            DecodeError {
                path: second.path,
                inner: if same { first } else { second.inner },
                json: false,
                at: None,
            }
        }
        // Not expected: the two ways decode alike. The first attempt's error stands.
        None => first_error(first),
    }
}

fn first_error(first: serde_json::Error) -> DecodeError {
    DecodeError {
        path: String::new(),
        inner: first,
        json: false,
        at: None,
    }
}

/// Decodes `T` from a `serde_json::Value`, reporting the path of any error: the value's
/// text, by [`from_str`], so that a value decodes as its text does.
pub fn from_value<T: de::DeserializeOwned>(value: serde_json::Value) -> Result<T, DecodeError> {
    from_value_ref(&value)
}

/// [`from_value`] of a borrowed value.
pub fn from_value_ref<T: de::DeserializeOwned>(
    value: &serde_json::Value,
) -> Result<T, DecodeError> {
    let text = value.to_string();
    // Positions would point into a text nobody wrote.
    from_str(&text).map_err(DecodeError::without_position)
}

/// Decodes with `seed` from a value a union read whole (a [`Content`]) untracked, through
/// the same wrapper a tracked decode uses (so that the decoders are compiled once, and
/// the same for both), with tracking off: the error has no path.
pub(crate) fn from_seed_untracked<'de, S, D>(seed: S, de: D) -> Result<S::Value, serde_json::Error>
where
    S: DeserializeSeed<'de>,
    D: Deserializer<'de, Error = serde_json::Error>,
{
    let track = Track {
        path: RefCell::new(None),
        enabled: false,
    };
    seed.deserialize(Tracked {
        de,
        at: &Segment::Root,
        track: &track,
    })
}

fn decode_seed<'de, S, D>(seed: S, de: D) -> Result<S::Value, DecodeError>
where
    S: DeserializeSeed<'de>,
    D: Deserializer<'de, Error = serde_json::Error>,
{
    let track = Track::default();
    let root = Segment::Root;
    let result = seed.deserialize(Tracked {
        de,
        at: &root,
        track: &track,
    });
    result.map_err(|inner| track.error(inner))
}

/// Where the error was first seen (the innermost position).
struct Track {
    path: RefCell<Option<String>>,
    /// Off: the wrapper only passes through (no key is copied), for a first attempt
    /// whose error is not reported.
    enabled: bool,
}

impl Default for Track {
    fn default() -> Self {
        Track {
            path: RefCell::new(None),
            enabled: true,
        }
    }
}

impl Track {
    /// `inner` with the path recorded.
    fn error(self, inner: serde_json::Error) -> DecodeError {
        DecodeError {
            path: self.path.into_inner().unwrap_or_default(),
            inner,
            json: false,
            at: None,
        }
    }

    fn fail<E: fmt::Display>(&self, at: &Segment<'_>, e: E) -> E {
        self.record(at, &e);
        e
    }

    /// Records `at` if nothing is recorded: the innermost position, as the error comes
    /// out. A missing property is named by its own path (`content[0].text`), not its
    /// object's.
    #[inline(never)]
    fn record(&self, at: &Segment<'_>, e: &dyn fmt::Display) {
        let mut path = self.path.borrow_mut();
        if path.is_none() {
            *path = Some(missing_field_path(at.render(), &e.to_string()));
        }
    }
}

/// A position in the document, as a linked list from the innermost segment out.
enum Segment<'a> {
    Root,
    Key(&'a Segment<'a>, String),
    Index(&'a Segment<'a>, usize),
}

impl Segment<'_> {
    fn render(&self) -> String {
        let mut segments = Vec::new();
        let mut cur = self;
        while let Segment::Key(parent, _) | Segment::Index(parent, _) = cur {
            segments.push(cur);
            cur = parent;
        }
        let mut out = String::new();
        for segment in segments.iter().rev() {
            match segment {
                Segment::Key(_, key) => push_key(&mut out, key),
                Segment::Index(_, index) => push_index(&mut out, *index),
                Segment::Root => {}
            }
        }
        out
    }
}

/// Adds the property `key` to a path as it is written: `content[0].text`. Shared with
/// [`strict`](crate::strict), whose paths read the same.
pub(crate) fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

/// Adds the array index `index` to a path as it is written.
pub(crate) fn push_index(path: &mut String, index: usize) {
    use std::fmt::Write as _;
    let _ = write!(path, "[{index}]");
}

/// The name `union::deserialize` gives `deserialize_newtype_struct`. Any deserializer
/// hands the union the value itself (`visit_newtype_struct`), which it reads whole and
/// decodes its arm from, untracked; the tracking wrapper instead hands it the value read
/// whole as an enum ([`UnionAccess`]): the variant the union names is its arm, decoded
/// tracked at the union's own position, so that an error inside the arm has its path from
/// the document's root. The state travels with the deserializer, not beside it.
pub(crate) const UNION: &str = "$mcp_spec_rt::union";

/// A union's value read whole, as the tracking wrapper hands it over: the union chooses
/// its arm from the value (`variant_seed`) and the arm is decoded tracked
/// (`newtype_variant_seed`).
struct UnionAccess<'a, 'de, E> {
    content: Content<'de>,
    at: &'a Segment<'a>,
    track: &'a Track,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> EnumAccess<'de> for UnionAccess<'_, 'de, E> {
    type Error = E;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), E> {
        let chosen = seed.deserialize(self.content.clone()).map_err(E::custom)?;
        Ok((chosen, self))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for UnionAccess<'_, 'de, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        Err(E::custom("a union's arm holds a value"))
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, E> {
        seed.deserialize(Tracked {
            de: self.content,
            at: self.at,
            track: self.track,
        })
        .map_err(E::custom)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, E> {
        Err(E::custom("a union's arm holds a value"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, E> {
        Err(E::custom("a union's arm holds a value"))
    }
}

struct Tracked<'a, D> {
    de: D,
    at: &'a Segment<'a>,
    track: &'a Track,
}

struct TrackedVisitor<'a, V> {
    visitor: V,
    at: &'a Segment<'a>,
    track: &'a Track,
}

macro_rules! forward_deserialize {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let (at, track) = (self.at, self.track);
                self.de
                    .$method(TrackedVisitor { visitor, at, track })
                    .map_err(|e| track.fail(at, e))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Tracked<'_, D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any,
        deserialize_bool,
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
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (at, track) = (self.at, self.track);
        self.de
            .deserialize_unit_struct(name, TrackedVisitor { visitor, at, track })
            .map_err(|e| track.fail(at, e))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (at, track) = (self.at, self.track);
        if name == UNION && track.enabled {
            // A union, decoded tracked: it gets its value read whole, as an enum whose
            // variant (the arm it chooses) is decoded from it tracked from here on.
            let content = ContentSeed
                .deserialize(self.de)
                .map_err(|e| track.fail(at, e))?;
            return visitor
                .visit_enum(UnionAccess {
                    content,
                    at,
                    track,
                    error: PhantomData,
                })
                .map_err(|e| track.fail(at, e));
        }
        self.de
            .deserialize_newtype_struct(name, TrackedVisitor { visitor, at, track })
            .map_err(|e| track.fail(at, e))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (at, track) = (self.at, self.track);
        self.de
            .deserialize_tuple(len, TrackedVisitor { visitor, at, track })
            .map_err(|e| track.fail(at, e))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (at, track) = (self.at, self.track);
        self.de
            .deserialize_tuple_struct(name, len, TrackedVisitor { visitor, at, track })
            .map_err(|e| track.fail(at, e))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (at, track) = (self.at, self.track);
        self.de
            .deserialize_struct(name, fields, TrackedVisitor { visitor, at, track })
            .map_err(|e| track.fail(at, e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // Enums in generated code are unit-only string enums; their errors are at `at`.
        let (at, track) = (self.at, self.track);
        self.de
            .deserialize_enum(name, variants, visitor)
            .map_err(|e| track.fail(at, e))
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

impl<'de, 'a, V: Visitor<'de>> Visitor<'de> for TrackedVisitor<'a, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit!(
        visit_bool: bool,
        visit_i8: i8,
        visit_i16: i16,
        visit_i32: i32,
        visit_i64: i64,
        visit_i128: i128,
        visit_u8: u8,
        visit_u16: u16,
        visit_u32: u32,
        visit_u64: u64,
        visit_u128: u128,
        visit_f32: f32,
        visit_f64: f64,
        visit_char: char,
        visit_str: &str,
        visit_borrowed_str: &'de str,
        visit_string: String,
        visit_bytes: &[u8],
        visit_borrowed_bytes: &'de [u8],
        visit_byte_buf: Vec<u8>,
    );

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, de: D2) -> Result<V::Value, D2::Error> {
        self.visitor.visit_some(Tracked {
            de,
            at: self.at,
            track: self.track,
        })
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, de: D2) -> Result<V::Value, D2::Error> {
        self.visitor.visit_newtype_struct(Tracked {
            de,
            at: self.at,
            track: self.track,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_seq(TrackedSeq {
            seq,
            at: self.at,
            track: self.track,
            index: 0,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(TrackedMap {
            map,
            at: self.at,
            track: self.track,
            key: None,
        })
    }
}

struct TrackedSeq<'a, A> {
    seq: A,
    at: &'a Segment<'a>,
    track: &'a Track,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for TrackedSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let at = Segment::Index(self.at, self.index);
        self.index += 1;
        let track = self.track;
        self.seq
            .next_element_seed(TrackedSeed {
                seed,
                at: &at,
                track,
            })
            .map_err(|e| track.fail(&at, e))
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

struct TrackedMap<'a, A> {
    map: A,
    at: &'a Segment<'a>,
    track: &'a Track,
    key: Option<String>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TrackedMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let track = self.track;
        let at = self.at;
        if !track.enabled {
            return self.map.next_key_seed(seed);
        }
        let mut key = None;
        let result = self
            .map
            .next_key_seed(CaptureKey {
                seed,
                key: &mut key,
            })
            .map_err(|e| track.fail(at, e));
        self.key = key;
        result
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let at = Segment::Key(self.at, value_key(&mut self.key, self.track.enabled));
        let track = self.track;
        self.map
            .next_value_seed(TrackedSeed {
                seed,
                at: &at,
                track,
            })
            .map_err(|e| track.fail(&at, e))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The key of the value to be read, as captured (compiled once, not once per map).
#[inline(never)]
fn value_key(key: &mut Option<String>, enabled: bool) -> String {
    match key.take() {
        Some(key) => key,
        None if enabled => "?".to_string(),
        None => String::new(),
    }
}

struct TrackedSeed<'a, S> {
    seed: S,
    at: &'a Segment<'a>,
    track: &'a Track,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for TrackedSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Tracked {
            de,
            at: self.at,
            track: self.track,
        })
    }
}

/// Deserializes a map key while remembering it as a string.
struct CaptureKey<'k, S> {
    seed: S,
    key: &'k mut Option<String>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for CaptureKey<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDeserializer { de, key: self.key })
    }
}

struct KeyDeserializer<'k, D> {
    de: D,
    key: &'k mut Option<String>,
}

macro_rules! forward_key {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.de.$method(KeyVisitor { visitor, key: self.key })
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDeserializer<'_, D> {
    type Error = D::Error;

    forward_key!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_unit_struct(
            name,
            KeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_newtype_struct(
            name,
            KeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_tuple(
            len,
            KeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_tuple_struct(
            name,
            len,
            KeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_struct(
            name,
            fields,
            KeyVisitor {
                visitor,
                key: self.key,
            },
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_enum(name, variants, visitor)
    }
}

struct KeyVisitor<'k, V> {
    visitor: V,
    key: &'k mut Option<String>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        *self.key = Some(v.to_string());
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        *self.key = Some(v.to_string());
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        *self.key = Some(v.clone());
        self.visitor.visit_string(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        *self.key = Some(v.to_string());
        self.visitor.visit_u64(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        *self.key = Some(v.to_string());
        self.visitor.visit_i64(v)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.visitor.visit_bool(v)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        *self.key = Some(String::from_utf8_lossy(v).into_owned());
        self.visitor.visit_bytes(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        *self.key = Some(String::from_utf8_lossy(v).into_owned());
        self.visitor.visit_borrowed_bytes(v)
    }
}
