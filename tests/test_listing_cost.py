"""What `tools/list` costs (issue 13 item 3): `toolc check --stats` prints each served tool's bytes
and estimated tokens per mcp_server, and `listing_budget` in `[tool.toolc]` makes a listing over
budget a located warning. The bytes are those the server sends: tests/test_server_stdio.py
compares them with what the SDK client receives."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_toolc
from toolc.verbs.listing import estimate_tokens, listing_costs, wire_size


@pytest.fixture
def retail(tmp_path: Path) -> Path:
    config = tmp_path / "retail"
    shutil.copytree(ROOT / "examples" / "retail", config)
    return config


def _descriptors(config: Path) -> list[dict[str, object]]:
    tools = config / "generated" / "mcp_tools" / "tools.json"
    listed: list[dict[str, object]] = json.loads(tools.read_text(encoding="utf-8"))["tools"]
    return listed


def test_stats_are_each_tools_compact_json_and_the_servers_total(retail: Path) -> None:
    done = run_toolc("check", "--stats", str(retail))
    assert done.returncode == 0, done.stderr
    rows = dict(
        (m[1], (int(m[2].replace(",", "")), int(m[3].replace(",", ""))))
        for m in re.finditer(r"^  (\S+)\s+([\d,]+) bytes  ~\s*([\d,]+) tokens$", done.stdout, re.M)
    )
    descriptors = _descriptors(retail)
    for d in descriptors:
        size = len(json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode())
        assert rows[str(d["name"])] == (size, -(-size // 4))
    sizes = [rows[str(d["name"])][0] for d in descriptors]
    frame = len('{"tools":[') + len("]}") + len(sizes) - 1
    assert rows["total"][0] == sum(sizes) + frame
    assert done.stdout.startswith("mcp_server retail: tools/list of 2 tool(s)\n")
    assert "bytes/4" in done.stdout  # the estimate is named


def test_a_disabled_tool_is_not_listed_so_costs_nothing() -> None:
    tools = {"tools": [{"name": "a", "description": "x"}, {"name": "b", "description": "yy"}]}
    [server] = listing_costs(json.dumps(tools).encode(), {"b": "s"})
    assert [t.tool for t in server.tools] == ["b"]
    assert server.tools[0].bytes == wire_size(tools["tools"][1])


@pytest.mark.parametrize(("size", "tokens"), [(0, 0), (1, 1), (4, 1), (5, 2), (4000, 1000)])
def test_the_estimate_is_bytes_over_four_rounded_up(size: int, tokens: int) -> None:
    assert estimate_tokens(size) == tokens


def test_a_listing_over_budget_warns_at_its_largest_tool(retail: Path) -> None:
    (retail / "pyproject.toml").write_text("[tool.toolc]\n\nlisting_budget = 1000\n")
    checked = run_toolc("check", str(retail))
    assert checked.returncode == 0, checked.stderr  # a warning
    line = next(n for n, t in enumerate((retail / "tools.yaml").read_text().splitlines(), 1)
                if t.startswith("  cancelar_pedidos:"))  # fmt: skip
    assert f"tools.yaml:{line}:3: warning[listing-over-budget]" in checked.stderr
    assert "mcp_server 'retail' lists ~1,600 tokens of tools (bytes/4)" in checked.stderr
    assert f"over the budget of 1,000 (listing_budget at {retail / 'pyproject.toml'}:3:1)" in (
        checked.stderr
    )
    assert "the largest: 'cancelar_pedidos' ~823, 'consultar_pedidos' ~774" in checked.stderr
    assert run_toolc("check", "--strict", str(retail)).returncode == 1
    (retail / "tools.yaml").write_text((retail / "tools.yaml").read_text() + "\n")
    built = run_toolc("build", str(retail))
    assert built.returncode == 0 and "listing-over-budget" in built.stderr, built.stderr
    (retail / "pyproject.toml").write_text("[tool.toolc]\nlisting_budget = 1600\n")
    assert "listing-over-budget" not in run_toolc("check", str(retail)).stderr


@pytest.mark.parametrize("value", ["true", "0", '"1000"', "-5"])
def test_a_budget_that_is_not_a_positive_integer_is_a_usage_error(retail: Path, value: str) -> None:
    (retail / "pyproject.toml").write_text(f"[tool.toolc]\nlisting_budget = {value}\n")
    done = run_toolc("check", str(retail))
    assert done.returncode == 2 and "listing_budget must be" in done.stderr, done.stderr


def test_stats_and_the_budget_before_the_first_build(retail: Path) -> None:
    """Before the first build `check` reads only the config: it printed no table for
    `--stats` and said nothing of a listing over budget. Both need only the descriptors."""
    built = run_toolc("check", "--stats", str(retail)).stdout
    for generated in ("generated", "docs"):
        shutil.rmtree(retail / generated, ignore_errors=True)
    (retail / "mcp-tools.json").unlink()
    before = run_toolc("check", "--stats", str(retail))
    assert before.returncode == 0, before.stderr
    assert before.stdout == built and "tools/list of 2 tool(s)" in built
    (retail / "pyproject.toml").write_text("[tool.toolc]\nlisting_budget = 1000\n")
    warned = run_toolc("check", str(retail))
    assert warned.returncode == 0 and "warning[listing-over-budget]" in warned.stderr
    assert not (retail / "generated").exists()  # still only checked
