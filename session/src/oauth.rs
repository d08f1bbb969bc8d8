//! What both OAuth sides share (features `auth-client` and `auth-server`): where the
//! metadata documents are, and the HTTP client that fetches them.

use std::time::Duration;

/// An HTTP client that follows no redirect and gives up after `timeout`.
///
/// # Panics
///
/// When the TLS backend cannot start, as `reqwest::Client::new` does (never silently a
/// client that would follow redirects).
pub(crate) fn no_redirects(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
        .expect("the HTTP client starts (its TLS backend)")
}

/// Whether `url` may carry credentials: HTTPS, or plain HTTP to this machine (`localhost`,
/// `127.0.0.0/8`, `::1`), as the MCP specification asks of authorization server endpoints
/// and redirect URIs.
pub(crate) fn secure(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    let loopback = match parsed.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(format!(
            "{url} is neither HTTPS nor on this machine: refused"
        )),
    }
}

/// The origin and the path (without a trailing `/`) of an http(s) URL.
fn split(identifier: &str) -> Result<(String, String), String> {
    let url =
        url::Url::parse(identifier).map_err(|e| format!("{identifier:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(format!("{identifier:?} is not an http(s) URL"));
    }
    let path = url.path().trim_end_matches('/').to_string();
    Ok((url.origin().ascii_serialization(), path))
}

/// Where the protected resource metadata of `resource` is (RFC 9728 §3.1), in the order
/// a client tries them: the resource's path inserted after the well-known prefix, then
/// the root (one URL when the resource has no path).
pub(crate) fn resource_metadata_urls(resource: &str) -> Result<Vec<String>, String> {
    let (origin, path) = split(resource)?;
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    Ok(match path.is_empty() {
        true => vec![root],
        false => vec![format!("{root}{path}"), root],
    })
}

/// Where the metadata of the authorization server `issuer` is, in the order the MCP
/// specification gives: RFC 8414 with the path inserted, then OpenID Connect discovery
/// with the path inserted, then appended (two URLs for an issuer without a path).
pub(crate) fn server_metadata_urls(issuer: &str) -> Result<Vec<String>, String> {
    let (origin, path) = split(issuer)?;
    let oauth = format!("{origin}/.well-known/oauth-authorization-server{path}");
    let oidc = format!("{origin}/.well-known/openid-configuration{path}");
    Ok(match path.is_empty() {
        true => vec![oauth, oidc],
        false => vec![
            oauth,
            oidc,
            format!("{origin}{path}/.well-known/openid-configuration"),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_urls_in_the_specified_order() {
        assert_eq!(
            resource_metadata_urls("http://h:1/mcp").unwrap(),
            [
                "http://h:1/.well-known/oauth-protected-resource/mcp",
                "http://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            resource_metadata_urls("http://h:1/").unwrap(),
            ["http://h:1/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            server_metadata_urls("https://a/tenant1").unwrap(),
            [
                "https://a/.well-known/oauth-authorization-server/tenant1",
                "https://a/.well-known/openid-configuration/tenant1",
                "https://a/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            server_metadata_urls("https://a").unwrap(),
            [
                "https://a/.well-known/oauth-authorization-server",
                "https://a/.well-known/openid-configuration"
            ]
        );
        assert!(server_metadata_urls("file:///x").is_err());
        for ok in [
            "https://a/x",
            "http://localhost:1/x",
            "http://127.0.0.2/",
            "http://[::1]:8/",
        ] {
            assert_eq!(secure(ok), Ok(()), "{ok}");
        }
        for refused in [
            "http://a/x",
            "http://10.0.0.1/",
            "ftp://localhost/",
            "nonsense",
        ] {
            assert!(secure(refused).is_err(), "{refused}");
        }
        assert!(server_metadata_urls("not a url").is_err());
    }
}
