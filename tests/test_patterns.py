"""What `toolc check` refuses in a pattern, now that a pattern means what ECMA-262 says under the
`u` flag (decision 0024): what JavaScript refuses is invalid, what a linear-time engine cannot
express is unsupported, and what the old portability scan refused only because engines read it
differently (\\d, \\w, \\s, \\b, `$`, `.`) is translated."""

from __future__ import annotations

import pytest
from toolc.validate.ecma_regex import Refused, Translated, translate

# Refused by the old portability scan, translated exactly now.
TRANSLATED = [
    r"^\d+$",
    r"\w",
    r"\s",
    r"\bword\b",
    r"[a&&b]",  # no class set operations without the v flag: four literals
    r"^[0-9]+$",
    r"^P-[0-9]{3,}$",
    r"^(a|b)+$",
    r"^(?:ab)*$",
    r"[\-\]]",
    r"^[A-Za-z_][A-Za-z0-9_]*$",
    r"a\.b",
    r"\(\)",
    r"^[^,]*$",
    r"\\d",
    r"(?<year>[0-9]{4})",
    r"[(?=]",
]
# SyntaxErrors in JavaScript under the u flag: invalid-pattern.
INVALID = {
    r"(?P<x>a)(?P=x)": "unknown group syntax",
    r"(?i)abc": "unknown group syntax",
    r"a++": "nothing to repeat",
    r"(?>a)": "unknown group syntax",
    r"\Aabc\Z": "not an escape",
    r"a{,3}": "lone '{'",
    r"a{": "lone '{'",
    r"\0101": "octal",
    r"[[a]]": "lone ']'",
    r"[]a]": "lone ']'",
    r"(?#note)a": "unknown group syntax",
    r"[a-": "never closed",
    r"(": "never closed",
    r"a{2,1}": "out of order",
    r"\p{L": "\\p must be followed by {name}",
    r"\-": "outside a class",
    r"(a)\2": "refers to group 2",
    r"\k<x>(?<y>a)": "no group is named 'x'",
}
# Valid JavaScript that Rust's linear-time regex cannot express: unsupported-pattern.
UNSUPPORTED = {
    r"(a)\1": "backreferences",
    r"(?<x>a)\k<x>": "backreferences",
    r"(?=a)b": "lookaround",
    r"(?<!a)b": "lookaround",
    r"\p{Script=Greek}": "script properties",
    r"(?i:a)": "ES2025",
    r"\uD800": "lone surrogate",
}


@pytest.mark.parametrize("pattern", TRANSLATED)
def test_translated(pattern: str) -> None:
    assert isinstance(translate(pattern), Translated)


@pytest.mark.parametrize(("pattern", "phrase"), INVALID.items())
def test_invalid(pattern: str, phrase: str) -> None:
    found = translate(pattern)
    assert isinstance(found, Refused) and found.invalid
    assert phrase in found.problems[0].message


@pytest.mark.parametrize(("pattern", "phrase"), UNSUPPORTED.items())
def test_unsupported(pattern: str, phrase: str) -> None:
    found = translate(pattern)
    assert isinstance(found, Refused) and not found.invalid
    assert phrase in found.problems[0].message + found.problems[0].hint


def test_every_untranslatable_construct_is_reported_with_its_place() -> None:
    found = translate(r"(?=a)x(b)\1")
    assert isinstance(found, Refused) and not found.invalid
    assert [(p.offset, p.length) for p in found.problems] == [(0, 5), (9, 2)]


def test_invalid_wins_over_unsupported() -> None:
    # A lookahead before a SyntaxError: JavaScript refuses the whole pattern.
    found = translate(r"(?=a)\q")
    assert isinstance(found, Refused) and found.invalid
    assert found.problems[0].offset == 5


def test_escaped_specials_inside_classes_are_literals() -> None:
    assert translate(r"[(?=]") == Translated(r"[\(\?=]")
    assert isinstance(translate(r"\(?="), Translated)
