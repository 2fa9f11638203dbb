"""Contract evolution for every JSON Schema 2020-12 keyword (issue #12, item 6), at the level of
published fragments (tests/evolution_fragments.py): each case placed as an argument and as a
field of `data`, each finding's rule and level asserted in both directions, the rules in the
catalogue, and the property that a change called compatible on an input never narrows it."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from conftest import run_toolc
from evolution_fragments import ARR, CASES, INT, NULL, OBJ, RULES_EXERCISED, Case, S
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from instances import valid
from toolc.diagnostics.catalogue import explain, listing
from toolc.evolution.compare import compare_tool
from toolc.evolution.findings import Finding
from toolc.evolution.inclusion import accepts_all
from toolc.evolution.rules import RULES
from toolc.evolution.rules_keywords import INPUT_ROWS, OUTPUT_ROWS, TEXT_ROWS

INPUT_AT = "/tool/inputSchema/properties/value"
OUTPUT_AT = "/tool/outputSchema/$defs/envelope.Data/properties/value"


def contract(fragment: Any, side: str, *, root: bool = False) -> dict[str, Any]:
    """A minimal contract document holding `fragment` as the argument `value` (or as the whole
    arguments object), or as the field `value` of `data` (or as the whole `data`); a fragment's
    own `$defs` go where its `$ref`s resolve."""
    fragment = copy.deepcopy(fragment)
    defs = fragment.pop("$defs", {}) if isinstance(fragment, dict) else {}
    placed = fragment if root else {"type": "object", "properties": {"value": fragment},
                                    "required": ["value"]}  # fmt: skip
    if side == "input":
        input_schema, data = {**placed, "$defs": defs} if defs else placed, {"type": "object"}
        output_defs: dict[str, Any] = {}
    else:
        input_schema, data, output_defs = {"type": "object"}, placed, defs
    return {"tool": {"name": "t", "inputSchema": input_schema,
                     "outputSchema": {"$defs": {"envelope.Data": data, **output_defs}}}}  # fmt: skip


def findings(case: Case, side: str, *, reverse: bool = False) -> list[Finding]:
    old, new = (case.new, case.old) if reverse else (case.old, case.new)
    root = case.root
    return compare_tool("t", contract(old, side, root=root), contract(new, side, root=root))


def relative(found: list[Finding], side: str, root: bool) -> list[str]:
    base = "/tool/inputSchema" if side == "input" else "/tool/outputSchema/$defs/envelope.Data"
    base = base if root else (INPUT_AT if side == "input" else OUTPUT_AT)
    out = []
    for f in found:
        assert f.path.startswith(base), f.line()
        out.append(f"{f.rule} {f.level} {f.path[len(base) :] or '/'}")
    return sorted(out)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("side", ["input", "output"])
def test_fragment_case(case: Case, side: str) -> None:
    found = findings(case, side)
    assert relative(found, side, case.root) == sorted(getattr(case, side))
    for f in found:
        assert f.level == RULES[f.rule].level and f.message.startswith("tool 't': ")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("side", ["input", "output"])
def test_the_reverse_change_is_classified_too(case: Case, side: str) -> None:
    assert findings(case, side, reverse=True)


def test_every_new_rule_is_in_the_corpus_and_the_catalogue() -> None:
    new_rules = {row[0] for row in (*INPUT_ROWS, *OUTPUT_ROWS, *TEXT_ROWS)}
    assert new_rules <= RULES_EXERCISED, new_rules - RULES_EXERCISED
    assert set(RULES) >= RULES_EXERCISED
    table = listing("evolution")
    for rule in new_rules:
        assert rule in table and explain(rule).startswith(f"{rule} ({RULES[rule].level}): ")


def test_list_rules_and_explain_show_the_new_rules() -> None:
    assert "input-union-branch-added" in run_toolc("diff", "--list-rules").stdout
    out = run_toolc("explain", "output-schema-undecided")
    assert out.returncode == 0 and "never as a patch" in out.stdout


def test_undecidable_changes_are_never_a_patch() -> None:
    for case in CASES:
        for side in ("input", "output"):
            for f in findings(case, side):
                if "undecided" in f.rule:
                    assert f.level == "breaking", f.line()


# A property: on an input, a change the comparison does not call breaking accepts every value
# the old schema accepted. `arg-added-optional` is left out: it judges callers, who never sent
# a property that was not declared, not values (docs/evolution.md).
_LEAVES: list[Any] = [
    {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "null"},
    {"type": "boolean"}, {"type": ["string", "null"]}, {"const": "a"}, {"enum": [1, "a", None]},
    {"minimum": 0}, {"maximum": 3}, {"multipleOf": 2}, {"multipleOf": 3}, {"multipleOf": 4},
    {"minLength": 1}, {"maxLength": 2}, {"pattern": "^a"}, {"minItems": 1}, {"maxItems": 2},
    {"uniqueItems": True}, {"minProperties": 1}, {"maxProperties": 1}, {"required": ["a"]},
    {"$comment": "c"}, {"readOnly": True}, {"contentEncoding": "base64"}, True, False, {},
]  # fmt: skip
_NAMES = st.sampled_from(["a", "b"])


def _fragments(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    branches = st.lists(inner, min_size=1, max_size=3)
    return st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "array", "string", "integer", ["object", "null"]]),
        "anyOf": branches, "oneOf": branches, "allOf": branches, "not": inner,
        "if": inner, "then": inner, "else": inner,
        "items": inner, "prefixItems": branches, "contains": inner,
        "minContains": st.integers(0, 2), "maxContains": st.integers(1, 3),
        "properties": st.dictionaries(_NAMES, inner, max_size=2),
        "patternProperties": st.dictionaries(st.sampled_from(["^a", "b$"]), inner, max_size=1),
        "additionalProperties": inner, "propertyNames": inner,
        "dependentRequired": st.dictionaries(_NAMES, st.lists(_NAMES, max_size=2, unique=True),
                                             max_size=1),
        "dependentSchemas": st.dictionaries(_NAMES, inner, max_size=1),
        "unevaluatedProperties": inner, "unevaluatedItems": inner,
        "required": st.lists(_NAMES, max_size=2, unique=True),
        "multipleOf": st.sampled_from([1, 2, 3, 6]), "minProperties": st.integers(0, 2),
    })  # fmt: skip


FRAGMENTS = st.recursive(st.sampled_from(_LEAVES), _fragments, max_leaves=5)


_ONE_SCHEMA = {"not", "if", "then", "else", "items", "contains", "additionalProperties",
               "propertyNames", "unevaluatedProperties", "unevaluatedItems"}  # fmt: skip
_COUNTS = {"minContains", "maxContains", "multipleOf", "minProperties", "minimum", "maximum",
           "minLength", "maxLength", "minItems", "maxItems", "maxProperties"}  # fmt: skip


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """An old fragment and a new one: unrelated, or the old one edited in one place."""
    old = draw(FRAGMENTS)
    if not isinstance(old, dict) or not old or draw(st.booleans()):
        return old, draw(FRAGMENTS)
    new = dict(old)
    key = draw(st.sampled_from(sorted(new)))
    edit = draw(st.sampled_from(["drop", "replace", "wrap", "extend"]))
    if edit == "drop" or (edit == "replace" and key not in _ONE_SCHEMA | _COUNTS):
        del new[key]
    elif edit == "replace" and key in _ONE_SCHEMA:
        new[key] = draw(FRAGMENTS)
    elif edit == "replace" and key in _COUNTS:
        new[key] = draw(st.integers(1, 4))
    elif edit == "wrap":
        return old, {"anyOf": [old, draw(FRAGMENTS)]}
    elif isinstance(new[key], list) and key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        new[key] = [*new[key], draw(FRAGMENTS)]
    return old, new


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from([0.5, 6.0]),
              st.sampled_from(["", "a", "ab", "b", "ba", "abc", "x"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3)),
    max_leaves=6,
)  # fmt: skip


def _breaks_or_judges_callers(old: Any, new: Any) -> bool:
    found = compare_tool("t", contract(old, "input"), contract(new, "input"))
    return any(f.level == "breaking" or f.rule == "arg-added-optional" for f in found)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)  # fmt: skip
@given(data=st.data(), pair=_pairs(), values=st.lists(_JSON, min_size=8, max_size=8))
def test_compatible_on_an_input_never_narrows(
    data: st.DataObject, pair: tuple[Any, Any], values: list[Any]
) -> None:
    old, new = pair
    if _breaks_or_judges_callers(old, new):
        return
    was, now = jsonschema.Draft202012Validator(old), jsonschema.Draft202012Validator(new)
    # values built for the old schema's plain keywords too (instances.valid ignores the rest)
    values += [data.draw(valid(old, {})) for _ in range(4)]
    for value in values:
        if was.is_valid(value):
            assert now.is_valid(value), f"{value!r}: old {old} new {new}"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)  # fmt: skip
@given(data=st.data(), pair=_pairs(), values=st.lists(_JSON, min_size=8, max_size=8))
def test_compatible_on_data_never_widens(
    data: st.DataObject, pair: tuple[Any, Any], values: list[Any]
) -> None:
    """The mirror on `data`: without a break or a warning (and `data-field-added`, which judges
    callers), every value the new schema allows the old one allowed."""
    old, new = pair
    found = compare_tool("t", contract(old, "output"), contract(new, "output"))
    if any(f.level in ("breaking", "warning") or f.rule == "data-field-added" for f in found):
        return
    was, now = jsonschema.Draft202012Validator(old), jsonschema.Draft202012Validator(new)
    for value in [*values, *(data.draw(valid(new, {})) for _ in range(4))]:
        if now.is_valid(value):
            assert was.is_valid(value), f"{value!r}: old {old} new {new}"


# The same engine read by value (`accepts_all`, the pre-validator's check): `yes` is never
# wrong for the later keywords either, and where the walk cannot decide it says `unknown`.
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)  # fmt: skip
@given(data=st.data(), pair=_pairs(), values=st.lists(_JSON, min_size=8, max_size=8))
def test_accepts_all_yes_is_never_wrong(
    data: st.DataObject, pair: tuple[Any, Any], values: list[Any]
) -> None:
    narrower, wider = pair
    if not isinstance(narrower, dict) or not isinstance(wider, dict):
        return
    if accepts_all(wider, narrower, {}).verdict != "yes":
        return
    was, now = jsonschema.Draft202012Validator(narrower), jsonschema.Draft202012Validator(wider)
    for value in [*values, *(data.draw(valid(narrower, {})) for _ in range(4))]:
        if was.is_valid(value):
            assert now.is_valid(value), f"{value!r}: narrower {narrower} wider {wider}"


@pytest.mark.parametrize(
    ("wider", "narrower", "verdict"),
    [
        ({"anyOf": [S, INT]}, S, "yes"),
        ({"anyOf": [S, NULL]}, {"anyOf": [S, INT]}, "unknown"),
        ({"multipleOf": 2}, {"multipleOf": 4}, "yes"),
        ({"multipleOf": 4}, {"multipleOf": 2}, "no"),
        ({**S, "not": {"const": ""}}, S, "unknown"),
        ({**S, "propertyNames": {"maxLength": 1}}, S, "yes"),
        ({"contains": INT}, S, "yes"),
        ({**ARR, "contains": INT}, S, "no"),
        (S, False, "yes"),
        ({**OBJ, "dependentRequired": {"a": ["b"]}}, OBJ, "unknown"),
    ],
)
def test_accepts_all_reads_the_later_keywords(wider: Any, narrower: Any, verdict: str) -> None:
    assert accepts_all(wider, narrower, {}).verdict == verdict
