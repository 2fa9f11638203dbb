"""`package_project` (decision 0076): the build writes the generated package's own
pyproject.toml, recorded in the manifest like every generated file, and the package it
describes installs (`pip install --no-deps --no-build-isolation`, hatchling from the dev
extras) and imports from where it was installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, run_toolc
from toolc.cli.settings import SettingsError, load_settings
from toolc.verbs.project_file import RUNTIME_REQUIRES
from toolc.workspace.manifest import MANIFEST

FILES = next(e for e in EXAMPLES if e.name == "files")


def _config(tmp_path: Path, settings: str) -> Path:
    config = tmp_path / "config"
    config.mkdir()
    (config / "tools.yaml").write_bytes((FILES / "tools.yaml").read_bytes())
    (config / "pyproject.toml").write_text(f"[tool.toolc]\nout = 'gen/file_tools'\n{settings}")
    return config


def test_the_build_writes_and_records_it_and_the_package_installs(tmp_path: Path) -> None:
    config = _config(tmp_path, "package_project = true\npackage_version = '1.2.0'\n")
    assert run_toolc("build", str(config)).returncode == 0
    out = config / "gen" / "file_tools"
    project = tomllib.loads((out / "pyproject.toml").read_text())["project"]
    assert (project["name"], project["version"]) == ("file-tools", "1.2.0")
    assert project["dependencies"] == list(RUNTIME_REQUIRES)
    assert "pyproject.toml" in json.loads((out / MANIFEST).read_text())["files"]
    assert run_toolc("check", str(config)).returncode == 0
    assert "up to date" in run_toolc("build", str(config)).stderr

    site = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    done = subprocess.run(
        [*pip, "--no-build-isolation", "--target", str(site), str(out)],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not (site / "file_tools" / "pyproject.toml").exists()
    probe = "import file_tools; print(sorted(file_tools.TOOLS), file_tools.__file__)"
    env = {**os.environ, "PYTHONPATH": str(site)}
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env,
        check=False,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "list_directory" in shown.stdout and str(site) in shown.stdout
    assert (site / "file_tools" / "tools.json").is_file()  # the data the runtime reads


def test_changing_or_dropping_the_setting_rebuilds(tmp_path: Path) -> None:
    config = _config(tmp_path, "package_project = true\n")
    out = config / "gen" / "file_tools"
    assert run_toolc("build", str(config)).returncode == 0
    assert 'version = "0.1.0"' in (out / "pyproject.toml").read_text()
    assert run_toolc("build", str(config), "--no-pyproject").returncode == 0
    assert not (out / "pyproject.toml").exists()
    assert run_toolc("check", str(config), "--no-pyproject").returncode == 0
    done = run_toolc("check", str(config))  # the setting asks for it: missing
    assert done.returncode == 1 and "output-missing" in done.stderr


def test_the_runtime_needs_what_toolc_is_tested_with() -> None:
    toolc = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for requirement in RUNTIME_REQUIRES:
        assert requirement in toolc


def test_a_bad_version_is_a_usage_error(tmp_path: Path) -> None:
    config = _config(tmp_path, "package_project = true\npackage_version = 'one'\n")
    with pytest.raises(SettingsError, match="PEP 440"):
        load_settings(config)
