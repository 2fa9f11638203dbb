"""The published JSON Schemas: valid 2020-12, documented for editors, and agreeing with toolc."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLES, FIXTURES
from toolc import verbs
from toolc.resources import load_schema
from toolc.source import load_file

KINDS = ("tools", "policies")
GOOD = EXAMPLES + sorted(p for p in (FIXTURES / "good").iterdir() if p.is_dir())


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12_with_an_id(kind: str) -> None:
    schema = load_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"]
    jsonschema.Draft202012Validator.check_schema(schema)


def _properties(schema: Any, where: str) -> Iterator[tuple[str, Any]]:
    """Every property declared anywhere in a schema, walking schema positions only."""
    if not isinstance(schema, dict):
        return
    for name, sub in schema.get("properties", {}).items():
        yield f"{where}.{name}", sub
        yield from _properties(sub, f"{where}.{name}")
    for key in ("items", "additionalProperties", "propertyNames"):
        yield from _properties(schema.get(key), f"{where}/{key}")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from _properties(sub, f"{where}/{key}[{i}]")
    for name, sub in schema.get("$defs", {}).items():
        yield from _properties(sub, f"{where}/$defs/{name}")


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_has_a_description_for_editors(kind: str) -> None:
    found = list(_properties(load_schema(kind), kind))
    assert len(found) >= (40 if kind == "tools" else 8)  # the walk really reaches the keys
    missing = [
        where for where, sub in found if isinstance(sub, dict) and not sub.get("description")
    ]
    assert not missing


@pytest.mark.parametrize("config", GOOD, ids=[p.name for p in GOOD])
def test_good_configs_validate_clean_and_against_the_reference_validator(config: Path) -> None:
    result = verbs.check_config(config, cwd=config)
    assert result.diagnostics == []
    assert result.project is not None
    for kind, name in (("tools", "tools.yaml"), ("policies", "tool_policies.yaml")):
        if (config / name).exists():
            data = load_file(config / name, name).data
            jsonschema.Draft202012Validator(load_schema(kind)).validate(data)


def test_examples_carry_the_editor_schema_line() -> None:
    for example in EXAMPLES:
        first = (example / "tools.yaml").read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/tools.schema.json"
        assert (example.parent.parent / "schemas" / "tools.schema.json").exists()
