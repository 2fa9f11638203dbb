"""The mock's values for every 2020-12 keyword toolc publishes: over random schemas (the
random-config strategies, and one here combining each applicator, array, object and number
keyword), every value `example_value` gives is valid by the reference validator (jsonschema,
formats checked), and where it gives none it says so (a ValueError naming the path), never an
invalid value. A few schemas pin what it must find."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker
from random_configs import FORMATS, PATTERNS, Schemas
from test_mock_values import CHECKER as STRINGS_ONLY
from toolc.serve.mock_values import example_value

# The formats checked as jsonschema checks them: on strings only (a format says nothing else).
CHECKER = FormatChecker(())
CHECKER.checkers = {
    name: ((lambda s, f=f: not isinstance(s, str) or f(s)), raises)
    for name, (f, raises) in STRINGS_ONLY.checkers.items()
}
# Host names are case-insensitive (RFC 1123), as ajv-formats reads them: `AA-0` is one.
CHECKER.checks("hostname")(
    lambda s: not isinstance(s, str) or bool(re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*", s))
)

LEAVES: list[Any] = [
    {"type": "integer", "multipleOf": 3, "minimum": 4},
    {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 0},
    {"type": "string", "minLength": 2},
    {"enum": ["a", 1, None]},
    {"const": {"k": [1]}},
    {"type": "boolean"},
    {"not": {"type": ["null", "boolean", "integer"]}},
    *({"type": "string", "format": f} for f in FORMATS),
    *({"type": "string", "pattern": p} for p in PATTERNS),
    True,
    {},
]


def _keyworded(draw: st.DrawFn, depth: int) -> Any:
    """A schema using the keywords the mock must know, nested a little."""

    def sub() -> Any:
        return _keyworded(draw, depth + 1) if depth < 2 and draw(st.booleans()) else leaf()

    def leaf() -> Any:
        return draw(st.sampled_from(LEAVES))

    kind = draw(
        st.sampled_from(
            ["anyOf", "oneOf", "allOf", "not", "if", "prefix", "contains", "object", "ref"]
        )
    )
    if kind in ("anyOf", "oneOf", "allOf"):
        return {kind: [sub(), sub()]}
    if kind == "not":
        return {"type": "integer", "not": {"multipleOf": 2}}
    if kind == "if":
        schema = {"if": sub(), "then": sub()}
        return {**schema, "else": sub()} if draw(st.booleans()) else schema
    if kind == "prefix":
        schema = {"type": "array", "prefixItems": [sub(), sub()]}
        extra = draw(st.sampled_from(["items", "unevaluatedItems", None]))
        if extra is not None:
            schema[extra] = draw(st.sampled_from([False, leaf()]))
        return {**schema, "minItems": draw(st.integers(0, 2))}
    if kind == "contains":
        schema = {"type": "array", "items": sub(), "contains": leaf()}
        if draw(st.booleans()):
            least = draw(st.integers(0, 2))
            schema.update(minContains=least, maxContains=least + draw(st.integers(0, 2)))
        return schema
    if kind == "ref":
        return {"$ref": "#/$defs/Shared"}
    schema = {"type": "object", "properties": {"a": sub(), "b-c": sub(), "class": leaf()}}
    if draw(st.booleans()):
        schema["required"] = draw(st.lists(st.sampled_from(["a", "b-c", "class"]), unique=True))
    if draw(st.booleans()):
        schema["patternProperties"] = {draw(st.sampled_from(sorted(PATTERNS))): leaf()}
    if draw(st.booleans()):
        schema["propertyNames"] = {"maxLength": draw(st.integers(1, 8))}
    if draw(st.booleans()):
        schema["dependentRequired"] = {"a": ["class"]}
    if draw(st.booleans()):
        schema["dependentSchemas"] = {"a": {"required": ["b-c"]}}
    if draw(st.booleans()):
        schema["minProperties"] = draw(st.integers(0, 5))
        schema["maxProperties"] = schema["minProperties"] + draw(st.integers(0, 3))
    extra = draw(st.sampled_from(["additionalProperties", "unevaluatedProperties", None]))
    if extra is not None:
        schema[extra] = draw(st.sampled_from([False, True, leaf()]))
    return schema


@st.composite
def keyworded(draw: st.DrawFn) -> dict[str, Any]:
    schema = _keyworded(draw, 0)
    shared = draw(st.sampled_from(LEAVES[:6]))
    return {**(schema if isinstance(schema, dict) else {}), "$defs": {"Shared": shared}}


@st.composite
def random_config_schemas(draw: st.DrawFn) -> dict[str, Any]:
    schemas = Schemas(draw, [])
    return {**schemas.published(schemas.schema()), "$defs": {}}


def _valid_or_said(schema: dict[str, Any]) -> None:
    try:
        value = example_value(schema)
    except ValueError as e:
        assert str(e).startswith("$"), e  # says where no value was found
        return
    Draft202012Validator(schema, format_checker=CHECKER).validate(value)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(keyworded())
def test_every_value_for_the_new_keywords_is_valid(schema: dict[str, Any]) -> None:
    _valid_or_said(schema)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(random_config_schemas())
def test_every_value_for_a_random_config_schema_is_valid(schema: dict[str, Any]) -> None:
    _valid_or_said(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "if": {"minimum": 0}, "then": {"multipleOf": 7}, "else": False},
        {"type": "integer", "if": {"minimum": 10}, "then": False},
        {"type": "array", "contains": {"const": 3}, "minContains": 2, "maxContains": 2},
        {"type": "array", "prefixItems": [{"const": "x"}], "items": False, "minItems": 1},
        {"type": "array", "prefixItems": [True], "unevaluatedItems": False, "minItems": 1},
        {"type": "object", "minProperties": 2, "propertyNames": {"pattern": "^q"}},
        {
            "type": "object",
            "patternProperties": {"^n-": {"type": "integer"}},
            "minProperties": 1,
            "additionalProperties": False,
        },
        {
            "type": "object",
            "required": ["a"],
            "dependentRequired": {"a": ["b"]},
            "dependentSchemas": {"b": {"required": ["c"], "properties": {"c": {"const": 1}}}},
        },
        {
            "type": "object",
            "properties": {"a": True},
            "required": ["a"],
            "unevaluatedProperties": False,
        },
        {"oneOf": [{"type": "integer"}, {"type": "integer", "minimum": 0}]},
        {"allOf": [{"type": "string"}, {"not": {"const": ""}}], "format": "email"},
        {"anyOf": [False, {"type": "number", "multipleOf": 0.25, "minimum": 1.1}]},
    ],
)
def test_a_value_is_found_for_each_keyword(schema: dict[str, Any]) -> None:
    value = example_value(schema)
    Draft202012Validator(schema, format_checker=CHECKER).validate(value)


@pytest.mark.parametrize(
    "schema",
    [
        False,
        {"not": {}},
        {
            "type": "array",
            "contains": {"const": 1},
            "maxContains": 0,
            "minItems": 1,
            "items": {"const": 1},
        },
    ],
)
def test_no_value_is_said_with_the_path(schema: Any) -> None:
    with pytest.raises(ValueError, match=r"^\$"):
        example_value(schema if isinstance(schema, dict) else {"allOf": [schema]})
