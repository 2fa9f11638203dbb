"""Patterns and strings for the differential test of tests/test_ecma_patterns.py: a hand-made
corpus of every construct the translator knows (and of what JavaScript refuses), and a grammar of
the translatable subset for hypothesis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent

CONSTRUCTS = r"""
^P-[0-9]+$ ^[0-9]+$ ^a$ ^$ $ ^ a|b a| |a a||b (|a)+ (?:) () ()* (?:a|) x{2}{3}
. ^.$ ^..$ .+ [^]* ^[^]$ [] a[]? [^] ^[^]+$
\d \D \w \W \s \S ^\d+$ ^\D$ ^\W$ ^\S$ ^\s$ [\d-] [-\d] [\W\d] [^\s] [\S\s] [^\D] [\w.-]+
\b \B ^\B$ x\b \bx\B \b\B a\b\b é\b \Bé\B ^\b
\u0041 \u00e9 \u{1F600}+ ^\u{1F600}$ \u{0000000041} \uD83D\uDE00 ^\uD83D\uDE00$ \x41 \x4a
\cJ \cj \ca \0 \/ / [/] \. \* \+ \? \( \) \[ \] \{ \} \| \^ \$ \\ \f\n\r\t\v
[\b] [\cJ] [\0] [\x41-\x5a] [\u{1F600}-\u{1F64F}] ^[\x00-\x7F]*$ [\u2028\u2029] \u2028
[a-z] ^[a-z]+$ [^a-z] [-a] [a-] [--a] [a-c-e] [a&&b] [a~~b] [a--b] [#] [~] [&] # ~ & [\-]
[\^a] [a^] [\]] [[] [(] [)] [.] [*] [$] [|] [{] [}] [?]
a* a+ a? a*? a+? a?? a{2} a{2}? a{0} a{1,} a{1,}? a{2,3} a{2,3}? a{0,0} a{02} x*?y
(a)* (a|b){2,} (?:ab)+ (?<n>a) (?<$x_1>y) (?<n>a)|(?<m>b) ((a)|b)+c
\p{L} \p{Lu} \P{L} \p{Letter} \p{gc=Lu} \p{General_Category=Letter} [\p{L}\d] [^\p{L}] \P{Lu}+
\p{White_Space} \p{Any} \p{ASCII} \p{Assigned} \p{Alphabetic} \p{Emoji} \p{Hex} [\P{Nd}]
\p{Cs} \P{Cs} [\p{Cs}] [^\p{Cs}] [a\p{Surrogate}] [^a\P{Cs}] \p{CWKCF}
^(a+)+$ (a*)*b (a|a)*c ^(\d+)*$
(?<n>a)\k<n> (a)\1 \1(a) (?=a) (?!a) (?<=a)b (?<!a)b \p{Script=Latin} \p{sc=Grek} \p{scx=Grek}
\uD83D [\uD800-\uDFFF] (?<a>x)|(?<a>y) (?i:a)
{ } ] a{,3} a{ \- a** ^* $+ \b* (?=a)* a{2,1} ) (a [a \ \a \A \z \Z \8 \00 \01 \c1 [\c1] \x4
\u{} \u{110000} \u12 (?<a>x)(?<a>y) (?<1a>y) \k<a> \k (?P<x>a) (?>a) (?#x) (?(1)a) \p{latin}
\p{RGI_Emoji} \p \p{ \p{L \p{sc} \p{gc=L=} [a-\d] [\d-a] [z-a] [\B] [\k] [\1] (?-:a) (?ii:a)
"""

# Strings every pattern is tried on: line terminators alone and at the end, astral and combining
# characters, the empty string, ASCII look-alikes of the word and digit classes.
STRINGS = [
    *("", "a", "b", "x", "ab", "aa", "aaa", "P-100", "P-100\n", "P-", "\nP-100", "123", "12a"),
    *("\n", "\r", "\r\n", "\u2028", "\u2029", "a\n", "a\r", "\na", "a\u2028", "a\nb"),
    *("😀", "😀😀", "a😀", "🙏", "é", "e\u0301", "aéa", "ɑ"),
    *(" ", "\t", "\xa0", "\ufeff", "\u3000", "\u0085", "\u200b", "\x0b", "\x0c", "\b", "\0"),
    *("5", "٣", "A_", "_", "-", "&", "~", "#", "/", "\\", "[", "]", "{", "}", "c", "y", "xy"),
    *("\x1f", "\x7f", "\x80", "\U0010ffff", "Ω", "ǅ", "K", "ſ", "İ", "Σσς"),
]


def example_patterns() -> list[str]:
    """Every `pattern` of the bundled examples."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                if key == "pattern" and isinstance(sub, str):
                    found.append(sub)
                walk(sub)
        elif isinstance(value, list):
            for sub in value:
                walk(sub)

    for tools in sorted((ROOT / "examples").glob("*/tools.yaml")):
        walk(yaml.safe_load(tools.read_text(encoding="utf-8")))
    return found


def corpus() -> list[str]:
    return list(dict.fromkeys([*CONSTRUCTS.split(), *example_patterns()]))


# --- the translatable subset, as a hypothesis grammar ---------------------------------------

_LITERALS = st.sampled_from(
    ["a", "b", "é", "😀", "-", " ", "_", "5", "Σ", "K", *(rf"\{c}" for c in r".*+?()[]{}|^$/\\")]
)
_ESCAPE_TEXT = r"\d \D \w \W \s \S \n \r \t \u2028 \u00e9 \x41 \u{1F600} \cJ \0 \p{L} \P{Lu} \p{Nd}"
_ESCAPES = st.sampled_from([*_ESCAPE_TEXT.split(), r"\p{White_Space}"])
_MEMBER_TEXT = r"a b z é 😀 ^ [ . _ 5 \] \- \b \d \W \s \S \p{Lu} \u{1F600} \n \u2029 a-z 0-9"
_RANGES = ["\u00e0-\u00ff", r"\u{1F600}-\u{1F64F}", r"\x00-\x7f", " -/"]
_CLASS_MEMBERS = st.sampled_from([*_MEMBER_TEXT.split(), *_RANGES])
_CLASSES = st.builds(
    lambda negated, members: "[" + ("^" if negated else "") + "".join(members) + "]",
    st.booleans(),
    st.lists(_CLASS_MEMBERS, max_size=4),
)
_QUANTIFIERS = st.sampled_from(["", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}"])


def _quantified(atom: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda a, q, lazy: a + q + ("?" if q and lazy else ""), atom, _QUANTIFIERS, st.booleans()
    )


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    group = st.builds(
        lambda opener, body: opener + body + ")",
        st.sampled_from(["(", "(?:", "(?<g>"]),
        inner,
    )
    sequence = st.lists(inner, min_size=1, max_size=3).map("".join)
    alternation = st.lists(inner, min_size=2, max_size=3).map("|".join)
    return st.one_of(_quantified(group), sequence, alternation)


_ATOMS = st.one_of(_quantified(st.one_of(_LITERALS, _ESCAPES, st.just("."), _CLASSES)))
_ASSERTIONS = st.sampled_from(["^", "$", r"\b", r"\B"])


def _names_unique(pattern: str) -> str:
    """Named groups numbered apart: one name twice is an error before ES2025."""
    parts = pattern.split("(?<g>")
    return parts[0] + "".join(f"(?<g{n}>{part}" for n, part in enumerate(parts[1:]))


PATTERNS = st.recursive(st.one_of(_ATOMS, _ASSERTIONS), _extend, max_leaves=8).map(_names_unique)


def strings_for(pattern: str) -> st.SearchStrategy[str]:
    """Strings made of the pattern's own characters and the characters that tell engines apart."""
    alphabet = sorted(set(pattern) | set("a é😀_5 \n\r\u2028\u2029\u00a0KΣ"))
    return st.text(alphabet=st.sampled_from(alphabet), max_size=8)
