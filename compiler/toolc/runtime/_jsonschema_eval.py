"""A JSON Schema 2020-12 evaluator for what pydantic cannot say natively (`oneOf`'s
exactly-one, `not`, `if`/`then`/`else`, `contains`, `multipleOf`, `patternProperties`,
`unevaluated*`, ...): the generated models run it on the values their types leave
undecided, against the published schema itself, so they judge as that schema does.

Only local JSON pointers are resolved (toolc refuses every other `$ref`). `format`
and the content keywords are annotations, as 2020-12 says. A pattern means what
ECMA-262 (u flag) says: toolc ships each one translated for pydantic's linear-time Rust
engine beside the schema (`patterns`), and that engine runs it. Standard library and
pydantic only."""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any
from urllib.parse import unquote

from pydantic_core import SchemaValidator, core_schema

_Seen = tuple[set[str], set[int]]  # properties and items an evaluation evaluated
_Applicator = Callable[[dict[str, Any], Any], "_Seen | None"]
# The keywords each applicator reads: a schema with none of them skips it.
_REF = frozenset({"$ref"})
_LOGIC = frozenset({"allOf", "anyOf", "oneOf", "not"})
_CONDITIONAL = frozenset({"if", "dependentSchemas"})
_OBJECT = frozenset(
    {"properties", "patternProperties", "additionalProperties", "propertyNames"}
)
_ARRAY = frozenset({"prefixItems", "items", "contains"})


@functools.lru_cache(maxsize=1024)
def _regex(rust: str) -> SchemaValidator:
    # `isinstance_python` answers without raising: a miss cost 1.2 µs as an exception
    return SchemaValidator(
        core_schema.str_schema(pattern=rust, regex_engine="rust-regex")
    )


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _key(value: Any) -> Any:
    """Hashable, equal exactly when JSON Schema calls two values equal (1 is 1.0)."""
    kind = type(value)  # JSON's own types first: most values are one of them
    if kind is str:
        return ("str", value)
    if kind is int or kind is float:
        return ("number", value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(map(_key, value)))
    keys = value.keys()
    return ("object", frozenset(zip(keys, map(_key, value.values()), strict=True)))


def _multiple(value: Any, factor: Any) -> bool:
    if isinstance(value, int) and isinstance(factor, int):
        return value % factor == 0
    return _multiple_of_ratio(value, *_ratio(factor))


def _multiple_of_ratio(value: Any, c: int, d: int) -> bool:
    """Whether `value` is a multiple of c/d (in lowest terms, d > 0)."""
    a, b = _ratio(value)
    return (a * d) % (b * c) == 0  # a/b ÷ c/d = ad/bc


def _ratio(number: Any) -> tuple[int, int]:
    """A number as an exact fraction in lowest terms. A float with a fraction is read as
    its shortest repr, the decimal its JSON text writes (0.07 is a multiple of 0.01). A
    float at or beyond 2**53 is an integer: its own value, as bounds and `integer`
    positions read it, so `1.1957010862761908e+19` (11957010862761908224) is not a
    multiple of 5 in any position (decision 0133). Exact at every magnitude: Decimal's
    28-digit arithmetic refused 1e300 as a multiple of 0.01, which the reference
    validator and jsonschema-rs (the check of defaults) accept.
    `Decimal.as_integer_ratio` is exact, and 5x faster than `Fraction` (measured)."""
    if isinstance(number, int):
        return number, 1
    try:
        if abs(number) >= DOUBLE_EXACT:
            return int(number), 1
        return Decimal(repr(number)).as_integer_ratio()
    except OverflowError:  # infinity: refused as `Fraction` refused it
        raise ValueError(f"not a finite number: {number!r}") from None


# Doubles hold every integer up to it, and nothing but integers beyond.
DOUBLE_EXACT = 2**53


def segment(raw: str) -> str:
    """A JSON pointer's segment as the name it stands for (`~1` is `/`, `~0` is `~`)."""
    return raw.replace("~1", "/").replace("~0", "~")


class Evaluator:
    """Evaluates values against schemas of one document (its `$ref`s point into it)."""

    def __init__(self, document: Any, patterns: dict[str, str]) -> None:
        self.document = document
        self.patterns = patterns
        # Pointers resolved once: every check of a model resolves its own, and unquoting
        # the segments again cost a fifth of a check (measured). The document is fixed.
        self._resolved: dict[str, Any] = {}
        self._plans: dict[int, tuple[Any, tuple[_Applicator, ...]]] = {}

    def valid(self, schema: Any, value: Any) -> bool:
        return self._eval(schema, value) is not None

    def holds(self, schema: dict[str, Any], key: str, value: Any) -> bool:
        """Whether `value` passes the assertion `key` of `schema` (the explainer)."""
        return self._assertions({key: schema[key]}, value)

    def resolve(self, ref: str) -> Any:
        if ref in self._resolved:
            return self._resolved[ref]
        node = self.document
        for raw in ref[2:].split("/") if ref != "#" else ():
            part = segment(unquote(raw))
            node = node[int(part)] if isinstance(node, list) else node[part]
        self._resolved[ref] = node
        return node

    def _search(self, pattern: str, text: str) -> bool:
        return _regex(self.patterns[pattern]).isinstance_python(text)

    def _eval(self, schema: Any, value: Any) -> _Seen | None:
        """The properties and items the schema evaluated when `value` is valid (the
        annotations `unevaluated*` read), else None."""
        if schema is True:
            return set(), set()
        if schema is False:
            return None
        seen: _Seen = (set(), set())
        if not self._assertions(schema, value):
            return None
        for applies in self._applicators(schema):
            found = applies(schema, value)
            if found is None:
                return None
            seen[0].update(found[0])
            seen[1].update(found[1])
        if "unevaluatedProperties" in schema or "unevaluatedItems" in schema:
            return self._unevaluated(schema, value, seen)
        return seen

    def _applicators(self, schema: dict[str, Any]) -> tuple[_Applicator, ...]:
        """The applicators whose keywords `schema` has (memoized by node): the others
        evaluate nothing, and calling all five at every node was most of a check."""
        entry = self._plans.get(id(schema))
        if entry is None or entry[0] is not schema:
            keys = schema.keys()
            steps = (
                (self._ref, _REF),
                (self._logic, _LOGIC),
                (self._conditional, _CONDITIONAL),
                (self._object, _OBJECT),
                (self._array, _ARRAY),
            )
            used = tuple(f for f, words in steps if not words.isdisjoint(keys))
            entry = (schema, used)
            self._plans[id(schema)] = entry
        return entry[1]

    def _assertions(self, s: dict[str, Any], v: Any) -> bool:
        kind = _kind(v)
        types = s.get("type")
        if types is not None:
            allowed = set(types) if isinstance(types, list) else {types}
            if kind not in allowed and not (kind == "integer" and "number" in allowed):
                return False
        if "const" in s and _key(s["const"]) != _key(v):
            return False
        if "enum" in s and _key(v) not in {_key(e) for e in s["enum"]}:
            return False
        if kind in ("integer", "number"):
            if "multipleOf" in s and not _multiple(v, s["multipleOf"]):
                return False
            if ("minimum" in s and v < s["minimum"]) or (
                "maximum" in s and v > s["maximum"]
            ):
                return False
            if "exclusiveMinimum" in s and v <= s["exclusiveMinimum"]:
                return False
            if "exclusiveMaximum" in s and v >= s["exclusiveMaximum"]:
                return False
        if kind == "string":
            if len(v) < s.get("minLength", 0) or len(v) > s.get("maxLength", len(v)):
                return False
            if "pattern" in s and not self._search(s["pattern"], v):
                return False
        if kind == "array":
            if len(v) < s.get("minItems", 0) or len(v) > s.get("maxItems", len(v)):
                return False
            if s.get("uniqueItems") is True and len({_key(i) for i in v}) < len(v):
                return False
        if kind == "object":
            count = len(v)
            if count < s.get("minProperties", 0) or count > s.get(
                "maxProperties", count
            ):
                return False
            if any(name not in v for name in s.get("required", ())):
                return False
            for name, needs in s.get("dependentRequired", {}).items():
                if name in v and any(n not in v for n in needs):
                    return False
        return True

    def _ref(self, s: dict[str, Any], v: Any) -> _Seen | None:
        if "$ref" not in s:
            return set(), set()
        return self._eval(self.resolve(s["$ref"]), v)

    def _logic(self, s: dict[str, Any], v: Any) -> _Seen | None:
        seen: _Seen = (set(), set())
        for sub in s.get("allOf", ()):
            found = self._eval(sub, v)
            if found is None:
                return None
            seen[0].update(found[0])
            seen[1].update(found[1])
        for key in ("anyOf", "oneOf"):
            if key not in s:
                continue
            passed = [
                f for f in (self._eval(sub, v) for sub in s[key]) if f is not None
            ]
            if not passed or (key == "oneOf" and len(passed) > 1):
                return None
            for found in passed:
                seen[0].update(found[0])
                seen[1].update(found[1])
        if "not" in s and self._eval(s["not"], v) is not None:
            return None
        return seen

    def _conditional(self, s: dict[str, Any], v: Any) -> _Seen | None:
        seen: _Seen = (set(), set())
        if "if" in s:
            found = self._eval(s["if"], v)
            branch = s.get("then" if found is not None else "else", True)
            taken = self._eval(branch, v)
            if taken is None:
                return None
            for part in (found or (set(), set()), taken):
                seen[0].update(part[0])
                seen[1].update(part[1])
        if isinstance(v, dict):
            for name, sub in s.get("dependentSchemas", {}).items():
                if name in v:
                    found = self._eval(sub, v)
                    if found is None:
                        return None
                    seen[0].update(found[0])
                    seen[1].update(found[1])
        return seen

    def _object(self, s: dict[str, Any], v: Any) -> _Seen | None:
        if not isinstance(v, dict):
            return set(), set()
        done: set[str] = set()
        props = s.get("properties", {})
        patterns = s.get("patternProperties", {})
        for name, item in v.items():
            matched = name in props
            if matched and self._eval(props[name], item) is None:
                return None
            for pattern, sub in patterns.items():
                if self._search(pattern, name):
                    matched = True
                    if self._eval(sub, item) is None:
                        return None
            if not matched and "additionalProperties" in s:
                if self._eval(s["additionalProperties"], item) is None:
                    return None
                matched = True
            if "propertyNames" in s and self._eval(s["propertyNames"], name) is None:
                return None
            if matched:
                done.add(name)
        return done, set()

    def _array(self, s: dict[str, Any], v: Any) -> _Seen | None:
        if not isinstance(v, list):
            return set(), set()
        done: set[int] = set()
        prefix = s.get("prefixItems", ())
        for index, item in enumerate(v):
            sub = prefix[index] if index < len(prefix) else s.get("items")
            if sub is not None:
                if self._eval(sub, item) is None:
                    return None
                done.add(index)
        if "contains" in s:
            matches = {
                i for i, x in enumerate(v) if self._eval(s["contains"], x) is not None
            }
            least, most = s.get("minContains", 1), s.get("maxContains", len(v))
            if not least <= len(matches) <= most:
                return None
            done |= matches
        return set(), done

    def _unevaluated(self, s: dict[str, Any], v: Any, seen: _Seen) -> _Seen | None:
        if "unevaluatedProperties" in s and isinstance(v, dict):
            for name, item in v.items():
                if name not in seen[0]:
                    if self._eval(s["unevaluatedProperties"], item) is None:
                        return None
                    seen[0].add(name)
        if "unevaluatedItems" in s and isinstance(v, list):
            for index, item in enumerate(v):
                if index not in seen[1]:
                    if self._eval(s["unevaluatedItems"], item) is None:
                        return None
                    seen[1].add(index)
        return seen
