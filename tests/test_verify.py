"""`toolc verify`: a running server's tools/list against what a build of the config publishes,
over real stdio and Streamable HTTP (the server is toolc's own mock, which lists what a build
writes), with the drift a deployment can have: a changed descriptor, a tool not served, a tool
of another server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, run_toolc
from toolc.verbs.verify import first_difference

TOOLC = str(Path(sys.executable).parent / "toolc")
RETAIL = ROOT / "examples" / "retail"
MOCK = [TOOLC, "serve", "--mock", str(RETAIL)]


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    """retail, one description changed and one tool added since the server was started."""
    config = tmp_path / "retail"
    shutil.copytree(RETAIL, config, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    text = (config / "tools.yaml").read_text(encoding="utf-8")
    text = text.replace("Cancela um ou mais pedidos.", "Cancela pedidos.")
    text = text.replace(
        "tools:\n",
        "tools:\n  novo:\n    version: 1.0.0\n    description: Novo.\n    mcp_server: retail\n"
        "    tool_type: query\n",
        1,
    )
    (config / "tools.yaml").write_text(text, encoding="utf-8")
    return config


def test_a_server_of_the_same_config_is_identical() -> None:
    done = run_toolc("verify", str(RETAIL), "--stdio", "--", TOOLC, "serve", "--mock", str(RETAIL))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "mcp_server 'retail', 2 tool(s) listed, identical to the build" in done.stderr


def test_each_drift_is_named_with_its_place(drifted: Path) -> None:
    done = run_toolc("verify", str(drifted), "--stdio", "--", TOOLC, "serve", "--mock", str(RETAIL))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "tool 'cancelar_pedidos' differs from the build at /description: "
        'served "Cancela um ou mais pedidos.", built "Cancela pedidos."'
    )
    assert lines[-1] == "tool 'novo' of mcp_server 'retail' is built but not served"
    assert "2 difference(s) from the build" in done.stderr


@contextmanager
def _served_over_http(*options: str) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [TOOLC, "serve", "--mock", "--http", "--port", str(port), *options, str(RETAIL)],
        stderr=subprocess.DEVNULL,
        env={**os.environ, "SERVED_TOKEN": "s3cret"},
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_over_streamable_http(tmp_path: Path) -> None:
    with _served_over_http() as url:
        done = run_toolc("verify", str(RETAIL), "--url", url)
    assert done.returncode == 0, done.stderr
    assert "identical to the build" in done.stderr


def test_a_server_that_asks_for_a_token_is_verified_and_imported_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server run with --auth-token-env (what serving.md advises beyond loopback) could
    not be verified, imported or reached by the typed client: none could send a token."""
    monkeypatch.setenv("MY_TOKEN", "s3cret")
    monkeypatch.setenv("WRONG_TOKEN", "guess")
    with _served_over_http("--auth-token-env", "SERVED_TOKEN") as url:
        done = run_toolc("verify", str(RETAIL), "--url", url, "--auth-token-env", "MY_TOKEN")
        refused = run_toolc("verify", str(RETAIL), "--url", url, "--auth-token-env", "WRONG_TOKEN")
        tokenless = run_toolc("verify", str(RETAIL), "--url", url)
        imported = run_toolc(
            "import", "--url", url, "--auth-token-env", "MY_TOKEN", "--out", str(tmp_path / "i")
        )
        reached = _typed_call(url)
    assert done.returncode == 0 and "identical to the build" in done.stderr, done.stderr
    assert refused.returncode == 2 and "cannot list the tools" in refused.stderr
    assert "HTTP 401: the server asks for a bearer token: not this one" in refused.stderr
    # the SDK's own words ("Server returned an error response") did not say why
    assert "HTTP 401" in tokenless.stderr and "--auth-token-env VAR" in tokenless.stderr
    assert imported.returncode == 0, imported.stderr
    assert "consultar_pedidos:" in (tmp_path / "i" / "tools.yaml").read_text()
    assert reached is True
    unset = run_toolc("verify", str(RETAIL), "--url", url, "--auth-token-env", "UNSET_VAR")
    assert unset.returncode == 2 and "UNSET_VAR holds no token" in unset.stderr
    stdio = run_toolc("verify", str(RETAIL), "--auth-token-env", "MY_TOKEN", "--stdio", "--", "x")
    assert stdio.returncode == 2 and "goes with --url" in stdio.stderr


def _typed_call(url: str) -> bool:
    """The retail package's typed client, connected with the token, lists and calls."""
    code = (
        "import anyio, sys\n"
        f"sys.path.insert(0, {str(RETAIL / 'generated')!r})\n"
        "from mcp_tools.client import RetailClient\n"
        "from mcp_tools.client_runtime import bearer\n"
        "async def main():\n"
        f"    async with RetailClient.connect({url!r}, headers=bearer('s3cret')) as c:\n"
        "        r = await c.consultar_pedidos(order_ids=['P-100'])\n"
        "        print(type(r).__name__)\n"
        "anyio.run(main)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return done.returncode == 0 and done.stdout.strip() == "Success"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--stdio", "--", "false"], "cannot list the tools of false"),
        (["--stdio"], "--stdio needs the server's command"),
        ([], "give either --stdio -- CMD ARGS... or --url URL"),
        (["--url", "http://127.0.0.1:9/mcp", "--stdio", "--", "x"], "give either"),
        # drift against a server the config lacks named every tool: a usage error, as in serve
        (["--server", "nope", "--stdio", "--", *MOCK], "no enabled tool runs on mcp_server 'nope'"),
    ],
)
def test_a_server_that_cannot_be_listed_is_a_usage_error(args: list[str], message: str) -> None:
    done = run_toolc("verify", str(RETAIL), *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_the_first_difference_is_found_in_sorted_order_and_by_type() -> None:
    assert first_difference({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) is None
    assert first_difference({"b": 1, "a": 2}, {"b": 2, "a": 3}) == "/a: served 2, built 3"
    assert first_difference({"x": [1]}, {"x": [1, 2]}) == "/x: served [1], built [1, 2]"
    assert first_difference({"x": 1}, {"x": 1.0}) == "/x: served 1, built 1.0"
    assert first_difference({"x": True}, {"x": 1}) == "/x: served true, built 1"
    assert first_difference({}, {"a/b": 0}) == "/a~1b: built 0, not served"
