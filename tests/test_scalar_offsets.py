"""A diagnostic about a character of a string points at that character (issue 9, item 17): the
offset into the value is mapped back through the scalar's quoting and escapes."""

from __future__ import annotations

import pytest
from toolc.source.scalar_offsets import inner_span
from toolc.source.yaml_loader import load_yaml

# YAML text, the value's characters to point at, and the source text the span must cover.
CASES = {
    "plain": ("p: ab(?=x)\n", "(?=x)", "(?=x)"),
    "single-quoted": ("p: 'a''(?=x)'\n", "'(?", "''(?"),
    "double-quoted": ('p: "a\\\\(?=x)"\n', "\\(", "\\\\("),
    "double-quoted escapes": ('p: "\\u00e9\\t\\x41\\"(?=x)"\n', 'é\tA"', '\\u00e9\\t\\x41\\"'),
    "nested": ("a:\n  b:\n    p: ab(?=x)  # note\n", "(?=", "(?="),
    "flow": ("p: {q: ab(?=x)}\n", "(?=x)", "(?=x)"),
    "literal block": ("p: |-\n  ab\n  (?=x)\n", "(?=", "(?="),
    "literal block, clipped": ("p: |\n  ab(?=x)\n", "(?=x)", "(?=x)"),
    "folded, one line": ("p: >-\n  ab(?=x)\n", "b(", "b("),
    "folded, two lines": ("p: >-\n  ab\n  c(?=x)\n", "(?=", "(?="),
    "folded, a paragraph break": ("p: >\n  ab\n\n  cd\n  e(?=x)\n", "(?=", "(?="),
    "astral characters": ("p: 😀😀(?=x)\n", "😀(", "😀("),
}


def _value(data: object, path: tuple[str, ...]) -> str:
    for key in path:
        assert isinstance(data, dict)
        data = data[key]
    assert isinstance(data, str)
    return data


@pytest.mark.parametrize("name", CASES)
def test_the_span_is_the_characters_of_the_value(name: str) -> None:
    text, chars, source = CASES[name]
    data, spans, problems = load_yaml(text, "t.yaml")
    assert problems == []
    path = ("a", "b", "p") if name == "nested" else ("p", "q") if name == "flow" else ("p",)
    value = _value(data, path)
    start = value.index(chars)
    span = inner_span(spans, path, value, start, start + len(chars))
    assert span.line == span.end_line
    assert text.splitlines()[span.line - 1][span.column - 1 : span.end_column - 1] == source


@pytest.mark.parametrize(
    "text",
    [
        'p: "ab\n  (?=x)"\n',  # a double-quoted scalar folded over two lines
        "p: ab\n  (?=x)\n",  # a plain one
        "p: >\n  ab\n    (?=x)\n  c\n",  # a folded block with a more-indented line
        "p: !!str ab(?=x)\n",  # a tag before the value
        "x: &a ab(?=x)\np: *a\n",  # an alias
    ],
)
def test_where_columns_cannot_be_exact_the_whole_scalar_is_the_span(text: str) -> None:
    data, spans, problems = load_yaml(text, "t.yaml")
    assert problems == []
    value = _value(data, ("p",))
    assert inner_span(spans, ("p",), value, 4, 6) == spans.value_span(("p",))


def test_an_offset_past_the_end_points_at_the_last_character() -> None:
    data, spans, _ = load_yaml("p: 'ab('\n", "t.yaml")
    span = inner_span(spans, ("p",), _value(data, ("p",)), 3, 4)
    assert (span.column, span.end_column) == (7, 8)


@pytest.mark.parametrize(
    "text",
    [
        "p: >-\n  ab cd\n  ef\n\n\n  gh  \n  ij\n",
        "p: >+\n   ab\n   cd\n\n",
        "a:\n  p: >2-\n    x\n    y(\n",
    ],
)
def test_every_character_of_a_folded_block_is_found_where_it_is(text: str) -> None:
    """A folded block's text characters map to themselves in the source (a line break
    folded into a space, or kept by an empty line, maps to a line's end or that line)."""
    data, spans, problems = load_yaml(text, "t.yaml")
    assert problems == []
    path = ("a", "p") if text.startswith("a:") else ("p",)
    value = _value(data, path)
    lines = text.splitlines()
    for i, ch in enumerate(value):
        span = inner_span(spans, path, value, i, i + 1)
        assert span != spans.value_span(path), (value, i)
        if ch not in " \n":
            assert lines[span.line - 1][span.column - 1] == ch, (value, i)
