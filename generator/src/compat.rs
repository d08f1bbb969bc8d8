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

use crate::diff::render;
use crate::model::{ConstValue, Kind, Model, TypeDef, TypeRef};

/// Why a value of the source type need not fit the target type: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    /// The place in the value, from the type compared (`.icons[]`, `|TextContent`); empty
    /// at the type itself.
    pub path: String,
    /// What the target cannot carry.
    pub why: String,
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
        let misfit = |why: String| {
            Err(Misfit {
                path: String::new(),
                why,
            })
        };
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
            (TypeRef::Array(x), TypeRef::Array(y)) => self.fits(x, y).map_err(|m| m.under("[]")),
            (TypeRef::Map(x), TypeRef::Map(y)) => self.fits(x, y).map_err(|m| m.under("{}")),
            (TypeRef::Named(n), _) => self.named_fits(n, b),
            (_, TypeRef::Named(m)) => match self.to_types.get(m.as_str()).map(|t| t.kind.clone()) {
                Some(Kind::Union { variants, .. }) => self.fits_an_arm(a, &variants),
                _ => misfit(format!("{} does not fit {m}", render(self.from, a))),
            },
            _ => misfit(format!(
                "{} does not fit {}",
                render(self.from, a),
                render(self.to, b)
            )),
        }
    }

    /// A named source type against any target type.
    fn named_fits(&mut self, n: &str, b: &TypeRef) -> Result<(), Misfit> {
        let Some(ta) = self.from_types.get(n).copied() else {
            return Err(Misfit {
                path: String::new(),
                why: format!("{n} is not defined"),
            });
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
        let misfit = |why: String| {
            Err(Misfit {
                path: String::new(),
                why,
            })
        };
        let target = match b {
            TypeRef::Named(m) => self.to_types.get(m.as_str()).map(|t| t.kind.clone()),
            _ => None,
        };
        match (ka, target, b) {
            // A union fits where each of its arms does.
            (Kind::Union { variants, tag }, target, _) => {
                if let Some(Kind::Union { tag: tb, .. }) = &target
                    && tag.is_some()
                    && tb.is_some()
                    && tag != tb
                {
                    return misfit(format!("told apart by {tag:?}, then by {tb:?}"));
                }
                for v in variants {
                    self.fits(&v.ty, b)
                        .map_err(|m| m.under(&format!("|{}", render(self.from, &v.ty))))?;
                }
                Ok(())
            }
            (Kind::Struct { fields: fa, .. }, Some(Kind::Struct { fields: fb, .. }), _) => {
                for g in &fb {
                    match fa.iter().find(|f| f.wire == g.wire) {
                        Some(f) => {
                            let at = |m: Misfit| m.under(&format!(".{}", g.wire));
                            if g.required && !f.required {
                                return misfit(format!("`{}` is optional, then required", g.wire));
                            }
                            if f.nullable && !g.nullable {
                                return misfit(format!("`{}` may be null, then may not", g.wire));
                            }
                            self.fits(&f.ty, &g.ty).map_err(at)?;
                        }
                        None if g.required => {
                            return misfit(format!("`{}` is required and absent before", g.wire));
                        }
                        None => {}
                    }
                }
                Ok(())
            }
            // An object written as a map of one value type.
            (Kind::Struct { fields, additional }, _, TypeRef::Map(v)) => {
                for f in fields {
                    self.fits(&f.ty, v)
                        .map_err(|m| m.under(&format!(".{}", f.wire)))?;
                }
                match additional {
                    Some(x) => self.fits(x, v).map_err(|m| m.under("{}")),
                    None => Ok(()),
                }
            }
            (Kind::StringEnum { values: va }, Some(Kind::StringEnum { values: vb }), _) => {
                match va.iter().find(|v| !vb.contains(v)) {
                    Some(v) => misfit(format!("no value {v:?}")),
                    None => Ok(()),
                }
            }
            (Kind::StringEnum { .. }, _, TypeRef::String) => Ok(()),
            (_, Some(Kind::Union { variants, .. }), _) => {
                self.fits_an_arm(&TypeRef::Named(n.to_string()), &variants)
            }
            _ => misfit(format!("{n} does not fit {}", render(self.to, b))),
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
        Err(Misfit {
            path: String::new(),
            why: format!("no arm takes {}", render(self.from, a)),
        })
    }
}

impl Misfit {
    fn under(mut self, step: &str) -> Misfit {
        self.path.insert_str(0, step);
        self
    }
}

fn const_value<'m>(model: &'m Model, name: &str) -> Option<&'m ConstValue> {
    model
        .consts
        .iter()
        .find(|c| c.name == name)
        .map(|c| &c.value)
}
