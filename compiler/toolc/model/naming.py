"""How declared names become Python identifiers. Shared by the collision check and, later, by the
code generator, so that what the check promises is what the generator does."""

from __future__ import annotations

import functools
import keyword
import re

# Attributes of pydantic's BaseModel that a field must not shadow.
_RESERVED = frozenset(
    {
        # names the generated annotations and validators use: a field must not shadow them
        "str",
        "int",
        "float",
        "bool",
        "list",
        "as_sent",
        "conforms",
        "conforms_number",
        "conforms_sent",
        "integral",
        "one_of",
        "reject_null",
        "tag_of",
        "tagged",
        "unique_items",
        "copy",
        "dict",
        "json",
        "schema",
        "schema_json",
        "construct",
        "validate",
        "fields",
        "parse_obj",
        "parse_raw",
        "parse_file",
        "from_orm",
        "update_forward_refs",
    }
)
# pydantic's `protected_namespaces` (2.10 and later): a *field* whose name starts so is warned
# of when its model is defined, that is, when the user's package is imported.
_PROTECTED = ("model_validate", "model_dump")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_IDENT = re.compile(r"[^0-9A-Za-z]+")


@functools.cache  # pure, and asked for the same names again and again by every module
def snake(name: str) -> str:
    """`orderId` → `order_id`, `cancel-pedidos` → `cancel_pedidos`: a valid identifier that
    neither shadows a BaseModel attribute nor is a keyword."""
    words = _NON_IDENT.sub("_", _CAMEL.sub("_", name)).strip("_").lower()
    ident = re.sub(r"_+", "_", words) or "arg"
    if ident[0].isdigit():
        ident = "n_" + ident
    if keyword.iskeyword(ident) or ident in _RESERVED or ident.startswith("model_"):
        ident += "_"
    return ident


@functools.cache
def pascal(name: str) -> str:
    """`cancelar_pedidos` → `CancelarPedidos`."""
    parts = snake(name).rstrip("_").split("_")
    ident = "".join(p[:1].upper() + p[1:] for p in parts if p)
    ident = ident if ident[:1].isalpha() else "T" + ident
    # `none`, `true` and `false` would become the keywords None, True and False.
    return ident + "_" if keyword.iskeyword(ident) else ident


def field_name(wire: str, taken: set[str]) -> str:
    """A field's Python name: the wire name in snake case, `_` added until it is new;
    `field_` before a name pydantic reserves for fields (decision 0143: it warns of any
    field named so, `_` added or not). Tools, modules and classes keep `snake`'s name."""
    ident = snake(wire)
    if ident.startswith(_PROTECTED):
        ident = "field_" + ident.rstrip("_")
    while ident in taken:
        ident += "_"
    taken.add(ident)
    return ident
