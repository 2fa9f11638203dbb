"""Issue 16: toolc's own fingerprint (cache.generator) is remembered under its files'
signatures, so a no-op build stats them instead of hashing them; a changed file, a record
of another key or a forged one is never taken for it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from toolc.cache import generator, uptodate


def _files(tmp_path: Path) -> list[tuple[str, str]]:
    made = []
    for name, text in (("a.py", "A = 1\n"), ("b/c.py", "C = 2\n")):
        path = tmp_path / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        made.append((name, str(path)))
    return made


def _counting(files: list[tuple[str, str]], calls: list[int]) -> Callable[[], bytes]:
    def compute() -> bytes:
        calls.append(1)
        return b"".join(Path(p).read_bytes() for _, p in files)

    return compute


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("TOOLC_CACHE_DIR", str(root))
    monkeypatch.setenv("TOOLC_CACHE_KEY", "one key")
    monkeypatch.delenv("TOOLC_NO_CACHE", raising=False)
    return root


def test_the_same_files_are_hashed_once(tmp_path: Path, cache: Path) -> None:
    files, calls = _files(tmp_path), []
    first = generator.remembered(files, _counting(files, calls))
    again = generator.remembered(files, _counting(files, calls))
    assert first == again == b"A = 1\nC = 2\n"
    assert len(calls) == 1


def test_a_changed_file_is_hashed_again(tmp_path: Path, cache: Path) -> None:
    files, calls = _files(tmp_path), []
    generator.remembered(files, _counting(files, calls))
    path = Path(files[1][1])
    path.write_text("C = 3\n")  # same size: the mtime and the signature still move
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert generator.remembered(files, _counting(files, calls)) == b"A = 1\nC = 3\n"
    assert len(calls) == 2


def test_a_record_of_another_key_or_forged_is_not_trusted(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, calls = _files(tmp_path), []
    generator.remembered(files, _counting(files, calls))
    (record,) = cache.glob("generator-*.fingerprint")
    mac, _, _fingerprint = record.read_bytes().partition(b"\n")
    record.write_bytes(mac + b"\nforged")
    assert generator.remembered(files, _counting(files, calls)) == b"A = 1\nC = 2\n"
    monkeypatch.setenv("TOOLC_CACHE_KEY", "another key")
    assert generator.remembered(files, _counting(files, calls)) == b"A = 1\nC = 2\n"
    assert len(calls) == 3


def test_without_a_cache_it_always_hashes(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLC_NO_CACHE", "1")
    files, calls = _files(tmp_path), []
    generator.remembered(files, _counting(files, calls))
    generator.remembered(files, _counting(files, calls))
    assert len(calls) == 2 and not cache.exists()


def test_toolc_s_fingerprint_is_the_same_remembered_or_hashed(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fingerprint = uptodate.generator_fingerprint.__wrapped__
    hashed_then_remembered = fingerprint(), fingerprint()
    monkeypatch.setenv("TOOLC_NO_CACHE", "1")
    assert hashed_then_remembered == (fingerprint(), fingerprint())
    assert len(list(cache.glob("generator-*.fingerprint"))) == 1
