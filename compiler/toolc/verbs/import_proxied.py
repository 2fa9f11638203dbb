"""`toolc import --proxied` (decision 0107): each tool written with `proxy:` naming its origin,
and kept only when what toolc would publish for it is the origin's schemas exactly, as the
generated server compares them at start (`runtime.server_proxy.drift`): a tool that would
drift is never served, so it is skipped with the reason instead of written to fail."""

from __future__ import annotations

import json
import os
from typing import Any

from mcp import types
from pydantic import ValidationError

from toolc.adopt.tools import PLACEHOLDER
from toolc.diagnostics.codes import diag
from toolc.diagnostics.model import Diagnostic, Span
from toolc.pipeline import Compilation
from toolc.runtime.server_proxy import drift

# What `proxy:` says when the source names no origin (a JSON file without --origin-*): a
# command that builds and is marked, so the user writes the real one before serving.
UNKNOWN_ORIGIN = [f"{PLACEHOLDER}: the origin server's command"]


def origin_of(
    command: list[str] | None, url: str | None, where: Span, found: list[Diagnostic]
) -> dict[str, Any]:
    """The origin part of each tool's `proxy:` key: the command or the URL, else a marked
    placeholder and a located warning."""
    if command:
        relative = [part for part in command if _relative_file(part)]
        if relative:
            found.append(
                diag(
                    "import-origin-relative",
                    where,
                    f"the origin command names {', '.join(map(repr, relative))} relative to "
                    "this folder; the generated server runs it from wherever it starts",
                    "write the path absolute in each tool's proxy: command, or start the "
                    "gateway from this folder",
                )
            )
        return {"command": command}
    if url is not None:
        return {"url": url}
    found.append(
        diag(
            "import-placeholder",
            where,
            "a tools/list file names no origin server: wrote each proxy with a placeholder "
            f"command marked {PLACEHOLDER}",
            "give the origin with --origin-command CMD or --origin-url URL, or write it in "
            "each tool's proxy: key",
        )
    )
    return {"command": list(UNKNOWN_ORIGIN)}


def _relative_file(part: str) -> bool:
    """A part of a command that is a relative path to something here: `server.py`,
    `./bin/origin` (not an option, not a program found on PATH)."""
    return (
        not part.startswith("-")
        and not os.path.isabs(part)
        and os.path.exists(part)
        and ("/" in part or os.path.isfile(part))
    )


def drifted(compiled: Compilation, listed: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each imported tool whose published schemas the generated server would find different
    from the origin's listing, with which ones."""
    published = json.loads(compiled.files["tools.json"])["tools"]
    found: dict[str, str] = {}
    for descriptor in published:
        name = descriptor["name"]
        try:
            origin = types.Tool.model_validate(listed[name])
        except ValidationError as exc:
            found[name] = f"the origin's entry is no MCP Tool ({exc.error_count()} error(s))"
            continue
        differs = drift(descriptor, origin)
        if differs:
            found[name] = (
                f"its {' and '.join(differs)} as toolc publishes it would differ from the "
                "origin's (the server compares them at start and would not serve it)"
            )
    return found
