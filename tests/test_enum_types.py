"""Issue #9 item 7: `enum` and `const` values other than strings are typed as precisely as
Python's types allow (type checkers see `Literal[False]`, not `Any`) while validation keeps
JSON's equality (1 equals 1.0 but not true); client methods document their arguments."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from toolc import verbs

CONFIG = """\
tools:
  probe:
    version: 1.0.0
    description: Probes.
    mcp_server: lab
    tool_type: query
    requires: [flag, mixed]
    args_schema:
      flag: {const: false, description: "Always false.\\nA second line."}
      mixed: {enum: [1, 2.5, true, null, "x", [1], {a: 1}]}
      number: {enum: [1, 2]}
      truth: {enum: [true]}
      maybe: {enum: [a, null]}
      huge: {enum: [1, 18446744073709551616, -9223372036854775808]}
      both: {enum: [1, true], const: true}
    multi_item:
      item:
        type: object
        required: [ok]
        properties:
          ok: {type: boolean}
types:
  Json:
    type: object
    properties:
      int: {type: object, properties: {x: {type: string}}}
  Wire:
    type: object
    properties:
      model: {type: object, properties: {y: {type: string}}}
"""
REVEAL = """\
from enums_pkg.tools.probe import ProbeArgs, ProbeData

args = ProbeArgs.model_validate({})
reveal_type(args.flag)
reveal_type(args.mixed)
reveal_type(args.number)
reveal_type(args.truth)
reveal_type(args.maybe)
reveal_type(args.huge)
data = ProbeData.model_validate({})
reveal_type(data.original_ok)
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("enums")
    config = where / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(CONFIG)
    result = verbs.build(config, where / "enums_pkg", where / "snap.json", write=True, cwd=config)
    assert result.written, result.diagnostics
    return where


@pytest.fixture(scope="module")
def pkg(root: Path) -> Any:
    sys.path.insert(0, str(root))
    try:
        import enums_pkg

        return enums_pkg
    finally:
        sys.path.remove(str(root))


def test_type_checkers_see_the_values_kinds(root: Path) -> None:
    from mypy import api

    (root / "reveal.py").write_text(REVEAL)
    (root / "mypy.ini").write_text("[mypy]\n")
    out, _, _ = api.run(["--config-file", str(root / "mypy.ini"), str(root / "reveal.py")])
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert revealed == [
        "Literal[False]",
        "Literal[1] | Literal[True] | Literal['x'] | float | list[Any] | dict[str, Any] | None",
        "Literal[1] | Literal[2] | None",
        "Literal[True] | None",
        "Literal['a'] | None",
        "int | None",  # no Literal of 64-bit integers in mypy: int (Literal[1] folds into it)
        "Literal[False] | None",
    ], out
    assert "error:" not in out, out


@pytest.mark.parametrize(
    ("given", "read"),
    [(1, 1), (1.0, 1), (2.5, 2.5), (True, True), (None, None), ("x", "x"), ([1.0], [1.0])],
)
def test_json_equality_decides_and_a_number_reads_as_declared(
    pkg: Any, given: Any, read: Any
) -> None:
    args = pkg.TOOLS["probe"].args_model.model_validate({"flag": False, "mixed": given})
    assert args.mixed == read and type(args.mixed) is type(read)


@pytest.mark.parametrize(
    ("wire", "value"),
    [
        ("flag", 0), ("flag", None), ("number", True), ("number", 1.5), ("truth", 1),
        ("mixed", 2),
        ("both", 1), ("both", 1.0),  # the enum's values equal to the const as JSON: `true`
    ],
)  # fmt: skip
def test_python_equality_is_not_json_equality(pkg: Any, wire: str, value: Any) -> None:
    given = {"flag": False, "mixed": 1, wire: value}
    with pytest.raises(pydantic.ValidationError):
        pkg.TOOLS["probe"].args_model.model_validate(given)


def test_nested_classes_never_take_a_name_the_module_imports(root: Path) -> None:
    shared = (root / "enums_pkg" / "shared.py").read_text()
    defined = re.findall(r"^class (\w+)\(", shared, re.M)
    assert "JsonInt" not in defined and "WireModel" not in defined
    assert any(n.startswith("JsonInt_") for n in defined)


def test_client_methods_document_each_argument(root: Path) -> None:
    client = (root / "enums_pkg" / "client.py").read_text()
    assert (
        "        Args:\n            flag: Always false.\n                A second line.\n" in client
    )


def test_an_enum_beside_a_const_keeps_the_const_s_value(pkg: Any) -> None:
    args = pkg.TOOLS["probe"].args_model.model_validate({"flag": False, "mixed": 1, "both": True})
    assert args.both is True
