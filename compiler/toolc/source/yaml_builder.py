"""The composer of the YAML loader: events → JSON-compatible values with spans, duplicate keys
refused, aliases weighed and plain scalars typed by YAML 1.2. yaml_loader drives it: its event
loop handles the common events inline and hands every other one to `Builder.feed`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import yaml

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.source.document import SourceMap, SpanNode, new_node, pack, unpack
from toolc.source.lines import unchanged
from toolc.source.scalars import CORE, ScalarProblem, type_scalar, unsupported_tag
from toolc.source.yaml_errors import MAX_DEPTH, duplicate_key

MAX_ALIAS_NODES = 100_000

MAP_TAGS = frozenset({None, "!", CORE + "map"})
SEQ_TAGS = frozenset({None, "!", CORE + "seq"})
_KEY_TAGS = frozenset({None, "!", CORE + "str"})  # keys are names: text only


class Abort(Exception):
    """A problem after which the rest of the file cannot be read meaningfully."""


BAD_KEY = object()  # the pending key of a mapping entry whose value is to be dropped
COMPLEX_KEY = object()  # a collection used as a key is being read; it is dropped, then its value


class Frame(msgspec.Struct):
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


class Builder:
    """Turns events into values. The hot path (one call per event) avoids isinstance chains and
    repeated attribute lookups: it is most of what loading a large config costs in Python."""

    def __init__(self, path: str, max_nodes: int) -> None:
        self.path = path
        self.max_nodes = max_nodes  # yaml_loader.MAX_NODES, read per load (tests lower it)
        self.spans = SourceMap(path)
        self.diagnostics: list[Diagnostic] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[Frame] = []
        self.alias_nodes = 0
        self.nodes = 0
        self.root: Any = None
        self.done = False
        self.restore: Callable[[str], str] = unchanged
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
        if self.nodes > self.max_nodes:
            line, column, _, _ = unpack(node[0] if node is not None else 0)
            self.diagnostics.append(
                diag(
                    "yaml-size-limit",
                    Span.point(self.path, line + 1, column + 1),
                    f"the file holds more than {self.max_nodes:,} values",
                    "split the tools over several configs",
                )
            )
            raise Abort
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
            top.key = BAD_KEY if key is COMPLEX_KEY else None

    def take_key(self, top: Frame, event: Any) -> None:
        cls = type(event)
        if cls is not yaml.ScalarEvent:
            kind = "an alias" if cls is yaml.AliasEvent else "a collection"
            self.error(
                "yaml-complex-key",
                event.start_mark,
                event.end_mark,
                f"mapping key is {kind}; keys must be plain names",
            )
            top.key = BAD_KEY
            return
        key = self.restore(event.value)
        if event.tag not in _KEY_TAGS:
            self.unsupported_tag(event)
            top.key = BAD_KEY
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
            top.key = BAD_KEY
            return
        first_node = top.node[2].get(key)
        if first_node is not None:
            first = self.spans.span_of(first_node[1])
            here = self.span(event.start_mark, event.end_mark)
            self.diagnostics.append(duplicate_key(key, here, first))
            top.key = BAD_KEY
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
            if any(frame.anchor == event.anchor for frame in self.stack):  # a value in itself
                said = f"alias '*{event.anchor}' is inside the node its anchor names"
                fix = "a value cannot hold itself: share a schema through `types:` and `$ref`"
            else:
                said = f"alias '*{event.anchor}' refers to no anchor defined before it"
                fix = f"define '&{event.anchor}' on an earlier node"
            self.error("yaml-syntax", event.start_mark, event.end_mark, said, fix)
            raise Abort
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
            raise Abort
        self.add(value, weight, [_packed(event.start_mark, event.end_mark), 0, None])

    def start_mapping(self, event: Any) -> None:
        self.start(event, {}, True, MAP_TAGS)

    def start_sequence(self, event: Any) -> None:
        self.start(event, [], False, SEQ_TAGS)

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
            raise Abort
        node = new_node(children={} if is_map else [])
        self.attach(node)  # now, so that its entries go below it; its own span is set at the end
        self.stack.append(Frame(container, is_map, node, event.start_mark, event.anchor))

    def end(self, event: Any) -> None:
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.container, frame.weight)
        frame.node[0] = _packed(frame.start, event.end_mark)
        self.add(frame.container, frame.weight, None)

    def boundary(self, event: Any) -> bool:
        """A stream or document event; True when reading stops: the stream's end, or a second
        document (reported). Any other event is not one: False, nothing done."""
        cls = type(event)
        if cls is yaml.StreamEndEvent:
            return True
        if cls is yaml.DocumentStartEvent and self.done:
            self.error(
                "yaml-multiple-documents",
                event.start_mark,
                event.end_mark,
                "a second YAML document; each config file holds exactly one",
                "remove the `---` separator and merge the documents",
            )
            return True
        if cls is yaml.DocumentEndEvent:
            self.done = True
        return False

    def feed(self, event: Any) -> None:
        stack = self.stack
        if stack:
            top = stack[-1]
            if top.is_map and top.key is None and type(event) is not yaml.MappingEndEvent:
                self.take_key(top, event)
                if type(event) in (yaml.MappingStartEvent, yaml.SequenceStartEvent):
                    top.key = COMPLEX_KEY  # the collection is read, then dropped with its value
                    is_map = type(event) is yaml.MappingStartEvent
                    self.start(event, {} if is_map else [], is_map, MAP_TAGS | SEQ_TAGS)
                return
        handler = self.handlers.get(type(event))
        if handler is not None:
            handler(event)
