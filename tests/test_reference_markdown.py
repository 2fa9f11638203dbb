"""The reference docs keep their shape whatever a config's text holds (a review's findings):
rendered as CommonMark (markdown-it, tables on, raw HTML on as MkDocs and VitePress have it),
a hostile description, title, argument text or pattern of tool `aaa` can neither hide tool
`zzz`, add a heading, redirect a link, nor put live HTML in the page; a description's own
Markdown (code spans, a closed code block) still renders as written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_toolc
from markdown_it import MarkdownIt

MD = MarkdownIt("commonmark", {"html": True}).enable("table")


def _tool(name: str, description: str, title: str = "A tool", extra: str = "") -> str:
    return (
        f"  {name}:\n    version: 1.0.0\n    title: {json.dumps(title)}\n"
        f"    description: {json.dumps(description)}\n    mcp_server: srv\n"
        f"    tool_type: query\n{extra}"
    )


def _docs(tmp: Path, aaa: str) -> dict[str, str]:
    zzz = _tool("zzz", "See [docs].\n\n[docs]: https://good.example/")
    (tmp / "tools.yaml").write_text("tools:\n" + aaa + zzz, encoding="utf-8")
    done = run_toolc("docs", str(tmp), "--docs-out", str(tmp / "docs"))
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_text(encoding="utf-8") for p in (tmp / "docs").iterdir()}


def _intact(page: str, h1: int = 1) -> list[Any]:
    """The page's tokens, once its structure is checked: one H1, both tools' sections and
    anchors, no HTML but toolc's own anchors, no link leaving for evil.example."""
    tokens = MD.parse(page)
    html = MD.render(page)
    assert [t.tag for t in tokens if t.type == "heading_open"].count("h1") == h1, html
    for name in ("aaa", "zzz"):
        assert f'<a id="tool.{name}"></a>' in html, html
        assert f"<code>{name}</code>:" in html, html  # its heading, not swallowed
    assert "<img" not in html and "<script" not in html and "<!--" not in html, html
    assert "evil.example" not in "".join(
        str(t.attrs.get("href", "")) for tok in tokens for t in tok.children or ()
    )
    return tokens


HOSTILE = {
    "comment": "First.\n<!-- x",
    "script": "First.\n<script>alert(1)</script>",
    "pre": "First.\n<pre>",
    "unclosed backtick fence": "First.\n```\n<img src=x onerror=alert(1)>",
    "unclosed tilde fence": "First.\n~~~",
    "indented fence": "First.\n - a\n\n   ```\n<img src=x>",
    "atx heading": "First.\n# Injected",
    "setext heading": "First.\n===",
    "link definition": "Innocent.\n\n[docs]: https://evil.example/",
    "link definition over lines": "Innocent.\n\n[docs\n]: https://evil.example/",
    "quoted link definition over lines": "> [docs\n> ]: https://evil.example/",
    "escaped bracket in a label": "[do\\]cs]: https://evil.example/\n\nSee [do\\]cs].",
    "crlf and html": "First.\r\n<img src=x onerror=alert(1)>\r# H",
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_description_ends_where_it_ends(tmp_path: Path, case: str) -> None:
    files = _docs(tmp_path, _tool("aaa", HOSTILE[case]))
    _intact(files["srv.md"])
    _intact(files["llms-full.txt"])
    assert "<img" not in MD.render(files["llms.txt"])


@pytest.mark.parametrize(
    "title", ["a]b\\", "x\n# H", "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))"]
)
def test_a_title_is_plain_text(tmp_path: Path, title: str) -> None:
    files = _docs(tmp_path, _tool("aaa", "First.", title=title))
    _intact(files["srv.md"])
    index = MD.parse(files["llms.txt"])
    links = [t.attrs["href"] for tok in index for t in tok.children or () if t.type == "link_open"]
    assert links == ["srv.md#tool.aaa", "srv.md#tool.zzz"], links  # one link per tool, each its own
    assert [t.tag for t in index if t.type == "heading_open"].count("h1") == 1


def test_table_cells_hold_their_text_and_no_html(tmp_path: Path) -> None:
    args = (
        "    args_schema:\n"
        '      a: {type: string, description: "a\\r\\nb <img src=x onerror=1>"}\n'
        '      b: {enum: ["<b>x</b>", "y|z"]}\n'
        "    args_keywords:\n"
        '      propertyNames: {pattern: "`<img src=x onerror=alert(1)>"}\n'
    )
    page = _docs(tmp_path, _tool("aaa", "First.", extra=args))["srv.md"]
    tokens = _intact(page)
    tables: list[list[int]] = []  # each table's cells per row
    for token in tokens:
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            tables[-1].append(0)
        elif token.type in ("td_open", "th_open"):
            tables[-1][-1] += 1
    assert tables and all(len(set(rows)) == 1 for rows in tables), tables
    assert "a<br>b" in MD.render(page)


def test_a_description_s_own_markdown_still_renders(tmp_path: Path) -> None:
    description = 'Use `List<str>` or:\n\n```json\n{"a": "<b>"}\n```\n\nDone.'
    html = MD.render(_docs(tmp_path, _tool("aaa", description))["srv.md"])
    assert '<pre><code class="language-json">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}' in html
    assert "<code>List\\&lt;str&gt;</code>" in html  # a `<` that may open a tag: escaped
    assert "<p>Done.</p>" in html


PIECES = [
    "\n", "\r\n", "\r", " ", "   ", "    ", "a", "`", "``", "```", "~~~", "<", ">", "<img src=x>",
    "<!--", "-->", "<?", "<![CDATA[", "</div>", "<pre>", "#", "# ", "=", "===", "---", "-", "*",
    "[d]: http://evil.example/", "[", "]", ":", "\\", "|", "&", "&lt;", "> ", "1. ", "\t", "é",
    "<http://evil.example>", "[docs", "docs]", "]: https://evil.example/", "\\]", "[docs]: x",
]  # fmt: skip


def test_no_description_reaches_past_itself() -> None:
    """Random descriptions, titles and cells made of every piece of syntax: the section
    after stays a section (its heading, its anchor), no heading is added, no HTML appears
    but that anchor and a cell's line breaks, no link leaves the page, a row keeps its
    cells."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from toolc.reference.markdown import block, plain
    from toolc.reference.render import cell

    texts = st.lists(st.sampled_from(PIECES), max_size=25)

    @settings(max_examples=500, deadline=None, derandomize=True)
    @given(texts, texts, texts)
    def check(description: list[str], title: list[str], argument: list[str]) -> None:
        page = (
            f"## `aaa`: {plain(''.join(title))}\n\n{block(''.join(description))}\n\n"
            f"| a | b |\n| --- | --- |\n| `x` | {cell(''.join(argument))} |\n\n"
            '<a id="zzz"></a>\n\n## `zzz`: Z\n\nSee [docs].\n\n[docs]: https://good.example/\n'
        )
        tokens = MD.parse(page)
        children = [c for t in tokens for c in t.children or ()]
        headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
        assert len(headings) == 2 and headings[0].startswith("`aaa`:"), page
        assert headings[1] == "`zzz`: Z", page
        html = [t.content for t in tokens if t.type == "html_block"]
        html += [c.content for c in children if c.type == "html_inline"]
        assert "".join(html).replace("<br>", "").strip() == '<a id="zzz"></a>', (page, html)
        hrefs = [c.attrs.get("href") for c in children if c.type == "link_open"]
        assert set(hrefs) == {"https://good.example/"}, (page, hrefs)  # none leaves
        assert sum(t.type in ("td_open", "th_open") for t in tokens) == 4, page

    check()


@pytest.mark.parametrize(
    ("description", "first"),
    [
        ("Use `a. b` first. Then more.", "Use `a. b` first."),
        (
            "Call [the e.g. docs](https://x.example/). Next.",
            "Call [the e.g. docs](https://x.example/).",
        ),
        ("Does it, e.g. this. More.", "Does it, e.g. this."),
        ("One. Two.", "One."),
    ],
)
def test_the_index_line_cuts_at_a_sentence_s_end(description: str, first: str) -> None:
    from toolc.reference.render import first_sentence

    assert first_sentence(description) == first
