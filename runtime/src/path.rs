//! Decoding that reports where in the document an error is, as a JSON path
//! (`params.content[0].text`).
//!
//! [`from_str`], [`from_slice`] and [`from_value`] decode any generated type like their
//! `serde_json` namesakes; on error they return a [`DecodeError`] whose
//! [`path`](DecodeError::path) names the offending field. The path is tracked by a thin
//! wrapper around the deserializer that records the position of the innermost error.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize};

use super::json::Parser;

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
        if self.json || self.at.is_none() {
            return self;
        }
        let text = self.inner.to_string();
        DecodeError {
            inner: <serde_json::Error as de::Error>::custom(strip_position(&text)),
            path: self.path,
            json: false,
            at: None,
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
    // The innermost error's words come last (a union's arm prefixes its own).
    const MISSING: &str = "missing field `";
    let text = strip_position(text);
    let name = text
        .rfind(MISSING)
        .filter(|&at| at == 0 || text[..at].ends_with(": "))
        .and_then(|at| text[at + MISSING.len()..].strip_suffix('`'));
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
/// The text is read once, by the one decoder (the runtime's `read.rs`), which checks it as the JSON
/// layer checks every message ([the `json` module](super::json): syntax, UTF-8, lone
/// surrogates, numbers, repeated member names, nesting) while it decodes, so that the same
/// text gives the same outcome here as inside a message. A fault of the JSON layer
/// anywhere in the text is the error, whatever part of the text `T` read first; otherwise
/// the schema's error, with the path of the value at fault (a missing property names the
/// property itself: `content[0].text`).
pub fn from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, DecodeError> {
    decode_at(text, 0)
}

/// [`from_str`] of a part of a message (its `params` or `result`), one level inside it.
#[doc(hidden)]
pub fn from_checked<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, DecodeError> {
    decode_at(text, 1)
}

/// Decodes `T` from JSON bytes, reporting the path of any error: as [`from_str`], bytes
/// that are not UTF-8 being a fault of the JSON layer.
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, DecodeError> {
    let text = super::json::utf8(bytes).map_err(DecodeError::json)?;
    decode_at(text, 0)
}

/// Decodes `T` from `text`, a value inside `depth` arrays and objects.
pub(crate) fn decode_at<'de, T: Deserialize<'de>>(
    text: &'de str,
    depth: usize,
) -> Result<T, DecodeError> {
    let mut parser = Parser::new(text, depth);
    match parser.whole(PhantomData::<T>) {
        Ok(value) => Ok(value),
        Err(inner) => Err(failed(text, depth, &parser, inner)),
    }
}

/// The error of a decoding that failed with `inner`: the JSON layer's, if the text has a
/// fault anywhere; otherwise `inner`, at the path the parser noted. Not generic: compiled
/// once.
#[cold]
#[inline(never)]
pub(crate) fn failed(
    text: &str,
    depth: usize,
    parser: &Parser<'_>,
    inner: serde_json::Error,
) -> DecodeError {
    if let Err(e) = super::json::check_value(text, depth) {
        return DecodeError::json(e);
    }
    // Where the parser stopped: the last character it read, as serde_json says.
    let (line, column) = super::json::line_column(&text.as_bytes()[..parser.at]);
    let words = inner.to_string();
    DecodeError {
        path: missing_field_path(parser.path(), &words),
        inner: <serde_json::Error as de::Error>::custom(format_args!(
            "{words} at line {line} column {column}"
        )),
        json: false,
        at: Some((line, column)),
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

/// The name `union::deserialize` gives `deserialize_newtype_struct`: the
/// one decoder (`read.rs`) hands the union its own position as an enum, whose variant
/// is the arm, chosen from the text at the value and then decoded in place; any other
/// deserializer hands it the value itself (`visit_newtype_struct`), which it reads whole
/// and decodes its arm from.
pub(crate) const UNION: &str = "$mcp_spec_rt::union";
