"""Proxied tools over real processes (decision 0084): a generated gateway, driven by the
SDK's stdio client, forwards to the reference server `@modelcontextprotocol/server-everything`
(pinned in tests/node) and to a lying origin (tests/runtime_support/lying_origin.py)."""

from __future__ import annotations

import importlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pydantic
import pytest
from built_package import built_tools
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from node_support import node_modules
from runtime_support.client_support import client_package, server_params
from runtime_support.harness import SUPPORT, Connection, build, package
from toolc import verbs

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gateway"


def _everything() -> list[str]:
    script = node_modules() / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    return ["node", str(script), "stdio"]


def _config(root: Path, url: str) -> Path:
    """examples/gateway with the origins this machine has, plus a tool over HTTP, drifted
    tools, a tool whose origin cannot start and a lying one."""
    text = (EXAMPLE / "tools.yaml").read_text()
    text = text.replace(
        "command: [npx, --no-install, mcp-server-everything, stdio]",
        f"command: {json.dumps(_everything())}",
    )
    text += f"""
  sum:
    version: 1.0.0
    description: The sum of two numbers, declared with the wrong argument type.
    mcp_server: gateway
    tool_type: query
    requires: [a, b]
    args_schema:
      a: {{type: string}}
      b: {{type: number}}
    proxy: {{tool: get-sum, command: {json.dumps(_everything())}}}

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
    proxy: {{tool: count, command: {json.dumps([sys.executable, str(SUPPORT / "lying_origin.py")])}}}

  add:
    version: 1.0.0
    description: The sum of two numbers, from the origin over Streamable HTTP.
    mcp_server: gateway
    tool_type: query
    requires: [a, b]
    args_schema:
      a: {{type: number, description: First number}}
      b: {{type: number, description: Second number}}
    proxy: {{tool: get-sum, url: "{url}"}}

  forecast:
    version: 1.0.0
    description: The weather, declared with a field the origin does not list.
    mcp_server: gateway
    tool_type: query
    requires: [location]
    args_schema:
      location: {{type: string, enum: [New York, Chicago, Los Angeles]}}
    returns:
      type: object
      required: [temperature, conditions, humidity]
      additionalProperties: false
      properties:
        temperature: {{type: number}}
        conditions: {{type: string}}
        humidity: {{type: number}}
        wind: {{type: number}}
    proxy: {{tool: get-structured-content, command: {json.dumps(_everything())}}}

  unstarted:
    version: 1.0.0
    description: A tool whose origin program does not exist.
    mcp_server: gateway
    tool_type: query
    proxy: {{tool: echo, command: [toolc-test-no-such-origin], startup_timeout: 5}}
"""
    config = root / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(text)
    return config


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def http_origin() -> Iterator[str]:
    """server-everything over Streamable HTTP, on a free port."""
    port = _free_port()
    program, script, _ = _everything()
    env = {**os.environ, "PORT": str(port)}
    process = subprocess.Popen(
        [program, script, "streamableHttp"], env=env, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, http_origin: str) -> Path:
    root = tmp_path_factory.mktemp("proxy_build")
    return build(_config(root, http_origin), root / "build" / "gateway_tools")


@pytest.fixture(scope="module")
def gateway(
    tmp_path_factory: pytest.TempPathFactory, built: Path
) -> Iterator[tuple[Connection, Path]]:
    root = tmp_path_factory.mktemp("proxy")
    log = root / "gateway.log"
    connection = Connection(package(built, root / "pkg"), "gateway_handlers", log=log)
    try:
        yield connection, log
    finally:
        connection.close()


def _direct(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        program, *args = _everything()
        params = StdioServerParameters(command=program, args=args)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            result = await s.call_tool(tool, arguments)
            return result.model_dump(mode="json", by_alias=True, exclude_none=True)

    return anyio.run(run)


def test_drifted_tool_is_not_served_the_others_are(gateway: tuple[Connection, Path]) -> None:
    connection, log = gateway
    listed = {t.name: t for t in connection.list_tools().tools}
    assert sorted(listed) == ["add", "count", "greet", "weather"]
    logged = log.read_text()
    assert "sum: its inputSchema differs from origin tool 'get-sum'" in logged
    assert "forecast: its outputSchema differs from origin tool 'get-structured-content'" in logged
    assert "origin toolc-test-no-such-origin did not start: not serving unstarted" in logged
    weather = listed["weather"]
    assert weather.output_schema is not None and "$defs" not in weather.output_schema
    assert weather.output_schema["required"] == ["temperature", "conditions", "humidity"]
    assert (weather.meta or {}).get("dev.toolc/proxied") is True


def test_forwarded_result_is_the_origins_byte_for_byte(gateway: tuple[Connection, Path]) -> None:
    connection, _ = gateway
    via = connection.run(connection.client.call_tool, "weather", {"location": "Chicago"})
    direct = _direct("get-structured-content", {"location": "Chicago"})
    mine = via.model_dump(mode="json", by_alias=True, exclude_none=True)
    # The SDK stamps each result with the answering server's own identity: not the result's.
    for result in (mine, direct):
        meta = result.pop("_meta", {})
        meta.pop("io.modelcontextprotocol/serverInfo", None)
        assert not meta
    assert json.dumps(mine, sort_keys=True) == json.dumps(direct, sort_keys=True)
    assert mine["content"][0]["text"] == direct["content"][0]["text"]  # the text, byte for byte
    assert mine["structuredContent"]["temperature"] == 36


def test_invalid_arguments_are_refused_before_forwarding(
    gateway: tuple[Connection, Path],
) -> None:
    connection, _ = gateway
    result = connection.raw("weather", {"location": "Paris"})
    assert result.is_error and result.structured_content is None
    assert "Invalid arguments for weather: location" in result.content[0].text


def test_a_result_outside_the_output_schema_is_not_passed_on(
    gateway: tuple[Connection, Path],
) -> None:
    connection, log = gateway
    result = connection.raw("count", {})
    assert result.is_error and result.structured_content is None
    text = result.content[0].text
    assert "does not match its declared outputSchema" in text and "many" not in text
    error_id = text.rsplit("errorId ", 1)[1].rstrip(".")
    assert len(error_id) == 32  # as an enveloped failure's errorId
    assert f"count: origin result outside its outputSchema [errorId {error_id}]" in (
        log.read_text()
    )


def test_own_tools_are_still_enveloped(gateway: tuple[Connection, Path]) -> None:
    connection, _ = gateway
    envelope = connection.call("greet", {"name": "Ada"})
    assert envelope["ok"] is True and envelope["data"] == {"greeting": "Hello, Ada!"}


def test_an_origin_over_streamable_http(gateway: tuple[Connection, Path]) -> None:
    connection, _ = gateway
    result = connection.raw("add", {"a": 2, "b": 3})
    assert not result.is_error and "5" in result.content[0].text


def test_a_tool_not_served_is_unknown(gateway: tuple[Connection, Path]) -> None:
    connection, _ = gateway
    with pytest.raises(Exception, match="Unknown tool: sum"):
        connection.raw("sum", {"a": "1", "b": 2})


def test_the_typed_client_reads_the_origins_structured_content(built: Path, tmp_path: Path) -> None:
    pkg = client_package(built, tmp_path, "gateway_client_pkg")
    server = package(built, tmp_path / "server")
    client_cls = importlib.import_module(f"{pkg.__name__}.client").GatewayClient

    async def main() -> tuple[Any, Any, Any]:
        async with client_cls.connect(server_params(server, "gateway_handlers")) as tools:
            return (
                await tools.weather(location="New York"),
                await tools.count(),
                await tools.greet(name="Ada"),
            )

    weather, count, greet = anyio.run(main)
    assert weather.ok and type(weather.data).__name__ == "WeatherData"
    assert (weather.data.temperature, weather.data.humidity) == (33, 82)
    assert weather.meta.version == "1.0.0"
    assert not count.ok and count.error.code == "TOOL_ERROR"
    assert "does not match its declared outputSchema" in count.error.message
    assert greet.ok and greet.data.greeting == "Hello, Ada!"


def test_a_server_of_proxied_tools_only_needs_no_handler(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(
        """tools:
  echo:
    version: 1.0.0
    description: Echoes the message back, from the origin server.
    mcp_server: solo
    tool_type: query
    args_schema:
      message: {type: string}
    proxy: {tool: echo, command: [origin-server, stdio]}
"""
    )
    compiled = verbs.compile_config(tmp_path, tmp_path)
    assert not compiled.has_errors
    handlers = compiled.files["handlers.py"].decode()
    assert "from typing import Protocol\n\n\nclass SoloHandlers(Protocol):" in handlers
    assert "async def" not in handlers
    (listed,) = json.loads(compiled.files["tools.json"])["tools"]
    assert "outputSchema" not in listed  # the origin lists none: nothing is published
    assert listed["_meta"]["dev.toolc/proxied"] is True and "envelopeVersion" not in listed["_meta"]
    contract = json.loads(compiled.files["contracts/echo.json"])
    assert contract["proxied"] == {"tool": "echo", "version": "1.0.0"}
    assert "origin-server" not in json.dumps(contract)  # where it runs is a setting


def test_an_origins_object_with_keywords_of_its_own_builds_and_checks(tmp_path: Path) -> None:
    """`returns` whose root object has keywords of its own (`not`) and `$defs`: the build
    once failed with a KeyError (the root's lowered copy had no pointer), a traceback."""
    config = """\
tools:
  weather:
    version: 1.0.0
    description: The weather, from the origin.
    mcp_server: gateway
    tool_type: query
    args_schema:
      location: {type: string}
    returns:
      type: object
      not: {required: [stale]}
      $defs:
        Degrees: {type: number}
      properties:
        temperature: {$ref: "#/$defs/Degrees"}
        samples: {type: array, items: {type: number}, contains: {minimum: 1.0e16}}
    proxy: {tool: get-structured-content, command: [origin]}
"""
    model = built_tools(tmp_path, config, "proxied_keywords_pkg")["weather"].data_model
    assert model.model_validate({"temperature": 5}).temperature == 5.0
    for refused in ({"stale": True}, {"samples": [9999999999999999]}, {"temperature": "5"}):
        with pytest.raises(pydantic.ValidationError):
            model.model_validate(refused)


def test_healthz_reports_only_the_tools_served(built: Path, tmp_path: Path) -> None:
    """A proxied tool whose origin did not start, or drifted, is not served: `/healthz`
    counted and versioned it as serving, so a rollout probe was told otherwise."""
    from test_server_metrics import _get

    connection = Connection(package(built, tmp_path / "pkg"), "gateway_handlers", http=True)
    try:
        listed = sorted(t.name for t in connection.list_tools().tools)
        status, _, text = _get(connection.port, "/healthz")
    finally:
        connection.close()
    health = json.loads(text)
    assert status == 200 and sorted(health["versions"]) == listed
    assert health["tools"] == len(listed)
    assert {"sum", "forecast", "unstarted"} <= set(health["unavailable"])
