#!/usr/bin/env python3
"""The official MCP Python SDK (mcp==2.3.0) against examples/weather, the README's server
(written for 2026-07-28, served at every version). Exercises and checks, in one of the
SDK's modes: the version negotiated, the server's info and instructions, tools/list (the
schemas from Rust types), a tool with structured output (the SDK validates it against the
tool's output schema), a tool error (isError), arguments that do not fit (a tool error
too), an unknown tool (-32602), logging (the level the client asks for, by
logging/setLevel in the initialize era or in each request's _meta at 2026-07-28: below it,
nothing comes), a resource and a prompt.

usage: py_weather.py MODE -- CMD [ARGS...]
  MODE  legacy | legacy-VERSION | auto | 2026-07-28  (as py_client.py)
Prints one JSON object ({"ok": true, "mode": ..., "protocol_version": ..., "checks": N} or
{"ok": false, "error": ...}) and exits 0 on success, 1 on a failed check.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


def check(cond: bool, what: str, got: Any = None) -> None:
    if not cond:
        raise AssertionError(f"{what}: got {got!r}")


async def run(mode: str, cmd: list[str]) -> int:
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append((params.level, params.data))

    want = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}.get(mode)
    if mode.startswith("legacy-"):
        import mcp.client.session as session_module

        want = session_module.LATEST_HANDSHAKE_VERSION = mode.removeprefix("legacy-")
        mode = "legacy"
    modern = want == "2026-07-28"
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))
    client = Client(
        stdio_client(params),
        mode=mode,
        read_timeout_seconds=20,
        logging_callback=on_log,
        # At 2026-07-28 each request asks for its log level; before, logging/setLevel does.
        log_level="info" if modern else None,
        client_info=types.Implementation(name="py-weather-check", version="0.1.0"),
        cache=None,
    )
    checks = 0
    async with client:
        check(client.protocol_version == want, "protocol version", client.protocol_version)
        checks += 1
        # In mode 2026-07-28 the SDK asks nothing first (no server/discover): no info.
        if mode != "2026-07-28":
            check(client.server_info.name == "weather", "server name", client.server_info)
            check(client.instructions == "Ask for the weather by city.", "instructions", client.instructions)
            checks += 2
        if not modern:
            await client.send_ping()
            await client.set_logging_level("info")
            checks += 1

        tools = {t.name: t for t in (await client.list_tools()).tools}
        check(set(tools) == {"forecast"}, "tools", sorted(tools))
        check(tools["forecast"].input_schema.get("required") == ["city"], "input schema", tools["forecast"].input_schema)
        check(tools["forecast"].description == "Tells the weather in a city", "description", tools["forecast"])
        structured = want >= "2025-06-18"
        check((tools["forecast"].output_schema is not None) == structured, "output schema", tools["forecast"])
        checks += 4

        forecast = await client.call_tool("forecast", {"city": "Oslo"})
        expected = {"city": "Oslo", "celsius": 21}
        check(json.loads(forecast.content[0].text) == expected, "text result", forecast.content)
        if structured:
            check(forecast.structured_content == expected, "structured result", forecast)
        failed = await client.call_tool("forecast", {"city": "Atlantis"})
        check(failed.is_error and "no weather station" in failed.content[0].text, "tool error", failed)
        checks += 3
        # Arguments that do not fit are a tool error the model can correct (SEP-1303),
        # naming what does not fit; an unknown tool is a protocol error.
        unfit = await client.call_tool("forecast", {"city": 5})
        check(unfit.is_error and "city" in unfit.content[0].text, "arguments that do not fit", unfit)
        try:
            await client.call_tool("rain_dance", {})
            raise AssertionError("an unknown tool was called")
        except MCPError as e:
            check(e.error.code == -32602, "unknown tool code", e.error)
        checks += 2

        text = (await client.read_resource("weather://stations")).contents[0].text
        check(text == "Oslo\nLima\n", "resource", text)
        prompt = await client.get_prompt("packing_list", {"city": "Lima"})
        check("Lima" in prompt.messages[0].content.text, "prompt", prompt)
        checks += 2

        # Each call to `forecast` logged its city at `info`, which the client asked for.
        with anyio.fail_after(5):
            while len(logs) < 2:
                await anyio.sleep(0.05)
        check(logs[:2] == [("info", "Oslo"), ("info", "Atlantis")], "log notifications", logs)
        checks += 1
        if not modern:
            # Above the level the handler logs at, nothing comes.
            await client.set_logging_level("error")
            await client.call_tool("forecast", {"city": "Lima"})
            await anyio.sleep(0.3)
            check(len(logs) == 2, "no log below the level set", logs)
            checks += 1
    print(json.dumps({"ok": True, "mode": sys.argv[1], "protocol_version": want, "checks": checks}))
    return 0


def main() -> int:
    # The SDK warns that ping and logging are deprecated in 2026-07-28; they are still served.
    warnings.filterwarnings("ignore", message=".*2026-07-28")
    argv = sys.argv[1:]
    if len(argv) < 3 or argv[1] != "--":
        print("usage: py_weather.py MODE -- CMD [ARGS...]", file=sys.stderr)
        return 2
    mode, cmd = argv[0], argv[2:]
    try:
        return anyio.run(run, mode, cmd)
    except BaseException as exc:  # noqa: BLE001 - report any failure as JSON
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
