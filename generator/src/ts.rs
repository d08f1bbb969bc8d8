//! What the generator reads from upstream's `schema.ts`: its doc comments' `@deprecated`
//! tags and the `{@includeCode ./examples/...}` links to the official examples, both of
//! which `schema.json` drops. Nothing else: the JSON stays the source of truth for shapes.
//!
//! The reader is deliberately small: it tokenizes the file (comments, strings, names,
//! punctuation), follows `export interface` / `export type` declarations and the members
//! of their object types (nested object types too), and gives each doc comment to the
//! declaration or member that follows it.

use std::collections::BTreeMap;

use crate::model::{Example, Kind, Model, Origin, TypeRef};

/// A doc comment's tags, and what it documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tagged {
    /// The declaration (`interface` or `type`) the comment is in or on.
    pub def: String,
    /// The member path inside it (`["sampling", "context"]`); empty for the declaration.
    pub path: Vec<String>,
    /// The `@deprecated` text, its lines joined.
    pub deprecated: String,
    /// The 1-based line of the comment, for messages.
    pub line: usize,
}

/// One official example a comment links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleLink {
    /// The `@example` title.
    pub title: String,
    /// The file, relative to the version's `examples/` folder (`Tool/simple.json`); its
    /// folder names the definition it is an instance of.
    pub file: String,
}

/// What a `schema.ts` says beyond the shapes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Every documented declaration or member with a `@deprecated` tag, in file order.
    pub deprecated: Vec<Tagged>,
    /// Every `{@includeCode}` example, in file order (a file linked twice counts once,
    /// under its first title).
    pub examples: Vec<ExampleLink>,
}

impl Annotations {
    /// The examples of one definition (the folder of their files), in file order.
    pub fn examples_of(&self, def: &str) -> impl Iterator<Item = &ExampleLink> {
        self.examples
            .iter()
            .filter(move |e| e.file.split('/').next() == Some(def))
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A `/** ... */` comment: its text and the line it starts on.
    Doc(String, usize),
    Name(String),
    Str(String),
    Punct(char),
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let start_line = line;
                let start = i;
                i += 2;
                loop {
                    match chars.get(i) {
                        None => return Err(format!("line {start_line}: a comment never ends")),
                        Some('*') if chars.get(i + 1) == Some(&'/') => {
                            i += 2;
                            break;
                        }
                        Some('\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                let body: String = chars[start..i].iter().collect();
                if body.starts_with("/**") && body != "/**/" {
                    out.push(Token::Doc(body, start_line));
                }
            }
            '"' | '\'' | '`' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return Err(format!("line {line}: a string never ends")),
                        Some('\\') => {
                            if let Some(&e) = chars.get(i + 1) {
                                if e == '\n' {
                                    line += 1;
                                }
                                s.push(e);
                            }
                            i += 2;
                        }
                        Some(&q) if q == quote => {
                            i += 1;
                            break;
                        }
                        Some(&ch) => {
                            if ch == '\n' {
                                line += 1;
                            }
                            s.push(ch);
                            i += 1;
                        }
                    }
                }
                out.push(Token::Str(s));
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
                {
                    i += 1;
                }
                out.push(Token::Name(chars[start..i].iter().collect()));
            }
            c => {
                out.push(Token::Punct(c));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// The lines of a doc comment, without the `/**`, `*/` and leading `*`.
fn comment_lines(doc: &str) -> Vec<String> {
    let inner = doc
        .strip_prefix("/**")
        .unwrap_or(doc)
        .strip_suffix("*/")
        .unwrap_or(doc);
    inner
        .lines()
        .map(|l| {
            let l = l.trim();
            l.strip_prefix('*').map_or(l, str::trim_start).to_string()
        })
        .collect()
}

/// The `@deprecated` text of a comment: the tag's line and the ones after it up to the
/// next tag or blank line, joined with spaces.
fn deprecated_text(lines: &[String]) -> Option<String> {
    let start = lines.iter().position(|l| {
        l.strip_prefix("@deprecated")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })?;
    let mut words = vec![lines[start]["@deprecated".len()..].trim().to_string()];
    for l in &lines[start + 1..] {
        if l.is_empty() || l.starts_with('@') {
            break;
        }
        words.push(l.clone());
    }
    let text = words
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    Some(if text.is_empty() {
        "deprecated upstream".to_string()
    } else {
        text
    })
}

/// The `@example` titles and `{@includeCode ./examples/...}` files of a comment.
fn example_links(lines: &[String]) -> Vec<ExampleLink> {
    let mut out = Vec::new();
    let mut title = String::new();
    for l in lines {
        if let Some(t) = l.strip_prefix("@example") {
            title = t.trim().to_string();
        }
        let mut rest = l.as_str();
        while let Some(at) = rest.find("{@includeCode") {
            let after = &rest[at + "{@includeCode".len()..];
            let Some(end) = after.find('}') else { break };
            let target = after[..end].trim();
            if let Some(file) = target.strip_prefix("./examples/") {
                out.push(ExampleLink {
                    title: title.clone(),
                    file: file.to_string(),
                });
            }
            rest = &after[end..];
        }
    }
    out
}

struct Reader {
    tokens: Vec<Token>,
    at: usize,
    out: Annotations,
}

impl Reader {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn bump(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn note(&mut self, doc: Option<(String, usize)>, def: &str, path: &[String]) {
        let Some((text, line)) = doc else { return };
        let lines = comment_lines(&text);
        for link in example_links(&lines) {
            // A file linked again (under another title, say) is one example.
            if !self.out.examples.iter().any(|e| e.file == link.file) {
                self.out.examples.push(link);
            }
        }
        if let Some(deprecated) = deprecated_text(&lines) {
            self.out.deprecated.push(Tagged {
                def: def.to_string(),
                path: path.to_vec(),
                deprecated,
                line,
            });
        }
    }

    /// Skips a type up to the `;` or `,` that ends it (consumed) or the `}` that closes
    /// the object it is in (not consumed); an object type at its top level is read as
    /// members of `path`.
    fn skip_type(&mut self, def: &str, path: &[String]) {
        let mut depth = 0usize;
        while let Some(t) = self.peek().cloned() {
            match t {
                Token::Punct(';' | ',') if depth == 0 => {
                    self.at += 1;
                    return;
                }
                Token::Punct('}') if depth == 0 => return,
                // A type without its `;`: the next documented member or declaration
                // begins here.
                Token::Doc(..) if depth == 0 => return,
                Token::Name(ref n) if depth == 0 && n == "export" => return,
                Token::Punct('{') if depth == 0 => {
                    self.at += 1;
                    self.members(def, path);
                }
                Token::Punct('{' | '(' | '[' | '<') => {
                    depth += 1;
                    self.at += 1;
                }
                Token::Punct('}' | ')' | ']' | '>') => {
                    depth = depth.saturating_sub(1);
                    self.at += 1;
                }
                // `=>` of a function type closes nothing.
                Token::Punct('=')
                    if matches!(self.tokens.get(self.at + 1), Some(Token::Punct('>'))) =>
                {
                    self.at += 2;
                }
                _ => self.at += 1,
            }
        }
    }

    /// The members of an object type, after its `{`, up to and including its `}`.
    fn members(&mut self, def: &str, path: &[String]) {
        let mut doc = None;
        while let Some(t) = self.bump() {
            match t {
                Token::Doc(text, line) => doc = Some((text, line)),
                Token::Punct('}') => return,
                Token::Name(name) | Token::Str(name)
                    if !matches!(self.peek(), Some(Token::Punct('(' | '<'))) =>
                {
                    let mut member = path.to_vec();
                    member.push(name);
                    self.note(doc.take(), def, &member);
                    if matches!(self.peek(), Some(Token::Punct('?'))) {
                        self.at += 1;
                    }
                    if matches!(self.peek(), Some(Token::Punct(':'))) {
                        self.at += 1;
                    }
                    self.skip_type(def, &member);
                }
                _ => {
                    // An index signature, a method and the like: skipped whole (it
                    // starts with this token, which is not `}`, so the skip moves on).
                    doc = None;
                    self.at -= 1;
                    self.skip_type(def, path);
                }
            }
        }
    }

    fn file(&mut self) {
        let mut doc = None;
        while let Some(t) = self.bump() {
            match t {
                Token::Doc(text, line) => doc = Some((text, line)),
                Token::Name(kw) if kw == "export" => {
                    let decl = match self.bump() {
                        Some(Token::Name(d)) => d,
                        _ => continue,
                    };
                    let Some(Token::Name(name)) = self.bump() else {
                        continue;
                    };
                    match decl.as_str() {
                        "interface" => {
                            self.note(doc.take(), &name, &[]);
                            // The heritage clause, up to the body.
                            let mut depth = 0usize;
                            while let Some(t) = self.bump() {
                                match t {
                                    Token::Punct('<' | '(' | '[') => depth += 1,
                                    Token::Punct('>' | ')' | ']') => {
                                        depth = depth.saturating_sub(1)
                                    }
                                    Token::Punct('{') if depth == 0 => break,
                                    _ => {}
                                }
                            }
                            self.members(&name, &[]);
                        }
                        "type" => {
                            self.note(doc.take(), &name, &[]);
                            self.skip_type(&name, &[]);
                        }
                        _ => {
                            doc = None;
                            self.skip_type(&name, &[]);
                        }
                    }
                }
                _ => doc = None,
            }
        }
    }
}

/// Reads the annotations of a `schema.ts` text.
pub fn read(text: &str) -> Result<Annotations, String> {
    let mut reader = Reader {
        tokens: tokenize(text)?,
        at: 0,
        out: Annotations::default(),
    };
    reader.file();
    Ok(reader.out)
}

/// Puts `schema.ts`'s annotations on a model built from the same version's JSON: each
/// `@deprecated` on its definition, property or (when the first sentence of its text
/// quotes some of a string enum's values, not all) enum values; each definition's official
/// examples, their text from `examples` (by path relative to the version's `examples/`).
/// Returns notes for what could not be placed (`file` names the TypeScript in them): a tag
/// on something the JSON does not define, an example file that is not vendored.
pub fn annotate(
    model: &mut Model,
    a: &Annotations,
    examples: &BTreeMap<String, String>,
    file: &str,
) -> Vec<String> {
    let mut notes = Vec::new();
    let by_def: BTreeMap<String, String> = model
        .types
        .iter()
        .filter_map(|t| match &t.origin {
            Origin::Definition(d) => Some((d.clone(), t.name.clone())),
            _ => None,
        })
        .collect();
    let index: BTreeMap<String, usize> = model
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.clone(), i))
        .collect();
    for tag in &a.deprecated {
        let text = &tag.deprecated;
        let shown = std::iter::once(tag.def.as_str())
            .chain(tag.path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(".");
        match place(model, &by_def, &index, &tag.def, &tag.path) {
            Some(Place::Type(i)) => model.types[i].deprecated = Some(text.clone()),
            Some(Place::Field(i, f)) => {
                let enum_at = match &model.types[i].kind {
                    Kind::Struct { fields, .. } => named_index(&index, &fields[f].ty),
                    _ => None,
                };
                let values = enum_at.and_then(|e| match &model.types[e].kind {
                    Kind::StringEnum { values } => Some((e, values.clone())),
                    _ => None,
                });
                // The values the first sentence quotes ("The `"a"` and `"b"` values are
                // deprecated ... . Use `"c"`."): those, when they are not all of them.
                let first = text.split(". ").next().unwrap_or(text);
                let named: Vec<String> = values
                    .iter()
                    .flat_map(|(_, vs)| vs.iter())
                    .filter(|v| first.contains(&format!("\"{v}\"")))
                    .cloned()
                    .collect();
                match values {
                    Some((e, all)) if !named.is_empty() && named.len() < all.len() => {
                        for v in named {
                            model.types[e].deprecated_values.insert(v, text.clone());
                        }
                    }
                    _ => {
                        if let Kind::Struct { fields, .. } = &mut model.types[i].kind {
                            fields[f].deprecated = Some(text.clone());
                        }
                    }
                }
            }
            None => notes.push(format!(
                "{file} line {}: `{shown}` is tagged @deprecated, but {} defines no such \
                 thing: not applied",
                tag.line,
                file.replace("schema.ts", "schema.json")
            )),
        }
    }
    for link in &a.examples {
        let def = link.file.split('/').next().unwrap_or_default();
        let Some(&i) = by_def.get(def).and_then(|n| index.get(n)) else {
            notes.push(format!(
                "{file}: example `{}` is of `{def}`, which the JSON does not define: not shown",
                link.file
            ));
            continue;
        };
        match examples.get(&link.file) {
            Some(json) => model.types[i].examples.push(Example {
                title: link.title.clone(),
                file: link.file.clone(),
                json: json.clone(),
            }),
            None => notes.push(format!(
                "{file}: example `{}` is not vendored: not shown",
                link.file
            )),
        }
    }
    notes
}

enum Place {
    Type(usize),
    Field(usize, usize),
}

fn named_index(index: &BTreeMap<String, usize>, ty: &TypeRef) -> Option<usize> {
    match ty {
        TypeRef::Named(n) => index.get(n).copied(),
        _ => None,
    }
}

/// The type or field a tag's `(def, path)` names in the model: the definition, then each
/// property in turn, through the type of the one before (an inline object, an alias).
fn place(
    model: &Model,
    by_def: &BTreeMap<String, String>,
    index: &BTreeMap<String, usize>,
    def: &str,
    path: &[String],
) -> Option<Place> {
    let mut at = *index.get(by_def.get(def)?)?;
    let Some((last, through)) = path.split_last() else {
        return Some(Place::Type(at));
    };
    let field_of = |at: usize, wire: &str| match &model.types[at].kind {
        Kind::Struct { fields, .. } => fields.iter().position(|f| f.wire == wire),
        _ => None,
    };
    for wire in through {
        let f = field_of(at, wire)?;
        let Kind::Struct { fields, .. } = &model.types[at].kind else {
            return None;
        };
        at = resolve(model, index, named_index(index, &fields[f].ty)?)?;
    }
    let at = resolve(model, index, at)?;
    Some(Place::Field(at, field_of(at, last)?))
}

/// Follows aliases to a type that is not one.
fn resolve(model: &Model, index: &BTreeMap<String, usize>, mut at: usize) -> Option<usize> {
    for _ in 0..32 {
        match &model.types[at].kind {
            Kind::Alias { target, .. } => at = named_index(index, target)?,
            _ => return Some(at),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TS: &str = r#"
/** A thing.
 *
 * @example Plain
 * {@includeCode ./examples/Thing/plain.json}
 *
 * @deprecated Gone in 2030.
 * Use `Other`.
 */
export interface Thing extends Omit<Base, "x"> {
  /**
   * @deprecated The `"b"` value is deprecated.
   */
  kind?: "a" | "b";
  // eslint-disable-next-line
  /** @deprecated Old. */
  nested?: {
    /** Fine. */
    inner?: { [key: string]: unknown };
    /** @deprecated Inner too. */
    "odd/name": string;
  };
  after: number;
}

/** @deprecated A level. */
export type Level =
  | "debug"
  | "info";

export const X = { a: 1 };

/** Not deprecated. */
export type Other = Thing | { a: 1; b?: string };
"#;

    #[test]
    fn reads_tags_and_their_targets() {
        let a = read(TS).unwrap();
        let got: Vec<(String, Vec<String>, String)> = a
            .deprecated
            .iter()
            .map(|t| (t.def.clone(), t.path.clone(), t.deprecated.clone()))
            .collect();
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                ("Thing".into(), p(&[]), "Gone in 2030. Use `Other`.".into()),
                (
                    "Thing".into(),
                    p(&["kind"]),
                    "The `\"b\"` value is deprecated.".into()
                ),
                ("Thing".into(), p(&["nested"]), "Old.".into()),
                (
                    "Thing".into(),
                    p(&["nested", "odd/name"]),
                    "Inner too.".into()
                ),
                ("Level".into(), p(&[]), "A level.".into()),
            ]
        );
        assert_eq!(
            a.examples,
            [ExampleLink {
                title: "Plain".into(),
                file: "Thing/plain.json".into()
            }]
        );
        assert_eq!(a.examples_of("Thing").count(), 1);
        assert_eq!(a.examples_of("Other").count(), 0);
    }

    #[test]
    fn a_missing_semicolon_or_a_longer_tag_does_not_misplace_tags() {
        let ts = r#"
export type A = "a" | "b"
/** @deprecated B is gone. */
export interface B {
  x: string
  /** @deprecatedSoon not a deprecation */
  y: number
  /** @deprecated Z too. */
  z: string
}
/** @example One
 * {@includeCode ./examples/B/one.json}
 * @example One again
 * {@includeCode ./examples/B/one.json}
 */
export type C = B;
"#;
        let a = read(ts).unwrap();
        let got: Vec<(&str, Vec<String>)> = a
            .deprecated
            .iter()
            .map(|t| (t.def.as_str(), t.path.clone()))
            .collect();
        assert_eq!(got, [("B", vec![]), ("B", vec!["z".to_string()])]);
        assert_eq!(a.examples.len(), 1);
    }

    #[test]
    fn an_unterminated_comment_is_an_error() {
        assert!(read("/** never").is_err());
    }
}
