"""A mock gateway never reaches a real origin: each proxied tool's origin is replaced by a
mock one (mock_origin, a process of its own, as an origin is) that lists the schemas the
tool publishes and answers a value valid against its outputSchema, not enveloped. A tool
whose outputSchema no value satisfies is left out, with a warning: the mock origin does not
list it, so the gateway does not serve it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace  # the generated package's ToolSpec and Proxy are dataclasses
from pathlib import Path
from typing import Any

from toolc import workspace
from toolc.serve.mock_values import example_value, is_valid
from toolc.validate import ecma_regex

ORIGINS = "mock_origins"  # beside the package in the mock's temporary folder


def _entry(descriptor: Mapping[str, Any], origin_tool: str) -> dict[str, Any]:
    """What the mock origin lists and answers for one tool (ValueError: no answer)."""
    entry = {"name": origin_tool, "inputSchema": descriptor["inputSchema"]}
    output = descriptor.get("outputSchema")
    if output is not None:
        answer = example_value(output, output, ecma_regex.search)
        if not is_valid(answer, output, output, ecma_regex.search):
            raise ValueError("the value made breaks it")
        entry.update(outputSchema=output, answer=answer)
    return entry


def mock_origins(
    tools: Mapping[str, Any],
    descriptors: Sequence[Mapping[str, Any]],
    folder: Path,
    warn: Callable[[str], None],
) -> dict[str, Any]:
    """`tools` with every proxied tool's origin replaced by a mock origin (one per real
    origin, its listing written under `folder`)."""
    published = {d["name"]: d for d in descriptors}
    groups: dict[tuple[Any, Any], dict[str, dict[str, Any]]] = {}
    for name, spec in sorted(tools.items()):
        proxy = getattr(spec, "proxy", None)
        if proxy is None or name not in published:
            continue
        listed = groups.setdefault((proxy.command, proxy.url), {})
        try:
            listed.setdefault(proxy.tool, _entry(published[name], proxy.tool))
        except ValueError as exc:
            warn(f"proxied tool '{name}' is left out: no mock value fits its outputSchema ({exc})")
    files = {
        f"{i}.json": json.dumps(list(listed.values())).encode()
        for i, listed in enumerate(groups.values())
    }
    workspace.materialize(folder, files)
    where = {key: folder / f"{i}.json" for i, key in enumerate(groups)}
    replaced = dict(tools)
    for name, spec in tools.items():
        proxy = getattr(spec, "proxy", None)
        if proxy is not None and (proxy.command, proxy.url) in where:
            path = str(where[(proxy.command, proxy.url)])
            command = (sys.executable, "-m", "toolc.serve.mock_origin", path)
            mocked = replace(proxy, command=command, url=None)
            replaced[name] = replace(spec, proxy=mocked)
    return replaced
