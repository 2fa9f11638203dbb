"""What each output file looked like when the last build left it (size, mtime in ns, inode),
kept in the user's cache directory: the no-op check (`uptodate`) hashes only the files whose
signature changed since, so a hand edit of a generated file is noticed without reading the
whole output. Plain JSON, keyed by the build's inputs digest; never trusted beyond a
shortcut (a file whose signature differs is read and compared with the manifest's digest).
Standard library and orjson only: this runs before anything else is imported."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import orjson

from toolc.cachedir import cache_path

Signature = tuple[int, int, int]  # size, mtime in ns, inode


def stats_file(config_dir: Path, out_dir: Path, snapshot_path: Path) -> Path | None:
    return cache_path(config_dir, out_dir, snapshot_path, "stats.json")


def encode(inputs: str, stats: Mapping[str, Signature]) -> bytes:
    return orjson.dumps({"inputs": inputs, "files": {rel: list(s) for rel, s in stats.items()}})


def load(path: Path | None, inputs: str) -> dict[str, Signature] | None:
    """The recorded signatures of the build whose inputs digest is `inputs`, or None."""
    if path is None:
        return None
    try:
        data = orjson.loads(path.read_bytes())
        if data["inputs"] != inputs:
            return None
        return {str(rel): (int(s[0]), int(s[1]), int(s[2])) for rel, s in data["files"].items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
