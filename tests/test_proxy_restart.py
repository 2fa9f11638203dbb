"""A proxied tool's origin that is lost is opened again (decision 0158): its process ends
(tests/runtime_support/lying_origin.py's `die`), or an HTTP origin stops and starts again,
the call that found it gone answers ORIGIN_UNAVAILABLE, and the next calls reach the origin
again, without restarting the gateway (which an HTTP origin's outage used to end)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from runtime_support.harness import SUPPORT, Connection, _free_port, _wait_for, build, package

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


def gateway(tmp_path: Path, config: str, name: str, **options: Any) -> Connection:
    """A gateway built from `config` and served (`options`: `Connection`'s), logging to
    tmp_path/gateway.log."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "tools.yaml").write_text(config)
    built = build(tmp_path / "config", tmp_path / "build" / name)
    options.setdefault("log", tmp_path / "gateway.log")
    return Connection(package(built, tmp_path / "pkg"), "gateway_handlers", **options)


def test_a_lost_origin_is_opened_again(tmp_path: Path) -> None:
    log = tmp_path / "gateway.log"
    conn = gateway(tmp_path, CONFIG, "restart_tools")
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


def _answers_again(conn: Connection, tool: str) -> list[str]:
    """`tool`'s answers, called until the origin's own refusal comes back (30 s at most)."""
    deadline, answers = time.monotonic() + 30, []
    while time.monotonic() < deadline:
        answers.append(_text(conn.run(conn.client.call_tool, tool, {})))
        if answers[-1] == "No such thing.":
            break
        time.sleep(0.2)
    return answers


def test_an_http_origin_that_stops_and_starts_again(tmp_path: Path) -> None:
    """An HTTP origin that stopped crashed the gateway when its keeper reopened it (a
    cancel scope left open); one restarted before any call kept answering `Session not
    found`, never reopened."""
    port = _free_port()
    origin = [sys.executable, str(SUPPORT / "lying_origin.py"), "--http", str(port)]

    def started() -> subprocess.Popen[bytes]:
        process = subprocess.Popen(origin, stderr=subprocess.DEVNULL)
        _wait_for(port)
        return process

    url = f"http://127.0.0.1:{port}/mcp"
    config = tmp_path / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(
        CONFIG.replace(f"command: {LIAR}", f'url: "{url}"').split("  die:")[0]
    )
    built = build(config, tmp_path / "build" / "http_restart_tools")
    process = started()
    conn = Connection(package(built, tmp_path / "pkg"), "gateway_handlers")
    try:
        assert _text(conn.run(conn.client.call_tool, "refuse", {})) == "No such thing."
        process.terminate()
        process.wait(timeout=10)
        down = conn.run(conn.client.call_tool, "refuse", {})
        assert down.is_error and "No such thing." not in _text(down)
        time.sleep(2.5)  # the keeper tries to reopen it while it is down
        process = started()
        assert _answers_again(conn, "refuse")[-1] == "No such thing."
        process.terminate()  # restarted with no call between: a session it never knew
        process.wait(timeout=10)
        process = started()
        assert _answers_again(conn, "refuse")[-1] == "No such thing."
        assert [t.name for t in conn.list_tools().tools] == ["refuse"]  # still up
    finally:
        conn.close()
        process.terminate()
        process.wait(timeout=10)


def test_an_origin_that_does_not_start_is_retried_quietly(tmp_path: Path) -> None:
    """Tried again and again, with the traceback logged once: every retry logged a whole
    traceback, once a minute forever."""
    config = tmp_path / "config"
    config.mkdir()
    missing = "command: [toolc-test-no-such-origin]"
    (config / "tools.yaml").write_text(CONFIG.replace(f"command: {LIAR}", missing))
    built = build(config, tmp_path / "build" / "missing_tools")
    log = tmp_path / "gateway.log"
    conn = Connection(package(built, tmp_path / "pkg"), "gateway_handlers", log=log)
    try:
        assert conn.list_tools().tools == []  # not served until it starts
        time.sleep(3.6)  # tried at 0 s, 1 s and 3 s
    finally:
        conn.close()
    logged = log.read_text()
    assert logged.count("Traceback") == 1, logged
    assert logged.count("did not start again (") >= 1, logged


FADING = CONFIG.replace("die:", "fade:").replace("tool: die,", "tool: fade,")


def _logged(log: Path, text: str, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if log.exists() and text in log.read_text():
            return True
        time.sleep(0.1)
    return False


def test_an_origin_that_ends_while_idle_is_opened_again_before_a_call(
    tmp_path: Path,
) -> None:
    """A stdio origin whose process ended while no call was waiting was noticed only by
    the next call, which failed with ORIGIN_UNAVAILABLE: now it is opened again first."""
    log = tmp_path / "gateway.log"
    conn = gateway(tmp_path, FADING, "fading_tools")
    try:
        assert _text(conn.run(conn.client.call_tool, "fade", {})) == "Bye."
        assert _logged(log, "was lost: opening it again"), log.read_text()
        time.sleep(2.5)  # opened again after 1 s
        assert _text(conn.run(conn.client.call_tool, "refuse", {})) == "No such thing."
    finally:
        conn.close()


def test_healthz_leaves_out_the_tools_of_an_origin_lost(tmp_path: Path) -> None:
    """An origin lost, and not open again (it fails to start), kept its tools in
    `/healthz` as serving: a probe was told the gateway could call them."""
    from test_server_metrics import _get

    once = json.dumps(
        [sys.executable, str(SUPPORT / "lying_origin.py"), "--once", str(tmp_path / "ran")]
    )
    log = tmp_path / "gateway.log"
    conn = gateway(tmp_path, FADING.replace(LIAR, once), "lost_tools", http=True)
    try:
        health = json.loads(_get(conn.port, "/healthz")[2])
        assert health["tools"] == 2 and "unavailable" not in health, health
        assert _text(conn.run(conn.client.call_tool, "fade", {})) == "Bye."
        assert _logged(log, "was lost: opening it again"), log.read_text()
        health = json.loads(_get(conn.port, "/healthz")[2])
        assert health["tools"] == 0 and health["unavailable"] == ["fade", "refuse"], health
        listed = sorted(t.name for t in conn.list_tools().tools)
        assert listed == ["fade", "refuse"]  # still listed, as decision 0158 says
    finally:
        conn.close()


def test_an_origin_lost_soon_after_each_start_is_tried_less_often(tmp_path: Path) -> None:
    """Each loss reset the wait to a second, so an origin that crashed soon after each
    start (once lost while idle was noticed) was started again every second or two,
    forever: a loss within 30 s of opening now makes the wait grow, 1, 2, 4 s..."""
    starts = tmp_path / "starts"
    brief = json.dumps([sys.executable, str(SUPPORT / "lying_origin.py"), "--brief", str(starts)])
    conn = gateway(tmp_path, CONFIG.split("  die:")[0].replace(LIAR, brief), "brief_tools")
    try:
        time.sleep(8)  # started at 0 s, then 1 + 2 s after the first two losses
    finally:
        conn.close()
    assert 2 <= len(starts.read_text().splitlines()) <= 3, starts.read_text()
