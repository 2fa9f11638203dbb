"""A `number` argument is judged as it was sent, at every magnitude (decision 0133; `make fuzz`
seed 1330846647): pydantic's `float` makes an integer beyond 2**53 the nearest double, so
`{type: number, minimum: 1e16}` took 9999999999999999 and `exclusiveMinimum: 2**53` refused
2**53 + 1. A bound a double cannot judge, and every check of a schema that may take a number,
now read the number before `float` does; the models judge as the reference validator does."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from built_package import built_tools
from reference import EcmaValidator

BIG = 2**53
CONFIG = f"""\
types:
  Amount: {{type: number}}
tools:
  t:
    version: 1.0.0
    description: numbers beyond a double's precision
    mcp_server: s
    tool_type: query
    args_schema:
      at_least: {{type: number, minimum: 1.0e16}}
      above: {{type: number, exclusiveMinimum: {BIG}}}
      thirds: {{type: number, multipleOf: 3}}
      evens: {{type: number, multipleOf: 2.0}}
      nullable: {{type: [number, "null"], maximum: {BIG}}}
      either: {{anyOf: [{{type: number, maximum: {BIG}}}, {{type: string}}]}}
      several: {{type: array, items: {{type: number, maximum: {BIG}}}}}
      text_or_number: {{type: [number, string], multipleOf: 3, maxLength: 2}}
      inner:
        type: object
        properties:
          thirds: {{type: number, multipleOf: 3}}
          below: {{type: number, exclusiveMaximum: {BIG}}}
      checked:
        type: object
        not: {{required: [nothing]}}
        properties:
          thirds: {{type: number, multipleOf: 3}}
          below: {{type: number, maximum: {BIG}}}
          contained: {{type: array, items: {{type: number}}, contains: {{minimum: 1.0e16}}}}
      everyday: {{type: number, minimum: 0, maximum: 100}}
      contained: {{type: array, items: {{type: number}}, contains: {{minimum: 1.0e16}}}}
      amounts: {{type: array, items: {{$ref: "#/types/Amount"}}, contains: {{const: {BIG}}}}}
      distinct: {{type: array, items: {{type: number}}, uniqueItems: true}}
      anything: {{minItems: 1, contains: {{multipleOf: 3}}}}
      bounded_thirds: {{type: number, minimum: 0, maximum: 100, multipleOf: 3}}
      fives: {{type: number, multipleOf: 5}}
      whole_fives: {{type: integer, multipleOf: 5}}
      tuple_map:
        type: object
        prefixItems: [{{type: string}}]
        additionalProperties: {{type: number}}
        not: {{properties: {{k: {{const: {BIG + 1}}}}}}}
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return built_tools(tmp_path_factory.mktemp("precision"), CONFIG, "precision_pkg")["t"]


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ({"at_least": 9999999999999999}, False),  # its double is 1e16
        ({"at_least": 10**16}, True),
        ({"at_least": 1e16}, True),
        ({"above": BIG}, False),
        ({"above": BIG + 1}, True),  # its double is 2**53
        ({"above": float(BIG)}, False),
        ({"thirds": BIG + 1}, True),  # 3 × 3002399751580331; its double is not a multiple
        ({"thirds": BIG + 2}, False),
        ({"thirds": 4.5}, False),
        # the reference once divided as doubles here: 2**53 + 1 is odd (review of 0133)
        ({"evens": BIG + 1}, False),
        ({"evens": BIG + 2}, True),
        ({"evens": 0.5}, False),
        ({"nullable": BIG + 1}, False),
        ({"nullable": None}, True),
        ({"nullable": BIG}, True),
        ({"either": BIG + 1}, False),
        ({"either": "x"}, True),
        ({"several": [1, BIG + 1]}, False),
        ({"several": [1, BIG]}, True),
        ({"text_or_number": BIG + 1}, True),
        ({"text_or_number": BIG + 2}, False),
        ({"text_or_number": "abc"}, False),
        ({"text_or_number": "ab"}, True),
        ({"inner": {"thirds": BIG + 1, "below": BIG - 1}}, True),
        ({"inner": {"thirds": BIG + 2}}, False),
        ({"inner": {"below": BIG}}, False),
        # an object with keywords of its own leaves its members to their fields (0132)
        ({"checked": {"thirds": BIG + 1, "below": BIG, "contained": [10**16]}}, True),
        ({"checked": {"thirds": BIG + 2}}, False),
        ({"checked": {"below": BIG + 1}}, False),
        ({"checked": {"contained": [9999999999999999]}}, False),
        ({"checked": {"nothing": 1}}, False),
        ({"everyday": BIG + 1}, False),
        ({"everyday": 10**400}, False),
        ({"everyday": 100}, True),
        ({"everyday": True}, False),
        # a check around numbers reads them as sent, not as the doubles they were typed
        ({"contained": [9999999999999999]}, False),
        ({"contained": [1, 10**16]}, True),
        ({"amounts": [BIG + 1]}, False),
        ({"amounts": [BIG + 1, BIG]}, True),
        ({"distinct": [BIG, BIG + 1]}, True),
        ({"distinct": [BIG, float(BIG)]}, False),
        ({"anything": [BIG + 1]}, True),
        ({"anything": [BIG + 2]}, False),
        ({"anything": BIG + 2}, True),  # not an array: `contains` says nothing
        # review finding: `prefixItems` beside `additionalProperties` hid its numbers
        ({"tuple_map": {"k": BIG + 1}}, False),
        ({"tuple_map": {"k": BIG}}, True),
        ({"bounded_thirds": 99}, True),
        ({"bounded_thirds": 300}, False),
        # a float beyond 2**53 is the integer it is, in every position (review, session
        # 24: the `integer` position refused what the `number` one took)
        ({"fives": 1.1957010862761908e19}, False),  # 11957010862761908224
        ({"whole_fives": 1.1957010862761908e19}, False),
        ({"fives": 11957010862761908000}, True),  # the same double, sent as an integer
        ({"whole_fives": 11957010862761908000}, True),
        ({"fives": 1e20}, True),  # 100000000000000000000 exactly
        ({"whole_fives": 1e20}, True),
    ],
)
def test_numbers_are_judged_as_sent(tool: Any, instance: Any, valid: bool) -> None:
    reference = EcmaValidator(dict(tool.input_schema))
    assert reference.is_valid(instance) is valid  # the case means what it says
    try:
        tool.args_model.model_validate(instance)
        accepted = True
    except pydantic.ValidationError:
        accepted = False
    assert accepted is valid


def test_a_refused_number_is_reported_under_its_argument(tool: Any) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        tool.args_model.model_validate({"at_least": 9999999999999999, "above": BIG})
    assert sorted(e["loc"] for e in caught.value.errors()) == [("above",), ("at_least",)]
    assert {e["type"] for e in caught.value.errors()} == {"json_schema"}


def test_an_integer_beyond_a_double_is_kept(tool: Any) -> None:
    """An accepted integer beyond 2**53 in a checked field stays the integer sent; any
    other number is a float, as the type says."""
    made = tool.args_model.model_validate({"above": BIG + 1, "thirds": BIG + 1, "everyday": 5})
    assert made.above == BIG + 1 and made.thirds == BIG + 1
    assert type(made.everyday) is float
    built = tool.args_model(above=BIG + 1)  # by keyword, as a client builds it
    assert built.above == BIG + 1


def test_the_wire_form_of_a_kept_integer_is_valid_again(tool: Any) -> None:
    """Review of 0133: `float`'s serializer wrote the kept integer as its double,
    9007199254740992.0, which `exclusiveMinimum: 2**53` refuses, so a client sent that and
    a server re-validating resolved arguments refused it. The integer is written as sent."""
    made = tool.args_model.model_validate({"above": BIG + 1, "thirds": 3.0, "nullable": None})
    wire = made.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert wire == {"above": BIG + 1, "thirds": 3.0, "nullable": None}
    assert type(wire["thirds"]) is float  # any other number as its type writes it
    assert made.model_dump_json(by_alias=True, exclude_unset=True) == (
        f'{{"above":{BIG + 1},"thirds":3.0,"nullable":null}}'
    )
    assert tool.args_model.model_validate(wire) == made
    built = tool.args_model(above=BIG + 1)  # by keyword, as the typed client builds it
    sent = built.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert tool.args_model.model_validate(sent).above == BIG + 1


def test_an_ordinary_bound_keeps_its_own_error_beside_a_check(tool: Any) -> None:
    """Review finding: a bound below 2**53 reports pydantic's error even where the schema
    has another check (`multipleOf`), as before decision 0133."""
    with pytest.raises(pydantic.ValidationError) as caught:
        tool.args_model.model_validate({"nullable": BIG + 2, "bounded_thirds": 300})
    assert {e["type"] for e in caught.value.errors()} == {"json_schema", "less_than_equal"}


def test_an_everyday_bound_stays_the_types_own(tool: Any) -> None:
    """Only bounds a double cannot judge cost a check: `minimum: 0` stays in pydantic's
    own float schema (Rust), with its own error."""
    metadata = tool.args_model.model_fields["everyday"].metadata
    assert [type(m).__name__ for m in metadata] == ["Ge", "Le", "BeforeValidator"]
    assert metadata[2].func.__name__ == "reject_null"  # and no check
    with pytest.raises(pydantic.ValidationError) as caught:
        tool.args_model.model_validate({"everyday": 101})
    assert caught.value.errors()[0]["type"] == "less_than_equal"


def test_a_model_built_by_keyword_is_checked_as_it_was_made(tool: Any) -> None:
    """By Python names, what the check reads is the made model's wire form."""
    fields = tool.args_model.model_fields
    assert "contained" in fields
    made = tool.args_model(contained=[1e16])
    assert made.contained == [1e16]
    with pytest.raises(pydantic.ValidationError):
        tool.args_model(contained=[1.0])


def test_a_checked_object_passed_as_an_instance_keeps_its_integer(tool: Any) -> None:
    """Review of 0133: a checked object's instance nested in arguments is judged by its
    wire form, which wrote a kept integer as its double (`multipleOf: 3` refused it)."""
    inner = tool.args_model.model_validate({"checked": {"thirds": BIG + 1}}).checked
    assert inner.thirds == BIG + 1
    made = tool.args_model(checked=inner)
    assert made.model_dump(mode="json", exclude_unset=True) == {"checked": {"thirds": BIG + 1}}
