"""`publish: portable` (decision 0075): every inputSchema published with its `$ref`s inlined and
its type lists as `anyOf`. The rewrite keeps the meaning: for every example config, the
fidelity configs and random configs, the portable schema and the standard one judge the same
instances alike (the reference validator), and the generated args models, made from the
portable form, agree with it. What is served, recorded and fingerprinted is that one form."""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from agreement import assert_models_agree
from conftest import EXAMPLES, FIXTURES
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from instances import near_miss, valid
from random_projects import as_yaml, projects
from reference import EcmaValidator
from toolc import verbs
from toolc.contract.framework import success_data
from toolc.contract.snapshot import contract_fingerprint
from toolc.evolution.compare import compare_tool
from toolc.model.portable import Recursive, portable
from toolc.pipeline import compile
from toolc.source.inputs import inputs_of_texts

CONFIGS = [
    FIXTURES / "good" / "fidelity",
    FIXTURES / "good" / "adversarial",
    FIXTURES / "good" / "kitchen-sink",
    *EXAMPLES,
]
JUDGED = settings(
    max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


def _portable_copy(config: Path, root: Path) -> Path:
    copy = root / config.name
    copy.mkdir()
    for name in ("tools.yaml", "tool_policies.yaml"):
        if (config / name).is_file():
            shutil.copy(config / name, copy / name)
    text = (copy / "tools.yaml").read_text(encoding="utf-8")
    (copy / "tools.yaml").write_text("publish: portable\n" + text, encoding="utf-8")
    return copy


def _served(files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    return {d["name"]: d for d in json.loads(files["tools.json"])["tools"]}


def _same_verdicts(standard: dict[str, Any], rewritten: dict[str, Any]) -> None:
    defs = standard.get("$defs", {})
    old, new = EcmaValidator(standard), EcmaValidator(rewritten)

    @JUDGED
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(valid(standard, defs))
        if data.draw(st.booleans()):
            instance = data.draw(near_miss(instance, standard, defs))
        assert old.is_valid(instance) == new.is_valid(instance), instance

    check()


def test_the_rewrite_inlines_refs_and_writes_type_lists_as_any_of() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/T", "description": "mine"},
            "b": {"$ref": "#/$defs/T", "minLength": 2},
            "c": {"type": ["string", "null"], "maxLength": 3},
        },
        "$defs": {"T": {"type": "string", "minLength": 1, "description": "theirs"}},
    }
    out = portable(schema)
    assert "$defs" not in out
    assert out["properties"]["a"] == {"type": "string", "minLength": 1, "description": "mine"}
    assert out["properties"]["b"] == {"allOf": [schema["$defs"]["T"]], "minLength": 2}
    assert out["properties"]["c"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}], "maxLength": 3
    }  # fmt: skip
    tree = {"$ref": "#/$defs/Node", "$defs": {"Node": {"properties": {"kids": {
        "items": {"$ref": "#/$defs/Node"}}}}}}  # fmt: skip
    with pytest.raises(Recursive):
        portable(tree)


# A `$ref`'s siblings that read keywords of its target (or the reverse): merged into one
# object they judged otherwise (found by an adversarial review). Target, siblings, instances.
INTERACTING = [
    ({"type": "array", "items": {"type": "integer"}}, {"prefixItems": [{"type": "string"}]},
     [["s"], [1], ["s", 1]]),
    ({"type": "object", "properties": {"x": {"type": "integer"}}},
     {"additionalProperties": False}, [{"x": 1}, {}]),
    ({"type": "array", "contains": {"const": 2}}, {"minContains": 2}, [[2], [2, 2], [1]]),
    ({"type": "array", "contains": {"const": 2}}, {"minContains": 0}, [[], [2], [1]]),
    ({"if": {"type": "integer"}}, {"then": {"minimum": 5}}, [1, 6, "a"]),
    ({"type": "object", "patternProperties": {"^x": {"type": "integer"}}},
     {"additionalProperties": False}, [{"x1": 1}, {"y": 1}]),
    ({"type": "array", "prefixItems": [{"type": "string"}]}, {"items": False}, [["s"], ["s", 1]]),
    ({"type": "array", "minContains": 2}, {"contains": {"const": 1}}, [[1], [1, 1], []]),
    ({"type": "object", "unevaluatedProperties": False},
     {"properties": {"b": {"type": "string"}}}, [{"b": "x"}, {}]),
    ({"type": "array", "unevaluatedItems": False}, {"prefixItems": [{"type": "string"}]},
     [["x"], []]),
    # the siblings' own allOf replaced the target's place in it (found by a later review)
    ({"type": "object", "properties": {"x": {"type": "integer"}}, "unevaluatedProperties": False},
     {"allOf": [{"required": ["x"]}]}, [{"x": "s"}, {"x": 1}, {"x": 1, "y": 1}]),
    ({"type": "string", "minLength": 3, "allOf": [{"maxLength": 5}]},
     {"allOf": [{"pattern": "^a"}]}, ["abcdef", "ab", "abc", "bcd"]),
]  # fmt: skip


@pytest.mark.parametrize(("target", "siblings", "instances"), INTERACTING)
def test_siblings_reading_their_target_are_not_merged_into_it(
    target: dict[str, Any], siblings: dict[str, Any], instances: list[Any]
) -> None:
    standard = {"$ref": "#/$defs/T", **siblings, "$defs": {"T": target}}
    rewritten = portable(standard)
    assert "$ref" not in json.dumps(rewritten)
    old, new = EcmaValidator(standard), EcmaValidator(rewritten)
    for instance in instances:
        assert old.is_valid(instance) == new.is_valid(instance), instance
    # The cases can fail: a plain merge, or the siblings' allOf over the target's, errs.
    wrong = [EcmaValidator({**target, **siblings}), EcmaValidator({"allOf": [target], **siblings})]
    assert any(w.is_valid(i) != old.is_valid(i) for w in wrong for i in instances)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any, Any]]:
    root = tmp_path_factory.mktemp("portable")
    found = {}
    for config in CONFIGS:
        copy = _portable_copy(config, root)
        found[config.name] = (
            copy,
            verbs.compile_config(config, cwd=config),
            verbs.compile_config(copy, cwd=copy),
        )
    return found


@pytest.mark.parametrize("config", [c.name for c in CONFIGS])
def test_every_config_judges_alike_in_both_forms(
    compiled: dict[str, tuple[Path, Any, Any]], config: str
) -> None:
    _, standard, rewritten = compiled[config]
    if rewritten.package is None:  # only a recursive type stops the portable form
        assert {d.code for d in rewritten.diagnostics if d.is_error} == {"portable-recursive"}
        return
    old, new = _served(standard.files), _served(rewritten.files)
    assert old.keys() == new.keys()
    for name, descriptor in old.items():
        served = new[name]["inputSchema"]
        assert "$ref" not in json.dumps(served), name
        assert served == portable(descriptor["inputSchema"])
        _same_verdicts(descriptor["inputSchema"], served)
        contract = json.loads(rewritten.files[f"contracts/{name}.json"])
        assert contract["tool"]["inputSchema"] == served  # what the fingerprints cover
        schema_file = json.loads(rewritten.files[f"schemas/{name}.input.json"])
        assert schema_file == served  # one form, not a second file
        if "dev.toolc/proxied" in descriptor["_meta"]:
            assert new[name].get("outputSchema") == descriptor.get("outputSchema")  # as declared
            continue
        output = new[name]["outputSchema"]  # the envelope too (decision 0106)
        assert "$ref" not in json.dumps(output), name
        assert output == portable(descriptor["outputSchema"])
        assert success_data(output) == _data_alone(descriptor["outputSchema"])
        _same_verdicts(descriptor["outputSchema"], output)
        assert contract["tool"]["outputSchema"] == output
        assert json.loads(rewritten.files[f"schemas/{name}.output.json"]) == output


def _data_alone(output: dict[str, Any]) -> Any:
    """The success data of a standard outputSchema rewritten as a document of its own (its
    `$defs` beside it): what the portable outputSchema must hold inlined."""
    data = success_data(output)
    return data if isinstance(data, bool) else portable({**data, "$defs": output["$defs"]})


@pytest.mark.parametrize("config", [c.name for c in CONFIGS])
def test_the_models_agree_with_the_portable_form(
    compiled: dict[str, tuple[Path, Any, Any]], config: str, tmp_path: Path
) -> None:
    copy, _, rewritten = compiled[config]
    if rewritten.package is None:
        return
    name = f"portable_{config.replace('-', '_')}"
    result = verbs.build(copy, tmp_path / name, tmp_path / "snap.json", write=True, cwd=copy)
    assert result.written, result.diagnostics
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))
    for spec in package.TOOLS.values():
        _model_agrees(dict(spec.input_schema), spec.args_model)


def _model_agrees(schema: dict[str, Any], model: Any) -> None:
    """The args model accepts exactly what the reference validator accepts."""
    reference = EcmaValidator(schema)

    @JUDGED
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(valid(schema, {}))
        if data.draw(st.booleans()):
            instance = data.draw(near_miss(instance, schema, {}))
        try:
            model.model_validate(instance)
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        assert accepted == reference.is_valid(instance), instance

    check()


@settings(
    max_examples=25, database=None, deadline=None, phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(data=st.data())
def test_random_configs_judge_alike_in_both_forms(data: st.DataObject) -> None:
    config, policies = data.draw(projects())
    policies_text = as_yaml(policies) if policies is not None else None
    standard = compile(inputs_of_texts("random", as_yaml(config), policies_text))
    if standard.package is None:
        return
    rewritten = compile(
        inputs_of_texts("random", as_yaml({"publish": "portable", **config}), policies_text)
    )
    if rewritten.package is None:
        assert {d.code for d in rewritten.diagnostics if d.is_error} == {"portable-recursive"}
        return
    new = _served(rewritten.files)
    for name, descriptor in _served(standard.files).items():
        before, after = descriptor["inputSchema"], new[name]["inputSchema"]
        assert after == portable(before)
        old, rewritten_ = EcmaValidator(before), EcmaValidator(after)
        for _ in range(8):  # instances drawn here: a @given inside a @given is refused
            try:
                instance = data.draw(valid(before, before.get("$defs", {})))
                if data.draw(st.booleans()):
                    instance = data.draw(near_miss(instance, before, before.get("$defs", {})))
            except InvalidArgument:  # bounds no value meets: nothing to draw
                break
            assert old.is_valid(instance) == rewritten_.is_valid(instance), (name, instance)


def test_a_recursive_type_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(
        "publish: portable\ntools:\n  walk:\n    version: 1.0.0\n    description: Walks.\n"
        "    mcp_server: s\n    tool_type: query\n    args_schema:\n"
        "      tree: {$ref: '#/types/Node'}\n"
        "types:\n  Node:\n    type: object\n    properties:\n"
        "      kids: {type: array, items: {$ref: '#/types/Node'}}\n"
    )
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    [found] = [d for d in result.diagnostics if d.is_error]
    assert found.code == "portable-recursive" and found.span.line == 8
    assert "'Node'" in found.message


def test_a_recursive_type_in_a_multi_item_tool_is_the_same_error(tmp_path: Path) -> None:
    """The multi-item check (0140) made the portable form of the arguments and let its
    Recursive escape: an internal error where `portable-recursive` is due (`make fuzz`)."""
    (tmp_path / "tools.yaml").write_text(
        "publish: portable\ntools:\n  walk:\n    version: 1.0.0\n    description: Walks.\n"
        "    mcp_server: s\n    tool_type: query\n"
        "    multi_item: {item: {type: object, required: [success],"
        " properties: {success: {type: boolean}}}}\n    args_schema:\n"
        "      ids: {type: array, items: {type: string}}\n"
        "      tree: {$ref: '#/types/Node'}\n"
        "types:\n  Node:\n    type: object\n    properties:\n"
        "      kids: {type: array, items: {$ref: '#/types/Node'}}\n"
    )
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    assert [d.code for d in result.diagnostics if d.is_error] == ["portable-recursive"]


def test_a_recursive_type_in_the_data_is_located_at_returns(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(
        "publish: portable\ntools:\n  walk:\n    version: 1.0.0\n    description: Walks.\n"
        "    mcp_server: s\n    tool_type: query\n    args_schema:\n"
        "      depth: {type: integer}\n"
        "    returns: {$ref: '#/types/Node'}\n"
        "types:\n  Node:\n    type: object\n    properties:\n"
        "      kids: {type: array, items: {$ref: '#/types/Node'}}\n"
    )
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    [found] = [d for d in result.diagnostics if d.is_error]
    assert found.code == "portable-recursive" and found.span.line == 10
    assert "its data reach 'Node'" in found.message


def test_a_recursive_type_no_tool_reaches_is_only_unused(tmp_path: Path) -> None:
    """Every shared type was judged with each tool: an unused recursive one failed them all
    (`portable-recursive`, "its data reach 'Node'") beside its `unused-type` warning."""
    (tmp_path / "tools.yaml").write_text(
        "publish: portable\ntools:\n  walk:\n    version: 1.0.0\n    description: Walks.\n"
        "    mcp_server: s\n    tool_type: query\n    args_schema:\n"
        "      depth: {type: integer}\n"
        "    returns: {type: object, properties: {a: {type: string}}}\n"
        "types:\n  Node:\n    type: object\n    properties:\n"
        "      kids: {type: array, items: {$ref: '#/types/Node'}}\n"
    )
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    assert [d.code for d in result.diagnostics] == ["unused-type"]


def test_the_cache_rebuilds_a_portable_config_as_a_full_compile_does(tmp_path: Path) -> None:
    config = _portable_copy(next(e for e in EXAMPLES if e.name == "retail"), tmp_path)
    out, snapshot = tmp_path / "out" / "pkg", tmp_path / "snap.json"
    assert verbs.build(config, out, snapshot, write=True, cwd=config).written
    tools = config / "tools.yaml"
    tools.write_text(
        tools.read_text().replace("Cancela um ou mais pedidos.", "Cancela pedidos.", 1)
    )
    cached = verbs.build(config, out, snapshot, write=False, cwd=config)
    full = verbs.build(config, out, snapshot, write=False, cwd=config, cache=False)
    assert cached.files == full.files
    assert cached.reread is not None  # the cache was used, re-reading one tool


# Repeatable by default, as tests/test_random_configs.py (decision 0115): a gate that fails on
# one run's draw blocks what it did not test. `TOOLC_RANDOM_SEED=random` (with
# `TOOLC_RANDOM_PORTABLE=N` examples) hunts for new cases; the seed is in the failure report.
SEED = os.environ.get("TOOLC_RANDOM_SEED", "0")
SEED_VALUE = random.randrange(2**32) if SEED == "random" else int(SEED)
COUNT = int(os.environ.get("TOOLC_RANDOM_PORTABLE", "6"))


@seed(SEED_VALUE)
@settings(
    max_examples=COUNT, database=None, deadline=None, phases=[Phase.generate],
    suppress_health_check=list(HealthCheck), print_blob=True,
)  # fmt: skip
@given(data=st.data())
def test_random_portable_packages_have_models_that_agree(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    config, policies = data.draw(projects())
    root = tmp_path_factory.mktemp("random_portable")
    (root / "tools.yaml").write_text(as_yaml({**config, "publish": "portable"}))
    if policies is not None:
        (root / "tool_policies.yaml").write_text(as_yaml(policies))
    name = root.name.replace("-", "_")
    result = verbs.build(root, root / "out" / name, root / "snap.json", write=True, cwd=root)
    if not result.written:
        return  # refused (a recursive type, or what the random config gets wrong)
    sys.path.insert(0, str(root / "out"))
    try:
        package = importlib.import_module(name)
    finally:
        sys.path.remove(str(root / "out"))
    assert_models_agree(data, package, SEED_VALUE, 6)


def _contract(text: str, form: str) -> dict[str, Any]:
    config = json.loads(text)  # the corpus writes JSON (a YAML 1.2 document)
    if form == "portable":
        config = {"publish": "portable", **config}
    done = compile(inputs_of_texts("evolution", json.dumps(config), None))
    assert done.package is not None, done.diagnostics
    return json.loads(done.files["contracts/t.json"])  # type: ignore[no-any-return]


def test_a_portable_contract_changes_as_the_standard_one_does() -> None:
    # The envelope's parts are inlined in a portable outputSchema: the comparison puts them
    # back (decision 0106), so a change of the data is classified alike, not as the envelope's.
    # Cases whose fragment has a `$ref` or a type list are rewritten in the portable form, so
    # they are another comparison: left out.
    cases = sorted((FIXTURES / "evolution").glob("kw-*"))
    judged = 0
    for case in cases:
        before = (case / "before" / "tools.yaml").read_text(encoding="utf-8")
        after = (case / "after" / "tools.yaml").read_text(encoding="utf-8")
        if "$ref" in before + after or '"type": [' in before + after:
            continue
        standard = compare_tool("t", _contract(before, "standard"), _contract(after, "standard"))
        rewritten = compare_tool("t", _contract(before, "portable"), _contract(after, "portable"))
        assert [(f.rule, f.path) for f in rewritten] == [(f.rule, f.path) for f in standard], case
        judged += 1
    assert judged > 50


def test_a_version_bump_alone_keeps_a_portable_contract_fingerprint() -> None:
    # The inlined envelope Meta carries the version const: starred, as the standard form's is.
    text = (
        "publish: portable\ntools:\n  t:\n    version: {v}\n    description: Reads.\n"
        "    mcp_server: s\n    tool_type: query\n    args_schema:\n"
        "      a: {{type: string}}\n    returns: {{type: object}}\n"
    )
    prints = []
    for version in ("1.0.0", "1.1.0"):
        done = compile(inputs_of_texts("v", text.format(v=version), None))
        assert done.package is not None, done.diagnostics
        contract = json.loads(done.files["contracts/t.json"])
        assert "$defs" not in contract["tool"]["outputSchema"]
        prints.append(contract_fingerprint(contract))
    assert prints[0] == prints[1]
