"""An origin MCP server (a real process, on the SDK's low-level Server) whose `count`
answers outside the outputSchema it lists and `bare` with no data at all: what a gateway
must not pass on; `refuse` answers its own error, `crash` a protocol error, and `stall`
never answers in time (the outcomes of a forwarded
call, tests/test_proxy_hooks.py); `die` ends the process, as a crashed origin does, and
`fade` answers, then ends it while no call is waiting (tests/test_proxy_restart.py).
`--once MARKER`: a second start (MARKER exists) fails at once, as an origin that does
not come back; `--gate PATH`: a start fails until PATH exists, as an origin that comes
up late (tests/test_proxy_list_changed.py); `--brief PATH`: each start adds a line to
PATH, and the process ends half a second later, as an origin that keeps crashing."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
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

BARE = types.Tool(
    name="bare",
    description="Answers text alone.",
    input_schema=COUNT.input_schema,
    output_schema=COUNT.output_schema,
)
CRASH = types.Tool(name="crash", description="Crashes.", input_schema=COUNT.input_schema)
REFUSE = types.Tool(name="refuse", description="Refuses.", input_schema=COUNT.input_schema)
STALL = types.Tool(name="stall", description="Stalls.", input_schema=COUNT.input_schema)
DIE = types.Tool(name="die", description="Ends the process.", input_schema=COUNT.input_schema)
FADE = types.Tool(name="fade", description="Ends it later.", input_schema=COUNT.input_schema)


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[COUNT, BARE, CRASH, REFUSE, STALL, DIE, FADE])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "refuse":
        text = types.TextContent(type="text", text="No such thing.")
        return types.CallToolResult(content=[text], is_error=True)
    if params.name == "bare":
        return types.CallToolResult(content=[types.TextContent(type="text", text="n=1")])
    if params.name == "crash":
        raise RuntimeError("the origin's handler failed")
    if params.name == "die":
        os._exit(3)
    if params.name == "fade":  # answered first: the process ends while idle
        threading.Timer(0.3, os._exit, (3,)).start()
        return types.CallToolResult(content=[types.TextContent(type="text", text="Bye.")])
    if params.name == "stall":
        await anyio.sleep(30)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text='{"n": "many"}')],
        structured_content={"n": "many"},
    )


async def main() -> None:
    server: Server[Any] = Server("liar", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def over_http(port: int) -> None:
    """The same origin over Streamable HTTP on 127.0.0.1:`port` (tests/test_proxy_restart.py
    stops it and starts it again)."""
    import uvicorn

    server: Server[Any] = Server("liar", on_list_tools=list_tools, on_call_tool=call_tool)
    app = server.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--http":
        over_http(int(sys.argv[2]))
    else:
        if len(sys.argv) > 2 and sys.argv[1] == "--once":
            marker = Path(sys.argv[2])
            if marker.exists():
                sys.exit(1)
            marker.touch()
        if len(sys.argv) > 2 and sys.argv[1] == "--gate" and not Path(sys.argv[2]).exists():
            sys.exit(1)
        if len(sys.argv) > 2 and sys.argv[1] == "--brief":
            with open(sys.argv[2], "a") as starts:
                starts.write("started\n")
            threading.Timer(0.5, os._exit, (3,)).start()
        anyio.run(main)
