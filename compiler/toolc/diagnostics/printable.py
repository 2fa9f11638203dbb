"""Diagnostics as every output can carry them. A message or a path may hold what a config,
a server's listing or a file name put there: a lone surrogate (bytes of a name that are no
UTF-8, read with surrogateescape), which no UTF-8 output can write; an escape sequence or
a carriage return, which a terminal would obey (clearing a line, forging another). Each
renderer takes the diagnostics through one of the cleanings here."""

from __future__ import annotations

import re
from collections.abc import Callable

from msgspec.structs import replace

from toolc.diagnostics.model import Diagnostic, Note, Span

# C0/C1 controls, and the bidirectional overrides and isolates that reorder what a terminal
# shows (a line that reads otherwise than it parses).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LINE_ENDS = re.compile("\r\n|[\r\n]")
_BACKTICKS = re.compile("`+")
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"


def no_surrogates(text: str) -> str:
    """`text` with each lone surrogate as U+FFFD: valid UTF-8 for a file or a pipe."""
    return text if text.isascii() else _SURROGATE.sub(REPLACEMENT, text)


def for_terminal(text: str) -> str:
    """`text` shown, never obeyed: controls as U+FFFD, and a line break indented, so that
    no line of a message can pass for a diagnostic of its own."""
    shown = CONTROL.sub(REPLACEMENT, no_surrogates(text))
    return shown.replace("\n", "\n    ")


def one_line(text: str) -> str:
    """`text` on one line of Markdown (CommonMark ends a line at a CR too): its line ends
    as spaces, control and bidi characters as U+FFFD."""
    return CONTROL.sub(REPLACEMENT, _LINE_ENDS.sub(" ", no_surrogates(text)))


def code_span(text: str) -> str:
    """`text` as one Markdown code span on one line, fenced by more backticks than it
    holds in a row (and a space inside the fence where it starts or ends with one)."""
    value = one_line(text)
    fence = "`" * (max(map(len, _BACKTICKS.findall(value)), default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def cleaned(d: Diagnostic, clean: Callable[[str], str], paths: bool = True) -> Diagnostic:
    """`d` with its texts (and, if `paths`, its paths) passed through `clean`."""

    def place(span: Span) -> Span:
        return replace(span, path=clean(span.path)) if paths else span

    return replace(
        d,
        span=place(d.span),
        message=clean(d.message),
        hint=clean(d.hint) if d.hint is not None else None,
        notes=tuple(Note(place(n.span), clean(n.message)) for n in d.notes),
    )
