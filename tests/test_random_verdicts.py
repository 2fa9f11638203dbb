"""Random configs (random_projects.py) give args models that judge instances exactly as the
published inputSchema does (the reference validator, patterns read as ECMA-262): instances
drawn from each schema, half of them near misses. The standard form; test_portable holds the
portable one. `TOOLC_RANDOM_VERDICTS=N` (default 25) sets how many configs, and
`TOOLC_RANDOM_SEED` their seed, as for test_random_configs."""

from __future__ import annotations

import importlib
import os
import sys

import pytest
from agreement import assert_models_agree
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from random_projects import as_yaml, projects
from test_random_configs import SEED_VALUE
from toolc import verbs
from toolc.evolution.baseline import BaselineError

COUNT = int(os.environ.get("TOOLC_RANDOM_VERDICTS", "25"))


@seed(SEED_VALUE)
@settings(
    max_examples=COUNT, database=None, deadline=None, phases=[Phase.generate],
    suppress_health_check=list(HealthCheck), print_blob=True,
)  # fmt: skip
@given(data=st.data())
def test_random_args_models_judge_as_the_published_schema(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    config, policies = data.draw(projects())
    root = tmp_path_factory.mktemp("random_verdicts")
    name = root.name.replace("-", "_")
    policies_text = as_yaml(policies) if policies is not None else None
    try:
        files = verbs.compile_baseline(as_yaml(config), policies_text, f"{name}:")
    except BaselineError:
        return  # refused: what the random config gets wrong (test_random_configs counts them)
    for rel, text in files.items():
        path = root / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text)
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(name)
    finally:
        sys.path.remove(str(root))
    assert_models_agree(data, package, SEED_VALUE, 8)
