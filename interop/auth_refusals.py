"""What our protected example server refuses, with tokens from the real authorization
server of the interop run (interop/auth_as.mjs, client_credentials grant): usage
auth_refusals.py MCP_URL ISSUER. A token for this server passes; a token for another
audience and an expired one get 401 invalid_token, one without the scope 403
insufficient_scope, none at all 401 naming the metadata; no answer carries the token.
Prints one JSON object with the status of each."""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

URL, ISSUER = sys.argv[1], sys.argv[2]


def mint(resource, scope="mcp:read", ttl=None):
    form = {"grant_type": "client_credentials", "client_id": "interop-refusals",
            "resource": resource, "scope": scope}
    if ttl is not None:
        form["ttl"] = str(ttl)
    body = urllib.parse.urlencode(form).encode()
    with urllib.request.urlopen(urllib.request.Request(f"{ISSUER}/token", data=body), timeout=10) as r:
        return json.load(r)["access_token"]


def call(token):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
               "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(URL, data=body, headers=headers), timeout=10) as r:
            return r.status, r.headers.get("www-authenticate", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("www-authenticate", ""), e.read().decode()


origin = URL.rsplit("/mcp", 1)[0]
metadata = f'resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp"'
cases = {
    "for this server": (mint(URL), 200, None),
    "for another audience": (mint("http://127.0.0.1:1/mcp"), 401, "another audience"),
    "expired": (mint(URL, ttl=-3600), 401, "expired"),
    "without the scope": (mint(URL, scope="mcp:write"), 403, "insufficient_scope"),
    "no token": (None, 401, metadata),
}
out = {}
for name, (token, want, says) in cases.items():
    status, challenge, body = call(token)
    assert status == want, (name, status, challenge, body)
    if says:
        assert says in challenge, (name, challenge)
        assert metadata in challenge, (name, challenge)
    if token:
        assert token not in challenge and token not in body, (name, "the token echoed")
    out[name] = status
print(json.dumps(out))
