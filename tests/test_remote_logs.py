"""What the SDK's client logs while toolc lists a live server (`toolc import --stdio`,
`toolc verify`) stays out of toolc's output: a server that prints a banner on stdout made
Python print the SDK's "Failed to parse JSONRPC message" with its traceback, even when the
listing succeeded. A listing that fails names what was logged in its error."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from conftest import ROOT, run_toolc


def _banner_then(command: str) -> list[str]:
    return ["--stdio", "--", "sh", "-c", f"echo 'Starting the server...'; {command}"]


def test_a_banner_before_the_protocol_leaves_no_traceback(tmp_path: Path) -> None:
    serve = [sys.executable, "-m", "toolc", "serve", str(ROOT / "examples" / "retail"), "--mock"]
    out = tmp_path / "imported"
    done = run_toolc("import", "--out", str(out), *_banner_then("exec " + shlex.join(serve)))
    assert done.returncode == 0, done.stderr
    assert (out / "tools.yaml").is_file()
    assert "Traceback" not in done.stderr and "Failed to parse" not in done.stderr, done.stderr


def test_a_listing_that_fails_names_what_the_sdk_logged(tmp_path: Path) -> None:
    done = run_toolc("import", "--out", str(tmp_path / "none"), *_banner_then("exit 3"))
    assert done.returncode == 1
    assert "the SDK also logged 1 problem(s): Failed to parse JSONRPC message" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr
