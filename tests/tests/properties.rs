//! Property tests and a differential check against an independent JSON Schema validator
//! (the `jsonschema` crate, draft-07 for the older versions and 2020-12 for the newer).
//!
//! - A value generator driven by the generator's model produces JSON for every definition
//!   of every version. Each value must validate against the upstream definition (so the
//!   generator and the model agree with upstream), decode into the generated type and
//!   encode back to the same JSON, and decoding that again must give the same JSON again.
//! - Every official example our types decode is encoded again and validated against the
//!   upstream definition, with `format` checked too.
//! - Each generated value is converted into the next version and the one before (where
//!   the definition is in both) by the generated conversions: a `From` must succeed, a
//!   conversion that succeeds must write the same JSON, and converting back must give the
//!   value again (`mcp_tests::converts`).
//!
//! What the generator leaves out: `format` (strings are arbitrary; the types hold them as
//! `String`), `null` and non-integer numbers inside free-form JSON (upstream's `JSONValue`
//! allows neither; see `fidelity.rs`), and arms of a union that decoding never chooses.
//! Cases per definition: 256, or `MCP_PROPTEST_CASES`.

use std::collections::BTreeMap;

use jsonschema::{Draft, Validator};
use mcp_codegen::model::{ConstValue, Kind, Model, Origin, TypeRef};
use mcp_codegen::{model_of, workspace};
use mcp_tests::convert::{PAIRS, Pair};
use mcp_tests::{Harness, VERSIONS, root};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Map, Value, json};

/// Values upstream's schema accepts that decoding rejects on purpose:
/// `(version, definition, value, error fragment, reason)`. Each is checked directly, and
/// the generator must come across it and see it rejected with that error.
const REJECTED: &[(&str, &str, &str, &str, &str)] = &[(
    "2025-03-26",
    "JSONRPCMessage",
    "[]",
    "an empty array fits several arms",
    "JSON-RPC 2.0 makes an empty batch an invalid request (answered with -32600), though \
     the schema's batch arrays have no `minItems`",
)];

/// Deeper than this, optional properties are left out and collections are empty.
const MAX_DEPTH: u32 = 6;

struct Gen<'a> {
    model: &'a Model,
}

fn string() -> BoxedStrategy<String> {
    proptest::string::string_regex("[a-zA-Z0-9 _./:\\-\"\\\\é☃\\n]{0,10}")
        .expect("a valid pattern")
        .boxed()
}

fn key() -> BoxedStrategy<String> {
    proptest::string::string_regex("[a-z][a-zA-Z0-9_]{0,6}")
        .expect("a valid pattern")
        .boxed()
}

/// Free-form JSON without `null` and without fractions.
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-1_000_000i64..1_000_000).prop_map(Value::from),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

impl Gen<'_> {
    fn ty(&self, ty: &TypeRef, depth: u32) -> BoxedStrategy<Value> {
        let deep = depth >= MAX_DEPTH;
        match ty {
            TypeRef::Named(n) => self.named(n, depth),
            TypeRef::Const(c) => {
                let k = self.model.consts.iter().find(|k| &k.name == c);
                let v = match k.map(|k| &k.value) {
                    Some(ConstValue::String(s)) => json!(s),
                    Some(ConstValue::Integer(i)) => json!(i),
                    Some(ConstValue::Boolean(b)) => json!(b),
                    None => panic!("const {c} is not in the model"),
                };
                Just(v).boxed()
            }
            TypeRef::String => string().prop_map(Value::String).boxed(),
            TypeRef::Integer => prop_oneof![
                (-1_000_000i64..1_000_000).prop_map(Value::from),
                Just(json!(i64::MIN)),
                Just(json!(i64::MAX)),
            ]
            .boxed(),
            TypeRef::Unsigned => prop_oneof![
                (0i64..1_000_000).prop_map(Value::from),
                Just(json!(u64::MAX)),
            ]
            .boxed(),
            // Every number property upstream is a priority in [0, 1] or unbounded.
            TypeRef::Number => prop_oneof![
                (0u32..=8).prop_map(|k| json!(f64::from(k) / 8.0)),
                (0u32..=1).prop_map(Value::from),
            ]
            .boxed(),
            TypeRef::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
            TypeRef::Any => any_json(),
            TypeRef::Array(inner) => {
                let n = if deep { 0..1 } else { 0..3 };
                proptest::collection::vec(self.ty(inner, depth + 1), n)
                    .prop_map(Value::Array)
                    .boxed()
            }
            TypeRef::Map(inner) => {
                let n = if deep { 0..1 } else { 0..3 };
                proptest::collection::btree_map(key(), self.ty(inner, depth + 1), n)
                    .prop_map(|m| Value::Object(m.into_iter().collect()))
                    .boxed()
            }
        }
    }

    fn named(&self, name: &str, depth: u32) -> BoxedStrategy<Value> {
        let t = self
            .model
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not in the model"));
        match &t.kind {
            Kind::Alias { target, .. } => self.ty(target, depth),
            Kind::StringEnum { values } => proptest::sample::select(values.clone())
                .prop_map(Value::String)
                .boxed(),
            Kind::Union { variants, tag } => {
                let arms: Vec<BoxedStrategy<Value>> = variants
                    .iter()
                    .filter(|v| v.signature.shadowed_by.is_none())
                    .map(|v| {
                        let arm = self.ty(&v.ty, depth + 1);
                        // A tag the model takes from upstream prose (a plain string in
                        // the schema, see `overrides::IMPLIED_TAGS`) gets its arm's value.
                        let (Some(tag), false) = (tag.clone(), v.signature.tags.is_empty()) else {
                            return arm;
                        };
                        // Where the tag may be absent, the arm's own generator decides.
                        (arm, proptest::sample::select(v.signature.tags.clone()))
                            .prop_map(move |(mut value, tag_value)| {
                                if let Some(slot) = value.get_mut(&tag) {
                                    *slot = Value::String(tag_value);
                                }
                                value
                            })
                            .boxed()
                    })
                    .collect();
                proptest::strategy::Union::new(arms).boxed()
            }
            Kind::Struct { fields, additional } => {
                let deep = depth >= MAX_DEPTH;
                let props: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
                    .iter()
                    .filter(|f| f.required || !deep)
                    .map(|f| {
                        let wire = f.wire.clone();
                        let mut value = self.ty(&f.ty, depth + 1);
                        if f.nullable {
                            value = prop_oneof![1 => Just(Value::Null), 3 => value].boxed();
                        }
                        let pair = value.prop_map(move |v| (wire.clone(), v));
                        if f.required {
                            pair.prop_map(Some).boxed()
                        } else {
                            proptest::option::of(pair).boxed()
                        }
                    })
                    .collect();
                let named: Vec<String> = fields.iter().map(|f| f.wire.clone()).collect();
                let extra = match (additional, deep) {
                    (Some(ty), false) => {
                        proptest::collection::btree_map(key(), self.ty(ty, depth + 1), 0..2).boxed()
                    }
                    _ => Just(BTreeMap::new()).boxed(),
                };
                (props, extra)
                    .prop_map(move |(props, extra)| {
                        let mut m = Map::new();
                        for (k, v) in extra {
                            if !named.contains(&k) {
                                m.insert(format!("x{k}"), v);
                            }
                        }
                        m.extend(props.into_iter().flatten());
                        Value::Object(m)
                    })
                    .boxed()
            }
        }
    }
}

/// Validators for every definition of one version, compiled from the upstream schema.
struct Upstream {
    doc: Value,
    draft: Draft,
    pointer: &'static str,
}

impl Upstream {
    fn load(version: &str) -> Upstream {
        let path = root().join("schema").join(version).join("schema.json");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let dialect = doc["$schema"].as_str().unwrap_or_default();
        let (draft, pointer) = if dialect.contains("draft-07") {
            (Draft::Draft7, "definitions")
        } else if dialect.contains("2020-12") {
            (Draft::Draft202012, "$defs")
        } else {
            panic!("{version}: unexpected dialect {dialect}")
        };
        Upstream {
            doc,
            draft,
            pointer,
        }
    }

    fn validator(&self, definition: &str, formats: bool) -> Validator {
        let mut schema = self.doc.clone();
        schema["$ref"] = json!(format!("#/{}/{definition}", self.pointer));
        jsonschema::options()
            .with_draft(self.draft)
            .should_validate_formats(formats)
            .build(&schema)
            .unwrap_or_else(|e| panic!("{definition}: the validator refuses the schema: {e}"))
    }
}

fn violations(v: &Validator, value: &Value) -> Option<String> {
    let errors: Vec<String> = v
        .iter_errors(value)
        .take(3)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

fn cases() -> u32 {
    std::env::var("MCP_PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

#[test]
fn generated_values_validate_and_round_trip_exactly() {
    let inputs = workspace::inputs(&root()).unwrap();
    let cases = cases();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for h in VERSIONS {
        let input = inputs.iter().find(|i| i.version == h.version).unwrap();
        let model = model_of(input).unwrap();
        let upstream = Upstream::load(h.version);
        let generator = Gen { model: &model };
        let mut run = 0u64;
        let hits = std::cell::RefCell::new(Vec::new());
        // Values converted (or refused by a `TryFrom`), by direction.
        let conversions = std::cell::RefCell::new(BTreeMap::new());
        for (schema_name, rust_name) in h.definitions {
            let t = model.get(rust_name).unwrap();
            assert_eq!(t.origin, Origin::Definition(schema_name.to_string()));
            let validator = upstream.validator(schema_name, false);
            let strategy = generator.named(rust_name, 0);
            let config = Config {
                cases,
                failure_persistence: None,
                max_shrink_iters: 256,
                ..Config::default()
            };
            let mut runner =
                TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
            // The pairs this definition converts in: this version and the next or the one before.
            let neighbours: Vec<(&Pair, bool, bool)> = PAIRS
                .iter()
                .filter_map(|p| {
                    let (_, up, down) = p.definitions.iter().find(|(n, ..)| n == rust_name)?;
                    (p.old == h.version)
                        .then_some((p, true, *up))
                        .or((p.new == h.version).then_some((p, false, *down)))
                })
                .collect();
            let outcome = runner.run(&strategy, |value| {
                check(h, schema_name, &validator, value.clone(), &hits)
                    .map_err(TestCaseError::fail)?;
                for (pair, up, lossless) in &neighbours {
                    let converted = mcp_tests::converts(pair, rust_name, *up, &value, *lossless)
                        .map_err(|e| {
                            TestCaseError::fail(format!(
                                "to {}: {e}",
                                if *up { pair.new } else { pair.old }
                            ))
                        })?;
                    *conversions
                        .borrow_mut()
                        .entry((*up, converted))
                        .or_insert(0u64) += 1;
                }
                Ok(())
            });
            run += u64::from(cases);
            if let Err(e) = outcome {
                failures.push(format!("{} {schema_name}: {e}", h.version));
            }
        }
        let hits = hits.into_inner();
        for (version, definition, value, fragment, _) in REJECTED {
            if *version != h.version {
                continue;
            }
            match (h.roundtrip)(definition, serde_json::from_str(value).unwrap()) {
                Some(Err(e)) if e.contains(fragment) => {}
                other => failures.push(format!(
                    "{version} {definition}: {value} is no longer rejected with `{fragment}`: {other:?}"
                )),
            }
            if !hits.iter().any(|(d, v)| d == definition && v == value) {
                failures.push(format!(
                    "{version} {definition}: the generator never produced the rejected {value}"
                ));
            }
        }
        let conversions = conversions.into_inner();
        let count =
            |up: bool, converted: bool| conversions.get(&(up, converted)).copied().unwrap_or(0);
        report.push(format!(
            "{}: {} definitions, {run} cases, {} known rejections met; converted to the next \
             version and back {} (refused {}), to the one before {} (refused {})",
            h.version,
            h.definitions.len(),
            hits.len(),
            count(true, true),
            count(true, false),
            count(false, true),
            count(false, false)
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} definitions failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One case: `value` is schema-valid, decodes, and encodes back to itself, twice.
fn check(
    h: &Harness,
    definition: &str,
    validator: &Validator,
    value: Value,
    hits: &std::cell::RefCell<Vec<(String, String)>>,
) -> Result<(), String> {
    if let Some(v) = violations(validator, &value) {
        return Err(format!(
            "the generated value is not valid upstream: {v}\n  {value}"
        ));
    }
    let once = match (h.roundtrip)(definition, value.clone())
        .expect("a harness entry for every definition")
    {
        Ok(once) => once,
        Err(e) => {
            let text = value.to_string();
            let known = REJECTED.iter().any(|(v, d, x, fragment, _)| {
                *v == h.version && *d == definition && *x == text && e.contains(fragment)
            });
            if known {
                hits.borrow_mut().push((definition.to_string(), text));
                return Ok(());
            }
            return Err(format!("does not decode: {e}\n  {value}"));
        }
    };
    if once != value {
        return Err(format!(
            "changed on the round trip:\n  in:  {value}\n  out: {once}"
        ));
    }
    let twice = (h.roundtrip)(definition, once.clone())
        .expect("a harness entry for every definition")
        .map_err(|e| format!("the encoding does not decode: {e}\n  {once}"))?;
    if twice != once {
        return Err(format!("second round trip differs:\n  {once}\n  {twice}"));
    }
    Ok(())
}

#[test]
fn encoded_official_examples_validate_upstream() {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for h in VERSIONS {
        let upstream = Upstream::load(h.version);
        let (mut validated, mut skipped) = (0, 0);
        let mut validators = BTreeMap::new();
        for example in mcp_tests::examples(h.version) {
            let definition = example.definition.as_str();
            let validator = validators
                .entry(definition.to_string())
                .or_insert_with(|| upstream.validator(definition, true));
            // Examples that do not decode are reported by `examples.rs`.
            let Some(Ok(encoded)) = (h.roundtrip)(definition, example.value) else {
                skipped += 1;
                continue;
            };
            validated += 1;
            if let Some(v) = violations(validator, &encoded) {
                failures.push(format!("{} {}: {v}", h.version, example.case));
            }
        }
        report.push(format!(
            "{}: {validated} encoded examples validated ({skipped} that do not decode skipped)",
            h.version
        ));
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
