//! Loading: parse a schema file, detect its dialect, and check that it uses only the
//! JSON Schema keywords the generator understands.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Error;
use crate::model::Dialect;

/// Keywords the generator reads and acts on.
pub const UNDERSTOOD_KEYWORDS: &[&str] = &[
    "$ref",
    "$schema",
    "$defs",
    "definitions",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "const",
    "enum",
    "items",
    "minimum",
    "description",
    "default",
    "pattern",
    "minLength",
    "maxLength",
];

/// Keywords that are accepted and deliberately not represented in the generated types,
/// each with the reason. Everything not in this list or [`UNDERSTOOD_KEYWORDS`] is an error.
pub const IGNORED_KEYWORDS: &[(&str, &str)] = &[
    (
        "format",
        "string formats (uri, byte, date-time, email) are validation hints; values stay `String`",
    ),
    (
        "maximum",
        "range checks are validation, not shape; integers stay `i64`/`u64`",
    ),
    (
        "propertyNames",
        "constraints on key names are validation, not shape; maps stay keyed by `String`",
    ),
    (
        "minItems",
        "array length checks are validation, not shape; arrays stay `Vec`",
    ),
    (
        "maxItems",
        "array length checks are validation, not shape; arrays stay `Vec`",
    ),
    (
        "exclusiveMinimum",
        "range checks are validation, not shape; numbers stay `i64`/`serde_json::Number` \
         (only `minimum` >= 0 makes an integer `u64`)",
    ),
    (
        "exclusiveMaximum",
        "range checks are validation, not shape; integers stay `i64`/`u64`",
    ),
    (
        "uniqueItems",
        "uniqueness of elements is validation, not shape; arrays stay `Vec`",
    ),
    (
        "multipleOf",
        "divisibility is validation, not shape; numbers keep their type",
    ),
];

/// Keywords the document root may carry besides `$schema` and its definitions: they speak
/// to a reader (an identifier, a title, a description, a comment), not of any type, so
/// they are accepted and not carried into the model.
pub const ROOT_ANNOTATIONS: &[&str] = &["$id", "title", "description", "$comment"];

/// The two root keys definitions may sit under: draft-07 names `definitions`, 2020-12
/// `$defs`, and documents of either dialect use either (converters write both), so both
/// are read whatever the dialect.
const DEFS_KEYS: [&str; 2] = ["definitions", "$defs"];

/// A parsed schema file whose keywords have been checked.
#[derive(Debug, Clone)]
pub struct SchemaDoc {
    /// The file name used in error messages.
    pub file: String,
    /// The dialect declared by `$schema`.
    pub dialect: Dialect,
    /// The root key the definitions sit under, `definitions` or `$defs` (either, whatever
    /// the dialect): definition pointers and `$ref`s are read against it.
    pub defs_key: &'static str,
    /// Definitions by schema name.
    pub defs: BTreeMap<String, Value>,
    /// What loading ignored or normalised, each `file at pointer: what` (a vendor
    /// extension, a value listed twice), in a fixed order (definitions and keywords by
    /// name): reported, never silent.
    pub notes: Vec<String>,
}

impl SchemaDoc {
    /// The JSON pointer of a definition, under the key this document keeps them in.
    pub fn def_pointer(&self, name: &str) -> String {
        format!("{}/{}", self.defs_keyword(), escape_pointer(name))
    }

    /// `#/definitions` or `#/$defs`: where this document's definitions are.
    fn defs_keyword(&self) -> String {
        format!("#/{}", self.defs_key)
    }

    /// Resolves a `$ref` string to a definition name, or fails naming the pointer.
    pub fn resolve_ref(&self, reference: &str, at: &str) -> Result<&str, Error> {
        let prefix = format!("{}/", self.defs_keyword());
        let name = reference
            .strip_prefix(&prefix)
            .map(unescape_pointer)
            .ok_or_else(|| {
                Error::at(
                    &self.file,
                    at,
                    format!("unsupported $ref `{reference}`: expected `{prefix}<Name>`"),
                )
            })?;
        match self.defs.get_key_value(&name) {
            Some((key, _)) => Ok(key.as_str()),
            None => Err(Error::at(
                &self.file,
                at,
                format!("$ref `{reference}` points at no definition"),
            )),
        }
    }
}

/// Escapes a JSON pointer segment.
pub fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn unescape_pointer(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Parses a schema file and checks its outline only: a JSON object whose `$schema` names a
/// dialect the generator reads (draft-07 or 2020-12), whose definitions sit under one of
/// `definitions` or `$defs` (not both), and whose other top-level keywords are annotations
/// ([`ROOT_ANNOTATIONS`]) or vendor extensions. This is what `cargo xtask fetch` requires
/// before it writes a file; the keyword check of [`load`] comes after.
pub fn parse(file: &str, text: &str) -> Result<SchemaDoc, Error> {
    if text.trim().is_empty() {
        return Err(Error::at(file, "", "the file is empty"));
    }
    let root: Value = serde_json::from_str(text)
        .map_err(|e| Error::at(file, "", format!("not valid JSON: {e}")))?;
    let Value::Object(root) = root else {
        return Err(Error::at(file, "", "the document is not a JSON object"));
    };
    let dialect = match root.get("$schema").and_then(Value::as_str) {
        Some("http://json-schema.org/draft-07/schema#") => Dialect::Draft07,
        Some("https://json-schema.org/draft/2020-12/schema") => Dialect::Draft2020_12,
        Some(other) => {
            return Err(Error::at(
                file,
                "/$schema",
                format!("unknown dialect `{other}`: expected draft-07 or 2020-12"),
            ));
        }
        None => return Err(Error::at(file, "", "no `$schema` declares the dialect")),
    };
    // The dialect's own key, unless the document keeps its definitions under the other.
    let (own, other) = match dialect {
        Dialect::Draft07 => (DEFS_KEYS[0], DEFS_KEYS[1]),
        Dialect::Draft2020_12 => (DEFS_KEYS[1], DEFS_KEYS[0]),
    };
    if root.contains_key(own) && root.contains_key(other) {
        // Two places for definitions would make `$ref`s ambiguous about which one they mean.
        return Err(Error::at(
            file,
            &format!("/{}", escape_pointer(other)),
            format!(
                "definitions under both `{own}` and `{other}`: a document keeps them under one key"
            ),
        ));
    }
    let defs_key = if root.contains_key(other) { other } else { own };
    let mut notes = Vec::new();
    for key in root.keys() {
        if key.starts_with("x-") {
            notes.push(format!(
                "{file} at /{}: `{key}` ignored: a vendor extension (`x-`), not JSON Schema; \
                 it does not change the types",
                escape_pointer(key)
            ));
        } else if key != "$schema" && key != defs_key && !ROOT_ANNOTATIONS.contains(&key.as_str()) {
            return Err(Error::at(
                file,
                &format!("/{}", escape_pointer(key)),
                format!(
                    "unexpected top-level keyword `{key}`: the root holds `$schema`, the \
                     definitions (`definitions` or `$defs`) and annotations (`$id`, `title`, \
                     `description`, `$comment`)"
                ),
            ));
        }
    }
    let Some(Value::Object(defs)) = root.get(defs_key) else {
        return Err(Error::at(
            file,
            &format!("/{defs_key}"),
            format!("`{defs_key}` is missing or not an object"),
        ));
    };
    Ok(SchemaDoc {
        file: file.to_string(),
        dialect,
        defs_key,
        defs: defs.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        notes,
    })
}

/// Parses and checks a schema file: [`parse`], the annotations of every definition folded
/// in ([`fold_annotations`]), then every keyword of every definition.
pub fn load(file: &str, text: &str) -> Result<SchemaDoc, Error> {
    let mut doc = parse(file, text)?;
    let mut notes = Vec::new();
    let names: Vec<String> = doc.defs.keys().cloned().collect();
    for name in names {
        let at = doc.def_pointer(&name);
        let mut schema = doc.defs[&name].clone();
        fold_annotations(&doc.file, doc.dialect, &mut schema, &at)?;
        doc.defs.insert(name, schema);
    }
    for (name, schema) in &doc.defs {
        check_keywords(&doc, schema, &doc.def_pointer(name), &mut notes)?;
    }
    doc.notes.extend(notes);
    Ok(doc)
}

/// The dialect URL a document of `dialect` declares.
fn dialect_url(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Draft07 => "http://json-schema.org/draft-07/schema#",
        Dialect::Draft2020_12 => "https://json-schema.org/draft/2020-12/schema",
    }
}

/// Folds the keywords that say something of a schema to its reader, not of its values,
/// into what the generator reads, at every level of `schema`: `$comment` and `$id` are
/// dropped; a `$schema` inside a definition (as converters write one into each) is
/// dropped when it names the document's dialect, and refused when it names another;
/// `title` becomes the `description` when there is none (else it is dropped); `pattern`
/// is documented (a line of the `description`) and stays, for lowering to give a string
/// property the strict step's rule. A schema that is only
/// `not` of the schema every value fits (`{"not": {}}`) is `false`, which it means; any
/// other `not` stays, and is refused.
pub fn fold_annotations(
    file: &str,
    dialect: Dialect,
    schema: &mut Value,
    at: &str,
) -> Result<(), Error> {
    // `{"not": {}}` (or `{"not": true}`): no value is valid, as `false` says; the official
    // extension schemas write a closed object's `additionalProperties` so.
    let never = schema.as_object().is_some_and(|m| {
        m.len() == 1
            && m.get("not").is_some_and(|n| {
                n.as_bool() == Some(true) || n.as_object().is_some_and(|o| o.is_empty())
            })
    });
    if never {
        *schema = Value::Bool(false);
        return Ok(());
    }
    let Value::Object(map) = schema else {
        return Ok(());
    };
    map.remove("$comment");
    map.remove("$id");
    if let Some(inner) = map.remove("$schema") {
        if inner.as_str() != Some(dialect_url(dialect)) {
            return Err(Error::at(
                file,
                &format!("{at}/$schema"),
                format!(
                    "this schema names the dialect {inner}, the document {}: one document, one dialect",
                    dialect_url(dialect)
                ),
            ));
        }
    }
    if let Some(title) = map.remove("title") {
        if !map.contains_key("description") {
            if let Value::String(title) = title {
                map.insert("description".into(), Value::String(title));
            }
        }
    }
    if let Some(pattern) = map.get("pattern") {
        let line = format!(
            "Pattern (not checked when decoding): `{}`",
            pattern.as_str().unwrap_or_default()
        );
        let description = match map.get("description").and_then(Value::as_str) {
            // Folded once: a schema read twice keeps one line.
            Some(d) if d.ends_with(&line) => d.to_string(),
            Some(d) => format!("{d}\n\n{line}"),
            None => line,
        };
        map.insert("description".into(), Value::String(description));
    }
    for (key, value) in map.iter_mut() {
        let here = format!("{at}/{}", escape_pointer(key));
        match key.as_str() {
            "properties" => {
                if let Value::Object(props) = value {
                    for (name, sub) in props.iter_mut() {
                        let there = format!("{here}/{}", escape_pointer(name));
                        fold_annotations(file, dialect, sub, &there)?;
                    }
                }
            }
            "items" | "additionalProperties" => fold_annotations(file, dialect, value, &here)?,
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(arms) = value {
                    for (i, arm) in arms.iter_mut().enumerate() {
                        fold_annotations(file, dialect, arm, &format!("{here}/{i}"))?;
                    }
                }
            }
            _ => {}
        }
    }
    // An `anyOf` whose every arm accepts anything (`anyOf: [{}, {}]`, as a converter writes
    // what it could not convert) accepts anything: it is `{}`, which is what it means. (A
    // `oneOf` of two such arms accepts nothing, every value fitting both: it stays, and is
    // refused.)
    let anything =
        |arm: &Value| arm.as_bool() == Some(true) || arm.as_object().is_some_and(|o| o.is_empty());
    let all_anything = |arms: Option<&Value>, at_most: usize| {
        arms.and_then(Value::as_array).is_some_and(|arms| {
            !arms.is_empty() && arms.len() <= at_most && arms.iter().all(anything)
        })
    };
    if all_anything(map.get("anyOf"), usize::MAX) {
        map.remove("anyOf");
    }
    if all_anything(map.get("oneOf"), 1) {
        map.remove("oneOf");
    }
    Ok(())
}

/// The strings of a `required` or `enum` array, noting each one listed again (JSON Schema
/// wants them unique; a repeat says nothing more, so it is dropped).
fn unique_strings(
    doc: &SchemaDoc,
    value: &Value,
    at: &str,
    what: &str,
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    let Value::Array(items) = value else {
        return Err(Error::at(
            &doc.file,
            at,
            format!("`{what}` must be an array"),
        ));
    };
    let mut seen = std::collections::BTreeSet::new();
    for item in items {
        match item.as_str() {
            Some(s) if !seen.insert(s) => notes.push(format!(
                "{} at {at}: `{s}` is listed twice in `{what}`; the repeat is ignored",
                doc.file
            )),
            Some(_) => {}
            // A non-string enum value is the lowering's to refuse, with its own message.
            None if what == "enum" => {}
            None => {
                return Err(Error::at(
                    &doc.file,
                    at,
                    format!("`{what}` must list strings, found {item}"),
                ));
            }
        }
    }
    Ok(())
}

fn check_keywords(
    doc: &SchemaDoc,
    schema: &Value,
    at: &str,
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    let Value::Object(map) = schema else {
        if schema.is_boolean() {
            return Ok(());
        }
        return Err(Error::at(
            &doc.file,
            at,
            "a schema must be an object or a boolean",
        ));
    };
    if map.contains_key("anyOf") && map.contains_key("oneOf") {
        // Both are read as one union; two at one level would be their intersection.
        return Err(Error::at(
            &doc.file,
            &format!("{at}/oneOf"),
            "`anyOf` and `oneOf` at the same level are not supported: one union per schema",
        ));
    }
    for (key, value) in map {
        let here = format!("{at}/{}", escape_pointer(key));
        if key.starts_with("x-") {
            notes.push(format!(
                "{} at {here}: `{key}` ignored: a vendor extension (`x-`), not JSON Schema; \
                 it does not change the types",
                doc.file
            ));
            continue;
        }
        let understood = UNDERSTOOD_KEYWORDS.contains(&key.as_str())
            || IGNORED_KEYWORDS.iter().any(|(k, _)| k == key);
        if !understood || key == "$schema" || key == "$defs" || key == "definitions" {
            return Err(Error::at(
                &doc.file,
                &here,
                format!("unsupported keyword `{key}`"),
            ));
        }
        match key.as_str() {
            "properties" => {
                let Value::Object(props) = value else {
                    return Err(Error::at(
                        &doc.file,
                        &here,
                        "`properties` must be an object",
                    ));
                };
                for (name, sub) in props {
                    check_keywords(doc, sub, &format!("{here}/{}", escape_pointer(name)), notes)?;
                }
            }
            "items" | "additionalProperties" => check_keywords(doc, value, &here, notes)?,
            "required" | "enum" => unique_strings(doc, value, &here, key, notes)?,
            "minimum" if !value.is_number() => {
                return Err(Error::at(
                    &doc.file,
                    &here,
                    format!("`minimum` must be a number, found {value}"),
                ));
            }
            "pattern" if !value.is_string() => {
                return Err(Error::at(
                    &doc.file,
                    &here,
                    format!("`pattern` must be a string, found {value}"),
                ));
            }
            "minLength" | "maxLength" if !value.is_u64() => {
                return Err(Error::at(
                    &doc.file,
                    &here,
                    format!("`{key}` must be a non-negative integer, found {value}"),
                ));
            }
            "anyOf" | "oneOf" | "allOf" => {
                let Value::Array(items) = value else {
                    return Err(Error::at(
                        &doc.file,
                        &here,
                        format!("`{key}` must be an array"),
                    ));
                };
                if items.is_empty() {
                    return Err(Error::at(&doc.file, &here, format!("`{key}` is empty")));
                }
                for (i, sub) in items.iter().enumerate() {
                    check_keywords(doc, sub, &format!("{here}/{i}"), notes)?;
                }
            }
            "$ref" => {
                let Some(reference) = value.as_str() else {
                    return Err(Error::at(&doc.file, &here, "`$ref` must be a string"));
                };
                doc.resolve_ref(reference, &here)?;
            }
            _ => {}
        }
    }
    Ok(())
}
