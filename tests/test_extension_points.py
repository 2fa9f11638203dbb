"""The generated server's extension points over real stdio, in both protocol eras:
`ToolContext.log/progress/sample/elicit`, and the resources, resource templates,
prompts and completions given to build_server (decisions 0093, 0094)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client, types
from mcp.shared.exceptions import MCPError

from tests.runtime_support.harness import (
    EXAMPLES,
    SUPPORT,
    _free_port,
    _wait_for,
    build,
    package,
    sealed,
)

MODES = ["legacy", "auto"]  # 2025-11-25, 2026-07-28


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ext")
    return package(build(SUPPORT / "ext", root / "build" / "ext_tools"), root / "pkg")


def _params(pkg: Path, name: str = "ext_tools", handlers: str = "ext_handlers") -> Any:
    env = {"PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])}
    return StdioServerParameters(
        command=sys.executable, args=[str(SUPPORT / "serve.py"), name, handlers], env=env
    )


class Seen:
    """What the client received: log messages, sampling and elicitation requests."""

    def __init__(self) -> None:
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.sampled: list[types.CreateMessageRequestParams] = []
        self.asked: list[types.ElicitRequestParams] = []

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def sample(
        self, context: Any, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        self.sampled.append(params)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="hi"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params)
        return types.ElicitResult(action="accept", content={"name": "Ana"})


def _session(pkg: Path, mode: str, seen: Seen, fn: Callable[[Client], Awaitable[Any]]) -> Any:
    async def run() -> Any:
        client = Client(
            _params(pkg),
            mode=mode,  # type: ignore[arg-type]
            logging_callback=seen.log,
            sampling_callback=seen.sample,
            elicitation_callback=seen.elicit,
            log_level="info" if mode == "auto" else None,
            read_timeout_seconds=30,
        )
        async with client:
            return await fn(client)

    with warnings.catch_warnings():  # logging, sampling, subscribe: deprecated at 2026
        warnings.simplefilter("ignore")
        return anyio.run(run)


def _envelope(pkg: Path, result: types.CallToolResult) -> dict[str, Any]:
    listing = json.loads((pkg / "tools.json").read_text(encoding="utf-8"))
    return sealed(listing["tools"][0], result)


@pytest.mark.parametrize("mode", MODES)
def test_resources_prompts_and_completions(pkg: Path, mode: str) -> None:
    async def scenario(c: Client) -> dict[str, Any]:
        out: dict[str, Any] = {"caps": c.server_capabilities}
        out["resources"] = await c.list_resources()
        out["templates"] = await c.list_resource_templates()
        out["text"] = await c.read_resource("res://readme")
        out["blob"] = await c.read_resource("res://logo")
        out["item"] = await c.read_resource("res://items/123")
        with pytest.raises(MCPError) as unknown:
            await c.read_resource("res://nothing")
        out["unknown"] = unknown.value.error.code
        with pytest.raises(MCPError) as broken:
            await c.read_resource("res://broken/1")
        out["broken"] = broken.value.error
        out["prompts"] = await c.list_prompts()
        out["simple"] = await c.get_prompt("simple")
        out["greet"] = await c.get_prompt("greet", {"name": "Ana"})
        out["rich"] = await c.get_prompt("rich")
        with pytest.raises(MCPError) as lacking:
            await c.get_prompt("greet", {})
        out["lacking"] = lacking.value.error
        prompt = types.PromptReference(type="ref/prompt", name="greet")
        out["names"] = await c.complete(prompt, {"name": "name", "value": "b"})
        template = types.ResourceTemplateReference(type="ref/resource", uri="res://items/{id}")
        out["ids"] = await c.complete(template, {"name": "id", "value": "x"})
        if mode == "legacy":
            await c.subscribe_resource("res://readme")
            await c.unsubscribe_resource("res://readme")
        return out

    out = _session(pkg, mode, Seen(), scenario)
    caps: types.ServerCapabilities = out["caps"]
    assert caps.resources is not None and caps.prompts is not None
    assert caps.completions is not None and caps.tools is not None
    if mode == "legacy":
        assert caps.resources.subscribe and caps.logging is not None
    assert [r.uri for r in out["resources"].resources] == ["res://readme", "res://logo"]
    templates = [t.uri_template for t in out["templates"].resource_templates]
    assert templates == ["res://items/{id}", "res://broken/{id}"]
    (text,) = out["text"].contents
    assert isinstance(text, types.TextResourceContents) and text.text == "read me"
    assert text.mime_type == "text/plain"
    (blob,) = out["blob"].contents
    assert isinstance(blob, types.BlobResourceContents) and blob.mime_type == "image/png"
    assert blob.blob == "iVBORw0KGgotbm90LXJlYWxseQ=="
    (item,) = out["item"].contents
    assert str(item.uri) == "res://items/123" and item.text == "item 123"
    assert out["unknown"] == -32002
    assert out["broken"].code == types.INTERNAL_ERROR  # the reader's failure, not its text
    assert "errorId" in out["broken"].message and "secret" not in out["broken"].message
    listed = {p.name: p for p in out["prompts"].prompts}
    assert sorted(listed) == ["greet", "rich", "simple"]
    assert [(a.name, a.required) for a in listed["greet"].arguments or []] == [
        ("name", True),
        ("tone", False),
    ]
    assert listed["simple"].arguments is None
    assert out["simple"].messages[0].content.text == "A simple prompt."
    assert out["greet"].messages[0].content.text == "Hello Ana, hi"
    image, embedded, said = (m.content for m in out["rich"].messages)
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    assert isinstance(embedded, types.EmbeddedResource)
    assert embedded.resource.text == "embedded text"  # type: ignore[union-attr]
    assert out["rich"].messages[2].role == "assistant" and said.text == "Seen."
    assert out["lacking"].code == types.INVALID_PARAMS and "name" in out["lacking"].message
    assert out["names"].completion.values == ["bruno", "bia"]
    ids = out["ids"].completion
    assert len(ids.values) == 100 and ids.has_more and ids.total == 150


def test_a_server_given_no_extras_declares_none() -> None:
    retail = EXAMPLES / "retail" / "generated" / "mcp_tools"

    async def run() -> types.ServerCapabilities:
        async with Client(_params(retail, "mcp_tools", "retail_handlers"), mode="legacy") as c:
            return c.server_capabilities

    caps = anyio.run(run)
    assert caps.tools is not None and caps.logging is not None
    assert caps.resources is None and caps.prompts is None and caps.completions is None


def _call(c: Client, mode: str, **kw: Any) -> Awaitable[types.CallToolResult]:
    return c.call_tool("trabalhar", {"mode": mode}, **kw)


def test_log_honours_set_level_2025(pkg: Path) -> None:
    async def scenario(c: Client) -> list[types.CallToolResult]:
        before = await _call(c, "log")
        await c.set_logging_level("warning")
        return [before, await _call(c, "log")]

    seen = Seen()
    results = _session(pkg, "legacy", seen, scenario)
    assert all(_envelope(pkg, r)["data"] == {"result": "logged"} for r in results)
    levels = [m.level for m in seen.logs]
    assert levels == ["debug", "info", "warning", "error", "warning", "error"]
    assert seen.logs[0].logger == "ext" and seen.logs[0].data == {"at": "debug"}


def test_log_honours_the_request_level_2026(pkg: Path) -> None:
    seen = Seen()
    result = _session(pkg, "auto", seen, lambda c: _call(c, "log"))
    assert _envelope(pkg, result)["ok"]
    assert [m.level for m in seen.logs] == ["info", "warning", "error"]


@pytest.mark.parametrize("mode", MODES)
def test_progress_reaches_the_callers_callback(pkg: Path, mode: str) -> None:
    steps: list[tuple[float, float | None, str | None]] = []

    async def progressed(progress: float, total: float | None, message: str | None) -> None:
        steps.append((progress, total, message))

    async def scenario(c: Client) -> list[types.CallToolResult]:
        # Without a callback the request carries no token: progress is a no-op.
        return [
            await _call(c, "progress"),
            await _call(c, "progress", progress_callback=progressed),
        ]

    results = _session(pkg, mode, Seen(), scenario)
    assert all(_envelope(pkg, r)["data"] == {"result": "done"} for r in results)
    assert steps == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def test_sample_and_elicit_ask_the_client_2025(pkg: Path) -> None:
    async def scenario(c: Client) -> list[types.CallToolResult]:
        return [await _call(c, "sample"), await _call(c, "elicit")]

    seen = Seen()
    sampled, elicited = _session(pkg, "legacy", seen, scenario)
    assert _envelope(pkg, sampled)["data"] == {"result": "test-model:hi"}
    assert _envelope(pkg, elicited)["data"] == {"result": "accept:Ana"}
    (asked,) = seen.sampled
    assert asked.max_tokens == 10 and asked.system_prompt == "Be brief"
    assert asked.messages[0].content.text == "Say hi"  # type: ignore[union-attr]
    (form,) = seen.asked
    assert isinstance(form, types.ElicitRequestFormParams)
    assert form.message == "Your name?" and form.requested_schema["required"] == ["name"]


def test_sample_and_elicit_fail_clearly_2026(pkg: Path) -> None:
    async def scenario(c: Client) -> list[types.CallToolResult]:
        return [await _call(c, m) for m in ("sample", "elicit", "sample-uncaught")]

    seen = Seen()
    sampled, elicited, uncaught = _session(pkg, "auto", seen, scenario)
    for result in (sampled, elicited):
        text = _envelope(pkg, result)["data"]["result"]
        assert text.startswith("unavailable: ") and "2026-07-28" in text
    error = _envelope(pkg, uncaught)["error"]
    assert error["code"] == "TOOL_ERROR" and error["retryable"] is False
    assert "could not ask the client: sampling" in error["message"]
    assert seen.sampled == [] and seen.asked == []


def test_a_client_without_the_capability_is_not_asked_2025(pkg: Path) -> None:
    async def run() -> types.CallToolResult:
        async with stdio_client(_params(pkg)) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return await s.call_tool("trabalhar", {"mode": "sample"})

    result = anyio.run(run)
    text = _envelope(pkg, result)["data"]["result"]
    assert text == "unavailable: sampling: the client did not offer it"


def test_over_streamable_http_2025(pkg: Path) -> None:
    """The conformance suite's transport: setLevel, logging, progress and a prompt."""
    port = _free_port()
    env = {**_params(pkg).env, "RUNTIME_TEST_HTTP_PORT": str(port)}
    args = [sys.executable, str(SUPPORT / "serve.py"), "ext_tools", "ext_handlers"]
    process = subprocess.Popen(args, env={**os.environ, **env})
    steps: list[float] = []

    async def progressed(progress: float, total: float | None, message: str | None) -> None:
        steps.append(progress)

    async def scenario(c: Client) -> list[Any]:
        await c.set_logging_level("error")
        return [
            await _call(c, "log", progress_callback=progressed),
            await _call(c, "progress", progress_callback=progressed),
            await c.get_prompt("greet", {"name": "Bia"}),
        ]

    seen = Seen()

    async def run() -> list[Any]:
        url = f"http://127.0.0.1:{port}/mcp"
        async with Client(url, mode="legacy", logging_callback=seen.log) as client:
            return await scenario(client)

    try:
        _wait_for(port)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logged, progress, greeting = anyio.run(run)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert _envelope(pkg, logged)["ok"] and _envelope(pkg, progress)["ok"]
    assert [m.level for m in seen.logs] == ["error"]
    assert steps == [1, 2, 3]
    assert greeting.messages[0].content.text == "Hello Bia, hi"
