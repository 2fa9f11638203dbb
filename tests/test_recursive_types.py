"""Recursive shared types (issue 9, item 15): the check accepts every recursion that passes
through an object, as docs/config.md says, and the package generated for them builds, imports,
and its models accept exactly what the published schemas accept (the reference validator,
`jsonschema`, judging hypothesis' instances and near misses)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from instances import near_miss, valid
from reference import EcmaValidator
from toolc import verbs

CONFIG = FIXTURES / "good" / "recursive"
TYPES = "tools:\n  t:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n"
TYPES += "    tool_type: query\n    args_schema:\n      a: {$ref: '#/types/A'}\ntypes:\n"


def _codes(tmp_path: Path, types: str) -> list[str]:
    (tmp_path / "tools.yaml").write_text(TYPES + types, encoding="utf-8")
    return [d.code for d in verbs.check_config(tmp_path, cwd=tmp_path).diagnostics]


@pytest.mark.parametrize(
    "types",
    [
        "  A:\n    properties:\n      foo: {$ref: '#/types/A'}\n",
        "  A:\n    type: [object, \"null\"]\n    properties:\n      next: {$ref: '#/types/A'}\n",
        "  A:\n    type: array\n    items: {type: object, properties: {n: {$ref: '#/types/A'}}}\n",
        "  A: {type: object, additionalProperties: {$ref: '#/types/A'}}\n",
        "  A: {type: [string, object], properties: {a: {$ref: '#/types/A'}}}\n",
        "  A: {type: array, items: {$ref: '#/types/B'}}\n  B: {type: object, properties: "
        "{a: {$ref: '#/types/A'}}}\n",
    ],
    ids=["by-properties", "nullable-object", "object-items", "map", "object-or-string", "mutual"],
)
def test_recursion_through_an_object_is_accepted(tmp_path: Path, types: str) -> None:
    assert _codes(tmp_path, types) == []


@pytest.mark.parametrize(
    "types",
    [
        "  A: {type: array, items: {$ref: '#/types/A'}}\n",
        "  A: {type: [array, \"null\"], items: {$ref: '#/types/A'}}\n",
        "  A: {type: array, items: {type: object, additionalProperties: {$ref: '#/types/A'}}}\n",
        "  A: {type: array, items: {$ref: '#/types/B'}}\n  B: {type: array, items: "
        "{$ref: '#/types/A'}}\n",
    ],
    ids=["array", "nullable-array", "map-inside-array", "mutual-arrays"],
)
def test_recursion_with_no_class_to_hold_it_is_refused(tmp_path: Path, types: str) -> None:
    codes = _codes(tmp_path, types)
    assert codes and set(codes) == {"recursive-type"}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("recursive")
    out = root / "recursive_pkg"
    result = verbs.build(CONFIG, out, root / "snap.json", write=True, cwd=CONFIG)
    assert result.written, result.diagnostics
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(out.name)
    finally:
        sys.path.remove(str(root))


def _agree(model: Any, schema: dict[str, Any]) -> None:
    """The model accepts an instance exactly when the reference validator does; both sides of
    the boundary are probed."""
    defs = schema.get("$defs", {})
    reference = EcmaValidator(schema)
    verdicts: list[bool] = []

    @settings(
        max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(valid(schema, defs))
        if data.draw(st.booleans()):
            instance = data.draw(near_miss(instance, schema, defs))
        expected = reference.is_valid(instance)
        try:
            model.model_validate(instance)
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        assert accepted == expected, f"model {'accepts' if accepted else 'refuses'} {instance!r}"
        verdicts.append(expected)

    check()
    assert True in verdicts and False in verdicts


@pytest.mark.parametrize("tool", ["arvore", "cadeia"])
def test_args_models_of_recursive_types_agree_with_the_schema(package: Any, tool: str) -> None:
    spec = package.TOOLS[tool]
    _agree(spec.args_model, dict(spec.input_schema))


def test_data_model_of_recursive_types_agrees_with_the_schema(package: Any) -> None:
    spec = package.TOOLS["arvore"]
    published = dict(spec.output_schema)
    defs = published["$defs"]
    _agree(spec.data_model, {**defs["envelope.Data"], "$defs": defs})


def test_deep_recursive_values_validate(package: Any) -> None:
    args = package.TOOLS["arvore"].args_model
    deep: dict[str, Any] = {"value": 0}
    for n in range(1, 50):
        deep = {"value": n, "next": deep}
    parsed = args.model_validate({"lista": deep, "raiz": {"foo": {"foo": {"foo": "leaf"}}}})
    assert parsed.lista.next.next.value == 47
    with pytest.raises(pydantic.ValidationError):
        args.model_validate({"lista": {"value": 1, "next": {"value": -1}}})
