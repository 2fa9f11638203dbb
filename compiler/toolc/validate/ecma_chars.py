"""Characters of an ECMA-262 `u`-mode pattern: the CharacterEscape grammar (what `\\n`, `\\x41`,
`\\u{1F600}`, `\\cJ`, `\\0`, `\\/` stand for), the sets of `\\d \\w \\s` and their negations,
and how a code point or a set is written for Rust's regex crate."""

from __future__ import annotations

import msgspec

SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|")
LINE_TERMINATORS = "\n\r\u2028\u2029"

# Rust's meta characters: escaping them is always allowed, and escaping only them keeps `\<`
# and `\>` (word boundaries in Rust) out of the output. Inside a class `&&`, `--` and `~~` are
# set operations and `[` opens a nested class, so `&`, `-`, `~` and `#` are escaped there too.
_RUST_META = frozenset("\\.+*?()|[]{}^$")
_RUST_CLASS_META = _RUST_META | frozenset("#&-~")

NOTHING = r"[^\x{0}-\x{10FFFF}]"  # an empty class: ECMA's `[]`
ANYTHING = r"[\x{0}-\x{10FFFF}]"  # ECMA's `[^]`; not `(?s:.)`, whose `.` others may rewrite
DOT = r"[^\n\r\x{2028}\x{2029}]"  # ECMA's `.`: any code point but a line terminator

# The sets of `\d`, `\w` and `\s` as code point ranges. ECMA's \w (without the i flag) and \d
# are ASCII in every mode; \s is WhiteSpace and LineTerminator: TAB LF VT FF CR, SP, NBSP,
# U+1680, U+2000-200A, LS PS, U+202F, U+205F, U+3000 (the Space_Separator category, stable since
# Unicode 6.3) and ZWNBSP.
_SETS: dict[str, tuple[tuple[int, int], ...]] = {
    "d": ((0x30, 0x39),),
    "w": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
    "s": (
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ),
}


def _complement(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out, low = [], 0
    for start, end in ranges:
        if start > low:
            out.append((low, start - 1))
        low = end + 1
    return (*out, (low, 0x10FFFF))


def _items(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(
        rust_char(a, True) if a == b else f"{rust_char(a, True)}-{rust_char(b, True)}"
        for a, b in ranges
    )


# The members of each class escape written flat, to go inside a Rust class as they are: nested
# classes would be shorter, but the config's value checker (jsonschema-rs) rewrites them.
def class_items(letter: str) -> str:
    ranges = _SETS[letter.lower()]
    return _items(ranges if letter.islower() else _complement(ranges))


def class_escape_set(letter: str) -> str:
    r"""`\d` and the like outside a class."""
    return (
        f"[{_items(_SETS[letter.lower()])}]"
        if letter.islower()
        else f"[^{_items(_SETS[letter.lower()])}]"
    )


CLASS_ESCAPES = frozenset("dDwWsS")
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX = frozenset("0123456789abcdefABCDEF")


class Problem(msgspec.Struct, frozen=True):
    """A refused construct: where it is (offset and length in the pattern), why, and the fix."""

    offset: int
    length: int
    message: str
    hint: str


class Invalid(Exception):
    """The pattern is a SyntaxError for `new RegExp(p, "u")`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def invalid(offset: int, length: int, message: str, hint: str) -> Invalid:
    return Invalid(Problem(offset, max(length, 1), message, hint))


def is_surrogate(cp: int) -> bool:
    return 0xD800 <= cp <= 0xDFFF


def rust_char(cp: int, in_class: bool = False) -> str:
    """A code point as a Rust regex literal."""
    c = chr(cp)
    if c in (_RUST_CLASS_META if in_class else _RUST_META):
        return "\\" + c
    if c.isprintable() and cp > 0x20:  # the rest as \x{...}, so a pattern reads unambiguously
        return c
    return f"\\x{{{cp:x}}}"


def _hex(p: str, start: int, count: int) -> int | None:
    digits = p[start : start + count]
    if len(digits) == count and all(d in _HEX for d in digits):
        return int(digits, 16)
    return None


def unicode_escape(p: str, i: int) -> tuple[int, int]:
    """`\\uXXXX`, `\\uLEAD\\uTRAIL` (one code point) or `\\u{X...}` at p[i] == '\\\\'; the code
    point and the index after it."""
    if p[i + 2 : i + 3] == "{":
        end = p.find("}", i + 3)
        digits = p[i + 3 : end] if end != -1 else ""
        if digits and all(d in _HEX for d in digits) and int(digits, 16) <= 0x10FFFF:
            return int(digits, 16), end + 1
        raise invalid(
            i,
            (end + 1 - i) if end != -1 else 2,
            "\\u{...} must hold 1 or more hex digits, at most 10FFFF",
            "write \\u{1F600} or \\u00E9",
        )
    cp = _hex(p, i + 2, 4)
    if cp is None:
        raise invalid(i, 2, "\\u must be followed by 4 hex digits or {...}", "write \\u00E9")
    if 0xD800 <= cp <= 0xDBFF and p[i + 6 : i + 8] == "\\u":
        trail = _hex(p, i + 8, 4)
        if trail is not None and 0xDC00 <= trail <= 0xDFFF:
            return 0x10000 + ((cp - 0xD800) << 10) + (trail - 0xDC00), i + 12
    return cp, i + 6


def character_escape(p: str, i: int, in_class: bool) -> tuple[int, int]:
    """The CharacterEscape at p[i] == '\\\\' (with `\\-` and `\\b` inside a class): its code
    point and the index after it."""
    c = p[i + 1 : i + 2]
    if c in _CONTROL_ESCAPES:
        return _CONTROL_ESCAPES[c], i + 2
    if c == "c":
        letter = p[i + 2 : i + 3]
        if letter.isascii() and letter.isalpha():
            return ord(letter) % 32, i + 3
        raise invalid(i, 2, "\\c must be followed by an ASCII letter", "write \\cJ, or \\\\c")
    if c == "0":
        if p[i + 2 : i + 3].isdigit() and p[i + 2].isascii():
            raise invalid(
                i, 3, "\\0 followed by a digit (an octal escape) is not allowed", "write \\xHH"
            )
        return 0, i + 2
    if c == "x":
        cp = _hex(p, i + 2, 2)
        if cp is None:
            raise invalid(i, 2, "\\x must be followed by 2 hex digits", "write \\x41")
        return cp, i + 4
    if c == "u":
        return unicode_escape(p, i)
    if c in SYNTAX_CHARACTERS or c == "/" or (in_class and c == "-"):
        return ord(c), i + 2
    if in_class and c == "b":
        return 0x08, i + 2
    if c == "":
        raise invalid(i, 1, "the pattern ends in a lone backslash", "escape it as \\\\")
    raise invalid(i, 2, *_identity_escape_error(c, in_class))


def _identity_escape_error(c: str, in_class: bool) -> tuple[str, str]:
    message = f"'\\{c}' is not an escape under the u flag"
    if c in "AZzG":
        return message, "anchor with ^ and $"
    if c == "-":
        return message + " outside a class", "write - without the backslash"
    if c.isascii() and c.isalnum():
        return message, f"write {c} without the backslash"
    return message, f"write {c} without the backslash (only ^$\\.*+?()[]{{}}|/ are escaped)"
