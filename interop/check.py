#!/usr/bin/env python3
"""Asserts the content each interop run got back (shallow checks are not enough: a server
with no fixtures still passes some). usage: check.py KIND FILE [EXPECTED_VERSION]
KIND: sdk, self, ours (interop/run and interop/record), rmcp-client, peer-server
(interop/record)."""

import json
import sys

FIXTURE_TOOLS = {
    "test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
    "test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress",
    "test_error_handling", "test_sampling", "test_elicitation",
    "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
    "test_reconnection", "json_schema_2020_12_tool",
}
# Written for the discover era (examples/server/src/input.rs): input-required results, the
# stateless suite's diagnostic tools. One handler serves every version, so older clients
# list them too (their input requests reach those clients as requests of their own).
DISCOVER_TOOLS = {
    "test_missing_capability", "test_streaming_elicitation", "test_logging_tool",
    "test_input_required_result_elicitation", "test_input_required_result_sampling",
    "test_input_required_result_list_roots", "test_input_required_result_request_state",
    "test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
    "test_input_required_result_tampered_state", "test_input_required_result_capabilities",
}

# The tasks extension's scenarios (examples/server/src/tasks.rs): listed to every client; a
# task for a 2026-07-28 client that declares the extension, or a 2025-11-25 client's task.
TASK_TOOLS = {
    "greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete",
    "multi_input", "test_tool_with_task",
}


TOOLS = FIXTURE_TOOLS | DISCOVER_TOOLS | TASK_TOOLS


def fail(msg):
    print(f"check failed: {msg}", file=sys.stderr)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


def sdk_client(d, version):
    """Output of py_client.py / ts_client.mjs against our server."""
    expect(d.get("ok") is True, f"the client reported an error: {d.get('error')}")
    expect(d.get("protocol_version") == version, f"negotiated {d.get('protocol_version')}, expected {version}")
    names = {t["name"] for t in d["tools"]}
    expect(names == TOOLS, f"tools/list: {sorted(names)}")
    text = d["tool_result"]["content"][0]
    expect(text == {"type": "text", "text": "This is a simple text response for testing."} or
           (text.get("type"), text.get("text")) == ("text", "This is a simple text response for testing."),
           f"tools/call test_simple_text: {text}")
    res = d["resource"]["contents"][0]
    expect(res["uri"] == "test://static-text" and res["mimeType"] == "text/plain"
           and res["text"] == "This is the content of the static text resource.", f"resources/read: {res}")
    msg = d["prompt"]["messages"][0]
    expect(msg["role"] == "user" and msg["content"]["text"] == "This is a simple prompt for testing.",
           f"prompts/get: {msg}")


def our_client(lines):
    """Output of mcp-example-client against server-everything: one JSON object per line."""
    events = [json.loads(l) for l in lines if l.strip()]
    by = lambda kind: [e for e in events if e["event"] == kind]
    expect(not by("error"), f"the client reported an error: {by('error')}")
    expect([e["version"] for e in by("negotiated")] == ["2025-11-25"], f"negotiated: {by('negotiated')}")
    tools = by("tools")[0]["names"]
    expect({"echo", "get-sum", "get-roots-list", "trigger-sampling-request"} <= set(tools), f"tools: {tools}")
    calls = {e["name"]: e["result"] for e in by("call")}
    first = lambda name: calls[name]["content"][0]["text"]
    expect(first("echo") == "Echo: hello from rust", f"echo: {calls['echo']}")
    expect(first("get-sum") == "The sum of 2 and 3 is 5.", f"get-sum: {calls['get-sum']}")
    expect("file:///interop/root" in first("get-roots-list"), f"get-roots-list: {calls['get-roots-list']}")
    expect("sampled: " in first("trigger-sampling-request"), f"sampling: {calls['trigger-sampling-request']}")
    expect(calls["get-tiny-image"]["content"][1]["type"] == "image", f"get-tiny-image: {calls['get-tiny-image']}")
    answered = {e["method"] for e in by("answered")}
    expect({"roots/list", "sampling/createMessage"} <= answered, f"answered: {answered}")
    reads = by("read")
    expect(reads and reads[0]["result"]["contents"][0]["mimeType"] == "text/markdown"
           and "Architecture" in reads[0]["result"]["contents"][0]["text"], f"read: {reads}")
    prompts = {e["name"]: e["result"] for e in by("prompt")}
    expect(prompts["simple-prompt"]["messages"][0]["content"]["text"] == "This is a simple prompt without arguments.",
           f"simple-prompt: {prompts.get('simple-prompt')}")
    expect("Paris" in json.dumps(prompts["args-prompt"]), f"args-prompt: {prompts.get('args-prompt')}")
    notes = by("notification")
    expect(notes, "no notification was received (server-everything sends list_changed and log messages)")
    return len(notes)


def self_check(lines, version):
    """Output of mcp-example-client against mcp-example-server (both ours, every era)."""
    events = [json.loads(l) for l in lines if l.strip()]
    by = lambda kind: [e for e in events if e["event"] == kind]
    expect(not by("error"), f"the client reported an error: {by('error')}")
    expect([e["version"] for e in by("negotiated")] == [version], f"negotiated: {by('negotiated')}")
    expect(set(by("tools")[0]["names"]) == TOOLS, f"tools: {by('tools')}")
    calls = {e["name"]: e["result"] for e in by("call")}
    enums = 0 if version == "2025-06-18" else 1
    if enums:
        expect('"untitledSingle":"option1"' in calls["test_elicitation_sep1330_enums"]["content"][0]["text"],
               calls["test_elicitation_sep1330_enums"])
    text = lambda name: calls[name]["content"][0].get("text")
    expect(text("test_simple_text") == "This is a simple text response for testing.", calls["test_simple_text"])
    expect(text("test_sampling") == "LLM response: sampled: hello", calls["test_sampling"])
    expect(text("test_elicitation") ==
           'User response: action=accept, content={"email":"example","username":"example"}', calls["test_elicitation"])
    # Defaults in an elicitation form (SEP-1034) arrived in 2025-11-25: a 2025-06-18 client
    # is not sent them (a value converted for an older peer carries only what its version
    # defines), and fills the form itself.
    defaults = version != "2025-06-18"
    filled = text("test_elicitation_sep1034_defaults")
    expect(('"score":96' in filled and '"name":"John Doe"' in filled) == defaults and
           ('"name":"example"' in filled) != defaults, calls["test_elicitation_sep1034_defaults"])
    expect(calls["test_error_handling"].get("isError") is True, calls["test_error_handling"])
    expect(calls["test_audio_content"]["content"][0]["mimeType"] == "audio/wav", calls["test_audio_content"])
    logs = [e for e in by("notification") if e["method"] == "notifications/message"]
    if version != "2026-07-28":
        # The discover era sends log messages only to requests that ask for a log level.
        expect(len(logs) == 3, f"log notifications: {logs}")
    answered = [e["method"] for e in by("answered")]
    expect(answered.count("elicitation/create") == 2 + enums and "sampling/createMessage" in answered, answered)
    read = {e["uri"]: e["result"] for e in by("read")}
    expect('"id":"123"' in read["test://template/123/data"]["contents"][0]["text"], read)
    expect(read["test://static-binary"]["contents"][0]["blob"].startswith("iVBOR"), read)
    prompt = by("prompt")[0]["result"]["messages"][0]["content"]["text"]
    expect(prompt == "Prompt with arguments: arg1='testValue1', arg2='testValue2'", prompt)


def rmcp_client(d):
    """Output of `mcp-rmcp-peer client` (rmcp's client) against our server."""
    expect(d.get("ok") is True and d.get("protocol_version") == "2025-11-25", f"rmcp client: {d}")
    expect(d["tools"] == len(TOOLS) and d["resources"] > 0 and d["prompts"] > 0, f"rmcp client: {d}")
    expect(d["tool_result"].startswith("progress token "), f"tools/call: {d['tool_result']}")


def peer_server(lines):
    """Output of mcp-example-client against the servers we wrote on an SDK
    (`mcp-rmcp-peer server`, interop/py_server.py): every tool, resource and prompt they
    offer, called, with the content each is written to give."""
    events = [json.loads(l) for l in lines if l.strip()]
    by = lambda kind: [e for e in events if e["event"] == kind]
    expect(not by("error"), f"the client reported an error: {by('error')}")
    expect([e["version"] for e in by("negotiated")] == ["2026-07-28"], f"negotiated: {by('negotiated')}")
    calls = {e["name"]: e["result"] for e in by("call")}
    expect(set(calls) == set(by("tools")[0]["names"]), f"called {sorted(calls)} of {by('tools')}")
    for name, result in calls.items():
        expect(result.get("isError", False) == (name == "fail"), f"{name}: {result}")
    types = lambda name: [c["type"] for c in calls[name]["content"]]
    expect(types("several_blocks") == ["text", "text", "resource_link"], calls["several_blocks"])
    expect("image" in types("image"), calls["image"])
    expect(types("embedded") == ["resource", "resource"], calls["embedded"])
    structured = [n for n, r in calls.items() if isinstance(r.get("structuredContent"), dict)]
    expect(structured, "no structuredContent")
    reads = {e["uri"]: e["result"]["contents"][0] for e in by("read")}
    expect(set(reads) >= {"memo://readme", "memo://logo"}, f"read: {sorted(reads)}")
    expect("«ünïcödé»" in reads["memo://readme"]["text"] and reads["memo://logo"]["blob"].startswith("iVBOR"), reads)
    prompts = {e["name"]: e["result"] for e in by("prompt")}
    expect(set(prompts) == set(by("prompts")[0]["names"]), f"prompts: {sorted(prompts)}")
    roles = [m["role"] for m in prompts["review"]["messages"]]
    expect(roles == ["user", "user", "assistant"], prompts["review"])
    return len(calls), len(reads), len(prompts)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        text = f.read()
    if kind == "sdk":
        sdk_client(json.loads(text), sys.argv[3])
        print("content ok")
    elif kind == "self":
        self_check(text.splitlines(), sys.argv[3])
        print("content ok")
    elif kind == "ours":
        n = our_client(text.splitlines())
        print(f"content ok ({n} unsolicited notifications tolerated)")
    elif kind == "rmcp-client":
        rmcp_client(json.loads(text))
        print("content ok")
    elif kind == "peer-server":
        calls, reads, prompts = peer_server(text.splitlines())
        print(f"content ok ({calls} tools called, {reads} resources read, {prompts} prompts got)")
    else:
        fail(f"unknown kind {kind}")


main()
