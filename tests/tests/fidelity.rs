//! Fidelity of the generated types to the official schema, judged by an independent
//! reading: the JSON Schema that `schemars` derives from the generated Rust types (the
//! `json-schema` feature) is compared with the upstream definition, for every definition of
//! every version.
//!
//! # Normalisation
//!
//! Both sides are reduced to the same vocabulary before they are compared:
//! - annotations and validation keywords the generated types do not model are dropped:
//!   `description`, `title`, `$schema`, `format`, `minimum`, `maximum`, `maxItems`,
//!   `default`, `examples`;
//! - `"type": [a, b]` is the union of one arm per type; `oneOf` and `anyOf` are both
//!   unions; a `null` arm is taken out of a union and becomes its nullability;
//! - `const` and `enum` are both a set of allowed values, and so is a union whose arms
//!   are all constants (what `schemars` writes for an enum whose variants have docs);
//! - `allOf` is merged into one object (properties merged, required sets joined);
//! - an object's `additionalProperties` is "any" when absent, `true` or `{}`, "closed"
//!   when `false`, otherwise the schema of the extra values;
//! - a `$ref` on either side is followed (both definitions and the types the generator
//!   lifts out of inline schemas), except that two references to the same definition
//!   are equal without looking further: every definition is compared on its own.
//!
//! Then: the JSON type, the allowed values, the union arms in order, nullability, the
//! property set, the required set, the type of every property, array items and
//! `additionalProperties` must agree.
//!
//! Decoding is a little more lenient than the derived schema in one documented way: an
//! optional property given as `null` decodes as absent (the derived schema describes what
//! encoding writes, which never includes that `null`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use mcp_tests::{Harness, VERSIONS, root};
use serde_json::{Map, Value, json};

/// Differences that are allowed: `(versions, "Definition: path: what", reason)`. Every
/// entry must still occur in every version it names; one that no longer does fails the
/// test, so the list stays true.
const ALLOWED: &[(&[&str], &str, &str)] = &[(
    &["2026-07-28", "draft"],
    "JSONValue: kind: upstream union of 5, ours any value",
    "free-form JSON is held as `serde_json::Value` (every use of `JSONValue`, \
     `JSONObject` and `JSONArray`), which also accepts `null` and non-integer numbers; \
     upstream's union (object, array, string, integer, boolean) leaves both out, so a tool \
     result with `0.5` in it would be invalid; taken as an oversight, accepted as JSON",
)];

#[test]
fn derived_json_schema_matches_upstream_definitions() {
    let mut unexplained = Vec::new();
    let mut stale = Vec::new();
    let mut report = Vec::new();
    for h in VERSIONS {
        let path = root().join("schema").join(h.version).join("schema.json");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let up_defs = doc
            .get("definitions")
            .or_else(|| doc.get("$defs"))
            .and_then(Value::as_object)
            .expect("a definitions table");
        let found = differences(h, up_defs);
        let allowed: BTreeSet<&str> = ALLOWED
            .iter()
            .filter(|(vs, _, _)| vs.contains(&h.version))
            .map(|(_, d, _)| *d)
            .collect();
        for d in &found {
            if !allowed.contains(d.as_str()) {
                unexplained.push(format!("{}: {d}", h.version));
            }
        }
        for a in &allowed {
            if !found.contains(*a) {
                stale.push(format!("{}: {a}", h.version));
            }
        }
        report.push(format!(
            "{}: {} definitions compared, {} differences ({} allowed)",
            h.version,
            h.definitions.len(),
            found.len(),
            found
                .iter()
                .filter(|d| allowed.contains(d.as_str()))
                .count()
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} unexplained differences:\n  {}\n{} allow-list entries that no longer differ:\n  {}",
        unexplained.len(),
        unexplained.join("\n  "),
        stale.len(),
        stale.join("\n  ")
    );
}

/// Every difference between the derived schemas of a version and `up_defs`.
fn differences(h: &Harness, up_defs: &Map<String, Value>) -> BTreeSet<String> {
    let rust_to_schema: HashMap<&str, &str> = h.definitions.iter().map(|(s, r)| (*r, *s)).collect();
    let derived: Vec<(&str, Value)> = h
        .definitions
        .iter()
        .map(|(name, _)| {
            let schema = (h.schema)(name).expect("a schema for every definition");
            (*name, schema.to_value())
        })
        .collect();
    let our_roots: HashMap<&str, Map<String, Value>> =
        derived.iter().map(|(n, v)| (*n, strip(v))).collect();
    let mut found = BTreeSet::new();
    for (schema_name, ours) in &derived {
        let empty = Map::new();
        let our_defs = ours
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut cx = Cx {
            up_defs,
            our_defs,
            rust_to_schema: &rust_to_schema,
            our_roots: &our_roots,
            open: HashSet::new(),
            diffs: Vec::new(),
        };
        cx.compare(&up_defs[*schema_name], ours, schema_name);
        found.extend(cx.diffs);
    }
    found
}

struct Cx<'a> {
    up_defs: &'a Map<String, Value>,
    our_defs: &'a Map<String, Value>,
    rust_to_schema: &'a HashMap<&'a str, &'a str>,
    /// The derived schema of every definition, by schema name, without annotations.
    our_roots: &'a HashMap<&'a str, Map<String, Value>>,
    /// Pairs of references being compared further up: a cycle is equal so far.
    open: HashSet<(String, String)>,
    diffs: Vec<String>,
}

/// The name a `$ref` points at, if the node is one.
fn ref_name(v: &Value) -> Option<&str> {
    let r = v.get("$ref")?.as_str()?;
    r.rsplit('/').next()
}

const DROPPED: &[&str] = &[
    "description",
    "title",
    "$schema",
    "format",
    "minimum",
    "maximum",
    "maxItems",
    "default",
    "examples",
    "$defs",
    "definitions",
];

/// A node in the common vocabulary.
#[derive(Debug)]
enum Shape {
    Any,
    Ref(String),
    /// Allowed values (`const`/`enum`).
    Values(BTreeSet<String>),
    Union(Vec<Value>),
    Typed(String, Map<String, Value>),
}

fn strip(v: &Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m
            .iter()
            .filter(|(k, _)| !DROPPED.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        // `true` is any value.
        _ => Map::new(),
    }
}

impl Cx<'_> {
    fn diff(&mut self, path: &str, what: String) {
        self.diffs.push(format!("{path}: {what}"));
    }

    /// Merges an upstream `allOf` into one object schema.
    fn merge_all_of(&self, m: &Map<String, Value>) -> Map<String, Value> {
        let mut out = m.clone();
        let Some(arms) = out.remove("allOf").and_then(|a| a.as_array().cloned()) else {
            return out;
        };
        let mut props = Map::new();
        let mut required = BTreeSet::new();
        for arm in arms {
            let arm = match ref_name(&arm) {
                Some(n) => self.merge_all_of(&strip(&self.up_defs[n])),
                None => self.merge_all_of(&strip(&arm)),
            };
            for (k, v) in arm {
                match k.as_str() {
                    "properties" => {
                        for (p, s) in v.as_object().cloned().unwrap_or_default() {
                            let merged = match (props.remove(&p), s) {
                                (Some(Value::Object(mut a)), Value::Object(b)) => {
                                    a.extend(b);
                                    Value::Object(a)
                                }
                                (_, s) => s,
                            };
                            props.insert(p, merged);
                        }
                    }
                    "required" => required.extend(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|r| r.as_str().map(str::to_string)),
                    ),
                    _ => {
                        out.entry(k).or_insert(v);
                    }
                }
            }
        }
        out.insert("type".into(), json!("object"));
        out.insert("properties".into(), Value::Object(props));
        out.insert("required".into(), json!(required));
        out
    }

    fn shape(&self, v: &Value, upstream: bool) -> (Shape, bool) {
        let mut m = strip(v);
        if upstream && m.contains_key("allOf") {
            m = self.merge_all_of(&m);
        }
        if let Some(n) = ref_name(v) {
            return (Shape::Ref(n.to_string()), false);
        }
        // `type: [a, b]`: one arm per type.
        if let Some(Value::Array(types)) = m.get("type").cloned() {
            let arms = types
                .iter()
                .map(|t| {
                    let mut arm = m.clone();
                    arm.insert("type".into(), t.clone());
                    Value::Object(arm)
                })
                .collect();
            return self.union_shape(arms, upstream);
        }
        if let Some(arms) = m.get("anyOf").or_else(|| m.get("oneOf")) {
            let arms = arms.as_array().cloned().unwrap_or_default();
            return self.union_shape(arms, upstream);
        }
        if let Some(c) = m.get("const") {
            return (Shape::Values([c.to_string()].into()), false);
        }
        if let Some(Value::Array(vals)) = m.get("enum") {
            return (
                Shape::Values(vals.iter().map(Value::to_string).collect()),
                false,
            );
        }
        match m.get("type").and_then(Value::as_str) {
            Some(t) => (Shape::Typed(t.to_string(), m.clone()), false),
            None if m.contains_key("properties") => (Shape::Typed("object".into(), m), false),
            None => (Shape::Any, false),
        }
    }

    /// A union, with its `null` arms taken out as nullability.
    fn union_shape(&self, arms: Vec<Value>, upstream: bool) -> (Shape, bool) {
        let is_null = |a: &Value| a.get("type") == Some(&json!("null"));
        let arms = flatten(arms);
        let nullable = arms.iter().any(is_null);
        let mut arms: Vec<Value> = arms.into_iter().filter(|a| !is_null(a)).collect();
        // Arms that are each a different JSON type (no references) are compared by type.
        let types: Option<BTreeSet<String>> = arms
            .iter()
            .map(|a| match (ref_name(a), a.get("type")) {
                (None, Some(Value::String(t))) => Some(t.clone()),
                _ => None,
            })
            .collect();
        if types.is_some_and(|t| t.len() == arms.len()) {
            arms.sort_by_key(|a| a["type"].as_str().unwrap_or_default().to_string());
        }
        if arms.len() == 1 {
            let (s, n) = self.shape(&arms[0], upstream);
            return (s, n || nullable);
        }
        // Every arm a constant: a set of values.
        let consts: Option<BTreeSet<String>> = arms
            .iter()
            .map(|a| strip(a).get("const").map(Value::to_string))
            .collect();
        match consts {
            Some(vals) if !arms.is_empty() => (Shape::Values(vals), nullable),
            _ => (Shape::Union(arms), nullable),
        }
    }

    fn compare(&mut self, up: &Value, ours: &Value, path: &str) {
        // Ours says here exactly what the generated type of the upstream reference says
        // (an alias the derive inlines): equal here; that definition is compared itself.
        if let Some(u) = ref_name(up)
            && ref_name(ours).is_none()
            && self.our_roots.get(u) == Some(&strip(ours))
        {
            return;
        }
        let (us, un) = self.shape(up, true);
        let (os, on) = self.shape(ours, false);
        self.compare_shapes(us, un, os, on, path);
    }

    fn compare_shapes(&mut self, us: Shape, un: bool, os: Shape, on: bool, path: &str) {
        // References: the same definition on both sides is equal here; otherwise follow.
        if let (Shape::Ref(u), Shape::Ref(o)) = (&us, &os)
            && self.rust_to_schema.get(o.as_str()) == Some(&u.as_str())
        {
            if un != on {
                self.diff(path, format!("nullable: upstream {un}, ours {on}"));
            }
            return;
        }
        if matches!(us, Shape::Ref(_)) || matches!(os, Shape::Ref(_)) {
            let key = (
                match &us {
                    Shape::Ref(u) => u.clone(),
                    _ => String::new(),
                },
                match &os {
                    Shape::Ref(o) => o.clone(),
                    _ => String::new(),
                },
            );
            if !self.open.insert(key.clone()) {
                return;
            }
            let (us, un2) = match &us {
                Shape::Ref(u) => {
                    let target = self.up_defs.get(u).cloned().unwrap_or(Value::Null);
                    self.shape(&target, true)
                }
                _ => (us, false),
            };
            let (os, on2) = match &os {
                Shape::Ref(o) => {
                    let target = self.our_defs.get(o).cloned().unwrap_or(Value::Null);
                    self.shape(&target, false)
                }
                _ => (os, false),
            };
            self.compare_shapes(us, un || un2, os, on || on2, path);
            self.open.remove(&key);
            return;
        }
        if un != on {
            self.diff(path, format!("nullable: upstream {un}, ours {on}"));
        }
        match (us, os) {
            (Shape::Any, Shape::Any) => {}
            (Shape::Values(a), Shape::Values(b)) => {
                if a != b {
                    self.diff(path, format!("values: upstream {a:?}, ours {b:?}"));
                }
            }
            (Shape::Union(a), Shape::Union(b)) => {
                if a.len() != b.len() {
                    self.diff(
                        path,
                        format!("union arms: upstream {}, ours {}", a.len(), b.len()),
                    );
                    return;
                }
                for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                    self.compare(x, y, &format!("{path}|{i}"));
                }
            }
            (Shape::Typed(ta, a), Shape::Typed(tb, b)) => {
                if ta != tb {
                    self.diff(path, format!("type: upstream {ta}, ours {tb}"));
                    return;
                }
                match ta.as_str() {
                    "object" => self.compare_objects(&a, &b, path),
                    "array" => {
                        let none = json!({});
                        let x = a.get("items").unwrap_or(&none).clone();
                        let y = b.get("items").unwrap_or(&none).clone();
                        self.compare(&x, &y, &format!("{path}[]"));
                    }
                    _ => {}
                }
            }
            (a, b) => self.diff(
                path,
                format!("kind: upstream {}, ours {}", word(&a), word(&b)),
            ),
        }
    }

    fn compare_objects(&mut self, a: &Map<String, Value>, b: &Map<String, Value>, path: &str) {
        let props = |m: &Map<String, Value>| -> BTreeMap<String, Value> {
            m.get("properties")
                .and_then(Value::as_object)
                .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default()
        };
        let required = |m: &Map<String, Value>| -> BTreeSet<String> {
            m.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        };
        let (pa, pb) = (props(a), props(b));
        let (ra, rb) = (required(a), required(b));
        for k in pa.keys().filter(|k| !pb.contains_key(*k)) {
            self.diff(path, format!("property `{k}` missing from ours"));
        }
        for k in pb.keys().filter(|k| !pa.contains_key(*k)) {
            self.diff(path, format!("property `{k}` not upstream"));
        }
        if ra != rb {
            self.diff(path, format!("required: upstream {ra:?}, ours {rb:?}"));
        }
        for (k, x) in &pa {
            if let Some(y) = pb.get(k) {
                self.compare(x, y, &format!("{path}.{k}"));
            }
        }
        let extra = |m: &Map<String, Value>| -> Option<Value> {
            match m.get("additionalProperties") {
                None | Some(Value::Bool(true)) => Some(json!({})),
                Some(Value::Bool(false)) => None,
                Some(s) => Some(s.clone()),
            }
        };
        match (extra(a), extra(b)) {
            (None, None) => {}
            (Some(x), Some(y)) => self.compare(&x, &y, &format!("{path}.*")),
            (x, y) => self.diff(
                path,
                format!(
                    "additionalProperties: upstream {}, ours {}",
                    if x.is_some() { "open" } else { "closed" },
                    if y.is_some() { "open" } else { "closed" }
                ),
            ),
        }
    }
}

/// Expands arms that are unions themselves (`anyOf`, `oneOf`, a list of types) into their
/// arms: `a | (b | c)` is `a | b | c`.
fn flatten(arms: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::new();
    for arm in arms {
        let m = strip(&arm);
        if ref_name(&arm).is_some() {
            out.push(arm);
        } else if let Some(inner) = m.get("anyOf").or_else(|| m.get("oneOf")) {
            out.extend(flatten(inner.as_array().cloned().unwrap_or_default()));
        } else if let Some(Value::Array(types)) = m.get("type") {
            out.extend(types.iter().map(|t| {
                let mut one = m.clone();
                one.insert("type".into(), t.clone());
                Value::Object(one)
            }));
        } else {
            out.push(arm);
        }
    }
    out
}

fn word(s: &Shape) -> String {
    match s {
        Shape::Any => "any value".into(),
        Shape::Ref(r) => format!("ref {r}"),
        Shape::Values(v) => format!("values {v:?}"),
        Shape::Union(a) => format!("union of {}", a.len()),
        Shape::Typed(t, _) => t.clone(),
    }
}

/// The comparison can fail: each planted change to an upstream definition is reported.
#[test]
fn planted_schema_changes_are_reported() {
    let h = VERSIONS.iter().find(|h| h.version == "2025-11-25").unwrap();
    let path = root().join("schema").join(h.version).join("schema.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let defs = doc["$defs"].as_object().unwrap().clone();
    assert!(
        differences(h, &defs).is_empty(),
        "the unchanged schema agrees"
    );
    type Plant = fn(&mut Map<String, Value>);
    let plants: &[(&str, Plant, &str)] = &[
        (
            "a required property made optional",
            |d| {
                d["Tool"]["required"] = json!(["inputSchema"]);
            },
            "Tool: required",
        ),
        (
            "a property's type changed",
            |d| {
                d["CallToolRequestParams"]["properties"]["name"]["type"] = json!("integer");
            },
            "CallToolRequestParams.name: type: upstream integer, ours string",
        ),
        (
            "a property added",
            |d| {
                d["Implementation"]["properties"]["vendor"] = json!({"type": "string"});
            },
            "Implementation: property `vendor` missing from ours",
        ),
        (
            "an object closed",
            |d| {
                d["Implementation"]["additionalProperties"] = json!(false);
            },
            "Implementation: additionalProperties: upstream closed, ours open",
        ),
        (
            "an enum value added",
            |d| {
                d["LoggingLevel"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("trace"));
            },
            "LoggingLevel: values",
        ),
        (
            "a union arm added",
            |d| {
                d["ContentBlock"]["anyOf"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"$ref": "#/$defs/Role"}));
            },
            "ContentBlock: union arms: upstream 6, ours 5",
        ),
        (
            "nullability removed",
            |d| {
                d["Task"]["properties"]["ttl"]["type"] = json!("integer");
            },
            "Task.ttl: nullable: upstream false, ours true",
        ),
        (
            "a const changed",
            |d| {
                d["CallToolRequest"]["properties"]["method"]["const"] = json!("tools/run");
            },
            "CallToolRequest.method: values",
        ),
        (
            "array items changed",
            |d| {
                d["ListToolsResult"]["properties"]["tools"]["items"] = json!({"type": "string"});
            },
            "ListToolsResult.tools[]: type: upstream string, ours object",
        ),
        (
            "a reference retargeted",
            |d| {
                d["CallToolResult"]["properties"]["content"]["items"] =
                    json!({"$ref": "#/$defs/TextContent"});
            },
            "CallToolResult.content[]: kind",
        ),
    ];
    for (what, plant, expect) in plants {
        let mut changed = defs.clone();
        plant(&mut changed);
        let found = differences(h, &changed);
        assert!(
            found.iter().any(|d| d.starts_with(expect)),
            "{what}: expected a difference starting `{expect}`, got {found:#?}"
        );
    }
}
