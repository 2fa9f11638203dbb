"""The candidate objects and arrays of a mock value: the fewest properties and items the schema
asks for, each built from every keyword that applies to it (`properties`, the
`patternProperties` its name matches, else `additionalProperties`; `prefixItems`, `items`,
`contains` up to `minContains` and, under a `maxContains`, items that do not match it), with
`dependentRequired` / `dependentSchemas` followed for what is present and new names drawn to
fit `propertyNames`. They are only proposals: `mock_values` keeps the ones the evaluator
accepts, so a keyword read loosely here costs a search, never an invalid value."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, Protocol

from toolc.serve.mock_check import Search, value_key

_LIMIT = 64  # new names tried per object
_ROUNDS = 4  # dependencies followed: a property required by one required by another ...


class Generator(Protocol):
    search: Search

    def ok(self, v: Any, s: Any) -> bool: ...
    def flat(self, schema: Any, depth: int = 0) -> dict[str, Any]: ...
    def named(self, name: str, schema: Any, path: str) -> Any: ...
    def candidates(self, schema: Any, path: str) -> Iterator[Any]: ...


def tolerant(parts: list[Iterator[Any]]) -> Iterator[Any]:
    """The values of each part in turn; a part that fails is skipped, and its error
    raised only when no part gave a value."""
    error, found = None, False
    for part in parts:
        try:
            for v in part:
                found = True
                yield v
        except ValueError as e:
            error = error or e
    if error is not None and not found:
        raise error


def _member(gen: Generator, s: dict[str, Any], name: str) -> Any:
    """Every schema that applies to the property `name` of an object of `s`."""
    props = s.get("properties", {})
    subs = [props[name]] if name in props else []
    subs += [sub for p, sub in s.get("patternProperties", {}).items() if gen.search(p, name)]
    if not subs:
        subs = [s.get("additionalProperties", s.get("unevaluatedProperties", True))]
    return subs[0] if len(subs) == 1 else {"allOf": subs}


def _new_names(gen: Generator, s: dict[str, Any], taken: set[str]) -> Iterator[str]:
    """Names for properties beyond the declared ones (for `minProperties`): ones a pattern
    matches first, then ones made for `propertyNames`, then plain ones; each fits it."""
    fits = s.get("propertyNames", True)
    from_patterns = (
        v
        for p in s.get("patternProperties", {})
        for v in itertools.islice(gen.candidates({"type": "string", "pattern": p}, "$"), 8)
    )
    made = itertools.islice(gen.candidates({"allOf": [{"type": "string"}, fits]}, "$"), 16)
    fitting = (v + str(i or "") for v in made for i in range(4))  # `^q`: q, q1, q2 ...
    plain = (f"p{i}" if i else "extra" for i in range(_LIMIT))
    for name in itertools.chain(from_patterns, fitting if fits is not True else (), plain):
        if name not in taken and gen.ok(name, fits):
            taken.add(name)
            yield name


def _names(gen: Generator, s: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """The properties to send, and the schema with the `dependentSchemas` they bring."""
    names: list[str] = []
    whole = s
    for _ in range(_ROUNDS):  # what is present may require more, or bring schemas along
        deps = [sub for n, sub in s.get("dependentSchemas", {}).items() if n in names]
        whole = gen.flat({"allOf": [s, *deps]}) if deps else s
        wanted = [*names, *whole.get("required", [])]
        for n in list(wanted):
            wanted += whole.get("dependentRequired", {}).get(n, [])
        wanted = list(dict.fromkeys(wanted))
        least = whole.get("minProperties", 0)
        wanted += [p for p in whole.get("properties", {}) if p not in wanted][
            : max(0, least - len(wanted))
        ]
        wanted += itertools.islice(_new_names(gen, whole, set(wanted)), max(0, least - len(wanted)))
        if wanted == names:
            break
        names = wanted
    return names, whole


def objects(gen: Generator, s: dict[str, Any], path: str) -> Iterator[Any]:
    names, s = _names(gen, s)
    subs = {n: _member(gen, s, n) for n in names}
    base = {n: gen.named(n, subs[n], f"{path}.{n}") for n in names}
    yield base
    for n in names[:1]:  # variants, for uniqueItems
        yield from ({**base, n: v} for v in gen.candidates(subs[n], f"{path}.{n}"))
    for p in s.get("properties", {}):
        if p not in base:
            sub = _member(gen, s, p)
            yield from ({**base, p: v} for v in gen.candidates(sub, f"{path}.{p}"))


def _item(s: dict[str, Any], i: int, need: int) -> Any:
    """What item `i` of an array of `s` must be (and, for `contains`, is asked to be)."""
    prefix = s.get("prefixItems", [])
    base = prefix[i] if i < len(prefix) else s.get("items", s.get("unevaluatedItems", True))
    if "contains" not in s:
        return base
    if i < need:
        return {"allOf": [base, s["contains"]]}
    return {"allOf": [base, {"not": s["contains"]}]} if "maxContains" in s else base


def arrays(gen: Generator, s: dict[str, Any], path: str) -> Iterator[Any]:
    need = s.get("minContains", 1) if "contains" in s else 0
    least = max(s.get("minItems", 0), need)
    for size in range(least, least + 3):
        out: list[Any] = []
        for i in range(size):
            where = f"{path}[{i}]"
            found = gen.candidates(_item(s, i, need), where)
            if s.get("uniqueItems"):
                found = (v for v in found if value_key(v) not in map(value_key, out))
            for v in itertools.islice(found, 1):
                out.append(v)
            if len(out) <= i:
                raise ValueError(f"{where}: no distinct item validates")
        yield out
