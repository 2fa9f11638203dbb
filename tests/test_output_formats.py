"""The server never sends a structuredContent its own outputSchema refuses under the format
rules of the official TypeScript SDK client (ajv-formats): an answer with a `created_at` of
"yesterday" is INVALID_RESULT naming the field, where it used to reach that client as ok and be
thrown away (McpError -32602). Proven with the TypeScript client itself, and with the Python one,
in both published forms: a portable outputSchema (decision 0106) has the data inlined, and the
server finds it there alike."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from node_support import run_node
from runtime_support.harness import SUPPORT, Connection, build

CONFIG = SUPPORT / "formats"
CALLS = [
    ("get_issue", {"case": "good"}),
    ("get_issue", {"case": "bad-date"}),
    ("get_issue", {"case": "bad-uri"}),
    ("get_issue", {"case": "bad-nested"}),
    ("list_issues", {"numbers": [2, 4]}),
    ("list_issues", {"numbers": [2, 3]}),
]
EXPECTED = [  # what each call answers: None for success, else the failing fields
    None,
    ["data.created_at"],
    ["data.html_url"],
    ["data.labels[0].updated"],
    None,
    ["data.results[1].closed_at"],
]


@pytest.fixture(scope="module", params=["standard", "portable"])
def pkg(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    root = tmp_path_factory.mktemp("formats")
    config = CONFIG
    if request.param == "portable":
        config = root / "config"
        config.mkdir()
        text = (CONFIG / "tools.yaml").read_text(encoding="utf-8")
        (config / "tools.yaml").write_text("publish: portable\n" + text, encoding="utf-8")
    out = build(config, root / "formats_tools")
    served = json.loads((out / "tools.json").read_text(encoding="utf-8"))["tools"]
    assert all(("$ref" in json.dumps(d)) is (request.param == "standard") for d in served)
    return out


def _verdict(envelope: dict[str, Any]) -> list[str] | None:
    if envelope["ok"]:
        return None
    error = envelope["error"]
    assert error["code"] == "INVALID_RESULT", error
    assert error["retryable"] is False and error["errorId"] in error["message"]
    assert all(d["type"] == "format" for d in error["details"])
    return [d["field"] for d in error["details"]]


def test_the_typescript_client_gets_every_answer(pkg: Path) -> None:
    job = {
        "command": sys.executable,
        "args": [str(SUPPORT / "serve.py"), pkg.name, "formats_handlers"],
        "env": {"PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])},
        "elicit": None,
        "calls": [{"name": name, "arguments": args} for name, args in CALLS],
    }
    out = run_node("ts_client.mjs", job)
    assert sorted(out["tools"]) == ["get_issue", "list_issues"]
    verdicts = []
    for (name, _), answer in zip(CALLS, out["results"], strict=True):
        # No McpError: the client validated every structuredContent against the outputSchema.
        assert "result" in answer, (name, answer)
        result = answer["result"]
        assert result["isError"] is (not result["structuredContent"]["ok"])
        verdicts.append(_verdict(result["structuredContent"]))
    assert verdicts == EXPECTED


def test_the_python_client_gets_the_same_answers(pkg: Path) -> None:
    connection = Connection(pkg, "formats_handlers")
    try:
        verdicts = [_verdict(connection.call(name, args)) for name, args in CALLS]
    finally:
        connection.close()
    assert verdicts == EXPECTED


def test_formats_are_found_through_recursive_types_and_open_maps() -> None:
    from toolc.runtime.server_outputs import FormatCheck

    defs = {
        "Node": {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "date"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
        },
        "Plain": {"type": "object", "properties": {"n": {"type": "integer"}}},
    }
    check = FormatCheck(
        {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}, "plain": {"$ref": "#/$defs/Plain"}},
            "additionalProperties": {"type": "string", "format": "uuid"},
        },
        defs,
    )
    tree = {"at": "2024-01-01", "children": [{"at": "2024-01-01"}, {"children": [{"at": "x"}]}]}
    assert check.problems({"root": tree, "plain": {"n": 1}, "id": "nope"}) == [
        {
            "field": "data.root.children[1].children[0].at",
            "reason": "not a valid date, as JSON Schema clients check it",
            "type": "format",
        },
        {
            "field": "data.id",
            "reason": "not a valid uuid, as JSON Schema clients check it",
            "type": "format",
        },
    ]
    assert check.problems({"root": {"at": "2024-01-01"}}) == []
    assert not FormatCheck(defs["Plain"], defs).needed  # a tool without formats pays nothing
