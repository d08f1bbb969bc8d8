//! The JSON layer: what every message must be before anything else is asked of it.
//!
//! Its parser is also the crate's one decoder (the runtime's `read.rs` makes it a serde
//! `Deserializer`): a message is checked as it is decoded, each byte read once. Whatever
//! is wrong at the JSON level, anywhere in a message (inside `params`, inside an unknown
//! member, inside a `_meta`), is answered the same way by every entry point (-32700, with
//! the path and position this module gives), whatever the typed decoders read before it:
//! when a decoding fails, the whole text is checked here to say whether the fault is the
//! JSON layer's or the schema's.
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
//! For a message read the careful way (see `jsonrpc`), it notes the members of the
//! message object (and of each object of a batch), and of their `params` objects, as raw
//! text while it checks, so that the envelope is read in any member order.

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

/// The elements of a batch: each an object (with its members) or something else (its
/// kind).
pub(crate) type Elements<'a> = Vec<Result<Noted<'a>, &'static str>>;

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
    let text = utf8(bytes)?;
    check(text).map(|checked| (text, checked))
}

pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, JsonError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        error_at(&bytes[..at], at, "invalid UTF-8".into(), String::new())
    })
}

/// Checks `bytes` as [`check_bytes`] does, when they are one array (a batch), and counts
/// its elements, noting nothing: what deciding whether to decode a batch at all needs.
pub(crate) fn count_batch(bytes: &[u8]) -> Result<usize, JsonError> {
    let text = utf8(bytes)?;
    let mut p = Parser::new(text, 0);
    let mut whole = || {
        p.ws();
        let (_, count) = p.array(false)?;
        p.ws();
        if p.at < p.bytes.len() {
            return Err(p.fail("trailing characters"));
        }
        Ok(count)
    };
    let counted = whole();
    counted.map_err(|fault| p.error(fault))
}

/// A member name: its raw text (without quotes) and whether it has escapes.
#[derive(Clone, Copy, Default)]
pub(crate) struct Key<'a> {
    pub(crate) raw: &'a str,
    pub(crate) escaped: bool,
}

impl<'a> Key<'a> {
    pub(crate) fn name(self) -> Cow<'a, str> {
        if self.escaped {
            Cow::Owned(unescape(self.raw))
        } else {
            Cow::Borrowed(self.raw)
        }
    }
}

/// Up to this many member names of one object are compared one by one; past that, they
/// go into a set, so that a huge object cannot make the check quadratic.
const SCAN: usize = 16;

/// The member names of the object being read, to find one given twice: the first few,
/// while none has escapes, compared as written; past that, a set of the names.
pub(crate) struct Names<'a> {
    first: [&'a str; SCAN],
    len: usize,
    /// Boxed, though a set is on the heap already: the decoder of every generated type
    /// then calls the set's drop instead of holding a copy of it (88 KB less code in a
    /// server of every version; a set is made only past `SCAN` members, or for escaped
    /// names).
    #[allow(clippy::box_collection)]
    rest: Option<Box<HashSet<Cow<'a, str>>>>,
}

impl<'a> Names<'a> {
    pub(crate) fn new() -> Self {
        Names {
            first: [""; SCAN],
            len: 0,
            rest: None,
        }
    }

    /// Notes `key`; whether the object had it already.
    pub(crate) fn repeated(&mut self, key: Key<'a>) -> bool {
        if self.rest.is_none() {
            if !key.escaped && self.len < SCAN {
                let raw = key.raw.as_bytes();
                let seen = self.first[..self.len]
                    .iter()
                    .any(|k| k.len() == raw.len() && k.as_bytes() == raw);
                self.first[self.len] = key.raw;
                self.len += 1;
                return seen;
            }
            let names = self.first[..self.len].iter().map(|k| Cow::Borrowed(*k));
            self.rest = Some(Box::new(names.collect()));
        }
        let set = self.rest.get_or_insert_with(Box::default);
        !set.insert(key.name())
    }
}

/// Where the members of an object being read go.
pub(crate) enum Note<'n, 'a> {
    /// Nowhere.
    No,
    /// It is a message: its members, and those of its `params`.
    Message(&'n mut Noted<'a>),
    /// It is the `params` of a message.
    Params(&'n mut Members<'a>),
}

/// One step of the path to a fault, innermost first while the reading unwinds.
pub(crate) enum Step<'a> {
    Key(Key<'a>),
    Index(usize),
}

/// A fault found while reading: what, where in the text, and the path, built as the
/// reading returns through the containers around it. Boxed: a result that may hold one
/// stays two words, as every step of the reading returns one.
pub(crate) struct Fault<'a>(Box<Found<'a>>);

struct Found<'a> {
    what: String,
    at: usize,
    steps: Vec<Step<'a>>,
}

impl<'a> Fault<'a> {
    /// What is wrong.
    pub(crate) fn what(self) -> String {
        self.0.what
    }

    /// This fault inside member `key` of the object around it.
    #[cold]
    fn in_member(mut self, key: Key<'a>) -> Self {
        self.0.steps.push(Step::Key(key));
        self
    }

    /// This fault inside element `index` of the array around it.
    #[cold]
    fn in_element(mut self, index: usize) -> Self {
        self.0.steps.push(Step::Index(index));
        self
    }
}

pub(crate) struct Parser<'a> {
    pub(crate) text: &'a str,
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
    /// How many arrays and objects are open.
    pub(crate) depth: usize,
    /// The path of an error while decoding ([`read`](super::read)), innermost first.
    pub(crate) steps: Vec<Step<'a>>,
    /// The depth at which a member `_meta` is noted (a message's `params` decoded in
    /// place: 2); 0 for none.
    pub(crate) meta_depth: usize,
    /// The text of the `_meta` noted.
    pub(crate) meta: Option<&'a str>,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`, inside `depth` arrays and objects.
    pub(crate) fn new(text: &'a str, depth: usize) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            at: 0,
            depth,
            steps: Vec::new(),
            meta_depth: 0,
            meta: None,
        }
    }
}

/// Checks `text` (see the [module docs](self)) and notes the message's members.
///
/// It reads by recursive descent, one call per array or object, so the depth of the
/// recursion is bounded by [`MAX_DEPTH`]: deeper nesting is refused before it is entered.
pub(crate) fn check(text: &str) -> Result<Checked<'_>, JsonError> {
    let mut p = Parser::new(text, 0);
    p.top().map_err(|fault| p.error(fault))
}

/// Checks `text` as one value inside `depth` arrays and objects, noting nothing: what a
/// decoding that failed asks, to tell a fault of the JSON layer from one of the schema.
pub(crate) fn check_value(text: &str, depth: usize) -> Result<(), JsonError> {
    let mut p = Parser::new(text, depth);
    let mut whole = || {
        p.value(Note::No)?;
        p.ws();
        if p.at < p.bytes.len() {
            return Err(p.fail("trailing characters"));
        }
        Ok(())
    };
    let checked = whole();
    checked.map_err(|fault| p.error(fault))
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
    /// The whole text: one value, whose members are noted if it is an object (a message)
    /// or an array (each element that is an object a message of a batch).
    fn top(&mut self) -> Result<Checked<'a>, Fault<'a>> {
        self.ws();
        let checked = match self.bytes.get(self.at) {
            Some(b'{') => {
                let mut noted = Noted::default();
                self.object(Note::Message(&mut noted))?;
                Checked::Object(noted)
            }
            Some(b'[') => Checked::Array(self.array(true)?.0),
            Some(&b) => {
                self.value(Note::No)?;
                Checked::Other(kind(b))
            }
            None => return Err(self.fail("EOF while parsing a value")),
        };
        self.ws();
        if self.at < self.bytes.len() {
            return Err(self.fail("trailing characters"));
        }
        Ok(checked)
    }

    /// Reads one value (after any whitespace); an object's members go where `note` says.
    pub(crate) fn value(&mut self, note: Note<'_, 'a>) -> Result<(), Fault<'a>> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'{') => self.object(note),
            Some(b'[') => self.array(false).map(drop),
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(_) => Err(self.fail("expected a value")),
            None => Err(self.fail("EOF while parsing a value")),
        }
    }

    /// Enters an array or object (at its opening bracket), if the nesting allows.
    pub(crate) fn open(&mut self) -> Result<(), Fault<'a>> {
        if self.depth >= MAX_DEPTH {
            return Err(self.fail(&format!(
                "nesting deeper than {MAX_DEPTH} arrays and objects"
            )));
        }
        self.depth += 1;
        self.at += 1;
        self.ws();
        Ok(())
    }

    /// Reads an array (at its `[`), and how many elements it has. At the top (`batch`),
    /// notes each element: an object's members (a message), or the kind of anything else.
    fn array(&mut self, batch: bool) -> Result<(Elements<'a>, usize), Fault<'a>> {
        self.open()?;
        let mut elements = Vec::new();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            self.depth -= 1;
            return Ok((elements, 0));
        }
        let mut index = 0;
        loop {
            self.element(batch, &mut elements)
                .map_err(|f| f.in_element(index))?;
            self.ws();
            match self.bytes.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    index += 1;
                }
                Some(b']') => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok((elements, index + 1));
                }
                Some(_) => return Err(self.fail("expected `,` or `]`").in_element(index)),
                None => return Err(self.fail("EOF while parsing a value").in_element(index)),
            }
        }
    }

    /// One element of an array; of a batch, noted.
    fn element(
        &mut self,
        batch: bool,
        elements: &mut Vec<Result<Noted<'a>, &'static str>>,
    ) -> Result<(), Fault<'a>> {
        if !batch {
            return self.value(Note::No);
        }
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'{') => {
                let mut noted = Noted::default();
                self.object(Note::Message(&mut noted))?;
                elements.push(Ok(noted));
            }
            Some(&b) => {
                self.value(Note::No)?;
                elements.push(Err(kind(b)));
            }
            None => return Err(self.fail("EOF while parsing a value")),
        }
        Ok(())
    }

    /// Reads an object (at its `{`); a member name given twice is a fault. Its members go
    /// where `note` says: a message's `params`, when an object, has its own noted too.
    fn object(&mut self, mut note: Note<'_, 'a>) -> Result<(), Fault<'a>> {
        self.open()?;
        if let Note::Message(noted) = &mut note {
            noted.members.reserve(6);
        }
        if self.bytes.get(self.at) == Some(&b'}') {
            self.at += 1;
            self.depth -= 1;
            return Ok(());
        }
        let mut names = Names::new();
        loop {
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.fail("expected a member name"));
            }
            let (raw, escaped) = self.string()?;
            let key = Key { raw, escaped };
            if names.repeated(key) {
                let what = format!("duplicate member `{}`", key.name());
                return Err(self.fail(&what).in_member(key));
            }
            self.ws();
            if self.bytes.get(self.at) != Some(&b':') {
                return Err(self.fail("expected `:`"));
            }
            self.at += 1;
            self.ws();
            let start = self.at;
            let object = self.bytes.get(self.at) == Some(&b'{');
            let inner = match &mut note {
                Note::Message(noted) if object && key.name() == "params" => {
                    Note::Params(noted.params.insert(Vec::with_capacity(6)))
                }
                _ => Note::No,
            };
            self.value(inner).map_err(|f| f.in_member(key))?;
            let member = || (key.name(), &self.text[start..self.at]);
            match &mut note {
                Note::No => {}
                Note::Message(noted) => noted.members.push(member()),
                Note::Params(members) => members.push(member()),
            }
            self.ws();
            match self.bytes.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    self.ws();
                }
                Some(b'}') => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                Some(_) => return Err(self.fail("expected `,` or `}`")),
                None => return Err(self.fail("EOF while parsing a value")),
            }
        }
    }

    /// Reads a string (at its opening quote): its raw inside, and whether it has escapes.
    pub(crate) fn string(&mut self) -> Result<(&'a str, bool), Fault<'a>> {
        let start = self.at + 1;
        self.at = start;
        self.plain();
        if self.bytes.get(self.at) == Some(&b'"') {
            self.at += 1;
            return Ok((&self.text[start..self.at - 1], false));
        }
        self.string_rest(start)
    }

    /// Passes the bytes that need no look (not a quote, a backslash or a control
    /// character), eight at a time.
    #[inline]
    pub(crate) fn plain(&mut self) {
        while let Some(eight) = self
            .bytes
            .get(self.at..self.at + 8)
            .and_then(|chunk| <[u8; 8]>::try_from(chunk).ok())
        {
            let found = special(u64::from_le_bytes(eight));
            if found != 0 {
                self.at += (found.trailing_zeros() / 8) as usize;
                return;
            }
            self.at += 8;
        }
    }

    /// The rest of a string that began at `start`, from the first byte [`plain`](Self::plain)
    /// stopped at that is not its closing quote.
    #[inline(never)]
    fn string_rest(&mut self, start: usize) -> Result<(&'a str, bool), Fault<'a>> {
        let mut escaped = false;
        loop {
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
            self.plain();
        }
    }

    /// Reads an escape (after its backslash).
    fn escape(&mut self) -> Result<(), Fault<'a>> {
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

    fn hex4(&mut self) -> Result<u32, Fault<'a>> {
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

    /// Reads a number; one a double cannot hold is a fault, as serde_json says. Its value
    /// when it is written as digits alone (an optional `-`, no fraction or exponent) and
    /// they fit `u64`, for [`read`](super::read) to hand over without reading it again.
    pub(crate) fn number(&mut self) -> Result<Option<u64>, Fault<'a>> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let int = self.at;
        let mut value = Some(0u64);
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                while let Some(&digit) = self.bytes.get(self.at).filter(|b| b.is_ascii_digit()) {
                    value = value
                        .and_then(|v| v.checked_mul(10))
                        .and_then(|v| v.checked_add(u64::from(digit - b'0')));
                    self.at += 1;
                }
            }
            _ => return Err(self.fail("invalid number")),
        }
        let int_digits = self.at - int;
        if self.bytes.get(self.at) == Some(&b'.') {
            value = None;
            self.at += 1;
            if !self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            value = None;
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if !self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
            // Whether a double holds it.
            if !self.text[start..self.at]
                .parse::<f64>()
                .is_ok_and(f64::is_finite)
            {
                self.at = start;
                return Err(self.fail("number out of range"));
            }
        } else if int_digits > 300 {
            // Without an exponent and with at most 300 digits before the point, a number
            // is below 1e300.
            if !self.text[start..self.at]
                .parse::<f64>()
                .is_ok_and(f64::is_finite)
            {
                self.at = start;
                return Err(self.fail("number out of range"));
            }
        }
        Ok(value)
    }

    fn digits(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
    }

    pub(crate) fn literal(&mut self, word: &[u8]) -> Result<(), Fault<'a>> {
        if self.bytes.get(self.at..self.at + word.len()) != Some(word) {
            return Err(self.fail("expected a value"));
        }
        self.at += word.len();
        Ok(())
    }

    #[inline]
    pub(crate) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// A fault here; the containers around it add their steps of the path.
    #[cold]
    pub(crate) fn fail(&self, what: &str) -> Fault<'a> {
        Fault(Box::new(Found {
            what: what.to_string(),
            at: self.at,
            steps: Vec::new(),
        }))
    }

    /// The error of a fault: its position as a line and column, its path.
    #[cold]
    pub(crate) fn error(&self, fault: Fault<'a>) -> JsonError {
        let fault = *fault.0;
        let mut path = String::new();
        for step in fault.steps.iter().rev() {
            match step {
                Step::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&key.name());
                }
                Step::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        // At the end of the text, the last character, as serde_json says.
        let at = fault.at.min(self.bytes.len().saturating_sub(1));
        error_at(&self.bytes[..at], at, fault.what, path)
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
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let bytes = rest.as_bytes();
        let (c, used) = match bytes.get(at + 1) {
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => {
                let unit = |from: usize| {
                    rest.get(from..from + 4)
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                };
                match unit(at + 2) {
                    Some(high @ 0xD800..=0xDBFF) => {
                        // Checked: a low surrogate follows, escaped.
                        let low = unit(at + 8).unwrap_or(0xDC00);
                        let c =
                            0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                        (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
                    }
                    Some(unit) => (char::from_u32(unit).unwrap_or('\u{FFFD}'), 6),
                    None => ('\u{FFFD}', 2),
                }
            }
            // `"`, `\`, `/`.
            Some(&b) => (char::from(b), 2),
            None => break,
        };
        out.push(c);
        rest = rest.get(at + used..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The line and column (from 1) of the last byte of `prefix`; column 0 just after a line
/// break.
pub(crate) fn line_column(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = prefix.len()
        - prefix
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    (line, column)
}

/// An error at byte `at` (`prefix` is the text before it, for the line and column).
fn error_at(prefix: &[u8], at: usize, what: String, path: String) -> JsonError {
    let (line, column) = line_column(prefix);
    let column = column + 1;
    debug_assert_eq!(prefix.len(), at);
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

    /// Every escape, surrogate pairs included, as serde_json reads it.
    #[test]
    fn unescaping_is_serde_jsons() {
        let raws = [
            r"plain",
            r"a\nb",
            r#"\"\\\/\b\f\n\r\t"#,
            r"\u00e9\u0041\u20ac",
            r"\ud83d\ude00 and \uD83D\uDE00",
            r"x\\",
            r"\\u0041",
            r"é\tü",
            r"\u0000",
        ];
        for raw in raws {
            let quoted = format!("\"{raw}\"");
            let expected: String = serde_json::from_str(&quoted).unwrap();
            assert_eq!(unescape(raw), expected, "{raw}");
            check(&quoted).unwrap();
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
    fn deep_nesting_is_refused_at_the_limit_on_a_small_stack() {
        // The recursion is bounded by MAX_DEPTH: a million levels are refused at the
        // 128th, on a thread with a quarter of the usual 2 MiB of stack (a debug build
        // needs some 300 KiB for 127 levels).
        let refused = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(|| {
                let n = 1_000_000;
                let arrays = format!("{}{}", "[".repeat(n), "]".repeat(n));
                let objects = "{\"a\":".repeat(n);
                [check(&arrays).unwrap_err(), check(&objects).unwrap_err()]
                    .map(|e| (e.what().to_string(), e.column()))
            })
            .unwrap()
            .join()
            .unwrap();
        let what = "nesting deeper than 127 arrays and objects".to_string();
        assert_eq!(refused, [(what.clone(), 128), (what, 127 * 5 + 1)]);
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
