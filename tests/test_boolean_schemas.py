"""`true` and `false` as whole schemas (an argument, `returns`, a type, a caller form), with
their 2020-12 meaning: `true` any JSON value (typed `Any`, like `{}`), `false` none. They are
published as written; a `false` argument can only be absent, so a required one is refused."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pydantic
import pytest
from jsonschema import Draft202012Validator
from toolc import verbs

HEAD = "version: 1.0.0\n    description: a tool\n    mcp_server: s\n    tool_type: query\n"
CONFIG = f"""\
types:
  Anything: true
  Nothing: false
tools:
  open_tool:
    {HEAD}    requires: [payload]
    args_schema:
      payload: true
      gone: false
      any_ref: {{$ref: '#/types/Anything'}}
      none_ref: {{$ref: '#/types/Nothing'}}
      none_list: {{type: array, items: {{$ref: '#/types/Nothing'}}}}
    returns: true
  closed_tool:
    {HEAD}    args_schema:
      gone: false
    returns: false
"""
CASES = {
    "open_tool": [
        {"payload": 1},
        {"payload": None},
        {"payload": {"a": [1]}},
        {},
        {"payload": 1, "gone": 1},
        {"payload": 1, "gone": None},
        {"payload": 1, "any_ref": "x"},
        {"payload": 1, "none_ref": 0},
        {"payload": 1, "none_list": []},
        {"payload": 1, "none_list": [1]},
    ],
    "closed_tool": [{}, {"gone": True}, {"other": 1}],
}


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "tools.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_boolean_schemas_are_published_as_written_and_judged_alike(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    config = _write(tmp_path / "cfg", CONFIG)
    result = verbs.build(config, tmp_path / "bools", tmp_path / "bools.json", write=True)
    assert result.written, [str(d) for d in result.diagnostics]
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("bools")
    finally:
        sys.path.remove(str(tmp_path))
    spec = package.TOOLS["open_tool"]
    assert spec.input_schema["properties"]["payload"] is True
    assert spec.input_schema["properties"]["gone"] is False
    assert spec.input_schema["$defs"] == {"Anything": True, "Nothing": False}
    output = json.loads((tmp_path / "bools" / "schemas" / "closed_tool.output.json").read_text())
    assert output["$defs"]["envelope.Data"] is False
    for name, cases in CASES.items():
        tool = package.TOOLS[name]
        schema = Draft202012Validator(tool.input_schema)
        for case in cases:
            try:
                tool.args_model.model_validate(case)
                by_model = True
            except pydantic.ValidationError:
                by_model = False
            assert by_model == schema.is_valid(case), (name, case)


@pytest.mark.parametrize(
    "spec", ["false", "{$ref: '#/types/Nothing'}"], ids=["false", "ref-to-false"]
)
def test_a_required_false_argument_makes_the_tool_unsatisfiable(tmp_path: Path, spec: str) -> None:
    text = f"types:\n  Nothing: false\ntools:\n  t:\n    {HEAD}    requires: [x]\n"
    text += f"    args_schema:\n      x: {spec}\n"
    result = verbs.check_config(_write(tmp_path, text), cwd=tmp_path)
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, d.span.line) for d in errors] == [("invalid-arg-schema", 11)], errors
    assert "can never be called" in errors[0].message
    assert "remove 'x' from `requires`" in (errors[0].hint or "")


def test_a_boolean_item_declares_no_status(tmp_path: Path) -> None:
    text = f"tools:\n  t:\n    {HEAD}    multi_item:\n      item: true\n"
    result = verbs.check_config(_write(tmp_path, text), cwd=tmp_path)
    assert [d.code for d in result.diagnostics if d.is_error] == ["multi-item-status-missing"]


def test_the_reference_docs_and_the_mock_take_boolean_schemas(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from toolc.cli import cli
    from toolc.serve.mock_values import mock_data

    (tmp_path / "cfg").mkdir()
    config = _write(tmp_path / "cfg", CONFIG)
    result = CliRunner().invoke(cli, ["docs", str(config), "--docs-out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "d" / "s.md").read_text(encoding="utf-8")
    assert "| `payload` | any | yes |" in page and "| `gone` | nothing | no |" in page
    built = verbs.build(config, tmp_path / "bools2", tmp_path / "b.json", write=True)
    assert built.written
    output = json.loads((tmp_path / "bools2" / "schemas" / "closed_tool.output.json").read_text())
    with pytest.raises(ValueError, match=r"^\$\.data"):  # `returns: false`: no data to make
        mock_data(output)
