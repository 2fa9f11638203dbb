"""toolc's config models are msgspec Structs (decision 0121): converted strictly from data the
published schemas accepted, an integral number counted as an integer as JSON Schema counts it,
the fields a file states told apart from absent ones, and a schema published back as written."""

from __future__ import annotations

import msgspec
import pytest
from toolc.model.policies_file import Policy
from toolc.model.schemas import to_json_schema
from toolc.model.structs import convert, stated_fields
from toolc.model.tools_file import SchemaKeywords, Tool


def test_an_integral_number_is_an_integer_where_the_model_takes_integers_only() -> None:
    schema = convert(
        {
            "minItems": 2.0,
            "items": {"maxLength": 3.0, "minimum": 1.0},
            "properties": {"a": {"maxContains": 1.0}},
            "allOf": [True, {"minProperties": 0.0}],
            "multipleOf": 2.0,
        },
        SchemaKeywords,
    )
    assert schema.minItems == 2 and type(schema.minItems) is int
    assert isinstance(schema.items, SchemaKeywords)
    assert type(schema.items.maxLength) is int
    assert type(schema.items.minimum) is float  # a bound may be any number: kept as written
    assert type(schema.multipleOf) is float
    assert schema.properties is not None and schema.allOf is not None
    a, branch = schema.properties["a"], schema.allOf[1]
    assert isinstance(a, SchemaKeywords) and type(a.maxContains) is int
    assert isinstance(branch, SchemaKeywords) and type(branch.minProperties) is int


def test_an_integral_number_beyond_64_bits_is_an_integer_too() -> None:
    """The schema takes `response_ceiling_bytes: 1.0e19` (an integer, with no maximum); the
    pydantic models refused it (`int_parsing_size`), an internal error of the build, while
    they took 10000000000000000000 written as an integer. Both are that integer now."""
    base = {"version": "1.0.0", "description": "d", "mcp_server": "s", "tool_type": "query"}
    for written in (1.0e19, 10**19):
        tool = convert({**base, "response_ceiling_bytes": written}, Tool)
        assert tool.response_ceiling_bytes == 10**19
        assert type(tool.response_ceiling_bytes) is int


@pytest.mark.parametrize(
    "data",
    [{"minItems": 1.5}, {"minLength": "1"}, {"uniqueItems": "true"}, {"nonsense": 1}],
)
def test_what_the_model_refuses_is_a_value_error(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        convert(data, SchemaKeywords)


def test_strings_are_never_read_as_other_values() -> None:
    assert convert({"type": "null"}, SchemaKeywords).type == "null"
    assert convert({"const": "true", "default": "1"}, SchemaKeywords).const == "true"


def test_a_stated_null_differs_from_an_absent_value() -> None:
    stated = convert({"const": None, "default": None}, SchemaKeywords)
    absent = convert({}, SchemaKeywords)
    assert stated.const is None and stated.default is None
    assert absent.const is msgspec.UNSET and absent.default is msgspec.UNSET
    assert stated_fields(stated) == {"const", "default"}
    assert stated_fields(absent) == frozenset()
    assert to_json_schema(stated) == {"const": None, "default": None}
    assert to_json_schema(absent) == {}


def test_the_fields_a_policy_states() -> None:
    policy = convert({"operation_type": "read_only", "requires": []}, Policy)
    assert stated_fields(policy) == {"operation_type", "requires"}


def test_a_schema_is_published_by_its_keywords_names_in_the_models_order() -> None:
    data = {
        "$ref": "#/types/Order",
        "type": "list",
        "items": {"type": "string", "else": False},
        "label": "a",
        "description": "d",
    }
    published = to_json_schema(convert(data, SchemaKeywords))
    assert published == {
        "type": "array",
        "items": {"type": "string", "else": False},
        "$ref": "#/$defs/Order",
        "description": "d",
        "x-toolc-label": "a",
    }
    assert list(published) == ["type", "items", "$ref", "description", "x-toolc-label"]


def test_models_are_frozen_and_refuse_unknown_keys() -> None:
    tool = convert(
        {"version": "1.0.0", "description": "d", "mcp_server": "s", "tool_type": "query"}, Tool
    )
    with pytest.raises(AttributeError):
        tool.version = "2.0.0"  # type: ignore[misc]
    with pytest.raises(ValueError):
        convert({"version": "1.0.0", "description": "d", "mcp_server": "s",
                 "tool_type": "query", "colour": "red"}, Tool)  # fmt: skip
