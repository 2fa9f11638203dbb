"""`name: annotation = default` statements and parameters laid out as black (the pinned
version) lays them out when they do not fit one line, so the output is black-stable.

What black does, in the order it tries (checked against black in tests/test_pylines.py, at
every length of name around the line limit): a long name before a subscript hint gets the
hint wrapped in parentheses (or split at its brackets when even `name: (` is too wide), and
the default split in turn; an annotation already exploded (it has magic trailing commas)
stays exploded; otherwise a bracketed default is split at its brackets, an atom default is
wrapped in parentheses (not in parameters); else the annotation is split: a union is wrapped
in parentheses (one member per line if that is still too long), a subscript is exploded, a
name is wrapped in parentheses (a parameter's is left long)."""

from __future__ import annotations

from msgspec.structs import replace

from toolc.emit.pyexpr import LINE_LENGTH, Expr, has_exploded, one_line, render, union_lines
from toolc.emit.pywidth import width


def class_header(name: str, base: str) -> str:
    """`class Name(Base):`, split at its parentheses as black splits it when it is too wide
    (a server's name may be 64 characters long)."""
    line = f"class {name}({base}):"
    return line if width(line) <= LINE_LENGTH else f"class {name}(\n    {base}\n):"


def members(text: str) -> list[str]:
    """The members of a union written out (`A | B[C | D]` → `A`, `B[C | D]`)."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(" | ", at):
            parts.append(text[start:at])
            start = at + 3
    return [*parts, text[start:]]


def _bracketed(e: Expr | str) -> bool:
    return not isinstance(e, str) and (e.args is not None or e.call or bool(e.literal))


Annotation = Expr | list[Expr | str]  # a list: the members of a union


def _flat(annotation: Annotation) -> str:
    if isinstance(annotation, list):
        return " | ".join(one_line(m) for m in annotation)
    return one_line(annotation)


def annotated(
    indent: int,
    field: str,
    annotation: Annotation,
    default: Expr | str | None = None,
    end: str = "",
    parameter: bool = False,
) -> str:
    """`field: annotation = default` + `end` (a parameter's comma), indented `indent`."""
    if isinstance(annotation, list) and len(annotation) == 1 and not isinstance(annotation[0], str):
        annotation = annotation[0]
    pad = " " * indent
    head = f"{pad}{field}: "
    rhs = "" if default is None else f" = {one_line(default)}"
    flat = head + _flat(annotation) + rhs + end
    exploded = not isinstance(annotation, list) and has_exploded(annotation)
    if not exploded and width(flat) <= LINE_LENGTH:
        return flat
    lead = width(field) + 2
    if (
        not parameter
        and isinstance(annotation, Expr)
        and _bracketed(annotation)
        and width(head + _head(annotation)) > LINE_LENGTH  # a long name before the hint
    ):
        # black wraps the hint in parentheses, unless a line would still be too wide
        wrapped = head + _wrapped(annotation, indent) + _after_wrapped(default, indent, exploded)
        if all(width(line) <= LINE_LENGTH for line in wrapped.split("\n")):
            return wrapped
        return head + render(annotation, indent, "", lead=lead) + _after_split(default, indent)
    if exploded and not isinstance(annotation, list):
        return _then_default(head + render(annotation, indent, "", lead=lead), indent, default, end)
    if default is not None and not parameter:
        opening = head + _flat(annotation) + " = "
        if _bracketed(default) and width(opening + _head(default)) <= LINE_LENGTH:
            return opening + render(default, indent, end, lead=width(opening) - indent)
        if width(opening + "(") <= LINE_LENGTH:  # black wraps the value in parentheses
            inner = render(default, indent + 4)
            return f"{opening}(\n{pad}    {inner}\n{pad}){end}"
    rest = width(flat) - width(head + _flat(annotation))
    laid = _annotation(indent, annotation, lead, rest, parameter)
    if not parameter and laid.endswith(")") and not _bracketed_hint(annotation):
        return head + laid + _after_split(default, indent)  # a name or union in parentheses
    return _then_default(head + laid, indent, default, end)


def _head(e: Expr | str) -> str:
    """What comes before the first line break of `e` split at its brackets: `Field(`, `[`."""
    assert not isinstance(e, str)
    return e.head + e.brackets[0]


def _bracketed_hint(annotation: Annotation) -> bool:
    return isinstance(annotation, Expr) and _bracketed(annotation)


def _delimited(text: str) -> bool:
    """A negative number or a dotted name: an atom black can split at an operator."""
    return text.startswith("-") or (text[:1].isalpha() and "." in text)


def _then_default(before: str, indent: int, default: Expr | str | None, end: str) -> str:
    """`before`, then ` = default` on its last line (split at its brackets if need be)."""
    if default is None:
        return before + end
    last = before.rsplit("\n", 1)[-1]
    if (
        not end  # a field, not a parameter
        and "\n" in before
        and not _bracketed(default)
        and _delimited(one_line(default))
        and width(last + " = " + one_line(default)) > LINE_LENGTH
    ):
        # black wraps a value too wide for the hint's closing line in parentheses when it
        # holds a delimiter (a unary minus, an attribute's dot), even when it is still too
        # wide inside them; a plain number, name or string it leaves (probed with black;
        # found by `make fuzz`: a huge negative integer default)
        pad = " " * indent
        return f"{before} = (\n{pad}    {one_line(default)}\n{pad})"
    lead = width(last) - indent + 3
    return before + " = " + render(default, indent, end, lead=lead)


def _annotation(indent: int, annotation: Annotation, lead: int, rest: int, parameter: bool) -> str:
    """The annotation split, as it does not fit with the `rest` of its line after it: a
    union in parentheses, one member per line if need be (each split in turn); a subscript
    split at its brackets; a name in parentheses (a parameter's left long)."""
    pad = " " * indent
    text = _flat(annotation)
    parts: list[Expr | str] = []
    for member in annotation if isinstance(annotation, list) else [annotation]:
        if isinstance(member, Expr) and member.members:  # a union the lowering made
            parts += member.members
            continue
        bare = isinstance(member, str) or (member.args is None and not member.call)
        parts += members(one_line(member)) if bare else [member]
    if len(parts) > 1:
        if width(f"{pad}    {text}") <= LINE_LENGTH:
            return f"(\n{pad}    {text}\n{pad})"
        return f"(\n{pad}    " + union_lines(parts, indent + 4) + f"\n{pad})"
    assert not isinstance(annotation, list)
    if _bracketed(annotation):
        return render(annotation, indent, "", lead=lead, reserve=rest)
    if not parameter and indent + 4 + width(text) <= LINE_LENGTH:
        return _wrapped(annotation, indent)
    return text


def _wrapped(annotation: Expr, indent: int) -> str:
    """The annotation in parentheses, as black writes a type hint whose first line (up to its
    opening bracket, or the whole name) would be too wide."""
    pad = " " * indent
    return f"(\n{pad}    {render(annotation, indent + 4)}\n{pad})"


def _exploded_default(default: Expr, indent: int) -> str:
    """A bracketed default split at its brackets, one element per line (black splits it once
    the hint before it is split; the magic trailing comma keeps it so)."""
    return " = " + render(replace(default, exploded=True), indent, lead=4)


def _after_wrapped(default: Expr | str | None, indent: int, exploded: bool) -> str:
    """` = default` after a subscript hint black wrapped in parentheses: an atom in
    parentheses of its own (on their own lines after an exploded hint)."""
    if default is None:
        return ""
    if isinstance(default, Expr) and _bracketed(default):
        return _exploded_default(default, indent)
    if exploded:
        pad = " " * indent
        return f" = (\n{pad}    {one_line(default)}\n{pad})"
    return f" = ({one_line(default)})"


def _after_split(default: Expr | str | None, indent: int) -> str:
    """` = default` after a hint split at its brackets or a name in parentheses."""
    if default is None:
        return ""
    if isinstance(default, Expr) and _bracketed(default):
        return _exploded_default(default, indent)
    return f" = {one_line(default)}"
