//! The generated conversions between consecutive versions (`mcp_spec_types::convert`), on
//! the official examples of both versions of each pair, and against what the version
//! diffs say.
//!
//! For a value of one version converted into the other:
//! - where the generator made a `From` (every value of the source's schema is one of the
//!   target's), the conversion succeeds and the target writes back exactly the JSON the
//!   source did;
//! - where it made a `TryFrom`, the conversion succeeds with exactly that JSON, or fails;
//! - a value converted and converted back is the value it was.
//!
//! And the classification agrees with the diff's: a change the diff reports on a
//! definition that breaks a direction makes that direction's conversion a `TryFrom`, and a
//! `TryFrom` has such a change on the definition or on one it holds.

use std::collections::BTreeMap;

use mcp_codegen::diff::{Breaks, diff};
use mcp_codegen::model::Model;
use mcp_codegen::{model_of, workspace};
use mcp_tests::convert::PAIRS;
use mcp_tests::{VERSIONS, root};

#[test]
fn official_examples_convert_between_consecutive_versions() {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    let mut total = 0;
    let mut one_type = 0;
    let models = models();
    for pair in PAIRS {
        let same = mcp_codegen::emit::same_items(&models[pair.old], &models[pair.new]);
        let kinds: BTreeMap<&str, (bool, bool)> = pair
            .definitions
            .iter()
            .map(|(n, up, down)| (*n, (*up, *down)))
            .collect();
        for (version, up) in [(pair.old, true), (pair.new, false)] {
            let h = VERSIONS.iter().find(|h| h.version == version).unwrap();
            let (mut tried, mut converted, mut shared) = (0, 0, 0);
            for example in mcp_tests::examples(version) {
                // Examples are by schema name; conversions by Rust name.
                let Some((_, rust)) = h.definitions.iter().find(|(s, _)| *s == example.definition)
                else {
                    continue;
                };
                let Some(&(lossless_up, lossless_down)) = kinds.get(rust) else {
                    // A type both versions share is one type: nothing to convert.
                    if same.types.contains(*rust) {
                        shared += 1;
                        one_type += 1;
                    }
                    continue;
                };
                // Examples that do not decode are reported by `examples.rs`.
                let Some(Ok(value)) = (h.roundtrip)(&example.definition, example.value) else {
                    continue;
                };
                tried += 1;
                let lossless = if up { lossless_up } else { lossless_down };
                match mcp_tests::converts(pair, rust, up, &value, lossless) {
                    Ok(true) => {
                        converted += 1;
                        total += 1;
                    }
                    Ok(false) => {}
                    Err(e) => failures.push(format!(
                        "{version} {} → {}: {e}",
                        example.case,
                        if up { pair.new } else { pair.old }
                    )),
                }
            }
            report.push(format!(
                "{version} → {}: {tried} examples, {converted} converted and back; {shared} of a type both share",
                if up { pair.new } else { pair.old }
            ));
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Counted over every pair and direction; upstream publishes examples for the newest
    // versions only, and today only 2026-07-28's reach a pair: of its 99, 86 convert down
    // and back and 7 are of a type 2025-11-25 shares, one type with nothing to convert
    // (`draft` is 2026-07-28's module, with no conversions of its own).
    assert!(
        total >= 86 && total + one_type >= 93,
        "only {total} examples converted there and back, {one_type} of a shared type"
    );
}

fn models() -> BTreeMap<String, Model> {
    workspace::inputs(&root())
        .unwrap()
        .iter()
        .map(|i| (i.version.clone(), model_of(i).unwrap()))
        .collect()
}

/// The definitions a definition holds, itself among them (through fields, arms, aliases).
fn reach(model: &Model, name: &str) -> Vec<String> {
    use mcp_codegen::model::{Kind, TypeRef};
    fn named(ty: &TypeRef, out: &mut Vec<String>) {
        match ty {
            TypeRef::Named(n) => out.push(n.clone()),
            TypeRef::Array(t) | TypeRef::Map(t) => named(t, out),
            _ => {}
        }
    }
    let mut seen = vec![name.to_string()];
    let mut i = 0;
    while i < seen.len() {
        let mut next = Vec::new();
        if let Some(t) = model.types.iter().find(|t| t.name == seen[i]) {
            match &t.kind {
                Kind::Struct { fields, additional } => {
                    fields.iter().for_each(|f| named(&f.ty, &mut next));
                    if let Some(a) = additional {
                        named(a, &mut next);
                    }
                }
                Kind::Union { variants, .. } => {
                    variants.iter().for_each(|v| named(&v.ty, &mut next))
                }
                Kind::Alias { target, .. } => named(target, &mut next),
                Kind::StringEnum { .. } => {}
            }
        }
        for n in next {
            if !seen.contains(&n) {
                seen.push(n);
            }
        }
        i += 1;
    }
    seen
}

#[test]
fn a_direction_is_lossless_exactly_where_the_diff_finds_nothing_that_breaks_it() {
    let models = models();
    let mut disagreements = Vec::new();
    let mut report = Vec::new();
    for pair in PAIRS {
        let (old, new) = (&models[pair.old], &models[pair.new]);
        let d = diff(old, new);
        // On the definition itself (`Type` or `Type.field`).
        let own = |name: &str, sides: &[Breaks]| {
            d.changes.iter().any(|c| {
                let on = c.subject.split('.').next().unwrap_or_default();
                on == name && sides.contains(&c.breaks)
            })
        };
        let (mut from_up, mut from_down) = (0, 0);
        for (name, up, down) in pair.definitions {
            for (lossless, sides, way) in [
                (
                    *up,
                    [Breaks::OlderSender, Breaks::Both],
                    format!("{} → {}", pair.old, pair.new),
                ),
                (
                    *down,
                    [Breaks::OlderReceiver, Breaks::Both],
                    format!("{} → {}", pair.new, pair.old),
                ),
            ] {
                // A break on the definition itself makes its conversion lossy.
                if lossless && own(name, &sides) {
                    disagreements.push(format!("{way} {name}: a `From`, but the diff breaks it"));
                }
                // A lossy conversion has a break on the definition or on one it holds
                // (in either version).
                let mut held = reach(old, name);
                held.extend(reach(new, name));
                if !lossless && !held.iter().any(|n| own(n, &sides)) {
                    disagreements.push(format!(
                        "{way} {name}: a `TryFrom`, but the diff breaks nothing it holds"
                    ));
                }
            }
            from_up += usize::from(*up);
            from_down += usize::from(*down);
        }
        report.push(format!(
            "{} ⇄ {}: {} definitions; From up {from_up}, down {from_down}",
            pair.old,
            pair.new,
            pair.definitions.len()
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn a_lossy_direction_fails_where_the_diff_says_and_a_lossless_one_keeps_everything() {
    use mcp_spec_types::{v2025_03_26 as old, v2025_06_18 as new};
    let decode =
        |text: &str| -> new::CallToolResult { mcp_spec_types::rt::path::from_str(text).unwrap() };
    // 2025-06-18 added `resource_link` blocks; the diff says a newer `CallToolResult.content`
    // need not fit 2025-03-26 ("no arm takes ResourceLink"), and the conversion refuses it there.
    let link = decode(
        r#"{"content":[{"type":"text","text":"see"},{"type":"resource_link","uri":"file:///a","name":"a"}]}"#,
    );
    let refused = old::CallToolResult::try_from(link).unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#"at content[1]: CallToolResultContentItem has no arm for `type` "resource_link""#
    );
    assert_eq!(refused.path(), "content[1]");
    // Without one, it converts, and back up it is what it was, its unknown member too.
    let text = r#"{"content":[{"type":"text","text":"see"}],"isError":false,"x-trace":7}"#;
    let down = old::CallToolResult::try_from(decode(text)).unwrap();
    assert_eq!(down.extra["x-trace"], 7);
    let up: new::CallToolResult = down.into();
    assert_eq!(
        serde_json::to_string(&up).unwrap(),
        serde_json::to_string(&decode(text)).unwrap()
    );
}

#[test]
fn a_from_drops_only_an_unknown_member_the_target_declares_and_cannot_take() {
    use mcp_spec_types::{v2025_06_18 as old, v2025_11_25 as new};
    // 2025-06-18 has no `icons` on a tool, so a peer's `"icons": 5` is an unknown member
    // there; 2025-11-25 declares `icons` as a list. The one value `From` cannot keep.
    let text = r#"{"name":"t","inputSchema":{"type":"object"},"icons":5,"x-kept":true}"#;
    let tool: old::Tool = mcp_spec_types::rt::path::from_str(text).unwrap();
    assert_eq!(tool.extra["icons"], 5);
    let up: new::Tool = tool.into();
    assert_eq!(up.icons, None);
    assert_eq!(
        serde_json::to_value(&up).unwrap(),
        serde_json::json!({"name": "t", "inputSchema": {"type": "object"}, "x-kept": true})
    );
    // The exact conversion refuses it instead, naming it.
    let tool: old::Tool = mcp_spec_types::rt::path::from_str(text).unwrap();
    let refused = mcp_spec_types::rt::convert::exact::<old::Tool, new::Tool>(&tool).unwrap_err();
    assert_eq!(refused.path(), "icons");
    // A well-formed `icons` from a newer peer is taken up as the declared field.
    let text =
        r#"{"name":"t","inputSchema":{"type":"object"},"icons":[{"src":"https://x/i.png"}]}"#;
    let tool: old::Tool = mcp_spec_types::rt::path::from_str(text).unwrap();
    let up: new::Tool = tool.into();
    assert_eq!(up.icons.map(|i| i.len()), Some(1));
}

/// Where a conversion must refuse a witness: the compatibility check's path with the
/// witness's own choices (index 0, key `k`), without the union-arm steps (`|Name`), which
/// a value's path does not write.
fn expected_path(check: &str) -> String {
    expected_places(check).0
}

/// [`expected_path`], and the places of the unions on the way (where an arm step was): an
/// untagged union that takes no arm is refused there, as a whole.
fn expected_places(check: &str) -> (String, Vec<String>) {
    let mut unions = Vec::new();
    let mut out = String::new();
    let mut rest = check;
    while let Some(c) = rest.chars().next() {
        if let Some(tail) = rest.strip_prefix("[]") {
            out.push_str("[0]");
            rest = tail;
        } else if let Some(tail) = rest.strip_prefix("{}") {
            if !out.is_empty() {
                out.push('.');
            }
            out.push('k');
            rest = tail;
        } else if c == '|' {
            // `|Name`, `|string[]`, `|{string: X}`: the arm's type as the check writes it.
            unions.push(out.clone());
            rest = &rest[1..];
            if rest.starts_with('{') {
                let end = rest.find('}').map_or(rest.len(), |i| i + 1);
                rest = &rest[end..];
            }
            let end = rest
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            rest = &rest[end..];
            while let Some(tail) = rest.strip_prefix("[]") {
                rest = tail;
            }
        } else if c == '.' {
            if !out.is_empty() {
                out.push('.');
            }
            rest = &rest[1..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    (out, unions)
}

#[test]
fn the_witness_paths_are_written_as_values_write_them() {
    assert_eq!(expected_path(".content[]|ResourceLink"), "content[0]");
    assert_eq!(
        expected_path("|TextContent.annotations.audience[]"),
        "annotations.audience[0]"
    );
    assert_eq!(expected_path(".properties{}.type"), "properties.k.type");
    assert_eq!(expected_path(".content{}|string[]"), "content.k");
    assert_eq!(expected_path(""), "");
    assert_eq!(
        expected_places("|A.x[]|B.y"),
        (
            "x[0].y".to_string(),
            vec![String::new(), "x[0]".to_string()]
        )
    );
}

/// Every direction the compatibility check finds lossy (a `TryFrom`) comes with a witness:
/// a value of the source version built to misfit where the check, and so the diff's
/// detail, says. Each must decode in its own version, and the conversion must refuse it at
/// that place (or inside it).
#[test]
fn every_lossy_direction_refuses_its_witness_where_the_diff_says() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for pair in PAIRS {
        for w in pair.witnesses {
            let (from, to) = if w.up {
                (pair.old, pair.new)
            } else {
                (pair.new, pair.old)
            };
            let at = format!("{} {from} -> {to} (`{}`: {})", w.name, w.path, w.why);
            let Some(text) = w.value else {
                wrong.push(format!("{at}: no witness"));
                continue;
            };
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let refused = match (pair.convert)(w.name, w.up, value) {
                Some(Err(e)) => e,
                Some(Ok(v)) => {
                    wrong.push(format!("{at}: {text} converted, to {v}"));
                    continue;
                }
                None => panic!("{at}: not in the harness"),
            };
            if refused.starts_with("does not decode") {
                wrong.push(format!(
                    "{at}: the witness {text} is not a value of {from}: {refused}"
                ));
                continue;
            }
            let path = refused
                .strip_prefix("at ")
                .and_then(|r| r.split_once(": "))
                .map_or("", |(p, _)| p);
            let (expected, unions) = expected_places(w.path);
            let inside = path == expected
                || expected.is_empty()
                || path.starts_with(&format!("{expected}."))
                || path.starts_with(&format!("{expected}["))
                || (unions.iter().any(|u| u == path) && refused.contains("no arm fits"));
            if !inside {
                wrong.push(format!("{at}: {text} refused elsewhere: {refused}"));
                continue;
            }
            checked += 1;
        }
    }
    println!("{checked} witnesses refused where predicted");
    assert!(
        wrong.is_empty(),
        "{} of {} witnesses:\n{}",
        wrong.len(),
        checked + wrong.len(),
        wrong.join("\n")
    );
    assert!(checked >= 140, "only {checked} witnesses");
}

/// For an older peer, a value carries only what its version defines: what only the newer
/// version declares is left out, what the value held without declaring (a peer's own
/// members) is kept, at every depth.
#[test]
fn converted_down_a_value_carries_only_what_the_older_version_defines() {
    use mcp_spec_types::rt::convert::{value, value_down};
    use mcp_spec_types::{v2024_11_05 as old, v2026_07_28 as new};
    use serde_json::json;
    let newer = json!({
        "resultType": "complete", "cacheScope": "public", "ttlMs": 0,
        "tools": [{"name": "t", "inputSchema": {"type": "object"}, "x-mine": 1}],
        "x-peer": {"resultType": "kept: inside a member nobody declares"},
    });
    let down = value_down::<new::ListToolsResult, old::ListToolsResult>(newer.clone()).unwrap();
    assert_eq!(
        down,
        json!({
            "tools": [{"name": "t", "inputSchema": {"type": "object"}, "x-mine": 1}],
            "x-peer": {"resultType": "kept: inside a member nobody declares"},
        })
    );
    // `value` (the `From` impls' way) keeps everything, for a round trip.
    let kept = value::<new::ListToolsResult, old::ListToolsResult>(newer.clone()).unwrap();
    assert_eq!(kept, newer);
    // What came from the older version up goes back down as it was.
    let older = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}], "x": [1]});
    let up = value::<old::ListToolsResult, new::ListToolsResult>(older.clone());
    // (2026-07-28 requires what 2024-11-05 does not write: an older result is not one.)
    assert!(up.is_err(), "{up:?}");
    let params = json!({"name": "t", "arguments": {"a": 1}, "x": true});
    let up =
        value::<old::CallToolRequestParams, mcp_spec_types::v2025_11_25::CallToolRequestParams>(
            params.clone(),
        )
        .unwrap();
    let back = value_down::<
        mcp_spec_types::v2025_11_25::CallToolRequestParams,
        old::CallToolRequestParams,
    >(up)
    .unwrap();
    assert_eq!(back, params);
}

/// What consecutive versions define identically is one Rust type (defined once in
/// `generated/src/shared/`, re-exported by both): a value of one is a value of the other,
/// with no conversion. Such a type is one the diff finds no change on that breaks either
/// direction, on it or on anything it holds.
#[test]
fn a_type_two_versions_share_is_one_type_the_diff_finds_unbroken() {
    use mcp_spec_types::{v2024_11_05, v2025_03_26, v2025_11_25, v2026_07_28};
    // The compiler says they are the same type: no `From`, no `.into()`.
    let role: v2026_07_28::Role = v2024_11_05::Role::User;
    let id: v2025_03_26::RequestId = v2024_11_05::RequestId::Integer(7);
    let icon: v2026_07_28::IconTheme = v2025_11_25::IconTheme::Dark;
    assert_eq!((role.as_str(), icon.as_str()), ("user", "dark"), "{id:?}");

    let models = models();
    let mut wrong = Vec::new();
    let mut report = Vec::new();
    for pair in PAIRS {
        let (old, new) = (&models[pair.old], &models[pair.new]);
        let same = mcp_codegen::emit::same_items(old, new);
        let d = diff(old, new);
        for name in &same.types {
            let mut held = reach(old, name);
            held.extend(reach(new, name));
            held.push(name.clone());
            for c in &d.changes {
                let on = c.subject.split('.').next().unwrap_or_default();
                if held.iter().any(|h| h == on) && c.breaks != Breaks::Nobody {
                    wrong.push(format!(
                        "{} ⇄ {}: {name} is one type, but the diff breaks {}: {}",
                        pair.old, pair.new, c.subject, c.detail
                    ));
                }
            }
        }
        report.push(format!(
            "{} ⇄ {}: {} types shared",
            pair.old,
            pair.new,
            same.types.len()
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        report.iter().all(|r| !r.contains(": 0 types")),
        "every pair shares some types: {report:?}"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
