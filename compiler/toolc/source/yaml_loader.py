"""YAML events → JSON-compatible values, with spans, limits and duplicate-key detection.

Built on the parser's event stream rather than PyYAML's composer, because the composer recurses
(a deeply nested file overflows it), expands aliases without bound, keeps the last of two equal
keys and types scalars by YAML 1.1. Here the nesting is an explicit stack, aliases are weighed
before anything is expanded, and plain scalars are typed by YAML 1.2's core schema.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.source.document import SourceMap, SpanNode, new_node, pack, unpack
from toolc.source.lines import shield
from toolc.source.scalars import CORE, ScalarProblem, type_scalar, unsupported_tag
from toolc.source.yaml_errors import duplicate_key, syntax_error

try:  # libyaml's parser is ~10x faster; the pure-Python one is the fallback.
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]

from toolc.source.yaml_errors import MAX_DEPTH

MAX_ALIAS_NODES = 100_000
# Values in one file. A 5,000-tool config holds about 1.5 million; the cap keeps a huge flat file
# from costing minutes and gigabytes (measured: 16 million values took 65 s and 6.7 GB).
MAX_NODES = 3_000_000

_CORE = CORE
_MAP_TAGS = frozenset({None, "!", _CORE + "map"})
_SEQ_TAGS = frozenset({None, "!", _CORE + "seq"})
_KEY_TAGS = frozenset({None, "!", _CORE + "str"})  # keys are names: text only


class _Abort(Exception):
    """A problem after which the rest of the file cannot be read meaningfully."""


_BAD_KEY = object()  # the pending key of a mapping entry whose value is to be dropped
_COMPLEX_KEY = object()  # a collection used as a key is being read; it is dropped, then its value


@dataclass(slots=True)
class _Frame:
    container: Any  # dict[str, Any] when is_map, else list[Any]
    is_map: bool
    node: SpanNode  # the collection's node in the span tree
    start: Any  # the start mark
    anchor: str | None
    weight: int = 1
    key: object = None  # mappings: the pending key, None when a key is expected
    key_span: int = 0  # mappings: the pending key's packed span


def _packed(start: Any, end: Any) -> int:
    return pack(start.line, start.column, end.line, end.column)


class _Builder:
    """Turns events into values. The hot path (one call per event) avoids isinstance chains and
    repeated attribute lookups: it is most of what loading a large config costs in Python."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.spans = SourceMap(path)
        self.diagnostics: list[Diagnostic] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Frame] = []
        self.alias_nodes = 0
        self.nodes = 0
        self.root: Any = None
        self.done = False
        self.restore: Callable[[str], str] = _unchanged
        self.handlers = {
            yaml.ScalarEvent: self.scalar,
            yaml.MappingStartEvent: self.start_mapping,
            yaml.SequenceStartEvent: self.start_sequence,
            yaml.MappingEndEvent: self.end,
            yaml.SequenceEndEvent: self.end,
            yaml.AliasEvent: self.alias,
        }

    def span(self, start: Any, end: Any) -> Span:
        return Span(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def error(self, code: str, start: Any, end: Any, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(diag(code, self.span(start, end), message, hint))

    # -- placing a node ------------------------------------------------------------------------
    def attach(self, node: SpanNode) -> bool:
        """Put a node's spans in the tree where the next value goes (with its key's span).
        False when the value is dropped (its key was refused)."""
        if not self.stack:
            self.spans.root = node
            return True
        top = self.stack[-1]
        if not top.is_map:
            top.node[2].append(node)
            return True
        key = top.key
        if type(key) is not str:
            return False
        node[1] = top.key_span
        top.node[2][key] = node
        return True

    def add(self, value: Any, weight: int, node: SpanNode | None) -> None:
        """Place a finished value; `node` is its span node, None when already attached."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            line, column, _, _ = unpack(node[0] if node is not None else 0)
            self.diagnostics.append(
                diag(
                    "yaml-size-limit",
                    Span.point(self.path, line + 1, column + 1),
                    f"the file holds more than {MAX_NODES:,} values",
                    "split the tools over several configs",
                )
            )
            raise _Abort
        if node is not None:
            self.attach(node)
        stack = self.stack
        if not stack:
            self.root = value
            return
        top = stack[-1]
        top.weight += weight
        container = top.container
        if not top.is_map:
            container.append(value)
            return
        key = top.key
        if type(key) is str:
            top.key = None
            container[key] = value
        else:  # a dropped entry: after a collection used as key comes its value, also dropped
            top.key = _BAD_KEY if key is _COMPLEX_KEY else None

    def take_key(self, top: _Frame, event: Any) -> None:
        cls = type(event)
        if cls is not yaml.ScalarEvent:
            kind = "an alias" if cls is yaml.AliasEvent else "a collection"
            self.error(
                "yaml-complex-key",
                event.start_mark,
                event.end_mark,
                f"mapping key is {kind}; keys must be plain names",
            )
            top.key = _BAD_KEY
            return
        key = self.restore(event.value)
        if event.tag not in _KEY_TAGS:
            self.unsupported_tag(event)
            top.key = _BAD_KEY
            return
        if event.anchor is not None:  # an anchored key can be aliased later, as a value
            self.anchors[event.anchor] = (key, 1)
        if key == "<<" and not event.style and event.tag is None:
            self.error(
                "yaml-merge-key",
                event.start_mark,
                event.end_mark,
                "merge keys (`<<`) are YAML 1.1 and not supported",
                "repeat the keys, or share the schema through `types:` and `$ref`",
            )
            top.key = _BAD_KEY
            return
        first_node = top.node[2].get(key)
        if first_node is not None:
            first = self.spans.span_of(first_node[1])
            here = self.span(event.start_mark, event.end_mark)
            self.diagnostics.append(duplicate_key(key, here, first))
            top.key = _BAD_KEY
            return
        top.key_span = _packed(event.start_mark, event.end_mark)
        top.key = key

    # -- events ---------------------------------------------------------------------------------
    def scalar(self, event: Any) -> None:
        value, problem = type_scalar(event.tag, not event.style, self.restore(event.value))
        if problem is not None:
            self.report(problem, event)
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, 1)
        self.add(value, 1, [_packed(event.start_mark, event.end_mark), 0, None])

    def report(self, problem: ScalarProblem, event: Any) -> None:
        self.error(problem.code, event.start_mark, event.end_mark, problem.message, problem.hint)

    def unsupported_tag(self, event: Any) -> None:
        self.report(unsupported_tag(event.tag), event)

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
        self.add(value, weight, [_packed(event.start_mark, event.end_mark), 0, None])

    def start_mapping(self, event: Any) -> None:
        self.start(event, {}, True, _MAP_TAGS)

    def start_sequence(self, event: Any) -> None:
        self.start(event, [], False, _SEQ_TAGS)

    def start(
        self, event: Any, container: dict[str, Any] | list[Any], is_map: bool, tags: frozenset[Any]
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
        node = new_node(children={} if is_map else [])
        self.attach(node)  # now, so that its entries go below it; its own span is set at the end
        self.stack.append(_Frame(container, is_map, node, event.start_mark, event.anchor))

    def end(self, event: Any) -> None:
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.container, frame.weight)
        frame.node[0] = _packed(frame.start, event.end_mark)
        self.add(frame.container, frame.weight, None)

    def feed(self, event: Any) -> None:
        stack = self.stack
        if stack:
            top = stack[-1]
            if top.is_map and top.key is None and type(event) is not yaml.MappingEndEvent:
                self.take_key(top, event)
                if type(event) in (yaml.MappingStartEvent, yaml.SequenceStartEvent):
                    top.key = _COMPLEX_KEY  # the collection is read, then dropped with its value
                    is_map = type(event) is yaml.MappingStartEvent
                    self.start(event, {} if is_map else [], is_map, _MAP_TAGS | _SEQ_TAGS)
                return
        handler = self.handlers.get(type(event))
        if handler is not None:
            handler(event)


def _unchanged(value: str) -> str:
    return value


def load_yaml(text: str, path: str) -> tuple[Any, SourceMap, list[Diagnostic]]:
    """Parse one YAML document. Returns (value, spans, diagnostics); value is None on failure."""
    builder = _Builder(path)
    builder.spans.text = text
    shielded, builder.restore = shield(text)  # YAML 1.2's line breaks (source/lines.py)
    parser = _Parser(shielded)
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
        builder.diagnostics.append(syntax_error(exc, text, path))
    except _Abort:
        pass
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()
    failed = any(d.is_error for d in builder.diagnostics)
    # The handler table holds bound methods of the builder: a cycle that, with the collector
    # paused for the run, would keep the builder and every span tree alive to the end
    # (measured at 5,000 tools: the span trees dropped before emitting were never freed).
    builder.handlers.clear()
    return (None if failed else builder.root), builder.spans, builder.diagnostics
