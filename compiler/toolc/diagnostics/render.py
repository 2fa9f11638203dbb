"""Renderers: GCC-style text with the source line and a caret, JSON lines, GitHub annotations,
a Markdown PR comment, JUnit XML for CI test reports and SARIF 2.1.0 for code scanning."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping

from toolc.diagnostics.model import Diagnostic, Span
from toolc.diagnostics.textlines import yaml_line, yaml_lines

FORMATS = ("text", "json", "github", "markdown", "junit", "sarif")

_VERSION_GATE = {
    "version-not-bumped", "version-decreased", "version-bump-too-small", "tool-removed",
    "snapshot-invalid", "accepted-break-stale", "baseline-empty",
}  # fmt: skip


def gate_of(code: str) -> str:
    """The gate a diagnostic belongs to: the config itself, the version guard, or the
    freshness of the committed output."""
    if code in _VERSION_GATE:
        return "version-guard"
    return "output-fresh" if code.startswith("output-") else "config"


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
    shown = _CONTROL.sub("\N{REPLACEMENT CHARACTER}", line)
    start = span.column - 1
    marked = max(1, _cells(shown[start : start + max(1, width)]))
    gutter = f"{span.line:>5} | "
    # The caret line repeats the tabs of the source so that it lines up in any tab width,
    # and pads each other character by the cells a terminal gives it.
    pad = "".join("\t" if ch == "\t" else " " * _cells(ch) for ch in shown[:start])
    return [gutter + shown, " " * (len(gutter) - 2) + "| " + pad + "^" + "~" * (marked - 1)]


# C0/C1 controls, and the bidirectional overrides and isolates that reorder what a terminal
# shows (a line that reads otherwise than it parses).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


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
    for d in diagnostics:
        s = d.span
        label = d.severity.value
        if color:
            label = f"{_COLORS[label]}{label}\033[0m"
        out.append(f"{s.path}:{s.line}:{s.column}: {label}[{d.code}]: {d.message}")
        out.extend(_source_excerpt(s, lines))
        for note in d.notes:
            n = note.span
            out.append(f"{n.path}:{n.line}:{n.column}: note: {note.message}")
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


def _noted(d: Diagnostic) -> list[str]:
    """Each note as `path:line:col: message`, for the formats with one text per finding."""
    return [f"{n.span.path}:{n.span.line}:{n.span.column}: {n.message}" for n in d.notes]


def render_json(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    return "".join(json.dumps(_as_json(d), ensure_ascii=False) + "\n" for d in diagnostics)


def _gh_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(value: str) -> str:
    return _gh_data(value).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…::message``."""
    out = []
    for d in diagnostics:
        s = d.span
        props = [
            f"file={_gh_property(s.path)}",
            f"line={s.line}",
            f"col={s.column}",
            f"endLine={s.end_line}",
            f"endColumn={s.end_column}",
            f"title={_gh_property(d.code)}",
        ]
        message = d.message + (f"\n\nhint: {d.hint}" if d.hint else "")
        message += "".join(f"\nnote: {n}" for n in _noted(d))
        out.append(f"::{d.severity.value} {','.join(props)}::{_gh_data(message)}\n")
    return "".join(out)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """A PR comment: errors first, each with its place, code and hint."""
    items = sorted(diagnostics, key=lambda d: (not d.is_error, d.span.path, d.span.line))
    if not items:
        return "**toolc**: no problems.\n"
    errors = sum(d.is_error for d in items)
    out = [f"**toolc**: {errors} error(s), {len(items) - errors} warning(s)", ""]
    out += ["| | Where | Code | Message |", "|---|---|---|---|"]
    for d in items:
        mark = "❌" if d.is_error else "⚠️"
        place = f"`{d.span.path}:{d.span.line}:{d.span.column}`"
        hint = f"<br>hint: {_md(d.hint)}" if d.hint else ""
        hint += "".join(f"<br>note: {_md(n)}" for n in _noted(d))
        out.append(f"| {mark} | {place} | `{d.code}` | {_md(d.message)}{hint} |")
    return "\n".join(out) + "\n"


def _xml(text: str) -> str:
    text = "".join(ch for ch in text if ch in "\t\n\r" or ord(ch) >= 0x20)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def junit(suite: str, cases: list[tuple[str, str, str | None, str]]) -> str:
    """JUnit XML: `cases` are (classname, name, failure message or None, details)."""
    failures = sum(1 for _, _, failure, _ in cases if failure is not None)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="toolc" tests="{len(cases)}" failures="{failures}" errors="0">',
        f'  <testsuite name="{_xml(suite)}" tests="{len(cases)}" failures="{failures}" '
        'errors="0" skipped="0">',
    ]
    for classname, name, failure, details in cases:
        out.append(f'    <testcase classname="{_xml(classname)}" name="{_xml(name)}">')
        if failure is not None:
            out.append(f'      <failure message="{_xml(failure)}">{_xml(details)}</failure>')
        elif details:
            out.append(f"      <system-out>{_xml(details)}</system-out>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def render_junit(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """One test case per diagnostic (an error fails it); a clean run is one passing case."""
    cases: list[tuple[str, str, str | None, str]] = []
    for d in diagnostics:
        s = d.span
        name = f"{s.path}:{s.line}:{s.column} {d.code}"
        details = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        details += "".join(f"\nnote: {n}" for n in _noted(d))
        cases.append((gate_of(d.code), name, d.message if d.is_error else None, details))
    if not cases:
        cases.append(("toolc", "no problems", None, ""))
    return junit("toolc", cases)


def render_sarif(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    # Imported on use: the catalogue it reads loads every code and rule, which a build that
    # prints text has no need of.
    from toolc.diagnostics import sarif

    return sarif.render_sarif(diagnostics, sources)


RENDERERS: dict[str, Callable[[Iterable[Diagnostic], Mapping[str, str]], str]] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "markdown": render_markdown,
    "junit": render_junit,
    "sarif": render_sarif,
}
