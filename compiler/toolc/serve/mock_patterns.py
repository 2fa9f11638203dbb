"""Strings a regular expression matches, for `mock_values`: a parser for the regex
subset toolc allows (literals, classes, escapes, quantifiers, groups, alternation,
anchors) and a deterministic expansion that tries the fewest repetitions first.
Standard library only."""

from __future__ import annotations

import itertools
import re
from typing import Any

_K = 8  # strings kept per regex node
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_PRINTABLE = ALNUM + "-_.~ !#%&,:;<=>@"
_CLASSES = {"d": "0123456789", "w": ALNUM + "_", "s": " \t\n\r\f\v"}
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "0": "\0"}


def parse_pattern(pattern: str) -> Any:
    """The parsed pattern (ValueError or IndexError outside the subset)."""
    return _Regex(pattern).parse()


def expand(node: Any, extra: int) -> list[str]:
    """Up to _K strings a parsed regex matches (a set of characters is a string of its
    members, alternatives a list of sequences of (atom, least, most)), fewest
    repetitions first; `extra` asks every quantifier for that many more."""
    if isinstance(node, str):
        return list(node[:_K]) or [""]
    out: list[str] = []
    for seq in node:
        parts = []
        for atom, least, most in seq:
            strings = expand(atom, extra)
            top = least + extra + 3 if most is None else most
            reps = (
                itertools.product(strings, repeat=c)
                for c in range(min(least + extra, top), top + 1)
            )
            joined = ("".join(r) for r in itertools.chain.from_iterable(reps))
            parts.append(list(dict.fromkeys(itertools.islice(joined, _K))))
        out += ("".join(c) for c in itertools.islice(itertools.product(*parts), _K))
    return list(dict.fromkeys(out))[:_K]


class _Regex:
    """A parser for the regex subset toolc allows: literals, classes, escapes,
    quantifiers, groups, alternation and anchors (which match the empty string here;
    the generated candidates are checked with `re.search` anyway)."""

    def __init__(self, pattern: str) -> None:
        self.p, self.i = pattern, 0

    def parse(self) -> Any:
        tree = self.alt()
        if self.i != len(self.p):
            raise ValueError(f"unexpected {self.p[self.i]!r}")
        return tree

    def take(self, n: int = 1) -> str:
        self.i += n
        return self.p[self.i - n : self.i]

    def alt(self) -> list[Any]:
        seqs = [self.seq()]
        while self.p[self.i : self.i + 1] == "|":
            self.take()
            seqs.append(self.seq())
        return seqs

    def seq(self) -> list[Any]:
        items: list[Any] = []
        most: int | None
        while self.i < len(self.p) and self.p[self.i] not in "|)":
            atom = self.atom()
            m = re.match(r"[?*+]|\{(\d+)(,(\d*))?\}", self.p[self.i :])
            least, most = 1, 1
            if m and m[1] is not None:
                least = int(m[1])
                most = int(m[3]) if m[3] else None if m[2] else least
            elif m:
                least, most = {"?": (0, 1), "*": (0, None), "+": (1, None)}[m[0]]
            if m:
                self.take(m.end())
                if self.p[self.i : self.i + 1] in ("?", "+"):  # lazy, possessive
                    self.take()
            items.append((atom, least, most))
        return items

    def atom(self) -> Any:
        c = self.take()
        if c == "(":
            if self.p.startswith("?", self.i) and self.take(2) != "?:":
                raise ValueError("lookaround and named groups are not supported")
            tree = self.alt()
            if self.take() != ")":
                raise ValueError("unbalanced parenthesis")
            return tree
        if c == "[":
            return self.cls()
        return {"^": "", "$": "", ".": _PRINTABLE}.get(c, self.escape() if c == "\\" else c)

    def escape(self) -> str:
        e = self.take()
        if e.lower() in _CLASSES:
            members = _CLASSES[e.lower()]
            return members if e.islower() else _negate(members)
        digits = r"\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{%s})" % ("2" if e == "x" else "4")
        m = re.match(digits, self.p[self.i :]) if e in "xu" else None
        if m:
            self.take(m.end())
            return chr(int(m[1] or m[2], 16))
        return "" if e in "bB" else _ESCAPES.get(e, e)

    def cls(self) -> str:
        negated = self.p[self.i] == "^"
        self.i += negated
        members, first = "", True
        while first or self.p[self.i] != "]":  # a `]` first is a member, as in `re`
            first = False
            c = self.take()
            low = self.escape() if c == "\\" else c
            if self.p[self.i] == "-" and self.p[self.i + 1] != "]" and len(low) == 1:
                self.take()
                c = self.take()
                high = (self.escape() if c == "\\" else c)[:1] or low
                low = "".join(map(chr, range(ord(low), ord(high) + 1)))
            members += low
        self.take()
        return _negate(members) if negated else members


def _negate(members: str) -> str:
    return "".join(c for c in _PRINTABLE + "\t\n" if c not in members)
