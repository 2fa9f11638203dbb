"""The typed intermediate model of the generated Python: what the lowering makes and the
templates and renderers only read."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import field

from toolc.emit.pyexpr import Expr, call, name, sub, union

NOT_DECLARED: Any = object()  # a field whose schema declares no `default`


class TypeExpr(msgspec.Struct, dict=True):
    base: Expr
    constraints: list[tuple[str, str]] = field(default_factory=list)  # Field(...) keyword args
    validators: list[Expr | str] = field(default_factory=list)  # BeforeValidator(...) arguments
    nullable: bool = False
    null_ok: bool = False  # accepts null itself (a shared type's alias or an enum includes None)
    plain: Expr | str | None = None  # PlainValidator(...): validates instead of the type
    after: list[Expr] = field(default_factory=list)  # AfterValidator(...) arguments

    @property
    def refuses_null(self) -> bool:
        """An optional field typed `T | None` (None meaning "not given") whose validator
        refuses an explicit null."""
        return "reject_null" in self.validators

    def annotation(self) -> Expr:
        if not self.nullable or self.base.head in ("Any", "None"):
            return self.base
        # Bases are plain names here: the lowering hoists anything longer into an alias.
        return union(self.base, name("None"))

    def metadata(self) -> list[Expr]:
        plain = [call("PlainValidator", self.plain)] if self.plain is not None else []
        after = [call("AfterValidator", v) for v in self.after]
        return plain + [call("BeforeValidator", v) for v in self.validators] + after

    def inline(self) -> Expr:
        """The type as one expression, constraints included (for list items and unions)."""
        metadata = self.metadata()
        if self.constraints:
            constraints = call("Field", kwargs=self.constraints)
            # On `T | None` the constraints must come first: pydantic applies them to `T`
            # only while nothing wraps the union yet; after a validator it applies them to
            # the value, and None raised TypeError (not a validation error) there.
            first = self.nullable and self.plain is None
            metadata = [constraints, *metadata] if first else [*metadata, constraints]
        return sub("Annotated", self.annotation(), *metadata) if metadata else self.annotation()


class PyField(msgspec.Struct, dict=True):
    name: str
    type: TypeExpr
    required: bool
    alias: str | None = None
    description: str | None = None
    title: str | None = None
    examples: list[Any] | None = None
    default: Expr | str | None = None  # a Python expression, for optional fields
    declared: Any = NOT_DECLARED  # the schema's `default`, as JSON


class PyModel(msgspec.Struct, dict=True):
    name: str
    doc: str | None
    extra: str  # "forbid" | "ignore" | "allow"
    fields: list[PyField]
    extra_type: Expr | None = None  # typed additionalProperties
    check: str | None = None  # where its published schema is, when its fields say less


class PyAlias(msgspec.Struct, dict=True):
    name: str
    doc: str | None
    expr: Expr
