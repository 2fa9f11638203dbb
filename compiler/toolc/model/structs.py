"""The config data, already valid against the published schemas, as toolc's config Structs
(decision 0121), and which fields a file states."""

from __future__ import annotations

import functools
from typing import Any

import msgspec
import msgspec.inspect as mi
import msgspec.structs


def convert(data: object, kind: Any) -> Any:
    """`data` as the config model `kind`; ValueError when the model refuses it.

    Strict, so a string is never read as a number or `null` (a `type: "null"` stays a
    string). JSON Schema counts a number with no fractional part as an integer (`maxItems:
    1.0`), which the schema validation before accepted: only when the strict conversion
    refuses something does this write such a number as an integer where the model takes
    integers alone, and try again."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as refused:
        try:
            return msgspec.convert(_integers(data, mi.type_info(kind)), kind)
        except msgspec.ValidationError:
            raise ValueError(str(refused)) from refused


def stated_fields(model: msgspec.Struct) -> frozenset[str]:
    """The fields of a config model its file states: an absent optional field is None, or
    UNSET where a stated null differs (`const`, `default`; scripts/config_structs.py). No
    field that may be absent has another default in the models this is asked of (policies
    and schema keywords)."""
    nullable = _nullable(type(model))
    return frozenset(
        name
        for name in model.__struct_fields__
        if (value := getattr(model, name)) is not msgspec.UNSET
        and (value is not None or name in nullable)
    )


@functools.cache
def _nullable(kind: type[msgspec.Struct]) -> frozenset[str]:
    """The fields whose absence is UNSET, so that None is a stated null."""
    return frozenset(f.name for f in msgspec.structs.fields(kind) if f.default is msgspec.UNSET)


def _integers(data: Any, info: mi.Type) -> Any:
    """A copy of `data` with each integral float that stands where `info` takes only an
    integer written as one."""
    while isinstance(info, mi.Metadata):
        info = info.type
    if isinstance(info, mi.IntType):
        return int(data) if isinstance(data, float) and data.is_integer() else data
    if isinstance(info, mi.UnionType):
        kinds = _members(info)
        if isinstance(data, float):
            numbers = [t for t in kinds if isinstance(t, mi.IntType | mi.FloatType)]
            return _integers(data, numbers[0]) if len(numbers) == 1 else data
        shaped = [t for t in kinds if _holds(t, data)]
        return _integers(data, shaped[0]) if shaped else data
    if isinstance(info, mi.StructType) and isinstance(data, dict):
        fields = {f.encode_name: f.type for f in info.fields}
        return {k: _integers(v, fields[k]) if k in fields else v for k, v in data.items()}
    if isinstance(info, mi.DictType) and isinstance(data, dict):
        return {k: _integers(v, info.value_type) for k, v in data.items()}
    if isinstance(info, mi.ListType | mi.SetType | mi.FrozenSetType) and isinstance(data, list):
        return [_integers(v, info.item_type) for v in data]
    return data


def _members(union: mi.UnionType) -> list[mi.Type]:
    """A union's members, unions inside it flattened and annotations taken off."""
    found: list[mi.Type] = []
    for member in union.types:
        while isinstance(member, mi.Metadata):
            member = member.type
        found += _members(member) if isinstance(member, mi.UnionType) else [member]
    return found


def _holds(info: mi.Type, data: Any) -> bool:
    """Whether a member of a union takes values of `data`'s shape (an object or an array)."""
    if isinstance(data, dict):
        return isinstance(info, mi.StructType | mi.DictType)
    if isinstance(data, list):
        return isinstance(info, mi.ListType | mi.SetType | mi.FrozenSetType)
    return False
