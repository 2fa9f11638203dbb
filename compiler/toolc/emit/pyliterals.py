"""Python source for values, written the way black writes them, so generated code is
black-stable without running black (black's rules: black/strings.py, black/linegen.py)."""

from __future__ import annotations

import re
from typing import Any

from toolc.emit.pyexpr import Expr, literal

# What a literal must escape: the backslash and the control characters (DEL included).
_NEEDS_ESCAPE = re.compile(r"[\x00-\x1f\\\x7f]")
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    ch = match.group()
    return _ESCAPES.get(ch) or f"\\x{ord(ch):02x}"


def _escape(text: str) -> str:
    # One regex scan: most strings (names, descriptions) need no escape at all, and a
    # per-character loop was a tenth of a cold build (measured at 1,000 tools).
    return _NEEDS_ESCAPE.sub(_escaped, text)


def py_str(text: str) -> str:
    """A string literal: double quotes, unless single quotes need fewer escapes (black's
    normalize_string_quotes keeps whichever needs fewer, preferring double on a tie)."""
    body = _escape(text)
    doubles, singles = body.count('"'), body.count("'")
    if doubles > singles:
        return "'" + body.replace("'", "\\'") + "'"
    return '"' + body.replace('"', '\\"') + '"'


def py_value(value: Any) -> str:
    """A JSON value as a Python expression (True/False/None, dicts, lists)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value).replace("e+", "e")  # black writes 1e16, not 1e+16
    if isinstance(value, str):
        return py_str(value)
    if isinstance(value, list):
        return "[" + ", ".join(py_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_str(k)}: {py_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def py_expr(value: Any) -> Expr | str:
    """A JSON value as an expression laid out as black lays out literals: a list or dict
    that does not fit its line is one element per line."""
    if isinstance(value, list):
        return literal("[", [py_expr(v) for v in value])
    if isinstance(value, dict):
        return literal("{", [], [(py_str(k), py_expr(v)) for k, v in value.items()])
    return py_value(value)


# What _printable changes: the tab (expanded) and every control character but the line break.
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")


def _printable(text: str) -> str:
    """`text` with every control character but the line break a space (NUL cannot be in
    Python source at all, and a carriage return would end a comment's line)."""
    if not _CONTROL.search(text):  # the common case, without a per-character pass
        return text
    return "".join(ch if ch == "\n" or ord(ch) >= 0x20 else " " for ch in text.expandtabs(4))


def comment_lines(text: str) -> list[str]:
    """`text` as comment lines (`# ...`), none when nothing printable is left."""
    return [f"# {line}".rstrip() for line in _printable(text).strip().splitlines()]


def docstring(text: str, indent: str) -> str:
    """A docstring exactly as black leaves it."""
    clean = _printable(text)
    clean = clean.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = [line.rstrip() for line in clean.strip().splitlines()] or [""]
    first = lines[0].strip()
    if first.startswith('"'):
        first = " " + first
    if len(lines) == 1:
        return f'{indent}"""{first}{" " if first.endswith(chr(34)) else ""}"""'
    rest = lines[1:]
    margin = min((len(line) - len(line.lstrip()) for line in rest if line.strip()), default=0)
    body = [f"{indent}{line[margin:]}" if line.strip() else "" for line in rest]
    return f'{indent}"""{first}\n' + "\n".join(body) + f'\n{indent}"""'


def docblock(text: str | None, indent: str) -> str:
    """The docstring, or "" when no text would be left in it (an empty docstring is ruff's
    D419)."""
    if text is None:
        return ""
    written = docstring(text, indent)
    return "" if written.strip() == '""""""' else written
