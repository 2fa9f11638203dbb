"""Words for values and places in diagnostics: what a value is, where a path points."""

from __future__ import annotations

from toolc.source.document import JsonPath

# The keywords toolc refuses in a schema (an unknown key that is one of these gets
# `unsupported-keyword`, not `unknown-key`), each with why and what to write instead.
UNSUPPORTED_KEYWORDS = {
    "$id": "a schema's identity would change with every tool that publishes it; toolc "
    "publishes self-contained schemas: remove it, and point with `#/$defs/...` or `#/types/...`",
    "$dynamicRef": "it resolves along the evaluation path, which no generated type can follow: "
    "use `$ref` with a JSON pointer",
    "$dynamicAnchor": "`$dynamicRef` is refused, so a dynamic anchor has no use: remove it",
    "$vocabulary": "it belongs in a metaschema, and toolc publishes plain 2020-12: remove it",
    "$schema": "the dialect is declared once per tool, as `args_keywords.$schema`; inside a "
    "fragment it would start a separate resource: remove it",
    "definitions": "draft 7's name: write `$defs` (and point at `#/$defs/<Name>`)",
    "dependencies": "draft 7's keyword: write `dependentRequired` (names) or "
    "`dependentSchemas` (schemas)",
    "additionalItems": "draft 7's keyword: write `prefixItems` for the first elements and "
    "`items` for the rest",
    "nullable": 'OpenAPI\'s keyword: add "null" to `type` (`type: [string, "null"]`)',
    "discriminator": "OpenAPI's keyword: write `oneOf` of objects whose tag property has a "
    "`const`; toolc makes it a discriminated union",
}
JSON_SCHEMA_KEYWORDS = frozenset(UNSUPPORTED_KEYWORDS)

TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def show(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value).replace("None", "null").replace("True", "true").replace("False", "false")


def where(path: JsonPath) -> str:
    """Name the place a path points at, for messages: "tool 'x'", "`multi_item` of tool 'x'",
    "argument 'a' of tool 'x'", "policy 'y'", "type 'T'", "`tools`"."""
    if len(path) >= 4 and path[0] == "tools" and path[2] in ("args_schema", "accepts"):
        return f"argument '{path[3]}' of tool '{path[1]}'"
    if len(path) >= 2 and path[0] in ("tools", "tool_policies", "types"):
        owner = {"tools": "tool", "tool_policies": "policy", "types": "type"}[str(path[0])]
        named = f"{owner} '{path[1]}'"
        keys = [p for p in path[2:] if isinstance(p, str)]
        return f"`{keys[-1]}` of {named}" if keys else named
    if path:
        return f"`{path[0]}`"
    return "the top level of the file"
