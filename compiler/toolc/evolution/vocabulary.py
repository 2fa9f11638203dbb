"""The keywords of JSON Schema 2020-12 that assert nothing toolc compares value by value:
annotations (patch), content descriptions (a warning, as `format`), the core keywords of
identity and dialect (undecidable when they change), and the rest of the vocabulary, so that a
keyword outside it (a vendor extension) is known to be an annotation too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.contract.canonical import canonical_bytes
from toolc.evolution.keywords import Walker, change, show

ANNOTATION = ("$comment", "readOnly", "writeOnly", "$anchor")
CONTENT = ("contentEncoding", "contentMediaType", "contentSchema")
# Core keywords toolc does not resolve: what they point at, or how, is not compared.
_UNRESOLVED = ("$ref", "$id", "$dynamicRef", "$dynamicAnchor", "$vocabulary")
_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Every other 2020-12 keyword, compared by `walk`, `keywords`, `applicators` or `containers`.
COMPARED = frozenset(
    {"type", "enum", "const", "pattern", "format", "default", "deprecated", "uniqueItems",
     "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
     "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "required",
     "properties", "additionalProperties", "patternProperties", "propertyNames",
     "dependentRequired", "dependentSchemas", "unevaluatedProperties", "items", "prefixItems",
     "contains", "minContains", "maxContains", "unevaluatedItems", "allOf", "anyOf", "oneOf",
     "not", "if", "then", "else", "$defs", "$schema", *ANNOTATION, *CONTENT, *_UNRESOLVED}
)  # fmt: skip


def _differs(o: Mapping[str, Any], n: Mapping[str, Any], key: str) -> bool:
    return (key in o) != (key in n) or canonical_bytes(o.get(key)) != canonical_bytes(n.get(key))


def annotated(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str,
                where: str) -> None:  # fmt: skip
    for key in ANNOTATION:
        if _differs(o, n, key):
            walk.emit("annotation-changed", f"{path}/{key}", where, _change(key, o, n))
    for key in CONTENT:
        if _differs(o, n, key):
            walk.emit("content-changed", f"{path}/{key}", where, _change(key, o, n))


def core(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str) -> None:
    """`$schema`: the same dialect (absent: MCP's default, 2020-12) changes no value; another
    one, like every change of a reference toolc does not resolve, is undecidable."""
    undecided = f"{walk.direction}-schema-undecided"
    if _differs(o, n, "$schema"):
        dialects = {_dialect(o.get("$schema")), _dialect(n.get("$schema"))}
        if dialects == {_DIALECT}:
            walk.note(f"{path}/$schema", f"'$schema' restated at {path}", same_values=True)
        else:
            walk.emit(undecided, f"{path}/$schema", where, _change("$schema", o, n))
    for key in _UNRESOLVED:
        if _differs(o, n, key):
            walk.emit(undecided, f"{path}/{key}", where, _change(key, o, n) + " (not resolved)")


def _dialect(value: Any) -> Any:
    return _DIALECT if value is None or value == _DIALECT + "#" else value


def _change(key: str, o: Mapping[str, Any], n: Mapping[str, Any]) -> str:
    if key == "contentSchema" and key in o and key in n:
        return "contentSchema changed"
    if isinstance(o.get(key), bool) or isinstance(n.get(key), bool):
        return f"{key} {show(o.get(key, False))} → {show(n.get(key, False))}"
    return change(key, o, n)
