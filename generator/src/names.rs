//! Naming: schema names to Rust names, following the Rust API guidelines.

/// Acronyms that upstream spells in capitals and Rust spells as words.
const ACRONYMS: &[&str] = &[
    "JSONRPC", "JSON", "RPC", "URL", "URI", "HTTP", "MCP", "ID", "SSE",
];

/// Splits an identifier into words at case changes, digits kept with the word before.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut cur = String::new();
        for i in 0..chars.len() {
            let c = chars[i];
            let boundary = if cur.is_empty() {
                false
            } else {
                let prev = chars[i - 1];
                let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                (c.is_ascii_uppercase() && (prev.is_ascii_lowercase() || prev.is_ascii_digit()))
                    || (c.is_ascii_uppercase() && prev.is_ascii_uppercase() && next_lower)
            };
            if boundary {
                out.push(std::mem::take(&mut cur));
            }
            cur.push(c);
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    // Split runs of capitals made of several known acronyms ("JSONRPC" stays one word
    // and becomes "JsonRpc" below).
    out
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => {
            first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
        }
        None => String::new(),
    }
}

fn camel_word(word: &str) -> String {
    if word.len() > 1
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        // An all-capitals word: split it into known acronyms where possible.
        let mut rest = word;
        let mut out = String::new();
        'outer: while !rest.is_empty() {
            for acronym in ACRONYMS {
                if let Some(tail) = rest.strip_prefix(acronym) {
                    if *acronym == "JSONRPC" {
                        out.push_str("JsonRpc");
                    } else {
                        out.push_str(&capitalize(acronym));
                    }
                    rest = tail;
                    continue 'outer;
                }
            }
            out.push_str(&capitalize(rest));
            break;
        }
        out
    } else {
        let mut chars = word.chars();
        match chars.next() {
            Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
            None => String::new(),
        }
    }
}

/// `JSONRPCMessage` → `JsonRpcMessage`, `tools/call` → `ToolsCall`, `2.0` → `V2_0`.
pub fn type_name(name: &str) -> String {
    let out: String = words(name).iter().map(|w| camel_word(w)).collect();
    if out.is_empty() {
        return "Empty".to_string();
    }
    if out == "Self" {
        // A keyword, and no raw identifier can spell it.
        return "SelfValue".to_string();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        // Keep digit groups apart: "2.0" → "V2_0".
        let digits: Vec<&str> = name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|s| !s.is_empty())
            .collect();
        return format!("V{}", digits.join("_"));
    }
    out
}

/// `isError` → `is_error`, `_meta` → `meta`, `type` → `r#type`, `$schema` → `schema`.
pub fn field_name(wire: &str) -> String {
    let mut out = String::new();
    for word in words(wire) {
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    if out.is_empty() {
        out.push_str("field");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    escape_keyword(&out)
}

/// Rust keywords that cannot be identifiers, and those that can only be raw identifiers.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

fn escape_keyword(name: &str) -> String {
    match name {
        // These cannot be raw identifiers.
        "self" | "Self" | "super" | "crate" => format!("{name}_"),
        _ if KEYWORDS.contains(&name) => format!("r#{name}"),
        _ => name.to_string(),
    }
}

/// Names a type of a version module must not take: `use version::*` would shadow the
/// standard prelude's item of that name (a glob import wins over the prelude) or clash with
/// `serde_json`'s `Value` and `Map`, which users of the crate import beside it. (Const
/// markers live in the `consts` module, always named by path: they keep their names.)
pub const SHADOWING: &[&str] = &[
    // Types and variants of the prelude.
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "ToString",
    "ToOwned",
    // Traits of the prelude.
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Default",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Debug",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Future",
    "IntoFuture",
    "FromIterator",
    // What the crate's users name beside it.
    "Value",
    "Map",
    "Serialize",
    "Deserialize",
];

/// The Rust name of a definition: as [`type_name`], with `Object` added to a name in
/// [`SHADOWING`] (`Option` → `OptionObject`, `Result` → `ResultObject`), the way
/// `overrides::RENAMES` names `Error`.
pub fn item_name(name: &str) -> String {
    let out = type_name(name);
    if SHADOWING.contains(&out.as_str()) {
        format!("{out}Object")
    } else {
        out
    }
}

/// The variant name for a string enum value: `input_required` → `InputRequired`.
pub fn variant_name(value: &str) -> String {
    type_name(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names() {
        assert_eq!(type_name("JSONRPCMessage"), "JsonRpcMessage");
        assert_eq!(
            type_name("URLElicitationRequiredError"),
            "UrlElicitationRequiredError"
        );
        assert_eq!(
            type_name("ElicitRequestURLParams"),
            "ElicitRequestUrlParams"
        );
        assert_eq!(type_name("tools/call"), "ToolsCall");
        assert_eq!(
            type_name("notifications/tools/list_changed"),
            "NotificationsToolsListChanged"
        );
        assert_eq!(type_name("2.0"), "V2_0");
        assert_eq!(type_name("date-time"), "DateTime");
        assert_eq!(type_name("JSONValue"), "JsonValue");
        assert_eq!(item_name("Option"), "OptionObject");
        assert_eq!(item_name("self"), "SelfValue");
        assert_eq!(item_name("Options"), "Options");
        assert_eq!(variant_name("self"), "SelfValue");
    }

    #[test]
    fn field_names() {
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(field_name("isError"), "is_error");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(field_name("mimeType"), "mime_type");
        assert_eq!(field_name("uriTemplate"), "uri_template");
        assert_eq!(field_name("self"), "self_");
    }
}
