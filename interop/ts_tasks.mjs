#!/usr/bin/env node
// Interop: the official TypeScript SDK client (@modelcontextprotocol/sdk@1.32.2, which
// speaks 2025-11-25 and its experimental tasks) against our stdio server, whose tasks are
// those of the 2026-07-28 tasks extension, served to a 2025-11-25 client through
// mcp_spec_session's bridge (session/src/every_tasks.rs).
//
// usage: node ts_tasks.mjs CMD [ARGS...]
//
// Runs: a task that computes (slow_compute, polled to its result); a task that asks the
// user (confirm_delete: the SDK calls tasks/result, the server asks its elicitation of the
// client, the task ends with the answer); a task cancelled (tasks/cancel); tasks/list,
// which the extension dropped. Prints one JSON object on stdout; exit 0, or 1 on a failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node ts_tasks.mjs CMD [ARGS...]\n");
  process.exit(2);
}
const deadline = setTimeout(() => {
  console.log(JSON.stringify({ ok: false, error: "timed out after 60 s" }));
  process.exit(124);
}, 60_000);

const client = new Client(
  { name: "ts-tasks-interop", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params.message);
  return { action: "accept", content: { confirm: true } };
});
const out = { ok: false };
try {
  await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
  out.server_tasks = client.getServerCapabilities()?.tasks ?? null;
  const stream = async (name, toolArgs) => {
    const seen = [];
    let text = null;
    for await (const m of client.experimental.tasks.callToolStream(
      { name, arguments: toolArgs },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      seen.push(m.type === "taskStatus" ? `status:${m.task.status}` : m.type);
      if (m.type === "result") text = m.result.content?.[0]?.text ?? null;
      if (m.type === "error") text = `error: ${m.error.message}`;
    }
    return { seen: [...new Set(seen)], text };
  };
  out.slow = await stream("slow_compute", { seconds: 1, label: "ts" });
  out.confirm = await stream("confirm_delete", {});
  out.asked = asked;
  const created = await client.request(
    {
      method: "tools/call",
      params: { name: "slow_compute", arguments: { seconds: 60 }, task: { ttl: 60_000 } },
    },
    CreateTaskResultSchema,
  );
  const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
  out.cancelled = cancelled.status;
  try {
    await client.experimental.tasks.listTasks();
    out.list = "answered";
  } catch (e) {
    out.list = { code: e.code, message: e.message };
  }
  const fine =
    out.slow.text === "Computed ts in 1 s" &&
    out.confirm.text === 'confirm_delete: the user answered {"confirm":true}' &&
    asked.length === 1 &&
    out.cancelled === "cancelled" &&
    out.list?.code === -32601;
  out.ok = fine;
  if (!fine) out.error = "an answer is not what the server gives";
} catch (e) {
  out.error = String(e?.stack ?? e);
}
clearTimeout(deadline);
console.log(JSON.stringify(out));
await client.close().catch(() => {});
process.exit(out.ok ? 0 : 1);
