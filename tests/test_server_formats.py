"""The generated server's `format` checks (toolc/runtime/server_formats*.py) give the
verdict of the official TypeScript SDK client's ajv (ajv-formats, full mode) on every
value: a fixed corpus and hypothesis-generated strings, each batch put to the SDK's own
AjvJsonSchemaValidator in one node run (tests/node/formats.mjs)."""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from format_corpus import CORPUS, NUMBERS, OTHER_TYPES, SEEDS, UNKNOWN_NAMES, variants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from node_support import node_modules, run_node
from toolc.runtime.server_formats import APPLIES_TO, FORMATS, format_ok
from toolc.runtime.server_formats_js import JS_REGEXES, js_regex
from toolc.runtime.server_formats_names import _id_part, _id_start


def _agree(cases: list[tuple[str, Any]]) -> list[bool]:
    """ajv's verdicts on `cases`, asserting toolc's are the same for each."""
    verdicts: list[bool] = run_node("formats.mjs", {"cases": cases})
    assert len(verdicts) == len(cases)
    wrong = [
        f"  format {name!r}, value {value!r:.200}: ajv {ajv}, toolc {not ajv}"
        for (name, value), ajv in zip(cases, verdicts, strict=True)
        if format_ok(name, value) != ajv
    ]
    assert not wrong, f"{len(wrong)} of {len(cases)} verdicts differ:\n" + "\n".join(wrong[:40])
    return verdicts


def _both_ways(cases: list[tuple[str, Any]], verdicts: list[bool], names: Any) -> None:
    """Each format in `names` saw a value ajv accepts and one it refuses."""
    for name in names:
        seen = {v for (n, _), v in zip(cases, verdicts, strict=True) if n == name}
        assert seen == {True, False}, f"format {name!r} was only probed with {seen}"


def test_the_formats_are_ajv_formats_full_mode() -> None:
    """Same names in the same order, the same JSON type each, and ajv-formats' own
    regular expressions, character for character."""
    described = run_node("formats.mjs", {"describe": True})
    assert list(FORMATS) == described["formatNames"]
    assert dict(APPLIES_TO) == described["types"]
    for name, (source, flags) in described["regexes"].items():
        assert JS_REGEXES[name] == (source, flags), name
    # the module-level regexes of formats.js, which its functions use
    text = (node_modules() / "ajv-formats" / "dist" / "formats.js").read_text()
    consts = re.findall(r"^const (\w+) = /(.*)/([a-z]*);$", text, re.MULTILINE)
    assert {name for name, _, _ in consts} == set(JS_REGEXES) - set(described["regexes"])
    for name, source, flags in consts:
        assert JS_REGEXES[name] == (source, flags), name


@pytest.mark.parametrize(
    ("source", "flags", "matches", "misses"),
    [
        ("^a$", "", ["a"], ["a\n"]),  # Python's `$` also matches before a final newline
        ("^.$", "", ["a", "\x85"], ["\n", "\r", "\u2028", "\u2029"]),
        ("^\\s$", "", [" ", "\ufeff", "\u3000", "\xa0"], ["\x1c", "\x85", "\u200b"]),
        ("^\\d$", "u", ["7"], ["٣"]),
        ("^[a-z]$", "i", ["A"], ["ſ", "\u212a"]),  # no `u`: ASCII case folding only
        ("^s$", "iu", ["S", "ſ"], ["t"]),  # with `u`: Unicode simple case folding
        ("^a$", "m", ["a", "b\na", "a\u2028b", "b\ra\rc"], ["ab", "\u0085a"]),
    ],
)
def test_ecmascript_sources_keep_their_meaning(
    source: str, flags: str, matches: list[str], misses: list[str]
) -> None:
    pattern = js_regex(source, flags)
    assert [s for s in matches if not pattern.search(s)] == []
    assert [s for s in misses if pattern.search(s)] == []


def test_the_corpus_gets_ajvs_verdicts() -> None:
    cases: list[tuple[str, Any]] = []
    for name, values in CORPUS.items():
        for value in values:
            cases += [(name, value), *((name, v) for v in variants(value) if v)]
    cases += [(name, value) for name in FORMATS for value in NUMBERS + OTHER_TYPES]
    cases += [(name, "x") for name in UNKNOWN_NAMES] + [("nope", v) for v in OTHER_TYPES]
    verdicts = _agree(cases)
    _both_ways(
        cases, verdicts, [n for n, t in APPLIES_TO.items() if t and n not in ("float", "double")]
    )
    assert all(v for (n, _), v in zip(cases, verdicts, strict=True) if n in ("float", "double"))


def _drawn(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """About `count` distinct values hypothesis generates from `strategy`
    (derandomized), to check in one batch: node starts too slowly for one run per
    example, and hypothesis is much faster per value drawing lists."""
    out: list[Any] = []

    @settings(
        max_examples=count // 25,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(strategy, min_size=25, max_size=25, unique=True))
    def collect(values: list[Any]) -> None:
        out.extend(values)

    collect()
    return list(dict.fromkeys(out))


# Characters that matter to some format, and the troublemakers of every one.
_SYNTAX = "0123456789abcdefxyzAFTZtz-:+./?#[]@!$&'()*+,;=%~_{}|^\\<>\"` PWYMDHS"
_ODD = "\n\r\t\x00\x0b\x1c\x85\xa0\u2028\u3000\ufeffſKéü😀\ud800"


_EDITS = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 400), st.sampled_from(_SYNTAX + _ODD)),
    min_size=1,
    max_size=3,
)


def _edited(seed_and_edits: tuple[str, list[tuple[int, int, str]]]) -> str:
    """A seed with a few characters inserted (0), replaced (1) or deleted (2)."""
    text, edits = seed_and_edits
    for op, at, char in edits:
        at %= len(text) + 1
        text = text[:at] + char * (op != 2) + text[at + (op != 0) :]
    return text


def _strings(name: str) -> st.SearchStrategy[str]:
    alphabet = st.sampled_from(_SYNTAX + _ODD) | st.characters(codec="utf-8")
    mutated = st.tuples(st.sampled_from(SEEDS[name]), _EDITS).map(_edited)
    return st.text(alphabet, max_size=40) | mutated


def test_generated_strings_get_ajvs_verdicts() -> None:
    strings = [n for n in FORMATS if APPLIES_TO[n] == "string"]
    cases = [(name, v) for name in strings for v in _drawn(_strings(name), 1000)]
    _both_ways(cases, _agree(cases), strings)


_PATTERN = st.text(st.sampled_from("()[]{}|^$*+?.-,:=!<>\\abkcdpux0189_é😀"), max_size=16)


def test_generated_regexes_get_ajvs_verdicts() -> None:
    cases = [("regex", v) for v in _drawn(_PATTERN, 5000)]
    _both_ways(cases, _agree(cases), ["regex"])


def test_generated_numbers_get_ajvs_verdicts() -> None:
    near = st.sampled_from([2**31, 2**53, 2**63, 2**1024]).flatmap(
        lambda b: st.integers(-b - 2, -b + 2) | st.integers(b - 2, b + 2)
    )
    numbers = st.integers() | near | st.floats(allow_nan=False, allow_infinity=False)
    values = _drawn(numbers, 2000)
    cases = [(name, v) for name in ("int32", "int64", "float", "double") for v in values]
    _both_ways(cases, _agree(cases), ["int32", "int64"])


def _code_points(ranges: list[list[int]]) -> Iterator[int]:
    for low, high in ranges:
        yield from range(low, high + 1)


def test_group_names_differ_only_on_letters_python_does_not_know() -> None:
    """A regex group name may hold ID_Start/ID_Continue letters, by the client's ICU
    tables. toolc's differ on exactly the code points Python's Unicode database leaves
    unassigned (newer letters), and only by refusing them: never a false accept."""
    tables = run_node("formats.mjs", {"identifierRanges": True})
    for key, first in (("start", True), ("continue", False)):
        engine = set(_code_points(tables[key])) | {ord("$"), ord("_")}
        if not first:
            engine |= {0x200C, 0x200D}  # ECMAScript adds ZWNJ and ZWJ to ID_Continue
        letter = _id_start if first else _id_part
        toolc = set(filter(letter, range(0x110000)))
        assert toolc <= engine, [hex(c) for c in sorted(toolc - engine)[:20]]
        known = [c for c in engine - toolc if unicodedata.category(chr(c)) != "Cn"]
        assert not known, [hex(c) for c in known[:20]]


def test_a_long_url_is_checked_in_linear_time() -> None:
    """ajv-formats' `url` regex as written backtracks quadratically in Python's engine
    on a userinfo-like run of `a:` (9 s at 40 kB); the same-language rewrite does not."""
    start = time.perf_counter()
    assert not format_ok("url", "http://" + "a:" * 20_000)
    assert format_ok("url", "http://" + "a:" * 20_000 + "@example.com")
    assert time.perf_counter() - start < 1.0
