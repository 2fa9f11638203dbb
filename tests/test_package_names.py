"""Every name a generated package defines or imports where tool- and type-derived names also
live (the package root, registry, handlers, client, server, shared types, tool modules) is in
checks/names.py's PACKAGE_NAMES, so the collision check knows them all: a shared type or a tool
can never take one (a type named `ToolClient` used to break client.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_toolc
from toolc.checks.names import PACKAGE_NAMES
from toolc.emit.pyimports import IMPORTABLE

SHARED_NAMESPACES = ("__init__.py", "registry.py", "handlers.py", "client.py", "server.py")


def _module_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_package_s_own_names_are_all_known(example: Path) -> None:
    package = example / "generated" / "mcp_tools"
    derived = _module_names(package / "shared.py") | {
        name for module in (package / "tools").glob("*.py") for name in _module_names(module)
    }
    own: set[str] = set()
    for name in SHARED_NAMESPACES:
        own |= _module_names(package / name)
    for module in [package / "shared.py", *(package / "tools").glob("*.py")]:
        own |= {n for n in _module_names(module) if n not in derived or n in PACKAGE_NAMES}
    servers = {n for n in own if n.endswith(("Client", "Handlers")) and n not in ("ToolClient",)}
    tools_and_types = derived | {n for n in own if n.endswith("Result")} | servers
    # Only a name starting with a capital can be a class toolc derives from a tool or a type.
    unknown = {n for n in own - tools_and_types if n[:1].isupper()} - PACKAGE_NAMES
    assert not unknown, f"names the collision check does not know: {sorted(unknown)}"


def test_every_class_a_models_module_may_import_is_a_package_name() -> None:
    """A tool module imports shared types beside its helpers: a type named like one
    (`CheckedModel`) was imported twice, the helper shadowed. Only a capitalized name can be
    a type's class name (pascal case)."""
    importable = {n for n in IMPORTABLE if n[:1].isupper()}
    assert importable - PACKAGE_NAMES == set()


@pytest.mark.parametrize(
    "name", ["ToolClient", "Unset", "UNSET", "WireModel", "Items", "CheckedModel", "ExtrasModel"]
)
def test_a_type_taking_a_package_name_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: D.\n    mcp_server: s\n"
        "    tool_type: query\n    args_schema:\n      a: {$ref: '#/types/" + name + "'}\n"
        "types:\n  " + name + ":\n    type: object\n    properties: {x: {type: string}}\n"
    )
    result = run_toolc("check", str(tmp_path))
    assert result.returncode == 1 and "error[identifier-collision]" in result.stderr


CLASHING = """\
tools:
  a:
    version: 1.0.0
    description: First.
    mcp_server: s
    tool_type: query
    args_schema:
      b_args_c: {type: object, properties: {x: {type: string}}}
  a_args_b:
    version: 1.0.0
    description: Second.
    mcp_server: s
    tool_type: query
    args_schema:
      c: {type: object, properties: {y: {type: string}}}
"""


def test_nested_classes_of_two_tools_that_meet_in_the_client_are_refused(tmp_path: Path) -> None:
    """`a`'s argument `b_args_c` and `a_args_b`'s argument `c` both make the class `AArgsBArgsC`,
    and client.py imports both: the build says so, located, and writes nothing."""
    (tmp_path / "tools.yaml").write_text(CLASHING)
    result = run_toolc("build", str(tmp_path))
    assert result.returncode == 1
    assert (
        "tools.yaml:10:5: error[identifier-collision]: tools 'a' and 'a_args_b' both define "
        "the class 'AArgsBArgsC'" in result.stderr
    )
    assert "tools.yaml:3:5: note: 'a' defines it too" in result.stderr
    assert not (tmp_path / "generated").exists()
