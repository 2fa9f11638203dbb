"""`annotated` lays out fields and parameters as the pinned black does: black leaves every
shape of it unchanged, at every length around the line limit."""

from __future__ import annotations

import black
import pytest
from toolc.emit.pyexpr import Expr, call, literal, name, sub, union
from toolc.emit.pylines import annotated, class_header, members
from toolc.emit.pymodel import PyAlias
from toolc.emit.pymodules import alias_def
from toolc.emit.serving import _result_alias

LONG = "VeryLongTypeNameThatGoesOnAndOn"
ANNOTATIONS: list[Expr] = [
    name("str"),
    name(f"{LONG} | None"),
    name(f"{LONG} | JsonInt | bool | {LONG}Other | None"),
    sub("list", LONG),
    sub("list", sub("Annotated", f"{LONG} | None", call("Field", kwargs=[("min_length", "0")]))),
    sub("Annotated", "str", call("BeforeValidator", "reject_null")),
    sub("Annotated", "str", call("Field", kwargs=[("description", '"x"')], exploded=True)),
]
DEFAULTS: list[Expr | str | None] = [
    None,
    "None",
    '"' + "s" * 40 + '"',
    literal("[", ['"a"', '"b"', '"' + "c" * 30 + '"']),
    literal("{", [], [('"k"', "1"), ('"' + "q" * 30 + '"', literal("[", ["1.5e-07"]))]),
    call("Field", kwargs=[("default_factory", "list")]),
    call(
        "Field",
        kwargs=[
            ("default_factory", Expr("lambda: ", ('"a"', '"' + "b" * 30 + '"'), literal="[]")),
            ("validate_default", "True"),
        ],
    ),
    call(
        "Field",
        kwargs=[
            (
                "default_factory",
                Expr(
                    "lambda: M.model_validate",
                    (literal("{", [], [('"k"', '"' + "v" * 40 + '"')]),),
                    call=True,
                ),
            )
        ],
    ),
]


def _unchanged(source: str) -> None:
    assert black.format_str(source, mode=black.Mode()) == source


@pytest.mark.parametrize("annotation", ANNOTATIONS, ids=lambda a: a.head[:20])
@pytest.mark.parametrize("default", DEFAULTS, ids=lambda d: str(d)[:12])
def test_fields_are_black_stable_at_every_length(
    annotation: Expr, default: Expr | str | None
) -> None:
    for size in range(1, 100, 3):
        line = annotated(4, "f" * size, annotation, default)
        _unchanged(f"class C:\n{line}\n")


@pytest.mark.parametrize("annotation", ANNOTATIONS, ids=lambda a: a.head[:20])
def test_parameters_are_black_stable_at_every_length(annotation: Expr) -> None:
    for size in range(1, 100, 3):
        field = "p" * size
        optional: list[Expr | str] = [annotation, "Unset"]
        params = [
            annotated(8, field, annotation, end=",", parameter=True),
            annotated(8, field + "o", optional, "UNSET", end=",", parameter=True),
        ]
        body = "\n".join(params)
        _unchanged(
            f"class C:\n    async def m(\n        self,\n        *,\n{body}\n    ) -> None: ...\n"
        )


def test_union_members_split_at_the_top_level_only() -> None:
    assert members("A | list[B | C] | dict[str, D | E] | None") == [
        "A",
        "list[B | C]",
        "dict[str, D | E]",
        "None",
    ]


def test_comments_hold_no_character_python_source_cannot() -> None:
    """A description becomes an alias's comment: NUL cannot be in source, and a carriage
    return would end the comment's line and turn the rest into code."""
    from toolc.emit.pyliterals import comment_lines

    text = "\n".join(comment_lines("first\x00 line\rraise SystemExit(3)\nsecond\x0b\u2028line"))
    compile(text + "\nx = 1\n", "<comment>", "exec")
    assert "\x00" not in text and "\r" not in text
    assert all(line.startswith("# ") for line in text.splitlines())


@pytest.mark.parametrize("base", ["ToolClient", "Protocol", "CheckedModel"])
@pytest.mark.parametrize("length", range(60, 100))
def test_a_class_header_is_laid_out_as_black_lays_it_out(base: str, length: int) -> None:
    """`make fuzz` seed 4009309889: a server named with 64 characters made `class
    <Server>Client(ToolClient):` 92 columns wide, which black splits at its parentheses."""
    for cls in ("C" * length, "Ｃ" * (length // 2)):  # wide characters count two columns
        source = f"{class_header(cls, base)}\n    x: int\n"
        assert black.format_str(source, mode=black.Mode()) == source, (cls, base)


@pytest.mark.parametrize("kind", ["plain", "multi", "workflow"])
@pytest.mark.parametrize("length", range(2, 90, 3))
def test_a_handler_s_result_alias_is_laid_out_as_black_lays_it_out(kind: str, length: int) -> None:
    """A review found `<Tool>Result: TypeAlias = (` wider than 88 columns for a tool named
    with 84 characters: black splits the annotation instead (`X: (\\n    TypeAlias\\n) =`),
    as it does for the models' aliases, whose layout handlers.py now shares."""
    statement, _names = _result_alias("t" * length, kind)  # type: ignore[arg-type]
    source = f"{statement}\n"
    assert black.format_str(source, mode=black.Mode()) == source, (length, kind)


@pytest.mark.parametrize("alias", [2, 40, 80, 90])
@pytest.mark.parametrize("member", range(30, 100, 7))
def test_a_union_alias_with_members_too_wide_is_laid_out_as_black_lays_it_out(
    alias: int, member: int
) -> None:
    """Black splits a union at each `|`, then each operand still too wide at its brackets."""
    inner = "M" * member
    union_ = union(name(inner), sub("list", sub("Annotated", inner, "X")), name("None"))
    statement = alias_def(PyAlias("A" * alias, None, union_)).statement
    source = f"{statement}\n"
    assert black.format_str(source, mode=black.Mode()) == source, (alias, member)


@pytest.mark.parametrize("wide", range(70, 82))
def test_the_last_member_of_a_split_union_counts_what_follows_it(wide: int) -> None:
    """Review (session 24): the last member was sized without the `,` after it, so at 89
    columns black split it and toolc did not."""
    u = union(name("A" * 60), sub("list", "B" * wide))
    statement = alias_def(PyAlias("X", None, sub("dict", "str", u))).statement
    assert black.format_str(f"{statement}\n", mode=black.Mode()) == f"{statement}\n", wide
    field = sub("Annotated", u, call("Field", kwargs=[("alias", '"a"')], exploded=True))
    line = f"class C:\n{annotated(4, 'x', field)}\n"
    assert black.format_str(line, mode=black.Mode()) == line, wide


@pytest.mark.parametrize(
    "default",
    ["-" + "3" * 240, "3" * 240, "-" + "3" * 84, "-" + "3" * 79, '"' + "s" * 90 + '"',
     "A" * 90, "Color." + "R" * 90, "-1." + "5" * 90, "1." + "5" * 90, "-5", "None"],
)  # fmt: skip
def test_a_default_after_a_split_hint_is_laid_out_as_black_does(default: str) -> None:
    """After a hint split at its brackets, black wraps a value too wide for the closing line
    in parentheses when it holds a delimiter (a unary minus, a dot), and leaves plain ones
    (`make fuzz` found a huge negative integer default, seed 1035570719)."""
    from toolc.emit.pylines import _then_default

    before = '    x: Annotated[\n        int,\n        Field(alias="a"),\n    ]'
    source = "class A:\n" + _then_default(before, 4, default, "") + "\n"
    assert black.format_str(source, mode=black.Mode()) == source
