"""The output directory loses nothing, whatever happens to a build: killed at any file-system
step (the next build repairs it), run twice at once (the second waits for the first), files
written into the output while it runs, planted links at temporary names, forged manifest
entries, special files among the user's files. Builds run as users run them: real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_toolc
from toolc.workspace import OutputLockHeld, lock_path

SCRIPT = Path(__file__).resolve().parent / "runtime_support" / "crashing_build.py"
KINDS = ("cache", "stats")  # the two files a build keeps in the cache directory
USER_FILES = {"notes.txt": "mine\n", "mine/deep/x.txt": "also mine\n"}


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def leftovers(*folders: Path) -> list[str]:
    return [p.name for f in folders if f.is_dir() for p in f.iterdir() if "toolc-" in p.name]


def edit(config: Path) -> None:
    text = (config / "tools.yaml").read_text(encoding="utf-8")
    text = text.replace("version: 2.0.0", "version: 2.0.1", 1)
    text = text.replace("Cancela um ou mais pedidos.", "Cancela pedidos.")
    (config / "tools.yaml").write_text(text, encoding="utf-8")


def crashing(config: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    out = config / "generated" / "mcp_tools"
    return subprocess.run(
        [sys.executable, str(SCRIPT), "build", str(config), "--out", str(out), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], bytes]:
    """A built config with the user's files in its output, then edited (`before`), and what a
    build of the edit makes (the expected output and snapshot)."""
    base = tmp_path_factory.mktemp("states")
    before = base / "before"
    shutil.copytree(
        ROOT / "examples" / "retail",
        before,
        ignore=shutil.ignore_patterns("generated", "mcp-tools.json"),
    )
    assert run_toolc("build", str(before)).returncode == 0
    for rel, text in USER_FILES.items():
        (before / "generated" / "mcp_tools" / rel).parent.mkdir(parents=True, exist_ok=True)
        (before / "generated" / "mcp_tools" / rel).write_text(text)
    edit(before)
    expected = base / "expected"
    shutil.copytree(before, expected)
    assert run_toolc("build", str(expected)).returncode == 0
    return (
        before,
        tree(expected / "generated" / "mcp_tools"),
        (expected / "mcp-tools.json").read_bytes(),
    )


def crash_points(states: tuple[Path, dict[str, bytes], bytes], scratch: Path) -> list[str]:
    """Every rename, replace and rmdir of a whole build, and the first, middle and last link,
    unlink and mkdir (counted on a build that runs to the end)."""
    config = scratch / "count"
    shutil.copytree(states[0], config)
    counted = scratch / "counts.json"
    assert crashing(config, {"COUNT_TO": str(counted)}).returncode == 0
    counts = json.loads(counted.read_text())
    points = []
    for op, n in counts.items():
        every = (
            range(1, n + 1)
            if op in ("rename", "replace", "rmdir")
            else sorted({1, 2, (n + 1) // 2, n - 1, n} & set(range(1, n + 1)))
        )
        points += [f"{op}:{i}" for i in every]
    return points


def test_a_build_killed_at_any_step_is_repaired_by_the_next(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    before, expected, snapshot = states
    points = crash_points(states, tmp_path)
    assert len(points) > 15
    for point in points:
        config = tmp_path / point.replace(":", "-")
        shutil.copytree(before, config)
        killed = crashing(config, {"CRASH_AT": point})
        assert killed.returncode == 137, (point, killed.stderr)
        again = run_toolc("build", str(config))
        assert again.returncode == 0, (point, again.stderr)
        out = config / "generated" / "mcp_tools"
        assert tree(out) == expected, point  # the new output, the user's files among it
        assert (config / "mcp-tools.json").read_bytes() == snapshot, point
        assert leftovers(config, config / "generated") == [], point
        cache = Path(os.environ["TOOLC_CACHE_DIR"])
        assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")], point
        shutil.rmtree(config)


def test_a_no_op_build_removes_the_cache_temporaries_of_a_killed_build(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    """A build killed while saving its cache leaves a temporary; the next build may find the
    output up to date and save nothing, so the no-op path sweeps it (only a dead pid's)."""
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    cache = Path(os.environ["TOOLC_CACHE_DIR"])
    others = {p.name for p in cache.iterdir()}
    assert run_toolc("build", str(config)).returncode == 0
    before = {p.name for p in cache.iterdir()}
    assert run_toolc("build", str(config)).returncode == 0
    assert {p.name for p in cache.iterdir()} == before  # a no-op: nothing new saved
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    assert dead.wait() == 0
    ours = sorted({n.partition(".")[0] for n in before - others if n.startswith("build-")})
    assert len(ours) == 1 and f"{ours[0]}.stats" in before, (ours, before)
    planted = [cache / f".{ours[0]}.{kind}.{dead.pid}.k3y_9abc.tmp" for kind in KINDS]
    alive = cache / f".{ours[0]}.cache.{os.getpid()}.zz1_0000.tmp"
    for path in [*planted, alive]:
        path.write_bytes(b"half a cache")
    assert run_toolc("build", str(config)).returncode == 0
    assert not any(p.exists() for p in planted)
    assert alive.exists()  # a build still running: its temporary is left alone
    alive.unlink()


def test_a_file_written_while_the_build_runs_is_kept(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    done = crashing(config, {"LATE_FILE": "late.txt"})
    assert done.returncode == 0, done.stderr
    out = config / "generated" / "mcp_tools"
    assert (out / "late.txt").read_text() == "written while the build ran\n"
    assert all((out / rel).read_text() == text for rel, text in USER_FILES.items())
    assert leftovers(config / "generated") == []


def test_two_builds_of_one_output_run_one_after_the_other(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    before, expected, _ = states
    config = tmp_path / "cfg"
    shutil.copytree(before, config)
    out = config / "generated" / "mcp_tools"
    release = tmp_path / "release"  # the first build holds its lock until this exists
    env = {**os.environ, "SLOW_AT": "rename:1", "RELEASE": str(release)}
    first = subprocess.Popen(
        [sys.executable, str(SCRIPT), "build", str(config), "--out", str(out), "--no-cache"],
        env=env, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not lock_path(out).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    second = subprocess.Popen(
        [str(Path(sys.executable).parent / "toolc"), "build", str(config), "--no-cache"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert second.stderr is not None
    said = second.stderr.readline()  # the second build says it waits, while it waits
    release.touch()
    assert first.wait(timeout=60) == 0
    rest = second.stderr.read()
    assert second.wait(timeout=60) == 0, said + rest
    assert "waiting for another toolc build" in said and str(lock_path(out).name) in said
    assert tree(out) == expected
    assert not lock_path(out).exists() and leftovers(config / "generated") == []


def test_a_build_gives_up_on_a_held_lock_naming_it(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    out = config / "generated" / "mcp_tools"
    with OutputLockHeld(out):
        os.environ["TOOLC_LOCK_TIMEOUT"] = "0.3"
        try:
            refused = run_toolc("build", str(config))
        finally:
            del os.environ["TOOLC_LOCK_TIMEOUT"]
    assert refused.returncode == 1
    assert "error[output-locked]" in refused.stderr and ".mcp_tools.toolc-lock" in refused.stderr
    assert "output-locked" in refused.stderr
    assert "internal error" not in refused.stderr


def test_planted_links_at_temporary_names_are_never_followed(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    generated = config / "generated"
    for pid in range(os.getpid(), os.getpid() + 50):  # the names older builds used
        for name in (f".mcp_tools.toolc-new-{pid}", f".mcp_tools.toolc-old-{pid}"):
            (generated / name).symlink_to(victim)
        (config / f".mcp-tools.json.toolc-new-{pid}").symlink_to(victim / "precious.txt")
    assert run_toolc("build", str(config)).returncode == 0
    assert (victim / "precious.txt").read_text() == "keep me" and len(list(victim.iterdir())) == 1


def test_forged_manifest_entries_cost_the_user_nothing(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    out = config / "generated" / "mcp_tools"
    outside = config / "outside.txt"
    outside.write_text("outside")
    manifest = json.loads((out / ".toolc-manifest.json").read_text())
    manifest["files"].update(
        {"notes.txt": "0" * 64, "../../outside.txt": "0" * 64, "/etc/hostname": "0" * 64}
    )
    (out / ".toolc-manifest.json").write_text(json.dumps(manifest))
    assert run_toolc("build", str(config)).returncode == 0
    assert (out / "notes.txt").read_text() == "mine\n" and outside.read_text() == "outside"


def test_special_files_in_the_output_are_never_read(
    states: tuple[Path, dict[str, bytes], bytes], tmp_path: Path
) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(states[0], config)
    out = config / "generated" / "mcp_tools"
    (out / "zeros").symlink_to("/dev/zero")
    os.mkfifo(out / "pipe")
    (out / "tools.json").unlink()
    (out / "tools.json").symlink_to("/dev/zero")  # a generated path
    checked = run_toolc("check", str(config))
    assert checked.returncode == 1 and "tools.json differs" in checked.stderr
    assert run_toolc("build", str(config)).returncode == 0
    assert (out / "zeros").is_symlink() and (out / "pipe").is_fifo()
    assert not (out / "tools.json").is_symlink() and (out / "tools.json").stat().st_size > 100


@pytest.mark.parametrize(
    "rel",
    ["a.py", "tools/a.py", "a..b/c", ".hidden", "", "/etc/passwd", "//x", "a//b", "a/",
     "./a", "a/./b", "../a", "a/..", "a\\b", "a\0b", "..", "."],
)  # fmt: skip
def test_a_manifest_path_is_kept_only_when_plainly_inside_the_package(rel: str) -> None:
    """The same judgement as the path's own parts give (PurePosixPath, no ``.``/``..``)."""
    from pathlib import PurePosixPath

    from toolc.workspace.manifest import plain_relative

    parts = rel.split("/")
    inside = (
        bool(rel)
        and "\0" not in rel
        and "\\" not in rel
        and not PurePosixPath(rel).is_absolute()
        and all(p not in ("", ".", "..") for p in parts)
    )
    assert plain_relative(rel) is inside
    assert inside is (rel in ("a.py", "tools/a.py", "a..b/c", ".hidden"))


def test_every_short_path_is_judged_as_its_parts_judge_it() -> None:
    """Every string of up to six characters over the alphabet that matters (separators, dots,
    NUL, a backslash, letters), against the parts' own judgement: the substring scans
    `plain_relative` uses instead of a split are exact."""
    import itertools

    from toolc.workspace.manifest import plain_relative

    judged = 0
    for length in range(7):
        for chars in itertools.product("a/.\\\0b", repeat=length):
            rel = "".join(chars)
            inside = (
                bool(rel)
                and "\0" not in rel
                and "\\" not in rel
                and not rel.startswith("/")
                and all(p not in ("", ".", "..") for p in rel.split("/"))
            )
            assert plain_relative(rel) is inside, repr(rel)
            judged += 1
    assert judged == sum(6**n for n in range(7))


@pytest.mark.parametrize("why", ["docs not ours", "snapshot folder missing"])
def test_a_refused_build_leaves_no_folder_it_made(tmp_path: Path, why: str) -> None:
    """ "Writes nothing unless everything succeeds": a build refused while writing left the
    output's parent folder (made for its lock) behind, empty."""
    config = tmp_path / "cfg"
    config.mkdir()
    for name in ("tools.yaml", "tool_policies.yaml"):
        shutil.copy(ROOT / "examples" / "retail" / name, config / name)
    args = ["build", str(config), "--out", str(tmp_path / "deep" / "er" / "mcp_tools")]
    if why == "docs not ours":
        (config / "docs").mkdir()
        (config / "docs" / "retail.md").write_text("mine\n")
        args += ["--docs-out", str(config / "docs")]
    else:
        args += ["--snapshot", str(tmp_path / "nowhere" / "snap.json")]
    done = run_toolc(*args)
    assert done.returncode == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cfg"]
    assert sorted(p.name for p in config.iterdir()) == sorted(
        ["tools.yaml", "tool_policies.yaml", *(["docs"] if why == "docs not ours" else [])]
    )


def test_a_failed_build_does_not_pull_the_folder_from_under_a_waiting_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Build A, interrupted while it holds the lock of an output in a new folder, removes
    that folder; build B, waiting for the lock there, makes it again and goes on."""
    import threading

    import toolc.workspace.committing as committing
    from toolc.workspace.manifest import Manifest

    out = tmp_path / "new" / "out"
    real_stage = committing._stage_all
    calls: list[int] = []

    def stage(trees: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:  # A: holds the lock a while, then is interrupted
            time.sleep(0.6)
            raise KeyboardInterrupt
        return real_stage(trees)

    monkeypatch.setattr(committing, "_stage_all", stage)
    results: dict[str, str] = {}

    def build(tag: str) -> None:
        manifest = Manifest("toolc x", "0" * 64, {"a.txt": "x"}, {"a.txt": 1})
        try:
            committing.commit(out, {"a.txt": b"x"}, manifest, tmp_path / "s.json", b"{}\n")
            results[tag] = "ok"
        except BaseException as exc:  # A's interrupt is the point
            results[tag] = type(exc).__name__

    first = threading.Thread(target=build, args=("A",))
    first.start()
    time.sleep(0.2)
    second = threading.Thread(target=build, args=("B",))
    second.start()
    first.join()
    second.join()
    committing.finish_cleanup()
    assert results == {"A": "KeyboardInterrupt", "B": "ok"}
    assert (out / "a.txt").read_bytes() == b"x"
