"""Where a character of a string value is in the file: a diagnostic about `pattern` at offset 7
puts its caret under that character, not under the whole string.

The scalar's source is read again from its span and decoded by its style: plain, single-quoted
('' is one quote) and double-quoted (escapes such as \\" or \\u00e9 are one character) on one
line, and literal (`|`) and folded (`>`) block scalars on any number of lines.
The decoding must give back the value exactly; where it does not (a flow scalar folded over
lines, a folded block with more-indented lines, a tag or anchor before the value, an alias),
the whole scalar is the span."""

from __future__ import annotations

import re

from toolc.diagnostics import Span
from toolc.source.document import JsonPath, SourceMap

# PyYAML's line breaks, which its marks count (YAML 1.1's, a superset of 1.2's).
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}

Position = tuple[int, int]  # 0-based line and column


def inner_span(spans: SourceMap, path: JsonPath, value: str, start: int, end: int) -> Span:
    """The span of value[start:end] inside the string scalar at `path`."""
    whole = spans.value_span(path)
    positions = _positions(spans.text, whole, value)
    if positions is None or not value:
        return whole
    start = min(max(start, 0), len(value) - 1)
    end = min(max(end, start + 1), len(value))
    (line, col), (end_line, end_col) = positions[start], positions[end]
    return Span(whole.path, line + 1, col + 1, end_line + 1, end_col + 1)


def _positions(text: str, whole: Span, value: str) -> list[Position] | None:
    """Where each character of `value` starts, and where the last one ends."""
    lines = _LINE_BREAK.split(text)
    line, col = whole.line - 1, whole.column - 1
    if not 0 <= line < len(lines):
        return None
    first = lines[line][col : col + 1]
    if first in ("|", ">"):
        return _block(lines, whole, value)
    if whole.end_line != whole.line:
        return None
    source = lines[line][col : whole.end_column - 1]
    if first == "'":
        found = _single_quoted(source)
    elif first == '"':
        found = _double_quoted(source)
    elif first in ("!", "&", "*"):
        return None
    else:
        found = ([*range(len(source) + 1)], source)
    if found is None or found[1] != value:
        return None
    return [(line, col + offset) for offset in found[0]]


def _single_quoted(source: str) -> tuple[list[int], str] | None:
    starts, chars, i = [], [], 1
    while i < len(source) - 1:
        starts.append(i)
        chars.append(source[i])
        i += 2 if source[i : i + 2] == "''" else 1
    return [*starts, i], "".join(chars)


def _double_quoted(source: str) -> tuple[list[int], str] | None:
    starts, chars, i = [], [], 1
    while i < len(source) - 1:
        starts.append(i)
        if source[i] != "\\":
            chars.append(source[i])
            i += 1
            continue
        kind = source[i + 1 : i + 2]
        if kind in _ESCAPES:
            chars.append(_ESCAPES[kind])
            i += 2
        elif kind in _HEX_ESCAPES:
            digits = source[i + 2 : i + 2 + _HEX_ESCAPES[kind]]
            try:
                chars.append(chr(int(digits, 16)))
            except ValueError:
                return None
            i += 2 + len(digits)
        else:
            return None
    return [*starts, i], "".join(chars)


def _block(lines: list[str], whole: Span, value: str) -> list[Position] | None:
    header_line = whole.line - 1
    header = lines[header_line][whole.column - 1 :].split("#")[0].strip()
    last = min(whole.end_line - 1, len(lines) - 1)
    body = list(range(header_line + 1, last + 1))
    explicit = next((int(c) for c in header if c.isdigit()), None)
    filled = [lines[n] for n in body if lines[n].strip()]
    if not filled:
        return None
    base = len(filled[0]) - len(filled[0].lstrip(" "))
    indent = base if explicit is None else explicit + _parent_indent(lines[header_line])
    kept = value.rstrip("\n")  # chomping decides the final line breaks, not the lines
    if header.startswith(">") and len(filled) > 1:
        found = _folded(lines, body, indent)
        if found is None or not found[1].startswith(kept):
            return None
        positions = found[0]
    else:
        positions = []
        decoded = []
        for n in body:
            content = lines[n][indent:]
            positions += [(n, indent + k) for k in range(len(content) + 1)]
            decoded.append(content)
        if not "\n".join(decoded).startswith(kept):
            return None
    positions = positions[: len(kept) + 1]
    return positions + [positions[-1]] * (len(value) + 1 - len(positions))


def _folded(lines: list[str], body: list[int], indent: int) -> tuple[list[Position], str] | None:
    """A folded block's characters and where each starts: a line break between two lines
    is a space (placed at the end of the first), each empty line between them a line
    break. A more-indented line keeps its breaks: not followed here (None)."""
    positions: list[Position] = []
    chars: list[str] = []
    previous: tuple[int, int] | None = None  # the last line: its number and where it ends
    empty: list[int] = []
    for n in body:
        if not lines[n].strip():
            empty.append(n)
            continue
        content = lines[n][indent:]
        if content[:1] in (" ", "\t"):
            return None
        if previous is not None:
            breaks = [(e, 0) for e in empty] or [previous]
            positions += breaks
            chars += ["\n" if empty else " "] * len(breaks)
        empty = []
        positions += [(n, indent + k) for k in range(len(content))]
        chars += content
        previous = (n, indent + len(content))
    if previous is None:
        return None
    return [*positions, previous], "".join(chars)


def _parent_indent(header_line: str) -> int:
    return len(header_line) - len(header_line.lstrip(" "))
