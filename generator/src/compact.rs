//! A compact, line-oriented rendering of a [`Model`], for snapshot tests.
//!
//! [`render`] writes one line per fact about the protocol: every struct field, union arm,
//! alias, string enum, const marker and method. Every line names the type it belongs to,
//! so a diff of two renderings reads as a list of protocol changes. Descriptions and the
//! schema's sha256 are left out: description-only changes are reported by [`crate::diff`],
//! and the hash would change the rendering on any byte change of the schema.
//!
//! The format, by example:
//!
//! ```text
//! Tool: struct
//! Tool.name: string, required
//! Tool.annotations: ToolAnnotations, optional
//! Tool.*: json
//! EmptyResult: struct {}
//! ClientRequest: union, tag "method"
//! ClientRequest | CallToolRequest (object, tag method="tools/call", requires method, params)
//! Cursor = string
//! LoggingLevel: enum "alert" | "critical"
//! const Audio = "audio"
//! method tools/call: request client→server, message CallToolRequest, params CallToolRequestParams (required), result CallToolResult, via ClientRequest
//! ```
//!
//! Types that do not come from a schema definition of the same name say where they come
//! from in brackets: `[inline #/$defs/Tool/properties/inputSchema]`, `[schema
//! "URLElicitationRequiredError"]`, `[results of tools/call]`.

use std::fmt::Write as _;

use crate::model::{
    ConstValue, Dialect, Direction, Kind, MessageKind, MethodDef, Model, Origin, Signature,
    TypeDef, TypeRef,
};

/// Renders `model` as deterministic text, one fact per line, ending with a newline.
///
/// Types, consts and methods are sorted by name; struct fields keep the model's order
/// (sorted by wire name) and union arms keep schema order, which decoding depends on.
pub fn render(model: &Model) -> String {
    let mut out = String::new();
    let dialect = match model.dialect {
        Dialect::Draft07 => "draft-07",
        Dialect::Draft2020_12 => "2020-12",
    };
    let _ = writeln!(out, "# MCP {} (JSON Schema {dialect})", model.version);
    if !model.notes.is_empty() {
        out.push_str("\n# notes\n");
        for note in &model.notes {
            let _ = writeln!(out, "{note}");
        }
    }

    let mut types: Vec<&TypeDef> = model.types.iter().collect();
    types.sort_by(|a, b| a.name.cmp(&b.name));
    out.push_str("\n# types\n");
    for t in types {
        render_type(model, t, &mut out);
    }

    let mut consts: Vec<_> = model.consts.iter().collect();
    consts.sort_by(|a, b| a.name.cmp(&b.name));
    if !consts.is_empty() {
        out.push_str("\n# consts\n");
    }
    for c in consts {
        let _ = writeln!(out, "const {} = {}", c.name, const_value(&c.value));
    }

    let mut methods: Vec<&MethodDef> = model.methods.iter().collect();
    methods.sort_by(|a, b| (&a.method, a.kind).cmp(&(&b.method, b.kind)));
    if !methods.is_empty() {
        out.push_str("\n# methods\n");
    }
    for m in methods {
        let _ = writeln!(out, "{}", method_line(model, m));
    }
    out
}

/// Where a type comes from, when that is not a schema definition of the same name.
fn origin(t: &TypeDef) -> String {
    match &t.origin {
        Origin::Definition(d) if *d == t.name => String::new(),
        Origin::Definition(d) => format!(" [schema {d:?}]"),
        Origin::Inline(pointer) => format!(" [inline {pointer}]"),
        Origin::Results(method) => format!(" [results of {method}]"),
    }
}

/// Appends the lines of one type.
fn render_type(model: &Model, t: &TypeDef, out: &mut String) {
    let name = &t.name;
    let mut from = origin(t);
    if t.deprecated.is_some() {
        from.push_str(" [deprecated]");
    }
    if !t.examples.is_empty() {
        let _ = write!(from, " [{} examples]", t.examples.len());
    }
    match &t.kind {
        Kind::Struct { fields, additional } => {
            if fields.is_empty() && additional.is_none() {
                let _ = writeln!(out, "{name}: struct {{}}{from}");
                return;
            }
            let _ = writeln!(out, "{name}: struct{from}");
            for f in fields {
                let mut line = format!(
                    "{name}.{}: {}, {}",
                    key(&f.wire),
                    ty(model, &f.ty),
                    if f.required { "required" } else { "optional" }
                );
                if f.nullable {
                    line.push_str(", nullable");
                }
                if f.boxed {
                    line.push_str(", boxed");
                }
                if f.deprecated.is_some() {
                    line.push_str(", deprecated");
                }
                if let Some(default) = &f.default {
                    let _ = write!(line, ", default {default}");
                }
                if let Some(rule) = &f.text {
                    if let Some(p) = &rule.pattern {
                        let _ = write!(line, ", pattern {p:?}");
                    }
                    if let Some(n) = rule.min_length {
                        let _ = write!(line, ", minLength {n}");
                    }
                    if let Some(n) = rule.max_length {
                        let _ = write!(line, ", maxLength {n}");
                    }
                }
                let _ = writeln!(out, "{line}");
            }
            if let Some(additional) = additional {
                let _ = writeln!(out, "{name}.*: {}", ty(model, additional));
            }
        }
        Kind::Union { variants, tag } => {
            let decided = match tag {
                Some(tag) => format!("tag {tag:?}"),
                None => "untagged".to_string(),
            };
            let _ = writeln!(out, "{name}: union, {decided}{from}");
            for v in variants {
                let mut payload = match &v.ty {
                    TypeRef::Named(n) if *n == v.name => String::new(),
                    other => format!(": {}", ty(model, other)),
                };
                if v.boxed {
                    payload.push_str(", boxed");
                }
                let sig = &v.signature;
                let _ = writeln!(
                    out,
                    "{name} | {}{payload} ({})",
                    v.name,
                    signature(sig, tag.as_deref(), false)
                );
                // The signatures an array arm's first item, or a nested union arm, is
                // matched against: one line each.
                for (label, nested) in [("item", &sig.items), ("alt", &sig.alts)] {
                    for n in nested {
                        let _ = writeln!(
                            out,
                            "{name} | {} {label}: ({})",
                            v.name,
                            signature(n, None, true)
                        );
                    }
                }
            }
        }
        Kind::Alias { target, newtype } => {
            let new = if *newtype { "newtype " } else { "" };
            let _ = writeln!(out, "{name} = {new}{}{from}", ty(model, target));
        }
        Kind::StringEnum { values } => {
            let values: Vec<String> = values
                .iter()
                .map(|v| match t.deprecated_values.contains_key(v) {
                    true => format!("{v:?} (deprecated)"),
                    false => format!("{v:?}"),
                })
                .collect();
            let _ = writeln!(out, "{name}: enum {}{from}", values.join(" | "));
        }
    }
}

/// A type reference, readably.
fn ty(model: &Model, t: &TypeRef) -> String {
    match t {
        TypeRef::Named(n) => n.clone(),
        TypeRef::Const(c) => match model.consts.iter().find(|k| &k.name == c) {
            Some(k) => format!("const {}", const_value(&k.value)),
            None => format!("const {c} (undefined)"),
        },
        TypeRef::String => "string".into(),
        TypeRef::Integer => "integer".into(),
        TypeRef::Unsigned => "unsigned".into(),
        TypeRef::Number => "number".into(),
        TypeRef::Boolean => "boolean".into(),
        TypeRef::Any => "json".into(),
        TypeRef::Array(inner) => format!("array<{}>", ty(model, inner)),
        TypeRef::Map(inner) => format!("map<string, {}>", ty(model, inner)),
    }
}

/// A const marker's value as JSON.
fn const_value(v: &ConstValue) -> String {
    match v {
        ConstValue::String(s) => format!("{s:?}"),
        ConstValue::Integer(i) => i.to_string(),
        ConstValue::Boolean(b) => b.to_string(),
    }
}

/// A property name, quoted unless it is a plain identifier.
fn key(k: &str) -> String {
    let plain = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

/// What a union decoder checks to choose an arm: JSON kind, tag values, required property
/// paths, shadowing, and (if `nested`) the signatures of array items and of a nested
/// union's arms. The declared (`known`) properties are left out: they are the arm's
/// struct fields.
fn signature(s: &Signature, tag: Option<&str>, nested: bool) -> String {
    let json = serde_json::to_value(s.json)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut parts = vec![json];
    if !s.tags.is_empty() {
        let values: Vec<String> = s.tags.iter().map(|v| format!("{v:?}")).collect();
        let mut part = match tag {
            Some(tag) => format!("tag {}={}", key(tag), values.join("|")),
            None => format!("tag {}", values.join("|")),
        };
        if s.tag_optional {
            part.push_str(" or absent");
        }
        parts.push(part);
    } else if s.tag_optional {
        parts.push("tag absent".to_string());
    }
    if !s.required.is_empty() {
        let paths: Vec<String> = s
            .required
            .iter()
            .map(|p| p.iter().map(|k| key(k)).collect::<Vec<_>>().join("."))
            .collect();
        parts.push(format!("requires {}", paths.join(", ")));
    }
    let list = |label: &str, sigs: &[Signature]| {
        let inner: Vec<String> = sigs
            .iter()
            .map(|s| format!("({})", signature(s, None, true)))
            .collect();
        format!("{label} {}", inner.join(" | "))
    };
    if nested && !s.items.is_empty() {
        parts.push(list("items", &s.items));
    }
    if nested && !s.alts.is_empty() {
        parts.push(list("any of", &s.alts));
    }
    if let Some(by) = &s.shadowed_by {
        parts.push(format!("shadowed by {by}"));
    }
    parts.join(", ")
}

/// One method: kind, direction, message type, params, result and the unions it is in.
fn method_line(model: &Model, m: &MethodDef) -> String {
    let kind = match m.kind {
        MessageKind::Request => "request",
        MessageKind::Notification => "notification",
    };
    let direction = match m.direction {
        Direction::ClientToServer => "client→server",
        Direction::ServerToClient => "server→client",
        Direction::Both => "both ways",
    };
    let mut parts = vec![
        format!("{kind} {direction}"),
        format!("message {}", m.definition),
    ];
    parts.push(match &m.params {
        Some(p) => format!(
            "params {} ({})",
            ty(model, p),
            if m.params_required {
                "required"
            } else {
                "optional"
            }
        ),
        None => "no params".to_string(),
    });
    match (&m.result, m.results.as_slice()) {
        (Some(r), [one]) if r == one => parts.push(format!("result {r}")),
        (Some(r), []) => parts.push(format!("result {r}")),
        (Some(r), results) => parts.push(format!("result {r} = {}", results.join(" | "))),
        (None, []) => {}
        (None, results) => parts.push(format!("results {}", results.join(" | "))),
    }
    if !m.via.is_empty() {
        parts.push(format!("via {}", m.via.join(", ")));
    }
    format!("method {}: {}", m.method, parts.join(", "))
}
