"""The dialect of an imported schema, made 2020-12 (the only one toolc publishes) without
changing what it accepts: a draft-07 schema (the TypeScript SDK stamps one) has `definitions`,
`dependencies`, array `items` and `additionalItems` rewritten into their 2020-12 spellings, and
what draft-07 ignores dropped (the siblings of a `$ref`, the keywords it does not know), so
that no keyword becomes active by the move. Keys that are no keyword at all only annotate, in
either dialect: they are dropped and named. Pointers are rewritten with the keywords."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

DRAFT_07 = ("http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema")
DRAFT_2020_12 = (
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
)

ONE = {
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
}
MANY = {"prefixItems", "allOf", "anyOf", "oneOf"}
NAMED = {"properties", "patternProperties", "$defs", "dependentSchemas"}
_VALUES = {
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "required",
    "dependentRequired",
    "minProperties",
    "maxProperties",
    "$ref",
    "default",
    "examples",
    "description",
    "title",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$anchor",
    "contentEncoding",
    "contentMediaType",
    "$schema",
    "$id",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "label",
    "user_prompt",
}
KEYWORDS_2020 = ONE | MANY | NAMED | _VALUES
# What draft-07 does not know: ignored there, so a draft-07 schema that writes one means nothing.
_NEW_IN_2020 = {
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$defs",
    "dependentSchemas",
    "dependentRequired",
    "minContains",
    "maxContains",
    "contentSchema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
}
_DRAFT_07_ONLY = {"definitions", "dependencies", "additionalItems"}

Notes = list[tuple[str, str]]  # (pointer in the original schema, what was done there)


def escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def pointer(path: list[str]) -> str:
    return "".join("/" + escape(p) for p in path)


def segments(ref: str) -> list[str] | None:
    """The segments of a local JSON pointer (`#/a/b`), None for any other reference."""
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if fragment == "":
        return []
    if not fragment.startswith("/"):
        return None  # an anchor
    return [s.replace("~1", "/").replace("~0", "~") for s in fragment[1:].split("/")]


def as_ref(path: list[str]) -> str:
    return "#" + quote(pointer(path), safe="/~$!'()*+,;=:@-._")


def draft07_pointer(root: Any, path: list[str]) -> list[str] | None:
    """A draft-07 pointer's segments in the translated schema (None: it leads nowhere)."""
    out: list[str] = []
    node, i = root, 0
    while i < len(path):
        key = path[i]
        if not isinstance(node, dict) or key not in node:
            return None
        value = node[key]
        if key in ("definitions", "properties", "patternProperties", "dependencies"):
            if i + 1 >= len(path) or not isinstance(value, dict) or path[i + 1] not in value:
                return None
            name = path[i + 1]
            renamed = {"definitions": "$defs", "dependencies": "dependentSchemas"}.get(key, key)
            out += [renamed, name]
            node, i = value[name], i + 2
        elif key in ("items", "allOf", "anyOf", "oneOf") and isinstance(value, list):
            if i + 1 >= len(path) or not path[i + 1].isdigit() or int(path[i + 1]) >= len(value):
                return None
            out += ["prefixItems" if key == "items" else key, path[i + 1]]
            node, i = value[int(path[i + 1])], i + 2
        elif key == "additionalItems":
            out.append("items")
            node, i = value, i + 1
        else:
            out.append(key)
            node, i = value, i + 1
    return out


def translate(schema: Any, draft07: bool, root: Any, notes: Notes, at: list[str]) -> Any:
    """`schema` (found at `at` in `root`) in 2020-12, meaning the same; `notes` says what moved."""
    if not isinstance(schema, dict):
        return schema
    if draft07 and "$ref" in schema:
        ignored = sorted(k for k in schema if k not in ("$ref", "definitions"))
        if ignored:
            notes.append(
                (pointer(at), f"dropped {', '.join(ignored)} beside $ref (draft-07 ignores them)")
            )
        schema = {k: v for k, v in schema.items() if k in ("$ref", "definitions")}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        here = [*at, key]
        if draft07 and key == "$defs" and isinstance(value, dict) and "definitions" not in schema:
            # Not a draft-07 keyword, but a `$ref` pointer reaches into any object of the
            # document, so a draft-07 schema may keep its subschemas there (zod does).
            out[key] = {n: translate(s, draft07, root, notes, [*here, n]) for n, s in value.items()}
        elif draft07 and key in _NEW_IN_2020:
            notes.append((pointer(here), f"dropped {key}, a keyword draft-07 ignores"))
        elif draft07 and key in _DRAFT_07_ONLY:
            _draft07_keyword(schema, key, value, root, notes, here, out)
        elif draft07 and key == "items" and isinstance(value, list):
            out["prefixItems"] = [
                translate(s, draft07, root, notes, [*here, str(i)]) for i, s in enumerate(value)
            ]
        elif key == "$ref" and isinstance(value, str):
            out[key] = _ref(value, draft07, root)
        elif key in ONE:
            out[key] = translate(value, draft07, root, notes, here)
        elif key in MANY and isinstance(value, list):
            out[key] = [
                translate(s, draft07, root, notes, [*here, str(i)]) for i, s in enumerate(value)
            ]
        elif key in NAMED and isinstance(value, dict):
            out[key] = {n: translate(s, draft07, root, notes, [*here, n]) for n, s in value.items()}
        elif key in KEYWORDS_2020:
            out[key] = value
        else:
            notes.append(
                (pointer(here), f"dropped {key}: no JSON Schema keyword, so it only annotates")
            )
    return out


def _ref(value: str, draft07: bool, root: Any) -> str:
    path = segments(value)
    if not draft07 or path is None:
        return value
    moved = draft07_pointer(root, path)
    return value if moved is None else as_ref(moved)


def _draft07_keyword(
    schema: dict[str, Any],
    key: str,
    value: Any,
    root: Any,
    notes: Notes,
    here: list[str],
    out: dict[str, Any],
) -> None:
    if key == "definitions" and isinstance(value, dict):
        out["$defs"] = {n: translate(s, True, root, notes, [*here, n]) for n, s in value.items()}
    elif key == "additionalItems":
        if isinstance(schema.get("items"), list):
            out["items"] = translate(value, True, root, notes, here)
        else:
            notes.append(
                (
                    pointer(here),
                    "dropped additionalItems: without an array `items`, draft-07 ignores it",
                )
            )
    elif key == "dependencies" and isinstance(value, dict):
        for name, dependency in value.items():
            if isinstance(dependency, list):
                out.setdefault("dependentRequired", {})[name] = dependency
            else:
                out.setdefault("dependentSchemas", {})[name] = translate(
                    dependency, True, root, notes, [*here, name]
                )
    else:
        out[key] = value  # malformed: left as written, for the compiler to refuse
