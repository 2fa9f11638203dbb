"""`python inprocess_run.py MODE`: serves examples/retail's package (importable as
`mcp_tools`) in-process to the SDK's own client (`Client(server)`, in `MODE`: "legacy",
the stream loop, or "auto", the direct per-request path), and prints each call's result as
the client sees it, as JSON (tests/test_server_inprocess.py)."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp import Client
from mcp_tools.server import create_server
from retail_handlers import Handlers


async def calls(server: Any, mode: Any) -> list[dict[str, Any]]:
    seen = []
    async with Client(server, mode=mode) as client:
        for name, arguments in (
            ("consultar_pedidos", {"order_ids": ["P-100", "P-901"]}),  # one item failed
            ("consultar_pedidos", {"order_ids": []}),  # invalid arguments
        ):
            result = await client.call_tool(name, arguments)
            seen.append(
                {
                    "is_error": result.is_error,
                    "structured": result.structured_content,
                    "texts": [getattr(b, "text", None) for b in result.content],
                }
            )
    return seen


def main() -> None:
    server = create_server(Handlers(), "retail", metrics=False)
    print(json.dumps(anyio.run(calls, server, sys.argv[1])))


if __name__ == "__main__":
    main()
