//! `convert.rs`: conversions between the types of consecutive versions, for every
//! definition both have. Which direction is `From` and which `TryFrom` comes from
//! [`compat`](crate::compat), the relation the version diffs classify changes by: `From`
//! where every value of the source's schema is one of the target's, `TryFrom` (whose
//! error names the place and what the target cannot carry) where not. Both go through
//! the runtime's `rt::convert`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::rust::{CONVERSION_PAIR, CONVERSIONS, TRANSLATION, ident, module_name, pretty};
use super::share::{Plan, Same, same_items};
use crate::Error;
use crate::compat::{Fits, Misfit};
use crate::model::{Carried, Kind, MessageKind, MethodDef, Model, Sender, TypeRef};
use crate::overrides;

/// One definition of a pair of versions, and how it converts each way.
pub struct Conversion {
    /// The definition's name (the same in both versions).
    pub name: String,
    /// Older → newer: lossless, or the first place a value need not fit.
    pub up: Result<(), Misfit>,
    /// Newer → older.
    pub down: Result<(), Misfit>,
}

/// The definitions both `old` and `new` have, as distinct Rust types (an alias is its
/// target's; a type both define identically is one type, [`same_items`], and needs no
/// conversion), with how each converts.
pub fn conversions(old: &Model, new: &Model) -> Vec<Conversion> {
    conversions_besides(old, new, &same_items(old, new))
}

/// [`conversions`], given what the two versions define identically.
fn conversions_besides(old: &Model, new: &Model, same: &Same) -> Vec<Conversion> {
    let distinct = |kind: &Kind| !matches!(kind, Kind::Alias { newtype: false, .. });
    old.types
        .iter()
        .filter(|a| distinct(&a.kind) && !same.types.contains(&a.name))
        .filter(|a| {
            new.types
                .iter()
                .any(|b| b.name == a.name && distinct(&b.kind))
        })
        .map(|a| Conversion {
            name: a.name.clone(),
            up: Fits::new(old, new).named(&a.name, &a.name),
            down: Fits::new(new, old).named(&a.name, &a.name),
        })
        .collect()
}

/// What is one Rust type in `old` and `new` (of `models`), as `plan` placed it: a version
/// that is another's module re-exported ([`same_as`](super::same_as)) has that version's
/// types; a version the plan does not know shares nothing.
fn same_in(plan: &Plan, models: &[Model], old: &Model, new: &Model) -> Same {
    let placed = |m: &Model| {
        let at = models
            .iter()
            .position(|x| x.version == m.version)
            .unwrap_or(0);
        super::same_as(m, &models[..at]).map_or(m.version.clone(), |t| t.version.clone())
    };
    plan.one_type(&placed(old), &placed(new))
        .unwrap_or_default()
}

/// Whether `new` is `old`'s module under another name ([`same_as`](super::same_as)): the
/// same types, with no conversions or adapters between them.
fn one_module(old: &Model, new: &Model) -> bool {
    super::same_as(new, std::slice::from_ref(old)).is_some()
}

/// Emits `convert.rs` for `models` in date order (`draft` last): each consecutive pair's
/// impls, behind both versions' features.
pub fn emit_conversions(models: &[Model], header_text: &str, plan: &Plan) -> Result<String, Error> {
    let mut pairs = Vec::new();
    let mut table = vec![
        "| from | to | one type | converted | `From` up | `TryFrom` up | `From` down | `TryFrom` down |"
            .to_string(),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |".to_string(),
    ];
    for pair in models.windows(2) {
        let (old, new) = (&pair[0], &pair[1]);
        let (old_mod, new_mod) = (module_name(&old.version), module_name(&new.version));
        if one_module(old, new) {
            table.push(format!(
                "| `{}` | `{}` | all: `{new_mod}` is `{old_mod}` re-exported | | | | | |",
                old.version, new.version
            ));
            continue;
        }
        let same = same_in(plan, models, old, new);
        let list = conversions_besides(old, new, &same);
        let lossless = |r: &Result<(), Misfit>| r.is_ok();
        let up_from = list.iter().filter(|c| lossless(&c.up)).count();
        let down_from = list.iter().filter(|c| lossless(&c.down)).count();
        let one_type = new
            .types
            .iter()
            .filter(|t| {
                !matches!(t.kind, Kind::Alias { newtype: false, .. })
                    && same.types.contains(&t.name)
            })
            .count();
        table.push(format!(
            "| `{}` | `{}` | {} | {} | {} | {} | {} | {} |",
            old.version,
            new.version,
            one_type,
            list.len(),
            up_from,
            list.len() - up_from,
            down_from,
            list.len() - down_from
        ));
        // One row a definition, expanded by the runtime's `conversions!`.
        let how = |r: &Result<(), Misfit>| match r {
            Ok(()) => quote!(lossless),
            Err(misfit) => {
                let why = misfit.to_string();
                quote!(lossy(#why))
            }
        };
        let rows = list.iter().map(|c| {
            let (ty, up, down) = (ident(&c.name), how(&c.up), how(&c.down));
            quote!(#ty: #up #down)
        });
        let (old_v, new_v) = (&old.version, &new.version);
        let conversions = format_ident!("{}", CONVERSIONS);
        let impls = quote! {
            crate::rt::#conversions! {
                old #old_v => new #new_v { #( #rows ),* }
            }
        };
        let (old_feature, new_feature) = (&old_mod, &new_mod);
        let module = ident(&format!("{old_mod}_{new_mod}"));
        let (old_ident, new_ident) = (ident(&old_mod), ident(&new_mod));
        let doc = format!(" `{}` ⇄ `{}`.", old.version, new.version);
        let mut adapter = TokenStream::new();
        for side in [Side::Server, Side::Client] {
            adapter.extend(adapters(old, new, side)?);
        }
        pairs.push(quote! {
            #[doc = #doc]
            #[cfg(all(feature = "convert", feature = #old_feature, feature = #new_feature))]
            pub mod #module {
                use crate::#old_ident as old;
                use crate::#new_ident as new;
                #impls
                #adapter
            }
        });
    }
    // The pairs the adapters join, newest first, each there with both versions' features:
    // the server adapters in one list, the client adapters in another (a server's binary
    // then holds no client adapter).
    let (mut serving, mut answering) = (Vec::new(), Vec::new());
    for pair in models.windows(2).rev() {
        let (old, new) = (&pair[0], &pair[1]);
        let serve = lifecycle(old, new, Side::Server);
        let answer = lifecycle(old, new, Side::Client);
        if answer.is_none() || one_module(old, new) {
            continue;
        }
        let (old_mod, new_mod) = (module_name(&old.version), module_name(&new.version));
        let module = ident(&format!("{old_mod}_{new_mod}"));
        let (old_v, new_v) = (&old.version, &new.version);
        if serve.is_some() {
            serving.push(quote! {
                #[cfg(all(feature = #old_mod, feature = #new_mod))]
                crate::rt::adapt::Serving {
                    older: #old_v,
                    newer: #new_v,
                    serve_older: |newer, spawn| {
                        ::std::sync::Arc::new(#module::serve_older(newer).spawning(spawn))
                    },
                },
            });
        }
        answering.push(quote! {
            #[cfg(all(feature = #old_mod, feature = #new_mod))]
            crate::rt::adapt::Answering {
                older: #old_v,
                newer: #new_v,
                answer_older: |newer| ::std::sync::Arc::new(#module::answer_older(newer)),
                to_older_server: &#module::TO_OLDER_SERVER,
            },
        });
    }
    pairs.push(quote! {
        /// The pairs of consecutive versions whose server adapters serve clients of the
        /// older version with a server of the newer, newest first (those whose features
        /// are on): what `mcp-spec-session` walks to serve every older version with one
        /// handler.
        #[cfg(feature = "convert")]
        pub static SERVING: &[crate::rt::adapt::Serving] = &[ #( #serving )* ];

        /// The pairs of consecutive versions whose client adapters answer servers of the
        /// older version with a client of the newer, newest first (those whose features
        /// are on): what `mcp-spec-session` walks to reach every older server with one
        /// client handler.
        #[cfg(feature = "convert")]
        pub static ANSWERING: &[crate::rt::adapt::Answering] = &[ #( #answering )* ];
    });
    let table = table.into_iter().map(|line| format!(" {line}"));
    let tokens = quote! {
        //! Conversions between consecutive protocol versions, for every definition both
        //! have: `From` in a direction where every value of the source's schema is one of
        //! the target's (the version diff's "nobody" for that direction), `TryFrom` where
        //! not, whose error names the place and what the target cannot carry. Members a
        //! version does not declare are kept in `extra`, as a peer would send them; a
        //! conversion across several versions chains these, or calls
        //! [`rt::convert`](crate::rt::convert) directly. Each pair is there with the
        //! `convert` feature and both versions' features on.
        //!
        #( #![doc = #table] )*
        #![allow(deprecated)]

        #( #pairs )*
    };
    Ok(header_text.to_string() + &pretty(tokens, "convert")?)
}

/// Emits `tests/src/convert.rs`: for each consecutive pair, every definition both have
/// with how it converts each way, and a function that decodes a JSON value as one
/// version's type, converts it with the generated impl (`TryFrom`, which a `From` impl
/// gives too) and encodes the result.
pub fn emit_convert_harness(
    models: &[Model],
    header_text: &str,
    plan: &Plan,
) -> Result<String, Error> {
    let mut names = Vec::new();
    let distinct = models
        .windows(2)
        .filter(|pair| !one_module(&pair[0], &pair[1]));
    let pairs = distinct.map(|pair| {
        let (old, new) = (&pair[0], &pair[1]);
        let (old_mod, new_mod) = (module_name(&old.version), module_name(&new.version));
        let name = ident(&format!("{old_mod}_{new_mod}").to_uppercase());
        names.push(name.clone());
        let (old_mod, new_mod) = (ident(&old_mod), ident(&new_mod));
        let (old_v, new_v) = (&old.version, &new.version);
        let how = |r: &Result<(), Misfit>| match r {
            Ok(()) => quote!(lossless),
            Err(m) => {
                let (path, why) = (&m.path, &m.why);
                let value = match &m.witness {
                    Some(w) => {
                        let text = w.to_string();
                        quote!(Some(#text))
                    }
                    None => quote!(None),
                };
                quote!(lossy(#path, #why, #value))
            }
        };
        let rows = conversions_besides(old, new, &same_in(plan, models, old, new))
            .into_iter()
            .map(|c| {
                let (ty, up, down) = (ident(&c.name), how(&c.up), how(&c.down));
                quote!(#ty: #up #down)
            });
        let pair_macro = format_ident!("{}", CONVERSION_PAIR);
        quote! {
            crate::#pair_macro! {
                #name: #old_mod #old_v => #new_mod #new_v { #( #rows ),* }
            }
        }
    });
    let pairs: Vec<TokenStream> = pairs.collect();
    let tokens = quote! {
        //! The conversions between consecutive versions, for the tests: each pair's
        //! definitions with whether each direction is lossless (a `From` impl), the values
        //! a lossy direction must refuse, and a function that converts a JSON value of one
        //! version's definition into the other's (`crate::conversion_pair!`).
        #![allow(deprecated)]

        pub use crate::{Pair, Witness};

        #( #pairs )*

        /// Every pair, oldest first.
        pub const PAIRS: &[Pair] = &[ #( #names ),* ];
    };
    Ok(header_text.to_string() + &pretty(tokens, "convert harness")?)
}

/// `TO_OLDER_CLIENT` (what a newer server handler sends its older client) or
/// `TO_OLDER_SERVER` (what a newer client sends its older server): the params of its
/// requests and notifications, and its requests' results back, per method both versions
/// have, for `rt::convert::outbound`. Between a client of the `server/discover` era and a
/// server of the `initialize` era, params lose the newer era's envelope
/// (`rt::bridge::without_envelope`) and results get what the newer era requires and the
/// older one does not write (`rt::bridge::older_result`).
fn outbound(old: &Model, new: &Model, side: Side) -> TokenStream {
    let name = side.to_older();
    // With the discover era's input requests: an adapter sends them to an older client as
    // requests of its own.
    let sent = |m: &Model, kind| -> Vec<MethodDef> {
        m.method_set(kind, side.sender(), Carried::AlsoInResults)
            .into_iter()
            .cloned()
            .collect()
    };
    let initialize = overrides::LIFECYCLE.initialize;
    let across = side == Side::Client && has(old, initialize) && !has(new, initialize);
    let mut rows = Vec::new();
    for kind in [MessageKind::Request, MessageKind::Notification] {
        let newer = sent(new, kind);
        for m in sent(old, kind) {
            let Some(n) = newer.iter().find(|x| x.method == m.method) else {
                continue;
            };
            let method = m.method.as_str();
            let params = match (&m.params, &n.params) {
                (Some(TypeRef::Named(a)), Some(TypeRef::Named(b))) => {
                    let (a, b) = (ident(a), ident(b));
                    quote!((#b => #a))
                }
                _ => quote!(_),
            };
            let result = match (m.result.as_deref(), n.result.as_deref()) {
                (Some(a), Some(b)) => {
                    let cache = if declares(new, b, overrides::LIFECYCLE.cache_scope) {
                        quote!(scoped)
                    } else {
                        quote!(unscoped)
                    };
                    let (a, b) = (ident(a), ident(b));
                    if across {
                        quote!(-> (#a => #b, #cache))
                    } else {
                        quote!(-> (#a => #b))
                    }
                }
                _ => quote!(),
            };
            rows.push(quote!(#method: #params #result));
        }
    }
    let to = match side {
        Side::Server => quote!(to_client),
        Side::Client => quote!(to_server),
    };
    let era = if across {
        quote!(across)
    } else {
        quote!(plain)
    };
    let (from, to_v) = (&new.version, &old.version);
    let translation = format_ident!("{}", TRANSLATION);
    quote! {
        crate::rt::#translation! {
            #to #name: new #from => old #to_v, #era { #( #rows ),* }
        }
    }
}

/// The side of a connection an adapter's handler is on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A server handler (the adapter serves older clients).
    Server,
    /// A client handler (the adapter answers older servers).
    Client,
}

impl Side {
    /// The side the adapter's handler is on, as a sender.
    fn sender(self) -> Sender {
        match self {
            Side::Server => Sender::Server,
            Side::Client => Sender::Client,
        }
    }
    /// The other side: who sends what the handler answers.
    fn peer(self) -> Sender {
        match self {
            Side::Server => Sender::Client,
            Side::Client => Sender::Server,
        }
    }
    /// The table of what the handler sends the older peer.
    fn to_older(self) -> TokenStream {
        match self {
            Side::Server => quote!(TO_OLDER_CLIENT),
            Side::Client => quote!(TO_OLDER_SERVER),
        }
    }
}

/// Whether the type `name` of `m`, or one of its union's arms, declares the member `wire`.
fn declares(m: &Model, name: &str, wire: &str) -> bool {
    match m.types.iter().find(|t| t.name == name).map(|t| &t.kind) {
        Some(Kind::Struct { fields, .. }) => fields.iter().any(|f| f.wire == wire),
        Some(Kind::Union { variants, .. }) => variants.iter().any(|v| match &v.ty {
            TypeRef::Named(n) => declares(m, n, wire),
            _ => false,
        }),
        Some(Kind::Alias {
            target: TypeRef::Named(n),
            ..
        }) => declares(m, n, wire),
        _ => false,
    }
}

/// Whether `m` has the method `method`.
fn has(m: &Model, method: &str) -> bool {
    m.methods.iter().any(|x| x.method == method)
}

/// The requests and the notifications a server handler of `m` answers.
fn served(m: &Model, side: Side) -> (Vec<MethodDef>, Vec<MethodDef>) {
    // As the handler traits have them: with the input requests a discover-era client
    // answers inside results.
    let set = |kind, carried| {
        m.method_set(kind, side.peer(), carried)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    (
        set(MessageKind::Request, Carried::AlsoInResults),
        set(MessageKind::Notification, Carried::AsMessages),
    )
}

/// The lifecycle of an adapter's pair: whether both versions answer `initialize`, or the
/// older does and the newer answers `server/discover` instead (`None`: no adapter).
fn lifecycle(old: &Model, new: &Model, side: Side) -> Option<Across> {
    let (initialize, discover) = (
        overrides::LIFECYCLE.initialize,
        overrides::LIFECYCLE.discover,
    );
    if !has(old, initialize) {
        return None;
    }
    match (side, has(new, initialize), has(new, discover)) {
        (Side::Client, _, _) | (Side::Server, true, _) => Some(Across::No),
        (Side::Server, false, true) => Some(Across::Yes),
        (Side::Server, false, false) => None,
    }
}

/// Whether an adapter's pair crosses the change of lifecycle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Across {
    No,
    Yes,
}

/// One side's adapter of a pair (none where the older version does not answer
/// `initialize`): its two tables, what the older peer sends the newer handler
/// (`FROM_OLDER_*`) and what the handler sends the peer (`TO_OLDER_*`), and the function
/// that makes it of the newer version's service (`rt::adapt::Adapter`).
fn adapters(old: &Model, new: &Model, side: Side) -> Result<TokenStream, Error> {
    let Some(across) = lifecycle(old, new, side) else {
        return Ok(TokenStream::new());
    };
    let to_older = outbound(old, new, side);
    let from_older = inbound(old, new, side, across)?;
    let to_name = side.to_older();
    let (from_name, make, read, what) = match side {
        Side::Server => (
            quote!(FROM_OLDER_CLIENT),
            quote!(serve_older),
            quote!(
                old::methods::ClientRequest,
                old::methods::ClientNotification
            ),
            format!(
                " Serves clients of `{}` with the service of a server of `{}` \
                 (`new::handlers::Server`, or an adapter of the pair after this one): see \
                 [`rt::adapt`](crate::rt::adapt). One per connection.",
                old.version, new.version
            ),
        ),
        Side::Client => (
            quote!(FROM_OLDER_SERVER),
            quote!(answer_older),
            quote!(
                old::methods::ServerRequest,
                old::methods::ServerNotification
            ),
            format!(
                " Answers servers of `{}` with the service of a client of `{}` \
                 (`new::handlers::Client`, or an adapter of the pair after this one): see \
                 [`rt::adapt`](crate::rt::adapt). The client's own calls go through \
                 [`TO_OLDER_SERVER`] (`rt::convert::outbound`).",
                old.version, new.version
            ),
        ),
    };
    let constructor = match across {
        Across::No => quote!(new),
        Across::Yes => quote!(across),
    };
    Ok(quote! {
        #to_older
        #from_older
        #[doc = #what]
        pub fn #make(newer: impl crate::rt::service::Service) -> crate::rt::adapt::Adapter<#read> {
            crate::rt::adapt::Adapter::#constructor(newer, #from_name, #to_name, old::methods::BATCHES)
        }
    })
}

/// `FROM_OLDER_CLIENT` (what an older client sends a newer server handler) or
/// `FROM_OLDER_SERVER` (what an older server sends a newer client): the params of each
/// request and notification both versions have, up, and the results of the requests
/// back, for `rt::adapt`. Across the change of lifecycle, the older version's `initialize`
/// becomes the newer's `server/discover` (its result made by `rt::bridge`, JSON).
fn inbound(old: &Model, new: &Model, side: Side, across: Across) -> Result<TokenStream, Error> {
    let ((old_answers, old_hears), (new_answers, new_hears)) =
        (served(old, side), served(new, side));
    let named = |t: &Option<TypeRef>| match t {
        Some(TypeRef::Named(n)) => Some(ident(n)),
        _ => None,
    };
    let mut rows = Vec::new();
    for (old_set, new_set) in [(&old_answers, &new_answers), (&old_hears, &new_hears)] {
        for m in old_set {
            let lifecycle = overrides::LIFECYCLE;
            let bridged = across == Across::Yes && m.method == lifecycle.initialize;
            let newer = if bridged {
                lifecycle.discover
            } else {
                m.method.as_str()
            };
            let Some(n) = new_set.iter().find(|x| x.method == newer) else {
                continue;
            };
            let result = match (m.result.as_deref(), n.result.as_deref()) {
                (Some(a), _) if bridged => {
                    let a = ident(a);
                    quote!(-> (json => #a))
                }
                (Some(a), Some(b)) => {
                    let (a, b) = (ident(a), ident(b));
                    quote!(-> (#b => #a))
                }
                (None, None) => quote!(),
                _ => continue,
            };
            let params = match (named(&m.params), named(&n.params)) {
                (None, None) if m.params.is_none() && n.params.is_none() => quote!(_),
                (Some(a), Some(b)) => {
                    // The adapter gives the newer handler no params where the older peer
                    // sent none: only across the eras (where the bridge always sends
                    // some) may the newer version require them when the older does not.
                    if across == Across::No && !m.params_required && n.params_required {
                        return Err(Error::msg(format!(
                            "internal error: `{}` has optional params in {} and required \
                             ones in {}: the adapter cannot make them",
                            m.method, old.version, new.version
                        )));
                    }
                    quote!((#a => #b))
                }
                (None, Some(b)) if across == Across::Yes && m.params.is_none() => {
                    quote!((json => #b))
                }
                _ => continue,
            };
            let method = m.method.as_str();
            rows.push(quote!(#method: #params #result));
        }
    }
    // What the older handler answers by default and the newer version does not have.
    let answered: Vec<&str> = old_answers
        .iter()
        .map(|m| m.method.as_str())
        .filter(|m| {
            overrides::answered_by_default(m) && !new_answers.iter().any(|n| n.method == *m)
        })
        .collect();
    let answered = (!answered.is_empty()).then(|| quote!([ #( #answered ),* ]));
    let (dir, name) = match side {
        Side::Server => (quote!(from_client), quote!(FROM_OLDER_CLIENT)),
        Side::Client => (quote!(from_server), quote!(FROM_OLDER_SERVER)),
    };
    let (from, to) = (&old.version, &new.version);
    let translation = format_ident!("{}", TRANSLATION);
    Ok(quote! {
        crate::rt::#translation! {
            #dir #name: old #from => new #to, plain #answered { #( #rows ),* }
        }
    })
}
