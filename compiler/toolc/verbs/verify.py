"""`toolc verify`: does a running server list exactly the tools a build of the config publishes?
A deployment's drift check: a server started from an old package, a hand-edited descriptor, a
tool left out or served by the wrong process. The listing comes from `toolc.remote`; this module
only compares, tool by tool, and says where the first difference is."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import msgspec

from toolc.pipeline import Compilation


class Drift(msgspec.Struct, frozen=True):
    tool: str
    message: str


def _pointer(path: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path) or "/"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def first_difference(served: Any, built: Any, path: list[str] | None = None) -> str | None:
    """The first place two JSON values differ, as `POINTER: served X, built Y`, members in
    sorted order (so the same drift is named the same way every run)."""
    path = path or []
    if isinstance(served, dict) and isinstance(built, dict):
        for key in sorted(served.keys() | built.keys()):
            if key not in built:
                return f"{_pointer([*path, key])}: served {_show(served[key])}, not built"
            if key not in served:
                return f"{_pointer([*path, key])}: built {_show(built[key])}, not served"
            found = first_difference(served[key], built[key], [*path, key])
            if found is not None:
                return found
        return None
    if isinstance(served, list) and isinstance(built, list) and len(served) == len(built):
        for i, (a, b) in enumerate(zip(served, built, strict=True)):
            found = first_difference(a, b, [*path, str(i)])
            if found is not None:
                return found
        return None
    if served == built and type(served) is type(built):
        return None
    return f"{_pointer(path)}: served {_show(served)}, built {_show(built)}"


def _without_meta(descriptor: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in descriptor.items() if k != "_meta"}


def servers_of(compilation: Compilation) -> dict[str, str]:
    """tool → its mcp_server, for the enabled tools (what some server must list)."""
    return {name: d.server for name, d in compilation.tools.items() if d.enabled}


def verify(listed: list[dict[str, Any]], compilation: Compilation, server: str) -> list[Drift]:
    """Each difference between what `server` lists and what the build publishes for it."""
    built = {d["name"]: d for d in json.loads(compilation.files["tools.json"])["tools"]}
    servers = servers_of(compilation)
    expected = {name for name, s in servers.items() if s == server}
    drift: list[Drift] = []
    seen: set[str] = set()
    for tool in listed:
        name = str(tool.get("name"))
        if name in seen:
            drift.append(Drift(name, f"tool '{name}' is listed twice"))
            continue
        seen.add(name)
        if name not in expected:
            elsewhere = servers.get(name)
            why = (
                f"it belongs to mcp_server '{elsewhere}'"
                if elsewhere is not None
                else "the config declares no enabled tool of that name"
            )
            drift.append(
                Drift(name, f"tool '{name}' is served but not built for '{server}': {why}")
            )
            continue
        # What a model or a client reads first; `_meta` (version, digest) follows from it.
        difference = first_difference(_without_meta(tool), _without_meta(built[name]))
        if difference is None:
            difference = first_difference(tool.get("_meta"), built[name].get("_meta"), ["_meta"])
        if difference is not None:
            drift.append(Drift(name, f"tool '{name}' differs from the build at {difference}"))
    drift += [
        Drift(name, f"tool '{name}' of mcp_server '{server}' is built but not served")
        for name in sorted(expected - seen)
    ]
    return drift
