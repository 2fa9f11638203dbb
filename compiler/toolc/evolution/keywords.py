"""The keywords of one schema node, old against new: prose, types, values and constraints.

Each function emits the findings of its keywords through the walk, in the walk's direction:
for inputs a narrowing breaks callers, for outputs a widening does.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, Protocol

from toolc.contract.canonical import canonical_bytes

LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_SHOWN = {"x-toolc-label": "label", "x-toolc-user-prompt": "user_prompt"}
PROSE = {
    "description": "description-changed",
    "title": "title-changed",
    "x-toolc-label": "label-changed",
    "x-toolc-user-prompt": "user-prompt-changed",
    "examples": "examples-changed",
}
_ALL_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


class Emitter(Protocol):
    @property
    def direction(self) -> Literal["input", "output"]: ...

    def emit(self, rule: str, path: str, where: str, what: str) -> None: ...


class Walker(Emitter, Protocol):
    """What the keyword families beyond the first subset read of the walk."""

    @property
    def old_document(self) -> Mapping[str, Any]: ...

    @property
    def new_document(self) -> Mapping[str, Any]: ...

    def note(self, path: str, what: str, *, same_values: bool) -> None: ...

    def fits(self, old: Any, new: Any) -> bool:
        """Whether `old` → `new` alone would be found compatible (no break, no warning)."""
        ...


# Compares a pair of subschemas below the node: (old, new, path, where, in_place), `in_place`
# when the subschema applies to the node's own value (allOf, then, dependentSchemas...).
Sub = Callable[[Any, Any, str, str, bool], None]


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def change(key: str, o: Mapping[str, Any], n: Mapping[str, Any]) -> str:
    """`maxLength 20 → 10`, `minimum 1 added`, `pattern "^a" removed`."""
    if key not in o:
        return f"{key} {show(n.get(key))} added"
    if key not in n:
        return f"{key} {show(o[key])} removed"
    return f"{key} {show(o[key])} → {show(n[key])}"


def _same(a: Any, b: Any) -> bool:
    return canonical_bytes(a) == canonical_bytes(b)


def prose(walk: Emitter, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str) -> None:
    for key, rule in PROSE.items():
        if key in o or key in n:
            old, new = o.get(key), n.get(key)
            if not _same(old, new):
                what = "added" if old is None else "removed" if new is None else "changed"
                walk.emit(rule, f"{path}/{key}", where, f"{_SHOWN.get(key, key)} {what}")
    if (o.get("deprecated") is True) != (n.get("deprecated") is True):
        what = "deprecated" if n.get("deprecated") is True else "no longer deprecated"
        walk.emit("deprecation-changed", f"{path}/deprecated", where, what)


def type_set(schema: Mapping[str, Any]) -> frozenset[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return _ALL_TYPES  # no `type`: any value


def _covered(t: str, types: frozenset[str]) -> bool:
    return t in types or (t == "integer" and "number" in types)  # an integer is a number


def _show_types(types: frozenset[str]) -> str:
    return "any" if types == _ALL_TYPES else " | ".join(sorted(types))


def types(walk: Emitter, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str) -> bool:
    """Classifies a change of `type`; False when the two sides share no type at all."""
    old, new = type_set(o), type_set(n)
    added = {t for t in new if not _covered(t, old)}
    removed = {t for t in old if not _covered(t, new)}
    if not added and not removed:
        return True
    what = f"type changed from {_show_types(old)} to {_show_types(new)}"
    if walk.direction == "input":  # a narrowing breaks
        if removed == {"null"} and not added:
            rule = "nullability-removed"
        elif removed:
            rule = "arg-type-changed"
        else:
            rule = "nullability-added" if added == {"null"} else "arg-type-widened"
    elif added == {"null"} and not removed:  # for outputs a widening does
        rule = "data-field-became-nullable"
    elif added:
        rule = "data-field-type-changed"
    else:
        rule = (
            "data-field-nullability-removed" if removed == {"null"} else "data-field-type-narrowed"
        )
    walk.emit(rule, f"{path}/type", where, what)
    return any(_covered(t, old) for t in new) or any(_covered(t, new) for t in old)


def allowed(schema: Mapping[str, Any]) -> dict[bytes, Any] | None:
    """The values `enum` and `const` allow (a const is an enum of one), None for any value."""
    found: dict[bytes, Any] | None = None
    enum = schema.get("enum")
    if isinstance(enum, list):
        found = {canonical_bytes(v): v for v in enum}
    if "const" in schema:
        const = {canonical_bytes(schema["const"]): schema["const"]}
        found = const if found is None else {k: v for k, v in found.items() if k in const}
    return found


def _show_values(values: list[Any]) -> str:
    label = "value" if len(values) == 1 else "values"
    return f"enum {label} " + ", ".join(show(v) for v in values)


def values(
    walk: Emitter, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str
) -> None:
    """`enum` / `const`, compared as sets of canonical values, and `default`."""
    old, new = allowed(o), allowed(n)
    at = f"{path}/enum" if "enum" in o or "enum" in n else f"{path}/const"
    side = "input" if walk.direction == "input" else "output"
    if old is None and new is not None:
        walk.emit(
            f"{side}-enum-introduced",
            at,
            where,
            f"restricted to {_show_values(list(new.values()))}",
        )
    elif old is not None and new is None:
        walk.emit(f"{side}-enum-dropped", at, where, "no longer restricted to an enum")
    elif old is not None and new is not None:
        gone = [old[k] for k in sorted(old.keys() - new.keys())]
        came = [new[k] for k in sorted(new.keys() - old.keys())]
        if gone:
            walk.emit(f"{side}-enum-value-removed", at, where, f"{_show_values(gone)} removed")
        if came:
            walk.emit(f"{side}-enum-value-added", at, where, f"{_show_values(came)} added")
    if ("default" in o) != ("default" in n) or not _same(o.get("default"), n.get("default")):
        what = "default " + (
            f"{show(o['default'])} → {show(n['default'])}"
            if "default" in o and "default" in n
            else f"{show(n['default'])} added"
            if "default" in n
            else "removed"
        )
        walk.emit("default-changed", f"{path}/default", where, what)
    if not _same(o.get("format"), n.get("format")):
        walk.emit("format-changed", f"{path}/format", where, change("format", o, n))


def _number(value: Any) -> Fraction | None:
    """A keyword's number as the models read it (decision 0133): a float with a fraction as
    the decimal it writes, so `multipleOf` 0.1 → 0.01 loosens (the double of 0.01 does not
    divide the double of 0.1); any other number as its exact value. The runtime's `_ratio`
    reads them alike; the compiler does not import it, which would load pydantic-core
    (36 ms) where evolution needs none."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and math.isfinite(value) and abs(value) < 2**53:
        return Fraction(Decimal(repr(value)))
    return Fraction(value)


def _tighter(key: str, old: Fraction | None, new: Fraction | None) -> bool | None:
    """True if the new bound refuses values the old one accepted, False if it only accepts
    more, None if it is the same bound."""
    if old == new:
        return None
    if old is None or new is None:
        return old is None  # adding a bound tightens, removing one loosens
    if key in LOWER:
        return new > old
    if key in UPPER:
        return new < old
    # multipleOf: loosened only when every old multiple is a new one (new divides old)
    return old <= 0 or new <= 0 or (old / new).denominator != 1


def _multiple_both_ways(old: Fraction | None, new: Fraction | None) -> bool:
    """m → m' where neither divides the other: values are lost (m itself) and gained (m')."""
    if old is None or new is None or old <= 0 or new <= 0:
        return False
    return (old / new).denominator != 1 and (new / old).denominator != 1


_NUMERIC = {"lower": ("minimum", "exclusiveMinimum"), "upper": ("maximum", "exclusiveMaximum")}
Bound = tuple[Fraction, bool]  # the value, and whether it is excluded


def _bound(schema: Mapping[str, Any], side: str) -> Bound | None:
    """The effective numeric bound of one side: the tighter of the inclusive and exclusive
    keywords, and for an integer-only schema as the inclusive integer it amounts to (so
    `exclusiveMinimum: 0` and `minimum: 1` are the same bound)."""
    inclusive, exclusive = (_number(schema.get(k)) for k in _NUMERIC[side])
    found: list[Bound] = []
    if inclusive is not None:
        found.append((inclusive, False))
    if exclusive is not None:
        found.append((exclusive, True))
    if not found:
        return None
    integer = type_set(schema) == frozenset({"integer"})
    if integer:
        lower = side == "lower"
        found = [
            (
                Fraction(
                    (math.floor(v) + 1 if ex else math.ceil(v))
                    if lower
                    else (math.ceil(v) - 1 if ex else math.floor(v))
                ),
                False,
            )
            for v, ex in found
        ]
    if side == "lower":
        return max(found, key=lambda b: (b[0], b[1]))
    return min(found, key=lambda b: (b[0], not b[1]))


def _numeric_tighter(o: Mapping[str, Any], n: Mapping[str, Any], side: str) -> bool | None:
    old, new = _bound(o, side), _bound(n, side)
    if old == new:
        return None
    if old is None or new is None:
        return old is None
    if side == "lower":
        return (new[0], new[1]) > (old[0], old[1])
    return (new[0], not new[1]) < (old[0], not old[1])


def constraints(
    walk: Emitter, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str
) -> None:
    """Bounds, `uniqueItems` and `pattern`."""
    tightened, loosened = (
        ("bound-tightened", "bound-loosened")
        if walk.direction == "input"
        else ("output-constraint-tightened", "output-constraint-loosened")
    )
    for side in ("lower", "upper"):  # minimum and exclusiveMinimum are one bound, read together
        tighter = _numeric_tighter(o, n, side)
        if tighter is not None:
            keys = _NUMERIC[side]
            key = next((k for k in keys if k in n), None) or next(k for k in keys if k in o)
            what = "; ".join(change(k, o, n) for k in keys if o.get(k) != n.get(k))
            walk.emit(tightened if tighter else loosened, f"{path}/{key}", where, what)
    for key in ("minLength", "minItems", "minProperties", "maxLength", "maxItems",
                "maxProperties", "multipleOf"):  # fmt: skip
        old, new = _number(o.get(key)), _number(n.get(key))
        tighter = _tighter(key, old, new)
        if key == "multipleOf" and _multiple_both_ways(old, new):
            tighter = walk.direction == "input"  # each direction sees the loss it cares about
        if tighter is not None:
            what = change(key, o, n)
            walk.emit(tightened if tighter else loosened, f"{path}/{key}", where, what)
    old_unique, new_unique = o.get("uniqueItems") is True, n.get("uniqueItems") is True
    if old_unique != new_unique:
        what = "items must be unique" if new_unique else "items no longer need to be unique"
        walk.emit(tightened if new_unique else loosened, f"{path}/uniqueItems", where, what)
    old_pattern, new_pattern = o.get("pattern"), n.get("pattern")
    if old_pattern != new_pattern:
        what = change("pattern", o, n)
        if walk.direction == "input":
            rule = "pattern-removed" if new_pattern is None else "pattern-changed"
        else:  # an added pattern narrows what callers receive; any other change may widen it
            rule = loosened if old_pattern is not None else tightened
        walk.emit(rule, f"{path}/pattern", where, what)
