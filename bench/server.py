"""Benchmark of the generated MCP server (issue 16) against a bare low-level SDK server
serving the same descriptors and returning the same envelope, both real processes driven by
the SDK's stdio client.

    .venv/bin/python bench/server.py [--calls 2000] [--runs 5] [--block 100] [--tools 1000]

- Per call: `--calls` calls of the retail example's `consultar_pedidos` (its payload) per
  run and server, metrics off, `--runs` runs alternating between the two servers (both kept
  open, so only the calls are timed), which within a run take turns every `--block` calls;
  the figure is the median of the per-run ratios, with their spread. The bare server
  answers every call with the envelope the generated server sent for the same call, so the
  two differ only in what the generated server does per call: validating the arguments,
  running the handler, normalizing and sealing.
- Start-up: from spawning the process to the answer of its first `tools/list`, `--tools`
  tools on one server (bench/gen_config's synthetic config), `--runs` alternating runs, the
  median of the per-run ratios. The bare server reads the same tools.json. Both packages
  are byte-compiled first, as installing them does (`_build`).

Writes bench/results/server.json. Targets: per call <= 1.05x, start-up <= 1.2x.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
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
CALL_TARGET = 1.05
START_TARGET = 1.2

RETAIL = """
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

run_stdio(create_server(Handlers(), metrics=False))
"""

# A server of many tools: every handler is the same coroutine (start-up never calls one).
MANY = """
import sys
sys.path.insert(0, sys.argv[1])
from mcp_tools.server import create_server
from mcp_tools.server_runtime import run_stdio

async def handler(args, ctx):
    raise NotImplementedError

class Handlers:
    def __getattr__(self, name):
        return handler

run_stdio(create_server(Handlers(), "all", metrics=False))
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
    """Build the package and byte-compile it, as installing it does (pip compiles what it
    installs): the bare server's SDK is compiled too, so neither side compiles at start-up.
    Without this, every generated start-up compiled registry.py and __init__.py from source
    wherever bytecode is not written (PYTHONDONTWRITEBYTECODE): ~0.19 s of 1,000 tools."""
    subprocess.run(
        [str(BIN / "toolc"), "build", str(config), "--out", str(out), "--no-cache",
         "--snapshot", str(out.parent / "snapshot.json")],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(out)], check=True, capture_output=True
    )


def _client(command: list[str]) -> Client:
    return Client(StdioServerParameters(command=command[0], args=command[1:]))


async def _envelope(command: list[str]) -> Any:
    async with _client(command) as client:
        return (await client.call_tool("consultar_pedidos", ARGS)).structured_content


async def _per_call(
    generated: list[str], bare: list[str], calls: int, runs: int, block: int
) -> dict[str, Any]:
    """Seconds per call of each server in alternating runs over two open connections. Within
    a run the two take turns every `block` calls, the first of each pair alternating too: the
    machine's speed drifts by several percent over the seconds a run takes, and both servers
    must see the same phases of it (decision 0125)."""
    times: dict[str, list[float]] = {"generated": [], "bare": []}
    async with _client(generated) as gen, _client(bare) as bar:
        for client in (gen, bar):  # warm up both
            for _ in range(50):
                await client.call_tool("consultar_pedidos", ARGS)
        for run in range(runs):
            spent = {"generated": 0.0, "bare": 0.0}
            for turn in range(max(1, calls // block)):
                order = [("generated", gen), ("bare", bar)]
                for name, client in order if (run + turn) % 2 == 0 else order[::-1]:
                    start = time.perf_counter()
                    for _ in range(block):
                        await client.call_tool("consultar_pedidos", ARGS)
                    spent[name] += time.perf_counter() - start
            for name, seconds in spent.items():
                times[name].append(seconds / (max(1, calls // block) * block))
    return times


async def _start_up(command: list[str]) -> tuple[float, int]:
    """Seconds from spawning the server to the answer of its first tools/list."""
    start = time.perf_counter()
    async with _client(command) as client:
        listed = await client.list_tools()
        return time.perf_counter() - start, len(listed.tools)


def _ratios(times: dict[str, list[float]]) -> dict[str, Any]:
    ratios = [g / b for g, b in zip(times["generated"], times["bare"], strict=True)]
    return {
        "generated_s": times["generated"],
        "bare_s": times["bare"],
        "ratios": ratios,
        "median_ratio": statistics.median(ratios),
        "spread": [min(ratios), max(ratios)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--block", type=int, default=100, help="calls per turn within a run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tools", type=int, default=1000)
    options = parser.parse_args()
    report: dict[str, Any] = {"calls": options.calls, "runs": options.runs, "block": options.block}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        retail = work / "retail"
        _build(ROOT / "examples" / "retail", retail / "mcp_tools")
        for name, text in (("retail.py", RETAIL), ("many.py", MANY), ("bare.py", BARE)):
            (work / name).write_text(text)
        generated = [sys.executable, str(work / "retail.py"), str(retail)]
        (work / "envelope.json").write_text(json.dumps(anyio.run(_envelope, generated)))
        bare = [sys.executable, str(work / "bare.py"), str(work / "envelope.json")]
        retail_tools = str(retail / "mcp_tools" / "tools.json")
        per_call = anyio.run(
            _per_call, generated, [*bare, retail_tools], options.calls, options.runs, options.block
        )
        report["per_call"] = _ratios(per_call)

        config = work / "many"
        gen_config.write_config(config, options.tools, gen_config.DEFAULT_SEED)
        tools_yaml = config / "tools.yaml"  # all on one server, so one listing holds them
        tools_yaml.write_text(re.sub(r"mcp_server: \w+", "mcp_server: all", tools_yaml.read_text()))
        _build(config, work / "many_pkg" / "mcp_tools")
        many = [sys.executable, str(work / "many.py"), str(work / "many_pkg")]
        bare_many = [*bare, str(work / "many_pkg" / "mcp_tools" / "tools.json")]
        starts: dict[str, list[float]] = {"generated": [], "bare": []}
        counts = set()
        for run in range(options.runs):
            order = [("generated", many), ("bare", bare_many)]
            for name, command in order if run % 2 == 0 else order[::-1]:
                seconds, count = anyio.run(_start_up, command)
                starts[name].append(seconds)
                counts.add(count)
        report["start_up"] = {**_ratios(starts), "tools": sorted(counts)}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "server.json").write_text(json.dumps(report, indent=2) + "\n")
    call, start = report["per_call"], report["start_up"]
    print(
        f"per call over stdio ({options.calls} calls x {options.runs} alternating runs, "
        f"turns of {options.block}): "
        f"generated {statistics.median(call['generated_s']) * 1000:.3f} ms, bare SDK server "
        f"{statistics.median(call['bare_s']) * 1000:.3f} ms: {call['median_ratio']:.3f}x "
        f"(spread {call['spread'][0]:.3f}-{call['spread'][1]:.3f}; target <= {CALL_TARGET}x)"
    )
    print(
        f"start-up to the first tools/list of {start['tools']} tools: generated "
        f"{statistics.median(start['generated_s']):.3f} s, bare "
        f"{statistics.median(start['bare_s']):.3f} s: {start['median_ratio']:.2f}x "
        f"(spread {start['spread'][0]:.2f}-{start['spread'][1]:.2f}; "
        f"target <= {START_TARGET}x)"
    )


if __name__ == "__main__":
    main()
