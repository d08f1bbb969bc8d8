//! The two baselines: `serde_json::Value` (decodes and encodes, no variants) and
//! `serde::de::IgnoredAny` (decodes only: the floor of any decoder on `serde_json`).

use serde::de::IgnoredAny;
use serde_json::Value;

use crate::{Case, Decoder, Route};

/// `serde_json::Value`.
#[derive(Debug, Clone, Copy)]
pub struct JsonValue;

impl Decoder for JsonValue {
    const NAME: &'static str = "Value";
    type Decoded = Value;

    fn supports(_version: &str) -> bool {
        true
    }

    fn decode(case: &Case) -> Result<Value, String> {
        serde_json::from_slice(&case.bytes).map_err(|e| e.to_string())
    }

    fn encode(decoded: &Value) -> Option<Result<Vec<u8>, String>> {
        Some(serde_json::to_vec(decoded).map_err(|e| e.to_string()))
    }

    fn route(_: &Value) -> Route {
        Route::NotApplicable
    }
}

/// `serde::de::IgnoredAny`: reads the whole message and keeps nothing.
#[derive(Debug, Clone, Copy)]
pub struct Ignored;

impl Decoder for Ignored {
    const NAME: &'static str = "IgnoredAny";
    type Decoded = IgnoredAny;

    fn supports(_version: &str) -> bool {
        true
    }

    fn decode(case: &Case) -> Result<IgnoredAny, String> {
        serde_json::from_slice(&case.bytes).map_err(|e| e.to_string())
    }

    fn encode(_: &IgnoredAny) -> Option<Result<Vec<u8>, String>> {
        None
    }

    fn route(_: &IgnoredAny) -> Route {
        Route::NotApplicable
    }
}
