"""Per-tool MCP annotations (issue 9, item 8): derived from the operation type, overridden by
`annotations:`, published in tools/list; an explicit `confirmation_required: false` states that
a transactional tool needs no confirmation, so `check --strict` passes on a correct config."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_toolc
from toolc import verbs

HEAD = "tools:\n"
TOOL = """\
  {name}:
    version: 1.0.0
    description: Does {name}.
    mcp_server: gh
    tool_type: {kind}
{extra}"""


def _config(tmp_path: Path, *tools: tuple[str, str, str], policies: str | None = None) -> Path:
    text = HEAD + "".join(TOOL.format(name=n, kind=k, extra=e) for n, k, e in tools)
    (tmp_path / "tools.yaml").write_text(text, encoding="utf-8")
    if policies is not None:
        (tmp_path / "tool_policies.yaml").write_text(policies, encoding="utf-8")
    return tmp_path


def _published(config: Path) -> dict[str, dict[str, object]]:
    checked = verbs.compile_config(config, config)
    files = checked.files
    assert not checked.has_errors, checked.diagnostics
    listed = json.loads(files["tools.json"])
    tools = listed if isinstance(listed, list) else listed["tools"]
    return {t["name"]: t["annotations"] for t in tools}


def test_derived_annotations_without_an_annotations_mapping(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        ("lookup", "query", ""),
        ("purge", "action", "    confirmation_required: true\n"),
    )
    assert _published(config) == {
        "lookup": {"title": "Lookup", "readOnlyHint": True},
        "purge": {"title": "Purge", "readOnlyHint": False, "destructiveHint": True},
    }


def test_stated_hints_override_the_derived_ones_and_are_published(tmp_path: Path) -> None:
    stated = (
        "    confirmation_required: false\n"
        "    annotations: {destructiveHint: false, idempotentHint: true, openWorldHint: false}\n"
    )
    search = "    annotations: {openWorldHint: true, idempotentHint: true}\n"
    config = _config(tmp_path, ("create_issue", "action", stated), ("search", "query", search))
    assert _published(config) == {
        "create_issue": {
            "title": "Create issue",
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
        "search": {
            "title": "Search",
            "readOnlyHint": True,
            "idempotentHint": True,
            "openWorldHint": True,
        },
    }


def test_an_explicit_false_passes_check_strict(tmp_path: Path) -> None:
    config = _config(tmp_path, ("create_issue", "action", "    confirmation_required: false\n"))
    result = run_toolc("check", "--strict", str(config))
    assert result.returncode == 0, result.stderr


def test_a_policy_that_agrees_keeps_the_acknowledgement(tmp_path: Path) -> None:
    policies = "tool_policies:\n  create_issue: {require_confirmation: false}\n"
    config = _config(
        tmp_path,
        ("create_issue", "action", "    confirmation_required: false\n"),
        policies=policies,
    )
    assert run_toolc("check", "--strict", str(config)).returncode == 0


def test_without_the_explicit_false_the_warning_stays(tmp_path: Path) -> None:
    policies = "tool_policies:\n  create_issue: {require_confirmation: false}\n"
    config = _config(tmp_path, ("create_issue", "action", ""), policies=policies)
    result = run_toolc("check", "--strict", str(config))
    assert result.returncode == 1
    assert "warning[transactional-without-confirmation]" in result.stderr


def test_the_title_is_not_an_annotation_key(tmp_path: Path) -> None:
    config = _config(tmp_path, ("lookup", "query", "    annotations: {title: Look}\n"))
    result = run_toolc("check", str(config))
    assert result.returncode == 1
    assert "error[unknown-key]: unknown key 'title' in `annotations` of tool 'lookup'" in (
        result.stderr
    )
    assert "hint: the display title is the tool's own `title:`" in result.stderr
