"""Published JSON Schemas read back as a reader's words: a type in one short phrase, and an
object's fields as flat dotted paths (`data.results[].order_id`), for the tables of the
reference. Only what the schema says is said; a `$ref` is named, not expanded, so a recursive
type stays one row."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

_MAX_DEPTH = 6  # a deeper field is still listed by its parent's row


def literal(value: Any) -> str:
    """A JSON value as the docs print it: compact, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def type_text(schema: Any) -> str:
    """`string`, `array of OrderId`, `one of "a", "b"`, `string (date-time)`, `integer | null`."""
    if schema is True or schema == {}:
        return "any"
    if schema is False:
        return "nothing"
    if not isinstance(schema, Mapping):
        return "any"
    if "$ref" in schema:  # a shared type by its name; the envelope's own (`envelope.ErrorInfo`) too
        return str(schema["$ref"]).rpartition("/")[2].removeprefix("envelope.")
    if "const" in schema:
        return f"always {literal(schema['const'])}"
    if "enum" in schema:
        return "one of " + ", ".join(literal(v) for v in schema["enum"])
    for union in ("oneOf", "anyOf"):
        if union in schema:
            return " | ".join(type_text(branch) for branch in schema[union])
    declared = schema.get("type")
    kinds = declared if isinstance(declared, list) else [declared] if declared else []
    words = [_kind(str(kind), schema) for kind in kinds]
    return " | ".join(words) if words else "any"


def _kind(kind: str, schema: Mapping[str, Any]) -> str:
    if kind == "array":
        items = schema.get("items")
        return "array" if items is None else f"array of {type_text(items)}"
    if kind == "string" and "format" in schema:
        return f"string ({schema['format']})"
    return kind


class Field(msgspec.Struct, frozen=True):
    path: str  # `data.results[].order_id`
    type: str
    required: bool
    description: str


def fields(schema: Any, prefix: str, defs: Mapping[str, Any]) -> Iterator[Field]:
    """Every property below `schema` (an object, or an array of objects), depth first in the
    schema's order of properties. The envelope's `data` is followed through its `$ref`; any
    other `$ref` (a shared type, the envelope's error object) is named, not entered."""
    yield from _fields(_local(schema, defs), prefix, defs, 0)


def _local(schema: Any, defs: Mapping[str, Any]) -> Any:
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if ref == "#/$defs/envelope.Data":
        return defs.get("envelope.Data", {})
    return schema


def _fields(schema: Any, prefix: str, defs: Mapping[str, Any], depth: int) -> Iterator[Field]:
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return
    items = schema.get("items")
    if isinstance(items, Mapping) and "properties" in items:
        yield from _fields(items, f"{prefix}[]", defs, depth + 1)
        return
    required = set(schema.get("required", ()))
    for name, sub in schema.get("properties", {}).items():
        sub = _local(sub, defs)
        path = f"{prefix}.{name}" if prefix else name
        described = sub.get("description", "") if isinstance(sub, Mapping) else ""
        yield Field(path, type_text(sub), name in required, str(described))
        yield from _fields(sub, path, defs, depth + 1)


def example_of(schema: Any, defs: Mapping[str, Any]) -> tuple[bool, Any]:
    """A value the schema itself offers: its first `examples` entry, its `default`, its
    `const`, its first enum member, or an array of one item's example. (False, None): none."""
    if not isinstance(schema, Mapping):
        return False, None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found, value = example_of(defs.get(ref.removeprefix("#/$defs/")), defs)
        if found:
            return found, value
    if schema.get("examples"):
        return True, schema["examples"][0]
    for key in ("default", "const"):
        if key in schema:
            return True, schema[key]
    if schema.get("enum"):
        return True, schema["enum"][0]
    if isinstance(schema.get("items"), Mapping):
        found, value = example_of(schema["items"], defs)
        return (True, [value]) if found else (False, None)
    return False, None
