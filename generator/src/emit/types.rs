//! A version's `mod.rs` (every type of the model, with its docs, derives and decoding
//! facts) and `consts.rs` (the const markers).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::constructors;
use super::rust::{
    CLOSED_OBJECT, NEWTYPE, OPEN_OBJECT, ORDERED, SETTERS, UNION_ARMS, WIRE_ENUM, doc_attrs, ident,
};
use crate::docs;
use crate::model::{
    ConstDef, ConstValue, Field, JsonKind, Kind, Model, Origin, Signature, TypeDef, TypeRef,
    Variant,
};

struct Emitter<'m> {
    /// Schema definition name → Rust name, for doc links.
    links: BTreeMap<String, String>,
    /// The model's types by Rust name (what a shortcut builds must exist).
    types: constructors::Types<'m>,
    /// The map type of an object whose values share a schema.
    map: TokenStream,
    /// Whether free-form JSON is held as its text (`rt::raw::RawJson`, `RawObject`), not a
    /// `Value`.
    raw: bool,
}

impl<'m> Emitter<'m> {
    /// The emitter of `model`'s types, with the map type and free-form JSON as settings
    /// say.
    fn new(model: &'m Model, map: &TokenStream, raw: bool) -> Self {
        let links = model
            .types
            .iter()
            .filter_map(|t| match &t.origin {
                Origin::Definition(d) => Some((d.clone(), t.name.clone())),
                Origin::Inline(_) | Origin::Results(_) => None,
            })
            .collect();
        Emitter {
            links,
            types: model.types.iter().map(|t| (t.name.as_str(), t)).collect(),
            map: map.clone(),
            raw,
        }
    }
}

/// The version's `mod.rs`: every type of the model (those another module defines for
/// several versions, [`Shared`], as re-exports of it), and the declarations of the
/// `submodules` (`consts`, `handlers`, `methods`: those emitted).
/// `check` (the runtime's interface) follows them.
pub(super) fn module_tokens(
    model: &Model,
    submodules: &[&str],
    map: &TokenStream,
    raw: bool,
    check: &TokenStream,
    shared: &Shared,
) -> TokenStream {
    let em = Emitter::new(model, map, raw);
    let items: Vec<TokenStream> = model
        .types
        .iter()
        .map(|t| match shared.types.get(&t.name) {
            Some(module) => reexport(module, &t.name),
            None => em.type_def(t),
        })
        .collect();
    let extension = crate::overrides::extension(&model.version);
    let what = if let Some(ext) = extension {
        let id = ext.id.map(|id| format!(" (`{id}`)")).unwrap_or_default();
        format!(
            "Types of the official MCP extension `{}`{id}, generated from its schema",
            ext.name
        )
    } else if model.methods.is_empty() {
        format!("Types of the schema `{}`, generated from it", model.version)
    } else {
        format!(
            "Types of MCP protocol version `{}`, generated from the official schema",
            model.version
        )
    };
    let mut module_doc = vec![format!(
        "{what} ({} definitions, {} items in all).",
        model
            .types
            .iter()
            .filter(|t| matches!(t.origin, Origin::Definition(_)))
            .count(),
        model.types.len()
    )];
    if !shared.types.is_empty() {
        module_doc.push(String::new());
        module_doc.push(format!(
            "{} of them are defined identically by a neighbouring version too (the same \
             fields, wire names, decoding rules and derives; their docs hold each \
             version's text where it differs): each is one Rust type for all those \
             versions, so a value of one is a value of the other and a program that \
             serves them all compiles it once.",
            shared.types.len()
        ));
    }
    let module_doc = doc_attrs_inner(&module_doc);
    let allow_deprecated = super::rust::allow_deprecated(model);
    let consts_doc = submodules.contains(&"consts").then(|| {
        quote! {
            #![doc = ""]
            #![doc = " Const markers (zero-sized types that accept exactly one value) are in [`consts`]."]
        }
    });
    let submodules = submodules.iter().map(|m| ident(m));
    quote! {
        #module_doc
        #consts_doc
        #![allow(clippy::large_enum_variant, clippy::doc_lazy_continuation, clippy::doc_overindented_list_items)]
        #allow_deprecated
        #( pub mod #submodules; )*
        #check
        #( #items )*
    }
}

/// Inner doc attributes, one a line.
fn doc_attrs_inner(lines: &[String]) -> TokenStream {
    let lines = lines.iter().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    quote! { #( #![doc = #lines] )* }
}

/// `pub use` of the item `name` of the module at `module` (a path from the crate root).
fn reexport(module: &str, name: &str) -> TokenStream {
    let path = item_path(module, name);
    quote! { pub use #path; }
}

/// The path of the item `name` of the module at `module`.
fn item_path(module: &str, name: &str) -> syn::Path {
    syn::parse_str(&format!("{module}::{name}"))
        .expect("a module path and an identifier make a path")
}

/// What of a version another module defines, for several versions at once: the Rust name
/// of each such type and const marker, and the module (a path from the crate root) that
/// defines it.
#[derive(Debug, Clone, Default)]
pub struct Shared {
    /// Types.
    pub types: BTreeMap<String, String>,
    /// Const markers (the module's `consts` submodule defines them).
    pub consts: BTreeMap<String, String>,
}

/// One item as [`module_tokens`] emits it, and what it names.
pub(super) struct ItemText {
    /// Its tokens, as text, without its docs (and its fields' and variants').
    pub skeleton: String,
    /// The other types of the model it names in code.
    pub types: BTreeSet<String>,
    /// The other types of the model its docs link to.
    pub linked: BTreeSet<String>,
    /// The const markers it names.
    pub consts: BTreeSet<String>,
}

/// Every type of `model` and every const marker as emitted (with the map type and
/// free-form JSON as settings say): types by Rust name, then const markers by name.
pub(super) fn item_texts(
    model: &Model,
    map: &TokenStream,
    raw: bool,
) -> (BTreeMap<String, ItemText>, BTreeMap<String, String>) {
    let em = Emitter::new(model, map, raw);
    let names: BTreeSet<&str> = model.types.iter().map(|t| t.name.as_str()).collect();
    let types = model
        .types
        .iter()
        .map(|t| {
            let tokens = em.type_def(t);
            let mut item = ItemText {
                skeleton: structure(without_docs(tokens.clone())),
                types: BTreeSet::new(),
                linked: BTreeSet::new(),
                consts: BTreeSet::new(),
            };
            named(tokens, &names, &mut item);
            item.types.remove(&t.name);
            item.linked.remove(&t.name);
            (t.name.clone(), item)
        })
        .collect();
    let consts = model
        .consts
        .iter()
        .map(|c| (c.name.clone(), const_tokens(c).to_string()))
        .collect();
    (types, consts)
}

/// The types of `names` and the const markers (`consts::Name`) that `tokens` names in
/// code, and the types its docs link to (`` [`Name`] ``, `[text](Name)`), into `item`.
fn named(tokens: TokenStream, names: &BTreeSet<&str>, item: &mut ItemText) {
    use proc_macro2::TokenTree;
    let mut after_consts = 0;
    for tree in tokens {
        match tree {
            TokenTree::Group(g) => {
                named(g.stream(), names, item);
                after_consts = 0;
            }
            TokenTree::Ident(i) => {
                let name = i.to_string();
                if after_consts == 3 {
                    item.consts.insert(name.clone());
                } else if names.contains(name.as_str()) {
                    item.types.insert(name.clone());
                }
                after_consts = usize::from(name == "consts");
            }
            TokenTree::Punct(p) => {
                after_consts = match (after_consts, p.as_char()) {
                    (1, ':') => 2,
                    (2, ':') => 3,
                    _ => 0,
                };
            }
            TokenTree::Literal(l) => {
                // `` [`Name`] `` and `[text](Name)`.
                let text = l.to_string();
                for (open, close) in [("[`", "`]"), ("](", ")")] {
                    let mut rest = text.as_str();
                    while let Some(start) = rest.find(open) {
                        rest = &rest[start + open.len()..];
                        if let Some(end) = rest.find(close) {
                            if names.contains(&rest[..end]) {
                                item.linked.insert(rest[..end].to_string());
                            }
                        }
                    }
                }
                after_consts = 0;
            }
        }
    }
}

/// `tokens` as text with every group's delimiters spelled (an invisible group too), so that
/// two streams of the same text have the same trees: what [`merge_docs`] walks in step.
fn structure(tokens: TokenStream) -> String {
    use proc_macro2::{Delimiter, TokenTree};
    let mut out = String::new();
    for tree in tokens {
        match tree {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("\u{2}", "\u{3}"),
                };
                out.push_str(open);
                out.push_str(&structure(g.stream()));
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
        out.push(' ');
    }
    out
}

/// `tokens` without their doc attributes (`#[doc = "..."]`), at every depth.
fn without_docs(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if let Some(len) = doc_attribute(&trees[i..]).map(|(len, _)| len) {
            i += len;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), without_docs(g.stream()));
                inner.set_span(g.span());
                TokenTree::Group(inner)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The doc attribute (`#[doc = "text"]`) that `trees` starts with, if any: how many
/// token trees it takes and its text.
fn doc_attribute(trees: &[proc_macro2::TokenTree]) -> Option<(usize, String)> {
    use proc_macro2::{Delimiter, TokenTree};
    let (TokenTree::Punct(hash), TokenTree::Group(body)) = (trees.first()?, trees.get(1)?) else {
        return None;
    };
    if hash.as_char() != '#' || body.delimiter() != Delimiter::Bracket {
        return None;
    }
    let inner: Vec<TokenTree> = body.stream().into_iter().collect();
    match inner.as_slice() {
        [
            TokenTree::Ident(doc),
            TokenTree::Punct(eq),
            TokenTree::Literal(text),
        ] if doc == "doc" && eq.as_char() == '=' => {
            let text: syn::LitStr = syn::parse2(TokenTree::Literal(text.clone()).into()).ok()?;
            Some((2, text.value()))
        }
        _ => None,
    }
}

/// One item as several versions emit it, the same but for docs ([`without_docs`] gives
/// the same tokens), as one: where the versions' docs of the item, a field or a variant
/// differ, the newest version's, followed by each older version's own text (unless the
/// newest only adds to it, such as upstream's examples), each labelled with its versions.
fn merge_docs(versions: &[(&str, TokenStream)], unlink: &BTreeSet<String>) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let trees: Vec<Vec<TokenTree>> = versions
        .iter()
        .map(|(_, t)| t.clone().into_iter().collect())
        .collect();
    let mut at = vec![0; trees.len()];
    let mut out: Vec<TokenTree> = Vec::new();
    loop {
        // The run of doc attributes at this place, in each version.
        let runs: Vec<Vec<String>> = trees
            .iter()
            .zip(at.iter_mut())
            .map(|(t, i)| {
                let mut run = Vec::new();
                while let Some((len, text)) = doc_attribute(&t[*i..]) {
                    run.push(unlinked(&text, unlink));
                    *i += len;
                }
                run
            })
            .collect();
        if runs.iter().any(|r| !r.is_empty()) {
            let labels: Vec<&str> = versions.iter().map(|(v, _)| *v).collect();
            out.extend(doc_attrs(
                &merged_run(&labels, &runs)
                    .iter()
                    .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
                    .collect::<Vec<_>>(),
            ));
        }
        let Some(first) = trees[0].get(at[0]) else {
            break;
        };
        out.push(match first {
            TokenTree::Group(g) => {
                // The versions' trees are alike but for docs (`structure` of `without_docs`).
                let inner: Vec<(&str, TokenStream)> = versions
                    .iter()
                    .zip(&trees)
                    .zip(&at)
                    .map(|(((v, _), t), i)| match t.get(*i) {
                        Some(TokenTree::Group(g)) => (*v, g.stream()),
                        _ => unreachable!("versions alike but for docs have the same trees"),
                    })
                    .collect();
                let mut merged = Group::new(g.delimiter(), merge_docs(&inner, unlink));
                merged.set_span(g.span());
                TokenTree::Group(merged)
            }
            other => other.clone(),
        });
        for i in &mut at {
            *i += 1;
        }
    }
    out.into_iter().collect()
}

/// `line` of docs with its links to the types of `names` made plain code: `` [`Name`] ``
/// becomes `` `Name` ``, `[text](Name)` becomes `text`.
fn unlinked(line: &str, names: &BTreeSet<String>) -> String {
    let mut out = line.to_string();
    for name in names {
        out = out
            .replace(&format!("[`{name}`]("), "\u{0}")
            .replace(&format!("[`{name}`]"), &format!("`{name}`"))
            .replace('\u{0}', &format!("[`{name}`]("));
        // `[text](Name)`: the text alone (its brackets matched, escaped ones skipped).
        let target = format!("]({name})");
        let mut from = 0;
        while let Some(found) = out[from..].find(&target) {
            let end = from + found;
            match opening_bracket(&out[..end]) {
                Some(start) => {
                    let text = out[start + 1..end].to_string();
                    out.replace_range(start..end + target.len(), &text);
                    from = start + text.len();
                }
                None => from = end + target.len(),
            }
        }
    }
    out
}

/// Where the `[` is that the `]` right after `text` closes: brackets in between balanced,
/// escaped ones (`\[`) not counted.
fn opening_bracket(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for at in (0..bytes.len()).rev() {
        let escaped = at > 0 && bytes[at - 1] == b'\\';
        match bytes[at] {
            b']' if !escaped => depth += 1,
            b'[' if !escaped => {
                if depth == 0 {
                    return Some(at);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// The doc lines of one place as `versions` (oldest first) write them (`runs`, the same
/// order): see [`merge_docs`]. Only the text before the first section (`# Decoding`,
/// `# Examples`: what the generator writes from the code, and upstream's examples) is
/// compared and quoted, without the generator's note of where an anonymous schema sits
/// (its pointer differs between dialects).
fn merged_run(versions: &[&str], runs: &[Vec<String>]) -> Vec<String> {
    let newest = runs.last().cloned().unwrap_or_default();
    if runs.iter().all(|r| *r == newest) {
        return newest;
    }
    let (newest_text, sections) = split_sections(&newest);
    let said = |text: &[String]| -> Vec<String> {
        let mut said: Vec<String> = text
            .iter()
            .filter(|l| !l.trim_start().starts_with(ANONYMOUS))
            .cloned()
            .collect();
        while said.last().is_some_and(|l| l.trim().is_empty()) {
            said.pop();
        }
        said
    };
    let newest_said = said(newest_text);
    // Older texts, each once, with the versions that write it.
    let mut older: Vec<(Vec<&str>, Vec<String>)> = Vec::new();
    for (version, run) in versions.iter().zip(runs).take(runs.len() - 1) {
        let text = said(split_sections(run).0);
        if text.is_empty() || newest_said.starts_with(&text) {
            continue;
        }
        match older.iter_mut().find(|(_, t)| *t == text) {
            Some((labels, _)) => labels.push(version),
            None => older.push((vec![version], text)),
        }
    }
    if older.is_empty() {
        return newest;
    }
    let mut out: Vec<String> = newest_text.to_vec();
    // "As `a` documents it", "As `a` and `b` document it", "As `a`, `b` and `c` ...".
    let labels = |vs: &[&str]| {
        let named: Vec<String> = vs.iter().map(|v| format!("`{v}`")).collect();
        let (last, rest) = named.split_last().expect("an older text has its versions");
        if rest.is_empty() {
            format!("{last} documents")
        } else {
            format!("{} and {last} document", rest.join(", "))
        }
    };
    let newest_label = versions.last().copied().unwrap_or_default();
    let newest_says = if newest_said.is_empty() {
        format!("`{newest_label}` has no text here")
    } else {
        format!("the text above is `{newest_label}`'s")
    };
    for (vs, text) in older {
        if out.last().is_some_and(|l| !l.trim().is_empty()) {
            out.push(" ".to_string());
        }
        out.push(format!(" As {} it ({newest_says}):", labels(&vs)));
        out.push(" ".to_string());
        out.extend(text.iter().map(|l| {
            let l = l.strip_prefix(' ').unwrap_or(l);
            if l.is_empty() {
                " >".to_string()
            } else {
                format!(" > {l}")
            }
        }));
    }
    if !sections.is_empty() {
        out.push(" ".to_string());
        out.extend(sections.iter().cloned());
    }
    out
}

/// How the generator's note of an anonymous schema's place starts (`type_def`).
const ANONYMOUS: &str = "Anonymous in the schema at ";

/// Doc lines split before their first section heading (`# ...`) outside a code fence.
fn split_sections(lines: &[String]) -> (&[String], &[String]) {
    let mut fenced = false;
    let at = lines
        .iter()
        .position(|l| {
            let t = l.trim_start();
            if t.starts_with("```") {
                fenced = !fenced;
            }
            !fenced && t.starts_with("# ")
        })
        .unwrap_or(lines.len());
    lines.split_at(at)
}

/// One const marker's definition.
fn const_tokens(c: &ConstDef) -> TokenStream {
    let name = ident(&c.name);
    match &c.value {
        ConstValue::String(s) => quote! { crate::rt::const_str!(#name, #s); },
        ConstValue::Integer(i) => {
            let lit = proc_macro2::Literal::i64_unsuffixed(*i);
            quote! { crate::rt::const_int!(#name, #lit); }
        }
        ConstValue::Boolean(b) => quote! { crate::rt::const_bool!(#name, #b); },
    }
}

/// The version's `consts.rs`: one marker per const of the model (those [`Shared`] as
/// re-exports).
pub(super) fn consts_tokens(model: &Model, shared: &Shared) -> TokenStream {
    let consts = model
        .consts
        .iter()
        .map(|c| match shared.consts.get(&c.name) {
            Some(module) => reexport(&format!("{module}::consts"), &c.name),
            None => const_tokens(c),
        });
    let consts_doc = format!(" Const markers of {}.", model.described());
    quote! {
        #![doc = #consts_doc]
        #( #consts )*
    }
}

/// What a module of [`shared_tokens`] holds.
pub(super) struct SharedModule<'a> {
    /// The types it defines.
    pub types: &'a [&'a str],
    /// The const markers it defines.
    pub consts: &'a [&'a str],
    /// What its types name that another such module defines.
    pub elsewhere: &'a Shared,
    /// The types its docs link to that no module defines for all its versions: written as
    /// plain code.
    pub unlink: &'a BTreeSet<String>,
    /// Its docs.
    pub doc: &'a str,
}

/// A module of the types and const markers that the consecutive versions of `models`
/// define identically but for docs (`types` and `consts`): their definitions, emitted as
/// the versions' modules emit them, with each version's docs where they differ
/// ([`merge_docs`]), and the imports of what they name that another such module defines
/// (`elsewhere`).
pub(super) fn shared_tokens(
    models: &[&Model],
    map: &TokenStream,
    raw: bool,
    module: &SharedModule,
) -> TokenStream {
    let SharedModule {
        types,
        consts,
        elsewhere,
        unlink,
        doc,
    } = module;
    let emitters: Vec<Emitter> = models.iter().map(|m| Emitter::new(m, map, raw)).collect();
    let model = models[0];
    let items = model
        .types
        .iter()
        .filter(|t| types.contains(&t.name.as_str()))
        .map(|t| {
            let versions: Vec<(&str, TokenStream)> = models
                .iter()
                .zip(&emitters)
                .filter_map(|(m, em)| {
                    let def = m.types.iter().find(|d| d.name == t.name)?;
                    Some((m.version.as_str(), em.type_def(def)))
                })
                .collect();
            merge_docs(&versions, unlink)
        });
    let imports = elsewhere.types.iter().map(|(name, module)| {
        let path = item_path(module, name);
        quote! { use #path; }
    });
    let markers = model
        .consts
        .iter()
        .filter(|c| consts.contains(&c.name.as_str()))
        .map(const_tokens);
    let marker_imports = elsewhere
        .consts
        .iter()
        .map(|(name, module)| reexport(&format!("{module}::consts"), name));
    let consts_module = (!consts.is_empty() || !elsewhere.consts.is_empty()).then(|| {
        quote! {
            /// The const markers of these types.
            pub mod consts {
                #( #markers )*
                #( #marker_imports )*
            }
        }
    });
    quote! {
        #![doc = #doc]
        #![allow(deprecated, clippy::large_enum_variant, clippy::doc_lazy_continuation, clippy::doc_overindented_list_items)]
        #( #imports )*
        #consts_module
        #( #items )*
    }
}

impl Emitter<'_> {
    fn docs(&self, text: Option<&str>) -> Vec<String> {
        let resolve = |name: &str| self.links.get(name).cloned();
        text.map(|t| docs::render(t, &resolve)).unwrap_or_default()
    }

    fn ty(&self, ty: &TypeRef) -> TokenStream {
        match ty {
            TypeRef::Named(n) => {
                let i = ident(n);
                quote!(#i)
            }
            TypeRef::Const(c) => {
                let i = ident(c);
                quote!(consts::#i)
            }
            TypeRef::String => quote!(::std::string::String),
            TypeRef::Integer => quote!(i64),
            TypeRef::Unsigned => quote!(u64),
            TypeRef::Number => quote!(serde_json::Number),
            TypeRef::Boolean => quote!(bool),
            TypeRef::Any if self.raw => quote!(crate::rt::raw::RawJson),
            TypeRef::Any => quote!(serde_json::Value),
            TypeRef::Array(inner) => {
                let inner = self.ty(inner);
                quote!(::std::vec::Vec<#inner>)
            }
            TypeRef::Map(inner) if **inner == TypeRef::Any && self.raw => {
                quote!(crate::rt::raw::RawObject)
            }
            TypeRef::Map(inner) if **inner == TypeRef::Any => {
                quote!(serde_json::Map<::std::string::String, serde_json::Value>)
            }
            TypeRef::Map(inner) => {
                let (inner, map) = (self.ty(inner), &self.map);
                quote!(#map<::std::string::String, #inner>)
            }
        }
    }

    /// Whether a property or an arm holds an integer (through type aliases too): it then
    /// reads any number JSON Schema counts as an integer.
    /// `ty` with plain aliases followed (not newtypes), as far as 32 steps.
    fn resolved<'t>(&'t self, ty: &'t TypeRef) -> &'t TypeRef {
        let mut ty = ty;
        for _ in 0..32 {
            match ty {
                TypeRef::Named(n) => match self.types.get(n.as_str()).map(|t| &t.kind) {
                    Some(Kind::Alias {
                        target,
                        newtype: false,
                    }) => ty = target,
                    _ => return ty,
                },
                _ => return ty,
            }
        }
        ty
    }

    /// Whether `ty` is any JSON value (through aliases).
    fn is_any(&self, ty: &TypeRef) -> bool {
        matches!(self.resolved(ty), TypeRef::Any)
    }

    fn is_integer(&self, ty: &TypeRef) -> bool {
        matches!(self.resolved(ty), TypeRef::Integer | TypeRef::Unsigned)
    }

    /// The type of a property or a union's arm: as [`ty`](Self::ty), behind a `Box` where
    /// the model says so (it closes a cycle, or `overrides::BOXED` lists its type).
    fn held_ty(&self, ty: &TypeRef, boxed: bool) -> TokenStream {
        let ty = self.ty(ty);
        if boxed {
            quote!(::std::boxed::Box<#ty>)
        } else {
            ty
        }
    }

    fn type_def(&self, t: &TypeDef) -> TokenStream {
        let mut doc = self.docs(t.description.as_deref());
        let alias = match &t.origin {
            Origin::Definition(d) if *d != t.name && !d.is_empty() => quote!(#[doc(alias = #d)]),
            Origin::Inline(_) | Origin::Results(_) => {
                match crate::overrides::inline_name_of(&t.name) {
                    Some(built) => quote!(#[doc(alias = #built)]),
                    None => quote!(),
                }
            }
            _ => quote!(),
        };
        // Upstream's deprecation, and its official examples last in the docs (after the
        // rules a union's docs end with): both ride with the alias attribute, which every
        // kind of item puts right after its docs.
        let deprecated = t
            .deprecated
            .as_ref()
            .map(|why| quote!(#[deprecated(note = #why)]));
        let examples = doc_attrs(&examples_doc(t));
        let alias = quote!(#alias #deprecated #examples);
        if let Origin::Inline(p) = &t.origin {
            if !doc.is_empty() {
                doc.push(String::new());
            }
            doc.push(format!("{ANONYMOUS}`{p}`."));
        }
        if let Origin::Results(method) = &t.origin {
            doc.push(format!(
                "The results that may answer `{method}`; the schema names them but has no union \
                 of them, so the method layer adds this one."
            ));
            doc.push(String::new());
        }
        match &t.kind {
            Kind::Struct { fields, additional } => {
                self.struct_def(t, doc, alias, fields, additional.as_ref())
            }
            Kind::StringEnum { values } => self.enum_def(t, doc, alias, values),
            Kind::Union { variants, tag } => {
                self.union_def(t, doc, alias, variants, tag.as_deref())
            }
            Kind::Alias {
                target,
                newtype: false,
            } => {
                let name = ident(&t.name);
                let target = self.ty(target);
                let doc = doc_attrs(&doc);
                quote! { #doc #alias pub type #name = #target; }
            }
            Kind::Alias {
                target,
                newtype: true,
            } => {
                let name = ident(&t.name);
                let target = self.ty(target);
                if !doc.is_empty() {
                    doc.push(String::new());
                }
                doc.push(
                    "A newtype, not a type alias: the type holds itself, which an alias cannot."
                        .to_string(),
                );
                let doc = doc_attrs(&doc);
                let derives = self.derives(t);
                let newtype = format_ident!("{}", NEWTYPE);
                quote! {
                    #doc
                    #alias
                    #derives
                    pub struct #name(pub #target);
                    crate::rt::#newtype!(#name);
                }
            }
        }
    }

    fn derives(&self, t: &TypeDef) -> TokenStream {
        let eq = if t.eq_hash {
            quote!(Eq, Hash,)
        } else {
            quote!()
        };
        let default = if t.default {
            quote!(Default,)
        } else {
            quote!()
        };
        quote! {
            #[derive(Debug, Clone, PartialEq, #eq #default)]
            #[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
        }
    }

    fn field(&self, f: &Field) -> TokenStream {
        let name = ident(&f.name);
        let deprecated = f
            .deprecated
            .as_ref()
            .map(|why| quote!(#[deprecated(note = #why)]));
        let inner = self.held_ty(&f.ty, f.boxed);
        let mut doc = self.docs(f.description.as_deref());
        if let Some(rule) = &f.text {
            let mut asks = Vec::new();
            if let Some(p) = &rule.pattern {
                asks.push(format!("matches `{p}`"));
            }
            match (rule.min_length, rule.max_length) {
                (Some(min), Some(max)) if min == max => {
                    asks.push(format!("has exactly {min} characters"));
                }
                (Some(min), Some(max)) => asks.push(format!("has {min} to {max} characters")),
                (Some(min), None) => asks.push(format!("has at least {min} characters")),
                (None, Some(max)) => asks.push(format!("has at most {max} characters")),
                (None, None) => {}
            }
            if !doc.is_empty() {
                doc.push(String::new());
            }
            doc.push(format!(
                "The schema asks that it {}: the runtime's strict step (`strict::from_str`, \
                 `strict::issues`) checks it, decoding does not.",
                asks.join(" and ")
            ));
        }
        let wire = &f.wire;
        let bare = f.name.strip_prefix("r#").unwrap_or(&f.name);
        // The serde impls come from the runtime's macros; these attributes tell the
        // `schemars` derive what they do.
        let rename = if bare != wire {
            quote!(rename = #wire,)
        } else {
            quote!()
        };
        // An absent optional property is `None`; `null` there is not in the schema, so the
        // derived JSON Schema describes the inner type (what encoding writes).
        // A required nullable property is an `Option` that must be present.
        let schema_with = match (f.required, f.nullable) {
            (false, false) => Some(inner.to_string().replace(' ', "")),
            (true, true) => Some(format!(
                "crate::rt::serde_helpers::RequiredNullable<{}>",
                inner.to_string().replace(' ', "")
            )),
            _ => None,
        }
        .map(|with| quote!(with = #with,));
        let (ty, attrs) = match (f.required, f.nullable) {
            (true, false) => (inner, quote!()),
            (true, true) => {
                doc.push(String::new());
                doc.push("Required, and may be `null`: `None` is written as `null`.".to_string());
                (quote!(::std::option::Option<#inner>), quote!())
            }
            (false, false) => (
                quote!(::std::option::Option<#inner>),
                quote!(
                    default,
                    skip_serializing_if = "::std::option::Option::is_none",
                ),
            ),
            (false, true) => {
                doc.push(String::new());
                doc.push("Optional, and may be `null`: the outer `Option` is presence, the inner one is `null`.".to_string());
                (
                    quote!(::std::option::Option<::std::option::Option<#inner>>),
                    quote!(
                        default,
                        skip_serializing_if = "::std::option::Option::is_none",
                    ),
                )
            }
        };
        let schema = if rename.is_empty() && attrs.is_empty() && schema_with.is_none() {
            quote!()
        } else {
            quote!(#[cfg_attr(feature = "json-schema", schemars(#rename #attrs #schema_with))])
        };
        let doc = doc_attrs(&doc);
        quote! { #doc #deprecated #schema pub #name: #ty, }
    }

    fn struct_def(
        &self,
        t: &TypeDef,
        doc: Vec<String>,
        alias: TokenStream,
        fields: &[Field],
        additional: Option<&TypeRef>,
    ) -> TokenStream {
        let name = ident(&t.name);
        let derives = self.derives(t);
        // Constant properties (a union's tag among them) first: a reader that streams
        // learns the arm of a union before the rest of the object.
        let fields: Vec<Field> = fields
            .iter()
            .filter(|f| matches!(f.ty, TypeRef::Const(_)))
            .chain(fields.iter().filter(|f| !matches!(f.ty, TypeRef::Const(_))))
            .cloned()
            .collect();
        let fields = fields.as_slice();
        let serde_impls = self.object_impls(t, fields, additional.is_some());
        let arg_ty = |f: &Field| {
            let inner = self.ty(&f.ty);
            if f.nullable {
                let inner = self.held_ty(&f.ty, f.boxed);
                quote!(::std::option::Option<#inner>)
            } else {
                inner
            }
        };
        let constructor = constructors::constructor(t, fields, additional.is_some(), arg_ty);
        // The shortcuts build free-form values as `Value`s.
        let shortcuts = if self.raw {
            Default::default()
        } else {
            [
                constructors::call_tool_result_shortcuts(t, fields, &self.types),
                constructors::tool_shortcuts(t, fields),
                constructors::call_tool_params_shortcuts(t, fields),
            ]
        };
        let setters = self.setters(t, fields);
        let fields = fields.iter().map(|f| self.field(f));
        let extra = additional.map(|ty| {
            // The members an object does not name: `Value`s, or with free-form JSON as
            // text a map of texts (the runtime's `Extra` knows both).
            let ty = match ty {
                TypeRef::Any if !self.raw => {
                    quote!(serde_json::Map<::std::string::String, serde_json::Value>)
                }
                other => {
                    let (inner, map) = (self.ty(other), &self.map);
                    quote!(#map<::std::string::String, #inner>)
                }
            };
            quote! {
                /// Properties not named above, kept and written back: the schema allows them.
                #[cfg_attr(feature = "json-schema", schemars(flatten))]
                pub extra: #ty,
            }
        });
        // `additionalProperties: false`: a property the schema does not name is an error.
        let closed = additional
            .is_none()
            .then(|| quote!(#[cfg_attr(feature = "json-schema", schemars(deny_unknown_fields))]));
        let doc = doc_attrs(&doc);
        quote! {
            #doc
            #alias
            #derives
            #closed
            pub struct #name {
                #( #fields )*
                #extra
            }
            #serde_impls
            #constructor
            #setters
            #( #shortcuts )*
        }
    }

    /// `rt::setters!`: `with_<field>` for each optional member that is not a constant.
    fn setters(&self, t: &TypeDef, fields: &[Field]) -> TokenStream {
        let rows: Vec<TokenStream> = fields
            .iter()
            .filter(|f| !f.required && !matches!(f.ty, TypeRef::Const(_)))
            .map(|f| {
                let bare = f.name.strip_prefix("r#").unwrap_or(&f.name);
                let setter = format_ident!("with_{}", bare.trim_start_matches('_'));
                let field = ident(&f.name);
                let ty = self.ty(&f.ty);
                let how = format_ident!(
                    "{}",
                    match (f.nullable, f.boxed) {
                        (false, false) => "plain",
                        (false, true) => "boxed",
                        (true, false) => "nullable",
                        (true, true) => "nullable_boxed",
                    }
                );
                let deprecated = f
                    .deprecated
                    .as_ref()
                    .map(|why| quote!(#[deprecated(note = #why)]));
                let wire = &f.wire;
                quote!(#deprecated #how #setter(#field: #ty) #wire)
            })
            .collect();
        if rows.is_empty() {
            return quote!();
        }
        let name = ident(&t.name);
        let mac = format_ident!("{}", SETTERS);
        quote! {
            crate::rt::#mac! {
                #name { #( #rows, )* }
            }
        }
    }

    /// The serde impls of an object: `rt::open_object!` for one with `extra` (one pass
    /// over the properties, each named one decoded into its field and every other one
    /// into `extra`; serde's `flatten` would buffer them all first), `rt::closed_object!`
    /// for one without.
    fn object_impls(&self, t: &TypeDef, fields: &[Field], open: bool) -> TokenStream {
        let name = ident(&t.name);
        let fields = fields.iter().map(|f| {
            let field = ident(&f.name);
            let wire = &f.wire;
            // An integer property reads any number JSON Schema counts as an integer.
            let int = self.is_integer(&f.ty);
            // A property of any JSON value keeps `null` as a value (`"data": null` is not
            // an absent `data`).
            let nullable = f.nullable || self.is_any(&f.ty);
            let how = match (f.required, nullable, int) {
                (true, _, false) => quote!(),
                (true, _, true) => quote!(int),
                (false, false, false) => quote!(optional),
                (false, false, true) => quote!(optional_int),
                (false, true, false) => quote!(optional_nullable),
                (false, true, true) => quote!(optional_nullable_int),
            };
            let rule = f.text.as_ref().map(|rule| {
                let option = |v: Option<u64>| match v {
                    Some(n) => quote!(::std::option::Option::Some(#n)),
                    None => quote!(::std::option::Option::None),
                };
                let pattern = match &rule.pattern {
                    Some(p) => quote!(::std::option::Option::Some(#p)),
                    None => quote!(::std::option::Option::None),
                };
                let (min, max) = (option(rule.min_length), option(rule.max_length));
                quote! {
                    => crate::rt::strict::Text {
                        pattern: #pattern,
                        min_length: #min,
                        max_length: #max,
                    }
                }
            });
            quote!(#field: #wire #how #rule)
        });
        let mac = format_ident!("{}", if open { OPEN_OBJECT } else { CLOSED_OBJECT });
        quote! {
            crate::rt::#mac! {
                #name { #( #fields, )* }
            }
        }
    }

    fn enum_def(
        &self,
        t: &TypeDef,
        mut doc: Vec<String>,
        alias: TokenStream,
        values: &[String],
    ) -> TokenStream {
        let name = ident(&t.name);
        let names: Vec<String> = values
            .iter()
            .map(|v| crate::names::variant_name(v))
            .collect();
        let unknown = ident(&catch_all_name(&names));
        let variants: Vec<Ident> = names.iter().map(|n| ident(n)).collect();
        if !doc.is_empty() {
            doc.push(String::new());
        }
        doc.push(format!(
            "A value this version does not define decodes into `{unknown}`, which writes it back \
             as it came ([`strict`](crate::rt::strict) reports it); \
             [`FromStr`](std::str::FromStr) accepts the defined values only, and it and \
             [`Display`](std::fmt::Display) use the wire spelling."
        ));
        let doc = doc_attrs(&doc);
        let variant_docs = values.iter().map(|v| {
            let mut lines = vec![format!("`{v}`")];
            if let Some(why) = t.deprecated_values.get(v) {
                lines.push(String::new());
                lines.push(format!("**Deprecated** upstream: {why}"));
            }
            doc_attrs(&lines)
        });
        let mac = format_ident!("{}", WIRE_ENUM);
        // An order the schema gives in prose: the runtime's `ordered!`, the variants least
        // first (those of this version).
        let ordered = crate::overrides::ordered_values(&t.name).map(|order| {
            let ranked = order
                .iter()
                .filter_map(|value| values.iter().position(|v| v == value))
                .map(|at| &variants[at]);
            let mac = format_ident!("{}", ORDERED);
            quote! {
                crate::rt::#mac! { #name { #( #ranked, )* } }
            }
        });
        quote! {
            #doc
            #alias
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            #[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
            pub enum #name {
                #(
                    #variant_docs
                    #[cfg_attr(feature = "json-schema", schemars(rename = #values))]
                    #variants,
                )*
                /// A value this version does not define (a newer peer's), as it came.
                #[cfg_attr(feature = "json-schema", schemars(skip))]
                #unknown(::std::string::String),
            }
            crate::rt::#mac! {
                #name { #( #variants: #values, )* ..#unknown }
            }
            #ordered
        }
    }

    fn union_def(
        &self,
        t: &TypeDef,
        mut doc: Vec<String>,
        alias: TokenStream,
        variants: &[Variant],
        tag: Option<&str>,
    ) -> TokenStream {
        let name = ident(&t.name);
        if !doc.is_empty() {
            doc.push(String::new());
        }
        doc.extend(self.rule_doc(variants, tag));
        let doc = doc_attrs(&doc);
        let derives = self.derives(t);
        let vnames: Vec<Ident> = variants.iter().map(|v| ident(&v.name)).collect();
        let vtypes: Vec<TokenStream> = variants
            .iter()
            .map(|v| self.held_ty(&v.ty, v.boxed))
            .collect();
        let vdocs = variants.iter().map(|v| match &v.ty {
            TypeRef::Named(n) => format!(" The [`{n}`] arm."),
            other => format!(
                " The arm for {}.",
                kind_word(other.json_kind().unwrap_or(JsonKind::Object))
            ),
        });
        let arms = variants.iter().map(|v| sig_tokens(&v.name, &v.signature));
        let tag_tokens = match tag {
            Some(t) => quote!(::std::option::Option::Some(#t)),
            None => quote!(::std::option::Option::None),
        };
        let type_name = t.name.as_str();
        let union_arms = format_ident!("{}", UNION_ARMS);
        // A tagged union keeps a value whose tag names no arm (a newer peer's) in a
        // catch-all variant.
        let unknown = tag.map(|_| {
            let taken: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
            ident(&catch_all_name(&taken))
        });
        let unknown_variant = unknown.as_ref().map(|u| {
            quote! {
                /// A value whose tag names no arm of this version (a newer peer's), as it came.
                #[cfg_attr(feature = "json-schema", schemars(skip))]
                #u(serde_json::Value),
            }
        });
        let unknown_entry = unknown.as_ref().map(|u| quote!(..#u));
        // An integer arm reads any number JSON Schema counts as an integer.
        let hows = variants
            .iter()
            .map(|v| self.is_integer(&v.ty).then(|| quote!(int)));
        let shortcuts = constructors::union_shortcuts(t, variants, &self.types);
        let from_impls = variants
            .iter()
            .filter(|v| variants.iter().filter(|o| o.ty == v.ty).count() == 1)
            .map(|v| {
                let vn = ident(&v.name);
                let vt = self.ty(&v.ty);
                let value = if v.boxed {
                    quote!(::std::boxed::Box::new(value))
                } else {
                    quote!(value)
                };
                quote! {
                    impl ::std::convert::From<#vt> for #name {
                        fn from(value: #vt) -> Self { Self::#vn(#value) }
                    }
                }
            });
        quote! {
            #doc
            #alias
            #derives
            #[cfg_attr(feature = "json-schema", schemars(untagged))]
            pub enum #name {
                #( #[doc = #vdocs] #vnames(#vtypes), )*
                #unknown_variant
            }
            impl #name {
                /// The facts decoding uses to choose an arm, one entry per variant.
                pub const DECODE: crate::rt::union::Union = crate::rt::union::Union {
                    name: #type_name,
                    tag: #tag_tokens,
                    arms: &[ #( #arms ),* ],
                };
            }
            crate::rt::#union_arms! {
                #name { #( #vnames(#vtypes) #hows, )* #unknown_entry }
            }
            #( #from_impls )*
            #shortcuts
        }
    }

    fn rule_doc(&self, variants: &[Variant], tag: Option<&str>) -> Vec<String> {
        let mut out = self.arm_rules(variants, tag);
        if let Some(tag) = tag {
            let taken: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
            out.push(format!(
                "- `{}`: any other `{tag}` (a newer version's), kept as it came; \
                 [`strict`](crate::rt::strict) reports it",
                catch_all_name(&taken)
            ));
        }
        out
    }

    fn arm_rules(&self, variants: &[Variant], tag: Option<&str>) -> Vec<String> {
        let mut out = vec!["# Decoding".to_string(), String::new()];
        match tag {
            Some(tag) => out.push(format!(
                "The `{tag}` property picks the arm; where several arms share a value, \
                 the most specific set of required properties present decides, then the arm \
                 that declares the most of the properties present, then the arm that declares fewest \
                 (see [`crate::rt::union`]):"
            )),
            None => out.push(
                "The JSON kind of the value, then the most specific set of required properties \
                 present, picks the arm (never the first arm that happens to decode; see \
                 [`crate::rt::union`]):"
                    .to_string(),
            ),
        }
        out.push(String::new());
        for v in variants {
            let s = &v.signature;
            let mut facts = vec![kind_word(s.json).to_string()];
            if tag.is_some() && !s.tags.is_empty() {
                let vals = s
                    .tags
                    .iter()
                    .map(|t| format!("`\"{t}\"`"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                facts.push(format!(
                    "`{}` = {vals}{}",
                    tag.unwrap_or_default(),
                    if s.tag_optional { " or absent" } else { "" }
                ));
            }
            if !s.required.is_empty() {
                facts.push(format!(
                    "requires {}",
                    s.required
                        .iter()
                        .map(|r| format!("`{}`", r.join(".")))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if let Some(chosen) = &s.shadowed_by {
                facts.push(format!(
                    "never chosen on decode: indistinguishable from [`{chosen}`]"
                ));
            }
            out.push(format!("- `{}`: {}", v.name, facts.join("; ")));
        }
        out
    }
}

fn kind_word(k: JsonKind) -> &'static str {
    match k {
        JsonKind::Null => "null",
        JsonKind::Boolean => "a boolean",
        JsonKind::Integer => "an integer",
        JsonKind::Number => "a number",
        JsonKind::String => "a string",
        JsonKind::Array => "an array",
        JsonKind::Object => "an object",
    }
}

fn sig_tokens(name: &str, s: &Signature) -> TokenStream {
    let json = format_ident!("{}", format!("{:?}", s.json));
    let tags = &s.tags;
    let tag_optional = s.tag_optional;
    let required = s.required.iter().map(|parts| quote!(&[ #( #parts ),* ]));
    let items = s.items.iter().map(|i| sig_tokens(name, i));
    let known = &s.known;
    let alts = s.alts.iter().map(|i| sig_tokens(name, i));
    let shadowed = s.shadowed_by.is_some();
    quote! {
        crate::rt::union::Arm {
            name: #name,
            json: crate::rt::union::Json::#json,
            tags: &[ #( #tags ),* ],
            tag_optional: #tag_optional,
            required: &[ #( #required ),* ],
            known: &[ #( #known ),* ],
            items: &[ #( #items ),* ],
            alts: &[ #( #alts ),* ],
            shadowed: #shadowed,
        }
    }
}

/// The name of a catch-all variant: `Unknown`, or `Unknown2`, `Unknown3`, ... if a
/// variant of the schema's already has it.
fn catch_all_name(taken: &[String]) -> String {
    std::iter::once("Unknown".to_string())
        .chain((2..).map(|n| format!("Unknown{n}")))
        .find(|name| !taken.iter().any(|t| t == name))
        .expect("an unbounded sequence of names has a free one")
}

/// The `# Examples` section of a definition with official examples: each under its title,
/// the JSON as upstream wrote it.
fn examples_doc(t: &TypeDef) -> Vec<String> {
    if t.examples.is_empty() {
        return Vec::new();
    }
    let mut out = vec![
        String::new(),
        "# Examples".to_string(),
        String::new(),
        "Upstream's official examples of this definition, each decoded into this type by a \
         test."
            .to_string(),
    ];
    for e in &t.examples {
        out.push(String::new());
        out.push(format!(
            "{}:",
            if e.title.is_empty() {
                &e.file
            } else {
                &e.title
            }
        ));
        out.push(String::new());
        out.push("```json".to_string());
        out.extend(e.json.trim_end().lines().map(str::to_string));
        out.push("```".to_string());
    }
    out
}
