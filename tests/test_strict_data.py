"""Data whose type is no model (a list, a union: `returns: {type: array}`) is judged as strictly
as the models judge theirs, by the server that checks what a handler returns, by the client
that types what arrives, and for a field's default: "5" is not 5 and true is not 1. Such a
type has no model's config, and pydantic's lax default took both."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest
import yaml
from built_package import built_tools
from pydantic import ValidationError
from reference import EcmaValidator

CONFIG = """\
tools:
  counts:
    version: 1.0.0
    description: a list of counts
    mcp_server: s
    tool_type: query
    args_schema:
      a: {type: string}
    returns: {type: array, items: {type: integer, minimum: 0}}
  either:
    version: 1.0.0
    description: a number or a short text
    mcp_server: s
    tool_type: query
    args_schema:
      a: {type: string}
    returns: {type: [integer, string], maximum: 5, maxLength: 2}
"""
CASES = [
    ("counts", [1, 2.0]), ("counts", ["5"]), ("counts", [True]), ("counts", [-1]),
    ("counts", [1.5]), ("either", 3), ("either", "5"), ("either", True), ("either", 6),
    ("either", 5.0), ("either", "abc"),
]  # fmt: skip


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("strict")
    built_tools(root, CONFIG, "strict_pkg")
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("strict_pkg")
    finally:
        sys.path.remove(str(root))


def _module(package: Any, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.{name}")


def _published(package: Any, tool: str) -> EcmaValidator:
    return EcmaValidator(yaml.safe_load(CONFIG)["tools"][tool]["returns"])


@pytest.mark.parametrize(("tool", "data"), CASES)
def test_the_server_judges_returned_data_as_its_schema(package: Any, tool: str, data: Any) -> None:
    served = _module(package, "server_calls").ServedTool(package.TOOLS[tool], None)
    try:
        served.check(data)
        accepted = True
    except _module(package, "server_items").BadReturn:
        accepted = False
    assert accepted is _published(package, tool).is_valid(data)


@pytest.mark.parametrize(("tool", "data"), CASES)
def test_the_client_types_arriving_data_as_its_schema(package: Any, tool: str, data: Any) -> None:
    kind = package.TOOLS[tool].data_model
    try:
        _module(package, "client_envelope")._fit(kind, data)
        accepted = True
    except ValidationError:
        accepted = False
    assert accepted is _published(package, tool).is_valid(data)


def test_a_default_is_validated_strictly(package: Any) -> None:
    validated = _module(package, "_jsonschema").validated
    assert validated(list[int], [1, 2]) == [1, 2]
    for lax in (["5"], [True]):
        with pytest.raises(ValidationError):
            validated(list[int], lax)
