"""`toolc serve --mock`: the declared tools served by the generated package's own server
runtime, with handlers that answer from each tool's `returns` schema (declared examples
first, else deterministic synthesized values), so agent developers can work before the
backend exists; a tool that declares content returns one item of each declared kind beside
its data (mock_content). Validation, pre-validation, confirmation and sealing are the real
ones."""

from __future__ import annotations

import copy
import importlib
import json
import signal
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Any

import msgspec

from toolc import workspace
from toolc.runtime.server_framework import success_data
from toolc.serve.mock_content import mock_content
from toolc.serve.mock_proxies import ORIGINS, mock_origins
from toolc.serve.mock_values import example_value, folded, is_valid, items_argument, mock_data
from toolc.validate import ecma_regex
from toolc.workspace.tree import remove_tree

Handler = Callable[[Any, Any], Awaitable[Any]]


def _answer(data: Any) -> Handler:
    async def handler(args: Any, ctx: Any) -> Any:
        return copy.deepcopy(data)  # the runtime must not see one answer shared by calls

    return handler


def _items_argument(input_schema: Mapping[str, Any]) -> tuple[str, Any] | None:
    """The argument that lists a multi-item call's items (`mock_values.items_argument`),
    and its item schema."""
    name = items_argument(input_schema)
    if name is None:
        return None
    return name, folded(input_schema["properties"][name], input_schema).get("items", True)


def _per_item(spec: Any, data: Any, workflow: bool) -> Handler:
    """A multi-item mock: one successful result per item asked for, each echoing what
    identifies the item where the result declares it (the same schema, or the item's own
    field of the same name)."""
    found = _items_argument(spec.input_schema)
    schema = spec.output_schema
    item_schema = success_data(schema)["properties"]["results"]["items"]  # either form
    template = data["results"][0]

    def echo(element: Any) -> Any:
        item = copy.deepcopy(template)
        props = folded(item_schema, schema).get("properties", {})
        for name, prop in props.items():
            if found is not None and prop == found[1]:
                value = element
            elif isinstance(element, Mapping) and name in element:
                value = element[name]
            else:
                continue
            if is_valid(value, prop, schema, ecma_regex.search):
                item[name] = copy.deepcopy(value)
        valid = is_valid(item, item_schema, schema, ecma_regex.search)
        return item if valid else copy.deepcopy(template)

    async def handler(args: Any, ctx: Any) -> Any:
        answer = copy.deepcopy(data)
        if found is not None:
            wire = args.model_dump(mode="json", by_alias=True)
            asked = wire.get(found[0])
            if isinstance(asked, list):
                answer["results"] = [echo(element) for element in asked]
        return {"output": {spec.name: answer}} if workflow else answer

    return handler


def _handler_form(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> Any:
    """`value` if the handler takes it as is, else a synthesized one. For a list: the
    elements that fit kept and the others synthesized, one item per element sent (every one
    synthesized when that breaks the list, as equal items under `uniqueItems` do); the
    schema's own example when both break it."""
    if is_valid(value, schema, root, ecma_regex.search):
        return value
    item = folded(schema, root).get("items")
    if isinstance(value, list) and isinstance(item, Mapping):
        for keep in (True, False):
            try:
                made = [
                    element
                    if keep and is_valid(element, item, root, ecma_regex.search)
                    else example_value(item, root, ecma_regex.search)
                    for element in value
                ]
            except ValueError:
                break
            if is_valid(made, schema, root, ecma_regex.search):
                return made
    return example_value(schema, root, ecma_regex.search)


def _resolving(handler_forms: Mapping[str, Mapping[str, Any]]) -> Handler:
    """A mock validator of tools whose callers send another form than their handlers take
    (`accepts`): it resolves each call into the handler's form, keeping what already fits and
    synthesizing the rest, so the real checks and the handler see canonical values."""

    async def handler(args: Any, ctx: Any) -> Any:
        params = getattr(ctx.request, "params", None) or {}
        target = params.get("name")  # the call being pre-validated
        schema = handler_forms.get(target) if isinstance(target, str) else None
        if schema is None:
            return {"eligible": True}
        sent = dict(params.get("arguments") or {})
        resolved = {
            name: _handler_form(value, schema["properties"][name], schema)
            if name in schema["properties"]
            else value
            for name, value in sent.items()
        }
        decision = {"resolved_arguments": resolved, "target_tool": target}
        return {"eligible": True, "transaction_decision": decision}

    return handler


def _failing(reason: str) -> Handler:
    async def handler(args: Any, ctx: Any) -> Any:
        raise RuntimeError(reason)  # sealed as TOOL_ERROR; the reason stays in the log

    return handler


def _with_content(handler: Handler, content: list[Any], runtime: Any) -> Handler:
    async def replying(args: Any, ctx: Any) -> Any:
        return runtime.Reply(await handler(args, ctx), content=content)

    return replying


def mock_handlers(
    tools: Mapping[str, Any],
    warn: Callable[[str], None],
    handler_forms: Mapping[str, Mapping[str, Any]] | None = None,
    descriptors: Sequence[Mapping[str, Any]] = (),
    runtime: Any = None,
) -> SimpleNamespace:
    """One handler per tool, named as the server looks them up (the tool's module name).
    `handler_forms`: the handler's input schema of each tool whose callers send another; with
    the package's `descriptors` and `runtime`, each tool's declared content too."""
    handlers = _data_handlers(tools, warn, handler_forms)
    for d in descriptors:
        declared = d.get("_meta", {}).get("content")
        spec = tools.get(d["name"])
        if declared and runtime is not None and spec is not None:
            method = spec.module.rpartition(".")[2]
            made = mock_content(d["name"], declared, runtime, warn)
            setattr(handlers, method, _with_content(getattr(handlers, method), made, runtime))
    return handlers


def _data_handlers(
    tools: Mapping[str, Any],
    warn: Callable[[str], None],
    handler_forms: Mapping[str, Mapping[str, Any]] | None,
) -> SimpleNamespace:
    validators = {s.pre_validation.tool for s in tools.values() if s.pre_validation is not None}
    handlers = SimpleNamespace()
    for name, spec in tools.items():
        method = spec.module.rpartition(".")[2]
        if getattr(spec, "proxy", None) is not None:
            continue  # no handler: its calls go to its origin (decision 0084)
        if name in validators and handler_forms:
            setattr(handlers, method, _resolving(handler_forms))
            continue
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
        if spec.multi_item and data.get("results"):
            setattr(handlers, method, _per_item(spec, data, spec.workflow))
            continue
        if spec.workflow:  # a workflow-backed tool returns the workflow's output
            data = {"output": {name: data}}
        setattr(handlers, method, _answer(data))
    return handlers


def handler_forms(files: Mapping[str, bytes]) -> dict[str, Any]:
    """Each tool's handler form, from the contracts of those whose callers send another."""
    forms = {}
    for path, data in files.items():
        if path.startswith("contracts/") and b'"handler_input_schema"' in data:
            document = json.loads(data)
            forms[document["tool"]["name"]] = document["handler_input_schema"]
    return forms


def load_package(files: Mapping[str, bytes], package: str) -> Any:
    """The generated package, written to a temporary folder and imported from there."""
    root = Path(tempfile.mkdtemp(prefix="toolc-serve-"))
    workspace.materialize(root / package, files)
    sys.path.insert(0, str(root))
    return importlib.import_module(package)


class Listen(msgspec.Struct, frozen=True):
    """Where and how an HTTP mock server listens (see the runtime's `http_app`)."""

    host: str
    port: int
    allowed_hosts: tuple[str, ...] = ()
    token: str | None = None


def serve(
    files: Mapping[str, bytes],
    package: str,
    server: str,
    http: Listen | None,
    warn: Callable[[str], None],
) -> None:
    with _package(files, package) as pkg:
        registry = importlib.import_module(f"{package}.registry")
        served = importlib.import_module(f"{package}.server")
        runtime = importlib.import_module(f"{package}.server_runtime")
        descriptors = json.loads(files["tools.json"])["tools"]
        handlers = mock_handlers(
            registry.ALL_TOOLS, warn, handler_forms(files), descriptors, runtime
        )
        # create_server reads the package's ALL_TOOLS: its proxied tools now reach mock origins.
        folder = Path(pkg.__file__).parent.parent / ORIGINS
        tools = mock_origins(registry.ALL_TOOLS, descriptors, folder, warn)
        vars(served)["ALL_TOOLS"] = MappingProxyType(tools)
        # Metrics off: toolc does not depend on prometheus_client; a mock's timings mean nothing.
        app = served.create_server(handlers, server, metrics=False)
        if http is None:
            runtime.run_stdio(app)
        else:
            runtime.run_http(
                app, http.host, http.port, allowed_hosts=http.allowed_hosts, token=http.token
            )


@contextmanager
def _package(files: Mapping[str, bytes], package: str) -> Iterator[Any]:
    """The package imported from a temporary folder, gone when the server stops (each run
    left ~0.5 MB behind). SIGTERM, how a client stops a stdio server, ends it as Ctrl-C
    does: through `finally`."""
    pkg = load_package(files, package)
    signal.signal(signal.SIGTERM, _stopped)
    try:
        yield pkg
    finally:
        remove_tree(Path(pkg.__file__).parent.parent)


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)
