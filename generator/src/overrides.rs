//! The one table of upstream quirks and deliberate departures from a literal reading of
//! the schema. Every entry names the schema definition it is about and says why.
//! Nothing else in the generator special-cases a definition by name.

/// Definitions whose schema name would make a poor or hazardous Rust name. (A name that
/// would shadow the prelude, `Result` among them, needs no entry: `names::item_name`
/// renames every such name.)
pub const RENAMES: &[(&str, &str, &str)] = &[
    (
        "Error",
        "ErrorObject",
        "`Error` would shadow every other `Error` in a glob import; JSON-RPC calls it the error object",
    ),
    (
        "ClientRequest",
        "AnyClientRequest",
        "the schema's union of every client request message; `methods::ClientRequest` is the \
         request decoded by its method, what users match on",
    ),
    (
        "ServerRequest",
        "AnyServerRequest",
        "the schema's union of every server request message; `methods::ServerRequest` is the \
         request decoded by its method",
    ),
    (
        "ClientNotification",
        "AnyClientNotification",
        "the schema's union of every client notification; `methods::ClientNotification` is the \
         notification decoded by its method",
    ),
    (
        "ServerNotification",
        "AnyServerNotification",
        "the schema's union of every server notification; `methods::ServerNotification` is the \
         notification decoded by its method",
    ),
    (
        "ClientResult",
        "AnyClientResult",
        "the schema's union of every result a client sends; `methods::ClientResult` is a \
         result decoded by the method it answers",
    ),
    (
        "ServerResult",
        "AnyServerResult",
        "the schema's union of every result a server sends; `methods::ServerResult` is a \
         result decoded by the method it answers",
    ),
];

/// Readable names for types the generator names from their place in the schema:
/// `(path-built name, name, reason)`. The path-built name stays a `doc(alias)`. A request's
/// result that is one of several types (a `CallToolResult`, or the `CreateTaskResult` of a
/// task-augmented call, or an `InputRequiredResult`) is the request's *outcome*: the schema
/// names it only by its place (`CallToolResultResponse.result`), and the method table
/// builds the same name for the unions it adds (`{Stem}ResultResponseResult`).
pub const INLINE_NAMES: &[(&str, &str, &str)] = &[
    (
        "CallToolResultResponseResult",
        "CallToolOutcome",
        "what `tools/call` answers: `CallToolResult`, or a task or input required",
    ),
    (
        "CreateMessageResultResponseResult",
        "CreateMessageOutcome",
        "what `sampling/createMessage` answers: `CreateMessageResult`, or a task",
    ),
    (
        "ElicitResultResponseResult",
        "ElicitOutcome",
        "what `elicitation/create` answers: `ElicitResult`, or a task",
    ),
    (
        "GetPromptResultResponseResult",
        "GetPromptOutcome",
        "what `prompts/get` answers: `GetPromptResult`, or input required",
    ),
    (
        "ReadResourceResultResponseResult",
        "ReadResourceOutcome",
        "what `resources/read` answers: `ReadResourceResult`, or input required",
    ),
];

/// The readable name of a path-built type name, if it has one (see [`INLINE_NAMES`]).
pub fn inline_name(path_built: &str) -> Option<&'static str> {
    INLINE_NAMES
        .iter()
        .find(|(from, _, _)| *from == path_built)
        .map(|(_, to, _)| *to)
}

/// The path-built name a type was renamed from (see [`INLINE_NAMES`]), for its alias.
pub fn inline_name_of(name: &str) -> Option<&'static str> {
    INLINE_NAMES
        .iter()
        .find(|(_, to, _)| *to == name)
        .map(|(from, _, _)| *from)
}

/// Definitions that describe arbitrary JSON and are held as `serde_json::Value`.
pub const FREE_FORM: &[(&str, &str)] = &[(
    "JSONValue",
    "a recursive union of object, array, string, integer and boolean; held as `serde_json::Value`, \
     which also accepts `null` and fractional numbers that the schema's JSONValue excludes",
)];

/// Union arms that no JSON value can tell apart from another arm of the same union:
/// `(shadowed, chosen, reason)`. The shadowed arm stays constructible and encodes as usual,
/// but decoding the union yields the chosen arm; decode by method (the request a result
/// answers) to get the shadowed type.
pub const INDISTINGUISHABLE_ARMS: &[(&str, &str, &str)] = &[
    (
        "CancelTaskResult",
        "GetTaskResult",
        "both are `Result` & `Task` with the same properties (2025-11-25)",
    ),
    (
        "GetTaskPayloadResult",
        "Result",
        "an open object with only `_meta`, exactly like `Result` (2025-11-25)",
    ),
    (
        "DeleteTaskResult",
        "Result",
        "an open object with only `_meta`, exactly like `Result` (draft revisions of 2025-10)",
    ),
    (
        "JSONRPCIncompleteResultResponse",
        "JSONRPCResultResponse",
        "its `IncompleteResult` has only optional properties, like `Result` (draft revisions of 2026-02)",
    ),
];

/// Definitions held behind a `Box` in every property whose type they are: `(definition,
/// reason)`. Serde decodes by value, so each layer a decoded message passes through
/// copies it whole; these objects are large inline (every capability a nested object with
/// its own map of other members) and ride in messages that are decoded often.
pub const BOXED: &[(&str, &str)] = &[
    (
        "ClientCapabilities",
        "488 bytes inline (2025-11-25); in 2026-07-28 every request's `_meta` carries one, and \
         boxing it took a typed decode of the recorded 2026-07-28 requests from 1.00 to 0.94 \
         of `serde_json::Value`'s time (`memmove` was 19% of it)",
    ),
    (
        "ServerCapabilities",
        "384 bytes inline (2025-11-25), in the `initialize` and `server/discover` results",
    ),
];

/// Whether properties of type `def` hold it behind a `Box` (see [`BOXED`]).
pub fn boxed(def: &str) -> bool {
    BOXED.iter().any(|(d, _)| *d == def)
}

/// The Rust name a definition is renamed to, if it is.
pub fn rename(def: &str) -> Option<&'static str> {
    RENAMES
        .iter()
        .find(|(from, _, _)| *from == def)
        .map(|(_, to, _)| *to)
}

/// Whether a definition is free-form JSON.
pub fn is_free_form(def: &str) -> bool {
    FREE_FORM.iter().any(|(name, _)| *name == def)
}

/// The arm chosen instead of `shadowed`, if that arm is listed as indistinguishable.
pub fn chosen_instead_of(shadowed: &str) -> Option<&'static str> {
    INDISTINGUISHABLE_ARMS
        .iter()
        .find(|(s, _, _)| *s == shadowed)
        .map(|(_, chosen, _)| *chosen)
}

/// Discriminators the schema states in prose but not as a `const`:
/// `(definition, property, value, value of every other arm, reason)`. In a union with
/// `definition` as an arm, `property` becomes the tag: `value` selects `definition`, and
/// the other value (or the property's absence) selects among the other arms.
pub const IMPLIED_TAGS: &[(&str, &str, &str, &str, &str)] = &[(
    "InputRequiredResult",
    "resultType",
    "input_required",
    "complete",
    "2026-07-28 `ResultType`: `resultType` is a plain string in the schema, but its description \
     says `input_required` means an InputRequiredResult, `complete` the final result, and an \
     absent field is `complete`",
)];

/// String enums whose values have an order the schema gives in prose only:
/// `(definition, values least first, reason)`. The enum gets `PartialOrd` in that order; a
/// value the version does not define (its catch-all) is ordered against none of them.
pub const ORDERED_ENUMS: &[(&str, &[&str], &str)] = &[(
    "LoggingLevel",
    &[
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ],
    "its description maps the values to RFC 5424's severities (in that RFC's order, least \
     severe first); the schema lists them alphabetically. The runtime's \
     `rt::envelope::LOG_LEVELS` holds the same order (tests hold the two together)",
)];

/// The order of a definition's values, least first, if it is ordered.
pub fn ordered_values(def: &str) -> Option<&'static [&'static str]> {
    ORDERED_ENUMS
        .iter()
        .find(|(d, ..)| *d == def)
        .map(|(_, values, _)| *values)
}

/// The implied tag of a definition, if it has one.
pub fn implied_tag(def: &str) -> Option<(&'static str, &'static str, &'static str)> {
    IMPLIED_TAGS
        .iter()
        .find(|(d, ..)| *d == def)
        .map(|(_, prop, value, other, _)| (*prop, *value, *other))
}

/// Requests whose result type neither a `…ResultResponse` definition nor the naming
/// convention (`<Stem>Request` → `<Stem>Result`) gives: `(request, result, reason)`.
pub const REQUEST_RESULTS: &[(&str, &str, &str)] = &[
    (
        "PingRequest",
        "EmptyResult",
        "the lifecycle section says the receiver answers `ping` with an empty result",
    ),
    (
        "SubscribeRequest",
        "EmptyResult",
        "`resources/subscribe` is acknowledged with an empty result",
    ),
    (
        "UnsubscribeRequest",
        "EmptyResult",
        "`resources/unsubscribe` is acknowledged with an empty result",
    ),
    (
        "SetLevelRequest",
        "EmptyResult",
        "`logging/setLevel` is acknowledged with an empty result",
    ),
    (
        "ElicitationCreateRequest",
        "ElicitResult",
        "draft revisions of 2026-02: the renamed elicitation request is answered by `ElicitResult`",
    ),
    (
        "ElicitationInputRequest",
        "ElicitResult",
        "draft revisions of 2026-02: the elicitation input request is answered by `ElicitResult`",
    ),
    (
        "SamplingCreateRequest",
        "CreateMessageResult",
        "draft revisions of 2026-02: the renamed sampling request is answered by `CreateMessageResult`",
    ),
    (
        "SamplingInputRequest",
        "CreateMessageResult",
        "draft revisions of 2026-02: the sampling input request is answered by `CreateMessageResult`",
    ),
    (
        "SubscriptionsListenRequest",
        "EmptyResult",
        "draft revisions of 2026-05 before `SubscriptionsListenResult` existed: the stream ends \
         with an empty result",
    ),
];

/// The result definition listed for a request, if any.
pub fn request_result(request: &str) -> Option<&'static str> {
    REQUEST_RESULTS
        .iter()
        .find(|(r, _, _)| *r == request)
        .map(|(_, result, _)| *result)
}

/// The union whose members are requests the server embeds in an `InputRequiredResult`
/// instead of sending them as JSON-RPC requests (2026-07-28). They count as
/// server→client requests for the method table, but not for JSON-RPC decoding.
pub const INPUT_REQUEST_UNION: &str = "InputRequest";

/// Task augmentation (2025-11-25): a request whose params have the property `.0` may be
/// answered by the definition `.1` instead of its usual result. The schema's result
/// unions do not say which requests; the params do.
pub const TASK_AUGMENTATION: (&str, &str) = ("task", "CreateTaskResult");

/// Requests a handler answers with an empty result unless it implements them, rather than
/// -32601: `(method, reason)`.
pub const ANSWERED_BY_DEFAULT: &[(&str, &str)] = &[(
    "ping",
    "every version's lifecycle: the receiver MUST respond promptly with an empty response",
)];

/// Whether the handler traits answer `method` with an empty result by default.
pub fn answered_by_default(method: &str) -> bool {
    ANSWERED_BY_DEFAULT.iter().any(|(m, _)| *m == method)
}

/// The lifecycle methods of the two eras, which the version adapters and the version
/// list meet on: an `initialize`-era version answers `initialize`, a `server/discover`-era
/// version `server/discover` (the runtime's `rt::adapt` and `rt::bridge` say what each
/// becomes in the other); and the result member that says how a newer result may be
/// cached, which a result from an older server is given (`rt::bridge::older_result`).
pub struct Lifecycle {
    /// The older era's handshake.
    pub initialize: &'static str,
    /// What the newer era asks instead.
    pub discover: &'static str,
    /// The member of a discover-era result that says how it may be cached.
    pub cache_scope: &'static str,
}

/// The lifecycle methods, as the specification names them.
pub const LIFECYCLE: Lifecycle = Lifecycle {
    initialize: "initialize",
    discover: "server/discover",
    cache_scope: "cacheScope",
};

/// The request whose handler method's documentation says how a tool's own failure is
/// answered (an error result, not a JSON-RPC error).
pub const CALL_TOOL: &str = "tools/call";

/// The union of the answers to a discover-era result's input requests
/// ([`INPUT_REQUEST_UNION`]), as `answer_inputs` gives them.
pub const INPUT_RESPONSE_UNION: &str = "InputResponse";

/// A kind of part a `Router` (the runtime's `rt::router`) serves: the request that lists
/// them and the member of its result that holds them, the request that serves one, the
/// definitions of an item and of that request's params, the member each is keyed by, and
/// the server capability that says the server has them.
pub struct Part {
    /// The request that lists them (`tools/list`).
    pub list: &'static str,
    /// The member of its result that holds them (`tools`).
    pub listed: &'static str,
    /// The request that serves one (`tools/call`).
    pub serve: &'static str,
    /// The definition of an item (`Tool`).
    pub item: &'static str,
    /// The member an item is known by (`name`).
    pub key: &'static str,
    /// The definition of the serving request's params (`CallToolRequestParams`).
    pub params: &'static str,
    /// The member of the params that names the item (`name`).
    pub params_key: &'static str,
    /// The capability of `ServerCapabilities` that declares them (`tools`).
    pub capability: &'static str,
}

/// Tools, found by name.
pub const TOOLS: Part = Part {
    list: "tools/list",
    listed: "tools",
    serve: CALL_TOOL,
    item: "Tool",
    key: "name",
    params: "CallToolRequestParams",
    params_key: "name",
    capability: "tools",
};

/// Resources, found by URI.
pub const RESOURCES: Part = Part {
    list: "resources/list",
    listed: "resources",
    serve: "resources/read",
    item: "Resource",
    key: "uri",
    params: "ReadResourceRequestParams",
    params_key: "uri",
    capability: "resources",
};

/// Prompts, found by name.
pub const PROMPTS: Part = Part {
    list: "prompts/list",
    listed: "prompts",
    serve: "prompts/get",
    item: "Prompt",
    key: "name",
    params: "GetPromptRequestParams",
    params_key: "name",
    capability: "prompts",
};

/// The tool definitions the constructors' shortcuts (`CallToolResult::text`,
/// `Tool::for_input`, `CallToolRequestParams::arguments_as`) and a `Router`'s tool errors
/// build on.
pub struct ToolShapes {
    /// A tool's result (`CallToolResult`).
    pub result: &'static str,
    /// Its content blocks (`content`).
    pub content: &'static str,
    /// The content block of text (`TextContent`), and its text member (`text`).
    pub text_content: (&'static str, &'static str),
    /// The member that says the call failed (`isError`).
    pub is_error: &'static str,
    /// The result's structured content (`structuredContent`).
    pub structured: &'static str,
    /// A tool's input and output schemas (`inputSchema`, `outputSchema`).
    pub schemas: (&'static str, &'static str),
    /// A call's arguments (`arguments`).
    pub arguments: &'static str,
}

/// The tool definitions, as the specification names them.
pub const TOOL_SHAPES: ToolShapes = ToolShapes {
    result: "CallToolResult",
    content: "content",
    text_content: ("TextContent", "text"),
    is_error: "isError",
    structured: "structuredContent",
    schemas: ("inputSchema", "outputSchema"),
    arguments: "arguments",
};

/// What a `Router` answers besides its parts: the lifecycle's members, the capabilities,
/// the templates it has none of, the request that sets the logging level, and what a
/// discover-era result says besides its content.
pub struct Served {
    /// The server's info (`Implementation`).
    pub info: &'static str,
    /// The server's capabilities (`ServerCapabilities`) and the one for logging (`logging`).
    pub capabilities: (&'static str, &'static str),
    /// The `initialize` result's members: version, capabilities, info.
    pub initialize: [&'static str; 3],
    /// The `server/discover` result's members: versions, capabilities, `_meta`, and the
    /// info's key in that `_meta`.
    pub discover: [&'static str; 4],
    /// The templates request and its result's list member.
    pub templates: (&'static str, &'static str),
    /// The request that sets the logging level (initialize era).
    pub set_level: &'static str,
    /// The lifecycle result's member that tells the client how to use the server.
    pub instructions: &'static str,
    /// The discover era's result members a `Router` fills the same for every result: the
    /// result's type (complete), its cache scope (the same for every client: what a
    /// `Router` holds is fixed) and how long it may be kept (not: 0 ms).
    pub result_common: [(&'static str, &'static str); 3],
}

/// What a `Router` answers, as the specification names it.
pub const SERVED: Served = Served {
    info: "Implementation",
    capabilities: ("ServerCapabilities", "logging"),
    initialize: ["protocolVersion", "capabilities", "serverInfo"],
    discover: [
        "supportedVersions",
        "capabilities",
        "_meta",
        "io.modelcontextprotocol/serverInfo",
    ],
    templates: ("resources/templates/list", "resourceTemplates"),
    set_level: "logging/setLevel",
    instructions: "instructions",
    result_common: [
        ("resultType", "complete"),
        (LIFECYCLE.cache_scope, "public"),
        ("ttlMs", "0"),
    ],
};

/// Messages that no direction union of their schema lists: an extension's, whose schema
/// defines its requests and notifications (`allOf` of `JSONRPCRequest` and a `method`
/// const) but no `ClientRequest`-style unions. A message a direction union lists takes
/// its direction from the union, whatever this table says.
pub const MESSAGE_DIRECTIONS: &[MessageDirection] = {
    const TASKS: &str = "the tasks extension (io.modelcontextprotocol/tasks): the client polls, \
                         updates and cancels the tasks a server created; the server pushes \
                         their status";
    const fn client_request(method: &'static str, why: &'static str) -> MessageDirection {
        MessageDirection {
            method,
            request: true,
            from_client: true,
            why,
        }
    }
    &[
        client_request("tasks/get", TASKS),
        client_request("tasks/update", TASKS),
        client_request("tasks/cancel", TASKS),
        MessageDirection {
            method: "notifications/tasks",
            request: false,
            from_client: false,
            why: TASKS,
        },
        // The extension's first revisions (2026-05), for diffs between revisions.
        client_request("tasks/list", TASKS),
        client_request("tasks/result", TASKS),
        MessageDirection {
            method: "notifications/tasks/status",
            request: false,
            from_client: false,
            why: TASKS,
        },
        client_request(
            "tools/call",
            "the core request an extension answers with a result of its own (the tasks \
             extension's CreateTaskResult), in the extension's module: see `EXTENSIONS`",
        ),
    ]
};

/// An entry of [`MESSAGE_DIRECTIONS`].
#[derive(Debug, Clone, Copy)]
pub struct MessageDirection {
    /// The method.
    pub method: &'static str,
    /// A request (else a notification).
    pub request: bool,
    /// Sent by the client (else by the server).
    pub from_client: bool,
    /// Why, and where the specification says so.
    pub why: &'static str,
}

/// The entry of [`MESSAGE_DIRECTIONS`] for `method`.
pub fn message_direction(method: &str) -> Option<&'static MessageDirection> {
    MESSAGE_DIRECTIONS.iter().find(|m| m.method == method)
}

/// An official extension, as far as its schema does not say it.
#[derive(Debug, Clone, Copy)]
pub struct Extension {
    /// Its name in `schema/lock.json` (`tasks`).
    pub name: &'static str,
    /// Its identifier, the key under `capabilities.extensions` (`None`: it is not
    /// negotiated).
    pub id: Option<&'static str>,
    /// The protocol version whose definitions its schema copies in, and whose types its
    /// module uses for them (`None`: it copies none).
    pub core: Option<&'static str>,
    /// The core requests it may answer with one of its own results instead:
    /// `(method, result definition)`.
    pub answers: &'static [(&'static str, &'static str)],
    /// Its requests whose param Streamable HTTP repeats in the `Mcp-Name` header:
    /// `(method, param)`.
    pub named: &'static [(&'static str, &'static str)],
    /// Params of its requests whose members' values are held as they came
    /// (`serde_json::Value`) rather than as the schema's type, because the specification
    /// asks a server to ignore some of them unread: `(method, param, why)`.
    pub unread: &'static [(&'static str, &'static str, &'static str)],
    /// Why, and where the specification says so.
    pub why: &'static str,
}

/// The official extensions the repository generates into `mcp-spec-types` (`ext::<name>`).
pub const EXTENSIONS: &[Extension] = &[
    Extension {
        name: "tasks",
        id: Some("io.modelcontextprotocol/tasks"),
        core: Some("2026-07-28"),
        answers: &[("tools/call", "CreateTaskResult")],
        named: &[
            ("tasks/cancel", "taskId"),
            ("tasks/get", "taskId"),
            ("tasks/update", "taskId"),
        ],
        unread: &[(
            "tasks/update",
            "inputResponses",
            "its section on updates: a server SHOULD ignore the responses under keys that are \
             not outstanding (never issued, answered already, superseded), so the value under \
             such a key is not read as an `InputResponse` and cannot refuse the update; the \
             handler reads the outstanding ones (the conformance suite's \
             tasks-dispatch-and-envelope sends `{\"ignored\": true}` under an unknown key and \
             expects the acknowledgement)",
        )],
        why: "SEP-2663: built on 2026-07-28 (its schema copies that version's definitions); a \
              server that negotiated it may answer `tools/call` with a `CreateTaskResult` \
              (`resultType: \"task\"`) instead of the call's result; over Streamable HTTP, \
              `tasks/get`, `tasks/update` and `tasks/cancel` carry `Mcp-Name: <taskId>` \
              (its section \"Streamable HTTP: Routing Headers\")",
    },
    Extension {
        name: "server-card",
        id: None,
        core: None,
        answers: &[],
        named: &[],
        unread: &[],
        why: "SEP-2127 (experimental): a document a server publishes over HTTP, not a \
              message; nothing to negotiate",
    },
];

/// The entry of [`EXTENSIONS`] named `name`.
pub fn extension(name: &str) -> Option<&'static Extension> {
    EXTENSIONS.iter().find(|e| e.name == name)
}
