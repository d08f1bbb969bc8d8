//! Whether the values of a type in one version are values of a type in another: the
//! structural relation that decides which changes between two versions break whom, and
//! which conversions between their types are lossless.
//!
//! A value *fits* a type when that type's decoder takes it and writes it back as it came.
//! Objects are open (a member the type does not declare is kept and written back), so a
//! property only the source has always fits; a property only the target has fits when it
//! is optional. An enum fits when the target has every value, a union when each arm fits
//! an arm of the target (and both are told apart by the same property). Types are compared
//! by structure, so `ListToolsRequestParams` fits `PaginatedRequestParams` when their
//! properties do, whatever the names. Recursion is assumed to fit while it is being
//! checked, which is what a value of finite depth needs.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::model::render;
use crate::model::{ConstValue, Kind, Model, TypeDef, TypeRef};

/// Why a value of the source type need not fit the target type: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    /// The place in the value, from the type compared (`.icons[]`, `|TextContent`); empty
    /// at the type itself.
    pub path: String,
    /// What the target cannot carry.
    pub why: String,
    /// A value of the source type that does not fit, built along `path` (an array's item
    /// at index 0, a map's value under key `k`, other members as small as their types
    /// allow), where one can be built: what a conversion must refuse, at `path`.
    pub witness: Option<Value>,
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.why)
        } else {
            write!(f, "at {}: {}", self.path, self.why)
        }
    }
}

/// Compares types of one model (the source) with types of another (the target).
pub struct Fits<'m> {
    from: &'m Model,
    to: &'m Model,
    from_types: BTreeMap<&'m str, &'m TypeDef>,
    to_types: BTreeMap<&'m str, &'m TypeDef>,
    /// Pairs of named types being compared now (assumed to fit), and those known to.
    assumed: BTreeSet<(String, String)>,
    /// The pairs in `assumed`, in the order they were added: what a misfit takes back
    /// (a pair that fitted on the assumption that failed).
    log: Vec<(String, String)>,
}

impl<'m> Fits<'m> {
    /// Compares values of `from`'s types with `to`'s.
    pub fn new(from: &'m Model, to: &'m Model) -> Self {
        let by_name = |m: &'m Model| m.types.iter().map(|t| (t.name.as_str(), t)).collect();
        Fits {
            from,
            to,
            from_types: by_name(from),
            to_types: by_name(to),
            assumed: BTreeSet::new(),
            log: Vec::new(),
        }
    }

    /// Whether every value of the source's definition `from` fits the target's `to`.
    pub fn named(&mut self, from: &str, to: &str) -> Result<(), Misfit> {
        self.fits(
            &TypeRef::Named(from.to_string()),
            &TypeRef::Named(to.to_string()),
        )
    }

    /// Whether every value of `a` (a type of the source) fits `b` (a type of the target).
    pub fn fits(&mut self, a: &TypeRef, b: &TypeRef) -> Result<(), Misfit> {
        // Aliases stand for their targets.
        if let TypeRef::Named(n) = a
            && let Some(Kind::Alias { target, .. }) =
                self.from_types.get(n.as_str()).map(|t| &t.kind)
        {
            return self.fits(&target.clone(), b);
        }
        if let TypeRef::Named(n) = b
            && let Some(Kind::Alias { target, .. }) = self.to_types.get(n.as_str()).map(|t| &t.kind)
        {
            return self.fits(a, &target.clone());
        }
        match (a, b) {
            (_, TypeRef::Any) => Ok(()),
            (TypeRef::String, TypeRef::String)
            | (TypeRef::Integer, TypeRef::Integer | TypeRef::Number)
            | (TypeRef::Unsigned, TypeRef::Unsigned | TypeRef::Integer | TypeRef::Number)
            | (TypeRef::Number, TypeRef::Number)
            | (TypeRef::Boolean, TypeRef::Boolean) => Ok(()),
            (TypeRef::Const(c), _) => {
                let value = const_value(self.from, c);
                let witness = value.map(const_json);
                let misfit = |why: String| -> Result<(), Misfit> {
                    Err(Misfit::new(why).with(witness.clone()))
                };
                match (value, b) {
                    (Some(v), TypeRef::Const(d)) if const_value(self.to, d) == Some(v) => Ok(()),
                    (Some(ConstValue::String(_)), TypeRef::String)
                    | (Some(ConstValue::Boolean(_)), TypeRef::Boolean)
                    | (Some(ConstValue::Integer(_)), TypeRef::Integer | TypeRef::Number) => Ok(()),
                    (Some(ConstValue::String(s)), TypeRef::Named(n)) => {
                        match self.to_types.get(n.as_str()).map(|t| &t.kind) {
                            Some(Kind::StringEnum { values }) if values.contains(s) => Ok(()),
                            _ => misfit(format!("{s:?} is not a value of {n}")),
                        }
                    }
                    _ => misfit(format!(
                        "{} does not fit {}",
                        render(self.from, a),
                        render(self.to, b)
                    )),
                }
            }
            (TypeRef::Array(x), TypeRef::Array(y)) => self
                .fits(x, y)
                .map_err(|m| m.under("[]", |w| Some(Value::Array(vec![w])))),
            (TypeRef::Map(x), TypeRef::Map(y)) => self.fits(x, y).map_err(|m| {
                m.under("{}", |w| {
                    Some(Value::Object(Map::from_iter([("k".into(), w)])))
                })
            }),
            (TypeRef::Named(n), _) => self.named_fits(n, b),
            (_, TypeRef::Named(m)) => match self.to_types.get(m.as_str()).map(|t| t.kind.clone()) {
                Some(Kind::Union { variants, .. }) => self.fits_an_arm(a, &variants),
                // A map fits an object where its values fit each member it may hold.
                Some(Kind::Struct { fields, additional }) if matches!(a, TypeRef::Map(_)) => {
                    let TypeRef::Map(x) = a else { unreachable!() };
                    self.map_fits(x, &fields, additional.as_ref())
                }
                _ => Err(
                    Misfit::new(format!("{} does not fit {m}", render(self.from, a)))
                        .with(self.unlike(a, b)),
                ),
            },
            _ => Err(Misfit::new(format!(
                "{} does not fit {}",
                render(self.from, a),
                render(self.to, b)
            ))
            .with(self.unlike(a, b))),
        }
    }

    /// A map of `x` against an object type: it may hold any member, with any value of `x`,
    /// and need not hold any.
    fn map_fits(
        &mut self,
        x: &TypeRef,
        fields: &[crate::model::Field],
        additional: Option<&TypeRef>,
    ) -> Result<(), Misfit> {
        let one = |key: &str, w: Value| Some(Value::Object(Map::from_iter([(key.to_string(), w)])));
        for g in fields {
            if g.required {
                return Err(Misfit::new(format!(
                    "`{}` is required, and a map need not hold it",
                    g.wire
                ))
                .with(Some(Value::Object(Map::new()))));
            }
            self.fits(x, &g.ty)
                .map_err(|m| m.under(&format!(".{}", g.wire), |w| one(&g.wire, w)))?;
        }
        match additional {
            Some(add) => self
                .fits(x, add)
                .map_err(|m| m.under("{}", |w| one("k", w))),
            None => Ok(()),
        }
    }

    /// A value of `a` (the source's) that `b` (the target's) does not take by its JSON kind
    /// alone, where there is one.
    fn unlike(&self, a: &TypeRef, b: &TypeRef) -> Option<Value> {
        match (a, b) {
            (TypeRef::Number, TypeRef::Integer | TypeRef::Unsigned) => {
                return Some(serde_json::json!(0.5));
            }
            (TypeRef::Integer, TypeRef::Unsigned) => return Some(Value::from(-1)),
            _ => {}
        }
        let (ka, kb) = (kinds(self.from, a, 0), kinds(self.to, b, 0));
        ka.difference(&kb).next().map(|kind| match *kind {
            "object" => Value::Object(Map::new()),
            "array" => Value::Array(Vec::new()),
            "string" => Value::from("x"),
            "number" => Value::from(1),
            "boolean" => Value::from(true),
            _ => Value::Null,
        })
    }

    /// A named source type against any target type.
    fn named_fits(&mut self, n: &str, b: &TypeRef) -> Result<(), Misfit> {
        let Some(ta) = self.from_types.get(n).copied() else {
            return Err(Misfit::new(format!("{n} is not defined")));
        };
        let key = (n.to_string(), render(self.to, b));
        if !self.assumed.insert(key.clone()) {
            return Ok(());
        }
        let mark = self.log.len();
        self.log.push(key);
        let result = self.kind_fits(n, &ta.kind, b);
        if result.is_err() {
            for key in self.log.drain(mark..) {
                self.assumed.remove(&key);
            }
        }
        result
    }

    fn kind_fits(&mut self, n: &str, ka: &Kind, b: &TypeRef) -> Result<(), Misfit> {
        let target = match b {
            TypeRef::Named(m) => self.to_types.get(m.as_str()).map(|t| t.kind.clone()),
            _ => None,
        };
        let from = self.from;
        let this = TypeRef::Named(n.to_string());
        // The smallest value of this type, and the same with one member set.
        let small = || minimal(from, &this, 0);
        let with_member = |wire: &str, value: Value| {
            let mut object = small()?;
            object.as_object_mut()?.insert(wire.to_string(), value);
            Some(object)
        };
        match (ka, target, b) {
            // A union fits where each of its arms does.
            (Kind::Union { variants, tag }, target, _) => {
                if let Some(Kind::Union { tag: tb, .. }) = &target
                    && tag.is_some()
                    && tb.is_some()
                    && tag != tb
                {
                    return Err(
                        Misfit::new(format!("told apart by {tag:?}, then by {tb:?}")).with(small()),
                    );
                }
                for v in variants {
                    let arm = format!("|{}", render(self.from, &v.ty));
                    self.fits(&v.ty, b).map_err(|m| m.under(&arm, Some))?;
                }
                Ok(())
            }
            (Kind::Struct { fields: fa, .. }, Some(Kind::Struct { fields: fb, .. }), _) => {
                for g in &fb {
                    match fa.iter().find(|f| f.wire == g.wire) {
                        Some(f) => {
                            let at = |m: Misfit| {
                                m.under(&format!(".{}", g.wire), |w| with_member(&g.wire, w))
                            };
                            if g.required && !f.required {
                                return Err(Misfit::new(format!(
                                    "`{}` is optional, then required",
                                    g.wire
                                ))
                                .with(small()));
                            }
                            if f.nullable && !g.nullable {
                                return Err(Misfit::new(format!(
                                    "`{}` may be null, then may not",
                                    g.wire
                                ))
                                .with(with_member(&g.wire, Value::Null)));
                            }
                            self.fits(&f.ty, &g.ty).map_err(at)?;
                        }
                        None if g.required => {
                            return Err(Misfit::new(format!(
                                "`{}` is required and absent before",
                                g.wire
                            ))
                            .with(small()));
                        }
                        None => {}
                    }
                }
                Ok(())
            }
            // An object written as a map of one value type.
            (Kind::Struct { fields, additional }, _, TypeRef::Map(v)) => {
                for f in fields {
                    self.fits(&f.ty, v).map_err(|m| {
                        m.under(&format!(".{}", f.wire), |w| with_member(&f.wire, w))
                    })?;
                }
                match additional {
                    Some(x) => self
                        .fits(x, v)
                        .map_err(|m| m.under("{}", |w| with_member("k", w))),
                    None => Ok(()),
                }
            }
            (Kind::StringEnum { values: va }, Some(Kind::StringEnum { values: vb }), _) => {
                match va.iter().find(|v| !vb.contains(v)) {
                    Some(v) => {
                        Err(Misfit::new(format!("no value {v:?}")).with(Some(v.as_str().into())))
                    }
                    None => Ok(()),
                }
            }
            (Kind::StringEnum { .. }, _, TypeRef::String) => Ok(()),
            (_, Some(Kind::Union { variants, .. }), _) => {
                self.fits_an_arm(&TypeRef::Named(n.to_string()), &variants)
            }
            _ => Err(
                Misfit::new(format!("{n} does not fit {}", render(self.to, b)))
                    .with(self.unlike(&this, b).or_else(small)),
            ),
        }
    }

    /// Whether `a` fits one of a target union's arms.
    fn fits_an_arm(&mut self, a: &TypeRef, arms: &[crate::model::Variant]) -> Result<(), Misfit> {
        // An arm of the same name is the one the target's decoder takes such a value as (its
        // discriminators are that arm's): the value must fit it. Otherwise any arm that
        // takes it will do.
        if let Some(same) = arms.iter().find(|v| v.ty == *a) {
            return self.fits(a, &same.ty);
        }
        for v in arms {
            if self.fits(a, &v.ty).is_ok() {
                return Ok(());
            }
        }
        // An array arm's witness holds an item: an empty array may be taken as another arm.
        let witness = match a {
            TypeRef::Array(x) => minimal(self.from, x, 1).map(|item| Value::Array(vec![item])),
            _ => minimal(self.from, a, 0),
        };
        let first = arms.first().map(|v| v.ty.clone()).unwrap_or(TypeRef::Any);
        let witness = witness.or_else(|| self.unlike(a, &first));
        Err(Misfit::new(format!("no arm takes {}", render(self.from, a))).with(witness))
    }
}

impl Misfit {
    /// A misfit at the type compared, with no witness yet.
    pub fn new(why: impl Into<String>) -> Misfit {
        Misfit {
            path: String::new(),
            why: why.into(),
            witness: None,
        }
    }

    fn with(mut self, witness: Option<Value>) -> Misfit {
        self.witness = witness;
        self
    }

    /// The misfit seen from one step out: `step` before its path, and its witness put
    /// where that step leads (`wrap`), if the value around it can be built.
    fn under(mut self, step: &str, wrap: impl FnOnce(Value) -> Option<Value>) -> Misfit {
        self.path.insert_str(0, step);
        self.witness = self.witness.and_then(wrap);
        self
    }
}

/// How deep [`minimal`] builds before it gives up (a type that requires itself).
const MAX_DEPTH: usize = 16;

/// The smallest value of `ty` in `model`: required members only, empty arrays and maps,
/// zero, `""`, `false`, an enum's first value, a union's first arm that has one. `None`
/// where there is none within `MAX_DEPTH` levels.
pub fn minimal(model: &Model, ty: &TypeRef, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match ty {
        TypeRef::String => Value::from(""),
        TypeRef::Integer | TypeRef::Unsigned | TypeRef::Number => Value::from(0),
        TypeRef::Boolean => Value::from(false),
        TypeRef::Any | TypeRef::Map(_) => Value::Object(Map::new()),
        TypeRef::Array(_) => Value::Array(Vec::new()),
        TypeRef::Const(c) => const_json(const_value(model, c)?),
        TypeRef::Named(n) => {
            let t = model.types.iter().find(|t| &t.name == n)?;
            match &t.kind {
                Kind::Alias { target, .. } => minimal(model, target, depth + 1)?,
                Kind::StringEnum { values } => Value::from(values.first()?.as_str()),
                Kind::Union { variants, .. } => variants
                    .iter()
                    .find_map(|v| minimal(model, &v.ty, depth + 1))?,
                Kind::Struct { fields, .. } => {
                    let mut object = Map::new();
                    for f in fields.iter().filter(|f| f.required) {
                        object.insert(f.wire.clone(), minimal(model, &f.ty, depth + 1)?);
                    }
                    Value::Object(object)
                }
            }
        }
    })
}

/// The JSON kinds (`object`, `array`, `string`, `number`, `boolean`, `null`) a value of
/// `ty` may have.
fn kinds(model: &Model, ty: &TypeRef, depth: usize) -> BTreeSet<&'static str> {
    let all = ["object", "array", "string", "number", "boolean", "null"];
    let one = |k: &'static str| BTreeSet::from([k]);
    if depth > MAX_DEPTH {
        return all.into();
    }
    match ty {
        TypeRef::String => one("string"),
        TypeRef::Integer | TypeRef::Unsigned | TypeRef::Number => one("number"),
        TypeRef::Boolean => one("boolean"),
        TypeRef::Any => all.into(),
        TypeRef::Array(_) => one("array"),
        TypeRef::Map(_) => one("object"),
        TypeRef::Const(c) => match const_value(model, c) {
            Some(ConstValue::String(_)) => one("string"),
            Some(ConstValue::Integer(_)) => one("number"),
            Some(ConstValue::Boolean(_)) => one("boolean"),
            None => all.into(),
        },
        TypeRef::Named(n) => match model.types.iter().find(|t| &t.name == n).map(|t| &t.kind) {
            Some(Kind::Alias { target, .. }) => kinds(model, target, depth + 1),
            Some(Kind::Struct { .. }) => one("object"),
            Some(Kind::StringEnum { .. }) => one("string"),
            Some(Kind::Union { variants, .. }) => variants
                .iter()
                .flat_map(|v| kinds(model, &v.ty, depth + 1))
                .collect(),
            None => all.into(),
        },
    }
}

fn const_json(value: &ConstValue) -> Value {
    match value {
        ConstValue::String(s) => Value::from(s.as_str()),
        ConstValue::Integer(i) => Value::from(*i),
        ConstValue::Boolean(b) => Value::from(*b),
    }
}

fn const_value<'m>(model: &'m Model, name: &str) -> Option<&'m ConstValue> {
    model
        .consts
        .iter()
        .find(|c| c.name == name)
        .map(|c| &c.value)
}
