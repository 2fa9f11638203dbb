"""The emitters measure lines as black does: the same width for every character."""

from __future__ import annotations

from black.strings import char_width, str_width
from toolc.emit.pywidth import width


def test_every_character_is_as_wide_as_black_counts_it() -> None:
    differing = [
        hex(code)
        for code in range(0x110000)
        if not 0xD800 <= code <= 0xDFFF and width(chr(code)) != char_width(chr(code))
    ]
    assert not differing


def test_lines_are_as_wide_as_black_counts_them() -> None:
    for text in ["abc", "não é", "中文 mixed", "🙂 x", "\u0301e", ""]:
        assert width(text) == str_width(text)
