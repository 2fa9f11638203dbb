"""Python expressions rendered the way black lays them out, so generated code is black-stable
without running black: an expression stays on one line when it fits; a subscript or call that
does not fit is exploded one element per line with a trailing comma (black's "magic trailing
comma" then keeps it so), except single-element subscripts, where a comma would make a tuple."""

from __future__ import annotations

import keyword
from collections.abc import Iterator, Sequence

import msgspec
from msgspec import field

from toolc.emit.pywidth import width

LINE_LENGTH = 88  # black's default, pinned: the user's [tool.black] never applies


class Expr(msgspec.Struct, frozen=True, dict=True):
    """`head[args]` (subscript) or `head(args)` (call), or a plain name when `args` is None;
    with `literal` "[]" or "{}", a list or dict literal (`head` empty); with `members`, a
    union written out in `head` (`A | B | None`), its members kept for what reads them."""

    head: str
    args: tuple[Expr | str, ...] | None = None
    call: bool = False
    exploded: bool = False  # always one element per line (e.g. Field(...) for readability)
    kwargs: tuple[tuple[str, Expr | str], ...] = field(default=())
    literal: str = ""
    members: tuple[Expr, ...] = ()

    def items(self) -> list[str | tuple[str, Expr | str] | Expr]:
        return [*(self.args or ()), *self.kwargs]

    @property
    def brackets(self) -> tuple[str, str]:
        pair = self.literal or ("()" if self.call else "[]")
        return pair[0], pair[1]

    @property
    def binds(self) -> str:
        """What joins a kwarg's key to its value."""
        return ": " if self.literal == "{}" else "="


def name(text: str) -> Expr:
    return Expr(text)


def sub(head: str, *args: Expr | str) -> Expr:
    return Expr(head, tuple(args))


def union(*members: Expr) -> Expr:
    """`A | B | ...` as one name (a member that is a union gives its own members)."""
    flat = tuple(m for member in members for m in (member.members or (member,)))
    return Expr(" | ".join(one_line(m) for m in flat), members=flat)


def call(
    head: str,
    *args: Expr | str,
    kwargs: Sequence[tuple[str, Expr | str]] = (),
    exploded: bool = False,
) -> Expr:
    return Expr(head, tuple(args), call=True, exploded=exploded, kwargs=tuple(kwargs))


def literal(
    opening: str, items: Sequence[Expr | str], pairs: Sequence[tuple[str, Expr | str]] = ()
) -> Expr:
    """A list (`"["`), tuple (`"("`) or dict (`"{"`, from `pairs`) literal."""
    brackets = {"[": "[]", "(": "()", "{": "{}"}[opening]
    return Expr("", tuple(items), kwargs=tuple(pairs), literal=brackets)


def one_line(e: Expr | str) -> str:
    if isinstance(e, str):
        return e
    if e.args is None and not e.call:
        return e.head
    parts = [one_line(a) for a in e.args or ()]
    parts += [f"{k}{e.binds}{one_line(v)}" for k, v in e.kwargs]
    open_, close = e.brackets
    return f"{e.head}{open_}{', '.join(parts)}{close}"


def names_in(e: Expr | str | tuple[str, Expr | str]) -> Iterator[str]:
    """The names an expression refers to (for its imports and the order of definitions): the
    heads and atoms of its tree, a union's members. An atom or head is a name, `lambda:
    X...` (a factory naming X) or a literal (a string, a number), which names nothing
    whatever its text says."""
    if isinstance(e, tuple):
        yield from names_in(e[1])
        return
    if isinstance(e, str):
        yield from _atom_names(e)
        return
    for member in e.members:
        yield from names_in(member)
    yield from _atom_names("" if e.members else e.head)
    for item in e.items():
        yield from names_in(item)


def _atom_names(text: str) -> Iterator[str]:
    if not text or text[0] in "\"'":
        return
    ident = text.removeprefix("lambda: ").split(".", 1)[0]
    if ident.isidentifier() and not keyword.iskeyword(ident):
        yield ident


def has_exploded(e: Expr | str) -> bool:
    if isinstance(e, str):
        return False
    if e.exploded and e.items():
        return True
    return any(has_exploded(v if not isinstance(v, tuple) else v[1]) for v in e.items())


def render(e: Expr | str, indent: int, trailer: str = "", lead: int = 0, reserve: int = 0) -> str:
    """`e` on a line indented `indent` spaces after `lead` other characters, followed by
    `trailer` (a comma, ` = None`, ...), laid out as black lays it out (`reserve`: the width
    of what follows the trailer on the same line, counted but not written)."""
    if isinstance(e, str) or (e.args is None and not e.call):
        flat = one_line(e) + trailer
        alone = isinstance(e, Expr) and e.members and lead == 0
        if alone and indent + width(flat) + reserve > LINE_LENGTH:
            # a union alone on its line that does not fit: black splits it at each `|`
            assert isinstance(e, Expr)
            return union_lines(e.members, indent, trailer, reserve)
        return flat
    if not e.items():  # `[]`, `{}`, `f()`: nothing to lay out
        return one_line(e) + trailer
    flat = one_line(e)
    fits = indent + lead + width(flat) + width(trailer) + reserve <= LINE_LENGTH
    if not has_exploded(e) and fits:
        return flat + trailer
    open_, close = e.brackets
    inner = " " * (indent + 4)
    comma = "" if not e.call and not e.literal and len(e.items()) == 1 else ","
    elements: list[str] = []
    for item in e.items():
        if isinstance(item, tuple):
            key, value = item
            joined = f"{key}{e.binds}"
            elements.append(inner + joined + render(value, indent + 4, comma, lead=width(joined)))
        else:
            elements.append(inner + render(item, indent + 4, comma))
    return f"{e.head}{open_}\n" + "\n".join(elements) + f"\n{' ' * indent}{close}{trailer}"


def union_lines(
    members: Sequence[Expr | str], indent: int, trailer: str = "", reserve: int = 0
) -> str:
    """A union's members one per line at `indent` (the first line's indent not written),
    `| ` before all but the first, `trailer` after the last (`reserve`: as for `render`):
    each member too wide for its line is split at its brackets in turn, as black splits
    each operand of a split union."""
    pad = "\n" + " " * indent + "| "
    *before, last = members
    lines = [render(m, indent, lead=2 if i else 0) for i, m in enumerate(before)]
    lines.append(render(last, indent, trailer, lead=2 if before else 0, reserve=reserve))
    return pad.join(lines)
