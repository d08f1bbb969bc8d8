//! The runtime side of the method layer: the traits every method's marker type
//! implements, and the facts they carry.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The client sends it to the server.
    ClientToServer,
    /// The server sends it to the client.
    ServerToClient,
    /// Either side sends it.
    Both,
}

impl Direction {
    /// Whether a client may send a message with this direction.
    pub const fn client_sends(self) -> bool {
        matches!(self, Direction::ClientToServer | Direction::Both)
    }

    /// Whether a server may send a message with this direction.
    pub const fn server_sends(self) -> bool {
        matches!(self, Direction::ServerToClient | Direction::Both)
    }
}

/// Request or notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// Expects a response.
    Request,
    /// Expects none.
    Notification,
}

/// A JSON-RPC request method. Implemented by one uninhabited marker type per method in
/// each version's `methods` module, e.g. `methods::CallTool`.
pub trait Request {
    /// The method string, e.g. `tools/call`.
    const METHOD: &'static str;
    /// Who sends the request.
    const DIRECTION: Direction;
    /// Whether the request must carry `params`.
    const PARAMS_REQUIRED: bool;
    /// The whole request message as the schema defines it.
    type Message: Serialize + DeserializeOwned;
    /// The type of `params` (`()` when the request has none).
    type Params: Serialize + DeserializeOwned;
    /// The type a successful response's `result` decodes to: the one result type, or a
    /// union of the possible ones.
    type Result: Serialize + DeserializeOwned;
}

/// A JSON-RPC notification method, implemented like [`Request`].
pub trait Notification {
    /// The method string, e.g. `notifications/progress`.
    const METHOD: &'static str;
    /// Who sends the notification.
    const DIRECTION: Direction;
    /// Whether the notification must carry `params`.
    const PARAMS_REQUIRED: bool;
    /// The whole notification message as the schema defines it.
    type Message: Serialize + DeserializeOwned;
    /// The type of `params` (`()` when the notification has none).
    type Params: Serialize + DeserializeOwned;
}
