//! The JSON layer: what every message must be before anything else is asked of it.
//!
//! Every way into the crate's decoder checks the whole text here first, in one pass, and
//! only then reads the envelope and decodes the payload. So whatever is wrong at the JSON
//! level, anywhere in a message (inside `params`, inside an unknown member, inside a
//! `_meta`), is found here, answered the same way by every entry point (-32700), and
//! never reaches the typed decoders, whose errors are then about the schema alone.
//!
//! A message must be [I-JSON](https://www.rfc-editor.org/rfc/rfc7493) text, the profile
//! of JSON that parses the same everywhere:
//!
//! - UTF-8, with no lone surrogate in a `\u` escape;
//! - no member name given twice in one object (compared after unescaping): keeping
//!   either would lose the other, and a proxy that keeps the first and a server that
//!   keeps the last would see two different messages;
//! - numbers that fit an IEEE double (`1e400` does not);
//! - at most [`MAX_DEPTH`] arrays and objects nested, the message itself counted;
//! - and plain JSON (RFC 8259): no control characters in strings, no trailing text.
//!
//! While it checks, it notes the members of the message object (and of each object of a
//! batch), and of their `params` objects, as raw text, so that the envelope is read in
//! any member order without reading the text again.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// The most arrays and objects that may be nested in one message, the message itself
/// counted: serde_json's own limit for one document, so that any part of a message
/// decodes within serde_json's limit too.
pub const MAX_DEPTH: usize = 127;

/// Why a text is not a JSON message: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    what: String,
    path: String,
    line: usize,
    column: usize,
}

impl JsonError {
    /// What is wrong, e.g. "duplicate member `name`".
    pub fn what(&self) -> &str {
        &self.what
    }

    /// The JSON path of the value at fault (`params.arguments[2]`); empty at the top.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The line (from 1) of the fault in the text.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column (from 1, in bytes) of the fault in its line.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.what)?;
        if !self.path.is_empty() {
            write!(f, " at `{}`", self.path)?;
        }
        write!(f, " (line {} column {})", self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

/// The members of an object, in order: each name (unescaped) and its value's raw text.
pub(crate) type Members<'a> = Vec<(Cow<'a, str>, &'a str)>;

/// An object whose members were noted (see [`Checked`]).
#[derive(Debug, Default)]
pub(crate) struct Noted<'a> {
    /// Its members.
    pub(crate) members: Members<'a>,
    /// The members of its `params`, when that is an object.
    pub(crate) params: Option<Members<'a>>,
}

/// What the check found at the top of a message.
#[derive(Debug)]
pub(crate) enum Checked<'a> {
    /// An object.
    Object(Noted<'a>),
    /// An array: each element an object (with its members) or something else (its kind).
    Array(Vec<Result<Noted<'a>, &'static str>>),
    /// Anything else: its kind, for messages ("a string").
    Other(&'static str),
}

/// Checks `bytes` (see the [module docs](self)) and notes the message's members.
pub(crate) fn check_bytes(bytes: &[u8]) -> Result<(&str, Checked<'_>), JsonError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        error_at(&bytes[..at], at, "invalid UTF-8".into(), String::new())
    })?;
    check(text).map(|checked| (text, checked))
}

/// A key of an open object: its raw text (without quotes) and whether it has escapes.
#[derive(Clone, Copy)]
struct Key<'a> {
    raw: &'a str,
    escaped: bool,
}

impl<'a> Key<'a> {
    fn name(self) -> Cow<'a, str> {
        if self.escaped {
            Cow::Owned(unescape(self.raw))
        } else {
            Cow::Borrowed(self.raw)
        }
    }

    fn same(self, other: Key<'_>) -> bool {
        if !self.escaped && !other.escaped {
            self.raw == other.raw
        } else {
            self.name() == other.name()
        }
    }
}

/// What an open object notes, if anything.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Note {
    /// Nothing.
    No,
    /// Its members, as a message (index into `noted`).
    Message(usize),
    /// Its members, as the `params` of message `noted[_]`.
    Params(usize),
}

struct Frame<'a> {
    object: bool,
    /// Where the container starts (its `[` or `{`).
    start: usize,
    /// Where this object's keys start in `keys`.
    keys: usize,
    /// The index of the element being read (arrays).
    index: usize,
    note: Note,
    /// Whether the value of this object's last member is being read.
    in_value: bool,
    /// The names of a large object, so that a repeated one is found without a quadratic
    /// scan.
    names: Option<HashSet<Cow<'a, str>>>,
}

/// Past this many members, an object's names go into a set.
const SCAN: usize = 16;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    frames: Vec<Frame<'a>>,
    /// The keys of the open objects, outermost first.
    keys: Vec<Key<'a>>,
    noted: Vec<Noted<'a>>,
    /// For a top-level array: each element, an object (its index in `noted`) or a kind.
    elements: Vec<Result<usize, &'static str>>,
}

/// Checks `text` (see the [module docs](self)) and notes the message's members.
pub(crate) fn check(text: &str) -> Result<Checked<'_>, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        frames: Vec::with_capacity(8),
        keys: Vec::with_capacity(16),
        noted: Vec::with_capacity(1),
        elements: Vec::new(),
    };
    p.ws();
    let first = p.bytes.get(p.at).copied();
    p.value()?;
    p.ws();
    if p.at < p.bytes.len() {
        return Err(p.fail("trailing characters"));
    }
    let mut noted: Vec<Option<Noted<'_>>> = p.noted.into_iter().map(Some).collect();
    Ok(match first {
        Some(b'{') => Checked::Object(noted[0].take().unwrap_or_default()),
        Some(b'[') => Checked::Array(
            p.elements
                .into_iter()
                .map(|e| e.map(|i| noted[i].take().unwrap_or_default()))
                .collect(),
        ),
        Some(b) => Checked::Other(kind(b)),
        None => Checked::Other("nothing"),
    })
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The bytes of `v` (eight, little-endian) that are a quote, a backslash or a control
/// character, as the high bit of each: the lowest one set is exact (bits above it may be
/// set by a borrow and mean nothing).
#[inline]
fn special(v: u64) -> u64 {
    let control = v.wrapping_sub(LO * 0x20) & !v;
    let quote = v ^ (LO * u64::from(b'"'));
    let backslash = v ^ (LO * u64::from(b'\\'));
    (control | (quote.wrapping_sub(LO) & !quote) | (backslash.wrapping_sub(LO) & !backslash)) & HI
}

impl<'a> Parser<'a> {
    /// Reads one value, and the containers it opens, iteratively (no recursion, so that
    /// nesting cannot exhaust the stack before the limit is seen).
    fn value(&mut self) -> Result<(), JsonError> {
        'value: loop {
            self.ws();
            let start = self.at;
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.fail("EOF while parsing a value"));
            };
            match b {
                b'{' | b'[' => {
                    if self.frames.len() >= MAX_DEPTH {
                        return Err(self.fail(&format!(
                            "nesting deeper than {MAX_DEPTH} arrays and objects"
                        )));
                    }
                    let object = b == b'{';
                    let note = if object {
                        self.note_for_object()
                    } else {
                        Note::No
                    };
                    self.frames.push(Frame {
                        object,
                        start,
                        keys: self.keys.len(),
                        index: 0,
                        note,
                        in_value: false,
                        names: None,
                    });
                    self.at += 1;
                    self.ws();
                    let close = if object { b'}' } else { b']' };
                    if self.bytes.get(self.at) == Some(&close) {
                        self.at += 1;
                        self.close()?;
                    } else if object {
                        self.key()?;
                        continue 'value;
                    } else {
                        continue 'value;
                    }
                }
                b'"' => {
                    self.string()?;
                    self.done(start, None);
                }
                b't' => self.literal(b"true", start)?,
                b'f' => self.literal(b"false", start)?,
                b'n' => self.literal(b"null", start)?,
                b'-' | b'0'..=b'9' => {
                    self.number()?;
                    self.done(start, None);
                }
                _ => return Err(self.fail("expected a value")),
            }
            // A value is done: go on in the containers around it.
            loop {
                let Some(frame) = self.frames.last_mut() else {
                    return Ok(());
                };
                let object = frame.object;
                self.ws();
                match self.bytes.get(self.at) {
                    Some(b',') => {
                        self.at += 1;
                        if object {
                            self.ws();
                            self.key()?;
                        } else if let Some(frame) = self.frames.last_mut() {
                            frame.index += 1;
                        }
                        continue 'value;
                    }
                    Some(b'}') if object => {
                        self.at += 1;
                        self.close()?;
                    }
                    Some(b']') if !object => {
                        self.at += 1;
                        self.close()?;
                    }
                    Some(_) if object => return Err(self.fail("expected `,` or `}`")),
                    Some(_) => return Err(self.fail("expected `,` or `]`")),
                    None => return Err(self.fail("EOF while parsing a value")),
                }
            }
        }
    }

    /// Closes the innermost container (its closing bracket read).
    #[inline]
    fn close(&mut self) -> Result<(), JsonError> {
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        self.keys.truncate(frame.keys);
        let noted = match frame.note {
            Note::Message(i) => Some(i),
            _ => None,
        };
        self.done(frame.start, noted);
        Ok(())
    }

    /// A value from `start` to here is done: notes it where its container notes members.
    /// `noted`: the message object it is, if it is one.
    #[inline]
    fn done(&mut self, start: usize, noted: Option<usize>) {
        let Some(parent) = self.frames.last_mut() else {
            return;
        };
        parent.in_value = false;
        let parent = &*parent;
        if !parent.object {
            if self.frames.len() == 1 {
                self.elements
                    .push(noted.ok_or_else(|| kind(self.bytes[start])));
            }
            return;
        }
        let (i, params) = match parent.note {
            Note::No => return,
            Note::Message(i) => (i, false),
            Note::Params(i) => (i, true),
        };
        let Some(key) = self.keys.last() else {
            return;
        };
        let member = (key.name(), &self.text[start..self.at]);
        let noted = &mut self.noted[i];
        if params {
            noted.params.get_or_insert_with(Vec::new).push(member);
        } else {
            noted.members.push(member);
        }
    }

    /// What an object about to open notes: a message (at the top, or an element of the
    /// top array), the `params` of a message, or nothing.
    fn note_for_object(&mut self) -> Note {
        let message = match self.frames.as_slice() {
            [] => true,
            [top] => !top.object,
            _ => false,
        };
        if message {
            self.noted.push(Noted {
                members: Vec::with_capacity(6),
                params: None,
            });
            return Note::Message(self.noted.len() - 1);
        }
        match (self.frames.last(), self.keys.last()) {
            (Some(parent), Some(key)) if parent.object => match parent.note {
                Note::Message(i) if key.name() == "params" => {
                    // A repeated `params` fails before this; the set is for this object.
                    self.noted[i].params = Some(Vec::with_capacity(6));
                    Note::Params(i)
                }
                _ => Note::No,
            },
            _ => Note::No,
        }
    }

    /// Reads a member's name and its colon; a name the object has already is an error.
    fn key(&mut self) -> Result<(), JsonError> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(self.fail("expected a member name"));
        }
        let (raw, escaped) = self.string()?;
        let key = Key { raw, escaped };
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let mine = &self.keys[frame.keys..];
        let repeated = if mine.len() < SCAN {
            mine.iter().any(|k| k.same(key))
        } else {
            let names = frame
                .names
                .get_or_insert_with(|| mine.iter().map(|k| k.name()).collect());
            !names.insert(key.name())
        };
        self.keys.push(key);
        if repeated {
            // Named with the member's own path.
            frame.in_value = true;
            return Err(self.fail(&format!("duplicate member `{}`", key.name())));
        }
        self.ws();
        if self.bytes.get(self.at) != Some(&b':') {
            return Err(self.fail("expected `:`"));
        }
        self.at += 1;
        if let Some(frame) = self.frames.last_mut() {
            frame.in_value = true;
        }
        Ok(())
    }

    /// Reads a string (at its opening quote): its raw inside, and whether it has escapes.
    fn string(&mut self) -> Result<(&'a str, bool), JsonError> {
        self.at += 1;
        let start = self.at;
        let mut escaped = false;
        loop {
            // Eight bytes at a time up to the first that needs a look.
            while let Some(chunk) = self.bytes.get(self.at..self.at + 8) {
                let mut eight = [0; 8];
                eight.copy_from_slice(chunk);
                let found = special(u64::from_le_bytes(eight));
                if found != 0 {
                    self.at += (found.trailing_zeros() / 8) as usize;
                    break;
                }
                self.at += 8;
            }
            match self.bytes.get(self.at) {
                None => return Err(self.fail("EOF while parsing a string")),
                Some(b'"') => {
                    let raw = &self.text[start..self.at];
                    self.at += 1;
                    return Ok((raw, escaped));
                }
                Some(b'\\') => {
                    escaped = true;
                    self.at += 1;
                    self.escape()?;
                }
                Some(0..=0x1f) => {
                    return Err(self
                        .fail("control character (\\u0000-\\u001F) found while parsing a string"));
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// Reads an escape (after its backslash).
    fn escape(&mut self) -> Result<(), JsonError> {
        match self.bytes.get(self.at) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.at += 1;
                Ok(())
            }
            Some(b'u') => {
                self.at += 1;
                let unit = self.hex4()?;
                match unit {
                    0xDC00..=0xDFFF => Err(self.fail("lone surrogate in a \\u escape")),
                    0xD800..=0xDBFF => {
                        if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                            return Err(self.fail("lone surrogate in a \\u escape"));
                        }
                        self.at += 2;
                        match self.hex4()? {
                            0xDC00..=0xDFFF => Ok(()),
                            _ => Err(self.fail("lone surrogate in a \\u escape")),
                        }
                    }
                    _ => Ok(()),
                }
            }
            None => Err(self.fail("EOF while parsing a string")),
            Some(_) => Err(self.fail("invalid escape")),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut unit = 0;
        for _ in 0..4 {
            let digit = match self.bytes.get(self.at) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(self.fail("EOF while parsing a string")),
            };
            let Some(digit) = digit else {
                return Err(self.fail("invalid \\u escape"));
            };
            unit = unit * 16 + digit;
            self.at += 1;
        }
        Ok(unit)
    }

    /// Reads a number; one a double cannot hold is an error, as serde_json says.
    fn number(&mut self) -> Result<(), JsonError> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let int = self.at;
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fail("invalid number")),
        }
        let int_digits = self.at - int;
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        let mut exponent = false;
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            exponent = true;
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if !self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        // Without an exponent and with at most 300 digits before the point, a number is
        // below 1e300; otherwise serde_json says whether a double holds it.
        if (exponent || int_digits > 300)
            && serde_json::from_str::<f64>(&self.text[start..self.at]).is_err()
        {
            self.at = start;
            return Err(self.fail("number out of range"));
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &[u8], start: usize) -> Result<(), JsonError> {
        if self.bytes.get(self.at..self.at + word.len()) != Some(word) {
            return Err(self.fail("expected a value"));
        }
        self.at += word.len();
        self.done(start, None);
        Ok(())
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// An error here, with the path of the value being read.
    #[cold]
    fn fail(&self, what: &str) -> JsonError {
        // At the end of the text, the last character, as serde_json says.
        let at = self.at.min(self.bytes.len().saturating_sub(1));
        error_at(&self.bytes[..at], at, what.to_string(), self.path())
    }

    /// The path of the value being read: each open container's member name or index.
    fn path(&self) -> String {
        let mut out = String::new();
        for (i, frame) in self.frames.iter().enumerate() {
            if frame.object {
                let inner = self.frames.get(i + 1);
                let end = inner.map_or(self.keys.len(), |inner| inner.keys);
                if end > frame.keys && (inner.is_some() || frame.in_value) {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&self.keys[end - 1].name());
                }
            } else {
                out.push_str(&format!("[{}]", frame.index));
            }
        }
        out
    }
}

/// The JSON kind of a value, from its first character, for messages ("a string").
pub(crate) fn kind(first: u8) -> &'static str {
    match first {
        b'{' => "an object",
        b'[' => "an array",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

/// The text of a valid JSON string's inside, unescaped.
fn unescape(raw: &str) -> String {
    let quoted = format!("\"{raw}\"");
    serde_json::from_str::<String>(&quoted).unwrap_or_else(|_| raw.to_string())
}

/// An error at byte `at` (`prefix` is the text before it, for the line and column).
fn error_at(prefix: &[u8], at: usize, what: String, path: String) -> JsonError {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at
        - prefix
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    JsonError {
        what,
        path,
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

    /// serde_json's reading, and a repeated member name anywhere an error: what `check`
    /// must accept exactly.
    struct Reference;

    impl<'de> Deserialize<'de> for Reference {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Reference)
        }
    }

    impl<'de> Visitor<'de> for Reference {
        type Value = Reference;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_unit<E>(self) -> Result<Self, E> {
            Ok(Reference)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
            while seq.next_element::<Reference>()?.is_some() {}
            Ok(Reference)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
            let mut seen = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key) {
                    return Err(serde::de::Error::custom("duplicate"));
                }
                map.next_value::<Reference>()?;
            }
            Ok(Reference)
        }
    }

    fn agree(text: &str) {
        let ours = check(text);
        let reference = serde_json::from_str::<Reference>(text);
        assert_eq!(
            ours.is_ok(),
            reference.is_ok(),
            "{text:?}: ours {:?}, serde_json {:?}",
            ours.err(),
            reference.err()
        );
    }

    const TEXTS: &[&str] = &[
        "",
        " ",
        "null",
        "true",
        "false",
        "nul",
        "truex",
        "0",
        "-0",
        "01",
        "-",
        "1.",
        "1.5",
        ".5",
        "1e5",
        "1E+5",
        "1e-5",
        "1e",
        "1e+",
        "-1.5e-300",
        "1e400",
        "-1e400",
        "1e-400",
        "0e999999999999999999",
        "1e99999999999999999",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "18446744073709551616",
        "-9223372036854775809",
        "\"\"",
        "\"a\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"\\ud800x\"",
        "\"\\u12\"",
        "\"\\x\"",
        "\"\t\"",
        "\"\x7f\"",
        "\"abc",
        "\"ab\\",
        "[]",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{}",
        "{\"a\":1}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":1,\"\\u0061\":2}",
        "{\"a\":{\"b\":1,\"b\":1}}",
        "[{\"a\":1},{\"a\":1}]",
        "{\"a\":[1,{\"c\":[]}]}",
        "1 2",
        "{} x",
        "\u{feff}1",
        "[\"a\\\"b\"]",
        "{\"\\\"\":1,\"\\\"\":2}",
        "{\"é\":1,\"\\u00e9\":2}",
        "\"0123456789abcdef0123456789abcdef\\n\"",
    ];

    #[test]
    fn accepts_what_serde_json_accepts_without_repeated_names() {
        for text in TEXTS {
            agree(text);
        }
        for n in [1, 126, 127, 128, 1000] {
            agree(&format!("{}{}", "[".repeat(n), "]".repeat(n)));
            agree(&format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n)));
        }
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\":{i}")).collect();
        agree(&format!("{{{}}}", many.join(",")));
        agree(&format!("{{{},\"k7\":0}}", many.join(",")));
        agree(&format!("[{}]", "1,".repeat(10_000) + "1"));
    }

    /// Every text of the list with each byte replaced, removed or doubled: the two
    /// readings agree on all of them.
    #[test]
    fn agrees_with_serde_json_on_mutations() {
        let seeds = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\u00e9\n","arguments":{"x":[1,-2.5e3,true,null]}}}"#,
            r#"[{"a":"\ud83d\ude00"},{"b":{"c":{}}}]"#,
        ];
        let replacements = b"{}[]\",:\\0123456789-+.eEtfnul \t\n\x01\x7fa";
        for seed in seeds {
            let bytes = seed.as_bytes();
            for i in 0..bytes.len() {
                for &r in replacements {
                    let mut m = bytes.to_vec();
                    m[i] = r;
                    if let Ok(t) = std::str::from_utf8(&m) {
                        agree(t);
                    }
                }
                let mut m = bytes.to_vec();
                m.remove(i);
                if let Ok(t) = std::str::from_utf8(&m) {
                    agree(t);
                }
                let mut m = bytes.to_vec();
                m.insert(i, bytes[i]);
                if let Ok(t) = std::str::from_utf8(&m) {
                    agree(t);
                }
            }
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = check("{\"params\":{\"name\":\"a\",\n\"name\":\"b\"}}").unwrap_err();
        assert_eq!(
            (e.what(), e.path(), e.line(), e.column()),
            ("duplicate member `name`", "params.name", 2, 7)
        );
        let e = check(r#"{"params":{"arguments":{"x":[1,"\ud800"]}}}"#).unwrap_err();
        assert_eq!(
            (e.what(), e.path()),
            ("lone surrogate in a \\u escape", "params.arguments.x[1]")
        );
        let e = check(r#"{"a":[1e400]}"#).unwrap_err();
        assert_eq!(
            (e.what(), e.path(), e.column()),
            ("number out of range", "a[0]", 7)
        );
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let e = check(&deep).unwrap_err();
        assert_eq!(e.what(), "nesting deeper than 127 arrays and objects");
        assert_eq!(
            e.to_string(),
            format!(
                "{} at `a{}` (line 1 column 132)",
                e.what(),
                "[0]".repeat(126)
            )
        );
        let e = check_bytes(b"{\"a\":\"\xff\"}").unwrap_err();
        assert_eq!((e.what(), e.column()), ("invalid UTF-8", 7));
    }

    #[test]
    fn deep_nesting_is_refused_without_recursion() {
        let n = 1_000_000;
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(check(&text).is_err());
        let text = "{\"a\":".repeat(n);
        assert!(check(&text).is_err());
    }

    #[test]
    fn notes_the_members_of_messages_and_their_params() {
        let text = r#"{"method":"m","params":{"_meta":{"k":1},"name":"n"},"x\u0079":[1],"id":7}"#;
        let Checked::Object(noted) = check(text).unwrap() else {
            panic!("an object");
        };
        let names: Vec<(&str, &str)> = noted
            .members
            .iter()
            .map(|(k, v)| (k.as_ref(), *v))
            .collect();
        assert_eq!(
            names,
            [
                ("method", "\"m\""),
                ("params", r#"{"_meta":{"k":1},"name":"n"}"#),
                ("xy", "[1]"),
                ("id", "7")
            ]
        );
        let params = noted.params.unwrap();
        let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
        assert_eq!(params, [("_meta", r#"{"k":1}"#), ("name", "\"n\"")]);
        let Checked::Array(items) =
            check(r#"[{"id":1,"params":{}}, 5, {"a":{"params":{}}}]"#).unwrap()
        else {
            panic!("an array");
        };
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_ref().unwrap().params.as_deref(), Some(&[][..]));
        assert_eq!(items[1].as_ref().unwrap_err(), &"a number");
        assert!(items[2].as_ref().unwrap().params.is_none());
        assert!(matches!(
            check(" \"s\" ").unwrap(),
            Checked::Other("a string")
        ));
    }
}
