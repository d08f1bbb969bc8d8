//! `mcp-codegen`: generates a Rust module from an MCP schema (or any JSON Schema the
//! generator reads). `mcp-codegen --help` says how.

use std::path::PathBuf;
use std::process::ExitCode;

use mcp_codegen::seed;
use mcp_codegen::settings::{FreeForm, JsonSchema, Layout, Settings, TypeSettings};

const HELP: &str = "\
mcp-codegen: Rust types, method enums and handlers from an MCP schema.json (or any JSON
Schema of draft-07 or 2020-12 whose definitions it reads).

USAGE:
    mcp-codegen generate --schema FILE --out DIR [OPTIONS]

It writes the module into DIR (a folder `mod.rs` with its submodules, or one file with
--layout file), with a manifest (.mcp-codegen.json; .mcp-codegen.<module>.json for one file) of what it wrote: it never overwrites
or removes a file it did not write. Add the runtime to your crate
(`mcp-spec-rt`) and declare the module (`#[path = \"DIR/mod.rs\"] mod mcp;`).

OPTIONS:
    --schema FILE          the schema (its version: the folder of a schema.json, else the
                           file's stem; see --version)
    --out DIR              where to write
    --check                write nothing; exit 1 naming each file that differs
    --config FILE          settings as JSON (every field of mcp_codegen::settings::Settings);
                           the flags below override it
    --version NAME         the version the module is named after
    --module NAME          the module's name (with --layout file)
    --layout tree|file     a folder of files (default), or one file declaring the module
    --runtime PATH         the runtime's path (default ::mcp_spec_rt)
    --doc-module PATH      where users reach the module, for its doc examples
    --derive PATH          a derive for every type (repeatable)
    --attribute ATTR       an attribute for every type (repeatable)
    --rename SCHEMA=NAME   a definition's Rust name (repeatable)
    --replace SCHEMA=PATH  your own type for a definition (repeatable)
    --type-derive SCHEMA=PATH  a derive for one definition (repeatable)
    --exclude SCHEMA       leave a definition out, and what needs it (repeatable)
    --map-type PATH        the map type (default ::std::collections::BTreeMap)
    --json-schema never|feature|always
                           derive schemars::JsonSchema (default never)
    --free-form value|raw  free-form JSON as serde_json::Value (default), or as its text
                           (mcp_spec_rt::raw::RawJson, RawObject), for proxies;
                           raw has no Router
    --no-methods           no methods layer (and so no handlers)
    --no-handlers          no handlers layer
    --quiet                print nothing but errors
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn pair<'a>(flag: &str, value: &'a str) -> Result<(&'a str, &'a str), String> {
    value
        .split_once('=')
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .ok_or_else(|| format!("{flag} takes SCHEMA=VALUE, got `{value}`"))
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some((command, rest)) = args.split_first() else {
        print!("{HELP}");
        return Ok(ExitCode::from(2));
    };
    match command.as_str() {
        "generate" => {}
        "-h" | "--help" | "help" => {
            print!("{HELP}");
            return Ok(ExitCode::SUCCESS);
        }
        "-V" | "--version" => {
            println!("{}", mcp_codegen::emit::GENERATOR);
            return Ok(ExitCode::SUCCESS);
        }
        other => {
            return Err(format!(
                "unknown command `{other}`; try `mcp-codegen --help`"
            ));
        }
    }
    // The config first, the flags over it, in order.
    let mut settings = Settings::default();
    let mut words = rest.iter();
    let mut config = None;
    let mut flags: Vec<(&str, Option<&str>)> = Vec::new();
    const SWITCHES: [&str; 4] = ["--check", "--no-methods", "--no-handlers", "--quiet"];
    while let Some(flag) = words.next() {
        if flag == "-h" || flag == "--help" {
            print!("{HELP}");
            return Ok(ExitCode::SUCCESS);
        }
        if SWITCHES.contains(&flag.as_str()) {
            flags.push((flag, None));
            continue;
        }
        if !flag.starts_with("--") {
            return Err(format!(
                "unexpected argument `{flag}`; try `mcp-codegen --help`"
            ));
        }
        let value = words
            .next()
            .filter(|v| !v.starts_with("--"))
            .ok_or_else(|| format!("{flag} needs a value"))?;
        if flag == "--config" {
            if config.replace(value.as_str()).is_some() {
                return Err("--config is given twice".to_string());
            }
        } else {
            flags.push((flag, Some(value)));
        }
    }
    if let Some(file) = config {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        settings = Settings::from_json(file, &text).map_err(|e| e.to_string())?;
    }
    let (mut schema, mut out, mut version) = (None, None, None);
    let (mut check, mut quiet) = (false, false);
    for (flag, value) in flags {
        let v = value.unwrap_or_default();
        let ty = |settings: &mut Settings, name: &str| -> TypeSettings {
            settings.types.get(name).cloned().unwrap_or_default()
        };
        match flag {
            "--check" => check = true,
            "--quiet" => quiet = true,
            "--no-methods" => settings.layers.methods = false,
            "--no-handlers" => settings.layers.handlers = false,
            "--schema" => schema = Some(PathBuf::from(v)),
            "--out" => out = Some(PathBuf::from(v)),
            "--version" => version = Some(v.to_string()),
            "--module" => settings.module = Some(v.to_string()),
            "--layout" => {
                settings.layout = match v {
                    "tree" => Layout::Tree,
                    "file" => Layout::File,
                    _ => return Err(format!("--layout is tree or file, got `{v}`")),
                }
            }
            "--runtime" => settings.runtime = v.to_string(),
            "--doc-module" => settings.doc_module = Some(v.to_string()),
            "--derive" => settings.derives.push(v.to_string()),
            "--attribute" => settings.attributes.push(v.to_string()),
            "--exclude" => settings.exclude.push(v.to_string()),
            "--map-type" => settings.map_type = Some(v.to_string()),
            "--json-schema" => {
                settings.json_schema = match v {
                    "never" => JsonSchema::Never,
                    "feature" => JsonSchema::Feature,
                    "always" => JsonSchema::Always,
                    _ => {
                        return Err(format!(
                            "--json-schema is never, feature or always, got `{v}`"
                        ));
                    }
                }
            }
            "--free-form" => {
                settings.free_form = match v {
                    "value" => FreeForm::Value,
                    "raw" => FreeForm::Raw,
                    _ => return Err(format!("--free-form is value or raw, got `{v}`")),
                }
            }
            "--rename" | "--replace" | "--type-derive" => {
                let (name, value) = pair(flag, v)?;
                let mut t = ty(&mut settings, name);
                match flag {
                    "--rename" => t.rename = Some(value.to_string()),
                    "--replace" => t.replace = Some(value.to_string()),
                    _ => t.derives.push(value.to_string()),
                }
                settings.types.insert(name.to_string(), t);
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`; try `mcp-codegen --help`"
                ));
            }
        }
    }
    let schema = schema.ok_or("generate needs --schema FILE")?;
    let out = out.ok_or("generate needs --out DIR")?;
    if settings.command == Settings::default().command {
        // The command as run, but for what does not change the output, its options in
        // one order (the order they were given in does not change it either, but that of
        // a repeated option does: it is kept).
        let mut said: Vec<(&str, &str)> = Vec::new();
        let mut words = rest.iter().map(String::as_str);
        while let Some(flag) = words.next() {
            if SWITCHES.contains(&flag) {
                if flag != "--check" && flag != "--quiet" {
                    said.push((flag, ""));
                }
            } else {
                said.push((flag, words.next().unwrap_or_default()));
            }
        }
        said.sort_by_key(|(flag, _)| match *flag {
            "--schema" => (0, ""),
            "--out" => (1, ""),
            other => (2, other),
        });
        let said: Vec<String> = said
            .iter()
            .map(|(f, v)| {
                if v.is_empty() {
                    f.to_string()
                } else {
                    format!("{f} {v}")
                }
            })
            .collect();
        settings.command = format!("mcp-codegen generate {}", said.join(" "));
    }
    let mut input = seed::input_from_file(&schema).map_err(|e| e.to_string())?;
    if let Some(v) = version {
        input.version = v;
    }
    let seeded = seed::seed(&input, &settings).map_err(|e| e.to_string())?;
    if check {
        let status = seed::check(&out, &seeded).map_err(|e| e.to_string())?;
        if status.is_fresh() {
            if !quiet {
                println!("{}: fresh ({} files)", out.display(), seeded.files.len());
            }
            return Ok(ExitCode::SUCCESS);
        }
        eprint!("{}", status.report());
        return Ok(ExitCode::FAILURE);
    }
    let done = seed::write(&out, &seeded).map_err(|e| e.to_string())?;
    if !quiet {
        for note in &seeded.notes {
            println!("note: {note}");
        }
        for (name, why) in &seeded.applied.removed {
            println!("left out: {name}: {why}");
        }
        for dropped in &seeded.applied.dropped {
            println!("dropped: {dropped}");
        }
        for (name, path) in &seeded.applied.replaced {
            println!("replaced: {name} by {path}");
        }
        for kept in &done.kept {
            println!("kept: {kept} (no longer generated, but changed since it was written)");
        }
        let lines: usize = seeded.files.iter().map(|(_, c)| c.lines().count()).sum();
        println!(
            "{}: {} files ({} lines, {} types): {} written, {} removed",
            out.display(),
            seeded.files.len(),
            lines,
            seeded.model.types.len(),
            done.written.len(),
            done.removed.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
