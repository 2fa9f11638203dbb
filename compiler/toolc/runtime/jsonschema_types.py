"""JSON Schema semantics pydantic does not have built in, as building blocks for the
generated models: an integer that accepts 5.0 (JSON Schema's integer is a number with
no fractional part), equality by JSON value for `enum`, `const` and `uniqueItems`,
`null` refused where a property is optional but not nullable, and the models' base,
built by Python name and validated by wire name."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, overload

from pydantic import BaseModel, BeforeValidator, TypeAdapter

T = TypeVar("T")


class WireModel(BaseModel):
    """The base of every generated model. Keyword construction takes the Python field
    names, the ones type checkers show (`File(mime_type=...)`); validating data
    (`model_validate`, what the server and the client do with what arrives) takes the
    wire names only, so `{"mime_type": ...}` stays refused where the schema says
    `mimeType` (0016).
    """

    # Type checkers keep the __init__ that pydantic's dataclass_transform synthesizes,
    # whose parameters are the field names.
    if not TYPE_CHECKING:

        def __init__(self, /, **data: Any) -> None:
            __tracebackhide__ = True
            self.__pydantic_validator__.validate_python(
                data, self_instance=self, by_alias=False, by_name=True
            )

        # Marked as pydantic's own __init__ (as pydantic marks RootModel's): validation
        # then never calls it, and keeps the models' by-alias configuration.
        __init__.__pydantic_base_init__ = True


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(_integral)]


def json_key(value: Any) -> Any:
    """A hashable key under which two JSON values are equal exactly when JSON Schema
    says so: 1 and 1.0 are equal, true and 1 are not, key order does not matter."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if value is None:
        return ("null",)
    if isinstance(value, list | tuple):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, json_key(v)) for k, v in value.items()))
    return ("other", repr(value))


def unique_items(value: Any) -> Any:
    if isinstance(value, list):
        seen = set()
        for item in value:
            key = json_key(item)
            if key in seen:
                raise ValueError("array items must be unique")
            seen.add(key)
    return value


def one_of(*allowed: Any) -> Callable[[Any], Any]:
    """A validator accepting only the given JSON values (for `enum` and `const`). A
    number reads as the allowed number it equals (1.0 as 1): its type is the declared
    one."""
    declared = {json_key(v): v for v in allowed}
    shown = ", ".join(repr(v) for v in allowed)

    def check(value: Any) -> Any:
        key = json_key(value)
        if key not in declared:
            raise ValueError(f"must be one of: {shown}")
        return declared[key] if key[0] == "number" else value

    return check


def reject_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed here; omit the property instead")
    return value


@overload
def validated(tp: type[T], value: Any) -> T: ...
@overload
def validated(tp: Any, value: Any) -> Any: ...
def validated(tp: Any, value: Any) -> Any:
    """`value`, JSON by wire names, validated as `tp`: the default of a field whose type
    holds models (`default_factory=lambda: validated(list[Label], [{...}])`)."""
    return TypeAdapter(tp).validate_python(value)
