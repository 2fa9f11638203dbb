"""What each output file looked like when the last build left it (size, mtime in ns, inode),
kept in the user's cache directory: the no-op check (`uptodate`) hashes only the files whose
signature changed since, so a hand edit of a generated file is noticed without reading the
whole output. The files' names in the build's order and their signatures as one flat list of
integers, which a no-op compares in one step, in marshal's format (read in ~1.5 ms at 5,000
tools, where orjson's import alone costs the no-op's fast path 13 ms). Keyed by the build's
inputs digest and authenticated with the user's cache key (cache.key) before it is decoded;
never trusted beyond a shortcut (a file whose signature differs is read and compared with the
manifest's digest). Standard library only: this runs before anything else is imported."""

from __future__ import annotations

import hmac
import marshal
import os
from itertools import chain

from toolc.cache.dirs import cache_file
from toolc.cache.key import record_mac
from toolc.workspace.files import Signature, signature_of
from toolc.workspace.private import refusal

TYPE_CHECKING = False  # not typing's: see workspace.files
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path


def stats_file(
    config_dir: str | Path, out_dir: str | Path, snapshot_path: str | Path
) -> str | None:
    return cache_file(config_dir, out_dir, snapshot_path, "stats")


class Recorded:
    """The files a build left (`names`) and their signatures, three integers each, flat:
    `flat`, decoded only when a no-op must look at single files (`packed` compares whole).
    `reported`: the build reported diagnostics, which a no-op would not repeat."""

    __slots__ = ("names", "packed", "reported")

    def __init__(self, names: list[str], packed: bytes, reported: bool = False) -> None:
        self.names, self.packed, self.reported = names, packed, reported

    @property
    def flat(self) -> list[int]:
        flat = marshal.loads(self.packed)
        if type(flat) is not list or len(flat) != 3 * len(self.names):
            raise ValueError("not a record of signatures")
        return flat


def triples(flat: list[int]) -> Iterator[Signature]:
    run = iter(flat)
    return zip(run, run, run, strict=True)


def current(root: str, names: list[str]) -> list[int]:
    """The signatures of `root + name` for each name, flat, as `Recorded.flat` holds them;
    OSError when one is missing. One C-level pass: no stat result outlives its file (a list
    of 20,000 of them costs a third more than the stats, mostly in the collector)."""
    return list(chain.from_iterable(map(signature_of, map(os.stat, map(root.__add__, names)))))


def pack(flat: list[int]) -> bytes:
    """Signatures as a record holds them. marshal's version 2: it writes no back-references,
    which depend on which equal integers are the same object, so equal lists give equal bytes
    (and a no-op compares 60,000 integers in 1 ms at 5,000 tools, measured)."""
    return marshal.dumps(flat, 2)


# The body of a record whose build reported diagnostics: no signatures, so no file is
# trusted, and three NULs, which no list of names joined by one NUL starts with.
_REPORTED = b"\0\0\0reported"


def encode(inputs: str, stats: Mapping[str, Signature], reported: bool = False) -> bytes:
    """The names joined by NUL (which no path holds), then the packed signatures; or, for a
    build that reported diagnostics, the mark that makes the next no-op check fail."""
    if reported:
        body = _REPORTED
    else:
        names = "\0".join(stats).encode("utf-8", "surrogateescape")
        body = names + b"\0\0" + pack(list(chain.from_iterable(stats.values())))
    return record_mac(inputs, body).encode() + b"\n" + body


def load(path: str | None, inputs: str) -> Recorded | None:
    """The recorded signatures of the build whose inputs digest is `inputs`, or None: also
    when the record is not the user's own (other users can write it, or its MAC fails)."""
    return verified(read(path), inputs)


class Unverified:
    """A record as read (`read`), not yet verified: its names are what the no-op check
    looks at while the inputs are hashed, trusted only once `verified` says so. None for
    the record of a build that reported diagnostics."""

    __slots__ = ("body", "mac", "names", "packed")

    def __init__(self, mac: bytes, body: bytes) -> None:
        self.mac, self.body = mac, body
        self.names: list[str] | None = None
        self.packed = b""
        if body != _REPORTED:
            names, _, self.packed = body.partition(b"\0\0")
            self.names = names.decode("utf-8", "surrogateescape").split("\0") if names else []


def read(path: str | None) -> Unverified | None:
    """The record at `path`, parsed once, from a file of the user's own only."""
    if path is None or refusal(path) is not None:
        return None
    try:
        with open(path, "rb") as stream:
            mac, _, body = stream.read().partition(b"\n")
    except OSError:
        return None
    return Unverified(mac, body)


def verified(raw: Unverified | None, inputs: str) -> Recorded | None:
    """The record read, when it is the one of the build whose inputs digest is `inputs`
    (its MAC holds: it is encode()'s own, and a record in an older layout fails); else
    None."""
    if raw is None or not hmac.compare_digest(raw.mac, record_mac(inputs, raw.body).encode()):
        return None
    if raw.names is None:
        return Recorded([], b"", reported=True)
    return Recorded(raw.names, raw.packed)
