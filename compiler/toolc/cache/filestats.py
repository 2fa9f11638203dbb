"""What each output file looked like when the last build left it (size, mtime in ns, inode),
kept in the user's cache directory: the no-op check (`uptodate`) hashes only the files whose
signature changed since, so a hand edit of a generated file is noticed without reading the
whole output. Plain JSON, keyed by the build's inputs digest and authenticated with the
user's cache key (cache.key); never trusted beyond a shortcut (a file whose signature
differs is read and compared with the manifest's digest).
Standard library and orjson only: this runs before anything else is imported."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import orjson

from toolc.cache.dirs import cache_path
from toolc.cache.key import record_mac
from toolc.workspace.files import Signature
from toolc.workspace.private import refusal


def stats_file(config_dir: Path, out_dir: Path, snapshot_path: Path) -> Path | None:
    return cache_path(config_dir, out_dir, snapshot_path, "stats.json")


def encode(inputs: str, stats: Mapping[str, Signature]) -> bytes:
    files = orjson.dumps({rel: list(s) for rel, s in stats.items()})
    return orjson.dumps({"inputs": inputs, "mac": record_mac(inputs, files)}) + b"\n" + files


def load(path: Path | None, inputs: str) -> dict[str, Signature] | None:
    """The recorded signatures of the build whose inputs digest is `inputs`, or None: also
    when the record is not the user's own (other users can write it, or its MAC fails)."""
    if path is None or refusal(path) is not None:
        return None
    try:
        head, _, files = path.read_bytes().partition(b"\n")
        meta = orjson.loads(head)
        if meta["inputs"] != inputs or not hmac.compare_digest(
            str(meta["mac"]), record_mac(inputs, files)
        ):
            return None
        data = orjson.loads(files)
        # The MAC proved these are encode()'s own lists of three ints: tuple() is enough
        # (a third of the per-file int() conversions' time, which grows with the output).
        return cast(dict[str, Signature], {rel: tuple(s) for rel, s in data.items()})
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
