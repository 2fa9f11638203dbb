"""The build cache is written while the output is committed (store.Saving): everything but
the output's signatures streams out during the commit, the signatures come last once the
output exists, and a commit that fails leaves the cache as it was, with no temporary file."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest
from test_cache_codec import CODEC, KEY, VALUE
from test_incremental import _base, _describe, _write
from toolc import verbs, workspace
from toolc.cache import incremental
from toolc.cache.overlap import Handoff
from toolc.workspace.manifest import MANIFEST


def _cache(config: Path, out: Path, snap: Path) -> Path:
    path = incremental.cache_file(config.resolve(), out.resolve(), snap.resolve())
    assert path is not None
    return path


def _first_build(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The suite's base config built once: its folder, output and snapshot."""
    config, out, snap = tmp_path / "cfg", tmp_path / "o" / "pkg", tmp_path / "o.json"
    _write(config, *_base())
    assert verbs.build(config, out, snap, write=True, cwd=tmp_path).written
    return config, out, snap


def _files(out: Path) -> list[str]:
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def test_the_cache_keeps_the_signatures_of_the_committed_files(tmp_path: Path) -> None:
    config, out, snap = _first_build(tmp_path)
    tools, policies = _base()
    _write(config, *_describe(tools, policies))
    edited = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert edited.written and edited.reread is not None  # the incremental path
    cache = incremental.load(_cache(config, out, snap))
    assert cache is not None
    rels = [rel for rel in _files(out) if rel != MANIFEST]  # toolc's own record of them
    assert sorted(cache.stats) == rels
    assert cache.stats == workspace.signatures(out, rels)


def test_a_failed_commit_leaves_the_cache_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, out, snap = _first_build(tmp_path)
    tools, policies = _base()
    path = _cache(config, out, snap)
    before = path.read_bytes()

    def full_disk(*args: object, **kwargs: object) -> list[str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(workspace, "commit", full_disk)
    _write(config, *_describe(tools, policies))
    refused = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert not refused.written
    assert [d.code for d in refused.diagnostics][-1:] == ["io-error"]
    assert path.read_bytes() == before
    assert _no_temporaries(path)
    monkeypatch.undo()
    again = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert again.written and again.reread is not None  # the old cache still serves


def test_the_last_field_given_late_writes_the_same_file() -> None:
    whole: list[bytes | memoryview] = []
    CODEC.dump(VALUE, KEY, "t", whole.append)
    late: list[bytes | memoryview] = []
    empty = msgspec.structs.replace(VALUE, stats={})  # its last field, given late
    CODEC.dump(empty, KEY, "t", late.append, last=("stats", lambda: VALUE.stats))
    assert b"".join(late) == b"".join(whole)
    assert CODEC.loads(b"".join(late), KEY, "t") == VALUE


def test_a_late_field_that_fails_ends_the_writing() -> None:
    written: list[bytes | memoryview] = []

    def abandoned() -> object:
        raise LookupError("the commit failed")

    with pytest.raises(LookupError):
        CODEC.dump(VALUE, KEY, "t", written.append, last=("stats", abandoned))
    assert not any(bytes(chunk).startswith(b"\n") and len(chunk) == 66 for chunk in written)


def test_only_the_last_field_can_come_late() -> None:
    written: list[bytes | memoryview] = []
    with pytest.raises(TypeError, match="not the last field"):
        CODEC.dump(VALUE, KEY, "t", written.append, last=("blob", lambda: b"x"))
    assert written == []  # refused before a byte


def test_a_handoff_gives_its_value_or_its_failure() -> None:
    given = Handoff()
    given.give({"a": 1})
    assert given.take() == {"a": 1}
    assert given.take() == {"a": 1}  # taken twice, it answers twice
    failed = Handoff()
    failed.fail(KeyError("x"))
    with pytest.raises(KeyError):
        failed.take()


def _no_temporaries(cache: Path) -> bool:
    """No temporary file of this cache (the folder is the whole session's)."""
    ours = f".{cache.name}."
    return not [n for n in os.listdir(cache.parent) if n.startswith(ours) and n.endswith(".tmp")]


def test_a_failure_after_the_commit_ends_the_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The output is committed, but its signatures cannot be read: the build has written
    it, and the cache being written is dropped, not left waiting with its temporary file."""
    config, out, snap = _first_build(tmp_path)
    tools, policies = _base()
    path = _cache(config, out, snap)
    before = path.read_bytes()

    def unreadable(*args: object, **kwargs: object) -> dict[str, object]:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(workspace, "signatures", unreadable)
    _write(config, *_describe(tools, policies))
    edited = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert edited.written and not [d for d in edited.diagnostics if d.code == "io-error"]
    assert path.read_bytes() == before and _no_temporaries(path)
    monkeypatch.undo()
    _write(config, *_describe(*_describe(tools, policies)))
    assert verbs.build(config, out, snap, write=True, cwd=tmp_path).written


def test_a_cache_that_cannot_be_made_fails_after_the_output_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As before the cache was written beside the commit: the output first, then the error."""
    from toolc.cache import rebuild

    config, out, snap = _first_build(tmp_path)
    tools, policies = _base()
    written = (out / "tools.json").read_bytes()

    def broken(*args: object) -> None:
        raise KeyError("a bug in the cache")

    monkeypatch.setattr(rebuild, "new_cache", broken)
    _write(config, *_describe(tools, policies))
    with pytest.raises(KeyError, match="a bug in the cache"):
        verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert (out / "tools.json").read_bytes() != written  # the edit's output is in place
    assert _no_temporaries(_cache(config, out, snap))
