"""Canonical JSON (RFC 8785, JCS) and the sha16 fingerprints of the snapshot.

JCS: no whitespace; object members sorted by the UTF-16 code units of their names; strings as
ECMAScript's JSON.stringify writes them; numbers as ECMAScript's Number.prototype.toString.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from typing import Any

import orjson


def _shortest_digits(value: float) -> tuple[str, int]:
    """(digits, n) with value = 0.digits × 10^n, digits the shortest that round-trip (repr's)."""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    n = len(whole.lstrip("0")) if whole.strip("0") else -(len(fraction) - len(fraction.lstrip("0")))
    return digits.rstrip("0"), n + int(exponent or 0)


def _number(value: int | float) -> str:
    """ECMAScript's Number::toString (ECMA-262, 7.1.12.1), as JCS requires."""
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers")
    if isinstance(value, int):
        if abs(value) < 2**53:
            return str(value)
        value = float(value)  # beyond what a double holds exactly: JCS writes the double
    if not math.isfinite(value):
        raise ValueError("JSON has no representation for NaN or infinity")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    s, n = _shortest_digits(value)
    k = len(s)
    if k <= n <= 21:
        return sign + s + "0" * (n - k)
    if 0 < n <= 21:
        return sign + s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + s
    exponent = n - 1
    mark = "+" if exponent > 0 else "-"
    head = s[0] + ("." + s[1:] if k > 1 else "")
    return f"{sign}{head}e{mark}{abs(exponent)}"


def _utf16_key(name: str) -> bytes:
    return name.encode("utf-16-be")


@functools.lru_cache(maxsize=4096)  # a config repeats its few floats (bounds, examples)
def _float_agrees(value: float) -> bool:
    """Whether orjson writes this float as JCS does: true of most (10.5, 0.25), not of integral
    ones (100.0 → 100) nor of some exponents (1e16 → 10000000000000000)."""
    return orjson.dumps(value) == _number(value).encode("ascii")


def _plain(value: Any) -> bool:
    """True when every float is one orjson writes as JCS does, no integer lies beyond a
    double's exact range and no key outside the Basic Multilingual Plane occurs: then JCS is
    exactly sorted, compact JSON, which orjson writes ~20x faster than the general path below
    (the configs' examples and bounds carry floats: without the float test, most descriptors
    took the general path)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for key, sub in item.items():
                if not key.isascii() and any(ord(ch) > 0xFFFF for ch in key):
                    return False
                stack.append(sub)
        elif kind is list:
            stack.extend(item)
        elif kind is float:
            if not _float_agrees(item):
                return False
        elif kind is int and not -(2**53) < item < 2**53:
            return False
    return True


def canonical_bytes(value: Any) -> bytes:
    """The value's canonical JSON, UTF-8 encoded."""
    if type(value) is str:  # an enum value, as `enum` is sorted for a fingerprint: `_plain`
        return orjson.dumps(value)  # says yes to every string, without the walk
    if _plain(value):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    return canonical_json(value).encode("utf-8")


def json_key(value: Any) -> bytes | None:
    """The value's canonical JSON, to compare values as JSON (in Python `True == 1`);
    None for a value JSON cannot write (NaN, infinity, a set), which equals nothing else."""
    try:
        return canonical_bytes(value)
    except (TypeError, ValueError):
        return None


def canonical_json(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        members = sorted(value.items(), key=lambda kv: _utf16_key(kv[0]))
        return (
            "{"
            + ",".join(
                json.dumps(k, ensure_ascii=False) + ":" + canonical_json(v) for k, v in members
            )
            + "}"
        )
    raise TypeError(f"not JSON: {type(value).__name__}")


def sha256(value: Any) -> str:
    """The full SHA-256 of the value's canonical JSON, in hex: what a gateway pins a tool by."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def sha16(value: Any) -> str:
    """The first 16 hex digits of the sha256 of the value's canonical JSON in UTF-8."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()[:16]
