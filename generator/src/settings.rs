//! What a crate that seeds its own module from a schema can choose ([`Settings`]), and how
//! each choice is applied to the emitted code.
//!
//! Settings come in as Rust values (from a `build.rs`) or as a JSON file (the
//! `mcp-codegen` command's `--config`); every field has a default, so `{}` is a valid
//! file. The repository's own crate is generated with [`Settings::repository`]; every other
//! caller starts from [`Settings::default`], which is what a crate outside this repository
//! needs: the runtime at `::mcp_spec_rt`, no features of its own.
//!
//! Choices about types are applied to the emitted tokens, after the emitters are done, so
//! that every reference the generator itself makes (a `Router`'s to `Implementation`, a
//! union's arm, a handler's parameter) follows them without the emitters knowing:
//! - a [rename](TypeSettings::rename) renames the type wherever the module names it (not
//!   a name further along another path: `serde_json::Number`, the runtime's, a
//!   replacement's), and in the docs the words that name it (a link's label with its
//!   target);
//! - a [replacement](TypeSettings::replace) (or `x-rust-type` in the schema) drops the
//!   generated type and its impls, and puts `pub type Name = your::Type;` in its place;
//! - [derives](Settings::derives) and [attributes](Settings::attributes) are added to the
//!   type items.
//!
//! [Excluding](Settings::exclude) definitions is applied to the model, before emitting:
//! see [`prune`].

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Group, Literal, Spacing, TokenStream, TokenTree};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::model::{Field, Kind, MethodDef, Model, Origin, TypeRef};

/// Everything a user of the generator can choose; see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The command that regenerates the files, named in their headers (default
    /// `mcp-codegen generate`; a `build.rs` says so).
    pub command: String,
    /// The path of the runtime the generated code calls (default `::mcp_spec_rt`; this
    /// repository's crate uses `crate::rt`, its re-export).
    pub runtime: String,
    /// The path at which users reach the generated module (`my_crate::mcp`), for the
    /// doc examples it carries; without it, it carries none (a doc example must name its
    /// crate to compile).
    pub doc_module: Option<String>,
    /// How the module is laid out on disk.
    pub layout: Layout,
    /// The module's name in a [`Layout::File`] (default: the schema's version, as
    /// `v2025_11_25`).
    pub module: Option<String>,
    /// Which layers to emit, each present only where the schema has what it needs.
    pub layers: Layers,
    /// Derives added to every type of the schema (`"Hash"`, `"schemars::JsonSchema"`).
    pub derives: Vec<String>,
    /// Attributes added to every type of the schema (`"#[non_exhaustive]"`).
    pub attributes: Vec<String>,
    /// Settings of one definition, by its name in the schema.
    pub types: BTreeMap<String, TypeSettings>,
    /// Definitions to leave out, by name in the schema: what needs one of them is left
    /// out too (a struct that requires it, a method that carries it), a union loses the
    /// arm, a struct loses an optional member of it; [`prune`] lists each.
    pub exclude: Vec<String>,
    /// The map type of an object whose values share a schema (default
    /// `::std::collections::BTreeMap`, or `::std::collections::HashMap`: the runtime's
    /// checks know these two; a `HashMap` writes its members in its own order, which is
    /// not the order they came in and not the same from one run to the next). An object of
    /// free-form values stays a `serde_json::Map` (with [`FreeForm::Raw`], a
    /// `RawObject`), and the members an open object does not name are a `serde_json::Map`
    /// (with [`FreeForm::Raw`], of this type). A type that holds a `HashMap`
    /// derives neither `Eq` nor `Hash` ([`unordered_maps`]).
    pub map_type: Option<String>,
    /// Whether the types derive `schemars::JsonSchema`.
    pub json_schema: JsonSchema,
    /// How free-form JSON (where the schema allows any value) is held.
    pub free_form: FreeForm,
}

/// How free-form JSON is held: a tool's arguments, a schema's properties, `_meta`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FreeForm {
    /// As a `serde_json::Value`, parsed into a tree (an object of them as a
    /// `serde_json::Map`).
    #[default]
    Value,
    /// As its text, checked but not parsed (`mcp_spec_rt::raw::RawJson`, and where the
    /// schema allows any object `mcp_spec_rt::raw::RawObject`, one text for the object),
    /// read on demand: for proxies and gateways, which forward schemas and arguments
    /// untouched (each such text as it came; the structs around them write their members
    /// in their own order). The
    /// shortcuts that build free-form values (`CallToolResult::structured`,
    /// `Tool::for_input`, `arguments_as`) and the `Router`, which decodes arguments, are
    /// not emitted. The members of an open object that it does not name are texts too,
    /// in a map of the chosen map type.
    Raw,
}

/// Settings of one definition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TypeSettings {
    /// Its Rust name, instead of the generator's.
    pub rename: Option<String>,
    /// Derives added to it.
    pub derives: Vec<String>,
    /// Attributes added to it.
    pub attributes: Vec<String>,
    /// A type of your own used in its place (`crate::ids::RequestId`): the generated type
    /// is not emitted, and its name becomes an alias of yours. Yours must read and write
    /// the same JSON (`Serialize`, `Deserialize`) and have the traits the types that hold
    /// it derive (`Debug`, `Clone`, `PartialEq`, and `Default`, `Eq`, `Hash` where they
    /// derive them). A definition whose schema says `"x-rust-type": {"path": "..."}` is
    /// replaced the same way.
    pub replace: Option<String>,
}

/// How the generated module is laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// A folder: `mod.rs` with `consts.rs`, `methods.rs` and `handlers.rs` beside it
    /// (those emitted). Declare it with `#[path = "..."] mod name;` or put it in `src/`.
    #[default]
    Tree,
    /// One file, `<module>.rs`, that declares `pub mod <module> { ... }`: for a
    /// `build.rs` that writes to `OUT_DIR`, included with
    /// `include!(concat!(env!("OUT_DIR"), "/<module>.rs"));`.
    File,
}

/// Which layers to emit. Types are always emitted; each other layer is emitted when it is
/// asked for and the schema has what it needs (the methods: JSON-RPC request and
/// notification definitions; the handlers and `Router`: those methods, with a lifecycle
/// request, `initialize` or `server/discover`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Layers {
    /// The method markers and the messages decoded by method (`methods.rs`).
    pub methods: bool,
    /// The handler traits, dispatch, typed peers and `Router` (`handlers.rs`).
    pub handlers: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Layers {
            methods: true,
            handlers: true,
        }
    }
}

/// Whether the types derive `schemars::JsonSchema` (the crate then depends on
/// `schemars` 1, and the runtime needs its `schemars` feature).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JsonSchema {
    /// Never.
    #[default]
    Never,
    /// When the crate's feature `json-schema` is on (and the tool shortcuts that take a
    /// Rust type's schema when its feature `schemars` is): how this repository's crate does it.
    Feature,
    /// Always.
    Always,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            command: "mcp-codegen generate".to_string(),
            runtime: "::mcp_spec_rt".to_string(),
            doc_module: None,
            layout: Layout::Tree,
            module: None,
            layers: Layers::default(),
            derives: Vec::new(),
            attributes: Vec::new(),
            types: BTreeMap::new(),
            exclude: Vec::new(),
            map_type: None,
            json_schema: JsonSchema::Never,
            free_form: FreeForm::Value,
        }
    }
}

/// The command that regenerates this repository's files.
pub const REPOSITORY_COMMAND: &str = "cargo xtask codegen";

/// The runtime path this repository's crate uses: its re-export of `mcp-spec-rt`.
pub const REPOSITORY_RUNTIME: &str = "crate::rt";

/// The version of the runtime's interface to generated code that this generator emits
/// for (`mcp_spec_rt::CODEGEN_INTERFACE`): generated code checks it at compile time, and
/// fails with a message that says which runtime it needs.
pub const RUNTIME_INTERFACE: u32 = 4;

impl Settings {
    /// The settings of this repository's crate, `mcp-spec-types`, for the version module
    /// `module`.
    pub fn repository(module: &str) -> Self {
        Settings {
            command: REPOSITORY_COMMAND.to_string(),
            runtime: REPOSITORY_RUNTIME.to_string(),
            doc_module: Some(format!("mcp_spec_types::{module}")),
            json_schema: JsonSchema::Feature,
            ..Settings::default()
        }
    }

    /// Reads settings from JSON text (`file` names it in errors).
    pub fn from_json(file: &str, text: &str) -> Result<Self, Error> {
        serde_json::from_str(text)
            .map_err(|e| Error::at(file, "", format!("not valid settings: {e}")))
    }

    /// Checks what can be checked before generating: paths and names parse, renames are
    /// identifiers, no two types end with one name.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |what: &str, value: &str, e: syn::Error| {
            Error::msg(format!("settings: {what} `{value}` is not valid Rust: {e}"))
        };
        syn::parse_str::<syn::Path>(&self.runtime).map_err(|e| bad("runtime", &self.runtime, e))?;
        if let Some(m) = &self.doc_module {
            syn::parse_str::<syn::Path>(m).map_err(|e| bad("doc_module", m, e))?;
        }
        if let Some(m) = &self.module {
            syn::parse_str::<syn::Ident>(m).map_err(|e| bad("module", m, e))?;
        }
        if let Some(m) = &self.map_type {
            syn::parse_str::<syn::Path>(m).map_err(|e| bad("map_type", m, e))?;
        }
        for d in &self.derives {
            syn::parse_str::<syn::Path>(d).map_err(|e| bad("derive", d, e))?;
        }
        for a in &self.attributes {
            attribute(a).map_err(|e| bad("attribute", a, e))?;
        }
        for (name, t) in &self.types {
            if let Some(r) = &t.rename {
                syn::parse_str::<syn::Ident>(r)
                    .map_err(|e| bad(&format!("rename of `{name}`"), r, e))?;
                if r.starts_with("r#") {
                    return Err(Error::msg(format!(
                        "settings: the rename of `{name}`, `{r}`, is a raw identifier; a type \
                         name needs none"
                    )));
                }
            }
            if let Some(r) = &t.replace {
                syn::parse_str::<syn::Type>(r)
                    .map_err(|e| bad(&format!("replacement of `{name}`"), r, e))?;
            }
            for d in &t.derives {
                syn::parse_str::<syn::Path>(d)
                    .map_err(|e| bad(&format!("derive of `{name}`"), d, e))?;
            }
            for a in &t.attributes {
                attribute(a).map_err(|e| bad(&format!("attribute of `{name}`"), a, e))?;
            }
        }
        Ok(())
    }
}

/// An attribute from its text, with or without its `#[...]`.
fn attribute(text: &str) -> syn::Result<syn::Attribute> {
    let text = text.trim();
    let text = if text.starts_with("#[") {
        text.to_string()
    } else {
        format!("#[{text}]")
    };
    let mut attrs = syn::parse::Parser::parse_str(syn::Attribute::parse_outer, &text)?;
    match attrs.len() {
        1 => Ok(attrs.remove(0)),
        n => Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("expected one attribute, found {n}"),
        )),
    }
}

/// What the settings made of the model's definitions, in the order they were decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Each definition left out, with why (`excluded`, or what of it needed one that was).
    pub removed: Vec<(String, String)>,
    /// Each union arm and optional member dropped, as `Type.member` or `Union::Arm`.
    pub dropped: Vec<String>,
    /// Each definition replaced by a type of the user's, with that type.
    pub replaced: Vec<(String, String)>,
}

/// The schema name of a type, if it is a definition.
fn schema_name(t: &crate::model::TypeDef) -> Option<&str> {
    match &t.origin {
        Origin::Definition(d) => Some(d),
        _ => None,
    }
}

/// Every named type a type reference needs.
pub(crate) fn named_in(ty: &TypeRef, out: &mut Vec<String>) {
    match ty {
        TypeRef::Named(n) => out.push(n.clone()),
        TypeRef::Array(inner) | TypeRef::Map(inner) => named_in(inner, out),
        _ => {}
    }
}

fn needs(ty: &TypeRef, gone: &BTreeSet<String>) -> bool {
    let mut names = Vec::new();
    named_in(ty, &mut names);
    names.iter().any(|n| gone.contains(n))
}

/// Checks that every definition `settings` names (in `types` and `exclude`) is one of
/// `model`'s (the model before anything is left out): a typo must not pass silently.
pub fn check_names(settings: &Settings, model: &Model) -> Result<(), Error> {
    let defined: BTreeSet<&str> = model.types.iter().filter_map(schema_name).collect();
    for (name, what) in settings
        .types
        .keys()
        .map(|n| (n, "types"))
        .chain(settings.exclude.iter().map(|n| (n, "exclude")))
    {
        if !defined.contains(name.as_str()) {
            return Err(Error::msg(format!(
                "settings: {what} names `{name}`, which is no definition of the schema"
            )));
        }
    }
    Ok(())
}

/// The named types the model's types and methods refer to.
fn referred(model: &Model) -> BTreeSet<String> {
    let mut names = Vec::new();
    for t in &model.types {
        match &t.kind {
            Kind::Struct { fields, additional } => {
                fields.iter().for_each(|f| named_in(&f.ty, &mut names));
                additional.iter().for_each(|a| named_in(a, &mut names));
            }
            Kind::Union { variants, .. } => {
                variants.iter().for_each(|v| named_in(&v.ty, &mut names))
            }
            Kind::Alias { target, .. } => named_in(target, &mut names),
            Kind::StringEnum { .. } => {}
        }
    }
    for m in &model.methods {
        if let Some(p) = &m.params {
            named_in(p, &mut names);
        }
        names.extend(m.result.iter().cloned());
        names.extend(m.results.iter().cloned());
        names.push(m.definition.clone());
    }
    names.into_iter().collect()
}

/// Leaves the `exclude`d definitions out of `model`, and what cannot be without them:
/// - a struct member that needs a removed type: dropped if optional (an open object keeps
///   the member's JSON among its other properties), else the struct goes too;
/// - a union arm: dropped (a value of that shape is then the union's `Unknown`, or no
///   arm), the union goes if no arm is left;
/// - an alias of it goes; a method whose message, params or result goes, goes.
///
/// Unknown names are an error (a typo must not pass silently). Repeats until nothing more
/// goes; the constants no type uses any more go too.
pub fn prune(model: &mut Model, exclude: &[String]) -> Result<Applied, Error> {
    let mut applied = Applied::default();
    if exclude.is_empty() {
        return Ok(applied);
    }
    let by_schema: BTreeMap<&str, &str> = model
        .types
        .iter()
        .filter_map(|t| schema_name(t).map(|s| (s, t.name.as_str())))
        .collect();
    let referred_before = referred(model);
    let unreferenced_before: BTreeSet<String> = model
        .types
        .iter()
        .filter(|t| !referred_before.contains(&t.name))
        .map(|t| t.name.clone())
        .collect();
    let mut gone: BTreeSet<String> = BTreeSet::new();
    for name in exclude {
        let Some(rust) = by_schema.get(name.as_str()) else {
            return Err(Error::msg(format!(
                "settings: exclude names `{name}`, which is no definition of the schema"
            )));
        };
        gone.insert(rust.to_string());
        applied.removed.push((name.clone(), "excluded".to_string()));
    }
    loop {
        let mut more = Vec::new();
        for t in &mut model.types {
            if gone.contains(&t.name) {
                continue;
            }
            let label = schema_name(t).unwrap_or(&t.name).to_string();
            let why: Option<String> = match &mut t.kind {
                Kind::Struct { fields, additional } => {
                    let mut why = None;
                    fields.retain(|f: &Field| {
                        if !needs(&f.ty, &gone) {
                            return true;
                        }
                        if f.required {
                            why = Some(format!(
                                "its required member `{}` needs one left out",
                                f.wire
                            ));
                            true
                        } else {
                            applied.dropped.push(format!("{label}.{}", f.wire));
                            false
                        }
                    });
                    if additional.as_ref().is_some_and(|a| needs(a, &gone)) {
                        why = Some("its other members need one left out".to_string());
                    }
                    why
                }
                Kind::Union { variants, .. } => {
                    variants.retain(|v| {
                        if needs(&v.ty, &gone) {
                            applied.dropped.push(format!("{label}::{}", v.name));
                            false
                        } else {
                            true
                        }
                    });
                    // An arm chosen instead of one that is gone is chosen for its own shape.
                    for v in variants.iter_mut() {
                        if v.signature
                            .shadowed_by
                            .as_ref()
                            .is_some_and(|s| gone.contains(s))
                        {
                            v.signature.shadowed_by = None;
                        }
                    }
                    variants
                        .is_empty()
                        .then(|| "every arm of it was left out".to_string())
                }
                Kind::Alias { target, .. } => {
                    needs(target, &gone).then(|| "it is another name for one left out".to_string())
                }
                Kind::StringEnum { .. } => None,
            };
            if let Some(why) = why {
                more.push((t.name.clone(), label, why));
            }
        }
        if more.is_empty() {
            break;
        }
        for (name, label, why) in more {
            gone.insert(name);
            applied.removed.push((label, why));
        }
    }
    model.types.retain(|t| !gone.contains(&t.name));
    let method_needs = |m: &MethodDef| {
        gone.contains(&m.definition)
            || m.params.as_ref().is_some_and(|p| needs(p, &gone))
            || m.result.as_ref().is_some_and(|r| gone.contains(r))
    };
    for m in &model.methods {
        if method_needs(m) {
            applied.removed.push((
                m.method.clone(),
                "the method's message, params or result was left out".into(),
            ));
        }
    }
    model.methods.retain(|m| !method_needs(m));
    for m in &mut model.methods {
        m.results.retain(|r| !gone.contains(r));
        m.via.retain(|v| !gone.contains(v));
    }
    // The anonymous types of what is gone (an arm, a member's object) go with it: an
    // anonymous type no kept type or method refers to any more (one none referred to
    // before stays).
    loop {
        let referred = referred(model);
        let before = model.types.len();
        model.types.retain(|t| {
            matches!(t.origin, Origin::Definition(_))
                || referred.contains(&t.name)
                || unreferenced_before.contains(&t.name)
        });
        if model.types.len() == before {
            break;
        }
    }
    // Constants no type refers to any more.
    let mut used = BTreeSet::new();
    let mut note = |ty: &TypeRef| {
        let mut t = ty;
        while let TypeRef::Array(inner) | TypeRef::Map(inner) = t {
            t = inner;
        }
        if let TypeRef::Const(c) = t {
            used.insert(c.clone());
        }
    };
    for t in &model.types {
        match &t.kind {
            Kind::Struct { fields, additional } => {
                fields.iter().for_each(|f| note(&f.ty));
                additional.iter().for_each(&mut note);
            }
            Kind::Union { variants, .. } => variants.iter().for_each(|v| note(&v.ty)),
            Kind::Alias { target, .. } => note(target),
            Kind::StringEnum { .. } => {}
        }
    }
    model.consts.retain(|c| used.contains(&c.name));
    Ok(applied)
}

/// Whether a map type is ordered (`BTreeMap`, the default): only an ordered map is `Hash`.
fn ordered_map(map_type: Option<&str>) -> bool {
    map_type.is_none_or(|m| m.trim_end().ends_with("BTreeMap"))
}

/// Takes `Eq` and `Hash` from the types that hold a map of the chosen type when that type
/// is not ordered (a `HashMap` is not `Hash`), and from what holds them: the flags the
/// lowering computed for `BTreeMap`s. Which maps are of the chosen type: those whose
/// values share a schema, and with free-form JSON as text an open object's other members
/// too (with `Value`s these are a `serde_json::Map`, which is `Hash`; an object of
/// free-form values is a `serde_json::Map` or a `RawObject`, both `Hash`).
pub fn unordered_maps(model: &mut Model, settings: &Settings) {
    if ordered_map(settings.map_type.as_deref()) {
        return;
    }
    let raw = settings.free_form == FreeForm::Raw;
    fn unhashable(ty: &TypeRef, lost: &BTreeSet<String>) -> bool {
        match ty {
            TypeRef::Map(inner) if **inner != TypeRef::Any => true,
            TypeRef::Array(inner) => unhashable(inner, lost),
            TypeRef::Named(n) => lost.contains(n),
            _ => false,
        }
    }
    let mut lost: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = lost.len();
        for t in &model.types {
            let holds = match &t.kind {
                Kind::Struct { fields, additional } => {
                    fields.iter().any(|f| unhashable(&f.ty, &lost))
                        || additional.as_ref().is_some_and(|a| {
                            raw || unhashable(&TypeRef::Map(Box::new(a.clone())), &lost)
                        })
                }
                Kind::Union { variants, .. } => variants.iter().any(|v| unhashable(&v.ty, &lost)),
                Kind::Alias { target, .. } => unhashable(target, &lost),
                Kind::StringEnum { .. } => false,
            };
            if holds {
                lost.insert(t.name.clone());
            }
        }
        if lost.len() == before {
            break;
        }
    }
    for t in &mut model.types {
        if lost.contains(&t.name) {
            t.eq_hash = false;
        }
    }
}

/// The type settings resolved against a model: Rust names, not schema names.
#[derive(Default)]
pub(crate) struct Resolved {
    /// Old Rust name → new.
    pub renames: BTreeMap<String, String>,
    /// Rust name (before renaming) → the user's type.
    pub replace: BTreeMap<String, String>,
    /// Rust name (after renaming) → attributes to add (derives as `#[derive(...)]`).
    pub attrs: BTreeMap<String, Vec<syn::Attribute>>,
    /// Attributes for every type.
    pub all: Vec<syn::Attribute>,
    /// Rust names (after renaming) of the schema's types, which `all` applies to.
    pub schema_types: BTreeSet<String>,
}

impl Resolved {
    /// Resolves `settings` against `model`, whose `x-rust-type` replacements are in
    /// `schema_replacements` (schema name → path). Fails on a name that is no definition,
    /// and on a rename that would clash with another type's name.
    pub fn new(
        settings: &Settings,
        model: &Model,
        schema_replacements: &BTreeMap<String, String>,
    ) -> Result<Self, Error> {
        let by_schema: BTreeMap<&str, &str> = model
            .types
            .iter()
            .filter_map(|t| schema_name(t).map(|s| (s, t.name.as_str())))
            .collect();
        let mut out = Resolved::default();
        for (schema, path) in schema_replacements {
            if let Some(rust) = by_schema.get(schema.as_str()) {
                out.replace.insert(rust.to_string(), path.clone());
            }
        }
        let derive_attr = |paths: &[String]| -> Result<Option<syn::Attribute>, Error> {
            if paths.is_empty() {
                return Ok(None);
            }
            let paths: Vec<syn::Path> = paths
                .iter()
                .map(|p| {
                    syn::parse_str(p)
                        .map_err(|e| Error::msg(format!("settings: derive `{p}`: {e}")))
                })
                .collect::<Result<_, _>>()?;
            Ok(Some(syn::parse_quote!(#[derive( #( #paths ),* )])))
        };
        let attrs_of = |texts: &[String]| -> Result<Vec<syn::Attribute>, Error> {
            texts
                .iter()
                .map(|a| {
                    attribute(a).map_err(|e| Error::msg(format!("settings: attribute `{a}`: {e}")))
                })
                .collect()
        };
        out.all = derive_attr(&settings.derives)?
            .into_iter()
            .chain(attrs_of(&settings.attributes)?)
            .collect();
        let mut per_type: Vec<(String, Vec<syn::Attribute>)> = Vec::new();
        for (schema, t) in &settings.types {
            // A definition left out (by `exclude`, or as what needs one) may still have
            // settings; that every name is a definition is checked before leaving out
            // ([`check_names`]).
            let Some(rust) = by_schema.get(schema.as_str()) else {
                continue;
            };
            if let Some(new) = &t.rename {
                out.renames.insert(rust.to_string(), new.clone());
            }
            if let Some(path) = &t.replace {
                out.replace.insert(rust.to_string(), path.clone());
            }
            let attrs: Vec<syn::Attribute> = derive_attr(&t.derives)?
                .into_iter()
                .chain(attrs_of(&t.attributes)?)
                .collect();
            if !attrs.is_empty() {
                per_type.push((rust.to_string(), attrs));
            }
        }
        let final_name = |n: &str| out.renames.get(n).cloned().unwrap_or_else(|| n.to_string());
        let mut finals: BTreeMap<String, String> = BTreeMap::new();
        let everything = model
            .types
            .iter()
            .map(|t| t.name.clone())
            .chain(model.consts.iter().map(|c| c.name.clone()))
            .chain(model.methods.iter().map(|m| m.marker_name()));
        for name in everything {
            let new = final_name(&name);
            if let Some(other) = finals.insert(new.clone(), name.clone()) {
                if other != name {
                    return Err(Error::msg(format!(
                        "settings: renaming makes `{other}` and `{name}` both `{new}`"
                    )));
                }
            }
        }
        for (rust, attrs) in per_type {
            out.attrs
                .entry(final_name(&rust))
                .or_default()
                .extend(attrs);
        }
        out.schema_types = model
            .types
            .iter()
            .filter(|t| !out.replace.contains_key(&t.name))
            .map(|t| final_name(&t.name))
            .collect();
        Ok(out)
    }

    /// Whether anything is to be done.
    pub fn is_empty(&self) -> bool {
        self.renames.is_empty()
            && self.replace.is_empty()
            && self.attrs.is_empty()
            && self.all.is_empty()
    }

    /// Replaces, in the version's `mod.rs`, each replaced type's items (its declaration,
    /// impls and runtime macro invocations) with an alias of the user's type.
    pub fn replace_items(&self, file: &mut syn::File) -> Result<(), Error> {
        if self.replace.is_empty() {
            return Ok(());
        }
        let about = |item: &syn::Item| -> Option<String> {
            let name = match item {
                syn::Item::Struct(s) => s.ident.to_string(),
                syn::Item::Enum(e) => e.ident.to_string(),
                syn::Item::Type(t) => t.ident.to_string(),
                syn::Item::Impl(i) => match &*i.self_ty {
                    syn::Type::Path(p) if p.path.segments.len() == 1 => {
                        p.path.segments[0].ident.to_string()
                    }
                    _ => return None,
                },
                syn::Item::Macro(m) => match m.mac.tokens.clone().into_iter().next() {
                    Some(TokenTree::Ident(i)) => i.to_string(),
                    _ => return None,
                },
                _ => return None,
            };
            self.replace.contains_key(&name).then_some(name)
        };
        let mut items = Vec::with_capacity(file.items.len());
        for item in std::mem::take(&mut file.items) {
            let Some(name) = about(&item) else {
                items.push(item);
                continue;
            };
            let declares = matches!(
                item,
                syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Type(_)
            );
            if !declares {
                continue;
            }
            let ident = syn::Ident::new(&name, proc_macro2::Span::call_site());
            let path = &self.replace[&name];
            let ty: syn::Type = syn::parse_str(path)
                .map_err(|e| Error::msg(format!("settings: replacement `{path}`: {e}")))?;
            let doc = format!(" The schema's `{name}`: `{path}`, as the generator was told.");
            // The type may be deprecated where it is defined; naming it here is no use of it.
            items.push(syn::parse_quote! {
                #[doc = #doc]
                #[allow(deprecated)]
                pub type #ident = #ty;
            });
        }
        file.items = items;
        Ok(())
    }

    /// Adds the attributes of the settings to the type items of `file` (not to an
    /// alias: a derive on one is an error, naming the type it aliases).
    pub fn add_attributes(&self, file: &mut syn::File) -> Result<(), Error> {
        if self.attrs.is_empty() && self.all.is_empty() {
            return Ok(());
        }
        let mut done = BTreeSet::new();
        for item in &mut file.items {
            let (ident, attrs) = match item {
                syn::Item::Struct(s) => (s.ident.to_string(), &mut s.attrs),
                syn::Item::Enum(e) => (e.ident.to_string(), &mut e.attrs),
                syn::Item::Type(t) => {
                    let name = t.ident.to_string();
                    if self.attrs.contains_key(&name) {
                        let target = &t.ty;
                        return Err(Error::msg(format!(
                            "settings: `{name}` is another name for `{}`, not a type of its \
                             own: give its derives and attributes to that type",
                            quote::quote!(#target)
                        )));
                    }
                    continue;
                }
                _ => continue,
            };
            if !self.schema_types.contains(&ident) {
                continue;
            }
            // After the item's docs, before its derives: where a reader looks for them.
            let at = attrs
                .iter()
                .position(|a| !a.path().is_ident("doc"))
                .unwrap_or(attrs.len());
            let mut added: Vec<syn::Attribute> = self.all.clone();
            if let Some(own) = self.attrs.get(&ident) {
                added.extend(own.iter().cloned());
                done.insert(ident.clone());
            }
            let added = without_derived(attrs, added);
            attrs.splice(at..at, added);
        }
        if let Some(missing) = self.attrs.keys().find(|k| !done.contains(*k)) {
            return Err(Error::msg(format!(
                "settings: `{missing}` has derives or attributes but is not emitted as a type \
                 of its own (it is replaced, or left out)"
            )));
        }
        Ok(())
    }
}

/// The paths of the `#[derive(...)]` attributes among `attrs`.
fn derived(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let paths = a.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        );
        if let Ok(paths) = paths {
            out.extend(paths.iter().map(|p| quote::quote!(#p).to_string()));
        }
    }
    out
}

/// `added`, with the derives `existing` already has taken out (a derive given twice is
/// two impls), and a derive attribute left empty dropped.
fn without_derived(existing: &[syn::Attribute], added: Vec<syn::Attribute>) -> Vec<syn::Attribute> {
    let mut have = derived(existing);
    let mut out = Vec::new();
    for a in added {
        if !a.path().is_ident("derive") {
            out.push(a);
            continue;
        }
        let fresh: Vec<syn::Path> = a
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .map(|ps| ps.into_iter().collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| {
                let text = quote::quote!(#p).to_string();
                let new = !have.contains(&text);
                have.push(text);
                new
            })
            .collect();
        if !fresh.is_empty() {
            out.push(syn::parse_quote!(#[derive( #( #fresh ),* )]));
        }
    }
    out
}

/// Whether `trees[i]` follows a `::` (a path segment after the first).
fn after_path_colons(trees: &[TokenTree], i: usize) -> bool {
    i >= 2
        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':')
        && matches!(&trees[i - 2], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
}

/// Whether `trees[i]` follows `super::`.
fn after_super(trees: &[TokenTree], i: usize) -> bool {
    after_path_colons(trees, i)
        && i >= 3
        && matches!(&trees[i - 3], TokenTree::Ident(s) if s == "super")
}

/// Renames the types of `renames` in emitted tokens: an identifier that starts a path (or
/// stands alone) in the version's own module file (`in_module`), or follows `super::` in
/// a submodule's (where a bare name is the submodule's own: a method marker, a const
/// marker). An identifier further along another path (`serde_json::Number`,
/// `crate::rt::jsonrpc::Request`, `consts::Resource`, a replacement's path) is not the
/// type's. Doc strings get the same rule ([`rename_words`]), but for a bare word, which
/// names the type in every file's docs (a submodule's prose and examples name the types).
pub(crate) fn rename_tokens(
    tokens: TokenStream,
    renames: &BTreeMap<String, String>,
    in_module: bool,
) -> TokenStream {
    if renames.is_empty() {
        return tokens;
    }
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut doc_next = false;
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(id) => {
                let name = id.to_string();
                doc_next = name == "doc";
                let ours = if after_path_colons(&trees, i) {
                    after_super(&trees, i)
                } else {
                    in_module
                };
                match renames.get(&name) {
                    Some(new) if ours => {
                        out.push(TokenTree::Ident(proc_macro2::Ident::new(new, id.span())))
                    }
                    _ => out.push(tree.clone()),
                }
            }
            TokenTree::Punct(p) => {
                if p.as_char() != '=' {
                    doc_next = false;
                }
                out.push(tree.clone());
            }
            TokenTree::Literal(lit) => {
                // In the docs a bare name is the module's type in every file: a
                // submodule's prose and examples (`use module::*`) name the types.
                let renamed = if std::mem::take(&mut doc_next) {
                    rename_doc(lit, renames, true)
                } else {
                    None
                };
                out.push(TokenTree::Literal(renamed.unwrap_or_else(|| lit.clone())));
            }
            TokenTree::Group(g) => {
                doc_next = false;
                let mut group =
                    Group::new(g.delimiter(), rename_tokens(g.stream(), renames, in_module));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
        }
    }
    // A `///` comment arrives as `# [doc = "..."]`, whose group the walk above enters.
    out.into_iter().collect()
}

/// A doc string with the renamed types' mentions renamed, if it has any.
fn rename_doc(
    lit: &Literal,
    renames: &BTreeMap<String, String>,
    in_module: bool,
) -> Option<Literal> {
    let parsed: syn::LitStr = syn::parse2(TokenTree::Literal(lit.clone()).into()).ok()?;
    let text = parsed.value();
    let renamed = rename_words(&text, renames, in_module);
    (renamed != text).then(|| {
        let mut l = Literal::string(&renamed);
        l.set_span(lit.span());
        l
    })
}

/// `text` with each whole word that `renames` names replaced, by the rule of
/// [`rename_tokens`]: a word after `super::` always; a word after another `::` never
/// (`crate::rt::method::Request` in a link); any other word in the module's own file. The
/// label of a link (`[label](target)`) follows its target: renamed where the target is.
pub(crate) fn rename_words(
    text: &str,
    renames: &BTreeMap<String, String>,
    in_module: bool,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        // The next link: `[`, its label, `](`, its target, `)`.
        let link = rest.find("](").and_then(|close| {
            let open = rest[..close].rfind('[')?;
            let end = close + 2 + rest[close + 2..].find(')')?;
            Some((open, close, end))
        });
        let Some((open, close, end)) = link else {
            out.push_str(&rename_plain(rest, renames, in_module));
            return out;
        };
        out.push_str(&rename_plain(&rest[..open], renames, in_module));
        let (label, target) = (&rest[open + 1..close], &rest[close + 2..end]);
        let new_target = rename_plain(target, renames, in_module);
        let new_label = if new_target != target {
            rename_plain(label, renames, true)
        } else {
            label.to_string()
        };
        out.push_str(&format!("[{new_label}]({new_target})"));
        rest = &rest[end + 1..];
    }
}

/// [`rename_words`] on text without links.
fn rename_plain(text: &str, renames: &BTreeMap<String, String>, in_module: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let ours = match out.strip_suffix("::") {
            Some(before) => {
                before.ends_with("super")
                    && !before[..before.len() - 5]
                        .ends_with(|c: char| c.is_alphanumeric() || c == '_')
            }
            None => in_module,
        };
        match renames.get(word.as_str()) {
            Some(new) if ours => out.push_str(new),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Re-roots the paths of emitted tokens: `crate::rt` becomes `runtime` (the runtime's path
/// in the settings), and, where that is not this repository's re-export, a path that
/// starts with `serde_json` or `serde` goes through the runtime's re-export of them (a
/// seeded crate needs no dependency of its own on them). Doc strings get the same, on
/// their text ([`reroot`]). Other literals (wire names, values) are never touched.
pub(crate) fn reroot_tokens(tokens: TokenStream, runtime: &str) -> TokenStream {
    if runtime == REPOSITORY_RUNTIME {
        return tokens;
    }
    let runtime_tokens: TokenStream = runtime.parse().unwrap_or_default();
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    let colons = |at: usize| {
        matches!(trees.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
            && matches!(trees.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
    };
    let (mut i, mut doc_next) = (0, false);
    while i < trees.len() {
        let tree = &trees[i];
        match tree {
            TokenTree::Ident(id) if !after_path_colons(&trees, i) && colons(i + 1) => {
                let name = id.to_string();
                doc_next = false;
                if name == "crate"
                    && matches!(trees.get(i + 3), Some(TokenTree::Ident(r)) if r == "rt")
                {
                    out.extend(runtime_tokens.clone());
                    i += 4;
                    continue;
                }
                if name == "serde_json" || name == "serde" {
                    out.extend(runtime_tokens.clone());
                    out.extend(quote::quote!(::));
                }
                out.push(tree.clone());
            }
            TokenTree::Ident(id) => {
                // A doc string, or the type path a `schemars(with = "...")` names.
                doc_next = *id == "doc" || *id == "with";
                out.push(tree.clone());
            }
            TokenTree::Punct(p) => {
                if p.as_char() != '=' {
                    doc_next = false;
                }
                out.push(tree.clone());
            }
            TokenTree::Literal(lit) if std::mem::take(&mut doc_next) => {
                let text = syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into())
                    .ok()
                    .map(|l| l.value());
                match text {
                    Some(text) => {
                        let moved = reroot(&text, "crate::rt::", &format!("{runtime}::"));
                        let moved =
                            reroot(&moved, "serde_json::", &format!("{runtime}::serde_json::"));
                        let mut l = Literal::string(&moved);
                        l.set_span(lit.span());
                        out.push(TokenTree::Literal(l));
                    }
                    None => out.push(tree.clone()),
                }
            }
            TokenTree::Literal(_) => out.push(tree.clone()),
            TokenTree::Group(g) => {
                doc_next = false;
                let mut group = Group::new(g.delimiter(), reroot_tokens(g.stream(), runtime));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// `text` with each path that starts `from` (a whole path segment sequence, not the tail
/// of a longer path) starting `to` instead: `crate::rt::` → `::mcp_spec_rt::`.
pub(crate) fn reroot(text: &str, from: &str, to: &str) -> String {
    if from == to {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = &rest[..at];
        let joined = before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        out.push_str(before);
        out.push_str(if joined { from } else { to });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

/// Applies [`JsonSchema`] to a file: drops the `json-schema` and `schemars` feature gates'
/// attributes and items (never), or makes them unconditional (always).
pub(crate) fn json_schema(file: &mut syn::File, choice: JsonSchema) {
    use syn::visit_mut::VisitMut;
    struct Gates(JsonSchema);
    fn gate_of(attr: &syn::Attribute) -> Option<(bool, TokenStream)> {
        // (is cfg_attr, what it applies), for our two features.
        let list = attr.meta.require_list().ok()?;
        let is_attr = list.path.is_ident("cfg_attr");
        if !is_attr && !list.path.is_ident("cfg") {
            return None;
        }
        let text = list.tokens.to_string();
        let ours = ["feature = \"json-schema\"", "feature = \"schemars\""]
            .iter()
            .any(|f| text.starts_with(f));
        if !ours {
            return None;
        }
        let rest: TokenStream = list
            .tokens
            .clone()
            .into_iter()
            .skip_while(|t| !matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
            .skip(1)
            .collect();
        Some((is_attr, rest))
    }
    impl Gates {
        fn attrs(&self, attrs: &mut Vec<syn::Attribute>) -> bool {
            // Returns whether the item itself is gated off.
            let mut off = false;
            let mut kept = Vec::with_capacity(attrs.len());
            for attr in std::mem::take(attrs) {
                match (gate_of(&attr), self.0) {
                    (None, _) => kept.push(attr),
                    (Some((false, _)), JsonSchema::Never) => off = true,
                    (Some((false, _)), _) => {}
                    (Some((true, _)), JsonSchema::Never) => {}
                    (Some((true, inner)), _) => {
                        // `cfg_attr(feature = "...", a, b)`: each of its attributes.
                        let metas = syn::parse::Parser::parse2(
                            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                            inner,
                        );
                        match metas {
                            Ok(metas) => kept.extend(
                                metas
                                    .into_iter()
                                    .map(|m| -> syn::Attribute { syn::parse_quote!(#[#m]) }),
                            ),
                            Err(_) => kept.push(attr),
                        }
                    }
                }
            }
            *attrs = kept;
            off
        }
    }
    impl VisitMut for Gates {
        fn visit_file_mut(&mut self, f: &mut syn::File) {
            f.items.retain_mut(|i| !self.item(i));
            syn::visit_mut::visit_file_mut(self, f);
        }
        fn visit_item_mod_mut(&mut self, m: &mut syn::ItemMod) {
            if let Some((_, items)) = &mut m.content {
                items.retain_mut(|i| !self.item(i));
            }
            syn::visit_mut::visit_item_mod_mut(self, m);
        }
        fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
            i.items.retain_mut(|item| match item {
                syn::ImplItem::Fn(f) => !self.attrs(&mut f.attrs),
                syn::ImplItem::Const(c) => !self.attrs(&mut c.attrs),
                syn::ImplItem::Type(t) => !self.attrs(&mut t.attrs),
                _ => true,
            });
            syn::visit_mut::visit_item_impl_mut(self, i);
        }
        fn visit_field_mut(&mut self, f: &mut syn::Field) {
            self.attrs(&mut f.attrs);
            syn::visit_mut::visit_field_mut(self, f);
        }
        fn visit_variant_mut(&mut self, v: &mut syn::Variant) {
            self.attrs(&mut v.attrs);
            syn::visit_mut::visit_variant_mut(self, v);
        }
    }
    impl Gates {
        fn item(&self, item: &mut syn::Item) -> bool {
            let attrs = match item {
                syn::Item::Struct(s) => &mut s.attrs,
                syn::Item::Enum(e) => &mut e.attrs,
                syn::Item::Impl(i) => &mut i.attrs,
                syn::Item::Fn(f) => &mut f.attrs,
                syn::Item::Type(t) => &mut t.attrs,
                syn::Item::Macro(m) => &mut m.attrs,
                syn::Item::Mod(m) => &mut m.attrs,
                syn::Item::Use(u) => &mut u.attrs,
                syn::Item::Const(c) => &mut c.attrs,
                _ => return false,
            };
            self.attrs(attrs)
        }
    }
    if choice != JsonSchema::Feature {
        Gates(choice).visit_file_mut(file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_replaces_whole_paths_only() {
        let text = "crate::rt::a; x::crate::rt::b; [`c`](crate::rt::c) mycrate::rt::d";
        assert_eq!(
            reroot(text, "crate::rt::", "::mcp_spec_rt::"),
            "::mcp_spec_rt::a; x::crate::rt::b; [`c`](::mcp_spec_rt::c) mycrate::rt::d"
        );
    }

    #[test]
    fn words_rename_whole_words() {
        let renames = BTreeMap::from([("Tool".to_string(), "McpTool".to_string())]);
        assert_eq!(
            rename_words(
                "[`Tool`] and Tools, ToolAnnotations, super::Tool, rt::Tool, mysuper::Tool.",
                &renames,
                true
            ),
            "[`McpTool`] and Tools, ToolAnnotations, super::McpTool, rt::Tool, mysuper::Tool."
        );
        // In a submodule, only `super::` names the type.
        assert_eq!(
            rename_words("[`Tool`], [`Tool`](super::Tool)", &renames, false),
            "[`Tool`], [`McpTool`](super::McpTool)"
        );
    }

    #[test]
    fn tokens_rename_outside_runtime_paths() {
        let renames = BTreeMap::from([("Request".to_string(), "McpRequest".to_string())]);
        let tokens: TokenStream = syn::parse_quote! {
            /// A [`Request`], not [`Request`](crate::rt::jsonrpc::Request).
            struct Request { a: crate::rt::jsonrpc::Request, b: super::Request, c: Vec<Request>, d: serde_json::Request }
        };
        let out = rename_tokens(tokens.clone(), &renames, true).to_string();
        assert!(out.contains("struct McpRequest"), "{out}");
        assert!(out.contains("crate :: rt :: jsonrpc :: Request"), "{out}");
        assert!(out.contains("super :: McpRequest"), "{out}");
        assert!(out.contains("Vec < McpRequest >"), "{out}");
        assert!(out.contains("serde_json :: Request"), "{out}");
        assert!(
            out.contains("[`McpRequest`], not [`Request`](crate::rt::jsonrpc::Request)"),
            "{out}"
        );
        // In a submodule a bare name is the submodule's own; `super::` names the type.
        let out = rename_tokens(tokens, &renames, false).to_string();
        assert!(out.contains("struct Request"), "{out}");
        assert!(out.contains("super :: McpRequest"), "{out}");
    }

    #[test]
    fn reroot_moves_paths_not_wire_strings() {
        let tokens: TokenStream = syn::parse_quote! {
            /// See [`x`](crate::rt::x).
            crate::rt::open_object! { A { b: "crate::rt::b" } }
            type C = serde_json::Value;
            type D = ::serde::de::IgnoredAny;
            type E = my::serde_json::Value;
        };
        let out = reroot_tokens(tokens, "::mcp_spec_rt").to_string();
        assert!(out.contains(":: mcp_spec_rt :: open_object !"), "{out}");
        assert!(
            out.contains("\"crate::rt::b\""),
            "a wire string moved: {out}"
        );
        assert!(out.contains("(::mcp_spec_rt::x)"), "{out}");
        assert!(
            out.contains("type C = :: mcp_spec_rt :: serde_json :: Value"),
            "{out}"
        );
        assert!(
            out.contains("type D = :: serde :: de"),
            "a rooted path moved: {out}"
        );
        assert!(out.contains("my :: serde_json :: Value"), "{out}");
    }

    #[test]
    fn settings_read_from_json_and_refuse_unknown_fields() {
        let s =
            Settings::from_json("s.json", r#"{"derives": ["Hash"], "layout": "file"}"#).unwrap();
        assert_eq!(s.derives, ["Hash"]);
        assert_eq!(s.layout, Layout::File);
        let e = Settings::from_json("s.json", r#"{"derive": ["Hash"]}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `derive`"), "{e}");
    }
}
