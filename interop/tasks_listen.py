#!/usr/bin/env python3
"""The example server's task status notifications (the tasks extension, 2026-07-28), over
Streamable HTTP with the standard library alone: a task created by tools/call, then a
subscriptions/listen that names it (and an id the server does not know) in
notifications.taskIds; the acknowledgement agrees to the known one, and notifications/tasks
follow its status to `completed` with the call's result. A listen from a client that does
not declare the extension is -32021.

usage: tasks_listen.py URL
Prints one JSON object; exit 0, or 1 when something is not as the extension says.
"""
import json
import sys
import urllib.error
import urllib.request

URL = sys.argv[1]
EXT = "io.modelcontextprotocol/tasks"


def meta(declares):
    caps = {"extensions": {EXT: {}}} if declares else {}
    return {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps}


def post(id_, method, params, name=None):
    body = json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}).encode()
    headers = {"content-type": "application/json",
               "accept": "application/json, text/event-stream",
               "mcp-protocol-version": "2026-07-28", "mcp-method": method}
    if name:
        headers["mcp-name"] = name
    return urllib.request.urlopen(urllib.request.Request(URL, body, headers), timeout=20)


def events(response):
    """The JSON-RPC messages of an event stream, as they come."""
    data = []
    for raw in response:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


out = {"ok": False}
created = json.load(post(1, "tools/call", {"name": "slow_compute", "arguments": {"seconds": 1, "label": "listen"},
                                           "_meta": meta(True)}, name="slow_compute"))
task = created["result"]["taskId"]
listen = post(2, "subscriptions/listen", {"notifications": {"taskIds": [task, "no-such-task"]}, "_meta": meta(True)})
statuses = []
for message in events(listen):
    if message.get("method") == "notifications/subscriptions/acknowledged":
        out["agreed"] = message["params"]["notifications"].get("taskIds")
    elif message.get("method") == "notifications/tasks":
        statuses.append(message["params"]["status"])
        if message["params"]["status"] == "completed":
            out["result"] = message["params"]["result"]["content"][0]["text"]
            break
out["statuses"] = statuses
listen.close()
try:
    refused = json.load(post(3, "subscriptions/listen", {"notifications": {"taskIds": [task]}, "_meta": meta(False)}))
    out["undeclared_status"] = 200
except urllib.error.HTTPError as e:  # a capability error is HTTP 400
    refused = json.load(e)
    out["undeclared_status"] = e.code
out["undeclared"] = refused.get("error", {}).get("code")
out["ok"] = (out.get("agreed") == [task] and statuses[:1] == ["working"] and statuses[-1:] == ["completed"]
             and out.get("result") == "Computed listen in 1 s" and out["undeclared"] == -32021
             and out["undeclared_status"] == 400)
print(json.dumps(out))
sys.exit(0 if out["ok"] else 1)
