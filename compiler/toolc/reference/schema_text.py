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
    """`string`, `array of OrderId`, `one of "a", "b"`, `string (date-time)`, `integer | null`,
    `[string, integer]` (a tuple), `A and B` (an allOf)."""
    if schema is True or schema == {}:
        return "any"
    if schema is False:
        return "nothing"
    if not isinstance(schema, Mapping):
        return "any"
    if isinstance(schema.get("allOf"), list):
        return _all_of(schema)
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
    return " | ".join(words) if words else _untyped([schema])


def _all_of(schema: Mapping[str, Any]) -> str:
    """Every part holds: the typed parts joined by `and`. Untyped parts (`{minimum: 1}`) only
    matter when nothing is typed: their bounds are then all a reader is told."""
    parts = [{k: v for k, v in schema.items() if k != "allOf"}, *schema["allOf"]]
    if any(part is False for part in parts):
        return "nothing"
    typed: list[str] = []
    for part in parts:
        text = type_text(part)
        if not text.startswith("any") and text not in typed:
            typed.append(text)
    if not typed:
        return _untyped([p for p in parts if isinstance(p, Mapping)])
    # A part that adds a format alone (`allOf: [{format: email}]`) says what the string is.
    formats = [
        str(p["format"])
        for p in parts
        if isinstance(p, Mapping) and "format" in p and type_text(p).startswith("any")
    ]
    if formats:
        named = f"string ({', '.join(dict.fromkeys(formats))})"
        typed = [" | ".join(named if w == "string" else w for w in t.split(" | ")) for t in typed]
    if len(typed) == 1:
        return typed[0]
    return " and ".join(f"({t})" if " | " in t else t for t in typed)


# What an untyped schema's bounds say, by the JSON type they apply to: without `type`, any
# value passes, but a number (a string) must keep them. "any" alone would hide them.
_BOUNDS = {
    "number": (
        ("minimum", "≥ {}"),
        ("exclusiveMinimum", "> {}"),
        ("maximum", "≤ {}"),
        ("exclusiveMaximum", "< {}"),
        ("multipleOf", "a multiple of {}"),
    ),
    "string": (
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("pattern", "matching {}"),
        ("format", "format {}"),
    ),
}


def _untyped(parts: list[Mapping[str, Any]]) -> str:
    said = []
    for kind, bounds in _BOUNDS.items():
        found = [
            text.format(literal(part[key])) for part in parts for key, text in bounds if key in part
        ]
        if found:
            said.append(f"if a {kind}: {', '.join(found)}")
    return f"any ({'; '.join(said)})" if said else "any"


def _kind(kind: str, schema: Mapping[str, Any]) -> str:
    if kind == "array":
        return _array(schema)
    if kind == "string" and "format" in schema:
        return f"string ({schema['format']})"
    return kind


def _array(schema: Mapping[str, Any]) -> str:
    """`array of X`; a tuple as its places, `[string, integer]`, then `...` (any more items),
    `...X` (more X) or nothing (`items: false`: no more)."""
    rest = schema["items"] if "items" in schema else schema.get("unevaluatedItems")
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list) and prefix:
        head = ", ".join(type_text(place) for place in prefix)
        if rest is False:
            return f"[{head}]"
        more = "any" if rest is None else type_text(rest)
        return f"[{head}, ...]" if more == "any" else f"[{head}, ...{more}]"
    if rest is False:
        return "empty array"
    return "array" if rest is None else f"array of {type_text(rest)}"


class Field(msgspec.Struct, frozen=True):
    path: str  # `data.results[].order_id`
    type: str
    required: bool
    description: str


def fields(schema: Any, prefix: str, defs: Mapping[str, Any]) -> Iterator[Field]:
    """Every property below `schema` (an object, or an array of objects), depth first in the
    schema's order of properties. The envelope's `data` is followed through its `$ref`, and
    so is a shared type it is (`returns: {$ref: '#/types/Order'}`); any other `$ref` (a
    shared type below, the envelope's error object) is named, not entered. Data with no
    fields of its own (a list of strings, a union) is one row for `prefix` itself."""
    root = _local(schema, defs)
    found = list(_fields(_shared(root, defs), prefix, defs, 0))
    if not found and prefix and isinstance(root, Mapping) and root:
        described = root.get("description", "")
        found = [Field(prefix, type_text(root), True, str(described))]
    yield from found


def _shared(schema: Any, defs: Mapping[str, Any]) -> Any:
    """The shared type a `$ref` at the root names, once (a recursive type stays named below)."""
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return defs.get(ref.removeprefix("#/$defs/"), schema)
    return schema


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
