//! The `mcp-codegen` command as a user runs it: `generate --schema FILE --out DIR` writes
//! only inside DIR, with a manifest of its own files; `--check` says whether DIR holds
//! what would be written; a file the command did not write is never overwritten or
//! removed; a file it no longer generates is removed only if unchanged since.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
}

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ok/keywords.json")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// `generate --schema <the keywords schema> --out <out>`, then `extra`.
fn generate(out: &Path, extra: &[&str]) -> Output {
    let schema = schema();
    let mut args = vec![
        "generate",
        "--schema",
        schema.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    run(&args)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn generate_writes_a_module_and_its_manifest_and_check_agrees() {
    let dir = scratch("generate");
    let out = dir.join("mcp");
    let schema = schema();
    let args = [
        "generate",
        "--schema",
        schema.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    // A schema that is not MCP's: types (and its constants), no methods or handlers.
    assert_eq!(names(&out), [".mcp-codegen.json", "consts.rs", "mod.rs"]);
    let module = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    let header = module.lines().next().unwrap();
    assert!(
        header.contains("`mcp-codegen generate --schema "),
        "{header}"
    );
    assert!(
        header.contains(concat!("(mcp-codegen ", env!("CARGO_PKG_VERSION"), ")")),
        "{header}"
    );
    assert!(
        module.contains("::mcp_spec_rt::CODEGEN_INTERFACE"),
        "no runtime check"
    );
    assert!(
        !module.contains("crate::rt::"),
        "the repository's runtime path leaked"
    );

    // Fresh: --check exits 0 (its own flag is not part of the command in the headers).
    let check: Vec<&str> = args.iter().copied().chain(["--check"]).collect();
    let o = run(&check);
    assert!(o.status.success(), "{}", text(&o));

    // The options in another order are the same command.
    let a = generate(
        &out,
        &[
            "--derive",
            "Hash",
            "--map-type",
            "::std::collections::HashMap",
        ],
    );
    assert!(a.status.success(), "{}", text(&a));
    let b = generate(
        &out,
        &[
            "--map-type",
            "::std::collections::HashMap",
            "--check",
            "--derive",
            "Hash",
        ],
    );
    assert!(b.status.success(), "{}", text(&b));
    assert!(run(&args).status.success());

    // A file changed by hand: stale, exit 1, named.
    std::fs::write(out.join("consts.rs"), "// edited\n").unwrap();
    let o = run(&check);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("stale: consts.rs"), "{}", text(&o));
    // Generating again puts it back.
    assert!(run(&args).status.success());
    assert!(run(&check).status.success());
}

#[test]
fn a_file_the_command_did_not_write_is_never_overwritten() {
    let dir = scratch("foreign");
    let out = dir.join("mcp");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("mod.rs"), "// mine\n").unwrap();
    let o = generate(&out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("mod.rs already there and not written by the generator"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("mod.rs")).unwrap(),
        "// mine\n"
    );
    assert_eq!(names(&out), ["mod.rs"], "it wrote something");
}

#[test]
fn files_no_longer_generated_go_only_if_unchanged_and_others_stay() {
    let dir = scratch("orphans");
    let out = dir.join("out");
    let without_consts = ["--exclude", "Location"]; // its tags are the schema's only consts
    assert!(generate(&out, &[]).status.success());
    std::fs::write(out.join("notes.md"), "the user's own file\n").unwrap();
    // consts.rs changed by hand, then no longer generated: kept, and said so.
    std::fs::write(out.join("consts.rs"), "// edited\n").unwrap();
    let r = generate(&out, &without_consts);
    assert!(r.status.success(), "{}", text(&r));
    assert!(text(&r).contains("kept: consts.rs"), "{}", text(&r));
    assert_eq!(
        names(&out),
        [".mcp-codegen.json", "consts.rs", "mod.rs", "notes.md"]
    );
    // Generated again, it is the generator's again; no longer generated and unchanged: removed.
    assert!(generate(&out, &[]).status.success());
    let r = generate(&out, &without_consts);
    assert!(r.status.success(), "{}", text(&r));
    assert_eq!(names(&out), [".mcp-codegen.json", "mod.rs", "notes.md"]);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.md")).unwrap(),
        "the user's own file\n"
    );
    // Another version into the same folder replaces the module (the folder is the module).
    let r = generate(&out, &["--version", "other"]);
    assert!(r.status.success(), "{}", text(&r));
    assert!(
        std::fs::read_to_string(out.join("mod.rs"))
            .unwrap()
            .contains("`other`"),
        "the module is the other version's"
    );
}

/// Modules of one file each share a folder (as in `OUT_DIR`), each with its manifest;
/// a manifest that names a file outside the folder is refused, and nothing is touched.
#[test]
fn modules_of_one_file_share_a_folder_and_manifests_stay_inside_it() {
    let dir = scratch("one-file");
    let out = dir.join("out");
    for module in ["first", "second"] {
        let r = generate(&out, &["--layout", "file", "--module", module]);
        assert!(r.status.success(), "{}", text(&r));
    }
    assert_eq!(
        names(&out),
        [
            ".mcp-codegen.first.json",
            ".mcp-codegen.second.json",
            "first.rs",
            "second.rs"
        ]
    );
    let file = std::fs::read_to_string(out.join("first.rs")).unwrap();
    assert!(
        file.contains("pub mod first {"),
        "one file declares the module"
    );
    assert!(file.contains("pub mod consts {"), "its submodules inline");

    std::fs::write(dir.join("victim.rs"), "// not the generator's\n").unwrap();
    std::fs::write(
        out.join(".mcp-codegen.first.json"),
        r#"{"generator": "x", "files": {"../victim.rs": "00"}}"#,
    )
    .unwrap();
    let r = generate(&out, &["--layout", "file", "--module", "first"]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(
        text(&r).contains("it names `../victim.rs`, which is no file of the folder"),
        "{}",
        text(&r)
    );
    assert!(dir.join("victim.rs").exists());
}

#[test]
fn settings_come_from_a_file_and_flags_override_it() {
    let dir = scratch("config");
    let config = dir.join("settings.json");
    std::fs::write(
        &config,
        r#"{"types": {"Item": {"rename": "Product", "derives": ["PartialOrd"]}}, "exclude": ["Location"]}"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = generate(
        &out,
        &[
            "--config",
            config.to_str().unwrap(),
            "--rename",
            "Item=Article",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let report = text(&o);
    assert!(report.contains("left out: Location: excluded"), "{report}");
    assert!(
        report.contains("left out: Stock: its required member `location` needs one left out"),
        "{report}"
    );
    let module = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    assert!(
        module.contains("pub struct Article {"),
        "the flag wins over the file"
    );
    assert!(!module.contains("pub struct Item {") && !module.contains("pub struct Product {"));
    assert!(
        module.contains("#[derive(PartialOrd)]"),
        "the file's derive"
    );
    assert!(
        !module.contains("pub struct Stock"),
        "what needed Location is gone"
    );

    // Mistakes are errors that say what and where, not panics.
    for (args, says) in [
        (
            vec!["--exclude", "Nope"],
            "exclude names `Nope`, which is no definition",
        ),
        (vec!["--rename", "Item=Named"], "both `Named`"),
        (
            vec!["--derive", "not a path"],
            "derive `not a path` is not valid Rust",
        ),
        (vec!["--layout", "flat"], "--layout is tree or file"),
        (vec!["--frobnicate", "x"], "unknown option `--frobnicate`"),
        (vec!["--module", "--check"], "--module needs a value"),
        (vec!["--rename", "Item=r#Item2"], "is a raw identifier"),
        (
            vec![
                "--config",
                config.to_str().unwrap(),
                "--config",
                config.to_str().unwrap(),
            ],
            "--config is given twice",
        ),
    ] {
        let o = generate(&out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
    let o = run(&[
        "generate",
        "--schema",
        "/no/such/schema.json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("cannot read /no/such/schema.json"),
        "{}",
        text(&o)
    );
}

/// A definition the schema maps to a Rust type (`x-rust-type`, as typify reads it) is that
/// type: an alias, reported as a replacement; a bad path is refused with the pointer.
#[test]
fn x_rust_type_replaces_a_definition() {
    let dir = scratch("x-rust-type");
    let schema = dir.join("ids.json");
    let write = |path: &str| {
        std::fs::write(
            &schema,
            format!(
                r##"{{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {{
    "Id": {{ "type": "string", "x-rust-type": {{ "crate": "uuid", "version": "1", "path": "{path}" }} }},
    "Thing": {{ "type": "object", "properties": {{ "id": {{ "$ref": "#/$defs/Id" }} }}, "required": ["id"] }}
  }}
}}"##
            ),
        )
        .unwrap();
    };
    write("::uuid::Uuid");
    let out = dir.join("out");
    let args = [
        "generate",
        "--schema",
        schema.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("replaced: Id by ::uuid::Uuid"),
        "{}",
        text(&o)
    );
    let module = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    assert!(module.contains("pub type Id = ::uuid::Uuid;"), "{module}");
    assert!(module.contains("pub id: Id,"), "{module}");
    write("not a path!");
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("at #/$defs/Id/x-rust-type: `not a path!` is not a Rust type"),
        "{}",
        text(&o)
    );
}
