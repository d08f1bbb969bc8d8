"""The official Python SDK client (mcp==2.3.0) and its OAuth support against our example
server protected by a real authorization server (interop/auth_as.mjs): usage
py_auth.py MCP_URL MODE (legacy: 2025-11-25 initialize; auto: 2026-07-28). The SDK finds
the protected resource metadata from our 401, registers, authorizes (PKCE, resource) and
sends the token; the "browser" is a GET of the authorization URL whose redirect is read
without following it. Prints one JSON object: the tools listed, the calls' texts, the
authorizations made."""
import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

URL, MODE = sys.argv[1], sys.argv[2]
REDIRECT = "http://127.0.0.1:1/callback"  # nothing listens: the redirect is read, not followed
seen = {"authorizations": 0}


class Memory(TokenStorage):
    def __init__(self):
        self.tokens, self.client = None, None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client):
        self.client = client


redirected = {}


async def open_browser(url):
    seen["authorizations"] += 1
    async with httpx2.AsyncClient(follow_redirects=False) as http:
        r = await http.get(url)
        assert r.status_code in (302, 303), (r.status_code, r.text[:300])
        q = parse_qs(urlparse(r.headers["location"]).query)
    redirected.update(code=q["code"][0], state=q.get("state", [None])[0], iss=q.get("iss", [None])[0])


async def come_back():
    return AuthorizationCodeResult(**redirected)


async def main():
    metadata = OAuthClientMetadata(
        client_name="python-interop", redirect_uris=[REDIRECT],
        grant_types=["authorization_code", "refresh_token"], token_endpoint_auth_method="none")
    auth = OAuthClientProvider(server_url=URL, client_metadata=metadata, storage=Memory(),
                               redirect_handler=open_browser, callback_handler=come_back)
    out = {"mode": MODE}
    async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
        async with Client(streamable_http_client(URL, http_client=http), mode=MODE) as client:
            tools = await client.list_tools()
            out["tools"] = len(tools.tools)
            out["simple"] = (await client.call_tool("test_simple_text", {})).content[0].text
            out["whoami"] = (await client.call_tool("whoami", {})).content[0].text
    out["authorizations"] = seen["authorizations"]
    print(json.dumps(out))


asyncio.run(main())
