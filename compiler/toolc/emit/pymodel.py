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
    wrap: list[Expr] = field(default_factory=list)  # WrapValidator(...) arguments
    serializer: Expr | None = None  # WrapSerializer(...) argument

    @property
    def refuses_null(self) -> bool:
        """An optional field typed `T | None` (None meaning "not given") whose validator
        refuses an explicit null."""
        return "reject_null" in self.validators

    @property
    def constraints_first(self) -> bool:
        """Whether `Field(constraints)` goes before the validators. There pydantic puts
        them in the type's own schema: checked in Rust, with the type's errors
        (`string_too_long`). After a validator it checks them on the value with a Python
        function: 0.25 µs more a call, "Value should have at most 200 items" for a
        string, and a TypeError on a null that `T | None` allows. Never before a
        `PlainValidator`, which replaces the type (they would be lost); not before a
        `conforms` check either, which reports its keywords as the published schema's
        (`json_schema`) first, unless a null the field takes would reach them."""
        if self.plain is not None:
            return False
        takes_null = self.nullable and not self.refuses_null
        return takes_null or not self.after  # `conforms_number` needs them inside

    def annotation(self) -> Expr:
        if not self.nullable or self.base.head in ("Any", "None"):
            return self.base
        # Bases are plain names here: the lowering hoists anything longer into an alias.
        return union(self.base, name("None"))

    def metadata(self) -> list[Expr]:
        plain = [call("PlainValidator", self.plain)] if self.plain is not None else []
        after = [call("AfterValidator", v) for v in self.after]
        wrap = [call("WrapValidator", v) for v in self.wrap]
        written = [call("WrapSerializer", self.serializer)] if self.serializer else []
        before = [call("BeforeValidator", v) for v in self.validators]
        return plain + before + after + wrap + written

    def inline(self) -> Expr:
        """The type as one expression, constraints included (for list items and unions)."""
        metadata = self.metadata()
        if self.constraints:
            constraints = call("Field", kwargs=self.constraints)
            first = self.constraints_first
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
