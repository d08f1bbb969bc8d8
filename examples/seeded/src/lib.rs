//! A crate that seeds its own MCP module from the official schema in its `build.rs`
//! (see there for the settings), and uses it as it would use a hand-written one.

include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
include!(concat!(env!("OUT_DIR"), "/mcp_next.rs"));

/// The definitions of [`mcp_next`], for the tests.
pub mod definitions {
    include!(concat!(env!("OUT_DIR"), "/definitions.rs"));
}

/// What the build's subset left out of [`mcp`], one schema name (or method) a line.
pub const LEFT_OUT: &str = include_str!(concat!(env!("OUT_DIR"), "/left_out.txt"));

/// This crate's own icon, used in [`mcp`] in place of the generated `Icon` (a
/// replacement): it reads and writes the same JSON, and keeps what it does not name.
pub mod icon {
    use mcp_spec_rt::serde_json::{Map, Value};
    use serde::{Deserialize, Serialize};

    /// An icon: its source, and whatever else the peer said of it.
    #[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct Icon {
        /// Where the icon is.
        pub src: String,
        /// The other members (`mimeType`, `sizes`, `theme`), as they came.
        #[serde(flatten)]
        pub rest: Map<String, Value>,
    }

    /// An icon holds no catch-all the strict decoder reports.
    impl mcp_spec_rt::strict::Check for Icon {}
}
