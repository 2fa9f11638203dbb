"""YAML events → JSON-compatible values, with spans, limits and duplicate-key detection.

Built on the parser's event stream rather than PyYAML's composer, because the composer recurses
(a deeply nested file overflows it), expands aliases without bound, keeps the last of two equal
keys and types scalars by YAML 1.1. Here the nesting is an explicit stack, aliases are weighed
before anything is expanded, and plain scalars are typed by YAML 1.2's core schema.
"""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass, field
from typing import Any

import yaml

from toolc.diagnostics import Diagnostic, Note, Span, diag
from toolc.source.document import JsonPath, RawSpan, SourceMap
from toolc.source.scalars import resolve_plain, resolve_tagged

try:  # libyaml's parser is ~10x faster; the pure-Python one is the fallback.
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]

MAX_DEPTH = 64
MAX_ALIAS_NODES = 100_000

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
_MAP_TAGS = frozenset({None, "!", _CORE + "map"})
_SEQ_TAGS = frozenset({None, "!", _CORE + "seq"})


class _Abort(Exception):
    """A problem after which the rest of the file cannot be read meaningfully."""


_BAD_KEY = object()  # the pending key of a mapping entry whose value is to be dropped
_COMPLEX_KEY = object()  # a collection used as a key is being read; it is dropped, then its value


@dataclass(slots=True)
class _Frame:
    container: dict[str, Any] | list[Any]
    path: JsonPath
    start: Any  # the start mark
    anchor: str | None
    weight: int = 1
    key: object = None  # mappings: the pending key, None when a key is expected
    key_spans: dict[str, RawSpan] = field(default_factory=dict)


def _raw(start: Any, end: Any) -> RawSpan:
    return (start.line, start.column, end.line, end.column)


class _Builder:
    def __init__(self, path: str) -> None:
        self.path = path
        self.spans = SourceMap(path)
        self.diagnostics: list[Diagnostic] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Frame] = []
        self.alias_nodes = 0
        self.root: Any = None
        self.done = False

    def span(self, start: Any, end: Any) -> Span:
        return Span(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def error(self, code: str, start: Any, end: Any, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(diag(code, self.span(start, end), message, hint))

    # -- placing a finished node ------------------------------------------------------------
    def child_path(self) -> JsonPath | None:
        """The path of the node about to be read, or None when it is a key or is dropped."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.container, list):
            return (*top.path, len(top.container))
        key = top.key
        return (*top.path, key) if isinstance(key, str) else None

    def add(self, value: Any, weight: int, raw: RawSpan | None) -> None:
        if not self.stack:
            self.root = value
            if raw is not None:
                self.spans.values[()] = raw
            return
        top = self.stack[-1]
        top.weight += weight
        if isinstance(top.container, list):
            if raw is not None:
                self.spans.values[(*top.path, len(top.container))] = raw
            top.container.append(value)
            return
        key = top.key
        top.key = None
        if key is _COMPLEX_KEY:
            top.key = _BAD_KEY
            return
        if key is _BAD_KEY:
            return
        assert isinstance(key, str)
        if raw is not None:
            self.spans.values[(*top.path, key)] = raw
        top.container[key] = value

    def take_key(self, event: Any) -> None:
        top = self.stack[-1]
        if not isinstance(event, yaml.ScalarEvent):
            kind = "an alias" if isinstance(event, yaml.AliasEvent) else "a collection"
            self.error(
                "yaml-complex-key",
                event.start_mark,
                event.end_mark,
                f"mapping key is {kind}; keys must be plain names",
            )
            top.key = _BAD_KEY
            return
        key = event.value
        raw = _raw(event.start_mark, event.end_mark)
        if key == "<<" and event.style in ("", None) and event.tag is None:
            self.error(
                "yaml-merge-key",
                event.start_mark,
                event.end_mark,
                "merge keys (`<<`) are YAML 1.1 and not supported",
                "repeat the keys, or share the schema through `types:` and `$ref`",
            )
            top.key = _BAD_KEY
            return
        first = top.key_spans.get(key)
        if first is not None:
            line, col, eline, ecol = first
            note = Note(
                Span(self.path, line + 1, col + 1, eline + 1, ecol + 1),
                f"'{key}' first defined here",
            )
            self.diagnostics.append(
                diag(
                    "yaml-duplicate-key",
                    self.span(event.start_mark, event.end_mark),
                    f"duplicate key '{key}'",
                    "remove one of the two entries, or rename it",
                    (note,),
                )
            )
            top.key = _BAD_KEY
            return
        top.key_spans[key] = raw
        self.spans.keys[(*top.path, key)] = raw
        top.key = key

    # -- events ---------------------------------------------------------------------------------
    def scalar(self, event: Any) -> None:
        tag, text = event.tag, event.value
        value: Any
        if tag is None:
            value = resolve_plain(text) if event.style in ("", None) else text
        elif tag == "!":
            value = text
        elif tag in _SCALAR_TAGS:
            try:
                value = resolve_tagged(tag, text)
            except ValueError as exc:
                self.error(
                    "yaml-tag-mismatch",
                    event.start_mark,
                    event.end_mark,
                    str(exc),
                    "write the value as YAML 1.2 writes that type, or drop the tag",
                )
                value = None
        else:
            self.unsupported_tag(event)
            value = None
        if isinstance(value, float) and not math.isfinite(value):
            self.error(
                "non-json-value",
                event.start_mark,
                event.end_mark,
                f"{text!r} is not a finite number and has no JSON equivalent",
                "use a finite number, or quote the value to make it a string",
            )
            value = None
        self.register(event.anchor, value, 1)
        self.add(value, 1, _raw(event.start_mark, event.end_mark))

    def unsupported_tag(self, event: Any) -> None:
        tag = str(event.tag).replace(_CORE, "!!", 1)
        self.error(
            "yaml-unsupported-tag",
            event.start_mark,
            event.end_mark,
            f"unsupported YAML tag '{tag}'",
            "toolc reads YAML safely (JSON-compatible core tags only); remove the tag",
        )

    def register(self, anchor: str | None, value: Any, weight: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = (value, weight)

    def alias(self, event: Any) -> None:
        target = self.anchors.get(event.anchor)
        if target is None:
            self.error(
                "yaml-syntax",
                event.start_mark,
                event.end_mark,
                f"alias '*{event.anchor}' refers to no anchor defined before it",
                f"define '&{event.anchor}' on an earlier node",
            )
            raise _Abort
        value, weight = target
        self.alias_nodes += weight
        if self.alias_nodes > MAX_ALIAS_NODES:
            self.error(
                "yaml-alias-limit",
                event.start_mark,
                event.end_mark,
                f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes",
                "write the repeated parts out or share them with `types:` and `$ref`",
            )
            raise _Abort
        self.add(value, weight, _raw(event.start_mark, event.end_mark))

    def start(
        self, event: Any, container: dict[str, Any] | list[Any], tags: frozenset[Any]
    ) -> None:
        if event.tag not in tags:
            self.unsupported_tag(event)
        if len(self.stack) >= MAX_DEPTH:
            self.error(
                "yaml-depth-limit",
                event.start_mark,
                event.end_mark,
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure or share parts through `types:` and `$ref`",
            )
            raise _Abort
        path = self.child_path()
        self.stack.append(
            _Frame(
                container,
                path if path is not None else ("<dropped>",),
                event.start_mark,
                event.anchor,
            )
        )

    def end(self, event: Any) -> None:
        frame = self.stack.pop()
        self.register(frame.anchor, frame.container, frame.weight)
        self.add(frame.container, frame.weight, _raw(frame.start, event.end_mark))

    def feed(self, event: Any) -> None:
        if (
            self.stack
            and isinstance(self.stack[-1].container, dict)
            and self.stack[-1].key is None
            and not isinstance(event, yaml.MappingEndEvent)
        ):
            if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                self.take_key(event)  # reports, then the collection is read and dropped
                self.stack[-1].key = _COMPLEX_KEY
                self.start(
                    event,
                    {} if isinstance(event, yaml.MappingStartEvent) else [],
                    _MAP_TAGS | _SEQ_TAGS,
                )
                return
            self.take_key(event)
            return
        if isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        elif isinstance(event, yaml.MappingStartEvent):
            self.start(event, {}, _MAP_TAGS)
        elif isinstance(event, yaml.SequenceStartEvent):
            self.start(event, [], _SEQ_TAGS)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.end(event)
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)


# The parser says what it expected; these say what usually went wrong.
_SYNTAX_HINTS = (
    (
        "did not find expected key",
        "check the indentation: keys of one mapping start in the same column",
    ),
    ("mapping values are not allowed", "quote a value that contains ': ', or fix the indentation"),
    ("end of stream", "close the quote or bracket that is still open"),
    ("could not find expected ':'", "a key needs ': ' after it"),
    ("did not find expected ',' or ']'", "close the list with ']' or separate items with ','"),
    ("did not find expected ',' or '}'", "close the mapping with '}' or separate entries with ','"),
    ("did not find expected '-' indicator", "list items start with '- ' in the same column"),
)


def _printable(character: object) -> str:
    ch = chr(character) if isinstance(character, int) else str(character)
    return ascii(ch)


def _syntax_error(builder: _Builder, exc: yaml.YAMLError, text: str) -> None:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        problem = exc.problem or "invalid YAML"
        line_text = text.splitlines()[mark.line] if mark.line < len(text.splitlines()) else ""
        at_tab = mark.column < len(line_text) and line_text[mark.column] == "\t"
        if at_tab or "'\\t'" in problem:
            builder.error(
                "yaml-tab-indent",
                mark,
                mark,
                "tab character used for indentation",
                "YAML indents with spaces; replace the tab with spaces",
            )
            return
        context = f" {exc.context}" if exc.context else ""
        hint = next((h for phrase, h in _SYNTAX_HINTS if phrase in problem), None)
        builder.error("yaml-syntax", mark, mark, f"{problem}{context}".strip(), hint)
        return
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line = before.count("\n")
        col = exc.position - (before.rfind("\n") + 1)
        builder.diagnostics.append(
            diag(
                "yaml-syntax",
                Span.point(builder.path, line + 1, col + 1),
                f"character {_printable(exc.character)} is not allowed in YAML ({exc.reason})",
            )
        )
        return
    builder.diagnostics.append(diag("yaml-syntax", Span.whole_file(builder.path), str(exc)))


def load_yaml(text: str, path: str) -> tuple[Any, SourceMap, list[Diagnostic]]:
    """Parse one YAML document. Returns (value, spans, diagnostics); value is None on failure."""
    builder = _Builder(path)
    parser = _Parser(text)
    # Loading allocates many small containers that all stay alive: the cyclic collector would
    # rescan them again and again (measured: superlinear time on large configs) for nothing.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.DocumentStartEvent) and builder.done:
                builder.error(
                    "yaml-multiple-documents",
                    event.start_mark,
                    event.end_mark,
                    "a second YAML document; each config file holds exactly one",
                    "remove the `---` separator and merge the documents",
                )
                break
            if isinstance(event, yaml.DocumentEndEvent):
                builder.done = True
                continue
            builder.feed(event)
    except yaml.YAMLError as exc:
        _syntax_error(builder, exc, text)
    except _Abort:
        pass
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()
        if gc_was_enabled:
            gc.enable()
    failed = any(d.is_error for d in builder.diagnostics)
    return (None if failed else builder.root), builder.spans, builder.diagnostics
