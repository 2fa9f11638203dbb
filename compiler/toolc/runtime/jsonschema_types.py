"""JSON Schema semantics pydantic does not have built in, as building blocks for the
generated models: an integer that accepts 5.0 (JSON Schema's integer is a number with
no fractional part), equality by JSON value for `enum`, `const` and `uniqueItems`,
`null` refused where a property is optional but not nullable, the models' base,
built by Python name and validated by wire name, the model that checks itself
against the published schema where its fields cannot say all of it (`CheckedModel`;
the checks are `_jsonschema_checks`', the field validators `conforms` among them), and
the one that keeps additional members apart from renamed fields (`ExtrasModel`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, overload

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    ModelWrapValidatorHandler,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticCustomError

from . import _jsonschema_checks
from ._jsonschema_checks import BY_NAME, by_name, check_made, judge, rest, wire
from ._jsonschema_why import joined

T = TypeVar("T")
# The field validators (and serializer) the generated models import from here.
as_sent = _jsonschema_checks.as_sent
conforms = _jsonschema_checks.conforms
conforms_number = _jsonschema_checks.conforms_number
conforms_sent = _jsonschema_checks.conforms_sent


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
                data, self_instance=self, by_alias=False, by_name=True, context=BY_NAME
            )

        # Marked as pydantic's own __init__ (as pydantic marks RootModel's): validation
        # then never calls it, and keeps the models' by-alias configuration.
        __init__.__pydantic_base_init__ = True


class CheckedModel(WireModel):
    """A model whose published schema says more than its fields can
    (`__toolc_schema__`: where): data is checked as it arrives, a model built by
    keyword as the wire form it makes."""

    __toolc_schema__: ClassVar[str]

    @model_validator(mode="wrap")
    @classmethod
    def _conforms(
        cls, value: Any, handler: ModelWrapValidatorHandler[Any], info: ValidationInfo
    ) -> Any:
        if isinstance(value, dict) and not by_name(info):
            # The fields judge their members, each exactly (an error names its field);
            # the schema's own keywords are checked here, first (decision 0132).
            data = wire(value)
            if rest(cls.__toolc_schema__)(data):
                return handler(value)
            try:
                judge(cls.__toolc_schema__, data)
            except PydanticCustomError as own:  # and each failing member beside it
                try:
                    handler(value)
                except ValidationError as members:
                    raise joined(own, members, value) from None
                raise
            return handler(value)
        made = handler(value)
        check_made(cls.__toolc_schema__, made)
        return made


class ExtrasModel(WireModel):
    """A model that allows additional members and has a field whose Python name is not
    its wire name (`my_name` for `my-name`, `mime_type` for `mimeType`). pydantic counts
    an additional member in `model_fields_set`: one named like such a field's Python
    name marked the field set, and the wire form (`exclude_unset`) then wrote the field
    too, a member never sent (its default, or a null the schema may refuse). Here an
    additional member never sets a field: the field is set only when its wire name
    arrived."""

    # A wrap validator, to see what arrived: an after-validator (a quarter of the cost)
    # could only guess from the field's value, and left out a value that was sent.
    @model_validator(mode="wrap")
    @classmethod
    def _extras_apart(cls, value: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        made = handler(value)
        extra = made.__pydantic_extra__
        if extra and isinstance(value, dict):  # most calls have no additional member
            for name, wire_name in _renamed(cls):
                if name in extra and wire_name not in value:
                    made.__pydantic_fields_set__.discard(name)
        return made


@functools.cache  # read once a model is complete (its fields may name later classes)
def _renamed(model: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """(Python name, wire name) of each field whose names differ."""
    return tuple(
        (name, field.alias)
        for name, field in model.__pydantic_fields__.items()
        if field.alias is not None and field.alias != name
    )


class CheckedExtrasModel(ExtrasModel, CheckedModel):
    """A `CheckedModel` that is also an `ExtrasModel`."""


def integral(value: Any) -> Any:
    """JSON Schema's integer is a number with no fractional part: 5.0 is 5."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(integral)]


def json_key(value: Any) -> Any:
    """A hashable key under which two JSON values are equal exactly when JSON Schema
    says so: 1 and 1.0 are equal, true and 1 are not, key order does not matter."""
    kind = type(value)  # JSON's own types first
    if kind is str:
        return ("string", value)
    if kind is int or kind is float:
        return ("number", value)
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
        # Two values equal as JSON are equal in Python (which also takes true for 1):
        # items distinct in a set, in C, are distinct. Only a duplicate found there, or
        # an unhashable item (an object, an array), needs the JSON keys.
        try:
            if len(set(value)) == len(value):
                return value
        except TypeError:
            pass
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


def tag_of(wire: str, name: str) -> Discriminator:
    """The discriminator of a union whose tag's Python name is not its wire name: data
    is read by the wire name only (as the schema reads it), a model by its field."""

    def pick(value: Any) -> str | None:
        found = (
            value.get(wire) if isinstance(value, dict) else getattr(value, name, None)
        )
        return found if isinstance(found, str) else None  # no tag: no branch holds

    return Discriminator(pick)


def tagged(value: str) -> Tag:
    """The mark of a union member: the tag value that picks it (`tag_of`)."""
    return Tag(value)


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
    holds models (`default_factory=lambda: validated(list[Label], [{...}])`), strictly
    as the models judge."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp.model_validate(value)
    return TypeAdapter(tp, config=ConfigDict(strict=True)).validate_python(value)
