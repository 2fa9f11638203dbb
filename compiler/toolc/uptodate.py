"""The no-op rebuild: decide from the raw bytes alone, before anything is parsed or imported,
whether a build would change nothing. Imports only the standard library."""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from toolc import __version__
from toolc.resources import data_dir
from toolc.workspace import MANIFEST, Manifest

INPUT_FILES = ("tools.yaml", "tool_policies.yaml")


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


@functools.cache
def generator_fingerprint() -> bytes:
    """toolc's own code and templates: a generator changed without a version bump (a
    development build) must not pass for an up-to-date one. About 60 small files."""
    h = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent
    for folder, pattern in ((package, "*.py"), (data_dir("templates"), "*.j2")):
        for path in sorted(folder.rglob(pattern)):
            h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.digest()


def inputs_digest(config_dir: Path, snapshot: bytes | None, out_dir: Path) -> str:
    """Everything a build reads: toolc itself, the config files, the snapshot, the output
    location. Equal digests mean equal builds."""
    h = hashlib.sha256(generator_fingerprint() + f"\0{out_dir.name}\0".encode())
    for name in INPUT_FILES:
        data = _read(config_dir / name)
        h.update(b"\0missing\0" if data is None else hashlib.sha256(data).digest())
    h.update(b"\0missing\0" if snapshot is None else hashlib.sha256(snapshot).digest())
    return h.hexdigest()


def is_up_to_date(config_dir: Path, out_dir: Path, snapshot_path: Path) -> bool:
    head = Manifest.read_head(out_dir)
    current = inputs_digest(config_dir, _read(snapshot_path), out_dir)
    if head is None or head.get("inputs") != current:
        return False
    # The rule: hash the raw inputs, parse nothing. On top of that, a cheap look at the
    # output: every recorded directory lists the recorded number of files, and the index files
    # have their recorded sizes. A hand edit inside a generated file is not looked for here;
    # `toolc check` compares bytes and reports it, and the next real build restores it.
    summary = head.get("summary")
    if not isinstance(summary, dict):
        return False
    counts, index = summary.get("counts"), summary.get("index")
    if not isinstance(counts, dict) or not isinstance(index, dict):
        return False
    try:
        for folder, count in counts.items():
            names = os.listdir(out_dir / folder)
            present = sum(1 for n in names if n != MANIFEST and not n.startswith("__pycache__"))
            if present < count:
                return False
        for rel, size in index.items():
            if (out_dir / rel).stat().st_size != size:
                return False
    except (OSError, TypeError):
        return False
    return True
