"""The generated server on Streamable HTTP, as an attacker meets it: the Host/Origin checks
stay on whatever address it binds (0.0.0.0 used to turn them off silently), the names clients
use can be allowed, binding beyond loopback without a token is warned about, and a bearer
token (from an environment variable, through the SDK's own auth) is required when given."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from runtime_support.harness import EXAMPLES, SUPPORT, _free_port, _wait_for, package

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(EXAMPLES / "retail" / "generated" / "mcp_tools", tmp_path_factory.mktemp("h"))


def _serve(pkg: Path, tmp: Path, **env: str) -> Iterator[tuple[int, Path]]:
    port = _free_port()
    log = tmp / "server.err"
    environment = {
        "PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)]),
        "PATH": os.environ.get("PATH", ""),
        "RUNTIME_TEST_HTTP_PORT": str(port),
        **env,
    }
    with log.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, str(SUPPORT / "serve.py"), pkg.name, "retail_handlers"],
            env=environment, stderr=err,
        )  # fmt: skip
        try:
            _wait_for(port)
            yield port, log
        finally:
            process.terminate()
            process.wait(timeout=10)


def _post(port: int, host: str | None = None, token: str | None = None) -> int:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Host": host or f"127.0.0.1:{port}",
    }
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp", json.dumps(INITIALIZE).encode(), headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_host_checks_stay_on_when_binding_every_address(pkg: Path, tmp_path: Path) -> None:
    served = _serve(
        pkg, tmp_path, RUNTIME_TEST_HOST="0.0.0.0", RUNTIME_TEST_ALLOW_HOSTS="tools.internal:*"
    )
    port, log = next(served)
    try:
        assert _post(port, host="evil.example") == 421  # a rebinding attacker's name
        assert _post(port, host=f"tools.internal:{port}") == 200  # allowed by the operator
        assert _post(port) == 200  # loopback is always allowed
    finally:
        next(served, None)
    warned = log.read_text()
    assert "without authentication" in warned and "0.0.0.0" in warned


def test_a_bearer_token_is_required_when_given(pkg: Path, tmp_path: Path) -> None:
    secret = "s3cr3t-" + os.urandom(8).hex()
    served = _serve(pkg, tmp_path, RUNTIME_TEST_TOKEN_ENV="MY_TOKEN", MY_TOKEN=secret)
    port, log = next(served)
    try:
        assert _post(port) == 401
        assert _post(port, token="wrong") == 401
        assert _post(port, token=secret) == 200
    finally:
        next(served, None)
    assert secret not in log.read_text() and "without authentication" not in log.read_text()


def test_a_missing_token_variable_stops_the_server_at_start(pkg: Path, tmp_path: Path) -> None:
    environment = {
        "PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)]),
        "RUNTIME_TEST_HTTP_PORT": str(_free_port()),
        "RUNTIME_TEST_TOKEN_ENV": "NOT_SET_ANYWHERE",
    }
    done = subprocess.run(
        [sys.executable, str(SUPPORT / "serve.py"), pkg.name, "retail_handlers"],
        env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "NOT_SET_ANYWHERE holds no bearer token" in done.stderr


def test_the_generated_main_takes_the_same_options(pkg: Path, tmp_path: Path) -> None:
    """`main(handlers)` (what a scaffold runs): --allow-host and --auth-token-env reach the
    HTTP server; a token variable that is not set is a usage error before anything starts."""
    script = (
        "import sys; from retail_handlers import Handlers; "
        f"from {pkg.name}.server import main; main(Handlers(), sys.argv[1:])"
    )
    environment = {"PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])}
    refused = subprocess.run(
        [sys.executable, "-c", script, "--http", "--auth-token-env", "NOPE_NOT_SET"],
        env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2 and "NOPE_NOT_SET holds no bearer token" in refused.stderr
    port = _free_port()
    secret = os.urandom(8).hex()
    args = ["--http", "--host", "0.0.0.0", "--port", str(port), "--allow-host", "api.local:*"]
    process = subprocess.Popen(
        [sys.executable, "-c", script, *args, "--auth-token-env", "TOKEN"],
        env={**environment, "TOKEN": secret}, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for(port)
        assert _post(port, host=f"api.local:{port}") == 401
        assert _post(port, host=f"api.local:{port}", token=secret) == 200
        assert _post(port, host="evil.example", token=secret) == 421
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_stopped_server_waits_for_its_calls_a_bounded_time(tmp_path: Path) -> None:
    """SIGTERM with a call under way: uvicorn waited for it without a bound, so one hung
    handler kept the process alive until SIGKILL (decision 0146)."""
    import threading
    import time

    from runtime_support.harness import Connection, build

    built = build(SUPPORT / "orders", tmp_path / "build" / "mcp_tools")
    conn = Connection(built, "orders_handlers", http=True, env={"RUNTIME_TEST_GRACE": "1"})
    assert conn.process is not None
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(conn.raw("slow_lookup", {"seconds": 60}))
        except Exception as exc:  # the cut call's error is what is recorded
            outcome.append(exc)

    caller = threading.Thread(target=call, daemon=True)
    caller.start()
    time.sleep(2)  # the call is under way
    stopped = time.monotonic()
    conn.process.terminate()
    conn.process.wait(timeout=20)
    assert time.monotonic() - stopped < 15  # the grace (1 s) and the exit, not the 60 s call
    caller.join(timeout=30)
    assert outcome  # the client was answered or told the connection ended, not left waiting
    with contextlib.suppress(Exception):  # the client of a server gone
        conn.close()
