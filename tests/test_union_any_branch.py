"""A union with a branch typed `Any` that is not every value (`anyOf: [{type: boolean},
{oneOf: [{}, {enum: [x]}]}]`): the argument was typed `Any` with no check, so `x`, which
both `oneOf` branches take and the schema therefore refuses, was accepted (make fuzz, seed
1035570719). Judged against the reference validator in both published forms."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from built_package import built_tools
from reference import EcmaValidator

ARGS = """\
    args_schema:
      either:
        anyOf:
          - {type: boolean}
          - oneOf: [{}, {enum: ["x"]}]
      all_but_x: {oneOf: [{}, {enum: ["x"]}]}
      any_branch: {anyOf: [{type: boolean}, {}]}
"""
CASES = [
    {"either": "x"}, {"either": "y"}, {"either": True}, {"either": 3}, {"either": None},
    {"all_but_x": "x"}, {"all_but_x": "y"}, {"all_but_x": 1},
    {"any_branch": "x"}, {"any_branch": False},
]  # fmt: skip


@pytest.fixture(scope="module", params=["standard", "portable"])
def tool(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    form = request.param
    head = "publish: portable\n" if form == "portable" else ""
    config = head + (
        "tools:\n  t:\n    version: 1.0.0\n    description: unions with any\n"
        "    mcp_server: s\n    tool_type: query\n" + ARGS
    )
    return built_tools(tmp_path_factory.mktemp(f"any_{form}"), config, f"any_{form}_pkg")["t"]


@pytest.mark.parametrize("instance", CASES, ids=repr)
def test_a_branch_typed_any_with_a_check_keeps_it(tool: Any, instance: Any) -> None:
    expected = EcmaValidator(dict(tool.input_schema)).is_valid(instance)
    try:
        tool.args_model.model_validate(instance)
        accepted = True
    except pydantic.ValidationError:
        accepted = False
    assert accepted is expected, instance


def test_the_cases_hold_both_verdicts(tool: Any) -> None:
    reference = EcmaValidator(dict(tool.input_schema))
    assert {reference.is_valid(case) for case in CASES} == {True, False}
    assert not reference.is_valid({"either": "x"})
