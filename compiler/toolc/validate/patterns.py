"""Patterns must read alike in every engine that will see the published schema: Python's `re`
(the reference validator, `jsonschema`), ECMAScript (clients and agents in JS) and Rust's regex
(jsonschema-rs). This scanner finds the syntax whose meaning differs between them."""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass

_QUANTIFIER = re.compile(r"\{[0-9]+(,[0-9]*)?\}")


@dataclass(frozen=True, slots=True)
class PatternProblem:
    offset: int
    message: str
    hint: str


_CLASS_HINTS = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[A-Za-z0-9_]",
    "W": "[^A-Za-z0-9_]",
    "s": "[ \\t\\n\\r\\f\\v]",
    "S": "[^ \\t\\n\\r\\f\\v]",
}


def _escape(p: str, i: int) -> PatternProblem | None:
    nxt = p[i + 1 : i + 2]
    if nxt in _CLASS_HINTS:
        return PatternProblem(
            i,
            f"'\\{nxt}' matches different characters in Unicode and non-Unicode engines",
            f"write {_CLASS_HINTS[nxt]} instead",
        )
    if nxt in ("b", "B"):
        return PatternProblem(
            i,
            f"'\\{nxt}' (word boundary) depends on the engine's idea of a word character",
            "anchor with ^ and $ or use explicit classes",
        )
    if (nxt.isdigit() and nxt != "0") or nxt == "k":
        return PatternProblem(i, "backreferences are not portable", "rewrite without them")
    if nxt == "0" and p[i + 2 : i + 3].isdigit():
        return PatternProblem(i, "octal escapes are not portable", "write \\xHH instead")
    if nxt in ("A", "Z", "z", "G"):
        return PatternProblem(i, f"'\\{nxt}' is not an ECMAScript anchor", "use ^ and $")
    return None


def _group(p: str, i: int) -> PatternProblem | None:
    rest = p[i + 2 :]
    if rest.startswith(":"):
        return None
    if rest[:1] in ("=", "!") or rest.startswith(("<=", "<!")):
        return PatternProblem(
            i,
            "lookaround assertions are not portable",
            "rewrite the pattern without (?=, (?!, (?<= or (?<!",
        )
    if rest.startswith(("P<", "<")):
        return PatternProblem(
            i,
            "named groups are written differently in every engine",
            "use a plain group ( ... ) or (?: ... )",
        )
    if rest.startswith(">"):
        return PatternProblem(i, "atomic groups are not portable", "use (?: ... )")
    if rest.startswith("#"):
        return PatternProblem(i, "inline comments are not portable", "remove the comment")
    if rest.startswith("("):
        return PatternProblem(i, "conditional groups are not portable", "rewrite without them")
    return PatternProblem(
        i,
        "inline flags such as (?i) are not portable",
        "spell the cases out, e.g. [Aa] instead of (?i)a",
    )


@functools.lru_cache(maxsize=4096)  # checks ask twice per pattern, and configs repeat patterns
def portability_problems(p: str) -> tuple[PatternProblem, ...]:
    problems: list[PatternProblem] = []
    i, in_class = 0, False
    while i < len(p):
        c = p[i]
        if c == "\\":
            found = _escape(p, i)
            if found is not None:
                problems.append(found)
            i += 2
            continue
        if in_class:
            if c == "[" or p[i : i + 2] in ("--", "&&", "~~", "||"):
                problems.append(
                    PatternProblem(
                        i,
                        "nested classes and class set operations are read differently by engines",
                        "escape the character inside the class, e.g. \\[ or \\-",
                    )
                )
                i += 2 if c != "[" else 1
                continue
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += 1
            if p[i : i + 1] == "^":
                i += 1
            if p[i : i + 1] == "]":
                problems.append(
                    PatternProblem(
                        i,
                        "']' first in a class is literal in Python but "
                        "closes an empty class in ECMAScript",
                        "escape it as \\]",
                    )
                )
                i += 1
            continue
        elif c == "(" and p[i + 1 : i + 2] == "?":
            found = _group(p, i)
            if found is not None:
                problems.append(found)
        elif c in "*+?}" and p[i + 1 : i + 2] == "+":
            problems.append(
                PatternProblem(
                    i + 1, "possessive quantifiers are not portable", "drop the extra '+'"
                )
            )
        elif c == "{" and not _QUANTIFIER.match(p, i):
            problems.append(
                PatternProblem(
                    i,
                    "a '{' that does not start a {n}, {n,} or {n,m} quantifier is literal in "
                    "some engines and an error in others",
                    "escape it as \\{ (or write {0,n} for at most n)",
                )
            )
        i += 1
    return tuple(problems)


@functools.lru_cache(maxsize=4096)
def compile_error(p: str) -> str | None:
    """The reference validator's verdict: None if Python's `re` compiles the pattern."""
    try:
        with warnings.catch_warnings():
            # Python warns of syntax whose meaning will change (nested sets); the portability
            # scan reports it as a diagnostic instead of letting the warning reach stderr.
            warnings.simplefilter("ignore")
            re.compile(p)
    except re.error as exc:
        where = f" at position {exc.pos}" if exc.pos is not None else ""
        return f"{exc.msg}{where}"
    return None
