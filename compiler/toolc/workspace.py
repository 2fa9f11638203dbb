"""The only module that writes to disk.

A build replaces the output directory and the snapshot as one step: everything is written to a
staging directory first, then swapped in with renames; any failure (an error, an exception, an
interrupt) before or during the swap leaves the previous output and snapshot byte-identical.
toolc records the files it owns in a manifest and never deletes or overwrites a file it did not
write: files of the user's inside the output directory are carried over into the new one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import orjson

MANIFEST = ".toolc-manifest.json"
INDEX_FILES = ("tools.json", "registry.py", "__init__.py")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Manifest:
    generator: str
    inputs: str  # sha256 of the raw inputs: equal means a rebuild would change nothing
    files: dict[str, str] = field(default_factory=dict)  # relative path → sha256
    sizes: dict[str, int] = field(default_factory=dict)  # relative path → bytes

    def summary(self) -> dict[str, object]:
        """What the no-op check looks at: the files per folder, and the index files' sizes."""
        counts: dict[str, int] = {}
        for rel in self.files:
            folder = rel.rpartition("/")[0]
            counts[folder] = counts.get(folder, 0) + 1
        index = {rel: self.sizes[rel] for rel in INDEX_FILES if rel in self.sizes}
        return {"counts": dict(sorted(counts.items())), "index": index}

    def to_bytes(self) -> bytes:
        # The small keys first, the per-file maps last: the no-op check reads only the head
        # (`read_head`), which at 5,000 tools saves parsing 20,000 entries.
        option = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
        head = {"generator": self.generator, "inputs": self.inputs, "summary": self.summary()}
        tail = {"files": self.files, "sizes": self.sizes}
        first = orjson.dumps(head, option=option)[:-2]  # without the closing "\n}"
        rest = orjson.dumps(tail, option=option)[1:]  # without the opening "{"
        return first + b"," + rest + b"\n"

    @staticmethod
    def read_head(out_dir: Path) -> dict[str, object] | None:
        """The manifest's small keys (`generator`, `inputs`, `summary`) without the rest."""
        try:
            with (out_dir / MANIFEST).open("rb") as stream:
                head = stream.read(1 << 16)
            cut = head.find(b'\n  "files": ')
            if cut < 0:
                return None
            data = orjson.loads(head[: cut - 1] + b"\n}")  # drop the comma before "files"
        except (OSError, orjson.JSONDecodeError):
            return None
        return data if isinstance(data, dict) else None

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


def _tree(out_dir: Path) -> tuple[list[str], list[str]]:
    """Every file (symlinks included) and every folder below `out_dir`, as relative POSIX
    paths, `__pycache__` left out. os.walk on strings: pathlib's rglob cost 0.14 s here for
    the 4,000 files of a 1,000-tool package."""
    files: list[str] = []
    folders: list[str] = []
    root = str(out_dir)
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(here, root).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        folders += [prefix + d for d in dirs if not os.path.islink(os.path.join(here, d))]
        files += [prefix + n for n in names]
        files += [prefix + d for d in dirs if os.path.islink(os.path.join(here, d))]
    return sorted(files), sorted(folders)


def foreign_files(out_dir: Path, owned: set[str]) -> list[str]:
    """Files in the output directory that toolc did not write (relative paths, sorted)."""
    if not out_dir.is_dir():
        return []
    return [rel for rel in _tree(out_dir)[0] if rel not in owned and rel != MANIFEST]


GENERATED_MARK = b"# Code generated by toolc "  # the first line of every generated module


def _adoptable(path: Path, data: bytes) -> bool:
    """Whether a file toolc has no record of may be replaced by `data`: it holds `data`
    already, or it is a generated module (marked so in its first line) that `data` replaces."""
    current = path.read_bytes()
    return current == data or (
        current.startswith(GENERATED_MARK) and data.startswith(GENERATED_MARK)
    )


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


Signature = tuple[int, int, int]  # size, mtime in ns, inode: a file as the last build left it


def signature(path: str | Path) -> Signature:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns, st.st_ino


def _read(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def _link(source: str, target: str, data: bytes, known: Signature | None) -> bool:
    """Hard-link `source` as `target` when it holds exactly `data` (reading is cheaper than
    writing, and a hand edit that kept the size must still be replaced; a file whose size,
    mtime and inode are still those the last build left is trusted unread, as make does). The
    old directory is renamed away, not rewritten, so the link keeps the bytes. False: the
    caller writes."""
    try:
        if (known is None or signature(source) != known) and _read(source) != data:
            return False
        os.link(source, target)
    except OSError:
        return False
    return True


def _carry_directories(out_dir: Path, staging: Path, folders: list[str]) -> None:
    """The user's folders (empty ones too) and every folder's permissions come along."""
    if not out_dir.is_dir():
        return
    for rel in folders:
        target = staging / rel
        target.mkdir(parents=True, exist_ok=True)
        shutil.copymode(out_dir / rel, target)
    shutil.copymode(out_dir, staging)


def commit(
    out_dir: Path,
    files: dict[str, bytes],
    manifest: Manifest,
    snapshot_path: Path,
    snapshot: bytes,
    known: Mapping[str, Signature] | None = None,
) -> list[str]:
    """Replace the output directory with `files` (plus the manifest) and the snapshot, as one.
    `known`: the files' signatures after the last build (from the build cache). Returns the
    files whose signature is not in `known` any more (written, or linked after a read)."""
    previous = Manifest.read(out_dir)
    present, folders = _tree(out_dir) if out_dir.is_dir() else ([], [])
    owned = set(previous.files) if previous else set()
    foreign = [rel for rel in present if rel not in owned and rel != MANIFEST]
    # A file toolc did not record but whose bytes are exactly what it would write (say, after the
    # manifest was deleted), or that declares itself generated by toolc in its first line, loses
    # nothing by being adopted; any other clash is refused.
    clashes = [rel for rel in foreign if rel in files and not _adoptable(out_dir / rel, files[rel])]
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
        unverified: list[str] = []  # files whose signature must be taken again
        # Strings, not Paths, and each folder made once: this loop runs for every file.
        old, new = str(out_dir) + os.sep, str(staging) + os.sep
        for folder in sorted({rel.rpartition("/")[0] for rel in files}):
            os.makedirs(new + folder, exist_ok=True)
        for rel, data in files.items():
            known_sig = known.get(rel) if known else None
            if rel in unchanged and _link(old + rel, new + rel, data, known_sig):
                if known_sig is None:
                    unverified.append(rel)
                continue  # the same bytes are already on disk: link, do not rewrite
            _write(staging / rel, data)
            unverified.append(rel)
        for rel in foreign:  # the user's files stay where they were
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out_dir / rel, target, follow_symlinks=False)
        _carry_directories(out_dir, staging, folders)
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
    # The old output is deleted in the background while the caller saves the build cache
    # (4,000 unlinks at 1,000 tools); `finish_cleanup` waits for it before the process ends.
    cleanup = threading.Thread(target=shutil.rmtree, args=(backup, True), daemon=False)
    cleanup.start()
    _CLEANUPS.append(cleanup)
    return unverified


_CLEANUPS: list[threading.Thread] = []


def finish_cleanup() -> None:
    """Wait for the old outputs being deleted in the background."""
    while _CLEANUPS:
        _CLEANUPS.pop().join()


def signatures(out_dir: Path, files: Iterable[str]) -> dict[str, Signature]:
    root = str(out_dir) + os.sep
    return {rel: signature(root + rel) for rel in files}


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


def save_cache(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write the build cache whole or not at all. A cache is an optimisation: a directory that
    cannot be written leaves the build as it is."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as stream:
            write(stream)
        os.replace(tmp, path)
    except Exception:  # the build is committed already; a cache not saved costs only time
        tmp.unlink(missing_ok=True)


def save_cache_bytes(path: Path, data: bytes) -> None:
    """`save_cache` of bytes already made."""

    def write(stream: BinaryIO) -> None:
        stream.write(data)

    save_cache(path, write)


def materialize(root: Path, files: Mapping[str, bytes]) -> None:
    """Write `files` under a fresh directory `root` (`toolc serve` runs a package from a
    temporary folder of its own)."""
    for rel, data in files.items():
        _write(root / rel, data)


def create_new(path: Path, data: bytes) -> bool:
    """Write `path` only if it does not exist, whole or not at all. False: it exists."""
    tmp = path.with_name(f".{path.name}.toolc-new-{os.getpid()}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_bytes(data)
    try:
        os.link(tmp, path)  # fails when `path` exists: never an overwrite
    except FileExistsError:
        return False
    finally:
        tmp.unlink(missing_ok=True)
    return True


def replace_file(path: Path, data: bytes) -> None:
    """Rewrite a file the user owns (tools.yaml, for `toolc bump --write`) in one step: the old
    bytes or the new ones, never a mix; its permissions kept."""
    tmp = path.with_name(f".{path.name}.toolc-new-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
