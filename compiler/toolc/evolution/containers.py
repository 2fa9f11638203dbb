"""The keywords of arrays and objects beyond `items`, `properties` and `additionalProperties`,
old against new: `prefixItems`, `contains` with `minContains`/`maxContains`,
`patternProperties`, `propertyNames`, `dependentRequired`, `dependentSchemas` and
`unevaluatedItems`/`unevaluatedProperties`.

Each subschema position whose absence means "any value" is compared with `{}` where one side
leaves it out, so the findings name the keyword inside (`propertyNames` gaining a `maxLength` is
`bound-tightened` at `.../propertyNames/maxLength`). Where keywords read each other (a pattern
against `additionalProperties`, `contains` against `maxContains`, `unevaluated*` against every
applicator beside it), only what can be decided is compared; the rest is undecidable.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from toolc.evolution.identity import is_any, same
from toolc.evolution.keywords import Sub, Walker, show
from toolc.evolution.views import escape, obj


def arrays(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
           sub: Sub) -> None:  # fmt: skip
    old, new = o.get("prefixItems"), n.get("prefixItems")
    if isinstance(old, list) or isinstance(new, list):
        old_list = old if isinstance(old, list) else []
        new_list = new if isinstance(new, list) else []
        # A position beyond one side's tuple is governed by that side's `items`.
        for i in range(max(len(old_list), len(new_list))):
            a = old_list[i] if i < len(old_list) else o.get("items", {})
            b = new_list[i] if i < len(new_list) else n.get("items", {})
            sub(a, b, f"{path}/prefixItems/{i}", f"{where}[{i}]", False)
    _contains(walk, o, n, path, where, sub)
    _unevaluated(walk, o, n, "unevaluatedItems", path, f"{where}[]", sub)


def _contains(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
              sub: Sub) -> None:  # fmt: skip
    at = f"{path}/contains"
    if "contains" not in o and "contains" not in n:
        for key in ("minContains", "maxContains"):  # without `contains`, they assert nothing
            if o.get(key) != n.get(key):
                walk.note(f"{path}/{key}", f"'{key}' changed at {path}", same_values=True)
        return
    if "contains" not in o:
        walk.emit(f"{walk.direction}-subschema-added", at, where, "contains added")
        return
    if "contains" not in n:
        walk.emit(f"{walk.direction}-subschema-removed", at, where, "contains removed")
        return
    if "maxContains" in o or "maxContains" in n:
        # more items matching may pass the maximum: only an unchanged schema is decidable
        if same(o["contains"], n["contains"], walk.old_document, walk.new_document):
            sub(o["contains"], n["contains"], at, f"{where}[]", True)
        else:
            what = "contains changed beside maxContains"
            walk.emit(f"{walk.direction}-schema-undecided", at, where, what)
    else:
        sub(o["contains"], n["contains"], at, f"{where}[]", True)
    tightened, loosened = (
        ("bound-tightened", "bound-loosened")
        if walk.direction == "input"
        else ("output-constraint-tightened", "output-constraint-loosened")
    )
    for key, default, lower in (("minContains", 1, True), ("maxContains", None, False)):
        was, now = _count(o.get(key, default)), _count(n.get(key, default))
        if was == now:
            continue
        # a maximum added or removed (a minimum always has a value), else the two compared
        tighter = was is None if was is None or now is None else (now > was) == lower
        what = f"{key} {show(o.get(key, default))} → {show(n.get(key, default))}"
        walk.emit(tightened if tighter else loosened, f"{path}/{key}", where, what)


def _count(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(value)


def objects(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
            sub: Sub) -> None:  # fmt: skip
    _patterns(walk, o, n, path, where, sub)
    if "propertyNames" in o or "propertyNames" in n:
        names = f"{where}.(name)" if where else "(name)"
        sub(o.get("propertyNames", {}), n.get("propertyNames", {}), f"{path}/propertyNames",
            names, True)  # fmt: skip
    _dependent_required(walk, o, n, path, where)
    old, new = obj(o.get("dependentSchemas")), obj(n.get("dependentSchemas"))
    for key in sorted(old.keys() | new.keys()):
        at = f"{path}/dependentSchemas/{escape(key)}"
        sub(old.get(key, {}), new.get(key, {}), at, where, True)
    _unevaluated(walk, o, n, "unevaluatedProperties", path, f"{where}.*" if where else "*", sub)


def _patterns(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
              sub: Sub) -> None:  # fmt: skip
    """A pattern on both sides: its schema compared. A pattern added takes its names from
    `additionalProperties`: decidable when the old one accepted any value (the new schema is
    compared with `{}`); a pattern removed gives its names to the new one, likewise."""
    old, new = obj(o.get("patternProperties")), obj(n.get("patternProperties"))
    for pattern in sorted(old.keys() | new.keys()):
        at = f"{path}/patternProperties/{escape(pattern)}"
        names = f"{where}./{pattern}/" if where else f"/{pattern}/"
        if pattern in old and pattern in new:
            sub(old[pattern], new[pattern], at, names, True)
        elif pattern in new and is_any(o.get("additionalProperties", True)):
            sub({}, new[pattern], at, names, True)
        elif pattern in old and is_any(n.get("additionalProperties", True)):
            sub(old[pattern], {}, at, names, True)
        else:
            what = f"pattern {show(pattern)} {'added' if pattern in new else 'removed'} beside " \
                   "additionalProperties"  # fmt: skip
            walk.emit(f"{walk.direction}-schema-undecided", at, where, what)


def _dependent_required(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str,
                        where: str) -> None:  # fmt: skip
    old, new = obj(o.get("dependentRequired")), obj(n.get("dependentRequired"))
    for key in sorted(old.keys() | new.keys()):
        was, now = _names(old.get(key)), _names(new.get(key))
        at = f"{path}/dependentRequired/{escape(key)}"
        if now - was:
            what = f"with '{key}' now requires {', '.join(sorted(now - was))}"
            walk.emit(f"{walk.direction}-dependent-required-added", at, where, what)
        if was - now:
            what = f"with '{key}' no longer requires {', '.join(sorted(was - now))}"
            walk.emit(f"{walk.direction}-dependent-required-removed", at, where, what)


def _names(value: Any) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _unevaluated(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], key: str, path: str,
                 where: str, sub: Sub) -> None:  # fmt: skip
    """What is "unevaluated" depends on every applicator beside it: decidable only when the
    rest of the node means the same on both sides; then the subschema is compared."""
    if key not in o and key not in n:
        return
    at = f"{path}/{key}"
    rest_o = {k: v for k, v in o.items() if k != key}
    rest_n = {k: v for k, v in n.items() if k != key}
    if (is_any(o.get(key, True)) and is_any(n.get(key, True))) or same(
        rest_o, rest_n, walk.old_document, walk.new_document
    ):
        sub(o.get(key, {}), n.get(key, {}), at, where, True)
        return
    what = f"applicators beside {key} changed"
    walk.emit(f"{walk.direction}-schema-undecided", at, where, what)
