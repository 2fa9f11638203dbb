"""What in a description counts as naming a field or an argument (decision 0066). Plain words
never do: only the forms a writer uses to point at a name.

- `data.total`, `data.items[].id`: a path into the envelope's `data` (backticks optional: the
  dotted form is unambiguous).
- `{ items, total }`: a shape, a brace list of bare names, read as the answer's top level.
- "returns `page`", "returns `items` and `total`" (also "retorna", "devolve"): backticked names
  right after the verb, read as fields of `data`.
- "argument `mode`" ("parameter", "argumento", "parâmetro"): backticked names right after the
  noun, read as argument names.
- `any_name`: every backticked identifier, which only the near-miss rule reads (a name close
  to an argument's, known nowhere else, is a typo of it)."""

from __future__ import annotations

import re
from typing import Literal

import msgspec

Form = Literal["data", "shape", "returns", "argument", "backticked"]

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH = rf"{_NAME}(?:\[\])?(?:\.{_NAME}(?:\[\])?)*"
_DATA = re.compile(rf"(?<![\w.$])data((?:\.{_NAME}(?:\[\])?)+)")
_SHAPE = re.compile(rf"\{{\s*({_NAME}(?:\s*,\s*{_NAME})*)\s*(?:,\s*(?:\.\.\.|…)\s*)?\}}")
_TICKED = re.compile(r"`([^`\n]+)`")
_TICKED_RUN = r"`[^`\n]+`(?:\s*(?:,|and|or|e|ou|&)\s*`[^`\n]+`)*"
_RETURNS = re.compile(rf"\b(?:returns?|returning|retorna|devolve)\s+({_TICKED_RUN})", re.I)
_ARGUMENT = re.compile(
    rf"\b(?:arguments?|args?|parameters?|params?|argumentos?|parâmetros?)\s+({_TICKED_RUN})",
    re.I,
)
_IDENT_PATH = re.compile(rf"^{_PATH}$")


class Mention(msgspec.Struct, frozen=True):
    form: Form
    path: tuple[str, ...]  # the name, or a dotted path's parts (`[]` dropped)
    start: int  # where the name is in the text (its first character)
    end: int


def _parts(path: str) -> tuple[str, ...]:
    return tuple(part.removesuffix("[]") for part in path.split("."))


def _ticked_in(text: str, start: int, end: int, form: Form) -> list[Mention]:
    found = []
    for match in _TICKED.finditer(text, start, end):
        inner = match.group(1).strip()
        if _IDENT_PATH.match(inner) and not inner.startswith("data."):
            found.append(Mention(form, _parts(inner), match.start(1), match.end(1)))
    return found


def field_mentions(text: str) -> list[Mention]:
    """The result fields a tool description names, in the order they appear."""
    found = [
        Mention("data", _parts(m.group(1)[1:]), m.start(), m.end()) for m in _DATA.finditer(text)
    ]
    for match in _SHAPE.finditer(text):
        offset = match.start(1)
        for name in re.finditer(_NAME, match.group(1)):
            found.append(
                Mention("shape", (name.group(),), offset + name.start(), offset + name.end())
            )
    for match in _RETURNS.finditer(text):
        found += _ticked_in(text, match.start(1), match.end(1), "returns")
    return sorted(found, key=lambda m: m.start)


def argument_mentions(text: str) -> list[Mention]:
    """The arguments a description names: after "argument"/"parameter", and every backticked
    bare identifier (form `backticked`, for the near-miss rule)."""
    named = []
    for match in _ARGUMENT.finditer(text):
        named += _ticked_in(text, match.start(1), match.end(1), "argument")
    at = {m.start for m in named}
    loose = [
        Mention("backticked", (m.group(1),), m.start(1), m.end(1))
        for m in _TICKED.finditer(text)
        if re.fullmatch(_NAME, m.group(1)) and m.start(1) not in at
    ]
    return sorted([*named, *loose], key=lambda m: m.start)
