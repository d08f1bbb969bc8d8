#!/usr/bin/env python3
"""A weather server on the official MCP Python SDK (mcp==2.3.0, `MCPServer`), over stdio:
what examples/weather-client (the README's client) is checked against in interop/run. One
tool, `forecast`, which answers `{"city": CITY, "celsius": 14}` as text.

usage: py_weather_server.py
"""

from __future__ import annotations

import json

from mcp.server.mcpserver import MCPServer

server = MCPServer("py-weather", instructions="Ask for the weather by city.")


@server.tool(description="Tells the weather in a city (Python)")
def forecast(city: str) -> str:
    return json.dumps({"city": city, "celsius": 14})


if __name__ == "__main__":
    server.run("stdio")
