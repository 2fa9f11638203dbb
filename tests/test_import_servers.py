"""The contract of `toolc import` on real servers: the `tools/list` of two Python-SDK servers
(mcp-server-git, mcp-server-time, from PyPI) and of a TypeScript-SDK one
(@modelcontextprotocol/server-filesystem, from npm), listed with the official SDK client, imported
with `toolc import --stdio`, then built. Each published inputSchema, and each generated args
model, must judge every instance exactly as the server's own schema does: instances drawn from
the original schema (hypothesis-jsonschema), near misses of them, and arbitrary objects."""

from __future__ import annotations

import importlib
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pydantic
import pytest
from conftest import ROOT, run_toolc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from instances import near_miss
from jsonschema import Draft7Validator, Draft202012Validator, validators
from node_support import node_modules
from python_servers import server_bin
from reference import EcmaValidator
from schema_instances import instances
from toolc import verbs
from toolc.adopt.dialect import DRAFT_07
from toolc.remote import list_remote


def _filesystem(root: Path) -> list[str]:
    entry = node_modules() / "@modelcontextprotocol" / "server-filesystem" / "dist" / "index.js"
    return ["node", str(entry), str(root)]


SERVERS = {
    "git": lambda root: [str(server_bin("mcp-server-git"))],
    "time": lambda root: [str(server_bin("mcp-server-time"))],
    "filesystem": _filesystem,
}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


def _original_validator(schema: dict[str, Any]) -> Any:
    """The server's schema judged in its own dialect, patterns read as ECMA-262 on both sides."""
    if schema.get("$schema") in DRAFT_07:
        ecma = {k: EcmaValidator.VALIDATORS[k] for k in ("pattern", "patternProperties")}
        return validators.extend(Draft7Validator, ecma)(schema)
    return EcmaValidator(schema)


@pytest.fixture(scope="module")
def imported(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[list[dict[str, Any]], Any]]:
    """Each server's listed tools and the package built from its import."""
    root = tmp_path_factory.mktemp("import")
    found = {}
    for name, command in SERVERS.items():
        argv = command(root)
        listed = list_remote(argv, None).tools
        out = root / name
        done = run_toolc("import", "--out", str(out), "--server", name, "--stdio", "--", *argv)
        assert done.returncode == 0, done.stderr
        assert "import-tool-skipped" not in done.stderr, done.stderr
        package = f"imported_{name}"
        built = verbs.build(out, root / package, root / f"{package}.json", write=True, cwd=out)
        assert built.written and not [d for d in built.diagnostics if d.is_error], built.diagnostics
        sys.path.insert(0, str(root))
        try:
            found[name] = (listed, importlib.import_module(package))
        finally:
            sys.path.remove(str(root))
    return found


def _cases() -> list[tuple[str, int]]:
    # the tool counts of the pinned releases: a new release that adds tools shows up here
    return [("git", 12), ("time", 2), ("filesystem", 14)]


def _judged(tool: dict[str, Any], spec: Any) -> list[bool]:
    """The server's verdicts on the instances drawn for one tool, each checked against the
    published inputSchema's and the args model's."""
    original = tool["inputSchema"]
    published = dict(spec.input_schema)
    Draft202012Validator.check_schema(published)
    judge_original, judge_published = _original_validator(original), EcmaValidator(published)
    verdicts: list[bool] = []

    @settings(
        max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["valid", "near", "any"]))
        anything = st.dictionaries(st.text(max_size=5), JSON, max_size=3)
        instance = data.draw(instances(original) if kind != "any" else anything)
        if kind == "near":
            instance = data.draw(near_miss(instance, published, published.get("$defs", {})))
        expected = judge_original.is_valid(instance)
        assert judge_published.is_valid(instance) == expected, (tool["name"], instance)
        try:
            spec.args_model.model_validate(instance)
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        assert accepted == expected, (tool["name"], instance)
        verdicts.append(expected)

    check()
    return verdicts


@pytest.mark.parametrize(("server", "count"), _cases())
def test_every_tool_judges_every_instance_as_the_server_does(
    imported: dict[str, tuple[list[dict[str, Any]], Any]], server: str, count: int
) -> None:
    listed, package = imported[server]
    assert len(listed) == count and sorted(package.TOOLS) == sorted(t["name"] for t in listed)
    judged = 0
    for tool in listed:
        verdicts = _judged(tool, package.TOOLS[tool["name"]])
        judged += len(verdicts)
        assert True in verdicts, tool["name"]
        if tool["inputSchema"].get("properties"):
            assert False in verdicts, tool["name"]  # the boundary was probed
    print(f"{server}: {len(listed)} tools, {judged} instances judged alike")


def test_the_import_keeps_what_the_servers_say(
    imported: dict[str, tuple[list[dict[str, Any]], Any]],
) -> None:
    """Names, titles, descriptions and hints as listed; the annotations' operation kept."""
    for listed, package in imported.values():
        published = {
            d["name"]: d
            for d in json.loads(Path(package.__file__).with_name("tools.json").read_text())["tools"]
        }
        for tool in listed:
            mine = published[tool["name"]]
            assert mine["description"] == tool["description"]
            if "title" in tool:
                assert mine["title"] == tool["title"]
            for hint, value in tool.get("annotations", {}).items():
                if hint != "title" and not (
                    hint == "destructiveHint" and tool["annotations"].get("readOnlyHint")
                ):
                    assert mine["annotations"][hint] == value, (tool["name"], hint)


def test_a_toolc_server_over_streamable_http_imports_to_the_same_arguments(tmp_path: Path) -> None:
    """examples/retail served over HTTP (toolc's mock), imported with --url: its arguments
    (patterns, shared types, `unknown_args: forbid`) come back judging alike."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    toolc = str(Path(sys.executable).parent / "toolc")
    retail = ROOT / "examples" / "retail"
    server = subprocess.Popen(
        [toolc, "serve", "--mock", "--http", "--port", str(port), str(retail)],
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        listed = list_remote(None, url).tools
        done = run_toolc("import", "--out", str(tmp_path / "again"), "--url", url)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    assert "import-tool-skipped" not in done.stderr and "import-placeholder" not in done.stderr
    out = tmp_path / "again"
    built = verbs.build(out, tmp_path / "retail_again", tmp_path / "snap.json", write=True, cwd=out)
    assert built.written, built.diagnostics
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("retail_again")
    finally:
        sys.path.remove(str(tmp_path))
    for tool in listed:
        assert False in _judged(tool, package.TOOLS[tool["name"]])
