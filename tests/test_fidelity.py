"""Each generated <Tool>Args model accepts exactly the argument objects its published inputSchema
accepts, as the reference validator judges them (tests/reference.py: the `jsonschema` package,
patterns read as ECMA-262)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from conftest import EXAMPLES, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from instances import near_miss, valid
from reference import EcmaValidator
from toolc import verbs

CONFIGS = [
    FIXTURES / "good" / "fidelity",
    FIXTURES / "good" / "adversarial",
    FIXTURES / "good" / "kitchen-sink",
    FIXTURES / "good" / "checked-objects",  # objects with keywords of their own (0132)
    *EXAMPLES,
]


def _package(config: Path, root: Path) -> Any:
    name = f"fidelity_{config.name.replace('-', '_')}"
    out = root / name
    result = verbs.build(config, out, root / f"{name}.snapshot.json", write=True, cwd=config)
    assert result.written, result.diagnostics
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("fidelity")
    return {config.name: _package(config, root) for config in CONFIGS}


def _tool_names() -> list[tuple[str, str]]:
    from toolc import verbs

    found = []
    for config in CONFIGS:
        project = verbs.check_config(config, cwd=config).project
        assert project is not None
        found += [(config.name, name) for name in sorted(project.tools)]
    return found


@pytest.mark.parametrize(("config", "tool"), _tool_names())
def test_args_model_agrees_with_the_reference_validator(
    packages: dict[str, Any], config: str, tool: str
) -> None:
    spec = packages[config].TOOLS[tool]
    schema = dict(spec.input_schema)
    defs = schema.get("$defs", {})
    reference = EcmaValidator(schema)
    model = spec.args_model
    verdicts: list[bool] = []

    @settings(
        max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(valid(schema, defs))
        if data.draw(st.booleans()):
            instance = data.draw(near_miss(instance, schema, defs))
        expected = reference.is_valid(instance)
        try:
            model.model_validate(instance)  # as any caller validates: no special options
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        assert accepted == expected, f"model {'accepts' if accepted else 'refuses'} {instance!r}"
        verdicts.append(expected)

    check()
    assert True in verdicts and False in verdicts  # both sides of the boundary were probed


def _names_a_place_of(instance: Any, path: tuple[Any, ...], missing: bool) -> bool:
    """Whether `path` leads through `instance`: each step a member or an index of what is
    there (the last one may be absent for a missing member)."""
    node = instance
    for depth, step in enumerate(path):
        member = isinstance(node, dict) and step in node
        item = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if not (member or item):
            return depth == len(path) - 1 and missing
        node = node[step]
    return True


@pytest.mark.parametrize(("config", "tool"), _tool_names())
def test_a_refusal_names_places_of_the_arguments_not_union_branches(
    packages: dict[str, Any], config: str, tool: str
) -> None:
    """VALIDATION_ERROR's `details[].field` is a path of the arguments sent: pydantic's
    `loc` also names each union branch it tried (`mode.constrained-str`, a tagged union's
    tag), which is no field of the arguments."""
    from toolc.runtime.server_fields import problems, wire_loc

    spec = packages[config].TOOLS[tool]
    schema = dict(spec.input_schema)
    defs = schema.get("$defs", {})
    model = spec.args_model
    core = model.__pydantic_core_schema__
    refused: list[str] = []

    @settings(
        max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(near_miss(data.draw(valid(schema, defs)), schema, defs))
        try:
            model.model_validate(instance)
        except pydantic.ValidationError as exc:
            errors = exc.errors(include_url=False)
            details = [d for d in problems(exc, "", core) if d["type"] != "truncated"]
            for error, detail in zip(errors[: len(details)], details, strict=True):
                path = wire_loc(core, error["loc"])
                missing = error["type"] == "missing"
                assert _names_a_place_of(instance, path, missing), (error["loc"], instance)
                refused.append(detail["field"])

    check()
    assert refused  # the near misses were refused somewhere
