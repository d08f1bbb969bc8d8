//! `cargo xtask fetch` and `cargo xtask drift` against an HTTP server on 127.0.0.1 that
//! plays GitHub (commits and trees API, raw downloads) or a static mirror, and misbehaves
//! on purpose: 404, 500, a body cut short, a body that is not JSON or not a schema, a
//! server that never answers, a port where nobody listens. Every failure must leave the
//! workspace byte-for-byte as it was and say what went wrong.

mod common;

use std::collections::BTreeMap;

use common::*;
use mcp_codegen::workspace::{read_lock, tree_digest};

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

fn history(version: &str, n: usize) -> Vec<u8> {
    nth_file(&repo().join("xtask/tests/history").join(version), n)
}

/// The `n`th file of `dir`, by name.
fn nth_file(dir: &std::path::Path, n: usize) -> Vec<u8> {
    std::fs::read(&sorted_files(dir)[n]).unwrap()
}

/// `drift` finds `expected` and nothing about the versions.
fn no_drift_but(root: &std::path::Path, vars: &[(&str, &str)], expected: &str) {
    let run = xtask(root, &["drift"], vars);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(expected), "{}", run.stdout);
    assert!(
        run.stdout.contains("2025-06-18: unchanged"),
        "{}",
        run.stdout
    );
}

/// `drift` finds nothing: every version and extension matches the fake upstream.
fn no_drift(root: &std::path::Path, vars: &[(&str, &str)]) {
    let again = xtask(root, &["drift"], vars);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(
        again
            .stdout
            .contains("no drift: 6 versions and 2 extensions match upstream"),
        "{}",
        again.stdout
    );
}

fn env<'a>(pairs: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    pairs.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[test]
fn github_fetch_takes_a_changed_schema_and_examples_and_drift_sees_it_first() {
    let root = scratch("github_fetch");
    let mut upstream = vendored_upstream();
    // Upstream "changes" 2025-06-18 back to its first published revision, and adds an
    // example to 2026-07-28.
    upstream.insert("2025-06-18/schema.json".into(), history("2025-06-18", 0));
    let mut ts = upstream["2025-11-25/schema.ts"].clone();
    ts.extend_from_slice(b"\n/** @deprecated Gone. */\nexport interface Gone {}\n");
    upstream.insert("2025-11-25/schema.ts".into(), ts.clone());
    upstream.insert(
        "2026-07-28/examples/Tool/extra-tool.json".into(),
        br#"{"name":"extra","inputSchema":{"type":"object"}}"#.to_vec(),
    );
    let server = Server::start();
    let vars = fake_github(&server, "main", SHA, "2026-09-01", &upstream);
    let vars = env(&vars);

    let before = snapshot(&root);
    let drift = xtask(&root, &["drift"], &vars);
    assert_eq!(
        drift.code, 1,
        "drift must fail: {}{}",
        drift.stdout, drift.stderr
    );
    assert!(
        drift.stdout.contains("2024-11-05: unchanged"),
        "{}",
        drift.stdout
    );
    assert!(
        drift.stdout.contains("2025-06-18: schema changed"),
        "{}",
        drift.stdout
    );
    assert!(
        drift.stdout.contains("definitions changed: NumberSchema"),
        "{}",
        drift.stdout
    );
    assert!(
        drift
            .stdout
            .contains("examples: 1 added, 0 removed, 0 changed"),
        "{}",
        drift.stdout
    );
    assert!(
        drift
            .stdout
            .contains("2025-11-25: schema unchanged\n  schema.ts differs: 0 → 1 @deprecated tags"),
        "{}",
        drift.stdout
    );
    assert_eq!(snapshot(&root), before, "drift must not write");
    println!("drift against fake GitHub: {:?}", drift.elapsed);

    let fetch = xtask(&root, &["fetch"], &vars);
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    assert!(
        fetch
            .stdout
            .contains("updated schema/2025-06-18/, schema/2025-11-25/, schema/2026-07-28/"),
        "{}",
        fetch.stdout
    );
    let after = snapshot(&root);
    assert_eq!(
        after["schema/2025-06-18/schema.json"],
        history("2025-06-18", 0)
    );
    assert!(after.contains_key("schema/2026-07-28/examples/Tool/extra-tool.json"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(
        changed,
        [
            "schema/2025-06-18/schema.json",
            "schema/2025-11-25/schema.ts",
            "schema/2026-07-28/examples/Tool/extra-tool.json",
            "schema/lock.json"
        ],
        "only the changed files are written"
    );
    assert!(
        after.keys().all(|k| !k.contains('~')),
        "no temporary file is left behind"
    );

    let lock = read_lock(&root).unwrap();
    let e = lock.get("2025-06-18").unwrap();
    assert_eq!(
        (e.reference.as_str(), e.ref_date.as_str()),
        (SHA, "2026-09-01")
    );
    assert_eq!(e.repository, "modelcontextprotocol/modelcontextprotocol");
    assert_eq!(e.sha256, mcp_codegen::sha256_hex(&history("2025-06-18", 0)));
    assert_eq!(after["schema/2025-11-25/schema.ts"], ts);
    assert_eq!(
        lock.get("2025-11-25").unwrap().ts_sha256.as_deref(),
        Some(mcp_codegen::sha256_hex(&ts).as_str())
    );
    let e = lock.get("2026-07-28").unwrap();
    let examples: BTreeMap<String, Vec<u8>> = after
        .iter()
        .filter_map(|(k, v)| {
            Some((
                k.strip_prefix("schema/2026-07-28/examples/")?.to_string(),
                v.clone(),
            ))
        })
        .collect();
    assert_eq!(
        e.examples_sha256.as_deref(),
        Some(tree_digest(&examples).as_str())
    );
    assert_eq!(
        lock.get("2024-11-05").unwrap().reference,
        "b0f60ba5",
        "unchanged entries keep their provenance"
    );
    mcp_codegen::workspace::inputs(&root).expect("the lock matches the files after fetch");

    no_drift(&root, &vars);
    let refetch = xtask(&root, &["fetch"], &vars);
    assert!(
        refetch.stdout.contains("nothing to update"),
        "{}",
        refetch.stdout
    );
    assert_eq!(snapshot(&root), after);
}

#[test]
fn drift_and_fetch_all_see_a_version_upstream_has_and_we_do_not() {
    let root = scratch("new_version");
    let mut upstream = vendored_upstream();
    upstream.insert(
        "2027-01-15/schema.json".into(),
        std::fs::read(repo().join("schema/draft/schema.json")).unwrap(),
    );
    let server = Server::start();
    let vars = fake_github(&server, "main", SHA, "2027-01-15", &upstream);
    let vars = env(&vars);
    let drift = xtask(&root, &["drift"], &vars);
    assert_eq!(drift.code, 1);
    assert!(
        drift
            .stdout
            .contains("2027-01-15: new version upstream, not vendored"),
        "{}",
        drift.stdout
    );
    let fetch = xtask(&root, &["fetch", "--all"], &vars);
    assert_eq!(fetch.code, 0, "{}", fetch.stderr);
    let lock = read_lock(&root).unwrap();
    let order: Vec<&str> = lock.versions.iter().map(|e| e.version.as_str()).collect();
    assert_eq!(
        order,
        [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28",
            "2027-01-15",
            "draft"
        ]
    );
    assert!(root.join("schema/2027-01-15/schema.json").is_file());
}

#[test]
fn a_static_mirror_with_a_ref_and_an_examples_index() {
    let root = scratch("mirror");
    let server = Server::start();
    let upstream = vendored_upstream();
    let mut index = String::new();
    for (rel, bytes) in &upstream {
        let mirrored = format!("/mirror/v9/{rel}");
        server.ok(&mirrored, bytes.clone());
        if let Some(ex) = rel.strip_prefix("2026-07-28/examples/") {
            if !ex.starts_with("Tool/") {
                index.push_str(&format!("./{ex}\n"));
            }
        }
    }
    server.ok(
        "/mirror/v9/2025-11-25/schema.json",
        history("2025-11-25", 1),
    );
    server.ok("/mirror/v9/2026-07-28/examples/index.txt", index);
    let mut ts = upstream["2025-11-25/schema.ts"].clone();
    ts.extend_from_slice(b"\n// mirrored\n");
    server.ok("/mirror/v9/2025-11-25/schema.ts", ts.clone());
    let from = format!("{}/mirror/{{ref}}", server.base);
    let before = snapshot(&root);
    let fetch = xtask(
        &root,
        &[
            "fetch",
            "2025-11-25",
            "2026-07-28",
            "--from",
            &from,
            "--ref",
            "v9",
        ],
        &[],
    );
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    assert!(
        fetch.stdout.contains("2025-11-25: schema changed"),
        "{}",
        fetch.stdout
    );
    let removed = before
        .keys()
        .filter(|k| k.starts_with("schema/2026-07-28/examples/Tool/"))
        .count();
    assert!(removed > 0);
    assert!(
        fetch
            .stdout
            .contains(&format!("examples: 0 added, {removed} removed, 0 changed")),
        "{}",
        fetch.stdout
    );
    assert!(
        fetch
            .stdout
            .contains("schema.ts differs: 0 → 0 @deprecated tags"),
        "{}",
        fetch.stdout
    );
    assert_eq!(snapshot(&root)["schema/2025-11-25/schema.ts"], ts);
    let lock = read_lock(&root).unwrap();
    let e = lock.get("2025-11-25").unwrap();
    assert_eq!(
        (e.repository.as_str(), e.reference.as_str()),
        (from.as_str(), "v9")
    );
    assert_eq!(
        e.ts_sha256.as_deref(),
        Some(mcp_codegen::sha256_hex(&ts).as_str())
    );
    mcp_codegen::workspace::inputs(&root).expect("lock and files agree");
    // Without an index the examples are kept, and the mirror cannot list versions.
    let all = xtask(
        &root,
        &["fetch", "--all", "--from", &from, "--ref", "v9"],
        &[],
    );
    assert_eq!(all.code, 2);
    assert!(
        all.stderr
            .contains("--all needs a source that can list its versions"),
        "{}",
        all.stderr
    );
}

/// Every way a download can go wrong: exit 2, a message that names the cause, and not one
/// byte changed under the workspace.
#[test]
fn failures_change_nothing_on_disk() {
    let server = Server::start();
    let good = history("2025-06-18", 0);
    let cut = good[..good.len() / 2].to_vec();
    let cases: Vec<(&str, Reply, &str)> = vec![
        (
            "404",
            Reply::Body(404, b"404: Not Found".to_vec()),
            "upstream has no 2025-06-18/schema.json",
        ),
        ("500", Reply::Body(500, b"oops".to_vec()), "HTTP 500"),
        (
            "body cut short",
            Reply::Truncated(good.clone()),
            "reading the body",
        ),
        ("truncated JSON", Reply::Body(200, cut), "not valid JSON"),
        (
            "HTML instead of JSON",
            Reply::Body(200, b"<html><body>rate limited</body></html>".to_vec()),
            "not valid JSON",
        ),
        (
            "empty body",
            Reply::Body(200, Vec::new()),
            "the file is empty",
        ),
        (
            "unknown dialect",
            Reply::Body(
                200,
                br#"{"$schema":"https://json-schema.org/draft/2019-09/schema","$defs":{}}"#
                    .to_vec(),
            ),
            "unknown dialect",
        ),
        (
            "not a schema",
            Reply::Body(200, br#"[1,2,3]"#.to_vec()),
            "not a JSON object",
        ),
        (
            "server never answers",
            Reply::Hang,
            "timed out (see --timeout)",
        ),
        (
            "server stalls mid-body",
            Reply::Stall(good.clone()),
            "timed out reading the body (see --timeout)",
        ),
    ];
    let mut covered = 0;
    for (i, (what, reply, expect)) in cases.into_iter().enumerate() {
        let root = scratch(&format!("failure_{i}"));
        let before = snapshot(&root);
        let mut upstream = vendored_upstream();
        upstream.insert("2025-06-18/schema.json".into(), good.clone());
        let sha = format!("{i:040}");
        let vars = fake_github(&server, &format!("case{i}"), &sha, "2026-09-01", &upstream);
        // 2024-11-05 comes first and is fine: its good download must not be written either.
        upstream.insert("2024-11-05/schema.json".into(), history("2024-11-05", 0));
        server.ok(
            &format!(
                "/raw/modelcontextprotocol/modelcontextprotocol/{sha}/schema/2024-11-05/schema.json"
            ),
            history("2024-11-05", 0),
        );
        server.route(
            &format!(
                "/raw/modelcontextprotocol/modelcontextprotocol/{sha}/schema/2025-06-18/schema.json"
            ),
            reply,
        );
        let vars = env(&vars);
        for command in [&["fetch", "2024-11-05", "2025-06-18"][..], &["drift"][..]] {
            let mut args = command.to_vec();
            let reference = format!("case{i}");
            args.extend(["--ref", &reference]);
            args.extend(["--timeout", "2"]);
            let run = xtask(&root, &args, &vars);
            if what == "404" && command[0] == "drift" {
                // For drift a vendored version that upstream lacks is drift, not an error.
                assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
                assert!(
                    run.stdout.contains("2025-06-18: not found upstream"),
                    "{}",
                    run.stdout
                );
                assert_eq!(snapshot(&root), before);
                covered += 1;
                continue;
            }
            assert_eq!(
                run.code, 2,
                "{what} / {command:?}: exit code\n{}{}",
                run.stdout, run.stderr
            );
            assert!(
                run.stderr.contains(expect) || run.stdout.contains(expect) && command[0] == "drift",
                "{what} / {command:?}: expected `{expect}` in\n{}{}",
                run.stdout,
                run.stderr
            );
            assert_eq!(
                snapshot(&root),
                before,
                "{what} / {command:?}: the workspace changed"
            );
            assert!(run.elapsed.as_secs() < 20, "{what}: took {:?}", run.elapsed);
            println!(
                "{what} / {}: exit 2 in {:?}: {}",
                command[0],
                run.elapsed,
                run.stderr.trim()
            );
            covered += 1;
        }
    }
    // No server at all: the port is closed.
    let root = scratch("failure_refused");
    let before = snapshot(&root);
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let api = format!("http://127.0.0.1:{closed}/api");
    let run = xtask(
        &root,
        &["fetch"],
        &[("MCP_UPSTREAM_API", &api), ("MCP_UPSTREAM_RAW", &api)],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("Connection refused") || run.stderr.contains("connection refused"),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot(&root), before);
    covered += 1;
    // An unknown ref, and an example that is not JSON.
    let root = scratch("failure_example");
    let mut upstream = vendored_upstream();
    upstream.insert(
        "2026-07-28/examples/Tool/broken.json".into(),
        b"{\"name\":".to_vec(),
    );
    let vars = fake_github(
        &server,
        "broken-example",
        &"e".repeat(40),
        "2026-09-01",
        &upstream,
    );
    let run = xtask(&root, &["fetch", "--ref", "broken-example"], &env(&vars));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("refusing upstream 2026-07-28/examples/Tool/broken.json"),
        "{}",
        run.stderr
    );
    let mut upstream = vendored_upstream();
    upstream.insert("2025-06-18/schema.ts".into(), b"export \xff {}".to_vec());
    let vars = fake_github(
        &server,
        "binary-ts",
        &"f".repeat(40),
        "2026-09-01",
        &upstream,
    );
    let run = xtask(&root, &["fetch", "--ref", "binary-ts"], &env(&vars));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("refusing upstream 2025-06-18/schema.ts: not UTF-8"),
        "{}",
        run.stderr
    );
    let run = xtask(&root, &["fetch", "--ref", "no-such-branch"], &env(&vars));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("has no ref `no-such-branch`"),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot(&root), snapshot(&scratch("pristine")));
    covered += 4;
    println!("{covered} failure runs, each leaving the workspace unchanged");
}

/// `schema.ts` travels with `schema.json`: a workspace without it takes it from a local
/// folder and locks it; a change only to the TypeScript is drift and is fetched; a
/// TypeScript upstream dropped is removed; one that is not text is refused.
#[test]
fn schema_ts_is_fetched_locked_and_its_changes_are_drift() {
    let root = scratch("schema_ts");
    let upstream = root.join("upstream");
    copy_tree(&repo().join("schema"), &upstream);
    std::fs::remove_file(upstream.join("lock.json")).unwrap();
    let from = upstream.to_str().unwrap();
    let versions = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
        "draft",
    ];

    // A workspace from before schema.ts was vendored: `lock` drops the keys.
    for v in versions {
        std::fs::remove_file(root.join(format!("schema/{v}/schema.ts"))).unwrap();
    }
    let lock = xtask(&root, &["lock"], &[]);
    assert_eq!(lock.code, 0, "{}", lock.stderr);
    assert!(
        lock.stdout
            .contains("schema/draft/schema.ts: gone, dropped from the lock"),
        "{}",
        lock.stdout
    );
    let locked = read_lock(&root).unwrap();
    assert!(
        locked
            .versions
            .iter()
            .all(|e| e.ts.is_none() && e.ts_sha256.is_none())
    );
    let inputs = mcp_codegen::workspace::inputs(&root).unwrap();
    assert!(inputs.iter().all(|i| i.ts.is_none()));

    // Upstream has schema.ts for every version: drift says so, fetch writes and locks them.
    let before = snapshot(&root.join("schema"));
    let drift = xtask(&root, &["drift", "--from", from], &[]);
    assert_eq!(drift.code, 1, "{}{}", drift.stdout, drift.stderr);
    assert_eq!(
        drift.stdout.matches("schema.ts: new upstream").count(),
        6,
        "{}",
        drift.stdout
    );
    assert!(
        drift
            .stdout
            .contains("draft: schema unchanged\n  schema.ts: new upstream, 21 @deprecated tags"),
        "{}",
        drift.stdout
    );
    assert_eq!(
        snapshot(&root.join("schema")),
        before,
        "drift must not write"
    );
    let fetch = xtask(&root, &["fetch", "--from", from], &[]);
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    let after = snapshot(&root.join("schema"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    let mut expected: Vec<String> = versions.iter().map(|v| format!("{v}/schema.ts")).collect();
    expected.push("lock.json".into());
    assert_eq!(changed, expected.iter().collect::<Vec<_>>());
    let locked = read_lock(&root).unwrap();
    for v in versions {
        let bytes = std::fs::read(repo().join(format!("schema/{v}/schema.ts"))).unwrap();
        assert_eq!(after[&format!("{v}/schema.ts")], bytes);
        let e = locked.get(v).unwrap();
        assert_eq!(
            e.ts.as_deref(),
            Some(format!("schema/{v}/schema.ts").as_str())
        );
        assert_eq!(
            e.ts_sha256.as_deref(),
            Some(mcp_codegen::sha256_hex(&bytes).as_str())
        );
    }
    let inputs = mcp_codegen::workspace::inputs(&root).expect("lock and files agree");
    let draft = inputs.iter().find(|i| i.version == "draft").unwrap();
    assert!(draft.ts.as_deref().unwrap().contains("@deprecated"));
    assert!(draft.examples.keys().any(|k| k.starts_with("Tool/")));

    // Only the TypeScript changes upstream: drift, then fetch takes that one file.
    let ts_path = upstream.join("draft/schema.ts");
    let mut ts = std::fs::read_to_string(&ts_path).unwrap();
    ts.push_str("\n/** @deprecated Use nothing. */\nexport interface Gone {}\n");
    std::fs::write(&ts_path, &ts).unwrap();
    let before = snapshot(&root.join("schema"));
    let drift = xtask(&root, &["drift", "--from", from], &[]);
    assert_eq!(drift.code, 1, "{}{}", drift.stdout, drift.stderr);
    assert!(
        drift
            .stdout
            .contains("draft: schema unchanged\n  schema.ts differs: 21 → 22 @deprecated tags"),
        "{}",
        drift.stdout
    );
    assert_eq!(
        drift.stdout.matches(": unchanged").count(),
        5,
        "{}",
        drift.stdout
    );
    assert!(drift.stdout.contains("drift in draft:"), "{}", drift.stdout);
    assert_eq!(
        snapshot(&root.join("schema")),
        before,
        "drift must not write"
    );
    let fetch = xtask(&root, &["fetch", "--from", from], &[]);
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    assert!(
        fetch.stdout.contains("updated schema/draft/ and"),
        "{}",
        fetch.stdout
    );
    let after = snapshot(&root.join("schema"));
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(changed, ["draft/schema.ts", "lock.json"]);
    assert_eq!(after["draft/schema.ts"], ts.as_bytes());
    assert_eq!(
        read_lock(&root)
            .unwrap()
            .get("draft")
            .unwrap()
            .ts_sha256
            .as_deref(),
        Some(mcp_codegen::sha256_hex(ts.as_bytes()).as_str())
    );
    let inputs = mcp_codegen::workspace::inputs(&root).unwrap();
    let draft = inputs.iter().find(|i| i.version == "draft").unwrap();
    assert_eq!(draft.ts.as_deref(), Some(ts.as_str()));
    let again = xtask(&root, &["drift", "--from", from], &[]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);

    // Upstream drops a version's schema.ts: drift names it, fetch removes it and its keys.
    std::fs::remove_file(upstream.join("2024-11-05/schema.ts")).unwrap();
    let drift = xtask(&root, &["drift", "--from", from], &[]);
    assert_eq!(drift.code, 1, "{}{}", drift.stdout, drift.stderr);
    assert!(
        drift.stdout.contains("  schema.ts: upstream has none"),
        "{}",
        drift.stdout
    );
    let fetch = xtask(&root, &["fetch", "2024-11-05", "--from", from], &[]);
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    assert!(!root.join("schema/2024-11-05/schema.ts").exists());
    let e = read_lock(&root)
        .unwrap()
        .get("2024-11-05")
        .cloned()
        .unwrap();
    assert_eq!((e.ts, e.ts_sha256), (None, None));
    mcp_codegen::workspace::inputs(&root).expect("lock and files agree");

    // A schema.ts that is not UTF-8 is refused before anything is written.
    std::fs::write(
        upstream.join("2025-03-26/schema.ts"),
        b"export \xff\xfe {}\n",
    )
    .unwrap();
    let before = snapshot(&root.join("schema"));
    let fetch = xtask(&root, &["fetch", "--from", from], &[]);
    assert_eq!(fetch.code, 2, "{}{}", fetch.stdout, fetch.stderr);
    assert!(
        fetch
            .stderr
            .contains("refusing upstream 2025-03-26/schema.ts: not UTF-8"),
        "{}",
        fetch.stderr
    );
    assert_eq!(snapshot(&root.join("schema")), before);

    // So is one the generator cannot read (a doc comment that never ends).
    std::fs::write(
        upstream.join("2025-03-26/schema.ts"),
        "/** never closed\nexport interface A {}\n",
    )
    .unwrap();
    let fetch = xtask(&root, &["fetch", "--from", from], &[]);
    assert_eq!(fetch.code, 2, "{}{}", fetch.stdout, fetch.stderr);
    assert!(
        fetch
            .stderr
            .contains("refusing upstream 2025-03-26/schema.ts: line 1: a comment never ends"),
        "{}",
        fetch.stderr
    );
    assert_eq!(snapshot(&root.join("schema")), before);
}

/// The official extensions are drift and fetched from their own repositories, each from
/// the folder its lock entry names: the tasks extension from `schema/draft/` of
/// `modelcontextprotocol/ext-tasks`, the server card from the top of its repository. A
/// changed schema keeps the old revisions and adds the new one to the extension's history.
#[test]
fn extensions_come_from_their_own_repositories() {
    let root = scratch("extensions");
    let tasks_history = |n: usize| nth_file(&repo().join("schema/ext/tasks/history"), n);
    let mut upstream = vendored_upstream();
    // Upstream "changes" the tasks extension back to its second revision, and adds an
    // invalid card to the server card's examples.
    upstream.insert("ext/tasks/draft/schema.json".into(), tasks_history(1));
    upstream.insert(
        "ext/server-card/examples/ServerCard/invalid/no-version.json".into(),
        br#"{"name": "io.example/x"}"#.to_vec(),
    );
    let server = Server::start();
    let vars = fake_github(&server, "main", SHA, "2026-09-01", &upstream);
    let vars = env(&vars);
    let before = snapshot(&root);

    let drift = xtask(&root, &["drift"], &vars);
    assert_eq!(drift.code, 1, "{}{}", drift.stdout, drift.stderr);
    for expected in [
        "2026-07-28: unchanged",
        "source of the tasks extension: modelcontextprotocol/ext-tasks at 0123456789abcdef",
        "tasks: schema changed",
        "server-card: schema unchanged\n  examples: 1 added, 0 removed, 0 changed",
        "drift in tasks, server-card: run `cargo xtask fetch --ext tasks --ext server-card`",
    ] {
        assert!(
            drift.stdout.contains(expected),
            "{expected}\n{}",
            drift.stdout
        );
    }
    assert_eq!(snapshot(&root), before, "drift must not write");
    let one = xtask(&root, &["drift", "--ext", "tasks"], &vars);
    assert_eq!(one.code, 1, "{}{}", one.stdout, one.stderr);
    assert!(!one.stdout.contains("2026-07-28"), "{}", one.stdout);
    assert!(!one.stdout.contains("server-card"), "{}", one.stdout);
    let unknown = xtask(&root, &["drift", "--ext", "apps"], &vars);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .contains("no extension `apps` in schema/lock.json (it has: tasks, server-card)"),
        "{}",
        unknown.stderr
    );

    let fetch = xtask(&root, &["fetch"], &vars);
    assert_eq!(fetch.code, 0, "{}{}", fetch.stdout, fetch.stderr);
    let after = snapshot(&root);
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(
        changed,
        [
            "schema/ext/server-card/examples/ServerCard/invalid/no-version.json",
            "schema/ext/tasks/draft/schema.json",
            "schema/ext/tasks/history/004-2026-09-01-0123456.json",
            "schema/lock.json",
        ]
    );
    assert_eq!(
        after["schema/ext/tasks/history/004-2026-09-01-0123456.json"],
        tasks_history(1)
    );
    let lock = read_lock(&root).unwrap();
    let tasks = &lock.extensions[0];
    assert_eq!(
        (
            tasks.version.as_str(),
            tasks.repository.as_str(),
            tasks.upstream.as_deref(),
            tasks.reference.as_str(),
            tasks.ref_date.as_str()
        ),
        (
            "tasks",
            "modelcontextprotocol/ext-tasks",
            Some("schema/draft"),
            SHA,
            "2026-09-01"
        )
    );
    assert_eq!(tasks.sha256, mcp_codegen::sha256_hex(&tasks_history(1)));
    assert_eq!(lock.get("2025-06-18").unwrap().reference, "b0f60ba5");
    mcp_codegen::workspace::extension_inputs(&root).expect("the lock matches the files");
    no_drift(&root, &vars);

    // From a checkout of the extension's repository: its folder is found inside it.
    let checkout = scratch("extensions_checkout").join("ext-tasks");
    let draft = checkout.join("schema/draft");
    std::fs::create_dir_all(&draft).unwrap();
    std::fs::copy(
        repo().join("schema/ext/tasks/draft/schema.json"),
        draft.join("schema.json"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("schema/ext/tasks/draft/schema.ts"),
        draft.join("schema.ts"),
    )
    .unwrap();
    let checkout = checkout.to_string_lossy().to_string();
    let local = xtask(
        &root,
        &["fetch", "--ext", "tasks", "--from", &checkout],
        &[],
    );
    assert_eq!(local.code, 0, "{}{}", local.stdout, local.stderr);
    assert_eq!(
        snapshot(&root)["schema/ext/tasks/draft/schema.json"],
        std::fs::read(repo().join("schema/ext/tasks/draft/schema.json")).unwrap()
    );
    let lock = read_lock(&root).unwrap();
    assert_eq!(
        (
            lock.extensions[0].repository.as_str(),
            lock.extensions[0].reference.as_str()
        ),
        ("modelcontextprotocol/ext-tasks", "local"),
        "the lock keeps where the extension lives; the ref says what was read"
    );
    // The next plain drift still reads each extension from its repository.
    no_drift_but(&root, &vars, "tasks: schema changed");
    // One checkout is one repository's: two extensions from one --from are refused.
    let two = xtask(
        &root,
        &[
            "drift",
            "--ext",
            "tasks",
            "--ext",
            "server-card",
            "--from",
            &checkout,
        ],
        &[],
    );
    assert_eq!(two.code, 2, "{}{}", two.stdout, two.stderr);
    assert!(
        two.stderr.contains("give one --ext with them"),
        "{}",
        two.stderr
    );
    assert!(
        root.join("schema/ext/tasks/history")
            .read_dir()
            .unwrap()
            .count()
            == 5
    );
}
