#!/usr/bin/env python3
"""A Python SDK server (mcp==2.3.0, `MCPServer`) over stdio with varied results, for
interop/record's `python-server` session (our `mcp-example-client` calls all of it):

- tools: `greet` (text), `several_blocks` (text, annotated text, a resource link),
  `image` (an `Image`), `stats` (structured output: an `outputSchema` and
  `structuredContent`), `embedded` (embedded text and blob resources), `audio`, `fail`
  (raises `ToolError`: an `isError` result);
- resources: `memo://readme` (markdown), `memo://logo` (binary), `memo://notes/{id}`
  (a template, JSON);
- prompts: `review` (arguments, several messages with roles), `hello` (no arguments).

usage: py_server.py
"""

from __future__ import annotations

import base64
import json

from mcp.server.mcpserver import AssistantMessage, Image, MCPServer, UserMessage
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    ResourceLink,
    TextContent,
    TextResourceContents,
)
from pydantic import BaseModel

# A 1x1 PNG and a 4-sample WAV.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
WAV = base64.b64encode(
    b"RIFF" + (44).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
    + bytes([1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0])
    + b"data" + (8).to_bytes(4, "little") + bytes(8)
).decode()
README = "# Python peer\n\nServed by mcp 2.3.0 — «ünïcödé», 日本語, emoji 🐍, a tab\tand \"quotes\".\n"

server = MCPServer("py-interop-server", instructions="Varied results for interop/record (Python SDK).")


class Stats(BaseModel):
    count: int
    mean: float
    minimum: float
    maximum: float
    labels: list[str]
    note: str | None = None


@server.tool(description="Greets someone")
def greet(name: str, excited: bool = False) -> str:
    return f"Hello, {name}{'!' if excited else '.'}"


@server.tool(description="Three blocks: text, annotated text, a link")
def several_blocks() -> list:
    return [
        TextContent(text="first block"),
        TextContent(text="second block, for the assistant",
                    annotations=Annotations(audience=["assistant"], priority=0.25)),
        ResourceLink(uri="memo://readme", name="readme", mime_type="text/markdown"),
    ]


@server.tool(description="A 1x1 PNG")
def image() -> Image:
    return Image(data=PNG, format="png")


@server.tool(description="Statistics of numbers, as structured content")
def stats(values: list[float], labels: list[str] | None = None) -> Stats:
    return Stats(count=len(values), mean=sum(values) / len(values), minimum=min(values),
                 maximum=max(values), labels=labels or [])


@server.tool(description="Two embedded resources, text and blob")
def embedded() -> list:
    return [
        EmbeddedResource(resource=TextResourceContents(uri="memo://readme", mime_type="text/markdown",
                                                       text=README)),
        EmbeddedResource(resource=BlobResourceContents(uri="memo://logo", mime_type="image/png",
                                                       blob=base64.b64encode(PNG).decode())),
    ]


@server.tool(description="A short WAV")
def audio() -> AudioContent:
    return AudioContent(data=WAV, mime_type="audio/wav")


@server.tool(description="Always fails")
def fail() -> str:
    raise ToolError("this tool always fails")


@server.resource("memo://readme", name="readme", description="A markdown note", mime_type="text/markdown")
def readme() -> str:
    return README


@server.resource("memo://logo", name="logo", mime_type="image/png")
def logo() -> bytes:
    return PNG


@server.resource("memo://notes/{id}", name="note", mime_type="application/json")
def note(id: str) -> str:
    return json.dumps({"id": id, "text": f"note {id}", "tags": ["a", "ü"], "pinned": False})


@server.prompt(description="Asks for a code review")
def review(code: str, language: str = "text") -> list:
    return [
        UserMessage(f"Review this {language}:"),
        UserMessage(EmbeddedResource(resource=TextResourceContents(uri="memo://code", mime_type="text/plain",
                                                                   text=code))),
        AssistantMessage("I will look at it line by line."),
    ]


@server.prompt(description="Says hello")
def hello() -> str:
    return "Hello from the Python SDK."


if __name__ == "__main__":
    server.run("stdio")
