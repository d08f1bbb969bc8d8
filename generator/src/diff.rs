//! Version diffs, computed on two [`Model`]s (never on Rust text).
//!
//! Every structural change is classified by whom it breaks:
//!
//! | class | meaning | examples |
//! | --- | --- | --- |
//! | `older-sender` | messages an older peer sends no longer fit | a new required field; optional → required; an enum value or union arm removed; a method removed |
//! | `older-receiver` | messages a newer peer sends no longer fit an older strict decoder | a required field removed; required → optional; a new enum value or union arm; a field that may now be `null` |
//! | `both` | neither side's messages fit the other | a field's type or a const changed; a method's direction, params or result changed |
//! | `nobody` | compatible | an optional field added or removed (unknown keys are kept); a new definition or method; descriptions; a type replaced by one that takes the same values |
//!
//! A changed type (of a field, an alias, a method's params or results, or a definition
//! whose kind changed) breaks whom [`crate::compat`] finds: older senders when a value of
//! the older type need not fit the newer, older receivers the other way round, both, or
//! nobody (`ListToolsRequestParams` → `PaginatedRequestParams`, the same properties).

//!
//! The JSON form (`--format json`, and `generated/diffs/*.json`) has stable field names;
//! a change to them bumps [`FORMAT`]:
//!
//! ```json
//! {
//!   "format": 1,
//!   "old": "2025-06-18", "new": "2025-11-25",
//!   "changes": [
//!     { "subject": "Tool.icons", "kind": "field-added", "breaks": "nobody",
//!       "detail": "optional", "sent_by": ["server"] }
//!   ],
//!   "description_only": ["Tool"]
//! }
//! ```
//!
//! `kind` is one of the [`ChangeKind`] names in kebab case, `breaks` one of `nobody`,
//! `older-sender`, `older-receiver`, `both`; `sent_by` lists `client` and/or `server`.
//! The checked-in files also carry an `@generated` key naming both schemas' sha256.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::compat::{Fits, Misfit};
use crate::model::{Kind, MethodDef, Model, Origin, TypeDef, TypeRef, render};

/// Version of the JSON output format.
pub const FORMAT: u32 = 1;

/// All changes from one model to another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    /// Output format version ([`FORMAT`]).
    pub format: u32,
    /// The older side's version name.
    pub old: String,
    /// The newer side's version name.
    pub new: String,
    /// Structural changes, sorted by subject then kind.
    pub changes: Vec<Change>,
    /// Types whose descriptions alone changed (including descriptions of their fields).
    pub description_only: Vec<String>,
}

/// One structural change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// What changed, e.g. `Tool.icons` or `tools/call`.
    pub subject: String,
    /// The kind of change.
    pub kind: ChangeKind,
    /// Who it breaks.
    pub breaks: Breaks,
    /// Before → after, for people.
    pub detail: String,
    /// Which sides send messages that carry the subject (`client`, `server`), from the
    /// directions of the methods whose params or results reach it, in either version.
    /// Empty when no message carries it.
    pub sent_by: Vec<String>,
}

impl Change {
    /// The new name, for a [`ChangeKind::DefinitionRenamed`] (its detail reads
    /// `Old → New (same shape)`).
    pub fn renamed_to(&self) -> Option<&str> {
        if self.kind != ChangeKind::DefinitionRenamed {
            return None;
        }
        self.detail.split(" → ").nth(1)?.split_whitespace().next()
    }
}

/// The kinds of change.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    DefinitionAdded,
    DefinitionRemoved,
    DefinitionRenamed,
    ShapeChanged,
    FieldAdded,
    FieldRemoved,
    FieldTypeChanged,
    FieldRequiredChanged,
    FieldNullableChanged,
    FieldDefaultChanged,
    ConstChanged,
    EnumValueAdded,
    EnumValueRemoved,
    UnionArmAdded,
    UnionArmRemoved,
    DiscriminatorChanged,
    MethodAdded,
    MethodRemoved,
    MethodDirectionChanged,
    MethodCarrierChanged,
    MethodParamsChanged,
    MethodResultChanged,
    CapabilityAdded,
    CapabilityRemoved,
    ErrorCodeAdded,
    ErrorCodeRemoved,
    ErrorCodeChanged,
    /// Upstream deprecates a definition, a property or an enum value that the older
    /// version has too (`@deprecated` in `schema.ts`): nothing breaks yet, but it is on its
    /// way out. (A definition new in this version is one `definition-added` change,
    /// deprecated parts and all, as its new properties are.)
    Deprecated,
    /// A deprecation is withdrawn.
    Undeprecated,
}

/// Who a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Breaks {
    /// Compatible.
    Nobody,
    /// Messages an older peer sends no longer fit.
    OlderSender,
    /// Messages a newer peer sends no longer fit an older strict decoder.
    OlderReceiver,
    /// Neither direction fits.
    Both,
}

/// Who a change from type `a` (of `old`) to `b` (of `new`) breaks, by whether the values of
/// each fit the other ([`crate::compat`]), and what to add to the change's detail: that
/// both fit, or the first place a value need not fit.
fn retyped(old: &Model, new: &Model, a: &TypeRef, b: &TypeRef) -> (Breaks, String) {
    retyped_by(|f| f.fits(a, b), |f| f.fits(b, a), old, new)
}

/// [`retyped`] with the comparisons given: `up` on values of `old` against types of `new`,
/// `down` the other way.
fn retyped_by(
    up: impl FnOnce(&mut Fits) -> Result<(), Misfit>,
    down: impl FnOnce(&mut Fits) -> Result<(), Misfit>,
    old: &Model,
    new: &Model,
) -> (Breaks, String) {
    let up = up(&mut Fits::new(old, new));
    let down = down(&mut Fits::new(new, old));
    match (up, down) {
        (Ok(()), Ok(())) => (Breaks::Nobody, " (same values)".into()),
        (Err(m), Ok(())) => (
            Breaks::OlderSender,
            format!(" (an older value need not fit: {m})"),
        ),
        (Ok(()), Err(m)) => (
            Breaks::OlderReceiver,
            format!(" (a newer value need not fit: {m})"),
        ),
        (Err(m), Err(_)) => (Breaks::Both, format!(" (an older value need not fit: {m})")),
    }
}

/// A type's shape with descriptions removed, for equality and rename detection.
fn shape(model: &Model, t: &TypeDef) -> String {
    match &t.kind {
        Kind::Struct { fields, additional } => {
            let fs: Vec<String> = fields
                .iter()
                .map(|f| {
                    format!(
                        "{}:{}:{}:{}",
                        f.wire,
                        render(model, &f.ty),
                        f.required,
                        f.nullable
                    )
                })
                .collect();
            format!(
                "struct{{{}}}+{:?}",
                fs.join(","),
                additional.as_ref().map(|a| render(model, a))
            )
        }
        Kind::StringEnum { values } => format!("enum{values:?}"),
        Kind::Union { variants, tag } => {
            let vs: Vec<String> = variants.iter().map(|v| render(model, &v.ty)).collect();
            format!("union[{}]/{tag:?}", vs.join(","))
        }
        Kind::Alias { target, newtype } => {
            let kind = if *newtype { "newtype" } else { "alias" };
            format!("{kind} {}", render(model, target))
        }
    }
}

fn kind_name(k: &Kind) -> &'static str {
    match k {
        Kind::Struct { .. } => "object",
        Kind::StringEnum { .. } => "string enum",
        Kind::Union { .. } => "union",
        Kind::Alias { .. } => "alias",
    }
}

fn described(t: &TypeDef) -> Vec<Option<&str>> {
    let mut out = vec![t.description.as_deref()];
    if let Kind::Struct { fields, .. } = &t.kind {
        out.extend(fields.iter().map(|f| f.description.as_deref()));
    }
    out
}

/// Computes the changes from `old` to `new`: each kind of change is found by its own
/// function below, into one collector of changes.
pub fn diff(old: &Model, new: &Model) -> Diff {
    let mut changes = Changes::default();
    let (a, b) = (types_by_name(old), types_by_name(new));
    definitions(old, new, &a, &b, &mut changes);
    // Types present in both (definitions and path-named anonymous types).
    let mut description_only = Vec::new();
    for (name, ta) in &a {
        let Some(tb) = b.get(name) else { continue };
        let before = changes.0.len();
        type_changes(old, new, name, ta, tb, &mut changes);
        if changes.0.len() == before && described(ta) != described(tb) {
            description_only.push(name.clone());
        }
    }
    methods(old, new, &mut changes);
    capabilities(&mut changes);
    error_code_changes(old, new, &mut changes);
    Diff {
        format: FORMAT,
        old: old.version.clone(),
        new: new.version.clone(),
        changes: with_senders(old, new, changes),
        description_only,
    }
}

/// The changes found so far.
#[derive(Default)]
struct Changes(BTreeSet<Change>);

impl Changes {
    fn push(
        &mut self,
        subject: impl Into<String>,
        kind: ChangeKind,
        breaks: Breaks,
        detail: impl Into<String>,
    ) {
        self.0.insert(Change {
            subject: subject.into(),
            kind,
            breaks,
            detail: detail.into(),
            sent_by: Vec::new(),
        });
    }
}

fn types_by_name(m: &Model) -> BTreeMap<String, TypeDef> {
    m.types
        .iter()
        .map(|t| (t.name.clone(), t.clone()))
        .collect()
}

/// Definitions removed and added; a removed and an added one of the same shape are a
/// rename.
fn definitions(
    old: &Model,
    new: &Model,
    a: &BTreeMap<String, TypeDef>,
    b: &BTreeMap<String, TypeDef>,
    changes: &mut Changes,
) {
    let is_def = |t: &TypeDef| matches!(t.origin, Origin::Definition(_));
    let removed: Vec<&TypeDef> = a
        .values()
        .filter(|t| is_def(t) && !b.contains_key(&t.name))
        .collect();
    let added: Vec<&TypeDef> = b
        .values()
        .filter(|t| is_def(t) && !a.contains_key(&t.name))
        .collect();
    let mut renamed_to: BTreeMap<&str, &str> = BTreeMap::new();
    for r in &removed {
        let candidates: Vec<&&TypeDef> = added
            .iter()
            .filter(|n| shape(new, n) == shape(old, r))
            .collect();
        if let [only] = candidates.as_slice() {
            renamed_to.insert(&r.name, &only.name);
        }
    }
    let renamed_from: BTreeSet<&str> = renamed_to.values().copied().collect();
    for r in &removed {
        match renamed_to.get(r.name.as_str()) {
            Some(to) => changes.push(
                &r.name,
                ChangeKind::DefinitionRenamed,
                Breaks::Nobody,
                format!("{} → {to} (same shape)", r.name),
            ),
            None => changes.push(
                &r.name,
                ChangeKind::DefinitionRemoved,
                Breaks::Nobody,
                kind_name(&r.kind),
            ),
        }
    }
    for n in added
        .iter()
        .filter(|n| !renamed_from.contains(n.name.as_str()))
    {
        changes.push(
            &n.name,
            ChangeKind::DefinitionAdded,
            Breaks::Nobody,
            kind_name(&n.kind),
        );
    }
}

/// How a type present in both versions changed.
fn type_changes(
    old: &Model,
    new: &Model,
    name: &str,
    ta: &TypeDef,
    tb: &TypeDef,
    changes: &mut Changes,
) {
    deprecation_changes(name, &ta.deprecated, &tb.deprecated, changes);
    for (v, why) in &tb.deprecated_values {
        if !ta.deprecated_values.contains_key(v) {
            changes.push(
                name,
                ChangeKind::Deprecated,
                Breaks::Nobody,
                format!("value {v:?}: {why}"),
            );
        }
    }
    for v in ta.deprecated_values.keys() {
        if !tb.deprecated_values.contains_key(v) {
            changes.push(
                name,
                ChangeKind::Undeprecated,
                Breaks::Nobody,
                format!("value {v:?}"),
            );
        }
    }
    match (&ta.kind, &tb.kind) {
        (
            Kind::Struct {
                fields: fa,
                additional: xa,
            },
            Kind::Struct {
                fields: fb,
                additional: xb,
            },
        ) => struct_changes(old, new, name, (fa, xa), (fb, xb), changes),
        (Kind::StringEnum { values: va }, Kind::StringEnum { values: vb }) => {
            for v in va.iter().filter(|v| !vb.contains(v)) {
                changes.push(
                    name,
                    ChangeKind::EnumValueRemoved,
                    Breaks::OlderSender,
                    format!("{v:?}"),
                );
            }
            for v in vb.iter().filter(|v| !va.contains(v)) {
                changes.push(
                    name,
                    ChangeKind::EnumValueAdded,
                    Breaks::OlderReceiver,
                    format!("{v:?}"),
                );
            }
        }
        (
            Kind::Union {
                variants: va,
                tag: ga,
            },
            Kind::Union {
                variants: vb,
                tag: gb,
            },
        ) => {
            // An arm removed (added) breaks older senders (receivers) unless its values fit
            // an arm of the other version's union anyway.
            let arms = |m: &Model, vs: &'_ [crate::model::Variant]| -> BTreeMap<String, TypeRef> {
                vs.iter()
                    .map(|v| (render(m, &v.ty), v.ty.clone()))
                    .collect()
            };
            let (sa, sb) = (arms(old, va), arms(new, vb));
            let union = TypeRef::Named(name.to_string());
            for (v, ty) in sa.iter().filter(|(v, _)| !sb.contains_key(*v)) {
                let (breaks, detail) = match Fits::new(old, new).fits(ty, &union) {
                    Ok(()) => (Breaks::Nobody, format!("{v} (its values fit another arm)")),
                    Err(_) => (Breaks::OlderSender, v.clone()),
                };
                changes.push(name, ChangeKind::UnionArmRemoved, breaks, detail);
            }
            for (v, ty) in sb.iter().filter(|(v, _)| !sa.contains_key(*v)) {
                let (breaks, detail) = match Fits::new(new, old).fits(ty, &union) {
                    Ok(()) => (Breaks::Nobody, format!("{v} (its values fit another arm)")),
                    Err(_) => (Breaks::OlderReceiver, v.clone()),
                };
                changes.push(name, ChangeKind::UnionArmAdded, breaks, detail);
            }
            if ga != gb {
                let (breaks, note) = retyped(old, new, &union, &union);
                changes.push(
                    name,
                    ChangeKind::DiscriminatorChanged,
                    breaks,
                    format!("{ga:?} → {gb:?}{note}"),
                );
            }
        }
        (Kind::Alias { target: ta_, .. }, Kind::Alias { target: tb_, .. }) => {
            let (ra, rb) = (render(old, ta_), render(new, tb_));
            if ra != rb {
                let (breaks, note) = retyped(old, new, ta_, tb_);
                changes.push(
                    name,
                    ChangeKind::FieldTypeChanged,
                    breaks,
                    format!("{ra} → {rb}{note}"),
                );
            }
        }
        (ka, kb) => {
            let named = TypeRef::Named(name.to_string());
            let (breaks, note) = retyped(old, new, &named, &named);
            changes.push(
                name,
                ChangeKind::ShapeChanged,
                breaks,
                format!("{} → {}{note}", kind_name(ka), kind_name(kb)),
            )
        }
    }
}

/// A deprecation that appears or goes (upstream's text as the detail).
fn deprecation_changes(
    subject: &str,
    before: &Option<String>,
    after: &Option<String>,
    changes: &mut Changes,
) {
    match (before, after) {
        (None, Some(why)) => {
            changes.push(subject, ChangeKind::Deprecated, Breaks::Nobody, why.clone())
        }
        (Some(_), None) => changes.push(subject, ChangeKind::Undeprecated, Breaks::Nobody, ""),
        _ => {}
    }
}

/// How a struct present in both versions changed: properties removed, added and
/// changed, and whether it allows properties it does not name.
fn struct_changes(
    old: &Model,
    new: &Model,
    name: &str,
    (fa, xa): (&[crate::model::Field], &Option<TypeRef>),
    (fb, xb): (&[crate::model::Field], &Option<TypeRef>),
    changes: &mut Changes,
) {
    for f in fa {
        let subject = format!("{name}.{}", f.wire);
        match fb.iter().find(|g| g.wire == f.wire) {
            Some(g) => {
                deprecation_changes(&subject, &f.deprecated, &g.deprecated, changes);
                field_changes(old, new, &subject, f, g, changes);
            }
            None => changes.push(
                subject,
                ChangeKind::FieldRemoved,
                if f.required {
                    Breaks::OlderReceiver
                } else {
                    Breaks::Nobody
                },
                if f.required {
                    "was required"
                } else {
                    "was optional"
                },
            ),
        }
    }
    for g in fb.iter().filter(|g| !fa.iter().any(|f| f.wire == g.wire)) {
        changes.push(
            format!("{name}.{}", g.wire),
            ChangeKind::FieldAdded,
            if g.required {
                Breaks::OlderSender
            } else {
                Breaks::Nobody
            },
            if g.required { "required" } else { "optional" },
        );
    }
    if xa.is_some() != xb.is_some() {
        changes.push(
            name,
            ChangeKind::ShapeChanged,
            if xb.is_some() {
                Breaks::OlderReceiver
            } else {
                Breaks::OlderSender
            },
            format!("additional properties: {} → {}", xa.is_some(), xb.is_some()),
        );
    }
}

/// How a property present in both versions of a struct changed: its type (or const),
/// whether it is required, whether it may be `null`, its default.
fn field_changes(
    old: &Model,
    new: &Model,
    subject: &str,
    f: &crate::model::Field,
    g: &crate::model::Field,
    changes: &mut Changes,
) {
    let (ra, rb) = (render(old, &f.ty), render(new, &g.ty));
    if ra != rb {
        let kind = if matches!(f.ty, TypeRef::Const(_)) && matches!(g.ty, TypeRef::Const(_)) {
            ChangeKind::ConstChanged
        } else {
            ChangeKind::FieldTypeChanged
        };
        let (breaks, note) = retyped(old, new, &f.ty, &g.ty);
        changes.push(subject, kind, breaks, format!("{ra} → {rb}{note}"));
    }
    if f.required != g.required {
        let (breaks, detail) = if g.required {
            (Breaks::OlderSender, "optional → required")
        } else {
            (Breaks::OlderReceiver, "required → optional")
        };
        changes.push(subject, ChangeKind::FieldRequiredChanged, breaks, detail);
    }
    if f.nullable != g.nullable {
        let (breaks, detail) = if g.nullable {
            (Breaks::OlderReceiver, "may now be null")
        } else {
            (Breaks::OlderSender, "may no longer be null")
        };
        changes.push(subject, ChangeKind::FieldNullableChanged, breaks, detail);
    }
    if f.default != g.default {
        changes.push(
            subject,
            ChangeKind::FieldDefaultChanged,
            Breaks::Nobody,
            format!("{:?} → {:?}", f.default, g.default),
        );
    }
}

/// Methods removed, added, and changed: direction, carrier (a JSON-RPC message or an input
/// request inside a result), params, results.
fn methods(old: &Model, new: &Model, changes: &mut Changes) {
    let methods = |m: &Model| -> BTreeMap<String, MethodDef> {
        m.methods
            .iter()
            .map(|x| (x.method.clone(), x.clone()))
            .collect()
    };
    let (ma, mb) = (methods(old), methods(new));
    for (method, x) in &ma {
        let Some(y) = mb.get(method) else {
            changes.push(
                method,
                ChangeKind::MethodRemoved,
                Breaks::OlderSender,
                format!("{:?} {:?}", x.kind, x.direction),
            );
            continue;
        };
        if x.direction != y.direction {
            changes.push(
                method,
                ChangeKind::MethodDirectionChanged,
                Breaks::Both,
                format!("{:?} → {:?}", x.direction, y.direction),
            );
        }
        let input_only = MethodDef::is_input_request_only;
        if input_only(x) != input_only(y) {
            let carrier = |d: &MethodDef| {
                if input_only(d) {
                    "input request inside InputRequiredResult"
                } else {
                    "JSON-RPC message"
                }
            };
            changes.push(
                method,
                ChangeKind::MethodCarrierChanged,
                Breaks::Both,
                format!("{} → {}", carrier(x), carrier(y)),
            );
        }
        let params =
            |m: &Model, d: &MethodDef| d.params.as_ref().map(|p| render(m, p)).unwrap_or_default();
        if params(old, x) != params(new, y) {
            let (breaks, note) = match (&x.params, &y.params) {
                (Some(a), Some(b)) => retyped(old, new, a, b),
                _ => (Breaks::Both, String::new()),
            };
            changes.push(
                method,
                ChangeKind::MethodParamsChanged,
                breaks,
                format!("{} → {}{note}", params(old, x), params(new, y)),
            );
        }
        if x.results != y.results {
            // Each result of one version fits a result of the other.
            let each = |f: &mut Fits, from: &[String], to: &[String]| {
                for r in from {
                    let named = TypeRef::Named(r.clone());
                    let mut first = None;
                    let fits =
                        to.iter()
                            .any(|t| match f.fits(&named, &TypeRef::Named(t.clone())) {
                                Ok(()) => true,
                                Err(m) => {
                                    first.get_or_insert(m);
                                    false
                                }
                            });
                    if !fits {
                        return Err(
                            first.unwrap_or_else(|| Misfit::new(format!("no result for {r}")))
                        );
                    }
                }
                Ok(())
            };
            let (breaks, note) = retyped_by(
                |f| each(f, &x.results, &y.results),
                |f| each(f, &y.results, &x.results),
                old,
                new,
            );
            changes.push(
                method,
                ChangeKind::MethodResultChanged,
                breaks,
                format!(
                    "{} → {}{note}",
                    x.results.join(" | "),
                    y.results.join(" | ")
                ),
            );
        }
    }
    for (method, y) in mb.iter().filter(|(m, _)| !ma.contains_key(*m)) {
        changes.push(
            method,
            ChangeKind::MethodAdded,
            Breaks::Nobody,
            format!("{:?} {:?}", y.kind, y.direction),
        );
    }
}

/// Fields of the capability objects added or removed are reported as capabilities.
fn capabilities(changes: &mut Changes) {
    let capability = |subject: &str| {
        subject.starts_with("ClientCapabilities") || subject.starts_with("ServerCapabilities")
    };
    changes.0 = std::mem::take(&mut changes.0)
        .into_iter()
        .map(|mut c| {
            if capability(&c.subject) {
                c.kind = match c.kind {
                    ChangeKind::FieldAdded => ChangeKind::CapabilityAdded,
                    ChangeKind::FieldRemoved => ChangeKind::CapabilityRemoved,
                    other => other,
                };
            }
            c
        })
        .collect();
}

/// Error codes the schema fixes, removed, changed and added.
fn error_code_changes(old: &Model, new: &Model, changes: &mut Changes) {
    let (ea, eb) = (error_codes(old), error_codes(new));
    for (name, code) in &ea {
        match eb.get(name) {
            None => changes.push(
                name,
                ChangeKind::ErrorCodeRemoved,
                Breaks::Nobody,
                code.to_string(),
            ),
            Some(c) if c != code => changes.push(
                name,
                ChangeKind::ErrorCodeChanged,
                Breaks::Both,
                format!("{code} → {c}"),
            ),
            Some(_) => {}
        }
    }
    for (name, code) in eb.iter().filter(|(n, _)| !ea.contains_key(*n)) {
        changes.push(
            name,
            ChangeKind::ErrorCodeAdded,
            Breaks::Nobody,
            code.to_string(),
        );
    }
}

/// Each change with the sides whose messages carry its subject, in either version.
fn with_senders(old: &Model, new: &Model, changes: Changes) -> Vec<Change> {
    let (ca, cb) = (carriers(old), carriers(new));
    let methods_of = |m: &Model| -> BTreeMap<String, crate::model::Direction> {
        m.methods
            .iter()
            .map(|x| (x.method.clone(), x.direction))
            .collect()
    };
    let (da, db) = (methods_of(old), methods_of(new));
    changes
        .0
        .into_iter()
        .map(|mut c| {
            let ty = c.subject.split('.').next().unwrap_or_default().to_string();
            let mut sides = Sides::default();
            for carried in [ca.get(&ty), cb.get(&ty)].into_iter().flatten() {
                sides.client |= carried.client;
                sides.server |= carried.server;
            }
            for d in [da.get(&c.subject), db.get(&c.subject)]
                .into_iter()
                .flatten()
            {
                sides.add(*d, false);
            }
            c.sent_by = sides.names();
            c
        })
        .collect()
}

/// The error codes a model fixes: error definition (Rust name) → code.
fn error_codes(model: &Model) -> BTreeMap<String, i64> {
    model
        .error_codes()
        .into_iter()
        .map(|(_, rust, code)| (rust, code))
        .collect()
}

/// Which sides send a type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Sides {
    client: bool,
    server: bool,
}

impl Sides {
    /// Adds the sender of a message with `direction` (or of its response).
    fn add(&mut self, direction: crate::model::Direction, response: bool) {
        use crate::model::Direction::*;
        match (direction, response) {
            (Both, _) => {
                self.client = true;
                self.server = true;
            }
            (ClientToServer, false) | (ServerToClient, true) => self.client = true,
            (ServerToClient, false) | (ClientToServer, true) => self.server = true,
        }
    }

    fn names(self) -> Vec<String> {
        let mut out = Vec::new();
        if self.client {
            out.push("client".to_string());
        }
        if self.server {
            out.push("server".to_string());
        }
        out
    }
}

/// For every type, which sides send messages that carry it: the params of a method are
/// sent by its sender, its results by the other side; carried types are followed through
/// fields, arms, aliases, arrays and maps.
fn carriers(model: &Model) -> BTreeMap<String, Sides> {
    fn named(ty: &TypeRef, out: &mut Vec<String>) {
        match ty {
            TypeRef::Named(n) => out.push(n.clone()),
            TypeRef::Array(t) | TypeRef::Map(t) => named(t, out),
            _ => {}
        }
    }
    let mut out: BTreeMap<String, Sides> = BTreeMap::new();
    let mut stack: Vec<(String, Sides)> = Vec::new();
    for m in &model.methods {
        let mut send = Sides::default();
        send.add(m.direction, false);
        stack.push((m.definition.clone(), send));
        let mut answer = Sides::default();
        answer.add(m.direction, true);
        for r in m.results.iter().chain(m.result.iter()) {
            stack.push((r.clone(), answer));
        }
    }
    while let Some((name, sides)) = stack.pop() {
        let entry = out.entry(name.clone()).or_default();
        let merged = Sides {
            client: entry.client | sides.client,
            server: entry.server | sides.server,
        };
        if merged == *entry {
            continue;
        }
        *entry = merged;
        let Some(t) = model.get(&name) else { continue };
        let mut next = Vec::new();
        match &t.kind {
            Kind::Struct { fields, additional } => {
                fields.iter().for_each(|f| named(&f.ty, &mut next));
                if let Some(a) = additional {
                    named(a, &mut next);
                }
            }
            Kind::Union { variants, .. } => variants.iter().for_each(|v| named(&v.ty, &mut next)),
            Kind::Alias { target, .. } => named(target, &mut next),
            Kind::StringEnum { .. } => {}
        }
        stack.extend(next.into_iter().map(|n| (n, merged)));
    }
    out
}

impl Diff {
    /// Counts of changes by kind and by breakage class.
    pub fn counts(&self) -> (BTreeMap<ChangeKind, usize>, BTreeMap<Breaks, usize>) {
        let mut by_kind = BTreeMap::new();
        let mut by_breaks = BTreeMap::new();
        for c in &self.changes {
            *by_kind.entry(c.kind).or_insert(0) += 1;
            *by_breaks.entry(c.breaks).or_insert(0) += 1;
        }
        (by_kind, by_breaks)
    }

    /// The report as Markdown: a summary table, then one section per kind of change.
    pub fn markdown(&self, breaking_only: bool) -> String {
        let (by_kind, by_breaks) = self.counts();
        let mut out = format!("# MCP schema changes: {} → {}\n\n", self.old, self.new);
        out.push_str("| breaks | changes |\n| --- | --- |\n");
        for (b, n) in &by_breaks {
            out.push_str(&format!("| {} | {n} |\n", label(*b)));
        }
        out.push_str("\n| kind | changes |\n| --- | --- |\n");
        for (k, n) in &by_kind {
            out.push_str(&format!("| {} | {n} |\n", kind_label(*k)));
        }
        out.push_str(&format!(
            "\nDescription-only changes: {} types.\n",
            self.description_only.len()
        ));
        for (kind, _) in by_kind {
            let rows: Vec<&Change> = self
                .changes
                .iter()
                .filter(|c| c.kind == kind && (!breaking_only || c.breaks != Breaks::Nobody))
                .collect();
            if rows.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "\n## {}\n\n| subject | breaks | sent by | detail |\n| --- | --- | --- | --- |\n",
                kind_label(kind)
            ));
            for c in rows {
                let sent_by = if c.sent_by.is_empty() {
                    "—".to_string()
                } else {
                    c.sent_by.join(", ")
                };
                out.push_str(&format!(
                    "| `{}` | {} | {sent_by} | {} |\n",
                    c.subject,
                    label(c.breaks),
                    c.detail.replace('|', "\\|")
                ));
            }
        }
        if !self.description_only.is_empty() && !breaking_only {
            out.push_str("\n<details><summary>Description-only changes</summary>\n\n");
            for t in &self.description_only {
                out.push_str(&format!("- `{t}`\n"));
            }
            out.push_str("\n</details>\n");
        }
        out.push_str(LEGEND);
        out
    }
}

/// How reports name a breakage class: `older sender`.
pub fn label(b: Breaks) -> &'static str {
    match b {
        Breaks::Nobody => "nobody",
        Breaks::OlderSender => "older sender",
        Breaks::OlderReceiver => "older receiver",
        Breaks::Both => "both",
    }
}

/// How reports name a kind of change: `field type changed`.
pub fn kind_label(k: ChangeKind) -> String {
    let s = serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    s.replace('-', " ")
}

const LEGEND: &str = "
## Legend

- **older sender**: messages an older peer sends no longer fit (a new required field,
  optional → required, an enum value or union arm or method removed).
- **older receiver**: messages a newer peer sends no longer fit an older strict decoder
  (a required field removed, required → optional, a new enum value or union arm, a field
  that may now be null).
- **both**: a type, const, direction, params or result changed so that neither side's
  values need fit the other's.
- **nobody**: compatible (optional fields, new definitions and methods, descriptions, a
  type renamed or replaced by one that takes the same values).
- A changed type is classified by whether the values of each version fit the other
  (objects keep members they do not declare; an optional member may be absent): the
  detail says `same values`, or the first place where a value need not fit.
- **sent by**: the sides whose messages carry the changed type (a method's params are sent
  by its sender, its results by the other side), in either version. An older-sender break
  on a type the client sends hits older clients; an older-receiver break on it hits older
  servers.
";

/// The checked-in reports: `generated/diffs/<old>..<new>.{md,json}` for each consecutive
/// pair of released versions and for the latest released version → `draft`, and
/// `generated/COMPATIBILITY.md`. `models` and `shas` are in date order, `draft` last.
pub fn reports(models: &[Model]) -> Vec<(String, String)> {
    let released: Vec<&Model> = models.iter().filter(|m| m.version != "draft").collect();
    let mut pairs: Vec<(&Model, &Model)> = released.windows(2).map(|w| (w[0], w[1])).collect();
    if let (Some(last), Some(draft)) = (
        released.last(),
        models.iter().find(|m| m.version == "draft"),
    ) {
        pairs.push((last, draft));
    }
    let mut out = Vec::new();
    for (a, b) in pairs {
        let d = diff(a, b);
        let stem = format!("generated/diffs/{}..{}", a.version, b.version);
        let from = format!(
            "schema/{}/schema.json (sha256 {}) and schema/{}/schema.json (sha256 {})",
            a.version, a.schema_sha256, b.version, b.schema_sha256
        );
        let md = format!(
            "<!-- @generated by `cargo xtask codegen` from {from}; do not edit by hand. -->\n\n{}",
            d.markdown(false)
        );
        out.push((format!("{stem}.md"), md));
        let mut json = serde_json::to_value(&d).unwrap_or_default();
        if let serde_json::Value::Object(map) = &mut json {
            map.insert(
                "@generated".into(),
                format!("by `cargo xtask codegen` from {from}; do not edit by hand").into(),
            );
        }
        out.push((
            format!("{stem}.json"),
            serde_json::to_string_pretty(&json).unwrap_or_default() + "\n",
        ));
    }
    out.push((
        "generated/COMPATIBILITY.md".to_string(),
        compatibility(models),
    ));
    out
}

/// An official extension, for the compatibility matrix: its name and identifier, the
/// core version it is built on, and its model as its module has it (the copied core
/// definitions among its types, the core requests it answers among its methods).
#[derive(Debug, Clone, Copy)]
pub struct ExtensionRows<'a> {
    /// The extension's entry in the override table.
    pub extension: &'a crate::overrides::Extension,
    /// Its model.
    pub model: &'a Model,
    /// Rust names of its own definitions: those of its schema that are not copies of
    /// the core's.
    pub own: &'a BTreeSet<String>,
    /// How many core definitions its schema copies in.
    pub copies: usize,
    /// Its schema's path, for the header.
    pub source: &'a str,
}

/// `generated/COMPATIBILITY.md` with the extensions' rows: each extension's methods and
/// its own definitions, marked `ext <name>` under the versions it is built on (its core,
/// and a version whose schema is the core's file), and a table of the extensions.
/// `models` in date order, `draft` last.
pub fn compatibility_with(models: &[Model], extensions: &[ExtensionRows<'_>]) -> String {
    let mut out = compatibility(models);
    if extensions.is_empty() {
        return out;
    }
    let sources: Vec<String> = extensions
        .iter()
        .map(|e| format!(", {} (sha256 {})", e.source, e.model.schema_sha256))
        .collect();
    if let Some(at) = out.find("; do not edit by hand. -->") {
        out.insert_str(at, &sources.concat());
    }
    let on = |ext: &ExtensionRows<'_>, m: &Model| {
        let core = models
            .iter()
            .find(|c| Some(c.version.as_str()) == ext.extension.core);
        core.is_some_and(|c| c.schema_sha256 == m.schema_sha256)
    };
    let row = |label: String, ext: &ExtensionRows<'_>| {
        let mut r = format!("| {label} |");
        for m in models {
            let cell = if on(ext, m) {
                format!("ext `{}`", ext.extension.name)
            } else {
                "—".to_string()
            };
            r.push_str(&format!(" {cell} |"));
        }
        r.push('\n');
        r
    };
    let header = |first: &str| matrix_header(models, first);
    out.push_str(
        "\n## Extensions\n\nThe official extensions, each generated from its own schema into \
         `mcp_spec_types::ext::<name>` (`schema/ext/`, `docs/extensions.md`). The core \
         definitions an extension's schema copies in are its core version's types there, \
         not new ones. An extension built on no version (a document, as the server card) \
         has no rows in the tables below it.\n\n| extension | identifier | built on | methods of its own | core requests it \
         answers with its own result | definitions of its own | core definitions it copies |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for ext in extensions {
        let answered: Vec<&str> = ext.extension.answers.iter().map(|(m, _)| *m).collect();
        let own: Vec<String> = ext
            .model
            .methods
            .iter()
            .filter(|m| !answered.contains(&m.method.as_str()))
            .map(|m| format!("`{}`", m.method))
            .collect();
        let answers: Vec<String> = ext
            .extension
            .answers
            .iter()
            .map(|(m, r)| format!("`{m}` → `{r}`"))
            .collect();
        let or_none = |v: Vec<String>| {
            if v.is_empty() {
                "—".to_string()
            } else {
                v.join(", ")
            }
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            ext.extension.name,
            ext.extension
                .id
                .map_or("—".to_string(), |id| format!("`{id}`")),
            ext.extension.core.unwrap_or("—"),
            or_none(own),
            or_none(answers),
            ext.own.len(),
            ext.copies
        ));
    }
    out.push_str(&format!(
        "\n### Methods of the extensions\n\nA method's row says which extension defines it \
         (`ext <name>`) under the versions the extension is built on; where the core of a \
         version defines a method of the same name, its row in [Methods](#methods) says so.\n{}",
        header("method")
    ));
    // An extension built on no version (the server card, a document) has no rows there.
    let on_a_version = |e: &&ExtensionRows<'_>| e.extension.core.is_some();
    for ext in extensions.iter().filter(on_a_version) {
        let answered: Vec<&str> = ext.extension.answers.iter().map(|(m, _)| *m).collect();
        for m in &ext.model.methods {
            if !answered.contains(&m.method.as_str()) {
                out.push_str(&row(format!("`{}`", m.method), ext));
            }
        }
    }
    out.push_str(&format!(
        "\n### Definitions of the extensions\n\nEach extension's own definitions (not the core \
         definitions it copies), as [Definitions](#definitions) lists the core's.\n{}",
        header("definition")
    ));
    for ext in extensions.iter().filter(on_a_version) {
        for t in &ext.model.types {
            if matches!(t.origin, Origin::Definition(_)) && ext.own.contains(&t.name) {
                out.push_str(&row(format!("`{}` ({})", t.name, ext.extension.name), ext));
            }
        }
    }
    out
}

/// The head of a table of the matrix: `first`, then a column per version.
fn matrix_header(models: &[Model], first: &str) -> String {
    let mut h = format!("\n| {first} |");
    for m in models {
        h.push_str(&format!(" {} |", m.version));
    }
    h.push_str("\n| --- |");
    h.push_str(&" --- |".repeat(models.len()));
    h.push('\n');
    h
}

/// Every method and every definition × every version: `—` absent, `new` added, `Δ`
/// changed since the previous version, `✓` unchanged.
fn compatibility(models: &[Model]) -> String {
    let mut out = String::from("<!-- @generated by `cargo xtask codegen` from ");
    let sources: Vec<String> = models
        .iter()
        .map(|m| {
            format!(
                "schema/{}/schema.json (sha256 {})",
                m.version, m.schema_sha256
            )
        })
        .collect();
    out.push_str(&sources.join(", "));
    out.push_str("; do not edit by hand. -->\n\n# MCP compatibility matrix\n\n");
    out.push_str(
        "Every method and every schema definition in every protocol version: `—` absent, \
         `new` first present, `Δ` changed since the previous version (see `diffs/`), `dep` \
         deprecated upstream (the definition, or a property or value of it; only that changed), \
         `undep` a deprecation withdrawn, `Δ dep` changed and deprecated, `✓` unchanged. Description-only changes count as \
         unchanged.\n",
    );
    let diffs: Vec<Option<Diff>> = (0..models.len())
        .map(|i| (i > 0).then(|| diff(&models[i - 1], &models[i])))
        .collect();
    let header = |first: &str| matrix_header(models, first);
    // A change that is only a deprecation (or its withdrawal) is marked apart: nothing
    // changed shape, but upstream announced the way out.
    let row = |name: &str, present: &dyn Fn(&Model) -> bool, about: &dyn Fn(&Change) -> bool| {
        let mut r = format!("| `{name}` |");
        for (i, m) in models.iter().enumerate() {
            let kinds: Vec<ChangeKind> = diffs[i]
                .iter()
                .flat_map(|d| d.changes.iter().filter(|c| about(c)).map(|c| c.kind))
                .collect();
            let deprecation =
                |k: &ChangeKind| matches!(k, ChangeKind::Deprecated | ChangeKind::Undeprecated);
            let cell = if !present(m) {
                "—"
            } else if i == 0 || !present(&models[i - 1]) {
                "new"
            } else if kinds.is_empty() {
                "✓"
            } else if kinds.iter().all(|k| *k == ChangeKind::Undeprecated) {
                "undep"
            } else if kinds.iter().all(deprecation) {
                "dep"
            } else if kinds.iter().any(deprecation) {
                "Δ dep"
            } else {
                "Δ"
            };
            r.push_str(&format!(" {cell} |"));
        }
        r.push('\n');
        r
    };
    out.push_str("\n## Methods\n");
    out.push_str(&header("method"));
    let methods: BTreeSet<&str> = models
        .iter()
        .flat_map(|m| m.methods.iter().map(|x| x.method.as_str()))
        .collect();
    for method in methods {
        out.push_str(&row(
            method,
            &|m: &Model| m.methods.iter().any(|x| x.method == method),
            &|c: &Change| c.subject == method,
        ));
    }
    out.push_str("\n## Definitions\n");
    out.push_str(&header("definition"));
    let defs: BTreeSet<&str> = models
        .iter()
        .flat_map(|m| {
            m.types
                .iter()
                .filter(|t| matches!(t.origin, Origin::Definition(_)))
                .map(|t| t.name.as_str())
        })
        .collect();
    for def in defs {
        let prefix = format!("{def}.");
        out.push_str(&row(
            def,
            &|m: &Model| {
                m.types
                    .iter()
                    .any(|t| t.name == def && matches!(t.origin, Origin::Definition(_)))
            },
            &|c: &Change| c.subject == def || c.subject.starts_with(&prefix),
        ));
    }
    out
}
