//! The `pattern` of a JSON Schema string: a regular expression in the syntax of
//! ECMA-262, which JSON Schema names, read and matched here without a dependency, for the
//! strict step ([`strict`](crate::strict)) to report a string that does not match.
//!
//! What it reads: characters and escaped characters (`\.`, `\{`, `\t`, `\x41`, `\u0041`,
//! a surrogate pair `\uD83D\uDE00`, `\u{1F600}`), `.`, the classes `\d \D \w \W \s \S`,
//! bracketed classes with ranges and negation (`[a-z0-9._-]`, `[^\s]`), groups (`(...)`,
//! `(?:...)`), alternation `|`, the quantifiers `* + ? {n} {n,} {n,m}` (greedy, or lazy
//! with a `?` after them), and the anchors `^` and `$`. A pattern is not anchored unless
//! it says so: it matches a string that contains a match, as JSON Schema says. What it
//! does not read (a backreference, a lookaround, a word boundary, a Unicode property
//! class, a named group, a control escape `\c`) is refused when the pattern is read, with
//! what and where, and the generator then documents the pattern without checking it.
//!
//! Matching backtracks, within bounds: [`Pattern::matches`] gives `None`, not an answer,
//! for a string whose match would take more than [`STEPS`] steps (each character a
//! repetition passes is one) or nest deeper than [`DEPTH`] (a pattern such as `(a+)+$` on
//! a long run of `a`s). A repeated single character or class (`[^\s]*`) is matched in a
//! loop, so a long string does not nest; a pattern anchored at `^` is tried at the start
//! only.

use std::fmt;

/// The most steps one match may take.
pub const STEPS: u64 = 10_000_000;
/// The deepest one match may nest: each repetition of a group nests a few levels (one per
/// part of it and two more), so a group repeated more than about a hundred times, fewer
/// for a longer group, gives no answer.
pub const DEPTH: u32 = 1_000;

/// A pattern, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    alternatives: Alt,
}

/// Why a pattern cannot be read: what, and at which character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// What is wrong or not supported.
    pub what: String,
    /// The character (counted from 0) where it was found.
    pub at: usize,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.what, self.at)
    }
}

impl std::error::Error for PatternError {}

/// Alternatives, each a sequence.
type Alt = Vec<Vec<Node>>;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Char(char),
    /// `.`: any character but a line terminator.
    Any,
    Class(Class),
    Start,
    End,
    Group(Alt),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Class {
    negated: bool,
    items: Vec<Item>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Range(char, char),
    /// `\d`, `\w`, `\s`, and negated (`\D`, `\W`, `\S`).
    Set(Set, bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    Digit,
    Word,
    Space,
}

impl Set {
    fn has(self, c: char) -> bool {
        match self {
            Set::Digit => c.is_ascii_digit(),
            Set::Word => c.is_ascii_alphanumeric() || c == '_',
            // ECMA-262's WhiteSpace and LineTerminator (not U+0085, which Rust's
            // `is_whitespace` counts).
            Set::Space => matches!(
                c,
                '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                    ..='\u{200a}'
                        | '\u{2028}'
                        | '\u{2029}'
                        | '\u{202f}'
                        | '\u{205f}'
                        | '\u{3000}'
                        | '\u{feff}'
            ),
        }
    }
}

impl Class {
    fn has(&self, c: char) -> bool {
        let any = self.items.iter().any(|item| match *item {
            Item::Range(lo, hi) => lo <= c && c <= hi,
            Item::Set(set, negated) => set.has(c) != negated,
        });
        any != self.negated
    }
}

fn line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

impl Pattern {
    /// Reads `pattern`.
    pub fn parse(pattern: &str) -> Result<Pattern, PatternError> {
        let mut reader = Reader {
            chars: pattern.chars().collect(),
            at: 0,
            depth: 0,
        };
        let alternatives = reader.alternatives()?;
        if let Some(c) = reader.peek() {
            return Err(reader.fail(format!("`{c}` without a group to close")));
        }
        Ok(Pattern { alternatives })
    }

    /// Whether every alternative starts with `^`: then only a match at the start counts.
    fn anchored(&self) -> bool {
        self.alternatives
            .iter()
            .all(|seq| seq.first() == Some(&Node::Start))
    }

    /// Whether `text` contains a match; `None` when finding out would take more than
    /// [`STEPS`] steps or nest deeper than [`DEPTH`].
    pub fn matches(&self, text: &str) -> Option<bool> {
        let mut m = Matcher {
            text: text.chars().collect(),
            steps: 0,
            depth: 0,
            exhausted: false,
        };
        let last = if self.anchored() { 0 } else { m.text.len() };
        for start in 0..=last {
            if m.alt(&self.alternatives, start, &mut |_, _| true) {
                return Some(true);
            }
            if m.exhausted || !m.step(1) {
                return None;
            }
        }
        Some(false)
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    depth: u32,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn fail(&self, what: impl Into<String>) -> PatternError {
        PatternError {
            what: what.into(),
            at: self.at,
        }
    }

    fn eat(&mut self, c: char) -> bool {
        let here = self.peek() == Some(c);
        if here {
            self.at += 1;
        }
        here
    }

    fn alternatives(&mut self) -> Result<Alt, PatternError> {
        let mut out = vec![self.sequence()?];
        while self.eat('|') {
            out.push(self.sequence()?);
        }
        Ok(out)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, PatternError> {
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            out.push(self.quantified(atom)?);
        }
        Ok(out)
    }

    fn atom(&mut self) -> Result<Node, PatternError> {
        let c = self.peek().expect("called with a character ahead");
        self.at += 1;
        Ok(match c {
            '^' => Node::Start,
            '$' => Node::End,
            '.' => Node::Any,
            '(' => {
                if self.eat('?') && !self.eat(':') {
                    self.at -= 1;
                    return Err(self.fail(
                        "a lookaround or named group (`(?`) is not supported; only `(?:` is",
                    ));
                }
                self.depth += 1;
                if self.depth > 100 {
                    return Err(self.fail("groups nested deeper than 100"));
                }
                let inner = self.alternatives()?;
                self.depth -= 1;
                if !self.eat(')') {
                    return Err(self.fail("a group without its `)`"));
                }
                Node::Group(inner)
            }
            '[' => Node::Class(self.class()?),
            '\\' => self.escape(false)?,
            '*' | '+' | '?' => {
                self.at -= 1;
                return Err(self.fail(format!("`{c}` with nothing to repeat")));
            }
            '{' if self.bounds_ahead() => {
                self.at -= 1;
                return Err(self.fail("`{` with nothing to repeat"));
            }
            other => Node::Char(other),
        })
    }

    /// Whether a `{n}`, `{n,}` or `{n,m}` follows (the `{` just read).
    fn bounds_ahead(&self) -> bool {
        let rest: String = self.chars[self.at..].iter().take(24).collect();
        let Some(end) = rest.find('}') else {
            return false;
        };
        let inner = &rest[..end];
        let (n, m) = inner.split_once(',').unwrap_or((inner, "0"));
        !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && m.bytes().all(|b| b.is_ascii_digit())
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, PatternError> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                if !self.bounds_ahead() {
                    // A `{` that starts no bounds is the character itself.
                    self.at -= 1;
                    return Ok(atom);
                }
                let (min, max) = self.bounds()?;
                // Back onto the `}`, which the common step below passes.
                self.at -= 1;
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        if matches!(atom, Node::Start | Node::End) {
            return Err(self.fail("an anchor cannot be repeated"));
        }
        let greedy = !self.eat('?');
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// Reads `n}`, `n,}` or `n,m}` (after the `{`), leaving the reader after the `}`.
    fn bounds(&mut self) -> Result<(u32, Option<u32>), PatternError> {
        let number = |r: &mut Reader| -> Result<Option<u32>, PatternError> {
            let start = r.at;
            while r.peek().is_some_and(|c| c.is_ascii_digit()) {
                r.at += 1;
            }
            if r.at == start {
                return Ok(None);
            }
            let digits: String = r.chars[start..r.at].iter().collect();
            digits
                .parse::<u32>()
                .map(Some)
                .map_err(|_| r.fail("a repetition count too large"))
        };
        let min = number(self)?.unwrap_or(0);
        let max = if self.eat(',') {
            number(self)?
        } else {
            Some(min)
        };
        if !self.eat('}') {
            return Err(self.fail("bounds without their `}`"));
        }
        if max.is_some_and(|max| max < min) {
            return Err(self.fail(format!(
                "bounds {{{min},{}}} out of order",
                max.unwrap_or(0)
            )));
        }
        Ok((min, max))
    }

    fn class(&mut self) -> Result<Class, PatternError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.fail("a class without its `]`"));
            };
            self.at += 1;
            if c == ']' {
                return Ok(Class { negated, items });
            }
            let lo = match c {
                '\\' => match self.escape(true)? {
                    Node::Char(c) => c,
                    Node::Class(class) => {
                        items.extend(class.items);
                        continue;
                    }
                    _ => unreachable!("an escape in a class is a character or a set"),
                },
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']') {
                self.at += 1;
                let hi = match self.peek() {
                    Some('\\') => {
                        self.at += 1;
                        match self.escape(true)? {
                            Node::Char(c) => c,
                            _ => return Err(self.fail("a range that ends in a class")),
                        }
                    }
                    Some(c) => {
                        self.at += 1;
                        c
                    }
                    None => return Err(self.fail("a class without its `]`")),
                };
                if hi < lo {
                    return Err(self.fail(format!("the range `{lo}-{hi}` out of order")));
                }
                items.push(Item::Range(lo, hi));
            } else {
                items.push(Item::Range(lo, lo));
            }
        }
    }

    /// An escape, after its backslash: a character, or a class (`\d`).
    fn escape(&mut self, in_class: bool) -> Result<Node, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.fail("a `\\` at the end"));
        };
        self.at += 1;
        let set = |set, negated| {
            Node::Class(Class {
                negated: false,
                items: vec![Item::Set(set, negated)],
            })
        };
        Ok(match c {
            'd' => set(Set::Digit, false),
            'D' => set(Set::Digit, true),
            'w' => set(Set::Word, false),
            'W' => set(Set::Word, true),
            's' => set(Set::Space, false),
            'S' => set(Set::Space, true),
            't' => Node::Char('\t'),
            'n' => Node::Char('\n'),
            'r' => Node::Char('\r'),
            'f' => Node::Char('\u{c}'),
            'v' => Node::Char('\u{b}'),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => Node::Char('\0'),
            'b' if in_class => Node::Char('\u{8}'),
            'x' => Node::Char(self.hex(2)?),
            'u' if self.eat('{') => {
                let start = self.at;
                while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    self.at += 1;
                }
                let digits: String = self.chars[start..self.at].iter().collect();
                if !self.eat('}') {
                    return Err(self.fail("`\\u{` without its `}`"));
                }
                let code = u32::from_str_radix(&digits, 16)
                    .ok()
                    .and_then(char::from_u32);
                Node::Char(code.ok_or_else(|| self.fail("`\\u{...}` that is no character"))?)
            }
            'u' => Node::Char(self.utf16()?),
            'b' | 'B' => return Err(self.fail("a word boundary (`\\b`, `\\B`) is not supported")),
            '1'..='9' => return Err(self.fail("a backreference is not supported")),
            'p' | 'P' => return Err(self.fail("a Unicode property class is not supported")),
            'k' => return Err(self.fail("a named backreference is not supported")),
            'c' => return Err(self.fail("a control escape (`\\c`) is not supported")),
            c if c.is_ascii_alphanumeric() => {
                return Err(self.fail(format!("the escape `\\{c}` is not ECMA-262's")));
            }
            // `\.`, `\{`, `\/`, `\-`: the character itself.
            c => Node::Char(c),
        })
    }

    /// `\uXXXX` (after the `u`): a character, or a surrogate pair written as two escapes.
    fn utf16(&mut self) -> Result<char, PatternError> {
        let unit = self.hex_units(4)?;
        let pair = self.chars.get(self.at..self.at + 2) == Some(&['\\', 'u'][..]);
        if (0xD800..0xDC00).contains(&unit) && pair {
            let back = self.at;
            self.at += 2;
            let low = self.hex_units(4)?;
            if (0xDC00..0xE000).contains(&low) {
                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(code)
                    .ok_or_else(|| self.fail("a surrogate pair that is no character"));
            }
            self.at = back;
        }
        char::from_u32(unit)
            .ok_or_else(|| self.fail("an escape that is no character (a lone surrogate)"))
    }

    /// `n` hex digits, as a number.
    fn hex_units(&mut self, n: usize) -> Result<u32, PatternError> {
        let digits: String = self.chars.iter().skip(self.at).take(n).collect();
        if digits.chars().count() != n || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.fail(format!("an escape that needs {n} hex digits")));
        }
        self.at += n;
        u32::from_str_radix(&digits, 16).map_err(|_| self.fail("an escape that needs hex digits"))
    }

    fn hex(&mut self, n: usize) -> Result<char, PatternError> {
        let unit = self.hex_units(n)?;
        char::from_u32(unit).ok_or_else(|| self.fail("an escape that is no character"))
    }
}

/// The rest of a match from a position: whether it succeeds.
type Then<'k> = dyn FnMut(&mut Matcher, usize) -> bool + 'k;

struct Matcher {
    text: Vec<char>,
    steps: u64,
    depth: u32,
    exhausted: bool,
}

impl Matcher {
    /// Counts `n` steps; false when the bound is passed (then `exhausted`).
    fn step(&mut self, n: u64) -> bool {
        self.steps = self.steps.saturating_add(n);
        if self.steps > STEPS {
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// Counts a step and a level; false when a bound is passed (then `exhausted`, and the
    /// level is not taken).
    fn enter(&mut self) -> bool {
        if self.exhausted || !self.step(1) {
            return false;
        }
        if self.depth >= DEPTH {
            self.exhausted = true;
            return false;
        }
        self.depth += 1;
        true
    }

    fn alt(&mut self, alt: &Alt, pos: usize, then: &mut Then<'_>) -> bool {
        alt.iter()
            .any(|seq| !self.exhausted && self.seq(seq, pos, then))
    }

    fn seq(&mut self, nodes: &[Node], pos: usize, then: &mut Then<'_>) -> bool {
        if !self.enter() {
            return false;
        }
        let matched = match nodes.split_first() {
            None => then(self, pos),
            Some((node, rest)) => self.node(node, pos, &mut |m, p| m.seq(rest, p, then)),
        };
        self.depth -= 1;
        matched && !self.exhausted
    }

    /// Whether the one character at `pos` is one `node` (a character, `.` or a class)
    /// takes; `None` for any other node.
    fn single(&self, node: &Node, pos: usize) -> Option<bool> {
        let c = self.text.get(pos).copied();
        Some(match node {
            Node::Char(x) => c == Some(*x),
            Node::Any => c.is_some_and(|c| !line_terminator(c)),
            Node::Class(class) => c.is_some_and(|c| class.has(c)),
            _ => return None,
        })
    }

    fn node(&mut self, node: &Node, pos: usize, then: &mut Then<'_>) -> bool {
        if let Some(one) = self.single(node, pos) {
            return one && then(self, pos + 1);
        }
        if !self.enter() {
            return false;
        }
        let matched = self.compound(node, pos, then);
        self.depth -= 1;
        matched && !self.exhausted
    }

    /// A node that is not one character.
    fn compound(&mut self, node: &Node, pos: usize, then: &mut Then<'_>) -> bool {
        match node {
            Node::Start => pos == 0 && then(self, pos),
            Node::End => pos == self.text.len() && then(self, pos),
            Node::Group(alt) => self.alt(alt, pos, then),
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                if self.single(node, pos).is_some() {
                    self.repeat_single(node, *min, *max, *greedy, pos, then)
                } else {
                    self.repeat(node, *min, *max, *greedy, 0, pos, then)
                }
            }
            Node::Char(_) | Node::Any | Node::Class(_) => unreachable!("matched above"),
        }
    }

    /// A repeated character or class: how far it can go, in a loop, then each length.
    fn repeat_single(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        pos: usize,
        then: &mut Then<'_>,
    ) -> bool {
        let limit = max.map_or(usize::MAX, |m| m as usize);
        let mut n = 0;
        while n < limit && self.single(node, pos + n) == Some(true) {
            n += 1;
        }
        // Each character passed is a step.
        if !self.step(n as u64) {
            return false;
        }
        let min = min as usize;
        if n < min {
            return false;
        }
        let mut try_at = |m: &mut Matcher, len: usize| {
            m.enter() && {
                let matched = then(m, pos + len);
                m.depth -= 1;
                matched && !m.exhausted
            }
        };
        if greedy {
            (min..=n).rev().any(|len| try_at(self, len))
        } else {
            (min..=n).any(|len| try_at(self, len))
        }
    }

    /// A repeated group: one more repetition, or what follows, in the order `greedy` says.
    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        count: u32,
        pos: usize,
        then: &mut Then<'_>,
    ) -> bool {
        if !self.enter() {
            return false;
        }
        let more_allowed = max.is_none_or(|max| count < max);
        let more = |m: &mut Matcher, then: &mut Then<'_>| {
            more_allowed
                && m.node(node, pos, &mut |m, p| {
                    // A repetition that takes nothing, once the minimum is met, ends the
                    // loop (as ECMA-262 says), or it would never end.
                    !(p == pos && count >= min)
                        && m.repeat(node, min, max, greedy, count + 1, p, then)
                })
        };
        let matched = if count < min {
            more(self, then)
        } else {
            // Greedy: one more first, then what follows; lazy: the other way round.
            let order = if greedy { [true, false] } else { [false, true] };
            order.into_iter().any(|one_more| {
                if one_more {
                    more(self, &mut *then)
                } else {
                    then(self, pos)
                }
            })
        };
        self.depth -= 1;
        matched && !self.exhausted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::parse(pattern)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .matches(text)
            .unwrap_or_else(|| panic!("{pattern} on {text:?}: out of bounds"))
    }

    #[test]
    fn the_server_cards_patterns() {
        let name = "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$";
        assert!(m(name, "example-org/minimal"));
        assert!(m(name, "io.github.user/my_server-2"));
        assert!(!m(name, "no-slash-in-name"));
        assert!(!m(name, "a/b/c"));
        assert!(!m(name, "a b/c"));
        let schema =
            r"^https://static\.modelcontextprotocol\.io/schemas/v1/server-card\.schema\.json$";
        assert!(m(
            schema,
            "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
        ));
        assert!(!m(
            schema,
            "https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json"
        ));
        assert!(!m(
            schema,
            "https://static.modelcontextprotocol.io/schemas/v1/server.schema.json"
        ));
        assert!(!m(
            schema,
            "https://staticXmodelcontextprotocol.io/schemas/v1/server-card.schema.json"
        ));
        let url = r"^(https?://[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$";
        assert!(m(url, "https://{tenant}.example.com/mcp"));
        assert!(m(url, "{base_url}/mcp"));
        assert!(m(url, "http://x"));
        assert!(!m(url, "ftp://x"));
        assert!(!m(url, "https://a b"));
        assert!(!m(url, "{1x}/mcp"));
    }

    #[test]
    fn ecma_262_as_json_schema_reads_it() {
        // Not anchored unless it says so.
        assert!(m("b+", "abbc"));
        assert!(!m("^b+", "abbc"));
        assert!(m("", "anything"));
        assert!(m("a{2,3}", "xaax"));
        assert!(!m("^a{2,3}$", "aaaa"));
        assert!(m("^a{2,}$", "aaaa"));
        assert!(m("^(ab|cd)*e$", "abcdabe"));
        assert!(!m("^(ab|cd)*e$", "abce"));
        assert!(m("^(?:a|b)?c$", "c"));
        assert!(m(r"^\d+\.\d+\.\d+$", "1.20.3"));
        assert!(!m(r"^\D", "7"));
        assert!(m(r"^\w+$", "snake_case9"));
        assert!(m(r"^[^\s]+$", "no-space"));
        assert!(!m(r"^.$", "\n"));
        assert!(m(r"^[\d-]+$", "12-34"));
        assert!(m(r"^\u00e9\x41\u{1F600}\uD83D\uDE00$", "éA😀😀"));
        assert!(m(r"^\s+$", " \t\u{a0}\u{2028}\u{feff}"));
        assert!(!m(r"^\s$", "\u{85}"), "NEL is not ECMA-262's white space");
        assert!(m("^é{2}$", "éé"), "characters, not bytes");
        assert!(m("^a+?b$", "aaab"));
        assert!(m("x{", "x{"), "a `{{` that starts no bounds is itself");
        assert!(!m("^[]$", ""), "`[]` takes no character");
    }

    #[test]
    fn what_it_does_not_read_is_refused_with_where() {
        for (pattern, what, at) in [
            ("(?=a)", "lookaround", 1),
            (r"\bword", "word boundary", 2),
            (r"(a)\1", "backreference", 5),
            (r"\p{L}", "Unicode property", 2),
            ("(a", "without its `)`", 2),
            ("a)", "without a group", 1),
            ("[a-", "without its `]`", 3),
            ("*a", "nothing to repeat", 0),
            ("[z-a]", "out of order", 4),
            ("a{3,1}", "out of order", 6),
            (r"\q", "not ECMA-262's", 2),
        ] {
            let e = Pattern::parse(pattern).unwrap_err();
            assert!(e.what.contains(what), "{pattern}: {e}");
            assert_eq!(e.at, at, "{pattern}: {e}");
        }
    }

    #[test]
    fn a_costly_match_is_bounded_and_a_long_string_does_not_nest() {
        let evil = Pattern::parse("^(a+)+$").unwrap();
        let text = format!("{}b", "a".repeat(40));
        assert_eq!(
            evil.matches(&text),
            None,
            "exponential: stopped at the bound"
        );
        let long = "x".repeat(1_000_000);
        assert_eq!(
            Pattern::parse(r"^[^\s]*$").unwrap().matches(&long),
            Some(true)
        );
        // Anchored: tried at the start only, so a long string that does not match is
        // answered, not given up on.
        let miss = format!("{long} ");
        assert_eq!(
            Pattern::parse(r"^[^\s]*$").unwrap().matches(&miss),
            Some(false)
        );
        // Unanchored with a leading repetition: quadratic, bounded, answered at this size.
        let letters = "a".repeat(2_000);
        assert_eq!(
            Pattern::parse("[a-z]+@").unwrap().matches(&letters),
            Some(false)
        );
        let groups = "ab".repeat(100_000);
        assert_eq!(
            Pattern::parse("^(ab)*$").unwrap().matches(&groups),
            None,
            "nests per group"
        );
        assert_eq!(
            Pattern::parse("^(ab)*$")
                .unwrap()
                .matches(&"ab".repeat(150)),
            Some(true)
        );
    }
}
