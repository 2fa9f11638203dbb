"""Renderers: GCC-style text with the source line and a caret, JSON lines, GitHub annotations,
a Markdown PR comment, JUnit XML for CI test reports and SARIF 2.1.0 for code scanning."""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Callable, Iterable, Mapping

from toolc.diagnostics.model import Diagnostic, Span
from toolc.diagnostics.printable import CONTROL, cleaned, for_terminal, no_surrogates
from toolc.diagnostics.render_pages import gate_of, noted, render_junit, render_markdown
from toolc.diagnostics.textlines import yaml_line, yaml_lines

FORMATS = ("text", "json", "github", "markdown", "junit", "sarif")


class _Lines:
    """The sources' lines, for excerpts: the first line asked of a file is found alone
    (yaml_line), and a file asked again is split once for the rest of the rendering (a
    split per diagnostic cost 163 ms each at 5,000 tools, measured)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources
        self.asked: set[str] = set()
        self.split: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        text = self.sources.get(path)
        if text is None:
            return None
        if path not in self.asked:
            self.asked.add(path)
            return yaml_line(text, number)
        lines = self.split.get(path)
        if lines is None:
            lines = self.split[path] = yaml_lines(text)
        return lines[number - 1] if 1 <= number <= len(lines) else None


def _source_excerpt(span: Span, lines: _Lines) -> list[str]:
    line = lines.line(span.path, span.line)
    if line is None:
        return []
    if len(line) > 200:  # a minified or binary line would flood the terminal
        return []
    width = (
        span.end_column - span.column if span.end_line == span.line else len(line) - span.column + 1
    )
    # A control character (an escape sequence in a string) is shown, never obeyed.
    shown = CONTROL.sub("\N{REPLACEMENT CHARACTER}", no_surrogates(line))
    start = span.column - 1
    marked = max(1, _cells(shown[start : start + max(1, width)]))
    gutter = f"{span.line:>5} | "
    # The caret line repeats the tabs of the source so that it lines up in any tab width,
    # and pads each other character by the cells a terminal gives it.
    pad = "".join("\t" if ch == "\t" else " " * _cells(ch) for ch in shown[:start])
    return [gutter + shown, " " * (len(gutter) - 2) + "| " + pad + "^" + "~" * (marked - 1)]


def _cells(text: str) -> int:
    """The terminal cells `text` takes: two for a wide character (CJK, most emoji), none
    for a combining mark or a format character, one for any other."""
    cells = 0
    for ch in text:
        zero = unicodedata.category(ch) in ("Mn", "Me", "Cf") and ch != "\u00ad"
        if zero or unicodedata.combining(ch):  # a soft hyphen shows as one cell
            continue
        cells += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cells


_COLORS = {"error": "\033[1;31m", "warning": "\033[1;33m"}


def use_color(stream: object) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


def render_text(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], color: bool = False
) -> str:
    out: list[str] = []
    lines = _Lines(sources)
    for raw in diagnostics:
        # its excerpt is found by the path as read; what is printed is shown, never obeyed
        d = cleaned(raw, for_terminal)
        s = d.span
        label = d.severity.value
        if color:
            label = f"{_COLORS[label]}{label}\033[0m"
        out.append(f"{s.place}: {label}[{d.code}]: {d.message}")
        out.extend(_source_excerpt(raw.span, lines))
        for note in d.notes:
            out.append(f"{note.span.place}: note: {note.message}")
        if d.hint:
            out.append(f"  = hint: {d.hint}")
    return "".join(line + "\n" for line in out)


def _as_json(d: Diagnostic) -> dict[str, object]:
    s = d.span
    obj: dict[str, object] = {
        "path": s.path,
        "line": s.line,
        "column": s.column,
        "end": {"line": s.end_line, "column": s.end_column},
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "gate": gate_of(d.code),
    }
    if d.hint:
        obj["hint"] = d.hint
    if d.notes:  # the other places it names ("first defined here"), as text and SARIF give
        obj["notes"] = [
            {
                "path": n.span.path,
                "line": n.span.line,
                "column": n.span.column,
                "end": {"line": n.span.end_line, "column": n.span.end_column},
                "message": n.message,
            }
            for n in d.notes
        ]
    return obj


# Line separators JSON lets a string hold, but which `str.splitlines()` and JavaScript's
# older parsers split a JSON line at.
_SEPARATORS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def json_line(value: object) -> str:
    """One JSON value on one line, whatever line separators its strings hold."""
    return json.dumps(value, ensure_ascii=False).translate(_SEPARATORS)


def render_json(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    return "".join(json_line(_as_json(cleaned(d, no_surrogates))) + "\n" for d in diagnostics)


def _gh_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(value: str) -> str:
    return _gh_data(value).replace(":", "%3A").replace(",", "%2C")


def render_github(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…::message``."""
    out = []
    for d in (cleaned(d, no_surrogates) for d in diagnostics):
        s = d.span
        # Columns only within one line: GitHub refuses them on a span over several lines.
        one = s.line == s.end_line
        # A source with no lines (a live server's listing) is no file: an annotation of
        # the run, its source named in the text.
        props = [
            f"file={_gh_property(s.path)}",
            f"line={s.line}",
            *([f"col={s.column}"] if one else []),
            f"endLine={s.end_line}",
            *([f"endColumn={s.end_column}"] if one else []),
        ] if s.placed else []  # fmt: skip
        props.append(f"title={_gh_property(d.code)}")
        message = ("" if s.placed else f"{s.path}: ") + d.message
        message += f"\n\nhint: {d.hint}" if d.hint else ""
        message += "".join(f"\nnote: {n}" for n in noted(d))
        out.append(f"::{d.severity.value} {','.join(props)}::{_gh_data(message)}\n")
    return "".join(out)


def render_sarif(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    # Imported on use: the catalogue it reads loads every code and rule, which a build that
    # prints text has no need of.
    from toolc.diagnostics import sarif

    return sarif.render_sarif(diagnostics, sources)


# Each takes the diagnostics, the sources they point into, and whether warnings fail the run.
def _plain_text(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    return render_text(diagnostics, sources)


RENDERERS: dict[str, Callable[[Iterable[Diagnostic], Mapping[str, str], bool], str]] = {
    "text": _plain_text,
    "json": render_json,
    "github": render_github,
    "markdown": render_markdown,
    "junit": render_junit,
    "sarif": render_sarif,
}
