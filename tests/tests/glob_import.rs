//! `use vX::*` must not break ordinary code: no generated name shadows `Result`,
//! `Option`, `String`, `Vec`, `Box` or `Error`-using code, and all versions can be used
//! side by side in one crate.

#![allow(unused_imports)]

mod v2024 {
    use mcp_spec_types::v2024_11_05::*;
    pub fn f() -> Result<Option<String>, Box<dyn std::error::Error>> {
        let v: Vec<i32> = vec![1];
        let _ = v;
        let msg: JsonRpcMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"m"}"#)?;
        Ok(Some(format!("{msg:?}")))
    }
}

mod v2025_03 {
    use mcp_spec_types::v2025_03_26::*;
    pub fn f() -> Result<Option<String>, Box<dyn std::error::Error>> {
        let r: ResultObject = serde_json::from_str("{}")?;
        Ok(Some(format!("{r:?}")))
    }
}

mod v2025_06 {
    use mcp_spec_types::v2025_06_18::*;
    pub fn f() -> Result<Option<String>, Box<dyn std::error::Error>> {
        let e: JsonRpcErrorError = serde_json::from_str(r#"{"code":1,"message":"m"}"#)?;
        Ok(Some(e.message))
    }
}

mod v2025_11 {
    use mcp_spec_types::v2025_11_25::*;
    pub fn f() -> Result<Option<String>, Box<dyn std::error::Error>> {
        let e: UrlElicitationRequiredError = serde_json::from_str(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"m","data":{"elicitations":[]}}}"#,
        )?;
        Ok(Some(e.error.message))
    }
}

mod v2026 {
    use mcp_spec_types::v2026_07_28::*;
    pub fn f() -> Result<Option<String>, Box<dyn std::error::Error>> {
        let v: JsonValue = serde_json::from_str("[1, null]")?;
        Ok(Some(v.to_string()))
    }
}

mod all_at_once {
    use mcp_spec_types::draft::*;
    use mcp_spec_types::v2024_11_05::*;
    pub fn f() -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn glob_imports_leave_std_names_alone() {
    assert!(v2024::f().unwrap().unwrap().contains("JsonRpcNotification"));
    assert_eq!(
        v2025_03::f().unwrap().unwrap(),
        "ResultObject { meta: None, extra: {} }"
    );
    assert_eq!(v2025_06::f().unwrap().unwrap(), "m");
    assert_eq!(v2025_11::f().unwrap().unwrap(), "m");
    assert_eq!(v2026::f().unwrap().unwrap(), "[1,null]");
    assert_eq!(all_at_once::f(), Ok(()));
}

/// Derives are there where valid: `Eq`, `Hash` and `Default` are usable.
#[test]
fn derives() {
    use mcp_spec_types::v2025_11_25 as m;
    use std::collections::HashSet;
    fn eq_hash<T: Eq + std::hash::Hash>() {}
    fn default<T: Default>() {}
    eq_hash::<m::ContentBlock>();
    eq_hash::<m::CallToolRequest>();
    eq_hash::<m::LoggingLevel>();
    eq_hash::<m::consts::ToolsCall>();
    default::<m::ClientCapabilities>();
    default::<m::TextContent>();
    default::<m::Implementation>();
    let mut set = HashSet::new();
    set.insert(m::LoggingLevel::Debug);
    assert!(set.contains(&m::LoggingLevel::Debug));
}
