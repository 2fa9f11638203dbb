"""A baseline from git (`--against REF`) whose committed config is not UTF-8 is a usage error, as
the same file in a baseline config folder is (exit 2, "cannot read the baseline config"), not an
internal error: the text `git show` printed was decoded without a guard."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import run_toolc

TOOLS = """\
tools:
  get_order:
    version: 1.4.0
    description: Looks up one order.
    mcp_server: shop
    tool_type: query
"""
POLICIES = "tool_policies:\n  get_order: {operation_type: read_only}\n"
NOT_UTF8 = "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True)


def _write(folder: Path, broken: str) -> None:
    """The config, with `broken` preceded by a UTF-16 byte-order mark: no UTF-8."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("tools.yaml", TOOLS), ("tool_policies.yaml", POLICIES)):
        data = text.encode("utf-8")
        (folder / name).write_bytes(b"\xff\xfe" + data if name == broken else data)


@pytest.mark.parametrize("broken", ["tools.yaml", "tool_policies.yaml"])
def test_a_committed_config_not_in_utf8_is_a_usage_error(tmp_path: Path, broken: str) -> None:
    repo = tmp_path / "repo"
    config = repo / "svc"
    _write(config, broken)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "v1")
    folder = tmp_path / "base"
    _write(folder, broken)  # the same baseline, given as a folder
    _write(config, "")  # the working tree is fine: only the baseline is not
    for verb in ("diff", "check"):
        as_folder = run_toolc(verb, str(config), "--against", str(folder))
        assert as_folder.returncode == 2, as_folder.stderr
        assert f"Error: cannot read the baseline config {folder}: {NOT_UTF8}\n" in as_folder.stderr
        from_git = run_toolc(verb, str(config), "--against", "main")
        assert from_git.returncode == 2, from_git.stderr
        said = f"Error: cannot read the baseline config main:svc/{broken}: {NOT_UTF8}\n"
        assert said in from_git.stderr, from_git.stderr
