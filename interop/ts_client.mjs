#!/usr/bin/env node
// Interop client: official MCP TypeScript SDK (@modelcontextprotocol/sdk@1.32.2) -> stdio MCP server.
//
// usage:
//   node ts_client.mjs CMD [ARGS...]
//   node ts_client.mjs [options] -- CMD [ARGS...]
//
// options (only recognised before a literal `--`):
//   --timeout S          overall deadline in seconds (default 30); also the per-request timeout; exit 124
//   --tool NAME          tool to call            (default test_simple_text)
//   --tool-args JSON     tool arguments object   (default {})
//   --tool-meta JSON     request `_meta` object sent on tools/call (default none)
//   --resource URI       resource to read        (default test://static-text)
//   --prompt NAME        prompt to get           (default test_simple_prompt)
//   --prompt-args JSON   prompt arguments object (default none)
//   --list-only          only connect + tools/list
//   --allow-tool-error   do not treat a CallToolResult with isError=true as a failure
//   --roots URI          advertise the roots capability and answer roots/list with [URI]
//   --wire-log FILE      append every JSON-RPC frame (">>" sent, "<<" received) to FILE
//
// The SDK (1.32.2) only speaks the initialize-handshake era: it sends initialize with
// protocolVersion "2025-11-25" (LATEST_PROTOCOL_VERSION) and accepts a reply in
// SUPPORTED_PROTOCOL_VERSIONS = 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07.
// It has no server/discover / 2026-07-28 support.
//
// Prints one JSON object on stdout ({"ok": true, ...} or {"ok": false, "error": ...}); exit 0 / 1 / 124.
// The server's stderr is inherited.

import { appendFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ListRootsRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

function usage(msg) {
  process.stderr.write(`ts_client.mjs: ${msg}\nusage: node ts_client.mjs [options --] CMD [ARGS...]\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    timeout: 30,
    tool: "test_simple_text",
    toolArgs: {},
    toolMeta: undefined,
    resource: "test://static-text",
    prompt: "test_simple_prompt",
    promptArgs: undefined,
    listOnly: false,
    allowToolError: false,
    roots: undefined,
    wireLog: undefined,
  };
  const sep = argv.indexOf("--");
  if (sep === -1) return { opts, cmd: argv };
  const own = argv.slice(0, sep);
  const cmd = argv.slice(sep + 1);
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    const val = () => {
      if (i + 1 >= own.length) usage(`${a} needs a value`);
      return own[++i];
    };
    switch (a) {
      case "--timeout": opts.timeout = Number(val()); break;
      case "--tool": opts.tool = val(); break;
      case "--tool-args": opts.toolArgs = JSON.parse(val()); break;
      case "--tool-meta": opts.toolMeta = JSON.parse(val()); break;
      case "--resource": opts.resource = val(); break;
      case "--prompt": opts.prompt = val(); break;
      case "--prompt-args": opts.promptArgs = JSON.parse(val()); break;
      case "--list-only": opts.listOnly = true; break;
      case "--allow-tool-error": opts.allowToolError = true; break;
      case "--roots": opts.roots = val(); break;
      case "--wire-log": opts.wireLog = val(); break;
      default: usage(`unknown option ${a}`);
    }
  }
  return { opts, cmd };
}

// Transport wrapper: tees frames to a log and remembers the negotiated protocolVersion.
class TeeTransport {
  constructor(inner, logPath, onInitResult) {
    this.inner = inner;
    this.logPath = logPath;
    this.onInitResult = onInitResult;
    this.initId = undefined;
    inner.onmessage = (msg, extra) => {
      this.log("<<", msg);
      if (this.initId !== undefined && msg.id === this.initId && msg.result) this.onInitResult(msg.result);
      this.onmessage?.(msg, extra);
    };
    inner.onerror = (err) => this.onerror?.(err);
    inner.onclose = () => this.onclose?.();
  }
  log(dir, msg) {
    if (this.logPath) appendFileSync(this.logPath, `${dir} ${JSON.stringify(msg)}\n`);
  }
  async start() { return this.inner.start(); }
  async close() { return this.inner.close(); }
  async send(msg, options) {
    if (msg.method === "initialize") this.initId = msg.id;
    this.log(">>", msg);
    return this.inner.send(msg, options);
  }
  get sessionId() { return this.inner.sessionId; }
}

async function main() {
  const { opts, cmd } = parseArgs(process.argv.slice(2));
  if (cmd.length === 0) usage("missing CMD");
  const out = {
    ok: false,
    sdk: "@modelcontextprotocol/sdk@1.32.2",
    client_offered_version: LATEST_PROTOCOL_VERSION,
    client_supported_versions: SUPPORTED_PROTOCOL_VERSIONS,
    command: cmd,
    notifications: [],
  };
  const timeoutMs = Math.round(opts.timeout * 1000);
  let client;
  let inner;
  let step = "connect";
  const deadline = setTimeout(() => {
    // Do not leave the server behind: kill the child before exiting.
    try {
      if (inner?.pid) process.kill(inner.pid, "SIGKILL");
    } catch {
      // already gone
    }
    out.error = `timed out after ${opts.timeout}s (step ${step})`;
    out.error_type = "Timeout";
    out.failed_step = step;
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    process.exit(124);
  }, timeoutMs);

  try {
    inner = new StdioClientTransport({
      command: cmd[0],
      args: cmd.slice(1),
      // Forward our whole environment (SDK default forwards only HOME/LOGNAME/PATH/SHELL/TERM/USER).
      env: { ...process.env },
      stderr: "inherit",
    });
    const transport = new TeeTransport(inner, opts.wireLog, (r) => {
      out.protocol_version = r.protocolVersion;
    });
    const capabilities = opts.roots ? { roots: { listChanged: true } } : {};
    client = new Client({ name: "ts-interop-client", version: "0.1.0" }, { capabilities });
    client.fallbackNotificationHandler = async (n) => {
      out.notifications.push(n);
    };
    if (opts.roots) {
      client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: [{ uri: opts.roots, name: "interop-root" }],
      }));
    }
    const reqOpts = { timeout: timeoutMs };

    await client.connect(transport, reqOpts);
    out.server_info = client.getServerVersion();
    out.server_capabilities = client.getServerCapabilities();
    out.instructions = client.getInstructions();

    step = "tools/list";
    const tools = await client.listTools(undefined, reqOpts);
    out.tools = tools.tools;

    if (!opts.listOnly) {
      step = "tools/call";
      const call = { name: opts.tool, arguments: opts.toolArgs };
      if (opts.toolMeta) call._meta = opts.toolMeta;
      out.tool_result = await client.callTool(call, undefined, reqOpts);
      if (out.tool_result.isError && !opts.allowToolError) {
        throw new Error(`tool '${opts.tool}' returned isError=true`);
      }
      step = "resources/read";
      out.resource = await client.readResource({ uri: opts.resource }, reqOpts);
      step = "prompts/get";
      const pp = { name: opts.prompt };
      if (opts.promptArgs) pp.arguments = opts.promptArgs;
      out.prompt = await client.getPrompt(pp, reqOpts);
    }
    step = "close";
    out.ok = true;
  } catch (err) {
    out.failed_step = step;
    out.error = err?.message ?? String(err);
    out.error_type = err?.constructor?.name ?? typeof err;
    if (err && typeof err.code === "number") out.error_code = err.code;
    if (err && err.data !== undefined) out.error_data = err.data;
    process.stderr.write(`ts_client error: ${err?.stack ?? err}\n`);
  }
  try {
    await client?.close();
  } catch (err) {
    process.stderr.write(`ts_client close error: ${err?.stack ?? err}\n`);
  }
  clearTimeout(deadline);
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  process.exit(out.ok ? 0 : 1);
}

main();
