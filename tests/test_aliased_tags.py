"""A discriminated union whose tag's Python name is not its wire name (`type-name`,
`class`): the union is still discriminated (mypy narrows on the field), the tag is read by
its wire name only, and every instance gets the published schema's verdict."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from jsonschema import Draft202012Validator
from toolc import verbs

CONFIG = """\
tools:
  draw:
    version: 1.0.0
    description: Draws a shape.
    mcp_server: s
    tool_type: query
    requires: [shape, pet]
    args_schema:
      shape:
        oneOf:
          - type: object
            required: [type-name, radius]
            properties:
              type-name: {const: circle}
              radius: {type: number}
          - type: object
            required: [type-name, side]
            properties:
              type-name: {const: square}
              side: {type: integer}
      pet:
        oneOf:
          - {type: object, required: [class], properties: {class: {const: cat}, lives: {type: integer}}}
          - {type: object, required: [class], properties: {class: {enum: [dog]}, good: {type: boolean}}}
"""
REVEAL = """\
from why_tags.tools.draw import DrawArgs

args = DrawArgs.model_validate({})
shape = args.shape
if shape.type_name == "circle":
    reveal_type(shape)
else:
    reveal_type(shape)
pet = args.pet
if pet.class_ == "dog":
    reveal_type(pet.good)
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tags")
    (root / "cfg").mkdir()
    (root / "cfg" / "tools.yaml").write_text(CONFIG, encoding="utf-8")
    result = verbs.build(root / "cfg", root / "why_tags", root / "tags.json", write=True)
    assert result.written, [str(d) for d in result.diagnostics]
    return root


@pytest.fixture(scope="module")
def spec(root: Path) -> Any:
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("why_tags").TOOLS["draw"]
    finally:
        sys.path.remove(str(root))


def test_the_union_is_discriminated_by_the_wire_name(root: Path) -> None:
    text = (root / "why_tags" / "tools" / "draw.py").read_text(encoding="utf-8")
    assert 'tag_of("type-name", "type_name")' in text and 'tag_of("class", "class_")' in text
    assert 'tagged("circle")' in text and 'tagged("dog")' in text


CIRCLE = {"type-name": "circle", "radius": 1.5}
CAT = {"class": "cat", "lives": 9}
CASES = [
    {"shape": CIRCLE, "pet": CAT},
    {"shape": {"type-name": "square", "side": 2}, "pet": {"class": "dog", "good": True}},
    {"shape": {"type-name": "square", "side": 2.5}, "pet": CAT},
    {"shape": {"type-name": "hexagon"}, "pet": CAT},
    {"shape": {"radius": 1}, "pet": CAT},
    {"shape": {"type_name": "circle", "radius": 1}, "pet": CAT},  # the Python name: no tag
    {"shape": {"type_name": "square", "type-name": "circle", "radius": 1}, "pet": CAT},
    {"shape": {"type-name": 5}, "pet": CAT},
    {"shape": CIRCLE, "pet": {"class": "dog", "good": "yes"}},
    {"shape": CIRCLE, "pet": {"class_": "cat"}},
]


@pytest.mark.parametrize("case", CASES)
def test_instances_are_judged_as_the_published_schema_judges(spec: Any, case: Any) -> None:
    try:
        made = spec.args_model.model_validate(case)
        by_model = True
    except pydantic.ValidationError:
        by_model = False
    assert by_model == Draft202012Validator(spec.input_schema).is_valid(case), case
    if by_model:
        assert made.model_dump(mode="json", by_alias=True, exclude_unset=True) == case


def test_a_model_built_by_keyword_keeps_its_branch(spec: Any) -> None:
    args = spec.args_model.model_validate({"shape": CIRCLE, "pet": CAT})
    rebuilt = spec.args_model(shape=args.shape, pet=args.pet)
    assert rebuilt.model_dump(mode="json", by_alias=True) == args.model_dump(
        mode="json", by_alias=True
    )


def test_mypy_narrows_on_the_aliased_tag(root: Path) -> None:
    from mypy import api

    (root / "reveal.py").write_text(REVEAL)
    (root / "mypy.ini").write_text("[mypy]\n")
    out, _, _ = api.run(["--config-file", str(root / "mypy.ini"), str(root / "reveal.py")])
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == 3, out
    circle, square, good = revealed
    assert circle.endswith("Circle") and square.endswith("Square"), out
    assert good == "bool | None", out  # `good` is only the dog's: narrowed
