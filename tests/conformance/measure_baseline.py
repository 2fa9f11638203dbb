"""Re-measure tests/conformance/expected.json: which server scenarios of the pinned MCP
conformance suite the Python SDK's own everything-server passes, on the `mcp` version installed
here. Run it from the repository: `.venv/bin/python tests/conformance/measure_baseline.py`.

The everything-server is not a package: it ships in the SDK's source distribution (and its
repository, examples/servers/everything-server), so this script downloads the sdist of exactly
the installed version with pip, runs its server with this interpreter (our installed SDK) over
Streamable HTTP, and runs the suite against it (decision 0098). Nothing of the SDK is committed."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tarfile
import tempfile
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the support modules

from conformance_support import (
    EXPECTED,
    SUITE,
    free_port,
    run_suite,
    suite_version,
    wait_listening,
)

_SERVER = "examples/servers/everything-server"


def everything_server(mcp_version: str, into: Path) -> Path:
    """The everything-server folder of the `mcp` sdist at `mcp_version`, extracted into `into`."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"mcp=={mcp_version}", "--no-deps",
         "--no-binary", ":all:", "--quiet", "-d", str(into)],
        check=True,
    )  # fmt: skip
    (sdist,) = into.glob("mcp-*.tar.gz")
    root = f"mcp-{mcp_version}/{_SERVER}/"
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(root)]
        archive.extractall(into, members=members, filter="data")
    return into / root


def measure() -> dict[str, object]:
    mcp_version = version("mcp")
    with tempfile.TemporaryDirectory() as work:
        folder = everything_server(mcp_version, Path(work))
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "mcp_everything_server", "--port", str(port),
             "--log-level", "warning"],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_listening(port, server)
            verdicts = run_suite(f"http://127.0.0.1:{port}/mcp")
        finally:
            server.terminate()
            server.wait(timeout=10)
    return {
        "suite": f"{SUITE}@{suite_version()}",
        "mcp": mcp_version,
        "measured": datetime.date.today().isoformat(),
        "how": (
            "tests/conformance/measure_baseline.py: the everything-server of the mcp sdist "
            f"(mcp-{mcp_version}/{_SERVER}) run with the installed mcp over Streamable HTTP, "
            "`conformance server --suite all`; a scenario passes with at least one SUCCESS "
            "check and no FAILURE (decision 0098)"
        ),
        "passed": sorted(v.scenario for v in verdicts.values() if v.passed),
        "inconclusive": sorted(v.scenario for v in verdicts.values() if v.inconclusive),
        "failed": {v.scenario: list(v.failures) for v in verdicts.values() if v.failures},
    }


if __name__ == "__main__":
    measured = measure()
    EXPECTED.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
    print(f"{len(measured['passed'])} passed -> {EXPECTED}")  # type: ignore[arg-type]
