"""The wire form of what a handler returns, and its JSON text: the two steps of sealing
every call takes, so both have fast paths (issue 16). Each writes exactly what the plain
code wrote: `to_wire` what `model_dump` and a walk of the containers make, `compact` the
standard library's bytes (decision 0126)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import re
import sys
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_json

from .server_types import Items

__all__ = ["compact", "fast_text", "note_foreign", "to_wire"]


def compact(value: Any) -> str:
    """The wire text: compact JSON, non-ASCII kept, NaN and infinities refused; the
    standard library's bytes exactly (decision 0126), as the data budget promises."""
    text = None if _foreign_seen else fast_text(value)
    return text if text is not None else _exact(value)


def fast_text(value: Any) -> str | None:
    """pydantic-core's text of JSON data (4x faster) when it is the standard library's
    too; None when it may not be. Data of foreign values is not JSON data: pydantic-core
    would write a datetime, where the standard library refuses it."""
    try:
        text = to_json(value).decode()
    except Exception:  # noqa: BLE001 -- a lone surrogate, say: the exact path decides
        return None
    # pydantic-core writes some floats otherwise (1e-05 as 0.00001, 1e-07 as 1e-7: each
    # holds "e-" or "0.0000"), and NaN where the standard library refuses it.
    if "e-" in text or "0.0000" in text or "NaN" in text or "Infinity" in text:
        return None
    # The standard library refuses an integer longer than Python's limit on writing
    # them (4,300 digits unless changed); pydantic-core writes it.
    limit = sys.get_int_max_str_digits()
    if limit and len(text) > limit and _digits_over(limit).search(text):
        return None
    return text


@functools.cache
def _digits_over(limit: int) -> re.Pattern[str]:
    return re.compile(f"[0-9]{{{limit + 1}}}")


def _exact(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if not text.isascii():
        # A lone surrogate (a file name decoded with surrogateescape) is no UTF-8 text:
        # the SDK's writer would fail on it after the call was sealed and counted.
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError("text with a lone surrogate is not JSON text") from exc
    return text


# Values of these exact types are JSON as they are (a subclass, such as a str enum,
# takes the general path below): a call's data is mostly these, and each isinstance
# test against an abstract class (Mapping, BaseModel's metaclass) costs microseconds.
_PLAIN = frozenset({str, int, float, bool, type(None)})
# What a value other than those is: a model (dumped by its class's serializer, or by its
# own `model_dump` when it overrides it or is a proxy), `Items`, another mapping or
# sequence, a subclass of str, int or float that both encoders write as its base value,
# anything else ("foreign").
_MODEL, _DUMPED, _ITEMS, _MAPPING, _SEQUENCE, _OTHER, _FOREIGN = range(7)
# Whether a value the standard library's encoder refuses (a datetime, a UUID, a set) has
# reached the wire data in this process: pydantic-core would write it, so from then on
# `compact` takes the standard library's path, which refuses it as before.
_foreign_seen = False
# What each class of value is, decided once per class (BaseModel's isinstance probes
# an attribute, then asks ABCMeta: the slowest step of a call's data).
_CLASSES: dict[type, int] = {}


def _class_of(value: Any) -> int:
    kind = type(value)
    found = _CLASSES.get(kind)
    if found is None:
        if isinstance(value, Items):
            found = _ITEMS
        elif isinstance(value, BaseModel):
            plain = issubclass(kind, BaseModel) and kind.model_dump is _MODEL_DUMP
            found = _MODEL if plain else _DUMPED
        elif isinstance(value, Mapping):
            found = _MAPPING
        elif isinstance(value, list | tuple):
            found = _SEQUENCE
        elif isinstance(value, str | int | float):  # None and bool are _PLAIN
            found = _OTHER if _written_alike(kind) else _FOREIGN
        else:
            found = _FOREIGN
        _CLASSES[kind] = found
    return found


_MODEL_DUMP = BaseModel.model_dump


def _written_alike(kind: type) -> bool:
    """Whether pydantic-core writes this subclass of str, int or float as the standard
    library does, as its base value. It writes an Enum member's `_value_` (tested on
    every member, once per class) and a dataclass's fields."""
    if dataclasses.is_dataclass(kind):
        return False
    if issubclass(kind, enum.Enum):
        try:
            return all(to_json(m).decode() == _exact(m) for m in kind)
        except Exception:  # noqa: BLE001 -- a NaN member, say: refused as before
            return False
    return True


def note_foreign() -> None:
    """A value the standard library's encoder refuses may be in the wire data."""
    global _foreign_seen
    _foreign_seen = True


def to_wire(value: Any) -> Any:
    """A handler's value as JSON data: models by alias with the fields that were set."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {str(k): to_wire(v) for k, v in value.items()}
    if kind is list:
        return [to_wire(v) for v in value]
    found = _class_of(value)
    if found == _MODEL:
        # model_dump's own arguments, without its Python wrapper (a third of its cost)
        return kind.__pydantic_serializer__.to_python(
            value, mode="json", by_alias=True, exclude_unset=True
        )
    if found == _DUMPED:
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if found == _ITEMS:
        return {**to_wire(value.fields), "results": [to_wire(v) for v in value.results]}
    if found == _MAPPING:
        return {str(k): to_wire(v) for k, v in value.items()}
    if found == _SEQUENCE:
        return [to_wire(v) for v in value]
    if found == _FOREIGN:
        note_foreign()
    return value
