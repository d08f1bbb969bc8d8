//! `compat::Fits` on the vendored versions: which values of one version's types fit
//! another's, and what it says where they need not. Each case is a fact of the
//! specification that can be checked by reading the two schemas.

use std::collections::BTreeMap;
use std::path::Path;

use mcp_codegen::compat::Fits;
use mcp_codegen::model::Model;
use mcp_codegen::{model_of, workspace};

fn models() -> BTreeMap<String, Model> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    workspace::inputs(root)
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|i| {
            (
                i.version.clone(),
                model_of(i).unwrap_or_else(|e| panic!("{e}")),
            )
        })
        .collect()
}

/// `Ok` or the misfit's text, from `from`'s definition `a` to `to`'s definition `b`.
fn fits(
    models: &BTreeMap<String, Model>,
    from: &str,
    a: &str,
    to: &str,
    b: &str,
) -> Result<(), String> {
    Fits::new(&models[from], &models[to])
        .named(a, b)
        .map_err(|m| m.to_string())
}

#[test]
fn a_type_fits_itself_in_its_own_version() {
    let models = models();
    for (version, model) in &models {
        let mut fits = Fits::new(model, model);
        for t in &model.types {
            assert_eq!(fits.named(&t.name, &t.name), Ok(()), "{version} {}", t.name);
        }
    }
}

#[test]
fn facts_between_the_released_versions() {
    let m = models();
    // Renamed, same properties: both ways.
    assert_eq!(
        fits(
            &m,
            "2025-06-18",
            "ListToolsRequestParams",
            "2025-11-25",
            "PaginatedRequestParams"
        ),
        Ok(())
    );
    assert_eq!(
        fits(
            &m,
            "2025-11-25",
            "PaginatedRequestParams",
            "2025-06-18",
            "ListToolsRequestParams"
        ),
        Ok(())
    );
    // 2025-06-18 added `resource_link` to content blocks: old content fits the new
    // union, new content need not fit the old.
    assert_eq!(
        fits(
            &m,
            "2025-03-26",
            "CallToolResult",
            "2025-06-18",
            "CallToolResult"
        ),
        Ok(())
    );
    assert_eq!(
        fits(
            &m,
            "2025-06-18",
            "CallToolResult",
            "2025-03-26",
            "CallToolResult"
        ),
        Err("at .content[]|ResourceLink: no arm takes ResourceLink".into())
    );
    // 2025-11-25 made `Tool.icons`, optional, and more: a 2025-06-18 tool is a
    // 2025-11-25 tool.
    assert_eq!(fits(&m, "2025-06-18", "Tool", "2025-11-25", "Tool"), Ok(()));
    // 2025-11-25's capabilities object for elicitation: an older `{string: any}` need
    // not fit it, as it may hold a `form` that is not an object; the newer object is a
    // `{string: any}`.
    assert_eq!(
        fits(
            &m,
            "2025-06-18",
            "ClientCapabilities",
            "2025-11-25",
            "ClientCapabilities"
        ),
        Err("at .elicitation.form: any does not fit {string: any}".into())
    );
    assert_eq!(
        fits(
            &m,
            "2025-11-25",
            "ClientCapabilities",
            "2025-06-18",
            "ClientCapabilities"
        ),
        Ok(())
    );
    // 2026-07-28 gives results a typed `_meta` (and requires `resultType`): an older
    // result's `{string: any}` need not fit it, as it may hold a `serverInfo` of another
    // shape.
    assert_eq!(
        fits(
            &m,
            "2025-11-25",
            "ListToolsResult",
            "2026-07-28",
            "ListToolsResult"
        ),
        Err("at ._meta.io.modelcontextprotocol/serverInfo: any does not fit Implementation".into())
    );
    // A value that only some arms take: an integer id fits `RequestId` (string or integer).
    assert_eq!(
        fits(&m, "2025-11-25", "RequestId", "2026-07-28", "RequestId"),
        Ok(())
    );
}

#[test]
fn the_logging_levels_are_the_same_values_in_every_version() {
    let m = models();
    let versions: Vec<&String> = m.keys().collect();
    for a in &versions {
        for b in &versions {
            assert_eq!(
                fits(&m, a, "LoggingLevel", b, "LoggingLevel"),
                Ok(()),
                "{a} → {b}"
            );
        }
    }
}
