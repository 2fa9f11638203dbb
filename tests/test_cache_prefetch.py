"""The build cache read ahead (cache.prefetch), while the compiler is imported: the load uses
that read only for the same file under the same key, judges it exactly as a file it reads
itself, and a build through the command uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_toolc
from test_incremental import _base, _describe, _write
from toolc import verbs
from toolc.cache import incremental, prefetch


def _built(tmp_path: Path, name: str = "o") -> Path:
    """A config built once: the path of the cache it left."""
    config, out, snap = tmp_path / "cfg", tmp_path / name / "pkg", tmp_path / f"{name}.json"
    if not config.exists():
        _write(config, *_base())
    assert verbs.build(config, out, snap, write=True, cwd=tmp_path).written
    path = incremental.cache_file(config.resolve(), out.resolve(), snap.resolve())
    assert path is not None and path.exists()
    return path


def test_the_load_takes_the_read_made_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _built(tmp_path)
    expected = incremental.load(path)
    prefetch.start(path)

    def read_again(where: Path, key: bytes) -> prefetch.Read:
        raise AssertionError(f"{where} read again")

    monkeypatch.setattr(prefetch, "read", read_again)
    assert incremental.load(path) == expected
    assert prefetch.take(path) is None  # taken once


def test_a_read_of_another_file_is_not_used(tmp_path: Path) -> None:
    first, second = _built(tmp_path, "a"), _built(tmp_path, "b")
    assert first != second
    prefetch.start(first)
    loaded = incremental.load(second)
    assert loaded is not None and loaded == incremental.load(second)
    assert prefetch.take(first) is None  # dropped by the load of the other file


def test_a_read_signed_under_another_key_is_judged_under_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLC_CACHE_KEY", "first")
    path = _built(tmp_path)
    prefetch.start(path)  # its MAC computed under the key the cache was written with
    monkeypatch.setenv("TOOLC_CACHE_KEY", "second")
    said: list[str] = []
    assert incremental.load(path, said.append) is None
    assert said and "its key does not match" in said[0], said


def test_a_file_refused_ahead_is_refused_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _built(tmp_path)
    path.chmod(0o666)  # others may write it: not the user's own cache any more
    prefetch.start(path)

    def read_again(where: Path, key: bytes) -> prefetch.Read:
        raise AssertionError(f"{where} read again")

    monkeypatch.setattr(prefetch, "read", read_again)  # the refusal is the one read ahead
    said: list[str] = []
    assert incremental.load(path, said.append) is None
    assert said and "can be written by other users" in said[0], said


def test_a_read_ahead_of_a_file_since_removed_is_never_used(tmp_path: Path) -> None:
    path = _built(tmp_path)
    prefetch.start(path)
    path.unlink()
    assert incremental.load(path) is None
    rebuilt = _built(tmp_path)  # the same build again: a new cache at the same path
    assert rebuilt == path and prefetch.take(path) is None


def test_the_build_daemon_reads_nothing_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolc.cache import resident

    path = _built(tmp_path)
    monkeypatch.setattr(resident, "_enabled", False)  # put back as it was afterwards
    monkeypatch.setattr(prefetch, "_on", True)
    resident.enable()
    prefetch.start(path)
    assert prefetch.take(path) is None


def test_a_one_tool_edit_through_the_command_is_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command starts the read ahead; the edit it builds is the full build's."""
    monkeypatch.setenv("TOOLC_NO_DAEMON", "1")
    config = tmp_path / "cfg"
    tools, policies = _base()
    _write(config, tools, policies)
    first = run_toolc("build", str(config), "--out", str(tmp_path / "a"))
    assert first.returncode == 0, first.stderr
    _write(config, *_describe(tools, policies))
    edited = run_toolc("build", str(config), "--out", str(tmp_path / "a"))
    assert edited.returncode == 0, edited.stderr
    full = run_toolc(
        "build", str(config), "--out", str(tmp_path / "b"), "--snapshot",
        str(tmp_path / "b.json"), "--no-cache",
    )  # fmt: skip
    assert full.returncode == 0, full.stderr

    def tree(out: Path) -> dict[str, bytes]:
        return {
            p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.name != ".toolc-manifest.json"
        }

    assert tree(tmp_path / "a") == tree(tmp_path / "b")
