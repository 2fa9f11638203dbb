"""Hints that name the fix for two YAML surprises, read from what the user wrote:

- a comma inside an unquoted flow-mapping value (`{description: a, b}`) ends the value, and the
  word after it becomes a key of its own: the hint quotes the value back, comma included;
- `version: 1.0` is the number 1.0, and two parts are no semantic version either way: the hint
  spells the three-part version the user meant (`1.0.0`, from the text, so `1.10` stays 1.10).
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolc.diagnostics import Span
from toolc.source import JsonPath, LoadedFile
from toolc.source.excerpt import bare_flow_key, written

_VERSION_KEYS = ("version", "from", "to")  # a tool's version, an accepted break's two ends
_SHORT_VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def _mapping_at(data: Any, path: JsonPath) -> dict[str, Any] | None:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data if isinstance(data, dict) else None


def _quoted(text: str) -> str:
    if '"' in text or "\\" in text:
        return "'" + text.replace("'", "''") + "'"
    return json.dumps(text, ensure_ascii=False)


def flow_comma_hint(loaded: LoadedFile, mapping: JsonPath, key: str) -> str | None:
    """For a key that a comma split off the value before it, how to write that value."""
    text = loaded.text
    if text is None:
        return None
    spans = loaded.spans
    if not bare_flow_key(text, spans.key_span((*mapping, key)), spans.value_span((*mapping, key))):
        return None
    found = _mapping_at(loaded.data, mapping)
    keys = list(found) if found is not None else []
    if found is None or key not in keys:
        return None

    def bare(name: str) -> bool:
        value = spans.value_span((*mapping, name))
        return (value.line, value.column) == (value.end_line, value.end_column)

    # The entry whose value the comma cut is the last one before with a value of its own; the
    # run of bare words after it (`a, b, c`) was all one value.
    at = keys.index(key)
    first = next((i for i in range(at - 1, -1, -1) if not bare(keys[i])), None)
    last = at
    while last + 1 < len(keys) and bare(keys[last + 1]):
        last += 1
    general = f"a comma ends a value inside `{{...}}`, so '{key}' was read as a key of its own"
    if first is None or not isinstance(found[keys[first]], str):
        return general + ": quote the value that holds the comma"
    owner = keys[first]
    start, end = spans.value_span((*mapping, owner)), spans.key_span((*mapping, keys[last]))
    meant = written(text, Span(start.path, start.line, start.column, end.end_line, end.end_column))
    if meant[:1] in ("'", '"'):
        return general + ": quote the value that holds the comma"
    return f"{general}; quote the value: `{owner}: {_quoted(' '.join(meant.split()))}`"


def version_number_hint(loaded: LoadedFile, path: JsonPath) -> str | None:
    """For a version written as a number or with fewer than three parts, the version meant."""
    if not path or path[-1] not in _VERSION_KEYS or loaded.text is None:
        return None
    if len(path) != 3 or path[0] != ("tools" if path[-1] == "version" else "accepted_breaks"):
        return None
    shown = written(loaded.text, loaded.spans.value_span(path))
    bare = shown.strip("'\"")
    key = path[-1]
    if not _SHORT_VERSION.fullmatch(bare):
        return f"a version is written MAJOR.MINOR.PATCH, e.g. `{key}: 1.0.0`"
    parts = [str(int(p)) for p in bare.split(".")]
    meant = ".".join([*parts, "0", "0"][:3])
    if bare == shown:  # unquoted: YAML made a number of it
        return (
            f"YAML reads `{shown}` as a number, and a version has three parts: "
            f"write `{key}: {meant}`"
        )
    return f"a version has three parts (MAJOR.MINOR.PATCH): write `{key}: {meant}`"
