"""The audit hook of a generated server (issue 14 item 2), over a real stdio transport: one
record per answered call, after sealing, with the tool, its version, the outcome code, the
errorId, whether the user confirmed and the envelope's `data`; a hook that raises changes
no answer (the failure is logged)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from runtime_support.harness import EXAMPLES, Connection, package

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(RETAIL, tmp_path_factory.mktemp("audit"))


def _calls(conn: Connection) -> list[dict[str, Any]]:
    return [
        conn.call("consultar_pedidos", {"order_ids": ["P-100"]}),
        conn.call("cancelar_pedidos", {"order_ids": ["P-1"]}),
        conn.call("consultar_pedidos", {"order_ids": ["P-500"]}),
        conn.call("cancelar_pedidos", {"order_ids": []}),
    ]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_one_record_per_call_after_sealing(pkg: Path, tmp_path: Path, mode: str) -> None:
    trail = tmp_path / "audit.jsonl"
    conn = Connection(pkg, "retail_handlers", mode=mode, env={"RUNTIME_TEST_AUDIT": str(trail)})
    try:
        answers = _calls(conn)
    finally:
        conn.close()
    records = _records(trail)
    assert len(records) == len(answers)  # the confirmation's first request records nothing
    for record, envelope in zip(records, answers, strict=True):
        assert record["tool"] == envelope["meta"]["tool"]
        assert record["version"] == envelope["meta"]["version"]
        assert record["outcome"] == (envelope["error"]["code"] if not envelope["ok"] else "ok")
        assert record["data"] == envelope.get("data")
        assert record["error_id"] == (envelope.get("error") or {}).get("errorId")
    assert [r["outcome"] for r in records] == ["ok", "ok", "TOOL_ERROR", "VALIDATION_ERROR"]
    assert [r["confirmed"] for r in records] == [False, True, False, False]
    assert records[1]["data"]["results"][0]["order_id"] == "P-1"  # what the trail reads
    assert records[2]["error_id"]


def test_a_failing_hook_changes_no_answer(pkg: Path, tmp_path: Path) -> None:
    trail, log = tmp_path / "audit.jsonl", tmp_path / "server.log"
    plain = Connection(pkg, "retail_handlers")
    try:
        expected = _calls(plain)
    finally:
        plain.close()
    env = {"RUNTIME_TEST_AUDIT": str(trail), "RUNTIME_TEST_AUDIT_FAILS": "1"}
    failing = Connection(pkg, "retail_handlers", env=env, log=log)
    try:
        got = _calls(failing)
    finally:
        failing.close()
    for envelope in (*expected, *got):  # errorIds are fresh per call
        envelope.get("error", {}).pop("errorId", None)
        if "message" in envelope.get("error", {}) and "errorId" in envelope["error"]["message"]:
            envelope["error"]["message"] = "(errorId)"
    assert got == expected
    assert len(_records(trail)) == 4
    assert log.read_text().count("audit hook failed") == 4
