"""The generated server served in-process to the SDK's own client, on both of its paths
(the legacy stream loop and the direct per-request one): a sealed call reaches the SDK as
its wire dict (decision 0128), and the client reads the same answer as over stdio — the
envelope in structuredContent and, as JSON, in the text block
(tests/runtime_support/inprocess_run.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from runtime_support.harness import EXAMPLES, SUPPORT, package

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(RETAIL, tmp_path_factory.mktemp("inprocess"))


def _served(pkg: Path, mode: str) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])}
    done = subprocess.run(
        [sys.executable, str(SUPPORT / "inprocess_run.py"), mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen: list[dict[str, Any]] = json.loads(done.stdout)
    return seen


def test_both_in_process_paths_read_the_sealed_answer(pkg: Path) -> None:
    by_mode = {mode: _served(pkg, mode) for mode in ("auto", "legacy")}
    assert by_mode["auto"] == by_mode["legacy"]
    answered, refused = by_mode["auto"]
    for seen in (answered, refused):
        assert seen["structured"] == json.loads(seen["texts"][-1])
        assert seen["is_error"] is (not seen["structured"]["ok"])
    assert answered["structured"]["meta"]["tool"] == "consultar_pedidos"
    data = answered["structured"]["data"]
    assert [r["order_id"] for r in data["results"]] == ["P-100", "P-901"]
    assert data["multi_item_status"] == "PARTIAL_SUCCESS" and answered["is_error"] is False
    assert refused["is_error"] is True
    assert refused["structured"]["error"]["code"] == "VALIDATION_ERROR"
