"""A field's bounds sit in its type's own schema, before its checks (`unique_items`,
`reject_null`): pydantic checks them in Rust with the type's own errors, where after a
check it ran a Python function per bound and called a string too long "Value should have
at most 5 items". Only a `conforms` check keeps them after it, so that its keywords
report as the published schema's (`json_schema`). Verdicts stay the reference's."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from built_package import built_tools
from reference import EcmaValidator

CONFIG = """\
tools:
  t:
    version: 1.0.0
    description: bounds and checks
    mcp_server: s
    tool_type: query
    requires: [ids]
    args_schema:
      ids:
        type: array
        items: {type: string}
        minItems: 1
        maxItems: 3
        uniqueItems: true
      note: {type: string, maxLength: 5}
      checked: {type: string, maxLength: 3, not: {const: ab}}
      count: {type: integer, minimum: 1, maximum: 10}
      maybe: {type: [integer, "null"], exclusiveMinimum: 0}
      half: {type: integer, exclusiveMinimum: 0.5, maximum: 9.5}
      range: {type: integer, minimum: 2.5, exclusiveMaximum: 4.5}
      huge: {type: integer, minimum: -1e19, maximum: 1e19}
      items: {type: array, items: {type: integer, maximum: 1.5}}
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return built_tools(tmp_path_factory.mktemp("constraints"), CONFIG, "bounds_pkg")["t"]


def _errors(tool: Any, instance: dict[str, Any]) -> list[tuple[str, str]]:
    try:
        tool.args_model.model_validate(instance)
    except pydantic.ValidationError as error:
        return [(e["type"], e["msg"]) for e in error.errors()]
    return []


@pytest.mark.parametrize(
    ("instance", "expected"),
    [
        ({"ids": ["a"], "note": "abcdef"}, "string_too_long"),
        ({"ids": []}, "too_short"),
        ({"ids": ["a", "b", "c", "d"]}, "too_long"),
        ({"ids": ["a", "a"]}, "value_error"),  # uniqueItems
        ({"ids": ["a"], "note": None}, "value_error"),  # null: omit it instead
        ({"ids": ["a"], "checked": "abcd"}, "json_schema"),  # conforms reports first
        ({"ids": ["a"], "checked": "ab"}, "json_schema"),
        ({"ids": ["a"], "count": 0.0}, "greater_than_equal"),
        ({"ids": ["a"], "count": 11}, "less_than_equal"),
        ({"ids": ["a"], "count": 2.5}, "int_type"),
        ({"ids": ["a"], "count": True}, "int_type"),
        ({"ids": ["a"], "maybe": 0}, "greater_than"),
    ],
)
def test_each_bound_reports_with_its_types_error(
    tool: Any, instance: dict[str, Any], expected: str
) -> None:
    errors = _errors(tool, instance)
    assert [kind for kind, _ in errors] == [expected], errors
    assert EcmaValidator(dict(tool.input_schema)).is_valid(instance) is False


def test_messages_name_what_is_bounded(tool: Any) -> None:
    assert _errors(tool, {"ids": ["a"], "note": "abcdef"}) == [
        ("string_too_long", "String should have at most 5 characters")
    ]
    assert _errors(tool, {"ids": []})[0][1].startswith("List should have at least 1 item")


def test_bounds_are_checked_in_the_types_schema_not_by_python(tool: Any) -> None:
    fields = tool.args_model.__pydantic_core_schema__["schema"]["fields"]
    for name in ("ids", "note", "count", "maybe"):
        assert "_validator at" not in repr(fields[name]), name  # pydantic's own functions
    # after a `conforms` check, the bound is a Python function: the test can see one
    assert "max_length_validator" in repr(fields["checked"])


@pytest.mark.parametrize(
    "instance",
    [
        {"ids": ["a"]},
        {"ids": ["a", "b", "c"], "note": "abcde"},
        {"ids": ["x"], "checked": "abc"},
        {"ids": ["x"], "count": 10.0, "maybe": None},
        {"ids": ["x"], "count": 1, "maybe": 1.0},
    ],
)
def test_what_the_schema_accepts_is_accepted(tool: Any, instance: dict[str, Any]) -> None:
    assert EcmaValidator(dict(tool.input_schema)).is_valid(instance)
    assert _errors(tool, instance) == []


def test_an_integral_number_is_an_integer(tool: Any) -> None:
    made = tool.args_model.model_validate({"ids": ["x"], "count": 10.0, "maybe": 3.0})
    assert (made.count, made.maybe) == (10, 3)
    assert type(made.count) is int and type(made.maybe) is int


@pytest.mark.parametrize(
    ("field", "value"),
    [
        (field, value)
        for field, values in {
            "half": [0, 1, 9, 10, 0.5, 1.0, 9.5],
            "range": [2, 3, 4, 5, 3.0, 2.5, 4.5],
            "huge": [10**19, 10**19 + 1, -(10**19), -(10**19) - 1, 1e19, 0],
            "items": [[1], [2], [1, 1.0], [-5]],
        }.items()
        for value in values
    ],
)
def test_integer_bounds_that_are_not_whole_or_beyond_64_bits(
    tool: Any, field: str, value: Any
) -> None:
    """pydantic's `int` takes whole bounds only: the model has each bound's floor or
    ceiling, which an integer meets exactly when it meets the bound (a fraction, a float
    beyond 64 bits made every validation of the model a `SchemaError`)."""
    instance = {"ids": ["a"], field: value}
    expected = EcmaValidator(dict(tool.input_schema)).is_valid(instance)
    assert (_errors(tool, instance) == []) is expected, (instance, _errors(tool, instance))
