//! How generated unions choose an arm: by facts about the JSON value, never by trying
//! arms in order until one decodes.
//!
//! For a value, [`Union::select`]:
//! 1. keeps the arms whose JSON kind matches (an integer also fits a `number` arm);
//! 2. for an object, if the union has a tag property, keeps the arms whose tag values
//!    contain the value's tag (or, when the tag is absent, the arms where it is optional);
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
//! # Buffering
//!
//! [`deserialize`] decodes a string or an integer straight into its arm when the rules
//! choose a plain `String` or `i64` arm, and an object whose first property is the
//! union's tag into the arm that tag selects, when it selects one (the rules then choose
//! that arm whatever else the object holds), as it is read: member by member, each value
//! read whole (so a nested object is buffered, a string borrowed) and handed to the arm's
//! decoder at once. Generated structs write their constant properties (a union's tag among
//! them) first, and so do the official SDKs, so this is the common case. The arm's
//! decoder is the one compiled for a buffered object (the map it reads is the same type),
//! so this way compiles no decoder once more. The unions whose values come in numbers,
//! the item types of arrays (content blocks), go further ([`Arms::STRAIGHT`]): the arm
//! decodes straight from the input, so a text content block costs one allocation, its
//! text, and nothing is read twice; that compiles their arms' decoders once more for each
//! kind of input, which is why the other unions do not.
//!
//! Anything else is first read whole into a cheap buffer, the rules pick the arm from it,
//! and the arm decodes the buffer. The buffer is not a [`serde_json::Value`]: it borrows
//! strings and property names from the input where it can and keeps an object's members
//! in a `Vec`, so a text content block costs two allocations (its members, its text)
//! rather than a `Value`'s five.
//!
//! Errors do not depend on the order: where the path is tracked (the second attempt of
//! [`path::from_str`](super::path::from_str) and the entry points built on it, whose
//! error is the one reported), objects are always read whole; without tracking, an error
//! in an arm decoded straight says what the buffered way says.
//!
//! A method's result union decoded by its method (`ServerResult::decode_text`,
//! `ClientResult::decode_text`, and `rt::jsonrpc::receive_typed` as it reads the message)
//! is not buffered when the rules choose its usual arm (the method's own result rather
//! than a task or a request for input): the value is decoded as that arm while its
//! property names and tag are noted, and the rules then confirm the choice from those
//! ([`usual_arm_from_text`]); otherwise the value is decoded as above.

use std::fmt;
use std::marker::PhantomData;

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::content::{Content, ContentSeed, ContentVisitor, Pull, Pulled};
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
    /// One entry per variant, in declaration order.
    pub arms: &'static [Arm],
    /// The tag values that select one arm each, with that arm, as the rules choose it from
    /// the tag (written by the generator, so that a tag is looked up in a short table
    /// rather than through every arm's facts). Empty: the arms' facts are read instead.
    pub by_tag: &'static [(&'static str, usize)],
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

/// What the rules read of a JSON value: [`Value`], or the cheaper buffer a union reads
/// its value into (`Content`).
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
        Value::Number(n) if n.is_i64() || n.is_u64() => Json::Integer,
        Value::Number(_) => Json::Number,
        Value::String(_) => Json::String,
        Value::Array(_) => Json::Array,
        Value::Object(_) => Json::Object,
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
    /// Chooses the arm for `value`, by the rules in the [module docs](self).
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

    /// The arm for a scalar of kind `kind`, as [`select`](Self::select) chooses it, without
    /// allocating; `None` when no arm fits or the choice is ambiguous (`select` then says
    /// why).
    #[doc(hidden)]
    pub fn select_scalar(&self, kind: Json) -> Option<usize> {
        let mut only = None;
        let mut several = false;
        let mut integer = None;
        for (i, alt) in fitting(self.arms, kind) {
            if alt.json == Json::Integer && integer.is_none() {
                integer = Some(i);
            }
            match only {
                None => only = Some(i),
                Some(j) if j != i => several = true,
                Some(_) => {}
            }
        }
        if several {
            // An integer prefers an `integer` arm to a `number` arm.
            integer.filter(|_| kind == Json::Integer)
        } else {
            only
        }
    }
}

impl Union {
    /// The arm for an object whose tag leaves one arm, as [`select`](Self::select)
    /// chooses it, without allocating; `None` when the union has no tag, the value is not
    /// an object, or its tag leaves no arm or several (`select` then decides or says why).
    #[doc(hidden)]
    pub fn select_by_tag(&self, value: &Value) -> Option<usize> {
        self.select_by_tag_in(value)
    }

    /// [`select_by_tag`](Self::select_by_tag), for any [`View`] of the value.
    fn select_by_tag_in<V: View>(&self, value: &V) -> Option<usize> {
        if value.kind() != Json::Object {
            return None;
        }
        self.arm_for_tag(value.member(self.tag?)?.text()?)
    }

    /// The one object arm the tag value `tag` selects; `None` when it selects none or
    /// several: from [`by_tag`](Self::by_tag), or the arms' facts where that is empty.
    #[inline]
    fn arm_for_tag(&self, tag: &str) -> Option<usize> {
        if self.by_tag.is_empty() {
            return self.arm_for_tag_by_rules(tag);
        }
        let tag = tag.as_bytes();
        self.by_tag
            .iter()
            .find(|(t, _)| t.len() == tag.len() && t.bytes().zip(tag).all(|(a, b)| a == *b))
            .map(|&(_, i)| i)
    }

    /// [`arm_for_tag`](Self::arm_for_tag) from the arms' facts, as the rules choose: what
    /// the generator's [`by_tag`](Self::by_tag) table must say (tested).
    #[doc(hidden)]
    #[inline(never)]
    pub fn arm_for_tag_by_rules(&self, tag: &str) -> Option<usize> {
        // As `fitting(self.arms, Json::Object)` filtered by the tag, in a plain loop: it
        // runs for every tagged object decoded.
        let mut found = None;
        for (i, arm) in self.arms.iter().enumerate() {
            if arm.shadowed {
                continue;
            }
            let selects = if arm.alts.is_empty() {
                tag_selects(arm, tag)
            } else {
                arm.alts.iter().any(|alt| tag_selects(alt, tag))
            };
            match found {
                _ if !selects => {}
                None => found = Some(i),
                Some(j) if j != i => return None,
                Some(_) => {}
            }
        }
        found
    }
}

/// Whether the object arm `arm` (not a union) is selected by the tag value `tag`.
#[inline]
fn tag_selects(arm: &Arm, tag: &str) -> bool {
    arm.json == Json::Object
        && arm
            .tags
            .iter()
            .any(|t| t.len() == tag.len() && t.as_bytes() == tag.as_bytes())
}

/// A generated union: the facts that choose its arm, and a decoder for each arm.
///
/// Implemented by every generated union; [`deserialize`] is its `Deserialize`.
#[doc(hidden)]
pub trait Arms: Sized {
    /// The facts decoding uses to choose an arm.
    fn facts() -> &'static Union;

    /// Whether an object whose tag comes first is decoded straight into its arm from the
    /// input, rather than member by member through the decoders compiled for a buffered
    /// object (see the [module docs](self)). Faster, and dearer to compile: the generator
    /// turns it on for the unions whose values come in numbers, the item types of arrays
    /// (content blocks).
    #[doc(hidden)]
    const STRAIGHT: bool = false;

    /// Decodes the payload of arm `index` from `deserializer`.
    fn arm<'de, D: Deserializer<'de>>(index: usize, deserializer: D) -> Result<Self, D::Error>;

    /// Arm `index` holding the string `v`, when that arm is a plain `String` (which every
    /// string decodes to); otherwise `v` back, to be decoded the general way. It saves
    /// reading the string into a [`Value`] first.
    #[doc(hidden)]
    fn string_arm(index: usize, v: String) -> Result<Self, String> {
        let _ = index;
        Err(v)
    }

    /// Arm `index` holding the integer `v`, when that arm is a plain `i64`; otherwise
    /// `None`, and `v` is decoded the general way.
    #[doc(hidden)]
    fn integer_arm(index: usize, v: i64) -> Option<Self> {
        let _ = (index, v);
        None
    }
}

/// Decodes a union, choosing its arm by the rules in the [module docs](self) and buffering
/// the value only where the rules need all of it.
pub fn deserialize<'de, U: Arms, D: Deserializer<'de>>(deserializer: D) -> Result<U, D::Error> {
    deserializer.deserialize_any(UnionVisitor(PhantomData))
}

struct UnionVisitor<U>(PhantomData<U>);

fn arm_error<U: Arms, E: de::Error>(index: usize, e: impl fmt::Display) -> E {
    let facts = U::facts();
    E::custom(format_args!(
        "{} (as {}): {}",
        facts.name, facts.arms[index].name, e
    ))
}

/// A string: straight into the arm the rules choose when that arm is a plain `String`, as
/// [`buffered`] would decode it; otherwise through [`buffered`].
fn string<'de, U: Arms, E: de::Error>(v: Cow<'de, str>) -> Result<U, E> {
    let v = match U::facts().select_scalar(Json::String) {
        Some(index) => match U::string_arm(index, v.into_owned()) {
            Ok(u) => return Ok(u),
            Err(v) => Cow::Owned(v),
        },
        None => v,
    };
    buffered(match v {
        Cow::Borrowed(v) => Content::Str(v),
        Cow::Owned(v) => Content::String(v),
    })
}

/// An integer that fits `i64`: straight into the arm the rules choose when that arm is a
/// plain `i64`, as [`buffered`] would decode it; otherwise through [`buffered`].
fn integer<U: Arms, E: de::Error>(v: i64) -> Result<U, E> {
    if let Some(u) = U::facts()
        .select_scalar(Json::Integer)
        .and_then(|index| U::integer_arm(index, v))
    {
        return Ok(u);
    }
    buffered(Content::Number(v.into()))
}

impl Union {
    /// The arm for a value read whole: by its tag or its kind alone where that leaves one
    /// arm, otherwise by the full rules. Not generic, so that the rules are compiled once,
    /// here, rather than in every crate that decodes a union.
    #[inline(never)]
    fn choose(&self, value: &Content<'_>) -> Result<usize, SelectError> {
        let quick = match value.kind() {
            Json::Array => None,
            Json::Object => self.select_by_tag_in(value),
            kind => self.select_scalar(kind),
        };
        match quick {
            Some(index) => Ok(index),
            None => self.select_in(value),
        }
    }
}

/// Chooses and decodes the arm of a value read whole.
fn buffered<U: Arms, E: de::Error>(value: Content<'_>) -> Result<U, E> {
    let index = U::facts().choose(&value).map_err(E::custom)?;
    let seed = ArmSeed::<U>(index, PhantomData);
    if super::path::tracking() {
        super::path::from_content_seed(seed, value).map_err(|e| {
            // The path inside the value joins the union's own, where the tracker is.
            super::path::set_inner_path(e.path());
            arm_error::<U, E>(index, e.inner())
        })
    } else {
        super::path::from_seed_untracked(seed, value).map_err(|e| arm_error::<U, E>(index, e))
    }
}

struct ArmSeed<U>(usize, PhantomData<U>);

impl<'de, U: Arms> DeserializeSeed<'de> for ArmSeed<U> {
    type Value = U;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<U, D::Error> {
        U::arm(self.0, deserializer)
    }
}

/// An object: straight into its arm when the union has a tag, the tag is the first
/// property, and its value leaves one arm (the rules then choose that arm whatever else
/// the object holds); otherwise read whole, as [`buffer_object`] does.
///
/// Only while the path is not tracked: the tracked second attempt, whose error is the one
/// reported, reads the object whole, so that errors and their paths are the same whichever
/// order the properties come in.
///
/// The decoded value goes to `out` (which returns it, or pushes it onto an array: see
/// [`PushSeed`]).
#[inline]
fn object<'de, U: Arms, A: MapAccess<'de>, R>(
    mut map: A,
    out: impl FnOnce(U) -> R,
) -> Result<R, A::Error> {
    let facts = U::facts();
    let (Some(tag), false) = (facts.tag, super::path::tracking()) else {
        return buffer_object(map, Vec::new()).map(out);
    };
    let Some(key) = map.next_key::<Key<'de>>()? else {
        return buffered(Content::Map(Vec::new())).map(out);
    };
    let key = key.into_cow();
    let value = map.next_value_seed(ContentSeed)?;
    if key == tag {
        if let Some(index) = value.text().and_then(|t| facts.arm_for_tag(t)) {
            return tag_first(index, tag, value, map, out);
        }
    }
    buffer_object(map, vec![(key, value)]).map(out)
}

/// Decodes arm `index` from an object whose first property, the tag, has been read, and
/// `map` gives the rest.
///
/// For most unions, member by member, each value read whole as it comes (a [`Content`]),
/// through the decoders compiled for a buffered object, so that this way compiles no arm's
/// decoder once more. For a union whose values come in numbers ([`Arms::STRAIGHT`]),
/// straight from `map`: it saves reading each value whole, but compiles every arm's
/// decoder once more for each kind of input. `U::STRAIGHT` is a constant, so the way not
/// taken is not compiled.
///
/// Inlined, as [`object`] is, so that the decoded value is built where the caller wants
/// it rather than copied out through each call (a content block is some 300 bytes).
#[inline]
fn tag_first<'de, U: Arms, A: MapAccess<'de>, R>(
    index: usize,
    tag: &'static str,
    value: Content<'de>,
    map: A,
    out: impl FnOnce(U) -> R,
) -> Result<R, A::Error> {
    if U::STRAIGHT {
        let rest = TagFirst {
            tag: Some(tag),
            value: Some(value),
            map,
        };
        return U::arm(index, de::value::MapAccessDeserializer::new(rest))
            .map(out)
            .map_err(|e| {
                // As `buffered` reports it; the position is the one serde_json adds outside.
                let text = e.to_string();
                arm_error::<U, A::Error>(index, super::path::strip_position(&text))
            });
    }
    let mut rest = Rest {
        first: Some((Cow::Borrowed(tag), value)),
        map,
        error: None,
    };
    let seed = ArmSeed::<U>(index, PhantomData);
    match super::path::from_seed_untracked(seed, Pulled(&mut rest)) {
        Ok(u) => Ok(out(u)),
        // Reading the input failed: that error as it was, with its position.
        Err(_) if rest.error.is_some() => Err(rest.error.take().expect("checked")),
        // The arm's decoder failed: as `buffered` reports it.
        Err(e) => Err(arm_error::<U, A::Error>(index, e)),
    }
}

/// An object whose first property (the tag) has been read: gives it again, then the rest.
struct TagFirst<'de, A> {
    /// The tag's name, until it has been given.
    tag: Option<&'static str>,
    /// The tag's value (a string), until it has been given.
    value: Option<Content<'de>>,
    /// The rest of the object.
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TagFirst<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.tag.take() {
            Some(tag) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(tag))
                .map(Some),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.value.take() {
            // Through the wrapper a buffered value is decoded with, for which every
            // property's decoder is compiled already (a plain string deserializer would
            // compile each once more), though only the tag's is ever given it.
            Some(value) => super::path::from_seed_untracked(seed, value)
                .map_err(<A::Error as de::Error>::custom),
            None => self.map.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint().map(|n| n + 1)
    }
}

/// The members of an object being read: the tag, already read, then the rest of `map`.
struct Rest<'de, A: MapAccess<'de>> {
    first: Option<(Cow<'de, str>, Content<'de>)>,
    map: A,
    /// The error reading `map` gave, handed back as it was.
    error: Option<A::Error>,
}

impl<'de, A: MapAccess<'de>> Rest<'de, A> {
    fn read(&mut self) -> Result<Option<(Cow<'de, str>, Content<'de>)>, A::Error> {
        let Some(key) = self.map.next_key::<Key<'de>>()? else {
            return Ok(None);
        };
        let value = self.map.next_value_seed(ContentSeed)?;
        Ok(Some((key.into_cow(), value)))
    }
}

impl<'de, A: MapAccess<'de>> Pull<'de> for Rest<'de, A> {
    fn pull(&mut self) -> Result<Option<(Cow<'de, str>, Content<'de>)>, serde_json::Error> {
        if let Some(first) = self.first.take() {
            return Ok(Some(first));
        }
        self.read().map_err(|e| {
            let error = <serde_json::Error as de::Error>::custom(&e);
            self.error = Some(e);
            error
        })
    }
}

/// An object, read whole (after `members`, already read); a property given twice is an
/// error.
fn buffer_object<'de, U: Arms, A: MapAccess<'de>>(
    mut map: A,
    mut members: Vec<(Cow<'de, str>, Content<'de>)>,
) -> Result<U, A::Error> {
    let mut names = Names::default();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        let key = key.into_cow();
        if names.repeated(&members, &key) {
            // As the derived decoders say of a property given twice.
            return Err(<A::Error as de::Error>::custom(format_args!(
                "duplicate field `{key}`"
            )));
        }
        members.push((key, map.next_value_seed(ContentSeed)?));
    }
    buffered(Content::Map(members))
}

/// The property names of an object being read, to find one given twice: by looking
/// through the members while there are few, by a set of the names past that (so that a
/// huge object cannot make the check quadratic).
#[derive(Default)]
struct Names(std::collections::HashSet<String>);

impl Names {
    /// Whether `key` is among `members` (the object read so far), noting it.
    #[inline(never)]
    fn repeated(&mut self, members: &[(Cow<'_, str>, Content<'_>)], key: &str) -> bool {
        const SCAN: usize = 16;
        if members.len() < SCAN {
            return members.iter().any(|(k, _)| k == key);
        }
        if self.0.is_empty() {
            self.0.extend(members.iter().map(|(k, _)| k.to_string()));
        }
        !self.0.insert(key.to_string())
    }
}

impl<'de, U: Arms> Visitor<'de> for UnionVisitor<U> {
    type Value = U;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a value of the union {}", U::facts().name)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<U, E> {
        buffered(Content::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<U, E> {
        integer(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<U, E> {
        match i64::try_from(v) {
            Ok(v) => integer(v),
            Err(_) => buffered(Content::Number(v.into())),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<U, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => buffered(Content::Number(n)),
            None => Err(E::custom(format_args!(
                "{}: {v} is not a JSON number",
                U::facts().name
            ))),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<U, E> {
        string(Cow::Owned(v.to_string()))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<U, E> {
        string(Cow::Borrowed(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<U, E> {
        string(Cow::Owned(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<U, E> {
        buffered(Content::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<U, E> {
        buffered(Content::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<U, D::Error> {
        deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<U, A::Error> {
        buffered(ContentVisitor.visit_seq(seq)?)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<U, A::Error> {
        object(map, |u| u)
    }
}

/// Decodes one element of an array of the union `U` and pushes it onto the array, the
/// array growing 1, 2, 4, … elements (as `serde_helpers::fill_seq`'s do).
///
/// The same decoding as [`deserialize`], but the value goes onto the array where it is
/// built, rather than back through each layer that returns it (serde_json's own, the
/// array's `Option`, the push): a content block is some 300 bytes, and those copies took
/// a third of the time of decoding an array of short text blocks.
pub(crate) struct PushSeed<'v, U>(pub(crate) &'v mut Vec<U>);

impl<'de, U: Arms> DeserializeSeed<'de> for PushSeed<'_, U> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(PushVisitor(self.0))
    }
}

struct PushVisitor<'v, U>(&'v mut Vec<U>);

impl<U> PushVisitor<'_, U> {
    #[inline]
    fn push(self, u: U) {
        super::serde_helpers::push_growing(self.0, u);
    }
}

/// Each `visit_*` as [`UnionVisitor`]'s, the value pushed.
macro_rules! push_visits {
    ($($method:ident($($v:ident: $ty:ty)?)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self $(, $v: $ty)?) -> Result<(), E> {
                UnionVisitor::<U>(PhantomData).$method($($v)?).map(|u| self.push(u))
            }
        )*
    };
}

impl<'de, U: Arms> Visitor<'de> for PushVisitor<'_, U> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        UnionVisitor::<U>(PhantomData).expecting(f)
    }

    push_visits!(
        visit_bool(v: bool),
        visit_i64(v: i64),
        visit_u64(v: u64),
        visit_f64(v: f64),
        visit_str(v: &str),
        visit_borrowed_str(v: &'de str),
        visit_string(v: String),
        visit_unit(),
        visit_none(),
    );

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        UnionVisitor::<U>(PhantomData)
            .visit_seq(seq)
            .map(|u| self.push(u))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        object::<U, A, ()>(map, |u| self.push(u))
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
                let known: Vec<&str> = candidates
                    .iter()
                    .flat_map(|(_, a)| a.tags.iter().copied())
                    .collect();
                candidates.retain(|(_, a)| a.tags.contains(&t));
                if candidates.is_empty() {
                    return Err(format!("unknown `{tag}` {t:?}; expected one of {known:?}"));
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

/// Decodes a union of objects from the JSON text of its value in one pass, when the rules
/// choose its usual arm (the arm chosen when a tag is absent, or the first arm of a union
/// without a tag): the text is decoded as that arm while its property names (and the
/// tag's value) are noted, and the result is kept only if the rules, given those, choose
/// that arm. `None` otherwise (the caller then decodes the usual way, which gives the same
/// value or the same error): the value is not an object, a property is given twice, a
/// property is one that a required path goes into (its members would be needed), the tag
/// is not a string, or the usual arm is not the one chosen or does not decode.
///
/// For a method's result union (the result, or a task; the result, or a request for
/// input), whose usual arm is the method's own result: it saves reading the value into a
/// `Value` and decoding that again.
#[doc(hidden)]
pub fn usual_arm_from_text<U: Arms>(text: &str) -> Option<U> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = usual_arm_in::<U, _>(&mut de).ok()??;
    de.end().ok()?;
    Some(value)
}

/// [`usual_arm_from_text`] from a deserializer standing at the value: `Ok(None)` where
/// that gives `None` without an error (the union has no usual arm, and the value is then
/// left unread; or the rules do not confirm the arm), an error where decoding the arm
/// failed. Either way the caller decodes the usual way instead.
pub(crate) fn usual_arm_in<'de, U: Arms, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<U>, D::Error> {
    let facts = U::facts();
    let usual = match facts.tag {
        Some(_) => {
            let mut optional = facts
                .arms
                .iter()
                .enumerate()
                .filter(|(_, a)| a.tag_optional);
            let (Some((index, _)), None) = (optional.next(), optional.next()) else {
                return Ok(None);
            };
            index
        }
        None => 0,
    };
    if facts.arms.get(usual).map(|a| a.json) != Some(Json::Object) {
        return Ok(None);
    }
    let mut notes = Notes {
        keys: Vec::new(),
        object: false,
        tag: facts.tag,
        tag_value: None,
    };
    let value = U::arm(
        usual,
        Noting {
            de: deserializer,
            notes: &mut notes,
        },
    )?;
    if !notes.object {
        return Ok(None);
    }
    let mut sketch = serde_json::Map::new();
    for key in notes.keys {
        if sketch.contains_key(key.as_ref()) || goes_into(facts.arms, &key) {
            return Ok(None);
        }
        let value = if facts.tag == Some(key.as_ref()) {
            match notes.tag_value.take() {
                Some(tag) => Value::String(tag),
                None => return Ok(None),
            }
        } else {
            Value::Null
        };
        sketch.insert(key.into_owned(), value);
    }
    let chosen = facts.select(&Value::Object(sketch)).ok();
    Ok((chosen == Some(usual)).then_some(value))
}

/// Whether some required path of `arms` goes into property `key`.
fn goes_into(arms: &[Arm], key: &str) -> bool {
    arms.iter().any(|a| {
        a.required.iter().any(|p| p.len() > 1 && p[0] == key)
            || goes_into(a.alts, key)
            || goes_into(a.items, key)
    })
}

/// What [`Noting`] saw.
struct Notes<'de> {
    /// The property names of the object, in order.
    keys: Vec<std::borrow::Cow<'de, str>>,
    /// Whether the value was an object.
    object: bool,
    /// The union's tag property, if it has one.
    tag: Option<&'static str>,
    /// The tag's value, when it was a string.
    tag_value: Option<String>,
}

/// A deserializer that notes the property names of the object it yields (not those of
/// objects inside it) and the value of its tag.
struct Noting<'n, 'de, D> {
    de: D,
    notes: &'n mut Notes<'de>,
}

impl<'n, 'de, D: Deserializer<'de>> Deserializer<'de> for Noting<'n, 'de, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let notes = self.notes;
        self.de.deserialize_any(NotingVisitor { visitor, notes })
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let notes = self.notes;
        self.de.deserialize_map(NotingVisitor { visitor, notes })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct struct enum identifier ignored_any
    }
}

/// Passes every visit on; an object's entries go through a [`NotingMap`].
struct NotingVisitor<'n, 'de, V> {
    visitor: V,
    notes: &'n mut Notes<'de>,
}

impl<'n, 'de, V: Visitor<'de>> Visitor<'de> for NotingVisitor<'n, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.notes.object = true;
        self.visitor.visit_map(NotingMap {
            map,
            notes: self.notes,
            at_tag: false,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_seq(seq)
    }

    forward_visit!(
        visit_bool: bool,
        visit_i64: i64,
        visit_u64: u64,
        visit_f64: f64,
        visit_str: &str,
        visit_borrowed_str: &'de str,
        visit_string: String,
    );

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }
}

/// Notes each property name, and the tag's value on its way to the arm's decoder.
struct NotingMap<'n, 'de, A> {
    map: A,
    notes: &'n mut Notes<'de>,
    at_tag: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for NotingMap<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
        let Some(key) = self.map.next_key::<super::serde_helpers::Key<'de>>()? else {
            return Ok(None);
        };
        let key = key.into_cow();
        let value = match &key {
            std::borrow::Cow::Borrowed(k) => seed.deserialize(BorrowedStrDeserializer::new(k))?,
            std::borrow::Cow::Owned(k) => seed.deserialize(StrDeserializer::new(k))?,
        };
        self.at_tag = self.notes.tag == Some(key.as_ref());
        self.notes.keys.push(key);
        Ok(Some(value))
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        if !std::mem::take(&mut self.at_tag) {
            return self.map.next_value_seed(seed);
        }
        // The tag is read as a string (anything else ends this way of decoding), noted,
        // and handed on.
        let tag: String = self.map.next_value()?;
        self.notes.tag_value = Some(tag.clone());
        seed.deserialize(serde::de::value::StringDeserializer::new(tag))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

#[cfg(test)]
mod tests {
    //! A string or an integer goes straight into a plain `String` / `i64` arm; these hold
    //! that shortcut to what reading the value whole and choosing by the rules gives.

    use super::*;
    use serde::Deserialize;

    /// The value read whole and given to the rules, as a union does with an object.
    fn whole<U: Arms>(value: &Value) -> Result<U, String> {
        let content = Content::deserialize(value).map_err(|e| e.to_string())?;
        buffered::<U, serde_json::Error>(content).map_err(|e| e.to_string())
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

    /// Like the generated unions: which of its arms are plain is the `bool`s.
    #[derive(Debug, PartialEq)]
    enum Test {
        Text(String),
        Int(i64),
        Unsigned(u64),
        Num(serde_json::Number),
        Flag(bool),
    }

    thread_local! {
        /// How many values took the shortcut.
        static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// The facts of a test union, and whether its `Text` and `Int` arms are plain.
    trait Facts {
        const FACTS: Union;
        const PLAIN: bool;
    }

    macro_rules! test_union {
        ($name:ident, $plain:expr, [$($arm:expr),*], [$($variant:ident : $ty:ty),*]) => {
            #[derive(Debug, PartialEq)]
            struct $name(Test);
            impl Facts for $name {
                const FACTS: Union = Union { name: stringify!($name), tag: None, arms: &[$($arm),*], by_tag: &[] };
                const PLAIN: bool = $plain;
            }
            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    deserialize(d)
                }
            }
            impl Arms for $name {
                fn facts() -> &'static Union {
                    &<Self as Facts>::FACTS
                }
                fn arm<'de, D: Deserializer<'de>>(index: usize, d: D) -> Result<Self, D::Error> {
                    let mut i = 0;
                    $(
                        if i == index {
                            return <$ty>::deserialize(d).map(|v| $name(Test::$variant(v)));
                        }
                        i += 1;
                    )*
                    let _ = i;
                    Err(de::Error::custom("no such arm"))
                }
                fn string_arm(index: usize, v: String) -> Result<Self, String> {
                    match Self::FACTS.arms.get(index) {
                        Some(a) if Self::PLAIN && a.name == "Text" => {
                            TAKEN.with(|t| t.set(t.get() + 1));
                            Ok($name(Test::Text(v)))
                        }
                        _ => Err(v),
                    }
                }
                fn integer_arm(index: usize, v: i64) -> Option<Self> {
                    match Self::FACTS.arms.get(index) {
                        Some(a) if Self::PLAIN && a.name == "Int" => {
                            TAKEN.with(|t| t.set(t.get() + 1));
                            Some($name(Test::Int(v)))
                        }
                        _ => None,
                    }
                }
            }
        };
    }

    test_union!(TextOrInt, true, [arm("Text", Json::String), arm("Int", Json::Integer)], [Text: String, Int: i64]);
    test_union!(NotPlain, false, [arm("Text", Json::String), arm("Int", Json::Integer)], [Text: String, Int: i64]);
    test_union!(IntOrNumber, true, [arm("Int", Json::Integer), arm("Num", Json::Number), arm("Text", Json::String)], [Int: i64, Num: serde_json::Number, Text: String]);
    test_union!(UnsignedOrFlag, true, [arm("Unsigned", Json::Integer), arm("Flag", Json::Boolean)], [Unsigned: u64, Flag: bool]);
    test_union!(TwoTexts, true, [arm("Text", Json::String), arm("Text", Json::String)], [Text: String, Text: String]);

    const TEXTS: &[&str] = &[
        r#""a""#,
        r#""""#,
        r#""\u00e9\n""#,
        "0",
        "-7",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        "2.0",
        "true",
        "null",
        "[1]",
        r#"{"a":1}"#,
    ];

    /// Decodes each text as `U` (the shortcut, through the deserializer from text and from
    /// a `Value`) and as the value read whole and given to the rules; all must agree. How
    /// many of the texts took the shortcut.
    fn agree<U: Arms + Facts + PartialEq + fmt::Debug + de::DeserializeOwned>() -> usize {
        let mut shortcut = 0;
        for text in TEXTS {
            let value: Value = serde_json::from_str(text).unwrap();
            let full = whole::<U>(&value);
            let before = TAKEN.with(|t| t.get());
            let from_text = serde_json::from_str::<U>(text).map_err(|e| {
                // serde_json adds where in the text; the rules' own error is the same.
                let s = e.to_string();
                s.split(" at line ").next().unwrap_or_default().to_string()
            });
            shortcut += TAKEN.with(|t| t.get()) - before;
            let from_value = serde_json::from_value::<U>(value.clone()).map_err(|e| e.to_string());
            assert_eq!(from_text, full, "{} {text}", U::FACTS.name);
            assert_eq!(from_value, full, "{} {text}", U::FACTS.name);
        }
        shortcut
    }

    #[test]
    fn a_scalar_takes_the_plain_arm_the_rules_choose() {
        let taken = [
            agree::<TextOrInt>(),
            agree::<NotPlain>(),
            agree::<IntOrNumber>(),
            agree::<UnsignedOrFlag>(),
            agree::<TwoTexts>(),
        ];
        // TextOrInt: the 3 strings and the 4 integers that fit i64; IntOrNumber the same
        // (an integer prefers the integer arm); none where no arm is plain, the integer
        // arm is a u64, or the rules leave two arms.
        assert_eq!(taken, [7, 0, 7, 0, 0]);
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn generated_scalar_unions_take_their_plain_arms() {
        use crate::v2026_07_28::{ProgressToken, RequestId};
        for text in TEXTS {
            let value: Value = serde_json::from_str(text).unwrap();
            let quick =
                serde_json::from_value::<ProgressToken>(value.clone()).map_err(|e| e.to_string());
            let full = whole::<ProgressToken>(&value);
            assert_eq!(quick, full, "ProgressToken {text}");
            let quick =
                serde_json::from_value::<RequestId>(value.clone()).map_err(|e| e.to_string());
            let full = whole::<RequestId>(&value);
            assert_eq!(quick, full, "RequestId {text}");
        }
        assert_eq!(
            serde_json::from_str::<ProgressToken>("\"op\"").unwrap(),
            ProgressToken::String("op".into())
        );
        assert_eq!(
            serde_json::from_str::<ProgressToken>("-3").unwrap(),
            ProgressToken::Integer(-3)
        );
    }
}
