"""docs/diagnostics.md and docs/evolution.md, rendered from the catalogue so that the pages,
`toolc explain` and the tables cannot drift. An ID of both kinds links its other page."""

from __future__ import annotations

from toolc.diagnostics.catalogue import PAGES, Aspect, Kind, aspects, catalogue
from toolc.evolution.rules import DOC_INTRO

_DIAGNOSTICS_INTRO = """\
# Diagnostics

<!-- Generated from compiler/toolc/diagnostics/codes.py by `make docs`. DO NOT EDIT. -->

Every problem toolc reports has a code, a severity, a position (`file:line:column`) and a
message that says how to fix it. `toolc explain CODE` prints the explanation below, and
`toolc explain --list-rules` lists every code with the rules of [evolution.md](evolution.md).
Errors make `toolc check` exit 1; warnings do too under `--strict`.

**Formats.** `--format` takes `text` (on stderr, with the source line), and these on stdout,
one whole document per run: `json` (one object per line: `path`, `line`, `column`, `end`
{`line`, `column`}, `code`, `severity` (`error` or `warning`), `message`, `gate` (`config`,
`version-guard` or `output-fresh`), and when there are any `hint` and `notes` (each with
`path`, `line`, `column`, `end`, `message`)), `github` (workflow commands; columns only for a
span on one line), `markdown` (a PR comment), `junit` (a warning fails its case under
`--strict`) and `sarif` (2.1.0). Lines and columns count from 1, columns in characters
(Unicode code points), and `end` is just past the span. A source that is no file (the
`tools/list` of a live server `toolc import` reads) has no lines: `line` and `column` are 0,
the text names the source alone, and GitHub and SARIF give it no region. Text a config or a
server put into a message is carried as data in every format: a byte of a name that is no
UTF-8 is U+FFFD (a SARIF URI keeps it percent-encoded), and on a terminal a control character
is shown as U+FFFD.
"""

_TABLE_HEAD: dict[Kind, str] = {
    "diagnostic": "| code | severity | meaning |",
    "evolution": "| rule | level | summary |",
}


def _also(aspect: Aspect) -> list[str]:
    """A line naming the ID's other aspect, on the other page (none for most IDs)."""
    return [
        f"Also {'a diagnostic' if o.kind == 'diagnostic' else 'an evolution rule'} "
        f"(*{o.grade}*): see [{PAGES[o.kind]}]({PAGES[o.kind]}#{o.id}).\n"
        for o in catalogue()[aspect.id]
        if o.kind != aspect.kind
    ]


def _page(intro: str, kind: Kind) -> str:
    out = [intro]
    listed = [a for a in aspects() if a.kind == kind]
    for section in dict.fromkeys(a.section for a in listed):
        rows = [a for a in listed if a.section == section]
        out += [f"## {section}", "", _TABLE_HEAD[kind], "| --- | --- | --- |"]
        out += [f"| [`{a.id}`](#{a.id}) | {a.grade} | {a.summary} |" for a in rows]
        out.append("")
        for a in rows:
            out += [f"### {a.id}", "", f"*{a.grade}* — {a.summary}", "", a.explanation, ""]
            out += _also(a)
    return "\n".join(out).rstrip("\n") + "\n"


def diagnostics_page() -> str:
    return _page(_DIAGNOSTICS_INTRO, "diagnostic")


def evolution_page() -> str:
    return _page(DOC_INTRO, "evolution")


def pages() -> dict[str, str]:
    """Each page, by its name under docs/ (what `make docs` writes)."""
    return {PAGES["diagnostic"]: diagnostics_page(), PAGES["evolution"]: evolution_page()}
