"""`toolc bump --write`: the versions below their change's minimum, set in tools.yaml by
editing the version scalars in place (comments, quoting, anchors and layout stay), and read
back to prove nothing else changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from msgspec import field

from toolc import workspace
from toolc.diagnostics import Span
from toolc.evolution.changes import ToolChange


def _offset(text: str, line: int, column: int) -> int:
    """A 1-based line and column (characters) as an offset into `text`."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def _set_version(text: str, span: Span, old: str, new: str) -> str | None:
    """`text` with the version scalar at `span` changed from `old` to `new`: only the version's
    characters change (an anchor, the quotes, a block scalar's indicator stay). None when the
    scalar does not spell `old` once (an alias, say): that one is left to the user."""
    start, end = (
        _offset(text, span.line, span.column),
        _offset(text, span.end_line, span.end_column),
    )
    value = text[start:end]
    if value.count(old) != 1:
        return None
    at = start + value.index(old)
    return text[:at] + new + text[at + len(old) :]


def _versions_in(text: str) -> dict[str, Any] | None:
    from toolc.source.yaml_loader import load_yaml

    value, _, problems = load_yaml(text, "tools.yaml")
    if problems or not isinstance(value, dict) or not isinstance(value.get("tools"), dict):
        return None
    return {n: t.get("version") for n, t in value["tools"].items() if isinstance(t, dict)}


class Edited(msgspec.Struct, frozen=True):
    shared: bool = False  # anchors or aliases share the versions: nothing was written
    skipped: list[ToolChange] = field(default_factory=list)  # not one plain value each


def set_versions(path: Path, low: list[ToolChange], spans: dict[str, Span]) -> Edited:
    """Raise each tool of `low` to its minimum in `path` (`spans`: each one's version scalar)."""
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    before = _versions_in(text)
    skipped = []
    # From the end of the file backwards, so earlier offsets stay valid.
    for c in sorted(low, key=lambda c: (spans[c.tool].line, spans[c.tool].column), reverse=True):
        assert c.new_version is not None and c.minimum is not None
        edited = _set_version(text, spans[c.tool], c.new_version, c.minimum)
        if edited is None:
            skipped.append(c)
        else:
            text = edited
    # Read back what was written: every edited version, and nothing else, must have changed
    # (an anchor another tool aliases would carry the edit over to it).
    expected: dict[str, Any] = dict(before or {})
    expected.update({c.tool: c.minimum for c in low if c not in skipped})
    if before is None or _versions_in(text) != expected:
        return Edited(shared=True)
    if len(skipped) < len(low):
        workspace.replace_file(path, (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return Edited(skipped=skipped)
