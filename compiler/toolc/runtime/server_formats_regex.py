"""Whether `new RegExp(s)` succeeds in the client's JavaScript engine: a check of
ECMAScript pattern syntax without flags (Annex B, the web-compatible grammar), which
ajv-formats' `regex` format asks. It follows V8's parser (Node 20, V8 11.3) decision
by decision, on UTF-16 code units as V8 reads them, and builds nothing: it only says
whether V8 would throw. It can differ only on a group name holding a letter newer
than Python's Unicode database (server_formats_names). Standard library only."""

from __future__ import annotations

from .server_formats_names import END as _END
from .server_formats_names import read_group_name

_INFINITY = 2**31 - 1  # V8 clamps {n,m} bounds to kInfinity
_MAX_CAPTURES = 2**15 - 1  # V8 11.3 refuses a 32768th capture group


def _units(chars: str) -> frozenset[int]:
    return frozenset(map(ord, chars))


_CONTROL = {ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_CLASS_ESCAPES = _units("dDsSwW")
_QUANTIFIERS, _ASSERTIONS, _LOOKS = _units("*+?"), _units("|^$"), _units("=!")
# A backreference, an octal or an identity escape (\8, \9; \p without the `u` flag):
# an atom, whichever V8 reads. (Its look ahead for groups cannot change a verdict.)
_IDENTITY = _units("123456789pP")
_BACKSLASH, _LT, _LBRACE, _RBRACE = 0x5C, 0x3C, 0x7B, 0x7D


def ecma_pattern_ok(pattern: str) -> bool:
    """True when an ECMAScript engine (V8) accepts `pattern` as a RegExp source."""
    data = pattern.encode("utf-16-le", "surrogatepass")
    units = [data[k] | data[k + 1] << 8 for k in range(0, len(data), 2)]
    return _Parser(units).pattern()


class _Parser:
    def __init__(self, units: list[int]) -> None:
        self.u, self.i = units, 0
        self.started = 0  # capture groups opened so far
        self.scanned = self.named = False  # V8: is_scanned_for_captures_, has_named_
        self.names: set[tuple[int, ...]] = set()
        self.refs: list[tuple[int, ...]] = []

    def at(self, k: int = 0) -> int:
        j = self.i + k
        return self.u[j] if j < len(self.u) else _END

    def pattern(self) -> bool:
        groups: list[tuple[int, ...] | bool | None] = []  # name, True: lookbehind
        while True:
            c, lookbehind = self.at(), False
            if c == _END:
                return not groups and all(ref in self.names for ref in self.refs)
            if c == 0x29:  # ')'
                if not groups:
                    return False
                self.i += 1
                group = groups.pop()
                if isinstance(group, tuple):
                    if group in self.names:
                        return False  # duplicate group name
                    self.names.add(group)
                lookbehind = group is True
            elif c in _ASSERTIONS:
                self.i += 1
                continue
            elif c in _QUANTIFIERS:
                return False  # nothing to repeat
            elif c == 0x28:  # '('
                group = self.open_group()
                if group is False:
                    return False
                groups.append(group)
                continue
            elif c == 0x5B:  # '['
                if not self.char_class():
                    return False
            elif c == _BACKSLASH:
                atom = self.atom_escape()
                if atom is None:
                    return False
                if not atom:
                    continue  # \b, \B: an assertion takes no quantifier
            elif c == _LBRACE and self.interval() is not None:
                return False  # {n} with nothing to repeat
            else:
                self.i += 1  # a literal, including a lone `{`, `}` or `]`
            if not self.quantifier(lookbehind):
                return False

    def quantifier(self, lookbehind: bool) -> bool:
        c = self.at()
        if c in _QUANTIFIERS:
            self.i += 1
        elif c == _LBRACE:
            bounds = self.interval()
            if bounds is None:
                return True  # a literal `{` follows
            if bounds[1] < bounds[0]:
                return False
        else:
            return True
        if self.at() == 0x3F:  # lazy
            self.i += 1
        return not lookbehind  # lookbehinds are not quantifiable

    def interval(self) -> tuple[int, int] | None:
        """{n}, {n,} or {n,m} at the cursor (consumed), else None (nothing consumed)."""
        start, self.i = self.i, self.i + 1
        low = self.digits()
        high: int | None = low
        if low is not None and self.at() == 0x2C:  # ','
            self.i += 1
            high = _INFINITY if self.at() == _RBRACE else self.digits()
        if low is None or high is None or self.at() != _RBRACE:
            self.i = start
            return None
        self.i += 1
        return low, high

    def digits(self) -> int | None:
        value: int | None = None
        while 0x30 <= self.at() <= 0x39:
            value = min(_INFINITY, (value or 0) * 10 + self.at() - 0x30)
            self.i += 1
        return value

    def open_group(self) -> tuple[int, ...] | bool | None:
        """Enters `(`: a group's name, True for a lookbehind, None otherwise; False
        when the group is invalid."""
        self.i, named = self.i + 1, False
        if self.at() == 0x3F:  # '?'
            kind = self.at(1)
            if kind == 0x3A or kind in _LOOKS:
                self.i += 2
                return None
            if kind != _LT:
                return False  # (?i: and any other (? group
            if self.at(2) in _LOOKS:
                self.i += 3
                return True
            named, self.named, self.i = True, True, self.i + 2
        if self.started >= _MAX_CAPTURES:
            return False
        self.started += 1
        return (self.group_name() or False) if named else None

    def group_name(self) -> tuple[int, ...] | None:
        name, self.i = read_group_name(self.u, self.i)
        return name

    def hex(self, digits: int) -> int | None:
        """Exactly `digits` hex digits (consumed), else None (nothing consumed)."""
        text = "".join(map(chr, self.u[self.i : self.i + digits]))
        if len(text) < digits or not all(c in _HEX_DIGITS for c in text):
            return None
        self.i += digits
        return int(text, 16)

    def atom_escape(self) -> bool | None:
        """At `\\` outside a class: True for an atom, False for \\b or \\B, None when
        invalid."""
        c = self.at(1)
        if c == _END:
            return None
        if c in (0x62, 0x42):
            self.i += 2
            return False
        if c == 0x6B and self.has_named(in_class=False):  # \k<name>
            self.i += 2
            if self.at() != _LT:
                return None
            self.i += 1
            name = self.group_name()
            if name is None:
                return None
            self.refs.append(name)
            return True
        if c in _CLASS_ESCAPES or c in _IDENTITY:
            self.i += 2
            return True
        return self.char_escape(in_class=False) is not None

    def char_escape(self, in_class: bool) -> int | None:
        """At `\\`: the code unit a character escape stands for (consumed), None when
        invalid."""
        self.i += 1
        c, after = self.at(), self.at(1)
        if c in _CONTROL:
            self.i += 1
            return _CONTROL[c]
        if c == 0x63:  # \c
            if (0x41 <= after & ~0x20 <= 0x5A and after > 0) or (
                in_class and (0x30 <= after <= 0x39 or after == 0x5F)
            ):
                self.i += 2
                return after & 0x1F
            return _BACKSLASH  # a literal `\`; the `c` is read next
        if c == 0x30 and not 0x30 <= after <= 0x39:
            self.i += 1
            return 0
        if 0x30 <= c <= 0x37:
            return self.octal()
        if c in (0x78, 0x75):
            self.i += 1
            value = self.hex(2 if c == 0x78 else 4)
            return c if value is None else value
        self.i += 1
        if c == 0x6B and self.has_named(in_class):
            return None  # \k is no identity escape once the pattern has named groups
        return c

    def octal(self) -> int:
        value = self.at() - 0x30
        self.i += 1
        for _ in range(2):
            if not (0x30 <= self.at() <= 0x37) or (_ and value >= 32):
                break
            value = value * 8 + self.at() - 0x30
            self.i += 1
        return value

    def char_class(self) -> bool:
        """At `[`: whether the class is valid (consumed)."""
        self.i += 1
        if self.at() == 0x5E:  # '^'
            self.i += 1
        while self.at() not in (_END, 0x5D):
            first = self.class_atom()
            if first is None:
                return False
            if self.at() != 0x2D:  # '-'
                continue
            self.i += 1
            if self.at() in (_END, 0x5D):
                break
            second = self.class_atom()
            if second is None:
                return False
            if first >= 0 and second >= 0 and first > second:
                return False  # range out of order
        if self.at() == _END:
            return False
        self.i += 1
        return True

    def class_atom(self) -> int | None:
        """A class member: its code unit, -1 for \\d and kin, None when invalid."""
        c, after = self.at(), self.at(1)
        if c != _BACKSLASH:
            self.i += 1
            return c
        if after == _END:
            return None
        if after == 0x62:  # \b is backspace in a class
            self.i += 2
            return 8
        if after in _CLASS_ESCAPES:
            self.i += 2
            return -1
        return self.char_escape(in_class=True)

    def has_named(self, in_class: bool) -> bool:
        if not (self.named or self.scanned):
            self.scan(in_class)
        return self.named

    def scan(self, in_class: bool) -> None:
        """V8's ScanForCaptures: whether a named group follows the cursor, skipping
        escapes and classes (first the rest of the class the cursor is in)."""
        start, self.scanned = self.i, True
        skipping = in_class
        while self.at() != _END:
            c = self.at()
            self.i += 2 if c == _BACKSLASH else 1
            if skipping:
                skipping = c != 0x5D
            elif c == 0x5B:
                skipping = True
            elif c == 0x28 and self.at() == 0x3F and self.at(1) == _LT:
                self.named = self.named or self.at(2) not in _LOOKS
        self.i = start
