"""What the evolution walk's findings say about values, for `inclusion`: the rules that never
refuse a value, those of the later keywords that may, the kind of value each keyword
constrains (on any other kind it is vacuous), and a plain string a pattern refuses."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolc.evolution.keywords import type_set

# Walk rules that never refuse a value the narrower side accepts.
WIDENING = frozenset(
    {"arg-became-optional", "arg-type-widened", "nullability-added", "input-enum-value-added",
     "input-enum-dropped", "bound-loosened", "pattern-removed", "input-object-opened",
     "default-changed", "format-changed", "description-changed", "title-changed",
     "label-changed", "user-prompt-changed", "examples-changed", "deprecation-changed",
     "input-union-branch-added", "input-subschema-removed", "input-dependent-required-removed",
     "annotation-changed", "content-changed"}
)  # fmt: skip
# Rules of the later keywords that may refuse a value: undecided (no proof of a refused one).
KEYWORD_RULES = frozenset(
    {
        "input-union-branch-removed",
        "input-subschema-added",
        "input-dependent-required-added",
        "input-schema-undecided",
    }
)
# Keywords, by the kind of value they constrain (on any other kind they are vacuous).
_KINDS = {
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    "string": ("minLength", "maxLength", "pattern"),
    "array": ("minItems", "maxItems", "uniqueItems", "minContains", "maxContains", "contains",
              "prefixItems", "unevaluatedItems"),
    "object": ("minProperties", "maxProperties", "patternProperties", "propertyNames",
               "dependentRequired", "dependentSchemas", "unevaluatedProperties"),
}  # fmt: skip
APPLIES = {keyword: kind for kind, keywords in _KINDS.items() for keyword in keywords}


# Keywords whose next pointer segment is a name or an index, not a keyword.
NAMED = frozenset({"properties", "patternProperties", "dependentSchemas", "dependentRequired",
                   "$defs", "anyOf", "oneOf", "allOf", "prefixItems"})  # fmt: skip


def may_be(node: Mapping[str, Any], kind: str) -> bool:
    types = type_set(node)
    return kind in types or (kind == "number" and "integer" in types)


def unmatched(pattern: str, node: Mapping[str, Any]) -> str | None:
    """A string the node accepts (no pattern of its own: only its length bounds) that `pattern`
    does not match, searched among a few plain ones; None if none of them is."""
    try:
        compiled = re.compile(pattern)  # Python's `re` is the reference validator's engine
    except re.error:
        return None
    low = node.get("minLength", 0)
    high = node.get("maxLength", low + 2)
    for length in sorted({low, min(low + 1, high), high}):
        for char in ("", " ", "0", "a", "Z", "~", "-", "é", "\n"):
            candidate = char * length if char else ""
            if len(candidate) == length and not compiled.search(candidate):
                return candidate
    return None


def kind(value: Any) -> str:
    return "null" if value is None else "boolean"
