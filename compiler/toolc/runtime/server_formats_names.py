"""The name of a regex group, `(?<name>` or `\\k<name>`, read as V8 reads it (for
server_formats_regex): an ECMAScript RegExpIdentifierName, in code points (a surrogate
pair is one) with `\\u` escapes, even in a pattern without the `u` flag.

Python's `str.isidentifier` tests XID_Start/XID_Continue of its own Unicode database;
V8 tests ID_Start/ID_Continue of ICU's. The sets below close the difference of
definition; letters newer than Python's database stay refused (docs/decisions/0023)."""

from __future__ import annotations

from collections.abc import Sequence

END = -1
_HEX = {ord(c): int(c, 16) for c in "0123456789abcdefABCDEF"}
_ASCII_START = frozenset(
    map(ord, "$_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
)
_ASCII_PART = _ASCII_START | frozenset(map(ord, "0123456789"))
# In ID_* but not XID_*: NFKC exceptions; then ZWNJ, ZWJ and the two middle dots that
# Unicode 15.1 made ID_Continue.
_NFKC = frozenset([0x37A, 0x309B, 0x309C, 0xFDFA, 0xFDFB, *range(0xFC5E, 0xFC64)])
_NOT_XID = _NFKC | frozenset(range(0xFE70, 0xFE7F, 2))
_ID_START_EXTRA = _NOT_XID | frozenset([0xE33, 0xEB3, 0xFF9E, 0xFF9F])
_ID_PART_EXTRA = _NOT_XID | frozenset([0x200C, 0x200D, 0x30FB, 0xFF65])
_BACKSLASH, _U, _GT, _LBRACE, _RBRACE = 0x5C, 0x75, 0x3E, 0x7B, 0x7D


def _id_start(c: int) -> bool:
    if c < 128:
        return c in _ASCII_START
    return c in _ID_START_EXTRA or chr(c).isidentifier()


def _id_part(c: int) -> bool:
    if c < 128:
        return c in _ASCII_PART
    return c in _ID_PART_EXTRA or ("a" + chr(c)).isidentifier()


def read_group_name(u: Sequence[int], i: int) -> tuple[tuple[int, ...] | None, int]:
    """The name starting at `u[i]` and the index after its `>`; None when it is no
    identifier (then the index is meaningless)."""
    reader = _Reader(u, i)
    name: list[int] = []
    while True:
        c = reader.code_point()
        if c == _BACKSLASH and reader.at() == _U:
            reader.i += 1
            c = reader.unicode_escape()
        if c == _BACKSLASH:
            return None, reader.i
        if name and c == _GT:  # also an escaped `>`, as in V8
            return tuple(name), reader.i
        if not (_id_part(c) if name else _id_start(c)):
            return None, reader.i
        name.append(c)


class _Reader:
    def __init__(self, u: Sequence[int], i: int) -> None:
        self.u, self.i = u, i

    def at(self, k: int = 0) -> int:
        j = self.i + k
        return self.u[j] if j < len(self.u) else END

    def code_point(self) -> int:
        c, low = self.at(), self.at(1)
        self.i += 1
        if 0xD800 <= c <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
            self.i += 1
            return 0x10000 + (c - 0xD800 << 10) + low - 0xDC00
        return c

    def unicode_escape(self) -> int:
        """After `\\u`: \\u{hex} or \\uXXXX (two joining as a surrogate pair); END
        when malformed."""
        if self.at() == _LBRACE:
            self.i += 1
            value = self.hex(None)
            if value is None or self.at() != _RBRACE:
                return END
            self.i += 1
            return value
        lead = self.hex(4)
        if lead is None:
            return END
        if 0xD800 <= lead <= 0xDBFF and self.at() == _BACKSLASH and self.at(1) == _U:
            start, self.i = self.i, self.i + 2
            trail = self.hex(4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                return 0x10000 + (lead - 0xD800 << 10) + trail - 0xDC00
            self.i = start
        return lead

    def hex(self, digits: int | None) -> int | None:
        """That many hex digits, or one or more (None, in \\u{}) up to 0x10FFFF."""
        value, count = 0, 0
        while count != digits and self.at() in _HEX:
            value, count, self.i = value * 16 + _HEX[self.at()], count + 1, self.i + 1
        if count == 0 or count != (digits or count) or value > 0x10FFFF:
            return None
        return value
