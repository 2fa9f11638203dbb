"""The models' `multipleOf` is exact at every magnitude (the CI failure of a random portable
package): a default of 1e300 under `multipleOf: 0.01`, which `check` accepts, once made the
model refuse every call that left the argument out, because the shipped evaluator computed the
remainder in 28 decimal digits and counted an overflowing quotient as "not a multiple". The
models judge these instances as the reference validator does."""

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
    description: a tool with large multiples
    mcp_server: s
    tool_type: query
    args_schema:
      nothing: {type: "null"}
      cents:
        type: array
        items:
          type: object
          properties:
            amount: {type: number, multipleOf: 0.01}
        default: [{amount: 1e+300}]
      halves: {type: number, multipleOf: 0.5}
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return built_tools(tmp_path_factory.mktemp("numbers"), CONFIG, "numbers_pkg")["t"]


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ({}, True),  # the default (1e300 cents) is filled in and must pass
        ({"nothing": None}, True),
        ({"cents": [{"amount": 1e300}]}, True),
        ({"cents": [{"amount": 10**30 + 1}]}, True),  # an integer past a float's precision
        ({"cents": [{"amount": 12.34}]}, True),
        ({"cents": [{"amount": 0.015}]}, False),
        ({"cents": [{"amount": 1.5e-300}]}, False),
        ({"halves": 2.5e200}, True),
        ({"halves": 0.25}, False),
    ],
)
def test_multiple_of_is_judged_exactly(tool: Any, instance: Any, valid: bool) -> None:
    reference = EcmaValidator(dict(tool.input_schema))
    assert reference.is_valid(instance) is valid  # the case means what it says
    try:
        tool.args_model.model_validate(instance)
        accepted = True
    except pydantic.ValidationError:
        accepted = False
    assert accepted is valid, instance
