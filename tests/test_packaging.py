"""toolc as a user installs it: the wheel carries the schemas and templates, and an installed
wheel finds them inside the package (not in a source checkout)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "--quiet", "--wheel-dir", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    [built] = out.glob("toolc-*.whl")
    return built


def test_wheel_ships_data_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "toolc/_data/schemas/tools.schema.json" in names
    assert "toolc/_data/schemas/tool_policies.schema.json" in names
    assert any(n.startswith("toolc/_data/templates/") for n in names)
    assert "toolc/py.typed" in names


def test_installed_wheel_finds_its_own_schemas(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(target)}
    script = (
        "import toolc, toolc.resources as r, sys;"
        "print(toolc.__file__); print(r.schema_path('tools'));"
        "from toolc.cli import run; sys.exit(run(['check', sys.argv[1]]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(EXAMPLES[0])],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    module, schema = result.stdout.splitlines()
    assert Path(module).is_relative_to(target)
    assert Path(schema) == target / "toolc" / "_data" / "schemas" / "tools.schema.json"
