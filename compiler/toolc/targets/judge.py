"""Each target's rules as predicates over a published descriptor (the MCP `Tool` object as
`tools/list` serves it). A finding names its code, the tool, where in the descriptor it is
(`("inputSchema", "properties", "x")`) and what is wrong; `targets.locate` turns it into a
diagnostic at the tools.yaml span. What each rule refuses and its source are in the catalogue."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from toolc.diagnostics.codes import TARGETS
from toolc.model.schemas import MANY, NAMED, ONE

Where = tuple[str | int, ...]


class Finding(msgspec.Struct, frozen=True):
    code: str
    tool: str
    where: Where  # a path into the descriptor; () is the tool itself
    message: str


def subschemas(schema: Any, where: Where) -> Iterator[tuple[Where, dict[str, Any]]]:
    """Every schema object in `schema`, itself first, with its path."""
    if not isinstance(schema, dict):
        return  # true / false
    yield where, schema
    for key in ONE:
        if key in schema:
            yield from subschemas(schema[key], (*where, key))
    for key in MANY:
        for index, sub in enumerate(schema.get(key) or ()):
            yield from subschemas(sub, (*where, key, index))
    for key in NAMED:
        for name, sub in (schema.get(key) or {}).items():
            yield from subschemas(sub, (*where, key, name))


def _is_object(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return (
        kind == "object"
        or (isinstance(kind, list) and "object" in kind)
        or (kind is None and "properties" in schema)
    )


# --- openai-strict: Structured Outputs' supported subset ------------------------------------
_OPENAI_FORMATS = frozenset(
    ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
)
_OPENAI_REFUSED = ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else")
_OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _openai(descriptor: dict[str, Any]) -> Iterator[tuple[str, Where, str]]:
    name, schema = descriptor["name"], descriptor["inputSchema"]
    if not _OPENAI_NAME.fullmatch(name):
        yield "openai-function-name", (), f"the function name '{name}' is not 1-64 of A-Za-z0-9_-"
    if schema.get("type") != "object" or "anyOf" in schema:
        yield "openai-strict-root", ("inputSchema",), "the parameters' root is not a plain object"
    for where, node in subschemas(schema, ("inputSchema",)):
        if _is_object(node) and node.get("additionalProperties") is not False:
            yield "openai-strict-open-object", where, "an object not closed by additionalProperties"
        missing = sorted(set(node.get("properties") or {}) - set(node.get("required") or ()))
        if missing:
            named = ", ".join(f"'{m}'" for m in missing)
            yield "openai-strict-optional-property", where, f"properties not required: {named}"
        refused = [k for k in _OPENAI_REFUSED if k in node]
        if refused:
            yield "openai-strict-keyword", where, f"unsupported keyword(s): {', '.join(refused)}"
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in _OPENAI_FORMATS:
            yield "openai-strict-format", (*where, "format"), f"unsupported format '{fmt}'"


# --- anthropic: the Messages API's tool definitions -----------------------------------------
# `^[a-zA-Z0-9_-]{1,128}$` (the Define tools page, re-checked 2026-12; it said 64 before).
_ANTHROPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,128}")


def _anthropic(descriptor: dict[str, Any]) -> Iterator[tuple[str, Where, str]]:
    name, schema = descriptor["name"], descriptor["inputSchema"]
    if not _ANTHROPIC_NAME.fullmatch(name):
        yield "anthropic-tool-name", (), f"the tool name '{name}' is not 1-128 of A-Za-z0-9_-"
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            yield "anthropic-top-level-combinator", ("inputSchema", key), f"a top-level {key}"


# --- gemini: FunctionDeclaration.parameters, a subset of the OpenAPI 3.0 Schema object -------
_GEMINI_FIELDS = frozenset(
    ("type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
     "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
     "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum")
)  # fmt: skip
_GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")  # colons too (re-checked 2026-12)


def _gemini(descriptor: dict[str, Any]) -> Iterator[tuple[str, Where, str]]:
    name, schema = descriptor["name"], descriptor["inputSchema"]
    if not _GEMINI_NAME.fullmatch(name):
        yield (
            "gemini-function-name",
            (),
            (
                f"the function name '{name}' does not start with a letter or _, or is not 1-64 of "
                "A-Za-z0-9_.:-"
            ),
        )
    for where, node in subschemas(schema, ("inputSchema",)):
        for key in ("$ref", "$defs"):
            if key in node:
                yield "gemini-ref", (*where, key), f"'{key}' (Gemini resolves no references)"
        if "additionalProperties" in node:
            yield (
                "gemini-additional-properties",
                (*where, "additionalProperties"),
                ("'additionalProperties'"),
            )
        if isinstance(node.get("type"), list):
            yield "gemini-type-list", (*where, "type"), f"a list of types {node['type']}"
        other = sorted(set(node) - _GEMINI_FIELDS - {"$ref", "$defs", "additionalProperties"})
        if other:
            yield "gemini-keyword", where, f"field(s) outside its Schema: {', '.join(other)}"


# --- mcp: the MCP specification's own rules, and what several clients fail on ----------------
_MCP_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def _mcp(descriptor: dict[str, Any]) -> Iterator[tuple[str, Where, str]]:
    name = descriptor["name"]
    if not _MCP_NAME.fullmatch(name):
        yield "mcp-tool-name", (), f"the tool name '{name}' is not 1-128 of A-Za-z0-9_.-"
    elif "." in name or len(name) > 64:
        why = "has a dot" if "." in name else f"has {len(name)} characters"
        yield "mcp-name-portability", (), f"the tool name '{name}' {why}"
    for part in ("inputSchema", "outputSchema"):
        schema = descriptor.get(part)
        if schema is not None and (not isinstance(schema, dict) or schema.get("type") != "object"):
            yield "mcp-root-type", (part,), f"the {part}'s root is not `type: object`"
    schema = descriptor["inputSchema"]
    for where, node in subschemas(schema, ("inputSchema",)):
        if "$ref" in node:
            yield "mcp-ref", (*where, "$ref"), f"a $ref to '{node['$ref']}'"
        kind = node.get("type")
        if isinstance(kind, list) and "null" in kind:
            yield "mcp-nullable-type-list", (*where, "type"), f"`type: {kind}`"


__all__ = ["TARGETS", "Finding", "judge"]

RULES: dict[str, Callable[[dict[str, Any]], Iterator[tuple[str, Where, str]]]] = {
    "openai-strict": _openai,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "mcp": _mcp,
}


def judge(descriptors: list[dict[str, Any]], targets: tuple[str, ...]) -> list[Finding]:
    """Every finding of the targets asked, tool by tool in the order served."""
    return [
        Finding(code, descriptor["name"], where, message)
        for descriptor in descriptors
        for target in targets
        for code, where, message in RULES[target](descriptor)
    ]
