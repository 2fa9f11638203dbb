"""`details[].field` without pydantic's union branches (runtime/server_fields): the branch a
label names is the one read on, so a field of it is never taken for a nested branch's label
and dropped (`v.f.g` read as `v.f`, `x.k.g` as `x.k`)."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from pydantic import BaseModel
from toolc.runtime.server_fields import wire_loc


class Leaf(BaseModel):
    g: int


class Plain(BaseModel):
    f: int | str


class Nested(BaseModel):
    f: Leaf


class Models(BaseModel):
    v: Plain | Nested


class Containers(BaseModel):
    x: list[str | int] | dict[str, Leaf]


@pytest.mark.parametrize(
    ("model", "value", "fields"),
    [
        (Models, {"v": {"f": {"g": "zz"}}}, {("v", "f"), ("v", "f", "g")}),
        (Containers, {"x": {"k": {"g": "zz"}}}, {("x",), ("x", "k", "g")}),
    ],
)
def test_a_branch_is_read_by_its_label(model: Any, value: Any, fields: set[Any]) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(value)
    schema = model.__pydantic_core_schema__
    assert {wire_loc(schema, e["loc"]) for e in caught.value.errors()} == fields


class Ids(BaseModel):
    ids: list[pydantic.constr(pattern="^P-[0-9]+$")]  # type: ignore[valid-type]


def test_a_flood_of_problems_is_described_in_bounded_size() -> None:
    """300,000 bad items in a 3 MB request made an 84 MB VALIDATION_ERROR (one detail and
    one name each) that held the event loop for seconds (decision 0146)."""
    from toolc.runtime.server_call_errors import invalid_arguments
    from toolc.runtime.server_fields import MAX_PROBLEMS

    with pytest.raises(pydantic.ValidationError) as caught:
        Ids.model_validate({"ids": ["x"] * 5000})
    error = invalid_arguments("t", caught.value, Ids)
    details = error["details"]
    assert len(details) == MAX_PROBLEMS + 1
    assert details[-1] == {"field": "", "reason": "4950 more not listed", "type": "truncated"}
    assert [d["field"] for d in details[:3]] == ["ids[0]", "ids[1]", "ids[2]"]
    assert error["message"] == (
        "Invalid arguments for t: " + ", ".join(f"ids[{i}]" for i in range(10)) + " and more."
    )
    with pytest.raises(pydantic.ValidationError) as few:
        Ids.model_validate({"ids": ["x", "P-1", "y"]})
    small = invalid_arguments("t", few.value, Ids)
    assert small["message"] == "Invalid arguments for t: ids[0], ids[2]."
    assert [d["type"] for d in small["details"]] == ["string_pattern_mismatch"] * 2
