"""`$ref`s that lead back to the same value with no property or item in between (a pointer to
the fragment's own root, X → X, X → Y → X, a loop through `allOf`/`not`/`if`, a type that points
at itself) are `ref-cycle`: every validator, the generated models included, would follow them
forever. A recursion through structure (a tree) is legal JSON Schema: it still builds, and its
models validate without a RecursionError."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from toolc import verbs

HEAD = (
    "tools:\n  a:\n    version: 1.0.0\n    description: Tool a.\n    mcp_server: s\n"
    "    tool_type: query\n"
)


def _diagnostics(tmp_path: Path, text: str) -> list[Any]:
    (tmp_path / "tools.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "tool_policies.yaml").write_text("tool_policies: {}\n", encoding="utf-8")
    return list(verbs.check_config(tmp_path, cwd=tmp_path).diagnostics)


def test_the_reported_loops_are_located_with_the_fix(tmp_path: Path) -> None:
    text = HEAD + (
        "    args_schema:\n"
        "      w: {$ref: '#/$defs/X', $defs: {X: {$ref: '#/$defs/X'}}}\n"
        "      k: {$ref: '#'}\n"
    )
    found = _diagnostics(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [
        ("ref-cycle", 8, 48),  # the `$ref` inside X
        ("ref-cycle", 9, 17),
    ]
    assert found[0].message.endswith(": #/$defs/X -> #/$defs/X")
    assert found[1].message.endswith(": # -> #")
    for d in found:
        assert d.is_error and "no property or item in between" in d.message
        assert "put the recursion under `properties` or `items`" in str(d.hint)


@pytest.mark.parametrize(
    ("args", "types", "loop"),
    [
        ("k: {$ref: '#', type: string}", "", "# -> #"),
        (
            "k: {$ref: '#/$defs/X', $defs: {X: {$ref: '#/$defs/Y'}, Y: {$ref: '#/$defs/X'}}}",
            "",
            "#/$defs/X -> #/$defs/Y -> #/$defs/X",
        ),
        ("k: {allOf: [{$ref: '#'}]}", "", "#/allOf/0 -> # -> #/allOf/0"),
        ("k: {anyOf: [{type: string}, {$ref: '#'}]}", "", "#/anyOf/1 -> # -> #/anyOf/1"),
        ("k: {not: {$ref: '#'}}", "", "#/not -> # -> #/not"),
        ("k: {if: {$ref: '#'}, then: {type: string}}", "", "#/if -> # -> #/if"),
        (
            "k: {type: object, properties: {a: {$ref: '#/properties/b'}, "
            "b: {$ref: '#/properties/a'}}}",
            "",
            "#/properties/a -> #/properties/b -> #/properties/a",
        ),
        ("k: {$ref: '#/types/T'}", "types:\n  T: {$ref: '#'}\n", "#/types/T -> #/types/T"),
        (
            "k: {$ref: '#/types/T'}",
            "types:\n  T: {type: object, properties: {a: {type: string}}, "
            "allOf: [{$ref: '#/types/T'}]}\n",
            "#/types/T/allOf/0 -> #/types/T -> #/types/T/allOf/0",
        ),
    ],
    ids=[
        "root-with-siblings", "defs-x-y-x", "allOf", "anyOf", "not", "if", "between-properties",
        "type-points-at-its-root", "class-type-through-allOf",
    ],
)  # fmt: skip
def test_same_value_loops_are_ref_cycles(tmp_path: Path, args: str, types: str, loop: str) -> None:
    found = _diagnostics(tmp_path, HEAD + f"    args_schema:\n      {args}\n{types}")
    assert [d.code for d in found] == ["ref-cycle"], [d.message for d in found]
    assert found[0].message.endswith(f": {loop}")


def test_a_loop_in_args_keywords_and_returns(tmp_path: Path) -> None:
    text = HEAD + (
        "    args_keywords: {allOf: [{$ref: '#'}]}\n"
        "    args_schema:\n      k: {type: string}\n"
        "    returns: {$ref: '#/$defs/R', $defs: {R: {$ref: '#'}}}\n"
    )
    found = _diagnostics(tmp_path, text)
    assert sorted(d.code for d in found) == ["ref-cycle", "ref-cycle"]


def test_type_loops_other_rules_report_are_not_reported_twice(tmp_path: Path) -> None:
    for types, code in (
        ("  T: {allOf: [{$ref: '#/types/T'}]}\n", "recursive-type"),
        ("  T: {$ref: '#/types/U'}\n  U: {$ref: '#/types/T'}\n", "ref-cycle"),
    ):
        text = HEAD + "    args_schema:\n      k: {$ref: '#/types/T'}\ntypes:\n" + types
        assert [d.code for d in _diagnostics(tmp_path, text)] == [code]


# Legal recursions: through an object's properties, an array's items, a `$defs` entry with
# content, a type reached by a pointer.
LEGAL = (
    HEAD
    + """    args_schema:
      tree: {type: object, properties: {children: {type: array, items: {$ref: '#'}}}}
      linked: {$ref: '#/$defs/N', $defs: {N: {type: object, properties: {next: {$ref: '#/$defs/N'}}}}}
      nested: {type: array, items: {$ref: '#'}}
      either: {anyOf: [{type: string}, {type: array, items: {$ref: '#'}}]}
      chain: {$ref: '#/$defs/X', $defs: {X: {$ref: '#/$defs/Y'}, Y: {type: integer, minimum: 0}}}
      node: {$ref: '#/types/Node'}
    returns: {type: object, properties: {children: {type: array, items: {$ref: '#'}}}}
types:
  Node:
    type: object
    properties:
      kids: {type: array, items: {$ref: '#'}}
      label: {type: string}
"""
)


@pytest.fixture(scope="module")
def legal(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("s26_loops")
    config = root / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(LEGAL, encoding="utf-8")
    (config / "tool_policies.yaml").write_text("tool_policies: {}\n", encoding="utf-8")
    out = root / "s26_legal_recursion"
    result = verbs.build(config, out, root / "snap.json", write=True, cwd=config)
    assert result.written, [d.message for d in result.diagnostics]
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(f"{out.name}.tools.a")
    finally:
        sys.path.remove(str(root))


def _deep(levels: int) -> dict[str, Any]:
    tree: dict[str, Any] = {"children": []}
    for _ in range(levels):
        tree = {"children": [tree, {}]}
    return tree


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("tree", _deep(6)),
        ("linked", {"next": {"next": {"next": {}}}}),
        ("nested", [[], [[[]]]]),
        ("either", ["a", ["b", []]]),
        ("chain", 3),
        ("node", {"kids": [{"kids": [{"label": "x"}]}]}),
    ],
)
def test_legal_recursions_build_and_accept(legal: Any, name: str, value: Any) -> None:
    assert legal.AArgs.model_validate({name: value}) is not None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("tree", {"children": [{"children": [1]}]}),
        ("linked", {"next": {"next": 1}}),
        ("nested", [[], [[1]]]),
        ("either", ["a", [2]]),
        ("chain", -1),
        ("node", {"kids": [{"kids": [{"label": 1}]}]}),
    ],
)
def test_legal_recursions_refuse_deep_mistakes(legal: Any, name: str, value: Any) -> None:
    with pytest.raises(pydantic.ValidationError):
        legal.AArgs.model_validate({name: value})


def test_a_recursive_result_validates(legal: Any) -> None:
    data = pydantic.TypeAdapter(legal.AData)
    assert data.validate_python(_deep(4)) is not None
    with pytest.raises(pydantic.ValidationError):
        data.validate_python({"children": [{"children": ["x"]}]})
