"""Renderers: GCC-style text with the source line and a caret, JSON lines, GitHub annotations."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping

from toolc.diagnostics.model import Diagnostic, Span

FORMATS = ("text", "json", "github")


def _source_excerpt(span: Span, sources: Mapping[str, str]) -> list[str]:
    text = sources.get(span.path)
    if text is None:
        return []
    lines = text.splitlines()
    if not 1 <= span.line <= len(lines):
        return []
    line = lines[span.line - 1]
    if len(line) > 200:  # a minified or binary line would flood the terminal
        return []
    width = (
        span.end_column - span.column if span.end_line == span.line else len(line) - span.column + 1
    )
    width = max(1, width)
    gutter = f"{span.line:>5} | "
    # The caret line repeats the tabs of the source so that it lines up in any tab width.
    pad = "".join("\t" if ch == "\t" else " " for ch in line[: span.column - 1])
    return [gutter + line, " " * (len(gutter) - 2) + "| " + pad + "^" + "~" * (width - 1)]


def render_text(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    out: list[str] = []
    for d in diagnostics:
        s = d.span
        out.append(f"{s.path}:{s.line}:{s.column}: {d.severity.value}[{d.code}]: {d.message}")
        out.extend(_source_excerpt(s, sources))
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
    }
    if d.hint:
        obj["hint"] = d.hint
    return obj


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
        out.append(f"::{d.severity.value} {','.join(props)}::{_gh_data(message)}\n")
    return "".join(out)


RENDERERS: dict[str, Callable[[Iterable[Diagnostic], Mapping[str, str]], str]] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
}
