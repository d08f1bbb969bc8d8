//! How generated unions choose an arm: by facts about the JSON value, never by trying
//! arms in order until one decodes.
//!
//! For a value, [`Union::select`]:
//! 1. keeps the arms whose JSON kind matches (an integer also fits a `number` arm);
//! 2. for an object, if the union has a tag property, keeps the arms whose tag values
//!    contain the value's tag (or, when the tag is absent, the arms where it is optional);
//!    a tag that is a string naming no arm chooses the union's catch-all (`Unknown`), which
//!    keeps the value as it came;
//! 3. if one arm is left, chooses it, so that its own decoder reports what is wrong;
//! 4. otherwise, for an object, keeps the arms whose required properties (including
//!    required properties of required nested objects) are all present, and chooses the one
//!    whose required set contains every other's: the most specific; among arms with the
//!    same required set, the one that declares the most of the properties present, then
//!    the one that declares the fewest properties (the tightest fit); for an array, does
//!    the same with the first element against the arms' item signatures; for an integer,
//!    prefers an `integer` arm to a `number` arm;
//! 5. otherwise fails, naming the union and what did not fit.
//!
//! Arms marked `shadowed` are indistinguishable from another arm on the wire and are
//! never chosen; the generator lists them in its override table.
//!
//! # Reading the value once
//!
//! The crate's one decoder (the runtime's `read.rs`) hands [`deserialize`] the text at the
//! value, unread: the rules read it only as far as they need (for a tagged object whose
//! tag decides, the members up to the tag; for a scalar, its first character), and the
//! chosen arm is then decoded in place, checked as it is read. So a union's value is read
//! once, whatever the member order; only where the rules need more than the tag (an
//! untagged object's property names, an array's first element) are those parts looked at
//! before the arm reads them. The same rules choose the same arm from the same value
//! however it is written, and an error inside the arm has its path and is placed after the
//! union's value, as it always was.
//!
//! `serde_json`'s deserializers (of text, or of a [`Value`]) are asked for the value's text,
//! as their `RawValue`, which the one decoder then reads as above, checks included. Any
//! other deserializer hands the value itself: it is read whole into a [`Value`], the rules
//! pick the arm from it, and the arm decodes that.

use std::fmt;
use std::marker::PhantomData;

use std::borrow::Cow;
use std::cell::OnceCell;

use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_json::Value;

use super::json::Parser;
use super::serde_helpers::Key;

/// The kind of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// A number without fraction that fits `i64` or `u64`.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// What a JSON value must look like for an arm to be chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arm {
    /// The variant name.
    pub name: &'static str,
    /// JSON kind of the arm.
    pub json: Json,
    /// Tag values that select this arm.
    pub tags: &'static [&'static str],
    /// Whether the arm is chosen when the tag is absent.
    pub tag_optional: bool,
    /// Required property paths.
    pub required: &'static [&'static [&'static str]],
    /// For an object arm: every property it declares.
    pub known: &'static [&'static str],
    /// For an arm that is itself a union: its arms, any of which selects this arm.
    pub alts: &'static [Arm],
    /// For an array arm: signatures of its elements.
    pub items: &'static [Arm],
    /// Never chosen on decode (indistinguishable from another arm).
    pub shadowed: bool,
}

/// The decoding facts of one union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Union {
    /// Rust name of the union.
    pub name: &'static str,
    /// The tag property, if the union has one.
    pub tag: Option<&'static str>,
    /// One entry per variant, in declaration order. A tagged union has one variant more,
    /// last, its catch-all (`Unknown`): an object whose tag names no arm chooses it (as
    /// arm `arms.len()`), so that a newer peer's new kind of value is kept
    /// ([`strict`](crate::strict) reports it).
    pub arms: &'static [Arm],
}

/// Why no arm of a union could be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectError {
    /// Rust name of the union.
    pub union: &'static str,
    /// What did not fit.
    pub reason: String,
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.union, self.reason)
    }
}

impl std::error::Error for SelectError {}

/// What the rules read of a JSON value: a [`Value`], or the text at it ([`Raw`]).
pub(crate) trait View {
    /// The kind of the value.
    fn kind(&self) -> Json;
    /// The property `key` of an object; `None` for anything else.
    fn member(&self, key: &str) -> Option<&Self>;
    /// The property names of an object, in order; none for anything else.
    fn member_names(&self) -> impl Iterator<Item = &str>;
    /// The text of a string.
    fn text(&self) -> Option<&str>;
    /// The first element of an array.
    fn first_item(&self) -> Option<&Self>;
    /// The text of the property `key` of an object: `None` when absent, `Some(None)` when
    /// not a string. A view of text reads only as far as the property.
    fn tag(&self, key: &str) -> Option<Option<Cow<'_, str>>> {
        self.member(key).map(|t| t.text().map(Cow::Borrowed))
    }
}

/// A value's text, as the one decoder hands it to a union (from the value's first
/// character to the end of the message: where the value ends is found by reading), read
/// only as far as choosing the arm asks: the tag alone, when it decides. The value is
/// checked when its arm decodes it; text that is not JSON gives no member here, and the
/// decoding that follows says what is wrong.
pub(crate) struct Raw<'a> {
    text: &'a str,
    members: OnceCell<Vec<(Cow<'a, str>, Raw<'a>)>>,
    string: OnceCell<Option<Cow<'a, str>>>,
    first: OnceCell<Option<Box<Raw<'a>>>>,
}

impl<'a> Raw<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Raw {
            text,
            members: OnceCell::new(),
            string: OnceCell::new(),
            first: OnceCell::new(),
        }
    }

    /// The members of an object, each name with the text at its value, in order, given
    /// to `each` until it says stop; fewer when the text is not JSON. The values are
    /// passed by their structure alone, checked when the arm reads them.
    fn scan(&self, mut each: impl FnMut(Cow<'a, str>, &'a str) -> bool) {
        let mut p = Parser::new(self.text, 0);
        if p.bytes.first() != Some(&b'{') {
            return;
        }
        p.at = 1;
        loop {
            p.ws();
            if p.bytes.get(p.at) != Some(&b'"') {
                return;
            }
            let Ok(name) = p.read_string() else {
                return;
            };
            p.ws();
            if p.bytes.get(p.at) != Some(&b':') {
                return;
            }
            p.at += 1;
            p.ws();
            if !each(name, &self.text[p.at..]) || p.skim().is_none() {
                return;
            }
            p.ws();
            if p.bytes.get(p.at) != Some(&b',') {
                return;
            }
            p.at += 1;
        }
    }

    fn members(&self) -> &[(Cow<'a, str>, Raw<'a>)] {
        self.members.get_or_init(|| {
            let mut members = Vec::new();
            self.scan(|name, value| {
                members.push((name, Raw::new(value)));
                true
            });
            members
        })
    }
}

impl View for Raw<'_> {
    fn kind(&self) -> Json {
        match self.text.as_bytes().first() {
            Some(b'{') => Json::Object,
            Some(b'[') => Json::Array,
            Some(b'"') => Json::String,
            Some(b't' | b'f') => Json::Boolean,
            Some(b'n') => Json::Null,
            _ => {
                // A whole number is an integer however it is written (see `number_kind`).
                let mut p = Parser::new(self.text, 0);
                match p.number() {
                    Ok(Some(_)) => Json::Integer,
                    Ok(None) => match self.text[..p.at].parse::<f64>() {
                        Ok(f) if f.fract() == 0.0 => Json::Integer,
                        _ => Json::Number,
                    },
                    Err(_) => Json::Number,
                }
            }
        }
    }

    fn member(&self, key: &str) -> Option<&Self> {
        self.members()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    fn member_names(&self) -> impl Iterator<Item = &str> {
        self.members().iter().map(|(k, _)| k.as_ref())
    }

    fn text(&self) -> Option<&str> {
        self.string
            .get_or_init(|| {
                let mut p = Parser::new(self.text, 0);
                if p.bytes.first() != Some(&b'"') {
                    return None;
                }
                p.read_string().ok()
            })
            .as_deref()
    }

    fn first_item(&self) -> Option<&Self> {
        self.first
            .get_or_init(|| {
                let mut p = Parser::new(self.text, 0);
                if p.bytes.first() != Some(&b'[') {
                    return None;
                }
                p.at = 1;
                p.ws();
                match p.bytes.get(p.at) {
                    None | Some(b']') => None,
                    Some(_) => Some(Box::new(Raw::new(&self.text[p.at..]))),
                }
            })
            .as_deref()
    }

    fn tag(&self, key: &str) -> Option<Option<Cow<'_, str>>> {
        if let Some(members) = self.members.get() {
            let (_, value) = members.iter().find(|(k, _)| k == key)?;
            return Some(value.text().map(Cow::Borrowed));
        }
        // Read up to the tag only.
        let mut found = None;
        self.scan(|name, value| {
            if name != key {
                return true;
            }
            found = Some(value);
            false
        });
        let value = found?;
        let mut p = Parser::new(value, 0);
        Some(match p.bytes.first() {
            Some(b'"') => p.read_string().ok(),
            _ => None,
        })
    }
}

impl View for Value {
    fn kind(&self) -> Json {
        kind_of(self)
    }

    fn member(&self, key: &str) -> Option<&Self> {
        self.as_object()?.get(key)
    }

    fn member_names(&self) -> impl Iterator<Item = &str> {
        self.as_object()
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
    }

    fn text(&self) -> Option<&str> {
        self.as_str()
    }

    fn first_item(&self) -> Option<&Self> {
        self.as_array()?.first()
    }
}

fn kind_of(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(_) => Json::Boolean,
        Value::Number(n) => number_kind(n),
        Value::String(_) => Json::String,
        Value::Array(_) => Json::Array,
        Value::Object(_) => Json::Object,
    }
}

/// A whole number is an integer, however it is written (`1.0`, `1E2`, `-0`), as JSON
/// Schema counts them; an integer arm decodes it (see `serde_helpers::Integer`).
fn number_kind(n: &serde_json::Number) -> Json {
    match n.as_f64() {
        Some(f) if !(n.is_i64() || n.is_u64()) && f.fract() != 0.0 => Json::Number,
        _ => Json::Integer,
    }
}

fn kind_word(k: Json) -> &'static str {
    match k {
        Json::Null => "null",
        Json::Boolean => "a boolean",
        Json::Integer => "an integer",
        Json::Number => "a number",
        Json::String => "a string",
        Json::Array => "an array",
        Json::Object => "an object",
    }
}

fn fits(arm: Json, value: Json) -> bool {
    arm == value || (arm == Json::Number && value == Json::Integer)
}

fn has_path<V: View>(v: &V, path: &[&str]) -> bool {
    let mut cur = v;
    for key in path {
        match cur.member(key) {
            Some(next) => cur = next,
            None => return false,
        }
    }
    true
}

fn is_subset(a: &[&[&str]], b: &[&[&str]]) -> bool {
    a.iter().all(|p| b.contains(p))
}

/// Chooses among `candidates` (index, arm) for an object value by required properties.
fn most_specific<V: View>(candidates: &[(usize, &Arm)], v: &V) -> Result<usize, String> {
    let matching: Vec<&(usize, &Arm)> = candidates
        .iter()
        .filter(|(_, a)| a.required.iter().all(|p| has_path(v, p)))
        .collect();
    let mut winners: Vec<usize> = matching
        .iter()
        .filter(|(_, m)| {
            matching
                .iter()
                .all(|(_, o)| is_subset(o.required, m.required))
        })
        .map(|(i, _)| *i)
        .collect();
    // Several arms of one nested union may win for the same outer arm.
    winners.dedup();
    if let [one] = winners.as_slice() {
        return Ok(*one);
    }
    if matching.is_empty() {
        let needs: Vec<String> = candidates
            .iter()
            .map(|(_, a)| {
                let missing: Vec<String> = a
                    .required
                    .iter()
                    .filter(|p| !has_path(v, p))
                    .map(|p| format!("`{}`", p.join(".")))
                    .collect();
                format!("{} needs {}", a.name, missing.join(", "))
            })
            .collect();
        return Err(format!("no arm fits: {}", needs.join("; ")));
    }
    if winners.len() > 1 {
        // Same required properties: the arm that declares most of what is present, then
        // the one that declares the fewest properties.
        let present = |a: &Arm| v.member_names().filter(|k| a.known.contains(k)).count();
        let rank = |i: usize| {
            let arm = candidates
                .iter()
                .find(|(j, _)| *j == i)
                .map(|(_, a)| *a)
                .expect("winner is a candidate");
            (std::cmp::Reverse(present(arm)), arm.known.len())
        };
        let best = winners
            .iter()
            .map(|&i| rank(i))
            .min()
            .expect("winners is not empty");
        let top: Vec<usize> = winners
            .iter()
            .copied()
            .filter(|&i| rank(i) == best)
            .collect();
        if let [one] = top.as_slice() {
            return Ok(*one);
        }
    }
    let names: Vec<&str> = matching.iter().map(|(_, a)| a.name).collect();
    Err(format!(
        "ambiguous: the properties present fit {} equally well",
        names.join(" and ")
    ))
}

impl Union {
    /// Chooses the arm for `value`, by the rules in the [module docs](self): an index into
    /// `arms`, or `arms.len()` for the catch-all of a tagged union ([`arms`](Self::arms)).
    pub fn select(&self, value: &Value) -> Result<usize, SelectError> {
        self.select_in(value)
    }

    /// [`select`](Self::select), for any [`View`] of the value.
    fn select_in<V: View>(&self, value: &V) -> Result<usize, SelectError> {
        select(self.tag, self.arms, value).map_err(|reason| SelectError {
            union: self.name,
            reason,
        })
    }

    /// The arm for a value at the start of `text` (see [`Raw`]). Not generic, so that the
    /// rules are compiled once, here, rather than in every crate that decodes a union.
    #[inline(never)]
    fn choose_raw(&self, text: &str) -> Result<usize, SelectError> {
        self.select_in(&Raw::new(text))
    }
}

/// A generated union: the facts that choose its arm, and a decoder for each arm.
///
/// Implemented by every generated union; [`deserialize`] is its `Deserialize`.
#[doc(hidden)]
pub trait Arms: Sized {
    /// The facts decoding uses to choose an arm.
    fn facts() -> &'static Union;

    /// Decodes the payload of arm `index` from `deserializer`.
    fn arm<'de, D: Deserializer<'de>>(index: usize, deserializer: D) -> Result<Self, D::Error>;
}

/// `Deserialize`, `Serialize`, [`Arms`] and [`Check`](crate::strict::Check) for a
/// generated union, from its variants in the order of its `DECODE` facts (an associated
/// `const DECODE: Union` the generated code defines beside it), and last, for a tagged
/// union, its catch-all variant (`..Unknown`, holding a `serde_json::Value`), which
/// decodes a value whose tag names no arm and writes it back as it came. An integer arm
/// is marked `int`: it reads any number JSON Schema counts as an integer. The generated
/// modules invoke it after each union:
///
/// ```ignore
/// crate::rt::union_arms! {
///     RequestId {
///         String(String),
///         Integer(i64) int,
///     }
/// }
/// crate::rt::union_arms! {
///     ContentBlock {
///         TextContent(TextContent),
///         ImageContent(ImageContent),
///         ..Unknown,
///     }
/// }
/// ```
#[macro_export]
macro_rules! union_arms {
    // How an arm of type `$ty` is decoded: by serde, or (`int`) as an integer that JSON
    // Schema counts (`1.0`, `1E2`, `-0`).
    (@decode $ty:ty) => {
        <$ty as $crate::serde::Deserialize>::deserialize
    };
    (@decode $ty:ty, int) => {
        <$ty as $crate::serde_helpers::Integer>::decode
    };
    ($name:ident { $( $variant:ident ( $ty:ty ) $($int:ident)? ),* $(, .. $unknown:ident)? $(,)? }) => {
        impl $crate::serde::Serialize for $name {
            fn serialize<__S: $crate::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                match self {
                    $( Self::$variant(value) => $crate::serde::Serialize::serialize(value, serializer), )*
                    $( Self::$unknown(value) => $crate::serde::Serialize::serialize(value, serializer), )?
                }
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                $crate::union::deserialize(deserializer)
            }
        }

        impl $crate::union::Arms for $name {
            fn facts() -> &'static $crate::union::Union {
                &Self::DECODE
            }

            fn arm<'de, __D: $crate::serde::Deserializer<'de>>(
                index: usize,
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                let mut arm = 0usize;
                $(
                    if index == arm {
                        return $crate::union_arms!(@decode $ty $(, $int)?)(deserializer)
                            .map(Self::$variant);
                    }
                    arm += 1;
                )*
                $(
                    if index == arm {
                        return <$crate::serde_json::Value as $crate::serde::Deserialize>::deserialize(
                            deserializer,
                        )
                        .map(Self::$unknown);
                    }
                )?
                let _ = arm;
                ::std::result::Result::Err(<__D::Error as $crate::serde::de::Error>::custom(
                    ::std::format_args!("{} has no arm {index}", ::std::stringify!($name)),
                ))
            }
        }

        impl $crate::strict::Check for $name {
            fn check(&self, path: &mut $crate::strict::Path, found: &mut $crate::strict::Found) {
                match self {
                    $( Self::$variant(value) => $crate::strict::Check::check(value, path, found), )*
                    $( Self::$unknown(value) => $crate::strict::unknown_arm(&Self::DECODE, value, path, found), )?
                }
            }
        }
    };
}

/// Decodes a union, choosing its arm by the rules in the [module docs](self).
pub fn deserialize<'de, U: Arms, D: Deserializer<'de>>(deserializer: D) -> Result<U, D::Error> {
    // Through the newtype hint, so that the one decoder can hand the value over in place
    // (see `path::UNION`); any other deserializer gives the value itself.
    deserializer
        .deserialize_newtype_struct(super::path::UNION, UnionVisitor::<U>(false, PhantomData))
}

/// Decodes a union's value; whether its text was asked for already (a deserializer that
/// does not know the request hands the value itself, read whole then).
struct UnionVisitor<U>(bool, PhantomData<U>);

fn arm_error<U: Arms, E: de::Error>(index: usize, e: impl fmt::Display) -> E {
    let facts = U::facts();
    // Past the arms: a tagged union's catch-all, whose value may be what is wrong (text
    // the one decoder found a fault in as it read it).
    let arm = facts.arms.get(index).map_or("Unknown", |a| a.name);
    E::custom(format_args!("{} (as {arm}): {e}", facts.name))
}

/// Chooses and decodes the arm of a value another deserializer handed over whole: its
/// text, written compactly, read by the one decoder as any other union's. Decoding the
/// arm from the `Value` itself would compile a second decoder of every type an arm
/// reaches, one that reads `Value`s; this path is for deserializers that give neither the
/// text nor the value in place, which the crate's own entry points never are.
fn from_value<U: Arms, E: de::Error>(value: Value) -> Result<U, E> {
    from_text(&value.to_string())
}

/// Chooses and decodes the arm of a value's text (from `serde_json`'s deserializers, as
/// its `RawValue`): by the one decoder, as inside a message.
fn from_text<U: Arms, E: de::Error>(text: &str) -> Result<U, E> {
    let index = U::facts().choose_raw(text).map_err(E::custom)?;
    Parser::new(text, 0)
        .whole(ArmSeed::<U>(index, PhantomData))
        .map_err(|e| arm_error::<U, E>(index, e))
}

/// Chooses the arm of a union's value from the text at it (the variant of the one
/// decoder's [`EnumAccess`]).
struct Choose<U>(PhantomData<U>);

impl<'de, U: Arms> DeserializeSeed<'de> for Choose<U> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, U: Arms> Visitor<'de> for Choose<U> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a value of the union {}", U::facts().name)
    }

    /// The text at the value, unread, from the one decoder: read as far as the choice
    /// needs.
    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<usize, E> {
        U::facts().choose_raw(text).map_err(E::custom)
    }
}

struct ArmSeed<U>(usize, PhantomData<U>);

impl<'de, U: Arms> DeserializeSeed<'de> for ArmSeed<U> {
    type Value = U;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<U, D::Error> {
        U::arm(self.0, deserializer)
    }
}

/// The members of an object handed over whole, `first` (already read) and the rest, as a
/// [`Value`]; a property given twice is an error, as the derived decoders say it.
/// Generic in the input only: compiled once per input, not once per union.
fn object<'de, A: MapAccess<'de>>(first: Key<'de>, mut map: A) -> Result<Value, A::Error> {
    let mut members = serde_json::Map::new();
    let mut key = Some(first);
    while let Some(name) = key {
        let name = name.into_string();
        let value = map.next_value::<Value>()?;
        if members.contains_key(&name) {
            return Err(<A::Error as de::Error>::custom(format_args!(
                "duplicate field `{name}`"
            )));
        }
        members.insert(name, value);
        key = map.next_key()?;
    }
    Ok(Value::Object(members))
}

impl<'de, U: Arms> Visitor<'de> for UnionVisitor<U> {
    type Value = U;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a value of the union {}", U::facts().name)
    }

    /// The value in place, from the one decoder: the arm is chosen from the text at it,
    /// then decoded in place.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<U, A::Error> {
        let (index, arm) = data.variant_seed(Choose::<U>(PhantomData))?;
        arm.newtype_variant_seed(ArmSeed::<U>(index, PhantomData))
            .map_err(|e| arm_error::<U, A::Error>(index, e))
    }

    /// The value itself, from any other deserializer: asked for as its text (which
    /// `serde_json`'s deserializers and `Value` give, as the `RawValue` they know), or
    /// else read whole.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<U, D::Error> {
        if self.0 {
            return from_value(Value::deserialize(deserializer)?);
        }
        let asked = UnionVisitor::<U>(true, PhantomData);
        deserializer.deserialize_newtype_struct(super::read::RAW_VALUE_TOKEN, asked)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        match map.next_key::<Key<'de>>()? {
            Some(key) if key.as_str() == super::read::RAW_VALUE_TOKEN => {
                from_text(map.next_value::<Key<'de>>()?.as_str())
            }
            Some(key) => from_value(object(key, map)?),
            None => from_value(Value::Object(serde_json::Map::new())),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<U, A::Error> {
        from_value(Value::deserialize(de::value::SeqAccessDeserializer::new(
            seq,
        ))?)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<U, E> {
        from_value(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<U, E> {
        from_value(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<U, E> {
        from_value(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<U, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => from_value(Value::Number(n)),
            None => Err(E::custom(format_args!(
                "{}: {v} is not a JSON number",
                U::facts().name
            ))),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<U, E> {
        from_value(Value::from(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<U, E> {
        from_value(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<U, E> {
        from_value(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<U, D::Error> {
        deserialize(deserializer)
    }
}

/// The arms (index, signature) whose JSON kind fits `kind`, in order; an arm that is
/// itself a union takes part through each of its own arms.
fn fitting(arms: &[Arm], kind: Json) -> impl Iterator<Item = (usize, &Arm)> {
    arms.iter()
        .enumerate()
        .filter(|(_, a)| !a.shadowed)
        .flat_map(|(i, a)| {
            let alts = if a.alts.is_empty() {
                std::slice::from_ref(a)
            } else {
                a.alts
            };
            alts.iter().map(move |alt| (i, alt))
        })
        .filter(move |(_, a)| fits(a.json, kind))
}

fn select<V: View>(tag: Option<&str>, arms: &[Arm], value: &V) -> Result<usize, String> {
    let kind = value.kind();
    // Most values leave one arm by their kind and tag: that arm, found without building
    // the candidate list the rest of the rules (and the errors) read.
    let tag_value = match (tag, kind) {
        (Some(tag), Json::Object) => Some(value.tag(tag)),
        _ => None,
    };
    let narrowed = |a: &Arm| match &tag_value {
        None => true,
        Some(None) => a.tag_optional,
        Some(Some(Some(t))) => a.tags.contains(&t.as_ref()),
        // A tag that is not a string: the rules below say so.
        Some(Some(None)) => false,
    };
    let mut left = fitting(arms, kind).filter(|(_, a)| narrowed(a));
    if let Some((first, _)) = left.next() {
        if left.all(|(i, _)| i == first) {
            return Ok(first);
        }
    }
    let mut candidates: Vec<(usize, &Arm)> = fitting(arms, kind).collect();
    if candidates.is_empty() {
        let expected: Vec<&str> = arms.iter().map(|a| kind_word(a.json)).collect();
        return Err(format!(
            "expected {}, found {}",
            expected.join(" or "),
            kind_word(kind)
        ));
    }
    if let (Some(tag), Json::Object) = (tag, kind) {
        match value.member(tag).map(|t| (t, t.text())) {
            Some((_, Some(t))) => {
                candidates.retain(|(_, a)| a.tags.contains(&t));
                if candidates.is_empty() {
                    // The catch-all: a tag no arm names.
                    return Ok(arms.len());
                }
            }
            Some((other, None)) => {
                return Err(format!(
                    "`{tag}` must be a string, found {}",
                    kind_word(other.kind())
                ));
            }
            None => {
                candidates.retain(|(_, a)| a.tag_optional);
                if candidates.is_empty() {
                    return Err(format!("missing `{tag}`"));
                }
            }
        }
    }
    if let Some((first, _)) = candidates.first() {
        if candidates.iter().all(|(i, _)| i == first) {
            // One arm is left: its own decoder reports anything else that is wrong.
            return Ok(*first);
        }
    }
    match kind {
        Json::Object => most_specific(&candidates, value),
        Json::Array => {
            let Some(first) = value.first_item() else {
                return Err("an empty array fits several arms".to_string());
            };
            let item_arms: Vec<(usize, &Arm)> = candidates
                .iter()
                .flat_map(|(i, a)| {
                    a.items
                        .iter()
                        .filter(|it| fits(it.json, first.kind()))
                        .map(move |it| (*i, it))
                })
                .collect();
            if first.kind() == Json::Object {
                let pick =
                    most_specific(&item_arms, first).map_err(|e| format!("first element: {e}"))?;
                Ok(pick)
            } else {
                Err("the first element does not tell the arms apart".to_string())
            }
        }
        _ => {
            if kind == Json::Integer {
                if let Some((i, _)) = candidates.iter().find(|(_, a)| a.json == Json::Integer) {
                    return Ok(*i);
                }
            }
            let names: Vec<&str> = candidates.iter().map(|(_, a)| a.name).collect();
            Err(format!(
                "ambiguous: {} fits {}",
                kind_word(kind),
                names.join(" and ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    //! A scalar is read like any other value: these hold what the union decodes from text
    //! and from a `Value` to what reading the value whole and choosing by the rules gives,
    //! and to the arm the rules name.

    use super::*;

    /// The value read whole, its arm chosen by the rules on the `Value` ([`Union::select`],
    /// not on the text, as decoding chooses), and that arm decoded: the reference the
    /// decoding paths are held to.
    fn whole<U: Arms>(value: &Value) -> Result<U, String> {
        let index = U::facts().select(value).map_err(|e| e.to_string())?;
        let text = value.to_string();
        Parser::new(&text, 0)
            .whole(ArmSeed::<U>(index, PhantomData))
            .map_err(|e| arm_error::<U, serde_json::Error>(index, e).to_string())
    }

    const fn arm(name: &'static str, json: Json) -> Arm {
        Arm {
            name,
            json,
            tags: &[],
            tag_optional: false,
            required: &[],
            known: &[],
            alts: &[],
            items: &[],
            shadowed: false,
        }
    }

    /// A string or an integer.
    #[derive(Debug, PartialEq)]
    enum TextOrInt {
        Text(String),
        Int(i64),
    }

    impl TextOrInt {
        const DECODE: Union = Union {
            name: "TextOrInt",
            tag: None,
            arms: &[arm("Text", Json::String), arm("Int", Json::Integer)],
        };
    }

    crate::union_arms! {
        TextOrInt {
            Text(String),
            Int(i64) int,
        }
    }

    /// An integer, any number or a string.
    #[derive(Debug, PartialEq)]
    enum IntOrNumber {
        Int(i64),
        Num(serde_json::Number),
        Text(String),
    }

    impl IntOrNumber {
        const DECODE: Union = Union {
            name: "IntOrNumber",
            tag: None,
            arms: &[
                arm("Int", Json::Integer),
                arm("Num", Json::Number),
                arm("Text", Json::String),
            ],
        };
    }

    crate::union_arms! {
        IntOrNumber {
            Int(i64) int,
            Num(serde_json::Number),
            Text(String),
        }
    }

    const TEXTS: &[&str] = &[
        r#""a""#,
        r#""\u00e9\n""#,
        "0",
        "-7",
        "9223372036854775807",
        "9223372036854775808",
        "1.5",
        "2.0",
        "1E2",
        "-0",
        "1E300",
        "true",
        "null",
        "[1]",
        r#"{"a":1}"#,
    ];

    /// Decodes each text as `U` from text and from a `Value` and as the value read whole;
    /// all must agree. The arm each text decodes to (or `-` for an error).
    fn agree<U: Arms + PartialEq + fmt::Debug + de::DeserializeOwned>() -> Vec<String> {
        TEXTS
            .iter()
            .map(|text| {
                let value: Value = serde_json::from_str(text).unwrap();
                let full = whole::<U>(&value);
                let from_text = serde_json::from_str::<U>(text)
                    .map_err(|e| super::super::path::strip_position(&e.to_string()).to_string());
                let from_value =
                    serde_json::from_value::<U>(value.clone()).map_err(|e| e.to_string());
                assert_eq!(from_text, full, "{} {text}", U::facts().name);
                assert_eq!(from_value, full, "{} {text}", U::facts().name);
                full.map_or("-".to_string(), |u| {
                    format!("{u:?}")
                        .split('(')
                        .next()
                        .unwrap_or_default()
                        .to_string()
                })
            })
            .collect()
    }

    /// A deserializer that neither hands over the text nor the value in place (serde's own
    /// value deserializers): the value it gives is written and read by the one decoder,
    /// with the same choice.
    #[test]
    fn a_value_from_any_other_deserializer_is_read_as_its_text() {
        use serde::de::value::{Error, F64Deserializer, I64Deserializer, StrDeserializer};
        let text = deserialize::<TextOrInt, _>(StrDeserializer::<Error>::new("a"));
        assert_eq!(text.unwrap(), TextOrInt::Text("a".into()));
        let int = deserialize::<TextOrInt, _>(I64Deserializer::<Error>::new(-7));
        assert_eq!(int.unwrap(), TextOrInt::Int(-7));
        let whole = deserialize::<TextOrInt, _>(F64Deserializer::<Error>::new(2.0));
        assert_eq!(whole.unwrap(), TextOrInt::Int(2));
        let e = deserialize::<TextOrInt, _>(F64Deserializer::<Error>::new(1.5)).unwrap_err();
        assert!(e.to_string().contains("TextOrInt"), "{e}");
        let num = deserialize::<IntOrNumber, _>(F64Deserializer::<Error>::new(1.5));
        assert_eq!(
            num.unwrap(),
            IntOrNumber::Num(serde_json::Number::from_f64(1.5).unwrap())
        );
    }

    #[test]
    fn a_scalar_takes_the_arm_the_rules_choose() {
        // An integer prefers an `integer` arm to a `number` arm (so one past `i64` fails
        // in it); a fraction is no integer arm's. A whole number is an integer however it
        // is written (`2.0`, `1E2`, `-0`), as JSON Schema counts them.
        assert_eq!(
            agree::<TextOrInt>(),
            [
                "Text", "Text", "Int", "Int", "Int", "-", "-", "Int", "Int", "Int", "-", "-", "-",
                "-", "-"
            ]
        );
        assert_eq!(
            agree::<IntOrNumber>(),
            [
                "Text", "Text", "Int", "Int", "Int", "-", "Num", "Int", "Int", "Int", "-", "-",
                "-", "-", "-"
            ]
        );
    }
}
