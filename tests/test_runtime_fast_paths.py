"""The generated server's per-call fast paths (issue 16) judge exactly as the plain code they
replaced: `to_wire` (exact types first, a model told by its class once), the composition's
item names (no key list built per item), the normalization and composition in one pass, and
the format walk (a plan per schema node). Each is compared with that plain code, kept here as
the reference, on random values."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import json
import uuid
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field
from toolc.runtime import server_composition, server_wire
from toolc.runtime.server_formats import format_ok
from toolc.runtime.server_items import BadReturn, normalize_multi_item
from toolc.runtime.server_outputs import FormatCheck
from toolc.runtime.server_sealing import seal_failure, seal_return
from toolc.runtime.server_types import Items, ToolFailure


class Colour(enum.StrEnum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Row(BaseModel):
    name: str
    size: int | None = None


class Aliased(BaseModel):
    """Dumped by its wire names."""

    model_config = ConfigDict(populate_by_name=True)
    wire_name: int = Field(alias="wireName")


class Dumps(BaseModel):
    """A model that dumps itself with more: its own `model_dump` is the one called."""

    a: int

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().model_dump(**kwargs), "added": True}


class Proxy:
    """A proxy that says it is the model it wraps (as wrapt's do)."""

    def __init__(self, inner: BaseModel) -> None:
        self._inner = inner

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return type(self._inner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


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
    st.builds(Aliased, wire_name=st.integers()),
    st.builds(Dumps, a=st.integers()),
    st.builds(lambda: Proxy(Row(name="proxied", size=2))),
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
    assert server_wire.to_wire(value) == reference_to_wire(value)


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


def reference_composition(data: Mapping[str, Any], operation_id: str | None) -> dict[str, Any]:
    """The composition as two passes computed it: each item's outcome read again."""
    succeeded: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for position, item in enumerate(data["results"]):
        ok = isinstance(item, Mapping) and item.get("success", item.get("ok")) is True
        entry: dict[str, Any] = {
            "item": reference_item_name(position, item, operation_id),
            "position": position,
        }
        if isinstance(item, Mapping):
            short = server_composition._short
            op = short(item.get(operation_id)) if operation_id is not None else None
            if op is not None:
                entry["operation_id"] = op
            if item.get("success", item.get("ok")) is not True:
                for key in ("reason", "error", "message"):
                    if (reason := short(item.get(key))) is not None:
                        entry["reason"] = reason
                        break
        (succeeded if ok else failed).append(entry)
    return {
        "version": server_composition.COMPOSITION_VERSION,
        "status": data["multi_item_status"],
        "instruction": server_composition.INSTRUCTION,
        "succeeded": succeeded,
        "failed": failed,
    }


def reference_normalize(tool: str, data: Any) -> dict[str, Any]:
    """The guide's §5 fields as the plain code wrote them."""
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        raise BadReturn("a multi-item tool's data needs a `results` list")
    outcomes = []
    for index, item in enumerate(data["results"]):
        flag = None
        if isinstance(item, Mapping):
            flag = item["success"] if "success" in item else item.get("ok")
        if not isinstance(flag, bool):
            reason = "every item of results needs a boolean `success` or `ok`"
            where = {"field": f"data.results[{index}]", "reason": reason, "type": "multi_item"}
            raise BadReturn(reason, [where])
        outcomes.append(flag)
    succeeded = sum(outcomes)
    failed = len(outcomes) - succeeded
    status = "PARTIAL_SUCCESS" if succeeded and failed else "FAILED"
    if not failed:
        status = "SUCCESS"
    metadata = data.get("metadata")
    metadata = dict(metadata) if isinstance(metadata, Mapping) else {}
    metadata["multi_item"] = {
        "status": status,
        "items_count": len(outcomes),
        "items_succeeded_count": succeeded,
        "items_failed_count": failed,
        "primary_tool": tool,
    }
    normal = {k: v for k, v in data.items() if k not in ("original_ok", "secondary_error")}
    normal.update(
        multi_item_status=status, partial_success=status == "PARTIAL_SUCCESS", metadata=metadata
    )
    return normal


def reference_normalized(tool: str, data: Any, operation_id: str | None) -> dict[str, Any]:
    """Normalized, then copied with its composition, as the two passes did."""
    normal = reference_normalize(tool, data)
    metadata = dict(normal["metadata"])
    metadata["composition"] = reference_composition(normal, operation_id)
    return {**normal, "metadata": metadata}


flags = st.one_of(st.booleans(), st.none(), st.integers(0, 1))
result_items = st.one_of(
    st.fixed_dictionaries(
        {"success": flags},
        optional={
            "ok": flags,
            "name": st.text(max_size=3) | st.integers(),
            "order_id": st.text(max_size=90),
            "op": st.text(max_size=3),
            "reason": st.none() | st.text(max_size=3),
            "error": st.text(max_size=3),
        },
    ),
    st.fixed_dictionaries({"ok": flags}, optional={"id": st.integers(), "message": st.text()}),
    st.fixed_dictionaries({"ok": st.booleans()}).map(MappingProxyType),
    st.integers(),
)
multi_item_data = st.fixed_dictionaries(
    {"results": st.lists(result_items, max_size=5)},
    optional={
        "metadata": st.fixed_dictionaries(
            {}, optional={"composition": st.text(max_size=2), "page": st.integers()}
        ),
        "original_ok": st.booleans(),
        "secondary_error": st.just({"code": "X"}),
        "note": st.text(max_size=3),
    },
).flatmap(
    lambda d: st.sampled_from(
        [d, MappingProxyType(d), {**d, "results": tuple(d["results"])}, {"note": 1}]
    )
)


@settings(max_examples=400, deadline=None)
@given(multi_item_data, st.sampled_from([None, "op", "order_id", "name"]))
def test_normalization_and_composition_in_one_pass_are_the_two_passes(
    data: Mapping[str, Any], operation_id: str | None
) -> None:
    try:
        expected = reference_normalized("t", data, operation_id)
    except BadReturn as bad:
        with pytest.raises(BadReturn) as raised:
            server_composition.normalized("t", data, operation_id)
        assert raised.value.problems == bad.problems
        return
    got = server_composition.normalized("t", data, operation_id)
    assert got == expected
    assert normalize_multi_item("t", data) == reference_normalize("t", data)
    # the same members in the same order: the sealed text is the same bytes
    assert json.dumps(got, default=dict) == json.dumps(expected, default=dict)


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


def exact_text(value: Any) -> str:
    """The wire text as the standard library writes it: what `compact` must equal."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# Floats of every magnitude, the small ones pydantic-core writes otherwise among them.
any_float = st.one_of(
    st.floats(),
    st.floats(-1e-3, 1e-3),
    st.integers(-330, 310).map(lambda e: float(f"1e{e}")),
    st.sampled_from([1e-05, 1e-07, 1.5e-06, 0.0001, -0.0, 5e-324, 1e16, 1e22]),
)
text_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**80), 2**80),
        any_float,
        st.text(),
        st.sampled_from(["e-mail", "NaN", "0.00001", "\ud800", "\x00\x1f\x7f\u2028"]),
        # about the limit on writing an integer (4,300 digits)
        st.integers(4290, 4400).map(lambda digits: 10**digits - 1),
        st.integers(4290, 4400).map(lambda digits: -(10**digits)),
        st.just(Colour.RED),
        st.just(Level.HIGH),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=4) | st.just(Colour.RED), inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=1500, deadline=None)
@given(text_values)
def test_the_fast_text_is_the_standard_librarys_bytes_or_none(value: Any) -> None:
    fast = server_wire.fast_text(value)
    try:
        exact = exact_text(value)
    except ValueError:  # NaN or an infinity: refused, so the fast path must not answer
        assert fast is None
        return
    assert fast is None or fast == exact


def test_the_fast_text_answers_for_ordinary_data() -> None:
    """Not vacuous: an envelope without small floats is written on the fast path."""
    envelope = {
        "ok": True,
        "data": {"results": [{"id": "P-1", "ok": True, "n": 2.5}], "when": "2026-12-04"},
        "meta": {"tool": "t", "version": "1.0.0"},
    }
    assert server_wire.fast_text(envelope) == exact_text(envelope)
    for value in (1e-05, float("nan"), "e-mail"):
        assert server_wire.fast_text({"v": value}) is None


class Shape(enum.Enum):
    ROUND = "round"


@dataclasses.dataclass(frozen=True)
class Declared:
    retryable: bool = True
    hint: str | None = None


@dataclasses.dataclass(frozen=True)
class Spec:
    """A tool as sealing reads it."""

    name: str = "t"
    version: str = "1.0.0"
    multi_item: bool = False
    workflow: bool = False
    errors: Mapping[str, Declared] = dataclasses.field(default_factory=lambda: {"BUSY": Declared()})


@pytest.mark.parametrize(
    "foreign",
    [
        datetime.datetime(2026, 12, 4),
        datetime.date(2026, 12, 4),
        uuid.UUID(int=1),
        decimal.Decimal("1.5"),
        {1, 2},
        b"bytes",
        Shape.ROUND,
    ],
)
def test_data_the_standard_library_refuses_stays_refused(
    foreign: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pydantic-core would write these; the answer is INVALID_RESULT, as it always was."""
    monkeypatch.setattr(server_wire, "_foreign_seen", False)
    sealed = seal_return(Spec(), {"free": {"value": foreign}}, lambda data: None)
    error = sealed.envelope["error"]
    assert error["code"] == "INVALID_RESULT"
    assert error["details"] == [
        {"field": "data", "reason": "not JSON data: TypeError", "type": "contract"}
    ]
    assert server_wire._foreign_seen  # every later text takes the exact path


def test_a_failure_message_that_is_not_text_is_sent_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`message: string` in every outputSchema: a handler's date (or 42) is written as its
    text, the declared code kept (it was a server failure, and 42 was sent as a number)."""
    monkeypatch.setattr(server_wire, "_foreign_seen", False)
    for message, text in ((datetime.date(2026, 12, 4), "2026-12-04"), (42, "42"), (None, "")):
        sealed = seal_failure(Spec(), ToolFailure("BUSY", message), lambda d: None)  # type: ignore[arg-type]
        assert json.loads(sealed.text)["error"]["message"] == text
        assert sealed.envelope["error"]["message"] == text


SURROGATE = b"caf\xe9.txt".decode("utf-8", "surrogateescape")  # a file name, say


def test_data_with_a_lone_surrogate_is_an_invalid_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Such data passed the data check and was sealed `ok`: the SDK's writer then failed on
    it, leaving the call unanswered and every later call of the stdio session with it."""
    for foreign_seen in (False, True):
        monkeypatch.setattr(server_wire, "_foreign_seen", foreign_seen)
        sealed = seal_return(Spec(), {"name": SURROGATE}, lambda data: None)
        assert sealed.envelope["error"]["code"] == "INVALID_RESULT"
        assert sealed.envelope["error"]["details"][0]["reason"] == "not JSON data: ValueError"
        sealed.text.encode("utf-8")  # what the SDK writes: never raises


@pytest.mark.parametrize("value", [SURROGATE, float("nan")], ids=["surrogate", "nan"])
def test_multi_item_data_that_is_no_json_text_is_an_invalid_result(value: Any) -> None:
    """Every item failed (sealed as an error with its data): such data is the handler's
    invalid answer, as for any tool, not a server failure."""
    spec = Spec(multi_item=True)
    sealed = seal_return(spec, {"results": [{"success": False, "name": value}]}, lambda d: None)
    assert sealed.envelope["error"]["code"] == "INVALID_RESULT"
    assert json.loads(sealed.text.encode("utf-8")) == sealed.envelope


@pytest.mark.parametrize(
    "failure",
    [
        ToolFailure("BUSY", f"cannot read {SURROGATE}"),
        ToolFailure("BUSY", "busy", {"file": SURROGATE}),
        ToolFailure("BUSY", "busy", {"load": float("nan")}),
    ],
    ids=["message", "details", "nan-details"],
)
def test_a_failure_that_is_no_json_text_is_a_tool_error(failure: ToolFailure) -> None:
    """Sealing such a failure raised out of the call; it is an internal error now, logged."""
    sealed = seal_failure(Spec(), failure, lambda d: None)
    assert sealed.envelope["error"]["code"] == "TOOL_ERROR"
    assert json.loads(sealed.text.encode("utf-8")) == sealed.envelope


class Labelled(int, enum.Enum):
    """An int enum whose `_value_` is not its int: pydantic-core writes the label."""

    def __new__(cls, number: int, label: str) -> Labelled:
        member = int.__new__(cls, number)
        member._value_ = label
        return member

    ONE = (1, "one")


@dataclasses.dataclass
class TaggedText(str):
    tag: int = 1


@pytest.mark.parametrize(
    "value", [Labelled.ONE, TaggedText("text")], ids=["enum-value", "dataclass"]
)
def test_subclasses_written_otherwise_take_the_exact_path(
    value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_wire, "_foreign_seen", False)
    assert server_wire.compact(server_wire.to_wire({"v": value})) == exact_text({"v": value})
    assert server_wire._foreign_seen


def test_ordinary_enums_keep_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_wire, "_foreign_seen", False)
    data = server_wire.to_wire({"colour": Colour.RED, "level": Level.HIGH})
    assert not server_wire._foreign_seen
    assert server_wire.fast_text(data) == exact_text(data) == '{"colour":"red","level":3}'


def test_two_failing_members_are_both_named_in_order() -> None:
    schema = {"type": "object", "properties": {"a": {"format": "date"}, "b": {"format": "date"}}}
    for check in (FormatCheck(schema, {}), ReferenceFormatCheck(schema, {})):
        assert [p["field"] for p in check.problems({"b": "y", "a": "x"})] == ["data.b", "data.a"]
