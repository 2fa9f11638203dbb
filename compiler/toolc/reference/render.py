"""The reference as files: `<server>.md` for each mcp_server, `llms.txt` (the llms.txt
convention, https://llmstxt.org: an H1, a blockquote summary, H2 sections of links) and
`llms-full.txt` (the same head, then every page in full). Rendered by the templates in
templates/docs/ from the typed model (`reference.model`); byte-identical run after run: sorted,
no dates, blank lines normalized."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import jinja2

from toolc.diagnostics.printable import code_span
from toolc.reference.markdown import block, inline, plain
from toolc.reference.model import ServerDoc
from toolc.resources import data_dir

LLMS, LLMS_FULL = "llms.txt", "llms-full.txt"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_BLANK_RUNS = re.compile(r"\n{3,}")
_LINE_ENDS = re.compile("\r\n|[\r\n]")


def cell(text: Any) -> str:
    """Text that stays inside one Markdown table cell, holding no HTML but its line breaks."""
    value = str(text).strip()
    if not value:
        return "—"
    escaped = value.replace("\\", "\\\\").replace("|", "\\|")
    return "<br>".join(inline(line) for line in _LINE_ENDS.split(escaped))


def code(text: Any) -> str:
    """Text as a code span inside one table cell. GFM splits a row at every unescaped `|`,
    code spans included, and takes `\\|` back as `|` before it reads the span; a backtick
    inside needs a longer fence (and a space when it starts or ends the text)."""
    value = str(text)
    return code_span(value.replace("|", "\\|")) if value else "—"


def first_sentence(text: Any) -> str:
    """The description's first sentence, on one line: what an index line can hold. A stop
    inside a code span or a link's text, or after "e.g."/"i.e.", ends no sentence."""
    flat = " ".join(str(text).split())
    for end in _SENTENCE_END.finditer(flat):
        head = flat[: end.start()]
        inside = head.count("`") % 2 or head.count("[") > head.count("]")
        if not inside and not head.lower().endswith(("e.g.", "i.e.")):
            return inline(head)
    return inline(flat)


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates") / "docs")),
        auto_reload=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters.update(
        cell=cell, code=code, first_sentence=first_sentence, block=block, plain=plain
    )
    return env


def _tidy(text: str) -> str:
    """No trailing spaces, one blank line at most between blocks, one final newline."""
    lines = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_RUNS.sub("\n\n", lines).strip("\n") + "\n"


def _render(template: str, **values: Any) -> str:
    return _tidy(_environment().get_template(template).render(**values))


def title_of(servers: tuple[ServerDoc, ...]) -> str:
    return ", ".join(s.name for s in servers) + ": MCP tool reference"


def summary_of(servers: tuple[ServerDoc, ...]) -> str:
    tools = sum(len(s.tools) for s in servers)
    proxied = sum(1 for s in servers for t in s.tools if t.proxied)
    if proxied and proxied == tools:  # a gateway of proxied tools only: no envelope anywhere
        return (
            f"{tools} tool(s) on {len(servers)} MCP server(s), all proxied: each answers with "
            "its origin server's result unchanged (no envelope), its fields at the root of "
            "`structuredContent`, a failure as `isError: true` with a text block."
        )
    every = (
        "Every answer" if not proxied else f"Every answer but those of {proxied} proxied tool(s)"
    )
    tail = (
        ""
        if not proxied
        else " A proxied tool answers with its origin server's result unchanged (no envelope): "
        "its fields at the root of `structuredContent`, a failure as `isError: true`."
    )
    return (
        f"{tools} tool(s) on {len(servers)} MCP server(s). {every} is one envelope, "
        '`{"ok", "data" | "error", "meta"}`: a tool\'s result fields are read under `data`, '
        f"a failure's code under `error.code`.{tail}"
    )


def reference_files(servers: tuple[ServerDoc, ...]) -> dict[str, bytes]:
    """{file name: bytes} of the whole reference."""
    pages = {s.name: _render("server.md.j2", server=s, level=1) for s in servers}
    head = {"title": title_of(servers), "summary": summary_of(servers)}
    proxied = any(t.proxied for s in servers for t in s.tools)
    index = _render("llms.txt.j2", servers=servers, proxied=proxied, **head)
    full_pages = [_render("server.md.j2", server=s, level=2) for s in servers]
    full = _tidy("\n\n".join([f"# {head['title']}\n\n> {head['summary']}", *full_pages]))
    files = {f"{name}.md": page.encode() for name, page in pages.items()}
    files[LLMS] = index.encode()
    files[LLMS_FULL] = full.encode()
    return dict(sorted(files.items()))
