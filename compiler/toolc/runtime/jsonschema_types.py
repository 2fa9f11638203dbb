"""JSON Schema semantics pydantic does not have built in, as building blocks for the
generated models: an integer that accepts 5.0 (JSON Schema's integer is a number with
no fractional part), equality by JSON value for `enum`, `const` and `uniqueItems`,
`null` refused where a property is optional but not nullable, the models' base,
built by Python name and validated by wire name, and the checks against the published
schema itself where a type cannot say all of it (`conforms`, `CheckedModel`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
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

from ._jsonschema_compiled import CompiledEvaluator
from ._jsonschema_eval import segment
from ._jsonschema_why import joined, schema_error, why

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
                data, self_instance=self, by_alias=False, by_name=True, context=_BY_NAME
            )

        # Marked as pydantic's own __init__ (as pydantic marks RootModel's): validation
        # then never calls it, and keeps the models' by-alias configuration.
        __init__.__pydantic_base_init__ = True


# Marks a validation by Python names (keyword construction): what a check reads then is
# the validated model's wire form, not the keyword arguments.
_BY_NAME = {"toolc.by_name": True}
_PACKAGE = Path(__file__).resolve().parent


@functools.cache
def _evaluator(document: str) -> CompiledEvaluator:
    """The evaluator of a published schema of the package (`schemas/<tool>.input.json`,
    `shared.json`), with the translations of its patterns (`patterns/<tool>.json`,
    `shared.patterns.json`)."""
    schema = json.loads((_PACKAGE / document).read_text(encoding="utf-8"))
    if document.startswith(
        "schemas/"
    ):  # schemas/<tool>.input.json: patterns/<tool>.json
        tool = document.removeprefix("schemas/").removesuffix(".json")
        sidecar = _PACKAGE / "patterns" / (tool.rpartition(".")[0] + ".json")
    else:  # shared.json
        sidecar = _PACKAGE / document.replace(".json", ".patterns.json")
    patterns = (
        json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.exists() else {}
    )
    return CompiledEvaluator(schema, patterns)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def wire(value: Any) -> Any:
    """A validated value as JSON: models as their wire form."""
    kind = type(
        value
    )  # JSON's own types first: every call of a checked model comes here
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {k: wire(v) for k, v in value.items()}
    if kind is list:
        return [wire(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, list | tuple):
        return [wire(v) for v in value]
    if isinstance(value, dict):
        return {k: wire(v) for k, v in value.items()}
    return value


@functools.cache
def _target(where: str) -> tuple[CompiledEvaluator, Any, Callable[[Any], bool]]:
    """The evaluator, the schema and its compiled check at `where`, found once."""
    document, _, pointer = where.partition("#")
    evaluator = _evaluator(document)
    schema = evaluator.resolve("#" + pointer)
    return evaluator, schema, evaluator.check_of(schema)


def _check(where: str, value: Any) -> None:
    _judge(where, wire(value))


def _judge(where: str, data: Any) -> None:
    """Raise the `json_schema` error of JSON `data` the schema at `where` refuses."""
    evaluator, schema, valid = _target(where)
    if not valid(data):
        document, _, pointer = where.partition("#")
        at, schema_at, keyword = why(evaluator, schema, data, "", pointer)
        # for `propertyNames` what fails is the name, not its value
        name = segment(at.rpartition("/")[2])
        failing = name if keyword == "propertyNames" else _at(data, at)
        raise schema_error(
            {
                "instance": at,  # a JSON pointer into the value checked ("": all of it)
                "value": json.dumps(failing, ensure_ascii=False)[:80],
                "keyword": keyword,
                "schema": f"{document}#{schema_at}",
            }
        )


@functools.cache
def _rest(where: str) -> Callable[[Any], bool]:
    """What the object schema at `where` says beyond its `properties`' subschemas: a
    model's fields are typed exactly (`pychecks`: a type wider than its schema checks
    itself), so the model does not judge its members twice. A `false` subschema is
    kept: its field is typed `Any`, and the object's check refuses it. So is one that
    bounds a number somewhere (`_rounds`). Each other name stays (as `true`): it still
    says which members `additionalProperties` leaves out."""
    evaluator, schema, valid = _target(where)
    members = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(members, dict):
        return valid
    judged = {
        name: sub if sub is False or _rounds(evaluator, sub, set()) else True
        for name, sub in members.items()
    }
    rest = {**schema, "properties": judged}
    if all(v is True for v in judged.values()) and _NAMES_MATTER.isdisjoint(schema):
        del rest["properties"]  # then no keyword reads them: no loop over the members
    return evaluator.check_of(rest)  # the evaluator keeps `rest` with its check


# Keywords for which the names `properties` lists matter.
_NAMES_MATTER = frozenset({"additionalProperties", "unevaluatedProperties"})
_NUMBER_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _rounds(evaluator: CompiledEvaluator, node: Any, seen: set[int]) -> bool:
    """Whether a number in `node` is bounded (or `multipleOf`) where its type may be
    `float`: pydantic's `float` makes an integer beyond 2**53 the nearest float before
    the bound sees it, so such a member is judged by the object's check too. Walks
    every value, `$ref`s followed (data that looks like a bound only keeps more)."""
    if id(node) in seen or not isinstance(node, dict | list):
        return False
    seen.add(id(node))
    if isinstance(node, list):
        return any(_rounds(evaluator, item, seen) for item in node)
    kinds = node.get("type", "number")
    if "number" in (kinds if isinstance(kinds, list) else [kinds]) and (
        "multipleOf" in node or any(k in node for k in _NUMBER_BOUNDS)
    ):
        return True
    ref = node.get("$ref")
    if isinstance(ref, str) and _rounds(evaluator, evaluator.resolve(ref), seen):
        return True
    return any(_rounds(evaluator, value, seen) for value in node.values())


def _at(value: Any, pointer: str) -> Any:
    for raw in pointer.split("/")[1:]:
        part = segment(raw)
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def conforms(where: str) -> Callable[[Any], Any]:
    """An after-validator: the value must be valid against the published schema at
    `where` (`<document>#<JSON pointer>`)."""

    def check(value: Any) -> Any:
        _check(where, value)
        return value

    return check


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
        by_name = isinstance(info.context, dict) and info.context.get("toolc.by_name")
        if isinstance(value, dict) and not by_name:
            # The fields judge their members, each exactly (an error names its field);
            # the schema's own keywords are checked here, first (decision 0132).
            data = wire(value)
            if _rest(cls.__toolc_schema__)(data):
                return handler(value)
            try:
                _judge(cls.__toolc_schema__, data)
            except PydanticCustomError as own:  # and each failing member beside it
                try:
                    handler(value)
                except ValidationError as members:
                    raise joined(own, members, value) from None
                raise
            return handler(value)
        made = handler(value)
        _check(cls.__toolc_schema__, made)
        return made


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
