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
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"


def no_surrogates(text: str) -> str:
    """`text` with each lone surrogate as U+FFFD: valid UTF-8 for a file or a pipe."""
    return text if text.isascii() else _SURROGATE.sub(REPLACEMENT, text)


def for_terminal(text: str) -> str:
    """`text` shown, never obeyed: controls as U+FFFD, and a line break indented, so that
    no line of a message can pass for a diagnostic of its own."""
    shown = CONTROL.sub(REPLACEMENT, no_surrogates(text))
    return shown.replace("\n", "\n    ")


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
