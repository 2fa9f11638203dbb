"""What the reference docs say of a tool's schemas: example arguments the published
inputSchema accepts (judged as the model judges a call, never shown otherwise), unknown
arguments as the published root treats them, tuples and allOf in words, and table cells that
a `|` in a name or a value does not split."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from reference import EcmaValidator
from toolc import verbs
from toolc.reference import docs_files
from toolc.reference.examples import example
from toolc.reference.render import code
from toolc.reference.schema_text import type_text
from toolc.verbs.docs import reference

TOOLS = """tools:
  pick:
    version: 1.0.0
    description: Picks two.
    mcp_server: s
    tool_type: query
    requires: [a, "x|y", none]
    args_schema:
      a: {type: array, items: {enum: [1, 2]}, minItems: 2, uniqueItems: true}
      "x|y": {type: string, default: "p|q", enum: ["p|q", "r"]}
      none: {type: array, items: {enum: [k1]}, maxItems: 0}
  dep:
    version: 1.0.0
    description: Needs b with a.
    mcp_server: s
    tool_type: query
    requires: [a]
    args_schema:
      a: {enum: [x, y]}
      b: {type: string}
    args_keywords:
      dependentRequired: {a: [b]}
  closed:
    version: 1.0.0
    description: Closed by args_keywords.
    mcp_server: s
    tool_type: query
    args_schema:
      a: {type: string, examples: [s]}
    args_keywords:
      unevaluatedProperties: false
  either:
    version: 1.0.0
    description: One of two, other arguments strings.
    mcp_server: s
    tool_type: query
    args_schema:
      by_id: {type: string, examples: [u1]}
      by_email: {type: string, examples: [a@b.c]}
    args_keywords:
      oneOf: [{required: [by_id]}, {required: [by_email]}]
      unevaluatedProperties: {type: string}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    """The page of TOOLS and each tool's published inputSchema."""
    folder: Path = tmp_path_factory.mktemp("cfg")
    (folder / "tools.yaml").write_text(TOOLS)
    compiled = verbs.compile_config(folder, cwd=folder)
    assert compiled.package is not None
    listed = json.loads(compiled.files["tools.json"])["tools"]
    return reference(compiled)["s.md"].decode(), {t["name"]: t["inputSchema"] for t in listed}


def _section(page: str, tool: str) -> str:
    return page.split(f'<a id="tool.{tool}"></a>')[1].split("<a id=")[0]


def _example(section: str) -> Any:
    found = re.search(r"```json\n(.*?)\n```", section, re.S)
    return None if found is None else json.loads(found.group(1))


def test_examples_respect_array_bounds_and_rules_across_arguments(
    built: tuple[str, dict[str, Any]],
) -> None:
    page, schemas = built
    assert _example(_section(page, "pick")) == {"a": [1, 2], "none": [], "x|y": "p|q"}
    assert _example(_section(page, "dep")) is None  # `b` is needed with `a`, and offers nothing
    assert _example(_section(page, "closed")) == {"a": "s"}
    # both would break the oneOf: the first optional one that satisfies it
    assert _example(_section(page, "either")) == {"by_email": "a@b.c"}
    for tool, schema in schemas.items():  # an independent judge: every example shown is valid
        shown = _example(_section(page, tool))
        assert shown is None or EcmaValidator(schema).is_valid(shown), tool


def test_unknown_arguments_are_said_as_the_published_root_treats_them(
    built: tuple[str, dict[str, Any]],
) -> None:
    page, _ = built
    assert "- Unknown arguments: ignored\n" in _section(page, "pick")
    assert "- Unknown arguments: refused\n" in _section(page, "closed")
    said = "- Unknown arguments: ignored when each is string, else refused\n"
    assert said in _section(page, "either")


def test_a_pipe_does_not_split_a_cell(built: tuple[str, dict[str, Any]]) -> None:
    page, _ = built
    row = next(line for line in page.splitlines() if line.startswith("| `x"))
    assert row.startswith('| `x\\|y` | one of "p\\|q", "r" | yes | `"p\\|q"` |')
    assert len(re.split(r"(?<!\\)\|", row)) == 9  # GFM's split: 7 cells and the two ends
    assert code("a`b") == "``a`b``" and code("`a") == "`` `a ``" and code("") == "—"


def _page(inputs: dict[str, Any], unknown: str = "ignore") -> str:
    tool = {"name": "t", "inputSchema": inputs, "_meta": {"version": "1.0.0"}}
    files = {
        "tools.json": json.dumps({"tools": [tool]}).encode(),
        "contracts/t.json": json.dumps({"unknown_args": unknown}).encode(),
    }
    return docs_files(files, {"t": "s"})["s.md"].decode()


def test_unknown_arguments_of_a_published_root_in_words() -> None:
    typed = {"type": "object", "additionalProperties": {"type": "integer"}}
    assert "- Unknown arguments: ignored when each is integer, else refused\n" in _page(typed)
    closed = {"additionalProperties": False, "patternProperties": {"^x-": {"type": "string"}}}
    assert "- Unknown arguments: refused (a name matching `^x-` must be string)\n" in _page(closed)
    assert "- Unknown arguments: refused\n" in _page({"type": "object"}, "forbid")


def _arguments(properties: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": [*properties], **root}


def _shown(inputs: dict[str, Any]) -> Any:
    return _example(_page(inputs))


def test_an_example_is_judged_by_the_models_reading_of_patterns() -> None:
    # the pattern as ECMA-262 reads it: its \d is ASCII, not an Arabic-Indic digit
    digit = {"type": "string", "pattern": "^\\d$", "examples": ["\u0661"]}
    assert _shown(_arguments({"a": digit})) is None
    assert _shown(_arguments({"a": {**digit, "examples": ["1"]}})) == {"a": "1"}
    # a backreference the model's linear-time engine cannot read: no judgement, no example
    unread = {"type": "string", "pattern": "^(a)\\1$", "examples": ["aa"]}
    assert _shown(_arguments({"a": unread})) is None


def test_an_array_asking_for_many_items_gets_no_example() -> None:
    """`minItems: 1000000` built a 9 MB example for llms.txt in 0.9 s (2**53 never ended)."""
    many = {"type": "array", "items": {"enum": [1, 2]}, "minItems": 2**53}
    assert _shown(_arguments({"a": many})) is None
    assert _shown(_arguments({"a": {**many, "minItems": 20}})) == {"a": [1, 2] * 10}


def test_declared_examples_and_recursive_types() -> None:
    choice = {"enum": ["x", "z"]}
    declared = _arguments({"a": choice}, examples=[{"a": "q"}, {"a": "z"}])
    assert _shown(declared) == {"a": "z"}  # the first one the schema accepts
    assert _shown(_arguments({"a": {"type": "array", "items": choice, "minItems": 2}})) == {
        "a": ["x", "z"]
    }
    recursive = _arguments({"l": {"$ref": "#/$defs/L"}})
    recursive["$defs"] = {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}
    assert example(recursive) == ""  # and no endless descent


@pytest.mark.parametrize(
    ("schema", "text"),
    [
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "[string, integer, ...]",
        ),
        (
            {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": False,
            },
            "[string, integer]",
        ),
        (
            {"type": "array", "prefixItems": [{"type": "string"}], "unevaluatedItems": False},
            "[string]",
        ),
        (
            {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
            "[string, ...integer]",
        ),
        ({"type": "array", "items": False}, "empty array"),
        ({"allOf": [{"minimum": 1}, {"maximum": 3}]}, "any (if a number: ≥ 1, ≤ 3)"),
        ({"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}, "A and B"),
        ({"type": "string", "allOf": [{"format": "email"}]}, "string (email)"),
        ({"type": ["string", "null"], "allOf": [{"format": "uuid"}]}, "string (uuid) | null"),
        ({"allOf": [{"format": "date"}]}, 'any (if a string: format "date")'),
        ({"type": "integer", "allOf": [{"format": "int32"}]}, "integer"),
        ({"allOf": [{"type": ["string", "null"]}, {"$ref": "#/$defs/B"}]}, "(string | null) and B"),
        ({"allOf": [{"type": "string"}, False]}, "nothing"),
    ],
)
def test_tuples_and_all_of_in_words(schema: dict[str, Any], text: str) -> None:
    assert type_text(schema) == text
