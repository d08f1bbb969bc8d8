//! The intermediate model (IR): plain serde data that the emitters read.
//!
//! Lowering ([`crate::lower`]) produces one [`Model`] per protocol version. Everything
//! in it is sorted, so serializing a model gives byte-identical JSON for the same input.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything the emitters need to know about one protocol version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Protocol version name, e.g. `2025-06-18` or `draft`.
    pub version: String,
    /// JSON Schema dialect the schema file is written in.
    pub dialect: Dialect,
    /// Lowercase hex sha256 of the schema file the model was built from.
    pub schema_sha256: String,
    /// Every named type, sorted by Rust name.
    pub types: Vec<TypeDef>,
    /// Const marker types used by fields, sorted by Rust name.
    pub consts: Vec<ConstDef>,
    /// Every JSON-RPC request and notification, sorted by method.
    pub methods: Vec<MethodDef>,
    /// What the generator ignored or normalised in the schema, each `file at pointer: what`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One JSON-RPC method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodDef {
    /// The method string, e.g. `tools/call`.
    pub method: String,
    /// Request or notification.
    pub kind: MessageKind,
    /// Who sends it.
    pub direction: Direction,
    /// Rust name of the message type (the schema's `…Request` / `…Notification`).
    pub definition: String,
    /// Type of `params`, if the message has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<TypeRef>,
    /// Whether `params` is required.
    pub params_required: bool,
    /// Rust names of the result types that may answer a request, in schema order;
    /// empty for notifications.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<String>,
    /// The one type a response to the request decodes to: the single result, or a union
    /// of `results` (the schema's `…ResultResponse` union, or one the method layer adds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The schema unions the message is a member of (where its direction comes from);
    /// empty for a message of [`overrides::MESSAGE_DIRECTIONS`](crate::overrides::MESSAGE_DIRECTIONS).
    pub via: Vec<String>,
}

/// Request or notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// Expects a response.
    Request,
    /// Expects none.
    Notification,
}

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The client sends it to the server.
    ClientToServer,
    /// The server sends it to the client.
    ServerToClient,
    /// Either side sends it (`ping`, `notifications/cancelled`, …).
    Both,
}

/// The side of a connection that sends a method ([`Model::method_set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The client.
    Client,
    /// The server.
    Server,
}

/// Which methods a set holds ([`Model::method_set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carried {
    /// Those sent as JSON-RPC messages.
    AsMessages,
    /// Those, and the discover era's input requests, which travel inside results.
    AlsoInResults,
}

/// The two JSON Schema dialects the upstream schemas are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// JSON Schema draft-07, definitions under `definitions`.
    Draft07,
    /// JSON Schema 2020-12, definitions under `$defs`.
    Draft2020_12,
}

/// A named Rust item generated for the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TypeDef {
    /// Rust identifier.
    pub name: String,
    /// Where the type comes from.
    pub origin: Origin,
    /// Description lines from the schema (raw, not yet rendered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Shape of the type.
    pub kind: Kind,
    /// Upstream's `@deprecated` text for the type (from `schema.ts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
    /// For a string enum: values upstream deprecates, with its text (from `schema.ts`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deprecated_values: BTreeMap<String, String>,
    /// The official examples of the definition (linked from `schema.ts`), in its order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Whether `Default` can be derived.
    pub default: bool,
    /// Whether `Eq` and `Hash` can be derived.
    pub eq_hash: bool,
}

/// One official example of a definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// Upstream's title for it.
    pub title: String,
    /// Its file, relative to the version's `examples/` folder.
    pub file: String,
    /// The JSON as upstream wrote it.
    pub json: String,
}

/// Where a generated type comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A named schema definition, with its name as the schema spells it.
    Definition(String),
    /// An anonymous schema inside a definition, with its JSON pointer.
    Inline(String),
    /// Added by the method layer: the possible results of the request with this method,
    /// where the schema has no union for them.
    Results(String),
}

/// The shape of a generated type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Kind {
    /// An object with known properties.
    Struct {
        /// Fields sorted by wire name.
        fields: Vec<Field>,
        /// Type of additional properties, if the object is open.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        additional: Option<TypeRef>,
    },
    /// A string restricted to a fixed set of values.
    StringEnum {
        /// The values, sorted.
        values: Vec<String>,
    },
    /// A union, decoded by the rule in `decode`.
    Union {
        /// The arms in schema order.
        variants: Vec<Variant>,
        /// Discriminating property, if every object arm has a const or enum there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<String>,
    },
    /// Another name for a type.
    Alias {
        /// The aliased type.
        target: TypeRef,
        /// Whether the type is a newtype (`struct Name(target)`) rather than a type alias:
        /// its target holds it (through an array or a map), which no Rust alias can.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        newtype: bool,
    },
}

/// One field of a struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// Rust identifier (raw identifiers spelled with `r#`).
    pub name: String,
    /// Name on the wire.
    pub wire: String,
    /// Field type, without the `Option` that optionality or nullability adds.
    pub ty: TypeRef,
    /// Whether the schema lists the property as required.
    pub required: bool,
    /// Whether `null` is an accepted value.
    pub nullable: bool,
    /// Whether the field holds its value behind a `Box`: it closes a cycle of types that
    /// contain one another by value, or its type is in `overrides::BOXED`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub boxed: bool,
    /// Upstream's `@deprecated` text for the property (from `schema.ts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
    /// The schema's `default`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    /// Raw description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// What the strict step checks of a string property beyond its type, from its schema
    /// or the string definition it refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextRule>,
}

/// A string's `pattern`, `minLength` and `maxLength`: not checked when decoding, checked
/// by the runtime's strict step (`rt::strict::Text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextRule {
    /// The pattern, when the runtime's matcher reads it (`rt::pattern`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// `minLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// `maxLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
}

/// One arm of a union.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// Rust variant name.
    pub name: String,
    /// Payload type.
    pub ty: TypeRef,
    /// Whether the payload is behind a `Box`: the arm closes a cycle of types that contain
    /// one another by value.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub boxed: bool,
    /// What a JSON value must look like for this arm to be chosen.
    pub signature: Signature,
}

/// The facts a union decoder checks to choose an arm, without trying to decode it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    /// JSON kind of the arm.
    pub json: JsonKind,
    /// Tag values that select this arm (for tagged unions), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Whether the arm is chosen when the tag property is absent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tag_optional: bool,
    /// Required property paths (a key, or keys into required nested objects), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<Vec<String>>,
    /// For an object arm: every property it declares, sorted. Breaks ties between arms
    /// with the same required properties.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<String>,
    /// For an array arm: the signatures its first element is matched against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Signature>,
    /// For an arm that is itself a union: the signatures of its arms, any of which
    /// selects this arm.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alts: Vec<Signature>,
    /// Set when this arm cannot be told apart from another arm, which decoding chooses
    /// instead (see `overrides::INDISTINGUISHABLE_ARMS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadowed_by: Option<String>,
}

/// The kind of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` / `false`
    Boolean,
    /// A number with no fraction or exponent that fits i64 or u64.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A reference to a type from a field, an alias or a union arm.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "of")]
pub enum TypeRef {
    /// A generated type, by Rust name.
    Named(String),
    /// A const marker, by Rust name.
    Const(String),
    /// `String`
    String,
    /// `i64`
    Integer,
    /// `u64` (an integer with `minimum` >= 0)
    Unsigned,
    /// `serde_json::Number`, which writes back what it read.
    Number,
    /// `bool`
    Boolean,
    /// Any JSON value.
    Any,
    /// A JSON array of the inner type.
    Array(Box<TypeRef>),
    /// A JSON object whose values all have the inner type.
    Map(Box<TypeRef>),
}

/// A zero-sized marker type that accepts exactly one JSON value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ConstDef {
    /// Rust identifier.
    pub name: String,
    /// The one value.
    pub value: ConstValue,
}

/// The value of a const marker.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstValue {
    /// A string const.
    String(String),
    /// An integer const.
    Integer(i64),
    /// A boolean const.
    Boolean(bool),
}

impl MethodDef {
    /// The marker name of the method: its message type without `Request`/`Notification`
    /// (`CallTool`), the name of its marker type and of its variants in the method enums.
    pub fn marker_name(&self) -> String {
        let stem = self
            .definition
            .strip_suffix("Request")
            .or_else(|| self.definition.strip_suffix("Notification"))
            .unwrap_or(&self.definition);
        if stem.is_empty() {
            self.definition.clone()
        } else {
            stem.to_string()
        }
    }

    /// Whether the method is only an input request (2026-07-28: a request the server puts
    /// inside an `InputRequiredResult`), not a JSON-RPC message of its own.
    pub fn is_input_request_only(&self) -> bool {
        !self.via.is_empty()
            && self
                .via
                .iter()
                .all(|v| v == crate::overrides::INPUT_REQUEST_UNION)
    }
}

impl Signature {
    /// A signature of a JSON kind with no further facts yet (lowering fills them in).
    pub fn unknown(json: JsonKind) -> Self {
        Signature {
            json,
            tags: Vec::new(),
            tag_optional: false,
            required: Vec::new(),
            known: Vec::new(),
            items: Vec::new(),
            alts: Vec::new(),
            shadowed_by: None,
        }
    }
}

impl TypeRef {
    /// The JSON kind a value of this type has, if it is known without looking at named types.
    pub fn json_kind(&self) -> Option<JsonKind> {
        match self {
            TypeRef::String => Some(JsonKind::String),
            TypeRef::Integer | TypeRef::Unsigned => Some(JsonKind::Integer),
            TypeRef::Number => Some(JsonKind::Number),
            TypeRef::Boolean => Some(JsonKind::Boolean),
            TypeRef::Array(_) => Some(JsonKind::Array),
            TypeRef::Map(_) => Some(JsonKind::Object),
            TypeRef::Named(_) | TypeRef::Const(_) | TypeRef::Any => None,
        }
    }
}

impl Model {
    /// What the model is, in words for docs: protocol version `2025-11-25`; the extension
    /// `tasks` (one of [`overrides::EXTENSIONS`](crate::overrides::EXTENSIONS)); or the
    /// schema `name` (a schema with no methods that is not one of those).
    pub fn described(&self) -> String {
        if crate::overrides::extension(&self.version).is_some() {
            format!("the extension `{}`", self.version)
        } else if self.methods.is_empty() {
            format!("the schema `{}`", self.version)
        } else {
            format!("protocol version `{}`", self.version)
        }
    }

    /// Whether upstream deprecates anything in this version (the generated modules then
    /// allow the use of deprecated items inside themselves).
    pub fn has_deprecations(&self) -> bool {
        self.types.iter().any(|t| {
            t.deprecated.is_some()
                || match &t.kind {
                    Kind::Struct { fields, .. } => fields.iter().any(|f| f.deprecated.is_some()),
                    _ => false,
                }
        })
    }

    /// The methods of one kind that `sender` sends, in model order; `carried` says whether
    /// with the discover era's input requests (they travel inside results, not as
    /// JSON-RPC messages). The one rule for the method enums, the handler traits, the
    /// dispatch functions and the typed peers.
    pub fn method_set(
        &self,
        kind: MessageKind,
        sender: Sender,
        carried: Carried,
    ) -> Vec<&MethodDef> {
        self.methods
            .iter()
            .filter(|m| m.kind == kind)
            .filter(|m| match m.direction {
                Direction::Both => true,
                Direction::ClientToServer => sender == Sender::Client,
                Direction::ServerToClient => sender == Sender::Server,
            })
            .filter(|m| carried == Carried::AlsoInResults || !m.is_input_request_only())
            .collect()
    }

    /// The error definitions whose code the schema fixes with a `const` (on `code`, or on
    /// `error.code`): `(schema name, Rust name, code)`, sorted by Rust name.
    pub fn error_codes(&self) -> Vec<(String, String, i64)> {
        let code_of = |fields: &[Field]| -> Option<i64> {
            let f = fields.iter().find(|f| f.wire == "code")?;
            let TypeRef::Const(c) = &f.ty else {
                return None;
            };
            match self.consts.iter().find(|k| &k.name == c)?.value {
                ConstValue::Integer(i) => Some(i),
                _ => None,
            }
        };
        let mut out = Vec::new();
        for t in &self.types {
            let (Origin::Definition(d), Kind::Struct { fields, .. }) = (&t.origin, &t.kind) else {
                continue;
            };
            if !d.ends_with("Error") {
                continue;
            }
            let code = code_of(fields).or_else(|| {
                let error = fields.iter().find(|f| f.wire == "error")?;
                let TypeRef::Named(n) = &error.ty else {
                    return None;
                };
                match &self.get(n)?.kind {
                    Kind::Struct { fields, .. } => code_of(fields),
                    _ => None,
                }
            });
            if let Some(code) = code {
                out.push((d.clone(), t.name.clone(), code));
            }
        }
        out
    }

    /// Looks a type up by Rust name.
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.types
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.types[i])
    }
}

/// A type as the reports write it: `Tool`, `string[]`, `{string: any}`, a const's value.
pub fn render(model: &Model, ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(n) => n.clone(),
        TypeRef::Const(c) => match model.consts.iter().find(|k| &k.name == c).map(|k| &k.value) {
            Some(ConstValue::String(s)) => format!("{s:?}"),
            Some(ConstValue::Integer(i)) => i.to_string(),
            Some(ConstValue::Boolean(b)) => b.to_string(),
            None => c.clone(),
        },
        TypeRef::String => "string".into(),
        TypeRef::Integer => "integer".into(),
        TypeRef::Unsigned => "integer (>= 0)".into(),
        TypeRef::Number => "number".into(),
        TypeRef::Boolean => "boolean".into(),
        TypeRef::Any => "any".into(),
        TypeRef::Array(t) => format!("{}[]", render(model, t)),
        TypeRef::Map(t) => format!("{{string: {}}}", render(model, t)),
    }
}
