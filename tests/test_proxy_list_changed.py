"""A gateway tells its clients when its tools/list changes (decision 0159): an origin that
comes up late (tests/runtime_support/lying_origin.py's `--gate`: it fails to start until
the test lets it) adds its tools, and a client connected before is told, as its protocol era says:
`notifications/tools/list_changed` on a handshake connection, a `subscriptions/listen`
event at 2026-07-28. It listed no tools and was never told they came."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import types
from runtime_support.harness import SUPPORT, Connection
from test_proxy_restart import CONFIG, LIAR, gateway


def _gateway(tmp_path: Path, name: str, **options: Any) -> Connection:
    """A gateway whose origin starts only once tmp_path/up exists (`_come_up`)."""
    later = [sys.executable, str(SUPPORT / "lying_origin.py"), "--gate", str(tmp_path / "up")]
    config = CONFIG.split("  die:")[0].replace(LIAR, json.dumps(later))
    return gateway(tmp_path, config, name, **options)


def _come_up(tmp_path: Path) -> None:
    (tmp_path / "up").touch()


def _names(conn: Connection) -> list[str]:
    return sorted(t.name for t in conn.list_tools().tools)


def test_a_handshake_client_is_told_when_the_tools_change(tmp_path: Path) -> None:
    told: list[Any] = []

    async def collect(message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            told.append(message)

    conn = _gateway(tmp_path, "late_tools", mode="legacy", message_handler=collect)
    try:
        assert conn.protocol_version < "2026"
        capabilities = conn.client.session.initialize_result.capabilities  # type: ignore[union-attr]
        assert capabilities.tools is not None and capabilities.tools.list_changed is True
        assert _names(conn) == []  # the origin is not up yet
        _come_up(tmp_path)
        deadline = time.monotonic() + 20
        while not told and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [type(m) for m in told] == [types.ToolListChangedNotification]
        assert _names(conn) == ["refuse"]
    finally:
        conn.close()


def test_a_listening_client_is_told_when_the_tools_change(tmp_path: Path) -> None:
    conn = _gateway(tmp_path, "late_listen_tools")
    try:
        assert conn.protocol_version >= "2026-07-28"
        assert _names(conn) == []

        async def first_event() -> Any:
            with anyio.fail_after(20):
                async with conn.client.listen(tools_list_changed=True) as events:
                    _come_up(tmp_path)  # once the server listens for us
                    async for event in events:
                        return event
            return None

        event = conn.run(first_event)
        assert type(event).__name__ == "ToolsListChanged"
        assert _names(conn) == ["refuse"]
    finally:
        conn.close()


def test_a_stopped_gateway_ends_its_listen_streams_at_once(tmp_path: Path) -> None:
    """Over HTTP uvicorn waits for the requests under way before it stops, and a listen
    stream is one until it is closed: it kept a stopped gateway up for its whole grace
    period (30 s), then was cut (`SubscriptionLost`). Now it ends gracefully, at once."""
    conn = _gateway(tmp_path, "stopping_tools", http=True)
    process = conn.process
    assert process is not None

    async def listen_until_stopped() -> float:
        with anyio.fail_after(20):
            async with conn.client.listen(tools_list_changed=True) as events:
                process.terminate()
                start = time.monotonic()
                async for _ in events:  # a graceful end ends the loop; a cut raises
                    pass
                return time.monotonic() - start

    try:
        assert conn.run(listen_until_stopped) < 10
        assert process.wait(timeout=10) is not None
    finally:
        conn.close()
