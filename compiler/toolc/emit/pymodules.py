"""The definitions of a models module (`ClassDef`, `AliasDef`), from the lowered models
(`PyModel`, `PyAlias`): each statement laid out as black lays it out (pylines, pyexpr), so
`black --check` passes on the output without black ever running in the build."""

from __future__ import annotations

from collections.abc import Iterable

from toolc.emit.pyexpr import LINE_LENGTH, Expr, call, names_in, one_line, render, sub
from toolc.emit.pyfile import AliasDef, ClassDef
from toolc.emit.pylines import annotated
from toolc.emit.pyliterals import comment, docblock, py_expr, py_str
from toolc.emit.pymodel import PyAlias, PyField, PyModel
from toolc.emit.pywidth import width

# What the templates write themselves around a class or a typed alias.
CLASS_NAMES = frozenset({"WireModel", "ConfigDict"})
ALIAS_NAMES = frozenset({"TypeAlias"})


def _field_expr(f: PyField) -> Expr:
    metadata: list[Expr | str] = list(f.type.metadata())
    kwargs: list[tuple[str, Expr | str]] = []
    if f.alias is not None:
        kwargs.append(("alias", py_str(f.alias)))
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
    wrapped = len(f"class {m.name}(WireModel):") > LINE_LENGTH
    doc = docblock(m.doc, "    ")
    return ClassDef(m.name, wrapped, doc, m.extra, tuple(fields), frozenset(refs))


def alias_def(a: PyAlias) -> AliasDef:
    lead = len(f"{a.name}: TypeAlias = ")
    members = a.expr.members
    if members and lead + width(a.expr.head) > LINE_LENGTH:
        # black wraps a long right-hand side in parentheses: on one line inside them when it
        # fits, else one member per line.
        if 4 + width(a.expr.head) <= LINE_LENGTH:
            value = "(\n    " + a.expr.head + "\n)"
        else:
            value = "(\n    " + "\n    | ".join(one_line(m) for m in members) + "\n)"
    else:
        value = render(a.expr, 0, lead=lead)
    lines = tuple(comment(a.doc).splitlines()) if a.doc else ()
    return AliasDef(a.name, True, value, lines, frozenset(names_in(a.expr)))


def literal_alias(alias: str, values: list[str]) -> AliasDef:
    """`<alias> = Literal[...]` of the strings `values` (a tool's error codes)."""
    expr = sub("Literal", *(py_str(v) for v in values))
    value = render(expr, 0, lead=len(f"{alias} = "))
    return AliasDef(alias, False, value, (), frozenset(names_in(expr)))


def used_by(definitions: Iterable[ClassDef | AliasDef]) -> set[str]:
    """Every name the definitions' statements use, as written by the templates."""
    used: set[str] = set()
    for d in definitions:
        used |= d.refs
        if isinstance(d, ClassDef):
            used |= CLASS_NAMES
        elif d.typed:
            used |= ALIAS_NAMES
    return used
