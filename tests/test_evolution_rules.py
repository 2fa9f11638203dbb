"""Contract evolution (issue #5): the rule corpus, in the spirit of buf's testdata /
testdata_previous. Each case of tests/fixtures/evolution holds a `before` and an `after` config
and `expected.txt`, one line per finding: `rule-id level tool path` (empty: no finding at all).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, FIXTURES, ROOT
from evolution_configs import PREFIX, buildable, configs
from evolution_fragments import CASES as FRAGMENT_CASES
from toolc import verbs
from toolc.cli import cli
from toolc.contract.snapshot import contract_fingerprint
from toolc.diagnostics.docs import evolution_page
from toolc.evolution.compare import compare_all, compare_tool
from toolc.evolution.findings import (
    ALL_TOOLS,
    Bump,
    Finding,
    findings_for_tool,
    minimum_version,
    required_bump,
)
from toolc.evolution.rules import RULES, Level
from toolc.evolution.views import contract_version

CORPUS = FIXTURES / "evolution"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
# Rules no config edit can trigger (toolc's own envelope), exercised by the tests below instead.
# The fragment corpus (tests/evolution_fragments.py) is in it as whole configs, `kw-<case>`
# (tests/evolution_configs.py writes them).
NOT_IN_CORPUS = {"envelope-changed"}
KEYWORD_CASES = [c for c in CASES if c.startswith(PREFIX)]


@cache
def contracts(config: Path) -> dict[str, dict[str, Any]]:
    """The contract documents of a config, built in memory."""
    checked = verbs.compile_config(config, config)
    files = checked.files
    assert not checked.has_errors, [d.message for d in checked.diagnostics]
    prefix = "contracts/"
    return {
        name[len(prefix) : -len(".json")]: json.loads(data)
        for name, data in files.items()
        if name.startswith(prefix)
    }


def expected(case: str) -> list[str]:
    text = (CORPUS / case / "expected.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def lines(findings: list[Finding]) -> list[str]:
    return sorted(f.line() for f in findings)


@pytest.mark.parametrize("case", CASES)
def test_corpus_case(case: str) -> None:
    found = compare_all(contracts(CORPUS / case / "before"), contracts(CORPUS / case / "after"))
    assert lines(found) == sorted(expected(case))
    for f in found:
        assert f.rule in RULES and f.level == RULES[f.rule].level
        assert f.message.startswith(f"tool '{f.tool}': ")


@pytest.mark.parametrize("case", CASES)
def test_the_reverse_change_is_classified_too(case: str) -> None:
    # Every change undone is a change again: never silent, never a crash.
    before, after = contracts(CORPUS / case / "before"), contracts(CORPUS / case / "after")
    assert bool(compare_all(after, before)) == bool(expected(case))


def test_the_keyword_cases_are_the_fragment_corpus_as_configs() -> None:
    made = {f"{PREFIX}{c.name}": c for c in FRAGMENT_CASES if buildable(c)}
    assert sorted(made) == KEYWORD_CASES  # `python tests/evolution_configs.py` rewrites them
    for name, case in made.items():
        before, after, lines = configs(case)
        assert (CORPUS / name / "before" / "tools.yaml").read_text(encoding="utf-8") == before
        assert (CORPUS / name / "after" / "tools.yaml").read_text(encoding="utf-8") == after
        assert expected(name) == lines, name


@pytest.mark.parametrize("case", KEYWORD_CASES)
def test_toolc_diff_reports_the_keyword_case(case: str) -> None:
    """The real CLI: `toolc diff after --against before`, its JSON findings, one per line."""
    args = ["diff", str(CORPUS / case / "after"), "--against", str(CORPUS / case / "before")]
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    rows = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    found = sorted(f"{r['rule']} {r['level']} {r['tool']} {r['path']}" for r in rows if "rule" in r)
    assert found == sorted(expected(case)), result.output
    assert result.exit_code == 1  # the version stayed: every change fails the gate


def test_every_rule_is_exercised_by_the_corpus() -> None:
    exercised = {line.split()[0] for case in CASES for line in expected(case)}
    assert exercised | NOT_IN_CORPUS == set(RULES), set(RULES) - exercised - NOT_IN_CORPUS
    assert not exercised - set(RULES)


def test_expected_lines_name_rules_at_their_level() -> None:
    for case in CASES:
        for line in expected(case):
            rule, level, *_ = line.split()
            assert RULES[rule].level == level, (case, line)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_a_contract_compared_with_itself_has_no_finding(example: Path) -> None:
    built = contracts(example)
    assert compare_all(built, copy.deepcopy(built)) == []


def test_the_committed_example_contracts_match_their_config() -> None:
    for example in EXAMPLES:
        committed = {
            p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in (example / "generated" / "mcp_tools" / "contracts").glob("*.json")
        }
        assert compare_all(committed, contracts(example)) == []


def _upgrade_envelope(contract: Mapping[str, Any]) -> dict[str, Any]:
    """What a toolc release changing the envelope would do to a contract: a new framework code
    in ErrorInfo, a new envelope version."""
    new = copy.deepcopy(dict(contract))
    error_info = new["tool"]["outputSchema"]["$defs"]["envelope.ErrorInfo"]
    error_info["properties"]["code"]["enum"] = sorted([*error_info["properties"]["code"]["enum"], "RATE_LIMITED"])  # fmt: skip
    new["envelope_version"] = "2.1.0"
    return new


def test_an_envelope_upgrade_is_one_finding_naming_the_versions_and_the_tools() -> None:
    old = contracts(ROOT / "examples" / "retail")
    new = {name: _upgrade_envelope(c) for name, c in old.items()}
    found = compare_all(old, new)
    assert [f.line() for f in found] == ["envelope-changed breaking * /envelope_version"]
    (envelope,) = found
    assert envelope.tool == ALL_TOOLS
    assert envelope.affects == ("cancelar_pedidos", "consultar_pedidos")
    assert "from 2.0.0 to 2.1.0" in envelope.message and "RATE_LIMITED" in envelope.message
    assert compare_tool("cancelar_pedidos", old["cancelar_pedidos"], new["cancelar_pedidos"]) == []
    assert findings_for_tool(found, "consultar_pedidos") == [envelope]
    assert required_bump(findings_for_tool(found, "consultar_pedidos"), "1.0.0") == "major"


def test_an_envelope_upgrade_beside_a_tool_change_keeps_both_apart() -> None:
    old = contracts(ROOT / "examples" / "retail")
    new = {name: _upgrade_envelope(c) for name, c in old.items()}
    new["consultar_pedidos"]["errors"] = {"BUSY": {"retryable": True}}
    codes = new["consultar_pedidos"]["tool"]["outputSchema"]["$defs"]["envelope.ErrorInfo"]
    codes["properties"]["code"]["enum"].append("BUSY")  # a tool code is the tool's, not toolc's
    assert lines(compare_all(old, new)) == [
        "envelope-changed breaking * /envelope_version",
        "error-code-added compatible consultar_pedidos /errors/BUSY",
    ]


def test_the_multi_item_normalization_is_envelope_not_data() -> None:
    old = contracts(ROOT / "examples" / "retail")
    new = copy.deepcopy(old)
    for contract in new.values():
        data = contract["tool"]["outputSchema"]["$defs"]["envelope.Data"]
        data["properties"]["partial_success"] = {"type": ["boolean", "null"]}
    found = compare_all(old, new)
    assert [f.rule for f in found] == ["envelope-changed"]
    assert "version stayed 2.0.0" in found[0].message


def test_compare_tool_lifecycle_and_missing_sides() -> None:
    contract = contracts(ROOT / "examples" / "retail")["consultar_pedidos"]
    assert compare_tool("x", None, None) == []
    assert [f.rule for f in compare_tool("x", None, contract)] == ["tool-added"]
    (removed,) = compare_tool("x", contract, None)
    assert removed.message == "tool 'x': removed" and removed.level == "breaking"


def test_messages_name_the_tool_the_argument_and_the_change() -> None:
    case = CORPUS / "pattern-changed"
    (f,) = compare_all(contracts(case / "before"), contracts(case / "after"))
    assert f.message == "tool 'ping': argument 'code' pattern \"^[A-Z]+$\" → \"^[A-Z]{3}$\""
    case = CORPUS / "result-item-field-removed"
    (f,) = compare_all(contracts(case / "before"), contracts(case / "after"))
    assert f.message == "tool 'ping': data field 'results[].reason' removed"


def test_a_damaged_baseline_does_not_crash() -> None:
    new = contracts(ROOT / "examples" / "retail")["cancelar_pedidos"]
    for old in ({}, {"tool": None}, {"tool": {"inputSchema": []}, "errors": 3}):
        assert compare_tool("cancelar_pedidos", old, new)  # some finding, no exception


def test_findings_are_sorted_by_tool_then_level() -> None:
    case = CORPUS / "pre-validation-added"
    found = compare_all(contracts(case / "before"), contracts(case / "after"))
    assert [(f.tool, f.level) for f in found] == [
        ("check", "compatible"),
        ("check", "compatible"),
        ("check", "compatible"),
        ("check", "compatible"),
        ("ping", "warning"),
    ]
    assert found == compare_all(contracts(case / "before"), contracts(case / "after"))


@pytest.mark.parametrize("case", CASES)
def test_no_finding_exactly_when_the_snapshot_sees_no_change(case: str) -> None:
    # The diff and the version guard must agree: a tool without findings has an unchanged
    # snapshot line (contract fingerprint and server, decision 0144), and a changed one always
    # yields some finding.
    before, after = contracts(CORPUS / case / "before"), contracts(CORPUS / case / "after")
    for name in before.keys() & after.keys():
        same = contract_fingerprint(before[name]) == contract_fingerprint(after[name])
        same = same and before[name]["mcp_server"] == after[name]["mcp_server"]
        assert (compare_tool(name, before[name], after[name]) == []) == same, name


def test_the_envelope_oneof_reordered_is_no_change() -> None:
    old = contracts(ROOT / "examples" / "retail")
    new = copy.deepcopy(old)
    for contract in new.values():
        output = contract["tool"]["outputSchema"]
        for branch in output["oneOf"]:
            branch["required"].reverse()
        output["$defs"]["envelope.ErrorInfo"]["properties"]["code"]["enum"].reverse()
    assert compare_all(old, new) == []


def _retail_tool() -> dict[str, Any]:
    return copy.deepcopy(contracts(ROOT / "examples" / "retail")["cancelar_pedidos"])


def test_keywords_outside_the_config_subset() -> None:
    old, new = _retail_tool(), _retail_tool()
    motivo = new["tool"]["inputSchema"]["properties"]["motivo"]
    motivo["multipleOf"] = 2  # not in toolc's subset, but a baseline may hold anything
    motivo["oneOf"] = [{"maxLength": 3}, {"minLength": 9}]
    # A oneOf whose branches may overlap (issue #12, item 6): undecidable, so breaking.
    assert lines(compare_tool("t", old, new)) == [
        "bound-tightened breaking t /tool/inputSchema/properties/motivo/multipleOf",
        "input-schema-undecided breaking t /tool/inputSchema/properties/motivo/oneOf",
    ]
    old_motivo = old["tool"]["inputSchema"]["properties"]["motivo"]
    old_motivo["multipleOf"], motivo["multipleOf"] = 4, 2
    assert [f.rule for f in compare_tool("t", old, new) if "multipleOf" in f.path] == [
        "bound-loosened"
    ]


def test_a_ref_with_a_sibling_description_is_compared_as_its_target() -> None:
    old, new = _retail_tool(), _retail_tool()
    items = new["tool"]["inputSchema"]["properties"]["order_ids"]["items"]
    items["description"] = "One order."  # beside the $ref: describes this use of OrderId
    assert lines(compare_tool("t", old, new)) == [
        "description-changed docs t /tool/inputSchema/properties/order_ids/items/description"
    ]


@pytest.mark.parametrize(
    ("levels", "old", "bump", "minimum"),
    [
        ((), "1.4.2", None, None),
        (("docs",), "1.4.2", "patch", "1.4.3"),
        (("docs", "compatible"), "1.4.2", "minor", "1.5.0"),
        (("warning",), "1.4.2", "minor", "1.5.0"),
        (("compatible", "breaking"), "1.4.2", "major", "2.0.0"),
        (("breaking",), "0.3.1", "minor", "0.4.0"),
        (("compatible",), "0.3.1", "minor", "0.4.0"),
        (("docs",), "2.0.0-rc.1", "patch", "2.0.0"),
        # A pre-release is one of the release it leads to (npm's semver.inc): from
        # 2.0.0-rc.1 a break needs 2.0.0, not 3.0.0 (session 27).
        (("breaking",), "2.0.0-rc.1", "major", "2.0.0"),
        (("compatible",), "1.3.0-rc.1", "minor", "1.3.0"),
        (("breaking",), "1.3.0-rc.1", "major", "2.0.0"),
        (("compatible",), "1.2.3-rc.1", "minor", "1.3.0"),
    ],
)
def test_required_bump_and_minimum_version(
    levels: tuple[Level, ...], old: str, bump: Bump | None, minimum: str | None
) -> None:
    rule_of = {"breaking": "arg-removed", "compatible": "tool-added", "docs": "title-changed",
               "warning": "default-changed"}  # fmt: skip
    found = [Finding(rule_of[lv], RULES[rule_of[lv]].level, "t", "/", "m") for lv in levels]
    assert required_bump(found, old) == bump
    if bump is not None:
        assert minimum_version(old, bump) == minimum


def test_unclassified_change_needs_a_patch() -> None:
    case = CORPUS / "unclassified-change-def-renamed"
    found = compare_all(contracts(case / "before"), contracts(case / "after"))
    assert required_bump(found, "1.0.0") == "patch"


def test_contract_version_reads_the_meta_const() -> None:
    contract = contracts(ROOT / "examples" / "retail")["consultar_pedidos"]
    assert contract_version(contract) == "3.0.0"
    assert contract_version({}) is None


def test_every_rule_has_a_summary_and_an_explanation() -> None:
    for rule_id, rule in RULES.items():
        assert rule.id == rule_id and rule.level in ("breaking", "compatible", "docs", "warning")
        assert rule.summary.endswith(".") and len(rule.explanation) > 20


def test_evolution_doc_matches_the_rule_table() -> None:
    committed = (ROOT / "docs" / "evolution.md").read_text(encoding="utf-8")
    assert committed == evolution_page(), "docs/evolution.md is stale: run `make docs`"
    for rule_id in RULES:
        assert f"### {rule_id}\n" in committed


def test_a_handler_form_change_names_the_argument_and_needs_a_minor() -> None:
    """Decision 0067: the handler's form (`accepts` tools) is compared apart from the caller's."""
    case = CORPUS / "handler-form-changed"
    old = contracts(case / "before")["cancel"]
    new = copy.deepcopy(old)
    new["handler_input_schema"]["properties"]["items"]["minItems"] = 1
    (f,) = compare_tool("cancel", old, new)
    assert f.line() == "handler-form-changed warning cancel /handler_input_schema/properties/items"
    assert f.message == "tool 'cancel': handler's form changed (argument 'items')"
    assert required_bump([f], "1.0.0") == "minor"
    assert compare_tool("cancel", old, copy.deepcopy(old)) == []
