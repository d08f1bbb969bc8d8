//! One Rust item for what consecutive versions define identically.
//!
//! Two consecutive versions often define a type the same way: the same fields, wire
//! names, decoding rules and derives (2024-11-05 and 2025-03-26 share most of theirs). Such a
//! type is emitted once, in a module of `shared/` named after the versions it spans
//! (`shared::v2024_11_05_to_v2025_06_18`), behind the features of those versions, and
//! each version's module re-exports it: a value of one version is then a value of the
//! other, no conversion between the two exists or is needed, and a program that serves
//! every version compiles its decoder and encoder once instead of once a version.
//!
//! "The same" is decided on what the emitter writes: the item's code (its tokens without
//! doc attributes, groups and their delimiters included) must be equal in both versions,
//! and so must every type and const marker its code names, recursively; a doc link to a type that is not the same in every version of the span is
//! written as plain code. Const markers are shared the same way. Docs may differ:
//! the shared item carries the newest version's, and each older version's own text where
//! it says something else (not where the newer text only adds, such as upstream's
//! examples), labelled with its versions.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;

use super::holders;
use super::rust::{self, module_name};
use super::types::{self, ItemText, Shared};
use crate::Error;
use crate::model::Model;
use crate::settings::Settings;

/// The settings of this repository's crate for the shared modules: the version modules'
/// (but for their name), so that what is compared, what the versions emit and what the
/// shared modules emit are alike.
fn settings() -> Settings {
    Settings::repository("shared")
}

/// What two consecutive versions define identically.
#[derive(Debug, Clone, Default)]
pub struct Same {
    /// Types, by Rust name.
    pub types: BTreeSet<String>,
    /// Const markers, by name.
    pub consts: BTreeSet<String>,
}

/// The types and const markers that `old` and `new` define identically: the same emitted
/// code (docs aside), naming only types and markers that are the same too.
pub fn same_items(old: &Model, new: &Model) -> Same {
    let (map, raw) = holders(&settings()).expect("the repository's settings are valid");
    same_of(
        &types::item_texts(old, &map, raw),
        &types::item_texts(new, &map, raw),
    )
}

/// The items of one version as emitted: types, then const markers ([`types::item_texts`]).
type Texts = (BTreeMap<String, ItemText>, BTreeMap<String, String>);

/// [`same_items`] of two versions' items as emitted.
fn same_of((old_types, old_consts): &Texts, (new_types, new_consts): &Texts) -> Same {
    let consts: BTreeSet<String> = new_consts
        .iter()
        .filter(|(name, text)| old_consts.get(*name) == Some(*text))
        .map(|(name, _)| name.clone())
        .collect();
    // What an item names, on either side (the same text may name a type in one version
    // and something else in the other: then it is not the same).
    let mut names: BTreeMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = BTreeMap::new();
    for (name, item) in new_types {
        let Some(other) = old_types.get(name) else {
            continue;
        };
        if other.skeleton != item.skeleton {
            continue;
        }
        let refs = |f: fn(&ItemText) -> &BTreeSet<String>| {
            f(item)
                .iter()
                .chain(f(other))
                .map(String::as_str)
                .collect::<BTreeSet<&str>>()
        };
        names.insert(name, (refs(|i| &i.types), refs(|i| &i.consts)));
    }
    loop {
        let gone: Vec<&str> = names
            .iter()
            .filter(|(_, (types, markers))| {
                !types.iter().all(|t| names.contains_key(t))
                    || !markers.iter().all(|c| consts.contains(*c))
            })
            .map(|(name, _)| *name)
            .collect();
        if gone.is_empty() {
            break;
        }
        for name in gone {
            names.remove(name);
        }
    }
    Same {
        types: names.keys().map(|n| n.to_string()).collect(),
        consts,
    }
}

/// The versions `first..=last` (indices into the plan's versions) whose modules share an
/// item: its module's name and what it defines.
#[derive(Debug, Clone)]
struct Span {
    first: usize,
    last: usize,
    types: Vec<String>,
    consts: Vec<String>,
}

/// Where every shared item is defined, for versions in date order.
pub struct Plan {
    /// Version names, in order.
    versions: Vec<String>,
    /// Each version's items as emitted (same order).
    texts: Vec<Texts>,
    /// Module names of the versions, in order.
    modules: Vec<String>,
    /// Per version (same order), what another module defines.
    located: Vec<Shared>,
    spans: BTreeMap<(usize, usize), Span>,
}

impl Plan {
    /// What another module defines of the version at `index` (in the order given to
    /// [`plan`]).
    pub fn located(&self, index: usize) -> &Shared {
        &self.located[index]
    }

    /// The items that are one Rust type in the versions `old` and `new` (both versions of
    /// the plan): those a module of `shared/` defines for both. `None` if either is not a
    /// version of the plan.
    pub fn one_type(&self, old: &str, new: &str) -> Option<Same> {
        let at = |v: &str| self.versions.iter().position(|x| x == v);
        let (a, b) = (&self.located[at(old)?], &self.located[at(new)?]);
        let both = |x: &BTreeMap<String, String>, y: &BTreeMap<String, String>| {
            x.iter()
                .filter(|(name, module)| y.get(*name) == Some(*module))
                .map(|(name, _)| name.clone())
                .collect()
        };
        Some(Same {
            types: both(&a.types, &b.types),
            consts: both(&a.consts, &b.consts),
        })
    }
}

/// The module (a path from the crate root) of the versions `first..=last`.
fn span_module(modules: &[String], first: usize, last: usize) -> String {
    format!("crate::shared::{}_to_{}", modules[first], modules[last])
}

/// The sharing of `models` (distinct versions, in date order: each shares only with its
/// neighbours).
pub fn plan(models: &[&Model]) -> Plan {
    let (map, raw) = holders(&settings()).expect("the repository's settings are valid");
    let texts: Vec<Texts> = models
        .iter()
        .map(|m| types::item_texts(m, &map, raw))
        .collect();
    let same: Vec<Same> = texts
        .windows(2)
        .map(|pair| same_of(&pair[0], &pair[1]))
        .collect();
    let modules: Vec<String> = models.iter().map(|m| module_name(&m.version)).collect();
    let reach = |index: usize, has: &dyn Fn(&Same) -> bool| {
        let mut first = index;
        while first > 0 && has(&same[first - 1]) {
            first -= 1;
        }
        let mut last = index;
        while last < same.len() && has(&same[last]) {
            last += 1;
        }
        (first, last)
    };
    let mut located = vec![Shared::default(); models.len()];
    let mut spans: BTreeMap<(usize, usize), Span> = BTreeMap::new();
    for (index, model) in models.iter().enumerate() {
        for t in &model.types {
            let (first, last) = reach(index, &|s| s.types.contains(&t.name));
            if first == last {
                continue;
            }
            located[index]
                .types
                .insert(t.name.clone(), span_module(&modules, first, last));
            if first == index {
                span(&mut spans, first, last).types.push(t.name.clone());
            }
        }
        for c in &model.consts {
            let (first, last) = reach(index, &|s| s.consts.contains(&c.name));
            if first == last {
                continue;
            }
            located[index]
                .consts
                .insert(c.name.clone(), span_module(&modules, first, last));
            if first == index {
                span(&mut spans, first, last).consts.push(c.name.clone());
            }
        }
    }
    Plan {
        versions: models.iter().map(|m| m.version.clone()).collect(),
        texts,
        modules,
        located,
        spans,
    }
}

/// The span `first..=last` of `spans`, made if new.
fn span(spans: &mut BTreeMap<(usize, usize), Span>, first: usize, last: usize) -> &mut Span {
    spans.entry((first, last)).or_insert_with(|| Span {
        first,
        last,
        types: Vec::new(),
        consts: Vec::new(),
    })
}

/// The files of `shared/` (`mod.rs`, and a file per span) for `models` (as given to
/// [`plan`]), read from `sources` (their schema files, same order).
pub fn emit_shared(
    plan: &Plan,
    models: &[&Model],
    sources: &[&str],
) -> Result<Vec<(String, String)>, Error> {
    let settings = settings();
    let (map, raw) = holders(&settings)?;
    let header = |first: usize, last: usize| {
        let from: Vec<String> = (first..=last)
            .map(|i| format!("//   {} (sha256 {})\n", sources[i], models[i].schema_sha256))
            .collect();
        format!(
            "// @generated by `{command}` ({generator}) from:\n{}\
             // Do not edit by hand: change the generator or its settings and run `{command}`.\n\n",
            from.concat(),
            command = rust::REPOSITORY_COMMAND,
            generator = rust::GENERATOR,
        )
    };
    let mut files = Vec::new();
    let mut declarations = Vec::new();
    for span in plan.spans.values() {
        let (first, last) = (span.first, span.last);
        let (own, newest) = (&plan.located[first], &plan.located[last]);
        let here = span_module(&plan.modules, first, last);
        let mut elsewhere = Shared::default();
        let mut unlink = BTreeSet::new();
        for (texts, _) in &plan.texts[first..=last] {
            for name in &span.types {
                for r in &texts[name].types {
                    if let Some(module) = own.types.get(r).filter(|m| **m != here) {
                        elsewhere.types.insert(r.clone(), module.clone());
                    }
                }
                // A doc link reaches a type shared over every version here; a link to
                // any other is made plain code (which version's would it be?).
                for r in &texts[name].linked {
                    match (own.types.get(r), newest.types.get(r)) {
                        (Some(a), Some(b)) if a == b => {
                            if *a != here {
                                elsewhere.types.insert(r.clone(), a.clone());
                            }
                        }
                        _ => {
                            unlink.insert(r.clone());
                        }
                    }
                }
                for c in &texts[name].consts {
                    if let Some(module) = own.consts.get(c).filter(|m| **m != here) {
                        elsewhere.consts.insert(c.clone(), module.clone());
                    }
                }
            }
        }
        let versions: Vec<String> = (first..=last)
            .map(|i| format!("`{}`", models[i].version))
            .collect();
        let doc = format!(
            " What versions {} define identically ({} types, {} const markers): one \
             definition, which each version's module re-exports.",
            versions.join(", "),
            span.types.len(),
            span.consts.len()
        );
        let types: Vec<&str> = span.types.iter().map(String::as_str).collect();
        let consts: Vec<&str> = span.consts.iter().map(String::as_str).collect();
        let module = types::SharedModule {
            types: &types,
            consts: &consts,
            elsewhere: &elsewhere,
            unlink: &unlink,
            doc: &doc,
        };
        let tokens = types::shared_tokens(&models[first..=last], &map, raw, &module);
        let name = format!("{}_to_{}", plan.modules[first], plan.modules[last]);
        let what = format!("shared module {name}");
        // The passes every version module goes through (emit_module).
        let mut file = rust::parse(
            crate::settings::reroot_tokens(tokens, &settings.runtime),
            &what,
        )?;
        crate::settings::json_schema(&mut file, settings.json_schema);
        files.push((
            format!("{name}.rs"),
            header(first, last) + &rust::pretty_file(&file),
        ));
        let features = (first..=last).map(|i| plan.modules[i].as_str());
        let ident = rust::ident(&name);
        declarations.push(quote! {
            #[cfg(any( #( feature = #features ),* ))]
            #[rustfmt::skip]
            pub mod #ident;
        });
    }
    let doc = " The types and const markers that consecutive versions define identically, \
               each defined once for all of them; every version's module re-exports its \
               own (see the generator's `emit::share`).";
    let tokens = quote! {
        #![doc = #doc]
        #( #declarations )*
    };
    let all = if models.is_empty() {
        String::new()
    } else {
        header(0, models.len() - 1)
    };
    files.push((
        "mod.rs".to_string(),
        all + &rust::pretty(tokens, "shared modules")?,
    ));
    Ok(files)
}
