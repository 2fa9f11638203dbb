"""Proxied calls pass through the same CallHooks as every other call (decision 0102): a
generated gateway over Streamable HTTP forwards to the reference server
`@modelcontextprotocol/server-everything` and to tests/runtime_support/lying_origin.py,
and each forwarded answer is one `mcp_tool_duration_seconds` observation (scraped from
/metrics, parsed with prometheus_client) and one audit record, with its outcome code."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from runtime_support.harness import SUPPORT, Connection, build, package
from test_proxy import _everything
from test_server_metrics import _counts, _get

LIAR = json.dumps([sys.executable, str(SUPPORT / "lying_origin.py")])
CONFIG = f"""tools:
  weather:
    version: 1.0.0
    description: The current weather of a city, from the origin server.
    mcp_server: gateway
    tool_type: query
    requires: [location]
    args_schema:
      location:
        type: string
        enum: [New York, Chicago, Los Angeles]
        description: Choose city
    returns:
      type: object
      required: [temperature, conditions, humidity]
      additionalProperties: false
      properties:
        temperature: {{type: number, description: Temperature in celsius}}
        conditions: {{type: string, description: Weather conditions description}}
        humidity: {{type: number, description: Humidity percentage}}
    proxy: {{tool: get-structured-content, command: {json.dumps(_everything())}}}
  count:
    version: 1.0.0
    description: Counts, from an origin that answers outside its outputSchema.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    returns:
      type: object
      required: [n]
      properties:
        n: {{type: integer}}
    proxy: {{tool: count, command: {LIAR}}}
  bare:
    version: 1.0.0
    description: Answers no data though its origin lists an outputSchema.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    returns:
      type: object
      required: [n]
      properties:
        n: {{type: integer}}
    proxy: {{tool: bare, command: {LIAR}}}
  crash:
    version: 1.0.0
    description: Its origin answers a protocol error.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    proxy: {{tool: crash, command: {LIAR}}}
  refuse:
    version: 1.0.0
    description: Answers the origin's own error.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    proxy: {{tool: refuse, command: {LIAR}}}
  stall:
    version: 1.0.0
    description: Never answers within its call timeout.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    proxy: {{tool: stall, command: {LIAR}, call_timeout: 1}}
  greet:
    version: 1.0.0
    description: Greets a person by name, answered by this server's own handler.
    mcp_server: gateway
    tool_type: query
    requires: [name]
    args_schema:
      name: {{type: string, minLength: 1}}
    returns:
      type: object
      required: [greeting]
      properties:
        greeting: {{type: string}}
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Path]]:
    root = tmp_path_factory.mktemp("proxy_hooks")
    (root / "config").mkdir()
    (root / "config" / "tools.yaml").write_text(CONFIG)
    built = build(root / "config", root / "build" / "hooks_tools")
    trail = root / "audit.jsonl"
    env = {"RUNTIME_TEST_METRICS": "1", "RUNTIME_TEST_AUDIT": str(trail)}
    conn = Connection(package(built, root / "pkg"), "gateway_handlers", http=True, env=env)
    try:
        yield conn, trail
    finally:
        conn.close()


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_forwarded_call_is_observed_and_audited_once(
    served: tuple[Connection, Path],
) -> None:
    conn, trail = served
    assert not conn.raw("weather", {"location": "Chicago"}).is_error
    assert conn.raw("weather", {"location": "Paris"}).is_error  # refused before forwarding
    assert conn.raw("count", {}).is_error  # outside the origin's outputSchema
    # no data at all: the SDK's other refusal, read as "did not answer" before
    bare = conn.raw("bare", {})
    assert bare.is_error and "does not match its declared outputSchema" in bare.content[0].text
    crashed = conn.raw("crash", {})  # a protocol error: it did answer
    assert crashed.is_error and "The origin of crash failed;" in crashed.content[0].text
    assert conn.raw("refuse", {}).is_error  # the origin's own error, passed on
    stalled = conn.raw("stall", {})
    assert stalled.is_error and "did not answer" in stalled.content[0].text
    assert conn.call("greet", {"name": "Ada"})["ok"]  # an own tool, as before
    records = _records(trail)
    assert [(r["tool"], r["outcome"]) for r in records] == [
        ("weather", "ok"),
        ("weather", "VALIDATION_ERROR"),
        ("count", "INVALID_RESULT"),
        ("bare", "INVALID_RESULT"),
        ("crash", "ORIGIN_UNAVAILABLE"),
        ("refuse", "TOOL_ERROR"),
        ("stall", "TOOL_TIMEOUT"),
        ("greet", "ok"),
    ]
    weather = records[0]
    assert weather["version"] == "1.0.0" and weather["confirmed"] is False
    assert weather["data"]["temperature"] == 36  # the origin's structuredContent
    assert weather["error_id"] is None
    assert records[2]["data"] is None and records[2]["error_id"]  # withheld, logged
    assert records[6]["error_id"] and records[5]["error_id"] is None
    status, _, text = _get(conn.port, "/metrics")
    assert status == 200
    assert _counts(text) == {
        ("weather", "1.0.0", "ok"): 1.0,
        ("weather", "1.0.0", "VALIDATION_ERROR"): 1.0,
        ("count", "1.0.0", "INVALID_RESULT"): 1.0,
        ("bare", "1.0.0", "INVALID_RESULT"): 1.0,
        ("crash", "1.0.0", "ORIGIN_UNAVAILABLE"): 1.0,
        ("refuse", "1.0.0", "TOOL_ERROR"): 1.0,
        ("stall", "1.0.0", "TOOL_TIMEOUT"): 1.0,
        ("greet", "1.0.0", "ok"): 1.0,
    }


def test_an_origin_that_stopped_is_origin_unavailable(
    served: tuple[Connection, Path],
) -> None:
    conn, trail = served
    before = len(_records(trail))
    # the lying origin's process is shared by count, refuse and stall: kill it
    _kill_origin(conn)
    result = conn.raw("refuse", {})
    assert result.is_error and "did not answer" in result.content[0].text
    (record,) = _records(trail)[before:]
    assert record["outcome"] == "ORIGIN_UNAVAILABLE" and record["error_id"]
    assert _counts(_get(conn.port, "/metrics")[2])[("refuse", "1.0.0", "ORIGIN_UNAVAILABLE")] == 1.0


def _kill_origin(conn: Connection) -> None:
    """End the gateway's lying origin (a process this test started), by its id."""
    assert conn.process is not None
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if parent == conn.process.pid and b"lying_origin.py" in cmdline:
            os.kill(int(stat.parent.name), signal.SIGKILL)
            return
    raise AssertionError("the lying origin is not running")
