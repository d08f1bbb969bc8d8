//! Lowering: a checked [`SchemaDoc`] becomes a sorted [`Model`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::load::SchemaDoc;
use crate::model::{
    ConstDef, ConstValue, Field, JsonKind, Kind, Model, Origin, Signature, TypeDef, TypeRef,
    Variant,
};
use crate::{Error, names, overrides};

/// How deep required-property paths of union arms reach into nested objects.
const SIGNATURE_DEPTH: usize = 2;

struct Lowerer<'a> {
    doc: &'a SchemaDoc,
    /// Schema name → Rust name, for every definition.
    def_names: BTreeMap<String, String>,
    /// Canonical JSON of structured definitions → definition name, for recognising
    /// definitions that upstream inlined again elsewhere.
    canonical: BTreeMap<String, Option<String>>,
    types: BTreeMap<String, TypeDef>,
    consts: BTreeMap<String, ConstDef>,
    /// Marker name of every string const in the document.
    const_names: BTreeMap<String, String>,
    /// The document's notes, and what lowering adds (a pattern it cannot check).
    notes: Vec<String>,
}

/// Lowers a schema document to the model of one protocol version.
pub fn lower(doc: &SchemaDoc, version: &str, schema_sha256: &str) -> Result<Model, Error> {
    let mut def_names = BTreeMap::new();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for name in doc.defs.keys() {
        let rust = overrides::rename(name)
            .map(str::to_string)
            .unwrap_or_else(|| names::item_name(name));
        if let Some(other) = seen.insert(rust.clone(), name.clone()) {
            return Err(Error::at(
                &doc.file,
                &doc.def_pointer(name),
                format!(
                    "definitions `{other}` and `{name}` both become the Rust name `{rust}`; \
                     add a rename to overrides::RENAMES"
                ),
            ));
        }
        def_names.insert(name.clone(), rust);
    }
    let mut canonical: BTreeMap<String, Option<String>> = BTreeMap::new();
    for (name, schema) in &doc.defs {
        if is_structured(schema) {
            canonical
                .entry(canonical_key(schema))
                .and_modify(|e| *e = None)
                .or_insert_with(|| Some(name.clone()));
        }
    }
    let mut lw = Lowerer {
        doc,
        def_names,
        canonical,
        types: BTreeMap::new(),
        consts: BTreeMap::new(),
        const_names: const_names(doc),
        notes: doc.notes.clone(),
    };
    for (name, schema) in &doc.defs {
        lw.lower_def(name, schema)?;
    }
    lw.check_alias_cycles()?;
    lw.newtype_recursive_aliases();
    let methods = crate::methods::methods(&doc.file, &mut lw.types, &lw.consts)?;
    lw.finish_unions()?;
    lw.derive_flags();
    lw.break_cycles();
    Ok(Model {
        version: version.to_string(),
        dialect: doc.dialect,
        schema_sha256: schema_sha256.to_string(),
        types: lw.types.into_values().collect(),
        consts: lw.consts.into_values().collect(),
        methods,
        notes: lw.notes,
    })
}

/// Whether a schema is a string of any value: `type: "string"`, and not an enum, a const, a
/// union, an `allOf` or a reference (what a string rule applies to; a union's open-set arm
/// is one with nothing beside but its description and rules).
fn plain_string(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
        && ["enum", "const", "anyOf", "oneOf", "allOf", "$ref"]
            .iter()
            .all(|k| schema.get(k).is_none())
}

/// The string consts among an object arm's properties (its own, or those of the parts of
/// its `allOf` that are not references), by property.
fn arm_consts(schema: &Value) -> BTreeMap<String, String> {
    let mut parts = vec![schema];
    if let Some(Value::Array(all)) = schema.get("allOf") {
        parts.extend(all.iter().filter(|p| p.get("$ref").is_none()));
    }
    parts
        .iter()
        .filter_map(|p| p.get("properties").and_then(Value::as_object))
        .flat_map(|props| props.iter())
        .filter_map(|(k, p)| Some((k.clone(), p.get("const")?.as_str()?.to_string())))
        .collect()
}

/// Each arm's value of the union's tag, when it has one: the one property to which every
/// arm gives a string const, a different one each (`status`, where every arm of a task's
/// result also says `resultType: "complete"`). What names an anonymous arm.
fn arm_tags(arms: &[Arm]) -> Vec<Option<String>> {
    let consts: Vec<BTreeMap<String, String>> =
        arms.iter().map(|a| arm_consts(&a.schema)).collect();
    // Distinct values, and distinct as the type names they give.
    let distinct = |key: &String| {
        let names: BTreeSet<Option<String>> = consts
            .iter()
            .map(|c| c.get(key).map(|v| names::type_name(v)))
            .collect();
        names.len() == consts.len() && !names.contains(&None)
    };
    let keys: Vec<&String> = consts
        .first()
        .map(|c| c.keys().filter(|k| distinct(k)).collect())
        .unwrap_or_default();
    match keys.as_slice() {
        [key] if consts.len() > 1 => consts.iter().map(|c| c.get(*key).cloned()).collect(),
        _ => vec![None; arms.len()],
    }
}

fn is_structured(schema: &Value) -> bool {
    schema.get("properties").is_some()
        || schema.get("allOf").is_some()
        || has_union(schema)
        || schema.get("items").is_some_and(has_union)
}

/// The union keywords, read alike: the decoder picks an arm by its shape, so `oneOf`'s
/// "exactly one arm" is not checked (loading refuses both at one level).
const UNION_KEYWORDS: [&str; 2] = ["anyOf", "oneOf"];

/// Whether a schema is a union (`anyOf` or `oneOf`).
fn has_union(schema: &Value) -> bool {
    UNION_KEYWORDS.iter().any(|k| schema.get(k).is_some())
}

/// One arm of a union: its schema, its position among the union's arms (which names an
/// anonymous arm), and its pointer.
struct Arm {
    schema: Value,
    index: usize,
    at: String,
}

/// The arms of a union schema (`anyOf` or `oneOf`), each with its pointer under `at`; `None`
/// when the schema is not a union.
fn union_arms(map: &Map<String, Value>, at: &str) -> Option<Vec<Arm>> {
    UNION_KEYWORDS.iter().find_map(|k| match map.get(*k) {
        Some(Value::Array(arms)) => Some(
            arms.iter()
                .enumerate()
                .map(|(index, schema)| Arm {
                    schema: schema.clone(),
                    index,
                    at: format!("{at}/{k}/{index}"),
                })
                .collect(),
        ),
        _ => None,
    })
}

/// An `allOf` with one union part (`allOf: [A, anyOf: [B, C]]`, as the tasks extension
/// writes a result whose shape depends on a status) as the union of its arms each with the
/// other parts (`anyOf: [allOf: [A, B], allOf: [A, C]]`), which is the same set of values;
/// each arm keeps the pointer and the description of the arm it comes from (an error
/// inside a merged arm points at that arm). `None` when the `allOf` has no
/// union part, or more than one (not distributed: refused as before).
fn distributed_all_of(map: &Map<String, Value>, at: &str) -> Option<Vec<Arm>> {
    // The parts, nested `allOf`s (without a `$ref` of their own) flattened.
    fn flatten(parts: &[Value], at: &str, out: &mut Vec<(Value, String)>) {
        for (i, part) in parts.iter().enumerate() {
            let here = format!("{at}/allOf/{i}");
            match part.as_object() {
                Some(m) if !m.contains_key("$ref") => match m.get("allOf") {
                    Some(Value::Array(inner)) => {
                        let mut rest = m.clone();
                        rest.remove("allOf");
                        flatten(inner, &here, out);
                        if !rest.is_empty() {
                            out.push((Value::Object(rest), here));
                        }
                    }
                    _ => out.push((part.clone(), here)),
                },
                _ => out.push((part.clone(), here)),
            }
        }
    }
    let Some(Value::Array(top)) = map.get("allOf") else {
        return None;
    };
    let mut parts = Vec::new();
    flatten(top, at, &mut parts);
    let unions: Vec<usize> = parts
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| {
            p.as_object()
                .is_some_and(|m| UNION_KEYWORDS.iter().any(|k| m.contains_key(*k)))
        })
        .map(|(i, _)| i)
        .collect();
    let [union] = unions.as_slice() else {
        return None;
    };
    let (union_schema, union_at) = &parts[*union];
    let union_map = union_schema.as_object()?;
    let arms = union_arms(union_map, union_at)?;
    // What the union part says beside its union (a `$ref`, properties) holds for every arm.
    let mut beside = union_map.clone();
    for k in UNION_KEYWORDS.iter().chain(&["description"]) {
        beside.remove(*k);
    }
    // The other parts, and what the schema says beside its `allOf` (but its description,
    // which the union carries).
    let mut rest = map.clone();
    rest.remove("allOf");
    rest.remove("description");
    let mut others: Vec<Value> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| i != union)
        .map(|(_, (p, _))| p.clone())
        .collect();
    if !rest.is_empty() {
        others.push(Value::Object(rest));
    }
    if !beside.is_empty() {
        others.push(Value::Object(beside));
    }
    Some(
        arms.into_iter()
            .map(|arm| {
                let description = arm.schema.get("description").cloned();
                let mut all = others.clone();
                all.push(arm.schema);
                let mut schema = serde_json::json!({ "allOf": all });
                if let Some(d) = description {
                    schema["description"] = d;
                }
                Arm {
                    schema,
                    index: arm.index,
                    at: arm.at,
                }
            })
            .collect(),
    )
}

/// The arms of a `type` list (`["string", "integer"]`), one `{"type": t}` per name.
fn type_arms(types: &[String], at: &str) -> Vec<Arm> {
    types
        .iter()
        .enumerate()
        .map(|(index, t)| Arm {
            schema: serde_json::json!({ "type": t }),
            index,
            at: format!("{at}/type/{index}"),
        })
        .collect()
}

/// Whether a union arm accepts `null` only: `{"type": "null"}` or `{"const": null}`, with
/// at most a description beside (where a `title` went). Such an arm makes the rest of
/// the union nullable rather than being an arm of its own.
fn is_null_arm(arm: &Value) -> bool {
    let Value::Object(m) = arm else {
        return false;
    };
    let null_type = m.get("type").map(|t| t == "null");
    let null_const = m.get("const").map(Value::is_null);
    (null_type == Some(true) || null_const == Some(true))
        && null_type != Some(false)
        && null_const != Some(false)
        && m.keys()
            .all(|k| matches!(k.as_str(), "type" | "const" | "description"))
}

fn canonical_key(schema: &Value) -> String {
    let mut s = schema.clone();
    if let Value::Object(m) = &mut s {
        m.remove("description");
    }
    s.to_string()
}

fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn as_object<'v>(
    doc: &SchemaDoc,
    schema: &'v Value,
    at: &str,
) -> Result<&'v Map<String, Value>, Error> {
    schema
        .as_object()
        .ok_or_else(|| Error::at(&doc.file, at, "expected a schema object here"))
}

/// The `type` keyword as a list of names.
fn types_of(doc: &SchemaDoc, schema: &Map<String, Value>, at: &str) -> Result<Vec<String>, Error> {
    match schema.get("type") {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .map(|t| {
                t.as_str().map(str::to_string).ok_or_else(|| {
                    Error::at(
                        &doc.file,
                        &format!("{at}/type"),
                        "`type` entries must be strings",
                    )
                })
            })
            .collect(),
        Some(_) => Err(Error::at(
            &doc.file,
            &format!("{at}/type"),
            "`type` must be a string or an array",
        )),
    }
}

impl Lowerer<'_> {
    fn err(&self, at: &str, msg: impl Into<String>) -> Error {
        Error::at(&self.doc.file, at, msg)
    }

    fn add_type(&mut self, def: TypeDef, at: &str) -> Result<(), Error> {
        if let Some(existing) = self.types.get(&def.name) {
            return Err(self.err(
                at,
                format!(
                    "the Rust name `{}` is produced twice ({:?} and {:?})",
                    def.name, existing.origin, def.origin
                ),
            ));
        }
        self.types.insert(def.name.clone(), def);
        Ok(())
    }

    fn lower_def(&mut self, name: &str, schema: &Value) -> Result<(), Error> {
        let at = self.doc.def_pointer(name);
        let rust = self.def_names[name].clone();
        let kind = if overrides::is_free_form(name) {
            Kind::Alias {
                target: TypeRef::Any,
                newtype: false,
            }
        } else {
            self.lower_kind(schema, &rust, &at)?
        };
        self.add_type(
            TypeDef {
                name: rust,
                origin: Origin::Definition(name.to_string()),
                description: description(schema),
                kind,
                deprecated: None,
                deprecated_values: Default::default(),
                examples: Vec::new(),
                default: false,
                eq_hash: false,
            },
            &at,
        )
    }

    /// Lowers a schema that gets a name of its own.
    fn lower_kind(&mut self, schema: &Value, name: &str, at: &str) -> Result<Kind, Error> {
        let map = as_object(self.doc, schema, at)?;
        if let Some(Value::String(r)) = map.get("$ref") {
            let target = self.doc.resolve_ref(r, &format!("{at}/$ref"))?.to_string();
            return Ok(Kind::Alias {
                target: self.def_ref(&target),
                newtype: false,
            });
        }
        if let Some(arms) = distributed_all_of(map, at) {
            return self.lower_arms(&arms, name, at);
        }
        if map.contains_key("allOf") {
            let merged = self.merge_all_of(map, at)?;
            return self.lower_object(&merged, name, at);
        }
        if let Some(arms) = union_arms(map, at) {
            // A property's `null` arm makes the property nullable (see `lower_ref`, which
            // takes those arms off before it gets here); the model has no nullable type.
            if let Some(null) = arms.iter().find(|a| is_null_arm(&a.schema)) {
                return Err(self.err(
                    &null.at,
                    "a `null` arm in the union of a definition is not supported: the model \
                     has no nullable definition (nullability belongs to the field; write the \
                     `null` arm where a property uses the definition)",
                ));
            }
            return self.lower_arms(&arms, name, at);
        }
        if map.contains_key("enum") {
            return self.lower_enum(map, at);
        }
        let types = types_of(self.doc, map, at)?;
        match types.as_slice() {
            [t] if t == "object" => {
                let has_props = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
                if has_props {
                    self.lower_object(map, name, at)
                } else {
                    let values = self.additional(map, name, at)?.unwrap_or(TypeRef::Any);
                    Ok(Kind::Alias {
                        target: TypeRef::Map(Box::new(values)),
                        newtype: false,
                    })
                }
            }
            [_] => {
                let (ty, nullable) = self.lower_ref(schema, name, at)?;
                debug_assert!(!nullable);
                Ok(Kind::Alias {
                    target: ty,
                    newtype: false,
                })
            }
            // A definition that accepts anything (`{}`, perhaps with its description).
            [] if map.keys().all(|k| k == "description") => Ok(Kind::Alias {
                target: TypeRef::Any,
                newtype: false,
            }),
            [] => Err(self.err(
                at,
                "a definition needs `type`, `$ref`, `anyOf`, `allOf` or `enum`",
            )),
            _ if types.iter().any(|t| t == "null") => Err(self.err(
                at,
                "a nullable definition is not supported; nullability belongs to the field",
            )),
            _ => self.lower_union(&type_arms(&types, at), name),
        }
    }

    /// Lowers the arms of a union (without `null` arms) that gets a name of its own: string
    /// consts are a string enum (their own descriptions, the titles of a titled enum, are
    /// not carried); string consts beside a plain string arm are an open set of strings,
    /// so a `String`; anything else is a union.
    fn lower_arms(&mut self, arms: &[Arm], name: &str, at: &str) -> Result<Kind, Error> {
        let string_const = |a: &Value| -> Option<Value> {
            a.get("const")
                .filter(|c| c.is_string() && a.get("$ref").is_none())
                .cloned()
        };
        // A union of string consts is a string enum.
        let consts: Option<Vec<Value>> = arms.iter().map(|a| string_const(&a.schema)).collect();
        // String consts beside a plain string arm: an open set of strings.
        let open_arm = |a: &Value| {
            plain_string(a)
                && a.as_object().is_some_and(|m| {
                    m.keys().all(|k| {
                        ["type", "description", "pattern", "minLength", "maxLength"]
                            .contains(&k.as_str())
                    })
                })
        };
        if arms.iter().any(|a| open_arm(&a.schema))
            && arms
                .iter()
                .all(|a| open_arm(&a.schema) || string_const(&a.schema).is_some())
        {
            return Ok(Kind::Alias {
                target: TypeRef::String,
                newtype: false,
            });
        }
        if let Some(values) = consts {
            let mut as_enum = Map::new();
            as_enum.insert("enum".into(), Value::Array(values));
            return self.lower_enum(&as_enum, at);
        }
        self.lower_union(arms, name)
    }

    /// Lowers a union used by a property (or an array, a map, an arm) whose arms include
    /// `null` ([`is_null_arm`]): the rest, nullable. One other arm is that arm's type; several
    /// are a union of them named `name`, as a union without `null` would be.
    fn lower_nullable_union(
        &mut self,
        schema: &Value,
        arms: Vec<Arm>,
        name: &str,
        at: &str,
    ) -> Result<(TypeRef, bool), Error> {
        let rest: Vec<Arm> = arms
            .into_iter()
            .filter(|a| !is_null_arm(&a.schema))
            .collect();
        match rest.as_slice() {
            [] => Err(self.err(
                at,
                "every arm of this union is `null`: a value that is always `null` is not supported",
            )),
            [one] => {
                let (ty, _) = self.lower_ref(&one.schema, name, &one.at)?;
                Ok((ty, true))
            }
            _ => {
                let kind = self.lower_arms(&rest, name, at)?;
                let name = self.add_inline(name, schema, kind, at)?;
                Ok((TypeRef::Named(name), true))
            }
        }
    }

    fn def_ref(&self, def: &str) -> TypeRef {
        if overrides::is_free_form(def) {
            TypeRef::Any
        } else {
            TypeRef::Named(self.def_names[def].clone())
        }
    }

    /// Lowers a schema used by a field, an array, a map or a union arm. Anonymous
    /// structures become named types called `name`. Returns the type and nullability.
    fn lower_ref(
        &mut self,
        schema: &Value,
        name: &str,
        at: &str,
    ) -> Result<(TypeRef, bool), Error> {
        if schema == &Value::Bool(true) {
            return Ok((TypeRef::Any, false));
        }
        let map = as_object(self.doc, schema, at)?;
        if let Some(Value::String(r)) = map.get("$ref") {
            let target = self.doc.resolve_ref(r, &format!("{at}/$ref"))?.to_string();
            return Ok((self.def_ref(&target), false));
        }
        if is_structured(schema) {
            if let Some(Some(def)) = self.canonical.get(&canonical_key(schema)) {
                // An anonymous copy of a definition refers to it (not the definition itself,
                // told by its place: a copy may be given the definition's own name, as the
                // tasks extension's inlined `params` are).
                if self.doc.def_pointer(def) != at {
                    return Ok((self.def_ref(&def.clone()), false));
                }
            }
        }
        if let Some(arms) = union_arms(map, at) {
            if arms.iter().any(|a| is_null_arm(&a.schema)) {
                return self.lower_nullable_union(schema, arms, name, at);
            }
        }
        if let Some(c) = map.get("const") {
            return Ok((self.lower_const(c, at)?, false));
        }
        if has_union(schema) || map.contains_key("allOf") || map.contains_key("enum") {
            let kind = self.lower_kind(schema, name, at)?;
            let name = self.add_inline(name, schema, kind, at)?;
            return Ok((TypeRef::Named(name), false));
        }
        let mut types = types_of(self.doc, map, at)?;
        let nullable = types.iter().any(|t| t == "null");
        types.retain(|t| t != "null");
        let ty = match types.as_slice() {
            [] if map.is_empty() || map.keys().all(|k| k == "description") => TypeRef::Any,
            [] => return Err(self.err(at, "cannot tell the type of this schema")),
            [t] => match t.as_str() {
                "string" => TypeRef::String,
                "integer" => match map.get("minimum").and_then(Value::as_f64) {
                    Some(min) if min >= 0.0 => TypeRef::Unsigned,
                    _ => TypeRef::Integer,
                },
                "number" => TypeRef::Number,
                "boolean" => TypeRef::Boolean,
                "array" => {
                    let items = map
                        .get("items")
                        .ok_or_else(|| self.err(at, "an array schema needs `items`"))?;
                    let (item, item_null) =
                        self.lower_ref(items, &format!("{name}Item"), &format!("{at}/items"))?;
                    if item_null {
                        return Err(self.err(
                            &format!("{at}/items"),
                            "nullable array items are not supported",
                        ));
                    }
                    TypeRef::Array(Box::new(item))
                }
                "object" => {
                    let has_props = map
                        .get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| !p.is_empty());
                    if has_props {
                        let kind = self.lower_object(map, name, at)?;
                        TypeRef::Named(self.add_inline(name, schema, kind, at)?)
                    } else {
                        TypeRef::Map(Box::new(
                            self.additional(map, name, at)?.unwrap_or(TypeRef::Any),
                        ))
                    }
                }
                other => {
                    return Err(
                        self.err(&format!("{at}/type"), format!("unsupported type `{other}`"))
                    );
                }
            },
            _ => {
                let kind = self.lower_union(&type_arms(&types, at), name)?;
                TypeRef::Named(self.add_inline(name, schema, kind, at)?)
            }
        };
        Ok((ty, nullable))
    }

    /// Registers an anonymous schema under its path-derived name, `{Parent}{Property}`,
    /// with `Inline` appended when a definition already has that name. Returns the name.
    fn add_inline(
        &mut self,
        name: &str,
        schema: &Value,
        kind: Kind,
        at: &str,
    ) -> Result<String, Error> {
        let name = crate::overrides::inline_name(name).unwrap_or(name);
        let name = if self.def_names.values().any(|n| n == name) {
            format!("{name}Inline")
        } else {
            name.to_string()
        };
        self.add_type(
            TypeDef {
                name: name.clone(),
                origin: Origin::Inline(at.to_string()),
                description: description(schema),
                kind,
                deprecated: None,
                deprecated_values: Default::default(),
                examples: Vec::new(),
                default: false,
                eq_hash: false,
            },
            at,
        )?;
        Ok(name)
    }

    fn lower_const(&mut self, value: &Value, at: &str) -> Result<TypeRef, Error> {
        let (name, value) = match value {
            Value::String(s) => (
                self.const_names
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| names::type_name(s)),
                ConstValue::String(s.clone()),
            ),
            Value::Number(n) if n.is_i64() => {
                let i = n.as_i64().unwrap_or_default();
                let name = if i < 0 {
                    format!("Minus{}", i.unsigned_abs())
                } else {
                    format!("Plus{i}")
                };
                (name, ConstValue::Integer(i))
            }
            Value::Bool(b) => (
                if *b { "True" } else { "False" }.to_string(),
                ConstValue::Boolean(*b),
            ),
            _ => {
                return Err(self.err(
                    &format!("{at}/const"),
                    "only string, integer and boolean consts are supported",
                ));
            }
        };
        if let Some(existing) = self.consts.get(&name) {
            if existing.value != value {
                return Err(self.err(
                    &format!("{at}/const"),
                    format!(
                        "consts {:?} and {:?} both become the marker `{name}`",
                        existing.value, value
                    ),
                ));
            }
        } else {
            self.consts.insert(
                name.clone(),
                ConstDef {
                    name: name.clone(),
                    value,
                },
            );
        }
        Ok(TypeRef::Const(name))
    }

    fn lower_enum(&mut self, map: &Map<String, Value>, at: &str) -> Result<Kind, Error> {
        let Some(Value::Array(values)) = map.get("enum") else {
            return Err(self.err(&format!("{at}/enum"), "`enum` must be an array"));
        };
        let mut out = BTreeSet::new();
        for v in values {
            let s = v.as_str().ok_or_else(|| {
                self.err(&format!("{at}/enum"), "only string enums are supported")
            })?;
            out.insert(s.to_string());
        }
        let mut variants = BTreeMap::new();
        for v in &out {
            if let Some(prev) = variants.insert(names::variant_name(v), v) {
                return Err(self.err(
                    &format!("{at}/enum"),
                    format!("enum values `{prev}` and `{v}` get the same Rust variant name"),
                ));
            }
        }
        Ok(Kind::StringEnum {
            values: out.into_iter().collect(),
        })
    }

    /// The type of additional properties: `None` when the object is closed.
    fn additional(
        &mut self,
        map: &Map<String, Value>,
        name: &str,
        at: &str,
    ) -> Result<Option<TypeRef>, Error> {
        match map.get("additionalProperties") {
            Some(Value::Bool(false)) => Ok(None),
            // JSON Schema's default: any other property is allowed, so it is kept.
            None => Ok(Some(TypeRef::Any)),
            Some(Value::Bool(true)) => Ok(Some(TypeRef::Any)),
            Some(Value::Object(o)) if o.is_empty() => Ok(Some(TypeRef::Any)),
            Some(schema) => {
                let (ty, nullable) = self.lower_ref(
                    schema,
                    &format!("{name}Value"),
                    &format!("{at}/additionalProperties"),
                )?;
                if nullable {
                    return Err(self.err(at, "nullable additional properties are not supported"));
                }
                Ok(Some(ty))
            }
        }
    }

    fn lower_object(
        &mut self,
        map: &Map<String, Value>,
        name: &str,
        at: &str,
    ) -> Result<Kind, Error> {
        let required: BTreeSet<&str> = match map.get("required") {
            None => BTreeSet::new(),
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                return Err(self.err(&format!("{at}/required"), "`required` must be an array"));
            }
        };
        let empty = Map::new();
        let props = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for r in &required {
            if !props.contains_key(*r) {
                return Err(self.err(
                    &format!("{at}/required"),
                    format!("required property `{r}` is not among the properties"),
                ));
            }
        }
        let mut fields = Vec::new();
        let mut rust_names = BTreeMap::new();
        for (wire, schema) in props {
            let here = format!("{at}/properties/{}", crate::load::escape_pointer(wire));
            let field_name = names::field_name(wire);
            if let Some(other) = rust_names.insert(field_name.clone(), wire.clone()) {
                return Err(self.err(
                    &here,
                    format!(
                        "properties `{other}` and `{wire}` both become the field `{field_name}`"
                    ),
                ));
            }
            let inline_name = format!("{name}{}", names::type_name(wire));
            let (ty, nullable) = self.lower_ref(schema, &inline_name, &here)?;
            let text = self.text_rule(schema, &ty, &here)?;
            fields.push(Field {
                name: field_name,
                wire: wire.clone(),
                ty,
                required: required.contains(wire.as_str()),
                nullable,
                boxed: false,
                deprecated: None,
                default: schema.get("default").cloned(),
                description: description(schema),
                text,
            });
        }
        let additional = self.additional(map, name, at)?;
        if additional.is_some() && rust_names.contains_key("extra") {
            return Err(self.err(
                at,
                "an open object with a property named `extra` is not supported",
            ));
        }
        Ok(Kind::Struct { fields, additional })
    }

    /// The `pattern`, `minLength` and `maxLength` of a property held as a `String`: its
    /// schema is a plain string, or a `$ref` to a definition that is one (not an enum, a
    /// const or a union, whose types are not `String`). A pattern the runtime's matcher
    /// does not read is left out, with a note (it stays in the documentation).
    fn text_rule(
        &mut self,
        schema: &Value,
        ty: &TypeRef,
        at: &str,
    ) -> Result<Option<crate::model::TextRule>, Error> {
        let string = match (ty, schema.get("$ref")) {
            (TypeRef::String, None) => schema,
            (TypeRef::Named(_), Some(Value::String(r))) => {
                let target = self.doc.resolve_ref(r, &format!("{at}/$ref"))?;
                &self.doc.defs[target]
            }
            _ => return Ok(None),
        };
        if !plain_string(string) {
            return Ok(None);
        }
        let length = |key: &str| string.get(key).and_then(Value::as_u64);
        let mut pattern = string
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(p) = &pattern {
            if let Err(e) = mcp_spec_rt::pattern::Pattern::parse(p) {
                self.notes.push(format!(
                    "{} at {at}: the pattern `{p}` is documented, not checked: the runtime's \
                     matcher does not read it: {e}",
                    self.doc.file
                ));
                pattern = None;
            }
        }
        let rule = crate::model::TextRule {
            pattern,
            min_length: length("minLength"),
            max_length: length("maxLength"),
        };
        let empty =
            rule.pattern.is_none() && rule.min_length.is_none() && rule.max_length.is_none();
        Ok((!empty).then_some(rule))
    }

    /// Merges the parts of an `allOf` into one object schema.
    fn merge_all_of(
        &self,
        map: &Map<String, Value>,
        at: &str,
    ) -> Result<Map<String, Value>, Error> {
        let mut out = Map::new();
        out.insert("type".into(), Value::String("object".into()));
        let mut props = Map::new();
        let mut required = BTreeSet::new();
        let mut parts: Vec<(Value, String)> = Vec::new();
        if let Some(Value::Array(all)) = map.get("allOf") {
            for (i, part) in all.iter().enumerate() {
                parts.push((part.clone(), format!("{at}/allOf/{i}")));
            }
        }
        let mut rest = map.clone();
        rest.remove("allOf");
        rest.remove("description");
        if !rest.is_empty() {
            parts.push((Value::Object(rest), at.to_string()));
        }
        let mut depth = 0;
        while let Some((part, here)) = parts.first().cloned() {
            parts.remove(0);
            let pmap = as_object(self.doc, &part, &here)?;
            if let Some(Value::String(r)) = pmap.get("$ref") {
                depth += 1;
                if depth > 64 {
                    return Err(self.err(&here, "`$ref` cycle inside `allOf`"));
                }
                let target = self.doc.resolve_ref(r, &format!("{here}/$ref"))?;
                parts.insert(
                    0,
                    (self.doc.defs[target].clone(), self.doc.def_pointer(target)),
                );
                continue;
            }
            if let Some(Value::Array(inner)) = pmap.get("allOf") {
                for (i, p) in inner.iter().enumerate().rev() {
                    parts.insert(0, (p.clone(), format!("{here}/allOf/{i}")));
                }
            }
            for (k, v) in pmap {
                match k.as_str() {
                    "allOf" | "description" => {}
                    "type" if v == "object" => {}
                    ignored
                        if crate::load::IGNORED_KEYWORDS
                            .iter()
                            .any(|(k, _)| *k == ignored) => {}
                    "properties" => {
                        for (pk, pv) in v.as_object().into_iter().flatten() {
                            let merged = match props.remove(pk) {
                                None => pv.clone(),
                                Some(prev) => merge_property(&prev, pv).ok_or_else(|| {
                                    self.err(
                                        &here,
                                        format!("`allOf` parts disagree on property `{pk}`"),
                                    )
                                })?,
                            };
                            props.insert(pk.clone(), merged);
                        }
                    }
                    "required" => {
                        for r in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                            required.insert(r.to_string());
                        }
                    }
                    "additionalProperties" => {
                        // Every part must hold: `false` wins, an open part yields to a
                        // narrower one, and two different schemas are not supported.
                        let open =
                            |x: &Value| *x == Value::Bool(true) || *x == serde_json::json!({});
                        let merged = match out.get(k) {
                            None => v.clone(),
                            Some(prev) if prev == v || open(v) => prev.clone(),
                            Some(prev) if *prev == Value::Bool(false) => prev.clone(),
                            Some(prev) if open(prev) || *v == Value::Bool(false) => v.clone(),
                            Some(_) => {
                                return Err(self.err(
                                    &here,
                                    "`allOf` parts disagree on `additionalProperties`",
                                ));
                            }
                        };
                        out.insert(k.clone(), merged);
                    }
                    other => {
                        return Err(
                            self.err(&here, format!("`{other}` inside `allOf` is not supported"))
                        );
                    }
                }
            }
        }
        out.insert("properties".into(), Value::Object(props));
        out.insert(
            "required".into(),
            Value::Array(required.into_iter().map(Value::String).collect()),
        );
        Ok(out)
    }

    /// Lowers the arms of a union to its variants, in schema order: an arm that is a `type`
    /// list gives a variant per type; an anonymous arm is named by its tag when it has one
    /// of its own (`{name}{Value}`: `GetTaskResultWorking` for `status: "working"`), else
    /// `{name}Variant{i}`. The decoding facts come later
    /// ([`finish_unions`](Self::finish_unions)).
    fn lower_union(&mut self, arms: &[Arm], name: &str) -> Result<Kind, Error> {
        let tags = arm_tags(arms);
        let mut variants: Vec<Variant> = Vec::new();
        for Arm {
            schema: arm,
            index: i,
            at: here,
        } in arms
        {
            let here = here.as_str();
            let map = as_object(self.doc, arm, here)?;
            let mut pieces: Vec<(String, TypeRef)> = Vec::new();
            let types = types_of(self.doc, map, here)?;
            if map.get("$ref").is_none() && types.len() > 1 {
                for t in &types {
                    let (ty, _) = self.lower_ref(&serde_json::json!({ "type": t }), name, here)?;
                    pieces.push((names::type_name(t), ty));
                }
            } else {
                let tag = tags
                    .get(*i)
                    .cloned()
                    .flatten()
                    .filter(|t| tags.iter().filter(|o| o.as_ref() == Some(t)).count() == 1);
                let inline = match tag {
                    Some(tag) => format!("{name}{}", names::type_name(&tag)),
                    None => format!("{name}Variant{i}"),
                };
                let (ty, nullable) = self.lower_ref(arm, &inline, here)?;
                if nullable {
                    return Err(self.err(here, "a nullable union arm is not supported"));
                }
                self.check_const_arm(&ty, &variants, here)?;
                let vname = match &ty {
                    TypeRef::Named(n) => n.clone(),
                    // Several array arms are told apart by their item type.
                    TypeRef::Array(item) => match (&**item, array_arms(arms)) {
                        (TypeRef::Named(n), 2..) => format!("{n}Array"),
                        _ => "Array".to_string(),
                    },
                    TypeRef::Map(_) => "Object".to_string(),
                    TypeRef::String => "String".to_string(),
                    TypeRef::Integer | TypeRef::Unsigned => "Integer".to_string(),
                    TypeRef::Number => "Number".to_string(),
                    TypeRef::Boolean => "Boolean".to_string(),
                    TypeRef::Const(c) => c.clone(),
                    TypeRef::Any => {
                        return Err(self.err(
                            here,
                            "an arm that accepts anything makes the union meaningless",
                        ));
                    }
                };
                pieces.push((vname, ty));
            }
            for (vname, ty) in pieces {
                if variants.iter().any(|v| v.name == vname) {
                    return Err(self.err(
                        here,
                        format!("two arms of this union are both called `{vname}`"),
                    ));
                }
                variants.push(Variant {
                    name: vname,
                    ty,
                    boxed: false,
                    signature: Signature::unknown(JsonKind::Null),
                });
            }
        }
        Ok(Kind::Union {
            variants,
            tag: None,
        })
    }

    /// Refuses an integer or boolean const arm beside another const arm of the same JSON
    /// kind: the decoder tells arms apart by shape and string tags, not by a number's or
    /// a boolean's value, so such a union (`oneOf` of `{"const": 1}`, `{"const": 2}`) has
    /// no simple Rust form; only string consts become an enum.
    fn check_const_arm(&self, ty: &TypeRef, before: &[Variant], at: &str) -> Result<(), Error> {
        let kind = |ty: &TypeRef| match ty {
            TypeRef::Const(c) => match self.consts.get(c).map(|k| &k.value) {
                Some(ConstValue::Integer(_)) => Some("integer"),
                Some(ConstValue::Boolean(_)) => Some("boolean"),
                Some(ConstValue::String(_)) | None => None,
            },
            _ => None,
        };
        let Some(this) = kind(ty) else {
            return Ok(());
        };
        match before.iter().find(|v| kind(&v.ty) == Some(this)) {
            Some(other) => Err(self.err(
                at,
                format!(
                    "a union of {this} consts (`{}` and this arm's) is not supported: only \
                     string consts become an enum; use `\"type\": \"{this}\"`",
                    other.name
                ),
            )),
            None => Ok(()),
        }
    }

    /// Fails on a definition that is only an alias of itself through a chain of `$ref`s.
    fn check_alias_cycles(&self) -> Result<(), Error> {
        for t in self.types.values() {
            let mut seen = BTreeSet::new();
            let mut cur = &t.name;
            while let Some(Kind::Alias {
                target: TypeRef::Named(next),
                ..
            }) = self.types.get(cur).map(|t| &t.kind)
            {
                if !seen.insert(cur.clone()) {
                    let at = match &t.origin {
                        Origin::Definition(d) => self.doc.def_pointer(d),
                        Origin::Inline(p) | Origin::Results(p) => p.clone(),
                    };
                    return Err(
                        self.err(&at, format!("`$ref` cycle: `{}` refers to itself", t.name))
                    );
                }
                cur = next;
            }
        }
        Ok(())
    }

    /// Makes a newtype of every alias whose target holds the alias itself through an array
    /// or a map (`As = { [key]: As }`): a Rust type alias cannot refer to itself, a struct
    /// can. In name order, and an alias made a newtype counts as a type of its own after
    /// that, so a cycle of several aliases gets one newtype.
    fn newtype_recursive_aliases(&mut self) {
        fn holds(
            types: &BTreeMap<String, TypeDef>,
            ty: &TypeRef,
            own: &str,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            match ty {
                TypeRef::Named(n) if n == own => true,
                TypeRef::Named(n) => match types.get(n).map(|t| &t.kind) {
                    Some(Kind::Alias {
                        target,
                        newtype: false,
                    }) if seen.insert(n.clone()) => holds(types, target, own, seen),
                    _ => false,
                },
                TypeRef::Array(inner) | TypeRef::Map(inner) => holds(types, inner, own, seen),
                _ => false,
            }
        }
        let names: Vec<String> = self.types.keys().cloned().collect();
        for n in names {
            let recursive = match &self.types[&n].kind {
                Kind::Alias { target, .. } => holds(&self.types, target, &n, &mut BTreeSet::new()),
                _ => false,
            };
            if recursive {
                if let Some(Kind::Alias { newtype, .. }) =
                    self.types.get_mut(&n).map(|t| &mut t.kind)
                {
                    *newtype = true;
                }
            }
        }
    }

    /// Follows aliases to the type a reference finally denotes.
    fn resolve<'t>(&'t self, ty: &'t TypeRef) -> &'t TypeRef {
        let mut cur = ty;
        for _ in 0..32 {
            match cur {
                TypeRef::Named(n) => match self.types.get(n).map(|t| &t.kind) {
                    Some(Kind::Alias { target, .. }) => cur = target,
                    _ => return cur,
                },
                _ => return cur,
            }
        }
        cur
    }

    fn struct_fields(&self, ty: &TypeRef) -> Option<&Vec<Field>> {
        match self.resolve(ty) {
            TypeRef::Named(n) => match self.types.get(n).map(|t| &t.kind) {
                Some(Kind::Struct { fields, .. }) => Some(fields),
                _ => None,
            },
            _ => None,
        }
    }

    fn required_paths(
        &self,
        fields: &[Field],
        prefix: &[String],
        depth: usize,
        out: &mut Vec<Vec<String>>,
    ) {
        for f in fields.iter().filter(|f| f.required) {
            let mut path = prefix.to_vec();
            path.push(f.wire.clone());
            out.push(path.clone());
            if depth > 1 {
                if let Some(sub) = self.struct_fields(&f.ty) {
                    self.required_paths(sub, &path, depth - 1, out);
                }
            }
        }
    }

    /// The values a field can take if it is a const or a string enum.
    fn tag_values(&self, ty: &TypeRef) -> Option<Vec<String>> {
        match self.resolve(ty) {
            TypeRef::Const(c) => match &self.consts[c].value {
                ConstValue::String(s) => Some(vec![s.clone()]),
                ConstValue::Integer(_) | ConstValue::Boolean(_) => None,
            },
            TypeRef::Named(n) => match &self.types[n].kind {
                Kind::StringEnum { values } => Some(values.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    fn signature(&self, ty: &TypeRef, at: &str) -> Result<Signature, Error> {
        self.signature_within(ty, at, &mut Vec::new())
    }

    /// [`signature`](Self::signature), inside the unions named in `within` (arms of one
    /// another): a union that is an arm of itself has no JSON kind to tell it by.
    fn signature_within(
        &self,
        ty: &TypeRef,
        at: &str,
        within: &mut Vec<String>,
    ) -> Result<Signature, Error> {
        let mut sig = Signature::unknown(JsonKind::Object);
        match self.resolve(ty) {
            TypeRef::Named(n) if within.contains(n) => {
                return Err(self.err(
                    at,
                    format!(
                        "union `{n}` is an arm of itself (through {}): no value tells that arm apart",
                        within.iter().map(|u| format!("`{u}`")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            TypeRef::Named(n) => match &self.types[n].kind {
                Kind::Struct { fields, .. } => {
                    self.required_paths(fields, &[], SIGNATURE_DEPTH, &mut sig.required);
                    sig.required.sort();
                    sig.known = fields.iter().map(|f| f.wire.clone()).collect();
                    sig.known.sort();
                }
                Kind::StringEnum { .. } => sig.json = JsonKind::String,
                Kind::Union { variants, .. } => {
                    within.push(n.clone());
                    let kinds: BTreeSet<JsonKind> = variants
                        .iter()
                        .map(|v| self.signature_within(&v.ty, at, within).map(|s| s.json))
                        .collect::<Result<_, _>>()?;
                    within.pop();
                    if kinds.len() != 1 {
                        return Err(self.err(at, format!("union `{n}` of several JSON kinds cannot be an arm of another union")));
                    }
                    sig.json = kinds.into_iter().next().unwrap_or(JsonKind::Object);
                    for v in variants {
                        if v.signature.alts.is_empty() {
                            sig.alts.push(v.signature.clone());
                        } else {
                            sig.alts.extend(v.signature.alts.iter().cloned());
                        }
                    }
                }
                Kind::Alias { .. } => {
                    return Err(self.err(at, format!("alias cycle through `{n}`")));
                }
            },
            TypeRef::Const(c) => {
                sig.json = match self.consts[c].value {
                    ConstValue::String(_) => JsonKind::String,
                    ConstValue::Integer(_) => JsonKind::Integer,
                    ConstValue::Boolean(_) => JsonKind::Boolean,
                }
            }
            TypeRef::Array(inner) => {
                sig.json = JsonKind::Array;
                sig.items = match self.resolve(inner) {
                    TypeRef::Named(n) => match &self.types[n].kind {
                        Kind::Union { variants, .. } => {
                            variants.iter().map(|v| v.signature.clone()).collect()
                        }
                        _ => vec![self.signature_within(inner, at, within)?],
                    },
                    // An array of arrays: the rules see that the element is an array and
                    // look no further (an array that holds itself ends here).
                    TypeRef::Array(_) => vec![Signature::unknown(JsonKind::Array)],
                    _ => vec![self.signature_within(inner, at, within)?],
                };
                // The rules look at the first element only, not into arrays inside it: so
                // a union that holds arrays of itself has facts of a finite size.
                for item in &mut sig.items {
                    item.items.clear();
                }
            }
            other => sig.json = other.json_kind().unwrap_or(JsonKind::Object),
        }
        Ok(sig)
    }

    /// Computes each union's decoding facts: arm signatures, tag, and shadowed arms.
    /// Unions are processed so that a union used inside an array arm is done first.
    fn finish_unions(&mut self) -> Result<(), Error> {
        let union_names: Vec<String> = self
            .types
            .values()
            .filter(|t| matches!(t.kind, Kind::Union { .. }))
            .map(|t| t.name.clone())
            .collect();
        // Unions nest (array items, arms that are unions): each pass recomputes every
        // union's facts from the current facts of the types inside it, until a pass
        // changes nothing; then a last pass checks the arms. A chain of n unions nested in
        // one another settles in at most n + 1 passes, so more means the facts do not
        // converge, which is a generator bug, reported rather than emitted.
        let limit = union_names.len() + 1;
        for _ in 0..=limit {
            let mut changed = false;
            for name in &union_names {
                changed |= self.finish_union(name, false)?;
            }
            if !changed {
                for name in &union_names {
                    self.finish_union(name, true)?;
                }
                return Ok(());
            }
        }
        Err(Error::msg(format!(
            "internal error: the facts of {} unions did not settle in {limit} passes",
            union_names.len()
        )))
    }

    /// Computes the facts of union `name` from the current facts of its arms (and, with
    /// `check`, refuses arms no JSON value tells apart); returns whether they changed.
    fn finish_union(&mut self, name: &str, check: bool) -> Result<bool, Error> {
        let at = match &self.types[name].origin {
            Origin::Definition(d) => self.doc.def_pointer(d),
            Origin::Inline(p) | Origin::Results(p) => p.clone(),
        };
        let Kind::Union { variants, .. } = &self.types[name].kind else {
            return Ok(false);
        };
        let mut variants = variants.clone();
        for v in &mut variants {
            v.signature = self.signature(&v.ty, &at)?;
        }
        // A tag: a property every object arm has as a const or string enum, with at least
        // two distinct values; the one with the most distinct values wins.
        let object_arms: Vec<usize> = (0..variants.len())
            .filter(|&i| variants[i].signature.json == JsonKind::Object)
            .collect();
        let mut tag = None;
        if object_arms.len() > 1 {
            let mut candidates: Option<BTreeSet<String>> = None;
            for &i in &object_arms {
                let props: BTreeSet<String> = self
                    .struct_fields(&variants[i].ty)
                    .map(|fs| {
                        fs.iter()
                            .filter(|f| self.tag_values(&f.ty).is_some())
                            .map(|f| f.wire.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                candidates = Some(match candidates {
                    None => props,
                    Some(c) => c.intersection(&props).cloned().collect(),
                });
            }
            let mut best: Option<(usize, String)> = None;
            for prop in candidates.unwrap_or_default() {
                let mut distinct = BTreeSet::new();
                for &i in &object_arms {
                    for f in self.struct_fields(&variants[i].ty).into_iter().flatten() {
                        if f.wire == prop {
                            distinct.extend(self.tag_values(&f.ty).unwrap_or_default());
                        }
                    }
                }
                if distinct.len() >= 2 && best.as_ref().is_none_or(|(n, _)| distinct.len() > *n) {
                    best = Some((distinct.len(), prop));
                }
            }
            if let Some((_, prop)) = best {
                for &i in &object_arms {
                    let field = self
                        .struct_fields(&variants[i].ty)
                        .and_then(|fs| fs.iter().find(|f| f.wire == prop))
                        .cloned();
                    if let Some(f) = field {
                        let sig = &mut variants[i].signature;
                        sig.tags = self.tag_values(&f.ty).unwrap_or_default();
                        sig.tag_optional = !f.required;
                    }
                }
                tag = Some(prop);
            }
        }
        if tag.is_none() {
            let implied = object_arms.iter().find_map(|&i| {
                overrides::implied_tag(&self.schema_name(&variants[i].ty)).map(|t| (i, t))
            });
            if let Some((arm, (prop, value, other))) = implied {
                for &i in &object_arms {
                    // An arm that gives the property values of its own (a const: an
                    // extension's `resultType: "task"`) is chosen by them.
                    let own = self
                        .struct_fields(&variants[i].ty)
                        .and_then(|fs| fs.iter().find(|f| f.wire == prop))
                        .and_then(|f| Some((self.tag_values(&f.ty)?, f.required)))
                        .filter(|(tags, _)| !tags.is_empty());
                    let sig = &mut variants[i].signature;
                    if i == arm {
                        sig.tags = vec![value.to_string()];
                        sig.tag_optional = false;
                    } else if let Some((tags, required)) = own {
                        sig.tags = tags;
                        sig.tag_optional = !required;
                    } else {
                        sig.tags = vec![other.to_string()];
                        sig.tag_optional = true;
                    }
                }
                tag = Some(prop.to_string());
            }
        }
        for v in &mut variants {
            if let Some(chosen) = overrides::chosen_instead_of(&self.schema_name(&v.ty)) {
                v.signature.shadowed_by = Some(self.def_names[chosen].clone());
            }
        }
        // Arms that no JSON value tells apart must be listed in the override table. An
        // arm that is itself a union is compared through each of its own arms.
        if check {
            let flat = |s: &Signature| -> Vec<Signature> {
                if s.alts.is_empty() {
                    vec![s.clone()]
                } else {
                    s.alts.clone()
                }
            };
            for i in 0..variants.len() {
                for j in i + 1..variants.len() {
                    let (sa, sb) = (&variants[i].signature, &variants[j].signature);
                    if sa.shadowed_by.is_some() || sb.shadowed_by.is_some() {
                        continue;
                    }
                    let (fa, fb) = (flat(sa), flat(sb));
                    let clash = fa
                        .iter()
                        .any(|a| fb.iter().any(|b| indistinguishable(a, b)));
                    if clash {
                        return Err(self.err(
                            &at,
                            format!(
                                "union `{name}`: arms `{}` and `{}` cannot be told apart by any \
                                 JSON value; list one in overrides::INDISTINGUISHABLE_ARMS",
                                variants[i].name, variants[j].name
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(TypeDef {
            kind: Kind::Union {
                variants: v,
                tag: t,
            },
            ..
        }) = self.types.get_mut(name)
        {
            let changed = *v != variants || *t != tag;
            *v = variants;
            *t = tag;
            return Ok(changed);
        }
        Ok(false)
    }

    fn schema_name(&self, ty: &TypeRef) -> String {
        match ty {
            TypeRef::Named(n) => match self.types.get(n).map(|t| &t.origin) {
                Some(Origin::Definition(d)) => d.clone(),
                _ => n.clone(),
            },
            _ => String::new(),
        }
    }

    /// Decides which types can derive `Default`, `Eq` and `Hash`, each a fixpoint over the
    /// graph of types. `Default` is the least one (a struct has it once every required
    /// property's type has it, so a cycle of required properties, which no finite value
    /// fills, never gets it: its `default()` would not end); `Eq` and `Hash` the greatest
    /// (a type has them unless something inside it has not).
    fn derive_flags(&mut self) {
        for t in self.types.values_mut() {
            t.default = false;
            t.eq_hash = true;
        }
        loop {
            let mut changed = false;
            let names: Vec<String> = self.types.keys().cloned().collect();
            for n in names {
                let t = &self.types[&n];
                let (default, eq_hash) = match &t.kind {
                    Kind::Struct { fields, additional } => {
                        let default = fields
                            .iter()
                            .all(|f| !f.required || f.nullable || self.ty_default(&f.ty));
                        let eq_hash = t.eq_hash
                            && additional.as_ref().is_none_or(|a| self.ty_eq_hash(a))
                            && fields.iter().all(|f| self.ty_eq_hash(&f.ty));
                        (default, eq_hash)
                    }
                    Kind::StringEnum { .. } => (false, true),
                    Kind::Union { variants, .. } => (
                        false,
                        t.eq_hash && variants.iter().all(|v| self.ty_eq_hash(&v.ty)),
                    ),
                    Kind::Alias { target, .. } => (
                        self.ty_default(target),
                        t.eq_hash && self.ty_eq_hash(target),
                    ),
                };
                let t = self.types.get_mut(&n).expect("type exists");
                if (t.default, t.eq_hash) != (default, eq_hash) {
                    t.default = default;
                    t.eq_hash = eq_hash;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Puts behind a `Box` every field and union arm that closes a cycle of types holding
    /// one another by value (`Node { next: Node }`, `Expr = string | { arg: Expr }`, or
    /// through several definitions), so that every type has a size; a `Vec` or a map on
    /// the way already breaks a cycle. The cycles are found by one depth-first walk over
    /// the types in name order, boxing each edge back into the walk's path (so the choice
    /// is deterministic, and every cycle loses at least one edge). Fields whose type
    /// `overrides::BOXED` lists are boxed too.
    fn break_cycles(&mut self) {
        // Each type's by-value references: (index of the field or arm, the type it holds).
        let out: BTreeMap<String, Vec<(usize, String)>> = self
            .types
            .iter()
            .map(|(n, t)| {
                // Every by-value reference, those to `overrides::BOXED` types too: a field
                // of such a type is boxed below anyway, but an arm or an alias of it is not.
                let holds = |i: usize, ty: &TypeRef| match self.resolve(ty) {
                    TypeRef::Named(to) => Some((i, to.clone())),
                    _ => None,
                };
                let edges = match &t.kind {
                    Kind::Struct { fields, .. } => fields
                        .iter()
                        .enumerate()
                        .filter_map(|(i, f)| holds(i, &f.ty))
                        .collect(),
                    Kind::Union { variants, .. } => variants
                        .iter()
                        .enumerate()
                        .filter_map(|(i, v)| holds(i, &v.ty))
                        .collect(),
                    Kind::StringEnum { .. } | Kind::Alias { .. } => Vec::new(),
                };
                (n.clone(), edges)
            })
            .collect();
        fn walk<'a>(
            at: &'a str,
            out: &'a BTreeMap<String, Vec<(usize, String)>>,
            on_path: &mut BTreeMap<&'a str, bool>,
            back: &mut Vec<(String, usize)>,
        ) {
            on_path.insert(at, true);
            for (i, to) in out.get(at).into_iter().flatten() {
                match on_path.get(to.as_str()) {
                    Some(true) => back.push((at.to_string(), *i)),
                    Some(false) => {}
                    None => walk(to, out, on_path, back),
                }
            }
            on_path.insert(at, false);
        }
        let mut on_path = BTreeMap::new();
        let mut back = Vec::new();
        for n in out.keys() {
            if !on_path.contains_key(n.as_str()) {
                walk(n, &out, &mut on_path, &mut back);
            }
        }
        for (n, i) in back {
            match &mut self.types.get_mut(&n).expect("type exists").kind {
                Kind::Struct { fields, .. } => fields[i].boxed = true,
                Kind::Union { variants, .. } => variants[i].boxed = true,
                Kind::StringEnum { .. } | Kind::Alias { .. } => {}
            }
        }
        for t in self.types.values_mut() {
            if let Kind::Struct { fields, .. } = &mut t.kind {
                for f in fields {
                    if matches!(&f.ty, TypeRef::Named(n) if crate::overrides::boxed(n)) {
                        f.boxed = true;
                    }
                }
            }
        }
    }

    fn ty_default(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(n) => self.types[n].default,
            TypeRef::Number => false,
            _ => true,
        }
    }

    fn ty_eq_hash(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(n) => self.types[n].eq_hash,
            TypeRef::Array(inner) | TypeRef::Map(inner) => self.ty_eq_hash(inner),
            _ => true,
        }
    }
}

/// Names the marker of every string const in the document: the value in upper camel
/// case, or, where several values share that spelling (`toolUse`, `tool_use`), that
/// name with `V1`, `V2`… in the sorted order of the values.
fn const_names(doc: &SchemaDoc) -> BTreeMap<String, String> {
    fn walk(schema: &Value, out: &mut BTreeSet<String>) {
        let Value::Object(map) = schema else { return };
        for (k, v) in map {
            match (k.as_str(), v) {
                ("const", Value::String(s)) => {
                    out.insert(s.clone());
                }
                ("properties", Value::Object(props)) => props.values().for_each(|p| walk(p, out)),
                ("items" | "additionalProperties", _) => walk(v, out),
                ("anyOf" | "oneOf" | "allOf", Value::Array(parts)) => {
                    parts.iter().for_each(|p| walk(p, out))
                }
                _ => {}
            }
        }
    }
    let mut values = BTreeSet::new();
    doc.defs.values().for_each(|d| walk(d, &mut values));
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for v in values {
        by_name.entry(names::type_name(&v)).or_default().push(v);
    }
    let mut out = BTreeMap::new();
    for (name, values) in by_name {
        if let [only] = values.as_slice() {
            out.insert(only.clone(), name);
        } else {
            for (i, v) in values.into_iter().enumerate() {
                out.insert(v, format!("{name}V{}", i + 1));
            }
        }
    }
    out
}

/// Whether no JSON value can tell two arm signatures apart.
fn indistinguishable(a: &Signature, b: &Signature) -> bool {
    let tags_overlap = a.tags.is_empty()
        || b.tags.is_empty()
        || a.tags.iter().any(|t| b.tags.contains(t))
        || (a.tag_optional && b.tag_optional);
    tags_overlap
        && a.json == b.json
        && a.required == b.required
        && a.known == b.known
        && a.items == b.items
}

/// How many arms of a union are arrays.
fn array_arms(arms: &[Arm]) -> usize {
    arms.iter()
        .filter(|a| a.schema.get("type").and_then(Value::as_str) == Some("array"))
        .count()
}

/// Whether every value `schema` accepts is an object, as far as it says without a `$ref`:
/// an object type or properties; a union whose every arm is such; an `allOf` with such a
/// part.
fn objectish(schema: &Value) -> bool {
    let Some(m) = schema.as_object() else {
        return false;
    };
    if m.get("type").is_some_and(|t| t == "object") || m.contains_key("properties") {
        return true;
    }
    for k in UNION_KEYWORDS {
        if let Some(Value::Array(arms)) = m.get(k) {
            return !arms.is_empty() && arms.iter().all(objectish);
        }
    }
    matches!(m.get("allOf"), Some(Value::Array(parts)) if parts.iter().any(objectish))
}

/// Merges two schemas for the same property from different `allOf` parts.
/// Schemas that are references or combinations are kept whole, as `allOf` of both.
fn merge_property(a: &Value, b: &Value) -> Option<Value> {
    if a == b {
        return Some(a.clone());
    }
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return None;
    };
    let composite = |m: &Map<String, Value>| {
        ["$ref", "anyOf", "oneOf", "allOf"]
            .iter()
            .any(|k| m.contains_key(*k))
    };
    // An object that allows any members (a JSON-RPC envelope's `params`) adds nothing to
    // a combination that holds objects only (`objectish`): the other alone. Beside a `$ref`
    // (whose target is not known here) it stays an `allOf`, merged later.
    let any_object = |m: &Map<String, Value>| {
        m.get("type").is_some_and(|t| t == "object")
            && m.iter().all(|(k, v)| match k.as_str() {
                "type" | "description" => true,
                "additionalProperties" => *v == Value::Bool(true) || *v == serde_json::json!({}),
                _ => false,
            })
    };
    if any_object(a) && composite(b) && objectish(&Value::Object(b.clone())) {
        return Some(Value::Object(b.clone()));
    }
    if any_object(b) && composite(a) && objectish(&Value::Object(a.clone())) {
        return Some(Value::Object(a.clone()));
    }
    if composite(a) || composite(b) {
        return Some(serde_json::json!({ "allOf": [a, b] }));
    }
    let mut out = a.clone();
    for (k, v) in b {
        match out.get(k) {
            // Both must hold; one rule cannot say so: neither is checked (both stay
            // documented in the descriptions).
            Some(prev) if prev != v && k == "pattern" => {
                out.remove(k);
            }
            Some(prev) if prev != v && k != "description" => {
                if let (Value::Object(_), Value::Object(_)) = (prev, v) {
                    let merged = merge_property(prev, v)?;
                    out.insert(k.clone(), merged);
                } else {
                    return None;
                }
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Some(Value::Object(out))
}
