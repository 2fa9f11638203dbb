"""The JSON files of the generated package, written one way."""

from __future__ import annotations

import json
from typing import Any

import orjson


def pretty_json(value: Any) -> bytes:
    """Indented, keys sorted, UTF-8 with non-ASCII kept, one trailing newline: reviewable in a
    PR diff and byte-identical run after run. orjson writes the same bytes as the standard
    library's indented encoder about 10x faster (measured); integers beyond 64 bits, which it
    refuses, go through the standard library."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    except orjson.JSONEncodeError:
        return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
