// A real authorization server for the authorization interop run (interop/run, step 6):
// oauth2-mock-server 9.3.0, which issues RS256 JWTs and serves its key set and OpenID
// discovery, with what an MCP client needs added through its hooks: dynamic client
// registration (RFC 7591), the RFC 8707 `resource` as the token's `aud`, the scope asked
// for kept through the code and refresh grants, and (for the refusal checks) a `ttl`
// form field on client_credentials that sets the token's lifetime, negative for one
// already expired. Usage: node auth_as.mjs PORT (the issuer is http://127.0.0.1:PORT).
import { OAuth2Server, Events } from 'oauth2-mock-server';
import { randomUUID } from 'node:crypto';

const port = Number(process.argv[2]);
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
server.issuer.url = `http://127.0.0.1:${port}`;
const service = server.service;
// What each code and refresh token was issued for.
const grants = new Map();
const say = (...a) => console.log('[as]', ...a);

service.on(Events.BeforeWellKnownOpenIdConfiguration, (res) => {
  const iss = server.issuer.url;
  Object.assign(res.body, {
    registration_endpoint: `${iss}/register`,
    scopes_supported: ['mcp:read', 'mcp:write'],
    grant_types_supported: [...res.body.grant_types_supported, 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
  });
});

service.addRoute('POST', '/register', (req, res) => {
  const asked = req.body ?? {};
  const client = { ...asked, client_id: randomUUID(), token_endpoint_auth_method: 'none' };
  say('register', client.client_id, asked.client_name);
  res.statusCode = 201;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(client));
});

service.on(Events.BeforeAuthorizeRedirect, (redirect, req) => {
  const code = redirect.url.searchParams.get('code');
  const q = req.query;
  say('authorize', q.client_id, q.scope, q.resource, q.code_challenge_method);
  if (code) grants.set(code, { scope: q.scope, resource: q.resource, client_id: q.client_id });
});

function grantOf(body) {
  if (body.grant_type === 'authorization_code') return grants.get(body.code) ?? {};
  if (body.grant_type === 'refresh_token') return grants.get(`refresh:${body.refresh_token}`) ?? {};
  return {};
}

service.on(Events.BeforeTokenSigning, (token, req) => {
  const body = req.body ?? {};
  // The id_token carries neither: leave it.
  if (!('scope' in token.payload) && !('amr' in token.payload)) return;
  const grant = grantOf(body);
  const resource = body.resource ?? grant.resource;
  const scope = body.scope ?? grant.scope;
  if (resource) token.payload.aud = resource;
  if (scope) token.payload.scope = scope;
  token.payload.client_id = body.client_id ?? grant.client_id;
  token.payload.sub = token.payload.sub ?? 'interop-user';
  if (body.ttl) token.payload.exp = Math.floor(Date.now() / 1000) + Number(body.ttl);
  say('token', body.grant_type, token.payload.aud, token.payload.scope);
});

service.on(Events.BeforeResponse, (res, req) => {
  const body = req.body ?? {};
  const grant = grantOf(body);
  const scope = body.scope ?? grant.scope;
  if (res.statusCode === 200 && res.body.refresh_token) {
    grants.set(`refresh:${res.body.refresh_token}`, { ...grant, scope, resource: body.resource ?? grant.resource });
  }
  if (res.statusCode === 200 && scope) res.body.scope = scope;
});

await server.start(port, '127.0.0.1');
say('issuer', server.issuer.url);
