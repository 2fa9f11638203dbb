"""Running the official MCP conformance suite's server scenarios against a server on
Streamable HTTP, and reading its verdicts: shared by tests/test_conformance.py (the subject, a
generated server) and tests/conformance/measure_baseline.py (the baseline, the SDK's own
everything-server), so both are judged by the same rule."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from node_support import conformance

SUITE = "@modelcontextprotocol/conformance"
EXPECTED = Path(__file__).resolve().parent / "conformance" / "expected.json"
# A results folder is named server-<scenario>-<ISO time with dashes>Z.
_FOLDER = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d\d-\d\dT[\d-]+Z$")


@dataclass(frozen=True)
class Verdict:
    """One scenario's checks by status. It passes with at least one SUCCESS and no FAILURE:
    a scenario whose checks are all INFO or WARNING (server-sse-polling, which only observes)
    proves nothing either way, so it is `inconclusive`, neither passed nor failed."""

    scenario: str
    statuses: dict[str, int]
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.statuses.get("SUCCESS", 0) > 0 and not self.failures

    @property
    def inconclusive(self) -> bool:
        return not self.statuses.get("SUCCESS", 0) and not self.failures


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_listening(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Until the server accepts connections (its process still alive)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode} before listening")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listened on port {port} within {timeout} s")


def run_suite(url: str) -> dict[str, Verdict]:
    """Every server scenario of the pinned suite (`--suite all`: active and pending) against
    `url`, each scenario's verdict read from its checks.json."""
    with tempfile.TemporaryDirectory() as out:
        done = conformance("server", "--url", url, "--suite", "all", "--output-dir", out)
        verdicts: dict[str, Verdict] = {}
        for folder in sorted(Path(out).iterdir()):
            named = _FOLDER.match(folder.name)
            if named is None or not (folder / "checks.json").is_file():
                continue
            checks = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
            failures = tuple(
                f"{c['id']}: {c.get('errorMessage', '')}"
                for c in checks
                if c["status"] == "FAILURE"
            )
            statuses = dict(Counter(str(c["status"]) for c in checks))
            verdicts[named["scenario"]] = Verdict(named["scenario"], statuses, failures)
    if not verdicts:
        raise RuntimeError(f"the conformance suite ran no scenario:\n{done.stdout}\n{done.stderr}")
    return verdicts


def suite_version() -> str:
    return conformance("--version").stdout.strip()
