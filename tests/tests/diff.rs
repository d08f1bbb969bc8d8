//! Version diffs on the real schemas: facts established from the schemas, the empty
//! self-diff, and symmetry.

use std::collections::BTreeSet;

use mcp_codegen::diff::{Breaks, ChangeKind, Diff, diff};
use mcp_codegen::model::Model;
use mcp_codegen::workspace;
use mcp_tests::root;

fn models() -> Vec<Model> {
    let inputs = workspace::inputs(&root()).unwrap();
    mcp_codegen::generate(&inputs).unwrap().models
}

fn model(models: &[Model], version: &str) -> Model {
    models
        .iter()
        .find(|m| m.version == version)
        .unwrap()
        .clone()
}

fn subjects(d: &Diff, kind: ChangeKind) -> BTreeSet<String> {
    d.changes
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.subject.clone())
        .collect()
}

#[test]
fn self_diff_is_empty() {
    for m in models() {
        let d = diff(&m, &m);
        assert!(
            d.changes.is_empty() && d.description_only.is_empty(),
            "{}: {d:?}",
            m.version
        );
    }
}

#[test]
fn diffs_mirror_each_other() {
    let mirror = |k: ChangeKind| match k {
        ChangeKind::DefinitionAdded => ChangeKind::DefinitionRemoved,
        ChangeKind::DefinitionRemoved => ChangeKind::DefinitionAdded,
        ChangeKind::FieldAdded => ChangeKind::FieldRemoved,
        ChangeKind::FieldRemoved => ChangeKind::FieldAdded,
        ChangeKind::EnumValueAdded => ChangeKind::EnumValueRemoved,
        ChangeKind::EnumValueRemoved => ChangeKind::EnumValueAdded,
        ChangeKind::UnionArmAdded => ChangeKind::UnionArmRemoved,
        ChangeKind::UnionArmRemoved => ChangeKind::UnionArmAdded,
        ChangeKind::MethodAdded => ChangeKind::MethodRemoved,
        ChangeKind::MethodRemoved => ChangeKind::MethodAdded,
        ChangeKind::CapabilityAdded => ChangeKind::CapabilityRemoved,
        ChangeKind::CapabilityRemoved => ChangeKind::CapabilityAdded,
        ChangeKind::ErrorCodeAdded => ChangeKind::ErrorCodeRemoved,
        ChangeKind::ErrorCodeRemoved => ChangeKind::ErrorCodeAdded,
        ChangeKind::Deprecated => ChangeKind::Undeprecated,
        ChangeKind::Undeprecated => ChangeKind::Deprecated,
        other => other,
    };
    let ms = models();
    for pair in ms.windows(2) {
        let (ab, ba) = (diff(&pair[0], &pair[1]), diff(&pair[1], &pair[0]));
        let key = |d: &Diff, flip: bool| -> BTreeSet<(String, ChangeKind)> {
            d.changes
                .iter()
                .filter(|c| c.kind != ChangeKind::DefinitionRenamed)
                .map(|c| {
                    (
                        c.subject.clone(),
                        if flip { mirror(c.kind) } else { c.kind },
                    )
                })
                .collect()
        };
        assert_eq!(
            key(&ab, false),
            key(&ba, true),
            "{} vs {}",
            pair[0].version,
            pair[1].version
        );
        assert_eq!(ab.description_only, ba.description_only);
    }
}

#[test]
fn facts_of_the_real_versions() {
    let ms = models();
    let d = diff(&model(&ms, "2025-06-18"), &model(&ms, "2025-11-25"));
    let added = subjects(&d, ChangeKind::MethodAdded);
    for m in [
        "tasks/get",
        "tasks/result",
        "tasks/list",
        "tasks/cancel",
        "notifications/tasks/status",
        "notifications/elicitation/complete",
    ] {
        assert!(
            added.contains(m),
            "2025-06-18 → 2025-11-25 should add {m}: {added:?}"
        );
    }
    assert_eq!(added.len(), 6, "{added:?}");
    assert!(subjects(&d, ChangeKind::MethodRemoved).is_empty());

    let old = model(&ms, "2025-11-25");
    let d = diff(&old, &model(&ms, "2026-07-28"));
    let removed = subjects(&d, ChangeKind::MethodRemoved);
    for m in ["initialize", "ping", "notifications/initialized"] {
        assert!(
            removed.contains(m),
            "2025-11-25 → 2026-07-28 should remove {m}: {removed:?}"
        );
    }
    let added = subjects(&d, ChangeKind::MethodAdded);
    for m in ["server/discover", "subscriptions/listen"] {
        assert!(
            added.contains(m),
            "2025-11-25 → 2026-07-28 should add {m}: {added:?}"
        );
    }
    // Every server→client JSON-RPC request of 2025-11-25 is gone: removed, or carried
    // inside InputRequiredResult from 2026-07-28 on.
    let carried = subjects(&d, ChangeKind::MethodCarrierChanged);
    for m in old
        .methods
        .iter()
        .filter(|m| m.via.iter().any(|v| v == "ServerRequest"))
    {
        assert!(
            removed.contains(&m.method) || carried.contains(&m.method),
            "{} should no longer be a server→client JSON-RPC request",
            m.method
        );
    }
    // A removed method breaks older senders; breakage classes are all used somewhere.
    assert!(
        d.changes
            .iter()
            .any(|c| c.kind == ChangeKind::MethodRemoved && c.breaks == Breaks::OlderSender)
    );
    let d = diff(&model(&ms, "2026-07-28"), &model(&ms, "draft"));
    assert!(
        d.changes.is_empty(),
        "draft equals 2026-07-28 at this snapshot"
    );
}

#[test]
fn markdown_report_has_summary_and_legend() {
    let ms = models();
    let d = diff(&model(&ms, "2024-11-05"), &model(&ms, "2025-03-26"));
    let md = d.markdown(false);
    assert!(md.starts_with("# MCP schema changes: 2024-11-05 → 2025-03-26"));
    assert!(md.contains("| breaks | changes |") && md.contains("## Legend"));
    let (by_kind, by_breaks) = d.counts();
    assert_eq!(by_kind.values().sum::<usize>(), d.changes.len());
    assert_eq!(by_breaks.values().sum::<usize>(), d.changes.len());
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json["format"], 1);
}

/// The checked-in reports cover each consecutive pair of released versions and the
/// latest released → draft; the JSON is the documented format; the matrix lists every
/// method of every version.
#[test]
fn checked_in_reports() {
    let ms = models();
    let dir = root().join("generated/diffs");
    for pair in [
        "2024-11-05..2025-03-26",
        "2025-03-26..2025-06-18",
        "2025-06-18..2025-11-25",
        "2025-11-25..2026-07-28",
        "2026-07-28..draft",
    ] {
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{pair}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(json["format"], 1, "{pair}");
        let (old, new) = pair.split_once("..").unwrap();
        assert_eq!(
            (json["old"].as_str(), json["new"].as_str()),
            (Some(old), Some(new))
        );
        let d = diff(&model(&ms, old), &model(&ms, new));
        assert_eq!(
            json["changes"].as_array().unwrap().len(),
            d.changes.len(),
            "{pair}"
        );
        assert!(dir.join(format!("{pair}.md")).is_file());
    }
    let matrix = std::fs::read_to_string(root().join("generated/COMPATIBILITY.md")).unwrap();
    for m in &ms {
        for method in &m.methods {
            assert!(
                matrix.contains(&format!("| `{}` |", method.method)),
                "{}",
                method.method
            );
        }
    }
}

/// Each change names the sides whose messages carry it, from the method directions.
#[test]
fn changes_name_the_sides_that_send_them() {
    let ms = models();
    let d = diff(&model(&ms, "2025-11-25"), &model(&ms, "2026-07-28"));
    let sent_by = |subject: &str| -> Vec<String> {
        d.changes
            .iter()
            .find(|c| c.subject == subject)
            .map(|c| c.sent_by.clone())
            .unwrap_or_default()
    };
    assert_eq!(sent_by("initialize"), ["client"]);
    assert_eq!(sent_by("ping"), ["client", "server"]);
    assert_eq!(sent_by("notifications/elicitation/complete"), ["server"]);
    // ServerCapabilities travels only in results the server sends.
    let caps: Vec<_> = d
        .changes
        .iter()
        .filter(|c| c.subject.starts_with("ServerCapabilities."))
        .collect();
    assert!(!caps.is_empty());
    for c in caps {
        assert_eq!(c.sent_by, ["server"], "{c:?}");
    }
}
