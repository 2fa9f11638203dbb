from __future__ import annotations

import pytest
from toolc.validate.patterns import compile_error, portability_problems

PORTABLE = [
    r"^[0-9]+$",
    r"^P-[0-9]{3,}$",
    r"^(a|b)+$",
    r"^(?:ab)*$",
    r"[\-\]]",
    r"^x$",
    r"^[A-Za-z_][A-Za-z0-9_]*$",
    r"a\.b",
    r"\(\)",
    r"^[^,]*$",
    r"\\d",
]
NOT_PORTABLE = {
    r"^\d+$": "'\\d'",
    r"\w": "'\\w'",
    r"\s": "'\\s'",
    r"\bword\b": "word boundary",
    r"(a)\1": "backreferences",
    r"(?P<x>a)(?P=x)": "named groups",
    r"(?=a)b": "lookaround",
    r"(?<!a)b": "lookaround",
    r"(?i)abc": "inline flags",
    r"a++": "possessive",
    r"(?>a)": "atomic",
    r"\Aabc\Z": "anchor",
    r"a{,3}": "quantifier",
    r"a{": "quantifier",
    r"\0101": "octal",
    r"[a&&b]": "set operations",
    r"[[a]]": "nested classes",
    r"[]a]": "first in a class",
    r"(?#note)a": "comments",
}


@pytest.mark.parametrize("pattern", PORTABLE)
def test_portable(pattern: str) -> None:
    assert compile_error(pattern) is None
    assert portability_problems(pattern) == ()


@pytest.mark.parametrize(("pattern", "phrase"), NOT_PORTABLE.items())
def test_not_portable(pattern: str, phrase: str) -> None:
    problems = portability_problems(pattern)
    assert problems and phrase in problems[0].message + problems[0].hint


def test_escaped_specials_inside_classes_are_not_flagged() -> None:
    assert portability_problems(r"[(?=]") == ()
    assert portability_problems(r"\(?=") == ()


@pytest.mark.parametrize("pattern", ["[a-", "(", "a{2,1}", r"\p{L}"])
def test_compile_errors_come_from_the_reference_engine(pattern: str) -> None:
    assert compile_error(pattern) is not None
