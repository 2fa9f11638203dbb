"""YAML text → JSON-compatible values, with spans, limits and duplicate-key detection.

Built on the parser's event stream rather than PyYAML's composer, because the composer recurses
(a deeply nested file overflows it), expands aliases without bound, keeps the last of two equal
keys and types scalars by YAML 1.1. Here the nesting is an explicit stack, aliases are weighed
before anything is expanded, and plain scalars are typed by YAML 1.2's core schema
(source/yaml_builder.py).
"""

from __future__ import annotations

from typing import Any

import yaml

from toolc.diagnostics import Diagnostic
from toolc.source.document import BITS, SourceMap
from toolc.source.lines import shield, unchanged
from toolc.source.scalars import MAYBE_TYPED
from toolc.source.yaml_builder import BAD_KEY, COMPLEX_KEY, MAP_TAGS, SEQ_TAGS, Abort, Builder
from toolc.source.yaml_errors import syntax_error

try:  # libyaml's parser is ~10x faster; the pure-Python one is the fallback.
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]

# Values in one file. A 5,000-tool config holds about 1.5 million; the cap keeps a huge flat file
# from costing minutes and gigabytes (measured: 16 million values took 65 s and 6.7 GB).
MAX_NODES = 3_000_000


def _run(builder: Builder, parser: Any) -> None:
    """Feed every event to the builder. The common cases (a plain key, an untagged string, a
    collection's start and end) are inlined here: a method call per event and per span was most
    of what loading cost in Python (decision 0111). Anything else goes through `feed` and the
    builder's methods, so each diagnostic comes from one place."""
    stack = builder.stack
    get_event = parser.get_event
    fast_text = builder.restore is unchanged  # no NEL/LS/PS to put back in values
    scalar_event, map_start, map_end = (
        yaml.ScalarEvent,
        yaml.MappingStartEvent,
        yaml.MappingEndEvent,
    )
    seq_start, seq_end = yaml.SequenceStartEvent, yaml.SequenceEndEvent
    boundaries = (yaml.StreamEndEvent, yaml.DocumentStartEvent, yaml.DocumentEndEvent)
    maybe_typed = MAYBE_TYPED
    while True:
        event = get_event()
        cls = type(event)
        top = stack[-1] if stack else None
        if cls is scalar_event:
            if top is None or not fast_text or event.tag is not None or event.anchor is not None:
                builder.feed(event)
                continue
            text = event.value
            start, end = event.start_mark, event.end_mark
            packed = ((start.line << BITS | start.column) << BITS | end.line) << BITS | end.column
            key = top.key
            if top.is_map and key is None:  # a plain key: new, and not the merge key `<<`
                children = top.node[2]
                if (text != "<<" or event.style) and text not in children:
                    top.key_span = packed
                    top.key = text
                else:
                    builder.take_key(top, event)
                continue
            # a string value: quoted or block, or plain and not starting like a number
            if not (event.style or (text and text[0] not in maybe_typed)):
                builder.scalar(event)
                continue
            if builder.nodes >= builder.max_nodes:
                builder.scalar(event)  # reports the limit
                continue
            builder.nodes += 1
            top.weight += 1
            if not top.is_map:
                top.node[2].append([packed, 0, None])
                top.container.append(text)
            elif type(key) is str:
                top.node[2][key] = [packed, top.key_span, None]
                top.key = None
                top.container[key] = text
            else:  # a dropped entry, as in `add`
                top.key = BAD_KEY if key is COMPLEX_KEY else None
        elif top is not None and top.is_map and top.key is None and cls is not map_end:
            builder.feed(event)  # a collection or alias as a key
        elif cls is map_start:
            builder.start(event, {}, True, MAP_TAGS)
        elif cls is map_end or cls is seq_end:
            builder.end(event)
        elif cls is seq_start:
            builder.start(event, [], False, SEQ_TAGS)
        elif cls in boundaries:
            if builder.boundary(event):
                return
        else:
            builder.feed(event)


def load_yaml(text: str, path: str) -> tuple[Any, SourceMap, list[Diagnostic]]:
    """Parse one YAML document. Returns (value, spans, diagnostics); value is None on failure."""
    builder = Builder(path, MAX_NODES)
    builder.spans.text = text
    shielded, builder.restore = shield(text)  # YAML 1.2's line breaks (source/lines.py)
    parser = _Parser(shielded)
    try:
        _run(builder, parser)
    except yaml.YAMLError as exc:
        builder.diagnostics.append(syntax_error(exc, text, path))
    except Abort:
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
