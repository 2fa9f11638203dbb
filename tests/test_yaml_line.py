"""Issue 16: a diagnostic's excerpt finds its line without splitting the whole config
(yaml_line), and a file with several diagnostics is split once per rendering; the lines
are those yaml_lines counts (YAML 1.2 breaks only), and the rendering is unchanged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.diagnostics.render import render_text
from toolc.diagnostics.textlines import position, yaml_line, yaml_lines

# Line breaks YAML counts and characters it does not (NEL, LS, PS, form feed)
pieces = st.sampled_from(["a", " ", "\n", "\r", "\r\n", "\x85", "\u2028", "\f"])
texts = st.lists(pieces, max_size=30).map("".join)


@given(texts)
def test_yaml_line_is_the_line_yaml_lines_counts(text: str) -> None:
    lines = yaml_lines(text)
    for number in range(-1, len(lines) + 3):
        expected = lines[number - 1] if 1 <= number <= len(lines) else None
        assert yaml_line(text, number) == expected, (text, number)


@given(texts, st.integers(0, 30))
def test_a_position_is_the_line_and_column_yaml_lines_give(text: str, index: int) -> None:
    index = min(index, len(text))
    kept = yaml_lines(text[:index] + "x", keepends=True)  # "x": a line for the end too
    assert position(text, index) == (len(kept), len(kept[-1])), (text, index)


def _at(line: int, column: int = 1) -> Diagnostic:
    span = Span("tools.yaml", line, column, line, column + 1)
    return Diagnostic("some-code", Severity.WARNING, span, f"at line {line}", "fix it")


def test_excerpts_of_one_file_asked_again_and_again() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 40))
    diagnostics = [_at(3), _at(30, 2), _at(3), _at(39), _at(40), _at(1)]
    rendered = render_text(diagnostics, {"tools.yaml": text}).splitlines()
    excerpts = [line for line in rendered if " | " in line and "line " in line]
    assert [e.split(" | ")[1] for e in excerpts] == [f"line {n}" for n in (3, 30, 3, 39, 1)]
    assert "tools.yaml:40:1: warning[some-code]: at line 40" in rendered  # past the end


def _caret(line: str, column: int, end: int) -> tuple[str, str]:
    span = Span("tools.yaml", 1, column, 1, end)
    diagnostic = Diagnostic("some-code", Severity.ERROR, span, "here", None)
    source, caret = render_text([diagnostic], {"tools.yaml": line + "\n"}).splitlines()[1:3]
    return source.split(" | ", 1)[1], caret.split("| ", 1)[1]


def test_the_caret_sits_under_its_token_whatever_the_widths_before_it() -> None:
    """Padded one space per code point, the caret sat two cells a CJK character or an
    emoji to the left of its token, and one cell a combining mark to the right."""
    for before in ("漢字", "🙂x", "e\u0301e\u0301", "\tab", "plain"):
        line = f'd: "{before}", type: strng'
        column = line.index("strng") + 1
        source, caret = _caret(line, column, column + 5)
        assert caret.expandtabs(8) == " " * len(_cells_of(source[: column - 1])) + "^~~~~"


def _cells_of(text: str) -> str:
    """`text` as the cells a terminal shows (tabs to 8), by an independent reckoning."""
    import unicodedata

    out = ""
    for ch in text.expandtabs(8):
        if unicodedata.combining(ch):
            continue
        out += ".." if unicodedata.east_asian_width(ch) in "WF" else "."
    return out


def test_a_control_character_in_an_excerpt_is_shown_not_obeyed() -> None:
    source, caret = _caret('d: "a\x1b[31mb"', 5, 6)
    assert "\x1b" not in source and source == 'd: "a\ufffd[31mb"'
    assert caret == "    ^"
    source, caret = _caret('d: "\u202eab", x: 1', 13, 14)  # a right-to-left override
    assert source == 'd: "\ufffdab", x: 1' and caret == "            ^"
    _, caret = _caret('d: "so\u00adft", x: 1', 14, 15)  # a soft hyphen takes its cell
    assert caret == "             ^"
