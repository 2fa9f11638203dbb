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
