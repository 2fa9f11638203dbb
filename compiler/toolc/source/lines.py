"""Lines as YAML 1.2 counts them: only `\\n`, `\\r\\n` and `\\r` end a line. YAML 1.1 (PyYAML,
libyaml) and Python's `str.splitlines` also break at NEL (U+0085), LINE SEPARATOR (U+2028)
and PARAGRAPH SEPARATOR (U+2029) — and `splitlines` at form feeds and more — so a raw U+2028
shifted every later line number by one, and a raw NEL inside a value broke parsing. Text
holding those characters is parsed with each one replaced by a private-use placeholder (one
character for one: columns stay exact) that is put back in every key and value."""

from __future__ import annotations

from collections.abc import Callable

_NOT_BREAKS_IN_12 = "\x85\u2028\u2029"


def shield(text: str) -> tuple[str, Callable[[str], str]]:
    """`text` with NEL, LS and PS replaced by placeholders the YAML 1.1 parser reads as
    ordinary characters, and the function that puts them back in a parsed string."""
    present = [ch for ch in _NOT_BREAKS_IN_12 if ch in text]
    if not present:
        return text, unchanged
    free = (chr(c) for c in range(0xF8FF, 0xE000, -1) if chr(c) not in text)
    placeholders = {ch: next(free) for ch in present}
    back = {ord(p): ch for ch, p in placeholders.items()}
    shielded = text.translate({ord(ch): p for ch, p in placeholders.items()})

    def restore(value: str) -> str:
        return value.translate(back)

    return shielded, restore


def unchanged(value: str) -> str:
    """The restore of a text with nothing shielded (the loader tests for it: no call per value)."""
    return value
