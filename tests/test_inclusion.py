"""`accepts_all(wider, narrower)`, the evolution engine read by value (issue 9, item 5): `no`
comes with a witness the narrower schema accepts and the wider refuses, `yes` is never wrong on
any instance hypothesis finds, and what cannot be decided says `unknown`."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from instances import near_miss, valid
from toolc.evolution.inclusion import accepts_all

DEFS: dict[str, Any] = {
    "Id": {"type": "string", "pattern": "^P-[0-9]+$"},
    "Node": {
        "type": "object",
        "properties": {"next": {"$ref": "#/$defs/Node"}, "v": {"type": "integer"}},
    },
    "Loose": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Loose"}},
}
DOC = {"$defs": DEFS}


def _valid(schema: dict[str, Any], value: Any) -> bool:
    return jsonschema.Draft202012Validator({**schema, "$defs": DEFS}).is_valid(value)


ARRAY = {"type": "array", "items": {"type": "integer"}}
OBJ_A = {"type": "object", "properties": {"a": {"type": "string"}}}
# (wider, narrower, a value the narrower accepts and the wider refuses)
NARROWER: list[tuple[dict[str, Any], dict[str, Any], Any]] = [
    (ARRAY, {"type": "array", "items": {"type": ["integer", "string"]}}, ["title"]),
    ({"type": "string"}, {"type": ["string", "null"]}, None),
    ({"type": "integer"}, {"type": "number"}, 1.5),
    ({"type": "string"}, {}, 1),
    ({"enum": ["a"]}, {"enum": ["a", "b"]}, "b"),
    ({"enum": ["a"]}, {"type": "string"}, "z"),
    ({"enum": [True]}, {"type": "boolean"}, False),
    ({"type": "string", "pattern": "^a"}, {"enum": ["ab", "bc"]}, "bc"),
    ({"type": "integer", "minimum": 1}, {"type": "integer", "minimum": 0}, 0),
    ({"type": "string", "maxLength": 2}, {"type": "string", "maxLength": 3}, "abc"),
    ({"type": "array", "minItems": 1}, {"type": "array"}, []),
    ({"type": "array", "uniqueItems": True}, {"type": "array"}, [1, 1]),
    ({**OBJ_A, "required": ["a"]}, OBJ_A, {}),
    ({**OBJ_A, "additionalProperties": False}, OBJ_A, {"b": 1}),
    ({"type": "object", "additionalProperties": False}, OBJ_A, {"a": "x"}),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, OBJ_A, {"a": "x"}),
    (OBJ_A, {"type": "object"}, {"a": 1}),
    (OBJ_A, {"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1}),
    ({"type": "object", "additionalProperties": {"type": "string"}}, OBJ_A, {"b": 5}),
    ({"$ref": "#/$defs/Id"}, {"type": "string"}, "x"),
    (
        {"type": "object", "properties": {"next": {"$ref": "#/$defs/Id"}}},
        {"$ref": "#/$defs/Node"},
        {"next": {}},
    ),
]
INCLUDED: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"type": ["integer", "string"]}, {"type": "integer"}),
    ({"type": "number"}, {"type": "integer"}),
    ({"type": "string"}, {"type": "string", "pattern": "^a"}),
    ({"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^a"}),
    ({"type": "string", "pattern": "^a"}, {"enum": ["ab", "ac"]}),
    ({"$ref": "#/$defs/Id"}, {"type": "string", "pattern": "^P-[0-9]+$", "description": "d"}),
    ({"type": "integer", "minimum": 0}, {"type": "integer", "exclusiveMinimum": -1}),
    ({"type": "boolean"}, {"enum": [True, False]}),
    ({"enum": [True, False]}, {"type": "boolean"}),
    ({}, {"type": "string"}),
    ({"type": "array", "uniqueItems": True}, {"type": "array", "maxItems": 1}),
    ({"type": "string", "required": ["x"]}, {"type": "string"}),
    ({"type": "string", "minimum": 3}, {"type": "string"}),
    ({"type": "object"}, OBJ_A),
    ({"$ref": "#/$defs/Node"}, {"$ref": "#/$defs/Node"}),
    ({"$ref": "#/$defs/Loose"}, {"$ref": "#/$defs/Loose"}),
    ({"type": "object", "properties": {"a": {}}}, {"type": "object", "required": ["a"]}),
]
UNDECIDED: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^ab"}),
    ({"type": "string", "minLength": 2}, {"type": "string", "pattern": "^ab"}),
]


@pytest.mark.parametrize(("wider", "narrower", "witness"), NARROWER)
def test_no_comes_with_a_value_only_the_narrower_accepts(
    wider: dict[str, Any], narrower: dict[str, Any], witness: Any
) -> None:
    assert _valid(narrower, witness) and not _valid(wider, witness)  # the table itself
    found = accepts_all(wider, narrower, DOC, where="x")
    assert found.verdict == "no", found
    assert found.detail.startswith("x")


@pytest.mark.parametrize(("wider", "narrower"), INCLUDED)
def test_yes_when_every_value_is_accepted(wider: dict[str, Any], narrower: dict[str, Any]) -> None:
    assert accepts_all(wider, narrower, DOC).verdict == "yes"


@pytest.mark.parametrize(("wider", "narrower"), UNDECIDED)
def test_unknown_when_it_cannot_be_decided(wider: dict[str, Any], narrower: dict[str, Any]) -> None:
    assert accepts_all(wider, narrower, DOC).verdict == "unknown"


def test_the_place_is_a_pointer_into_both_schemas() -> None:
    wider = {"type": "object", "additionalProperties": False, "properties": {"b": {}}}
    found = accepts_all(wider, OBJ_A, DOC, where="meta")
    assert (found.pointer, found.narrower_at) == ("/additionalProperties", "/properties/a")
    assert found.detail == "meta.a: not declared, and undeclared properties are refused"
    items = accepts_all(ARRAY, {"type": "array", "items": {"type": ["integer", "string"]}}, DOC)
    assert items.pointer == items.narrower_at == "/items/type"


_TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]
_LEAF = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(
            st.sampled_from(_TYPES),
            st.lists(st.sampled_from(_TYPES), min_size=1, max_size=3, unique=True),
        ),
        "enum": st.lists(
            st.sampled_from([1, 2, "a", "ab", True, None]), min_size=1, max_size=3, unique_by=repr
        ),
        "minimum": st.integers(-2, 2),
        "maximum": st.integers(0, 4),
        "minLength": st.integers(0, 2),
        "maxLength": st.integers(2, 4),
        "pattern": st.sampled_from(["^a", "b", "^[a-c]+$"]),
        "minItems": st.integers(0, 2),
        "uniqueItems": st.booleans(),
    },
)
SCHEMAS = st.recursive(
    _LEAF,
    lambda inner: st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "array", ["object", "null"]]),
            "items": inner,
            "properties": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
            "required": st.lists(st.sampled_from(["a", "b"]), max_size=2, unique=True),
            "additionalProperties": st.one_of(st.booleans(), inner),
        },
    ),
    max_leaves=4,
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)  # fmt: skip
@given(data=st.data(), wider=SCHEMAS, narrower=SCHEMAS)
def test_yes_is_never_wrong(data: st.DataObject, wider: Any, narrower: Any) -> None:
    """Whatever the pair, `yes` means no value the narrower accepts is refused by the wider:
    hypothesis looks for one among the narrower's instances and their near misses."""
    if accepts_all(wider, narrower, DOC).verdict != "yes":
        return
    for _ in range(5):
        value = data.draw(valid(narrower, DEFS))
        if data.draw(st.booleans()):
            value = data.draw(near_miss(value, narrower, DEFS))
        if _valid(narrower, value):
            assert _valid(wider, value), f"{value!r}: narrower {narrower} wider {wider}"


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)  # fmt: skip
@given(data=st.data(), wider=SCHEMAS, narrower=SCHEMAS)
def test_a_refused_value_is_never_a_yes(data: st.DataObject, wider: Any, narrower: Any) -> None:
    """The other side of the same property: a value found that only the narrower accepts rules
    `yes` out (the verdict is `no` or `unknown`)."""
    value = data.draw(valid(narrower, DEFS))
    if _valid(narrower, value) and not _valid(wider, value):
        assert accepts_all(wider, narrower, DOC).verdict != "yes", value
