"""The reports a CI page shows: a Markdown PR comment (a table, its cells inert: no HTML,
no table syntax from the text) and JUnit XML (one test case per diagnostic, every
character one XML can hold). `toolc diff` writes its JUnit with `junit` too."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from toolc.diagnostics.model import Diagnostic
from toolc.diagnostics.printable import cleaned, code_span, no_surrogates, one_line

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


def noted(d: Diagnostic) -> list[str]:
    """Each note as `path:line:col: message`, for the formats with one text per finding."""
    return [f"{n.span.place}: {n.message}" for n in d.notes]


def _one_line(text: str) -> str:
    """A table cell's text on one line, its pipes escaped (GFM reads `\\|` as a pipe even
    inside a code span)."""
    return one_line(text).replace("|", "\\|")


def md_cell(text: str) -> str:
    """Text of a message, inert: no HTML a comment would render, no table syntax."""
    inert = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _one_line(inert)


def render_markdown(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    """A PR comment: errors first, each with its place, code and hint."""
    items = sorted(
        (cleaned(d, no_surrogates) for d in diagnostics),
        key=lambda d: (not d.is_error, d.span.path, d.span.line),
    )
    if not items:
        return "**toolc**: no problems.\n"
    errors = sum(d.is_error for d in items)
    summary = f"**toolc**: {errors} error(s), {len(items) - errors} warning(s)"
    if strict and errors < len(items):
        summary += ", failed: --strict counts warnings as errors"
    out = [summary, "", "| | Where | Code | Message |", "|---|---|---|---|"]
    for d in items:
        mark = "❌" if d.is_error or strict else "⚠️"
        place = code_span(d.span.place.replace("|", "\\|"))
        hint = f"<br>hint: {md_cell(d.hint)}" if d.hint else ""
        hint += "".join(f"<br>note: {md_cell(n)}" for n in noted(d))
        out.append(f"| {mark} | {place} | `{d.code}` | {md_cell(d.message)}{hint} |")
    return "\n".join(out) + "\n"


# What XML 1.0 cannot hold (its `Char` production): C0 controls but tab and line ends,
# surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    text = _NOT_XML.sub("\N{REPLACEMENT CHARACTER}", text)
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
    seen: dict[tuple[str, str], int] = {}
    for classname, name, failure, details in cases:
        # Two findings at one place with one code are two cases: CI reports key on the names
        count = seen[classname, name] = seen.get((classname, name), 0) + 1
        name = name if count == 1 else f"{name} ({count})"
        out.append(f'    <testcase classname="{_xml(classname)}" name="{_xml(name)}">')
        if failure is not None:
            out.append(f'      <failure message="{_xml(failure)}">{_xml(details)}</failure>')
        elif details:
            out.append(f"      <system-out>{_xml(details)}</system-out>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def render_junit(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], strict: bool = False
) -> str:
    """One test case per diagnostic (an error fails it, and a warning under `strict`); a
    clean run is one passing case."""
    cases: list[tuple[str, str, str | None, str]] = []
    for d in (cleaned(d, no_surrogates) for d in diagnostics):
        s = d.span
        name = f"{s.place} {d.code}"
        details = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        details += "".join(f"\nnote: {n}" for n in noted(d))
        failed = d.is_error or strict
        cases.append((gate_of(d.code), name, d.message if failed else None, details))
    if not cases:
        cases.append(("toolc", "no problems", None, ""))
    return junit("toolc", cases)
