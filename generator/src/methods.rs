//! The method model: every JSON-RPC request and notification of a version, its
//! direction, params and result types, derived from the lowered types.
//!
//! - Direction comes from membership in the unions `ClientRequest`, `ServerRequest`,
//!   `ClientNotification`, `ServerNotification` (following aliases, since 2026-07-28
//!   inlines one-member unions), and `InputRequest` (2026-07-28: requests the server
//!   sends inside an `InputRequiredResult`).
//! - The method string is the `const` of the message's `method` property.
//! - Results: the schema's `<Stem>ResultResponse` where it exists (its `result` may be a
//!   union: every arm is a possible result); otherwise `<Stem>Result` by naming
//!   convention; otherwise the override table [`overrides::REQUEST_RESULTS`]. A request
//!   whose params have a `task` property may also be answered by `CreateTaskResult`
//!   where the version defines it (task-augmented requests, 2025-11-25).
//!   Lowering fails, naming the definition, if a request is left without a result.
//! - A message no direction union lists (an extension's: its schema has no such unions)
//!   takes its kind and direction from [`overrides::MESSAGE_DIRECTIONS`], by its method.

use std::collections::BTreeMap;

use crate::model::{
    ConstValue, Direction, JsonKind, Kind, MessageKind, MethodDef, Origin, Signature, TypeDef,
    TypeRef, Variant,
};
use crate::{Error, overrides};

/// The unions that give a message its direction: `(union, kind, direction)`.
const DIRECTION_UNIONS: &[(&str, MessageKind, Direction)] = &[
    (
        "ClientRequest",
        MessageKind::Request,
        Direction::ClientToServer,
    ),
    (
        "ServerRequest",
        MessageKind::Request,
        Direction::ServerToClient,
    ),
    (
        overrides::INPUT_REQUEST_UNION,
        MessageKind::Request,
        Direction::ServerToClient,
    ),
    (
        "ClientNotification",
        MessageKind::Notification,
        Direction::ClientToServer,
    ),
    (
        "ServerNotification",
        MessageKind::Notification,
        Direction::ServerToClient,
    ),
];

/// Builds the sorted method table from the lowered types of one version.
pub fn methods(
    file: &str,
    types: &mut BTreeMap<String, TypeDef>,
    consts: &BTreeMap<String, crate::model::ConstDef>,
) -> Result<Vec<MethodDef>, Error> {
    let (methods, added) = collect(file, types, consts)?;
    for t in added {
        if types.contains_key(&t.name) {
            return Err(Error::msg(format!(
                "{file}: the union of results `{}` would take the name of an existing type",
                t.name
            )));
        }
        types.insert(t.name.clone(), t);
    }
    Ok(methods)
}

/// The method table, and the result unions it needs that the schema does not have.
fn collect(
    file: &str,
    types: &BTreeMap<String, TypeDef>,
    consts: &BTreeMap<String, crate::model::ConstDef>,
) -> Result<(Vec<MethodDef>, Vec<TypeDef>), Error> {
    let mut added = Vec::new();
    let by_schema: BTreeMap<&str, &TypeDef> = types
        .values()
        .filter_map(|t| match &t.origin {
            Origin::Definition(d) => Some((d.as_str(), t)),
            Origin::Inline(_) | Origin::Results(_) => None,
        })
        .collect();
    let resolve = |name: &str| -> Option<&TypeDef> {
        let mut cur = types.get(name)?;
        for _ in 0..16 {
            match &cur.kind {
                Kind::Alias {
                    target: TypeRef::Named(n),
                    ..
                } => cur = types.get(n)?,
                _ => return Some(cur),
            }
        }
        None
    };
    let def_of = |t: &TypeDef| match &t.origin {
        Origin::Definition(d) => d.clone(),
        Origin::Inline(p) | Origin::Results(p) => p.clone(),
    };

    // Message definition (Rust name) → (kind, directions, unions it is a member of).
    let mut members: BTreeMap<String, (MessageKind, Vec<Direction>, Vec<String>)> = BTreeMap::new();
    for (union, kind, direction) in DIRECTION_UNIONS {
        let Some(u) = by_schema.get(union) else {
            continue;
        };
        let arms: Vec<String> = match &u.kind {
            Kind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| match &v.ty {
                    TypeRef::Named(n) => Some(n.clone()),
                    _ => None,
                })
                .collect(),
            Kind::Alias {
                target: TypeRef::Named(n),
                ..
            } => vec![n.clone()],
            // A one-member union that upstream inlined as a copy of its member: the
            // member is the other definition with the same `method` const.
            Kind::Struct { fields, .. } => {
                let method = method_const(fields, consts);
                let is_direction_union = |t: &TypeDef| matches!(&t.origin, Origin::Definition(d) if DIRECTION_UNIONS.iter().any(|(n, ..)| n == d));
                let twin = types.values().find(|t| {
                    t.name != u.name
                        && !is_direction_union(t)
                        && matches!(&t.origin, Origin::Definition(_))
                        && matches!(&t.kind, Kind::Struct { fields, .. } if method.is_some() && method_const(fields, consts) == method)
                });
                vec![twin.unwrap_or(u).name.clone()]
            }
            _ => Vec::new(),
        };
        for arm in arms {
            let entry = members
                .entry(arm)
                .or_insert((*kind, Vec::new(), Vec::new()));
            if !entry.1.contains(direction) {
                entry.1.push(*direction);
            }
            entry.2.push(union.to_string());
        }
    }

    // Messages no direction union lists (an extension's): their direction from the table.
    for t in types.values() {
        let (Origin::Definition(_), Kind::Struct { fields, .. }) = (&t.origin, &t.kind) else {
            continue;
        };
        let Some(entry) =
            method_const(fields, consts).and_then(|m| overrides::message_direction(&m))
        else {
            continue;
        };
        let kind = match entry.request {
            true => MessageKind::Request,
            false => MessageKind::Notification,
        };
        let direction = match entry.from_client {
            true => Direction::ClientToServer,
            false => Direction::ServerToClient,
        };
        let listed = members.keys().any(|m| {
            resolve(m).is_some_and(|r| {
                matches!(&r.kind, Kind::Struct { fields: f, .. } if method_const(f, consts) == method_const(fields, consts))
            })
        });
        if !listed {
            members.insert(t.name.clone(), (kind, vec![direction], Vec::new()));
        }
    }

    let mut out = Vec::new();
    for (definition, (kind, directions, via)) in members {
        let Some(t) = resolve(&definition) else {
            continue;
        };
        let at = format!("{file} at {}", def_of(t));
        let Kind::Struct { fields, .. } = &t.kind else {
            return Err(Error::msg(format!("{at}: a {kind:?} must be an object")));
        };
        let method = method_const(fields, consts)
            .ok_or_else(|| Error::msg(format!("{at}: no `method` const")))?;
        let params = fields.iter().find(|f| f.wire == "params");
        let direction = match directions.as_slice() {
            [one] => *one,
            _ => Direction::Both,
        };
        let mut result = None;
        let results = match kind {
            MessageKind::Notification => Vec::new(),
            MessageKind::Request => {
                let schema_name = def_of(t);
                let stem = schema_name.strip_suffix("Request").unwrap_or(&schema_name);
                let (mut results, union) = results_of(stem, &schema_name, &by_schema, types)
                    .ok_or_else(|| {
                        Error::msg(format!(
                            "{at}: no result type for request `{method}`: no `{stem}ResultResponse`, \
                             no `{stem}Result`, and no entry in overrides::REQUEST_RESULTS"
                        ))
                    })?;
                let task_augmented = params.is_some_and(|p| has_task_field(&p.ty, types));
                if let (true, Some(create)) = (
                    task_augmented,
                    by_schema.get(overrides::TASK_AUGMENTATION.1),
                ) {
                    if !results.contains(&create.name) {
                        results.push(create.name.clone());
                    }
                }
                result = match (union, results.as_slice()) {
                    (Some(u), _) => Some(u),
                    (None, [one]) => Some(one.clone()),
                    _ => {
                        let built = format!("{stem}ResultResponseResult");
                        let name = overrides::inline_name(&built).map_or(built, str::to_string);
                        added.push(results_union(&name, &method, &results));
                        Some(name)
                    }
                };
                results
            }
        };
        out.push(MethodDef {
            method,
            kind,
            direction,
            definition: t.name.clone(),
            params: params.map(|p| p.ty.clone()),
            params_required: params.is_some_and(|p| p.required),
            results,
            result,
            via,
        });
    }
    out.sort_by(|a, b| a.method.cmp(&b.method));
    // A method defined both as a JSON-RPC request and as an input request (draft
    // revisions of 2026-02) is described by the JSON-RPC definition.
    let input_only = MethodDef::is_input_request_only;
    let mut merged: Vec<MethodDef> = Vec::new();
    for m in out {
        match merged.last_mut() {
            Some(prev) if prev.method == m.method => {
                if input_only(&m) && !input_only(prev) {
                    prev.via.extend(m.via);
                } else if input_only(prev) && !input_only(&m) {
                    let mut m = m;
                    m.via.append(&mut prev.via);
                    *prev = m;
                } else {
                    return Err(Error::msg(format!(
                        "{file}: method `{}` is defined by both `{}` and `{}`",
                        m.method, prev.definition, m.definition
                    )));
                }
            }
            _ => merged.push(m),
        }
    }
    Ok((merged, added))
}

/// A union of the result types of one request.
fn results_union(name: &str, method: &str, results: &[String]) -> TypeDef {
    let variants = results
        .iter()
        .map(|r| Variant {
            name: r.clone(),
            ty: TypeRef::Named(r.clone()),
            boxed: false,
            signature: Signature::unknown(JsonKind::Object),
        })
        .collect();
    TypeDef {
        name: name.to_string(),
        origin: Origin::Results(method.to_string()),
        description: None,
        kind: Kind::Union {
            variants,
            tag: None,
        },
        deprecated: None,
        deprecated_values: Default::default(),
        examples: Vec::new(),
        default: false,
        eq_hash: false,
    }
}

/// The `method` const of a message's fields.
fn method_const(
    fields: &[crate::model::Field],
    consts: &BTreeMap<String, crate::model::ConstDef>,
) -> Option<String> {
    let field = fields.iter().find(|f| f.wire == "method")?;
    match &field.ty {
        TypeRef::Const(c) => match &consts.get(c)?.value {
            ConstValue::String(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The result types of a request, by the rules in the module docs.
fn results_of(
    stem: &str,
    request: &str,
    by_schema: &BTreeMap<&str, &TypeDef>,
    types: &BTreeMap<String, TypeDef>,
) -> Option<(Vec<String>, Option<String>)> {
    if let Some(response) = by_schema.get(format!("{stem}ResultResponse").as_str()) {
        if let Kind::Struct { fields, .. } = &response.kind {
            let result = fields.iter().find(|f| f.wire == "result")?;
            return Some(match &result.ty {
                TypeRef::Named(n) => match &types.get(n)?.kind {
                    Kind::Union { variants, .. } => (
                        variants
                            .iter()
                            .filter_map(|v| match &v.ty {
                                TypeRef::Named(n) => Some(n.clone()),
                                _ => None,
                            })
                            .collect(),
                        Some(n.clone()),
                    ),
                    _ => (vec![n.clone()], None),
                },
                _ => return None,
            });
        }
    }
    if let Some(result) = by_schema.get(format!("{stem}Result").as_str()) {
        return Some((vec![result.name.clone()], None));
    }
    let def = overrides::request_result(request)?;
    by_schema.get(def).map(|t| (vec![t.name.clone()], None))
}

/// Whether a params type (or any arm of it) has a `task` property.
fn has_task_field(ty: &TypeRef, types: &BTreeMap<String, TypeDef>) -> bool {
    let TypeRef::Named(n) = ty else { return false };
    match types.get(n).map(|t| &t.kind) {
        Some(Kind::Struct { fields, .. }) => fields
            .iter()
            .any(|f| f.wire == overrides::TASK_AUGMENTATION.0),
        Some(Kind::Union { variants, .. }) => variants.iter().any(|v| has_task_field(&v.ty, types)),
        Some(Kind::Alias { target, .. }) => has_task_field(target, types),
        _ => false,
    }
}
