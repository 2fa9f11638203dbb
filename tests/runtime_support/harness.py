"""Drives a real server process with the SDK's real stdio client, from synchronous tests.

`package()` copies a generated package and puts the server runtime modules into it, as
the build will; `Connection` spawns `serve.py` on it and keeps one `mcp.Client` open (in
a blocking portal's event loop); `sealed()` is the assertion every result goes through:
the envelope validates against the tool's published outputSchema, the text block is the
same JSON, `isError` is `not ok` and `meta` names the tool and its version."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal, start_blocking_portal
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters, types

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "compiler" / "toolc" / "runtime"
SUPPORT = Path(__file__).resolve().parent
EXAMPLES = ROOT / "examples"


def package(source: Path, root: Path) -> Path:
    """A copy of the generated package at `source` under `root`: the build put the
    runtime into it (nothing is added here, so a build that forgot it fails)."""
    dest = root / source.name
    shutil.copytree(source, dest)
    return dest


def build(config: Path, out: Path) -> Path:
    """`toolc build` a config into `out` (the package's directory), as a user would."""
    exe = Path(sys.executable).parent / "toolc"
    snapshot = out.parent / f"{out.name}.snapshot.json"
    done = subprocess.run(
        [str(exe), "build", str(config), "--out", str(out), "--snapshot", str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def descriptors(pkg: Path) -> dict[str, dict[str, Any]]:
    listing = json.loads((pkg / "tools.json").read_text(encoding="utf-8"))
    return {d["name"]: d for d in listing["tools"]}


class Asker:
    """The client's elicitation callback: records each question, answers `action`."""

    def __init__(self) -> None:
        self.action = "accept"
        self.delay = 0.0  # seconds the user takes to answer
        self.questions: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.questions.append(params)
        if self.delay:
            await anyio.sleep(self.delay)
        if self.action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        if self.action == "accept-false":
            return types.ElicitResult(action="accept", content={"confirm": False})
        return types.ElicitResult(action=self.action)  # type: ignore[arg-type]


class Connection:
    """One spawned server and one connected client."""

    def __init__(
        self,
        pkg: Path,
        handlers: str,
        *,
        server: str | None = None,
        mode: str = "auto",
        elicitation: bool = True,
        log: Path | None = None,
        http: bool = False,
        env: dict[str, str] | None = None,
        message_handler: Callable[..., Any] | None = None,
    ) -> None:
        self.pkg = pkg
        self.published = descriptors(pkg)
        self.asker = Asker()
        env = {"PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)]), **(env or {})}
        if log is not None:
            env["RUNTIME_TEST_LOG"] = str(log)
        args = [str(SUPPORT / "serve.py"), pkg.name, handlers]
        if server is not None:
            args.append(server)
        target: StdioServerParameters | str = StdioServerParameters(
            command=sys.executable, args=args, env=env
        )
        self.process: subprocess.Popen[bytes] | None = None
        if http:
            port = _free_port()
            env["RUNTIME_TEST_HTTP_PORT"] = str(port)
            self.process = subprocess.Popen([sys.executable, *args], env=env)
            _wait_for(port)
            self.port = port
            target = f"http://127.0.0.1:{port}/mcp"
        self.client = Client(
            target,
            mode=mode,  # type: ignore[arg-type]
            elicitation_callback=self.asker if elicitation else None,
            read_timeout_seconds=30,
            message_handler=message_handler,
        )
        self._portal_cm: AbstractContextManager[BlockingPortal] = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._client_cm = self.portal.wrap_async_context_manager(self.client)
        self._client_cm.__enter__()

    def close(self) -> None:
        self._client_cm.__exit__(None, None, None)
        self._portal_cm.__exit__(None, None, None)
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)

    @property
    def protocol_version(self) -> str:
        version = self.client.session.protocol_version
        assert version is not None
        return str(version)

    def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self.portal.call(lambda: fn(*args, **kwargs))

    def list_tools(self) -> types.ListToolsResult:
        result: types.ListToolsResult = self.run(self.client.list_tools)
        return result

    def raw(self, name: str, arguments: Any = None, **kwargs: Any) -> Any:
        """One `tools/call` round, an `InputRequiredResult` returned as is."""
        return self.run(
            self.client.session.call_tool,
            name,
            arguments,
            allow_input_required=True,
            **kwargs,
        )

    def call(self, name: str, arguments: Any = None, **kwargs: Any) -> dict[str, Any]:
        """Call a tool (confirmation questions answered by `asker`) and return the
        envelope, checked by `sealed`."""
        result = self.run(self.client.call_tool, name, arguments, **kwargs)
        return self.sealed(name, result)

    def sealed(self, name: str, result: types.CallToolResult) -> dict[str, Any]:
        return sealed(self.published[name], result)


def sealed(descriptor: dict[str, Any], result: types.CallToolResult) -> dict[str, Any]:
    """The envelope of `result`, after checking everything the seal promises."""
    envelope = result.structured_content
    assert isinstance(envelope, dict)
    Draft202012Validator(descriptor["outputSchema"]).validate(envelope)
    assert result.is_error is (not envelope["ok"])
    texts = [b for b in result.content if isinstance(b, types.TextContent)]
    assert len(texts) == 1 and result.content[-1] is texts[0]
    assert texts[0].text == json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    assert envelope["meta"] == {
        "tool": descriptor["name"],
        "version": descriptor["_meta"]["version"],
    }
    return envelope
