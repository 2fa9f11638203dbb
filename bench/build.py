"""Benchmark of `toolc build` against the peer a user would otherwise run, datamodel-codegen 0.89
with its default settings, on the same tools (236, 1,000 and 5,000 synthetic tools).

    .venv/bin/python bench/build.py [--sizes 236,1000,5000] [--peer-sizes 236,1000,5000]
                                    [--schema-peer-sizes 236,1000,5000]

Measures, each in a fresh process: cold builds (wall and CPU time, peak memory; in another cold
run the PSS of its processes together, the forked child included), the peer as issue 16 names
it (`--input-file-type mcp-tools` on the tools' descriptors, tools.json) and, for comparison,
the peer reading the same input schemas as one JSON Schema document (its faster form), a no-op
rebuild against `toolc --version` (in alternating pairs, the median of their ratios),
rebuilds after one tool changed (edited in place, so the build cache is used) and, at 1,000
tools, their floor (starting Python and importing what such a rebuild imports, nothing else),
the same edits and no-op through the build daemon (decision 0123), and importing the generated
package of 1,000 tools. Writes bench/results/build.json. Decision 0120 gives the method.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import gen_config  # bench/ is sys.path[0] when this file is run as a script

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CONFIGS = ROOT / "bench" / ".configs"
VERSION = [str(BIN / "toolc"), "--version"]
NOOP_PAIRS = 9
RESULTS = ROOT / "bench" / "results"
SEED = 20240501

# Runs a command and prints its wall time and its peak resident memory (KiB) as JSON.
_MEASURE = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "wall = time.perf_counter() - t\n"
    "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "err = r.stderr.decode()[-2000:]\n"
    "print(json.dumps({'wall': wall, 'cpu': use.ru_utime + use.ru_stime, 'sys': use.ru_stime,\n"
    "                  'rss_kib': use.ru_maxrss, 'rc': r.returncode, 'err': err}))\n"
)


# Runs a command and prints the peak of the PSS summed over it and its children (KiB; a
# build of 200 tools or more forks one, decision 0117, and PSS counts a page the two share
# half in each), as JSON. A separate run: its sampler shares the two cores, so its wall
# time is not the one reported.
_MEASURE_MEMORY = (
    "import json, resource, subprocess, sys, tempfile, threading, time\n"
    "def pss(pid):\n"
    "    try:\n"
    "        for line in open(f'/proc/{pid}/smaps_rollup'):\n"
    "            if line.startswith('Pss:'):\n"
    "                return int(line.split()[1])\n"
    "    except OSError:\n"
    "        pass\n"
    "    return 0\n"
    "def tree(pid):\n"
    "    try:\n"
    "        kids = open(f'/proc/{pid}/task/{pid}/children').read().split()\n"
    "    except OSError:\n"
    "        kids = []\n"
    "    return [pid] + [p for k in kids for p in tree(int(k))]\n"
    "errors = tempfile.TemporaryFile()\n"
    "t = time.perf_counter()\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=errors)\n"
    "peak, done = [0], threading.Event()\n"
    "def sample():\n"
    "    while not done.wait(0.05):\n"
    "        peak[0] = max(peak[0], sum(pss(q) for q in tree(p.pid)))\n"
    "sampler = threading.Thread(target=sample)\n"
    "sampler.start()\n"
    "p.wait()  # a blocking wait, so the wall time is exact (wait(timeout) polls)\n"
    "wall = time.perf_counter() - t\n"
    "done.set()\n"
    "sampler.join()\n"
    "errors.seek(0)\n"
    "err = errors.read().decode()[-2000:]\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps({'wall': wall, 'rss_kib': rss, 'pss_kib': peak[0], 'rc': p.returncode,\n"
    "                  'err': err}))\n"
)


def measure(
    cmd: list[str], cwd: Path | None = None, memory: bool = False, daemon: bool = False
) -> dict[str, Any]:
    """`cmd` in a fresh process; with `daemon`, a `toolc build` may go to the build daemon
    (every other measurement runs alone: TOOLC_NO_DAEMON)."""
    script = _MEASURE_MEMORY if memory else _MEASURE
    env = dict(os.environ)
    if daemon:
        env.pop("TOOLC_NO_DAEMON", None)
    out = subprocess.run(
        [sys.executable, "-c", script, *cmd], capture_output=True, text=True, cwd=cwd, env=env
    )
    result: dict[str, Any] = json.loads(out.stdout)
    if result["rc"] != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}\n{result['err']}")
    return result


def config(n: int) -> Path:
    folder = CONFIGS / str(n)
    gen_config.write_config(folder, n, SEED)
    return folder


def peer_schema_input(out: Path, n: int, work: Path) -> Path:
    """The tools' published input schemas as one JSON Schema document: the peer's faster form,
    measured for comparison."""
    defs: dict[str, Any] = {}
    for path in sorted((out / "schemas").glob("*.input.json")):
        schema = json.loads(path.read_text())
        for name, sub in schema.pop("$defs", {}).items():
            defs[name] = sub
        defs[path.name.removesuffix(".input.json")] = schema
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}
    target = work / f"peer_{n}.json"
    target.write_text(json.dumps(document))
    return target


def peer(source: Path, kind: str, target: Path) -> dict[str, Any]:
    return measure(
        [str(BIN / "datamodel-codegen"), "--input", str(source),
         "--input-file-type", kind, "--output", str(target)]
    )  # fmt: skip


def toolc_build(folder: Path, out: Path) -> list[str]:
    return [
        str(BIN / "toolc"),
        "build",
        str(folder),
        "--out",
        str(out),
        "--snapshot",
        str(out.parent / "snap.json"),
    ]


def edit_one_tool(copy: Path, round_: int) -> None:
    """Give the first tool of the config in `copy` a longer description and a bumped version,
    in place, as a user editing the config between two builds does (a new edit each round)."""
    text = (copy / "tools.yaml").read_text()
    head, sep, tail = text.partition("    description: ")
    version_at = head.rfind("    version: ")
    line_end = head.index("\n", version_at)
    head = head[:version_at] + f"    version: 99.{round_}.0" + head[line_end:]
    (copy / "tools.yaml").write_text(head + sep + "Edited. " + tail)


def through_the_daemon(folder: Path, out: Path, runs: int) -> dict[str, Any]:
    """The same one-tool edits and no-op with the build daemon running (decision 0123): its
    first build loads the cache the one-shot builds left (reported apart), the next ones are
    served from memory. The no-op in alternating pairs with `toolc --version`, as alone."""
    toolc = str(BIN / "toolc")
    env = {k: v for k, v in os.environ.items() if k != "TOOLC_NO_DAEMON"}
    started = subprocess.run(
        [toolc, "daemon", "start", "--idle-timeout", "600"], env=env, capture_output=True
    )
    if started.returncode != 0:
        raise SystemExit(f"the build daemon did not start: {started.stderr.decode()}")
    try:
        edit_one_tool(folder, 100)
        first = measure(toolc_build(folder, out), daemon=True)["wall"]
        edits = []
        for k in range(runs):
            edit_one_tool(folder, 101 + k)
            edits.append(measure(toolc_build(folder, out), daemon=True)["wall"])
        pairs = [
            (measure(VERSION)["wall"], measure(toolc_build(folder, out), daemon=True)["wall"])
            for _ in range(NOOP_PAIRS)
        ]
        served = subprocess.run([toolc, "daemon", "status"], env=env, capture_output=True)
    finally:
        subprocess.run([toolc, "daemon", "stop"], env=env, capture_output=True)
    return {
        "daemon_first_changed_s": first,
        "daemon_one_changed_s": median(edits),
        "daemon_noop_s": median([noop for _, noop in pairs]),
        "daemon_noop_ratio": median([noop / version for version, noop in pairs]),
        "daemon_status": served.stdout.decode().strip(),
    }


# A `toolc build` run as the command runs it, which then writes the names of the modules it
# imported (in their order) to the file named first.
_RECORD_IMPORTS = (
    "import json, os, sys\n"
    "record, sys.argv = sys.argv[1], ['toolc', *sys.argv[2:]]\n"
    "from toolc.cli import run\n"
    "status = run()\n"
    "from toolc import workspace\n"
    "workspace.finish_cleanup()\n"
    "open(record, 'w').write(json.dumps(list(sys.modules)))\n"
    "os._exit(status)\n"
)
# Imports the modules a file names, in their order, and ends as toolc does (os._exit); with
# the cyclic collector off, as toolc imports the compiler (memory.collector_paused).
_IMPORT_ONLY = (
    "import gc, importlib, json, os, sys\n"
    "gc.disable()\n"
    "for name in json.load(open(sys.argv[1])):\n"
    "    try:\n"
    "        importlib.import_module(name)\n"
    "    except Exception:\n"
    "        pass\n"
    "os._exit(0)\n"
)


def edit_floor(folder: Path, out: Path, work: Path, runs: int = 5) -> dict[str, Any]:
    """What a one-tool edit run alone costs before it does any of its work: starting the
    interpreter and importing the modules the edit imports (recorded from a real edit),
    the median of `runs`; and the same for the libraries alone (toolc's own modules left
    out: they import the libraries they need, so this is what any toolc built on them
    pays)."""
    edit_one_tool(folder, 10**6)  # above every edit before it: a version only goes up
    record = work / "imports.json"
    command = [sys.executable, "-c", _RECORD_IMPORTS, str(record), *toolc_build(folder, out)[1:]]
    made = subprocess.run(command, capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"the recorded edit failed:\n{made.stderr[-2000:]}")
    names = json.loads(record.read_text())
    libraries = work / "libraries.json"
    libraries.write_text(json.dumps([n for n in names if n.split(".")[0] != "toolc"]))
    found = {}
    for label, listed in (("edit_imports_s", record), ("edit_library_imports_s", libraries)):
        importing = [sys.executable, "-c", _IMPORT_ONLY, str(listed)]
        found[label] = median([measure(importing)["wall"] for _ in range(runs)])
    found["edit_modules"] = len(names)
    return found


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="236,1000,5000")
    parser.add_argument("--peer-sizes", default="236,1000,5000")
    parser.add_argument("--schema-peer-sizes", default="236,1000,5000")
    parser.add_argument("--runs", type=int, default=3, help="cold builds and edits per size")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    peer_sizes = [int(s) for s in args.peer_sizes.split(",") if s]
    schema_peer_sizes = [int(s) for s in args.schema_peer_sizes.split(",") if s]
    report: dict[str, Any] = {"sizes": {}, "runs": args.runs}
    os.environ["TOOLC_NO_DAEMON"] = "1"  # one-shot builds, but where `daemon=True` is asked
    version = [measure(VERSION)["wall"] for _ in range(5)]
    report["toolc_version_s"] = median(version)
    print(f"`toolc --version`: {median(version):.3f} s (median of 5)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # The build cache of these runs stays in the temporary folder, and starts empty.
        os.environ["TOOLC_CACHE_DIR"] = str(work / "cache")
        for n in sizes:
            folder = work / f"cfg_{n}"  # a copy: the one-tool edit is made in place
            shutil.copytree(config(n), folder)
            # Each cold build into a folder of its own (no cache, nothing to link); nothing is
            # deleted before the temporary folder goes at the end (decision 0120: creating
            # files right after many were deleted is slow on some file systems).
            colds = [
                measure(toolc_build(folder, work / f"cold{k}_{n}" / f"pkg_{n}"))
                for k in range(args.runs)
            ]
            out = work / f"cold0_{n}" / f"pkg_{n}"
            # Once more, for the memory of both processes (its sampler shares the cores).
            both = measure(toolc_build(folder, work / f"mem_{n}" / out.name), memory=True)
            # The no-op beside `toolc --version`, in alternating pairs: the two are compared
            # in the same phase of the machine, whose speed drifts over a long run.
            pairs = [
                (measure(VERSION)["wall"], measure(toolc_build(folder, out))["wall"])
                for _ in range(NOOP_PAIRS)
            ]
            row: dict[str, Any] = {
                "cold_s": median([c["wall"] for c in colds]),
                "cold_cpu_s": median([c["cpu"] for c in colds]),
                "cold_sys_s": median([c["sys"] for c in colds]),
                "cold_rss_mib": max(c["rss_kib"] for c in colds) / 1024,
                "cold_pss_mib": both["pss_kib"] / 1024,  # the processes together
                "noop_s": median([noop for _, noop in pairs]),
                "noop_ratio": median([noop / version for version, noop in pairs]),
            }
            if n in peer_sizes:  # the peer as issue 16 names it: its MCP tools input
                found = peer(out / "tools.json", "mcp-tools", work / f"peer_{n}.py")
                row["peer_s"], row["peer_rss_mib"] = found["wall"], found["rss_kib"] / 1024
            if n in schema_peer_sizes:  # its faster form, on the input schemas alone
                source = peer_schema_input(out, n, work)
                found = peer(source, "jsonschema", work / f"peer_schema_{n}.py")
                row["schema_peer_s"] = found["wall"]
                row["schema_peer_rss_mib"] = found["rss_kib"] / 1024
            edits = []
            for k in range(args.runs):
                edit_one_tool(folder, k)
                edits.append(measure(toolc_build(folder, out)))
            row["one_changed_s"] = median([e["wall"] for e in edits])
            row["one_changed_cpu_s"] = median([e["cpu"] for e in edits])
            row.update(through_the_daemon(folder, out, args.runs))
            if n == 1000:  # where the edit's target is
                row.update(edit_floor(folder, out, work))
                row["import_s"] = measure(
                    [sys.executable, "-c", f"import pkg_{n}"], cwd=out.parent
                )["wall"]
            report["sizes"][str(n)] = row
            shown = ", ".join(f"{k} {v:.2f}" for k, v in row.items() if not isinstance(v, str))
            print(f"{n:>5} tools: {shown}", flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "build.json").write_text(json.dumps(report, indent=2) + "\n")
    print("\nTargets (issue 16):")
    for n, row in report["sizes"].items():
        if "peer_s" in row:
            speed = row["cold_s"] / row["peer_s"]
            print(
                f"  cold build {n} tools: {speed:.3f} x the peer's time (target <= 0.05), "
                f"CPU {row['cold_cpu_s']:.2f} s of {row['cold_s']:.2f} s wall"
            )
            if n == "5000":  # the memory target is at 5,000 tools
                memory = row["cold_rss_mib"] / row["peer_rss_mib"]
                together = row["cold_pss_mib"] / row["peer_rss_mib"]
                print(
                    f"  peak memory {n} tools: {memory:.3f} x the peer's (target <= 0.1), "
                    f"{together:.3f} x with the forked child's (PSS of both)"
                )
        if "schema_peer_s" in row:
            speed = row["cold_s"] / row["schema_peer_s"]
            memory = row["cold_rss_mib"] / row["schema_peer_rss_mib"]
            print(
                f"  against the peer's JSON Schema form, {n} tools: {speed:.3f} x its time, "
                f"{memory:.2f} x its memory"
            )
        print(
            f"  no-op rebuild {n} tools: {row['noop_ratio']:.2f} x `toolc --version` "
            f"(target <= 1.5; median of {NOOP_PAIRS} alternating pairs)"
        )
        ratio = row["one_changed_s"] / row["cold_s"]
        note = " (target <= 0.1)" if n == "1000" else ""
        print(f"  one tool changed of {n}: {ratio:.2f} x the cold build{note}")
        if "edit_imports_s" in row:
            print(
                f"    its floor alone: starting Python and importing its {row['edit_modules']} "
                f"modules takes {row['edit_imports_s']:.3f} s, "
                f"{row['edit_imports_s'] / row['cold_s']:.3f} x the cold build; the libraries "
                f"alone {row['edit_library_imports_s']:.3f} s, "
                f"{row['edit_library_imports_s'] / row['cold_s']:.3f} x"
            )
        served = row["daemon_one_changed_s"] / row["cold_s"]
        print(
            f"    through the build daemon: {served:.3f} x the cold build "
            f"({row['daemon_one_changed_s']:.3f} s; its first, loading the cache: "
            f"{row['daemon_first_changed_s']:.3f} s); no-op {row['daemon_noop_ratio']:.2f} x "
            "`toolc --version`"
        )
        if "import_s" in row:
            print(f"  import the package of {n} tools: {row['import_s']:.2f} s (target <= 2)")


if __name__ == "__main__":
    main()
