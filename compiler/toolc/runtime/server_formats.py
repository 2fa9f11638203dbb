"""The `format` rules of the official TypeScript SDK client: ajv 8 with ajv-formats
3.0.1 in its default `full` mode and `strict: false`, which it applies to a tool's
structuredContent against the outputSchema. The server checks its results with them so
it never sends one that client would throw away (decision 0023).

`FORMATS[name](value)` is ajv's verdict on a value as the client parses it from JSON:
True when ajv accepts it, and for every value of a JSON type the format does not apply
to (`APPLIES_TO`); `format_ok` also accepts names ajv-formats does not define, as ajv
does with `strict: false`. Each rule follows ajv-formats' code line by line; its regular
expressions are ajv-formats' own sources (server_formats_js). Standard library only."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from .server_formats_js import COMPILED
from .server_formats_regex import ecma_pattern_ok

_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_MIN_INT32, _MAX_INT32 = -(2**31), 2**31 - 1


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _date(s: str) -> bool:
    m = COMPILED["DATE"].search(s)
    if not m:
        return False
    year, month, day = int(m[1]), int(m[2]), int(m[3])
    if not 1 <= month <= 12:
        return False
    return 1 <= day <= (29 if month == 2 and _leap(year) else _DAYS[month])


def _time(strict_time_zone: bool) -> Callable[[str], bool]:
    def time(s: str) -> bool:
        m = COMPILED["TIME"].search(s)
        if not m:
            return False
        hr, minute = int(m[1]), int(m[2])
        sec = float(m[3])  # as JS `+m[3]`: 59.99999999999999999 is 60, a leap second
        tz, sign = m[4], -1 if m[5] == "-" else 1
        tz_h, tz_m = int(m[6] or 0), int(m[7] or 0)
        if tz_h > 23 or tz_m > 59 or (strict_time_zone and not tz):
            return False
        if hr <= 23 and minute <= 59 and sec < 60:
            return True
        # a leap second: 23:59:60 in UTC, whatever the offset
        utc_min = minute - tz_m * sign
        utc_hr = hr - tz_h * sign - (1 if utc_min < 0 else 0)
        return utc_hr in (23, -1) and utc_min in (59, -1) and sec < 61

    return time


def _date_time(strict_time_zone: bool) -> Callable[[str], bool]:
    time = _time(strict_time_zone)

    def date_time(s: str) -> bool:
        parts = COMPILED["DATE_TIME_SEPARATOR"].split(s)  # JS str.split(/t|\s/i)
        return len(parts) == 2 and _date(parts[0]) and time(parts[1])

    return date_time


def _uri(s: str) -> bool:
    # ajv-formats' NOT_URI_FRAGMENT test is implied by URI's scheme (kept as written)
    return bool(COMPILED["NOT_URI_FRAGMENT"].search(s) and COMPILED["URI"].search(s))


def _regex(s: str) -> bool:
    # ajv-formats: reject `\Z` after a non-backslash, then `new RegExp(str)` (no flags)
    return not COMPILED["Z_ANCHOR"].search(s) and ecma_pattern_ok(s)


def _matches(name: str) -> Callable[[str], bool]:
    pattern = COMPILED[name]
    return lambda s: pattern.search(s) is not None


def _as_js_number(value: float) -> float:
    """The double a JS client parses from the JSON of `value`."""
    try:
        return float(value)
    except OverflowError:  # JSON.parse("1e400") is Infinity
        return math.inf if value > 0 else -math.inf


def _js_integer(value: float) -> bool:  # Number.isInteger
    number = _as_js_number(value)
    return math.isfinite(number) and number == math.floor(number)


def _int32(value: float) -> bool:
    return _js_integer(value) and _MIN_INT32 <= _as_js_number(value) <= _MAX_INT32


def _on_strings(rule: Callable[[str], bool]) -> Callable[[Any], bool]:
    return lambda value: not isinstance(value, str) or rule(value)


def _on_numbers(rule: Callable[[float], bool]) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return not number or rule(value)

    return check


def _anything(value: Any) -> bool:
    return True


_STRING_RULES: dict[str, Callable[[str], bool]] = {
    "date": _date,
    "time": _time(True),
    "date-time": _date_time(True),
    "iso-time": _time(False),
    "iso-date-time": _date_time(False),
    "duration": _matches("duration"),
    "uri": _uri,
    "uri-reference": _matches("uri-reference"),
    "uri-template": _matches("uri-template"),
    "url": _matches("url"),
    "email": _matches("email"),
    "hostname": _matches("hostname"),
    "ipv4": _matches("ipv4"),
    "ipv6": _matches("ipv6"),
    "regex": _regex,
    "uuid": _matches("uuid"),
    "json-pointer": _matches("json-pointer"),
    "json-pointer-uri-fragment": _matches("json-pointer-uri-fragment"),
    "relative-json-pointer": _matches("relative-json-pointer"),
    "byte": _matches("BYTE"),  # BYTE has the `m` flag: any line may match
}
_NUMBER_RULES: dict[str, Callable[[float], bool]] = {
    "int32": _int32,
    "int64": _js_integer,
    "float": lambda value: True,
    "double": lambda value: True,
}
_ANNOTATIONS = ("password", "binary")  # ajv-formats defines them as `true`: no check

FORMATS: Mapping[str, Callable[[Any], bool]] = {
    **{name: _on_strings(rule) for name, rule in _STRING_RULES.items()},
    **{name: _on_numbers(rule) for name, rule in _NUMBER_RULES.items()},
    **{name: _anything for name in _ANNOTATIONS},
}
"""ajv-formats' `fullFormats`, in its order (`formatNames`)."""

APPLIES_TO: Mapping[str, str | None] = {
    **{name: "string" for name in _STRING_RULES},
    **{name: "number" for name in _NUMBER_RULES},
    **{name: None for name in _ANNOTATIONS},
}
"""The JSON type (typeof in JS) each format checks; None: it checks nothing."""


def format_ok(name: str, value: Any) -> bool:
    """Whether ajv (as the TypeScript SDK client sets it up) accepts `value` under
    `format: name`; a name ajv-formats does not define is ignored, so accepted."""
    rule = FORMATS.get(name)
    return rule is None or rule(value)
