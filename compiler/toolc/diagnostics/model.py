"""The Diagnostic value and its source span.

Spans are 1-based (line and column, columns counted in characters) with an exclusive end, the
convention of GCC, mypy and GitHub annotations. ``file:line:col`` text is made only when printing.
"""

from __future__ import annotations

import enum

import msgspec
from msgspec import field


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class Span(msgspec.Struct, frozen=True):
    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int, column: int) -> Span:
        return cls(path, line, column, line, column + 1)

    @classmethod
    def whole_file(cls, path: str) -> Span:
        return cls(path, 1, 1, 1, 1)

    @classmethod
    def nowhere(cls, source: str) -> Span:
        """A source that is no file (a live server's tools/list): no line or column (0)."""
        return cls(source, 0, 0, 0, 0)

    @property
    def placed(self) -> bool:
        return self.line >= 1

    @property
    def place(self) -> str:
        """`path:line:column`, or the source alone when it has no lines."""
        return f"{self.path}:{self.line}:{self.column}" if self.placed else self.path


class Note(msgspec.Struct, frozen=True):
    span: Span
    message: str


class Diagnostic(msgspec.Struct, frozen=True):
    code: str
    severity: Severity
    span: Span
    message: str
    hint: str | None = None
    notes: tuple[Note, ...] = field(default=())

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def sort_key(d: Diagnostic) -> tuple[str, int, int, str, str]:
    return (d.span.path, d.span.line, d.span.column, d.code, d.message)
