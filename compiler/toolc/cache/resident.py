"""The build daemon's memory of build caches (decision 0123): a layer under `store`, off
unless the daemon turns it on, so that a one-shot build never sees it.

A build's new cache is not written when the build ends but kept here, *pending*, and written
once the daemon has been idle for a moment (`flush`): a run of quick rebuilds then pays
neither writing the cache (about 0.06 s at 1,000 tools) nor reading it back (about 0.1 s).
The next build of the same output takes the pending cache, the newest there is. A cache
written or read here is kept with its file's signature (size, mtime in ns, inode) and the
key it was authenticated with; while the file still has that signature and the key is the
same, the next build takes it from memory, and any other file there (another process's
build, a tampered one) is loaded and judged as always. Until a flush the file on disk is an
older cache, which a build of any process may still use: a cache is only a shortcut to what
a full build gives, so an older one costs time, never correctness."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import msgspec

from toolc import workspace
from toolc.cache import incremental, prefetch
from toolc.cache.codec import Frames, Reuse
from toolc.cache.incremental import BuildCache
from toolc.cache.key import cache_key
from toolc.workspace import Signature
from toolc.workspace import private as cache_trust

_KEPT_CACHES = 4  # the outputs a daemon remembers; each is about a build's size in memory


class _Kept(msgspec.Struct, frozen=True):
    signature: Signature | None  # None: pending, not written yet
    key: bytes
    cache: BuildCache
    frames: Frames  # each record's encoded form, where known
    reuse: Reuse | None = None  # pending: the frames its dump may take as they are


_enabled = False
_kept: OrderedDict[Path, _Kept] = OrderedDict()
_counts = {"memory": 0, "disk": 0}


def enable() -> None:
    global _enabled
    _enabled = True
    prefetch.turn_off()  # its caches come from here


def enabled() -> bool:
    return _enabled


def counts() -> dict[str, int]:
    """How many builds took a cache from memory, and how many read one from disk."""
    return dict(_counts)


def _signature(path: Path) -> Signature | None:
    try:
        return workspace.signature(path)
    except OSError:
        return None


def load(path: Path, warn: Callable[[str], None] | None, frames: Frames) -> BuildCache | None:
    """`incremental.load`, from memory when the cache kept is still the one to use."""
    key = cache_key()
    kept = _kept.get(path)
    before = _signature(path)
    usable = kept is not None and kept.key == key and kept.signature in (None, before)
    if kept is not None and usable and cache_trust.refusal(path) is None:
        _kept.move_to_end(path)
        _counts["memory"] += 1
        frames.update(kept.frames)
        return kept.cache
    _kept.pop(path, None)
    cache = incremental.load(path, warn, frames)
    _counts["disk"] += 1
    if cache is not None and before is not None and _signature(path) == before:
        _keep(path, _Kept(before, key, cache, dict(frames)))
    return cache


def save(path: Path, cache: BuildCache, previous: BuildCache | None, reuse: Reuse | None) -> None:
    """Keep `cache` pending, to be written at `flush`. The frames known for it are those of
    the records it shares with `previous` (the same objects, so the same bytes)."""
    frames: Frames = {}
    if reuse is not None and previous is not None:
        for name, record in cache.records.items():
            frame = reuse("records", name, record)
            if frame is not None:
                frames[("records", name)] = frame
    _keep(path, _Kept(None, cache_key(), cache, frames, reuse))


def pending() -> bool:
    return any(kept.signature is None for kept in _kept.values())


def flush() -> None:
    """Write every pending cache, each under the key it was made with, and keep it as
    written, in its place in the order (one that cannot be written is let go: it would be
    tried again and again)."""
    for path, kept in list(_kept.items()):
        if kept.signature is None:
            written = _written(path, kept)
            if written is None:
                del _kept[path]
            else:
                _kept[path] = written


def _written(path: Path, kept: _Kept) -> _Kept | None:
    """The pending cache written: kept with its file's signature (None: not written)."""
    written: Frames = {}

    def write(stream: BinaryIO) -> None:
        incremental.dump(kept.cache, path, stream, kept.reuse, written, key=kept.key)

    before = _signature(path)
    workspace.save_cache(path, write)  # never raises: a cache not saved costs only time
    signature = _signature(path)
    if signature is not None and signature != before and written:  # a new file: ours
        return _Kept(signature, kept.key, kept.cache, written)
    return None


def _keep(path: Path, kept: _Kept) -> None:
    _kept[path] = kept
    _kept.move_to_end(path)
    while len(_kept) > _KEPT_CACHES:
        oldest, dropped = _kept.popitem(last=False)
        if dropped.signature is None:  # written on its way out, not kept
            _written(oldest, dropped)
