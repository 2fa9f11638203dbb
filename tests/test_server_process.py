"""A served process sets its start-up objects aside from the garbage collector's full
collections before it serves (decision 0127), on stdio and on HTTP."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT
from toolc.runtime import server_http, server_process, server_runtime


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    steps: list[str] = []
    monkeypatch.setattr(server_process.gc, "freeze", lambda: steps.append("freeze"))
    return steps


def test_stdio_freezes_before_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = _recorded(monkeypatch)
    monkeypatch.setattr(server_runtime.anyio, "run", lambda *a: steps.append("serve"))
    server_runtime.run_stdio(object())  # type: ignore[arg-type]
    assert steps == ["freeze", "serve"]


def test_http_freezes_before_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    steps = _recorded(monkeypatch)
    monkeypatch.setattr(server_http, "http_app", lambda *a, **k: "app")

    def serve(self: uvicorn.Server, *args: object) -> None:
        steps.append("serve")
        self.started = True

    monkeypatch.setattr(uvicorn.Server, "run", serve)
    server_http.run_http(object())  # type: ignore[arg-type]
    assert steps == ["freeze", "serve"]


def test_the_frozen_objects_are_the_start_up_ones() -> None:
    """In a real process: after settling, the start-up objects are frozen and a full
    collection walks only what came after."""
    script = textwrap.dedent(
        """
        import gc, sys
        sys.path.insert(0, sys.argv[1])
        from toolc.runtime import server_process
        made = [{"n": i} for i in range(1000)]
        server_process.settle_start_up()
        print(gc.get_freeze_count(), len(gc.get_objects()))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "compiler")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    frozen, tracked = int(out[0]), int(out[1])
    assert frozen > 1000 and tracked < frozen / 2


def test_ctrl_c_stops_an_http_server_quietly() -> None:
    """uvicorn raises Ctrl-C again once it has stopped, which `uvicorn.run` swallows: the
    server's own runner let it out as a traceback (exit -2, `toolc serve --http` 130)."""
    from runtime_support.harness import _free_port, _wait_for

    port = _free_port()
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT / "compiler")!r})
        from mcp.server.lowlevel import Server
        from toolc.runtime.server_http import run_http
        run_http(Server("quiet"), port={port})
        print("stopped", flush=True)
        """
    )
    served = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(port)
        served.send_signal(signal.SIGINT)
        out, err = served.communicate(timeout=30)
    finally:
        served.kill()
    assert (served.returncode, out, "Traceback" in err) == (0, "stopped\n", False), err
