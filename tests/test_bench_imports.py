"""Every bench script imports: `make bench` is not in `make test`, and a name one of them
takes from toolc can move (bench/args_models.py imported a private function a refactor
removed; the bench then stopped halfway)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from conftest import ROOT

BENCH = ROOT / "bench"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_a_bench_script_imports(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    spec = importlib.util.spec_from_file_location(f"bench_{Path(script).stem}", BENCH / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)  # raises what the script cannot import; runs nothing
