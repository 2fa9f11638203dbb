"""Drives the client runtime against a real server process, from synchronous tests.

`client_package()` copies a generated package under another name (so the test process can
import its models beside any `mcp_tools` already imported) with `client_runtime.py` in it,
as the build ships it. `Live` spawns `serve.py` on a server copy made by the harness and
keeps one `ToolClient.connect(...)` open in a blocking portal's event loop; every envelope
a server sent is checked against the tool's published outputSchema."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from anyio.from_thread import BlockingPortal, start_blocking_portal
from jsonschema import Draft202012Validator
from mcp import StdioServerParameters
from toolc.runtime.client_runtime import ConfirmationRequest, Envelope, ToolClient

from runtime_support.harness import SUPPORT, descriptors


def client_package(source: Path, root: Path, name: str) -> Any:
    """The package at `source`, copied as `name` and imported (the build put the client
    runtime into it: nothing is added here, so a build that forgot it fails)."""
    dest = root / name
    shutil.copytree(source, dest)
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(root))


def server_params(pkg: Path, handlers: str) -> StdioServerParameters:
    """How to spawn `serve.py` on a server package made by `harness.package`."""
    env = {"PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])}
    args = [str(SUPPORT / "serve.py"), pkg.name, handlers]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


class Answers:
    """A `confirm` callback: records each request, answers `yes` (or raises)."""

    def __init__(self) -> None:
        self.yes: bool | None = True  # None: the callback raises
        self.requests: list[ConfirmationRequest] = []

    async def __call__(self, request: ConfirmationRequest) -> bool:
        self.requests.append(request)
        if self.yes is None:
            raise RuntimeError("the user interface crashed")
        return self.yes


class Live:
    """One spawned server and one connected `ToolClient`."""

    def __init__(
        self,
        pkg: Path,
        handlers: str,
        tools: Mapping[str, Any],
        *,
        mode: str = "auto",
        confirm: Answers | None = None,
    ) -> None:
        self.published = descriptors(pkg)
        self.answers = confirm
        connecting = ToolClient.connect(
            server_params(pkg, handlers),
            confirm=confirm,
            mode=mode,  # type: ignore[arg-type]
            tools=tools,
        )
        self._portal_cm: AbstractContextManager[BlockingPortal] = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._client_cm = self.portal.wrap_async_context_manager(connecting)
        self.client: ToolClient = self._client_cm.__enter__()

    def close(self) -> None:
        self._client_cm.__exit__(None, None, None)
        self._portal_cm.__exit__(None, None, None)

    def answering(self, yes: bool | None) -> Answers:
        assert self.answers is not None
        self.answers.yes = yes
        self.answers.requests.clear()
        return self.answers

    def call(self, tool: str, args: Any = None) -> Envelope[Any]:
        """`client.call`; what the server sent validates against its outputSchema."""
        envelope: Envelope[Any] = self.portal.call(self.client.call, tool, args)
        if not (not envelope.ok and envelope.local):
            schema = self.published[tool]["outputSchema"]
            Draft202012Validator(schema).validate(dict(envelope.envelope))
        return envelope
