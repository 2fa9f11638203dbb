"""Files generated at development time must match their source: CI fails when they are stale."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from toolc.diagnostics.docs import diagnostics_page


def test_config_models_match_the_published_schemas(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(
        ["bash", str(ROOT / "scripts" / "gen_config_models.sh"), str(tmp_path)],
        check=True,
        env=env,
        capture_output=True,
        cwd=ROOT,
    )
    for module in ("tools_file.py", "policies_file.py"):
        committed = (ROOT / "compiler" / "toolc" / "model" / module).read_text()
        assert (tmp_path / module).read_text() == committed, f"{module} is stale: run `make models`"


def test_diagnostics_doc_matches_the_code_table() -> None:
    committed = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert committed == diagnostics_page(), "docs/diagnostics.md is stale: run `make docs`"


def test_black_is_available_for_the_generator() -> None:
    # The model generator formats with the pinned black; a missing one would change the output.
    assert shutil.which("black", path=str(Path(sys.executable).parent))
