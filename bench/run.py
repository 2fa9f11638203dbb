#!/usr/bin/env python3
"""Benchmark of `toolc check`: `.venv/bin/python bench/run.py` (what `make bench` runs).

1. Generates the synthetic configs (bench/gen_config.py) if missing or stale.
2. Times `toolc --version`, the start-up every command pays.
3. Times `toolc check DIR` as a subprocess, per size: wall time, best and median of several runs.
4. Times the phases in-process, in one fresh Python process per size: `check_config` whole, and
   load (`toolc.source.load_file`), validate, lower and every cross-file check on their own,
   plus one run of `check_config` with the cyclic garbage collector off (what GC costs).
5. Prints the time per tool at each size (is it linear?), the targets, and writes every figure
   to bench/results/check.json.

Options: --sizes 10,236 to limit the sizes, --runs N to override the number of runs, --quick for
a smoke run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gen_config  # bench/ is sys.path[0] when this file is run as a script

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
DEFAULT_RESULTS = BENCH_DIR / "results" / "check.json"

# Targets (bench/README.md).
TARGET_SIZE = 1000
TARGET_SECONDS = 1.0
LINEAR_FROM, LINEAR_TO = 236, 5000
LINEAR_TOLERANCE = 1.25  # per-tool time may grow at most this much from LINEAR_FROM to LINEAR_TO

VERSION_RUNS = 10
BUDGET_SECONDS = 40.0  # per size and per kind of measurement: fewer runs when a run is slow


def planned_runs(n: int, inprocess: bool) -> int:
    if n <= 300:
        return 7
    if n <= 2000:
        return 4 if inprocess else 5
    return 2 if inprocess else 3


def summary(samples: list[float]) -> dict[str, Any]:
    return {
        "best": min(samples),
        "median": statistics.median(samples),
        "runs": len(samples),
        "samples": samples,
    }


# ------------------------------------------------------------------------------------------
# The in-process worker: runs in a fresh interpreter per size, prints JSON on stdout.
# ------------------------------------------------------------------------------------------
def peak_rss_mib() -> float | None:
    """This process's peak resident memory. VmHWM, because ru_maxrss survives exec on Linux and
    would report the driver's peak (it generated the configs) instead of the worker's."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def worker(config_dir: Path, runs: int, budget: float) -> dict[str, Any]:
    started = time.perf_counter()
    from toolc.source import load_file
    from toolc.source.inputs import POLICIES_FILE, TOOLS_FILE
    from toolc.verbs import check_config

    import_s = time.perf_counter() - started
    try:  # the finer phases use internals; if they moved, only the whole and the load remain
        from toolc.checks import CHECKS
        from toolc.checks.context import CheckContext
        from toolc.model import SourceSpans
        from toolc.model.project import lower
        from toolc.validate.outcome import validate

        breakdown_error = None
    except ImportError as exc:
        breakdown_error = f"phase breakdown unavailable: {exc}"

    tools_path, policies_path = config_dir / TOOLS_FILE, config_dir / POLICIES_FILE
    problems: list[str] = []

    def one_run(sink: dict[str, list[float]]) -> None:
        """check_config whole, then the same work phase by phase, as the pipeline does it."""

        def record(name: str, seconds: float) -> None:
            sink.setdefault(name, []).append(seconds)

        gc.collect()
        t0 = time.perf_counter()
        result = check_config(config_dir)
        record("check_config", time.perf_counter() - t0)
        if result.diagnostics:
            problems.extend(f"{d.code}: {d.message}" for d in result.diagnostics[:20])
        del result
        gc.collect()

        # The phases run as the pipeline runs them: with the cyclic collector paused.
        collector_was_on = gc.isenabled()
        gc.disable()
        t0 = time.perf_counter()
        tools = load_file(tools_path, TOOLS_FILE)
        policies = load_file(policies_path, POLICIES_FILE)
        record("load", time.perf_counter() - t0)
        if breakdown_error is None:
            t0 = time.perf_counter()
            found = (
                validate("tools", tools).diagnostics + validate("policies", policies).diagnostics
            )
            record("validate", time.perf_counter() - t0)
            t0 = time.perf_counter()
            project = lower(tools.data, policies.data, SourceSpans(tools.spans, policies.spans))
            record("lower", time.perf_counter() - t0)
            checks_start = time.perf_counter()
            ctx = CheckContext(project)  # shared indexes: built by the first check that needs them
            for check in CHECKS:
                t0 = time.perf_counter()
                found.extend(check(ctx))
                record(f"check.{check.__name__}", time.perf_counter() - t0)
            record("checks", time.perf_counter() - checks_start)
            if found and not problems:
                problems.extend(f"{d.code}: {d.message}" for d in found[:20])
            del project, found, ctx
        del tools, policies
        if collector_was_on:
            gc.enable()

    timings: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    one_run(timings)  # the first run is the cold one: caches (compiled validators) still empty
    runs = max(1, min(runs, int(budget / (time.perf_counter() - t0)) or 1))
    for _ in range(runs - 1):
        one_run(timings)

    # Once more with the cyclic garbage collector off: the difference is what GC costs.
    gc_off: dict[str, list[float]] = {}
    gc.disable()
    try:
        one_run(gc_off)
    finally:
        gc.enable()

    return {
        "import_s": import_s,
        "cold_s": timings["check_config"][0],
        "check_config": summary(timings.pop("check_config")),
        "phases": {name: summary(values) for name, values in timings.items()},
        "check_config_gc_off_s": gc_off.pop("check_config")[0],
        "phases_gc_off_s": {name: values[0] for name, values in gc_off.items()},
        "peak_rss_mib": peak_rss_mib(),
        "breakdown_error": breakdown_error,
        "problems": problems,
    }


# ------------------------------------------------------------------------------------------
# The driver.
# ------------------------------------------------------------------------------------------
def timed(cmd: list[str], runs: int, budget: float, expect: Any = None) -> dict[str, Any]:
    """Wall time of ``cmd``; the first run's output is checked by ``expect(proc) -> str|None``."""
    samples: list[float] = []
    for index in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        samples.append(time.perf_counter() - t0)
        if index == 0:
            problem = expect(proc) if expect else None
            if problem is None and proc.returncode != 0:
                problem = f"exit status {proc.returncode}"
            if problem is not None:
                output = (proc.stderr + proc.stdout).strip().splitlines()
                return {"error": problem, "output": output[:40], **summary(samples)}
            runs = max(1, min(runs, int(budget / samples[0]) or 1))
        if len(samples) >= runs:
            break
    return summary(samples)


def clean_check(n: int) -> Any:
    def expect(proc: subprocess.CompletedProcess[str]) -> str | None:
        if proc.returncode != 0:
            return f"`toolc check` exited {proc.returncode}: the generated config is not clean"
        if "no problems" not in proc.stderr or f"{n} tool(s)" not in proc.stderr:
            return "`toolc check` reported diagnostics (warnings?) on the generated config"
        return None

    return expect


def growth(per_tool: dict[int, float | None]) -> float | None:
    low, high = per_tool.get(LINEAR_FROM), per_tool.get(LINEAR_TO)
    if low is None or high is None or low <= 0:
        return None
    return high / low


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 0.1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.3f} s"


def fmt_us(us: float | None) -> str:
    return "-" if us is None else f"{us:,.0f}"


def fmt_growth(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.2f}x"


def environment() -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "toolc_command": gen_config.toolc_command(),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    probe = (
        "import json, yaml, toolc, jsonschema_rs, pydantic; from importlib.metadata import "
        "version; print(json.dumps({'toolc': toolc.__version__, 'libyaml': yaml.__with_libyaml__,"
        " 'pyyaml': yaml.__version__, 'jsonschema_rs': version('jsonschema_rs'),"
        " 'pydantic': pydantic.VERSION}))"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    if proc.returncode == 0:
        info.update(json.loads(proc.stdout))
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "compiler", "schemas"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        info["git"] = commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except OSError:
        pass
    return info


def print_report(report: dict[str, Any]) -> None:
    env, sizes = report["environment"], report["sizes"]
    print()
    print(
        f"toolc check benchmark: toolc {env.get('toolc', '?')} ({env.get('git', '?')}), "
        f"Python {env['python']}, {env['machine']}, {env['cpus']} CPU(s), "
        f"libyaml {'yes' if env.get('libyaml') else 'NO'}"
    )
    start = report["startup"]
    print(
        f"start-up, `toolc --version`: best {fmt_s(start['best'])}, "
        f"median {fmt_s(start['median'])} ({start['runs']} runs)"
    )

    print("\n1. `toolc check DIR`, subprocess wall time")
    print(
        f"{'tools':>6} {'tools.yaml':>11} {'lines':>8} {'runs':>4} {'best':>10} {'median':>10}"
        f" {'- start-up':>11} {'per tool':>9}"
    )
    for n, s in sizes.items():
        cfg, sub = s["config"], s["subprocess"]
        if "error" in sub:
            print(f"{n:>6} ERROR: {sub['error']}")
            continue
        print(
            f"{n:>6} {cfg['tools_yaml_kib']:>7,.0f} KiB {cfg['tools_yaml_lines']:>8,} "
            f"{sub['runs']:>4} {fmt_s(sub['best']):>10} {fmt_s(sub['median']):>10} "
            f"{fmt_s(sub['net_best']):>11} {sub['per_tool_us']:>6,.0f} us"
        )

    print("\n2. In-process phases (fresh process per size; best of N runs)")
    cols = ["load", "validate", "lower", "checks"]
    print(
        f"{'tools':>6} {'runs':>4} {'check_config':>14} {'cold':>10} "
        + " ".join(f"{c:>10}" for c in cols)
        + f" {'gc off':>10} {'peak RSS':>9}"
    )
    for n, s in sizes.items():
        ip = s.get("inprocess")
        if not ip or "error" in ip:
            print(f"{n:>6} ERROR: {ip.get('error') if ip else 'not run'}")
            continue
        ph = ip["phases"]
        rss = ip.get("peak_rss_mib")
        print(
            f"{n:>6} {ip['check_config']['runs']:>4} {fmt_s(ip['check_config']['best']):>14} "
            f"{fmt_s(ip['cold_s']):>10} "
            + " ".join(f"{fmt_s(ph[c]['best'] if c in ph else None):>10}" for c in cols)
            + f" {fmt_s(ip['check_config_gc_off_s']):>10}"
            + (f" {rss:>5,.0f} MiB" if rss else "")
        )
    largest = next(
        (s for s in reversed(sizes.values()) if s.get("inprocess", {}).get("phases")), None
    )
    if largest:
        checks = {k: v for k, v in largest["inprocess"]["phases"].items() if k.startswith("check.")}
        if checks:
            ranked = sorted(checks.items(), key=lambda kv: -kv[1]["best"])
            print(
                f"   checks at {largest['config']['tools']} tools: "
                + ", ".join(f"{k[6:]} {fmt_s(v['best'])}" for k, v in ranked if v["best"] >= 5e-4)
            )

    lin = report["linearity"]
    shown = list(sizes)
    print(f"\n3. Time per tool, microseconds (growth = per tool at {LINEAR_TO} / at {LINEAR_FROM})")
    print(f"{'':<24}" + "".join(f"{n:>9}" for n in shown) + f"{'growth':>9}")
    for name, row in lin["per_tool_us"].items():
        print(
            f"{name:<24}"
            + "".join(f"{fmt_us(row.get(str(n))):>9}" for n in shown)
            + f"{fmt_growth(lin['growth'].get(name)):>9}"
        )

    print("\n4. Targets")
    for target in report["targets"]:
        verdict = {True: "PASS", False: "FAIL", None: "n/a "}[target["ok"]]
        print(f"  [{verdict}] {target['name']}: {target['detail']}")
    if report["problems"]:
        print("\nProblems:")
        for p in report["problems"]:
            print(f"  - {p}")


def build_linearity(sizes: dict[int, dict[str, Any]]) -> dict[str, Any]:
    rows: dict[str, dict[str, float | None]] = {}
    # The checks worth a row: those taking at least 3% of the checks at the largest size.
    last = next((s["inprocess"] for s in reversed(sizes.values()) if s.get("inprocess")), {})
    last_phases = last.get("phases", {})
    worth = {
        name
        for name, value in last_phases.items()
        if name.startswith("check.") and value["best"] >= 0.03 * last_phases["checks"]["best"]
    }

    def put(row: str, n: int, seconds: float | None) -> None:
        rows.setdefault(row, {})[str(n)] = None if seconds is None else seconds / n * 1e6

    for n, s in sizes.items():
        sub = s["subprocess"]
        put("subprocess - start-up", n, None if "error" in sub else sub["net_best"])
        ip = s.get("inprocess") or {}
        if "check_config" in ip:
            put("check_config", n, ip["check_config"]["best"])
            put("check_config, gc off", n, ip["check_config_gc_off_s"])
            for phase in ("load", "validate", "lower", "checks"):
                if phase in ip["phases"]:
                    put(phase, n, ip["phases"][phase]["best"])
                if phase in ("lower", "checks") and phase in ip["phases_gc_off_s"]:
                    put(f"{phase}, gc off", n, ip["phases_gc_off_s"][phase])
            for phase, value in ip["phases"].items():
                if phase in worth:
                    put("  " + phase[6:], n, value["best"])
    ratio = {name: growth({int(k): v for k, v in row.items()}) for name, row in rows.items()}
    return {"per_tool_us": rows, "growth": ratio}


def build_targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    sizes = report["sizes"]
    targets = []
    s = sizes.get(TARGET_SIZE)
    if s and "error" not in s["subprocess"]:
        wall = s["subprocess"]["median"]
        inproc = s.get("inprocess", {}).get("check_config", {}).get("median")
        targets.append(
            {
                "name": f"load + validate {TARGET_SIZE:,} tools in under {TARGET_SECONDS:g} s",
                "ok": wall < TARGET_SECONDS,
                "value_s": wall,
                "detail": f"`toolc check` median wall time {fmt_s(wall)}"
                + (f" (in-process check_config {fmt_s(inproc)})" if inproc else ""),
            }
        )
        inprocess = s.get("inprocess", {})
        phases = inprocess.get("phases", {})
        if "load" in phases and "validate" in phases and "import_s" in inprocess:
            # The issue's wording taken literally: reading and schema-validating the files, with
            # the imports they need, but not the cross-file checks that `toolc check` adds.
            only = inprocess["import_s"] + phases["load"]["best"] + phases["validate"]["best"]
            targets.append(
                {
                    "name": "  same, load + schema validation alone (no cross-file checks)",
                    "ok": only < TARGET_SECONDS,
                    "value_s": only,
                    "detail": f"imports + load + validate, in-process: {fmt_s(only)}",
                }
            )
    else:
        targets.append(
            {
                "name": f"load + validate {TARGET_SIZE:,} tools in under {TARGET_SECONDS:g} s",
                "ok": None,
                "detail": f"size {TARGET_SIZE} not measured",
            }
        )
    ratio = report["linearity"]["growth"].get("check_config")
    sub_ratio = report["linearity"]["growth"].get("subprocess - start-up")
    name = f"linear from {LINEAR_FROM} to {LINEAR_TO:,} tools"
    if ratio is None:
        targets.append({"name": name, "ok": None, "detail": "both sizes needed"})
    else:
        targets.append(
            {
                "name": name,
                "ok": ratio <= LINEAR_TOLERANCE,
                "value": ratio,
                "detail": f"time per tool grows {ratio:.2f}x in-process "
                f"({fmt_growth(sub_ratio)} subprocess minus start-up); "
                f"linear means at most {LINEAR_TOLERANCE:g}x",
            }
        )
    return targets


def ensure_configs(sizes: list[int], out: Path, seed: int, regen: bool) -> dict[int, Path]:
    dirs = {}
    for n in sizes:
        directory = out / str(n)
        if regen or not gen_config.is_current(directory, n, seed):
            t0 = time.perf_counter()
            gen_config.write_config(directory, n, seed)
            print(f"generated {directory} ({time.perf_counter() - t0:.1f} s)", flush=True)
        dirs[n] = directory
    return dirs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark `toolc check` (see bench/README.md).")
    parser.add_argument(
        "--sizes",
        type=gen_config.parse_sizes,
        default=list(gen_config.DEFAULT_SIZES),
        help="comma-separated tool counts (default: 10,236,1000,5000)",
    )
    parser.add_argument("--seed", type=int, default=gen_config.DEFAULT_SEED)
    parser.add_argument(
        "--configs",
        type=Path,
        default=gen_config.DEFAULT_OUT,
        help="where the <N>/ config directories are (default: bench/.configs)",
    )
    parser.add_argument("--regen", action="store_true", help="regenerate the configs first")
    parser.add_argument("--runs", type=int, default=None, help="runs per measurement (override)")
    parser.add_argument("--quick", action="store_true", help="one run of everything (smoke test)")
    parser.add_argument("--json", type=Path, default=DEFAULT_RESULTS, help="where to write JSON")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=float, default=BUDGET_SECONDS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker is not None:
        json.dump(worker(args.worker, args.runs or 1, args.budget), sys.stdout)
        return 0

    if args.quick:
        args.runs = 1
    began = time.perf_counter()
    sizes = sorted(set(args.sizes))
    dirs = ensure_configs(sizes, args.configs, args.seed, args.regen)
    toolc = gen_config.toolc_command()
    problems: list[str] = []

    print("timing `toolc --version` ...", flush=True)
    startup = timed([*toolc, "--version"], args.runs or VERSION_RUNS, args.budget)
    if "error" in startup:
        print(f"`toolc --version` failed: {startup['error']}", file=sys.stderr)
        return 1

    results: dict[int, dict[str, Any]] = {}
    for n in sizes:
        directory = dirs[n]
        text = (directory / "tools.yaml").read_text(encoding="utf-8")
        entry: dict[str, Any] = {
            "config": {
                "tools": n,
                "dir": str(directory),
                "tools_yaml_kib": len(text.encode()) / 1024,
                "tools_yaml_lines": text.count("\n"),
            }
        }
        print(f"timing `toolc check` on {n} tools ...", flush=True)
        runs = args.runs or planned_runs(n, inprocess=False)
        sub = timed([*toolc, "check", str(directory)], runs, args.budget, clean_check(n))
        if "error" in sub:
            problems.append(f"{n} tools: {sub['error']}: " + " | ".join(sub["output"][:10]))
        else:
            sub["net_best"] = max(sub["best"] - startup["best"], 0.0)
            sub["per_tool_us"] = sub["net_best"] / n * 1e6
        entry["subprocess"] = sub

        print(f"timing phases in-process on {n} tools ...", flush=True)
        runs = args.runs or planned_runs(n, inprocess=True)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(directory)]
        cmd += ["--runs", str(runs), "--budget", str(args.budget)]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            entry["inprocess"] = {"error": proc.stderr.strip().splitlines()[-1:]}
            problems.append(f"{n} tools, in-process worker failed: {proc.stderr.strip()[-2000:]}")
        else:
            entry["inprocess"] = json.loads(proc.stdout)
            for p in entry["inprocess"]["problems"]:
                problems.append(f"{n} tools, in-process: {p}")
            if entry["inprocess"]["breakdown_error"]:
                problems.append(f"{n} tools: {entry['inprocess']['breakdown_error']}")
        results[n] = entry

    report: dict[str, Any] = {
        "environment": environment(),
        "seed": args.seed,
        "startup": startup,
        "sizes": results,
        "problems": problems,
    }
    report["linearity"] = build_linearity(results)
    report["targets"] = build_targets(report)
    report["elapsed_s"] = time.perf_counter() - began
    print_report(report)

    args.json.parent.mkdir(parents=True, exist_ok=True)
    serialisable = {**report, "sizes": {str(k): v for k, v in results.items()}}
    args.json.write_text(json.dumps(serialisable, indent=2) + "\n", encoding="utf-8")
    print(f"\n{report['elapsed_s']:.0f} s in all; figures written to {args.json}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
