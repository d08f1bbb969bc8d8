//! Authorization for a Streamable HTTP client (feature `auth-client`): OAuth 2.1 as the
//! MCP authorization specification of 2025-11-25 and 2026-07-28 asks of a client, so that
//! [`HttpClient`](crate::http_client::HttpClient) reaches servers that require a token.
//!
//! Give [`HttpClient::connect_authorized`](crate::http_client::HttpClient::connect_authorized)
//! an [`OAuth`]; when the server answers a request with 401, the client:
//!
//! 1. reads `WWW-Authenticate` (`resource_metadata`, `scope`);
//! 2. fetches the protected resource metadata (RFC 9728) from the URL the header names,
//!    else from the well-known URL with the server's path inserted, then at the root; its
//!    `resource` must be the server's URL or a prefix of it on the same origin, and is
//!    sent as it was written (never re-serialized) as the `resource` parameter (RFC 8707)
//!    of every authorization and token request;
//! 3. fetches the first authorization server's metadata (RFC 8414, then OpenID Connect
//!    discovery, in the order the specification gives for issuers with and without a
//!    path); a document whose `issuer` is not exactly the identifier it was fetched for is
//!    not used, and one that does not advertise PKCE `S256` is refused;
//! 4. identifies itself: the client pre-registered with that issuer, else its client ID
//!    metadata document's URL when the server supports those, else the client it
//!    registered there before (the [`TokenStore`]), else dynamic registration (RFC 7591,
//!    `application_type` and the `refresh_token` grant included);
//! 5. asks for the scope the challenge names, else every scope the resource metadata
//!    lists, else none, with what it asked of that issuer before and what its token has,
//!    plus `offline_access` when the authorization server lists it;
//! 6. hands the authorization URL (PKCE S256, `state`, `resource`) to the
//!    [`UserAgent`] (a browser, or [`Headless`] in tests), checks the redirect it brings
//!    back (`state`; RFC 9207 `iss`, compared as a plain string, required when the server
//!    advertises it and compared whenever sent), and exchanges the code for a token at the
//!    token endpoint (`client_secret_basic`, `client_secret_post` or `none`, as registered
//!    or advertised);
//! 7. sends the request again with the token.
//!
//! Every authorization server endpoint and the redirect URI must be HTTPS, or HTTP on
//! this machine (`localhost`, loopback addresses), as the specification asks; a metadata
//! URL that fails (not found, not JSON, an error) is passed over for the next in order.
//!
//! A 401 while holding a token tries the refresh token first (when the server is still
//! the same authorization server; only a refused grant, not an unreachable server, leads
//! to a new sign-in), else authorizes again: the resource metadata is
//! fetched again each time, so a server that moved to another authorization server is
//! followed, and credentials of one issuer are never sent to another. A 403 with
//! `insufficient_scope` authorizes again with the scopes asked before and the ones the
//! challenge names, at most [`OAuthConfig::step_ups`] times for one request, and not at
//! all when the token already has every scope named (asking again would not help).
//! Requests refused at once share one authorization: those that waited for one that
//! failed get its error rather than a sign-in each. The `GET` stream carries the token it
//! was opened with and is not renewed itself (the next POST renews the token).
//!
//! # Bounds
//!
//! | what | bound | default | beyond it |
//! | --- | --- | --- | --- |
//! | a metadata document, a registration or a token response | [`OAuthConfig::max_document`] | 256 KiB | the authorization fails, saying which document |
//! | one request to an authorization server or metadata URL | [`OAuthConfig::timeout`] | 30 s | the authorization fails |
//! | redirects followed | none: a metadata or token URL that redirects is an error | | |
//! | step-up authorizations for one request | [`OAuthConfig::step_ups`] | 2 | the request fails with the 403 |
//! | the user's sign-in (the [`UserAgent`] bringing the redirect back) | [`OAuthConfig::authorize_timeout`] | 5 min | the authorization fails, and the requests waiting for it |
//! | authorizations for one request after 401 | 1 (then a refused new token fails the request) | | |
//!
//! No error message and no log line carries a token, a code, a PKCE verifier or a
//! client secret: every message built from what a server sent is scrubbed of them.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use mcp_spec_types::rt::service::BoxFuture;
use oauth2::basic::{BasicClient, BasicTokenResponse};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    RedirectUrl, RefreshToken, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use serde_json::{Value, json};

/// The 2026-07-28 `application_type` a registration sends.
const APPLICATION_TYPE: &str = "native";

/// Why authorization failed. Its message says what was wrong and where (which document,
/// which field, which status); it never carries a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError {
    message: String,
    /// The token endpoint refused the grant itself (`invalid_grant`): a refresh token
    /// that is spent, say, as opposed to a server that could not be reached.
    grant_refused: bool,
}

impl AuthError {
    fn new(message: impl Into<String>) -> Self {
        AuthError {
            message: message.into(),
            grant_refused: false,
        }
    }
}

impl std::fmt::Display for AuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AuthError {}

impl From<String> for AuthError {
    fn from(message: String) -> Self {
        AuthError::new(message)
    }
}

/// The interactive step: show the user `url` (the authorization server's page) and bring
/// back the URL the server redirected to (the configured redirect URI, with `code`,
/// `state` and perhaps `iss` in its query).
pub trait UserAgent: Send + Sync {
    /// Opens `url` and returns the full redirect URL it ended on.
    fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, AuthError>>;
}

/// A [`UserAgent`] with no user: it `GET`s the authorization URL and takes the redirect
/// from the `Location` of the answer (for authorization servers that redirect at once,
/// as test servers do). It follows no redirect and reads no body.
#[derive(Debug, Clone)]
pub struct Headless {
    http: reqwest::Client,
}

impl Default for Headless {
    fn default() -> Self {
        Headless {
            http: crate::oauth::no_redirects(Duration::from_secs(30)),
        }
    }
}

impl UserAgent for Headless {
    fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, AuthError>> {
        Box::pin(async move {
            let response = self.http.get(url).send().await.map_err(|e| {
                AuthError::new(format!(
                    "the authorization endpoint {}: {}",
                    without_query(url),
                    e.without_url()
                ))
            })?;
            let status = response.status();
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|l| l.to_str().ok());
            match (status.is_redirection(), location) {
                (true, Some(location)) => url::Url::parse(url)
                    .and_then(|base| base.join(location))
                    .map(String::from)
                    .map_err(|e| AuthError::new(format!("the redirect's Location: {e}"))),
                _ => Err(AuthError::new(format!(
                    "the authorization endpoint {} answered {status}, not a redirect",
                    without_query(url)
                ))),
            }
        })
    }
}

/// Tokens for one resource, from one authorization server.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    /// The authorization server that issued them.
    pub issuer: String,
    /// The bearer token sent to the resource.
    pub access_token: String,
    /// The token that gets a new access token, if the server gave one.
    pub refresh_token: Option<String>,
    /// The scopes granted (as the token response said, else as asked).
    pub scopes: BTreeSet<String>,
    /// When the access token expires, if the server said.
    pub expires_at: Option<SystemTime>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("issuer", &self.issuer)
            .field("access_token", &"<redacted>")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "<redacted>"),
            )
            .field("scopes", &self.scopes)
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// A client's identity at one authorization server.
#[derive(Clone, PartialEq, Eq)]
pub struct Registration {
    /// The client ID (a client ID metadata document's URL is one too).
    pub client_id: String,
    /// The client secret, for a confidential client.
    pub client_secret: Option<String>,
    /// How the client authenticates at the token endpoint (`client_secret_basic`,
    /// `client_secret_post`, `none`), when the registration said.
    pub token_endpoint_auth_method: Option<String>,
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registration")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "token_endpoint_auth_method",
                &self.token_endpoint_auth_method,
            )
            .finish()
    }
}

/// Where tokens and registrations are kept: tokens per resource (with the issuer that
/// gave them), registrations per authorization server's issuer.
pub trait TokenStore: Send + Sync {
    /// The tokens kept for `resource` (the server's URL).
    fn tokens(&self, resource: &str) -> Option<Tokens>;
    /// Keeps `tokens` for `resource`; `None` forgets them.
    fn set_tokens(&self, resource: &str, tokens: Option<Tokens>);
    /// The client registered at `issuer`.
    fn registration(&self, issuer: &str) -> Option<Registration>;
    /// Keeps the client registered at `issuer`.
    fn set_registration(&self, issuer: &str, registration: Registration);
}

/// A [`TokenStore`] in memory (nothing outlives the process).
#[derive(Debug, Default)]
pub struct MemoryStore {
    tokens: Mutex<HashMap<String, Tokens>>,
    registrations: Mutex<HashMap<String, Registration>>,
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl TokenStore for MemoryStore {
    fn tokens(&self, resource: &str) -> Option<Tokens> {
        locked(&self.tokens).get(resource).cloned()
    }
    fn set_tokens(&self, resource: &str, tokens: Option<Tokens>) {
        let mut all = locked(&self.tokens);
        match tokens {
            Some(t) => all.insert(resource.to_string(), t),
            None => all.remove(resource),
        };
    }
    fn registration(&self, issuer: &str) -> Option<Registration> {
        locked(&self.registrations).get(issuer).cloned()
    }
    fn set_registration(&self, issuer: &str, registration: Registration) {
        locked(&self.registrations).insert(issuer.to_string(), registration);
    }
}

/// A client registered with an authorization server beforehand.
#[derive(Clone)]
pub struct PreRegistered {
    /// The issuer it is registered with (exactly as its metadata says).
    pub issuer: String,
    /// Its identity there.
    pub registration: Registration,
}

impl std::fmt::Debug for PreRegistered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreRegistered")
            .field("issuer", &self.issuer)
            .field("registration", &self.registration)
            .finish()
    }
}

/// How the client authorizes.
#[derive(Debug, Clone)]
pub struct OAuthConfig {
    /// The redirect URI the authorization server sends the user back to (registered with
    /// it; the [`UserAgent`] receives it).
    pub redirect_uri: String,
    /// The `client_name` a dynamic registration sends.
    pub client_name: String,
    /// The URL of this client's client ID metadata document, used as its client ID where
    /// the authorization server supports those (`client_id_metadata_document_supported`).
    pub client_metadata_url: Option<String>,
    /// Clients registered beforehand, per issuer.
    pub pre_registered: Vec<PreRegistered>,
    /// Step-up authorizations one request may make after 403 `insufficient_scope`.
    /// Default 2.
    pub step_ups: u32,
    /// The largest metadata document, registration or token response read. Default
    /// 256 KiB.
    pub max_document: usize,
    /// The longest one request to an authorization server or a metadata URL may take.
    /// Default 30 s.
    pub timeout: Duration,
    /// The longest the [`UserAgent`] may take to bring the redirect back (the user's
    /// sign-in); requests waiting on a 401 wait for it. Default 5 min.
    pub authorize_timeout: Duration,
}

impl OAuthConfig {
    /// A configuration with `redirect_uri` and the defaults.
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        OAuthConfig {
            redirect_uri: redirect_uri.into(),
            client_name: "mcp-spec-session client".into(),
            client_metadata_url: None,
            pre_registered: Vec::new(),
            step_ups: 2,
            max_document: 256 * 1024,
            timeout: Duration::from_secs(30),
            authorize_timeout: Duration::from_secs(300),
        }
    }
}

/// What a 401 or 403 said in `WWW-Authenticate` (its `Bearer` challenge).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `resource_metadata`: where the protected resource metadata is.
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes needed.
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, ...
    pub error: Option<String>,
}

impl Challenge {
    /// Reads the `Bearer` challenge of `WWW-Authenticate` values (RFC 6750 §3, RFC 9110
    /// §11.6.1): each value is one or more challenges, a scheme then `name=value` or
    /// `name="quoted value"` pairs, separated by commas; the `Bearer` one is read, in
    /// whichever value and place it is. What cannot be read ends the reading of its value.
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Challenge {
        let mut challenge = Challenge::default();
        for value in values {
            let mut bearer = false;
            for item in auth_items(value) {
                match item {
                    AuthItem::Scheme(scheme) => bearer = scheme.eq_ignore_ascii_case("bearer"),
                    AuthItem::Param(name, value) if bearer => {
                        match name.to_ascii_lowercase().as_str() {
                            "resource_metadata" => challenge.resource_metadata = Some(value),
                            "scope" => challenge.scope = Some(value),
                            "error" => challenge.error = Some(value),
                            _ => {}
                        }
                    }
                    AuthItem::Param(..) => {}
                }
            }
        }
        challenge
    }
}

/// A part of a `WWW-Authenticate` value.
enum AuthItem {
    Scheme(String),
    Param(String, String),
}

/// The schemes and parameters of one `WWW-Authenticate` value, in order; a token68
/// (`Basic abc==`) is skipped, and a quoted string without its end ends the list.
fn auth_items(value: &str) -> Vec<AuthItem> {
    let mut items = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches(|c: char| c == ',' || c.is_ascii_whitespace());
        let end = rest
            .find(|c: char| c == '=' || c == ',' || c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let token = rest[..end].to_string();
        let after = rest[end..].trim_start_matches([' ', '\t']);
        let Some(value) = after.strip_prefix('=') else {
            items.push(AuthItem::Scheme(token));
            rest = after;
            continue;
        };
        let value = value.trim_start_matches([' ', '\t']);
        if value.starts_with('=') || value.is_empty() || value.starts_with(',') {
            // A token68 ending in `=` (or nothing after `=`): not a parameter.
            rest = value.trim_start_matches('=');
            continue;
        }
        if let Some(quoted) = value.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, c)) = chars.next() {
                            out.push(c);
                        }
                    }
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => out.push(c),
                }
            }
            let Some(end) = end else { break };
            items.push(AuthItem::Param(token, out));
            rest = &quoted[end..];
        } else {
            let end = value.find(',').unwrap_or(value.len());
            items.push(AuthItem::Param(token, value[..end].trim().to_string()));
            rest = &value[end..];
        }
    }
    items
}

/// An OAuth client for one MCP server: give it to
/// [`HttpClient::connect_authorized`](crate::http_client::HttpClient::connect_authorized).
#[derive(Clone)]
pub struct OAuth {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

struct Inner {
    config: OAuthConfig,
    agent: Arc<dyn UserAgent>,
    store: Arc<dyn TokenStore>,
    http: reqwest::Client,
    /// One authorization at a time; the number counts the tokens obtained, so that a
    /// request refused with an older token than the current one just tries again.
    flow: tokio::sync::Mutex<()>,
    current: Mutex<Current>,
}

#[derive(Default)]
struct Current {
    generation: u64,
    /// Authorizations started; with `failed`, a request that waited for one that failed
    /// gets its error instead of starting another (one prompt, not one per request).
    attempts: u64,
    failed: Option<(u64, AuthError)>,
    /// The issuer, and the scopes asked of it last (the union a step-up widens).
    requested: Option<(String, BTreeSet<String>)>,
}

/// A token as sent, and which one it was.
#[derive(Clone)]
pub(crate) struct Bearer {
    pub(crate) token: Option<String>,
    pub(crate) generation: u64,
}

/// An oauth2 client with its authorization and token endpoints set.
type Client = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

/// The authorization server's metadata, as far as it is used.
struct ServerMetadata {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    registration_endpoint: Option<String>,
    token_auth_methods: Option<Vec<String>>,
    scopes_supported: Option<Vec<String>>,
    iss_supported: bool,
    cimd: bool,
}

/// The protected resource metadata, as far as it is used.
struct ResourceMetadata {
    resource: String,
    authorization_server: String,
    scopes_supported: Option<Vec<String>>,
}

impl OAuth {
    /// An OAuth client with `config`, asking the user through `agent` and keeping
    /// credentials in `store`.
    pub fn new(
        config: OAuthConfig,
        agent: impl UserAgent + 'static,
        store: impl TokenStore + 'static,
    ) -> Self {
        let http = crate::oauth::no_redirects(config.timeout);
        OAuth {
            inner: Arc::new(Inner {
                config,
                agent: Arc::new(agent),
                store: Arc::new(store),
                http,
                flow: tokio::sync::Mutex::new(()),
                current: Mutex::new(Current::default()),
            }),
        }
    }

    /// The step-ups one request may make ([`OAuthConfig::step_ups`]).
    pub(crate) fn step_ups(&self) -> u32 {
        self.inner.config.step_ups
    }

    /// The token to send to `server` now (from the store), and which one it is.
    pub(crate) fn bearer(&self, server: &str) -> Bearer {
        let generation = locked(&self.inner.current).generation;
        Bearer {
            token: self.inner.store.tokens(server).map(|t| t.access_token),
            generation,
        }
    }

    /// Makes sure a token newer than `used` is in the store for `server`, after a 401
    /// (`step_up` false) or a 403 `insufficient_scope` (`step_up` true) with `challenge`.
    pub(crate) async fn renew(
        &self,
        server: &str,
        used: &Bearer,
        challenge: &Challenge,
        step_up: bool,
    ) -> Result<(), AuthError> {
        let attempts = locked(&self.inner.current).attempts;
        let _flow = self.inner.flow.lock().await;
        {
            let mut current = locked(&self.inner.current);
            if current.generation != used.generation {
                // Another request renewed the token meanwhile: try with that one.
                return Ok(());
            }
            if let Some((attempt, error)) = &current.failed
                && *attempt > attempts
            {
                // One started while this request waited, and failed: its answer holds.
                return Err(error.clone());
            }
            current.attempts += 1;
        }
        let outcome = self.renew_now(server, challenge, step_up).await;
        if let Err(e) = &outcome {
            let mut current = locked(&self.inner.current);
            current.failed = Some((current.attempts, e.clone()));
        }
        outcome
    }

    async fn renew_now(
        &self,
        server: &str,
        challenge: &Challenge,
        step_up: bool,
    ) -> Result<(), AuthError> {
        let held = self.inner.store.tokens(server);
        let prm = self.resource_metadata(server, challenge).await?;
        let issuer = prm.authorization_server.clone();
        // Nothing of another authorization server is used with this one.
        let held = match held {
            Some(h) if h.issuer != issuer => {
                self.inner.store.set_tokens(server, None);
                None
            }
            held => held,
        };
        if let (Some(held), true) = (&held, step_up) {
            let named = scopes_of(challenge.scope.as_deref());
            if !named.is_empty() && named.is_subset(&held.scopes) {
                return Err(AuthError::new(format!(
                    "the server refused a token that has the scopes it asks for ({}): \
                     authorizing again would not help",
                    join(&named)
                )));
            }
        }
        let metadata = self.server_metadata(&issuer).await?;
        if let (Some(held), false) = (&held, step_up)
            && let Some(refresh) = &held.refresh_token
        {
            match self.refresh(server, &prm, &metadata, held, refresh).await {
                Ok(()) => return Ok(()),
                // The refresh token is spent or refused: authorize again.
                Err(e) if e.grant_refused => self.inner.store.set_tokens(server, None),
                // The server could not be reached, say: no new login for that.
                Err(e) => return Err(e),
            }
        }
        let granted = held.map(|h| h.scopes).unwrap_or_default();
        let scopes = self.scopes(&prm, &metadata, challenge, granted);
        self.authorize(server, &prm, &metadata, scopes).await
    }

    /// Fetches the protected resource metadata for `server`: from the challenge's URL,
    /// else the well-known URLs in order; checks its resource against `server`.
    async fn resource_metadata(
        &self,
        server: &str,
        challenge: &Challenge,
    ) -> Result<ResourceMetadata, AuthError> {
        let urls = match &challenge.resource_metadata {
            Some(url) => vec![url.clone()],
            None => crate::oauth::resource_metadata_urls(server).map_err(AuthError::new)?,
        };
        let mut tried = Vec::new();
        let mut found = None;
        for url in &urls {
            // An endpoint over plain HTTP only where the server itself is, or on this host.
            if let Err(e) = crate::oauth::secure(url).or_else(|e| match same_scheme(url, server) {
                true => Ok(()),
                false => Err(e),
            }) {
                tried.push(e);
                continue;
            }
            // Whatever fails at one URL, the next is tried, in the specified order.
            match self.document(url).await {
                Ok(Some(doc)) => {
                    found = Some((url, doc));
                    break;
                }
                Ok(None) => tried.push(format!("{url}: not found")),
                Err(e) => tried.push(e.message),
            }
        }
        let Some((url, doc)) = found else {
            return Err(AuthError::new(format!(
                "no protected resource metadata for {server}: {}",
                tried.join("; ")
            )));
        };
        let field = |name: &str| format!("the protected resource metadata at {url}: `{name}`");
        let resource = doc
            .get("resource")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                AuthError::new(format!("{} is missing or not a string", field("resource")))
            })?
            .to_string();
        if !resource_covers(&resource, server) {
            return Err(AuthError::new(format!(
                "{} is {resource:?}, which is not this server ({server}): refused",
                field("resource")
            )));
        }
        let authorization_server = doc
            .get("authorization_servers")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .ok_or_else(|| {
                AuthError::new(format!(
                    "{} names no authorization server",
                    field("authorization_servers")
                ))
            })?
            .to_string();
        let scopes_supported = strings(&doc, "scopes_supported").map_err(|()| {
            AuthError::new(format!(
                "{} is not a list of strings",
                field("scopes_supported")
            ))
        })?;
        Ok(ResourceMetadata {
            resource,
            authorization_server,
            scopes_supported,
        })
    }

    /// Fetches the metadata of the authorization server `issuer`, at the well-known URLs
    /// in order, and takes the first whose `issuer` is exactly `issuer`.
    async fn server_metadata(&self, issuer: &str) -> Result<ServerMetadata, AuthError> {
        let urls = crate::oauth::server_metadata_urls(issuer).map_err(AuthError::new)?;
        let mut said = Vec::new();
        for url in &urls {
            if let Err(e) = crate::oauth::secure(url) {
                said.push(e);
                continue;
            }
            let doc = match self.document(url).await {
                Ok(Some(doc)) => doc,
                Ok(None) => {
                    said.push(format!("{url}: not found"));
                    continue;
                }
                Err(e) => {
                    said.push(e.message);
                    continue;
                }
            };
            let field =
                |name: &str| format!("the authorization server metadata at {url}: `{name}`");
            match doc.get("issuer").and_then(Value::as_str) {
                Some(i) if i == issuer => {}
                other => {
                    let other = other.map_or("missing".into(), |o| format!("{o:?}"));
                    said.push(format!(
                        "{} is {other}, not {issuer:?}: not used",
                        field("issuer")
                    ));
                    continue;
                }
            }
            let text = |name: &str| -> Result<String, AuthError> {
                doc.get(name)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| {
                        AuthError::new(format!("{} is missing or not a string", field(name)))
                    })
            };
            let list = |name: &str| {
                strings(&doc, name).map_err(|()| {
                    AuthError::new(format!("{} is not a list of strings", field(name)))
                })
            };
            let pkce = list("code_challenge_methods_supported")?;
            if !pkce.as_ref().is_some_and(|m| m.iter().any(|m| m == "S256")) {
                return Err(AuthError::new(format!(
                    "{} does not list S256: PKCE cannot be used, so this server is refused",
                    field("code_challenge_methods_supported")
                )));
            }
            let registration_endpoint = match doc.get("registration_endpoint") {
                None | Some(Value::Null) => None,
                Some(_) => Some(text("registration_endpoint")?),
            };
            return Ok(ServerMetadata {
                issuer: issuer.to_string(),
                authorization_endpoint: text("authorization_endpoint")?,
                token_endpoint: text("token_endpoint")?,
                registration_endpoint,
                token_auth_methods: list("token_endpoint_auth_methods_supported")?,
                scopes_supported: list("scopes_supported")?,
                iss_supported: doc
                    .get("authorization_response_iss_parameter_supported")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                cimd: doc
                    .get("client_id_metadata_document_supported")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            });
        }
        Err(AuthError::new(format!(
            "no usable metadata for the authorization server {issuer}: {}",
            said.join("; ")
        )))
    }

    /// The scopes to ask for: the challenge's, else every scope the resource metadata
    /// lists; with what was asked of this issuer before and what the token held has (so
    /// that a step-up, or a new authorization after it, keeps what was gained); plus
    /// `offline_access` when the authorization server lists it.
    fn scopes(
        &self,
        prm: &ResourceMetadata,
        metadata: &ServerMetadata,
        challenge: &Challenge,
        granted: BTreeSet<String>,
    ) -> BTreeSet<String> {
        let named = scopes_of(challenge.scope.as_deref());
        let mut scopes = if !named.is_empty() {
            named
        } else {
            prm.scopes_supported
                .iter()
                .flatten()
                .cloned()
                .collect::<BTreeSet<_>>()
        };
        if let Some((issuer, asked)) = &locked(&self.inner.current).requested
            && *issuer == metadata.issuer
        {
            scopes.extend(asked.iter().cloned());
        }
        scopes.extend(granted);
        if !scopes.is_empty()
            && metadata
                .scopes_supported
                .iter()
                .flatten()
                .any(|s| s == "offline_access")
        {
            scopes.insert("offline_access".into());
        }
        scopes
    }

    /// Who this client is at `metadata`'s issuer.
    async fn registration(&self, metadata: &ServerMetadata) -> Result<Registration, AuthError> {
        let issuer = &metadata.issuer;
        let config = &self.inner.config;
        if let Some(pre) = config.pre_registered.iter().find(|p| p.issuer == *issuer) {
            return Ok(pre.registration.clone());
        }
        if let (true, Some(url)) = (metadata.cimd, &config.client_metadata_url) {
            return Ok(Registration {
                client_id: url.clone(),
                client_secret: None,
                token_endpoint_auth_method: Some("none".into()),
            });
        }
        // Registered dynamically before, with this issuer.
        if let Some(kept) = self.inner.store.registration(issuer) {
            return Ok(kept);
        }
        if let Some(endpoint) = &metadata.registration_endpoint {
            crate::oauth::secure(endpoint).map_err(|e| {
                AuthError::new(format!(
                    "the authorization server {issuer}: `registration_endpoint`: {e}"
                ))
            })?;
        }
        let Some(endpoint) = &metadata.registration_endpoint else {
            return Err(AuthError::new(format!(
                "the authorization server {issuer} offers no registration, supports no client \
                 ID metadata document this client has, and no client is pre-registered with it"
            )));
        };
        let method = match &metadata.token_auth_methods {
            Some(m) if m.iter().any(|m| m == "none") => "none",
            Some(m) if m.iter().any(|m| m == "client_secret_basic") => "client_secret_basic",
            Some(m) if m.iter().any(|m| m == "client_secret_post") => "client_secret_post",
            _ => "client_secret_basic",
        };
        let body = json!({
            "client_name": config.client_name,
            "redirect_uris": [config.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": APPLICATION_TYPE,
        });
        let response = self
            .inner
            .http
            .post(endpoint)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| {
                AuthError::new(format!("registering at {endpoint}: {}", e.without_url()))
            })?;
        let status = response.status();
        let text = self.read(response, endpoint).await?;
        if !status.is_success() {
            return Err(AuthError::new(format!(
                "registering at {endpoint}: HTTP {status}: {}",
                error_summary(&text)
            )));
        }
        let doc: Value = serde_json::from_str(&text).map_err(|e| {
            AuthError::new(format!(
                "the registration answer from {endpoint} is not JSON: {e}"
            ))
        })?;
        let field = |name: &str| -> Result<Option<String>, AuthError> {
            match doc.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(AuthError::new(format!(
                    "the registration answer from {endpoint}: `{name}` is not a string"
                ))),
            }
        };
        let registration = Registration {
            client_id: field("client_id")?.ok_or_else(|| {
                AuthError::new(format!(
                    "the registration answer from {endpoint}: `client_id` is missing"
                ))
            })?,
            client_secret: field("client_secret")?,
            token_endpoint_auth_method: field("token_endpoint_auth_method")?,
        };
        self.inner
            .store
            .set_registration(issuer, registration.clone());
        Ok(registration)
    }

    /// An oauth2 client for `registration` at `metadata`'s endpoints.
    fn client(
        &self,
        metadata: &ServerMetadata,
        registration: &Registration,
    ) -> Result<Client, AuthError> {
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            AuthError::new(format!(
                "the authorization server {}: {what}: {e}",
                metadata.issuer
            ))
        };
        // Every endpoint of an authorization server is HTTPS (loopback aside).
        for (what, url) in [
            ("`authorization_endpoint`", &metadata.authorization_endpoint),
            ("`token_endpoint`", &metadata.token_endpoint),
        ] {
            crate::oauth::secure(url).map_err(|e| bad(what, &e))?;
        }
        crate::oauth::secure(&self.inner.config.redirect_uri)
            .map_err(|e| AuthError::new(format!("the redirect URI: {e}")))?;
        let auth = AuthUrl::new(metadata.authorization_endpoint.clone())
            .map_err(|e| bad("`authorization_endpoint`", &e))?;
        let token = TokenUrl::new(metadata.token_endpoint.clone())
            .map_err(|e| bad("`token_endpoint`", &e))?;
        let redirect = RedirectUrl::new(self.inner.config.redirect_uri.clone())
            .map_err(|e| AuthError::new(format!("the redirect URI: {e}")))?;
        let secret = registration.client_secret.clone();
        let method = registration.token_endpoint_auth_method.clone().or_else(|| {
            let offered = metadata.token_auth_methods.as_ref();
            let offers = |m: &str| offered.is_none_or(|o| o.iter().any(|x| x == m));
            match secret {
                Some(_) if offers("client_secret_basic") => Some("client_secret_basic".into()),
                Some(_) if offers("client_secret_post") => Some("client_secret_post".into()),
                _ => Some("none".into()),
            }
        });
        let mut client = BasicClient::new(ClientId::new(registration.client_id.clone()))
            .set_auth_uri(auth)
            .set_token_uri(token)
            .set_redirect_uri(redirect);
        match (method.as_deref(), secret) {
            (Some("client_secret_post"), Some(secret)) => {
                client = client
                    .set_client_secret(ClientSecret::new(secret))
                    .set_auth_type(AuthType::RequestBody);
            }
            (Some("none"), _) | (_, None) => {
                client = client.set_auth_type(AuthType::RequestBody);
            }
            (_, Some(secret)) => {
                client = client
                    .set_client_secret(ClientSecret::new(secret))
                    .set_auth_type(AuthType::BasicAuth);
            }
        }
        Ok(client)
    }

    /// The authorization code flow, then the token kept for `server`.
    async fn authorize(
        &self,
        server: &str,
        prm: &ResourceMetadata,
        metadata: &ServerMetadata,
        scopes: BTreeSet<String>,
    ) -> Result<(), AuthError> {
        let registration = self.registration(metadata).await?;
        let client = self.client(metadata, &registration)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(CsrfToken::new_random)
            .set_pkce_challenge(challenge)
            .add_extra_param("resource", prm.resource.clone());
        if !scopes.is_empty() {
            request = request.add_scope(Scope::new(join(&scopes)));
        }
        let (url, state) = request.url();
        let wait = self.inner.config.authorize_timeout;
        let redirect = tokio::time::timeout(wait, self.inner.agent.authorize(url.as_str()))
            .await
            .map_err(|_| {
                AuthError::new(format!(
                    "no redirect came back within {wait:?} (OAuthConfig::authorize_timeout)"
                ))
            })??;
        let redirect = url::Url::parse(&redirect)
            .map_err(|e| AuthError::new(format!("the redirect URL: {e}")))?;
        let query: HashMap<String, String> = redirect.query_pairs().into_owned().collect();
        let verifier_text = verifier.secret().clone();
        let mut secrets = vec![state.secret().clone(), verifier_text];
        secrets.extend(query.get("code").cloned());
        // The state first (RFC 6749 §10.12): a redirect this flow did not ask for says
        // nothing, not even an error.
        if query.get("state") != Some(state.secret()) {
            return Err(AuthError::new(
                "the redirect's `state` is not the one sent: refused",
            ));
        }
        if let Some(error) = query.get("error") {
            let description = query
                .get("error_description")
                .map(String::as_str)
                .unwrap_or("");
            return Err(AuthError::new(scrub(
                format!("the authorization server refused: {error} {description}"),
                &secrets,
            )));
        }
        match query.get("iss") {
            Some(iss) if *iss != metadata.issuer => {
                return Err(AuthError::new(scrub(
                    format!(
                        "the redirect's `iss` is {iss:?}, not the issuer {:?} (RFC 9207): refused",
                        metadata.issuer
                    ),
                    &secrets,
                )));
            }
            None if metadata.iss_supported => {
                return Err(AuthError::new(format!(
                    "the redirect has no `iss`, which {} says it sends (RFC 9207): refused",
                    metadata.issuer
                )));
            }
            _ => {}
        }
        let code = query
            .get("code")
            .ok_or_else(|| AuthError::new("the redirect has no `code`"))?;
        let http = Http(self.inner.clone());
        let response = client
            .exchange_code(AuthorizationCode::new(code.clone()))
            .set_pkce_verifier(verifier)
            .add_extra_param("resource", prm.resource.clone())
            .request_async(&http)
            .await;
        let response =
            response.map_err(|e| self.token_error(metadata, e, &registration, &secrets))?;
        self.keep(server, metadata, response, &scopes, None);
        Ok(())
    }

    /// A new access token from `refresh`, for the scopes `held` has (RFC 6749 §6: a
    /// response that names none grants those).
    async fn refresh(
        &self,
        server: &str,
        prm: &ResourceMetadata,
        metadata: &ServerMetadata,
        held: &Tokens,
        refresh: &str,
    ) -> Result<(), AuthError> {
        let registration = self.registration(metadata).await?;
        let client = self.client(metadata, &registration)?;
        let token = RefreshToken::new(refresh.to_string());
        let http = Http(self.inner.clone());
        let response = client
            .exchange_refresh_token(&token)
            .add_extra_param("resource", prm.resource.clone())
            .request_async(&http)
            .await
            .map_err(|e| self.token_error(metadata, e, &registration, &[refresh.to_string()]))?;
        self.keep(server, metadata, response, &held.scopes, Some(refresh));
        Ok(())
    }

    fn keep(
        &self,
        server: &str,
        metadata: &ServerMetadata,
        response: BasicTokenResponse,
        asked: &BTreeSet<String>,
        old_refresh: Option<&str>,
    ) {
        let scopes = match response.scopes() {
            Some(s) => s.iter().flat_map(|s| scopes_of(Some(s))).collect(),
            None => asked.clone(),
        };
        let tokens = Tokens {
            issuer: metadata.issuer.clone(),
            access_token: response.access_token().secret().clone(),
            refresh_token: response
                .refresh_token()
                .map(|r| r.secret().clone())
                .or(old_refresh.map(str::to_owned)),
            scopes,
            // A lifetime past what the clock holds is no expiry to speak of.
            expires_at: response
                .expires_in()
                .and_then(|d| SystemTime::now().checked_add(d)),
        };
        self.inner.store.set_tokens(server, Some(tokens));
        let mut current = locked(&self.inner.current);
        current.generation += 1;
        current.requested = Some((metadata.issuer.clone(), asked.clone()));
    }

    fn token_error(
        &self,
        metadata: &ServerMetadata,
        e: RequestTokenError<AuthError, oauth2::basic::BasicErrorResponse>,
        registration: &Registration,
        sent: &[String],
    ) -> AuthError {
        let at = &metadata.token_endpoint;
        let mut secrets = vec![registration.client_secret.clone().unwrap_or_default()];
        secrets.extend(sent.iter().cloned());
        if let RequestTokenError::Parse(_, body) = &e {
            // A value in the wrong place may be quoted by the parse error: no token is.
            if let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(body) {
                secrets.extend(
                    ["access_token", "refresh_token", "id_token"]
                        .iter()
                        .filter_map(|k| doc.get(*k).and_then(Value::as_str))
                        .map(str::to_owned),
                );
            }
        }
        let grant_refused = matches!(
            &e,
            RequestTokenError::ServerResponse(r)
                if *r.error() == oauth2::basic::BasicErrorResponseType::InvalidGrant
        );
        let message = match e {
            RequestTokenError::ServerResponse(r) => format!("the token endpoint {at} refused: {r}"),
            RequestTokenError::Request(e) => e.message,
            RequestTokenError::Parse(e, _) => format!(
                "the token endpoint {at} answered a token response that does not parse, at `{}`: {}",
                e.path(),
                e.inner()
            ),
            RequestTokenError::Other(o) => format!("the token endpoint {at}: {o}"),
        };
        AuthError {
            grant_refused,
            ..AuthError::new(scrub(message, &secrets))
        }
    }

    async fn read(&self, response: reqwest::Response, url: &str) -> Result<String, AuthError> {
        let bytes = read_bytes(response, url, self.inner.config.max_document).await?;
        String::from_utf8(bytes)
            .map_err(|_| AuthError::new(format!("{url}: the answer is not UTF-8")))
    }
}

/// The oauth2 crate's HTTP client: this client's, reading at most
/// [`OAuthConfig::max_document`] bytes.
struct Http(Arc<Inner>);

impl<'c> oauth2::AsyncHttpClient<'c> for Http {
    type Error = AuthError;
    type Future = BoxFuture<'c, Result<oauth2::HttpResponse, AuthError>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.send(request))
    }
}

impl Http {
    async fn send(&self, request: oauth2::HttpRequest) -> Result<oauth2::HttpResponse, AuthError> {
        let (parts, body) = request.into_parts();
        let url = parts.uri.to_string();
        let response = self
            .0
            .http
            .request(parts.method, &url)
            .headers(parts.headers)
            .body(body)
            .send()
            .await
            .map_err(|e| AuthError::new(format!("{url}: {}", e.without_url())))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = read_bytes(response, &url, self.0.config.max_document).await?;
        let mut answer = oauth2::HttpResponse::new(body);
        *answer.status_mut() = status;
        *answer.headers_mut() = headers;
        Ok(answer)
    }
}

impl OAuth {
    /// A JSON document at `url`: `None` when the server has none there (4xx), an error
    /// when it answers otherwise or with something that is not a JSON object.
    async fn document(
        &self,
        url: &str,
    ) -> Result<Option<serde_json::Map<String, Value>>, AuthError> {
        let response = self
            .inner
            .http
            .get(url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| AuthError::new(format!("fetching {url}: {}", e.without_url())))?;
        let status = response.status();
        if status.is_client_error() {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(AuthError::new(format!("fetching {url}: HTTP {status}")));
        }
        let text = self.read(response, url).await?;
        match serde_json::from_str(&text) {
            Ok(Value::Object(doc)) => Ok(Some(doc)),
            Ok(_) => Err(AuthError::new(format!("{url} is not a JSON object"))),
            Err(e) => Err(AuthError::new(format!("{url} is not JSON: {e}"))),
        }
    }
}

/// A body of at most `max` bytes.
async fn read_bytes(
    response: reqwest::Response,
    url: &str,
    max: usize,
) -> Result<Vec<u8>, AuthError> {
    {
        let mut body = std::pin::pin!(response.bytes_stream());
        let mut bytes = Vec::new();
        while let Some(chunk) = body.next().await {
            let chunk =
                chunk.map_err(|e| AuthError::new(format!("reading {url}: {}", e.without_url())))?;
            if bytes.len() + chunk.len() > max {
                return Err(AuthError::new(format!(
                    "{url}: the answer is longer than {max} bytes (OAuthConfig::max_document)"
                )));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

/// Whether `url` has the scheme of `server`'s URL (a server on plain HTTP may keep its
/// metadata there too).
fn same_scheme(url: &str, server: &str) -> bool {
    match (url::Url::parse(url), url::Url::parse(server)) {
        (Ok(u), Ok(s)) => u.scheme() == s.scheme(),
        _ => false,
    }
}

/// Whether the resource `resource` covers the server at `server`: the same origin, and
/// a path that is the server's or a prefix of it at a `/`.
fn resource_covers(resource: &str, server: &str) -> bool {
    let (Ok(r), Ok(s)) = (url::Url::parse(resource), url::Url::parse(server)) else {
        return false;
    };
    if r.origin() != s.origin() || r.fragment().is_some() {
        return false;
    }
    let rp = r.path().trim_end_matches('/');
    let sp = s.path().trim_end_matches('/');
    sp == rp || sp.starts_with(&format!("{rp}/"))
}

fn scopes_of(scope: Option<&str>) -> BTreeSet<String> {
    scope
        .into_iter()
        .flat_map(str::split_ascii_whitespace)
        .map(str::to_owned)
        .collect()
}

fn join(scopes: &BTreeSet<String>) -> String {
    scopes
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A list of strings at `name`: `Err` when it is there and is something else.
fn strings(doc: &serde_json::Map<String, Value>, name: &str) -> Result<Option<Vec<String>>, ()> {
    match doc.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned).ok_or(()))
            .collect::<Result<_, _>>()
            .map(Some),
        Some(_) => Err(()),
    }
}

/// An OAuth error answer's `error` and `error_description`, else its first 200 bytes.
fn error_summary(text: &str) -> String {
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(text) {
        if let Some(e) = o.get("error").and_then(Value::as_str) {
            let d = o
                .get("error_description")
                .and_then(Value::as_str)
                .unwrap_or("");
            return format!("{e} {d}").trim().to_string();
        }
    }
    let mut end = text.len().min(200);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// A URL without its query (which may carry a state or a code).
fn without_query(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// `message` with every non-empty `secrets` replaced.
fn scrub(mut message: String, secrets: &[impl AsRef<str>]) -> String {
    for secret in secrets.iter().map(AsRef::as_ref).filter(|s| s.len() >= 4) {
        message = message.replace(secret, "<redacted>");
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_read_as_rfc_9110_writes_them() {
        let one = |v: &str| Challenge::parse([v]);
        let c = one(
            r#"Bearer error="invalid_token", error_description="Missing \"Authorization\" header", scope="a b", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp""#,
        );
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(c.scope.as_deref(), Some("a b"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://x/.well-known/oauth-protected-resource/mcp")
        );
        let c = one("bearer error=insufficient_scope,scope=mcp:write");
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scope.as_deref(), Some("mcp:write"));
        assert_eq!(one("Basic realm=\"x\""), Challenge::default());
        assert_eq!(one("Bearer"), Challenge::default());
        // An unterminated quote ends the reading there.
        let c = one(r#"Bearer error="x", scope="a b"#);
        assert_eq!((c.error.as_deref(), c.scope), (Some("x"), None));
        // Several challenges, Bearer anywhere among them; a token68 skipped.
        let c = one(r#"Bearer scope="a", DPoP algs="ES256" scope="b""#);
        assert_eq!(c.scope.as_deref(), Some("a"));
        let c =
            one(r#"DPoP algs="ES256", scope="no", Bearer scope="yes", error=insufficient_scope"#);
        assert_eq!(
            (c.scope.as_deref(), c.error.as_deref()),
            (Some("yes"), Some("insufficient_scope"))
        );
        let c = one(r#"Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Bearer scope="s""#);
        assert_eq!(c.scope.as_deref(), Some("s"));
        // In separate header fields.
        let c = Challenge::parse([r#"Basic realm="r""#, r#"Bearer scope="t""#]);
        assert_eq!(c.scope.as_deref(), Some("t"));
    }

    #[test]
    fn a_resource_covers_its_server_and_what_is_under_it() {
        assert!(resource_covers("http://h:1/mcp", "http://h:1/mcp"));
        assert!(resource_covers("http://h:1", "http://h:1/mcp"));
        assert!(resource_covers("http://h:1/", "http://h:1/mcp"));
        assert!(!resource_covers("http://h:1/mc", "http://h:1/mcp"));
        assert!(!resource_covers(
            "https://evil.example.com/mcp",
            "http://h:1/mcp"
        ));
        assert!(!resource_covers("http://h:2/mcp", "http://h:1/mcp"));
        assert!(!resource_covers("http://h:1/mcp/other", "http://h:1/mcp"));
        assert!(!resource_covers("nonsense", "http://h:1/mcp"));
    }

    #[test]
    fn secrets_are_scrubbed() {
        assert_eq!(
            scrub("bad secret s3cr3t!".into(), &["s3cr3t", ""]),
            "bad secret <redacted>!"
        );
        let t = Tokens {
            issuer: "i".into(),
            access_token: "tok-123".into(),
            refresh_token: Some("ref-456".into()),
            scopes: BTreeSet::new(),
            expires_at: None,
        };
        let shown = format!("{t:?}");
        assert!(
            !shown.contains("tok-123") && !shown.contains("ref-456"),
            "{shown}"
        );
    }
}
