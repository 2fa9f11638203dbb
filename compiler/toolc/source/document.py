"""A loaded config file: its text, its JSON-compatible value and where every node came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from toolc.diagnostics import Diagnostic, Span

JsonPath = tuple[str | int, ...]
# 0-based (line, column, end_line, end_column), as the YAML parser's marks give them.
RawSpan = tuple[int, int, int, int]


@dataclass(slots=True)
class SourceMap:
    """Spans by JSON path. A path with no span of its own (inside an alias) falls back to the
    nearest ancestor that has one, so every path maps somewhere in the file."""

    path: str
    values: dict[JsonPath, RawSpan] = field(default_factory=dict)
    keys: dict[JsonPath, RawSpan] = field(default_factory=dict)

    def _lookup(self, table: dict[JsonPath, RawSpan], path: JsonPath) -> Span:
        p = tuple(path)
        while True:
            raw = table.get(p) or self.values.get(p)
            if raw is not None:
                line, col, eline, ecol = raw
                return Span(self.path, line + 1, col + 1, eline + 1, ecol + 1)
            if not p:
                return Span.whole_file(self.path)
            p = p[:-1]

    def value_span(self, path: JsonPath) -> Span:
        return self._lookup(self.values, path)

    def key_span(self, path: JsonPath) -> Span:
        """The span of the key that introduces ``path`` (or of the value, for list items)."""
        return self._lookup(self.keys, path)


@dataclass(slots=True)
class LoadedFile:
    path: str  # as shown in diagnostics
    text: str | None
    data: object
    spans: SourceMap
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.is_error for d in self.diagnostics)
