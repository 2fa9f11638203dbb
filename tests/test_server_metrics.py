"""Metrics of a generated server (issue 14 item 1) and its health endpoint (item 4), from a
real server process: `/metrics` scraped after calls that end in several ways and read with
prometheus_client's own parser (one `error_type` per outcome, exactly the envelope's code),
`/healthz` over HTTP, and the observer hook of a stdio server (one observation per answered
call; a two-request confirmation counted once; the user's wait left out)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from runtime_support.harness import EXAMPLES, SUPPORT, Connection, _free_port, _wait_for, package

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"
OK = {"order_ids": ["P-100"]}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(RETAIL, tmp_path_factory.mktemp("metrics"))


def _get(port: int, path: str, token: str | None = None) -> tuple[int, str, str]:
    headers = {"Host": f"127.0.0.1:{port}"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, "", ""


@pytest.fixture(scope="module", params=["auto", "legacy"])
def http(request: pytest.FixtureRequest, pkg: Path) -> Iterator[Connection]:
    conn = Connection(pkg, "retail_handlers", http=True, mode=request.param,
                      env={"RUNTIME_TEST_METRICS": "1"})  # fmt: skip
    try:
        yield conn
    finally:
        conn.close()


def _counts(text: str) -> dict[tuple[str, str, str], float]:
    families = {f.name: f for f in text_string_to_metric_families(text)}
    histogram = families["mcp_tool_duration_seconds"]
    assert histogram.type == "histogram"
    return {
        (s.labels["tool"], s.labels["version"], s.labels["error_type"]): s.value
        for s in histogram.samples
        if s.name == "mcp_tool_duration_seconds_count"
    }


def test_metrics_are_scraped_with_one_label_per_outcome(http: Connection) -> None:
    versions = {n: d["_meta"]["version"] for n, d in http.published.items()}
    assert http.call("consultar_pedidos", OK)["ok"]
    assert http.call("consultar_pedidos", OK)["ok"]
    assert http.call("consultar_pedidos", {"order_ids": ["P-500"]})["error"]["code"] == "TOOL_ERROR"
    assert http.call("cancelar_pedidos", {"order_ids": [7]})["error"]["code"] == "VALIDATION_ERROR"
    assert http.call("cancelar_pedidos", {"order_ids": ["P-1"]})["ok"]  # confirmed by the user
    status, content_type, text = _get(http.port, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    counts = _counts(text)
    consultar, cancelar = versions["consultar_pedidos"], versions["cancelar_pedidos"]
    assert counts == {
        ("consultar_pedidos", consultar, "ok"): 2.0,
        ("consultar_pedidos", consultar, "TOOL_ERROR"): 1.0,
        ("cancelar_pedidos", cancelar, "VALIDATION_ERROR"): 1.0,
        # one observation for the confirmed call, however many requests it took
        ("cancelar_pedidos", cancelar, "ok"): 1.0,
    }


def test_healthz_reports_what_is_served(http: Connection) -> None:
    status, content_type, text = _get(http.port, "/healthz")
    assert status == 200 and content_type == "application/json"
    versions = {n: d["_meta"]["version"] for n, d in http.published.items()}
    assert json.loads(text) == {
        "status": "serving",
        "server": "test-mcp_tools",
        "version": "0.0.1",
        "tools": 2,
        "versions": versions,
    }


def test_health_and_metrics_pass_the_host_check_and_the_token(pkg: Path) -> None:
    secret = "s3cr3t-metrics"
    port = _free_port()
    env = {
        "PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)]),
        "RUNTIME_TEST_HTTP_PORT": str(port),
        "RUNTIME_TEST_METRICS": "1",
        "RUNTIME_TEST_TOKEN_ENV": "MY_TOKEN",
        "MY_TOKEN": secret,
    }
    process = subprocess.Popen(
        [sys.executable, str(SUPPORT / "serve.py"), pkg.name, "retail_handlers"], env=env
    )
    try:
        _wait_for(port)
        assert _get(port, "/healthz")[0] == 401
        assert _get(port, "/metrics", token="wrong")[0] == 401
        assert _get(port, "/healthz", token=secret)[0] == 200
        assert _get(port, "/metrics", token=secret)[0] == 200
        evil = urllib.request.Request(
            f"http://127.0.0.1:{port}/healthz",
            headers={"Host": "evil.example", "Authorization": f"Bearer {secret}"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(evil, timeout=10)
        assert refused.value.code == 421
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_without_metrics_there_is_no_metrics_endpoint(pkg: Path) -> None:
    conn = Connection(pkg, "retail_handlers", http=True)
    try:
        assert _get(conn.port, "/metrics")[0] == 404
        assert _get(conn.port, "/healthz")[0] == 200
    finally:
        conn.close()


def _observations(path: Path) -> list[list[Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_stdio_server_reports_to_its_observer(pkg: Path, tmp_path: Path, mode: str) -> None:
    seen = tmp_path / "observed.jsonl"
    conn = Connection(pkg, "retail_handlers", mode=mode, env={"RUNTIME_TEST_OBSERVE": str(seen)})
    try:
        conn.asker.delay = 1.0  # the user takes a second to confirm
        assert conn.call("cancelar_pedidos", {"order_ids": ["P-1"]})["ok"]
        conn.asker.action = "decline"
        declined = conn.call("cancelar_pedidos", {"order_ids": ["P-2"]})
        assert declined["error"]["code"] == "CONFIRMATION_DECLINED"
        failed = conn.call("consultar_pedidos", {"order_ids": ["P-900"]})
        assert failed["error"]["code"] == "ALL_ITEMS_FAILED"
    finally:
        conn.close()
    observed = _observations(seen)
    version = conn.published["cancelar_pedidos"]["_meta"]["version"]
    assert [(o[0], o[1], o[2], o[4]) for o in observed] == [
        ("cancelar_pedidos", version, "ok", True),
        ("cancelar_pedidos", version, "CONFIRMATION_DECLINED", False),
        (
            "consultar_pedidos",
            conn.published["consultar_pedidos"]["_meta"]["version"],
            "ALL_ITEMS_FAILED",
            False,
        ),
    ]
    assert observed[0][3] < 0.9 and observed[1][3] < 0.9  # the user's second is not the tool's


def test_metrics_without_prometheus_client_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolc.runtime import server_metrics

    monkeypatch.setitem(sys.modules, "prometheus_client", None)
    with pytest.raises(RuntimeError, match="pip install prometheus-client"):
        server_metrics.prometheus_observer()
