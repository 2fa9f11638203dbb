"""The types of `anyOf`, `oneOf` and `allOf` written without a type of their own: the union of
the branches' types (`str | int`, `Circle | Square`), discriminated by a tag when every branch
is an object requiring a property of one string constant, each its own, so that pydantic picks
the branch by it and IDEs narrow on it; for `allOf`, the type of its first typed branch (the
check says the rest)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolc.emit.pychecks import TYPED
from toolc.emit.pyexpr import Expr, call, name, one_line, sub, union
from toolc.emit.pyliterals import py_str
from toolc.emit.pymodel import TypeExpr
from toolc.emit.pynames import Keyword, Path
from toolc.model.naming import field_name, pascal

Lower = Callable[[Any, Path], TypeExpr]  # a subschema and its path → its type
Named = Callable[[Expr], Expr]  # a long union → the name of an alias of it
Hoist = Callable[[Expr, Path], Expr]  # a member → the name of an alias of it (a plain name kept)
UNION_LIMIT = 60  # longer unions are named, as the lowering names its own


def _tag_value(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    values = schema.get("enum", [schema["const"]] if "const" in schema else None)
    if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str):
        return values[0]
    return None


def _python_name(branch: dict[str, Any], tag: str) -> str:
    """The tag's field name in the branch's class (as the object lowering names fields)."""
    taken: set[str] = set()
    for wire in branch.get("properties", {}):
        ident = field_name(wire, taken)
        if wire == tag:
            return ident
    return ""


def discriminator(branches: list[Any]) -> tuple[str, str, list[str]] | None:
    """The tag of a union of object branches (its wire name and its Python field name, the
    same in every branch), and each branch's value of it."""
    if len(branches) < 2 or not all(
        isinstance(b, dict) and b.get("type") == "object" and "$ref" not in b for b in branches
    ):
        return None
    first = branches[0]
    for tag in first.get("required", ()):
        if not isinstance(tag, str):
            continue
        values = [_tag_value(b.get("properties", {}).get(tag)) for b in branches]
        required = all(tag in b.get("required", ()) for b in branches)
        idents = {_python_name(b, tag) for b in branches}
        if len(idents) != 1:
            continue  # the field is named apart in some branch: nothing for IDEs to narrow on
        if required and None not in values and len(set(values)) == len(values):
            return tag, idents.pop(), [v for v in values if v is not None]
    return None


def _word(kind: str, index: int, tag: str | None) -> Keyword:
    label = pascal(tag).rstrip("_") if tag and pascal(tag).rstrip("_").isidentifier() else ""
    return Keyword(f"{kind}/{index}", label or f"Option{index + 1}")


def applicator_type(
    schema: dict[str, Any], path: Path, lower: Lower, named: Named, hoist: Hoist, used: set[str]
) -> tuple[TypeExpr, str | None] | None:
    """The type of a schema of applicators only (None when it has a type of its own), and
    the keyword it is exact for: the `anyOf` it types, or the `oneOf` it discriminates
    (distinct required tags let at most one branch hold)."""
    if TYPED & set(schema):
        return None
    kind = "anyOf" if "anyOf" in schema else "oneOf" if "oneOf" in schema else None
    if kind is None:
        if "allOf" not in schema:
            return None
        typed = [b for b in schema["allOf"] if isinstance(b, dict) and TYPED & set(b)]
        if not typed:
            return None
        index = schema["allOf"].index(typed[0])
        return lower(typed[0], (*path, _word("allOf", index, None))), None
    branches = [b for b in schema[kind] if b is not False]
    if not branches:
        return None  # nothing is valid: the check says so
    tagged = discriminator(branches)
    tags: list[str | None] = list(tagged[2]) if tagged else [None] * len(branches)
    # An aliased tag (`type-name`, `class`) is read by its wire name: pydantic's own lookup
    # would try the Python name first, and pick a branch by a key the schema ignores.
    aliased = tagged is not None and tagged[0] != tagged[1]
    members: list[Expr] = []
    null_ok = False
    for branch, tag in zip(branches, tags, strict=True):
        at = (*path, _word(kind, schema[kind].index(branch), tag))
        lowered = lower(branch, at)
        if lowered.base.head == "Any":
            used.add("Any")
            # `Any` types the `anyOf` exactly only when the branch takes every value: a
            # branch typed `Any` with a check of its own (`oneOf: [{}, {enum: [x]}]` refuses
            # x) leaves the whole schema to its check (found by `make fuzz`, seed 1035570719)
            takes_all = not (
                lowered.constraints or lowered.validators or lowered.plain
                or lowered.after or lowered.wrap
            )  # fmt: skip
            return TypeExpr(name("Any")), "anyOf" if kind == "anyOf" and takes_all else None
        # A branch that takes null: said here, since a checked branch (`Annotated[X | None,
        # AfterValidator(...)]`) is hoisted into an alias whose `None` no member shows.
        null_ok = null_ok or lowered.nullable or lowered.null_ok or lowered.base.head == "None"
        member = lowered.inline()
        if member.members:  # `X | None`: the non-null part named, as the lowering names it
            member = union(*(m if m.head == "None" else hoist(m, at) for m in member.members))
        else:
            member = hoist(member, at)
        if aliased and tag is not None:
            used.add("tagged")
            member = sub("Annotated", member, call("tagged", py_str(tag)))
        for part in member.members or (member,):
            if one_line(part) not in {one_line(m) for m in members}:
                members.append(part)
    joined = union(*members) if len(members) > 1 else members[0]
    if len(joined.head) > UNION_LIMIT:
        joined = named(joined)
    if tagged is not None and aliased:
        used.add("tag_of")
        joined = sub("Annotated", joined, call("tag_of", py_str(tagged[0]), py_str(tagged[1])))
        used.add("Annotated")
    elif tagged is not None:
        used.add("Field")
        field = call("Field", kwargs=[("discriminator", py_str(tagged[0]))])
        joined = sub("Annotated", joined, field)
        used.add("Annotated")
    null_ok = null_ok or any(m.head == "None" for m in members)
    exact = kind if kind == "anyOf" or tagged is not None else None
    return TypeExpr(joined, null_ok=null_ok), exact
