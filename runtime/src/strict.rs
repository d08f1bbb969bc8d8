//! Strict validation: what a tolerant decode let through that the version's schema does
//! not allow.
//!
//! Decoding is tolerant, so that a peer speaking a newer version never sinks a message:
//! a tagged union's value with a tag the version does not define (a new content block, a
//! new elicitation mode) decodes into the union's `Unknown` variant, and a string enum's
//! value it does not define (a new role, stop reason or logging level) into the enum's
//! `Unknown` variant; both keep the value and write it back as it came. An optional
//! property sent as `null`, which the schema does not allow either, decodes as absent.
//!
//! Decoding does not check a string against its property's `pattern`, `minLength` or
//! `maxLength` either ([`Text`]).
//!
//! Strictness is a step after decoding, not a second decoder: [`issues`] lists every
//! catch-all and every string that breaks its rule in a decoded value, with its path, and
//! [`from_str`] decodes text, then reports those and every value that re-encoding does not
//! give back (the `null`s). A conformance tool or a strict server refuses what they
//! report; everyone else can ignore it.
//!
//! ```
//! use mcp_spec_types::v2026_07_28::ContentBlock;
//! use mcp_spec_types::rt::strict;
//!
//! let text = r#"{"frames":3,"type":"hologram"}"#;
//! // Tolerant: decodes, and writes back what came.
//! let block: ContentBlock = mcp_spec_types::rt::path::from_str(text).unwrap();
//! assert!(matches!(block, ContentBlock::Unknown(_)));
//! assert_eq!(serde_json::to_string(&block).unwrap(), text);
//! // Strict: reported, with where.
//! let issues = strict::issues(&block);
//! assert_eq!(issues[0].to_string(), "at the root: ContentBlock has no arm for `type` \"hologram\"");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::path::{self, DecodeError};

/// Something the version's schema does not allow, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Where: `content[0].type`, empty for the value itself.
    pub path: String,
    /// What.
    pub kind: IssueKind,
}

/// What a strict check found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IssueKind {
    /// A tagged union's value whose tag names no arm of this version (kept in the union's
    /// `Unknown` variant).
    UnknownArm {
        /// The Rust name of the union.
        union: &'static str,
        /// The tag property.
        tag: &'static str,
        /// The tag's value, as it came.
        value: String,
    },
    /// A string enum's value that this version does not define (kept in the enum's
    /// `Unknown` variant).
    UnknownValue {
        /// The Rust name of the enum.
        enumeration: &'static str,
        /// The value, as it came.
        value: String,
    },
    /// A value decoding accepted but re-encoding does not write back: an optional
    /// property sent as `null` (the schema does not allow `null` there; decoding reads it
    /// as absent).
    NotKept {
        /// The value as it came.
        value: Value,
    },
    /// A string that breaks its property's `pattern`, `minLength` or `maxLength` (a
    /// [`Text`] rule), which decoding does not check.
    Text {
        /// The string, as decoded.
        value: String,
        /// What it breaks: "does not match the pattern `^a+$`", "has 2 characters, fewer
        /// than 3", or "cannot be checked against the pattern `(a+)+$`: the match takes
        /// more than the matcher's bounds" ([`pattern`](crate::pattern)).
        broken: String,
    },
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str("at the root: ")?;
        } else {
            write!(f, "at `{}`: ", self.path)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl fmt::Display for IssueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IssueKind::UnknownArm { union, tag, value } => {
                write!(f, "{union} has no arm for `{tag}` {value:?}")
            }
            IssueKind::UnknownValue { enumeration, value } => {
                write!(f, "{enumeration} has no value {value:?}")
            }
            IssueKind::NotKept { value } => {
                write!(f, "{value} is not allowed here and is not kept")
            }
            IssueKind::Text { value, broken } => {
                // As JSON, and no longer than a line.
                let mut shown = Value::String(value.clone()).to_string();
                if shown.chars().count() > 100 {
                    shown = shown.chars().take(96).collect::<String>() + "...\"";
                }
                write!(f, "{shown} {broken}")
            }
        }
    }
}

impl std::error::Error for Issue {}

/// A position in a value being checked: the path so far, written as
/// [`DecodeError::path`] writes it (`content[0].text`).
#[derive(Debug, Default)]
pub struct Path(String);

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Path {
    fn push_key(&mut self, key: &str) -> usize {
        let len = self.0.len();
        path::push_key(&mut self.0, key);
        len
    }

    fn push_index(&mut self, index: usize) -> usize {
        let len = self.0.len();
        path::push_index(&mut self.0, index);
        len
    }

    fn issue(&self, kind: IssueKind) -> Issue {
        Issue {
            path: self.0.clone(),
            kind,
        }
    }
}

/// What a walk over a value ([`Check::check`]) found: its catch-alls and broken string
/// rules, and the members it holds without declaring them.
#[derive(Debug, Default)]
pub struct Found {
    /// An [`Issue`] for each catch-all and each string that breaks its rule, in document
    /// order.
    pub issues: Vec<Issue>,
    /// The path of each member held without being declared (an open object's `extra`; a
    /// union's unknown arm, all of it), in document order: what a conversion for an older
    /// peer compares to leave out what only the newer version declares
    /// ([`convert::value_down`](crate::convert::value_down)).
    pub undeclared: Vec<String>,
}

/// A value that can say which of its parts are catch-alls and which members it holds
/// without declaring them. Implemented by every generated type (by the per-type macros)
/// and by what they are built of: one walk gives both, so each type has one function.
pub trait Check {
    /// Adds to `found` what `self` holds, `self` being at `path`. By default nothing: a
    /// type of one's own that a seeded crate uses in place of a generated one
    /// (`impl Check for MyType {}`) holds no catch-all the decoder knows of.
    fn check(&self, path: &mut Path, found: &mut Found) {
        let _ = (path, found);
    }
}

/// What a walk over `value` finds.
pub fn found<T: Check + ?Sized>(value: &T) -> Found {
    let mut found = Found::default();
    value.check(&mut Path::default(), &mut found);
    found
}

/// The paths of the members `value` holds without declaring them, in document order.
pub fn undeclared<T: Check + ?Sized>(value: &T) -> Vec<String> {
    found(value).undeclared
}

/// The members of an open object's `extra`, each at its key.
#[doc(hidden)]
pub fn extra_undeclared<E: crate::serde_helpers::Extra>(
    extra: &E,
    path: &mut Path,
    found: &mut Found,
) {
    for key in extra.names() {
        let len = path.push_key(key);
        found.undeclared.push(path.0.clone());
        path.0.truncate(len);
    }
}

/// The catch-alls and the strings that break their rules in `value`, in document order.
/// Empty for a value of this version that keeps its schema's string rules.
pub fn issues<T: Check + ?Sized>(value: &T) -> Vec<Issue> {
    found(value).issues
}

/// What a string property's schema asks of its value beyond being a string: its `pattern`
/// (ECMA-262, read by [`pattern`](crate::pattern)), `minLength` and `maxLength` (in
/// characters, as JSON Schema counts them). Decoding does not check it; the strict step
/// does, for each property the generator gives one (a property whose own schema is a
/// string with any of the three).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text {
    /// The pattern, if any.
    pub pattern: Option<&'static str>,
    /// The fewest characters, if a bound.
    pub min_length: Option<u64>,
    /// The most characters, if a bound.
    pub max_length: Option<u64>,
}

impl Text {
    /// What `value` breaks of this rule, if anything.
    pub fn broken(&self, value: &str) -> Option<String> {
        let length = value.chars().count() as u64;
        if let Some(min) = self.min_length.filter(|min| length < *min) {
            return Some(format!("has {length} characters, fewer than {min}"));
        }
        if let Some(max) = self.max_length.filter(|max| length > *max) {
            return Some(format!("has {length} characters, more than {max}"));
        }
        let pattern = self.pattern?;
        let read = match crate::pattern::Pattern::parse(pattern) {
            Ok(read) => read,
            // The generator gives a rule only patterns the matcher reads.
            Err(e) => {
                return Some(format!(
                    "cannot be checked against the pattern `{pattern}`: {e}"
                ));
            }
        };
        match read.matches(value) {
            Some(true) => None,
            Some(false) => Some(format!("does not match the pattern `{pattern}`")),
            None => Some(format!(
                "cannot be checked against the pattern `{pattern}`: the match takes more \
                 than the matcher's bounds"
            )),
        }
    }
}

/// A string, or an optional one, that a [`Text`] rule applies to.
#[doc(hidden)]
pub trait AsText {
    /// The string, if there is one.
    fn as_text(&self) -> Option<&str>;
}

impl AsText for String {
    fn as_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl AsText for Option<String> {
    fn as_text(&self) -> Option<&str> {
        self.as_deref()
    }
}

/// An optional property that may be `null`.
impl AsText for Option<Option<String>> {
    fn as_text(&self) -> Option<&str> {
        self.as_ref().and_then(Option::as_deref)
    }
}

/// Checks the string property `key` against its rule (the per-type macros call this for
/// each field that has one).
#[doc(hidden)]
pub fn text<T: AsText + ?Sized>(
    value: &T,
    key: &str,
    rule: &Text,
    path: &mut Path,
    found: &mut Found,
) {
    let Some(value) = value.as_text() else {
        return;
    };
    if let Some(broken) = rule.broken(value) {
        let len = path.push_key(key);
        found.issues.push(path.issue(IssueKind::Text {
            value: value.to_string(),
            broken,
        }));
        path.0.truncate(len);
    }
}

/// Walks the property `key` of an object (the per-type macros call this for each field).
#[doc(hidden)]
pub fn field<T: Check + ?Sized>(value: &T, key: &str, path: &mut Path, found: &mut Found) {
    let len = path.push_key(key);
    value.check(path, found);
    path.0.truncate(len);
}

/// The issue of a union's `Unknown` variant (`value` is what it kept), whose value is all
/// undeclared.
#[doc(hidden)]
pub fn unknown_arm(facts: &crate::union::Union, value: &Value, path: &mut Path, found: &mut Found) {
    let tag = facts.tag.unwrap_or("");
    // The catch-all is chosen only for a tag that is a string.
    let value = value
        .get(tag)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    found.issues.push(path.issue(IssueKind::UnknownArm {
        union: facts.name,
        tag,
        value,
    }));
    found.undeclared.push(path.0.clone());
}

/// The issue of a string enum's `Unknown` variant.
#[doc(hidden)]
pub fn unknown_value(enumeration: &'static str, value: &str, path: &mut Path, found: &mut Found) {
    found.issues.push(path.issue(IssueKind::UnknownValue {
        enumeration,
        value: value.to_string(),
    }));
}

/// Nothing in these is a catch-all.
macro_rules! no_catch_all {
    ($($ty:ty),* $(,)?) => {
        $(
            impl Check for $ty {
                fn check(&self, _: &mut Path, _: &mut Found) {}
            }
        )*
    };
}

no_catch_all!(String, str, bool, i64, u64, f64, Number, Value, Map<String, Value>);

impl<T: Check> Check for Option<T> {
    fn check(&self, path: &mut Path, found: &mut Found) {
        if let Some(value) = self {
            value.check(path, found);
        }
    }
}

impl<T: Check + ?Sized> Check for Box<T> {
    fn check(&self, path: &mut Path, found: &mut Found) {
        (**self).check(path, found);
    }
}

impl<T: Check> Check for Vec<T> {
    fn check(&self, path: &mut Path, found: &mut Found) {
        for (index, item) in self.iter().enumerate() {
            let len = path.push_index(index);
            item.check(path, found);
            path.0.truncate(len);
        }
    }
}

impl<T: Check> Check for BTreeMap<String, T> {
    fn check(&self, path: &mut Path, found: &mut Found) {
        for (key, value) in self {
            field(value, key, path, found);
        }
    }
}

/// The map type a seeded crate may choose instead of `BTreeMap` (its members in key order,
/// so that what is found comes in a fixed order).
impl<T: Check, S> Check for std::collections::HashMap<String, T, S> {
    fn check(&self, path: &mut Path, found: &mut Found) {
        let mut members: Vec<_> = self.iter().collect();
        members.sort_by(|a, b| a.0.cmp(b.0));
        for (key, value) in members {
            field(value, key, path, found);
        }
    }
}

/// Why a strict decode failed: the text does not decode, or it decodes with issues.
#[derive(Debug)]
pub enum StrictError {
    /// The text does not decode even tolerantly.
    Decode(DecodeError),
    /// It decodes, but with these issues (in document order: catch-alls and broken string
    /// rules, then the values not written back).
    Issues(Vec<Issue>),
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictError::Decode(e) => e.fmt(f),
            StrictError::Issues(issues) => {
                for (i, issue) in issues.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    issue.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for StrictError {}

/// Decodes `T` from JSON text strictly: as [`path::from_str`], then refused if the value
/// holds a catch-all or a string that breaks its rule ([`issues`]), or if re-encoding it
/// does not give back the text's value (an optional property sent as `null`).
pub fn from_str<T>(text: &str) -> Result<T, StrictError>
where
    T: DeserializeOwned + Serialize + Check,
{
    let value: T = path::from_str(text).map_err(StrictError::Decode)?;
    let mut found = issues(&value);
    // The text decoded, so it is JSON.
    let came: Value =
        serde_json::from_str(text).map_err(|e| StrictError::Decode(DecodeError::custom(e)))?;
    let written =
        crate::write::to_value(&value).map_err(|e| StrictError::Decode(DecodeError::custom(e)))?;
    not_kept(&came, &written, &mut Path::default(), &mut found);
    if found.is_empty() {
        Ok(value)
    } else {
        Err(StrictError::Issues(found))
    }
}

/// Adds an issue for each part of `came` that `written` does not hold as it came.
fn not_kept(came: &Value, written: &Value, path: &mut Path, out: &mut Vec<Issue>) {
    match (came, written) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let len = path.push_key(key);
                match b.get(key) {
                    Some(other) => not_kept(value, other, path, out),
                    None => out.push(path.issue(IssueKind::NotKept {
                        value: value.clone(),
                    })),
                }
                path.0.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                let len = path.push_index(index);
                not_kept(x, y, path, out);
                path.0.truncate(len);
            }
        }
        // 1.0 read into an integer field is written 1: the same number.
        (a, b) if same_json(a, b) => {}
        (a, _) => out.push(path.issue(IssueKind::NotKept { value: a.clone() })),
    }
}

/// Whether two JSON values are equal as JSON Schema compares them: numbers by their value
/// (`1.0`, `1E0` and `1` are one number, as are `-0` and `0`), everything else as
/// `Value`'s `==` does. What a decode-encode round trip must keep.
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

fn same_number(a: &Number, b: &Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_rule_counts_characters_and_matches_its_pattern() {
        let name = Text {
            pattern: Some("^[a-z]+/[a-z]+$"),
            min_length: Some(3),
            max_length: Some(5),
        };
        assert_eq!(name.broken("a/b"), None);
        let short = Text {
            pattern: None,
            min_length: None,
            max_length: Some(3),
        };
        assert_eq!(short.broken("é/é"), None, "characters, not bytes");
        assert_eq!(name.broken("ab").unwrap(), "has 2 characters, fewer than 3");
        assert_eq!(
            name.broken("abc/de").unwrap(),
            "has 6 characters, more than 5"
        );
        assert_eq!(
            name.broken("abcd").unwrap(),
            "does not match the pattern `^[a-z]+/[a-z]+$`"
        );
        let costly = Text {
            pattern: Some("^(a+)+$"),
            min_length: None,
            max_length: None,
        };
        let broken = costly.broken(&format!("{}b", "a".repeat(40))).unwrap();
        assert!(broken.starts_with("cannot be checked"), "{broken}");
        let unread = Text {
            pattern: Some("(?=x)"),
            min_length: None,
            max_length: None,
        };
        assert!(unread.broken("x").unwrap().contains("lookaround"));
    }

    #[test]
    fn a_broken_rule_is_an_issue_at_its_property() {
        let rule = Text {
            pattern: Some("^v1$"),
            min_length: None,
            max_length: None,
        };
        let mut found = Found::default();
        let mut path = Path::default();
        text(
            &Some("v2".to_string()),
            "$schema",
            &rule,
            &mut path,
            &mut found,
        );
        text(&None::<String>, "other", &rule, &mut path, &mut found);
        text(&Some(None::<String>), "null", &rule, &mut path, &mut found);
        assert_eq!(found.issues.len(), 1);
        assert_eq!(
            found.issues[0].to_string(),
            "at `$schema`: \"v2\" does not match the pattern `^v1$`"
        );
        assert!(path.0.is_empty(), "the path is restored");
        let long = format!("{}\n", "v".repeat(500));
        text(&long, "$schema", &rule, &mut path, &mut found);
        let shown = found.issues[1].to_string();
        assert!(shown.starts_with("at `$schema`: \"vvv"), "{shown}");
        assert!(
            shown.contains("v...\" does not match"),
            "shortened: {shown}"
        );
        assert!(shown.len() < 200, "{shown}");
    }
}
