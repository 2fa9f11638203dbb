"""A pattern means what `new RegExp(pattern, "u").test(s)` says (decision 0024): the translated
pattern, in pydantic's rust-regex engine, must agree with Node on every string, and every pattern
Node refuses must be refused by `toolc check`. Node is the judge, not Python's `re` (which the
`jsonschema` package uses, and which disagrees: see the last tests)."""

from __future__ import annotations

import re
import time
from typing import Annotated, Any

import jsonschema_rs
import pytest
from ecma_corpus import PATTERNS, STRINGS, corpus, strings_for
from hypothesis import given, settings
from hypothesis import strategies as st
from node_support import run_node
from pydantic import ConfigDict, Field, TypeAdapter, ValidationError
from toolc.validate.ecma_properties import BINARY_PROPERTIES, GENERAL_CATEGORIES
from toolc.validate.ecma_regex import Refused, Translated, model_pattern, translate


def _model(pattern: str) -> TypeAdapter[Any]:
    return TypeAdapter(
        Annotated[str, Field(pattern=model_pattern(pattern))],
        config=ConfigDict(regex_engine="rust-regex"),
    )


def _accepts(adapter: TypeAdapter[Any], s: str) -> bool:
    try:
        adapter.validate_python(s)
    except ValidationError:
        return False
    return True


def _javascript(cases: list[tuple[str, str]]) -> list[bool | None]:
    """ECMA-262's answers, computed in Node. V8's own `test` departs from them in one known
    way only: an assertion (\\B) matching inside a surrogate pair, a position the spec never
    tries; that departure is held to exactly that."""
    found = run_node("regex.mjs", {"cases": cases})
    assert len(found["spec"]) == len(found["test"]) == len(cases)
    for (pattern, s), spec, v8 in zip(cases, found["spec"], found["test"], strict=True):
        if spec != v8:
            assert spec is False and v8 is True, (pattern, s)
            assert "\\B" in pattern and any(ord(c) > 0xFFFF for c in s), (pattern, s)
    return list(found["spec"])


def _disagreements(cases: list[tuple[str, str]]) -> list[str]:
    """Every case where toolc's reading of a pattern differs from Node's, in one Node run. The
    config's value check (jsonschema-rs on the translated pattern) is held to the same answers."""
    answers = _javascript(cases)
    models: dict[str, tuple[TypeAdapter[Any], Any]] = {}
    wrong = []
    for (pattern, s), js in zip(cases, answers, strict=True):
        found = translate(pattern)
        if js is None:
            if isinstance(found, Translated):
                wrong.append(f"{pattern!r}: Node refuses it, toolc translates it")
            continue
        if isinstance(found, Refused):
            if found.invalid:
                wrong.append(f"{pattern!r}: Node compiles it, toolc calls it invalid")
            continue
        if pattern not in models:
            checker = jsonschema_rs.validator_for(
                {"pattern": found.pattern},
                pattern_options=jsonschema_rs.RegexOptions(),
            )
            models[pattern] = (_model(pattern), checker)
        model, checker = models[pattern]
        if _accepts(model, s) != js:
            wrong.append(f"{pattern!r} on {s!r}: Node {js}, model ({found.pattern!r})")
        if checker.is_valid(s) != js:
            wrong.append(f"{pattern!r} on {s!r}: Node {js}, value check ({found.pattern!r})")
    return wrong


def test_the_corpus_means_what_javascript_says() -> None:
    patterns = corpus()
    cases = [(p, s) for p in patterns for s in STRINGS]
    assert len(patterns) > 200 and len(cases) > 15_000
    assert _disagreements(cases) == []


def test_the_corpus_holds_each_verdict() -> None:
    """The corpus is not all easy: it has translated, invalid and unsupported patterns."""
    verdicts = {
        "translated" if isinstance(t, Translated) else "invalid" if t.invalid else "unsupported"
        for t in map(translate, corpus())
    }
    assert verdicts == {"translated", "invalid", "unsupported"}


def test_generated_patterns_mean_what_javascript_says() -> None:
    """Hypothesis draws the patterns (of the translatable subset) and strings of their own
    characters; they are judged together, in one Node run, once all are drawn. A failure lists
    every disagreement rather than shrinking one: each is a short pattern already."""
    cases: list[tuple[str, str]] = []

    @settings(max_examples=1500, deadline=None, derandomize=True, database=None)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        pattern = data.draw(PATTERNS)
        cases.extend((pattern, s) for s in data.draw(st.lists(strings_for(pattern), max_size=8)))
        cases.append((pattern, ""))

    draw()
    patterns = {p for p, _ in cases}
    assert len(patterns) > 800
    assert [p for p in patterns if not isinstance(translate(p), Translated)] == []
    assert _disagreements(cases) == []


def test_every_property_name_compiles_in_node_and_in_the_model() -> None:
    names = [*GENERAL_CATEGORIES, *(a for v in GENERAL_CATEGORIES.values() for a in v)]
    names += [n for pair in BINARY_PROPERTIES.items() for n in pair if n is not None]
    names = [n for n in names if n not in ("Changes_When_NFKC_Casefolded", "CWKCF")]
    patterns = [f"\\p{{{n}}}" for n in names] + [f"\\p{{gc={n}}}" for n in GENERAL_CATEGORIES]
    answers = _javascript([(p, "a") for p in patterns])
    assert [p for p, js in zip(patterns, answers, strict=True) if js is None] == []
    for p in patterns:
        _model(p)  # the Rust name resolves (pydantic would raise otherwise)
    assert _disagreements([(p, s) for p in patterns for s in STRINGS]) == []


def test_a_property_rust_has_no_table_for_is_unsupported() -> None:
    for name in ("Changes_When_NFKC_Casefolded", "CWKCF"):
        found = translate(f"\\p{{{name}}}")
        assert isinstance(found, Refused) and not found.invalid


def test_a_catastrophic_pattern_runs_in_linear_time() -> None:
    model = _model("^(a+)+$")
    text = "a" * 10_000 + "!"
    started = time.perf_counter()
    assert not _accepts(model, text)
    assert _accepts(model, "a" * 10_000)
    assert time.perf_counter() - started < 0.25


def test_the_issue_case_is_refused_as_javascript_refuses_it() -> None:
    model = _model("^P-[0-9]+$")
    assert _accepts(model, "P-100")
    assert not _accepts(model, "P-100\n")
    # Python's re (the jsonschema package's engine) says otherwise; ECMA-262 is the judge.
    assert re.search("^P-[0-9]+$", "P-100\n") is not None
    assert _javascript([("^P-[0-9]+$", "P-100\n")]) == [False]


def test_v8_departs_from_the_spec_inside_surrogate_pairs_and_the_model_follows_the_spec() -> None:
    found = run_node("regex.mjs", {"cases": [[r"\B", "a😀a"], [r"\B", "aéa"]]})
    assert found == {"test": [True, False], "spec": [False, False]}
    assert not _accepts(_model(r"\B"), "a😀a")


@pytest.mark.parametrize("s", ["\r", "\u2028", "\u2029"])
def test_dot_does_not_match_a_line_terminator(s: str) -> None:
    assert re.search("^.$", s) is not None  # Python's re
    assert not _accepts(_model("^.$"), s)


def test_model_pattern_refuses_what_check_refuses() -> None:
    with pytest.raises(ValueError, match="backreferences"):
        model_pattern(r"(a)\1")
    with pytest.raises(ValueError, match="never closed"):
        model_pattern("(a")
