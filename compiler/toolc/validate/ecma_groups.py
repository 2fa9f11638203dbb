"""Groups of an ECMA-262 `u`-mode pattern: capture counting, group names and the references to
them, which the `u` flag makes strict (`\\2` with one group, or `\\k<x>` with no group `x`, is a
SyntaxError, not a literal as in older JavaScript)."""

from __future__ import annotations

import re

from toolc.validate.ecma_chars import Problem, invalid, unicode_escape

_MODIFIERS = re.compile(r"\(\?([ims]*)(?:-([ims]*))?:")
_ZWNJ_ZWJ = "\u200c\u200d"


def _name_start(c: str) -> bool:
    # ID_Start, approximated by Python's XID_Start (they differ in a handful of characters).
    return c in "$_" or c.isidentifier()


def _name_part(c: str) -> bool:
    return c in "$" + _ZWNJ_ZWJ or ("a" + c).isidentifier()


class GroupNames:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.count = 0
        self.names: dict[str, int] = {}
        self.refs: list[tuple[int, int, int | str]] = []  # (offset, length, number or name)

    def define(self, offset: int, name: str | None) -> None:
        self.count += 1
        if name is None:
            return
        if name in self.names:
            # ES2025 allows a name again in another alternative; earlier engines never do.
            raise invalid(
                offset,
                len(name) + 2,
                f"the group name '{name}' is used twice",
                "rename one; a name means nothing to validation, so (?:...) does as well",
            )
        self.names[name] = offset

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
                    raise invalid(i, 2, "only \\u escapes may appear in a group name", "")
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
