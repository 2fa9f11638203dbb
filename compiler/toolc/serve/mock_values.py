"""Deterministic values that validate against a JSON Schema (the draft 2020-12 subset
toolc publishes), for `toolc serve --mock`: declared `examples` first, then `default`,
`const` and `enum`, otherwise synthesized: required properties only, the smallest valid
arrays, numbers within bounds, strings matching `format` or `pattern`, a branch of each
applicator; every candidate judged by the shipped evaluator (`mock_check`). No randomness:
the same schema always gives the same value."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolc.runtime.server_keys import array_arguments
from toolc.serve.mock_check import Checker, Search, value_key
from toolc.serve.mock_patterns import ALNUM, expand, parse_pattern
from toolc.serve.mock_shapes import arrays, objects, tolerant

__all__ = ["example_value", "folded", "is_valid", "mock_data"]

_LIMIT = 64  # candidates per schema and repetitions per pattern: every search ends
_CANONICAL = (  # one fixed value per `format`
    "date-time=2024-01-01T00:00:00Z date=2024-01-01 time=00:00:00Z duration=P1D "
    "email=user@example.com idn-email=user@example.com hostname=example.com "
    "idn-hostname=example.com ipv4=192.0.2.1 ipv6=2001:db8::1 "
    "uri=https://example.com/ uri-reference=https://example.com/ "
    "iri=https://example.com/ iri-reference=https://example.com/ "
    "uri-template=https://example.com/{id} json-pointer=/example "
    "uuid=00000000-0000-4000-8000-000000000000 relative-json-pointer=0 regex=^a$"
)
_FORMATS = dict(pair.split("=", 1) for pair in _CANONICAL.split())
# A nullable property named like a paging cursor is null, so an agent paging ends.
_CURSOR = re.compile(r"cursor|page_?token|next_?page|continuation", re.IGNORECASE)
_HINTS = (
    "object properties required additionalProperties minProperties maxProperties "
    "patternProperties propertyNames dependentRequired dependentSchemas unevaluatedProperties",
    "array items prefixItems minItems maxItems uniqueItems contains minContains maxContains "
    "unevaluatedItems",
    "string minLength maxLength pattern format",
    "number minimum maximum exclusiveMinimum exclusiveMaximum multipleOf",
)
_ALL_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")


# Whether a string holds a match of a pattern (`Search`). The default is Python's `re`, which
# reads some ECMAScript patterns differently; toolc's mock server passes the models' reading.
def re_search(pattern: str, s: str) -> bool:
    try:
        return re.search(pattern, s) is not None
    except re.error:  # ECMAScript syntax `re` lacks (`\u{...}`, `[^]`): not confirmed
        return False


def example_value(
    schema: Mapping[str, Any],
    root: Mapping[str, Any] | None = None,
    search: Search = re_search,
) -> Any:
    """A value valid against `schema`; `root` resolves `#/...` references (default:
    `schema` itself). For a toolc envelope, the `ok: true` branch. ValueError naming
    the JSON path when no value is found."""
    return _Gen(schema if root is None else root, search).first(schema, "$")


def folded(schema: Any, root: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` with its `$ref` and `allOf` folded in (refs resolved in `root`)."""
    return _Gen(root).flat(schema)


def items_argument(input_schema: Mapping[str, Any]) -> str | None:
    """The argument that lists a multi-item call's items, among those the runtime takes
    for arrays (typed `array`, through a `$ref`, nullable): the one an agent names to the
    user (`x-toolc-label`) first, then a required one. The mock server and the test kit
    both choose it so."""
    props = input_schema.get("properties", {})
    required = set(input_schema.get("required", []))
    arrays = sorted(
        array_arguments(input_schema),
        key=lambda n: ("x-toolc-label" not in props[n], n not in required),
    )
    return arrays[0] if arrays else None


def is_valid(value: Any, schema: Any, root: Mapping[str, Any], search: Search = re_search) -> bool:
    """Whether `value` validates against `schema` (`#/...` refs resolved in `root`)."""
    return _Gen(root, search).ok(value, schema)


def mock_data(output_schema: Mapping[str, Any], search: Search = re_search) -> Any:
    """The `data` of the `ok: true` branch of a toolc envelope output schema; for a
    multi-item tool, at least one result, every one successful, counts that agree."""
    gen = _Gen(output_schema, search)
    for branch in output_schema.get("oneOf", []):
        if not _is_ok_branch(gen, branch):
            continue
        schema = gen.flat(gen.flat(branch)["properties"].get("data", True))
        results = gen.flat(schema.get("properties", {}).get("results", {}))
        if "items" not in results:
            return gen.first(schema, "$.data")
        item = gen.flat(results["items"])
        flags = [f for f in ("success", "ok") if f in item.get("properties", {})]
        marked = {"allOf": [item, {"properties": {f: {"const": True} for f in flags}}]}
        wanted = {"minItems": max(1, results.get("minItems", 0)), "items": marked}
        data = gen.first({"allOf": [schema, {"properties": {"results": wanted}}]}, "$.data")
        n = len(data["results"])
        fixed = dict(data, multi_item_status="SUCCESS", partial_success=False)
        if isinstance(data.get("metadata", {}).get("multi_item"), dict):
            multi = dict(data["metadata"]["multi_item"], status="SUCCESS")
            multi.update(items_count=n, items_succeeded_count=n, items_failed_count=0)
            fixed["metadata"] = dict(data["metadata"], multi_item=multi)
        return fixed if gen.ok(fixed, schema) else data
    raise ValueError("$: not a toolc envelope (no oneOf branch whose ok is true)")


def _is_ok_branch(gen: _Gen, branch: Any) -> bool:
    ok = gen.flat(gen.flat(branch).get("properties", {}).get("ok", {}))
    return "const" in ok and value_key(ok["const"]) == value_key(True)


class _Gen:
    def __init__(self, root: Mapping[str, Any], search: Search = re_search) -> None:
        self.root = root
        self.search = search
        self.check = Checker(root, search)

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise ValueError(f"{ref}: only local references are supported")
        node: Any = self.root
        for part in ref[1:].split("/")[1:]:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def flat(self, schema: Any, depth: int = 0) -> dict[str, Any]:
        """`schema` with its `$ref` and `allOf` folded in, to generate from (values are
        still validated against the schema itself)."""
        if not isinstance(schema, Mapping) or depth > _LIMIT:
            return {} if schema is not False else {"not": {}}
        out = {k: v for k, v in schema.items() if k not in ("$ref", "allOf")}
        parts = [self.resolve(schema["$ref"])] if "$ref" in schema else []
        for part in [*parts, *schema.get("allOf", [])]:
            for k, v in self.flat(part, depth + 1).items():
                if k == "properties" and k in out:
                    both = {p: {"allOf": [v[p], out[k][p]]} for p in v if p in out[k]}
                    out[k] = {**v, **out[k], **both}
                elif k == "required" and k in out:
                    out[k] = [*v, *(r for r in out[k] if r not in v)]
                else:
                    out.setdefault(k, v)
        return out

    def ok(self, v: Any, s: Any) -> bool:
        """Whether `v` validates against `s`: every keyword, by the shipped evaluator."""
        return self.check.ok(v, s)

    def named(self, name: str, schema: Any, path: str) -> Any:
        if _CURSOR.search(name) and self.ok(None, schema):
            return None
        return self.first(schema, path)

    def first(self, schema: Any, path: str) -> Any:
        for value in self.candidates(schema, path):
            return value
        pattern = schema.get("pattern") if isinstance(schema, Mapping) else None
        hint = f" (pattern {pattern!r})" if pattern is not None else ""
        raise ValueError(f"{path}: no value found that validates{hint}")

    def candidates(self, schema: Any, path: str) -> Iterator[Any]:
        """Valid values for `schema`, declared ones first, in a fixed order."""
        if path.count(".") + path.count("[") > _LIMIT:
            raise ValueError(f"{path}: the schema nests too deep to build a value")
        s = self.flat(schema)
        declared = [*s.get("examples", []), *([s["default"]] if "default" in s else [])]
        fixed = [s["const"]] if "const" in s else s.get("enum", [])
        found = itertools.chain(declared, fixed, [] if fixed else self.synth(s, path))
        seen: set[Any] = set()
        for v in itertools.islice(found, _LIMIT * 16):
            if value_key(v) not in seen and self.ok(v, schema):
                seen.add(value_key(v))
                yield v

    def synth(self, s: dict[str, Any], path: str) -> Iterator[Any]:
        for key in ("oneOf", "anyOf"):
            if key in s:  # the envelope's `ok: true` branch first
                rest = {k: v for k, v in s.items() if k != key}
                ordered = sorted(s[key], key=lambda b: not _is_ok_branch(self, b))
                parts = [{"allOf": [rest, b]} for b in ordered]
                yield from tolerant([self.candidates(b, path) for b in parts])
                return
        if "if" in s:  # a value of each branch in turn: `if` and `then`, else `not if` and `else`
            rest = {k: v for k, v in s.items() if k not in ("if", "then", "else")}
            then = {"allOf": [rest, s["if"], s.get("then", True)]}
            other = {"allOf": [rest, {"not": s["if"]}, s.get("else", True)]}
            yield from tolerant([self.candidates(b, path) for b in (then, other)])
            return
        types = s.get("type")
        if types is None:  # guessed from the keywords, else every type in turn
            hints = [h.split() for h in _HINTS]
            types = [h[0] for h in hints if any(k in s for k in h[1:])] or list(_ALL_TYPES)
        types = [types] if isinstance(types, str) else types or ["null"]
        ordered = sorted(types, key=lambda t: t == "null") if "type" in s else types
        yield from tolerant([self.typed(t, s, path) for t in ordered])

    def typed(self, t: str, s: dict[str, Any], path: str) -> Iterator[Any]:
        if t in ("integer", "number"):
            return _numbers(s, t == "integer")
        if t == "string":
            return _strings(s)
        if t == "array":
            return arrays(self, s, path)
        if t == "object":
            return objects(self, s, path)
        return iter((True, False) if t == "boolean" else (None,))


def _numbers(s: Mapping[str, Any], integer: bool) -> Iterator[Any]:
    lo = max(s.get("minimum", -math.inf), s.get("exclusiveMinimum", -math.inf))
    hi = min(s.get("maximum", math.inf), s.get("exclusiveMaximum", math.inf))
    step = s.get("multipleOf", 1 if integer else None)
    if step is None:
        at = 0 if lo <= 0 <= hi else math.floor(lo) + 1 if lo > 0 else math.ceil(hi) - 1
        yield from (at, at + 1, at - 1, at + 0.5)
        yield from (lo, hi, (lo + hi) / 2, lo + 0.5, hi - 0.5)
        return
    k = 0  # the multiple nearest to 0 within the bounds first, then outwards
    if not lo <= 0 <= hi:
        k = math.ceil(lo / step) if lo > 0 else math.floor(hi / step)
    for d in itertools.chain.from_iterable((i, -i) for i in range(_LIMIT * 4)):
        for v in ((k + d) * step, round((k + d) * step, 12)):
            if math.isfinite(v) and (not integer or float(v).is_integer()):
                yield int(v) if float(v).is_integer() else v


def _strings(s: Mapping[str, Any]) -> Iterator[str]:
    least = s.get("minLength", 0)
    if s.get("format") in _FORMATS:
        yield _FORMATS[s["format"]]
    if "pattern" in s:
        try:
            tree = parse_pattern(s["pattern"])
        except (ValueError, IndexError):  # outside the subset: the fallbacks below
            tree = [[]]
        for extra in range(min(least + 2, _LIMIT)):
            for v in expand(tree, extra):
                pad = "x" * (least - len(v))
                yield from (v, v + pad, pad + v)
        yield from ("", "a", "A", "0", "example", "a" * least, "0" * least)
        return
    for i in range(_LIMIT):
        word = "example" + (str(i) if i else "")
        yield word + "x" * (least - len(word))
    yield "example"[: s.get("maxLength")]
    yield from (*(c * max(least, 1) for c in ALNUM), "")
