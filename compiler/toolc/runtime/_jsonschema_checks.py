"""The checks of values against the package's published schemas, where a type cannot
say all of its schema (`conforms`, `conforms_number`, and `CheckedModel`'s): each
document's compiled evaluator, found once, and the `json_schema` error of a value it
refuses."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
)

from ._jsonschema_compiled import CompiledEvaluator
from ._jsonschema_eval import DOUBLE_EXACT, segment
from ._jsonschema_why import schema_error, why

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


def check_made(where: str, value: Any) -> None:
    """Raise the `json_schema` error of a validated value (models as their wire form)
    the schema at `where` refuses."""
    judge(where, wire(value))


def judge(where: str, data: Any) -> None:
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
def rest(where: str) -> Callable[[Any], bool]:
    """What the object schema at `where` says beyond its `properties`' subschemas: a
    model's fields are typed exactly (`pychecks`: a type wider than its schema checks
    itself, a number as it was sent), so the model does not judge its members twice.
    A `false` subschema is kept: its field is typed `Any`, and the object's check
    refuses it. Each other name stays (as `true`): it still says which members
    `additionalProperties` leaves out."""
    evaluator, schema, valid = _target(where)
    members = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(members, dict):
        return valid
    judged = {name: sub if sub is False else True for name, sub in members.items()}
    rest = {**schema, "properties": judged}
    if all(v is True for v in judged.values()) and _NAMES_MATTER.isdisjoint(schema):
        del rest["properties"]  # then no keyword reads them: no loop over the members
    return evaluator.check_of(rest)  # the evaluator keeps `rest` with its check


# Keywords for which the names `properties` lists matter.
_NAMES_MATTER = frozenset({"additionalProperties", "unevaluatedProperties"})


def _at(value: Any, pointer: str) -> Any:
    for raw in pointer.split("/")[1:]:
        part = segment(raw)
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


# Marks a validation by Python names (keyword construction): what a check reads then is
# the validated model's wire form, not the keyword arguments.
BY_NAME = {"toolc.by_name": True}


def by_name(info: ValidationInfo) -> bool:
    """Whether this validation is a keyword construction (`BY_NAME`)."""
    context = info.context
    return isinstance(context, dict) and bool(context.get("toolc.by_name"))


def conforms(where: str, numbers: bool = True) -> Callable[[Any], Any]:
    """An after-validator: the value must be valid against the published schema at
    `where` (`<document>#<JSON pointer>`); but a number, with `numbers=False`
    (`conforms_number` judged it as it arrived)."""

    def validator(value: Any) -> Any:
        if numbers or type(value) not in _NUMBERS:
            check_made(where, value)
        return value

    return validator


_NUMBERS = frozenset({int, float})


def conforms_number(
    where: str,
) -> Callable[[Any, ValidatorFunctionWrapHandler], Any]:
    """A wrap-validator: a number must be valid against the published schema at
    `where`. pydantic's `float` makes an integer beyond 2**53 the nearest double,
    which a bound or `multipleOf` may judge otherwise, and whose wire form the schema
    may refuse: such an integer is judged as sent and kept (decision 0133). Any other
    number is validated first (the type's own errors), then judged."""

    def validator(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if type(value) is int and not -DOUBLE_EXACT <= value <= DOUBLE_EXACT:
            judge(where, value)
            return value
        made = handler(value)
        if type(value) in _NUMBERS:
            judge(where, value)
        return made

    return validator


def as_sent(value: Any, handler: SerializerFunctionWrapHandler) -> Any:
    """A wrap-serializer: an integer `conforms_number` kept is written as the integer,
    not as the double `float`'s serializer would make of it (which the schema may
    refuse: 2**53 + 1 under `exclusiveMinimum: 2**53`)."""
    return value if type(value) is int else handler(value)


def conforms_sent(
    where: str, numbers: bool = True
) -> Callable[[Any, ValidatorFunctionWrapHandler, ValidationInfo], Any]:
    """A wrap-validator: once validated, the value must be valid against the
    published schema at `where` as it was sent. Where a value holds numbers typed
    `float` below its top, the validated value holds their doubles (decision 0133).
    A model built by keyword is checked as the wire form it makes; a number, with
    `numbers=False`, was judged by `conforms_number`."""

    def validator(
        value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        made = handler(value)
        if numbers or type(value) not in _NUMBERS:
            if by_name(info):
                check_made(where, made)
            else:
                judge(where, wire(value))
        return made

    return validator
