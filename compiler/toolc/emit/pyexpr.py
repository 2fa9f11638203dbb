"""Python expressions rendered the way black lays them out, so generated code is black-stable
without running black: an expression stays on one line when it fits; a subscript or call that
does not fit is exploded one element per line with a trailing comma (black's "magic trailing
comma" then keeps it so), except single-element subscripts, where a comma would make a tuple."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

LINE_LENGTH = 88  # black's default, pinned: the user's [tool.black] never applies


@dataclass(frozen=True)
class Expr:
    """`head[args]` (subscript) or `head(args)` (call), or a plain name when `args` is None."""

    head: str
    args: tuple[Expr | str, ...] | None = None
    call: bool = False
    exploded: bool = False  # always one element per line (e.g. Field(...) for readability)
    kwargs: tuple[tuple[str, Expr | str], ...] = field(default=())

    def items(self) -> list[str | tuple[str, Expr | str] | Expr]:
        return [*(self.args or ()), *self.kwargs]


def name(text: str) -> Expr:
    return Expr(text)


def sub(head: str, *args: Expr | str) -> Expr:
    return Expr(head, tuple(args))


def call(
    head: str,
    *args: Expr | str,
    kwargs: Sequence[tuple[str, Expr | str]] = (),
    exploded: bool = False,
) -> Expr:
    return Expr(head, tuple(args), call=True, exploded=exploded, kwargs=tuple(kwargs))


def one_line(e: Expr | str) -> str:
    if isinstance(e, str):
        return e
    if e.args is None and not e.call:
        return e.head
    parts = [one_line(a) for a in e.args or ()]
    parts += [f"{k}={one_line(v)}" for k, v in e.kwargs]
    open_, close = ("(", ")") if e.call else ("[", "]")
    return f"{e.head}{open_}{', '.join(parts)}{close}"


def _has_exploded(e: Expr | str) -> bool:
    if isinstance(e, str):
        return False
    if e.exploded and e.items():
        return True
    return any(_has_exploded(v if not isinstance(v, tuple) else v[1]) for v in e.items())


def render(e: Expr | str, indent: int, trailer: str = "", lead: int = 0) -> str:
    """`e` on a line indented `indent` spaces after `lead` other characters, followed by
    `trailer` (a comma, ` = None`, ...), laid out as black lays it out."""
    if isinstance(e, str) or (e.args is None and not e.call):
        return one_line(e) + trailer
    flat = one_line(e)
    if not _has_exploded(e) and indent + lead + len(flat) + len(trailer) <= LINE_LENGTH:
        return flat + trailer
    open_, close = ("(", ")") if e.call else ("[", "]")
    inner = " " * (indent + 4)
    comma = "" if not e.call and len(e.items()) == 1 else ","
    elements: list[str] = []
    for item in e.items():
        if isinstance(item, tuple):
            key, value = item
            elements.append(f"{inner}{key}=" + render(value, indent + 4, comma, lead=len(key) + 1))
        else:
            elements.append(inner + render(item, indent + 4, comma))
    return f"{e.head}{open_}\n" + "\n".join(elements) + f"\n{' ' * indent}{close}{trailer}"
