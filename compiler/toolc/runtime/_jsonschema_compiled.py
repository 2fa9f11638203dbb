"""The evaluator's verdict, compiled: each schema node becomes, once, a closure that
runs only the checks that node has, with its constants (an `enum`'s keys, a
`multipleOf`'s exact factor, its subschemas' closures) made ahead. A model's check
walked every keyword of every node on every call, and rebuilt an enum's keys each
time; this judges exactly as `Evaluator` does (the differential tests compare both)
in a fraction of the time.

A node with `unevaluatedProperties`/`unevaluatedItems` needs the annotations of its
subschemas: it is judged by the interpreter (`Evaluator._eval`), which collects them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import to_json

from ._jsonschema_eval import (
    Evaluator,
    _key,
    _kind,
    _multiple,
    _multiple_of_ratio,
    _ratio,
)

Check = Callable[[Any], bool]
_KINDS: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    list: "array",
    dict: "object",
    type(None): "null",
}
_MEMBERS = frozenset(
    {"properties", "patternProperties", "additionalProperties", "propertyNames"}
)


def _yes(value: Any) -> bool:
    return True


def _no(value: Any) -> bool:
    return False


class CompiledEvaluator(Evaluator):
    """An `Evaluator` whose `valid` runs compiled checks (memoized by node, which the
    document keeps alive)."""

    def __init__(self, document: Any, patterns: dict[str, str]) -> None:
        super().__init__(document, patterns)
        self._checks: dict[int, tuple[Any, Check]] = {}
        self._keywords: dict[tuple[int, str], tuple[Any, Check]] = {}  # `holds`

    def valid(self, schema: Any, value: Any) -> bool:
        return self.check_of(schema)(value)

    def holds(self, schema: dict[str, Any], key: str, value: Any) -> bool:
        entry = self._keywords.get((id(schema), key))
        if entry is None or entry[0] is not schema:
            entry = (schema, self._compile({key: schema[key]}))
            self._keywords[(id(schema), key)] = entry
        return entry[1](value)

    def check_of(self, schema: Any) -> Check:
        if schema is True or schema is False:
            return _yes if schema else _no
        entry = self._checks.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = (schema, self._compile(schema))
            self._checks[id(schema)] = entry
        return entry[1]

    def _compile(self, s: dict[str, Any]) -> Check:
        if "unevaluatedProperties" in s or "unevaluatedItems" in s:
            return lambda v: self._eval(s, v) is not None
        general = self._general(s)
        kinds: dict[str, tuple[Check, ...]] = {}
        for kind, made in (
            ("integer", self._numeric(s)),
            ("number", self._numeric(s)),
            ("string", self._string(s)),
            ("array", self._array_checks(s)),
            ("object", self._object_checks(s)),
        ):
            if made:
                kinds[kind] = tuple(made)
        types = s.get("type")
        allowed: frozenset[str] | None = None
        if types is not None:
            allowed = frozenset(types if isinstance(types, list) else (types,))
            if "number" in allowed:
                allowed |= {"integer"}
        if allowed is None and not general and not kinds:
            return _yes
        checks = tuple(general)
        if allowed is not None and not checks and not kinds:
            return lambda v: (_KINDS.get(type(v)) or _kind(v)) in allowed
        # one tuple per kind of value: the checks of every kind, then its own
        per_kind = {kind: checks + own for kind, own in kinds.items()}

        def check(v: Any) -> bool:
            kind = _KINDS.get(type(v)) or _kind(v)
            if allowed is not None and kind not in allowed:
                return False
            for one in per_kind.get(kind, checks):  # a loop: all() adds a frame
                if not one(v):
                    break
            else:
                return True
            return False

        return check

    def _general(self, s: dict[str, Any]) -> list[Check]:
        """The checks of every kind of value: `const`, `enum`, `$ref`, the logic and the
        conditionals."""
        made: list[Check] = []
        if "const" in s:
            made.append(_among((s["const"],)))
        if "enum" in s:
            made.append(_among(s["enum"]))
        if "$ref" in s:
            made.append(self._ref_check(s["$ref"]))
        subs = [self.check_of(sub) for sub in s.get("allOf", ())]
        made.extend(subs)
        if "anyOf" in s:
            any_of = tuple(self.check_of(sub) for sub in s["anyOf"])
            made.append(lambda v: any(one(v) for one in any_of))
        if "oneOf" in s:
            one_of = tuple(self.check_of(sub) for sub in s["oneOf"])
            made.append(lambda v: _exactly_one(one_of, v))
        if "not" in s:
            negated = self.check_of(s["not"])
            made.append(lambda v: not negated(v))
        if "if" in s:
            cond = self.check_of(s["if"])
            then = self.check_of(s.get("then", True))
            other = self.check_of(s.get("else", True))
            made.append(lambda v: then(v) if cond(v) else other(v))
        return made

    def _ref_check(self, ref: str) -> Check:
        """`$ref`, resolved at its first use: a recursive schema compiles lazily."""
        target: list[Check] = []

        def check(v: Any) -> bool:
            if not target:
                target.append(self.check_of(self.resolve(ref)))
            return target[0](v)

        return check

    def _numeric(self, s: dict[str, Any]) -> list[Check]:
        made: list[Check] = []
        if "multipleOf" in s:
            factor = s["multipleOf"]
            if isinstance(factor, int):
                made.append(lambda v: _multiple(v, factor))
            else:
                c, d = _ratio(factor)
                made.append(lambda v: _multiple_of_ratio(v, c, d))
        if "minimum" in s and "maximum" in s:
            least, most = s["minimum"], s["maximum"]
            made.append(lambda v: least <= v <= most)
        elif "minimum" in s:
            made.append(_at_least(s["minimum"]))
        elif "maximum" in s:
            made.append(_at_most(s["maximum"]))
        if "exclusiveMinimum" in s:
            made.append(_above(s["exclusiveMinimum"]))
        if "exclusiveMaximum" in s:
            made.append(_below(s["exclusiveMaximum"]))
        return made

    def _string(self, s: dict[str, Any]) -> list[Check]:
        made: list[Check] = []
        if "minLength" in s or "maxLength" in s:
            least, most = s.get("minLength", 0), s.get("maxLength")
            made.append(_sized(least, most))
        if "pattern" in s:
            pattern = s["pattern"]
            made.append(lambda v: self._search(pattern, v))
        return made

    def _array_checks(self, s: dict[str, Any]) -> list[Check]:
        made: list[Check] = []
        if "minItems" in s or "maxItems" in s:
            made.append(_sized(s.get("minItems", 0), s.get("maxItems")))
        if s.get("uniqueItems") is True:
            made.append(_distinct)
        prefix = tuple(self.check_of(sub) for sub in s.get("prefixItems", ()))
        rest = self.check_of(s["items"]) if "items" in s else None
        if prefix or (rest is not None and rest is not _yes):
            made.append(lambda v: _items(prefix, rest, v))
        if "contains" in s:
            contains = self.check_of(s["contains"])
            least, most = s.get("minContains", 1), s.get("maxContains")
            made.append(lambda v: _counted(contains, least, most, v))
        return made

    def _object_checks(self, s: dict[str, Any]) -> list[Check]:
        made: list[Check] = []
        if "minProperties" in s or "maxProperties" in s:
            made.append(_sized(s.get("minProperties", 0), s.get("maxProperties")))
        required = frozenset(s.get("required", ()))
        if required:  # `keys() >=` is a loop in C
            made.append(lambda v: not isinstance(v, dict) or v.keys() >= required)
        for name, needs in s.get("dependentRequired", {}).items():
            made.append(_depends(name, tuple(needs)))
        for name, sub in s.get("dependentSchemas", {}).items():
            made.append(_when_present(name, self.check_of(sub)))
        if not _MEMBERS.isdisjoint(s):
            made.append(self._members(s))
        return made

    def _members(self, s: dict[str, Any]) -> Check:
        """`properties`, `patternProperties`, `additionalProperties`, `propertyNames`:
        each member by the subschemas its name selects."""
        props = {
            name: self.check_of(sub) for name, sub in s.get("properties", {}).items()
        }
        patterns = tuple(
            (p, self.check_of(sub)) for p, sub in s.get("patternProperties", {}).items()
        )
        extra = (
            self.check_of(s["additionalProperties"])
            if "additionalProperties" in s
            else None
        )
        names = self.check_of(s["propertyNames"]) if "propertyNames" in s else None
        search = self._search

        def check(v: Any) -> bool:
            if not isinstance(v, dict):  # an object that is no dict: as `_object`
                return True
            for name, item in v.items():
                one = props.get(name)
                matched = one is not None
                if one is not None and not one(item):
                    return False
                for pattern, sub in patterns:
                    if search(pattern, name):
                        matched = True
                        if not sub(item):
                            return False
                if not matched and extra is not None and not extra(item):
                    return False
                if names is not None and not names(name):
                    return False
            return True

        return check


def _among(allowed: list[Any] | tuple[Any, ...]) -> Check:
    """`enum` (`const`: one value): a string, the commonest, is looked up as itself."""
    keys = frozenset(_key(e) for e in allowed)
    strings = frozenset(e for e in allowed if type(e) is str)
    values = list(allowed)
    # Python's == holds wherever JSON's does, and runs in C. It also takes true for 1
    # (and 1.0): where no allowed value holds a boolean, a 0 or a 1, it decides alone.
    exact = not any(map(_may_confuse, values))
    texts = frozenset(map(_text, values)) - {None}

    def among(v: Any) -> bool:
        if type(v) is str:
            return v in strings
        if v not in values:
            return False
        # Else the same JSON text (true is not 1 there) is the same value, found in
        # C; a text of its own may still be equal (1.0 for 1, keys in another order).
        return exact or _text(v) in texts or _key(v) in keys

    return among


def _text(value: Any) -> bytes | None:
    try:
        return to_json(value)
    except ValueError:  # not JSON (a tuple is; an object of some other class is not)
        return None


def _may_confuse(value: Any) -> bool:
    """Whether a JSON value holds a boolean, a 0 or a 1 (Python's true == 1)."""
    if type(value) is str or value is None:
        return False
    if isinstance(value, bool | int | float):
        return isinstance(value, bool) or value in (0, 1)
    if isinstance(value, list):
        return any(map(_may_confuse, value))
    return any(map(_may_confuse, value.values()))


def _distinct(v: list[Any]) -> bool:
    """`uniqueItems`. Two values equal as JSON are equal in Python (which also takes
    true for 1): items distinct in a set, in C, are distinct. Only a duplicate found
    there, or an unhashable item (an object, an array), needs the JSON keys."""
    try:
        if len(set(v)) == len(v):
            return True
    except TypeError:
        pass
    return len(set(map(_key, v))) == len(v)


def _at_least(bound: Any) -> Check:
    return lambda v: v >= bound


def _at_most(bound: Any) -> Check:
    return lambda v: v <= bound


def _above(bound: Any) -> Check:
    return lambda v: v > bound


def _below(bound: Any) -> Check:
    return lambda v: v < bound


def _sized(least: int, most: int | None) -> Check:
    if most is None:
        return lambda v: len(v) >= least
    return lambda v: least <= len(v) <= most


def _depends(name: str, needs: tuple[str, ...]) -> Check:
    return lambda v: name not in v or all(n in v for n in needs)


def _when_present(name: str, sub: Check) -> Check:
    return lambda v: not isinstance(v, dict) or name not in v or sub(v)


def _exactly_one(subs: tuple[Check, ...], v: Any) -> bool:
    passed = 0
    for one in subs:
        if one(v):
            passed += 1
            if passed > 1:
                return False
    return passed == 1


def _items(prefix: tuple[Check, ...], rest: Check | None, v: list[Any]) -> bool:
    for index, item in enumerate(v):
        one = prefix[index] if index < len(prefix) else rest
        if one is not None and not one(item):
            return False
    return True


def _counted(contains: Check, least: int, most: int | None, v: list[Any]) -> bool:
    found = sum(1 for item in v if contains(item))
    return least <= found and (most is None or found <= most)
