"""When two subschemas mean the same, and when two can never accept the same value.

The keyword comparisons need both: a union's branches are matched by meaning before they are
compared pairwise, a `not` or an `if` can only be judged when it did not change, and a `oneOf`
is a union only while its branches are pairwise disjoint. Sameness is decided on the schema
with its local `$ref`s expanded (a ref met again inside its own expansion stays a ref: equal
expansions up to there mean equal recursive types), so a branch `{"$ref": "#/$defs/A"}` whose
target changed is not "the same" just because its bytes are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.contract.canonical import canonical_bytes
from toolc.evolution.keywords import LOWER, PROSE, UPPER, allowed, type_set

# Keywords whose value is a schema, a list of schemas, or a map of names to schemas: only
# these are walked (a `const` holding `{"$ref": ...}` is a value, not a reference).
SCHEMA = frozenset(
    {"items", "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties",
     "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
)  # fmt: skip
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})
# Annotations no validator reads: two schemas differing only there accept the same values.
ANNOTATIONS = frozenset(
    {*PROSE, "deprecated", "default", "$comment", "readOnly", "writeOnly", "$anchor"}
)


def pointer(document: Any, ref: str) -> Any:
    """The target of a local `$ref` (`#/$defs/Name`, `#/properties/a`), or None."""
    if ref != "#" and not ref.startswith("#/"):
        return None
    node: Any = document
    for raw in ref[2:].split("/") if ref != "#" else []:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, Mapping) and key in node:
            node = node[key]
        else:
            return None
    return node


# Keywords that read one another within one schema object: beside a `$ref` (or merged into a
# union's branch) two sides touching one group are not the merge of their keywords.
_GROUPS = (
    frozenset({"properties", "patternProperties", "additionalProperties"}),
    frozenset({"prefixItems", "items"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
)
_UNEVALUATED = frozenset({"unevaluatedItems", "unevaluatedProperties"})


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any] | None:
    """One schema object meaning `a` and `b` together, or None when their keywords interact
    (the same keyword with different values, one group of keywords on both sides, or an
    `unevaluated*` beside anything). `b`'s annotations win: a `description` beside a `$ref`
    describes that use."""
    shared = {k for k in a.keys() & b.keys() if k not in ANNOTATIONS}
    both: dict[str, Any] = {}
    for key in sorted(shared):
        value = _conjoined(key, a[key], b[key])
        if value is None:
            return None
        both[key] = value
    asserts_a = {k for k in a if k not in ANNOTATIONS and k != "$defs"}
    asserts_b = {k for k in b if k not in ANNOTATIONS and k != "$defs"}
    if asserts_a and asserts_b and (asserts_a | asserts_b) & _UNEVALUATED:
        return None
    for group in _GROUPS:  # both sides in one group: exact only if they state it alike
        if (
            asserts_a & group
            and asserts_b & group
            and not (asserts_a & group == asserts_b & group == shared & group)
        ):
            return None
    return {**a, **b, **both}


def _conjoined(key: str, a: Any, b: Any) -> Any:
    """One value of `key` meaning both (None if there is none): the tighter of two bounds,
    the union of two `required` lists."""
    if canonical_bytes(a) == canonical_bytes(b):
        return a
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))
    if numbers and key in LOWER:
        return max(a, b)
    if numbers and key in UPPER:
        return min(a, b)
    strings = isinstance(a, list) and isinstance(b, list) and all(isinstance(v, str) for v in a + b)
    if key == "required" and strings:
        return sorted({*a, *b})
    return None


def deref(
    node: Mapping[str, Any], document: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """`node` with its chain of local `$ref`s followed, and the refs followed. Keywords beside
    a `$ref` apply together with its target (2020-12): merged into it where that is exact,
    else the target is kept as an `allOf` branch beside them. A `false` target is `not: {}`.
    A ref that does not resolve, or loops, stays in place (compared as undecidable)."""
    current = dict(node)
    followed: list[str] = []
    while (
        isinstance(ref := current.get("$ref"), str) and ref.startswith("#") and ref not in followed
    ):
        target = pointer(document, ref)
        if isinstance(target, bool):
            target = {} if target else {"not": {}}
        if not isinstance(target, Mapping):
            break
        followed.append(ref)
        siblings = {k: v for k, v in current.items() if k != "$ref"}
        merged = merge(target, siblings)
        if merged is None:  # the target stays whole, as an allOf branch of its own
            branches = siblings.get("allOf")
            current = {**siblings, "allOf": [*(branches if isinstance(branches, list) else []),
                                             dict(target)]}  # fmt: skip
            break
        current = merged
        if current.get("$ref") == ref:  # the sibling was the ref we just followed
            del current["$ref"]
    return current, tuple(followed)


def expand(
    schema: Any, document: Any, *, meaning: bool = True, seen: frozenset[str] = frozenset()
) -> Any:
    """`schema` with its local `$ref`s replaced by their (expanded) targets, `$defs` dropped,
    `required`/`enum` sorted and, for `meaning`, annotations left out."""
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$defs" or (meaning and key in ANNOTATIONS):
            continue
        if key == "$ref" and isinstance(value, str) and value not in seen:
            target = pointer(document, value)
            if target is not None:
                out["allOf"] = [
                    *out.get("allOf", []),
                    expand(target, document, meaning=meaning, seen=seen | {value}),
                ]
                continue
        if key == "allOf" and isinstance(value, list):
            out[key] = [
                *[expand(v, document, meaning=meaning, seen=seen) for v in value],
                *out.get(key, []),
            ]
        elif key in SCHEMA:
            out[key] = expand(value, document, meaning=meaning, seen=seen)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [expand(v, document, meaning=meaning, seen=seen) for v in value]
        elif key in SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {
                k: expand(v, document, meaning=meaning, seen=seen) for k, v in value.items()
            }
        elif key in ("required", "enum") and isinstance(value, list):
            out[key] = sorted(value, key=canonical_bytes)
        else:
            out[key] = value
    # A `$ref` alone is its target: an inline copy of a type and a reference to it are equal.
    if list(out) == ["allOf"] and len(out["allOf"]) == 1 and "$ref" in schema:
        only: Any = out["allOf"][0]
        return only
    return out


def same(old: Any, new: Any, old_doc: Any, new_doc: Any, *, meaning: bool = True) -> bool:
    """Whether two subschemas are the same schema (by `meaning`: apart from annotations)."""
    return canonical_bytes(expand(old, old_doc, meaning=meaning)) == canonical_bytes(
        expand(new, new_doc, meaning=meaning)
    )


def is_any(schema: Any) -> bool:
    """`true`, `{}`, or a schema of annotations only: every value."""
    return schema is True or (
        isinstance(schema, Mapping) and all(k in ANNOTATIONS or k == "$defs" for k in schema)
    )


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


# The kinds of JSON value: "number" stands for a number that is not an integer.
_KINDS = ("null", "boolean", "integer", "number", "string", "array", "object")


def _admits(types: frozenset[str], kind: str) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


def disjoint(a: Any, b: Any, document: Any, depth: int = 0) -> bool:
    """True only when no value can satisfy both schemas (expanded): their types do not meet,
    their listed values do not meet, or both are objects that require one property whose
    schemas are disjoint (a discriminated union). False means "not proven"."""
    if a is False or b is False:
        return True
    if not isinstance(a, Mapping) or not isinstance(b, Mapping) or depth > 8:
        return False
    types_a, types_b = type_set(a), type_set(b)
    if not any(_admits(types_a, k) and _admits(types_b, k) for k in _KINDS):
        return True
    listed_a, listed_b = allowed(a), allowed(b)
    for listed, types in ((listed_a, types_b), (listed_b, types_a)):
        if listed is not None and not any(_admits(types, _kind(v)) for v in listed.values()):
            return True
    if listed_a is not None and listed_b is not None and not listed_a.keys() & listed_b.keys():
        return True
    if types_a <= {"object"} and types_b <= {"object"}:
        shared = set(_names(a.get("required"))) & set(_names(b.get("required")))
        props_a, props_b = _map(a.get("properties")), _map(b.get("properties"))
        return any(
            name in props_a
            and name in props_b
            and disjoint(props_a[name], props_b[name], document, depth + 1)
            for name in sorted(shared)
        )
    return False


def pairwise_disjoint(branches: list[Any], document: Any) -> bool:
    expanded = [expand(b, document) for b in branches]
    return all(disjoint(x, y, document) for i, x in enumerate(expanded) for y in expanded[i + 1 :])


def _names(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
