"""The Python default of a field from the schema's declared `default` (decision 0034).

The default is the declared value, written so that `mypy --strict` accepts it and every
instance gets its own: a scalar as a literal (mypy checks it against the field's type); an
empty list or dict as `Field(default_factory=list)`; another list or dict as a factory of the
literal that pydantic validates against the field (`validate_default`: mypy cannot type a
lambda's literal by the field); a value holding objects of a generated model through a
factory that validates the declared wire form each time, `lambda: Model.model_validate({...})`
or `lambda: validated(list[Model], [...])` (`_jsonschema.validated`). A literal default is
never validated, so it is written in the field's type first (`5.0` for an integer is `5`).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from toolc.emit.pyexpr import Expr, call, names_in
from toolc.emit.pyliterals import py_expr
from toolc.emit.pymodel import TypeExpr
from toolc.emit.pynames import Keyword


def _integral(value: Any) -> Any:
    """`value` with every float that is an integer written as one (for types with no float:
    JSON Schema's integer accepts 5.0, Python's int annotation does not)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


def _holds_object(value: Any) -> bool:
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(_holds_object(v) for v in value)


def accepts_null(expr: TypeExpr) -> bool:
    return expr.nullable or expr.null_ok or expr.base.head in ("Any", "None")


def default_of(
    value: Any, expr: TypeExpr, models: set[str], defined: set[str]
) -> tuple[Expr | str | None, set[str]]:
    """The default's source and the names it needs imported, or None when the declared
    value cannot be the default as typed (a null where the type refuses it: `check` reports
    that as `invalid-default`, so only a config that skipped it gets here).

    `models`: the generated model classes the field's type may name; `defined`: every
    class and alias name the type may name (an alias can stand for a union holding a model)."""
    if value is None:
        return ("None", set()) if accepts_null(expr) else (None, set())
    typed = expr.inline()
    names = set(names_in(typed))
    if not names & {"float", "Any"}:
        value = _integral(value)
    if not _holds_object(value) or not names & defined:
        if value == [] or value == {}:
            empty = "list" if value == [] else "dict"
            return call("Field", kwargs=[("default_factory", empty)]), {"Field"}
        if isinstance(value, list | dict):
            # mypy cannot type a lambda's literal by the field (`["a"]` is list[str], not
            # list[Literal["a"]]): pydantic validates each fresh value against it instead.
            literal = py_expr(value)
            assert isinstance(literal, Expr)
            fresh = replace(literal, head="lambda: ")
            kwargs: list[tuple[str, Expr | str]] = [
                ("default_factory", fresh),
                ("validate_default", "True"),
            ]
            return call("Field", kwargs=kwargs), {"Field"}
        return py_expr(value), set()
    # A model (or something holding one): the wire form is validated into it on each use.
    if expr.base.head in models and expr.base.args is None:
        build = Expr(f"lambda: {expr.base.head}.model_validate", (py_expr(value),), call=True)
        return call("Field", kwargs=[("default_factory", build)]), {"Field"}
    build = Expr("lambda: validated", (typed, py_expr(value)), call=True)
    return call("Field", kwargs=[("default_factory", build)]), {"Field", "validated"}


Key = tuple[str, tuple[tuple[str, str], ...]]  # a field of a shared type: (type, path in it)


def field_key(type_name: str | None, path: tuple[Any, ...]) -> Key | None:
    """How `endless` names the field at `path` of the shared type `type_name` (None: a
    tool's own schema, which nothing refers back to)."""
    if type_name is None:
        return None
    steps = tuple(("k", p.kind) if isinstance(p, Keyword) else ("p", str(p)) for p in path)
    return type_name, steps


def endless(key: Key | None, schema: Any, value: Any, defs: dict[str, Any]) -> bool:
    """Whether building the default `value` of the field `key` (pydantic fills in every
    default it omits, and those defaults' omitted defaults...) comes back to the field
    itself: a recursive type whose default omits its own recursive field. Such a default
    has no end and cannot be built; the field keeps None for "not given"."""
    if key is None:
        return False
    seen: set[Key] = set()

    def reaches(schema: Any, value: Any, where: Key | None) -> bool:
        if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            target = schema["$ref"].rsplit("/", 1)[-1]
            schema, where = defs.get(target), (target, ())
        if not isinstance(schema, dict):
            return False

        def step(kind: str, name: str) -> Key | None:
            return None if where is None else (where[0], (*where[1], (kind, name)))

        if isinstance(value, list) and "items" in schema:
            return any(reaches(schema["items"], v, step("k", "items")) for v in value)
        if not isinstance(value, dict):
            return False
        props = schema.get("properties", {})
        for name, prop in props.items():
            inner = step("p", name)
            if name in value:
                if reaches(prop, value[name], inner):
                    return True
            elif isinstance(prop, dict) and prop.get("default") is not None:
                if inner == key:
                    return True
                if inner is not None and inner not in seen:
                    seen.add(inner)
                    if reaches(prop, prop["default"], inner):
                        return True
        extra = schema.get("additionalProperties")
        others = [v for k, v in value.items() if k not in props]
        return any(reaches(extra, v, step("k", "additionalProperties")) for v in others)

    return reaches(schema, value, key)
