"""The generated server's per-call fast paths (issue 16) judge exactly as the plain code they
replaced: `to_wire` (exact types first, a model told by its class once), the composition's
item names (no key list built per item) and the format walk (a plan per schema node). Each is
compared with that plain code, kept here as the reference, on random values."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from toolc.runtime import server_composition, server_sealing
from toolc.runtime.server_formats import format_ok
from toolc.runtime.server_outputs import FormatCheck
from toolc.runtime.server_types import Items


class Colour(enum.StrEnum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Row(BaseModel):
    name: str
    size: int | None = None


def reference_to_wire(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Items):
        return {
            **reference_to_wire(value.fields),
            "results": reference_to_wire(list(value.results)),
        }
    if isinstance(value, Mapping):
        return {str(k): reference_to_wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [reference_to_wire(v) for v in value]
    return value


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.just(Colour.RED),
    st.just(Level.HIGH),
    st.builds(Row, name=st.text(max_size=3), size=st.none() | st.integers()),
    st.builds(lambda: Row(name="only")),
)
keys = st.one_of(st.text(max_size=4), st.integers(), st.just(Colour.RED))
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(keys, inner, max_size=4),
        st.dictionaries(st.text(max_size=4), inner, max_size=4).map(MappingProxyType),
        st.builds(
            Items,
            st.lists(inner, max_size=3),
            st.dictionaries(st.text(max_size=4), inner, max_size=2),
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_to_wire_is_the_plain_walk(value: Any) -> None:
    assert server_sealing.to_wire(value) == reference_to_wire(value)


def reference_item_name(position: int, item: Any, operation_id: str | None) -> str:
    if isinstance(item, Mapping):
        keys = [*server_composition._NAME_KEYS, *(k for k in item if str(k).endswith("_id"))]
        for key in keys:
            if (
                key != operation_id
                and (name := server_composition._short(item.get(key))) is not None
            ):
                return name
    return f"#{position + 1}"


names = st.sampled_from(["name", "subject", "title", "label", "id", "order_id", "x_id", "op", "ok"])
items = st.one_of(
    st.dictionaries(
        names,
        st.one_of(
            st.none(), st.booleans(), st.integers(), st.text(max_size=90), st.lists(st.integers())
        ),
        max_size=6,
    ),
    st.dictionaries(names, st.text(max_size=3)).map(MappingProxyType),
    st.integers(),
    st.none(),
)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 9), items, st.sampled_from([None, "op", "order_id", "name", "x_id"]))
def test_item_names_are_the_plain_search(
    position: int, item: Any, operation_id: str | None
) -> None:
    assert server_composition.item_name(position, item, operation_id) == reference_item_name(
        position, item, operation_id
    )


class ReferenceFormatCheck(FormatCheck):
    """The walk before the per-node plans."""

    def _walk(self, node: Any, value: Any, where: str, found: list[Any], depth: int) -> None:
        if not isinstance(node, Mapping) or not self._below.get(id(node)) or depth > 200:
            return
        fmt = node.get("format")
        if isinstance(fmt, str) and not format_ok(fmt, value):
            reason = f"not a valid {fmt}, as JSON Schema clients check it"
            found.append({"field": where, "reason": reason, "type": "format"})
        target = self._target(node)
        if target is not None:
            self._has_format(target)
            self._walk(target, value, where, found, depth + 1)
        for sub in node.get("allOf", ()):
            self._walk(sub, value, where, found, depth + 1)
        if isinstance(value, Mapping):
            members, extra = self._members(node)
            for name, item in value.items():
                sub = members.get(name, extra)
                if sub is not None:
                    self._walk(sub, item, f"{where}.{name}", found, depth + 1)
        elif isinstance(value, list) and self._below.get(id(node.get("items"))):
            items = node.get("items")
            for index, item in enumerate(value):
                self._walk(items, item, f"{where}[{index}]", found, depth + 1)


formats = st.sampled_from(["date", "uuid", "email", "date-time", "unknown-format"])
schemas = st.recursive(
    st.one_of(
        st.builds(lambda f: {"type": "string", "format": f}, formats),
        st.just({"type": "integer"}),
        st.sampled_from([{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"$ref": "#/$defs/Gone"}]),
        st.just(True),
    ),
    lambda inner: st.one_of(
        st.builds(lambda i: {"type": "array", "items": i}, inner),
        st.builds(
            lambda p, extra: {"type": "object", "properties": p, **extra},
            st.dictionaries(st.sampled_from(["a", "b", "at"]), inner, max_size=3),
            st.one_of(st.just({}), st.builds(lambda e: {"additionalProperties": e}, inner)),
        ),
        st.builds(lambda subs: {"allOf": subs}, st.lists(inner, max_size=2)),
        st.builds(lambda f, i: {"format": f, "items": i}, formats, inner),
    ),
    max_leaves=8,
)
data = st.recursive(
    st.one_of(
        st.sampled_from(["2024-01-01", "x", "a@b.co", "00000000-0000-0000-0000-000000000000"]),
        st.integers(),
        st.none(),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "at", "z"]), inner, max_size=3),
    ),
    max_leaves=10,
)


@settings(max_examples=400, deadline=None)
@given(schemas, schemas, schemas, data)
def test_the_planned_format_walk_finds_what_the_plain_walk_finds(
    schema: Any, a: Any, b: Any, value: Any
) -> None:
    defs = {"A": a, "B": {"type": "object", "properties": {"next": {"$ref": "#/$defs/B"}, "v": b}}}
    planned, plain = FormatCheck(schema, defs), ReferenceFormatCheck(schema, defs)
    for _ in range(2):  # the second time from the memos
        assert planned.problems(value) == plain.problems(value)
