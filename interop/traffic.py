#!/usr/bin/env python3
"""Turns the traffic logs of interop/record into the vendored corpus tests/data/traffic/.

usage: traffic.py LOGS_DIR OUT_DIR

LOGS_DIR holds one log per session (SESSION.log, written by our examples with
MCP_TRAFFIC_LOG: one JSON object per line, {"dir":"in"|"out", ["session":...,] "text":...})
and meta.json (the Node versions). Writes OUT_DIR/SESSION.jsonl (only what the peer wrote,
in order) and OUT_DIR/README.md, and prints the counts. Deterministic given the logs.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, OrderedDict
from pathlib import Path

ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"

# session name, log file, the peer, which role the peer plays
SESSIONS = [
    ("python-legacy", "mcp 2.3.0 (Python SDK), mode legacy", "client"),
    ("python-auto", "mcp 2.3.0 (Python SDK), mode auto", "client"),
    ("python-2026-07-28", "mcp 2.3.0 (Python SDK), mode 2026-07-28", "client"),
    ("typescript", "@modelcontextprotocol/sdk 1.32.2 (TypeScript SDK)", "client"),
    ("typescript-large", "@modelcontextprotocol/sdk 1.32.2 (TypeScript SDK)", "client"),
    ("server-everything", "@modelcontextprotocol/server-everything 2026.8.31", "server"),
    ("rmcp-client", "rmcp 3.11.0 (Rust SDK), client", "client"),
    ("rmcp-server", "rmcp 3.11.0 (Rust SDK), server", "server"),
    ("python-server", "mcp 2.3.0 (Python SDK), MCPServer", "server"),
    ("rust-mcp-sdk-client", "rust-mcp-sdk 2.0.0 (on rust-mcp-schema), client", "client"),
    ("rust-mcp-sdk-server", "rust-mcp-sdk 2.0.0 (on rust-mcp-schema), server", "server"),
    ("conformance", "@modelcontextprotocol/conformance 0.1.16, suite active", "client"),
]
KINDS = ["request", "notification", "result", "error", "batch", "not-json", "other"]


def pairs(items):
    """object_pairs_hook that keeps every member, in order (duplicates too)."""
    return ("__pairs__", items)


def parse(text):
    """(kind, message as a plain value or None, top-level member order, oddities)."""
    odd = []
    try:
        raw = json.loads(text, object_pairs_hook=pairs)
    except ValueError:
        return "not-json", None, None, ["not JSON"]
    value = json.loads(text)
    if isinstance(raw, list):
        return "batch", value, "[batch]", ["batch"]
    if not (isinstance(raw, tuple) and raw[0] == "__pairs__"):
        return "other", value, f"[{type(value).__name__}]", ["not an object"]
    keys = [k for k, _ in raw[1]]
    if len(keys) != len(set(keys)):
        odd.append("duplicate members")
    if "method" in value:
        kind = "request" if "id" in value else "notification"
    elif "result" in value:
        kind = "result"
    elif "error" in value:
        kind = "error"
    else:
        kind = "other"
    if value.get("jsonrpc") != "2.0":
        odd.append(f"jsonrpc {value.get('jsonrpc')!r}")
    if kind in ("result", "error") and "result" in value and "error" in value:
        odd.append("both result and error")
    return kind, value, ",".join(keys), odd


def id_key(value):
    return json.dumps(value.get("id"), sort_keys=True)


def read_log(path):
    entries = []
    # Lines end with "\n" only: a text may hold U+2028 and the like raw, which
    # str.splitlines() would split at.
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line:
            continue
        e = json.loads(line)
        if e["dir"] not in ("in", "out") or not isinstance(e["text"], str):
            raise SystemExit(f"{path}:{n}: not a traffic log line")
        entries.append(e)
    return entries


def version_of(msgs):
    """The version a connection negotiated: the initialize result's protocolVersion, else
    the version the discover-era requests carry in _meta."""
    requests = {}
    found = None
    for m in msgs:
        v = m["value"]
        if m["kind"] == "request":
            requests[(m["dir"], id_key(v))] = v["method"]
        elif m["kind"] == "result":
            asked = requests.get(("out" if m["dir"] == "in" else "in", id_key(v)))
            result = v.get("result")
            if asked == "initialize" and isinstance(result, dict):
                if isinstance(result.get("protocolVersion"), str):
                    found = result["protocolVersion"]
    if found:
        return found
    for m in msgs:
        if m["kind"] == "request":
            params = m["value"].get("params")
            meta = params.get("_meta") if isinstance(params, dict) else None
            if isinstance(meta, dict) and isinstance(meta.get(ENVELOPE_VERSION), str):
                return meta[ENVELOPE_VERSION]
    return None


def process(name, peer, role, entries):
    """The corpus lines of one session, and what the README says about them."""
    ours = "server" if role == "client" else "client"
    msgs = []
    blank = 0
    for e in entries:
        if e["text"].strip() == "":
            if e["dir"] == "in":
                blank += 1
            continue
        kind, value, order, odd = parse(e["text"])
        # The connection: "stdio" for a stdio log; the MCP session (None: none) over HTTP.
        conn = e["session"] if "session" in e else "stdio"
        msgs.append({"dir": e["dir"], "conn": conn, "text": e["text"],
                     "kind": kind, "value": value, "order": order, "odd": odd})
    conns = OrderedDict()
    for m in msgs:
        conns.setdefault(m["conn"], []).append(m)
    versions = {c: version_of(ms) if c is not None else None for c, ms in conns.items()}
    # Pair each of the peer's responses with the request of ours it answers, and each of
    # the peer's requests with our reply to it.
    # A reply with id null (a refusal: parse error, HTTP 400/403/404) goes to the peer's
    # last message on that connection.
    pending_ours = {}
    pending_theirs = {}
    last_in = {}
    for m in msgs:
        v, conn = m["value"], m["conn"]
        m["answers"] = None
        m["reply"] = None
        if m["dir"] == "in":
            last_in[conn] = m
        if m["dir"] == "out" and m["kind"] == "error" and v.get("id") is None:
            asked = last_in.pop(conn, None)
            if asked is not None and asked["reply"] is None:
                asked["reply"] = m
        elif m["kind"] == "request":
            (pending_ours if m["dir"] == "out" else pending_theirs)[(conn, id_key(v))] = m
        elif m["kind"] in ("result", "error"):
            if m["dir"] == "in":
                asked = pending_ours.pop((conn, id_key(v)), None)
                m["answers"] = asked["value"]["method"] if asked else None
                m["unpaired"] = asked is None
            else:
                asked = pending_theirs.pop((conn, id_key(v)), None)
                if asked is not None:
                    asked["reply"] = m
    lines = []
    stats = {"kinds": Counter(), "orders": Counter(), "answers": Counter(), "odd": [],
             "refused": [], "versions": Counter(), "ids": Counter(), "spacing": Counter(),
             "escapes": 0, "blank": blank, "bytes": 0, "conns": 0, "unpaired": 0,
             "error_orders": Counter()}
    stats["conns"] = sum(1 for c, ms in conns.items() if any(m["dir"] == "in" for m in ms))
    for m in msgs:
        if m["dir"] != "in":
            continue
        version = versions[m["conn"]]
        line = json.dumps(OrderedDict([("session", name), ("peer", peer), ("version", version),
                                       ("from", role), ("answers", m["answers"]),
                                       ("text", m["text"])]),
                          ensure_ascii=False, separators=(",", ":"))
        lines.append(line)
        stats["bytes"] += len(line.encode()) + 1
        stats["kinds"][m["kind"]] += 1
        stats["orders"][(m["kind"], m["order"])] += 1
        stats["versions"][version] += 1
        if m["answers"]:
            stats["answers"][m["answers"]] += 1
        if m.get("unpaired"):
            stats["unpaired"] += 1
        v = m["value"]
        if isinstance(v, dict):
            if "id" in v:
                stats["ids"][type(v["id"]).__name__] += 1
            err = v.get("error")
            if m["kind"] == "error" and isinstance(err, dict):
                stats["error_orders"][",".join(err)] += 1
            compact = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
            stats["spacing"]["compact" if compact == m["text"] else "other"] += 1
        if "\\u" in m["text"]:
            stats["escapes"] += 1
        for o in m["odd"]:
            stats["odd"].append((o, m["text"][:120]))
        reply = m["reply"]
        if reply is not None and reply["kind"] == "error":
            err = reply["value"].get("error") or {}
            method = v.get("method") if isinstance(v, dict) else m["kind"]
            stats["refused"].append((method, err.get("code"), err.get("message")))
    return lines, stats, ours


def table(rows, header):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def readme(results, meta):
    total_lines = sum(len(r[1]) for r in results)
    total_bytes = sum(r[2]["bytes"] for r in results)
    s = []
    s.append("""# Recorded MCP traffic

Real JSON-RPC messages written by MCP peers none of us wrote, exactly as they wrote them
(byte for byte, member order kept), for decoder tests and benchmarks. Generated by
`bash interop/record` (which ends with `python3 interop/traffic.py`); do not edit by hand.

## Sessions

| file | peer | transport | the peer is | what ran |
|---|---|---|---|---|
| `python-legacy.jsonl` | mcp 2.3.0 (PyPI), `mcp.Client(mode="legacy")` | stdio | client | `interop/py_client.py legacy` against our `mcp-example-server`: initialize, tools/list, tools/call, resources/read, prompts/get |
| `python-auto.jsonl` | mcp 2.3.0, `mode="auto"` | stdio | client | the same, after a `server/discover` probe |
| `python-2026-07-28.jsonl` | mcp 2.3.0, `mode="2026-07-28"` | stdio | client | the same with no handshake; every request carries the `io.modelcontextprotocol/*` `_meta` envelope |
| `typescript.jsonl` | @modelcontextprotocol/sdk 1.32.2 (npm), Node NODE | stdio | client | `interop/ts_client.mjs` against our server, same calls |
| `typescript-large.jsonl` | @modelcontextprotocol/sdk 1.32.2 (npm), Node NODE | stdio | client | the same calls, the tools/call with large `arguments` (`interop/large_args.py 2 24`: about 24 KB of nested objects, arrays, unicode, escapes, big and odd numbers) and a `_meta` (`--tool-meta`: a `progressToken` and custom keys); the client stops at the first error |
| `server-everything.jsonl` | @modelcontextprotocol/server-everything 2026.8.31 (npm), Node NODE22 | stdio | server | our `mcp-example-client` against it: the calls of `interop/run` step 3 (echo, get-sum, get-tiny-image, get-roots-list, trigger-sampling-request, a resource read, two prompts); it asks us for roots and sampling |
| `rmcp-client.jsonl` | rmcp 3.11.0 (crates.io), the official Rust SDK, as a client (`interop/rmcp-peer`) | stdio | client | `mcp-rmcp-peer client` against our server: initialize, tools/list, a tools/call of `test_tool_with_progress` with large `arguments` (`interop/large_args.py 1 20`) and custom `_meta` keys (rmcp puts a `progressToken` of its own in every request's `_meta`), resources/list, resources/read, prompts/list, prompts/get with arguments, ping |
| `rmcp-server.jsonl` | rmcp 3.11.0, as a server (`mcp-rmcp-peer server`) | stdio | server | our `mcp-example-client` against it: server/discover, the three lists, its six tools (text, several blocks, an image, `structuredContent`, embedded resources, an `isError` result), two resource reads, a prompt with arguments |
| `python-server.jsonl` | mcp 2.3.0 (PyPI), `MCPServer` (`interop/py_server.py`) | stdio | server | our client against it: server/discover, the three lists, its seven tools (text, several blocks, an image, structured output, embedded resources, audio, an `isError` result), three resource reads (one through a template), two prompts |
| `rust-mcp-sdk-client.jsonl` | rust-mcp-sdk 2.0.0 (crates.io), an MCP SDK written apart from the official ones, on its generated rust-mcp-schema, as a client (`interop/rust-mcp-sdk-peer`) | stdio | client | `mcp-rust-mcp-sdk-peer client` against our server at 2026-07-28 (no handshake; its members in alphabetical order, `id` first): server/discover, tools/list, a tools/call of `test_simple_text` with large `arguments` (`interop/large_args.py 3 22`) and custom `_meta` keys, resources/list, resources/read, prompts/list, prompts/get with arguments |
| `rust-mcp-sdk-server.jsonl` | rust-mcp-sdk 2.0.0, as a server (`mcp-rust-mcp-sdk-peer server`) | stdio | server | our `mcp-example-client` against it: server/discover, the three lists (resources and prompts empty), its three tools (text, several blocks with `structuredContent`, an `isError` result) |
| `conformance.jsonl` | @modelcontextprotocol/conformance 0.1.16 (npm), suite `active`, Node NODE22 | Streamable HTTP | client | the suite against `mcp-example-server --http`: one POST body per line, many MCP sessions |
""".replace("NODE22", meta.get("node22", "?")).replace("NODE", meta.get("node", "?")))
    s.append("""## How it was recorded

With `MCP_TRAFFIC_LOG=FILE`, the examples' transports append one line per message to FILE:
`{"dir":"in"|"out","text":"..."}`, through the session crate's tap
(`mcp_spec_session::Builder::tap`). On stdio every line read is logged as it is handed to
the session and every line as it is written; the newline that ends a line (`\\n`, or
`\\r\\n`) is the delimiter and is not part of the text. Over HTTP
(`mcp_spec_session::http::HttpServer::tap`) each POST body is logged as `in` (decoded as
UTF-8, as the server does) and each message the server writes back (a JSON body, an SSE
event's data, or a refusal) as `out`, with the MCP session it belongs to (`"session"`). Our messages (`out`) are
used only to pair responses and to find the negotiated version; the corpus keeps what the
peer wrote.

## Line format

One JSON object per line, with exactly these members in this order:

    {"session":"python-legacy","peer":"mcp 2.3.0 (Python SDK), mode legacy","version":"2025-11-25","from":"client","answers":null,"text":"<raw>"}

- `session`: the file's name; `peer`: who wrote the message.
- `version`: the protocol version negotiated on the message's connection: the
  `protocolVersion` of the initialize result, else the
  `_meta["io.modelcontextprotocol/protocolVersion"]` of the discover-era requests; for the
  conformance suite per MCP session (`null` for POSTs outside any session, such as those
  refused for a missing or unknown `Mcp-Session-Id` or a foreign `Host`).
- `from`: the MCP role that wrote it, `client` or `server`.
- `answers`: for a response (result or error), the method of our request it answers,
  paired by id on the same connection; `null` for requests and notifications.
- `text`: the message exactly as received, as a JSON string (parse the line, then parse
  `text`).
""")
    kept = ("Every message the peers wrote is kept, the conformance suite's too (the corpus "
            "is far below 1 MB)." if total_bytes < 1 << 20 else "")
    s.append(f"## Counts\n\n{total_lines} messages, {total_bytes} bytes in all. {kept}\n")
    rows = []
    for name, lines, st, _ in results:
        k = st["kinds"]
        rows.append([f"`{name}`", len(lines), *(k[x] for x in KINDS[:4]),
                     k["batch"] + k["not-json"] + k["other"], st["conns"],
                     ", ".join(f"{json.dumps(v).strip(chr(34))} ({n})"
                               for v, n in sorted(st["versions"].items(), key=lambda x: json.dumps(x[0]))),
                     st["bytes"]])
    s.append(table(rows, ["session", "messages", "requests", "notifications", "results",
                          "errors", "batch / not JSON / other", "connections",
                          "version (messages)", "bytes"]))
    s.append("\n\nResponses by the method they answer:\n")
    for name, _, st, _ in results:
        if st["answers"]:
            s.append(f"- `{name}`: " + ", ".join(f"{m} {n}" for m, n in sorted(st["answers"].items())))
    s.append("\n## Member orders\n\nTop-level members in the order the peer wrote them:\n")
    for name, _, st, _ in results:
        s.append(f"\n`{name}`:\n")
        for (kind, order), n in sorted(st["orders"].items(), key=lambda x: (KINDS.index(x[0][0]), -x[1], str(x[0][1]))):
            s.append(f"- {kind}: `{order}` ({n})")
        if st["error_orders"]:
            s.append("- inside `error`: " + ", ".join(f"`{o}` ({n})" for o, n in sorted(st["error_orders"].items())))
    s.append("\n## Other features\n")
    rows = []
    for name, _, st, _ in results:
        rows.append([f"`{name}`", ", ".join(f"{t} {n}" for t, n in sorted(st["ids"].items())) or "-",
                     ", ".join(f"{t} {n}" for t, n in sorted(st["spacing"].items())),
                     st["escapes"]])
    s.append(table(rows, ["session", "id types", "compact (as Python re-encodes it) / other spacing",
                          "texts with `\\u` escapes"]))
    s.append("\n\n## Odd messages\n")
    any_odd = False
    for name, _, st, _ in results:
        for what, text in st["odd"]:
            any_odd = True
            s.append(f"- `{name}`: {what}: `{text}`")
        if st["blank"]:
            any_odd = True
            s.append(f"- `{name}`: {st['blank']} blank lines read and left out")
        if st["unpaired"]:
            any_odd = True
            s.append(f"- `{name}`: {st['unpaired']} responses answer no request of ours (`answers` null)")
    if not any_odd:
        s.append("None: every text is one JSON object (no batches, nothing that is not JSON).")
    s.append("\n\nRequests and notifications our side answered with an error (method, code, message):\n")
    refused = False
    for name, _, st, _ in results:
        for (method, code, message), n in sorted(Counter(st["refused"]).items(), key=lambda x: str(x[0])):
            refused = True
            s.append(f"- `{name}`: `{method}` {code} {message!r} ({n})")
    if not refused:
        s.append("None.")
    text = "\n".join(s).rstrip() + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def verify(out, name, entries):
    """Reads a written file back: the members, in order, and the texts, which must be the
    peer's lines of the log, in order, each JSON unless counted as not JSON."""
    want = [e["text"] for e in entries if e["dir"] == "in" and e["text"].strip()]
    got = []
    not_json = 0
    for line in (out / f"{name}.jsonl").read_text(encoding="utf-8").split("\n")[:-1]:
        obj = json.loads(line, object_pairs_hook=lambda p: p)
        keys = [k for k, _ in obj]
        if keys != ["session", "peer", "version", "from", "answers", "text"]:
            raise SystemExit(f"{name}: members {keys}")
        text = dict(obj)["text"]
        try:
            json.loads(text)
        except ValueError:
            not_json += 1
        got.append(text)
    if got != want:
        raise SystemExit(f"{name}: the texts are not the peer's lines of the log")
    return not_json


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    logs, out = Path(sys.argv[1]), Path(sys.argv[2])
    meta = json.loads((logs / "meta.json").read_text()) if (logs / "meta.json").exists() else {}
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for name, peer, role in SESSIONS:
        lines, stats, _ = process(name, peer, role, read_log(logs / f"{name}.log"))
        if not lines:
            raise SystemExit(f"{name}: the peer wrote nothing")
        (out / f"{name}.jsonl").write_text("".join(l + "\n" for l in lines), encoding="utf-8")
        if verify(out, name, read_log(logs / f"{name}.log")) != stats["kinds"]["not-json"]:
            raise SystemExit(f"{name}: texts that are not JSON and not counted so")
        results.append((name, lines, stats, None))
    (out / "README.md").write_text(readme(results, meta), encoding="utf-8")
    for name, lines, st, _ in results:
        k = st["kinds"]
        print(f"{name}: {len(lines)} messages ({', '.join(f'{x} {k[x]}' for x in KINDS if k[x])}), "
              f"{st['bytes']} bytes, versions {dict(st['versions'])}")
        for (kind, order), n in sorted(st["orders"].items(), key=lambda x: (KINDS.index(x[0][0]), -x[1], str(x[0][1]))):
            print(f"    {kind:12} {order} ({n})")
    print(f"total: {sum(len(r[1]) for r in results)} messages, {sum(r[2]['bytes'] for r in results)} bytes")


if __name__ == "__main__":
    main()
