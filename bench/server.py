"""Benchmark of the generated MCP server (issue 4): the per-call overhead of its validation and
sealing against a bare low-level SDK server returning the same payload, over stdio, in one
run; and `tools/list` for 250 tools.

    .venv/bin/python bench/server.py [--calls 300] [--rounds 3]

Both servers run as real processes and are driven by the SDK's real stdio client. The bare
server answers every call with the envelope the generated server sent for the same call
(recorded first), so the two differ only in what the generated server does per call:
validating the arguments, running the handler, normalizing and sealing. Writes
bench/results/server.json.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import gen_config  # bench/ is sys.path[0] when this file is run as a script
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RESULTS = ROOT / "bench" / "results"
ARGS = {"order_ids": ["P-100", "P-200", "P-300"]}

GENERATED = """
import sys
sys.path.insert(0, sys.argv[1])
from mcp_tools import ConsultarPedidosItem
from mcp_tools.server import create_server
from mcp_tools.server_runtime import Items, run_stdio

class Handlers:
    async def consultar_pedidos(self, args, ctx):
        return Items([ConsultarPedidosItem.model_validate(
            {"order_id": i, "ok": True, "status": "paid"}) for i in args.order_ids])
    async def cancelar_pedidos(self, args, ctx):
        raise NotImplementedError

run_stdio(create_server(Handlers()))
"""

BARE = """
import json, sys
import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

envelope = json.loads(open(sys.argv[1], encoding="utf-8").read())
tools = [types.Tool.model_validate(t) for t in json.loads(open(sys.argv[2]).read())["tools"]]
text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=tools)

async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                structured_content=envelope, is_error=False)

async def main():
    server = Server("bare", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())

anyio.run(main)
"""


def _build(config: Path, out: Path) -> None:
    subprocess.run(
        [str(BIN / "toolc"), "build", str(config), "--out", str(out), "--no-cache",
         "--snapshot", str(out.parent / "snapshot.json")],
        check=True, capture_output=True,
    )  # fmt: skip


async def _time_calls(command: list[str], calls: int, rounds: int) -> tuple[float, Any]:
    """Best-of-rounds seconds per call, and the last structuredContent."""
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params) as client:
        result = await client.call_tool("consultar_pedidos", ARGS)  # warm up
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(calls):
                result = await client.call_tool("consultar_pedidos", ARGS)
            best = min(best, (time.perf_counter() - start) / calls)
        return best, result.structured_content


async def _time_list(command: list[str], repeats: int) -> tuple[float, int]:
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params) as client:
        listed = await client.list_tools()
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            listed = await client.list_tools()
            best = min(best, time.perf_counter() - start)
        return best, len(listed.tools)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pkg_root = work / "retail"
        _build(ROOT / "examples" / "retail", pkg_root / "mcp_tools")
        (work / "generated.py").write_text(GENERATED)
        (work / "bare.py").write_text(BARE)
        generated = [sys.executable, str(work / "generated.py"), str(pkg_root)]
        per_call, envelope = anyio.run(_time_calls, generated, options.calls, options.rounds)
        (work / "envelope.json").write_text(json.dumps(envelope))
        tools_json = str(pkg_root / "mcp_tools" / "tools.json")
        bare = [sys.executable, str(work / "bare.py"), str(work / "envelope.json"), tools_json]
        bare_call, _ = anyio.run(_time_calls, bare, options.calls, options.rounds)
        # Measured again after the bare server: the order must not favour either.
        again, _ = anyio.run(_time_calls, generated, options.calls, options.rounds)
        per_call = min(per_call, again)
        report["generated_ms_per_call"] = per_call * 1000
        report["bare_ms_per_call"] = bare_call * 1000
        report["overhead"] = per_call / bare_call - 1

        config = work / "cfg250"
        gen_config.write_config(config, 250, 20240501)
        tools_yaml = config / "tools.yaml"  # all 250 on one server, so one list holds them
        tools_yaml.write_text(re.sub(r"mcp_server: \w+", "mcp_server: all", tools_yaml.read_text()))
        _build(config, work / "pkg250" / "mcp_tools")
        mock = [str(BIN / "toolc"), "serve", str(config), "--mock"]
        listing, count = anyio.run(_time_list, mock, 20)
        bare250 = [*bare[:3], str(work / "pkg250" / "mcp_tools" / "tools.json")]
        bare_listing, _ = anyio.run(_time_list, bare250, 20)
        report["tools_list_ms"] = listing * 1000
        report["bare_tools_list_ms"] = bare_listing * 1000
        report["tools_list_count"] = count
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "server.json").write_text(json.dumps(report, indent=2) + "\n")
    print(
        f"per call over stdio: generated {report['generated_ms_per_call']:.3f} ms, "
        f"bare SDK server {report['bare_ms_per_call']:.3f} ms: "
        f"{report['overhead'] * 100:+.1f} % (target <= +15 %)"
    )
    print(
        f"tools/list of {count} tools: {listing * 1000:.1f} ms; the bare server listing the same "
        f"descriptors: {bare_listing * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
