"""What each output file looked like when the last build left it (size, mtime in ns, inode),
kept in the user's cache directory: the no-op check (`uptodate`) hashes only the files whose
signature changed since, so a hand edit of a generated file is noticed without reading the
whole output. Plain JSON: the files' names in the build's order and their signatures as one
flat list of integers, which a no-op compares in one step. Keyed by the build's inputs
digest and authenticated with the user's cache key (cache.key); never trusted beyond a
shortcut (a file whose signature differs is read and compared with the manifest's digest).
Standard library and orjson only: this runs before anything else is imported."""

from __future__ import annotations

import hmac
import os
from collections.abc import Iterator, Mapping
from itertools import chain
from pathlib import Path

import orjson

from toolc.cache.dirs import cache_path
from toolc.cache.key import record_mac
from toolc.workspace.files import Signature, signature_of
from toolc.workspace.private import refusal


def stats_file(config_dir: Path, out_dir: Path, snapshot_path: Path) -> Path | None:
    return cache_path(config_dir, out_dir, snapshot_path, "stats.json")


class Recorded:
    """The files a build left (`names`) and their signatures, three integers each, flat."""

    __slots__ = ("flat", "names")

    def __init__(self, names: list[str], flat: list[int]) -> None:
        self.names, self.flat = names, flat


def triples(flat: list[int]) -> Iterator[Signature]:
    run = iter(flat)
    return zip(run, run, run, strict=True)


def current(root: str, names: list[str]) -> list[int]:
    """The signatures of `root + name` for each name, flat, as `Recorded.flat` holds them;
    OSError when one is missing. One C-level pass: no stat result outlives its file (a list
    of 20,000 of them costs a third more than the stats, mostly in the collector)."""
    return list(chain.from_iterable(map(signature_of, map(os.stat, map(root.__add__, names)))))


def encode(inputs: str, stats: Mapping[str, Signature]) -> bytes:
    files = orjson.dumps({"names": list(stats), "flat": list(chain.from_iterable(stats.values()))})
    return orjson.dumps({"inputs": inputs, "mac": record_mac(inputs, files)}) + b"\n" + files


def load(path: Path | None, inputs: str) -> Recorded | None:
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
        # The MAC proved this is encode()'s own: names and three ints per name. A record in an
        # older layout (a dict by name) fails here and is not used.
        names, flat = data["names"], data["flat"]
        if type(names) is not list or type(flat) is not list or len(flat) != 3 * len(names):
            return None
        "".join(names)  # TypeError unless every name is a string (a record of our own is)
        return Recorded(names, flat)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
