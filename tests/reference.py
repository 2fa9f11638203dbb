"""The reference validator the tests judge generated models by: the `jsonschema` package's
draft 2020-12 validator, with `pattern` and `patternProperties` read as ECMA-262 (u flag) reads
them, as the published schema means them (decision 0024) and every JavaScript client does,
and `multipleOf` judged exactly, on the numbers the JSON text writes (decision 0133).

Python's `re` (what `jsonschema` uses) lets `$` match before a final newline and `.` match
`\\r` and U+2028: it accepts "P-100\\n" for `^P-[0-9]+$`, which the schema refuses. The ECMA
reading comes from toolc's translator, whose every verdict tests/test_ecma_patterns.py proves
equal to Node's `new RegExp(p, "u")`; every other keyword is the `jsonschema` package's own."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from toolc.validate.ecma_regex import search


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _exact(number: int | float) -> Fraction:
    """The number a JSON text writes: a float with a fraction as its shortest repr (0.1 is
    1/10); a float at or beyond 2**53, where every double is an integer, as that integer,
    as `jsonschema` compares it with bounds and as JavaScript clients hold it (decision
    0133)."""
    if isinstance(number, int) or abs(number) >= 2**53:
        return Fraction(number)
    return Fraction(Decimal(repr(number)))


def _multiple_of(
    validator: Any, factor: int | float, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """`jsonschema` divides a float factor as doubles: `2**53 + 1` was a multiple of `2.0`
    (its quotient rounds to a whole number). JSON Schema means the numbers' own quotient."""
    if (
        validator.is_type(instance, "number")
        and (_exact(instance) / _exact(factor)).denominator != 1
    ):
        yield ValidationError(f"{instance!r} is not a multiple of {factor!r}")


EcmaValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "multipleOf": _multiple_of},
)
