"""What a build that changes nothing says (session 26): the same report as the build before
it. A machine's report (SARIF, JSON, ...) is never empty, and warnings are said again, not
hidden behind "up to date"."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_toolc

TOOLS = """\
tools:
  get_order:
    version: 1.0.0
    description: Looks up one order; returns `colour`.
    mcp_server: shop
    tool_type: query
    returns:
      type: object
      properties:
        status: {type: string}
"""


def _config(tmp_path: Path, warned: bool) -> Path:
    config = tmp_path / "cfg"
    config.mkdir()
    text = TOOLS if warned else TOOLS.replace("; returns `colour`", "")
    (config / "tools.yaml").write_text(text, encoding="utf-8")
    return config


def test_a_machine_report_is_whole_on_every_build(tmp_path: Path) -> None:
    config = _config(tmp_path, warned=False)
    for fmt in ("sarif", "junit"):
        runs = [run_toolc("build", str(config), "--format", fmt) for _ in range(3)]
        assert all(r.returncode == 0 for r in runs), runs[0].stderr
        assert runs[0].stdout.strip(), fmt  # a document even with nothing to say
        assert runs[0].stdout == runs[1].stdout == runs[2].stdout, fmt
    sarif = run_toolc("build", str(config), "--format", "sarif")
    assert json.loads(sarif.stdout)["version"] == "2.1.0"
    quiet = run_toolc("build", str(config))
    assert quiet.returncode == 0 and "up to date" in quiet.stderr  # text: the shortcut stays


def test_warnings_are_said_again_by_a_build_that_changes_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path, warned=True)
    runs = [run_toolc("build", str(config)) for _ in range(3)]
    for done in runs:
        assert done.returncode == 0, done.stderr
        assert "warning[description-unknown-field]" in done.stderr, done.stderr
    text = TOOLS.replace("; returns `colour`", "").replace("1.0.0", "1.0.1")
    (config / "tools.yaml").write_text(text, encoding="utf-8")
    fixed = run_toolc("build", str(config))
    assert fixed.returncode == 0 and "no problems" in fixed.stderr, fixed.stderr
    assert "up to date" in run_toolc("build", str(config)).stderr


def test_warnings_are_said_again_without_a_cache(tmp_path: Path) -> None:
    """With no signatures record (`--no-cache`, an empty cache, another machine) the manifest
    alone decided, and a config with warnings was "up to date": the manifest now says that
    its build reported, and a clean config's manifest is as it was."""
    config = _config(tmp_path, warned=True)
    first = run_toolc("build", str(config), "--no-cache")
    again = run_toolc("build", str(config), "--no-cache")
    assert "warning[description-unknown-field]" in first.stderr, first.stderr
    assert "warning[description-unknown-field]" in again.stderr, again.stderr
    manifest = config / "generated" / "mcp_tools" / ".toolc-manifest.json"
    assert json.loads(manifest.read_text())["reported"] is True
    (tmp_path / "clean").mkdir()
    clean = _config(tmp_path / "clean", warned=False)
    run_toolc("build", str(clean), "--no-cache")
    assert "up to date" in run_toolc("build", str(clean), "--no-cache").stderr
    assert "reported" not in json.loads(
        (clean / "generated" / "mcp_tools" / ".toolc-manifest.json").read_text()
    )


def test_turning_on_a_setting_that_adds_findings_is_no_no_op(tmp_path: Path) -> None:
    """`metadata_lint` or `listing_budget` set after a clean build: the next build said "up to
    date" and never showed their warnings. They are part of what a no-op compares now; a
    build with them on and nothing to say is still a no-op."""
    config = _config(tmp_path, warned=False)
    assert "no problems" in run_toolc("build", str(config)).stderr
    for setting in ("metadata_lint = true", "listing_budget = 10"):
        (config / "pyproject.toml").write_text(f"[tool.toolc]\n{setting}\n", encoding="utf-8")
        done = run_toolc("build", str(config))
        assert "up to date" not in done.stderr and "1 warning(s)" in done.stderr, done.stderr
    (config / "pyproject.toml").write_text("[tool.toolc]\nlisting_budget = 100000\n")
    assert "no problems" in run_toolc("build", str(config)).stderr
    assert "up to date" in run_toolc("build", str(config)).stderr
