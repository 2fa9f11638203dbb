"""The definitions of a models module (`ClassDef`, `AliasDef`), from the lowered models
(`PyModel`, `PyAlias`): each statement laid out as black lays it out (pylines, pyexpr), so
`black --check` passes on the output without black ever running in the build."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from toolc.emit.pyexpr import (
    LINE_LENGTH,
    Expr,
    call,
    names_in,
    one_line,
    render,
    sub,
    union_lines,
)
from toolc.emit.pyfile import AliasDef, ClassDef
from toolc.emit.pylines import annotated
from toolc.emit.pyliterals import comment_lines, docblock, py_expr, py_str
from toolc.emit.pymodel import PyAlias, PyField, PyModel
from toolc.emit.pywidth import width

# What the templates write themselves around a class (beside its base) or a typed alias.
CLASS_NAMES = frozenset({"ConfigDict"})
ALIAS_NAMES = frozenset({"TypeAlias"})


def _field_expr(f: PyField) -> Expr:
    metadata: list[Expr | str] = list(f.type.metadata())
    kwargs: list[tuple[str, Expr | str]] = []
    if f.alias is not None:
        kwargs.append(("alias", py_str(f.alias)))
    if metadata and f.type.constraints and f.type.constraints_first:
        metadata.insert(0, call("Field", kwargs=f.type.constraints))
    else:
        kwargs += f.type.constraints
    if f.title:
        kwargs.append(("title", py_str(f.title)))
    if f.description:
        kwargs.append(("description", py_str(f.description)))
    if f.examples:  # a list literal is a subscript with no head, laid out alike
        kwargs.append(("examples", py_expr(f.examples)))
    if kwargs:
        metadata.append(call("Field", kwargs=kwargs, exploded=True))
    annotation = f.type.annotation()
    return sub("Annotated", annotation, *metadata) if metadata else annotation


def class_def(m: PyModel) -> ClassDef:
    refs: set[str] = set()
    fields = []
    for f in m.fields:
        expr = _field_expr(f)
        refs.update(names_in(expr))
        default = None if f.required else f.default
        if default is not None:
            refs.update(names_in(default))
        fields.append(annotated(4, f.name, expr, default))
    if m.extra_type is not None:
        extra = sub("dict", "str", m.extra_type)
        refs.update(names_in(extra))
        fields.append(annotated(4, "__pydantic_extra__", extra))
    base = _base(m)
    doc = docblock(m.doc, "    ")
    check = "" if m.check is None else _check_line(m.check)
    return ClassDef(
        m.name, doc, m.extra, tuple(fields), frozenset(refs), base, check
    )  # fmt: skip


def _base(m: PyModel) -> str:
    """The runtime's model class `m` derives from: `CheckedModel` when it checks its published
    schema; an `ExtrasModel` when it allows additional members beside a field whose Python name
    is not its wire name (pydantic would count a member named like that field as setting it)."""
    extras = m.extra == "allow" and any(f.alias is not None for f in m.fields)
    if m.check is None:
        return "ExtrasModel" if extras else "WireModel"
    return "CheckedExtrasModel" if extras else "CheckedModel"


def _check_line(where: str) -> str:
    """`__toolc_schema__ = "<where>"`, as black lays out a string too long for its line: in
    parentheses when that makes it fit, else as it is."""
    head = "    __toolc_schema__ = "
    text = py_str(where)
    if width(head + text) <= LINE_LENGTH or width("        " + text) > LINE_LENGTH:
        return head + text
    return f"{head}(\n        {text}\n    )"


def _value(head: str, expr: Expr) -> str | None:
    """`expr` laid out after `head` (`X = `, `X: TypeAlias = `) as black lays out the right-hand
    side of an assignment: on the line when it fits; split at its brackets when the line up to
    the first one fits; else wrapped in parentheses, on one line inside them when it fits (a
    union: else one member per line). None when even `head(` is too wide."""
    lead = width(head)
    flat = one_line(expr)
    if lead + width(flat) <= LINE_LENGTH:
        return flat
    bracketed = expr.args is not None or expr.call
    if bracketed and lead + width(expr.head) + 1 <= LINE_LENGTH:
        return render(expr, 0, lead=lead)
    if lead + 1 > LINE_LENGTH:
        return None
    if expr.members:
        if 4 + width(flat) <= LINE_LENGTH:
            return "(\n    " + flat + "\n)"
        return "(\n    " + union_lines(expr.members, 4) + "\n)"
    return "(\n    " + render(expr, 4) + "\n)"


def _after_split_annotation(expr: Expr, head: str) -> str:
    """The value after `) = ` once black has split the annotation of `head` (`X: (`). When
    even `X: (` is too wide, black splits the value too: at its brackets (one element per
    line, which the magic trailing comma keeps), a union in parentheses; otherwise the value
    is laid out as a right-hand side after `) = `, a union in parentheses."""
    flat = one_line(expr)
    split = width(head) > LINE_LENGTH
    if expr.members:
        if not split and width(f") = ({flat})") <= LINE_LENGTH:
            return f"({flat})"
        if 4 + width(flat) <= LINE_LENGTH:
            return f"(\n    {flat}\n)"
        return "(\n    " + union_lines(expr.members, 4) + "\n)"
    if expr.args is None and not expr.call:
        return flat
    if split:
        return render(replace(expr, exploded=True), 0, lead=4)
    return _value(") = ", expr) or flat


def alias_def(a: PyAlias) -> AliasDef:
    value = _value(f"{a.name}: TypeAlias = ", a.expr)
    wrapped = value is None  # black splits the annotation instead: `X: (TypeAlias) = ...`
    if value is None:
        value = _after_split_annotation(a.expr, f"{a.name}: (")
    lines = tuple(comment_lines(a.doc)) if a.doc else ()
    return AliasDef(a.name, True, wrapped, value, lines, frozenset(names_in(a.expr)))


def literal_alias(alias: str, values: list[str]) -> AliasDef:
    """`<alias> = Literal[...]` of the strings `values` (a tool's error codes)."""
    expr = sub("Literal", *(py_str(v) for v in values))
    head = f"{alias} = "
    value = _value(head, expr) or render(expr, 0, lead=len(head))  # black leaves a line too long
    return AliasDef(alias, False, False, value, (), frozenset(names_in(expr)))


def used_by(definitions: Iterable[ClassDef | AliasDef]) -> set[str]:
    """Every name the definitions' statements use, as written by the templates."""
    used: set[str] = set()
    for d in definitions:
        used |= d.refs
        if isinstance(d, ClassDef):
            used |= CLASS_NAMES | {d.base}
        elif d.typed:
            used |= ALIAS_NAMES
    return used
