"""Issue #9 item 13, issue #11 item 4: random configs (random_projects.py) give packages that
pass `black --check`, `ruff check` and `mypy --strict`, and import: the proof that toolc's own
layout, with no formatter in the build, is black-stable (decision 0041). The tools run once
over a batch of packages (one temporary tree), not per example. `TOOLC_RANDOM_CONFIGS=N` (default 40, about a minute) sets the batch's size and
`TOOLC_RANDOM_SEED` its seed (default 0, so `make test` is repeatable; `random` for a new one)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from random_projects import as_yaml, projects
from toolc import verbs
from toolc.evolution.baseline import BaselineError

BIN = Path(sys.executable).parent
COUNT = int(os.environ.get("TOOLC_RANDOM_CONFIGS", "40"))
SEED = os.environ.get("TOOLC_RANDOM_SEED", "0")
SEED_VALUE = random.randrange(2**32) if SEED == "random" else int(SEED)

IMPORT_ALL = """\
import importlib, sys
for name in sys.argv[1:]:
    pkg = importlib.import_module(name)
    for spec in pkg.TOOLS.values():
        for model in (spec.args_model, spec.data_model, spec.resolved_model):
            fields = getattr(model, "model_fields", {})
            for field in fields.values():  # every default, factories called
                field.get_default(call_default_factory=True, validated_data={})
        spec.args_model.model_json_schema()
"""


def _batch(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    built: list[str] = []
    refused: list[tuple[str, str]] = []

    @seed(SEED_VALUE)
    @settings(
        max_examples=COUNT,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(project=projects())
    def generate(project: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
        name = f"pkg_{len(built) + len(refused)}"
        config, policies = project
        text = as_yaml(config)
        policies_text = as_yaml(policies) if policies is not None else None
        (root / f"{name}.tools.yaml").write_text(text)
        if policies_text is not None:
            (root / f"{name}.tool_policies.yaml").write_text(policies_text)
        try:
            files = verbs.compile_baseline(text, policies_text, f"{name}:")
        except BaselineError as exc:
            refused.append((name, str(exc)))
            return
        for rel, data in files.items():
            path = root / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        built.append(name)

    generate()
    return built, refused


def test_random_configs_give_packages_that_pass_the_gates(tmp_path: Path) -> None:
    built, refused = _batch(tmp_path)
    print(f"seed {SEED_VALUE}: {len(built)} packages built, {len(refused)} configs refused")
    for name, why in refused:
        print(f"  refused {name}: {why}")
    assert len(built) >= COUNT * 0.75, refused  # the strategy makes valid configs
    packages = [str(tmp_path / n) for n in built]
    black = subprocess.run(
        [str(BIN / "black"), "--diff", "-q", *packages], capture_output=True, text=True
    )
    assert black.returncode == 0 and not black.stdout, black.stdout[:8000] + black.stderr
    ruff = subprocess.run(
        [str(BIN / "ruff"), "check", "--isolated", "--no-cache", "-q", *packages],
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout
    (tmp_path / "mypy.ini").write_text("[mypy]\n")  # no pydantic plugin
    from mypy import api

    report, errors, status = api.run(
        ["--strict", "--no-incremental", "--config-file", str(tmp_path / "mypy.ini"), *packages]
    )
    assert status == 0, report + errors
    imported = subprocess.run(
        [sys.executable, "-W", "error", "-c", IMPORT_ALL, *built],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
