//! Authorization end to end on local ports: an authorization server written here (it
//! signs Ed25519 JWTs with a key made for the run and serves its key set), our HTTP
//! server protected by it (`auth-server`), our HTTP client authorizing (`auth-client`);
//! then, through raw requests, every token the server must refuse and how; then, against
//! a server that answers what each case asks, every malformed document, header and answer
//! the client must refuse, each with an error that says what was wrong and carries no
//! secret.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_spec_session::Versions;
use mcp_spec_session::auth_client::{Headless, MemoryStore, OAuth, OAuthConfig};
use mcp_spec_session::auth_server::{JwtVerifier, Protection, caller};
use mcp_spec_session::http::HttpServer;
use mcp_spec_session::http_client::HttpClient;
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::RequestContext;
use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
use ring::signature::KeyPair;
use serde_json::{Value, json};

fn b64url(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A signing key made for this run, and its JWK.
struct Key {
    pkcs8: Vec<u8>,
    jwk: Value,
}

impl Key {
    fn new(kid: &str) -> Key {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = ring::signature::Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        let pair = ring::signature::Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
        let jwk = json!({"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
                         "kid": kid, "x": b64url(pair.public_key().as_ref())});
        Key {
            pkcs8: pkcs8.as_ref().to_vec(),
            jwk,
        }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = self.jwk["kid"].as_str().map(str::to_owned);
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&self.pkcs8)).unwrap()
    }
}

/// The authorization server: what it was asked, and how it answers.
struct AuthServer {
    issuer: String,
    key: Key,
    codes: Mutex<HashMap<String, (String, String, String)>>,
    authorizations: Mutex<Vec<HashMap<String, String>>>,
    registrations: Mutex<u32>,
    tokens: Mutex<Vec<HashMap<String, String>>>,
    /// How long its access tokens last, in seconds.
    lifetime: Mutex<u64>,
}

fn form(text: &str) -> HashMap<String, String> {
    url::form_urlencoded::parse(text.as_bytes())
        .into_owned()
        .collect()
}

async fn as_metadata(State(s): State<Arc<AuthServer>>) -> Response {
    let i = &s.issuer;
    axum::Json(json!({
        "issuer": i, "authorization_endpoint": format!("{i}/authorize"),
        "token_endpoint": format!("{i}/token"), "registration_endpoint": format!("{i}/register"),
        "jwks_uri": format!("{i}/jwks"), "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": ["mcp:read", "mcp:admin", "offline_access"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
    }))
    .into_response()
}

async fn as_authorize(State(s): State<Arc<AuthServer>>, request: Request) -> Response {
    let q = form(request.uri().query().unwrap_or(""));
    s.authorizations.lock().unwrap().push(q.clone());
    let code = format!("code-{}", s.authorizations.lock().unwrap().len());
    s.codes.lock().unwrap().insert(
        code.clone(),
        (
            q["code_challenge"].clone(),
            q["resource"].clone(),
            q.get("scope").cloned().unwrap_or_default(),
        ),
    );
    let mut to = url::Url::parse(&q["redirect_uri"]).unwrap();
    to.query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", &q["state"])
        .append_pair("iss", &s.issuer);
    (StatusCode::FOUND, [("location", to.to_string())]).into_response()
}

async fn as_token(State(s): State<Arc<AuthServer>>, body: String) -> Response {
    let f = form(&body);
    s.tokens.lock().unwrap().push(f.clone());
    let (resource, scope) = match f["grant_type"].as_str() {
        "authorization_code" => {
            let Some((challenge, resource, scope)) = s.codes.lock().unwrap().remove(&f["code"])
            else {
                return (
                    StatusCode::BAD_REQUEST,
                    axum::Json(json!({"error": "invalid_grant"})),
                )
                    .into_response();
            };
            let digest = ring::digest::digest(&ring::digest::SHA256, f["code_verifier"].as_bytes());
            assert_eq!(b64url(digest.as_ref()), challenge, "PKCE");
            assert_eq!(
                f["resource"], resource,
                "the same resource in both requests"
            );
            (resource, scope)
        }
        _ => {
            assert_eq!(f["refresh_token"], "refresh-1");
            (f["resource"].clone(), "mcp:read offline_access".into())
        }
    };
    let lifetime = *s.lifetime.lock().unwrap();
    let token = s.key.sign(&json!({
        "iss": s.issuer, "sub": "alice", "aud": resource, "scope": scope,
        "client_id": f["client_id"], "exp": now() + lifetime, "iat": now(),
    }));
    axum::Json(
        json!({"access_token": token, "token_type": "Bearer", "expires_in": 600,
                      "scope": scope, "refresh_token": "refresh-1"}),
    )
    .into_response()
}

async fn as_register(State(s): State<Arc<AuthServer>>, body: String) -> Response {
    let asked: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(asked["application_type"], "native");
    *s.registrations.lock().unwrap() += 1;
    (
        StatusCode::CREATED,
        axum::Json(json!({"client_id": "client-1", "token_endpoint_auth_method": "none"})),
    )
        .into_response()
}

async fn as_jwks(State(s): State<Arc<AuthServer>>) -> Response {
    axum::Json(json!({"keys": [s.key.jwk]})).into_response()
}

async fn listen() -> (tokio::net::TcpListener, String) {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, format!("http://127.0.0.1:{port}"))
}

async fn start_auth_server() -> Arc<AuthServer> {
    let (listener, issuer) = listen().await;
    let state = Arc::new(AuthServer {
        issuer,
        key: Key::new("key-1"),
        codes: Mutex::default(),
        authorizations: Mutex::default(),
        registrations: Mutex::default(),
        tokens: Mutex::default(),
        lifetime: Mutex::new(600),
    });
    let app = Router::new()
        .route("/.well-known/oauth-authorization-server", get(as_metadata))
        .route("/authorize", get(as_authorize))
        .route("/token", post(as_token))
        .route("/register", post(as_register))
        .route("/jwks", get(as_jwks))
        .with_state(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    state
}

struct OldTools;

impl old::handlers::ServerHandler for OldTools {
    async fn initialize(
        &self,
        _: old::InitializeRequestParams,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::InitializeResult, ErrorObject> {
        let caps = old::ServerCapabilities {
            tools: Some(Default::default()),
            ..Default::default()
        };
        let info = old::Implementation::new("auth-test", "1");
        Ok(old::InitializeResult::new("2025-11-25", caps, info))
    }
}

struct NewTools;

impl new::handlers::ServerHandler for NewTools {
    async fn list_tools(
        &self,
        _: new::PaginatedRequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::ListToolsResult, ErrorObject> {
        let tools = ["whoami", "admin"].map(|n| new::Tool::new(n, new::ToolInputSchema::new()));
        let scope = new::ListToolsResultCacheScope::Private;
        Ok(new::ListToolsResult::new(
            "complete",
            scope,
            tools.to_vec(),
            0,
        ))
    }

    async fn call_tool(
        &self,
        p: new::CallToolRequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::CallToolOutcome, ErrorObject> {
        // The handler sees who called, not the token.
        let who = caller().ok_or_else(|| ErrorObject::internal_error("no caller"))?;
        let scopes: Vec<_> = who.scopes.iter().map(String::as_str).collect();
        let text = format!(
            "{} as {} with {}: {}",
            who.subject.unwrap_or_default(),
            who.client_id.unwrap_or_default(),
            scopes.join(" "),
            p.name
        );
        Ok(new::CallToolResult::text(text).into())
    }
}

fn versions() -> Versions {
    Versions::new()
        .with(
            ProtocolVersion::V2025_11_25,
            old::handlers::Server::new(OldTools),
        )
        .with(
            ProtocolVersion::V2026_07_28,
            new::handlers::Server::new(NewTools),
        )
}

/// Our server, protected by `issuer`: every request needs `mcp:read`, the tool `admin`
/// `mcp:admin` too. Its endpoint's URL.
async fn start_protected(issuer: &str) -> String {
    start_protected_with(issuer, Duration::from_secs(60)).await
}

/// [`start_protected`] with `leeway` on the expiry.
async fn start_protected_with(issuer: &str, leeway: Duration) -> String {
    let (listener, origin) = listen().await;
    let resource = format!("{origin}/mcp");
    let verifier = JwtVerifier::new(issuer, &resource, format!("{issuer}/jwks")).leeway(leeway);
    let protection = Protection::new(&resource, issuer, verifier)
        .scopes_supported(["mcp:read", "mcp:admin"])
        .require_scopes(["mcp:read"])
        .tool_scopes("admin", ["mcp:admin"]);
    tokio::spawn(
        HttpServer::new(versions)
            .protect(protection)
            .serve(listener),
    );
    resource
}

fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

struct NoHandler;
impl new::handlers::ClientHandler for NoHandler {}

/// Our client at `url`, authorizing with `config` (headless, in memory), and its peer.
fn authorized(url: &str, config: OAuthConfig) -> (HttpClient, new::handlers::ServerPeer) {
    let oauth = OAuth::new(config, Headless::default(), MemoryStore::default());
    let client = HttpClient::connect_authorized(
        mcp_spec_session::Session::builder(),
        url,
        Default::default(),
        new::handlers::Client::new(NoHandler),
        oauth,
    );
    let server = new::handlers::ServerPeer(client.session().peer());
    (client, server)
}

fn list_params() -> new::PaginatedRequestParams {
    serde_json::from_value(json!({"_meta": envelope()})).unwrap()
}

fn text_of(outcome: new::CallToolOutcome) -> String {
    let value = serde_json::to_value(&outcome).unwrap();
    value["content"][0]["text"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_client_authorizes_with_our_server_and_steps_up() {
    let auth = start_auth_server().await;
    let url = start_protected(&auth.issuer).await;
    let (client, server) = authorized(&url, OAuthConfig::new("http://127.0.0.1:9/callback"));
    let params = list_params();
    let tools = server.list_tools(&params).await.unwrap();
    assert_eq!(tools.tools.len(), 2);
    let call = |name: &str| -> new::CallToolRequestParams {
        serde_json::from_value(json!({"name": name, "_meta": envelope()})).unwrap()
    };
    let said = text_of(server.call_tool(&call("whoami")).await.unwrap());
    assert_eq!(
        said,
        "alice as client-1 with mcp:read offline_access: whoami"
    );
    // 403 insufficient_scope: authorized again with what it had and what it lacks.
    let said = text_of(server.call_tool(&call("admin")).await.unwrap());
    assert_eq!(
        said,
        "alice as client-1 with mcp:admin mcp:read offline_access: admin"
    );
    let authorizations = auth.authorizations.lock().unwrap().clone();
    assert_eq!(authorizations.len(), 2, "{authorizations:?}");
    assert_eq!(authorizations[0]["scope"], "mcp:read offline_access");
    assert_eq!(
        authorizations[1]["scope"],
        "mcp:admin mcp:read offline_access"
    );
    for a in &authorizations {
        assert_eq!(a["resource"], url, "RFC 8707, as the metadata wrote it");
        assert_eq!(a["code_challenge_method"], "S256");
        assert_eq!(a["client_id"], "client-1");
    }
    assert_eq!(*auth.registrations.lock().unwrap(), 1, "registered once");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_refreshed_with_the_refresh_token() {
    let auth = start_auth_server().await;
    *auth.lifetime.lock().unwrap() = 1;
    let url = start_protected_with(&auth.issuer, Duration::ZERO).await;
    let (client, server) = authorized(&url, OAuthConfig::new("http://127.0.0.1:9/callback"));
    let params = list_params();
    server.list_tools(&params).await.unwrap();
    // The token expires: the next request gets 401, and the refresh token a new one.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    server.list_tools(&params).await.unwrap();
    let grants: Vec<_> = auth
        .tokens
        .lock()
        .unwrap()
        .iter()
        .map(|t| (t["grant_type"].clone(), t["resource"].clone()))
        .collect();
    assert_eq!(
        grants,
        [
            ("authorization_code".to_string(), url.clone()),
            ("refresh_token".to_string(), url.clone())
        ]
    );
    assert_eq!(
        auth.authorizations.lock().unwrap().len(),
        1,
        "no second authorization"
    );
    client.close().await;
}

/// POSTs `body` with `headers`: the status, `WWW-Authenticate`, the body.
async fn raw(url: &str, headers: &[(&str, &str)], body: &Value) -> (u16, String, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, challenge, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_protected_server_refuses_and_how() {
    let auth = start_auth_server().await;
    let url = start_protected(&auth.issuer).await;
    let origin = url.trim_end_matches("/mcp");
    let metadata_url = format!("{origin}/.well-known/oauth-protected-resource/mcp");
    // The metadata, to anyone.
    let doc: Value = reqwest::get(&metadata_url)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        doc,
        json!({"resource": url, "authorization_servers": [auth.issuer],
               "bearer_methods_supported": ["header"], "scopes_supported": ["mcp:read", "mcp:admin"]})
    );
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                      "params": {"_meta": envelope()}});
    let claims = |f: &dyn Fn(&mut Value)| {
        let mut c = json!({"iss": auth.issuer, "sub": "alice", "aud": url,
                           "scope": "mcp:read", "exp": now() + 600});
        f(&mut c);
        c
    };
    let good = auth.key.sign(&claims(&|_| {}));
    let bearer = |t: &str| format!("Bearer {t}");
    let v = ("mcp-protocol-version", "2026-07-28");
    let m = ("mcp-method", "tools/list");

    let (status, challenge, _) = raw(&url, &[v, m], &list).await;
    assert_eq!(status, 401);
    assert_eq!(
        challenge,
        format!("Bearer resource_metadata=\"{metadata_url}\", scope=\"mcp:read\"")
    );
    let (status, _, body) = raw(&url, &[v, m, ("authorization", &bearer(&good))], &list).await;
    assert_eq!(status, 200, "{body}");

    let other = Key::new("key-1");
    let hs = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims(&|_| {}),
        &EncodingKey::from_secret(b"shared"),
    )
    .unwrap();
    let unknown_kid = Key::new("key-2").sign(&claims(&|_| {}));
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "another audience",
            auth.key
                .sign(&claims(&|c| c["aud"] = json!("http://127.0.0.1:1/mcp"))),
            401,
            "another audience",
        ),
        (
            "expired",
            auth.key.sign(&claims(&|c| c["exp"] = json!(now() - 3600))),
            401,
            "expired",
        ),
        (
            "not yet valid",
            auth.key.sign(&claims(&|c| c["nbf"] = json!(now() + 3600))),
            401,
            "not valid yet",
        ),
        (
            "another issuer",
            auth.key
                .sign(&claims(&|c| c["iss"] = json!("https://evil.example"))),
            401,
            "another issuer",
        ),
        (
            "no expiry",
            auth.key.sign(&claims(&|c| {
                c.as_object_mut().unwrap().remove("exp");
            })),
            401,
            "no `exp`",
        ),
        (
            "signed by another key",
            other.sign(&claims(&|_| {})),
            401,
            "signature does not verify",
        ),
        ("a key the set lacks", unknown_kid, 401, "no key key-2"),
        ("HMAC", hs, 401, "HS256"),
        ("not a JWT", "not-a-jwt".into(), 401, "not a JWT"),
        (
            "no mcp:read",
            auth.key.sign(&claims(&|c| c["scope"] = json!("other"))),
            403,
            "insufficient_scope",
        ),
    ];
    for (what, token, want, says) in cases {
        let (status, challenge, body) =
            raw(&url, &[v, m, ("authorization", &bearer(&token))], &list).await;
        assert_eq!(status, want, "{what}: {body}");
        assert!(
            challenge.contains(says) || body.contains(says),
            "{what}: {challenge} {body}"
        );
        assert!(
            challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")),
            "{what}: {challenge}"
        );
        assert!(
            !challenge.contains(&token) && !body.contains(&token),
            "{what}: the token echoed"
        );
    }
    // The tool's own scope: 403 naming what to ask for.
    let admin = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": {"name": "admin", "_meta": envelope()}});
    let headers = [
        v,
        ("mcp-method", "tools/call"),
        ("mcp-name", "admin"),
        ("authorization", &bearer(&good)),
    ];
    let (status, challenge, _) = raw(&url, &headers, &admin).await;
    assert_eq!(status, 403);
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains("scope=\"mcp:admin mcp:read\""),
        "{challenge}"
    );
    // The tool's scope holds however the method is written (`\/` is `/` in JSON).
    let escaped = admin.to_string().replace("tools/call", "tools\\/call");
    let response = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("authorization", bearer(&good))
        .body(escaped)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        403,
        "an escaped method is the same method"
    );
    // Another scheme, or a malformed header: 400 invalid_request (RFC 6750 §3.1).
    let (status, challenge, _) = raw(&url, &[v, m, ("authorization", "Basic eDp5")], &list).await;
    assert_eq!((status, challenge.contains("invalid_request")), (400, true));
    // A session belongs to the subject that started it.
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let response = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", bearer(&good))
        .body(hello.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let bob = auth.key.sign(&claims(&|c| c["sub"] = json!("bob")));
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let s = ("mcp-session-id", session.as_str());
    let (status, ..) = raw(&url, &[s, ("authorization", &bearer(&bob))], &ping).await;
    assert_eq!(status, 404, "another subject's session");
    let same_subject_other_client = auth
        .key
        .sign(&claims(&|c| c["client_id"] = json!("another-client")));
    let (status, ..) = raw(
        &url,
        &[s, ("authorization", &bearer(&same_subject_other_client))],
        &ping,
    )
    .await;
    assert_eq!(
        status, 404,
        "another client's session, though the subject is the same"
    );
    let (status, ..) = raw(&url, &[s, ("authorization", &bearer(&good))], &ping).await;
    assert_eq!(status, 200, "its own");
    // GET and DELETE need the token too.
    let get = reqwest::Client::new()
        .get(&url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), 401);
    let delete = reqwest::Client::new()
        .delete(&url)
        .header("mcp-session-id", &session)
        .header("authorization", bearer(&bob))
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), 404, "not bob's to end");
}

/// A status, headers and a body.
type Answer = (u16, Vec<(String, String)>, String);

/// A server that answers each path as its case says: the MCP endpoint, its metadata,
/// an authorization server's.
#[derive(Default)]
struct Scripted {
    answers: Mutex<HashMap<String, Answer>>,
    authorizations: Mutex<u32>,
    /// How `/authorize` answers: `state` echoed or not, `iss` or none.
    redirect: Mutex<(bool, Option<String>)>,
}

async fn scripted(State(s): State<Arc<Scripted>>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    if path == "/authorize" {
        *s.authorizations.lock().unwrap() += 1;
        let q = form(request.uri().query().unwrap_or(""));
        let (state_ok, iss) = s.redirect.lock().unwrap().clone();
        let mut to = url::Url::parse(&q["redirect_uri"]).unwrap();
        to.query_pairs_mut().append_pair("code", "SECRET-CODE");
        if state_ok {
            to.query_pairs_mut().append_pair("state", &q["state"]);
        }
        if let Some(iss) = iss {
            to.query_pairs_mut().append_pair("iss", &iss);
        }
        if !s.answers.lock().unwrap().contains_key("/authorize") {
            return (StatusCode::FOUND, [("location", to.to_string())]).into_response();
        }
    }
    let answer = s.answers.lock().unwrap().get(&path).cloned();
    match answer {
        Some((status, headers, body)) => {
            let mut response = (StatusCode::from_u16(status).unwrap(), body).into_response();
            for (k, v) in headers {
                response.headers_mut().insert(
                    axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    v.parse().unwrap(),
                );
            }
            response
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// One client run against a scripted server changed by `case`: the error it ends with,
/// and how many authorizations it made.
async fn client_against(case: impl FnOnce(&str, &Scripted)) -> (String, u32) {
    let (listener, origin) = listen().await;
    let s = Arc::new(Scripted::default());
    let json_headers = || vec![("content-type".to_string(), "application/json".to_string())];
    {
        let mut a = s.answers.lock().unwrap();
        let prm = format!("{origin}/.well-known/oauth-protected-resource/mcp");
        a.insert(
            "/mcp".into(),
            (
                401,
                vec![(
                    "www-authenticate".into(),
                    format!("Bearer resource_metadata=\"{prm}\""),
                )],
                String::new(),
            ),
        );
        a.insert(
            "/.well-known/oauth-protected-resource/mcp".into(),
            (
                200,
                json_headers(),
                json!({"resource": format!("{origin}/mcp"), "authorization_servers": [origin]})
                    .to_string(),
            ),
        );
        a.insert(
            "/.well-known/oauth-authorization-server".into(),
            (200, json_headers(), json!({
                "issuer": origin, "authorization_endpoint": format!("{origin}/authorize"),
                "token_endpoint": format!("{origin}/token"), "registration_endpoint": format!("{origin}/register"),
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            }).to_string()),
        );
        a.insert(
            "/register".into(),
            (
                201,
                json_headers(),
                json!({"client_id": "c", "client_secret": "SECRET-CLIENT-abc"}).to_string(),
            ),
        );
        a.insert(
            "/token".into(),
            (
                200,
                json_headers(),
                json!({"access_token": "SECRET-TOKEN-xyz", "token_type": "Bearer"}).to_string(),
            ),
        );
    }
    *s.redirect.lock().unwrap() = (true, None);
    case(&origin, &s);
    let app = Router::new().fallback(scripted).with_state(s.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let mut config = OAuthConfig::new("http://127.0.0.1:9/callback");
    config.max_document = 4096;
    let (client, server) = authorized(&format!("{origin}/mcp"), config);
    let params = list_params();
    let outcome = tokio::time::timeout(Duration::from_secs(20), server.list_tools(&params))
        .await
        .expect("no loop: the client gives up");
    let error = outcome.expect_err("the client must not go on").to_string();
    client.close().await;
    let authorizations = *s.authorizations.lock().unwrap();
    (error, authorizations)
}

fn set(s: &Scripted, path: &str, status: u16, body: Value) {
    let headers = vec![("content-type".to_string(), "application/json".to_string())];
    s.answers
        .lock()
        .unwrap()
        .insert(path.into(), (status, headers, body.to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_malformed_answer_is_an_error_that_says_what_and_no_secret() {
    type Case = Box<dyn FnOnce(&str, &Scripted)>;
    let prm = "/.well-known/oauth-protected-resource/mcp";
    let asm = "/.well-known/oauth-authorization-server";
    let cases: Vec<(&str, Case, &str)> = vec![
        (
            "resource metadata not JSON",
            Box::new(move |_, s| {
                s.answers.lock().unwrap().get_mut(prm).unwrap().2 = "{not json".into();
            }),
            "is not JSON",
        ),
        (
            "resource metadata for another server",
            Box::new(move |o, s| {
                set(
                    s,
                    prm,
                    200,
                    json!({"resource": "https://evil.example.com/mcp", "authorization_servers": [o]}),
                );
            }),
            "which is not this server",
        ),
        (
            "resource metadata without a server",
            Box::new(move |o, s| {
                set(s, prm, 200, json!({"resource": format!("{o}/mcp")}));
            }),
            "names no authorization server",
        ),
        (
            "resource metadata too long",
            Box::new(move |o, s| {
                set(
                    s,
                    prm,
                    200,
                    json!({"resource": format!("{o}/mcp"), "authorization_servers": [o], "pad": "x".repeat(5000)}),
                );
            }),
            "longer than 4096 bytes",
        ),
        (
            "resource metadata's scopes not strings",
            Box::new(move |o, s| {
                set(
                    s,
                    prm,
                    200,
                    json!({"resource": format!("{o}/mcp"), "authorization_servers": [o], "scopes_supported": [1]}),
                );
            }),
            "`scopes_supported` is not a list of strings",
        ),
        (
            "no resource metadata anywhere",
            Box::new(move |_, s| {
                s.answers.lock().unwrap().get_mut("/mcp").unwrap().1 =
                    vec![("www-authenticate".into(), "Bearer realm".into())];
                s.answers.lock().unwrap().remove(prm);
            }),
            "no protected resource metadata",
        ),
        (
            "another issuer in the metadata",
            Box::new(move |_, s| {
                let mut a = s.answers.lock().unwrap();
                let doc = &mut a.get_mut(asm).unwrap().2;
                *doc = doc.replace("\"issuer\":\"http", "\"issuer\":\"https");
            }),
            "not used",
        ),
        (
            "no PKCE S256",
            Box::new(move |_, s| {
                let mut a = s.answers.lock().unwrap();
                let doc = &mut a.get_mut(asm).unwrap().2;
                *doc = doc.replace("[\"S256\"]", "[\"plain\"]");
            }),
            "does not list S256",
        ),
        (
            "registration refused",
            Box::new(move |_, s| {
                set(s, "/register", 500, json!({"error": "server_error"}));
            }),
            "HTTP 500 Internal Server Error: server_error",
        ),
        (
            "registration without a client_id",
            Box::new(move |_, s| {
                set(
                    s,
                    "/register",
                    201,
                    json!({"client_secret": "SECRET-CLIENT-abc"}),
                );
            }),
            "`client_id` is missing",
        ),
        (
            "authorization page, not a redirect",
            Box::new(move |_, s| {
                set(s, "/authorize", 200, json!({}));
            }),
            "not a redirect",
        ),
        (
            "the state not sent back",
            Box::new(move |_, s| {
                *s.redirect.lock().unwrap() = (false, None);
            }),
            "`state` is not the one sent",
        ),
        (
            "another iss",
            Box::new(move |_, s| {
                *s.redirect.lock().unwrap() = (true, Some("https://evil.example.com".into()));
            }),
            "`iss` is \"https://evil.example.com\"",
        ),
        (
            "a token response without a token",
            Box::new(move |_, s| {
                set(
                    s,
                    "/token",
                    200,
                    json!({"token_type": "Bearer", "refresh_token": "SECRET-REFRESH"}),
                );
            }),
            "does not parse",
        ),
        (
            "a token response of the wrong type",
            Box::new(move |_, s| {
                set(
                    s,
                    "/token",
                    200,
                    json!({"access_token": "SECRET-TOKEN-xyz", "token_type": "Bearer", "expires_in": "SECRET-TOKEN-xyz"}),
                );
            }),
            "at `expires_in`",
        ),
        (
            "a token refused, the secret echoed",
            Box::new(move |_, s| {
                set(
                    s,
                    "/token",
                    400,
                    json!({"error": "invalid_client", "error_description": "bad SECRET-CLIENT-abc"}),
                );
            }),
            "invalid_client",
        ),
        (
            "a new token refused again",
            Box::new(move |_, _| {}),
            "HTTP 401",
        ),
        (
            "a lifetime past what the clock holds",
            Box::new(move |_, s| {
                set(
                    s,
                    "/token",
                    200,
                    json!({"access_token": "SECRET-TOKEN-xyz", "token_type": "Bearer", "expires_in": u64::MAX}),
                );
            }),
            "HTTP 401",
        ),
        (
            "an endpoint over plain HTTP elsewhere",
            Box::new(move |_, s| {
                let mut a = s.answers.lock().unwrap();
                let doc = &mut a.get_mut(asm).unwrap().2;
                *doc = doc
                    .replace("/authorize", "@evil.example.com/authorize")
                    .replace(
                        "\"authorization_endpoint\":\"http://127.0.0.1",
                        "\"authorization_endpoint\":\"http://example.com",
                    );
            }),
            "neither HTTPS nor on this machine",
        ),
        (
            "a refusal without the state",
            Box::new(move |_, s| {
                *s.redirect.lock().unwrap() = (false, None);
                set(s, "/authorize", 302, json!({}));
                s.answers.lock().unwrap().get_mut("/authorize").unwrap().1 = vec![(
                    "location".into(),
                    "http://127.0.0.1:9/callback?error=access_denied".into(),
                )];
            }),
            "`state` is not the one sent",
        ),
    ];
    let mut tried = 0;
    for (what, case, says) in cases {
        let (error, _) = client_against(case).await;
        eprintln!("{what}: {error}");
        assert!(error.contains(says), "{what}: {error}");
        assert!(!error.contains("SECRET"), "{what}: a secret in {error}");
        tried += 1;
    }
    assert_eq!(tried, 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_refused_at_once_share_one_authorization() {
    let auth = start_auth_server().await;
    let url = start_protected(&auth.issuer).await;
    let (client, server) = authorized(&url, OAuthConfig::new("http://127.0.0.1:9/callback"));
    let params = list_params();
    let calls = (0..8).map(|_| server.list_tools(&params));
    for answer in futures_util::future::join_all(calls).await {
        assert_eq!(answer.unwrap().tools.len(), 2);
    }
    assert_eq!(
        auth.authorizations.lock().unwrap().len(),
        1,
        "one sign-in, not eight"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_set_out_of_reach_is_503_and_an_id_token_is_no_access_token() {
    let auth = start_auth_server().await;
    // Keys at a port where nothing listens: the token cannot be checked, 503 each time
    // (never 401, which would tell the client to throw its token away).
    let (listener, origin) = listen().await;
    drop(listener);
    let (server_listener, server_origin) = listen().await;
    let resource = format!("{server_origin}/mcp");
    let verifier = JwtVerifier::new(&auth.issuer, &resource, format!("{origin}/jwks"));
    let protection = Protection::new(&resource, &auth.issuer, verifier);
    tokio::spawn(
        HttpServer::new(versions)
            .protect(protection)
            .serve(server_listener),
    );
    let token = auth
        .key
        .sign(&json!({"iss": auth.issuer, "sub": "a", "aud": resource,
                                      "exp": now() + 600}));
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                      "params": {"_meta": envelope()}});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    for attempt in 0..2 {
        let auth_header = format!("Bearer {token}");
        let mut all = headers.to_vec();
        all.push(("authorization", &auth_header));
        let (status, _, body) = raw(&resource, &all, &list).await;
        assert_eq!(status, 503, "attempt {attempt}: {body}");
        assert!(
            !body.contains(&origin),
            "the upstream's address is not told: {body}"
        );
    }
    // typ JWT, where at+jwt is required.
    let strict = start_strict(&auth).await;
    let token = auth
        .key
        .sign(&json!({"iss": auth.issuer, "sub": "a", "aud": strict,
                                      "scope": "mcp:read", "exp": now() + 600}));
    let auth_header = format!("Bearer {token}");
    let mut all = headers.to_vec();
    all.push(("authorization", &auth_header));
    let (status, challenge, _) = raw(&strict, &all, &list).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("not at+jwt"), "{challenge}");
}

/// A server that takes only tokens typed `at+jwt`.
async fn start_strict(auth: &AuthServer) -> String {
    let (listener, origin) = listen().await;
    let resource = format!("{origin}/mcp");
    let verifier =
        JwtVerifier::new(&auth.issuer, &resource, format!("{}/jwks", auth.issuer)).require_at_jwt();
    let protection = Protection::new(&resource, &auth.issuer, verifier);
    tokio::spawn(
        HttpServer::new(versions)
            .protect(protection)
            .serve(listener),
    );
    resource
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn step_ups_are_bounded() {
    // Every request is refused with 403, naming a scope the token lacks: two step-ups
    // (OAuthConfig::step_ups), two authorizations, then the request fails with the 403.
    let (error, authorizations) = client_against(|_, s| {
        let mut a = s.answers.lock().unwrap();
        a.get_mut("/mcp").unwrap().0 = 403;
        a.get_mut("/mcp").unwrap().1 = vec![(
            "www-authenticate".into(),
            "Bearer error=\"insufficient_scope\", scope=\"more\"".into(),
        )];
        a.get_mut("/token").unwrap().2 =
            json!({"access_token": "SECRET-TOKEN-xyz", "token_type": "Bearer", "scope": "other"})
                .to_string();
    })
    .await;
    assert!(error.contains("HTTP 403"), "{error}");
    assert_eq!(authorizations, 2, "{error}");
}
