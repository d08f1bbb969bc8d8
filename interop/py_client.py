#!/usr/bin/env python3
"""Interop client: official MCP Python SDK (mcp==2.3.0) -> stdio MCP server.

usage:
  py_client.py MODE [options] -- CMD [ARGS...]

  MODE        legacy | legacy-VERSION | auto | 2026-07-28   (passed as mcp.Client(mode=...))
                legacy      initialize handshake (offers protocolVersion 2025-11-25)
                legacy-V    the same, offering protocolVersion V (such as 2025-06-18): the
                            SDK offers its newest handshake version, and this rebinds the
                            name it reads that from
                auto        server/discover probe first (10 s probe timeout), falls back to
                            initialize on any JSON-RPC error / unusable DiscoverResult
                2026-07-28  no handshake and no discover: every request carries the
                            io.modelcontextprotocol/* _meta envelope

options:
  --timeout S        overall deadline in seconds (default 30); exit 124 when exceeded
  --tool NAME        tool to call            (default test_simple_text)
  --tool-args JSON   tool arguments object   (default {})
  --resource URI     resource to read        (default test://static-text)
  --prompt NAME      prompt to get           (default test_simple_prompt)
  --prompt-args JSON prompt arguments object (default none)
  --list-only        only connect + tools/list (skip the three calls)
  --allow-tool-error do not treat a CallToolResult with isError=true as a failure
  --roots URI        install a list_roots callback answering [URI] (advertises roots cap)
  --wire-log FILE    append every JSON-RPC frame (">>" sent, "<<" received) to FILE

Prints one JSON object on stdout:
  {"ok": true, "mode": ..., "protocol_version": ..., "server_info": ..., "server_capabilities": ...,
   "instructions": ..., "tools": [...], "tool_result": {...}, "resource": {...}, "prompt": {...},
   "notifications": [{"method": ..., "params": ...}, ...]}
On failure: {"ok": false, "error": "...", "error_type": "...", ...partial results} and a non-zero
exit status (1 = error, 124 = timeout, 2 = usage).  The server's stderr passes through to ours.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage


def dump(model: Any) -> Any:
    if model is None:
        return None
    if hasattr(model, "model_dump"):
        return model.model_dump(by_alias=True, mode="json", exclude_none=True, exclude_unset=True)
    return model


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" not in argv:
        return argv, []
    i = argv.index("--")
    return argv[:i], argv[i + 1 :]


def parse_args() -> tuple[argparse.Namespace, list[str]]:
    own, cmd = split_argv(sys.argv[1:])
    ap = argparse.ArgumentParser(prog="py_client.py", description="MCP Python SDK stdio interop client")
    ap.add_argument("mode", help="legacy | legacy-VERSION | auto | 2026-07-28")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--tool", default="test_simple_text")
    ap.add_argument("--tool-args", default="{}")
    ap.add_argument("--resource", default="test://static-text")
    ap.add_argument("--prompt", default="test_simple_prompt")
    ap.add_argument("--prompt-args", default=None)
    ap.add_argument("--list-only", action="store_true")
    ap.add_argument("--allow-tool-error", action="store_true")
    ap.add_argument("--roots", default=None)
    ap.add_argument("--wire-log", default=None)
    args = ap.parse_args(own)
    if not cmd:
        ap.error("missing '-- CMD [ARGS...]'")
    return args, cmd


@asynccontextmanager
async def teeing_transport(params: StdioServerParameters, log_path: str | None):
    """stdio_client, optionally teeing every JSON-RPC frame to a log file."""
    async with stdio_client(params) as (read_stream, write_stream):
        if log_path is None:
            yield read_stream, write_stream
            return
        log = open(log_path, "a", buffering=1)

        def record(direction: str, item: Any) -> None:
            if isinstance(item, SessionMessage):
                log.write(f"{direction} {item.message.model_dump_json(by_alias=True, exclude_unset=True)}\n")
            else:
                log.write(f"{direction} <exception {item!r}>\n")

        in_send, in_recv = anyio.create_memory_object_stream[Any](0)
        out_send, out_recv = anyio.create_memory_object_stream[Any](0)

        async def pump_in() -> None:
            async with in_send:
                async for item in read_stream:
                    record("<<", item)
                    await in_send.send(item)

        async def pump_out() -> None:
            async with out_recv:
                async for item in out_recv:
                    record(">>", item)
                    await write_stream.send(item)

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(pump_in)
                tg.start_soon(pump_out)
                try:
                    yield in_recv, out_send
                finally:
                    tg.cancel_scope.cancel()
        finally:
            log.close()


async def run(args: argparse.Namespace, cmd: list[str], out: dict[str, Any]) -> None:
    tool_args = json.loads(args.tool_args)
    prompt_args = json.loads(args.prompt_args) if args.prompt_args else None
    notifications: list[dict[str, Any]] = out.setdefault("notifications", [])

    async def message_handler(message: Any) -> None:
        if isinstance(message, Exception):
            notifications.append({"transport_exception": repr(message)})
            return
        root = getattr(message, "root", message)
        notifications.append(dump(root))

    list_roots_callback = None
    if args.roots:

        async def list_roots_callback(context: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=args.roots, name="interop-root")])

    params = StdioServerParameters(
        command=cmd[0],
        args=cmd[1:],
        # Forward our whole environment (the SDK default forwards only HOME/LOGNAME/PATH/SHELL/TERM/USER).
        env=dict(os.environ),
    )
    mode = args.mode
    if mode.startswith("legacy-"):
        import mcp.client.session as session_module

        session_module.LATEST_HANDSHAKE_VERSION = mode.removeprefix("legacy-")
        mode = "legacy"
    client = Client(
        teeing_transport(params, args.wire_log),
        mode=mode,
        read_timeout_seconds=args.timeout,
        message_handler=message_handler,
        list_roots_callback=list_roots_callback,
        client_info=types.Implementation(name="py-interop-client", version="0.1.0"),
        cache=None,
    )
    async with client:
        out["protocol_version"] = client.protocol_version
        out["era"] = "modern" if client.session.discover_result is not None else "legacy"
        out["server_info"] = dump(client.server_info)
        out["server_capabilities"] = dump(client.server_capabilities)
        out["instructions"] = client.instructions

        tools = await client.list_tools()
        out["tools"] = [dump(t) for t in tools.tools]
        if args.list_only:
            return

        step = "tools/call"
        try:
            tool_result = await client.call_tool(args.tool, tool_args)
            out["tool_result"] = dump(tool_result)
            if tool_result.is_error and not args.allow_tool_error:
                raise RuntimeError(f"tool {args.tool!r} returned isError=true")
            step = "resources/read"
            out["resource"] = dump(await client.read_resource(args.resource))
            step = "prompts/get"
            out["prompt"] = dump(await client.get_prompt(args.prompt, prompt_args))
        except Exception as exc:
            out["failed_step"] = step
            raise exc


def flatten(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def main() -> int:
    args, cmd = parse_args()
    out: dict[str, Any] = {"ok": False, "mode": args.mode, "command": cmd}
    status = 1
    try:

        async def guarded() -> None:
            with anyio.fail_after(args.timeout):
                await run(args, cmd, out)

        anyio.run(guarded)
        out["ok"] = True
        status = 0
    except BaseException as raw:  # noqa: BLE001 - report everything, including groups
        exc = flatten(raw)
        if isinstance(exc, KeyboardInterrupt):
            raise
        if isinstance(exc, TimeoutError):
            status = 124
            out["error"] = f"timed out after {args.timeout}s"
        else:
            out["error"] = str(exc) or repr(exc)
        out["error_type"] = type(exc).__name__
        if isinstance(exc, MCPError):
            out["error_code"] = exc.code
            out["error_data"] = dump(exc.error.data) if exc.error is not None else None
        print("".join(traceback.format_exception(raw)), file=sys.stderr)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return status


if __name__ == "__main__":
    sys.exit(main())
