"""A proxied tool's origin that is lost is opened again (decision 0158): its process ends
(tests/runtime_support/lying_origin.py's `die`), the call that found it gone answers
ORIGIN_UNAVAILABLE, and the next calls reach a new process, without restarting the
gateway."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from runtime_support.harness import SUPPORT, Connection, build, package

LIAR = json.dumps([sys.executable, str(SUPPORT / "lying_origin.py")])
CONFIG = f"""tools:
  refuse:
    version: 1.0.0
    description: Answers the origin's own error, so it shows the origin is there.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    proxy: {{tool: refuse, command: {LIAR}}}
  die:
    version: 1.0.0
    description: Ends the origin's process.
    mcp_server: gateway
    tool_type: query
    args_schema: {{}}
    proxy: {{tool: die, command: {LIAR}}}
"""


def _text(result: object) -> str:
    return str(result.content[0].text)  # type: ignore[attr-defined]


def test_a_lost_origin_is_opened_again(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "tools.yaml").write_text(CONFIG)
    built = build(tmp_path / "config", tmp_path / "build" / "restart_tools")
    log = tmp_path / "gateway.log"
    conn = Connection(package(built, tmp_path / "pkg"), "gateway_handlers", log=log)
    try:
        assert _text(conn.run(conn.client.call_tool, "refuse", {})) == "No such thing."
        died = conn.run(conn.client.call_tool, "die", {})
        assert died.is_error and "did not answer" in _text(died)
        deadline, answers = time.monotonic() + 30, []
        while time.monotonic() < deadline:
            answers.append(_text(conn.run(conn.client.call_tool, "refuse", {})))
            if answers[-1] == "No such thing.":
                break
            time.sleep(0.2)
        assert answers[-1] == "No such thing.", answers  # a new origin answered
        assert sorted(t.name for t in conn.list_tools().tools) == ["die", "refuse"]
    finally:
        conn.close()
    assert "was lost: opening it again" in log.read_text()
