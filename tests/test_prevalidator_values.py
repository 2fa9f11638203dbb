"""A pre-validator must accept every value its target accepts (issue 9, item 5), as `toolc
check` reports it: both spans, the fix, and no diagnostic that only repeats another."""

from __future__ import annotations

from pathlib import Path

from toolc import verbs
from toolc.diagnostics.render import render_text

TOOLS = """\
tools:
  link_issues:
    version: 1.0.0
    description: Links issues.
    mcp_server: s
    tool_type: query
    args_schema:
      issues: {type: array, items: {type: [integer, string]}}
  validate_links:
    version: 1.0.0
    description: Checks the links.
    mcp_server: s
    tool_type: query
    args_schema:
      issues: {type: array, items: {type: integer}}
"""
POLICY = "tool_policies:\n  link_issues:\n    pre_validation: {tool: validate_links%s}\n"


def _check(tmp_path: Path, tools: str, policy: str = POLICY % "") -> str:
    (tmp_path / "tools.yaml").write_text(tools, encoding="utf-8")
    (tmp_path / "tool_policies.yaml").write_text(policy, encoding="utf-8")
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    return render_text(result.diagnostics, result.sources)


def test_the_issues_example_is_an_error_at_the_validator_noting_the_target(
    tmp_path: Path,
) -> None:
    assert _check(tmp_path, TOOLS) == (
        "tools.yaml:15:43: error[prevalidator-narrower]: pre-validator 'validate_links' refuses "
        "values of 'issues' that 'link_issues' accepts (from 'link_issues' to 'validate_links', "
        "issues[]: type changed from integer | string to integer)\n"
        "   15 |       issues: {type: array, items: {type: integer}}\n"
        "      |                                           ^~~~~~~\n"
        "tools.yaml:8:43: note: 'link_issues' accepts this\n"
        "  = hint: the validator receives the arguments 'link_issues' accepted: make its "
        "'issues' accept them all, or narrow 'link_issues''s\n"
    )


def test_a_wider_validator_is_clean(tmp_path: Path) -> None:
    wider = TOOLS.replace("items: {type: integer}}\n", "items: {type: [integer, string]}}\n")
    assert _check(tmp_path, wider.replace("items: {type: [integer, string]}}", "items: {}}")) == ""


def test_a_disabled_pre_validation_is_checked_too(tmp_path: Path) -> None:
    assert "prevalidator-narrower" in _check(tmp_path, TOOLS, POLICY % ", enabled: false")


def test_a_pattern_against_another_is_a_warning_that_says_it_cannot_tell(tmp_path: Path) -> None:
    tools = TOOLS.replace("{type: array, items: {type: [integer, string]}}", "{pattern: '^a'}")
    tools = tools.replace("{type: array, items: {type: integer}}", "{pattern: '^ab'}")
    out = _check(tmp_path, tools)
    assert out.startswith(
        "tools.yaml:15:25: warning[prevalidator-undecided]: toolc cannot tell whether "
        "pre-validator 'validate_links' accepts every value of 'issues' that 'link_issues' "
        "accepts (from 'link_issues' to 'validate_links', issues: pattern \"^a\" → \"^ab\")\n"
    )
    assert "tools.yaml:8:25: note: 'link_issues' accepts this" in out


def test_an_undeclared_type_is_reported_once_not_again_as_a_narrower_validator(
    tmp_path: Path,
) -> None:
    tools = TOOLS.replace("items: {type: integer}", "items: {$ref: '#/types/Missing'}")
    out = _check(tmp_path, tools)
    assert "unknown-ref" in out and "prevalidator" not in out


def test_a_validator_requiring_what_the_target_leaves_optional_is_refused(
    tmp_path: Path,
) -> None:
    tools = TOOLS.replace(
        "    args_schema:\n      issues: {type: array, items: {type: integer}}",
        "    requires: [issues]\n    args_schema:\n      issues: {type: array, items: {}}",
    )
    out = _check(tmp_path, tools)
    assert (
        "error[prevalidator-arguments]: pre-validator 'validate_links' requires 'issues', which "
        "'link_issues' does not require: every call without it fails pre-validation" in out
    )


def test_a_validator_taking_booleans_for_numbers_is_narrower(tmp_path: Path) -> None:
    """`enum: [false, true]` is no `enum: [0, 1]`, though Python's `True == 1` said so."""
    numbers = TOOLS.replace("{type: array, items: {type: [integer, string]}}", "{enum: [0, 1]}")
    both = numbers.replace("{type: array, items: {type: integer}}", "{enum: [false, true]}")
    assert "error[prevalidator-narrower]" in _check(tmp_path, both)
    same = numbers.replace("{type: array, items: {type: integer}}", "{enum: [0.0, 1]}")
    assert _check(tmp_path, same) == ""  # 0.0 is 0 to JSON Schema
