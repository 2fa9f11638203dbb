"""The loader's inlined event loop (`yaml_loader._run`) against the reference path: every event
fed one at a time through `Builder.feed`, as the loader did before the loop was inlined. Random
documents (unicode, CRLF, NEL, quotes, block scalars, flow collections, tags, anchors, aliases,
duplicate and merge keys) and the bench configs must give the same values, spans and
diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolc.source import yaml_builder, yaml_loader
from toolc.source.document import SpanNode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from gen_config import render


def _each_event(builder: yaml_builder.Builder, parser: Any) -> None:
    """The reference loop: every event through `feed`, one at a time."""
    while True:
        event = parser.get_event()
        if builder.boundary(event):
            return
        builder.feed(event)


def _reference(text: str, path: str) -> tuple[Any, Any, list[Any]]:
    # load_yaml's own set-up and clean-up, with the reference loop in place of the inlined one
    with mock.patch.object(yaml_loader, "_run", _each_event):
        return yaml_loader.load_yaml(text, path)


def _tree(node: SpanNode | None) -> object:
    if node is None:
        return None
    children = node[2]
    if isinstance(children, dict):
        children = {key: _tree(child) for key, child in children.items()}
    elif isinstance(children, list):
        children = [_tree(child) for child in children]
    return (node[0], node[1], children)


def assert_same(text: str) -> None:
    fast = yaml_loader.load_yaml(text, "t.yaml")
    slow = _reference(text, "t.yaml")
    assert repr(fast[0]) == repr(slow[0])  # repr: nan and -0.0 compare as written
    assert _tree(fast[1].root) == _tree(slow[1].root)
    assert fast[2] == slow[2]


_WORDS = ["a", "b", "name", "<<", "é", "日本", "x y", "true", "NO", "0o17", "1:30", "~", ""]
_SCALARS = st.sampled_from(
    [
        "x", "é", "日本語", "1", "-2.5", "0x1F", ".inf", ".nan", "null", "~", "yes", "on", "012",
        "'it''s'", '"q\\"é\\u00e9"', '"\\x41"', "!!str 5", "!!int x", "!!float 1", "!custom v",
        "&a v", "*a", "*missing", "'multi\n  line'", "a\x85b", "a\u2028b", "''", '""', "[1, b]",
        "{k: v, k: w}", "[{a: 1}, [2]]", "|\n  lit\n  é\n", ">-\n  fold\n", "|2+\n   kept\n\n",
        "&m {a: 1}", "!!map {a: 1}", "!!seq [1]", "- x", "@bad", "\t", "? [k]\n: v", "1" * 30,
    ]
)  # fmt: skip


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        key = draw(st.sampled_from(_WORDS))
        shown = key if key and key not in ("x y",) else repr(key)
        indent = draw(st.sampled_from(["", "  "]))
        value = draw(_SCALARS)
        if draw(st.booleans()):
            lines.append(f"{indent}{shown}: {value}")
        else:
            lines.append(f"{indent}- {value}")
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending, ending + "---\nb: 1\n"]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_random_documents_load_the_same(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",
        "<<: {a: 1}\n",
        "'<<': 1\n",
        "&k a: *k\n",
        "[a, *k]\n",
        "? [a]\n: 1\nb: 2\n",
        "*a: 1\n",
        "a: 1\n---\nb: 2\n",
        "x\n",
        "",
        "a: [1, {b: c}]\r\nd: 'é'\r\n",
        "a: b\x85c\n",
        "a: [\n",
    ],
)
def test_edge_cases_load_the_same(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize("size", [10, 236])
def test_bench_configs_load_the_same(size: int) -> None:
    for text in render(size):
        assert_same(text)
