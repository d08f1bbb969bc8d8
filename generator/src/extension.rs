//! An official extension's module: its schema's own definitions and messages, built on the
//! core version it extends.
//!
//! An extension's schema copies in the core definitions it refers to (the tasks extension
//! copies 56 of 2026-07-28's: `Tool`, `Result`, the input requests...). Those copies are
//! not new types: in the extension's module each is the core version's type
//! (`pub type Tool = crate::v2026_07_28::Tool;`), so a value moves between the two without
//! a conversion. Where a copy differs from the core definition of the same name, the
//! generator says where, in a note, and still uses the core type: the copy is upstream's
//! snapshot of the core, and the core file is what the core's types follow.
//!
//! The messages of the extension come from [`overrides::MESSAGE_DIRECTIONS`](crate::overrides::MESSAGE_DIRECTIONS) (its
//! schema has no direction unions); the messages of the copies are the core's, and are
//! left to the core's module.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Model, Origin};
use crate::overrides::Extension;
use crate::seed::Seeded;
use crate::settings::{Applied, Layout, Settings};
use crate::{Error, Input};

/// The core version an extension is built on: its input (the schema text, for the
/// copies' comparison) and its model (the Rust names of its definitions).
#[derive(Debug, Clone, Copy)]
pub struct Core<'a> {
    /// The core version's input.
    pub input: &'a Input,
    /// Its model.
    pub model: &'a Model,
}

/// The settings of this repository's module for an extension: `ext::<module>` of
/// `mcp-spec-types`, laid out as a folder.
pub fn repository_settings(module: &str) -> Settings {
    Settings {
        module: Some(module.to_string()),
        layout: Layout::Tree,
        ..Settings::repository(&format!("ext::{module}"))
    }
}

/// The definitions of `input` that `core` defines too, by schema name, each with the
/// first place its schema differs from the core's (`None`: the same).
pub fn copies(input: &Input, core: &Input) -> Result<BTreeMap<String, Option<String>>, Error> {
    let ext = crate::load::parse(&input.path, &input.text)?;
    let base = crate::load::parse(&core.path, &core.text)?;
    let mut out = BTreeMap::new();
    for (name, schema) in &ext.defs {
        let Some(theirs) = base.defs.get(name) else {
            continue;
        };
        // The dialect each definition of a converted schema repeats is not a difference.
        let strip = |v: &Value| {
            let mut v = v.clone();
            if let Value::Object(m) = &mut v {
                m.remove("$schema");
            }
            v
        };
        let at = first_difference(&strip(schema), &strip(theirs), "");
        out.insert(name.clone(), at);
    }
    Ok(out)
}

/// The JSON pointer (relative to the two values) of the first place they differ, members
/// in name order, with what each has there: `` `/anyOf/0/$ref` ("#/$defs/A" here, "#/$defs/B"
/// there) ``.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(p, q, &here),
                    (Some(_), None) => Some(format!("`{here}` (only here)")),
                    _ => Some(format!("`{here}` (only there)")),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            let n = x.len().max(y.len());
            (0..n).find_map(|i| {
                let here = format!("{at}/{i}");
                match (x.get(i), y.get(i)) {
                    (Some(p), Some(q)) => first_difference(p, q, &here),
                    (Some(_), None) => Some(format!("`{here}` (only here)")),
                    _ => Some(format!("`{here}` (only there)")),
                }
            })
        }
        _ if a == b => None,
        _ => {
            let short = |v: &Value| {
                let t = v.to_string();
                match t.char_indices().nth(60) {
                    Some((cut, _)) => format!("{}...", &t[..cut]),
                    None => t,
                }
            };
            let at = if at.is_empty() { "/" } else { at };
            Some(format!("`{at}` ({} here, {} there)", short(a), short(b)))
        }
    }
}

/// Generates an extension's module under `settings` (for this repository,
/// [`repository_settings`]); writes nothing. With a `core`, every definition the
/// extension copied from it is the core's type at `core_path` (`crate::v2026_07_28`), and
/// each copy that differs from the core's definition is a note.
pub fn generate(
    input: &Input,
    extension: &Extension,
    core: Option<(Core<'_>, &str)>,
    settings: &Settings,
) -> Result<Seeded, Error> {
    settings.validate()?;
    let (with_answers, answered) = match core {
        Some((core, _)) => with_answers(input, extension, core)?,
        None => (input.clone(), BTreeMap::new()),
    };
    let mut model = crate::model_of(&with_answers)?;
    // The module is of the extension's file as upstream wrote it.
    model.schema_sha256 = crate::sha256_hex(input.text.as_bytes());
    let mut replacements = BTreeMap::new();
    if let Some((core, core_path)) = core {
        if Some(core.model.version.as_str()) != extension.core {
            return Err(Error::msg(format!(
                "the extension `{}` is built on {}, not on {}",
                extension.name,
                extension.core.unwrap_or("no core version"),
                core.model.version
            )));
        }
        let doc = crate::load::parse(&input.path, &input.text)?;
        let rust_of: BTreeMap<&str, &str> = core
            .model
            .types
            .iter()
            .filter_map(|t| match &t.origin {
                Origin::Definition(d) => Some((d.as_str(), t.name.as_str())),
                _ => None,
            })
            .collect();
        let upstream = copies(input, core.input)?;
        for (name, differs) in copies(&with_answers, core.input)? {
            let Some(rust) = rust_of.get(name.as_str()) else {
                continue;
            };
            // What the generator added, changed: its own type (a response with the
            // extension's result among the core's).
            if differs.is_some() && !upstream.contains_key(&name) {
                continue;
            }
            if let Some(at) = differs {
                model.notes.push(format!(
                    "{} at {}: differs from {}'s `{name}` at {at}; the module uses {}'s type",
                    input.path,
                    doc.def_pointer(&name),
                    core.model.version,
                    core.model.version
                ));
            }
            replacements.insert(name, format!("{core_path}::{rust}"));
        }
        // The copies' messages (the input requests) are the core's.
        let copied: std::collections::BTreeSet<String> = model
            .types
            .iter()
            .filter(|t| matches!(&t.origin, Origin::Definition(d) if replacements.contains_key(d)))
            .map(|t| t.name.clone())
            .collect();
        model
            .methods
            .retain(|m| !copied.contains(&m.definition) || answered.contains_key(&m.method));
        drop_copies_parts(&mut model, &copied);
    }
    unread(&mut model, extension);
    crate::seed::emit_seeded(input, model, settings, Applied::default(), &replacements)
}

/// The members of [`Extension::unread`] held as they came: a map's values as
/// `serde_json::Value`, said in the member's docs.
fn unread(model: &mut Model, extension: &Extension) {
    use crate::model::{Kind, TypeRef};
    for (method, param, why) in extension.unread {
        let Some(TypeRef::Named(params)) = model
            .methods
            .iter()
            .find(|m| m.method == *method)
            .and_then(|m| m.params.clone())
        else {
            continue;
        };
        let Some(t) = model.types.iter_mut().find(|t| t.name == params) else {
            continue;
        };
        if let Kind::Struct { fields, .. } = &mut t.kind {
            for f in fields.iter_mut().filter(|f| f.wire == *param) {
                f.ty = TypeRef::Map(Box::new(TypeRef::Any));
                f.text = None;
                let note = format!(
                    "Each value as it came, not read as the schema's type (`overrides::EXTENSIONS`): {why}."
                );
                f.description = Some(match f.description.take() {
                    Some(d) => format!("{d}\n\n{note}"),
                    None => note,
                });
            }
        }
    }
}

/// The extension's schema with what [`Extension::answers`] adds, and the methods it adds
/// them for: for each core request the extension may answer with a result of its own
/// (`tools/call`, `CreateTaskResult`), the core's request definition and its response
/// definition (`<Stem>ResultResponse`) with the extension's result beside the core's,
/// and every core definition they refer to. The copies become the core's types; the
/// response, which differs, is the extension's own, and its `result` is the request's
/// outcome in this module (`CallToolOutcome`: the core's results, or a task).
fn with_answers(
    input: &Input,
    extension: &Extension,
    core: Core<'_>,
) -> Result<(Input, BTreeMap<String, String>), Error> {
    if extension.answers.is_empty() {
        return Ok((input.clone(), BTreeMap::new()));
    }
    let ext = crate::load::parse(&input.path, &input.text)?;
    let base = crate::load::parse(&core.input.path, &core.input.text)?;
    if ext.defs_key != base.defs_key {
        return Err(Error::at(
            &input.path,
            "",
            format!(
                "its definitions are under `{}`, {}'s under `{}`: the core's cannot be added",
                ext.defs_key, core.model.version, base.defs_key
            ),
        ));
    }
    let mut root: Value = serde_json::from_str(&input.text)
        .map_err(|e| Error::at(&input.path, "", format!("not valid JSON: {e}")))?;
    let defs = root
        .get_mut(ext.defs_key)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| Error::at(&input.path, "", "no definitions"))?;
    let schema_name = |rust: &str| {
        core.model.types.iter().find_map(|t| match &t.origin {
            Origin::Definition(d) if t.name == rust => Some(d.clone()),
            _ => None,
        })
    };
    let mut answered = BTreeMap::new();
    let mut wanted: Vec<String> = Vec::new();
    for (method, own) in extension.answers {
        let m = core
            .model
            .methods
            .iter()
            .find(|m| m.method == *method)
            .ok_or_else(|| {
                Error::msg(format!(
                    "overrides::EXTENSIONS: `{}` answers `{method}`, which {} does not define",
                    extension.name, core.model.version
                ))
            })?;
        if !ext.defs.contains_key(*own) {
            return Err(Error::at(
                &input.path,
                "",
                format!("overrides::EXTENSIONS names the result `{own}`, which it does not define"),
            ));
        }
        let request = schema_name(&m.definition).ok_or_else(|| {
            Error::msg(format!(
                "{}: `{method}` has no definition",
                core.model.version
            ))
        })?;
        let stem = request.strip_suffix("Request").unwrap_or(&request);
        let response_name = format!("{stem}ResultResponse");
        let mut response = base.defs.get(&response_name).cloned().ok_or_else(|| {
            Error::msg(format!(
                "{}: `{method}` has no `{response_name}` to add `{own}` to",
                core.model.version
            ))
        })?;
        let own_ref = serde_json::json!({ "$ref": format!("#/{}/{own}", ext.defs_key) });
        let result = response
            .get_mut("properties")
            .and_then(|p| p.get_mut("result"))
            .ok_or_else(|| Error::msg(format!("{response_name} has no `result`")))?;
        match result.get_mut("anyOf").and_then(Value::as_array_mut) {
            Some(arms) => arms.push(own_ref),
            None => {
                let one = std::mem::take(result);
                *result = serde_json::json!({ "anyOf": [one, own_ref] });
            }
        }
        for name in [&request, &response_name] {
            if ext.defs.contains_key(name) {
                return Err(Error::at(
                    &input.path,
                    &ext.def_pointer(name),
                    "the extension defines it already: the generator cannot add the core's",
                ));
            }
        }
        refs(&response, &mut wanted);
        defs.insert(response_name, response);
        wanted.push(base.def_pointer(&request));
        answered.insert(method.to_string(), own.to_string());
    }
    // The core definitions those refer to, and theirs, as the core has them (a reference
    // to one of the extension's own is the extension's).
    while let Some(reference) = wanted.pop() {
        if ext.resolve_ref(&reference, "").is_ok() {
            continue;
        }
        let name = base.resolve_ref(&reference, "")?.to_string();
        if defs.contains_key(&name) {
            continue;
        }
        refs(&base.defs[&name], &mut wanted);
        defs.insert(name.clone(), base.defs[&name].clone());
    }
    let text = serde_json::to_string(&root).map_err(|e| Error::msg(e.to_string()))?;
    Ok((
        Input {
            text,
            ..input.clone()
        },
        answered,
    ))
}

/// The `$ref`s of a schema, as written (`SchemaDoc::resolve_ref` reads them).
fn refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|v| refs(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// Leaves out the anonymous types and consts only the copies (each the core's type in the
/// module) need: what no definition of the extension's own, and none of its methods,
/// reaches.
fn drop_copies_parts(model: &mut Model, copies: &std::collections::BTreeSet<String>) {
    use crate::model::{Kind, TypeRef};
    let by_name: BTreeMap<&str, &crate::model::TypeDef> =
        model.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut todo: Vec<String> = model
        .types
        .iter()
        .filter(|t| matches!(t.origin, Origin::Definition(_)) && !copies.contains(&t.name))
        .map(|t| t.name.clone())
        .collect();
    for m in &model.methods {
        if let Some(p) = &m.params {
            crate::settings::named_in(p, &mut todo);
        }
        todo.extend(m.result.iter().cloned());
        todo.extend(m.results.iter().cloned());
        todo.push(m.definition.clone());
    }
    let mut reached = std::collections::BTreeSet::new();
    let mut consts = std::collections::BTreeSet::new();
    let refs =
        |ty: &TypeRef, todo: &mut Vec<String>, consts: &mut std::collections::BTreeSet<String>| {
            let mut t = ty;
            while let TypeRef::Array(inner) | TypeRef::Map(inner) = t {
                t = inner;
            }
            match t {
                TypeRef::Named(n) => todo.push(n.clone()),
                TypeRef::Const(c) => {
                    consts.insert(c.clone());
                }
                _ => {}
            }
        };
    while let Some(name) = todo.pop() {
        if !reached.insert(name.clone()) || copies.contains(&name) {
            continue;
        }
        let Some(t) = by_name.get(name.as_str()) else {
            continue;
        };
        match &t.kind {
            Kind::Struct { fields, additional } => {
                for f in fields {
                    refs(&f.ty, &mut todo, &mut consts);
                }
                if let Some(a) = additional {
                    refs(a, &mut todo, &mut consts);
                }
            }
            Kind::Union { variants, .. } => {
                for v in variants {
                    refs(&v.ty, &mut todo, &mut consts);
                }
            }
            Kind::Alias { target, .. } => refs(target, &mut todo, &mut consts),
            Kind::StringEnum { .. } => {}
        }
    }
    model
        .types
        .retain(|t| matches!(t.origin, Origin::Definition(_)) || reached.contains(&t.name));
    model.consts.retain(|c| consts.contains(&c.name));
}
