"""Source text of the generated Python modules, from the lowered models (PyModel, PyAlias).

Everything is laid out as black lays it out (see pyexpr), so `black --check` passes on the
output without black ever running in the build."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from toolc.emit.pyexpr import LINE_LENGTH, Expr, call, render, sub
from toolc.emit.pylines import annotated
from toolc.emit.pyliterals import comment, docblock, docstring, py_expr, py_str
from toolc.emit.pymodel import PyAlias, PyField, PyModel
from toolc.emit.pywidth import width

TYPING = ("Annotated", "Any", "Literal", "Optional", "TypeAlias", "Union")
PYDANTIC = ("BaseModel", "BeforeValidator", "ConfigDict", "Field", "PlainValidator")
HELPERS = ("JsonInt", "WireModel", "one_of", "reject_null", "unique_items", "validated")
ENVELOPE = ("ErrorInfo", "Meta")
# What a models module may import: no class or alias it defines may take one of these names.
IMPORTABLE = frozenset((*TYPING, *PYDANTIC, *HELPERS, *ENVELOPE))


def names_in(e: Expr | str | tuple[str, Expr | str]) -> Iterator[str]:
    """Identifiers an expression refers to (heads and bare names), for its imports."""
    if isinstance(e, tuple):
        yield from names_in(e[1])
        return
    if isinstance(e, str):
        head = e.split("(", 1)[0].split("[", 1)[0]
        for part in head.replace("|", " ").split():
            if part.isidentifier():
                yield part
        return
    yield from names_in(e.head)
    for item in e.items():
        yield from names_in(item)


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


def render_model(m: PyModel) -> tuple[str, set[str]]:
    """A model class, and the names it uses."""
    used = {"WireModel", "ConfigDict"}
    head = f"class {m.name}(WireModel):"
    lines = [head if len(head) <= LINE_LENGTH else f"class {m.name}(\n    WireModel\n):"]
    if docblock(m.doc, "    "):
        lines += [docstring(m.doc or "", "    "), ""]
    lines += [
        "    model_config = ConfigDict(",
        f'        extra="{m.extra}",',
        "        strict=True,",
        '        regex_engine="rust-regex",',
        "        validate_by_alias=True,",
        "        serialize_by_alias=True,",
        "    )",
    ]
    if m.fields or m.extra_type is not None:
        lines.append("")
    for f in m.fields:
        expr = _field_expr(f)
        used.update(names_in(expr))
        default = None if f.required else f.default
        if default is not None:
            used.update(names_in(default))
        lines.append(annotated(4, f.name, expr, default))
    if m.extra_type is not None:
        extra = sub("dict", "str", m.extra_type)
        used.update(names_in(extra))
        lines.append(annotated(4, "__pydantic_extra__", extra))
    return "\n".join(lines), used


def render_alias(a: PyAlias) -> tuple[str, set[str]]:
    used = {"TypeAlias", *names_in(a.expr)}
    head = f"{a.name}: TypeAlias = "
    flat = a.expr.head if a.expr.args is None and not a.expr.call else ""
    if " | " in flat and width(head) + width(flat) > LINE_LENGTH:
        # black wraps a long right-hand side in parentheses: on one line inside them when it
        # fits, else one member per line.
        if 4 + width(flat) <= LINE_LENGTH:
            text = head + "(\n    " + flat + "\n)"
        else:
            text = head + "(\n    " + "\n    | ".join(flat.split(" | ")) + "\n)"
    else:
        text = head + render(a.expr, 0, lead=len(head))
    if a.doc and comment(a.doc):
        text = comment(a.doc) + "\n" + text
    return text, used


@functools.cache  # pure; the registry sorts every tool's names with it
def natural_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Runs of digits compare as numbers (t2 before t10), as ruff's sorts do."""
    return tuple(
        (0, int(chunk), "") if chunk.isdigit() else (1, 0, chunk)
        for chunk in re.findall(r"[0-9]+|[^0-9]+", text)
    )


def _kind(name: str) -> int:
    return 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2


@functools.cache
def isort_key(name: str) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """isort's order-by-type for imported names (CONSTANTS, Classes, others), case-blind."""
    return _kind(name), natural_key(name.lower())


@functools.cache
def all_key(name: str) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """ruff's RUF022 order for `__all__`: the same kinds, case-sensitive within each."""
    return _kind(name), natural_key(name)


def imports(used: set[str], local: set[str], shared: set[str], depth: str) -> list[str]:
    """Import lines for the names a module uses and does not define itself, grouped and sorted
    as isort (ruff's I rules) wants them."""

    def pick(offered: Iterable[str]) -> list[str]:
        return sorted((n for n in offered if n in used and n not in local), key=isort_key)

    groups = [
        [import_line("typing", pick(TYPING))] if pick(TYPING) else [],
        [import_line("pydantic", pick(PYDANTIC))] if pick(PYDANTIC) else [],
        [
            import_line(module, names)
            for module, names in (
                (f"{depth}_jsonschema", pick(HELPERS)),
                (f"{depth}envelope", pick(ENVELOPE)),
                (f"{depth}shared", pick(shared)),
            )
            if names
        ],
    ]
    lines = ["from __future__ import annotations"]
    for group in groups:
        if group:
            lines += ["", *group]
    return lines


def import_line(module: str, names: Iterable[str], indent: str = "") -> str:
    listed = sorted(names, key=isort_key)
    line = f"{indent}from {module} import {', '.join(listed)}"
    if width(line) <= LINE_LENGTH:
        return line
    inner = "".join(f"{indent}    {n},\n" for n in listed)
    return f"{indent}from {module} import (\n{inner}{indent})"


def module(header: str, doc: str, body: list[str], import_lines: list[str]) -> bytes:
    """A whole module: header comment, docstring, imports, then the definitions. Blank lines as
    black and isort want them: two around classes, one after the imports before anything else."""
    text = "\n".join([header, docstring(doc, ""), "", *import_lines]).rstrip("\n") + "\n"
    previous_is_class = True  # the imports: two blank lines before a class, one otherwise
    for number, block in enumerate(body):
        is_class = block.startswith("class ")
        two = is_class or (previous_is_class and number > 0)
        text += ("\n\n" if two else "\n") + block.rstrip("\n") + "\n"
        previous_is_class = is_class
    return text.encode()


def literal_alias(alias: str, values: list[str]) -> tuple[str, set[str]]:
    expr = sub("Literal", *(py_str(v) for v in values))
    head = f"{alias} = "
    return head + render(expr, 0, lead=len(head)), {"Literal"}
