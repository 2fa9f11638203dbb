"""The compiled evaluator (`_jsonschema_compiled`, what the generated models run) judges
every instance of the official JSON-Schema-Test-Suite exactly as the interpreter it
compiles (`_jsonschema_eval`) and as the suite says; explaining failures keeps no memo
per call (a served process answers invalid calls for as long as it runs)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema_suite import Group, groups, out_of_scope
from toolc.emit.pychecks import patterns
from toolc.runtime._jsonschema_compiled import CompiledEvaluator
from toolc.runtime._jsonschema_eval import Evaluator
from toolc.runtime._jsonschema_why import why
from toolc.runtime.jsonschema_types import unique_items

IN_SCOPE = [g for g in groups() if out_of_scope(g) is None]


def _verdict(evaluator: Evaluator, schema: Any, data: Any) -> Any:
    try:
        return evaluator.valid(schema, data)
    except Exception as error:  # both must fail alike, if either fails at all
        return type(error)


@pytest.mark.parametrize("group", IN_SCOPE, ids=lambda g: g.key)
def test_compiled_verdicts_are_the_interpreters_and_the_suites(group: Group) -> None:
    schema = group.schema
    translated = patterns(schema, {})
    interpreter = Evaluator(schema, translated)
    compiled = CompiledEvaluator(schema, translated)
    for case in group.tests:
        expected = _verdict(interpreter, schema, case["data"])
        assert _verdict(compiled, schema, case["data"]) == expected, case["description"]
        untranslatable = any(p not in translated for p in patterns_of(schema))
        if not group.file.startswith("format") and not untranslatable:
            assert expected == case["valid"], case["description"]


def patterns_of(schema: Any) -> list[str]:
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                found.append(value)
            if key == "patternProperties" and isinstance(value, dict):
                found.extend(value)
            if key not in ("const", "enum", "default", "examples"):
                found.extend(patterns_of(value))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(patterns_of(item))
    return found


def test_the_suite_covers_what_the_compiler_compiles() -> None:
    used = {k for g in IN_SCOPE if isinstance(g.schema, dict) for k in g.schema}
    for keyword in (
        "multipleOf",
        "oneOf",
        "not",
        "if",
        "contains",
        "prefixItems",
        "patternProperties",
        "propertyNames",
        "dependentSchemas",
        "dependentRequired",
        "unevaluatedProperties",
        "enum",
        "const",
        "$ref",
    ):
        assert keyword in used, keyword  # fmt: skip


def test_multiple_of_is_exact_at_every_magnitude() -> None:
    for evaluator in (Evaluator({}, {}), CompiledEvaluator({}, {})):
        assert evaluator.valid({"multipleOf": 0.01}, 1e300)
        assert evaluator.valid({"multipleOf": 0.1}, 0.3)
        assert not evaluator.valid({"multipleOf": 0.1}, 0.30000000000000004)
        assert evaluator.valid({"multipleOf": 2.5}, 10)
        assert not evaluator.valid({"multipleOf": 3}, 7.5)
        with pytest.raises(ValueError):  # a validator's ValueError: a validation error
            evaluator.valid({"multipleOf": 0.1}, float("inf"))


def test_explaining_failures_memoizes_nothing_per_call() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "b": {"oneOf": [{"minimum": 1}, {"maximum": 5}]},
            "c": {"not": {"type": "null"}},
            "d": {"type": "array", "contains": {"const": 1}, "maxContains": 1},
        },
    }
    evaluator = CompiledEvaluator(schema, {})
    failing = [{"a": None}, {"b": 3}, {"c": None}, {"d": [1, 1]}]
    assert not any(evaluator.valid(schema, value) for value in failing)
    explained = [why(evaluator, schema, value) for value in failing]
    assert [keyword for _, _, keyword in explained] == ["anyOf", "oneOf", "not", "maxContains"]
    sizes = len(evaluator._checks), len(evaluator._keywords), len(evaluator._plans)
    for _ in range(50):
        for value in failing:
            assert not evaluator.valid(schema, value)
            why(evaluator, schema, value)
    assert (len(evaluator._checks), len(evaluator._keywords), len(evaluator._plans)) == sizes


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"const": {"a": [1]}}, {"a": [True]}, False),  # Python's == takes true for 1
        ({"const": {"a": [1]}}, {"a": [1.0]}, True),
        ({"enum": [[0], "x"]}, [False], False),
        ({"enum": [[2, {"b": None}]]}, [2.0, {"b": None}], True),
        ({"enum": [[2, {"b": None}]]}, [2, {"b": 0}], False),
        # the same JSON text, or a text of its own for an equal value
        ({"const": {"a": [True], "b": 1}}, {"a": [True], "b": 1}, True),
        ({"const": {"a": [True], "b": 1}}, {"b": 1, "a": [True]}, True),
        ({"const": {"a": [True], "b": 1}}, {"a": [True], "b": 1.0}, True),
        ({"const": {"a": [True], "b": 1}}, {"a": [1], "b": True}, False),
        ({"enum": [[True, 1], [1, True]]}, [1, 1], False),
        ({"enum": [[True, 1], [1, True]]}, [1, True], True),
        ({"uniqueItems": True}, [1, True], True),
        ({"uniqueItems": True}, [1, 1.0], False),
        ({"uniqueItems": True}, ["a", "b", "a"], False),
        ({"uniqueItems": True}, [{"a": 1}, {"a": True}], True),
        ({"uniqueItems": True}, [None, None], False),
    ],
)
def test_json_equality_where_pythons_differs(schema: Any, value: Any, expected: bool) -> None:
    for evaluator in (Evaluator(schema, {}), CompiledEvaluator(schema, {})):
        assert evaluator.valid(schema, value) is expected
    if "uniqueItems" in schema:
        try:
            unique_items(value)
            assert expected
        except ValueError:
            assert not expected
