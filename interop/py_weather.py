#!/usr/bin/env python3
"""The official MCP Python SDK (mcp==2.3.0) against examples/weather, the small server
written the way the README shows. Exercises and checks: ping, tools/list (schemas from
Rust types), a tool with text output, one with structured output (the SDK validates it
against the tool's output schema), a tool error (isError), arguments that do not fit
(a tool error too), an unknown tool (-32602), logging (setLevel, then the log
notifications a call sends), a resource and a prompt.

usage: py_weather.py -- CMD [ARGS...]
Prints one JSON object ({"ok": true, "checks": N} or {"ok": false, "error": ...}) and
exits 0 on success, 1 on a failed check.
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


async def run(cmd: list[str]) -> int:
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params.data)

    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))
    client = Client(
        stdio_client(params),
        mode="legacy",
        read_timeout_seconds=20,
        logging_callback=on_log,
        client_info=types.Implementation(name="py-weather-check", version="0.1.0"),
        cache=None,
    )
    checks = 0
    async with client:
        check(client.protocol_version == "2025-11-25", "protocol version", client.protocol_version)
        check(client.server_info.name == "weather", "server name", client.server_info)
        await client.send_ping()
        checks += 2

        tools = {t.name: t for t in (await client.list_tools()).tools}
        check(set(tools) == {"forecast", "echo_city"}, "tools", sorted(tools))
        check(tools["forecast"].input_schema.get("required") == ["city"], "input schema", tools["forecast"].input_schema)
        check(tools["forecast"].output_schema is not None, "output schema", tools["forecast"])
        check(tools["echo_city"].description == "Says the city back", "description", tools["echo_city"])
        checks += 4

        await client.set_logging_level("info")
        echo = await client.call_tool("echo_city", {"city": "Lima"})
        check(not echo.is_error and echo.content[0].text == "Lima", "text result", echo)
        forecast = await client.call_tool("forecast", {"city": "Oslo"})
        want = {"city": "Oslo", "summary": "sunny", "celsius": 21}
        check(forecast.structured_content == want, "structured result", forecast)
        check(json.loads(forecast.content[0].text) == want, "its text", forecast.content)
        failed = await client.call_tool("forecast", {"city": "Atlantis"})
        check(failed.is_error and "Atlantis" in failed.content[0].text, "tool error", failed)
        checks += 4
        # Arguments that do not fit are a tool error the model can correct (SEP-1303),
        # naming what does not fit; an unknown tool is a protocol error.
        unfit = await client.call_tool("echo_city", {"city": 5})
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

        # The notifications the calls sent came before their answers.
        with anyio.fail_after(5):
            while len(logs) < 3:
                await anyio.sleep(0.05)
        check(logs[:2] == ["echo_city for Lima", "forecast for Oslo"], "log notifications", logs)
        checks += 1
    print(json.dumps({"ok": True, "checks": checks}))
    return 0


def main() -> int:
    # The SDK warns that ping and logging are gone in 2026-07-28; this is 2025-11-25.
    warnings.filterwarnings("ignore", message=".*2026-07-28")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print("usage: py_weather.py -- CMD [ARGS...]", file=sys.stderr)
        return 2
    cmd = argv[argv.index("--") + 1 :]
    try:
        return anyio.run(run, cmd)
    except BaseException as exc:  # noqa: BLE001 - report any failure as JSON
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
