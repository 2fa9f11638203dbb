"""`--format sarif` for check, build and diff: valid against the SARIF 2.1.0 JSON Schema (vendored,
tests/fixtures/sarif), each result the same finding the JSON format reports at the same place,
and each rule's metadata the catalogue's, so code scanning shows what `toolc explain` says."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import FIXTURES, run_toolc
from toolc.diagnostics.catalogue import catalogue
from toolc.diagnostics.sarif import _uri

SCHEMA = json.loads((FIXTURES / "sarif" / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8"))
ERRORS = FIXTURES / "diagnostics" / "independent-errors"

TOOLS = """\
tools:
  get_order:
    version: 1.4.0
    description: Looks up one order.
    mcp_server: shop
    tool_type: query
    requires: [order_id]
    args_schema:
      order_id: {type: string}
      verbose: {type: boolean}
  list_orders:
    version: 0.3.0
    description: Lists orders.
    mcp_server: shop
    tool_type: query
"""


def _valid_sarif(text: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(text)
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]
    assert not problems, problems
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    return log


def _rules_are_the_catalogues(run: dict[str, Any]) -> None:
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    for rule in rules:
        aspect = catalogue()[rule["id"]][0]
        assert rule["shortDescription"]["text"] == aspect.summary
        assert aspect.explanation in rule["fullDescription"]["text"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def _places(run: dict[str, Any]) -> list[tuple[str, str, int, int, int, int]]:
    out = []
    for r in run["results"]:
        where = r["locations"][0]["physicalLocation"]
        region = where["region"]
        out.append((r["ruleId"], where["artifactLocation"]["uri"], region["startLine"],
                    region["startColumn"], region["endLine"], region["endColumn"]))  # fmt: skip
    return out


@pytest.mark.parametrize("verb", ["check", "build"])
def test_every_diagnostic_is_a_located_result(verb: str, tmp_path: Path) -> None:
    args = (
        [verb, "."] + (["--out", str(tmp_path / "out")] if verb == "build" else []) + ["--format"]
    )
    sarif = run_toolc(*args, "sarif", cwd=ERRORS)
    as_json = run_toolc(*args, "json", cwd=ERRORS)
    assert sarif.returncode == as_json.returncode == 1, sarif.stderr
    run = _valid_sarif(sarif.stdout)["runs"][0]
    expected = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert len(expected) >= 3  # the fixture holds several independent mistakes
    assert _places(run) == [
        (d["code"], d["path"], d["line"], d["column"], d["end"]["line"], d["end"]["column"])
        for d in expected
    ]
    assert [r["level"] for r in run["results"]] == [d["severity"] for d in expected]
    for r, d in zip(run["results"], expected, strict=True):
        assert r["message"]["text"].startswith(d["message"])
        if "hint" in d:
            assert r["message"]["text"].endswith("hint: " + d["hint"])
    _rules_are_the_catalogues(run)
    assert not (tmp_path / "out").exists()  # nothing written for a failed build


def test_a_note_becomes_a_related_location(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(TOOLS + "  get_order:\n    version: 1.0.0\n")
    run = _valid_sarif(run_toolc("check", ".", "--format", "sarif", cwd=tmp_path).stdout)["runs"][0]
    [dup] = [r for r in run["results"] if r.get("relatedLocations")]
    [related] = dup["relatedLocations"]
    assert related["message"]["text"] == "'get_order' first defined here"
    assert related["physicalLocation"]["region"]["startLine"] == 2


def test_a_clean_run_is_an_empty_valid_log() -> None:
    done = run_toolc(
        "check", ".", "--format", "sarif", cwd=FIXTURES.parent.parent / "examples" / "retail"
    )
    assert done.returncode == 0, done.stderr
    run = _valid_sarif(done.stdout)["runs"][0]
    assert run["results"] == [] and run["tool"]["driver"]["name"] == "toolc"


def test_diff_reports_each_finding_and_suppresses_the_accepted(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "tools.yaml").write_text(TOOLS)
    assert run_toolc("build", str(config)).returncode == 0
    changed = (
        TOOLS.replace("      verbose: {type: boolean}\n", "")
        .replace("1.4.0", "1.5.0")
        .replace("version: 0.3.0", "version: 0.4.0")
        .replace("Lists orders.", "Lists.")
    )
    (config / "tools.yaml").write_text(changed)
    sarif = run_toolc("diff", str(config), "--format", "sarif")
    as_json = run_toolc("diff", str(config), "--format", "json")
    assert sarif.returncode == as_json.returncode == 1
    run = _valid_sarif(sarif.stdout)["runs"][0]
    findings = [json.loads(line) for line in as_json.stdout.splitlines()[:-1]]
    assert sorted(r["ruleId"] for r in run["results"]) == sorted(f["rule"] for f in findings)
    removed = next(r for r in run["results"] if r["ruleId"] == "arg-removed")
    assert removed["level"] == "error"  # it alone sets the major bump 1.5.0 misses
    assert removed["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "cfg/tools.yaml"
    )
    assert any(r["level"] == "note" for r in run["results"])  # the description: docs
    _rules_are_the_catalogues(run)
    # An accepted break is still reported, suppressed in source.
    accepted = (
        "accepted_breaks:\n"
        "  - {tool: get_order, from: 1.4.0, to: 1.5.0, rule: arg-removed, reason: never read}\n"
    )
    (config / "tools.yaml").write_text(changed + accepted)
    run = _valid_sarif(run_toolc("diff", str(config), "--format", "sarif").stdout)["runs"][0]
    suppressed = [r for r in run["results"] if "suppressions" in r]
    assert [r["ruleId"] for r in suppressed] == ["arg-removed"]
    assert suppressed[0]["suppressions"][0]["kind"] == "inSource"
    assert suppressed[0]["level"] == "note"


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("tools.yaml", "tools.yaml"),
        ("my config/tools.yaml", "my%20config/tools.yaml"),
        ("conf/ferramentas-ç.yaml", "conf/ferramentas-%C3%A7.yaml"),
        ("/srv/a b/tools.yaml", "file:///srv/a%20b/tools.yaml"),
        # A drive and backslashes are Windows' alone: on POSIX they are a name's characters.
        (
            "C:\\cfg\\tools.yaml",
            "file:///C:/cfg/tools.yaml" if os.name == "nt" else "C%3A%5Ccfg%5Ctools.yaml",
        ),
    ],
)
def test_paths_become_uri_references(path: str, uri: str) -> None:
    assert _uri(path) == uri
