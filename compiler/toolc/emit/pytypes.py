"""Lowering published JSON Schemas to pydantic types that accept exactly what the schema accepts.

The result is a small typed model (PyModel, PyField, TypeExpr) that the templates only read.
Class names of nested objects come from their owner and their path in its schema alone, so
declaring another tool never renames anything here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from toolc.emit.pychecks import (
    ANNOTATIONS,
    TYPE_SPECIFIC,
    holds_numbers,
    judged_as_double,
    may_be_number,
    needs_check,
    type_ref,
)
from toolc.emit.pyenums import enum_type
from toolc.emit.pyexpr import Expr, call, name, sub, union
from toolc.emit.pyliterals import py_str, py_value
from toolc.emit.pymodel import PyAlias, PyModel, TypeExpr
from toolc.emit.pynames import Keyword, Names, Naming, Path, keyword
from toolc.emit.pyobjects import object_type
from toolc.emit.pyunions import applicator_type
from toolc.model.schemas import MISSING, resolve
from toolc.validate.ecma_regex import model_pattern

STRING_KEYS = {"minLength": "min_length", "maxLength": "max_length", "pattern": "pattern"}
NUMBER_KEYS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt", "exclusiveMaximum": "lt"}
ARRAY_KEYS = {"minItems": "min_length", "maxItems": "max_length"}
ENVELOPE_DEFS = {"envelope.ErrorInfo": "ErrorInfo", "envelope.Meta": "Meta"}
ALL_TYPES = ("array", "boolean", "number", "object", "string")  # and null


def _is_model(schema: Any) -> bool:
    """Whether a shared type's schema lowers to a model class of the type's own name (an
    object and nothing else; a nullable or many-typed root is an alias of a union)."""
    return (
        isinstance(schema, dict)
        and not {"$ref", "enum", "const"} & set(schema)
        and Lowering._types(schema) == {"object"}
    )


def whole_bound(key: str, bound: Any) -> Any:
    """The whole number an integer meets exactly when it meets `bound` under `key`:
    pydantic's `int` takes no other bound (a `SchemaError` at every validation for
    `exclusiveMinimum: 0.5` or `maximum: 1e19`, floats). A float's floor and ceiling are
    exact; the published schema keeps the bound as written."""
    if not isinstance(bound, float):
        return bound
    return math.floor(bound) if key in ("maximum", "exclusiveMinimum") else math.ceil(bound)


class Lowering:
    """Lowers the schemas of one owner (a tool's args, data or item, or a shared type)."""

    def __init__(
        self,
        type_names: dict[str, str],
        taken: Iterable[str] = (),
        nullable_types: frozenset[str] = frozenset(),
        type_schemas: dict[str, Any] | None = None,
    ):
        self.type_names = type_names  # shared type → class or alias name
        self.nullable_types = nullable_types  # shared types that accept null
        self.type_schemas = type_schemas or {}
        self.current_type: str | None = None  # the shared type being lowered, if one is
        # The shared types that are model classes (their declared defaults are built).
        self.shared_models = {
            type_names[t] for t, s in self.type_schemas.items() if t in type_names and _is_model(s)
        }
        self.envelope_names = ENVELOPE_DEFS
        # Models and aliases in the order they were made: an inner one before its user.
        self.definitions: list[PyModel | PyAlias] = []
        self.used: set[str] = set()  # helper names the rendered code needs imported
        self.names = Names(taken)  # every name given in the module
        # The published document being lowered (its file in the package, and each of its
        # schema objects' pointers): where a check reads the schema a type cannot say.
        self.document: Any = None
        self.document_file = ""
        self.pointer_of: dict[int, str] = {}
        self.lowering: list[int] = []  # the schemas being lowered (a pointer back is recursion)

    def read(self, document: Any, file: str) -> None:
        """Lower schemas of `document` (published as `file`) from now on."""
        from toolc.emit.pychecks import pointers

        self.document, self.document_file = document, file
        self.pointer_of = pointers(document)

    def where(self, schema: Any) -> str:
        """`<file>#<pointer>` of a schema object of the document."""
        return f"{self.document_file}#{self.pointer_of[id(schema)]}"

    def checked(self, schema: Any, expr: TypeExpr) -> TypeExpr:
        """`expr`, checked against the published schema after its own validation; a
        number, and a value holding one, as it was sent (decision 0133): pydantic's
        `float` rounds an integer beyond 2**53 before a later check would see it."""
        where = py_str(self.where(schema))
        top = may_be_number(schema)
        if top:  # a number itself: an integer beyond 2**53 as sent, and kept so
            self.used |= {"WrapValidator", "conforms_number", "WrapSerializer", "as_sent"}
            expr.wrap.insert(0, call("conforms_number", where))
            expr.serializer = name("as_sent")  # and written as the integer it is
        rest = [("numbers", "False")] if top else []
        if holds_numbers(schema, lambda ref: resolve(self.document, ref)):
            self.used |= {"WrapValidator", "conforms_sent"}
            expr.wrap.append(call("conforms_sent", where, kwargs=rest))
        elif schema.get("type") not in ("number", ["number"]):  # it takes more than numbers
            self.used |= {"AfterValidator", "conforms"}
            expr.after.append(call("conforms", where, kwargs=rest))
        return expr

    def _models(self) -> set[str]:
        """The model classes a field's type may name: this module's so far, the shared ones."""
        local = {d.name for d in self.definitions if isinstance(d, PyModel)}
        return local | self.shared_models | set(self.envelope_names.values())

    def _names(self) -> set[str]:
        """Every class and alias a field's type may name."""
        local = {d.name for d in self.definitions}
        return local | set(self.type_names.values()) | set(self.envelope_names.values())

    # -- naming -----------------------------------------------------------------------------------
    def hoist(self, expr: Expr, owner: str, path: Path, naming: Naming, word: Keyword) -> Expr:
        """Name a complex type so that `X | None` and `A | B` stay one short line (black lays
        out a long binary union in ways not worth reproducing)."""
        if expr.args is None and not expr.call:
            return expr
        alias = self.names.name(owner, path, naming, word)
        self.definitions.append(PyAlias(alias, None, expr))
        return name(alias)

    # -- types ------------------------------------------------------------------------------------
    def lower(
        self, schema: Any, owner: str, path: Path,
        special: Naming = lambda _: None,
        doc: str | None = None, extra_default: str = "allow",
    ) -> TypeExpr:  # fmt: skip
        if schema is True or schema == {} or schema is False:  # a false one: the parent checks
            self.used.add("Any")
            return TypeExpr(name("Any"))
        assert isinstance(schema, dict)
        self.lowering.append(id(schema))
        try:
            return self._lower(schema, owner, path, special, doc, extra_default)
        finally:
            self.lowering.pop()

    def _lower(
        self, schema: dict[str, Any], owner: str, path: Path,
        special: Naming, doc: str | None, extra_default: str,
    ) -> TypeExpr:  # fmt: skip
        if "$ref" in schema:
            expr, exact = self._ref(schema, owner, path, special)
            if set(schema) - ANNOTATIONS - {"$ref"} or not exact:
                return self.checked(schema, expr)
            return expr
        applied = applicator_type(
            schema, path, lambda sub_schema, at: self.lower(sub_schema, owner, at, special),
            lambda joined: self._union_alias(joined, owner, path, special, schema),
            lambda member, at: self.hoist(member, owner, at, special, keyword("Type", schema)),
            self.used,
        )  # fmt: skip
        if applied is not None:
            expr, exact_for = applied
            return self.checked(schema, expr) if needs_check(schema, exact_for) else expr
        check = needs_check(schema, None)
        if "enum" in schema or "const" in schema:
            return self._enum(schema, owner, path, special)
        types = self._types(schema)
        nullable = "null" in types
        concrete = sorted(types - {"null"})
        if not types:  # no `type`: every JSON type is allowed
            if not any(k in schema for k in TYPE_SPECIFIC):
                self.used.add("Any")
                expr = TypeExpr(name("Any"))
                return self.checked(schema, expr) if check else expr
            concrete, nullable = list(ALL_TYPES), True
        # A class checks itself when it is the whole type; otherwise the type is checked.
        own = self.where(schema) if check and concrete == ["object"] and not nullable else None
        expr = self._typed(schema, owner, path, special, doc, extra_default, own)
        return self.checked(schema, expr) if check and own is None else expr

    def _typed(
        self, schema: dict[str, Any], owner: str, path: Path, special: Naming,
        doc: str | None, extra_default: str, own: str | None,
    ) -> TypeExpr:  # fmt: skip
        types = self._types(schema)
        nullable = "null" in types or not types
        concrete = sorted(types - {"null"}) if types else sorted(ALL_TYPES)
        member_naming = special
        if special(path) is not None and (nullable or len(concrete) > 1) and "object" in concrete:
            # The root's name belongs to the whole type (an alias of the union); its object
            # member is a class of its own.
            root = special(path)

            def member_naming(p: Path) -> str | None:
                return f"{root}Object" if p == path else special(p)

        members = [
            self._one(t, schema, owner, path, member_naming, doc, extra_default, own)
            for t in concrete
        ]
        if not members:
            return TypeExpr(name("None"))
        if len(members) == 1:
            member = members[0]
            if nullable:
                if member.base.args is not None or member.base.call:
                    member.base = self.hoist(
                        member.base, owner, path, special, keyword("Type", schema)
                    )
                member.nullable = True
            return member
        parts = [
            self.hoist(m.inline(), owner, path, special, keyword("Type", schema, k.title()))
            for m, k in zip(members, concrete, strict=True)
        ]
        joined = union(*parts)
        if len(joined.head) > 60:  # a named alias, laid out one member per line
            joined = self._union_alias(joined, owner, path, special, schema)
        return TypeExpr(joined, nullable=nullable)

    def _union_alias(
        self, joined: Expr, owner: str, path: Path, special: Naming, schema: Any
    ) -> Expr:
        alias = self.names.name(owner, path, special, keyword("Union", schema))
        self.definitions.append(PyAlias(alias, None, joined))
        return name(alias)

    def _ref(
        self, schema: dict[str, Any], owner: str, path: Path, special: Naming
    ) -> tuple[TypeExpr, bool]:
        """The type a `$ref` leads to, and whether it is exact: a shared type's name, or the
        type of what a pointer leads to, lowered in place (`Any` when the pointer leads back
        into a schema being lowered: the recursion is the check's)."""
        named = {**self.type_names, **self.envelope_names}
        target = type_ref(schema, named)
        if target is not None:
            referenced = self.envelope_names.get(target) or self.type_names[target]
            # a `false` type is typed `Any`: what refers to it checks the schema instead
            exact = resolve(self.document, schema["$ref"]) is not False
            return TypeExpr(name(referenced), null_ok=target in self.nullable_types), exact
        found = resolve(self.document, schema["$ref"])
        if found is MISSING or found is False or id(found) in self.lowering:
            self.used.add("Any")
            return TypeExpr(name("Any")), False
        return self.lower(found, owner, (*path, Keyword("$ref", "Ref")), special), True

    @staticmethod
    def _types(schema: dict[str, Any]) -> set[str]:
        kind = schema.get("type")
        if kind is None:
            return set()
        kinds = set(kind) if isinstance(kind, list) else {kind}
        if "integer" in kinds and "number" in kinds:
            kinds.discard("integer")  # every integer is a number
        return kinds

    def _enum(self, schema: dict[str, Any], owner: str, path: Path, naming: Naming) -> TypeExpr:
        def alias(word: Keyword, joined: Expr) -> str:
            named = self.names.name(owner, path, naming, word)
            self.definitions.append(PyAlias(named, None, joined))
            return named

        expr, used = enum_type(
            schema, lambda e, word: self.hoist(e, owner, path, naming, word), alias
        )
        self.used |= used
        return expr

    def _constraints(self, schema: dict[str, Any], expr: TypeExpr, kinds: set[str]) -> None:
        if "string" in kinds:
            # A pattern means what ECMA-262 (u flag) says: the model gets it translated for
            # the linear-time engine (decision 0024; `check` refused what cannot be).
            stated = {k: schema[k] for k in STRING_KEYS if k in schema}
            if "pattern" in stated:
                stated["pattern"] = model_pattern(stated["pattern"])
            expr.constraints += [(STRING_KEYS[k], py_value(v)) for k, v in stated.items()]
        if "integer" in kinds:  # an `int`'s bounds: whole numbers only
            expr.constraints += [
                (NUMBER_KEYS[k], py_value(whole_bound(k, schema[k])))
                for k in NUMBER_KEYS
                if k in schema
            ]
        elif "number" in kinds:  # a bound a double cannot judge is the check's (pychecks)
            expr.constraints += [
                (NUMBER_KEYS[k], py_value(schema[k]))
                for k in NUMBER_KEYS
                if k in schema and judged_as_double(schema[k])
            ]
        if "array" in kinds:
            expr.constraints += [
                (ARRAY_KEYS[k], py_value(schema[k])) for k in ARRAY_KEYS if k in schema
            ]
            if schema.get("uniqueItems") is True:
                self.used.add("unique_items")
                expr.validators.append("unique_items")

    def _one(
        self, kind: str, schema: dict[str, Any], owner: str, path: Path,
        special: Naming, doc: str | None, extra_default: str, own: str | None = None,
    ) -> TypeExpr:  # fmt: skip
        if kind == "string":
            expr = TypeExpr(name("str"))
        elif kind == "integer" and not NUMBER_KEYS.keys().isdisjoint(schema):
            # Bounded: `int` with its bounds in its own schema, checked in Rust; inside
            # JsonInt's validator pydantic checks them with a Python function per bound
            self.used.add("integral")
            expr = TypeExpr(name("int"), validators=["integral"])
        elif kind == "integer":
            self.used.add("JsonInt")
            expr = TypeExpr(name("JsonInt"))
        elif kind == "number":
            expr = TypeExpr(name("float"))
        elif kind == "boolean":
            expr = TypeExpr(name("bool"))
        elif kind == "array":
            # Beside `prefixItems`, `items` describes only the elements after them.
            items = schema.get("items") if "prefixItems" not in schema else None
            item = (
                self.lower(items, owner, (*path, keyword("items", schema)), special)
                if items is not None
                else None
            )
            if item is None:
                self.used.add("Any")
            expr = TypeExpr(sub("list", item.inline() if item else "Any"))
        else:
            expr = object_type(self, schema, owner, path, special, doc, extra_default, own)
        self._constraints(schema, expr, {kind})
        return expr
