"""An optional argument takes null exactly when its schema does (the CI failure of a random
portable package): a union with a checked branch that takes null (`anyOf: [..., {type:
[string, null], pattern: ...}]`) hid that branch's `None` inside an alias, so the field
refused null as "not allowed here" although the published schema accepts it. Each case is
judged in both published forms, standard and portable, against the reference validator."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from built_package import built_tools
from reference import EcmaValidator

ARGS = """\
    args_schema:
      checked_branch:
        anyOf:
          - {type: [number, array, boolean], items: {type: boolean}}
          - {type: [string, "null"], pattern: "^P-[0-9]+$", default: P-7}
      plain_branch:
        anyOf: [{type: integer, minimum: 1}, {type: "null"}]
      no_null: {anyOf: [{type: string, pattern: "^P-"}, {type: integer, multipleOf: 2}]}
      one_of_null:
        oneOf: [{type: [string, "null"], minLength: 2}, {type: integer}]
      shared_bound: {$ref: "#/types/Bounded"}
      list_of_bounded:
        type: array
        items: {type: [number, "null"], exclusiveMaximum: 100, multipleOf: 5}
      # The same on a field: its bounds after its check reached a null (the bench's random
      # config pkg_8 of 2026-12-05 found `unique_items` before `min_length`).
      unique_or_null:
        type: [array, "null"]
        minItems: 1
        uniqueItems: true
        items: {type: string, not: {const: x}}
      bounded_or_null: {type: [number, "null"], exclusiveMaximum: 100, multipleOf: 5}
      # Shared types that are null alone: their aliases were `None`, and `Nothing | None`
      # or `Nothing | NullBranch` was `None | None`, a TypeError on import (make fuzz,
      # session 25).
      only_null: {$ref: "#/types/Nothing"}
      nothing_or_null: {anyOf: [{$ref: "#/types/Nothing"}, {type: "null"}]}
      two_nothings: {anyOf: [{$ref: "#/types/NullBranch"}, {$ref: "#/types/NothingAgain"}]}
      again_or_null: {oneOf: [{$ref: "#/types/NothingAgain"}, {type: "null"}]}
types:
  # A nullable number with a bound and a check pydantic cannot make (`multipleOf` on a
  # float): the alias applied the bound after the check, to None too (a TypeError, not a
  # validation error: the bench's random config pkg_10 found it).
  Bounded: {type: [number, "null"], exclusiveMaximum: 2.000000000000001e+16, multipleOf: 5}
  Nothing: {type: "null"}
  NullBranch: {anyOf: [{type: "null"}]}
  NothingAgain: {$ref: "#/types/Nothing"}
"""
CASES = [
    {"checked_branch": None}, {"checked_branch": "P-1"}, {"checked_branch": "x"},
    {"checked_branch": 3}, {"checked_branch": [True]}, {"checked_branch": {}},
    {"plain_branch": None}, {"plain_branch": 0}, {"plain_branch": 2},
    {"no_null": None}, {"no_null": "P-1"}, {"no_null": 3},
    {"one_of_null": None}, {"one_of_null": "ab"}, {"one_of_null": "a"}, {"one_of_null": 1},
    {"shared_bound": None}, {"shared_bound": 10.0}, {"shared_bound": 7},
    {"shared_bound": 3e16}, {"shared_bound": "x"},
    {"list_of_bounded": [None, 5, 95.0]}, {"list_of_bounded": [100]},
    {"list_of_bounded": [None, 3]}, {"list_of_bounded": [None, None]},
    {"unique_or_null": None}, {"unique_or_null": []}, {"unique_or_null": ["a"]},
    {"unique_or_null": ["a", "a"]}, {"unique_or_null": ["x"]}, {"unique_or_null": "a"},
    {"bounded_or_null": None}, {"bounded_or_null": 95}, {"bounded_or_null": 100},
    {"bounded_or_null": 7},
    {"only_null": None}, {"only_null": 0}, {"only_null": "None"},
    {"nothing_or_null": None}, {"nothing_or_null": False},
    {"two_nothings": None}, {"two_nothings": 0}, {"again_or_null": None},
    {"again_or_null": []},
]  # fmt: skip


def _config(form: str) -> str:
    head = "publish: portable\n" if form == "portable" else ""
    return head + (
        "tools:\n  t:\n    version: 1.0.0\n    description: nullable unions\n"
        "    mcp_server: s\n    tool_type: query\n" + ARGS
    )


@pytest.fixture(scope="module", params=["standard", "portable"])
def tool(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    form = request.param
    root = tmp_path_factory.mktemp(f"nulls_{form}")
    return built_tools(root, _config(form), f"nulls_{form}_pkg")["t"]


@pytest.mark.parametrize("instance", CASES, ids=repr)
def test_null_is_accepted_exactly_where_the_schema_accepts_it(tool: Any, instance: Any) -> None:
    expected = EcmaValidator(dict(tool.input_schema)).is_valid(instance)
    try:
        tool.args_model.model_validate(instance)
        accepted = True
    except pydantic.ValidationError:
        accepted = False
    assert accepted is expected, instance


def test_the_cases_hold_both_verdicts_for_null(tool: Any) -> None:
    """The cases are not all alike: null is valid for some arguments and refused for others."""
    reference = EcmaValidator(dict(tool.input_schema))
    verdicts = {reference.is_valid(case) for case in CASES if None in case.values()}
    assert verdicts == {True, False}
