"""The typed model of a generated models module (emit/pyfile.py): definitions ordered from the
names their expressions refer to, never from their text, and written by the templates as black
writes them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import black
import pytest
from toolc import verbs
from toolc.emit.pyexpr import Expr, call, name, names_in, sub, union
from toolc.emit.pyfile import AliasDef, ClassDef, models_module, write
from toolc.emit.pyimports import imports, natural_key
from toolc.emit.pyliterals import py_str
from toolc.emit.pymodel import PyAlias, PyField, PyModel, TypeExpr
from toolc.emit.pymodules import alias_def, class_def, used_by


def _alias(alias: str, *refs: str) -> AliasDef:
    return AliasDef(alias, True, False, " | ".join(refs) or "str", (), frozenset(refs))


def _class(cls: str, *refs: str) -> ClassDef:
    return ClassDef(cls, "", "forbid", (), frozenset(refs))


def test_a_literal_names_nothing_whatever_its_text_says() -> None:
    described = call("Field", kwargs=[("description", py_str("use Optional or K | None"))])
    expr = sub("Annotated", union(name("A"), name("B"), name("None")), described)
    assert set(names_in(expr)) == {"Annotated", "A", "B", "Field"}
    assert set(names_in(sub("Literal", py_str("PlainValidator"), "1e16", "True"))) == {"Literal"}
    factory = call("Field", kwargs=[("default_factory", name("lambda: M.model_validate"))])
    assert "M" in set(names_in(factory))


def test_unions_keep_their_members_flat() -> None:
    inner = union(name("A"), name("B"))
    whole = union(inner, name("None"))
    assert whole.head == "A | B | None"
    assert [m.head for m in whole.members] == ["A", "B", "None"]


def test_aliases_follow_the_aliases_they_name_and_classes_come_first() -> None:
    module = models_module(
        (("from __future__ import annotations",),),
        [_alias("C", "B"), _class("M", "C"), _alias("B", "A"), _alias("A"), _class("N", "str")],
    )
    assert [c.name for c in module.classes] == ["M", "N"]
    assert [a.name for a in module.aliases] == ["A", "B", "C"]
    assert module.rebuilt == ("M",)  # N names no alias


def test_a_cycle_keeps_the_order_made() -> None:
    module = models_module((), [_alias("X", "Y"), _alias("Y", "X")])
    assert [a.name for a in module.aliases] == ["X", "Y"]


def test_a_models_module_is_black_stable() -> None:
    field = PyField("value", TypeExpr(name("Alias"), nullable=True), False, default="None")
    long = "L" * 70
    definitions = [
        class_def(PyModel("Model", "A model.\n\nWith two paragraphs.", "forbid", [field])),
        class_def(PyModel(long + "Wrapped", None, "allow", [])),
        alias_def(PyAlias("Alias", "Its doc.", union(*(name(f"{long}{i}") for i in range(3))))),
        alias_def(PyAlias("Short", None, name("str"))),
    ]
    groups = imports(used_by(definitions), {"Model", "Alias", "Short"}, set(), "..")
    source = write("shared.py.j2", module=models_module(groups, definitions)).decode()
    assert black.format_str(source, mode=black.Mode()) == source
    assert source.endswith("Model.model_rebuild()\n")


VALUES = [
    name("str"),
    sub("Literal", *(py_str(f"value-{i}") for i in range(4))),
    sub("Annotated", sub("dict", "str", "Any"), call("PlainValidator", call("one_of", "1", "2"))),
    sub("Annotated", sub("list", "bool"), call("Field", kwargs=[("min_length", "2")])),
    union(*(name(f"Member{i}Type") for i in range(4))),
    union(*(name(f"VeryLongMemberName{i}Type") for i in range(4))),
    sub("list", "JsonInt"),
    sub("dict", "str", sub("list", "Any")),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: v.head or "literal")
def test_aliases_are_black_stable_at_every_length(value: Expr) -> None:
    """A random config found `<long name>: TypeAlias = Annotated[` wider than a line: black
    then wraps the value in parentheses."""
    for size in range(1, 140, 3):
        statement = alias_def(PyAlias("A" * size, None, value))
        module = models_module((), [statement])
        source = write("_models.py.j2", module=module).decode().lstrip("\n")
        assert black.format_str(source, mode=black.Mode()) == source


def test_words_of_code_in_texts_import_and_order_nothing() -> None:
    """A description naming `Optional` once imported it unused (ruff F401); a string in an
    enum naming a later alias once moved its alias after it."""
    config = """
types:
  A: {enum: ["x B y", 2.5]}
  B: {type: array, items: {type: boolean}, minItems: 2}
tools:
  t:
    version: 1.0.0
    description: "use Optional or PlainValidator"
    mcp_server: s
    tool_type: query
    args_schema:
      a: {type: string, description: "an Optional or ErrorInfo value"}
"""
    files = verbs.compile_baseline(config, None, "t:")
    tool = files["tools/t.py"].decode()
    assert "Optional" not in tool.split('"""', 2)[2].split("class ")[0]
    assert "ErrorInfo" not in tool.split("class ")[0]
    shared = files["shared.py"].decode()
    assert shared.index("\nA: TypeAlias") < shared.index("\nB: TypeAlias")


def test_modules_sort_as_ruff_sorts_them_with_leading_zeros(tmp_path: Path) -> None:
    """A random config found tools `n.0` and `n.000` imported in an order ruff refused."""
    names = ["n_10", "n_000_pv", "n_1", "n_0_pv", "n_2", "n_000", "n_01", "n_0"]
    ordered = sorted(names, key=natural_key)
    assert ordered == ["n_0", "n_0_pv", "n_000", "n_000_pv", "n_01", "n_1", "n_2", "n_10"]
    source = "".join(f"from .{n} import A{i}\n" for i, n in enumerate(ordered))
    source += "\n__all__ = [\n" + "".join(f'    "{n}",\n' for n in ordered) + "]\n"
    (tmp_path / "m.py").write_text(source)
    ruff = Path(sys.executable).parent / "ruff"
    checked = subprocess.run(
        [str(ruff), "check", "--isolated", "--select", "I,RUF022", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout
