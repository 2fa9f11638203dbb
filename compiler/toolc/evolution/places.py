"""Places in a schema named by JSON pointers written through `$ref`s, as the evolution walk
writes them (`/properties/issues/items/type` even when `items` is a `$ref`), and the schema that
holds at each place, resolved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.evolution.identity import deref
from toolc.evolution.views import escape, obj


def segments(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def chain(schema: Any, pointer: str, document: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The schemas on the way to `pointer`, outermost first, each with its own pointer and its
    $refs followed; the way ends at a keyword. A place a side leaves open holds the schema that
    governs it there: `{}` for absent `items` or `additionalProperties` (and for `true`), the
    parent's `additionalProperties` for an undeclared property; `false` accepts nothing."""
    parts = segments(pointer)
    here = ""
    node = deref(schema, document)[0] if isinstance(schema, Mapping) else schema
    chain = [(here, node)]
    index = 0
    while index < len(parts) and isinstance(node, Mapping):
        part = parts[index]
        if part == "properties" and index + 1 < len(parts):
            name = parts[index + 1]
            declared = obj(node.get("properties"))
            node = declared[name] if name in declared else node.get("additionalProperties", {})
            here += f"/properties/{escape(name)}"
            index += 2
        elif part in ("items", "additionalProperties"):
            node = node.get(part, {})
            here += f"/{part}"
            index += 1
        else:
            break
        node = {} if node is True else node
        if isinstance(node, Mapping):
            node = deref(node, document)[0]
        chain.append((here, node))
    return chain


def readable(where: str, pointer: str) -> str:
    """`issues` and `/items/properties/id` → `issues[].id`, as the walk names places."""
    parts, out, index = segments(pointer), where, 0
    while index < len(parts):
        if parts[index] == "properties" and index + 1 < len(parts):
            out, index = f"{out}.{parts[index + 1]}" if out else parts[index + 1], index + 2
            continue
        out += "[]" if parts[index] == "items" else ".*"
        index += 1
    return out or "the value"
