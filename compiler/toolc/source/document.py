"""A loaded config file: its text, its JSON-compatible value and where every node came from."""

from __future__ import annotations

from typing import Any

import msgspec

from toolc.diagnostics import Diagnostic, Span

JsonPath = tuple[str | int, ...]
# 0-based (line, column, end_line, end_column), as the YAML parser's marks give them.
RawSpan = tuple[int, int, int, int]

BITS = 24  # per coordinate: 16 million lines or columns, more than a 32 MiB file can hold
_MASK = (1 << BITS) - 1


def pack(line: int, column: int, end_line: int, end_column: int) -> int:
    """A span as one int (0-based coordinates): a tuple per node cost tens of MB at 5,000 tools."""
    return (((line << BITS | column) << BITS | end_line) << BITS) | end_column


def unpack(packed: int) -> RawSpan:
    return (
        packed >> 3 * BITS,
        packed >> 2 * BITS & _MASK,
        packed >> BITS & _MASK,
        packed & _MASK,
    )


# A node of the span tree: [value span, key span (0: none), children]; children are a dict by
# key for a mapping, a list for a sequence, None for a scalar. The tree mirrors the data, so a
# path is looked up by walking it, and no path tuple is stored per node.
SpanNode = list[Any]


def new_node(value: int = 0, key: int = 0, children: Any = None) -> SpanNode:
    return [value, key, children]


class SourceMap(msgspec.Struct):
    """Spans by JSON path. A path with no span of its own (inside an alias) falls back to the
    nearest ancestor that has one, so every path maps somewhere in the file."""

    path: str
    root: SpanNode | None = None
    text: str = ""  # the text the spans point into, for spans inside a scalar (scalar_offsets)

    def _walk(self, path: JsonPath) -> tuple[SpanNode | None, bool]:
        node = self.root
        if node is None:
            return None, False
        for part in path:
            children = node[2]
            found = (isinstance(children, dict) and isinstance(part, str) and part in children) or (
                isinstance(children, list) and isinstance(part, int) and 0 <= part < len(children)
            )
            if not found:
                return node, False
            node = children[part]
        return node, True

    def span_of(self, packed: int) -> Span:
        line, col, eline, ecol = unpack(packed)
        return Span(self.path, line + 1, col + 1, eline + 1, ecol + 1)

    def value_span(self, path: JsonPath) -> Span:
        node, _ = self._walk(path)
        return self.span_of(node[0]) if node is not None else Span.whole_file(self.path)

    def key_span(self, path: JsonPath) -> Span:
        """The span of the key that introduces ``path`` (or of the value, for list items)."""
        node, _ = self._walk(path)
        if node is None:
            return Span.whole_file(self.path)
        return self.span_of(node[1] or node[0])


class LoadedFile(msgspec.Struct):
    path: str  # as shown in diagnostics
    text: str | None
    data: object
    spans: SourceMap
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.is_error for d in self.diagnostics)
