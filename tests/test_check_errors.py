"""A value the shipped evaluator refuses (`conforms`, `CheckedModel`) is a pydantic
ValidationError that says where: the JSON pointer of the failing value (pydantic's `loc`
for a field, the pointer inside the checked value otherwise), the keyword that refused it
and where that keyword is in the published schema."""

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
    description: a tool
    mcp_server: s
    tool_type: query
    args_schema:
      items:
        type: array
        items:
          type: object
          properties:
            name: {type: string}
            n: {type: integer, multipleOf: 3}
      pick: {oneOf: [{type: string}, {type: string, minLength: 2}]}
      tags: {type: object, propertyNames: {maxLength: 3}}
    args_keywords:
      dependentRequired: {pick: [tags]}
  f:
    version: 1.0.0
    description: a tool whose fields check themselves
    mcp_server: s
    tool_type: query
    args_schema:
      items:
        type: array
        items: {type: object, properties: {n: {type: integer, multipleOf: 3}}}
"""


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return built_tools(tmp_path_factory.mktemp("why"), CONFIG, "why_pkg")


def _error(model: Any, value: Any) -> dict[str, Any]:
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(value)
    (error,) = caught.value.errors()
    assert error["type"] == "json_schema", error
    return dict(error)


@pytest.mark.parametrize(
    ("tool", "value", "loc", "instance", "keyword", "schema"),
    [  # a member of a checked object (args_keywords) is its field's to judge: pydantic's
       # loc names the field, the pointer says where inside it
        ("t", {"items": [{"n": 3}, {"n": 4}]}, ("items", 1, "n"), "", "multipleOf",
         "/properties/items/items/properties/n/multipleOf"),
        ("t", {"pick": "abc", "tags": {}}, ("pick",), "", "oneOf", "/properties/pick/oneOf"),
        ("t", {"tags": {"long": 1}}, ("tags",), "/long", "propertyNames",
         "/properties/tags/propertyNames"),
        # the object's own keyword: the whole arguments
        ("t", {"pick": "a"}, (), "", "dependentRequired", "/dependentRequired"),
        # a field checked alone
        ("f", {"items": [{"n": 3}, {"n": 4}]}, ("items", 1, "n"), "", "multipleOf",
         "/properties/items/items/properties/n/multipleOf"),
    ],
)  # fmt: skip
def test_the_error_names_the_value_the_keyword_and_the_schema(
    tools: Any, tool: str, value: Any, loc: tuple[Any, ...], instance: str, keyword: str,
    schema: str,
) -> None:  # fmt: skip
    error = _error(tools[tool].args_model, value)
    assert error["loc"] == loc
    assert error["ctx"]["instance"] == instance and error["ctx"]["keyword"] == keyword
    assert error["ctx"]["schema"] == f"schemas/{tool}.input.json#{schema}"
    where = error["ctx"]["schema"]
    assert f"fails `{keyword}` of the published schema ({where})" in error["msg"]
    if instance:
        assert error["msg"].startswith(f"at {instance}: ")
    if keyword == "propertyNames":  # the name is what fails
        assert '"long" fails' in error["msg"]


def test_a_checked_object_reports_each_failing_member(tools: Any) -> None:
    """Independent mistakes in the members of an object with keywords of its own are all
    reported in one error, each under its field (decision 0132)."""
    value = {"pick": "abc", "items": [{"n": 4}], "tags": {"long": 1}}
    with pytest.raises(pydantic.ValidationError) as caught:
        tools["t"].args_model.model_validate(value)
    found = {(e["loc"], e["ctx"]["keyword"]) for e in caught.value.errors()}
    assert found == {
        (("items", 0, "n"), "multipleOf"), (("pick",), "oneOf"), (("tags",), "propertyNames")
    }  # fmt: skip


def test_a_checked_objects_own_keyword_comes_first_and_its_members_beside_it(
    tools: Any,
) -> None:
    """A value its object's own keyword refuses gets that error first, at the object, and
    each failing member's error beside it: every independent mistake in one error."""
    with pytest.raises(pydantic.ValidationError) as caught:
        tools["t"].args_model.model_validate({"pick": "a", "items": [{"n": 4}]})
    errors = caught.value.errors()
    found = [(e["type"], e["loc"], e["ctx"]["keyword"]) for e in errors]
    assert found == [
        ("json_schema", (), "dependentRequired"), ("json_schema", ("items", 0, "n"), "multipleOf")
    ]  # fmt: skip
    assert errors[1]["msg"].startswith("4 fails `multipleOf` of the published schema")
    assert caught.value.json()  # made again as pydantic's own: it still writes itself


def test_pydantics_own_errors_are_made_again_beside_the_objects(tools: Any) -> None:
    """A member's error of pydantic's own kind keeps its type, context and text."""
    with pytest.raises(pydantic.ValidationError) as caught:
        tools["t"].args_model.model_validate({"pick": "a", "items": "no"})
    errors = caught.value.errors(include_url=False)
    assert [(e["type"], e["loc"]) for e in errors] == [
        ("json_schema", ()), ("list_type", ("items",))
    ]  # fmt: skip
    assert errors[1]["msg"] == "Input should be a valid list"


NUMBERS = """\
tools:
  n:
    version: 1.0.0
    description: numbers beside a rule across arguments
    mcp_server: s
    tool_type: query
    args_schema:
      x: {type: number, maximum: 9007199254740992}
      m: {type: number, multipleOf: 2}
      o:
        type: object
        properties: {m: {type: number, multipleOf: 2}}
        minProperties: 1
      k: {type: integer, maximum: 3}
    args_keywords:
      not: {required: [zzz]}
"""


@pytest.fixture(scope="module")
def numbers(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return built_tools(tmp_path_factory.mktemp("numbers"), NUMBERS, "checked_numbers_pkg")


@pytest.mark.parametrize(
    "value",
    [{"x": 2**53 + 1}, {"m": 2**53 + 1}, {"o": {"m": 2**53 + 1}}, {"x": 2**53}, {"k": 3}],
)
def test_a_checked_objects_numbers_are_judged_exactly(numbers: Any, value: dict[str, Any]) -> None:
    """pydantic's `float` makes 2**53 + 1 the float 2**53 before a bound or a check sees
    it: a member that bounds a number stays in the object's own check, which judges the
    integer itself (decision 0132)."""
    expected = EcmaValidator(dict(numbers["n"].input_schema)).is_valid(value)
    try:
        numbers["n"].args_model.model_validate(value)
        accepted = True
    except pydantic.ValidationError:
        accepted = False
    assert accepted is expected


def test_a_mistake_both_checks_find_is_reported_once(numbers: Any) -> None:
    """A bounded number stays in the object's check and has its field's: its mistake is
    reported once, under its field."""
    with pytest.raises(pydantic.ValidationError) as caught:
        numbers["n"].args_model.model_validate({"m": 3, "k": 4})
    assert [(e["loc"], e["type"]) for e in caught.value.errors()] == [
        (("m",), "json_schema"), (("k",), "less_than_equal")
    ]  # fmt: skip


def test_the_wire_says_why_without_the_value(tools: Any) -> None:
    """A `details` reason names the place, the keyword and the schema, never the value: the
    models' own text quotes it (for whoever validates locally), and VALIDATION_ERROR and
    INVALID_RESULT sent it to the caller, secrets and refused answers included."""
    from typing import Literal

    from toolc.runtime.client_envelope import _refused
    from toolc.runtime.server_fields import problems

    secret = "S3CRET-hunter2"
    with pytest.raises(pydantic.ValidationError) as caught:
        tools["t"].args_model.model_validate({"pick": secret, "tags": {"abcd-" + secret: 1}})
    assert secret in str([e["msg"] for e in caught.value.errors()])  # the local text
    spec = tools["t"]
    for details in (problems(caught.value), _refused(spec, caught.value).error.details):
        reasons = [d["reason"] for d in details]
        assert len(reasons) == 2 and not any(secret in r for r in reasons), reasons
        assert reasons[0].startswith("the value fails `oneOf` of the published schema (")
        assert reasons[1].startswith("a property name fails `propertyNames` of the published")

    class A(pydantic.BaseModel):
        kind: Literal["a"]

    class B(pydantic.BaseModel):
        kind: Literal["b"]

    class Tagged(pydantic.BaseModel):
        v: A | B = pydantic.Field(discriminator="kind")

    with pytest.raises(pydantic.ValidationError) as tagged:
        Tagged.model_validate({"v": {"kind": secret}})
    (detail,) = problems(tagged.value)
    assert secret not in detail["reason"] and "'a', 'b'" in detail["reason"], detail
