"""Deterministic values that validate against a JSON Schema (the draft 2020-12 subset
toolc publishes), for `toolc serve --mock`: declared `examples` first, then `default`,
`const` and `enum`, otherwise synthesized: required properties only, the smallest valid
arrays, numbers within bounds, strings matching `format` or `pattern`. No randomness:
the same schema always gives the same value. Standard library only."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolc.runtime.server_formats import format_ok
from toolc.serve.mock_patterns import ALNUM, expand, parse_pattern

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
    "object properties required additionalProperties minProperties",
    "array items prefixItems minItems maxItems uniqueItems",
    "string minLength maxLength pattern format",
    "number minimum maximum exclusiveMinimum exclusiveMaximum multipleOf",
)


# Whether a string holds a match of a pattern. The default is Python's `re`, which reads
# some ECMAScript patterns differently; toolc's mock server passes the models' reading.
Search = Callable[[str, str], bool]


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
    return "const" in ok and _key(ok["const"]) == _key(True)


def _key(v: Any) -> Any:
    """Hashable, equal exactly when JSON Schema calls two values equal."""
    if isinstance(v, bool) or v is None:
        return ("atom", v)
    if isinstance(v, int | float):
        return ("number", v)
    if isinstance(v, list):
        return ("array", tuple(_key(x) for x in v))
    if isinstance(v, dict):
        return ("object", frozenset((k, _key(x)) for k, x in v.items()))
    return ("string", v)


def _is(v: Any, t: str) -> bool:
    if t in ("number", "integer"):
        number = isinstance(v, int | float) and not isinstance(v, bool)
        return number and (t == "number" or float(v).is_integer())
    kinds = {"null": type(None), "boolean": bool, "string": str, "array": list}
    return isinstance(v, kinds.get(t, dict))


def _format_ok(s: str, fmt: str) -> bool:
    """As the server checks what it sends (as JSON clients do)."""
    return format_ok(fmt, s)


class _Gen:
    def __init__(self, root: Mapping[str, Any], search: Search = re_search) -> None:
        self.root = root
        self.search = search

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
        """Whether `v` validates against `s` (the keywords listed in the module doc)."""
        if isinstance(s, bool):
            return s
        types = [s["type"]] if isinstance(s.get("type"), str) else s.get("type", [])
        return (
            ("$ref" not in s or self.ok(v, self.resolve(s["$ref"])))
            and (not types or any(_is(v, t) for t in types))
            and ("const" not in s or _key(v) == _key(s["const"]))
            and ("enum" not in s or _key(v) in {_key(e) for e in s["enum"]})
            and all(self.ok(v, b) for b in s.get("allOf", []))
            and ("anyOf" not in s or any(self.ok(v, b) for b in s["anyOf"]))
            and ("oneOf" not in s or sum(self.ok(v, b) for b in s["oneOf"]) == 1)
            and ("not" not in s or not self.ok(v, s["not"]))
            and (not _is(v, "number") or _number_ok(v, s))
            and (not isinstance(v, str) or _string_ok(v, s, self.search))
            and (not isinstance(v, list) or self.array_ok(v, s))
            and (not isinstance(v, dict) or self.object_ok(v, s))
        )

    def array_ok(self, v: list[Any], s: Mapping[str, Any]) -> bool:
        prefix, rest = s.get("prefixItems", []), s.get("items", True)
        return (
            s.get("minItems", 0) <= len(v) <= s.get("maxItems", len(v))
            and all(self.ok(x, p) for x, p in zip(v, prefix, strict=False))
            and all(self.ok(x, rest) for x in v[len(prefix) :])
            and not (s.get("uniqueItems") and len({_key(x) for x in v}) < len(v))
        )

    def object_ok(self, v: dict[str, Any], s: Mapping[str, Any]) -> bool:
        props, pats = s.get("properties", {}), s.get("patternProperties", {})
        for k, x in v.items():
            subs = [p for r, p in pats.items() if self.search(r, k)]
            subs += [props[k]] if k in props else []
            extra = s.get("additionalProperties", True)
            if not all(self.ok(x, sub) for sub in subs or [extra]):
                return False
        n = len(v)
        return all(r in v for r in s.get("required", [])) and (
            s.get("minProperties", 0) <= n <= s.get("maxProperties", n)
        )

    def named(self, name: str, schema: Any, path: str) -> Any:
        if _CURSOR.search(name) and self.ok(None, schema):
            return None
        return self.first(schema, path)

    def first(self, schema: Any, path: str) -> Any:
        for value in self.candidates(schema, path):
            return value
        hint = f" (pattern {schema['pattern']!r})" if "pattern" in schema else ""
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
            if _key(v) not in seen and self.ok(v, schema):
                seen.add(_key(v))
                yield v

    def synth(self, s: dict[str, Any], path: str) -> Iterator[Any]:
        for key in ("oneOf", "anyOf"):
            if key in s:  # the envelope's `ok: true` branch first
                rest = {k: v for k, v in s.items() if k != key}
                ordered = sorted(s[key], key=lambda b: not _is_ok_branch(self, b))
                parts = [{"allOf": [rest, b]} for b in ordered]
                yield from _tolerant([self.candidates(b, path) for b in parts])
                return
        types = s.get("type")
        if types is None:  # guessed from the keywords
            hints = [h.split() for h in _HINTS]
            types = [h[0] for h in hints if any(k in s for k in h[1:])]
        types = [types] if isinstance(types, str) else types or ["null"]
        ordered = sorted(types, key=lambda t: t == "null")
        yield from _tolerant([self.typed(t, s, path) for t in ordered])

    def typed(self, t: str, s: dict[str, Any], path: str) -> Iterator[Any]:
        if t in ("integer", "number"):
            return _numbers(s, t == "integer")
        if t in ("string", "array", "object"):
            return _strings(s) if t == "string" else getattr(self, t)(s, path)
        return iter((True, False) if t == "boolean" else (None,))

    def object(self, s: dict[str, Any], path: str) -> Iterator[Any]:
        props, names = s.get("properties", {}), list(s.get("required", []))
        optional = [p for p in props if p not in names]
        names += optional[: max(0, s.get("minProperties", 0) - len(names))]
        subs = {n: props.get(n, s.get("additionalProperties", True)) for n in names}
        base = {n: self.named(n, subs[n], f"{path}.{n}") for n in names}
        yield base
        for n in names[:1]:  # variants, for uniqueItems
            yield from ({**base, n: v} for v in self.candidates(subs[n], f"{path}.{n}"))
        for p in optional:
            yield from ({**base, p: v} for v in self.candidates(props[p], f"{path}.{p}"))

    def array(self, s: dict[str, Any], path: str) -> Iterator[Any]:
        prefix, rest = s.get("prefixItems", []), s.get("items", {})
        least = s.get("minItems", 0)
        for size in range(least, least + 3):
            out: list[Any] = []
            for i in range(size):
                where = f"{path}[{i}]"
                found = self.candidates(prefix[i] if i < len(prefix) else rest, where)
                if s.get("uniqueItems"):
                    found = (v for v in found if _key(v) not in map(_key, out))
                for v in itertools.islice(found, 1):
                    out.append(v)
                if len(out) <= i:
                    raise ValueError(f"{where}: no distinct item validates")
            yield out


def _tolerant(parts: list[Iterator[Any]]) -> Iterator[Any]:
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


def _number_ok(v: float, s: Mapping[str, Any]) -> bool:
    m = s.get("multipleOf")  # as jsonschema (the reference validator) computes it
    if m is not None and (
        (math.isinf(v / m) or int(v / m) != v / m) if isinstance(m, float) else v % m
    ):
        return False
    low = max(s.get("minimum", v), s.get("exclusiveMinimum", v - 1))
    high = min(s.get("maximum", v), s.get("exclusiveMaximum", v + 1))
    edges = (s.get("exclusiveMinimum"), s.get("exclusiveMaximum"))
    return math.isfinite(v) and bool(low <= v <= high) and v not in edges


def _string_ok(v: str, s: Mapping[str, Any], search: Search) -> bool:
    return (
        s.get("minLength", 0) <= len(v) <= s.get("maxLength", len(v))
        and ("pattern" not in s or search(s["pattern"], v))
        and _format_ok(v, s.get("format", ""))
    )


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
