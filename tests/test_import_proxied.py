"""`toolc import --proxied` (decision 0107): each tool written with `proxy:` naming its origin
(the listed server, or --origin-command / --origin-url), its schemas the origin's exactly, so
the build succeeds and the generated server serves every tool and forwards each call: proven
on the reference TypeScript server (server-everything) and a Python one (mcp-server-time). A
tool toolc would publish otherwise is skipped with the reason, never written to drift."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import run_toolc
from node_support import node_modules
from python_servers import server_bin
from runtime_support.harness import Connection, build, package
from toolc.remote import list_remote
from toolc.runtime.server_proxy import shape


def _everything() -> list[str]:
    script = node_modules() / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    return ["node", str(script), "stdio"]


def _imported(tmp: Path, command: list[str]) -> tuple[Path, list[dict[str, Any]]]:
    out = tmp / "config"
    done = run_toolc("import", "--proxied", "--out", str(out), "--stdio", "--", *command)
    assert done.returncode == 0, done.stderr
    assert "import-tool-skipped" not in done.stderr, done.stderr
    assert "import-origin-relative" not in done.stderr  # absolute paths, programs on PATH
    return out, list_remote(command, None).tools


def _served(tmp: Path, out: Path, name: str) -> Connection:
    built = build(out, tmp / "build" / name)
    return Connection(package(built, tmp / "pkg"), "gateway_handlers")


def test_the_reference_server_imports_as_proxied_tools_that_answer(tmp_path: Path) -> None:
    command = _everything()
    out, listed = _imported(tmp_path, command)
    tools = yaml.safe_load((out / "tools.yaml").read_text())["tools"]
    assert sorted(tools) == sorted(t["name"] for t in listed)
    for name, tool in tools.items():
        assert tool["proxy"] == {"tool": name, "command": command}
    assert not (out / "tool_policies.yaml").exists()  # a proxied tool is never confirmed
    connection = _served(tmp_path, out, "everything_tools")
    try:
        served = {t.name: t for t in connection.list_tools().tools}
        assert sorted(served) == sorted(tools)  # no tool drifted: every one is served
        for origin in listed:
            mine = served[origin["name"]]
            assert shape(mine.input_schema) == shape(origin["inputSchema"])
            assert shape(mine.output_schema) == shape(origin.get("outputSchema"))
        echo = connection.run(connection.client.call_tool, "echo", {"message": "olá"})
        assert not echo.is_error and echo.content[0].text == "Echo: olá"
        total = connection.run(connection.client.call_tool, "get-sum", {"a": 2, "b": 3})
        assert not total.is_error and "5" in total.content[0].text
        weather = connection.run(
            connection.client.call_tool, "get-structured-content", {"location": "Chicago"}
        )
        assert weather.structured_content is not None and not weather.is_error
        refused = connection.run(connection.client.call_tool, "get-sum", {"a": "2", "b": 3})
        assert refused.is_error  # judged by the published inputSchema before forwarding
    finally:
        connection.close()


def test_a_python_sdk_server_imports_as_proxied_tools_that_answer(tmp_path: Path) -> None:
    command = [str(server_bin("mcp-server-time"))]
    out, listed = _imported(tmp_path, command)
    assert len(listed) == 2
    connection = _served(tmp_path, out, "time_tools")
    try:
        assert len(connection.list_tools().tools) == 2
        now = connection.run(connection.client.call_tool, "get_current_time", {"timezone": "UTC"})
        assert not now.is_error, now
        assert now.structured_content is not None
        assert now.structured_content["timezone"] == "UTC"
    finally:
        connection.close()


def _listing(tmp: Path) -> Path:
    listing = {
        "tools": [
            {"name": "plain", "description": "Reads.", "annotations": {"readOnlyHint": True},
             "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
            {"name": "old", "description": "Draft-07 definitions, rewritten as $defs.",
             "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
                             "type": "object", "properties": {"a": {"$ref": "#/definitions/A"}},
                             "definitions": {"A": {"type": "string"}}}},
            {"name": "wipe", "description": "Wipes.",
             "inputSchema": {"type": "object", "properties": {}}},
            {"name": "bare", "description": "Takes nothing: no `properties` at all.",
             "inputSchema": {"type": "object"}},
        ]
    }  # fmt: skip
    path = tmp / "listing.json"
    path.write_text(json.dumps(listing, indent=1))
    return path


def test_a_file_names_its_origin_or_gets_a_marked_placeholder(tmp_path: Path) -> None:
    source = _listing(tmp_path)
    done = run_toolc("import", str(source), "--proxied", "--out", str(tmp_path / "a"))
    assert done.returncode == 0, done.stderr
    assert "warning[import-placeholder]: a tools/list file names no origin server" in done.stderr
    assert f"{source}:3:3: warning[import-placeholder]" in done.stderr  # its first tool
    tools = yaml.safe_load((tmp_path / "a" / "tools.yaml").read_text())["tools"]
    assert tools["plain"]["proxy"]["command"] == ["TODO(toolc import): the origin server's command"]
    # `definitions` would be published as `$defs`: the server would not serve it, so it is
    # skipped with the reason; the destructive tool is written unconfirmed, and said so.
    assert "tool 'old' not imported: its inputSchema as toolc publishes it" in done.stderr
    assert sorted(tools) == ["bare", "plain", "wipe"]
    assert "tool 'wipe': destructive, but a proxied tool asks for no confirmation" in done.stderr
    assert run_toolc("build", str(tmp_path / "a")).returncode == 0

    url = "http://127.0.0.1:3001/mcp"
    done = run_toolc(
        "import", str(source), "--proxied", "--origin-url", url, "--out", str(tmp_path / "b")
    )
    assert done.returncode == 0 and "import-placeholder]: a tools/list" not in done.stderr
    tools = yaml.safe_load((tmp_path / "b" / "tools.yaml").read_text())["tools"]
    assert tools["plain"]["proxy"] == {"tool": "plain", "url": url}
    done = run_toolc(
        "import", str(source), "--proxied", "--origin-command", "uvx my-server --flag 'a b'",
        "--out", str(tmp_path / "c"),
    )  # fmt: skip
    tools = yaml.safe_load((tmp_path / "c" / "tools.yaml").read_text())["tools"]
    assert tools["wipe"]["proxy"]["command"] == ["uvx", "my-server", "--flag", "a b"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--origin-url", "http://x/mcp"], "go with --proxied"),
        (["--proxied", "--origin-url", "ftp://x"], "http:// or https://"),
        (["--proxied", "--origin-url", "http://x", "--origin-command", "a"], "give one origin"),
    ],
)
def test_origin_options_are_usage_errors_when_wrong(
    tmp_path: Path, extra: list[str], said: str
) -> None:
    done = run_toolc("import", str(_listing(tmp_path)), "--out", str(tmp_path / "o"), *extra)
    assert done.returncode == 2 and said in done.stderr
    assert not (tmp_path / "o").exists()


def test_empty_properties_and_required_judge_as_their_absence() -> None:
    bare = {"type": "object"}
    assert shape(bare) == shape({"type": "object", "properties": {}, "required": []})
    assert shape({"type": "object", "$defs": {}}) == shape(bare)
    # a property or a required name is still a difference
    assert shape(bare) != shape({"type": "object", "properties": {"a": {}}})
    assert shape(bare) != shape({"type": "object", "required": ["a"]})


def test_a_boolean_is_no_number_to_the_drift_check() -> None:
    """The gateway's start-up check compares the origin's listing as JSON: an origin whose
    `enum: [0, 1]` became `enum: [false, true]` has drifted (Python's `True == 1` said no)."""
    flag = {"type": "object", "properties": {"x": {"enum": [0, 1], "default": 0}}}
    assert shape(flag) != shape(
        {"type": "object", "properties": {"x": {"enum": [False, True], "default": 0}}}
    )
    assert shape(flag) != shape(
        {"type": "object", "properties": {"x": {"enum": [0, 1], "default": False}}}
    )
    assert shape({"const": 1}) != shape({"const": True})
    assert shape({"items": {"const": [{"a": 0}]}}) != shape({"items": {"const": [{"a": False}]}})
    # JSON's numbers: 1 and 1.0 are one value
    assert shape({"const": 1}) == shape({"const": 1.0})
    assert shape(flag) == shape(
        {"type": "object", "properties": {"x": {"enum": [0.0, 1], "default": 0}}}
    )


def test_an_origin_named_by_a_relative_path_is_warned_of(tmp_path: Path) -> None:
    """The gateway runs `proxy: command` from where it starts, not from where the import
    ran: a relative path works only there, and the import says so."""
    package_dir = Path(_everything()[1]).parent.parent
    out = tmp_path / "config"
    done = run_toolc(
        "import", "--proxied", "--out", str(out), "--stdio", "--", "node", "dist/index.js",
        "stdio", cwd=package_dir,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warning[import-origin-relative]" in done.stderr
    assert "'dist/index.js' relative to this folder" in done.stderr


def test_an_origin_s_malformed_required_is_drift_not_a_crash() -> None:
    """A draft-03 `required: true` on a property, or a list holding a number: the gateway's
    start-up check compared them by sorting, and the TypeError stopped the whole server."""
    named = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    for malformed in (
        {"type": "object", "properties": {"a": {"type": "string", "required": True}}},
        {**named, "required": ["a", 1]},
    ):
        assert shape(malformed) != shape(named)
