"""The only module that writes to disk.

A build replaces the output directory and the snapshot as one step: everything is written to a
staging directory first, then swapped in with renames; any failure (an error, an exception, an
interrupt) before or during the swap leaves the previous output and snapshot byte-identical.
toolc records the files it owns in a manifest and never deletes or overwrites a file it did not
write: files of the user's inside the output directory are carried over into the new one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import orjson

MANIFEST = ".toolc-manifest.json"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Manifest:
    generator: str
    inputs: str  # sha256 of the raw inputs: equal means a rebuild would change nothing
    files: dict[str, str] = field(default_factory=dict)  # relative path → sha256
    sizes: dict[str, int] = field(default_factory=dict)  # relative path → bytes

    def to_bytes(self) -> bytes:
        data = {
            "generator": self.generator,
            "inputs": self.inputs,
            "files": self.files,
            "sizes": self.sizes,
        }
        return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()

    @classmethod
    def read(cls, out_dir: Path) -> Manifest | None:
        try:
            data = orjson.loads((out_dir / MANIFEST).read_bytes())
            files = data["files"]
            if not isinstance(files, dict):
                return None
            sizes = data.get("sizes", {})
            return cls(
                str(data["generator"]),
                str(data["inputs"]),
                {str(k): str(v) for k, v in files.items()},
                {str(k): int(v) for k, v in sizes.items()},
            )
        except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
            return None


class NotOwnedError(Exception):
    """A generated file would overwrite a file toolc did not write."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__(", ".join(paths))
        self.paths = paths


def foreign_files(out_dir: Path, owned: set[str]) -> list[str]:
    """Files in the output directory that toolc did not write (relative paths, sorted)."""
    if not out_dir.is_dir():
        return []
    found = []
    for path in sorted(out_dir.rglob("*")):
        if path.is_file() or path.is_symlink():
            rel = path.relative_to(out_dir).as_posix()
            if rel not in owned and rel != MANIFEST and "__pycache__" not in rel.split("/"):
                found.append(rel)
    return found


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _unchanged(out_dir: Path, previous: Manifest | None, manifest: Manifest) -> set[str]:
    """Files whose recorded digest and size did not change: candidates for linking."""
    if previous is None:
        return set()
    return {
        rel
        for rel, sha in manifest.files.items()
        if previous.files.get(rel) == sha and previous.sizes.get(rel) == manifest.sizes.get(rel)
    }


def _link(source: Path, target: Path, data: bytes) -> bool:
    """Hard-link `source` as `target` when it holds exactly `data` (reading is cheaper than
    writing, and a hand edit that kept the size must still be replaced). The old directory is
    renamed away, not rewritten, so the link keeps the bytes. False: the caller writes."""
    try:
        if source.read_bytes() != data:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, target)
    except OSError:
        return False
    return True


def _carry_directories(out_dir: Path, staging: Path) -> None:
    """The user's folders (empty ones too) and every folder's permissions come along."""
    if not out_dir.is_dir():
        return
    for folder in sorted(p for p in out_dir.rglob("*") if p.is_dir() and not p.is_symlink()):
        rel = folder.relative_to(out_dir)
        if "__pycache__" in rel.parts:
            continue
        target = staging / rel
        target.mkdir(parents=True, exist_ok=True)
        shutil.copymode(folder, target)
    shutil.copymode(out_dir, staging)


def commit(
    out_dir: Path, files: dict[str, bytes], manifest: Manifest, snapshot_path: Path, snapshot: bytes
) -> None:
    """Replace the output directory with `files` (plus the manifest) and the snapshot, as one."""
    previous = Manifest.read(out_dir)
    foreign = foreign_files(out_dir, set(previous.files) if previous else set())
    # A file toolc did not record but whose bytes are exactly what it would write (say, after the
    # manifest was deleted) loses nothing by being adopted; any other clash is refused.
    clashes = [
        rel for rel in foreign if rel in files and (out_dir / rel).read_bytes() != files[rel]
    ]
    foreign = [rel for rel in foreign if rel not in files]
    if clashes:
        raise NotOwnedError(clashes)
    parent = out_dir.parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = parent / f".{out_dir.name}.toolc-new-{os.getpid()}"
    backup = parent / f".{out_dir.name}.toolc-old-{os.getpid()}"
    snapshot_tmp = snapshot_path.with_name(f".{snapshot_path.name}.toolc-new-{os.getpid()}")
    swapped = False
    try:
        shutil.rmtree(staging, ignore_errors=True)
        unchanged = _unchanged(out_dir, previous, manifest)
        for rel, data in files.items():
            if rel in unchanged and _link(out_dir / rel, staging / rel, data):
                continue  # the same bytes are already on disk: link, do not rewrite
            _write(staging / rel, data)
        for rel in foreign:  # the user's files stay where they were
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out_dir / rel, target, follow_symlinks=False)
        _carry_directories(out_dir, staging)
        _write(staging / MANIFEST, manifest.to_bytes())
        _write(snapshot_tmp, snapshot)
        if out_dir.exists():
            os.rename(out_dir, backup)
        swapped = True
        os.rename(staging, out_dir)
        os.replace(snapshot_tmp, snapshot_path)
    except BaseException:
        if swapped:
            if backup.exists():
                shutil.rmtree(out_dir, ignore_errors=True)
                os.rename(backup, out_dir)
            else:  # there was no previous output
                shutil.rmtree(out_dir, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
        snapshot_tmp.unlink(missing_ok=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)


@dataclass(frozen=True, slots=True)
class Drift:
    missing: list[str]
    changed: list[str]
    orphaned: list[str]


def compare(out_dir: Path, files: dict[str, bytes]) -> Drift:
    """How the output directory differs from `files` (read only)."""
    previous = Manifest.read(out_dir)
    missing, changed = [], []
    for rel, data in files.items():
        path = out_dir / rel
        if not path.is_file():
            missing.append(rel)
        elif path.read_bytes() != data:
            changed.append(rel)
    owned = set(previous.files) if previous else set()
    orphaned = sorted(rel for rel in owned - set(files) if (out_dir / rel).exists())
    return Drift(missing, changed, orphaned)
