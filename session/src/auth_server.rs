//! Authorization for the Streamable HTTP server (feature `auth-server`): the server as an
//! OAuth 2.1 resource server, as the MCP authorization specification asks of one.
//!
//! [`HttpServer::protect`](crate::http::HttpServer::protect) with a [`Protection`]:
//!
//! - the protected resource metadata (RFC 9728) is served at its well-known URL, the
//!   resource's path inserted (`/.well-known/oauth-protected-resource/mcp` for
//!   `https://host/mcp`), naming the authorization servers and the scopes;
//! - every `POST`, `GET` and `DELETE` on the endpoint must carry `Authorization: Bearer`
//!   with a token the [`Verifier`] accepts, before its body is read: without one, 401 with
//!   `WWW-Authenticate: Bearer resource_metadata="…"` (and the scopes needed); with a
//!   token that is not valid (expired, for another audience, badly signed, from another
//!   issuer), 401 with `error="invalid_token"`; with one that lacks a scope the server or
//!   the tool called requires, 403 with `error="insufficient_scope"` and the scopes needed;
//!   a malformed `Authorization` (another scheme, two of them), 400 `invalid_request`;
//!   while the issuer's keys cannot be fetched, 503;
//! - a token is never passed on: it is checked here, for this resource (the verifier
//!   checks the audience), and the handler sees who called, not the token: [`caller`]
//!   inside a handler gives the token's subject, client and scopes;
//! - an initialize-era session belongs to the subject and client whose token started it:
//!   another naming it gets 404, as for a session that does not exist.
//!
//! [`JwtVerifier`] checks JWT access tokens: the signature with the issuer's keys (its
//! JWKS, fetched over HTTPS and cached), the issuer, the audience, the expiry and
//! not-before times, and with [`JwtVerifier::require_at_jwt`] the RFC 9068 type; HMAC
//! algorithms are never accepted.
//!
//! # Bounds
//!
//! | what | bound | default | beyond it |
//! | --- | --- | --- | --- |
//! | the issuer's key set (or metadata) read | [`JwtVerifier::max_document`] | 256 KiB | the fetch fails: the keys kept go on serving, else 503 |
//! | one fetch of the key set | [`JwtVerifier::timeout`] | 10 s | as above |
//! | key set fetches for unknown key ids | [`JwtVerifier::min_refetch`] | one per 30 s | 401 `invalid_token` (no such key); 503 while no key set could be fetched at all |
//! | how long a key set is used before it is fetched again | [`JwtVerifier::refresh`] | 5 min | fetched again on the next token |
//! | clock skew allowed on `exp` and `nbf` | [`JwtVerifier::leeway`] | 60 s | 401 `invalid_token` |
//!
//! No answer and no error message carries the token.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use mcp_spec_types::rt::service::BoxFuture;
use serde_json::{Map, Value, json};

/// Who called: what the token said. A handler gets it from [`caller`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caller {
    /// The token's subject (`sub`).
    pub subject: Option<String>,
    /// The client the token was issued to (`client_id`, else `azp`).
    pub client_id: Option<String>,
    /// The scopes granted (`scope`, space-separated, or `scp`).
    pub scopes: BTreeSet<String>,
    /// Every claim of the token.
    pub claims: Map<String, Value>,
}

impl Caller {
    /// A caller from a token's claims.
    pub fn from_claims(claims: Map<String, Value>) -> Caller {
        let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
        let mut scopes = BTreeSet::new();
        for name in ["scope", "scp"] {
            match claims.get(name) {
                Some(Value::String(s)) => {
                    scopes.extend(s.split_ascii_whitespace().map(str::to_owned))
                }
                Some(Value::Array(items)) => {
                    scopes.extend(items.iter().filter_map(Value::as_str).map(str::to_owned))
                }
                _ => {}
            }
        }
        Caller {
            subject: text("sub"),
            client_id: text("client_id").or_else(|| text("azp")),
            scopes,
            claims,
        }
    }
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The token is not valid for this server (401 `invalid_token`); says why.
    InvalidToken(String),
    /// The token could not be checked now (the issuer's keys cannot be fetched): 503.
    Unavailable(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::InvalidToken(why) => write!(f, "invalid token: {why}"),
            Refusal::Unavailable(why) => write!(f, "the token cannot be checked now: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Checks an access token: who it is for, who it is from, what it grants.
pub trait Verifier: Send + Sync {
    /// The caller `token` stands for, or why it is refused. It must refuse a token whose
    /// audience is not this server.
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, Refusal>>;
}

tokio::task_local! {
    static CALLER: Option<Arc<Caller>>;
}

/// Who sent the request being served (call it in a handler, inside its future): `None`
/// when the server is not protected, or outside a request of this transport.
pub fn caller() -> Option<Caller> {
    CALLER.try_with(|c| c.as_deref().cloned()).ok().flatten()
}

/// Runs `future` with `caller` as [`caller`]'s answer.
pub(crate) fn scope<F: std::future::Future>(
    caller: Option<Arc<Caller>>,
    future: F,
) -> impl std::future::Future<Output = F::Output> {
    CALLER.scope(caller, future)
}

/// What protects a server: the resource it is, who issues its tokens, what they must
/// grant, and the verifier.
#[derive(Clone)]
pub struct Protection {
    resource: String,
    authorization_servers: Vec<String>,
    scopes_supported: Vec<String>,
    required: BTreeSet<String>,
    tools: BTreeMap<String, BTreeSet<String>>,
    name: Option<String>,
    verifier: Arc<dyn Verifier>,
}

impl std::fmt::Debug for Protection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Protection")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("required", &self.required)
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl Protection {
    /// The server is the resource `resource` (its canonical URL, the endpoint's:
    /// `https://mcp.example.com/mcp`), whose tokens `authorization_server` issues (its
    /// issuer identifier) and `verifier` checks.
    pub fn new(
        resource: impl Into<String>,
        authorization_server: impl Into<String>,
        verifier: impl Verifier + 'static,
    ) -> Self {
        Protection {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
            required: BTreeSet::new(),
            tools: BTreeMap::new(),
            name: None,
            verifier: Arc::new(verifier),
        }
    }

    /// The scopes the metadata lists (`scopes_supported`): what a client asks for when a
    /// challenge names none.
    pub fn scopes_supported<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Scopes every request's token must grant (else 403).
    pub fn require_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.required = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Scopes a `tools/call` of `tool` needs besides (else 403 naming them).
    pub fn tool_scopes<S: Into<String>>(
        mut self,
        tool: impl Into<String>,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.tools
            .insert(tool.into(), scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The human-readable name the metadata gives (`resource_name`).
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The path the metadata is served at: the well-known prefix, then the resource's
    /// path (RFC 9728 §3.1).
    pub fn metadata_path(&self) -> String {
        let url = self.metadata_url();
        url::Url::parse(&url).map_or(url, |u| u.path().to_string())
    }

    /// The metadata's URL, as challenges name it.
    pub fn metadata_url(&self) -> String {
        crate::oauth::resource_metadata_urls(&self.resource)
            .ok()
            .and_then(|urls| urls.into_iter().next())
            .unwrap_or_else(|| "/.well-known/oauth-protected-resource".into())
    }

    /// The protected resource metadata document.
    pub fn metadata(&self) -> Value {
        let mut doc = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes_supported.is_empty() {
            doc["scopes_supported"] = json!(self.scopes_supported);
        }
        if let Some(name) = &self.name {
            doc["resource_name"] = json!(name);
        }
        doc
    }

    /// The caller of a request with `headers`, or the answer that refuses it.
    pub(crate) async fn authenticate(
        &self,
        headers: &HeaderMap,
    ) -> Result<Arc<Caller>, Box<Response>> {
        let values: Vec<_> = headers
            .get_all(axum::http::header::AUTHORIZATION)
            .iter()
            .collect();
        let token = match values.as_slice() {
            [] => return Err(self.challenge(StatusCode::UNAUTHORIZED, None, "", &self.required)),
            [one] => one.to_str().ok().and_then(|v| {
                let (scheme, token) = v.split_once(' ')?;
                let token = token.trim();
                (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
            }),
            _ => None,
        };
        let Some(token) = token else {
            let why = "the Authorization header must be one Bearer token";
            return Err(self.challenge(
                StatusCode::BAD_REQUEST,
                Some("invalid_request"),
                why,
                &self.required,
            ));
        };
        let caller = match self.verifier.verify(token).await {
            Ok(caller) => caller,
            Err(Refusal::InvalidToken(why)) => {
                let why = why.replace(token, "<token>");
                return Err(self.challenge(
                    StatusCode::UNAUTHORIZED,
                    Some("invalid_token"),
                    &why,
                    &self.required,
                ));
            }
            Err(Refusal::Unavailable(_)) => {
                // What failed upstream is not the caller's to read.
                let why = "the token cannot be checked now: try again later";
                let body = json!({"error": "temporarily_unavailable", "error_description": why});
                return Err(Box::new(
                    (
                        StatusCode::SERVICE_UNAVAILABLE,
                        [("retry-after", "5"), ("content-type", "application/json")],
                        body.to_string(),
                    )
                        .into_response(),
                ));
            }
        };
        self.check_scopes(&caller, &self.required)?;
        Ok(Arc::new(caller))
    }

    /// Whether `caller` may call `tool` (403 naming the scopes needed when not).
    pub(crate) fn check_tool(&self, caller: &Caller, tool: &str) -> Result<(), Box<Response>> {
        match self.tools.get(tool) {
            Some(needed) => self.check_scopes(caller, needed),
            None => Ok(()),
        }
    }

    /// Whether any tool has scopes of its own.
    pub(crate) fn has_tool_scopes(&self) -> bool {
        !self.tools.is_empty()
    }

    fn check_scopes(
        &self,
        caller: &Caller,
        needed: &BTreeSet<String>,
    ) -> Result<(), Box<Response>> {
        if needed.is_subset(&caller.scopes) {
            return Ok(());
        }
        // The scopes to ask for: those the token has and those it lacks.
        let ask: BTreeSet<String> = caller.scopes.union(needed).cloned().collect();
        let missing: Vec<&str> = needed
            .difference(&caller.scopes)
            .map(String::as_str)
            .collect();
        let why = format!("the token lacks the scope {}", missing.join(" "));
        Err(self.challenge(
            StatusCode::FORBIDDEN,
            Some("insufficient_scope"),
            &why,
            &ask,
        ))
    }

    /// A 401 or 403 with its `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9728 §5.1).
    fn challenge(
        &self,
        status: StatusCode,
        error: Option<&str>,
        description: &str,
        scopes: &BTreeSet<String>,
    ) -> Box<Response> {
        let mut params = vec![format!(
            "resource_metadata=\"{}\"",
            quoted(&self.metadata_url())
        )];
        let scope = if scopes.is_empty() {
            self.scopes_supported.join(" ")
        } else {
            scopes
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !scope.is_empty() {
            params.push(format!("scope=\"{}\"", quoted(&scope)));
        }
        if let Some(error) = error {
            params.push(format!("error=\"{error}\""));
            params.push(format!("error_description=\"{}\"", quoted(description)));
        }
        let header = format!("Bearer {}", params.join(", "));
        let body = match error {
            Some(error) => json!({"error": error, "error_description": quoted(description)}),
            None => json!({"error_description": "this server requires an access token"}),
        };
        let mut response = (
            status,
            [("content-type", "application/json")],
            body.to_string(),
        )
            .into_response();
        if let Ok(value) = HeaderValue::from_str(&header) {
            response
                .headers_mut()
                .insert(axum::http::header::WWW_AUTHENTICATE, value);
        }
        Box::new(response)
    }
}

/// `text` as an `error_description` may be (RFC 6750 §3): printable ASCII without `"`
/// and `\` (dropped; anything else outside that range becomes `?`).
fn quoted(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '"' | '\\'))
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .collect()
}

/// A [`Verifier`] of JWT access tokens signed by one issuer: the signature
/// against the issuer's key set (JWKS), `iss`, `aud` (this resource), `exp` (required) and
/// `nbf`. The key set is fetched on first use, used for [`refresh`](JwtVerifier::refresh),
/// and fetched again sooner when a token names a key it lacks (at most once per
/// [`min_refetch`](JwtVerifier::min_refetch)); when a fetch fails the keys kept go on
/// serving.
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    jwks_uri: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refresh: Duration,
    min_refetch: Duration,
    max_document: usize,
    http: reqwest::Client,
    keys: std::sync::RwLock<Keys>,
    /// Held by the one request that fetches the key set.
    fetching: tokio::sync::Mutex<()>,
    /// Whether a token must say it is an access token (`typ: at+jwt`, RFC 9068).
    at_jwt: bool,
}

#[derive(Default)]
struct Keys {
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("jwks_uri", &self.jwks_uri)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

/// The asymmetric algorithms a [`JwtVerifier`] takes by default.
const ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

impl JwtVerifier {
    /// Tokens from `issuer` (exactly as its `iss` says), for `audience` (this server's
    /// resource URL), signed with the keys at `jwks_uri`.
    pub fn new(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        jwks_uri: impl Into<String>,
    ) -> Self {
        let timeout = Duration::from_secs(10);
        JwtVerifier {
            issuer: issuer.into(),
            audience: audience.into(),
            jwks_uri: jwks_uri.into(),
            algorithms: ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(60),
            refresh: Duration::from_secs(300),
            min_refetch: Duration::from_secs(30),
            max_document: 256 * 1024,
            http: crate::oauth::no_redirects(timeout),
            keys: std::sync::RwLock::new(Keys::default()),
            fetching: tokio::sync::Mutex::new(()),
            at_jwt: false,
        }
    }

    /// Finds the key set of `issuer` in its metadata (RFC 8414, then OpenID Connect
    /// discovery; the document's `issuer` must be `issuer` exactly) and verifies tokens
    /// for `audience` with it.
    pub async fn discover(
        issuer: impl Into<String>,
        audience: impl Into<String>,
    ) -> Result<Self, Refusal> {
        let issuer = issuer.into();
        let mut verifier = JwtVerifier::new(issuer.clone(), audience, "");
        let urls = crate::oauth::server_metadata_urls(&issuer)
            .map_err(|e| Refusal::Unavailable(format!("the issuer: {e}")))?;
        let mut said = Vec::new();
        for url in urls {
            let doc = match verifier.fetch(&url).await {
                Ok(doc) => doc,
                Err(why) => {
                    said.push(why);
                    continue;
                }
            };
            if doc.get("issuer").and_then(Value::as_str) != Some(issuer.as_str()) {
                said.push(format!("{url}: `issuer` is not {issuer:?}"));
                continue;
            }
            let Some(jwks) = doc.get("jwks_uri").and_then(Value::as_str) else {
                said.push(format!("{url}: no `jwks_uri`"));
                continue;
            };
            verifier.jwks_uri = jwks.to_string();
            return Ok(verifier);
        }
        Err(Refusal::Unavailable(format!(
            "no key set found for the issuer {issuer}: {}",
            said.join("; ")
        )))
    }

    /// The algorithms accepted (default: RS256/384/512, PS256/384/512, ES256/384, EdDSA;
    /// HMAC ones are dropped from any list given).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .collect();
        self
    }

    /// Refuses a token whose header does not say it is an access token (`typ` `at+jwt`
    /// or `application/at+jwt`, RFC 9068 §2.1), so that an ID token of the same issuer
    /// and audience is not taken for one. Off by default: many authorization servers
    /// write `JWT`.
    pub fn require_at_jwt(mut self) -> Self {
        self.at_jwt = true;
        self
    }

    /// The clock skew allowed on `exp` and `nbf` (default 60 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// How long a fetched key set is used (default 5 min).
    pub fn refresh(mut self, refresh: Duration) -> Self {
        self.refresh = refresh;
        self
    }

    /// The shortest time between two fetches the key set for a key it lacks (default
    /// 30 s).
    pub fn min_refetch(mut self, min: Duration) -> Self {
        self.min_refetch = min;
        self
    }

    /// The largest key set (or metadata) read (default 256 KiB).
    pub fn max_document(mut self, max: usize) -> Self {
        self.max_document = max;
        self
    }

    /// The longest one fetch may take (default 10 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.http = crate::oauth::no_redirects(timeout);
        self
    }

    /// A JSON object at `url`, read within the bounds.
    async fn fetch(&self, url: &str) -> Result<Map<String, Value>, String> {
        crate::oauth::secure(url)?;
        let response = self
            .http
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| format!("{url}: {}", e.without_url()))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{url}: HTTP {status}"));
        }
        let mut body = std::pin::pin!(response.bytes_stream());
        let mut bytes = Vec::new();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| format!("{url}: {}", e.without_url()))?;
            if bytes.len() + chunk.len() > self.max_document {
                return Err(format!(
                    "{url}: longer than {} bytes (JwtVerifier::max_document)",
                    self.max_document
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        match serde_json::from_slice(&bytes) {
            Ok(Value::Object(doc)) => Ok(doc),
            Ok(_) => Err(format!("{url}: not a JSON object")),
            Err(e) => Err(format!("{url}: not JSON: {e}")),
        }
    }

    /// The key for `kid` (or the one key, when the token names none).
    async fn key(&self, kid: Option<&str>) -> Result<DecodingKey, Refusal> {
        let find = |set: &JwkSet| match kid {
            Some(kid) => set.find(kid).cloned(),
            None if set.keys.len() == 1 => set.keys.first().cloned(),
            None => None,
        };
        let look = || {
            let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
            let found = keys.set.as_ref().and_then(find);
            let stale = keys.fetched.is_none_or(|t| t.elapsed() >= self.refresh);
            let may_refetch = keys.fetched.is_none_or(|t| t.elapsed() >= self.min_refetch);
            (found, stale, may_refetch, keys.set.is_some())
        };
        let (mut found, stale, may_refetch, _) = look();
        if found.is_some() && stale {
            // The keys kept serve while one request fetches them again.
            if let Ok(_fetching) = self.fetching.try_lock() {
                self.fetch_keys().await;
                found = look().0.or(found);
            }
        } else if found.is_none() && may_refetch {
            let _fetching = self.fetching.lock().await;
            // Fetched while this one waited?
            let (again, _, may_refetch, _) = look();
            found = again;
            if found.is_none() && may_refetch {
                self.fetch_keys().await;
                found = look().0;
            }
        }
        let jwk = match found {
            Some(jwk) => jwk,
            // No key set at all: the issuer cannot be reached, which says nothing of the
            // token.
            None if !look().3 => {
                return Err(Refusal::Unavailable("the issuer's key set".into()));
            }
            None => {
                return Err(Refusal::InvalidToken(match kid {
                    Some(kid) => format!("no key {kid:?} in the issuer's key set"),
                    None => "the token names no key (`kid`) and the key set has several".into(),
                }));
            }
        };
        DecodingKey::from_jwk(&jwk)
            .map_err(|e| Refusal::InvalidToken(format!("the issuer's key cannot be used: {e}")))
    }

    /// Fetches the key set (the keys kept stay when that fails).
    async fn fetch_keys(&self) {
        let fetched = self.fetch(&self.jwks_uri).await.and_then(|doc| {
            serde_json::from_value::<JwkSet>(Value::Object(doc))
                .map_err(|e| format!("the key set at {} does not parse: {e}", self.jwks_uri))
        });
        let mut keys = self.keys.write().unwrap_or_else(|e| e.into_inner());
        keys.fetched = Some(Instant::now());
        if let Ok(set) = fetched {
            keys.set = Some(set);
        }
    }
}

impl Verifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, Refusal>> {
        Box::pin(async move {
            let header = jsonwebtoken::decode_header(token)
                .map_err(|e| Refusal::InvalidToken(format!("not a JWT: {e}")))?;
            let typ = header.typ.as_deref().unwrap_or("");
            if self.at_jwt
                && !typ.eq_ignore_ascii_case("at+jwt")
                && !typ.eq_ignore_ascii_case("application/at+jwt")
            {
                return Err(Refusal::InvalidToken(format!(
                    "the token's `typ` is {typ:?}, not at+jwt: not an access token"
                )));
            }
            if !self.algorithms.contains(&header.alg) {
                return Err(Refusal::InvalidToken(format!(
                    "signed with {:?}, which this server does not accept",
                    header.alg
                )));
            }
            let key = self.key(header.kid.as_deref()).await?;
            let mut validation = Validation::new(header.alg);
            validation.set_issuer(&[&self.issuer]);
            validation.set_audience(&[&self.audience]);
            validation.set_required_spec_claims(&["exp", "iss", "aud"]);
            validation.leeway = self.leeway.as_secs();
            validation.validate_nbf = true;
            let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
                .map_err(|e| Refusal::InvalidToken(self.why(&e)))?;
            Ok(Caller::from_claims(data.claims))
        })
    }
}

impl JwtVerifier {
    fn why(&self, e: &jsonwebtoken::errors::Error) -> String {
        use jsonwebtoken::errors::ErrorKind;
        match e.kind() {
            ErrorKind::ExpiredSignature => "the token has expired (`exp`)".into(),
            ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
            ErrorKind::InvalidAudience => format!(
                "the token is for another audience (`aud`), not this server ({})",
                self.audience
            ),
            ErrorKind::InvalidIssuer => {
                format!(
                    "the token is from another issuer (`iss`), not {}",
                    self.issuer
                )
            }
            ErrorKind::InvalidSignature => "the signature does not verify".into(),
            ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}`"),
            _ => format!("the token cannot be read: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed;
    impl Verifier for Fixed {
        fn verify<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Caller, Refusal>> {
            Box::pin(async { Err(Refusal::InvalidToken("no".into())) })
        }
    }

    #[test]
    fn metadata_is_at_the_path_inserted_well_known_url() {
        let p = Protection::new("https://h:8/mcp", "https://as", Fixed).scopes_supported(["a"]);
        assert_eq!(
            p.metadata_path(),
            "/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            p.metadata_url(),
            "https://h:8/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            p.metadata(),
            json!({"resource": "https://h:8/mcp", "authorization_servers": ["https://as"],
                   "bearer_methods_supported": ["header"], "scopes_supported": ["a"]})
        );
        let root = Protection::new("https://h", "https://as", Fixed);
        assert_eq!(
            root.metadata_path(),
            "/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn scopes_are_read_from_scope_and_scp() {
        let c = Caller::from_claims(
            json!({"sub": "u", "azp": "c", "scope": "a b", "scp": ["c"]})
                .as_object()
                .unwrap()
                .clone(),
        );
        assert_eq!(c.subject.as_deref(), Some("u"));
        assert_eq!(c.client_id.as_deref(), Some("c"));
        assert_eq!(c.scopes, ["a", "b", "c"].map(String::from).into());
    }

    #[test]
    fn challenge_text_is_quoted_safely() {
        assert_eq!(quoted("a \"b\" \\ é\n"), "a b  ??");
    }
}
