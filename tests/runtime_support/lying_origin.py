"""An origin MCP server (a real process, on the SDK's low-level Server) whose one tool
answers outside the outputSchema it lists: what a gateway must not pass on."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

COUNT = types.Tool(
    name="count",
    description="Counts.",
    input_schema={"type": "object", "properties": {}},
    output_schema={
        "type": "object",
        "required": ["n"],
        "properties": {"n": {"type": "integer"}},
    },
)


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[COUNT])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text='{"n": "many"}')],
        structured_content={"n": "many"},
    )


async def main() -> None:
    server: Server[Any] = Server("liar", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
