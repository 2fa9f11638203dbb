"""The reference validator the tests judge generated models by: the `jsonschema` package's
draft 2020-12 validator, with `pattern` and `patternProperties` read as ECMA-262 (u flag) reads
them, as the published schema means them (decision 0024) and every JavaScript client does.

Python's `re` (what `jsonschema` uses) lets `$` match before a final newline and `.` match
`\\r` and U+2028: it accepts "P-100\\n" for `^P-[0-9]+$`, which the schema refuses. The ECMA
reading comes from toolc's translator, whose every verdict tests/test_ecma_patterns.py proves
equal to Node's `new RegExp(p, "u")`; every other keyword is the `jsonschema` package's own."""

from __future__ import annotations

from collections.abc import Iterator
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


EcmaValidator = validators.extend(
    Draft202012Validator, {"pattern": _pattern, "patternProperties": _pattern_properties}
)
