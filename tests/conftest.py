from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if (p / "tools.yaml").is_file())


def run_toolc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed `toolc` entry point as a user would."""
    exe = Path(sys.executable).parent / "toolc"
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    env.pop("TOOLC_DEBUG", None)
    return subprocess.run(
        [str(exe), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120
    )


@pytest.fixture
def toolc():  # type: ignore[no-untyped-def]
    return run_toolc


@pytest.fixture(autouse=True, scope="session")
def _private_build_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Builds in tests keep their cache in a temporary folder, never the user's."""
    os.environ["TOOLC_CACHE_DIR"] = str(tmp_path_factory.mktemp("toolc-cache"))
    # The cache key too: no key file is made in the user's own configuration directory.
    os.environ["TOOLC_CACHE_KEY"] = "toolc-tests"
