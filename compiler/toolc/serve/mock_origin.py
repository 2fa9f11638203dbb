"""The origin a `toolc serve --mock` gateway forwards its proxied tools to, instead of the
real one (never reached by a mock): `python -m toolc.serve.mock_origin FILE` serves, over
stdio, the origin tools FILE lists with the schemas the gateway publishes for them, each
answering one value valid against its outputSchema, unenveloped, as an origin does. The
gateway's real proxy path runs against it: arguments validated, the listing compared at
start, the answer checked against the outputSchema."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def origin(listed: list[dict[str, Any]]) -> Server[Any]:
    """`listed`: {name, inputSchema, outputSchema?, answer?} for each origin tool."""
    tools = [
        types.Tool(
            name=t["name"],
            description=f"Mock of the origin tool {t['name']}.",
            input_schema=t["inputSchema"],
            output_schema=t.get("outputSchema"),
        )
        for t in listed
    ]
    answers = {t["name"]: t.get("answer") for t in listed}

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        answer = answers.get(params.name)
        if answer is None:  # the origin lists no outputSchema: a text answer only
            text = types.TextContent(type="text", text=f"Mock answer of {params.name}.")
            return types.CallToolResult(content=[text])
        text = types.TextContent(type="text", text=json.dumps(answer, ensure_ascii=False))
        return types.CallToolResult(content=[text], structured_content=answer)

    return Server("toolc-mock-origin", on_list_tools=list_tools, on_call_tool=call_tool)


async def _main(path: str) -> None:
    server = origin(json.loads(Path(path).read_text(encoding="utf-8")))
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_main, sys.argv[1])
