"""How wide a line of generated code is, as black measures it: characters East Asian Wide or
Fullwidth count two columns (black's `str_width`), every other character one. Every layout
decision of the emitters compares this width, not `len`, with the line length."""

from __future__ import annotations

import bisect
import functools

from toolc.emit.pywidth_table import WIDE

_STARTS = [start for start, _ in WIDE]


@functools.cache
def _char_width(char: str) -> int:
    code = ord(char)
    at = bisect.bisect_right(_STARTS, code) - 1
    return 2 if at >= 0 and code <= WIDE[at][1] else 1


def width(text: str) -> int:
    if text.isascii():
        return len(text)
    return sum(_char_width(c) for c in text)
