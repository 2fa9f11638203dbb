"""The type of an `enum` or `const` (decision 0031): strings as `Literal`; any other values
typed by their kinds, as precisely as Python's types allow (`Literal[False]`,
`Literal[1] | float | None`), and validated by `one_of` (JSON's equality: 1 is 1.0 but not
true) in place of pydantic's own validation of that type, which would use Python's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolc.contract.canonical import canonical_bytes
from toolc.emit.pyexpr import Expr, call, name, names_in, sub, union
from toolc.emit.pyliterals import py_expr, py_str, py_value
from toolc.emit.pymodel import TypeExpr
from toolc.emit.pynames import Keyword, keyword

UNION_LIMIT = 60  # longer unions are named, as the lowering names its own


def enum_type(
    schema: dict[str, Any],
    hoist: Callable[[Expr, Keyword], Expr],
    alias: Callable[[Keyword, Expr], str],
) -> tuple[TypeExpr, set[str]]:
    """The type, and the names it uses. `hoist` names a member as an alias; `alias` names a
    long union."""
    values = schema["enum"] if "enum" in schema else [schema["const"]]
    if "enum" in schema and "const" in schema:
        # the enum's values equal to the const as JSON (in Python `1 == True`)
        const = canonical_bytes(schema["const"])
        values = [v for v in values if canonical_bytes(v) == const]
    if values and all(isinstance(v, str) for v in values):
        return TypeExpr(sub("Literal", *(py_str(v) for v in values))), {"Literal"}
    # mypy takes no integer of 64 bits or more in a Literal: those are typed `int` (one_of
    # still admits only the declared values).
    exact = [v for v in values if isinstance(v, bool | str) or _literal_int(v)]
    parts: list[tuple[str, Expr]] = []
    if exact:
        parts.append(("Literal", sub("Literal", *(py_value(v) for v in exact))))
    if any(type(v) is int and not _literal_int(v) for v in values):
        parts.append(("Integer", name("int")))
    if any(isinstance(v, float) for v in values):
        parts.append(("Number", name("float")))
    if any(isinstance(v, list) for v in values):
        parts.append(("Array", sub("list", "Any")))
    if any(isinstance(v, dict) for v in values):
        parts.append(("Object", sub("dict", "str", "Any")))
    used = {"PlainValidator", "one_of"}
    used |= {n for _, e in parts for n in names_in(e) if n in ("Literal", "Any")}
    checker = call("one_of", *(py_expr(v) for v in values))
    null = [name("None")] if None in values else []
    if len(parts) == 1 and not null:
        return TypeExpr(parts[0][1], plain=checker), used
    joined = union(*(e for _, e in parts), *null)
    if len(joined.head) > UNION_LIMIT:
        joined = union(*(hoist(e, keyword("Type", schema, kind)) for kind, e in parts), *null)
        if len(joined.head) > UNION_LIMIT:
            joined = name(alias(keyword("Union", schema), joined))
    return TypeExpr(joined, plain=checker, null_ok=bool(null)), used


def _literal_int(value: object) -> bool:
    return type(value) is int and abs(value) < 2**63
