"""The official JSON-Schema-Test-Suite, draft 2020-12 (tests/jsonschema_suite.py says how each
group becomes a tool): at least 90 % of the in-scope groups build, and every instance of every
built group gets the suite's verdict from the published inputSchema (the `jsonschema`
package's Draft202012Validator) and from the generated model alike; a valid instance of a
schema without defaults comes back from the model unchanged. One package per suite file."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from jsonschema import Draft202012Validator
from jsonschema_suite import (
    CORE,
    SCOPE,
    Group,
    coverage,
    groups,
    keywords,
    out_of_scope,
    scope_lines,
    tool_entries,
)
from toolc import verbs

FILES = sorted({g.file for g in groups()})
SHARE = 0.90


def _write(directory: Path, tools: dict[str, Any]) -> dict[int, str]:
    """tools.yaml as JSON (a YAML 1.2 document), one tool a line; which tool is on which."""
    directory.mkdir(parents=True, exist_ok=True)
    lines, where = ['{"tools": {'], {}
    for n, (name, tool) in enumerate(tools.items()):
        where[len(lines) + 1] = name
        lines.append(
            json.dumps(name) + ": " + json.dumps(tool) + ("," if n < len(tools) - 1 else "")
        )
    lines.append("}}")
    (directory / "tools.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return where


def _buildable(directory: Path, tools: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The tools that check clean, and why each other one does not."""
    refused: dict[str, str] = {}
    while tools:
        where = _write(directory, tools)
        errors = [d for d in verbs.check_config(directory, cwd=directory).diagnostics if d.is_error]
        if not errors:
            break
        for d in errors:
            name = where.get(d.span.line)
            assert name is not None, d  # a mistake outside every tool: a bug of this test
            refused.setdefault(name, f"{d.code}: {d.message}")
        tools = {k: v for k, v in tools.items() if k not in refused}
    return tools, refused


def _package(
    file: str, root: Path, directory: Path = CORE
) -> tuple[Any, dict[str, Group], dict[str, str]]:
    members = [g for g in groups(directory) if g.file == file and out_of_scope(g) is None]
    tools = {name: t for g in members for name, t in tool_entries(g).items()}
    named = {name: g for g in members for name in tool_entries(g)}
    config = root / file
    tools, refused = _buildable(config, tools)
    if not tools:
        return None, named, refused
    _write(config, tools)
    package = f"suite_{directory.name.replace('-', '_')}_{file.replace('-', '_')}"
    result = verbs.build(config, root / package, root / f"{package}.json", write=True)
    assert result.written, [str(d) for d in result.diagnostics]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(package), named, refused
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("suite")
    return {file: _package(file, root) for file in FILES}


def _accepts(model: Any, instance: Any) -> tuple[bool, Any]:
    try:
        made = model.model_validate(instance)
    except pydantic.ValidationError:
        return False, None
    return True, made.model_dump(mode="json", by_alias=True, exclude_unset=True)


@pytest.mark.parametrize("file", FILES)
def test_every_instance_gets_the_suites_verdict(built: dict[str, Any], file: str) -> None:
    package, named, _ = built[file]
    if package is None:
        pytest.skip("no group of this file is in scope, or none builds")
    wrong = []
    for name, spec in package.TOOLS.items():
        group = named[name]
        published = Draft202012Validator(spec.input_schema)
        root = name.endswith("_root")
        declared = set(spec.input_schema.get("properties", {}))
        for test in group.tests:
            instance = test["data"] if root else {"value": test["data"]}
            by_schema = published.is_valid(instance)
            by_model, dumped = _accepts(spec.args_model, instance)
            case = f"{group.key} {name} {test['description']!r}: suite {test['valid']}"
            if by_schema != test["valid"] or by_model != test["valid"]:
                wrong.append(f"{case}, schema {by_schema}, model {by_model}")
            elif by_model and "default" not in keywords(group.schema):
                kept = instance
                if root:  # the arguments object drops what `unknown_args: ignore` ignores
                    kept = {k: v for k, v in instance.items() if k in dumped or k in declared}
                if dumped != kept:
                    wrong.append(f"{case}, round trip {dumped!r}")
    assert not wrong, "\n".join(wrong)


def test_format_is_an_annotation_on_inputs_for_model_and_schema_alike(
    tmp_path: Path,
) -> None:
    """Decision 0050: an argument's `format` is not asserted, by the published schema as a
    2020-12 validator reads it (no format assertion vocabulary) nor by the model. The
    optional/format groups measure it: every instance gets the same verdict from both, and
    the instances the suite calls invalid under format assertion are accepted by both."""
    formats = CORE / "optional" / "format"
    agreed = asserted = 0
    for file in sorted({g.file for g in groups(formats)}):
        package, named, refused = _package(file, tmp_path, formats)
        assert package is not None and not refused, refused
        for name, spec in package.TOOLS.items():
            published = Draft202012Validator(spec.input_schema)
            for test in named[name].tests:
                instance = test["data"] if name.endswith("_root") else {"value": test["data"]}
                by_model, _ = _accepts(spec.args_model, instance)
                assert by_model == published.is_valid(instance), (name, test)
                agreed += 1
                asserted += not test["valid"]
    print(f"\nformat instances: {agreed} judged alike; {asserted} invalid under assertion")
    assert agreed > 400 and asserted > 0


def test_the_scope_is_the_committed_one() -> None:
    assert SCOPE.read_text(encoding="utf-8").splitlines() == scope_lines()


def test_most_in_scope_groups_build(built: dict[str, Any]) -> None:
    in_scope = [g for g in groups() if out_of_scope(g) is None]
    made = {
        (file, group.index)
        for file, (package, named, _) in built.items()
        if package is not None
        for name, group in named.items()
        if name in package.TOOLS and not name.endswith("_root")
    }
    refused = {
        f"{file}#{named[name].index} {name}: {why}"
        for file, (_, named, problems) in built.items()
        for name, why in problems.items()
    }
    share = len(made) / len(in_scope)
    instances = sum(
        len(named[name].tests)
        for package, named, _ in built.values()
        if package is not None
        for name in package.TOOLS
    )
    print(f"\nsuite groups built: {len(made)} of {len(in_scope)} in scope ({share:.1%}),")
    print(f"{instances} instances checked (both forms); not built:")
    print("\n".join(sorted(refused)))
    print("| keyword | in-scope groups using it | built |\n| --- | --- | --- |")
    for key, n, b in coverage({f"{file}#{index}" for file, index in made}):
        print(f"| `{key}` | {n} | {b} |")
    assert share >= SHARE, sorted(refused)
    assert CORE.is_dir()
