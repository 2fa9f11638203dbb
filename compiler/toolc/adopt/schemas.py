"""An inputSchema's root split into toolc's keys — `properties` → `args_schema`, `required` →
`requires`, `additionalProperties` → `unknown_args` (or a root `unevaluatedProperties` where it
means the same), the other root keywords → `args_keywords` — and the `$defs` of every imported
schema lifted into the shared `types` under collision-free names, each `$ref` rewritten for
the fragment it now sits in. What cannot be rewritten without changing what the schema accepts
raises `NotCarried`: the tool is skipped, never loosened."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from toolc.adopt.dialect import MANY, NAMED, ONE, as_ref, escape, segments
from toolc.checks.names import PACKAGE_NAMES, TOOL_SUFFIXES
from toolc.contract.canonical import json_key
from toolc.model.naming import pascal

# The root keywords `args_keywords` takes (docs/config.md, args_keywords).
ARGS_KEYWORDS = (
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "$comment",
)
# Root keywords that judge an object by what applicators evaluated: beside them an
# `additionalProperties` schema is not the same as an `unevaluatedProperties` one.
_IN_PLACE = (
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "$ref",
    "unevaluatedProperties",
)
_MEANINGLESS_ON_OBJECTS = (
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "items",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
)
_REFUSED_AT_ROOT = ("$ref", "$id", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "enum", "const")


class NotCarried(Exception):
    """The schema cannot be written in toolc's language with the same meaning (the message
    says where and why)."""


class Types:
    """The shared `types` of the import: each lifted `$defs` entry under a name no other type,
    tool class or package name takes; a leaf schema met twice is one type."""

    def __init__(self, taken: Iterable[str]) -> None:
        self.schemas: dict[str, Any] = {}
        self._classes = set(PACKAGE_NAMES) | set(taken)

    def reserve(self, wanted: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]", "_", wanted) or "Type"
        base = base if re.match(r"[A-Za-z_]", base) else "T_" + base
        name, n = base, 2
        while name in self.schemas or pascal(name) in self._classes:
            name, n = f"{base}{n}", n + 1
        self._classes.add(pascal(name))
        self.schemas[name] = None
        return name

    def same_leaf(self, schema: Any) -> str | None:
        if "$ref" in repr(schema):
            return None
        # Equal as JSON, not as Python values: `True == 1` would merge `enum: [false, true]`
        # into `enum: [0, 1]` and change what one of the tools accepts.
        wanted = _as_json(schema)
        if wanted is None:
            return None
        return next((n for n, s in self.schemas.items() if _as_json(s) == wanted), None)


def _as_json(schema: Any) -> bytes | None:
    """The schema's canonical JSON; None for none, or for one that has none (a number
    JSON cannot write), which is the same as nothing else."""
    return None if schema is None else json_key(schema)


def tool_classes(tools: Iterable[str]) -> set[str]:
    return {pascal(t) + suffix for t in tools for suffix in (*TOOL_SUFFIXES, "Resolved")}


def lift_defs(
    schema: dict[str, Any], types: Types, where: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """`schema` without its root `$defs`, which become types; the old name → the type name."""
    defs = schema.get("$defs", {})
    if not isinstance(defs, dict):
        raise NotCarried(f"{where}/$defs is not an object")
    names: dict[str, str] = {}
    for name, body in defs.items():
        names[name] = types.same_leaf(body) or types.reserve(name)
    for name, body in defs.items():
        if types.schemas.get(names[name]) is None:
            fragment = ["$defs", name]
            types.schemas[names[name]] = rewrite(
                body, fragment, names, f"{where}/$defs/{escape(name)}"
            )
    return {k: v for k, v in schema.items() if k != "$defs"}, names


def rewrite(schema: Any, fragment: list[str], names: dict[str, str], where: str) -> Any:
    """`schema`, found at `fragment` of its root, with every pointer made relative to that
    fragment (`#/$defs/X` of the root: `#/types/<name>`)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        here = f"{where}/{escape(key)}"
        if key == "$ref" and isinstance(value, str):
            out[key] = _pointer(value, fragment, names, here)
        elif key in ONE:
            out[key] = rewrite(value, fragment, names, here)
        elif key in MANY and isinstance(value, list):
            out[key] = [rewrite(s, fragment, names, f"{here}/{i}") for i, s in enumerate(value)]
        elif key in NAMED and isinstance(value, dict):
            out[key] = {
                n: rewrite(s, fragment, names, f"{here}/{escape(n)}") for n, s in value.items()
            }
        else:
            out[key] = value
    return out


def _pointer(ref: str, fragment: list[str], names: dict[str, str], where: str) -> str:
    path = segments(ref)
    if path is None:
        raise NotCarried(f"{where}: the $ref {ref!r} is no pointer into the schema")
    if len(path) == 2 and path[0] == "$defs" and path[1] in names:
        return f"#/types/{names[path[1]]}"
    if path[: len(fragment)] == fragment and (fragment or path[:1] != ["$defs"]):
        return as_ref(path[len(fragment) :])
    raise NotCarried(f"{where}: the $ref {ref!r} points outside the part it is written in")


_UNEVALUATED = "unevaluatedProperties"
# Keywords beside which whether a schema takes null is more than its `type` says.
_DECIDE_MORE = ("$ref", "anyOf", "oneOf", "allOf", "not", "if", "enum", "const")


def _null_default_refused(schema: Any) -> bool:
    """A `default: null` its schema plainly refuses: a `type` without "null", nothing else
    that could decide otherwise."""
    if not isinstance(schema, dict) or "default" not in schema or schema["default"] is not None:
        return False
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return kind is not None and "null" not in kinds and not any(k in schema for k in _DECIDE_MORE)


def split_root(
    schema: dict[str, Any],
    types: Types,
    where: str,
    note: Callable[[str, str], None],
    keep_defaults: bool = False,
) -> dict[str, Any]:
    """The tool keys the inputSchema's root becomes (`args_schema`, `requires`, ...);
    `keep_defaults`: a `default: null` its schema refuses stays (and toolc refuses it)."""
    kind = schema.get("type")
    if kind not in ("object", ["object"]):
        raise NotCarried(f"{where}/type: the arguments are not declared as an object")
    for key in _REFUSED_AT_ROOT:
        if key in schema:
            raise NotCarried(f"{where}/{escape(key)}: toolc's arguments take no root {key}")
    body, names = lift_defs(schema, types, where)
    properties = body.get("properties", {})
    required = body.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        raise NotCarried(f"{where}: properties or required is malformed")
    extra = body.get("additionalProperties", True)
    if isinstance(extra, dict) and not extra:  # `{}` accepts every value, as `true` does
        extra = True
    keys: dict[str, Any] = {}
    # An argument's schema is a mapping in tools.yaml: `true` is `{}`, `false` is `{not: {}}`.
    properties = {
        n: {} if s is True else {"not": {}} if s is False else s for n, s in properties.items()
    }
    args = {
        n: rewrite(s, ["properties", n], names, f"{where}/properties/{escape(n)}")
        for n, s in properties.items()
    }
    for name, arg in args.items():
        if not keep_defaults and _null_default_refused(arg):
            args[name] = {k: v for k, v in arg.items() if k != "default"}
            note(
                f"{where}/properties/{escape(name)}/default",
                "dropped default null, which its schema refuses (pydantic writes it for "
                "`x: int = None`): left out, the argument still reaches the handler as None",
            )
    for name in required:
        if isinstance(name, str) and name not in args:
            # Declared `{}`, it would count as evaluated: only where nothing else judges
            # the undeclared properties is that what the original says of it.
            if extra is not True or "patternProperties" in body or _UNEVALUATED in body:
                raise NotCarried(f"{where}/required: '{name}' is required but not declared")
            args[name] = {}  # required, any value: what the original says of it
    if required:
        keys["requires"] = required
    if extra is False:
        keys["unknown_args"] = "forbid"
    keywords: dict[str, Any] = {}
    if extra is not True and extra is not False:
        if any(k in body for k in _IN_PLACE):
            raise NotCarried(f"{where}/additionalProperties: a schema beside applicators")
        keywords["unevaluatedProperties"] = rewrite(
            extra, [], names, f"{where}/additionalProperties"
        )
    for key, value in body.items():
        if key in ARGS_KEYWORDS:
            keywords[key] = (
                rewrite(value, [], names, f"{where}/{escape(key)}") if key != "$comment" else value
            )
        elif key in _MEANINGLESS_ON_OBJECTS:
            note(f"{where}/{escape(key)}", f"dropped {key}: it never applies to an object")
        elif key not in ("type", "properties", "required", "additionalProperties", "$schema"):
            note(f"{where}/{escape(key)}", f"dropped the root {key}: it only annotates")
    if args:
        keys["args_schema"] = args
    if keywords:
        keys["args_keywords"] = keywords
    return keys


def returns_of(schema: dict[str, Any], types: Types, where: str) -> Any:
    """An outputSchema as `returns`: its `$defs` lifted into types, its dialect dropped."""
    body, names = lift_defs({k: v for k, v in schema.items() if k != "$schema"}, types, where)
    return rewrite(body, [], names, where)
