"""A schema whose patterns are the model's (decision 0024), for jsonschema-rs's plain Rust
regex engine: it then judges a value exactly as the generated model and every JavaScript
client do. Used where toolc itself judges values against a schema: the stated values of a
config (`checks.values`) and the example arguments of the reference docs."""

from __future__ import annotations

from typing import Any

from toolc.validate.ecma_regex import Translated, translate

# Keywords whose value is data, never a schema: copied as they are, a `pattern` key in them too.
VALUE_KEYWORDS = ("default", "examples", "enum", "const")
# Keywords whose value maps names to schemas: a name is no keyword (a property "enum").
_NAMED = ("properties", "$defs", "dependentSchemas")


class Untranslatable(ValueError):
    """A pattern with no translation the Rust engine reads as ECMA-262 means it."""


def with_model_patterns(
    schema: Any, originals: dict[str, str] | None = None, strict: bool = False
) -> Any:
    """A copy of `schema` with each pattern translated. `originals` receives each translation
    → the pattern as written (to say a message in the user's words). A pattern with no
    translation is kept as written, or with `strict` raises Untranslatable."""
    if isinstance(schema, list):
        return [with_model_patterns(item, originals, strict) for item in schema]
    if not isinstance(schema, dict):
        return schema
    copy: dict[str, Any] = {}
    for key, value in schema.items():
        if key in VALUE_KEYWORDS:
            copy[key] = value
        elif key == "pattern" and isinstance(value, str):
            copy[key] = _pattern(value, originals, strict)
        elif key == "patternProperties" and isinstance(value, dict):
            copy[key] = {
                _pattern(p, originals, strict): with_model_patterns(sub, originals, strict)
                for p, sub in value.items()
            }
        elif key in _NAMED and isinstance(value, dict):
            copy[key] = {n: with_model_patterns(sub, originals, strict) for n, sub in value.items()}
        else:
            copy[key] = with_model_patterns(value, originals, strict)
    return copy


def _pattern(pattern: str, originals: dict[str, str] | None, strict: bool) -> str:
    found = translate(pattern)
    if not isinstance(found, Translated):
        if strict:
            raise Untranslatable(pattern)
        return pattern
    if originals is not None:
        originals[found.pattern] = pattern
    return found.pattern
