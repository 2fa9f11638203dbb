"""Where a generated type cannot say all its schema says, and the published schema is checked
instead (`conforms`, `CheckedModel`: the package's evaluator, `_jsonschema_eval.py`).

The lowering types every schema as a superset of what it accepts, exactly where it can
(`NATIVE` keywords, `anyOf` as a union, `oneOf` as a discriminated union); a schema with
anything more is checked as a whole against the published schema. A value the model accepts
then passed its types and every check on its way: exactly what the schema accepts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolc.model.schemas import DEFS_REF, MANY, NAMED, ONE, VALUES, pointer_segment
from toolc.validate.ecma_regex import Translated, translate

ANNOTATIONS = frozenset((
    "description", "title", "examples", "default", "deprecated", "format", "x-toolc-label",
    "x-toolc-user-prompt", "$comment", "$anchor", "readOnly", "writeOnly", "contentEncoding",
    "contentMediaType", "contentSchema", "$defs", "$schema",
))  # fmt: skip
# Keywords the lowered types honour exactly (given their subschemas are honoured).
NATIVE = ANNOTATIONS | {
    "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "items",
    "properties", "required", "additionalProperties",
}  # fmt: skip
# A double holds every integer up to 2**53 exactly, and pydantic's `float` rounds any other
# to the nearest double: a bound below it judges the rounded integer as it would the integer
# (both lie on the same side), one at or beyond it may not (2**53 + 1 passes `> 2**53` and
# its double does not). Such a bound is the published schema's check, not the float's.
DOUBLE_EXACT = 2**53
BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
# Keywords that say something of one JSON type only (a schema without `type` but with one
# of them is typed as the union of every JSON type).
TYPE_SPECIFIC = frozenset((
    "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minItems", "maxItems", "items", "properties", "required",
    "additionalProperties", "uniqueItems",
))  # fmt: skip
# Keywords that give a schema a type of its own (a union of them is lowered only without).
TYPED = frozenset(NATIVE - ANNOTATIONS) | {"$ref", "prefixItems", "contains"}


def type_ref(schema: dict[str, Any], type_names: dict[str, str]) -> str | None:
    """The shared type (or envelope part) a `$ref` names, when it names one."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(DEFS_REF) and ref[len(DEFS_REF) :] in type_names:
        return ref[len(DEFS_REF) :]
    return None


def needs_check(schema: Any, exact: str | None) -> bool:
    """Whether the lowered type of `schema` is wider than the schema: a keyword beyond the
    native ones (but `exact`: the `anyOf` / `oneOf` the lowering made an exact union), a
    `false` subschema (typed `Any`), `items` beside `prefixItems`, `additionalProperties`
    beside `patternProperties` (each then means less than the type would say)."""
    if not isinstance(schema, dict):
        return False
    keys = set(schema) - NATIVE - {exact}
    if keys or beyond_double(schema):
        return True
    if schema.get("items") is False:
        return True
    return any(sub is False for sub in (schema.get("properties") or {}).values())


def may_be_number(schema: dict[str, Any]) -> bool:
    """Whether `schema` may take a number (pydantic's `float` then rounds an integer
    beyond 2**53 before any later check sees it)."""
    kind = schema.get("type", "number")
    return "number" in (kind if isinstance(kind, list) else [kind])


def judged_as_double(bound: Any) -> bool:
    """Whether pydantic's `float` judges a bound as the schema does (one below 2**53)."""
    return type(bound) not in (int, float) or abs(bound) < DOUBLE_EXACT


def beyond_double(schema: dict[str, Any]) -> bool:
    """Whether a number `schema` may take has a bound a double cannot judge."""
    return may_be_number(schema) and not all(judged_as_double(schema.get(key)) for key in BOUNDS)


# The subschemas a lowered type is made of (a value they type is what a check reads later).
TYPING_ONE = ("items", "additionalProperties")
TYPING_MANY = ("anyOf", "oneOf", "allOf")


def types_float(schema: Any) -> bool:
    """Whether the lowered type of `schema` may be pydantic's `float` itself: a `type`
    with `number`, or none with a keyword of some type (then every JSON type is one)."""
    if not isinstance(schema, dict) or not {"$ref", "enum", "const"}.isdisjoint(schema):
        return False
    if "type" in schema:
        return may_be_number(schema)
    return not TYPE_SPECIFIC.isdisjoint(schema)


def holds_numbers(schema: Any, resolve: Callable[[str], Any]) -> bool:
    """Whether a value of `schema` may hold a `float` below its top (an item, a member,
    an alternative; `$ref`s followed with `resolve`): that number reaches a check of
    `schema` made after validation as its double."""
    seen: set[int] = set()

    def below(node: Any) -> list[Any]:
        if not isinstance(node, dict) or id(node) in seen:
            return []
        seen.add(id(node))
        # beside `prefixItems`, `items` types nothing (the items are `Any`)
        skip = "items" if "prefixItems" in node else None
        found = [node[k] for k in TYPING_ONE if k in node and k != skip]
        found += [v for k in TYPING_MANY for v in node.get(k) or ()]
        found += list((node.get("properties") or {}).values())
        ref = node.get("$ref")
        return found + ([resolve(ref)] if isinstance(ref, str) else [])

    def holds(node: Any) -> bool:
        return any(types_float(sub) or holds(sub) for sub in below(node))

    return holds(schema)


def pointers(document: Any) -> dict[int, str]:
    """Each schema object of a published document by identity, with its JSON pointer (the
    lowering is handed these very objects, so it finds where each one is published)."""
    found: dict[int, str] = {}
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        at, node = stack.pop()
        if not isinstance(node, dict):
            continue
        found.setdefault(id(node), at)
        for key, value in node.items():
            if key in VALUES:
                continue
            if key in ONE:
                stack.append((f"{at}/{pointer_segment(key)}", value))
            elif key in MANY and isinstance(value, list):
                step = f"{at}/{pointer_segment(key)}"
                stack += [(f"{step}/{i}", sub) for i, sub in enumerate(value)]
            elif key in NAMED and isinstance(value, dict):
                step = f"{at}/{pointer_segment(key)}"
                stack += [(f"{step}/{pointer_segment(n)}", sub) for n, sub in value.items()]
    return found


def patterns(document: Any, out: dict[str, str]) -> dict[str, str]:
    """Every pattern of a document (`pattern`, `patternProperties` keys) with its translation
    for the Rust engine (`check` refused every pattern that has none)."""
    if isinstance(document, list):
        for item in document:
            patterns(item, out)
    elif isinstance(document, dict):
        for key, value in document.items():
            if key in VALUES:
                continue
            found = [value] if key == "pattern" and isinstance(value, str) else []
            if key == "patternProperties" and isinstance(value, dict):
                found = list(value)
            for pattern in found:
                translated = translate(pattern)
                if isinstance(translated, Translated):
                    out[pattern] = translated.pattern
            patterns(value, out)
    return out
