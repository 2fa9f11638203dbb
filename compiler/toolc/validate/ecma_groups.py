"""Groups of an ECMA-262 `u`-mode pattern: capture counting, group names and the references to
them, which the `u` flag makes strict (`\\2` with one group, or `\\k<x>` with no group `x`, is a
SyntaxError, not a literal as in older JavaScript)."""

from __future__ import annotations

import re

from toolc.validate.ecma_chars import Problem, invalid, unicode_escape

_MODIFIERS = re.compile(r"\(\?([ims]*)(?:-([ims]*))?:")
_ZWNJ_ZWJ = "\u200c\u200d"


Where = tuple[tuple[int, int], ...]  # (disjunction, alternative) from the top down


def _apart(a: Where, b: Where) -> bool:
    """Whether two places are in different alternatives of one disjunction (so the groups
    there can never both take part in a match)."""
    for (da, aa), (db, ab) in zip(a, b, strict=False):
        if da != db:
            return False
        if aa != ab:
            return True
    return False


def _name_start(c: str) -> bool:
    # ID_Start, approximated by Python's XID_Start (they differ in a handful of characters).
    return c in "$_" or c.isidentifier()


def _name_part(c: str) -> bool:
    return c in "$" + _ZWNJ_ZWJ or ("a" + c).isidentifier()


class GroupNames:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.count = 0
        self.names: dict[str, list[Where]] = {}  # name → where each is defined
        self.refs: list[tuple[int, int, int | str]] = []  # (offset, length, number or name)

    def define(
        self, offset: int, name: str | None, where: Where, unsupported: list[Problem]
    ) -> None:
        self.count += 1
        if name is None:
            return
        earlier = self.names.setdefault(name, [])
        if any(not _apart(where, other) for other in earlier):
            raise invalid(
                offset,
                len(name) + 2,
                f"the group name '{name}' is used twice in one alternative",
                "rename one; a name means nothing to validation, so (?:...) does as well",
            )
        if earlier:
            unsupported.append(
                Problem(
                    offset,
                    len(name) + 2,
                    f"the group name '{name}' is used again: ES2025 allows it in another "
                    "alternative, engines before it (Node 20 among them) refuse the pattern",
                    "rename one; a name means nothing to validation, so (?:...) does as well",
                )
            )
        earlier.append(where)

    def refer(self, offset: int, target: int | str, length: int) -> None:
        self.refs.append((offset, length, target))

    def check_references(self, unsupported: list[Problem]) -> None:
        """After the whole pattern is read (references may point forward)."""
        for offset, length, target in self.refs:
            if isinstance(target, int) and target > self.count:
                raise invalid(
                    offset,
                    length,
                    f"\\{target} refers to group {target}, but the pattern has {self.count}",
                    "escape the digits as \\x3N, or add the group",
                )
            if isinstance(target, str) and target not in self.names:
                raise invalid(
                    offset, length, f"no group is named '{target}'", "name a group (?<name>...)"
                )
        for offset, length, _ in self.refs:
            unsupported.append(
                Problem(
                    offset,
                    length,
                    "backreferences cannot be expressed by a linear-time engine",
                    "rewrite the pattern without them, or check the repetition in the handler",
                )
            )

    def modifiers(self, start: int) -> int:
        """The length of a well-formed `(?ims-ims:` at start; anything else after `(?` is a
        SyntaxError."""
        found = _MODIFIERS.match(self.p, start)
        if found is not None:
            on, off = found.group(1), found.group(2) or ""
            if (on or off) and len(set(on + off)) == len(on + off):
                return found.end() - start
        hint = "write (?:...) for a group; (?P<, (?#, (?>, (?( and inline flags do not exist"
        raise invalid(start, 2, "unknown group syntax after '(?'", hint)

    def read_name(self, i: int) -> tuple[str, int]:
        """The GroupName `<name>` at p[i] == '<': the name and the index after '>'."""
        start, p = i, self.p
        i += 1
        chars: list[str] = []
        while i < len(p) and p[i] != ">":
            if p[i] == "\\":
                if p[i + 1 : i + 2] != "u":
                    raise invalid(
                        i, 2, "only \\u escapes may appear in a group name", "write the letter"
                    )
                cp, i = unicode_escape(p, i)
                chars.append(chr(cp))
            else:
                chars.append(p[i])
                i += 1
        name = "".join(chars)
        ok = bool(name) and _name_start(name[0]) and all(_name_part(c) for c in name[1:])
        if i >= len(p) or not ok:
            raise invalid(
                start,
                i + 1 - start,
                "a group name must be an identifier between < and >",
                "write (?<name>...) with letters, digits, $ or _, not starting with a digit",
            )
        return name, i + 1
