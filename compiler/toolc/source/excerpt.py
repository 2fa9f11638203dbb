"""The source text around a span, for hints that quote the user's own line back: what was
written (`1.10`, not the number 1.1 YAML made of it) and what stands beside it (the comma that
split a flow mapping's value in two)."""

from __future__ import annotations

from toolc.diagnostics import Span
from toolc.diagnostics.textlines import yaml_lines


def _offset(lines: list[str], line: int, column: int) -> int:
    """The index in the text of a 1-based (line, column); lines keep their line breaks."""
    return sum(len(text) for text in lines[: line - 1]) + column - 1


def written(text: str, span: Span) -> str:
    """The characters a span covers."""
    lines = yaml_lines(text, keepends=True)
    if not 1 <= span.line <= len(lines):
        return ""
    start = _offset(lines, span.line, span.column)
    return text[start : _offset(lines, span.end_line, span.end_column)]


def neighbours(text: str, span: Span) -> tuple[str, str]:
    """The first character before the span and the first after it that are not white space
    ("" at either end of the file)."""
    lines = yaml_lines(text, keepends=True)
    if not 1 <= span.line <= len(lines):
        return "", ""
    before = text[: _offset(lines, span.line, span.column)].rstrip()
    after = text[_offset(lines, span.end_line, span.end_column) :].lstrip()
    return before[-1:], after[:1]


def bare_flow_key(text: str, key: Span, value: Span) -> bool:
    """Whether a mapping key stands alone after a comma, as `b` in `{description: a, b}`: YAML
    reads it as a key with a null value, where the writer meant the comma as part of a value."""
    if (value.line, value.column) != (value.end_line, value.end_column):
        return False  # the key has a value of its own
    before, after = neighbours(text, key)
    return before == "," and after in (",", "}")
