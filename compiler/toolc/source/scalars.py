"""Plain scalars typed as YAML 1.2's core schema types them.

PyYAML resolves by YAML 1.1 rules, which turn `NO`, `on`, `012` and `1:30` into False, True, 10
and 90 without a word (the "Norway problem"). Config values must mean what a YAML 1.2 reader (and
JSON) would say they mean, so toolc resolves plain scalars itself.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

Scalar = str | int | float | bool | None

CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = frozenset(CORE + t for t in ("str", "int", "float", "bool", "null"))


class ScalarProblem(NamedTuple):
    code: str
    message: str
    hint: str


def unsupported_tag(tag: object) -> ScalarProblem:
    shown = str(tag).replace(CORE, "!!", 1)
    return ScalarProblem(
        "yaml-unsupported-tag",
        f"unsupported YAML tag '{shown}'",
        "toolc reads YAML safely (JSON-compatible core tags only); remove the tag",
    )


def type_scalar(tag: str | None, plain: bool, text: str) -> tuple[Scalar, ScalarProblem | None]:
    """A scalar's value by YAML 1.2's core schema and toolc's tag policy, or why it has none."""
    value: Scalar
    if (plain or tag in SCALAR_TAGS) and len(text) > MAX_DIGITS and _INTEGER.match(text):
        return None, ScalarProblem(
            "non-json-value",
            f"an integer of {len(text):,} characters: toolc reads integers of at most "
            f"{MAX_DIGITS:,} digits",
            "JSON clients read numbers as 64-bit floats (15-17 significant digits); quote the "
            "value if it is an identifier",
        )
    if tag is None:
        value = resolve_plain(text) if plain else text
    elif tag == "!":
        value = text
    elif tag in SCALAR_TAGS:
        try:
            value = resolve_tagged(tag, text)
        except ValueError as exc:
            hint = "write the value as YAML 1.2 writes that type, or drop the tag"
            return None, ScalarProblem("yaml-tag-mismatch", str(exc), hint)
    else:
        return None, unsupported_tag(tag)
    if type(value) is float and not math.isfinite(value):
        return None, ScalarProblem(
            "non-json-value",
            f"{text!r} is not a finite number and has no JSON equivalent",
            "use a finite number, or quote the value to make it a string",
        )
    return value, None


_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = frozenset({".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})
_NEG_INF = frozenset({"-.inf", "-.Inf", "-.INF"})
_NAN = frozenset({".nan", ".NaN", ".NAN"})
# Python's own bound on converting digits (sys.get_int_max_str_digits): longer is refused.
MAX_DIGITS = 4300
_INTEGER = re.compile(r"[-+]?[0-9]+\Z|0o[0-7]+\Z|0x[0-9a-fA-F]+\Z")
# A plain scalar can only be something other than a string if it starts with one of these.
MAYBE_TYPED = frozenset("-+.0123456789~nNtTfF")

# What YAML 1.1 (PyYAML's default) would have made of scalars that 1.2 reads as strings.
_YAML11_BOOL = re.compile(r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)\Z")


def resolve_plain(value: str) -> Scalar:
    if value and value[0] not in MAYBE_TYPED:
        return value
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT10.match(value):
        return int(value, 10)
    if _INT8.match(value):
        return int(value[2:], 8)
    if _INT16.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        return float(value)
    if value in _INF:
        return float("inf")
    if value in _NEG_INF:
        return float("-inf")
    if value in _NAN:
        return float("nan")
    return value


def resolve_tagged(tag: str, value: str) -> Scalar:
    """Resolve an explicitly tagged core scalar; raise ValueError when the text does not fit."""
    kind = tag.rsplit(":", 1)[-1]
    if kind == "str":
        return value
    resolved = resolve_plain(value)
    ok = {
        "null": resolved is None,
        "bool": isinstance(resolved, bool),
        "int": isinstance(resolved, int) and not isinstance(resolved, bool),
        "float": isinstance(resolved, int | float) and not isinstance(resolved, bool),
    }.get(kind, False)
    if not ok:
        raise ValueError(f"{value!r} is not a YAML 1.2 {kind}")
    return float(resolved) if kind == "float" and isinstance(resolved, int) else resolved


def yaml11_reading(value: str) -> str | None:
    """How YAML 1.1 would read a plain scalar that YAML 1.2 reads as a string, if differently."""
    if _YAML11_BOOL.match(value):
        return "a boolean"
    if re.fullmatch(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+", value):
        return "a sexagesimal number"
    return None
