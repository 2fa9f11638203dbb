"""Provider targets (decision 0074): each rule fires on its fixture (tests/fixtures/diagnostics/
targets-*) and on nothing clean; the rules are rows of the catalogue, so `explain`,
`--list-rules` and SARIF show them; every format renders them; the setting is read and checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_toolc
from test_sarif import _rules_are_the_catalogues, _valid_sarif
from toolc import verbs
from toolc.cli.settings import SettingsError, load_settings
from toolc.diagnostics.codes import CODES, TARGETS
from toolc.targets.judge import judge

FIXTURE = FIXTURES / "diagnostics"

# A config each target accepts (openai-strict and gemini want opposite things of
# additionalProperties, so no one config satisfies both).
CLEAN = {
    "openai-strict": """\
    unknown_args: forbid
    requires: [order, note]
    args_schema:
      order: {type: string, format: uuid}
      note: {type: [string, "null"]}
""",
    "anthropic": """\
    args_schema:
      order: {$ref: '#/types/Order'}
""",
    "gemini": """\
    args_schema:
      order: {type: string, description: The order id., maxLength: 20}
""",
    "mcp": """\
    args_schema:
      order: {type: string, minLength: 1}
""",
}


def _config(tmp_path: Path, target: str, args: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f'[tool.toolc]\ntargets = ["{target}"]\n')
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  track_order:\n    version: 1.0.0\n    description: Tracks one order.\n"
        "    mcp_server: shop\n    tool_type: query\n"
        + args
        + ("types:\n  Order: {type: string}\n" if "#/types/Order" in args else "")
    )
    return tmp_path


@pytest.mark.parametrize("target", TARGETS)
def test_a_clean_config_has_no_finding(tmp_path: Path, target: str) -> None:
    config = _config(tmp_path, target, CLEAN[target])
    assert load_settings(config).targets == (target,)
    result = verbs.check_config(config, cwd=config, targets=(target,))
    assert result.diagnostics == []


@pytest.mark.parametrize("target", TARGETS)
def test_every_rule_of_a_target_fires_on_its_fixture(target: str) -> None:
    case = FIXTURE / f"targets-{target.split('-')[0]}"
    found = {d.code for d in verbs.check_config(case, cwd=case, targets=(target,)).diagnostics}
    rules = {c for c, r in CODES.items() if r.target is not None and r.target.name == target}
    assert found == rules - {"mcp-tool-name", "mcp-root-type"}
    assert all(CODES[c].severity.value == "error" for c in found)


def test_what_tools_yaml_cannot_say_is_judged_on_the_descriptor() -> None:
    bad = {"name": "a b", "inputSchema": {"type": "array"}, "outputSchema": {"type": "string"}}
    found = [(f.code, f.where) for f in judge([bad], ("mcp",))]
    assert found == [
        ("mcp-tool-name", ()),
        ("mcp-root-type", ("inputSchema",)),
        ("mcp-root-type", ("outputSchema",)),
    ]


def test_a_target_asked_on_the_command_line_or_unknown(tmp_path: Path) -> None:
    config = _config(tmp_path, "mcp", CLEAN["anthropic"])
    done = run_toolc("check", str(config), "--target", "gemini")
    assert done.returncode == 1 and "error[gemini-ref]" in done.stderr
    assert "error[mcp-ref]" not in done.stderr  # the flag overrides the setting, as flags do
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\ntargets = ["bedrock"]\n')
    with pytest.raises(SettingsError, match="unknown target 'bedrock'"):
        load_settings(config)
    assert run_toolc("check", str(config), "--target", "bedrock").returncode == 2


def test_build_refuses_what_a_target_refuses(tmp_path: Path) -> None:
    config = _config(tmp_path, "gemini", CLEAN["gemini"])
    assert run_toolc("build", str(config)).returncode == 0
    done = run_toolc("build", str(config), "--target", "mcp")  # not skipped as up to date
    assert done.returncode == 0
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\ntargets = ["openai-strict"]\n')
    done = run_toolc("build", str(config))
    assert done.returncode == 1 and "error[openai-strict-open-object]" in done.stderr


def test_explain_and_list_rules_show_the_rules_and_their_sources() -> None:
    listed = run_toolc("explain", "--list-rules").stdout
    explained = run_toolc("explain", "gemini-ref").stdout
    for code, rule in CODES.items():
        if rule.target is not None:
            assert code in listed
    assert "Target `gemini`" in explained and "ai.google.dev" in explained
    assert "Fix: publish the portable form" in explained


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_every_format_renders_the_findings(fmt: str) -> None:
    case = FIXTURE / "targets-mcp"
    done = run_toolc("check", str(case), "--format", fmt, cwd=case)
    assert done.returncode == 1
    shown = done.stdout + done.stderr
    assert "mcp-ref" in shown and "mcp-nullable-type-list" in shown
    if fmt == "json":
        codes = {json.loads(line)["code"] for line in done.stdout.splitlines()}
        assert codes == {"mcp-ref", "mcp-nullable-type-list", "mcp-name-portability"}
    if fmt == "sarif":
        run = _valid_sarif(done.stdout)["runs"][0]
        _rules_are_the_catalogues(run)
        assert {r["ruleId"] for r in run["results"]} >= {"mcp-ref"}


def test_a_finding_in_a_portable_output_schema_is_located_in_returns() -> None:
    # The portable form inlines the data in the success branch (decision 0106).
    from toolc.targets.locate import yaml_path

    inlined = ("outputSchema", "oneOf", 0, "properties", "data", "properties", "total")
    assert yaml_path("t", inlined) == ("tools", "t", "returns", "properties", "total")
    assert yaml_path("t", ("outputSchema", "oneOf", 1)) == ("tools", "t", "returns")


def test_name_lengths_follow_each_provider_as_re_checked() -> None:
    # Re-checked 2026-12: Anthropic takes 128 characters (it took 64), OpenAI and Gemini 64.
    long = {"name": "t" * 100, "inputSchema": {"type": "object", "properties": {}}}
    codes = {f.code for f in judge([long], ("anthropic", "openai-strict", "gemini", "mcp"))}
    assert "anthropic-tool-name" not in codes
    assert {"openai-function-name", "gemini-function-name", "mcp-name-portability"} <= codes
    colon = {"name": "ns:find", "inputSchema": {"type": "object", "properties": {}}}
    assert not [f for f in judge([colon], ("gemini",)) if f.code == "gemini-function-name"]
