"""Whether a mock value is valid against its schema: the generated package's own evaluator
(`_jsonschema_eval`, exact for every 2020-12 keyword toolc publishes), read with the pattern
dialect the caller gives and with `format` asserted, as the server checks what it sends (and
as mainstream clients check outputs). The mock proposes candidates; this decides, so a value
it answers with is valid by construction, whatever keyword its generation does not know."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from toolc.runtime._jsonschema_eval import Evaluator
from toolc.runtime.server_formats import format_ok

# Whether a string holds a match of a pattern (the mock's default is Python's `re`).
Search = Callable[[str, str], bool]


class Checker(Evaluator):
    def __init__(self, root: Mapping[str, Any], search: Search) -> None:
        super().__init__(root, {})
        self.search = search

    def _search(self, pattern: str, text: str) -> bool:
        return self.search(pattern, text)

    def _assertions(self, s: dict[str, Any], v: Any) -> bool:
        if isinstance(v, str) and "format" in s and not format_ok(s["format"], v):
            return False
        if "multipleOf" in s and not _float_multiple(v, s["multipleOf"]):
            return False
        return super()._assertions(s, v)

    def ok(self, value: Any, schema: Any) -> bool:
        try:
            return self.valid(schema, value)
        except (KeyError, IndexError, TypeError, ValueError):  # a `$ref` that leads nowhere
            return False


def _float_multiple(v: Any, m: Any) -> bool:
    """A multiple in binary floating point too, as jsonschema and JavaScript clients compute
    it (0.3 is a multiple of 0.1 in decimal, not for them): a mock value must pass both."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return True
    try:
        if isinstance(m, float):
            quotient = v / m
            return not math.isinf(quotient) and int(quotient) == quotient
        return not v % m
    except OverflowError:  # beyond a float: not confirmed
        return False


def value_key(v: Any) -> Any:
    """Hashable, equal exactly when JSON Schema calls two values equal."""
    if isinstance(v, bool) or v is None:
        return ("atom", v)
    if isinstance(v, int | float):
        return ("number", v)
    if isinstance(v, list):
        return ("array", tuple(value_key(x) for x in v))
    if isinstance(v, dict):
        return ("object", frozenset((k, value_key(x)) for k, x in v.items()))
    return ("string", v)
