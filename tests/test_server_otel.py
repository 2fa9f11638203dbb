"""OpenTelemetry as a second metrics exporter (issue 14 item 1, decision 0103): the
generated package's `otel_observer` records `mcp_tool_duration_seconds` with the same
labels as the Prometheus histogram, read back with the OpenTelemetry SDK's
InMemoryMetricReader (tests/runtime_support/otel_run.py: the retail server, in-process,
driven by the SDK's client); without opentelemetry it says what to install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from runtime_support.harness import EXAMPLES, SUPPORT, descriptors, package

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(RETAIL, tmp_path_factory.mktemp("otel"))


def _python(pkg: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(pkg.parent), str(SUPPORT)])}
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_the_same_histogram_with_the_same_labels(pkg: Path) -> None:
    done = _python(pkg, str(SUPPORT / "otel_run.py"))
    assert done.returncode == 0, done.stderr
    points = json.loads(done.stdout)
    assert {(p["scope"], p["name"], p["unit"], p["kind"]) for p in points} == {
        ("toolc.mcp_server", "mcp_tool_duration_seconds", "s", "HistogramDataPoint")
    }
    version = {n: d["_meta"]["version"] for n, d in descriptors(pkg).items()}
    counts = {
        (p["attributes"]["tool"], p["attributes"]["version"], p["attributes"]["error_type"]): p[
            "count"
        ]
        for p in points
    }
    assert counts == {  # the labels test_server_metrics reads from /metrics
        ("consultar_pedidos", version["consultar_pedidos"], "ok"): 2,
        ("consultar_pedidos", version["consultar_pedidos"], "TOOL_ERROR"): 1,
        ("cancelar_pedidos", version["cancelar_pedidos"], "VALIDATION_ERROR"): 1,
    }
    assert all(p["sum"] >= 0 for p in points)


def test_without_opentelemetry_it_says_what_to_install(pkg: Path) -> None:
    script = (
        "import sys; sys.modules['opentelemetry'] = None\n"  # as if it were not installed
        "from mcp_tools.server_otel import otel_observer\n"
        "try:\n    otel_observer()\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    done = _python(pkg, "-c", script)
    assert "pip install opentelemetry-api opentelemetry-sdk" in done.stdout, done.stderr
