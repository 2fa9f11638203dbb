"""Benchmark of the generated args models (issue 16): each tool's model judging instances,
as the generated server does on every call (the model's validator), against `jsonschema_rs`'s
`is_valid` on the tool's published inputSchema, on the same instances.

    .venv/bin/python bench/args_models.py [--configs 20] [--instances 60] [--repeat 20]

The packages: the bundled examples and `--configs` random configs (tests/random_projects.py,
seeded like make test's gate). The instances: per tool, `--instances` drawn by
tests/instances.py from the published schema, half fitting it and half near misses (one thing
changed), seeded. Each package is timed in its own process: every instance judged
`--repeat` times by the model, then by the validator (compiled once, outside the timing).
Also times the floor, what any pydantic model must do at least on the same instances: build
itself on each that fits (a model with no field, which checks nothing) and raise a
ValidationError on each that does not (the same model refusing `None`). The figures say how
far pydantic itself is from the target.
Writes bench/results/args_models.json. Target: the models at most 1.0x the validator's time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the suite's strategies: one definition of both

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from instances import near_miss, valid  # noqa: E402
from random_projects import as_yaml, projects  # noqa: E402
from toolc import verbs  # noqa: E402
from toolc.evolution.baseline import BaselineError  # noqa: E402
from toolc.validate.rust_patterns import with_model_patterns  # noqa: E402

RESULTS = ROOT / "bench" / "results"
EXAMPLES = ("retail", "telecom", "vitrine", "files", "gateway")
TARGET = 1.0

TIMER = """
import importlib, json, sys, time
import jsonschema_rs
from pydantic import BaseModel, ConfigDict, ValidationError


# The floor: what any pydantic model must do at least. For an instance that fits, build
# itself: the cheapest model (no field, any member ignored, strict as the generated models
# are) builds on the same instance. For one that does not, raise a ValidationError: the
# cheapest one, the same model refusing what is not an object.
class Floor(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


floor = Floor.__pydantic_validator__.validate_python

sys.path.insert(0, sys.argv[1])
package = importlib.import_module(sys.argv[2])
cases = json.loads(open(sys.argv[3], encoding="utf-8").read())
repeat = int(sys.argv[4])
model_s = rs_s = floor_s = 0.0
agree = disagree = count = 0
for name, case in cases.items():
    # what the server runs on every call (server_calls.ServedTool.parse): the model's
    # own validator, as `model_validate` calls it
    validate = package.TOOLS[name].args_model.__pydantic_validator__.validate_python
    instances = case["instances"]
    validator = jsonschema_rs.validator_for(
        case["schema"], pattern_options=jsonschema_rs.RegexOptions())
    floored = []  # for the floor: each fitting instance, and None for each miss
    for value in instances:  # warm: each model's first call builds nothing later
        try:
            validate(value)
            ok = True
        except ValidationError:
            ok = False
        floored.append(value if ok else None)
        agree += ok == validator.is_valid(value)
        disagree += ok != validator.is_valid(value)
    start = time.perf_counter()
    for _ in range(repeat):
        for value in instances:
            try:
                validate(value)
            except ValidationError:
                pass
    model_s += time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for value in instances:
            validator.is_valid(value)
    rs_s += time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for value in floored:
            try:
                floor(value)
            except ValidationError:
                pass
    floor_s += time.perf_counter() - start
    count += len(instances) * repeat
print(json.dumps({"model_s": model_s, "rs_s": rs_s, "floor_s": floor_s, "judged": count,
                  "agree": agree, "disagree": disagree}))
"""


def _without_local_constants() -> None:
    """Hypothesis (6.1xx) also draws the constants of the local modules already imported,
    toolc's among them: the seeded configs and instances would change with toolc's code,
    and figures of two sessions would judge different configs. Only its own constants,
    then. (A private function: where a Hypothesis lacks it, nothing to turn off.)"""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty


def _quietly(strategy: st.SearchStrategy[Any], count: int, seed_value: int) -> list[Any]:
    """`count` values drawn from `strategy`, the same ones run after run."""
    drawn: list[Any] = []

    @seed(seed_value)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        drawn.append(value)

    collect()
    return drawn


def _instances(schema: dict[str, Any], count: int, seed_value: int) -> list[Any]:
    defs = schema.get("$defs", {})
    fitting = valid(schema, defs)
    misses = fitting.flatmap(lambda v: near_miss(v, schema, defs))
    half = max(1, count // 2)
    drawn = _quietly(fitting, half, seed_value) + _quietly(misses, half, seed_value + 1)
    return json.loads(json.dumps(drawn))  # as a client sends them: JSON


def _random_packages(root: Path, count: int) -> list[tuple[Path, str]]:
    made: list[tuple[Path, str]] = []
    for index, project in enumerate(_quietly(projects(), count, 0)):
        config, policies = project
        name = f"pkg_{index}"
        policies_text = as_yaml(policies) if policies is not None else None
        try:
            files = verbs.compile_baseline(as_yaml(config), policies_text, f"{name}:")
        except BaselineError:
            continue
        for rel, data in files.items():
            path = root / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        made.append((root, name))
    return made


def _time(root: Path, name: str, work: Path, counts: argparse.Namespace) -> dict[str, Any]:
    tools_json = root / name / "tools.json"
    tools = json.loads(tools_json.read_text(encoding="utf-8"))["tools"]
    cases = {
        t["name"]: {
            # ECMA-262 patterns in the Rust engine's syntax, as toolc's checks judge them
            "schema": with_model_patterns(t["inputSchema"], {}),
            "instances": _instances(t["inputSchema"], counts.instances, i),
        }
        for i, t in enumerate(tools)
    }
    cases_file = work / f"{root.parent.name}-{name}.json"
    cases_file.write_text(json.dumps(cases))
    timer = work / "timer.py"
    timer.write_text(TIMER)
    run = subprocess.run(
        [sys.executable, str(timer), str(root), name, str(cases_file),
         str(counts.repeat)],
        capture_output=True, text=True,
    )  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"timing {root / name} failed:\n{run.stderr}")
    figures: dict[str, Any] = json.loads(run.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=int, default=20)
    parser.add_argument("--instances", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    _without_local_constants()
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        packages = [(ROOT / "examples" / e / "generated", "mcp_tools") for e in EXAMPLES]
        packages += _random_packages(work / "random", options.configs)
        for root, name in packages:
            label = root.parent.name if name == "mcp_tools" else name
            row = _time(root, name, work, options)
            if row["judged"]:  # a config may declare only proxied tools
                rows[label] = {**row, "ratio": row["model_s"] / row["rs_s"]}
    ratios = [r["ratio"] for r in rows.values()]
    total = {
        "model_s": sum(r["model_s"] for r in rows.values()),
        "rs_s": sum(r["rs_s"] for r in rows.values()),
        "floor_s": sum(r["floor_s"] for r in rows.values()),
        "judged": sum(r["judged"] for r in rows.values()),
        "disagree": sum(r["disagree"] for r in rows.values()),
    }
    floors = [r["floor_s"] / r["rs_s"] for r in rows.values()]
    report = {
        "packages": rows,
        "total": total,
        "median_ratio": statistics.median(ratios),
        "floor_ratio": total["floor_s"] / total["rs_s"],
        "median_floor_ratio": statistics.median(floors),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "args_models.json").write_text(json.dumps(report, indent=2) + "\n")
    for label, row in rows.items():
        per = row["judged"]
        print(
            f"{label:>10}: model {row['model_s'] / per * 1e6:6.2f} us, jsonschema-rs "
            f"{row['rs_s'] / per * 1e6:6.2f} us per instance: {row['ratio']:5.2f}x; "
            f"its floor {row['floor_s'] / per * 1e6:5.2f} us"
        )
    print(
        f"all {total['judged']} judgements: models {total['model_s']:.3f} s, jsonschema-rs "
        f"{total['rs_s']:.3f} s: {total['model_s'] / total['rs_s']:.2f}x overall, median "
        f"per package {report['median_ratio']:.2f}x (target <= {TARGET}x); verdicts that "
        f"differ: {total['disagree']}"
    )
    print(
        f"the floor, what any pydantic model must do (build itself or raise): "
        f"{total['floor_s']:.3f} s, {report['floor_ratio']:.2f}x jsonschema-rs overall, "
        f"median per package {report['median_floor_ratio']:.2f}x: no pydantic model can "
        f"meet a target below it"
    )


if __name__ == "__main__":
    main()
