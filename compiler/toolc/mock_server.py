"""`toolc serve --mock`: the declared tools served by the generated package's own server
runtime, with handlers that answer from each tool's `returns` schema (declared examples
first, else deterministic synthesized values), so agent developers can work before the
backend exists. Validation, pre-validation, confirmation and sealing are the real ones."""

from __future__ import annotations

import copy
import importlib
import sys
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from toolc import workspace
from toolc.runtime.mock_values import mock_data
from toolc.validate import ecma_regex

Handler = Callable[[Any, Any], Awaitable[Any]]


def _answer(data: Any) -> Handler:
    async def handler(args: Any, ctx: Any) -> Any:
        return copy.deepcopy(data)  # the runtime must not see one answer shared by calls

    return handler


def _failing(reason: str) -> Handler:
    async def handler(args: Any, ctx: Any) -> Any:
        raise RuntimeError(reason)  # sealed as TOOL_ERROR; the reason stays in the log

    return handler


def mock_handlers(tools: Mapping[str, Any], warn: Callable[[str], None]) -> SimpleNamespace:
    """One handler per tool, named as the server looks them up (the tool's module name)."""
    validators = {s.pre_validation.tool for s in tools.values() if s.pre_validation is not None}
    handlers = SimpleNamespace()
    for name, spec in tools.items():
        method = spec.module.rpartition(".")[2]
        if name in validators:
            # A mock validator accepts every call as it came: the original arguments proceed.
            setattr(handlers, method, _answer({"eligible": True}))
            continue
        try:
            data = mock_data(spec.output_schema, search=ecma_regex.search)
        except ValueError as exc:
            warn(f"tool '{name}' answers TOOL_ERROR: no mock data for its returns ({exc})")
            setattr(handlers, method, _failing(str(exc)))
            continue
        if spec.workflow:  # a workflow-backed tool returns the workflow's output
            data = {"output": {name: data}}
        setattr(handlers, method, _answer(data))
    return handlers


def load_package(files: Mapping[str, bytes], package: str) -> Any:
    """The generated package, written to a temporary folder and imported from there."""
    root = Path(tempfile.mkdtemp(prefix="toolc-serve-"))
    workspace.materialize(root / package, files)
    sys.path.insert(0, str(root))
    return importlib.import_module(package)


def servers_of(tools: Mapping[str, Any]) -> list[str]:
    return sorted({spec.mcp_server for spec in tools.values() if spec.enabled})


def serve(
    files: Mapping[str, bytes],
    package: str,
    server: str,
    http: tuple[str, int] | None,
    warn: Callable[[str], None],
) -> None:
    pkg = load_package(files, package)
    registry = importlib.import_module(f"{package}.registry")
    served = importlib.import_module(f"{package}.server")
    runtime = importlib.import_module(f"{package}.server_runtime")
    handlers = mock_handlers(registry.ALL_TOOLS, warn)
    app = served.create_server(handlers, server)
    del pkg
    if http is None:
        runtime.run_stdio(app)
    else:
        runtime.run_http(app, *http)
