"""The type of an object schema: a model class of its properties (each field typed, optional
or defaulted as declared), or `dict[str, X]` for a bare map; `additionalProperties` as the
class's `extra` (forbid, or typed extra values)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolc.emit.pydefaults import accepts_null, default_of, endless, field_key
from toolc.emit.pyexpr import Expr, call, name, sub
from toolc.emit.pymodel import NOT_DECLARED, PyField, PyModel, TypeExpr
from toolc.emit.pynames import Naming, Path, keyword
from toolc.model.naming import field_name

if TYPE_CHECKING:
    from toolc.emit.pytypes import Lowering


def object_type(
    self: Lowering, schema: dict[str, Any], owner: str, path: Path,
    special: Naming, doc: str | None, extra_default: str, own: str | None,
) -> TypeExpr:  # fmt: skip
    props: dict[str, Any] = schema.get("properties", {})
    # Beside `patternProperties`, `additionalProperties` describes only the other names.
    extra_schema = schema.get("additionalProperties")
    if "patternProperties" in schema:
        extra_schema, extra_default = None, "allow"
    named = special(path) is not None  # a root the package names (Args, Data, a type)
    if not props and "required" not in schema and extra_schema is not False and not named:
        extra_path = (*path, keyword("additionalProperties", schema))
        value = self.lower(extra_schema, owner, extra_path, special) \
            if isinstance(extra_schema, dict) else None  # fmt: skip
        if value is None:
            self.used.add("Any")
        expr = TypeExpr(sub("dict", "str", value.inline() if value else "Any"))
        return self.checked(schema, expr) if own is not None else expr
    cls = self.names.name(owner, path, special)
    required = set(schema.get("required", []))
    fields: list[PyField] = []
    names: set[str] = set()
    for wire, prop in props.items():
        ident = field_name(wire, names)
        spec = prop if isinstance(prop, dict) else {}
        expr = self.lower(prop, owner, (*path, wire), special, doc=spec.get("description"))
        is_required = wire in required
        default: Expr | str | None = None
        key = field_key(self.current_type, (*path, wire))
        if (
            not is_required
            and "default" in spec
            and not endless(key, prop, spec["default"], self.type_schemas)
        ):
            default, used = default_of(spec["default"], expr, self._models(), self._names())
            self.used |= used
        if not is_required and default is None:  # None stands for "not given"
            default = "None"
            if not accepts_null(expr):
                self.used.add("reject_null")
                if expr.plain is not None:  # the enum's own validation goes with it
                    expr.base = sub("Annotated", expr.base, call("PlainValidator", expr.plain))
                    expr.plain = None
                expr.validators.insert(0, "reject_null")
                expr.base = self.hoist(
                    expr.base, owner, (*path, wire), special, keyword("Type", prop)
                )
                expr.nullable = True
        fields.append(PyField(
            ident, expr, is_required, alias=wire if wire != ident else None,
            description=spec.get("description"), title=spec.get("title"),
            examples=spec.get("examples"),
            default=default, declared=spec.get("default", NOT_DECLARED),
        ))  # fmt: skip
    for wire in sorted(required - set(props)):  # required but undeclared: any value
        ident = field_name(wire, names)
        self.used.add("Any")
        alias = wire if wire != ident else None
        fields.append(PyField(ident, TypeExpr(name("Any")), True, alias=alias))
    extra, extra_type = extra_default, None
    if extra_schema is False:
        extra = "forbid"
    elif isinstance(extra_schema, dict) and extra_schema:
        extra, extra_type = (
            "allow",
            self.lower(
                extra_schema, owner, (*path, keyword("additionalProperties", schema)), special
            ).inline(),
        )
    self.definitions.append(
        PyModel(cls, schema.get("description", doc), extra, fields, extra_type, own)
    )
    return TypeExpr(name(cls))
