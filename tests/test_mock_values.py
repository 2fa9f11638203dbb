"""`toolc.serve.mock_values`, the values `toolc serve --mock` answers with: every value
it builds validates against its schema by the reference validator (jsonschema, formats
checked), declared examples come first, and the same schema gives the same value in
every process."""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLES, FIXTURES, ROOT, run_toolc
from jsonschema import Draft202012Validator
from toolc.serve.mock_values import _FORMATS, example_value, mock_data

GOOD = sorted(p for p in (FIXTURES / "good").iterdir() if (p / "tools.yaml").is_file())

# jsonschema checks a format only when an optional package is installed; the formats
# it leaves unchecked here get a standard-library check, so none passes unchecked.
CHECKER = jsonschema.FormatChecker(())
CHECKER.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
_RFC3339 = r"\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)"
_EXTRA = {
    "date-time": lambda s: (
        bool(re.fullmatch(_RFC3339, s))
        and datetime.datetime.fromisoformat(s.replace("Z", "+00:00")) is not None
    ),
    "time": lambda s: bool(re.fullmatch(r"\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)", s)),
    "duration": lambda s: bool(re.fullmatch(r"P(\d+[YMWD])+(T(\d+[HMS])+)?", s)),
    "hostname": lambda s: bool(re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)*", s)),
    "uri": lambda s: bool(re.fullmatch(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S+", s)),
    "iri": lambda s: bool(re.fullmatch(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S+", s)),
    "uri-reference": lambda s: " " not in s,
    "iri-reference": lambda s: " " not in s,
    "uri-template": lambda s: bool(re.fullmatch(r"[^{}\s]*(\{\w+\}[^{}\s]*)*", s)),
    "json-pointer": lambda s: bool(re.fullmatch(r"(/([^~/]|~[01])*)*", s)),
    "relative-json-pointer": lambda s: bool(re.fullmatch(r"(0|[1-9]\d*)(#|/.*)?", s)),
}
for _name, _check in _EXTRA.items():
    if _name not in CHECKER.checkers:
        CHECKER.checks(_name)(_check)


def validate(value: Any, schema: Any, root: Any = None) -> None:
    """The reference validator, with `root`'s `$defs` for a subschema's `$ref`s."""
    if root is not None and isinstance(schema, dict):
        schema = {**schema, "$defs": root.get("$defs", {})}
    Draft202012Validator(schema, format_checker=CHECKER).validate(value)


@pytest.fixture(scope="session")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every published input and output schema: the examples' goldens, and each good
    fixture built afresh."""
    dirs = [(e.name, e / "generated" / "mcp_tools" / "schemas") for e in EXAMPLES]
    out = tmp_path_factory.mktemp("mock-builds")
    for config in GOOD:
        pkg, snap = out / config.name / "pkg", out / config.name / "snap.json"
        result = run_toolc("build", str(config), "--out", str(pkg), "--snapshot", str(snap))
        assert result.returncode == 0, result.stderr
        dirs.append((config.name, pkg / "schemas"))
    found = {
        f"{label}/{f.name}": json.loads(f.read_text(encoding="utf-8"))
        for label, d in dirs
        for f in sorted(d.glob("*.json"))
    }
    # A proxied tool's outputSchema is its origin's data, not an envelope (decision 0084).
    for label, d in dirs:
        for tool in json.loads((d.parent / "tools.json").read_text(encoding="utf-8"))["tools"]:
            if tool["_meta"].get("dev.toolc/proxied"):
                found.pop(f"{label}/{tool['name']}.output.json", None)
    assert len(found) >= 2 * (len(EXAMPLES) + len(GOOD))
    return found


def subschemas(schema: Any) -> Iterator[Any]:
    """Every schema nested in `schema` (properties, items, branches, $defs, ...)."""
    if not isinstance(schema, dict):
        return
    yield schema
    for key in ("properties", "$defs", "patternProperties"):
        for sub in schema.get(key, {}).values():
            yield from subschemas(sub)
    for key in ("prefixItems", "oneOf", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            yield from subschemas(sub)
    for key in ("items", "additionalProperties", "not"):
        yield from subschemas(schema.get(key))


def keywords(schema: Any) -> set[str]:
    return {k for sub in subschemas(schema) for k in sub}


def test_every_published_schema_and_subschema_gets_a_valid_value(
    schemas: dict[str, dict[str, Any]],
) -> None:
    checked = 0
    for name, schema in schemas.items():
        validate(example_value(schema), schema)
        for sub in subschemas(schema):
            try:
                validate(example_value(sub, root=schema), sub, root=schema)
            except (ValueError, jsonschema.ValidationError) as e:
                pytest.fail(f"{name}: {json.dumps(sub)[:300]}: {e}")
            checked += 1
    assert checked > 300
    # the corpus covers the keywords toolc publishes, so the loop above tests them all
    seen = set().union(*(keywords(s) for s in schemas.values()))
    assert {"$ref", "oneOf", "const", "enum", "examples", "default", "pattern"} <= seen
    assert {"format", "minItems", "maxItems", "uniqueItems", "minLength"} <= seen
    assert {"maxLength", "minimum", "maximum", "exclusiveMinimum"} <= seen
    assert {"exclusiveMaximum", "additionalProperties", "required", "items"} <= seen


def test_the_envelope_example_is_the_ok_branch(
    schemas: dict[str, dict[str, Any]],
) -> None:
    for name, schema in schemas.items():
        if name.endswith(".output.json"):
            assert example_value(schema)["ok"] is True, name


def test_mock_data_is_valid_data_of_the_ok_branch(
    schemas: dict[str, dict[str, Any]],
) -> None:
    multi = 0
    for name, schema in schemas.items():
        if not name.endswith(".output.json"):
            continue
        meta = schema["$defs"]["envelope.Meta"]["properties"]
        data = mock_data(schema)
        envelope = {
            "ok": True,
            "data": data,
            "meta": {"tool": meta["tool"]["const"], "version": meta["version"]["const"]},
        }
        validate(envelope, schema)
        if isinstance(data, dict) and "results" in data:
            multi += 1
            assert data["results"], name
            for item in data["results"]:
                assert item.get("success", item.get("ok")) is True, name
            assert data["multi_item_status"] == "SUCCESS"
            assert data["partial_success"] is False
            counts = data["metadata"]["multi_item"]
            assert counts["status"] == "SUCCESS"
            assert counts["items_count"] == counts["items_succeeded_count"]
            assert counts["items_count"] == len(data["results"])
            assert counts["items_failed_count"] == 0
    assert multi >= 4


def test_mock_data_refuses_what_is_not_an_envelope() -> None:
    with pytest.raises(ValueError, match="not a toolc envelope"):
        mock_data({"type": "object"})


def test_same_schema_same_value(schemas: dict[str, dict[str, Any]]) -> None:
    for schema in schemas.values():
        assert example_value(schema) == example_value(schema)


_DUMP = """
import json, sys
from toolc.serve.mock_values import example_value, mock_data
schemas = json.load(sys.stdin)
print(json.dumps([
    [example_value(s), mock_data(s) if n.endswith('.output.json') else None]
    for n, s in sorted(schemas.items())
]))
"""


def test_same_value_whatever_the_hash_seed(schemas: dict[str, dict[str, Any]]) -> None:
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "compiler"), env.get("PYTHONPATH", "")])
        result = subprocess.run(
            [sys.executable, "-c", _DUMP],
            input=json.dumps(schemas),
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=120,
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "examples": ["bad", "P-7"], "pattern": "^P-[0-9]+$"}, "P-7"),
        ({"type": "integer", "examples": [2.5, 3], "default": 4}, 3),
        ({"type": "integer", "examples": ["x"], "default": 4}, 4),
        ({"type": "integer", "default": "x", "enum": ["y", 9, 8]}, 9),
        ({"const": {"a": [1]}}, {"a": [1]}),
        (
            {"type": "string", "format": "date", "examples": ["2024-02-30", "2024-02-29"]},
            "2024-02-29",
        ),
        (
            {
                "$ref": "#/$defs/Id",
                "examples": ["outer"],
                "$defs": {"Id": {"type": "string", "examples": ["inner"]}},
            },
            "outer",
        ),
        ({"$ref": "#/$defs/Id", "$defs": {"Id": {"type": "string", "examples": ["in"]}}}, "in"),
    ],
)
def test_declared_values_come_first_when_they_validate(schema: Any, expected: Any) -> None:
    value = example_value(schema)
    assert value == expected and type(value) is type(expected)
    validate(value, schema)


def test_objects_hold_the_required_properties_only() -> None:
    schema = {
        "type": "object",
        "required": ["b", "a"],
        "additionalProperties": False,
        "properties": {"a": {"type": "integer"}, "b": {"type": "boolean"}, "c": {}},
    }
    assert example_value(schema) == {"b": True, "a": 0}
    assert list(example_value(schema)) == ["b", "a"]
    with_min = {**schema, "minProperties": 3}
    assert set(example_value(with_min)) == {"a", "b", "c"}


PATTERNS = [
    "^P-[0-9]+$",
    "^[A-Z]{2}-[0-9]{2}$",
    "^[a-c]+$",
    "^(foo|bar)baz?$",
    "^(?:ab){2,3}$",
    "^a*$",
    "^a{3,}b{0,2}c{2}$",
    "^[^0-9]+$",
    "^[^a-zA-Z0-9 ]{2}$",
    "^\\x41\\u00e9\\.$",
    "^[-a-z.]+@example\\.com$",
    "^a|b$",
    "^[A-Za-z_][A-Za-z0-9_]*$",
    "^v[0-9]+\\.[0-9]+\\.[0-9]+(-[a-z]+)?$",
    "^(a|bc){3}$",
    "abc",
    "x+y",
    "^\\$[0-9]{1,3}(,[0-9]{3})*$",
    "^[\\]\\[]+$",
    "^[]a]$",
    "^.{5,}$",
    "^\\d\\w\\s\\D\\W\\S$",
    "^[\\d\\-]+$",
    "^(?:[a-f0-9]{2}:){5}[a-f0-9]{2}$",
    "^\\+?[1-9][0-9]{7,14}$",
    "^[^@]+@[^@]+\\.[a-z]{2,}$",
    "^((a|b)(c|d))+$",
    "^[a-z]+?x*?$",
    "^\\t\\n$",
    "^$",
    "^[a-z]{1,2}\\{\\}$",
    "^(|x)y$",
    "^(?!x)",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]{2}$",
    "^\\([0-9]{2}\\) [0-9]{4,5}-[0-9]{4}$",
    "^[\\u00c0-\\u00ff]+$",
    "^[\\w.-]+$",
    "^(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(?:25[0-5]|1?[0-9]?[0-9])$",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_patterns(pattern: str) -> None:
    value = example_value({"type": "string", "pattern": pattern})
    assert re.search(pattern, value), value


@pytest.mark.parametrize(
    ("pattern", "least", "most"),
    [
        ("^P-[0-9]+$", 9, 12),
        ("^P-[0-9]+$", 20, 20),
        ("^[a-c]+$", 30, None),
        ("^a{3,}b{0,2}c{2}$", 9, 9),
        ("^a{3,}b{0,2}c{2}$", 20, 20),
        ("^[^0-9]+$", 9, None),
        ("^[-a-z.]+@example\\.com$", 20, 20),
        ("^v[0-9]+\\.[0-9]+\\.[0-9]+(-[a-z]+)?$", 9, 12),
        ("^\\$[0-9]{1,3}(,[0-9]{3})*$", 9, 12),
        ("^((a|b)(c|d))+$", 20, 20),
        ("^[^@]+@[^@]+\\.[a-z]{2,}$", 9, 12),
        ("abc", 9, None),
        ("x+y", 20, 20),
        ("^.{5,}$", 0, 5),
        ("^(foo|bar)baz?$", 6, 6),
        ("^(a|bc){3}$", 5, 5),
    ],
)
def test_patterns_with_lengths(pattern: str, least: int, most: int | None) -> None:
    schema: dict[str, Any] = {"type": "string", "pattern": pattern, "minLength": least}
    if most is not None:
        schema["maxLength"] = most
    validate(example_value(schema), schema)


@pytest.mark.parametrize(
    ("pattern", "least", "most"),
    [("^[-a-z.]+@example\\.com$", 9, 12), ("^(a|bc){3}$", 7, 9), ("^$", 1, 1)],
)
def test_patterns_with_impossible_lengths_raise(pattern: str, least: int, most: int) -> None:
    schema = {"type": "string", "pattern": pattern, "minLength": least, "maxLength": most}
    with pytest.raises(ValueError, match="no value found that validates"):
        example_value(schema)


def test_patterns_keep_items_unique() -> None:
    schema = {
        "type": "array",
        "items": {"type": "string", "pattern": "^[A-C]-[0-9]$"},
        "minItems": 6,
        "uniqueItems": True,
    }
    value = example_value(schema)
    validate(value, schema)
    assert len(value) == 6


def test_an_unsatisfiable_pattern_names_the_path() -> None:
    schema = {
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["code"],
                    "properties": {"code": {"type": "string", "pattern": "^(?=x)y$"}},
                },
            }
        },
    }
    with pytest.raises(ValueError, match=r"\$\.items\[0\]\.code.*\^\(\?=x\)y\$"):
        example_value(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "number", "exclusiveMinimum": 0},
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        {"type": "number", "exclusiveMinimum": 0, "maximum": 0.001},
        {"type": "integer", "exclusiveMinimum": 0.5},
        {"type": "integer", "exclusiveMinimum": 4, "exclusiveMaximum": 6},
        {"type": "integer", "minimum": 10, "maximum": 10},
        {"type": "integer", "maximum": -3.5},
        {"type": "number", "minimum": -7.25, "maximum": -7.25},
        {"type": "number", "multipleOf": 0.1, "minimum": 0.25},
        {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 1},
        {"type": "number", "multipleOf": 0.3, "minimum": 1, "maximum": 2},
        {"type": "number", "multipleOf": 2.5, "minimum": 3},
        {"type": "integer", "multipleOf": 7, "minimum": 50},
        {"type": "integer", "multipleOf": 0.5, "exclusiveMinimum": 2},
        {"type": "integer", "multipleOf": 3, "maximum": -1},
        {"type": ["integer", "null"], "minimum": 1},
        {"oneOf": [{"type": "integer"}, {"type": "number"}]},
        {"type": "number", "not": {"type": "integer"}, "minimum": 2, "maximum": 3},
    ],
)
def test_numbers_within_bounds(schema: Any) -> None:
    value = example_value(schema)
    validate(value, schema)
    assert example_value(schema) == value


def test_impossible_bounds_raise() -> None:
    with pytest.raises(ValueError, match=r"^\$\.n: "):
        example_value(
            {
                "type": "object",
                "required": ["n"],
                "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 4}},
            }
        )


@pytest.mark.parametrize(
    "schema",
    [
        {"items": {"enum": ["a", "b"]}, "minItems": 2},
        {"items": {"type": "boolean"}, "minItems": 2},
        {"items": {"type": "integer", "minimum": 3}, "minItems": 5},
        {"items": {"type": "number", "multipleOf": 0.5}, "minItems": 4},
        {"items": {"type": "string", "maxLength": 1}, "minItems": 5},
        {
            "items": {
                "type": "object",
                "required": ["id"],
                "properties": {"id": {"type": "integer"}},
            },
            "minItems": 3,
        },
        {"items": {"type": "object", "properties": {"a": {"type": "string"}}}, "minItems": 3},
        {"items": {"type": "array", "items": {"type": "integer"}}, "minItems": 3},
        {"items": {"type": ["string", "null"], "format": "date"}, "minItems": 2},
        {"prefixItems": [{"const": 1}, {"const": True}], "items": False, "minItems": 2},
    ],
)
def test_unique_items(schema: Any) -> None:
    schema = {"type": "array", "uniqueItems": True, **schema}
    value = example_value(schema)
    validate(value, schema)
    assert len(value) == schema["minItems"]


def test_unique_items_that_cannot_be_raise_with_the_path() -> None:
    schema = {"type": "array", "items": {"enum": ["a"]}, "minItems": 2, "uniqueItems": True}
    with pytest.raises(ValueError, match=r"^\$\[1\]"):
        example_value(schema)


@pytest.mark.parametrize("fmt", sorted(_FORMATS))
def test_formats_are_canonical_and_valid(fmt: str) -> None:
    schema = {"type": "string", "format": fmt}
    validate(example_value(schema), schema)
    assert example_value(schema) == _FORMATS[fmt]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": ["null", "integer"]}, 0),
        ({"type": "null"}, None),
        ({}, None),
        ({"type": "string", "minLength": 10}, "examplexxx"),
        ({"type": "string", "maxLength": 3}, "exa"),
        ({"type": "string", "maxLength": 0}, ""),
        ({"type": "array", "items": {"type": "integer"}}, []),
        ({"type": "array", "minItems": 2, "items": {"const": "z"}}, ["z", "z"]),
        ({"anyOf": [{"type": "string", "maxLength": -1}, {"type": "boolean"}]}, True),
        (
            {
                "allOf": [
                    {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}},
                    {"required": ["b"], "properties": {"a": {"minimum": 2}, "b": {"const": 1}}},
                ]
            },
            {"a": 2, "b": 1},
        ),
    ],
)
def test_synthesized_values(schema: Any, expected: Any) -> None:
    assert example_value(schema) == expected
    validate(expected, schema)


def test_a_recursive_schema_that_requires_itself_raises() -> None:
    schema = {
        "$ref": "#/$defs/N",
        "$defs": {
            "N": {"type": "object", "required": ["n"], "properties": {"n": {"$ref": "#/$defs/N"}}}
        },
    }
    with pytest.raises(ValueError, match="too deep"):
        example_value(schema)


def test_an_optional_recursion_ends() -> None:
    node = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    }
    schema = {"$ref": "#/$defs/Node", "$defs": {"Node": node}}
    assert example_value(schema) == {}


# Patterns only ECMAScript reads: Python's `re` cannot compile them, so the default search
# confirms no candidate (a clean "no value found", never re.error); the mock server passes
# the models' own reading (ecma_regex.search), which finds one.
ECMA_ONLY = {"^\\u{41}+$": "A", "^[^]$": "a", "^\\p{Lu}$": "A"}


@pytest.mark.parametrize(("pattern", "value"), ECMA_ONLY.items())
def test_ecma_patterns_are_judged_as_the_models_judge_them(pattern: str, value: str) -> None:
    from toolc.validate.ecma_regex import search

    schema = {"type": "string", "pattern": pattern}
    with pytest.raises(ValueError, match="no value found"):
        example_value(schema)
    assert example_value(schema, search=search) == value
