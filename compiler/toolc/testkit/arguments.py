"""Arguments for the kit, from a tool's published inputSchema. Valid ones start from the mock
value generator's value (`serve.mock_values`) and vary it with a seeded choice of optional
properties, enum members and nearby values; near-miss invalid ones change one thing (a
required property dropped, a value of the wrong type or shape or just past one of its
bounds, an unknown property, an empty list). Every candidate is checked against the schema
before it is used, so a valid case is valid and a near miss is invalid whatever the schema
says."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from toolc.serve import mock_values
from toolc.serve.mock_values import folded
from toolc.serve.mock_values import items_argument as items_argument  # the mock's choice
from toolc.validate.ecma_regex import search

Args = dict[str, Any]
_WRONG = {"string": 12345, "integer": "12345", "number": "1.5", "boolean": "yes"}
_WRONG_SHAPE = {"array": "not-a-list", "object": "not-an-object"}


def is_valid(value: Any, schema: Any, root: Mapping[str, Any]) -> bool:
    """Whether `value` validates, its patterns read as the models read them (ECMA-262,
    not Python's `re`, which refuses `(?<name>...)` and reads `\\d` otherwise)."""
    return mock_values.is_valid(value, schema, root, search)


def example_value(schema: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> Any:
    return mock_values.example_value(schema, root, search)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def nearby(value: Any, schema: Any, root: Mapping[str, Any], k: int) -> Any:
    """A valid value near `value` (the k-th one), or None: a string's last number moved by
    k (or k appended), a number moved by k, the k-th enum member, an object's fields moved."""
    flat = folded(schema, root)
    if "enum" in flat:
        candidates: list[Any] = [flat["enum"][k % len(flat["enum"])]]
    elif isinstance(value, bool):
        candidates = [not value]
    elif isinstance(value, int | float):
        candidates = [value + k, value - k]
    elif isinstance(value, str):
        runs = list(re.finditer(r"[0-9]+", value))
        candidates = [f"{value}{k}", f"{value[:-1]}{k}"]
        if runs:
            run = runs[-1]
            moved = str(int(run.group()) + k).zfill(len(run.group()))
            candidates.insert(0, value[: run.start()] + moved + value[run.end() :])
    elif isinstance(value, list):
        item = flat.get("items", True)
        moved_items = [nearby(v, item, root, k + n) for n, v in enumerate(value)]
        candidates = [[v if m is None else m for v, m in zip(value, moved_items, strict=True)]]
    elif isinstance(value, dict):
        props = flat.get("properties", {})
        fields = {n: nearby(v, props.get(n, True), root, k) for n, v in value.items()}
        candidates = [{n: value[n] if v is None else v for n, v in fields.items()}]
    else:
        candidates = []
    for candidate in candidates:
        if candidate != value and is_valid(candidate, schema, root):
            return candidate
    return None


def base_arguments(schema: Mapping[str, Any]) -> Args:
    """The generator's value (ValueError when it finds none)."""
    value = example_value(schema)
    if not isinstance(value, dict):
        raise ValueError("$: the inputSchema's value is not an object")
    return value


def fullest_arguments(schema: Mapping[str, Any], base: Args) -> Args:
    """`base` with every optional property the generator can fill, each kept only if the
    whole stays valid: what near misses start from, so optional arguments get theirs."""
    fullest = dict(base)
    for name, prop in folded(schema, schema).get("properties", {}).items():
        if name in fullest:
            continue
        try:
            candidate = dict(fullest, **{name: example_value(prop, schema)})
        except ValueError:
            continue
        if is_valid(candidate, schema, schema):
            fullest = candidate
    return fullest


def valid_arguments(schema: Mapping[str, Any], rng: random.Random, count: int) -> list[Args]:
    """Up to `count` distinct valid argument objects, the generator's own value first."""
    base = base_arguments(schema)
    found, seen = [base], {_key(base)}
    props = folded(schema, schema).get("properties", {})
    for _ in range(count * 8):
        if len(found) >= count:
            break
        candidate = dict(base)
        for name, prop in props.items():
            if name not in candidate and rng.random() < 0.5:
                try:
                    candidate[name] = example_value(prop, schema)
                except ValueError:
                    continue
            if name in candidate and rng.random() < 0.5:
                moved = nearby(candidate[name], prop, schema, rng.randint(1, 40))
                candidate[name] = candidate[name] if moved is None else moved
        if _key(candidate) not in seen and is_valid(candidate, schema, schema):
            seen.add(_key(candidate))
            found.append(candidate)
    return found


def with_items(schema: Mapping[str, Any], base: Args, name: str, n: int, k0: int) -> Args | None:
    """`base` with `n` distinct valid items in `name` (item k near the first), or None."""
    prop = folded(schema, schema)["properties"][name]
    item_schema = folded(prop, schema).get("items", True)  # through a `$ref` too
    items = list(base.get(name) or [])[:1] or [example_value(item_schema, schema)]
    k = k0
    while len(items) < n and k < k0 + 4 * n:
        item = nearby(items[0], item_schema, schema, k)
        if item is not None and _key(item) not in {_key(i) for i in items}:
            items.append(item)
        k += 1
    candidate = dict(base, **{name: items[:n]})
    return candidate if len(items) >= n and is_valid(candidate, schema, schema) else None


def kind_of(schema: Mapping[str, Any]) -> str | None:
    """The one JSON type a schema takes, besides null (a nullable `[array, "null"]` is an
    array argument, its items tested as any other's); None for several or none."""
    declared = schema.get("type")
    kinds = [k for k in (declared if isinstance(declared, list) else [declared]) if k != "null"]
    return kinds[0] if len(kinds) == 1 and isinstance(kinds[0], str) else None


def _beyond_bounds(prop: Mapping[str, Any], value: Any) -> list[tuple[str, Any]]:
    """(bound, value) pairs: `value` moved just past each bound its schema sets (a length,
    a count of items, a number's limits and step), the rest of it kept."""
    found: list[tuple[str, Any]] = []

    def bound(name: str) -> int | float | None:
        limit = prop.get(name)
        if isinstance(limit, bool) or not isinstance(limit, int | float):
            return None
        return limit if abs(limit) < 2**53 else None  # where a step of 1 still moves it

    if isinstance(value, str) and value:
        if (most := bound("maxLength")) is not None:
            found.append(("maxLength", value + value[-1] * (int(most) + 1 - len(value))))
        if (least := bound("minLength")) is not None and least >= 1:
            found.append(("minLength", value[: int(least) - 1]))
    if isinstance(value, list) and value:
        if (most := bound("maxItems")) is not None:
            found.append(("maxItems", (value * (int(most) + 1))[: int(most) + 1]))
        if (least := bound("minItems")) is not None and least >= 2:
            found.append(("minItems", value[: int(least) - 1]))
    if isinstance(value, int | float) and not isinstance(value, bool):
        for name, moved in (("minimum", -1), ("maximum", 1)):
            if (limit := bound(name)) is not None:
                found.append((name, limit + moved))
        for name in ("exclusiveMinimum", "exclusiveMaximum"):
            if (limit := bound(name)) is not None:
                found.append((name, limit))
        if (step := bound("multipleOf")) is not None and step > 0:
            found.append(("multipleOf", value + step / 2))
    return found


def near_misses(schema: Mapping[str, Any], base: Args) -> list[tuple[str, Any]]:
    """(what is wrong, arguments) pairs, each invalid against `schema`."""
    flat = folded(schema, schema)
    props = flat.get("properties", {})
    cases: list[tuple[str, Any]] = []
    for name in flat.get("required", []):
        cases.append((f"required `{name}` missing", {k: v for k, v in base.items() if k != name}))
    for name, value in base.items():
        prop = folded(props.get(name, True), schema)
        kind = kind_of(prop)
        if kind is not None and kind in _WRONG | _WRONG_SHAPE:
            cases.append(
                (f"`{name}` of the wrong type", dict(base, **{name: (_WRONG | _WRONG_SHAPE)[kind]}))
            )
        if kind == "array" and prop.get("minItems", 0) >= 1:
            cases.append((f"`{name}` an empty list", dict(base, **{name: []})))
        if kind == "array" and isinstance(value, list) and value:
            item = folded(prop.get("items", True), schema)
            item_kind = item.get("type")
            wrong = (
                (_WRONG | _WRONG_SHAPE).get(item_kind, "\u0000?")
                if isinstance(item_kind, str)
                else None
            )
            cases.append((f"an item of `{name}` invalid", dict(base, **{name: [wrong]})))
            if prop.get("uniqueItems"):
                cases.append(
                    (f"`{name}` with a repeated item", dict(base, **{name: value[:1] * 2}))
                )
        if kind == "string" and any(k in prop for k in ("pattern", "format", "enum")):
            cases.append(
                (f"`{name}` not matching its pattern/format/enum", dict(base, **{name: "\u0000?"}))
            )
        for bound, beyond in _beyond_bounds(prop, value):
            cases.append((f"`{name}` beyond its {bound}", dict(base, **{name: beyond})))
    if flat.get("additionalProperties") is False:
        cases.append(("an unknown property", dict(base, toolc_kit_unknown=True)))
    cases.append(("every argument null", dict.fromkeys(base, None) or {"": None}))
    return [(what, args) for what, args in cases if not is_valid(args, schema, schema)]
