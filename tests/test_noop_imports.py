"""Issue 16: the no-op rebuild pays only for what it uses. tempfile (with shutil and random
beneath it) cost it ~15 ms of a ~0.1 s run, measured, and it never writes a file; the cache
codec ~3 ms, and it reads only small records (cache.key authenticates them); rglob's
Path objects cost it ~5 ms where os.walk finds the same list of toolc's own files; the
workspace's staging and committing ~3.5 ms, and it commits nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from toolc.cache import uptodate
from toolc.resources import data_dir

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "retail"

_PROBE = """
import sys
from toolc.cli import run
status = run(["build", sys.argv[1], "--out", sys.argv[2], "--snapshot", sys.argv[3]])
print(status, *sorted(m for m in (
    "tempfile", "shutil", "random", "secrets", "toolc.cache.codec", "toolc.workspace.staging",
    "toolc.workspace.committing") if m in sys.modules))
"""


def test_a_no_op_build_imports_nothing_it_only_needs_to_write(tmp_path: Path) -> None:
    env = {**os.environ, "TOOLC_CACHE_DIR": str(tmp_path / "cache"), "TOOLC_CACHE_KEY": "k"}
    argv = [str(EXAMPLE), str(tmp_path / "out" / "pkg"), str(tmp_path / "out" / "snap.json")]
    first = subprocess.run([sys.executable, "-c", _PROBE, *argv], env=env, capture_output=True)
    assert first.stdout.split()[0] == b"0", first.stderr
    assert b"tempfile" in first.stdout  # the probe can see a module the real build imported
    assert b"toolc.workspace.committing" in first.stdout
    again = subprocess.run([sys.executable, "-c", _PROBE, *argv], env=env, capture_output=True)
    assert b"up to date" in again.stderr, again.stderr
    assert again.stdout.split() == [b"0"], again.stdout


def test_toolc_s_own_files_are_the_ones_rglob_finds_in_its_order() -> None:
    package = Path(uptodate.__file__).resolve().parent.parent
    for folder, pattern in ((package, "*.py"), (data_dir("templates"), "*.j2")):
        expected = [
            (p.relative_to(folder).as_posix(), str(p)) for p in sorted(folder.rglob(pattern))
        ]
        assert uptodate._sources(str(folder), pattern[1:]) == expected
        assert len(expected) > 5


_DOCS_PROBE = """
import sys
from toolc.cli import run
status = run(["build", *sys.argv[1:]])
print(status, "toolc.reference" in sys.modules)
"""


def test_a_build_without_docs_out_does_not_import_the_reference_docs(tmp_path: Path) -> None:
    """~8 ms of every build that writes no docs (measured)."""
    env = {**os.environ, "TOOLC_CACHE_DIR": str(tmp_path / "cache"), "TOOLC_CACHE_KEY": "k"}
    out = ["--out", str(tmp_path / "out" / "pkg"), "--snapshot", str(tmp_path / "snap.json")]
    plain = subprocess.run(
        [sys.executable, "-c", _DOCS_PROBE, str(EXAMPLE), *out], env=env, capture_output=True
    )
    assert plain.stdout.split() == [b"0", b"False"], plain.stderr
    docs = ["--docs-out", str(tmp_path / "docs")]
    with_docs = subprocess.run(
        [sys.executable, "-c", _DOCS_PROBE, str(EXAMPLE), *out, *docs],
        env=env,
        capture_output=True,
    )
    assert with_docs.stdout.split() == [b"0", b"True"], with_docs.stderr


_CORE_PROBE = """
import sys
from toolc.cli import run
status = run(["build", *sys.argv[1:]])
print(status, "pydantic_core" in sys.modules)
"""


def test_pydantic_core_is_loaded_only_for_a_pattern_to_check(tmp_path: Path) -> None:
    """The Rust regex engine vets each pattern's translation; a config without a pattern
    never loads pydantic-core (~11 ms of a build, measured)."""
    env = {**os.environ, "TOOLC_CACHE_DIR": str(tmp_path / "cache"), "TOOLC_CACHE_KEY": "k"}
    for example, loaded in (("gateway", b"False"), ("retail", b"True")):
        folder = EXAMPLE.parent / example
        assert (b"pattern" in (folder / "tools.yaml").read_bytes()) == (loaded == b"True")
        out = [
            "--out",
            str(tmp_path / example / "pkg"),
            "--snapshot",
            str(tmp_path / f"{example}.json"),
        ]
        done = subprocess.run(
            [sys.executable, "-c", _CORE_PROBE, str(folder), *out], env=env, capture_output=True
        )
        assert done.stdout.split() == [b"0", loaded], done.stderr


def test_the_workspace_s_lazy_names_are_the_ones_its_parts_define() -> None:
    """Every exported name resolves to its part's own object (a function that shares its
    module's name included), and a name the workspace does not export is an AttributeError."""
    import importlib

    from toolc import workspace

    for name in workspace.__all__:
        value = getattr(workspace, name)
        homes = [
            part
            for part in ("committing", "comparing", "files", "lock", "manifest")
            if getattr(importlib.import_module(f"toolc.workspace.{part}"), name, None) is value
        ]
        assert homes, name
    assert callable(workspace.compare) and workspace.compare.__module__.endswith(".comparing")
    try:
        workspace.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("an unknown name resolved")


_CHECK_PROBE = """
import sys
from toolc.cli import run
status = run(["check", *sys.argv[1:]])
print(status, *sorted(m for m in ("toolc.cache.store", "toolc.emit.package", "jinja2")
    if m in sys.modules))
"""


def test_check_before_a_first_build_imports_no_emitter_and_no_cache(tmp_path: Path) -> None:
    """It stops after the checks: the build cache, which imports the emitters and jinja2,
    cost it ~35 ms (measured at 1,000 tools). Once there is an output to compare, both are
    loaded."""
    env = {**os.environ, "TOOLC_CACHE_DIR": str(tmp_path / "cache"), "TOOLC_CACHE_KEY": "k"}
    config = tmp_path / "config"
    config.mkdir()
    for name in ("tools.yaml", "tool_policies.yaml"):
        (config / name).write_bytes((EXAMPLE / name).read_bytes())
    before = subprocess.run(
        [sys.executable, "-c", _CHECK_PROBE, str(config)], env=env, capture_output=True
    )
    assert before.stdout.split() == [b"0"], (before.stdout, before.stderr)
    built = subprocess.run(
        [sys.executable, "-m", "toolc", "build", str(config)], env=env, capture_output=True
    )
    assert built.returncode == 0, built.stderr
    after = subprocess.run(
        [sys.executable, "-c", _CHECK_PROBE, str(config)], env=env, capture_output=True
    )
    assert after.stdout.split() == [b"0", b"jinja2", b"toolc.cache.store", b"toolc.emit.package"]
