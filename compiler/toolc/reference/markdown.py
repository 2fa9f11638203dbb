"""Text from a config in a Markdown page, inert. Descriptions, titles, labels and patterns
come from users and, through `toolc import`, from foreign servers: none may change the
page's structure (a comment or an unclosed code block swallowing the tools after it, a
heading, a link definition redirecting another tool's links) or put live HTML in it.

A description stays Markdown: its code spans, lists, emphasis and code blocks render as
written. What could reach past it is escaped with a backslash, which reads as the character
itself: a `<` that could open a tag, comment or autolink (also inside a code span, where the
backslash then shows: whether a span holds it depends on more context than one description,
and a wrong guess would let HTML through), a heading, a setext underline, a link definition,
and a code fence unless it opens at the margin and a fence of its own closes it (inside such
a block, which CommonMark reads as this code does, nothing is escaped). A title is plain
text."""

from __future__ import annotations

import re

from toolc.diagnostics.printable import CONTROL, REPLACEMENT, no_surrogates

_LINE_ENDS = re.compile("\r\n|\r")
# What can open raw HTML or an autolink, with the backslashes before it
_TAG = re.compile(r"(\\*)<(?=[A-Za-z/!?])")
# What CommonMark reads at the start of a block as a heading: an ATX heading, or a setext
# heading's underline (or a break), after whatever quotes and list items hold it.
_CONTAINERS = r"^((?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*)"
_HEADING = re.compile(_CONTAINERS + r"(#{1,6}(?:[ \t]|$))")
_UNDERLINE = re.compile(_CONTAINERS + r"([=-]+[ \t]*)$")
# A link definition's opening bracket, wherever a container (a quote, a list item) may put
# it at the start of a block: escaped everywhere, as it reads the same in running text. A
# label may hold escaped brackets and run over lines (CommonMark 4.7).
_DEFINITION = re.compile(r"(\\*)\[(?=(?:[^\[\]\\]|\\.)*\]:)", re.DOTALL)
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_PLAIN_SYNTAX = re.compile(r"([\\`\[\]<])")  # what plain text on one line must escape


def _shown(text: str) -> str:
    """Line ends as LF, control and bidi characters as U+FFFD, no lone surrogate."""
    return CONTROL.sub(REPLACEMENT, _LINE_ENDS.sub("\n", no_surrogates(text)))


def _escaped(pattern: re.Pattern[str], char: str, text: str) -> str:
    """Each `char` that `pattern` finds escaped: after an even run of backslashes (which
    escape one another), one more."""
    return pattern.sub(lambda m: m[1] + ("\\" if len(m[1]) % 2 == 0 else "") + char, text)


def no_html(text: str) -> str:
    """Each `<` that could open a tag or an autolink escaped."""
    return _escaped(_TAG, "<", text)


def inline(text: object) -> str:
    """Text on one line of Markdown: its line ends as spaces, no HTML."""
    return no_html(" ".join(_shown(str(text)).split("\n")))


def plain(text: object) -> str:
    """Text shown as it is written (a title in a heading or a link's text): one line, what
    would end a link or open a code span or a tag escaped."""
    return _PLAIN_SYNTAX.sub(r"\\\1", " ".join(_shown(str(text)).split()))


def _closes(line: str, fence: str) -> bool:
    found = _FENCE.match(line)
    return (  # as CommonMark closes it: up to three spaces in, nothing after the fence
        found is not None
        and found.group(2)[0] == fence[0]
        and len(found.group(2)) >= len(fence)
        and not found.group(3).strip()
    )


def _opens(lines: list[str], at: int) -> int | None:
    """Where the code block a fence at the margin opens on line `at` closes; None when
    it is no such fence or nothing closes it."""
    found = _FENCE.match(lines[at])
    if found is None or found.group(1) or (found.group(2)[0] == "`" and "`" in found.group(3)):
        return None
    fence = found.group(2)
    return next((n for n in range(at + 1, len(lines)) if _closes(lines[n], fence)), None)


def block(text: object) -> str:
    """A description as Markdown that ends where it ends and holds no HTML."""
    lines = _shown(str(text)).split("\n")
    out: list[str] = []
    prose: list[str] = []  # the lines since the last code block, escaped as one text

    def flush() -> None:
        if prose:
            out.append(_escaped(_DEFINITION, "[", no_html("\n".join(prose))))
            prose.clear()

    n = 0
    while n < len(lines):
        closing = _opens(lines, n)
        if closing is not None:  # a code block CommonMark reads as this one: literal
            flush()
            out += lines[n : closing + 1]
            n = closing + 1
            continue
        line = _FENCE.sub(r"\1\\\2\3", lines[n])  # a fence nothing closes is text
        for start in (_HEADING, _UNDERLINE):
            line = start.sub(r"\1\\\2", line)
        prose.append(line)
        n += 1
    flush()
    return "\n".join(out)
