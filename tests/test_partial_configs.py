"""Schema errors do not stop the checks (issue 9, item 14): a valid config with random keys
removed, renamed or given a wrong value never crashes `toolc check`, never yields an error-less
result when it breaks the published schema, and never reports one diagnostic twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLES, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolc import verbs
from toolc.resources import load_schema
from toolc.source import load_file

CONFIGS = [
    *EXAMPLES,
    *(FIXTURES / "good" / name for name in ("kitchen-sink", "fidelity", "recursive")),
    FIXTURES / "diagnostics" / "prevalidator-values",
    FIXTURES / "diagnostics" / "annotations",
]
WRONG = [None, True, 0, 1.5, "x", "", [], [1], {}, {"k": 1}]
FILES = {"tools": "tools.yaml", "policies": "tool_policies.yaml"}


def _data(config: Path) -> dict[str, Any]:
    found = {}
    for kind, name in FILES.items():
        if (config / name).is_file():
            found[kind] = load_file(config / name, name).data
    return found


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and index of a value, nested ones included."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _places(sub, (*path, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += _places(sub, (*path, index))
    return found


def _mutate(data: Any, path: tuple[Any, ...], how: str, wrong: Any) -> Any:
    copy = json.loads(json.dumps(data))
    parent = copy
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == "remove":
        del parent[last]
    elif how == "rename" and isinstance(parent, dict):
        parent[f"{last}x"] = parent.pop(last)
    else:
        parent[last] = wrong
    return copy


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_a_broken_config_is_judged_without_crashing(
    tmp_path_factory: pytest.TempPathFactory, config: Path, data: st.DataObject
) -> None:
    files = _data(config)
    kind = data.draw(st.sampled_from(sorted(files)))
    places = _places(files[kind])
    mutations = data.draw(st.integers(1, 3))
    mutated = files[kind]
    for _ in range(mutations):
        places = _places(mutated)
        if not places:
            break
        path = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["remove", "rename", "replace"]))
        mutated = _mutate(mutated, path, how, data.draw(st.sampled_from(WRONG)))
    out = tmp_path_factory.mktemp("broken")
    for other, name in FILES.items():
        if other in files:  # JSON is YAML 1.2: the text keeps every value as it is
            value = mutated if other == kind else files[other]
            (out / name).write_text(json.dumps(value, indent=1), encoding="utf-8")

    result = verbs.check_config(out, cwd=out)  # raises on a crash: the test fails with it

    seen = [(d.code, d.span, d.message) for d in result.diagnostics]
    assert len(seen) == len(set(seen)), "a diagnostic reported twice"
    schema = load_schema(kind)
    if not jsonschema.Draft202012Validator(schema).is_valid(mutated):
        assert result.has_errors, "a config breaking its schema passed"
    for d in result.diagnostics:
        lines = (out / d.span.path).read_text(encoding="utf-8").splitlines() or [""]
        assert 1 <= d.span.line <= len(lines) + 1, d
